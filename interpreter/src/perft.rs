//! Perft: the number of leaf nodes of the legal move tree, the standard correctness test of a
//! move generator. The last ply is counted without playing it (bulk counting).

use crate::bitboard::Bitboard;
use crate::movegen::{count_legal, legal_moves};
use crate::position::Position;
use crate::rules::Rules;

/// Leaf nodes at `depth` plies below `position`.
pub fn perft<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(rules, position),
        _ => legal_moves(rules, position)
            .into_iter()
            .map(|mv| {
                let mut next = position.clone();
                next.play_unchecked(rules, mv);
                perft(rules, &next, depth - 1)
            })
            .sum(),
    }
}

/// Perft per root move, in generation order, as `(uci, nodes)`.
pub fn divide<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    depth: u32,
) -> Vec<(String, u64)> {
    legal_moves(rules, position)
        .into_iter()
        .map(|mv| {
            let mut next = position.clone();
            next.play_unchecked(rules, mv);
            (mv.uci(rules), perft(rules, &next, depth.saturating_sub(1)))
        })
        .collect()
}
