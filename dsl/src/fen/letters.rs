//! Piece letters both ways: the side and piece a letter stands for, and the letter a side writes
//! for a piece.

use crate::definition::{Definition, PieceId, SideId};
use crate::fen::error::{error, FenError};

/// The side and piece a letter stands for: the sides' own `letters`, else the piece letter in
/// upper case for the first side and lower case for the second.
pub(super) fn piece_of_letter(
    def: &Definition,
    letter: char,
    offset: usize,
) -> Result<(SideId, PieceId), FenError> {
    if let Some(found) = def.letter_piece(letter) {
        return Ok(found);
    }
    let known_upper = def.letter_piece(letter.to_ascii_uppercase()).is_some();
    if letter.is_ascii_lowercase() && def.sides.len() < 2 && known_upper {
        return Err(error(
            offset,
            1,
            format!("`{letter}` is lower case, but this game has only one side"),
        ));
    }
    Err(error(
        offset,
        letter.len_utf8(),
        format!("unknown piece letter `{letter}`"),
    ))
}

pub(super) fn letter_for(def: &Definition, side: SideId, piece: PieceId) -> char {
    def.piece_letter(side, piece)
}
