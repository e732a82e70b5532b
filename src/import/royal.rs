//! Which pieces the language must call `royal`, and what a capture blows up: Fairy-Stockfish's
//! `extinctionPseudoRoyal` and `blastOnCapture` (atomic chess) as the language says them.
//!
//! Fairy-Stockfish's pseudo-royal pieces are the extinction types of a side holding at most
//! `extinctionPieceCount + 1` of them: no move may leave one attacked, and a side without a legal
//! move with one attacked is checkmated. That is the language's `royal` with `check` exactly when
//! the set of pseudo-royal pieces never changes: no piece of the type can be gained (it is no
//! promotion choice and not in a hand at the start), and each side holds at most the count that
//! keeps them all pseudo-royal. With `blastOnCapture` a pseudo-royal piece can still be blown up;
//! Fairy-Stockfish then ends the game by extinction, which is the language's `royal captured` when
//! each side has exactly one. Everything else is refused, never approximated.

use super::rules::{Rules, Verdict, ALL_PIECES, BLACK, WHITE};
use super::write::board_squares;

/// The royal pieces of an imported game beyond Fairy-Stockfish's `king`.
#[derive(Debug, Default)]
pub struct Royalty {
    /// Letters of the extinction types that are pseudo-royal (lower case).
    pub pseudo_royal: Vec<char>,
    /// `royal captured VERDICT`: the verdict for a side whose pseudo-royal piece exploded.
    pub captured: Option<Verdict>,
}

impl Royalty {
    /// Whether the pseudo-royal types replace the extinction rule (Fairy-Stockfish judges no
    /// extinction of pseudo-royal pieces but by a blast, which `royal captured` states).
    pub fn replaces_extinction(&self) -> bool {
        !self.pseudo_royal.is_empty()
    }
}

/// The royalty `rules` give their pieces, or why the language cannot state it exactly.
pub fn royalty(rules: &Rules) -> Result<Royalty, String> {
    let mut royalty = Royalty::default();
    if !rules.extinction_pseudo_royal || rules.extinction_piece_types.is_empty() {
        return Ok(royalty);
    }
    let types = &rules.extinction_piece_types;
    if types.contains(&ALL_PIECES) {
        return Err("`extinctionPseudoRoyal` with `extinctionPieceTypes = *` is not mapped".into());
    }
    if !rules.checking {
        return Err("`extinctionPseudoRoyal` with `checking = false` (Fairy-Stockfish's `checking` looks at the `king` only) is not mapped".into());
    }
    let board = board_squares(&rules.start_fen);
    let hand = start_hand(&rules.start_fen);
    let mut per_side = [0u32; 2];
    for &letter in types {
        if rules.promotion_types.iter().any(|t| t.contains(&letter)) {
            return Err(format!("`extinctionPseudoRoyal`: pawns may promote to the extinction type `{letter}`, so a side may gain one and its pieces stop being pseudo-royal: not mapped"));
        }
        if rules
            .promoted_piece_type
            .iter()
            .any(|&(from, _)| from == letter)
        {
            return Err(format!("`extinctionPseudoRoyal`: the extinction type `{letter}` promotes (`promotedPieceType`), and a promoted piece is no longer of its type: not mapped"));
        }
        if hand.iter().any(|c| c.to_ascii_lowercase() == letter) {
            return Err(format!("`extinctionPseudoRoyal`: the extinction type `{letter}` is in a hand at the start: not mapped"));
        }
        for (side, count) in per_side.iter_mut().enumerate() {
            let mine = board
                .values()
                .filter(|&&c| c.to_ascii_lowercase() == letter && is_side(c, side))
                .count() as u32;
            if mine > rules.extinction_piece_count + 1 {
                return Err(format!("`extinctionPseudoRoyal`: a side starts with {mine} pieces of the extinction type `{letter}`, more than `extinctionPieceCount` + 1, so they are not pseudo-royal: not mapped"));
            }
            *count += mine;
        }
    }
    if rules.blast_on_capture {
        // A blast can destroy a pseudo-royal piece; Fairy-Stockfish's extinction then ends the
        // game as soon as a type is down to `extinctionPieceCount`.
        let one_each = per_side == [1, 1] && types.len() == 1;
        if !one_each
            || rules.extinction_piece_count != 0
            || rules.extinction_opponent_piece_count != 0
        {
            return Err("`extinctionPseudoRoyal` with `blastOnCapture` is mapped only for one piece of one extinction type per side (atomic's king), extinct at 0".into());
        }
        let Some(value) = rules.extinction_value else {
            return Err("`extinctionPseudoRoyal` with `blastOnCapture` and no `extinctionValue` (a king blown up ends nothing) is not mapped".into());
        };
        royalty.captured = Some(value);
    }
    royalty.pseudo_royal = types.clone();
    Ok(royalty)
}

/// The pieces in hand of a start FEN (`[...]` after the board), as written.
fn start_hand(fen: &str) -> Vec<char> {
    let board = fen.split_whitespace().next().unwrap_or("");
    board
        .split_once('[')
        .map(|(_, hand)| hand.chars().filter(|c| c.is_ascii_alphabetic()).collect())
        .unwrap_or_default()
}

fn is_side(letter: char, side: usize) -> bool {
    match side {
        WHITE => letter.is_ascii_uppercase(),
        BLACK => letter.is_ascii_lowercase(),
        _ => false,
    }
}

/// The `capture` block's lines for `blastOnCapture`, or why it cannot be written: the blast
/// removes the capturer and every piece on the eight squares around the capture square except
/// Fairy-Stockfish's `pawn` type.
pub fn blast_lines(rules: &Rules) -> Result<Vec<String>, String> {
    if !rules.blast_on_capture {
        return Ok(Vec::new());
    }
    if rules.pieces.iter().any(|p| p.slot == "king") {
        return Err("`blastOnCapture` with a `king` (Fairy-Stockfish's atomic blows up a commoner, extinct or pseudo-royal) is not mapped".into());
    }
    if rules.piece_drops || rules.captures_to_hand {
        return Err("`blastOnCapture` with drops is not mapped".into());
    }
    let around = match rules.pieces.iter().find(|p| p.slot == "pawn") {
        Some(pawn) => format!("remove around except {}", super::write::piece_name(pawn)),
        None => "remove around".to_string(),
    };
    Ok(vec!["remove capturer".into(), around])
}
