//! What a FEN error says: [`FenError`] (where, and why in plain words), and how messages name a
//! side and a square.

use crate::definition::{Definition, Placement, SideDef, SideId, Square};
use std::fmt;

/// A FEN that does not fit a game: where, and why in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Byte offset of the faulty text in the FEN.
    pub offset: usize,
    /// Length in bytes of the faulty text (0 when something is missing at `offset`).
    pub len: usize,
    /// What is wrong ("unknown piece letter `X`").
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for FenError {}

pub(super) fn error(offset: usize, len: usize, message: impl Into<String>) -> FenError {
    FenError {
        offset,
        len,
        message: message.into(),
    }
}

pub(super) fn side_name(def: &Definition, side: SideId) -> &str {
    def.sides
        .get(side.0 as usize)
        .map_or("?", |side: &SideDef| side.name.as_str())
}

pub(super) fn describe_square(
    def: &Definition,
    square: Square,
    placement: Option<&Placement>,
) -> String {
    match placement {
        None => format!("{square} is empty"),
        Some(p) => format!(
            "{square} holds a {} {}",
            side_name(def, p.side),
            def.pieces[p.piece.0 as usize].name
        ),
    }
}
