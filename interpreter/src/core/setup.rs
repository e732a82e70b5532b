//! Why a setup (a game's own, or one read from a FEN) cannot become a position.
//!
//! A [`variant_dsl::Setup`] is checked against the game's definition when it is parsed; what is
//! left to find is what only the compiled game knows (the board's squares, the turn order, the
//! turn's progress): [`SetupError`] says which, and names the square, side or number at fault.

use std::fmt;
use variant_dsl::Square;

/// Why a setup cannot become a position of this game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A piece stands on a square that is not on the board.
    OffBoard {
        /// The square.
        square: Square,
    },
    /// A hand holds more than 255 pieces of a type.
    HandTooLarge,
    /// A prison holds more than 255 pieces of a type.
    PrisonTooLarge,
    /// A side's last drop names a square that does not hold the piece dropped.
    LastDropMissing {
        /// The square.
        square: Square,
    },
    /// A gating right names a square without a piece of its side.
    GateWithoutPiece {
        /// The square.
        square: Square,
    },
    /// The placement phase given is not one of the game's.
    NoSuchPhase,
    /// The side to move does not place in the phase given.
    NotInPhase {
        /// The side's name.
        side: String,
        /// The phase's name.
        phase: String,
    },
    /// The side to move is not in the turn order.
    NeverMoves,
    /// The turn given is not one of the side to move.
    NotItsTurn,
    /// No piece can be captured en passant on the target given.
    NoEnPassantVictim {
        /// The target square.
        square: Square,
    },
    /// Turn progress in a game whose turns are single actions.
    ProgressInSingleActions,
    /// Turn progress that no turn of this game can reach.
    ImpossibleProgress {
        /// The actions taken.
        actions: u8,
        /// The drops among them.
        drops: u8,
        /// The pieces that acted.
        acted: usize,
        /// The most actions a turn has.
        limit: u8,
    },
    /// A square said to have acted this turn holds no piece of the side to move.
    ActedWithoutPiece {
        /// The square.
        square: Square,
    },
    /// In the middle of a turn of a `maximal` game, `longest:` is missing.
    LongestMissing,
    /// `longest:` is more than a turn's actions.
    LongestTooLarge {
        /// The length given.
        longest: u8,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::OffBoard { square } => write!(f, "{square} is not on the board"),
            SetupError::HandTooLarge => f.write_str("more than 255 pieces in a hand"),
            SetupError::PrisonTooLarge => f.write_str("more than 255 prisoners of a type"),
            SetupError::GateWithoutPiece { square } => {
                write!(f, "the gating right on {square} needs a piece of its side there")
            }
            SetupError::LastDropMissing { square } => {
                write!(f, "the last drop on {square} left no such piece there")
            }
            SetupError::NoSuchPhase => f.write_str("no such phase"),
            SetupError::NotInPhase { side, phase } => {
                write!(f, "{side} does not place in the phase `{phase}`")
            }
            SetupError::NeverMoves => f.write_str("the side to move never moves"),
            SetupError::NotItsTurn => {
                f.write_str("the turn given is not a turn of the side to move")
            }
            SetupError::NoEnPassantVictim { square } => {
                write!(f, "no piece can be captured en passant on {square}")
            }
            SetupError::ProgressInSingleActions => {
                f.write_str("this game's turns are single actions: no turn progress")
            }
            SetupError::ImpossibleProgress {
                actions,
                drops,
                acted,
                limit,
            } => write!(
                f,
                "impossible turn progress: {actions} actions ({drops} drops, {acted} pieces acted) in a turn of up to {limit}"
            ),
            SetupError::ActedWithoutPiece { square } => write!(
                f,
                "{square} acted this turn, but holds no piece of the side to move"
            ),
            SetupError::LongestMissing => {
                f.write_str("in the middle of a turn the FEN must give `longest:`")
            }
            SetupError::LongestTooLarge { longest } => {
                write!(f, "`longest:{longest}` is more than a turn's actions")
            }
        }
    }
}

impl std::error::Error for SetupError {}
