//! What every player asks of a node of the game tree: is the game over there, and if so who
//! won; else which moves are legal. One move generation answers both, where the end rules
//! allow (the result itself is computed only at the end).

use crate::bitboard::Bitboard;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::outcome::{ends_before_actions, ends_with_actions, outcome, Outcome};
use crate::position::Position;
use crate::rules::{Rules, MAX_SIDES};

/// A node: finished, or the legal moves.
pub(crate) enum Status {
    Over(Outcome),
    Moves(Vec<Move>),
}

/// The status of `position`, reached after the positions whose hashes are in `path`.
pub(crate) fn status<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    path: &[u64],
) -> Status {
    let finished = |rules, position| {
        // The end rules said the game is over; `outcome` says how (a draw if, against the
        // rules' word, it disagrees).
        Status::Over(outcome(rules, position, path).unwrap_or(Outcome {
            winners: Vec::new(),
            reason: crate::outcome::Reason::Stalemate,
        }))
    };
    if ends_before_actions(rules, position, path) {
        return finished(rules, position);
    }
    let moves = legal_moves(rules, position);
    if ends_with_actions(rules, position, &moves) {
        return finished(rules, position);
    }
    Status::Moves(moves)
}

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
pub(crate) fn wins<B: Bitboard>(rules: &Rules<B>, result: &Outcome, side: usize) -> bool {
    result.winners.contains(&rules.definition.sides[side].name)
}
