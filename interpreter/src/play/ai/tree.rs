//! What every player asks of a node of the game tree: is the game over there, and if so who
//! won; else which moves are legal. One move generation answers both, where the end rules
//! allow (the result itself is computed only at the end).

use crate::bitboard::Bitboard;
use crate::core::index::{BySide, SideId};
use crate::outcome::Outcome;
use crate::rules::Rules;

pub(crate) use crate::outcome::{status, Status};

/// Per side, what the result is worth: 1 for a win, 0 for a loss, ½ for a draw.
pub(crate) type Rewards = BySide<f64>;

/// The rewards of a finished game (0 for the entries past the game's sides).
pub(crate) fn rewards<B: Bitboard>(rules: &Rules<B>, result: &Outcome) -> Rewards {
    BySide::from_fn(|side| {
        if side.index() >= rules.sides() {
            0.0
        } else if result.winners.is_empty() {
            0.5
        } else if wins(rules, result, side) {
            1.0
        } else {
            0.0
        }
    })
}

/// Whether `side` is among the winners.
pub(crate) fn wins<B: Bitboard>(rules: &Rules<B>, result: &Outcome, side: SideId) -> bool {
    result
        .winners
        .contains(&rules.definition().sides[side.index()].name)
}
