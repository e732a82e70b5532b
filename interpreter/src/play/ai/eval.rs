//! A generic evaluation of a position, from the game file alone.
//!
//! Three terms, each read from the definition rather than written for a game, in hundredths of
//! a unit of `value` (a chess pawn is 100):
//! - material: the `value` of every piece a side has, on the board or in hand;
//! - the game's score, for games that keep one (100 per point): it decides those games;
//! - mobility: 5 per square the side controls (the squares its pieces attack, as `control`
//!   counts them), a cheap stand-in for freedom of movement that needs no move generation.
//!
//! A side's evaluation is its total minus the best total among its opponents, so that it works
//! for any number of sides.

use crate::bitboard::Bitboard;
use crate::control::side_control;
use crate::core::index::{BySide, SideId};
use crate::position::Position;
use crate::rules::Rules;
use crate::score::scores;

/// A won game is worth this, less the plies to reach it (the search's scores): evaluations
/// stay within half of it, so that no evaluation reads as a mate.
pub const MATE: i32 = 1_000_000;

/// Hundredths per unit of piece value.
pub const VALUE_SCALE: i64 = 100;
/// Per point of the game's score.
pub const SCORE_WEIGHT: i64 = 100;
/// Per controlled square.
pub const MOBILITY_WEIGHT: i64 = 5;

/// Each side's material: piece values on the board and in hand.
pub fn material<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> BySide<i64> {
    let mut material = BySide::splat(0i64);
    for side in rules.side_ids() {
        for piece in rules.piece_ids() {
            let count = (position.side_pieces(side) & position.typed(piece)).count() as i64
                + i64::from(position.hand(side, piece));
            let value = rules.definition.pieces[piece.index()].value;
            material[side] += count * i64::from(value) * VALUE_SCALE;
        }
    }
    material
}

/// The position seen by `side`: its total minus its strongest opponent's.
pub fn evaluate<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, side: SideId) -> i32 {
    let mut totals = material(rules, position);
    for s in rules.side_ids() {
        totals[s] += MOBILITY_WEIGHT * i64::from(side_control(rules, position, s).count());
    }
    if let Some(scores) = scores(rules, position) {
        for (s, score) in rules.side_ids().zip(scores) {
            totals[s] += SCORE_WEIGHT * score;
        }
    }
    let best_other = rules
        .side_ids()
        .filter(|&s| rules.is_enemy(side, s))
        .map(|s| totals[s])
        .max()
        .unwrap_or(0);
    (totals[side] - best_other).clamp(-(MATE as i64 / 2), MATE as i64 / 2) as i32
}
