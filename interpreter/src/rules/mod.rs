//! The rules layer: what a game's text says, compiled.
//!
//! [`Rules`] (the compiled game: the core's [`Tables`] plus the compiled expressions), playing
//! a turn (`game.rs`: the position's primitive edits, then the turn's decisions; the checked
//! [`crate::Position::play`]), the legal moves of a turn ([`legal`]: the core's board moves,
//! drops under the drop rules, turns of several actions, the pass), the expressions over sets,
//! numbers and conditions with the plans and register programs that evaluate them fast, drop
//! plans, turns of several actions, outcomes and scores, and the checks that a position can be
//! played from. It builds on [`crate::core`]; [`crate::play`] builds on it.
//!
//! The files of this layer still import each other in one cycle: an expression may ask for the
//! legal moves (`legal moves` in an end condition, the drop rules' lookahead), and the legal
//! moves judge expressions (the drop and move rules). `scripts/import-cycles.py` shows it.

pub(crate) mod after_drop;
pub(crate) mod compile;
mod compiled;
pub(crate) mod domain;
mod end;
pub mod expression;
mod game;
mod ir;
pub mod legal;
pub mod outcome;
pub mod plan;
pub mod plausible;
pub(crate) mod program;
pub mod score;

pub use compiled::*;
pub use game::IllegalMove;
// The table types kept their paths from before the tables were the core's
// (`variant_interpreter::rules::PieceMoves`, ...).
pub use crate::core::tables::{
    absolute, Attacks, Castle, LameAttack, LameLeap, LeapAttack, LeapTable, PieceMoves,
    PromotionRule, Ride, RideAttack, Tables,
};
