//! Writing [`Rules`] as a `.variant` file, stated whole (no `extends`), so that the file reads on
//! its own and plays as Fairy-Stockfish plays the section. What the rules need and the language
//! cannot say (an asymmetric double-step region, castling from a square that is not a corner)
//! is a refusal here too, pointing at the section's header.

use super::rules::{Piece, Refusal, Rules, Square, Verdict, BLACK, WHITE};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The text of the `.variant` file for section `name` (`source` names the configuration in the
/// file's comment), or why it cannot be written.
pub fn variant_text(
    name: &str,
    source: &str,
    rules: &Rules,
    line: usize,
) -> Result<String, Refusal> {
    let refuse = |reason: String| Refusal { line, reason };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Imported by `variant import` from section [{name}] of {source}."
    );
    let _ = writeln!(
        out,
        "// Fairy-Stockfish is the reference: docs/fairy-stockfish.md says how each option maps."
    );
    let _ = writeln!(out, "game \"{name}\"");
    let _ = writeln!(out, "board {}x{}", rules.files, rules.ranks);
    out.push_str("side white { forward up }\nside black { forward down }\nturns white black\n");
    let king = rules.pieces.iter().find(|p| p.slot == "king");
    for piece in &rules.pieces {
        out.push_str(&piece_block(piece, rules).map_err(refuse)?);
    }
    out.push_str(&castling_block(rules, king).map_err(refuse)?);
    let _ = writeln!(out, "setup \"{}\"", setup_fen(rules));
    if rules.captures_to_hand && !rules.piece_drops {
        return Err(refuse(
            "`capturesToHand` without `pieceDrops` is not mapped".into(),
        ));
    }
    if rules.piece_drops {
        out.push_str("actions moves drops\n");
        out.push_str(&pawn_drops(rules));
    }
    if rules.captures_to_hand {
        out.push_str("capture { to hand }\n");
    }
    out.push_str(&end_block(rules, king).map_err(refuse)?);
    Ok(out)
}

/// The language's name for a slot: `pawn` is `Pawn`, `customPiece3` is `CustomPiece3`.
pub fn piece_name(piece: &Piece) -> String {
    let mut chars = piece.slot.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn piece_block(piece: &Piece, rules: &Rules) -> Result<String, String> {
    let mut out = format!(
        "piece {} {{\n    letter {}\n",
        piece_name(piece),
        piece.letter.to_ascii_uppercase()
    );
    if piece.slot == "king" {
        out.push_str("    royal\n");
    }
    if piece.slot == "pawn" {
        out.push_str(&pawn_items(rules)?);
    } else if !piece.moves.is_empty() {
        let _ = writeln!(out, "    moves \"{}\"", piece.moves);
    }
    out.push_str("}\n");
    Ok(out)
}

/// The pawn: Fairy-Stockfish's `fmWfceF`, its double step and its promotion.
fn pawn_items(rules: &Rules) -> Result<String, String> {
    let mut out = String::new();
    let [white, black] = &rules.double_step_region;
    let double = rules.double_step
        && !(on_board(white, rules).is_empty() && on_board(black, rules).is_empty());
    if double {
        let rank = whole_rank(white, rules)
            .filter(|&r| whole_rank(black, rules) == Some(rules.ranks - 1 - r));
        let Some(rank) = rank else {
            return Err("the pawns' double-step regions are not one rank each, counted from each side's edge (set doubleStepRegionWhite/Black to mirrored ranks): the language's `initial` zone is one zone for both sides".into());
        };
        let _ = writeln!(
            out,
            "    moves \"mfW cfeF imfnD\"\n    initial rank {}",
            rank + 1
        );
    } else {
        out.push_str("    moves \"mfW cfF\"\n");
    }
    out.push_str(&promotion_items(rules)?);
    out.push_str("    irreversible\n");
    Ok(out)
}

fn promotion_items(rules: &Rules) -> Result<String, String> {
    let mut out = String::new();
    let names = |side: usize| -> Result<String, String> {
        rules.promotion_types[side]
            .iter()
            .map(|&c| {
                rules
                    .piece(c)
                    .map(piece_name)
                    .ok_or(format!("promotion to `{c}`, not a piece"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.join(" "))
    };
    for side in [WHITE, BLACK] {
        let region = &on_board(&rules.promotion_region[side], rules);
        if region.is_empty() {
            continue;
        }
        if rules.promotion_types[side].is_empty() {
            return Err("pawns reach a promotion region with no promotion choices (promotionPieceTypes): not mapped".into());
        }
        let squares: Vec<String> = region.iter().map(|&s| square_name(s)).collect();
        let who = if side == WHITE { "white" } else { "black" };
        let _ = writeln!(
            out,
            "    promotes for {who} on squares {} to {}",
            squares.join(" "),
            names(side)?
        );
    }
    Ok(out)
}

/// The squares of `region` on the board (Fairy-Stockfish masks its regions with the board).
fn on_board(region: &BTreeSet<Square>, rules: &Rules) -> BTreeSet<Square> {
    region
        .iter()
        .copied()
        .filter(|&(f, r)| f < rules.files && r < rules.ranks)
        .collect()
}

/// The rank index when `region` is exactly one whole rank of the board.
fn whole_rank(region: &BTreeSet<Square>, rules: &Rules) -> Option<u8> {
    let region = &on_board(region, rules);
    let (_, rank) = *region.iter().next()?;
    let full: BTreeSet<Square> = (0..rules.files).map(|f| (f, rank)).collect();
    (*region == full).then_some(rank)
}

fn square_name((file, rank): Square) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// The castling block for the rights the start position holds (K, Q, k, q; king on its file,
/// rooks in the corners), or `castling { }`.
fn castling_block(rules: &Rules, king: Option<&Piece>) -> Result<String, String> {
    let rights = castling_field(rules);
    if !rules.castling || rights == "-" {
        return Ok("castling { }\n".into());
    }
    let Some(king) = king else {
        return Err("castling rights without a `king`".into());
    };
    let board = board_squares(&rules.start_fen);
    let mut out = String::from("castling {\n");
    for right in rights.chars() {
        let (side, kingside) = match right {
            'K' => (WHITE, true),
            'Q' => (WHITE, false),
            'k' => (BLACK, true),
            'q' => (BLACK, false),
            other => return Err(format!("the castling right `{other}` (Shredder or X-FEN letters) is not mapped: only KQkq with rooks in the corners")),
        };
        let off_board = || "castlingRank or a castling file off the board".to_string();
        let rank = if side == WHITE {
            Some(rules.castling_rank).filter(|&r| r < rules.ranks)
        } else {
            (rules.ranks - 1).checked_sub(rules.castling_rank)
        }
        .ok_or_else(off_board)?;
        let rook_file = if kingside { rules.files - 1 } else { 0 };
        let king_to = if kingside {
            rules.castling_kingside_file
        } else {
            rules.castling_queenside_file
        };
        let rook_to = if kingside {
            king_to.checked_sub(1)
        } else {
            Some(king_to + 1)
        }
        .filter(|&f| {
            f < rules.files && king_to < rules.files && rules.castling_king_file < rules.files
        })
        .ok_or_else(off_board)?;
        let case = |c: char| {
            if side == WHITE {
                c.to_ascii_uppercase()
            } else {
                c
            }
        };
        let king_from = (rules.castling_king_file, rank);
        let rook_from = (rook_file, rank);
        if board.get(&king_from) != Some(&case(king.letter))
            || board.get(&rook_from) != Some(&case('r'))
        {
            return Err(format!(
                "the castling right `{right}` needs the king on {} and a rook on {} in startFen",
                square_name(king_from),
                square_name(rook_from)
            ));
        }
        if rules.piece('r').is_none_or(|p| p.slot != "rook") {
            return Err(
                "castling without Fairy-Stockfish's `rook` piece type is not mapped".into(),
            );
        }
        let who = if side == WHITE { "white" } else { "black" };
        let _ = writeln!(
            out,
            "    {who} {right} king {}-{} rook {}-{}",
            square_name(king_from),
            square_name((king_to, rank)),
            square_name(rook_from),
            square_name((rook_to, rank))
        );
    }
    out.push_str("}\n");
    Ok(out)
}

/// The castling field of the start FEN (`-` when it has none).
fn castling_field(rules: &Rules) -> String {
    let fields: Vec<&str> = rules.start_fen.split_whitespace().collect();
    match fields.get(2) {
        Some(field) if field.chars().all(|c| c.is_ascii_alphabetic() || c == '-') => {
            field.to_string()
        }
        _ => "-".into(),
    }
}

/// The pieces of a FEN's board field by square.
fn board_squares(fen: &str) -> std::collections::BTreeMap<Square, char> {
    let board = fen.split_whitespace().next().unwrap_or("");
    let board = board.split('[').next().unwrap_or("");
    let ranks: Vec<&str> = board.split('/').collect();
    let mut found = std::collections::BTreeMap::new();
    for (row, text) in ranks.iter().enumerate() {
        let rank = (ranks.len() - 1 - row) as u8;
        let mut file: u32 = 0;
        let mut digits = String::new();
        for c in text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            file = file.saturating_add(digits.parse::<u32>().unwrap_or(0));
            digits.clear();
            if c.is_ascii_alphabetic() {
                found.insert((file.min(255) as u8, rank), c);
                file += 1;
            }
        }
    }
    found
}

/// The start FEN as the language reads it: with `[]` when the game has hands, and no castling
/// rights when castling is off.
fn setup_fen(rules: &Rules) -> String {
    let mut fields: Vec<String> = rules
        .start_fen
        .split_whitespace()
        .map(String::from)
        .collect();
    if (rules.piece_drops || rules.captures_to_hand)
        && !fields.first().is_some_and(|b| b.contains('['))
    {
        if let Some(board) = fields.first_mut() {
            board.push_str("[]");
        }
    }
    if !rules.castling && fields.len() > 2 && fields[2].chars().all(|c| c.is_ascii_alphabetic()) {
        fields[2] = "-".into();
    }
    fields.join(" ").replace('"', "")
}

/// Where pawns may not be dropped: their first rank and their promotion region.
fn pawn_drops(rules: &Rules) -> String {
    let Some(pawn) = rules.pieces.iter().find(|p| p.slot == "pawn") else {
        return String::new();
    };
    let name = piece_name(pawn);
    let mut out = String::from("drops {\n");
    if !rules.first_rank_pawn_drops {
        let _ = writeln!(out, "    must not place on rank 1 when placing {name}");
    }
    if !rules.promotion_zone_pawn_drops {
        for (side, who) in [(WHITE, "white"), (BLACK, "black")] {
            let region = &on_board(&rules.promotion_region[side], rules);
            if !region.is_empty() {
                let squares: Vec<String> = region.iter().map(|&s| square_name(s)).collect();
                let _ = writeln!(
                    out,
                    "    {who} must not place on squares {} when placing {name}",
                    squares.join(" ")
                );
            }
        }
    }
    out.push_str("}\n");
    out
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "wins",
        Verdict::Loss => "loses",
        Verdict::Draw => "draws",
    }
}

fn end_block(rules: &Rules, king: Option<&Piece>) -> Result<String, String> {
    let mut out = String::from("end {\n");
    if king.is_some() {
        let _ = writeln!(out, "    check\n    checkmate {}", verdict(rules.checkmate));
    }
    let _ = writeln!(out, "    stalemate {}", verdict(rules.stalemate));
    out.push_str(&flag_rule(rules)?);
    if rules.n_fold_rule > 0 {
        // Fairy-Stockfish's value is for the side to move; the language's verdict is for the
        // side whose move repeated the position.
        let mover = match rules.n_fold_value {
            Verdict::Win => Verdict::Loss,
            Verdict::Loss => Verdict::Win,
            Verdict::Draw => Verdict::Draw,
        };
        if rules.n_fold_rule < 2 {
            return Err("`nFoldRule` below 2 is not mapped".into());
        }
        let _ = writeln!(
            out,
            "    repetition {} {}",
            rules.n_fold_rule,
            verdict(mover)
        );
    }
    if rules.n_move_rule > 0 {
        let _ = writeln!(out, "    move-limit {} draws", rules.n_move_rule);
    }
    out.push_str("}\n");
    Ok(out)
}

/// Capture the flag: the side that just moved wins when its flag piece stands in its region.
fn flag_rule(rules: &Rules) -> Result<String, String> {
    let mut parts = Vec::new();
    for (side, who) in [(WHITE, "white"), (BLACK, "black")] {
        let region = &on_board(&rules.flag_region[side], rules);
        let Some(letter) = rules.flag_piece[side] else {
            if region.is_empty() {
                continue;
            }
            return Err("a flag region without a flag piece (`*`) is not mapped".into());
        };
        if region.is_empty() {
            continue;
        }
        let piece = rules
            .piece(letter)
            .map(piece_name)
            .ok_or("flag piece is not a piece")?;
        let squares: Vec<String> = region.iter().map(|&s| square_name(s)).collect();
        parts.push(format!(
            "some (own {piece} and {who} {piece} and squares {})",
            squares.join(" ")
        ));
    }
    if parts.is_empty() {
        return Ok(String::new());
    }
    Ok(format!("    each side wins when {}\n", parts.join(" or ")))
}
