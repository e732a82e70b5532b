//! Checked expressions: the rules that read the position.
//!
//! Drop rules, scores and end conditions are all expressions over squares, pieces, sides and
//! history ("the squares adjacent to the own King", "the sum over empty squares of the own
//! controlling pieces", "the side to move cannot act"). Instead of one keyword per game's rule,
//! the language has one small typed expression layer; the engine compiles it when a game loads
//! into bitboard operations (`variant_interpreter::expression`).
//!
//! There are four types, and every node below has exactly one:
//!
//! - a [`Condition`] is true or false; inside a drop rule it may depend on the dropped piece and
//!   the square it lands on (`place King`, `place on S`);
//! - [`Squares`] is a set of squares of the board;
//! - a [`Number`] is an integer;
//! - a [`Field`] is an integer per square (`controllers of own`), used through `sum F on S` or
//!   compared square by square into a set of squares.
//!
//! Sides are relative ([`SideRef`]): an expression is judged *for* a side — the side dropping,
//! the side whose score is counted, the side to move for an end condition — and `own` means that
//! side.

use crate::id::{PieceId, SideId, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// `=`, `!=`, `<`, `<=`, `>`, `>=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Comparison {
    /// `=`
    Equal,
    /// `!=`
    NotEqual,
    /// `<`
    Less,
    /// `<=`
    LessOrEqual,
    /// `>`
    Greater,
    /// `>=`
    GreaterOrEqual,
}

impl Comparison {
    /// Whether `left OP right` holds.
    #[inline]
    pub fn holds(self, left: i64, right: i64) -> bool {
        match self {
            Comparison::Equal => left == right,
            Comparison::NotEqual => left != right,
            Comparison::Less => left < right,
            Comparison::LessOrEqual => left <= right,
            Comparison::Greater => left > right,
            Comparison::GreaterOrEqual => left >= right,
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Equal => "=",
            Comparison::NotEqual => "!=",
            Comparison::Less => "<",
            Comparison::LessOrEqual => "<=",
            Comparison::Greater => ">",
            Comparison::GreaterOrEqual => ">=",
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// Fixed sets of squares: `empty`, `occupied`, `light`, `dark`, `board`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SquareConstant {
    /// `empty`: squares of the board without a piece.
    Empty,
    /// `occupied`: squares with a piece.
    Occupied,
    /// `light`: light squares (a1 is dark).
    Light,
    /// `dark`: dark squares.
    Dark,
    /// `board`: every square of the board.
    Board,
}

/// A side, or sides, relative to the side an expression is judged for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SideRef {
    /// `own`: the side the expression is judged for.
    Own,
    /// `opponent`: every side not on its team (every other side in a game without teams).
    Opponents,
    /// `team`: the side judged for and its allies.
    Team,
    /// `any`: every side.
    Any,
    /// `next`: the side that moves after the side judged for, in the turn order.
    Next,
    /// `white`: one side by name.
    Side(SideId),
}

/// A condition: true or false.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Condition {
    /// Always true (a rule without `when`).
    True,
    /// `place King`: the dropped piece is of this type (drop rules only).
    Place(PieceId),
    /// `place on S`: the drop lands on one of these squares (drop rules only).
    PlaceOn(Squares),
    /// `leave an action`: after this drop, the next side has a legal action (drop rules only,
    /// alone after `must`).
    LeaveAction,
    /// `not give checkmate`: after this drop, the next side is not both in check and without a
    /// legal action (drop rules only, alone after `must`: `must not give checkmate`).
    NoCheckmate,
    /// `place stranded`: the drop lands where none of the dropped piece's moves could ever leave
    /// ([`crate::Definition::stranded_squares`]; drop rules only).
    PlaceStranded,
    /// `move King`: the moving piece is of this type (move rules only).
    Move(PieceId),
    /// `move from S`: the moving piece starts on one of these squares (move rules only).
    MoveFrom(Squares),
    /// `at turn start C`: the condition held at the start of the current turn (judged then, for
    /// the side whose turn it is).
    AtTurnStart(Box<Condition>),
    /// `can act`: the side has a legal action (end conditions only).
    CanAct,
    /// `can act without promoting`: the side has a legal action that is not a promotion (end
    /// conditions only).
    CanActWithoutPromoting,
    /// `placement = 7`: two numbers compared.
    Compare(Number, Comparison, Number),
    /// `some S`: the set is not empty.
    Some(Squares),
    /// `hands empty`: no side holds a piece.
    HandsEmpty,
    /// `opponent placed Queen`: the last action of the side (one of the sides) dropped this type.
    Placed(SideRef, PieceId),
    /// `opponent passed`: the last action of the side (one of the sides) was a pass.
    Passed(SideRef),
    /// `A and B`
    And(Box<Condition>, Box<Condition>),
    /// `A or B`
    Or(Box<Condition>, Box<Condition>),
    /// `not A`
    Not(Box<Condition>),
}

/// A set of squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Squares {
    /// `reach of S by "vR"`: the squares a piece moving as the Betza text says reaches from one
    /// of the squares of S, every piece a blocker and a target (directions are the judged
    /// side's).
    Reach {
        /// Where the movement starts.
        from: Box<Squares>,
        /// The Betza text as written, known to decode ([`crate::betza::decode`]).
        betza: String,
    },
    /// `empty`, `occupied`, `light`, `dark`, `board`.
    Constant(SquareConstant),
    /// `rank 2`, `last rank`: the squares of the zone for each side, indexed by side; the side
    /// judged for picks its own.
    Zone(Vec<Vec<Square>>),
    /// `own King`, `any piece`: where those pieces stand.
    Pieces(SideRef, Option<PieceId>),
    /// `controlled by opponent`: what those sides' pieces control.
    ControlledBy(SideRef),
    /// `attacked by opponent`: what those sides' pieces attack, as the check rule sees it.
    AttackedBy(SideRef),
    /// `last drop of opponent`: the square of the side's last action, if that was a drop.
    LastDrop(SideRef),
    /// `legal drops`: the squares where the side to move has a legal drop (end conditions only).
    LegalDrops,
    /// `acted this turn`: the squares of the pieces that moved or were dropped this turn.
    Acted,
    /// `adjacent to S`: the 8 squares around each of these.
    Adjacent(Box<Squares>),
    /// `colour of S`: every square of a colour one of these has.
    ColourOf(Box<Squares>),
    /// `file of S`: every square of a file one of these is on.
    FileOf(Box<Squares>),
    /// `A and B`
    And(Box<Squares>, Box<Squares>),
    /// `A or B`
    Or(Box<Squares>, Box<Squares>),
    /// `A except B`
    Except(Box<Squares>, Box<Squares>),
    /// `not A`: every other square of the board.
    Not(Box<Squares>),
    /// `controllers of own > controllers of opponent`: the squares where the comparison holds.
    Compare(Field, Comparison, Field),
}

/// An integer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Number {
    /// `7`
    Constant(i64),
    /// `placement`: this drop's number among the side's drops, 1 for its first (drop rules only).
    Placement,
    /// `count S`
    Count(Box<Squares>),
    /// `actions this turn`: the actions taken so far in the current turn.
    ActionsThisTurn,
    /// `drops this turn`: the drops among them.
    DropsThisTurn,
    /// `hand Queen`, `opponent hand`: pieces held (of one type, or all).
    Hand(SideRef, Option<PieceId>),
    /// `sum F on S`
    Sum(Field, Box<Squares>),
    /// `opponent checks`: a counter's value (`counter checks`, by index into
    /// [`crate::Definition::counters`]), added up over the sides.
    Counter(SideRef, usize),
    /// `A + B`
    Plus(Box<Number>, Box<Number>),
    /// `A - B`
    Minus(Box<Number>, Box<Number>),
}

/// An integer per square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Field {
    /// A number, the same on every square.
    Constant(i64),
    /// `controllers of own`: how many of the side's pieces control the square.
    Controllers(SideRef),
    /// `control value of own`: the sum of the values of the side's pieces controlling it.
    ControlValue(SideRef),
    /// `value`: the value of the piece standing on the square, 0 where none does.
    PieceValue,
    /// `A + B`
    Plus(Box<Field>, Box<Field>),
    /// `A - B`
    Minus(Box<Field>, Box<Field>),
}

impl Condition {
    /// Whether the condition reads a side's last drop (`last drop of`, `placed`): that history
    /// is then part of the position (its FEN and hash).
    pub fn reads_last_drop(&self) -> bool {
        match self {
            Condition::Placed(..) => true,
            Condition::PlaceOn(set) | Condition::MoveFrom(set) | Condition::Some(set) => {
                set.reads_last_drop()
            }
            Condition::Compare(a, _, b) => a.reads_last_drop() || b.reads_last_drop(),
            Condition::AtTurnStart(a) | Condition::Not(a) => a.reads_last_drop(),
            Condition::And(a, b) | Condition::Or(a, b) => {
                a.reads_last_drop() || b.reads_last_drop()
            }
            _ => false,
        }
    }
}

impl Condition {
    /// Whether the condition reads where pieces of type `piece` stand (`own King`, `any piece`):
    /// whether an end rule can notice that one was captured.
    pub fn reads_pieces_of(&self, piece: PieceId) -> bool {
        match self {
            Condition::PlaceOn(set) | Condition::MoveFrom(set) | Condition::Some(set) => {
                set.reads_pieces_of(piece)
            }
            Condition::Compare(a, _, b) => a.reads_pieces_of(piece) || b.reads_pieces_of(piece),
            Condition::AtTurnStart(a) | Condition::Not(a) => a.reads_pieces_of(piece),
            Condition::And(a, b) | Condition::Or(a, b) => {
                a.reads_pieces_of(piece) || b.reads_pieces_of(piece)
            }
            _ => false,
        }
    }
}

impl Squares {
    /// Whether the set reads where pieces of type `piece` stand.
    pub fn reads_pieces_of(&self, piece: PieceId) -> bool {
        match self {
            Squares::Pieces(_, kind) => kind.is_none_or(|kind| kind == piece),
            Squares::Adjacent(a) | Squares::ColourOf(a) | Squares::FileOf(a) | Squares::Not(a) => {
                a.reads_pieces_of(piece)
            }
            Squares::And(a, b) | Squares::Or(a, b) | Squares::Except(a, b) => {
                a.reads_pieces_of(piece) || b.reads_pieces_of(piece)
            }
            _ => false,
        }
    }

    /// Whether the set reads a side's last drop.
    pub fn reads_last_drop(&self) -> bool {
        match self {
            Squares::LastDrop(_) => true,
            Squares::Adjacent(a) | Squares::ColourOf(a) | Squares::FileOf(a) | Squares::Not(a) => {
                a.reads_last_drop()
            }
            Squares::Reach { from, .. } => from.reads_last_drop(),
            Squares::And(a, b) | Squares::Or(a, b) | Squares::Except(a, b) => {
                a.reads_last_drop() || b.reads_last_drop()
            }
            _ => false,
        }
    }
}

impl Number {
    /// Whether the number reads where pieces of type `piece` stand.
    pub fn reads_pieces_of(&self, piece: PieceId) -> bool {
        match self {
            Number::Count(set) | Number::Sum(_, set) => set.reads_pieces_of(piece),
            Number::Plus(a, b) | Number::Minus(a, b) => {
                a.reads_pieces_of(piece) || b.reads_pieces_of(piece)
            }
            _ => false,
        }
    }

    /// Whether the number reads a side's last drop.
    pub fn reads_last_drop(&self) -> bool {
        match self {
            Number::Count(set) | Number::Sum(_, set) => set.reads_last_drop(),
            Number::Plus(a, b) | Number::Minus(a, b) => a.reads_last_drop() || b.reads_last_drop(),
            _ => false,
        }
    }
}
