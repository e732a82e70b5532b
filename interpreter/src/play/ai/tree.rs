//! What every player asks of a node of the game tree: is the game over there, and if so who
//! won; else which moves are legal. One move generation answers both, where the end rules
//! allow (the result itself is computed only at the end).

use crate::bitboard::Bitboard;
use crate::core::index::SideId;
use crate::outcome::Outcome;
use crate::rules::{Rules, MAX_SIDES};

pub(crate) use crate::outcome::{status, Status};

/// Per side (by index), what the result is worth: 1 for a win, 0 for a loss, ½ for a draw.
pub(crate) type Rewards = [f64; MAX_SIDES];

/// The rewards of a finished game.
pub(crate) fn rewards<B: Bitboard>(rules: &Rules<B>, result: &Outcome) -> Rewards {
    let mut rewards = [0.0; MAX_SIDES];
    for (side, reward) in rewards.iter_mut().enumerate().take(rules.sides) {
        *reward = if result.winners.is_empty() {
            0.5
        } else if result.winners.contains(&rules.definition.sides[side].name) {
            1.0
        } else {
            0.0
        };
    }
    rewards
}

/// Whether `side` is among the winners.
pub(crate) fn wins<B: Bitboard>(rules: &Rules<B>, result: &Outcome, side: SideId) -> bool {
    result
        .winners
        .contains(&rules.definition.sides[side.index()].name)
}
