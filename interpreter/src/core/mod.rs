//! The core layer: the board and what stands on it.
//!
//! Bitboards and geometry (squares, directions, lines), the position's state and its primitive
//! edits (move, remove, place, with the Zobrist key kept in step), moves as the generator makes
//! them, paths, attacks and control. Nothing here knows what a rule expression, an end
//! condition or a player is; the layers above ([`crate::rules`], [`crate::play`]) build on it.

pub mod action_set;
pub mod bitboard;
pub mod control;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod path;
pub mod position;
pub mod route;
pub mod tables;
pub mod zobrist;
