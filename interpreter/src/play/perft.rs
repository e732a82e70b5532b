//! Perft: the number of leaf nodes of the legal move tree, the standard correctness test of a
//! move generator. The last ply is counted without playing it (bulk counting).
//!
//! The tree stops where the game does: a position that the game's end rules declare finished
//! (checkmate and stalemate, but also repetition, the move limit, empty hands ...) has no
//! children. Repetition needs the positions before the root, so perft takes the game's history
//! and extends it along the path it explores. Published chess perft suites are unaffected:
//! their clocks and depths never reach a draw rule.
//!
//! Whether a repetition ended the game needs only the hashes; who won it (perpetual check,
//! perpetual chase) needs the history those rules keep at every action, which counting never
//! reads: perft plays its moves without it ([`Position::play_for_count`]).

use crate::bitboard::Bitboard;
use crate::legal::{
    count_legal_unless_ended, count_legal_unless_ended_with, legal_moves_into, KnownPlan,
};
use crate::moves::Move;
use crate::outcome::{end_reads_actions, ends_before_actions, ends_with_actions};
use crate::plan::same_key_after;
use crate::position::Position;
use crate::rules::Rules;

/// The deepest perft the engine accepts: the recursion keeps one position per ply on the stack,
/// and no game tree this deep could be counted anyway.
pub const MAX_DEPTH: u32 = 64;

/// Leaf nodes at `depth` plies below `position`, reached after the positions whose hashes are
/// in `history` (oldest first). `depth` is capped at [`MAX_DEPTH`].
pub fn perft<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    depth: u32,
    history: &[u64],
) -> u64 {
    let depth = depth.min(MAX_DEPTH);
    let mut path = history.to_vec();
    let mut lists = vec![Vec::new(); depth as usize];
    node(rules, position, depth, &mut path, &mut lists)
}

/// Perft per root move, in generation order, as `(uci, nodes)`; nothing when the game is over.
pub fn divide<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    depth: u32,
    history: &[u64],
) -> Vec<(String, u64)> {
    let depth = depth.min(MAX_DEPTH);
    let mut path = history.to_vec();
    let Some(moves) = children(rules, position, &path) else {
        return Vec::new();
    };
    path.push(position.hash());
    let mut lists = vec![Vec::new(); depth.saturating_sub(1) as usize];
    moves
        .into_iter()
        .map(|mv| {
            let mut next = *position;
            next.play_for_count(rules, mv);
            let count = node(rules, &next, depth.saturating_sub(1), &mut path, &mut lists);
            (mv.uci(rules), count)
        })
        .collect()
}

/// The legal moves below `position`, or `None` when the game is over there.
fn children<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    path: &[u64],
) -> Option<Vec<Move>> {
    let mut moves = Vec::new();
    children_into(rules, position, path, &mut moves).then_some(moves)
}

/// [`children`] into `moves` (the list of the node's ply, kept from one node to the next so
/// that no node allocates); false when the game is over there.
fn children_into<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    path: &[u64],
    moves: &mut Vec<Move>,
) -> bool {
    if ends_before_actions(rules, position, path) {
        return false;
    }
    legal_moves_into(rules, position, moves);
    !ends_with_actions(rules, position, moves)
}

/// The leaves `depth` plies below `position`; `lists`: a move list per ply below, `depth` of
/// them (the last for this node).
fn node<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    depth: u32,
    path: &mut Vec<u64>,
    lists: &mut [Vec<Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    // Bulk counting: when only "no legal move" can end the game by its moves, counting them is
    // enough (no moves counts zero).
    if depth == 1 && !end_reads_actions(rules) {
        return count_legal_unless_ended(rules, position, path);
    }
    let Some((moves, below)) = lists.split_last_mut() else {
        // One list per ply: `perft` and `divide` give `depth` of them.
        return 0;
    };
    if !children_into(rules, position, path, moves) {
        return 0;
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    path.push(position.hash());
    if depth == 2 && rules.folds_drop_rules() && !end_reads_actions(rules) {
        let total = last_ply(rules, position, moves, path);
        path.pop();
        return total;
    }
    let total = moves
        .iter()
        .map(|&mv| {
            let mut next = *position;
            next.play_for_count(rules, mv);
            node(rules, &next, depth - 1, path, below)
        })
        .sum();
    path.pop();
    total
}

/// The leaves below the children `moves` of `position` (`path` ending with its hash), counted in
/// bulk. A child made by the same kind of drop as the one before it has the same plan key
/// ([`same_key_after`]), and is given that child's plan rather than look it up.
fn last_ply<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    moves: &[Move],
    path: &[u64],
) -> u64 {
    let mut total = 0;
    // The move before, and the plan its child used (kept apart: moved as one value, the pair
    // was written field by field and read back whole, which stalls).
    let mut before: Option<Move> = None;
    let mut plan: KnownPlan<B> = None;
    for &mv in moves {
        let mut next = *position;
        next.play_for_count(rules, mv);
        let same = before.is_some_and(|previous| same_key_after(rules, previous, mv));
        let known = if same { plan.take() } else { None };
        let (count, used) = count_legal_unless_ended_with(rules, &next, path, known);
        total += count;
        before = Some(mv);
        plan = used;
    }
    total
}
