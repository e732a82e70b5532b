//! Writing [`Rules`] as a `.variant` file, stated whole (no `extends`), so that the file reads on
//! its own and plays as Fairy-Stockfish plays the section. What the rules need and the language
//! cannot say (an asymmetric double-step region, castling from a square that is not a corner)
//! is a refusal here too, pointing at the section's header.

use super::promotion;
use super::royal::{self, Royalty};
use super::rules::{Piece, Refusal, Rules, Square, Verdict, ALL_PIECES, BLACK, WHITE};
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
    out.push_str(&turn_block(rules).map_err(refuse)?);
    let king = rules.pieces.iter().find(|p| p.slot == "king");
    let royalty = royal::royalty(rules).map_err(refuse)?;
    promotion::check(rules).map_err(refuse)?;
    for piece in &rules.pieces {
        if !promotion::only_promoted(rules, piece) {
            out.push_str(&piece_block(piece, rules, &royalty).map_err(refuse)?);
        }
    }
    out.push_str(&promotion::promoted_blocks(rules));
    out.push_str(&castling_block(rules, king).map_err(refuse)?);
    let _ = writeln!(out, "setup \"{}\"", setup_fen(rules));
    if rules.captures_to_hand && !rules.piece_drops {
        return Err(refuse(
            "`capturesToHand` without `pieceDrops` is not mapped".into(),
        ));
    }
    if rules.piece_drops {
        out.push_str("actions moves drops\n");
        out.push_str(&pawn_drops(rules).map_err(refuse)?);
    }
    if rules.captures_to_hand {
        out.push_str("capture { to hand }\n");
    }
    let blast = royal::blast_lines(rules).map_err(refuse)?;
    if !blast.is_empty() {
        let _ = writeln!(out, "capture {{\n    {}\n}}", blast.join("\n    "));
    }
    out.push_str(&move_rules(rules, king).map_err(refuse)?);
    let checks = checks_to_give(rules).map_err(refuse)?;
    if let Some(checks) = checks {
        let _ = writeln!(
            out,
            "counter checks {{\n    add 1 on check\n    fen remaining {checks}\n}}"
        );
    }
    out.push_str(&end_block(rules, king, &royalty, checks).map_err(refuse)?);
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

fn piece_block(piece: &Piece, rules: &Rules, royalty: &Royalty) -> Result<String, String> {
    let mut out = format!(
        "piece {} {{\n    letter {}\n",
        piece_name(piece),
        piece.letter.to_ascii_uppercase()
    );
    if piece.slot == "king" || royalty.pseudo_royal.contains(&piece.letter) {
        out.push_str("    royal\n");
    }
    if piece.slot == "pawn" {
        out.push_str(&pawn_items(rules)?);
    } else if piece.slot == "soldier" && rules.soldier_promotion_rank > 0 {
        // Fairy-Stockfish's soldier steps sideways only from `soldierPromotionRank` on.
        let _ = writeln!(
            out,
            "    moves \"fW\"\n    moves \"fW sW\" in ranks {}-{}",
            rules.soldier_promotion_rank + 1,
            rules.ranks
        );
    } else if !piece.moves.is_empty() {
        let _ = writeln!(out, "    moves \"{}\"", piece.moves);
    }
    out.push_str(&promotion::promotes_lines(rules, piece));
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
        let ranks = whole_ranks(white, rules).filter(|ranks| {
            let mirrored: Vec<u8> = ranks.iter().rev().map(|r| rules.ranks - 1 - r).collect();
            whole_ranks(black, rules) == Some(mirrored)
        });
        let Some((first, last)) = ranks.and_then(|ranks| Some((*ranks.first()?, *ranks.last()?)))
        else {
            return Err("the pawns' double-step regions are not whole consecutive ranks, counted alike from each side's edge (set doubleStepRegionWhite/Black to mirrored ranks): the language's `initial` zone is one zone for both sides".into());
        };
        let initial = if first == last {
            format!("rank {}", first + 1)
        } else {
            format!("ranks {}-{}", first + 1, last + 1)
        };
        match en_passant_rank(rules)? {
            EnPassant::Anywhere => {
                let _ = writeln!(out, "    moves \"mfW cfeF imfnD\"\n    initial {initial}");
            }
            EnPassant::Rank(rank) => {
                let _ = writeln!(
                    out,
                    "    moves \"mfW cfeF imfnD\"\n    initial {initial}\n    en-passant on rank {}",
                    rank + 1
                );
            }
            EnPassant::Nowhere => {
                let _ = writeln!(out, "    moves \"mfW cfF imfnD\"\n    initial {initial}");
            }
        }
    } else {
        out.push_str("    moves \"mfW cfF\"\n");
    }
    out.push_str(&promotion_items(rules)?);
    out.push_str("    irreversible\n");
    Ok(out)
}

fn promotion_items(rules: &Rules) -> Result<String, String> {
    let mut out = String::new();
    // The pawn's shogi-style promotion (`promotedPieceType`) is one more choice.
    let promoted = rules
        .pieces
        .iter()
        .find(|p| p.slot == "pawn")
        .filter(|pawn| promotion::promoted_type(rules, pawn.letter).is_some())
        .map(promotion::promoted_name);
    let names = |side: usize| -> Result<String, String> {
        rules.promotion_types[side]
            .iter()
            .map(|&c| {
                rules
                    .piece(c)
                    .map(piece_name)
                    .ok_or(format!("promotion to `{c}`, not a piece"))
            })
            .chain(promoted.clone().map(Ok))
            .collect::<Result<Vec<_>, _>>()
            .map(|v| v.join(" "))
    };
    for side in [WHITE, BLACK] {
        let region = &on_board(&rules.promotion_region[side], rules);
        if region.is_empty() {
            continue;
        }
        if rules.promotion_types[side].is_empty() && promoted.is_none() {
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
pub(super) fn on_board(region: &BTreeSet<Square>, rules: &Rules) -> BTreeSet<Square> {
    region
        .iter()
        .copied()
        .filter(|&(f, r)| f < rules.files && r < rules.ranks)
        .collect()
}

/// Where the pawns' double steps leave en-passant targets.
enum EnPassant {
    /// Wherever they pass a square (Fairy-Stockfish's default region, the whole board).
    Anywhere,
    /// Only on this rank, counted from each side's own edge (`en-passant on rank R`).
    Rank(u8),
    /// Nowhere: the pawns take no en passant.
    Nowhere,
}

/// `enPassantRegionWhite/Black` (the squares where each side may take en passant) as the
/// language says it: the targets a side's pawns leave are where the other side may take.
fn en_passant_rank(rules: &Rules) -> Result<EnPassant, String> {
    let all = |side: usize| {
        rules.en_passant_region[side].as_ref().is_none_or(|region| {
            on_board(region, rules).len() == rules.files as usize * rules.ranks as usize
        })
    };
    if all(WHITE) && all(BLACK) {
        return Ok(EnPassant::Anywhere);
    }
    let region = |side: usize| {
        rules.en_passant_region[side]
            .as_ref()
            .map(|region| on_board(region, rules))
            .unwrap_or_default()
    };
    let (taken_by_white, taken_by_black) = (region(WHITE), region(BLACK));
    if taken_by_white.is_empty() && taken_by_black.is_empty() {
        return Ok(EnPassant::Nowhere);
    }
    let white_targets = whole_rank(&taken_by_black, rules);
    match (white_targets, whole_rank(&taken_by_white, rules)) {
        (Some(white), Some(black)) if black == rules.ranks - 1 - white => Ok(EnPassant::Rank(white)),
        _ => Err("the en-passant regions are not one whole rank each, counted alike from each side's edge: not mapped (`en-passant on` is one zone for both sides)".into()),
    }
}

/// The rank indices, in order, when `region` is whole ranks of the board, consecutive.
fn whole_ranks(region: &BTreeSet<Square>, rules: &Rules) -> Option<Vec<u8>> {
    let region = &on_board(region, rules);
    let ranks: BTreeSet<u8> = region.iter().map(|&(_, r)| r).collect();
    let full: BTreeSet<Square> = ranks
        .iter()
        .flat_map(|&r| (0..rules.files).map(move |f| (f, r)))
        .collect();
    let ranks: Vec<u8> = ranks.into_iter().collect();
    let consecutive = ranks.windows(2).all(|pair| pair[1] == pair[0] + 1);
    (*region == full && !ranks.is_empty() && consecutive).then_some(ranks)
}

/// The rank index when `region` is exactly one whole rank of the board.
fn whole_rank(region: &BTreeSet<Square>, rules: &Rules) -> Option<u8> {
    let region = &on_board(region, rules);
    let (_, rank) = *region.iter().next()?;
    let full: BTreeSet<Square> = (0..rules.files).map(|f| (f, rank)).collect();
    (*region == full).then_some(rank)
}

pub(super) fn square_name((file, rank): Square) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// The castling block for the rights the start position holds (K, Q, k, q; king on its file,
/// rooks in the corners), or `castling { }`.
fn castling_block(rules: &Rules, king: Option<&Piece>) -> Result<String, String> {
    let dropped = rules.castling_dropped_piece && rules.piece_drops;
    let rights = if dropped {
        // Gained by dropping king and rook in place: every right, none held at the start.
        if castling_field(rules) != "-" {
            return Err(
                "`castlingDroppedPiece` with castling rights in startFen is not mapped".into(),
            );
        }
        "KQkq".to_string()
    } else {
        castling_field(rules)
    };
    if !rules.castling || rights == "-" {
        return Ok("castling { }\n".into());
    }
    // Without a royal `king`, the castling piece must be named (`castlingKingPiece`).
    let named = rules.castling_king_piece[WHITE].and_then(|letter| rules.piece(letter));
    let Some(king) = king.or(named) else {
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
        // The piece that castles: `castlingKingPiece`, named where it is not the king.
        let castler = match rules.castling_king_piece[side] {
            Some(letter) if letter != king.letter || king.slot != "king" => Some(
                rules
                    .piece(letter)
                    .ok_or("`castlingKingPiece` is not a piece")?,
            ),
            _ => None,
        };
        let castler_letter = castler.map_or(king.letter, |piece| piece.letter);
        // The piece that castles as the rook: `castlingRookPieces`, else the `rook` type.
        let rook = match rules.castling_rook_piece[side] {
            Some(letter) => rules
                .piece(letter)
                .ok_or("`castlingRookPieces` is not a piece")?,
            None => rules
                .piece('r')
                .filter(|p| p.slot == "rook")
                .ok_or("castling without Fairy-Stockfish's `rook` piece type is not mapped")?,
        };
        let named_rook = rook.slot != "rook";
        let (king_from, rook_from) = if dropped {
            let rook_file = if kingside { rules.files - 1 } else { 0 };
            ((rules.castling_king_file, rank), (rook_file, rank))
        } else {
            castling_squares(
                rules,
                &board,
                rank,
                case(castler_letter),
                case(rook.letter),
                kingside,
            )
        };
        if !dropped
            && (board.get(&king_from) != Some(&case(castler_letter))
                || board.get(&rook_from) != Some(&case(rook.letter)))
        {
            return Err(format!(
                "the castling right `{right}` needs the king on {} and a rook on {} in startFen",
                square_name(king_from),
                square_name(rook_from)
            ));
        }
        if king_to.abs_diff(king_from.0) <= 1 {
            return Err(format!(
                "the castling right `{right}` moves the king from {} to {}, one square or none: Fairy-Stockfish writes that castling as the king taking its rook ({}{}), the language as the king's step, which an ordinary move writes the same: not mapped",
                square_name(king_from),
                square_name((king_to, rank)),
                square_name(king_from),
                square_name(rook_from)
            ));
        }
        let who = if side == WHITE { "white" } else { "black" };
        // Named pieces where the castling king is not the royal `king`, or where the right is
        // gained by drops (the language names both pieces then).
        let (king_word, rook_word) = match (castler, dropped) {
            (Some(piece), _) => (
                format!(" {}", piece_name(piece)),
                if dropped || named_rook {
                    format!(" {}", piece_name(rook))
                } else {
                    String::new()
                },
            ),
            (None, true) => (
                format!(" {}", piece_name(king)),
                format!(" {}", piece_name(rook)),
            ),
            (None, false) if named_rook => (
                format!(" {}", piece_name(king)),
                format!(" {}", piece_name(rook)),
            ),
            (None, false) => (String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "    {who} {right} king{king_word} {}-{} rook{rook_word} {}-{}{}",
            square_name(king_from),
            square_name((king_to, rank)),
            square_name(rook_from),
            square_name((rook_to, rank)),
            if dropped { " when placed" } else { "" }
        );
    }
    out.push_str("}\n");
    Ok(out)
}

/// Where the castling king and rook of a right stand, found as Fairy-Stockfish finds them in
/// the start position: the king is the only castling piece on the castling rank (else the square
/// on `castlingKingFile`); the rook is the first one from `castlingRookKingsideFile` (the last
/// file by default) towards file a, or from `castlingRookQueensideFile` (file a) towards the last.
fn castling_squares(
    rules: &Rules,
    board: &std::collections::BTreeMap<Square, char>,
    rank: u8,
    king: char,
    rook: char,
    kingside: bool,
) -> (Square, Square) {
    let kings: Vec<u8> = (0..rules.files)
        .filter(|&f| board.get(&(f, rank)) == Some(&king))
        .collect();
    let king_file = match kings.as_slice() {
        [one] => *one,
        _ => rules.castling_king_file,
    };
    let files: Vec<u8> = if kingside {
        (0..=rules.castling_rook_kingside_file.min(rules.files - 1))
            .rev()
            .collect()
    } else {
        (rules.castling_rook_queenside_file..rules.files).collect()
    };
    let rook_file = files
        .iter()
        .copied()
        .find(|&f| board.get(&(f, rank)) == Some(&rook))
        .unwrap_or(files.last().copied().unwrap_or(0));
    ((king_file, rank), (rook_file, rank))
}

/// The castling field of the start FEN (`-` when it has none).
fn castling_field(rules: &Rules) -> String {
    let fields = complete_fen(&rules.start_fen);
    match fields.get(2) {
        Some(field) if field.chars().all(|c| c.is_ascii_alphabetic() || c == '-') => {
            field.to_string()
        }
        _ => "-".into(),
    }
}

/// The pieces of a FEN's board field by square.
pub(super) fn board_squares(fen: &str) -> std::collections::BTreeMap<Square, char> {
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
    let mut fields = complete_fen(&rules.start_fen);
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

/// Where pieces may not be dropped: pawns on their first rank and in their promotion region,
/// the `dropNoDoubled` piece on a file that holds one of its kind, any piece outside the side's
/// `dropRegion`.
fn pawn_drops(rules: &Rules) -> Result<String, String> {
    // Fairy-Stockfish resets the half-move clock on every drop.
    let mut out = String::from("drops {\n    irreversible\n");
    if let Some(letter) = rules.drop_no_doubled {
        let name = rules
            .piece(letter)
            .map(piece_name)
            .ok_or("`dropNoDoubled` is not a piece")?;
        // Fairy-Stockfish: no drop on a file holding `dropNoDoubledCount` own pieces of the kind.
        match rules.drop_no_doubled_count {
            0 => {
                let _ = writeln!(out, "    must not place on board when placing {name}");
            }
            1 => {
                let _ = writeln!(
                    out,
                    "    must not place on file of own {name} when placing {name}"
                );
            }
            n => return Err(format!("`dropNoDoubledCount = {n}` (more than one piece of a kind on a file) is not mapped")),
        }
    }
    for (side, who) in [(WHITE, "white"), (BLACK, "black")] {
        let Some(region) = &rules.drop_region[side] else {
            continue;
        };
        // Fairy-Stockfish's drop region, said as the squares outside it.
        let region = on_board(region, rules);
        let outside: Vec<String> = (0..rules.ranks)
            .flat_map(|r| (0..rules.files).map(move |f| (f, r)))
            .filter(|square| !region.contains(square))
            .map(square_name)
            .collect();
        if !outside.is_empty() {
            let _ = writeln!(
                out,
                "    {who} must not place on squares {}",
                outside.join(" ")
            );
        }
    }
    if rules.immobility_illegal {
        out.push_str("    must not place stranded\n");
    }
    let Some(pawn) = rules.pieces.iter().find(|p| p.slot == "pawn") else {
        out.push_str("}\n");
        return Ok(out);
    };
    let name = piece_name(pawn);
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
    Ok(out)
}

/// `passOnStalemate` would be `turn { pass when no action }` (with no `stalemate` rule), but
/// for the half-move clock: refused until the two agree.
fn turn_block(rules: &Rules) -> Result<String, String> {
    match rules.pass_on_stalemate {
        [false, false] => Ok(String::new()),
        // Fairy-Stockfish's pass moves one of the mover's pieces to its own square: a pawn's
        // resets the half-move clock, the language's `pass` never does.
        _ => Err("`passOnStalemate` is not mapped: Fairy-Stockfish passes by moving a piece to its own square, which resets the half-move clock when it is a pawn; the language's `pass when no action` does not".into()),
    }
}

fn verdict(v: Verdict) -> &'static str {
    match v {
        Verdict::Win => "wins",
        Verdict::Loss => "loses",
        Verdict::Draw => "draws",
    }
}

/// With `checkCounting`, the checks each side must give to win, from the start FEN's `N+N`
/// field (after the en-passant field); `None` without.
fn checks_to_give(rules: &Rules) -> Result<Option<u32>, String> {
    if !rules.check_counting {
        return Ok(None);
    }
    let fields = complete_fen(&rules.start_fen);
    let counts = fields
        .iter()
        .skip(2)
        .find(|field| field.contains('+'))
        .and_then(|field| field.split_once('+'))
        .and_then(|(white, black)| Some((white.parse::<u32>().ok()?, black.parse::<u32>().ok()?)));
    match counts {
        Some((white, black)) if white == black && (1..=255).contains(&white) => Ok(Some(white)),
        _ => Err("`checkCounting` needs the start FEN to give the same number of checks to each side (`3+3` after the en-passant field)".into()),
    }
}

/// `extinctionValue` with its piece types: each side, after every move (the side that moved
/// first, as Fairy-Stockfish judges it), gets the value when a type is down to the count.
fn extinction_rule(rules: &Rules) -> Result<String, String> {
    let Some(value) = rules.extinction_value else {
        return Ok(String::new());
    };
    if rules.extinction_piece_types.is_empty() {
        return Ok(String::new());
    }
    if rules.piece_drops || rules.captures_to_hand {
        return Err(
            "extinction with pieces in hand (Fairy-Stockfish counts them) is not mapped".into(),
        );
    }
    let mut terms = Vec::new();
    for &letter in &rules.extinction_piece_types {
        let pieces = if letter == ALL_PIECES {
            "own pieces".to_string()
        } else {
            let piece = rules
                .piece(letter)
                .ok_or("an extinction type is not a piece")?;
            format!("own {}", piece_name(piece))
        };
        let extinct = match rules.extinction_piece_count {
            0 => format!("no {pieces}"),
            count => format!("count {pieces} <= {count}"),
        };
        // `extinctionOpponentPieceCount`: only while the opponent has that many of the type.
        terms.push(match rules.extinction_opponent_piece_count {
            0 => extinct,
            least => {
                let theirs = pieces.replacen("own ", "opponent ", 1);
                format!("{extinct} and count {theirs} >= {least}")
            }
        });
    }
    Ok(format!(
        "    each side {} when {}\n",
        verdict(value),
        terms.join(" or ")
    ))
}

fn end_block(
    rules: &Rules,
    king: Option<&Piece>,
    royalty: &Royalty,
    checks: Option<u32>,
) -> Result<String, String> {
    let mut out = String::from("end {\n");
    let royal = king.is_some() || !royalty.pseudo_royal.is_empty();
    if royal {
        out.push_str("    check\n");
    }
    if let Some(value) = royalty.captured {
        let _ = writeln!(out, "    royal captured {}", verdict(value));
    }
    if !royalty.replaces_extinction() {
        out.push_str(&extinction_rule(rules)?);
    }
    if let Some(checks) = checks {
        let _ = writeln!(out, "    loses when opponent checks >= {checks}");
    }
    if royal {
        let _ = writeln!(out, "    checkmate {}", verdict(rules.checkmate));
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
        // Perpetual check: Fairy-Stockfish draws when both sides checked throughout, the
        // language gives the repetition's verdict then; the same only when that is a draw.
        let perpetual = match (rules.perpetual_check_illegal, mover) {
            (false, _) => "",
            (true, Verdict::Draw) => ", perpetual check loses",
            (true, _) => return Err("`perpetualCheckIllegal` with an `nFoldValue` other than `draw` is not mapped (Fairy-Stockfish draws when both sides check throughout)".into()),
        };
        let _ = writeln!(
            out,
            "    repetition {} {}{perpetual}",
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

/// The `moves` block: compulsory capture, no move giving check (`checking = false`), no move
/// leaving the kings facing each other on a file or a rank with nothing between
/// (`flyingGeneral`: Fairy-Stockfish looks along rook lines).
fn move_rules(rules: &Rules, king: Option<&Piece>) -> Result<String, String> {
    let mut lines = Vec::new();
    if rules.must_capture {
        lines.push("must capture when a capture is possible".to_string());
    }
    if !rules.checking {
        if rules.piece_drops {
            return Err("`checking = false` with drops (Fairy-Stockfish's `dropChecks` then decides drops apart) is not mapped".into());
        }
        lines.push("must not give check".into());
    }
    if rules.flying_general {
        let king = king.ok_or("`flyingGeneral` without a `king`")?;
        if castling_field(rules) != "-" && rules.castling {
            return Err("`flyingGeneral` with castling (Fairy-Stockfish's king may not pass a square facing the other king) is not mapped".into());
        }
        let name = piece_name(king);
        lines.push(format!(
            "must not after some (opponent {name} and reach of (own {name}) by \"R\")"
        ));
    }
    if lines.is_empty() {
        return Ok(String::new());
    }
    let mut out = String::from("moves {\n");
    for line in lines {
        let _ = writeln!(out, "    {line}");
    }
    out.push_str("}\n");
    Ok(out)
}

/// Capture the flag: the side that just moved wins when its flag piece stands in its region;
/// with `flagPieceSafe`, see [`safe_flag_rule`].
fn flag_rule(rules: &Rules) -> Result<String, String> {
    let zones = flag_zones(rules)?;
    if zones.is_empty() {
        return Ok(String::new());
    }
    if rules.flag_piece_safe {
        return safe_flag_rule(rules, &zones);
    }
    let mut parts = Vec::new();
    for (who, piece, squares) in &zones {
        let pieces = format!("own {piece} and {who} {piece} and squares {squares}");
        parts.push(match rules.flag_piece_count {
            1 => format!("some ({pieces})"),
            count => format!("count ({pieces}) >= {count}"),
        });
    }
    Ok(format!("    each side wins when {}\n", parts.join(" or ")))
}

/// Each side's flag: the side's name, the flag piece's name (`pieces` for any piece) and the
/// squares of its region, for the sides that have one.
fn flag_zones(rules: &Rules) -> Result<Vec<(&'static str, String, String)>, String> {
    let mut zones = Vec::new();
    for (side, who) in [(WHITE, "white"), (BLACK, "black")] {
        let region = &on_board(&rules.flag_region[side], rules);
        let Some(letter) = rules.flag_piece[side] else {
            continue;
        };
        if region.is_empty() {
            continue;
        }
        let piece = if letter == ALL_PIECES {
            "pieces".to_string()
        } else {
            rules
                .piece(letter)
                .map(piece_name)
                .ok_or("flag piece is not a piece")?
        };
        let squares: Vec<String> = region.iter().map(|&s| square_name(s)).collect();
        zones.push((who, piece, squares.join(" ")));
    }
    Ok(zones)
}

/// `flagPieceSafe`, as Fairy-Stockfish judges it at the start of every turn: a side's flag is
/// reached when more than `flagPieceCount` of its flag pieces stand in its region, or exactly
/// that many and none of them is attacked. The side to move wins when its flag is reached, and
/// draws when the opponent's is too; it loses when only the opponent's is. So a flag piece that
/// arrives attacked wins only if it is still unattacked a turn later.
fn safe_flag_rule(
    rules: &Rules,
    zones: &[(&'static str, String, String)],
) -> Result<String, String> {
    if rules.blast_on_capture {
        return Err("`flagPieceSafe` with `blastOnCapture` is not mapped (Fairy-Stockfish warns that its safety test does not see the blast)".into());
    }
    let count = rules.flag_piece_count;
    let reached = |judged: &str, other: &str| {
        let zone = zones
            .iter()
            .map(|(who, piece, squares)| {
                format!("({judged} {piece} and {who} {piece} and squares {squares})")
            })
            .collect::<Vec<_>>()
            .join(" or ");
        format!(
            "(count ({zone}) > {count} or count ({zone}) = {count} and no (({zone}) and attacked by {other}))"
        )
    };
    let (own, theirs) = (reached("own", "opponent"), reached("opponent", "own"));
    Ok(format!(
        "    draws when {own} and {theirs}\n    wins when {own}\n    loses when {theirs}\n"
    ))
}

/// A start FEN with every field, read as Fairy-Stockfish reads a short one: a missing side to
/// move is White; a digit where the castling field would be means neither castling rights nor an
/// en-passant field (breakthrough's `w 0 1`); otherwise the field after the castling rights is
/// the en-passant field whatever it holds (petty's `w - 0 1` has no en-passant square and a
/// half-move clock of 1); a check count (`3+3`) is kept in its place; missing clocks are `0 1`.
pub(super) fn complete_fen(fen: &str) -> Vec<String> {
    let mut words = fen.split_whitespace().map(String::from).peekable();
    let mut fields = vec![words.next().unwrap_or_default()];
    fields.push(words.next().unwrap_or_else(|| "w".into()));
    match words.next_if(|w| !w.starts_with(|c: char| c.is_ascii_digit())) {
        Some(castling) => {
            fields.push(castling);
            let square = |w: &String| {
                w.len() >= 2
                    && w.starts_with(|c: char| c.is_ascii_lowercase())
                    && w[1..].chars().all(|c| c.is_ascii_digit())
            };
            let en_passant = words.next().filter(square);
            fields.push(en_passant.unwrap_or_else(|| "-".into()));
        }
        None => fields.extend(["-".to_string(), "-".to_string()]),
    }
    if let Some(checks) = words.next_if(|w| w.contains('+')) {
        fields.push(checks);
    }
    fields.push(words.next().unwrap_or_else(|| "0".into()));
    fields.push(words.next().unwrap_or_else(|| "1".into()));
    fields.extend(words);
    fields
}
