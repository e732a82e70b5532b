//! FEN: positions as one line of text, extended the way Fairy-Stockfish extends it.
//!
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`: ranks from the top down,
//! separated by `/`; a count of empty squares (several digits on wide boards: `10`); `*` for a
//! hole (holes are always written `*`, never counted); upper-case letters for the first side,
//! lower-case for the second; pieces in hand in `[...]` right after the board; then the side
//! to move ([`SideDef::fen_letter`]), castling rights ([`CastlingDef::fen_letter`] or `-`), the
//! en-passant square or `-`, and the optional halfmove clock and move number (default `0 1`).
//! Other engines' forms are read too: Fairy-Stockfish leaves out the castling field of a game
//! without castling and the en-passant field of a game without en passant (shogi's `... w 0
//! 1`), and writes an empty hand `[-]`. Positions are always written in the full form.
//!
//! The same parser serves the `setup` statement (its [`FenError`] becomes a diagnostic inside
//! the string) and the command line's `--fen`. It also refuses what the game could not play
//! from: more than [`MAX_IN_HAND`] pieces of one type in a hand, pieces in hand in a game
//! without drops, and (for `--fen`) a side to move that the turn order never names. The move
//! counters are read as any `u32` and never computed with here.
//!
//! The parts: `read` reads a FEN field by field ([`parse_fen`]), the board and hands through
//! `board` and the `name:value` fields through `extensions`; `write` writes one ([`write_fen`]),
//! the `name:value` fields again through `extensions`, which reads and writes them in one place.
//! Below them: `fields` (the text split into fields with offsets), `letters` (piece letters both
//! ways) and `error` ([`FenError`] and how messages name sides and squares). No part imports
//! this module or one above it.

mod board;
mod error;
mod extensions;
mod fields;
mod letters;
mod read;
#[cfg(test)]
mod tests;
mod write;

pub use board::MAX_IN_HAND;
pub use error::FenError;
pub use read::parse_fen;
pub(crate) use read::{parse_position, side_to_move_range};
pub(crate) use write::board_field;
pub use write::write_fen;
