//! The core layer: the board and what stands on it.
//!
//! Bitboards and geometry (squares, directions, lines), the compiled tables ([`tables`]), the
//! position's state and its primitive edits (move, remove, place, with the Zobrist key kept in
//! step; one action, the end of a turn), moves and the board's move generation, paths, attacks
//! and control; the indices of all of these ([`index`]: squares, sides, piece types, and the
//! per-side and per-piece tables they open). Nothing here knows what a rule expression, an end condition or a player is,
//! and no file here imports from the layers above ([`crate::rules`], [`crate::play`]): where a
//! turn needs the rules' answer, the rules layer asks it and calls the position's edits.
//! No file here imports another in a cycle either: paths compile into leaps and routes that the
//! tables take (`path.rs` knows nothing of `tables.rs`).

pub mod action_set;
pub(crate) mod attack;
pub mod bitboard;
pub(crate) mod board;
pub(crate) mod chase;
pub mod control;
pub mod edit;
pub mod exchange;
pub mod geometry;
pub mod index;
pub mod legality;
pub mod movegen;
pub mod moves;
pub mod path;
pub mod position;
pub mod route;
pub mod setup;
pub mod tables;
pub mod tactical;
pub mod zobrist;
