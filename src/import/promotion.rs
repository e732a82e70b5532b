//! Shogi's promotion as the language says it: Fairy-Stockfish's `promotedPieceType`,
//! `mandatoryPiecePromotion` and `immobilityIllegal`.
//!
//! Fairy-Stockfish promotes a piece with a promoted type on any move that starts or ends in the
//! promotion region (the pawn: on a move that ends there, with its other choices), into that
//! type, written `+` and the piece's letter, going back to the piece when captured into a hand.
//! The language gives the promoted form a piece type of its own (`piece PromotedPawn { letter +P
//! }`, moving as the promoted type) and the piece `promotes [optionally] on or from squares ...
//! to PromotedPawn` (docs/language.md §2.6.2). Two differences decide what is exact:
//!
//! - A rule that counts or finds pieces of a type (extinction, flag, `dropNoDoubled`, castling)
//!   counts the promoted ones too in Fairy-Stockfish; import refuses such a rule on a promoted
//!   type rather than leave them out.
//! - Where a piece could never move again ("stranded": none of its quiet first steps lands on
//!   the board), the language forces an optional promotion, and Fairy-Stockfish forbids the
//!   plain move only with `immobilityIllegal` (for every piece, promoting or not). So stranding
//!   squares are computed from Fairy-Stockfish's Betza and every mismatch is refused.

use super::betza;
use super::rules::{Piece, Rules, Square, BLACK, WHITE};
use super::write::{on_board, piece_name, square_name};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The language's name of the promoted form of `piece`.
pub fn promoted_name(piece: &Piece) -> String {
    format!("Promoted{}", piece_name(piece))
}

/// The promoted form of the piece lettered `letter`, if it has one: the promoted type.
pub fn promoted_type(rules: &Rules, letter: char) -> Option<&Piece> {
    let (_, to) = rules
        .promoted_piece_type
        .iter()
        .find(|&&(from, _)| from == letter)?;
    rules.piece(*to)
}

/// Whether `piece` appears only as a promoted form: a promoted type that is in no start
/// position, hand or promotion choice (mansindam's pieces marked `+`). Its own block is not
/// written: the language would count it as one more piece type.
pub fn only_promoted(rules: &Rules, piece: &Piece) -> bool {
    let letter = piece.letter;
    let board = rules.start_fen.split_whitespace().next().unwrap_or("");
    rules
        .promoted_piece_type
        .iter()
        .any(|&(_, to)| to == letter)
        && !board.chars().any(|c| c.to_ascii_lowercase() == letter)
        && !rules.promotion_types.iter().any(|t| t.contains(&letter))
        && !rules
            .promoted_piece_type
            .iter()
            .any(|&(from, _)| from == letter)
}

/// Checks that the promotions and `immobilityIllegal` can be said exactly.
pub fn check(rules: &Rules) -> Result<(), String> {
    for &(from, to) in &rules.promoted_piece_type {
        let (Some(source), Some(target)) = (rules.piece(from), rules.piece(to)) else {
            return Err("`promotedPieceType` names a piece the variant no longer has".into());
        };
        if rules.promoted_piece_type.iter().any(|&(f, _)| f == to) {
            return Err(format!(
                "`promotedPieceType`: `{to}`, a promoted type, promotes again: not mapped"
            ));
        }
        if source.slot == "king" || target.slot == "king" || target.slot == "pawn" {
            return Err(format!(
                "`promotedPieceType = {from}:{to}` with a king or to a pawn is not mapped"
            ));
        }
        // `*` (any piece) counts promoted forms in the language too.
        let counted = rules
            .extinction_piece_types
            .iter()
            .chain(rules.flag_piece.iter().flatten())
            .chain(rules.castling_king_piece.iter().flatten())
            .chain(rules.drop_no_doubled.iter())
            .any(|&c| c == to);
        if counted {
            return Err(format!("`promotedPieceType`: a rule counts or finds pieces of `{to}`, a promoted type (Fairy-Stockfish counts the promoted pieces with them): not mapped"));
        }
    }
    for piece in &rules.pieces {
        stranding(rules, piece)?;
    }
    Ok(())
}

/// Whether the stranding squares of `piece` are treated alike (see the module docs).
fn stranding(rules: &Rules, piece: &Piece) -> Result<(), String> {
    let betza = if piece.slot == "pawn" {
        "fmW"
    } else {
        piece.fsf_betza.as_str()
    };
    let steps = betza::quiet_first_steps(betza)?;
    let shogi = promoted_type(rules, piece.letter).is_some();
    let pawn = piece.slot == "pawn";
    for side in [WHITE, BLACK] {
        let stranded = stranded_squares(rules, &steps, side);
        if stranded.is_empty() {
            continue;
        }
        let zone = on_board(&rules.promotion_region[side], rules);
        let promotes = (pawn && !rules.promotion_types[side].is_empty()) || shogi;
        let name = piece_name(piece);
        if rules.immobility_illegal {
            // Fairy-Stockfish forbids the plain move there; the language must force a promotion.
            if !promotes || !stranded.is_subset(&zone) {
                return Err(format!("`immobilityIllegal`: the {name} may move where it could never move again without promoting there; Fairy-Stockfish forbids that move and the language allows it: not mapped"));
            }
            if shogi && !pawn && !rules.mandatory_piece_promotion && betza.contains(['m', 'c']) {
                return Err(format!("`immobilityIllegal`: the {name} moves and captures differently; where it is stranded is not known to agree: not mapped"));
            }
        } else if shogi && !pawn && !rules.mandatory_piece_promotion && !stranded.is_disjoint(&zone)
        {
            // The language forces the optional promotion where the piece is stranded.
            return Err(format!("the {name} may promote optionally where it could never move again: Fairy-Stockfish lets it stay unpromoted there (without `immobilityIllegal`), the language forces the promotion: not mapped"));
        }
    }
    Ok(())
}

/// The squares where a piece with these first steps (dy forward for `side`) could never move.
fn stranded_squares(rules: &Rules, steps: &BTreeSet<(i32, i32)>, side: usize) -> BTreeSet<Square> {
    let (files, ranks) = (i32::from(rules.files), i32::from(rules.ranks));
    let mut out = BTreeSet::new();
    for f in 0..files {
        for r in 0..ranks {
            let lands = steps.iter().any(|&(dx, dy)| {
                let dy = if side == WHITE { dy } else { -dy };
                (0..files).contains(&(f + dx)) && (0..ranks).contains(&(r + dy))
            });
            if !lands {
                out.insert((f as u8, r as u8));
            }
        }
    }
    out
}

/// The `promotes` lines of a piece (not the pawn) with a promoted type: on any move starting or
/// ending in the side's promotion region, forced with `mandatoryPiecePromotion`.
pub fn promotes_lines(rules: &Rules, piece: &Piece) -> String {
    let mut out = String::new();
    if piece.slot == "pawn" || promoted_type(rules, piece.letter).is_none() {
        return out;
    }
    let optionally = if rules.mandatory_piece_promotion {
        ""
    } else {
        "optionally "
    };
    for (side, who) in [(WHITE, "white"), (BLACK, "black")] {
        let zone = on_board(&rules.promotion_region[side], rules);
        if zone.is_empty() {
            continue;
        }
        let squares: Vec<String> = zone.iter().map(|&s| square_name(s)).collect();
        let _ = writeln!(
            out,
            "    promotes for {who} {optionally}on or from squares {} to {}",
            squares.join(" "),
            promoted_name(piece)
        );
    }
    out
}

/// The promoted forms, one piece each: `+` and the piece's letter, the promoted type's moves.
pub fn promoted_blocks(rules: &Rules) -> String {
    let mut out = String::new();
    for piece in &rules.pieces {
        let Some(target) = promoted_type(rules, piece.letter) else {
            continue;
        };
        let _ = writeln!(
            out,
            "piece {} {{\n    letter +{}",
            promoted_name(piece),
            piece.letter.to_ascii_uppercase()
        );
        if !target.moves.is_empty() {
            let _ = writeln!(out, "    moves \"{}\"", target.moves);
        }
        out.push_str("}\n");
    }
    out
}
