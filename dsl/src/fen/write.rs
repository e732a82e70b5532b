//! Writing a position as a FEN, always in the full form; [`write_fen`] is the inverse of
//! [`crate::fen::parse_fen`].

use crate::definition::{BoardDef, Definition, GatingDef, Setup, SideId, Square};
use crate::fen::extensions::extensions;
use crate::fen::letters::letter_for;

/// Writes a position as a FEN; `parse_fen(def, &write_fen(def, setup))` gives `setup` back.
pub fn write_fen(def: &Definition, setup: &Setup) -> String {
    let mut fen = write_board(def, setup);
    // As Fairy-Stockfish writes it: a game played with hands always shows them, `[]` when empty.
    if !setup.hands.is_empty() || def.uses_hands() {
        fen.push('[');
        for &(side, piece, count) in &setup.hands {
            let letter = letter_for(def, side, piece);
            fen.extend(std::iter::repeat_n(letter, count as usize));
        }
        fen.push(']');
    }
    let side_letter = def
        .sides
        .get(setup.side_to_move.0 as usize)
        .map_or('?', |side| side.fen_letter);
    let castling = castling_field(def, setup);
    let en_passant = match setup.counting {
        // A running count (`counting`) as Fairy-Stockfish writes it: its limit in plies in
        // the en-passant field, its plies in the halfmove field.
        Some((limit, _)) => limit.to_string(),
        None => setup
            .en_passant
            .map_or("-".to_string(), |square| square.to_string()),
    };
    let halfmove = setup
        .counting
        .map_or(setup.halfmove_clock, |(_, plies)| plies);
    let mut counters = String::new();
    for (counter, values) in def.counters.iter().zip(&setup.counters) {
        let shown: Vec<String> = values
            .iter()
            .map(|&value| counter.fen.shown(value).to_string())
            .collect();
        counters.push_str(&shown.join("+"));
        counters.push(' ');
    }
    let mut text = format!(
        "{fen} {side_letter} {castling} {en_passant} {counters}{} {}",
        halfmove, setup.fullmove_number
    );
    for extension in extensions(def, setup) {
        text.push(' ');
        text.push_str(&extension);
    }
    text
}

/// The castling field: the rights held, or `-`. In a game with `gating`, side by side, the
/// side's rights then the file letters of its gating squares that none of those rights names
/// (as Fairy-Stockfish writes Seirawan chess: `KQBCDFGkqbcdfg`).
fn castling_field(def: &Definition, setup: &Setup) -> String {
    let held = || {
        setup
            .castling
            .iter()
            .filter_map(|&right| def.castling.get(right))
    };
    let field: String = match &def.gating {
        None => held().map(|castle| castle.fen_letter).collect(),
        Some(_) => {
            let mut field = String::new();
            for side in (0..def.sides.len()).map(|side| SideId(side as u8)) {
                let rights = || held().filter(|castle| castle.side == side);
                field.extend(rights().map(|castle| castle.fen_letter));
                let named = |square: Square| {
                    rights().any(|castle| castle.king_from == square || castle.rook_from == square)
                };
                let mut gates: Vec<Square> = setup
                    .gates
                    .iter()
                    .filter(|&&(s, square)| s == side && !named(square))
                    .map(|&(_, square)| square)
                    .collect();
                gates.sort_by_key(|square| (square.file, square.rank));
                field.extend(
                    gates
                        .iter()
                        .map(|square| GatingDef::letter(side, square.file)),
                );
            }
            field
        }
    };
    if field.is_empty() {
        "-".to_string()
    } else {
        field
    }
}

/// The board field: the sides' pieces by letter, the neutral piece (`neutral`) as `*`.
fn write_board(def: &Definition, setup: &Setup) -> String {
    board_field(&def.board, |square| {
        if setup.neutral == Some(square) {
            return Some("*".to_string());
        }
        setup.board.iter().find(|p| p.square == square).map(|p| {
            let letter = def.piece_symbol(p.side, p.piece);
            if setup.promoted.contains(&square) {
                letter + "~"
            } else {
                letter
            }
        })
    })
}

/// The board field of a FEN: `piece_at` gives the letter on a square (holes are always `*`).
pub(crate) fn board_field(board: &BoardDef, piece_at: impl Fn(Square) -> Option<String>) -> String {
    let mut ranks = Vec::with_capacity(board.ranks as usize);
    for rank in (0..board.ranks).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..board.files {
            let square = Square::new(file, rank);
            let symbol = if board.holes.contains(&square) {
                Some("*".to_string())
            } else {
                piece_at(square)
            };
            match symbol {
                Some(symbol) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(&symbol);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}
