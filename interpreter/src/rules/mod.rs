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
//! The files import downward, bottom to top, with no cycle (`tests/layers.rs`): the expression
//! IR (`ir.rs`) and the walk of its domains (`domain.rs`); a plan as data (`plan_data.rs`: its
//! register programs) and the table that keeps the plans (`plan_cache.rs`); the compiled game
//! ([`Rules`], `compiled.rs`), which owns that table; the evaluations (`expression.rs`,
//! `program.rs`, `after_drop.rs`, `score.rs`, `plausible.rs`); the end rules judged without the
//! legal actions (`end.rs`); making and reading the plans (`plan.rs`); the legal moves and
//! turns ([`legal`]); the outcome ([`outcome`]); playing a turn (`game.rs`) and compiling the
//! rules (`compile.rs`), which wires the one upward question (the legal actions an expression
//! reads) through [`Rules`].

pub(crate) mod after_board;
pub(crate) mod after_drop;
pub mod after_move;
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
mod plan_cache;
mod plan_data;
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
