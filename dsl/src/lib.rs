//! The variant language: chess variants as text files.
//!
//! Data flows through these types, one module per stage:
//!
//! 1. source text, kept in a [`SourceMap`] and guarded by [`parse::decode`] (size, UTF-8) and a
//!    pre-scan that bounds how deep it nests ([`nesting`]);
//! 2. [`GameFile`] ([`ast`]): what the file says, every node [`Spanned`], built by
//!    [`parse::parse`] from the pest grammar;
//! 3. files merged along their `extends` chain ([`load_file`], [`load_source`]; with
//!    [`LoadOptions`], parents are also looked for in search folders: [`load_file_with`]);
//! 4. [`Definition`] ([`definition`]): validated by [`validate::validate`], names resolved,
//!    Betza strings decoded by [`betza`], the setup parsed by [`fen`]; the contract with the
//!    interpreter, dumped as RON by [`Definition::to_ron`];
//! 5. or [`Diagnostics`]: every problem at once, rendered rustc-style by
//!    [`Diagnostics::render`] (the first 50, then a count of the others).
//!
//! ```
//! let game = r#"
//! game "Kings"
//! board 8x8
//! side white { forward up }
//! side black { forward down }
//! piece King { letter K; royal; moves "K" }
//! setup "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
//! end { check }
//! "#;
//! let loaded = variant_dsl::load_source("kings.variant", game).expect("a valid game");
//! assert_eq!(loaded.definition.pieces.len(), 1);
//! assert_eq!(loaded.definition.setup.board.len(), 2);
//!
//! let broken = game.replace("moves \"K\"", "moves \"Y\"");
//! let failure = variant_dsl::load_source("kings.variant", &broken).unwrap_err();
//! assert!(failure.render().starts_with("error[E0502]: `Y` is not a Betza atom"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
pub mod betza;
pub mod definition;
pub mod diagnostic;
pub mod expression;
pub mod fen;
mod id;
mod load;
pub mod nesting;
pub mod parse;
pub mod span;
mod suggestion;
mod typing;
pub mod validate;

pub use ast::GameFile;
pub use definition::{
    ActionCondition, ActionNumber, Actions, AfterRule, AfterTest, BoardDef, CaptureRules,
    CastlingDef, ControlRules, CounterDef, CounterEvent, CounterFen, Definition, Dice,
    DropConstraint, DropRules, EndCondition, EndRules, Forward, GatingDef, Grouping, Hop, Leg,
    LegCount, LegDirection, LegEffect, MaterialRule, MoveAtom, MoveLimit, MoveMode, Obligation,
    ObligationKind, ObligationWhen, Offset, Origin, PathDef, PhaseDef, PieceChase, PieceCount,
    PieceDef, PieceId, Placement, PolicyDef, PolicyItem, PolicyStep, Promotion, PromotionMoves,
    Repetition, ScoreRule, Setup, SideDef, SideId, SlideLine, Square, SquareTest, Store, Tiebreak,
    TurnProgress, TurnRules, Verdict, MAX_BOARD_EDGE, MAX_COUNTERS, MAX_COUNTER_VALUE,
};
pub use diagnostic::{Diagnostic, Diagnostics, Label, Severity};
pub use expression::{Comparison, Field, Number, SideRef, SquareConstant, Squares};
pub use fen::{parse_fen, write_fen, FenError};
pub use load::{
    load_file, load_file_with, load_source, load_source_with, Failure, LoadOptions, Loaded,
    BUILTIN_FOLDER, MAX_EXTENDS_DEPTH,
};
pub use span::{FileId, SourceMap, Span, Spanned};
pub use suggestion::did_you_mean;
