//! What a plan is, as data: the drop rules of one scalar state folded and compiled into
//! register operations ([`Op`]), the mover's into a [`Program`], the next side's into
//! [`Replay`]s, gathered in a [`Plan`].
//!
//! Data only, and below the compiled game ([`crate::rules::Rules`]), which keeps its plans
//! ([`crate::rules::plan_cache::PlanCache`]): a plan is made by folding the rules
//! ([`crate::plan`]) and compiling what remains ([`crate::program`]), which read the compiled
//! game, and run there too; what it holds names nothing above the expression IR.

use crate::bitboard::Bitboard;
use crate::core::index::{ByPiece, PieceId, SideId};
use crate::rules::ir::{Cond, Fld, Num, Set};
use variant_dsl::expression::{Comparison, SideRef};

/// A register's number.
pub(crate) type Reg = u8;

/// A number register's number (numbers have registers of their own).
pub(crate) type NumReg = u8;

/// The most registers a program uses; a plan whose rules need more is not made (the position
/// is judged from the full rules).
pub(crate) const MAX_REGISTERS: usize = 255;

/// The most number registers a program uses (folded rules seldom keep a number: those that
/// read only the scalar state are constants).
pub(super) const MAX_NUMBERS: usize = 16;

/// The registers of the empty and of the occupied squares, set before a program runs.
pub(super) const EMPTY: Reg = 0;
pub(super) const OCCUPIED: Reg = 1;

/// One operation: computes a register from the position or from earlier registers.
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) enum Op<B> {
    /// The pieces of some sides (a bit per side), of one type or all.
    Pieces(Reg, u32, Option<PieceId>),
    /// The squares of the last drops of some sides.
    LastDrop(Reg, u32),
    /// The squares around a register's.
    Around(Reg, Reg),
    /// Every square of a colour present in a register.
    ColourOf(Reg, Reg),
    /// Every square of a file present.
    FileOf(Reg, Reg),
    And(Reg, Reg, Reg),
    Or(Reg, Reg, Reg),
    /// The first less the second.
    Except(Reg, Reg, Reg),
    /// The board less a register.
    Not(Reg, Reg),
    /// The board if a register holds a square, else nothing.
    Any(Reg, Reg),
    /// A leaf set the judge computes (control, attacks, legal drops, acted pieces, fields
    /// compared).
    Judged(Reg, Box<Set<B>>),
    /// The squares of a register that some sides attack, as the judge finds them.
    AttackedAmong(Reg, SideRef, Reg),
    /// The board if the judge finds a leaf condition holds, else nothing.
    Holds(Reg, Box<Cond<B>>),
    /// A leaf number the judge computes (placement, hands, the turn's progress).
    Number(NumReg, Box<Num<B>>),
    /// The number of squares of a register.
    Count(NumReg, Reg),
    /// A field added up over a register's squares.
    Sum(NumReg, Box<Fld>, Reg),
    Plus(NumReg, NumReg, NumReg),
    Minus(NumReg, NumReg, NumReg),
    /// The board if two numbers compare so, else nothing.
    Compare(Reg, NumReg, Comparison, NumReg),
    /// A rule applied: the squares allowed so far (second), less those where the rule applies
    /// (third) and does not allow (fourth).
    Obey(Reg, Reg, Reg, Reg),
    /// A rule that applies everywhere when a set (third) holds a square, applied: the squares
    /// allowed so far (second), less those it does not allow (fourth) if it applies (one
    /// operation for `Any` and `Obey`: "must touch occupied when some occupied").
    ObeyWhenAny(Reg, Reg, Reg, Reg),
}

/// A register of either kind, as the dataflow sees it: a set's (below [`NUMBERS_FROM`]) or a
/// number's.
type Place = u16;

/// The first [`Place`] of the number registers.
const NUMBERS_FROM: Place = 256;

/// The place of a set register.
pub(super) fn set_place(register: Reg) -> Place {
    Place::from(register)
}

/// The place of a number register.
fn number_place(register: NumReg) -> Place {
    NUMBERS_FROM + Place::from(register)
}

impl<B> Op<B> {
    /// The register the operation writes.
    pub(super) fn target(&self) -> Place {
        match *self {
            Op::Pieces(to, ..)
            | Op::LastDrop(to, _)
            | Op::Around(to, _)
            | Op::ColourOf(to, _)
            | Op::FileOf(to, _)
            | Op::And(to, ..)
            | Op::Or(to, ..)
            | Op::Except(to, ..)
            | Op::Not(to, _)
            | Op::Any(to, _)
            | Op::Judged(to, _)
            | Op::AttackedAmong(to, ..)
            | Op::Holds(to, _)
            | Op::Compare(to, ..)
            | Op::Obey(to, ..)
            | Op::ObeyWhenAny(to, ..) => set_place(to),
            Op::Number(to, _)
            | Op::Count(to, _)
            | Op::Sum(to, ..)
            | Op::Plus(to, ..)
            | Op::Minus(to, ..) => number_place(to),
        }
    }

    /// The registers the operation reads.
    fn reads(&self) -> [Option<Place>; 3] {
        let set = |register| Some(set_place(register));
        let number = |register| Some(number_place(register));
        match *self {
            Op::Pieces(..) | Op::LastDrop(..) | Op::Judged(..) | Op::Holds(..) | Op::Number(..) => {
                [None; 3]
            }
            Op::Around(_, a)
            | Op::ColourOf(_, a)
            | Op::FileOf(_, a)
            | Op::Not(_, a)
            | Op::Any(_, a)
            | Op::AttackedAmong(_, _, a)
            | Op::Count(_, a)
            | Op::Sum(_, _, a) => [set(a), None, None],
            Op::And(_, a, b) | Op::Or(_, a, b) | Op::Except(_, a, b) => [set(a), set(b), None],
            Op::Plus(_, a, b) | Op::Minus(_, a, b) | Op::Compare(_, a, _, b) => {
                [number(a), number(b), None]
            }
            Op::Obey(_, a, b, c) | Op::ObeyWhenAny(_, a, b, c) => [set(a), set(b), set(c)],
        }
    }
}

/// The operations of `ops` that the registers `outputs` need, in their order (an operation
/// comes after those it reads): a rule whose chain folded to a constant leaves operations that
/// nothing reads.
pub(super) fn needed<B>(ops: Vec<Op<B>>, outputs: &[Reg]) -> Vec<Op<B>> {
    let mut producer = [None; NUMBERS_FROM as usize + MAX_NUMBERS];
    for (index, op) in ops.iter().enumerate() {
        producer[usize::from(op.target())] = Some(index);
    }
    let mut wanted = vec![false; ops.len()];
    let mut stack: Vec<Place> = outputs
        .iter()
        .map(|&register| set_place(register))
        .collect();
    while let Some(place) = stack.pop() {
        if let Some(index) = producer[usize::from(place)] {
            if !wanted[index] {
                wanted[index] = true;
                stack.extend(ops[index].reads().into_iter().flatten());
            }
        }
    }
    ops.into_iter()
        .zip(wanted)
        .filter_map(|(op, wanted)| wanted.then_some(op))
        .collect()
}

/// The drop squares of a plan's groups of piece types, as a program.
#[derive(Debug)]
pub(crate) struct Program<B> {
    pub(super) ops: Vec<Op<B>>,
    /// How many registers the program uses.
    pub(super) registers: usize,
    /// How many number registers it uses.
    pub(super) numbers: usize,
    /// The numbers the plan decides, by number register, set before a run.
    pub(super) number_constants: Vec<(NumReg, i64)>,
    /// The constants the plan decides that hold a square, by register: set one by one before a
    /// run, every other register starting empty (cheaper than copying every register, most of
    /// them empty). The empty and occupied squares, registers 0 and 1, are set from the
    /// position.
    pub(super) constants: Vec<(Reg, B)>,
    /// Per piece type, the registers of its allowed squares and of the squares where a
    /// lookahead rule applies (shared by the types of a group).
    pub(super) by_type: Vec<(Reg, Reg)>,
    /// The distinct pairs of `by_type`, each with its types (a bit per type) and how many they
    /// are: a count reads each register once.
    pub(super) by_pair: Vec<(Reg, Reg, u32, u64)>,
    /// Per rule of the next side (see [`crate::program::ReplyRules`]), the registers of where it possibly
    /// applies and of where it certainly allows, after the mover's drop on any empty square;
    /// `None` for a bound left to the proof's own programs ([`Replay`]).
    pub(super) reply: Vec<(Option<Reg>, Option<Reg>)>,
}

/// A folded drop condition compiled into operations over registers that hold values of any
/// [`crate::domain::Domain`], and replayed on one: the lookahead's proof runs the next side's rules on the
/// interval domain ([`crate::expression::Bounds`]) and on the symbolic one
/// ([`crate::after_drop::Symbolic`]) for the drops in question. Compiled by the same pass as a
/// plan's [`Program`], with every leaf asked of the domain it runs on (the pieces grow with
/// the mover's drop there).
#[derive(Debug)]
pub(crate) struct Replay<B> {
    pub(super) ops: Vec<Op<B>>,
    pub(super) registers: usize,
    pub(super) numbers: usize,
    pub(super) constants: Vec<(Reg, B)>,
    pub(super) number_constants: Vec<(NumReg, i64)>,
    /// The register of the condition's squares.
    pub(super) output: Reg,
    /// Those squares, where the plan decides them (whatever the domain).
    pub(super) settled: Option<B>,
}

/// The drop rules of one scalar state, folded: the mover's compiled into a program over
/// bitboard registers, the next side's (for the lookahead's proof) into programs replayed over
/// bounds ([`Replay`]).
pub struct Plan<B: Bitboard> {
    /// The rules folded for each piece type, compiled: per group of types, its drop squares.
    pub(super) program: Program<B>,
    /// The proof that the next side can reply, where it applies ([`crate::expression::reply_side`]).
    pub(super) reply: Option<Reply<B>>,
    /// The proof's types as it tries them, each with the program's registers of its rules
    /// (where the rule possibly applies, where it certainly allows), or `None` where the
    /// program does not bound every one of them: [`Plan::proved_from_registers`].
    pub(super) register_proof: Vec<ProofType>,
    /// Whether an end condition that reads no action holds, where every such condition reads
    /// no square (their reads are part of the key: [`crate::rules::plan_cache::KeySpec::new`]); `None` otherwise.
    pub(super) ends: Option<bool>,
}

/// A type the register proof tries, with its rules' registers (see [`Plan::register_proof`]).
pub(super) type ProofType = (PieceId, Option<Box<[(Reg, Reg)]>>);

/// The next side's drop rules folded over bounds.
pub(crate) struct Reply<B: Bitboard> {
    pub(super) next: SideId,
    /// Each rule folded for one piece type, or for every type it does not name.
    pub(super) slots: Vec<ReplySlot<B>>,
    /// Per piece type, the slots of the rules that can bind it.
    pub(super) by_piece: ByPiece<Vec<u8>>,
    /// The types the proof tries, in order: those that a rule does not forbid everywhere
    /// whatever the board (the proof would find nothing for them).
    pub(super) tried: Vec<PieceId>,
}

/// One of the next side's rules, as the proof reads it: where it applies and what it
/// requires, compiled.
pub(crate) struct ReplySlot<B: Bitboard> {
    pub(super) condition: Replay<B>,
    pub(super) requirement: Replay<B>,
}

impl<B: Bitboard> std::fmt::Debug for Plan<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plan")
            .field("program", &self.program)
            .field("reply_slots", &self.reply.as_ref().map(|r| r.slots.len()))
            .finish()
    }
}
