//! A plan's drop rules as a straight-line program over bitboard registers.
//!
//! A [`crate::plan::Plan`] folds the drop rules for one scalar state; what remains reads the
//! board. Judging it as a tree of boxed closures, rule by rule and type by type with a memo of
//! what was computed, spent more on calls and bookkeeping than on the bitboard operations
//! themselves. Here the folded rules are compiled once, when the plan is made, into a list of
//! register operations: every distinct expression is computed once (equal expressions share a
//! register, whichever rule or piece type they come from), what the plan decides is a constant
//! set before the program runs, operations whose result nothing reads are dropped, and each
//! group of piece types ends in one register of allowed squares and one of squares where a
//! lookahead rule binds. Running the program is one pass over a short array.
//!
//! The next side's rules, which the lookahead's proof reads over bounds, stay closures
//! ([`crate::plan`]): compiled into a program the same way, the proof measured slower, having
//! lost its stop at the first piece type that proves it and its skipping of rules that cannot
//! bind. Only their bounds that the mover's rules compute already ("the squares touching a
//! piece", for both sides of a placement game) are read from the program's registers
//! ([`ReplyRules`]): those cost nothing to compute, and a proof that reads only them is a short
//! loop over registers.
//!
//! Terms that gain nothing from this (control, attacks, legal drops, comparisons of fields,
//! conditions that do not speak of the square) are one operation that asks the [`Judge`].

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId};
use crate::expression::{around, colour_of, sides_of, Cond, Judge, Set};
use crate::position::Position;
use crate::rules::{Rules, MAX_PIECE_TYPES};
use std::collections::HashMap;

/// A register's number.
pub(crate) type Reg = u8;

/// The most registers a program uses; a plan whose rules need more is not made (the position
/// is judged from the full rules).
pub(crate) const MAX_REGISTERS: usize = 255;

/// The registers of the empty and of the occupied squares, set before a program runs.
const EMPTY: Reg = 0;
const OCCUPIED: Reg = 1;

/// One operation: computes a register from the position or from earlier registers.
#[derive(Debug)]
enum Op<B> {
    /// The pieces of some sides (a bit per side), of one type or all.
    Pieces(Reg, u32, Option<u8>),
    /// The squares of the last drops of some sides.
    LastDrop(Reg, u32),
    /// The squares around a register's.
    Around(Reg, Reg),
    /// Every square of a colour present in a register.
    ColourOf(Reg, Reg),
    And(Reg, Reg, Reg),
    Or(Reg, Reg, Reg),
    /// The first less the second.
    Except(Reg, Reg, Reg),
    /// The board less a register.
    Not(Reg, Reg),
    /// The board if a register holds a square, else nothing.
    Any(Reg, Reg),
    /// A set the judge computes.
    Judged(Reg, Box<Set<B>>),
    /// The board if the judge finds a condition holds, else nothing.
    Holds(Reg, Box<Cond<B>>),
    /// A rule applied: the squares allowed so far (second), less those where the rule applies
    /// (third) and does not allow (fourth).
    Obey(Reg, Reg, Reg, Reg),
    /// A rule that applies everywhere when a set (third) holds a square, applied: the squares
    /// allowed so far (second), less those it does not allow (fourth) if it applies (one
    /// operation for `Any` and `Obey`: "must touch occupied when some occupied").
    ObeyWhenAny(Reg, Reg, Reg, Reg),
}

impl<B> Op<B> {
    /// The register the operation writes.
    fn target(&self) -> Reg {
        match *self {
            Op::Pieces(to, ..)
            | Op::LastDrop(to, _)
            | Op::Around(to, _)
            | Op::ColourOf(to, _)
            | Op::And(to, ..)
            | Op::Or(to, ..)
            | Op::Except(to, ..)
            | Op::Not(to, _)
            | Op::Any(to, _)
            | Op::Judged(to, _)
            | Op::Holds(to, _)
            | Op::Obey(to, ..)
            | Op::ObeyWhenAny(to, ..) => to,
        }
    }

    /// The registers the operation reads.
    fn reads(&self) -> [Option<Reg>; 3] {
        match *self {
            Op::Pieces(..) | Op::LastDrop(..) | Op::Judged(..) | Op::Holds(..) => [None; 3],
            Op::Around(_, a) | Op::ColourOf(_, a) | Op::Not(_, a) | Op::Any(_, a) => {
                [Some(a), None, None]
            }
            Op::And(_, a, b) | Op::Or(_, a, b) | Op::Except(_, a, b) => [Some(a), Some(b), None],
            Op::Obey(_, a, b, c) | Op::ObeyWhenAny(_, a, b, c) => [Some(a), Some(b), Some(c)],
        }
    }
}

/// The operations of `ops` that the registers `outputs` need, in their order (an operation
/// comes after those it reads): a rule whose chain folded to a constant leaves operations that
/// nothing reads.
fn needed<B>(ops: Vec<Op<B>>, outputs: &[Reg]) -> Vec<Op<B>> {
    let mut producer = [None; MAX_REGISTERS + 1];
    for (index, op) in ops.iter().enumerate() {
        producer[usize::from(op.target())] = Some(index);
    }
    let mut wanted = vec![false; ops.len()];
    let mut stack = outputs.to_vec();
    while let Some(register) = stack.pop() {
        if let Some(index) = producer[usize::from(register)] {
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
    ops: Vec<Op<B>>,
    /// How many registers the program uses.
    registers: usize,
    /// The constants the plan decides that hold a square, by register: set one by one before a
    /// run, every other register starting empty (cheaper than copying every register, most of
    /// them empty). The empty and occupied squares, registers 0 and 1, are set from the
    /// position.
    constants: Vec<(Reg, B)>,
    /// Per piece type, the registers of its allowed squares and of the squares where a
    /// lookahead rule applies (shared by the types of a group).
    by_type: Vec<(Reg, Reg)>,
    /// The distinct pairs of `by_type`, each with its types (a bit per type) and how many they
    /// are: a count reads each register once.
    by_pair: Vec<(Reg, Reg, u32, u64)>,
    /// Per rule of the next side (see [`ReplyRules`]), the registers of where it possibly
    /// applies and of where it certainly allows, after the mover's drop on any empty square;
    /// `None` for a bound left to the proof's closures.
    reply: Vec<(Option<Reg>, Option<Reg>)>,
}

/// The next side's rules, folded, for the lookahead's proof ([`crate::plan`]): their bounds
/// after the mover's drop on one of the empty squares are compiled with the mover's rules,
/// sharing their registers ("the squares touching a piece" is computed once for both sides).
pub(crate) struct ReplyRules<'a, B> {
    /// The side that replies.
    pub next: usize,
    /// The side that drops.
    pub mover: usize,
    /// Each rule: where it applies, and what it requires.
    pub rules: Vec<(&'a Cond<B>, &'a Cond<B>)>,
}

/// One rule folded for some piece types, as the compiler reads it.
pub(crate) struct FoldedRule<'a, B> {
    /// Where it applies.
    pub condition: &'a Cond<B>,
    /// What it allows where it applies; `None` for a lookahead rule.
    pub requirement: Option<&'a Cond<B>>,
}

impl<B: Bitboard> Program<B> {
    /// Compiles the folded rules `rules`, of which each piece type obeys those listed in
    /// `by_piece` (types of one group, numbered by its first type in `group`, obey the same),
    /// for `side` on `position`'s scalar state; `None` past [`MAX_REGISTERS`].
    pub(crate) fn compile(
        game: &Rules<B>,
        position: &Position<B>,
        side: usize,
        rules: &[FoldedRule<'_, B>],
        by_piece: &[Vec<u8>],
        group: &[u8],
        reply: Option<&ReplyRules<'_, B>>,
    ) -> Option<Self> {
        let mut compiler = Compiler::new(game, position, side)?;
        let (empty, nothing) = (EMPTY, compiler.constant(B::EMPTY)?);
        let mut groups = vec![(empty, nothing); by_piece.len()];
        for (piece, slots) in by_piece.iter().enumerate() {
            if usize::from(group[piece]) != piece {
                continue;
            }
            let mut allowed = empty;
            let mut lookahead = nothing;
            for &index in slots {
                let rule = &rules[usize::from(index)];
                let applies = compiler.mask(rule.condition)?;
                match rule.requirement {
                    Some(requirement) => {
                        let allows = compiler.mask(requirement)?;
                        allowed = compiler.obey(allowed, applies, allows)?;
                    }
                    None => {
                        lookahead = compiler.or(lookahead, applies)?;
                    }
                }
            }
            groups[piece] = (allowed, lookahead);
        }
        // The next side's bounds that the mover's rules compute already (or the plan
        // decides): the program computes them at no cost, where the proof would call a
        // closure. Others are left to the closures, which the proof calls only when it gets to
        // them (it stops at the first type it proves for).
        let reply: Vec<(Option<Reg>, Option<Reg>)> = reply.map_or(Vec::new(), |reply| {
            let sides = (reply.next, reply.mover);
            let free = |compiler: &mut Compiler<'_, B>, condition, upper| {
                let before = compiler.ops.len();
                let register = compiler.bound_mask(condition, upper, sides)?;
                (compiler.ops.len() == before).then_some(register)
            };
            reply
                .rules
                .iter()
                .map(|&(condition, requirement)| {
                    (
                        free(&mut compiler, condition, true),
                        free(&mut compiler, requirement, false),
                    )
                })
                .collect()
        });
        let (registers, constants) = compiler.constants();
        let by_type: Vec<(Reg, Reg)> = group
            .iter()
            .map(|&first| groups[usize::from(first)])
            .collect();
        let outputs: Vec<Reg> = by_type
            .iter()
            .flat_map(|&(allowed, ahead)| [allowed, ahead])
            .chain(reply.iter().flat_map(|&(a, b)| [a, b]).flatten())
            .collect();
        let mut by_pair: Vec<(Reg, Reg, u32, u64)> = Vec::new();
        for (piece, &(allowed, ahead)) in by_type.iter().enumerate() {
            match by_pair
                .iter_mut()
                .find(|pair| (pair.0, pair.1) == (allowed, ahead))
            {
                Some(pair) => {
                    pair.2 |= 1 << piece;
                    pair.3 += 1;
                }
                None => by_pair.push((allowed, ahead, 1 << piece, 1)),
            }
        }
        Some(Program {
            ops: needed(compiler.ops, &outputs),
            registers,
            constants,
            by_type,
            by_pair,
            reply,
        })
    }

    /// Per piece type of `pieces` (a bit per type), its allowed squares and those among them
    /// where a lookahead rule applies (nothing unless `lookahead_wanted`), into `allowed_of` and
    /// `lookahead_of`.
    #[inline]
    pub(crate) fn run(
        &self,
        judge: &mut Judge<'_, B>,
        pieces: u32,
        lookahead_wanted: bool,
        allowed_of: &mut [B; MAX_PIECE_TYPES],
        lookahead_of: &mut [B; MAX_PIECE_TYPES],
    ) {
        if self.registers <= 16 {
            self.run_with::<16>(judge, pieces, lookahead_wanted, allowed_of, lookahead_of);
        } else if self.registers <= 64 {
            self.run_with::<64>(judge, pieces, lookahead_wanted, allowed_of, lookahead_of);
        } else {
            self.run_with::<MAX_REGISTERS>(
                judge,
                pieces,
                lookahead_wanted,
                allowed_of,
                lookahead_of,
            );
        }
    }

    #[inline(always)]
    fn run_with<const N: usize>(
        &self,
        judge: &mut Judge<'_, B>,
        pieces: u32,
        lookahead_wanted: bool,
        allowed_of: &mut [B; MAX_PIECE_TYPES],
        lookahead_of: &mut [B; MAX_PIECE_TYPES],
    ) {
        let mut registers = [B::EMPTY; N];
        self.execute(judge, &mut registers);
        let mut rest = pieces;
        while rest != 0 {
            let piece = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let Some(&(allowed, lookahead)) = self.by_type.get(piece) else {
                break;
            };
            let allowed = registers[usize::from(allowed)];
            allowed_of[piece] = allowed;
            lookahead_of[piece] = registers[usize::from(lookahead)] & allowed;
        }
        if !lookahead_wanted {
            *lookahead_of = [B::EMPTY; MAX_PIECE_TYPES];
        }
    }

    /// The number of squares allowed to the types of `pieces` (a bit per type), summed over the
    /// types: what a counting sink gets from [`Program::run`], without writing each type's
    /// squares (the types that share their registers are counted together, each register read
    /// once). Where a lookahead rule applies to some of them, `proved` is asked with the
    /// registers (see [`Program::reply_registers`]), and the count is `None` unless it holds.
    #[inline]
    pub(crate) fn count(
        &self,
        judge: &mut Judge<'_, B>,
        pieces: u32,
        proved: impl FnOnce(&[B]) -> bool,
    ) -> Option<u64> {
        if self.registers <= 16 {
            self.count_with::<16>(judge, pieces, proved)
        } else if self.registers <= 64 {
            self.count_with::<64>(judge, pieces, proved)
        } else {
            self.count_with::<MAX_REGISTERS>(judge, pieces, proved)
        }
    }

    #[inline(always)]
    fn count_with<const N: usize>(
        &self,
        judge: &mut Judge<'_, B>,
        pieces: u32,
        proved: impl FnOnce(&[B]) -> bool,
    ) -> Option<u64> {
        let mut registers = [B::EMPTY; N];
        self.execute(judge, &mut registers);
        let (mut count, mut ahead) = (0, B::EMPTY);
        for &(allowed, lookahead, types, types_held) in &self.by_pair {
            let held = types & pieces;
            if held == 0 {
                continue;
            }
            let squares = registers[usize::from(allowed)];
            ahead |= registers[usize::from(lookahead)] & squares;
            let squares = squares.count() as u64;
            // Most often every type of the pair is held (a bit count costs a dozen
            // instructions on a processor without `popcnt`).
            count += squares
                * if held == types {
                    types_held
                } else {
                    u64::from(held.count_ones())
                };
        }
        (ahead.is_empty() || proved(&registers)).then_some(count)
    }

    /// The registers of the next side's rule `index` ([`ReplyRules`]): where it possibly
    /// applies and where it certainly allows, where compiled.
    #[inline(always)]
    pub(crate) fn reply_registers(&self, index: usize) -> (Option<Reg>, Option<Reg>) {
        self.reply.get(index).copied().unwrap_or((None, None))
    }

    /// Sets the registers known before the program runs, then runs every operation in order.
    #[inline(always)]
    fn execute(&self, judge: &mut Judge<'_, B>, registers: &mut [B]) {
        let rules = judge.rules();
        let position = judge.position();
        let board = rules.geometry.board;
        for &(register, value) in &self.constants {
            registers[usize::from(register)] = value;
        }
        let occupied = position.occupied();
        registers[usize::from(EMPTY)] = board & !occupied;
        registers[usize::from(OCCUPIED)] = occupied;
        for op in &self.ops {
            let (to, value) = match *op {
                Op::Pieces(to, sides, piece) => {
                    let mut squares = B::EMPTY;
                    let mut rest = sides;
                    while rest != 0 {
                        squares |=
                            position.side_pieces(SideId::new(rest.trailing_zeros() as usize));
                        rest &= rest - 1;
                    }
                    match piece {
                        Some(piece) => (
                            to,
                            squares & position.typed(PieceId::new(usize::from(piece))),
                        ),
                        None => (to, squares),
                    }
                }
                Op::LastDrop(to, sides) => {
                    let mut squares = B::EMPTY;
                    let mut rest = sides;
                    while rest != 0 {
                        let side = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if let Some((_, square)) = position.last_drop(SideId::new(side)) {
                            squares |= B::single(square);
                        }
                    }
                    (to, squares)
                }
                Op::Around(to, a) => (to, around(rules, registers[usize::from(a)])),
                Op::ColourOf(to, a) => (to, colour_of(rules, registers[usize::from(a)])),
                Op::And(to, a, b) => (to, registers[usize::from(a)] & registers[usize::from(b)]),
                Op::Or(to, a, b) => (to, registers[usize::from(a)] | registers[usize::from(b)]),
                Op::Except(to, a, b) => {
                    (to, registers[usize::from(a)] & !registers[usize::from(b)])
                }
                Op::Not(to, a) => (to, board & !registers[usize::from(a)]),
                Op::Any(to, a) => {
                    let any = registers[usize::from(a)].any();
                    (to, if any { board } else { B::EMPTY })
                }
                Op::Judged(to, ref set) => (to, judge.set(set)),
                Op::Holds(to, ref condition) => (
                    to,
                    if judge.holds(condition) {
                        board
                    } else {
                        B::EMPTY
                    },
                ),
                Op::Obey(to, allowed, applies, allows) => {
                    let allowed = registers[usize::from(allowed)];
                    let rule = !registers[usize::from(applies)] | registers[usize::from(allows)];
                    (to, allowed & rule)
                }
                Op::ObeyWhenAny(to, allowed, set, allows) => {
                    let allowed = registers[usize::from(allowed)];
                    if registers[usize::from(set)].any() {
                        (to, allowed & registers[usize::from(allows)])
                    } else {
                        (to, allowed)
                    }
                }
            };
            registers[usize::from(to)] = value;
        }
    }
}

/// Compiles expressions into operations, one register per distinct expression.
struct Compiler<'a, B: Bitboard> {
    game: &'a Rules<B>,
    position: &'a Position<B>,
    side: usize,
    ops: Vec<Op<B>>,
    /// The register of each expression compiled, by its written form.
    known: HashMap<String, Reg>,
    /// Per register, its value where the plan decides it (set before the program runs).
    constants: Vec<Option<B>>,
}

impl<'a, B: Bitboard> Compiler<'a, B> {
    /// A compiler for `side`'s rules on `position`'s scalar state, with the registers of the
    /// empty and occupied squares.
    fn new(game: &'a Rules<B>, position: &'a Position<B>, side: usize) -> Option<Self> {
        let mut compiler = Compiler {
            game,
            position,
            side,
            ops: Vec::new(),
            known: HashMap::new(),
            constants: Vec::new(),
        };
        let empty = compiler.input()?;
        let occupied = compiler.input()?;
        debug_assert_eq!((empty, occupied), (EMPTY, OCCUPIED));
        Some(compiler)
    }

    /// How many registers the program uses, and the constants that hold a square, by register
    /// (the inputs are set when the program runs).
    fn constants(&self) -> (usize, Vec<(Reg, B)>) {
        let set = self
            .constants
            .iter()
            .enumerate()
            .filter_map(|(register, constant)| {
                constant
                    .filter(|value| value.any())
                    .map(|value| (register as Reg, value))
            })
            .collect();
        (self.constants.len(), set)
    }

    /// The register of the operation `op` makes (given its target), compiled the first time
    /// (equal operations share a register); `None` past [`MAX_REGISTERS`].
    fn register(&mut self, op: impl Fn(Reg) -> Op<B>) -> Option<Reg> {
        // Keyed by its written form with no target.
        let key = format!("{:?}", op(Reg::MAX));
        if let Some(&known) = self.known.get(&key) {
            return Some(known);
        }
        let to = self.fresh(key, None)?;
        self.ops.push(op(to));
        Some(to)
    }

    /// A new register for the expression `key`, holding `constant` before the program runs.
    fn fresh(&mut self, key: String, constant: Option<B>) -> Option<Reg> {
        if self.constants.len() >= MAX_REGISTERS {
            return None;
        }
        let to = self.constants.len() as Reg;
        self.constants.push(constant);
        self.known.insert(key, to);
        Some(to)
    }

    /// A register set from the position before the program runs.
    fn input(&mut self) -> Option<Reg> {
        let key = format!("input {}", self.constants.len());
        self.fresh(key, None)
    }

    /// A register holding `squares`, known when the plan is made.
    fn constant(&mut self, squares: B) -> Option<Reg> {
        let key = format!("constant {squares:?}");
        if let Some(&known) = self.known.get(&key) {
            return Some(known);
        }
        self.fresh(key, Some(squares))
    }

    /// The value of a register where the plan decides it.
    fn value(&self, register: Reg) -> Option<B> {
        self.constants[usize::from(register)]
    }

    /// `op` of registers `a` and `b`, folded where both are known.
    fn binary(
        &mut self,
        a: Reg,
        b: Reg,
        fold: impl Fn(B, B) -> B,
        op: impl Fn(Reg, Reg, Reg) -> Op<B>,
    ) -> Option<Reg> {
        match (self.value(a), self.value(b)) {
            (Some(a), Some(b)) => self.constant(fold(a, b)),
            _ => self.register(|to| op(to, a, b)),
        }
    }

    /// `op` of register `a`, folded where it is known.
    fn unary(
        &mut self,
        a: Reg,
        fold: impl Fn(B) -> B,
        op: impl Fn(Reg, Reg) -> Op<B>,
    ) -> Option<Reg> {
        match self.value(a) {
            Some(a) => self.constant(fold(a)),
            None => self.register(|to| op(to, a)),
        }
    }

    fn and(&mut self, a: Reg, b: Reg) -> Option<Reg> {
        let board = self.game.geometry.board;
        match (self.value(a), self.value(b)) {
            (Some(all), _) if all == board => Some(b),
            (_, Some(all)) if all == board => Some(a),
            (Some(none), _) | (_, Some(none)) if none.is_empty() => self.constant(B::EMPTY),
            // Squares less a set, rather than squares and the board less it (every register
            // holds squares of the board): one operation for two.
            _ => match (self.negated(a), self.negated(b)) {
                (_, Some(b)) => self.binary(a, b, |a, b| a & !b, Op::Except),
                (Some(a), _) => self.binary(b, a, |b, a| b & !a, Op::Except),
                _ => self.binary(a, b, |a, b| a & b, Op::And),
            },
        }
    }

    /// The operation that computes a register (none for constants and inputs).
    fn producer(&self, register: Reg) -> Option<&Op<B>> {
        self.ops.iter().rev().find(|op| op.target() == register)
    }

    /// The register a register is the board less, where it is.
    fn negated(&self, register: Reg) -> Option<Reg> {
        match self.producer(register)? {
            Op::Not(_, inner) => Some(*inner),
            _ => None,
        }
    }

    fn or(&mut self, a: Reg, b: Reg) -> Option<Reg> {
        match (self.value(a), self.value(b)) {
            (Some(none), _) if none.is_empty() => Some(b),
            (_, Some(none)) if none.is_empty() => Some(a),
            _ => self.binary(a, b, |a, b| a | b, Op::Or),
        }
    }

    /// The squares `allowed` less those where a rule applies (`applies`) and does not allow
    /// (`allows`).
    fn obey(&mut self, allowed: Reg, applies: Reg, allows: Reg) -> Option<Reg> {
        let board = self.game.geometry.board;
        if self.value(allowed).is_some_and(|none| none.is_empty()) {
            return Some(allowed);
        }
        match self.value(applies) {
            Some(none) if none.is_empty() => Some(allowed),
            Some(all) if all == board => self.and(allowed, allows),
            _ => match self.producer(applies) {
                Some(&Op::Any(_, set)) => {
                    self.register(|to| Op::ObeyWhenAny(to, allowed, set, allows))
                }
                _ => self.register(|to| Op::Obey(to, allowed, applies, allows)),
            },
        }
    }

    /// The squares where a folded drop condition holds.
    fn mask(&mut self, condition: &Cond<B>) -> Option<Reg> {
        let board = self.game.geometry.board;
        match condition {
            Cond::True => self.constant(board),
            Cond::False => self.constant(B::EMPTY),
            Cond::PlaceOn(set) => self.set(set),
            Cond::And(a, b) => {
                let (a, b) = (self.mask(a)?, self.mask(b)?);
                self.and(a, b)
            }
            Cond::Or(a, b) => {
                let (a, b) = (self.mask(a)?, self.mask(b)?);
                self.or(a, b)
            }
            Cond::Not(a) => {
                let a = self.mask(a)?;
                self.unary(a, |a| board & !a, Op::Not)
            }
            Cond::Some(set) => {
                let set = self.set(set)?;
                let any = |a: B| if a.any() { board } else { B::EMPTY };
                self.unary(set, any, Op::Any)
            }
            other => self.register(|to| Op::Holds(to, Box::new(other.clone()))),
        }
    }

    /// A folded set of squares.
    fn set(&mut self, set: &Set<B>) -> Option<Reg> {
        let sides = |reference| sides_of(self.game, self.position, self.side, reference);
        let (game, board) = (self.game, self.game.geometry.board);
        match set {
            // Set before the program runs.
            Set::Empty => Some(EMPTY),
            Set::Occupied => Some(OCCUPIED),
            Set::Fixed(squares) => self.constant(*squares),
            Set::Pieces(reference, piece) => {
                let (sides, piece) = (sides(*reference), piece.map(|piece| piece as u8));
                self.register(|to| Op::Pieces(to, sides, piece))
            }
            Set::LastDrop(reference) => {
                let sides = sides(*reference);
                self.register(|to| Op::LastDrop(to, sides))
            }
            Set::Adjacent(inner) => {
                let inner = self.set(inner)?;
                self.unary(inner, |a| around(game, a), Op::Around)
            }
            Set::ColourOf(inner) => {
                let inner = self.set(inner)?;
                self.unary(inner, |a| colour_of(game, a), Op::ColourOf)
            }
            // `own King and attacked by opponent`: the judge tests only the squares that count.
            Set::And(a, b) if !matches!(**b, Set::AttackedBy(_)) => {
                let (a, b) = (self.set(a)?, self.set(b)?);
                self.and(a, b)
            }
            Set::Or(a, b) => {
                let (a, b) = (self.set(a)?, self.set(b)?);
                self.or(a, b)
            }
            Set::Except(a, b) => {
                let (a, b) = (self.set(a)?, self.set(b)?);
                self.binary(a, b, |a, b| a & !b, Op::Except)
            }
            Set::Not(a) => {
                let a = self.set(a)?;
                self.unary(a, |a| board & !a, Op::Not)
            }
            other => self.register(|to| Op::Judged(to, Box::new(other.clone()))),
        }
    }
}

/// The next side and the mover, for the next side's bounds: `(next, mover)`.
type ReplySides = (usize, usize);

/// Whether a set holds, after the mover's drop, the square of that drop (whatever it is).
pub(crate) fn holds_the_drop<B>(set: &Set<B>) -> bool {
    match set {
        Set::Occupied => true,
        Set::Or(a, b) => holds_the_drop(a) || holds_the_drop(b),
        Set::And(a, b) => holds_the_drop(a) && holds_the_drop(b),
        _ => false,
    }
}

impl<B: Bitboard> Compiler<'_, B> {
    /// Where a folded condition of the next side's rules possibly (`upper`) or certainly holds
    /// after the mover's drop on one of the empty squares: the bounds that
    /// [`crate::plan`]'s closures compute for those drops, or looser ones (never tighter);
    /// `None` for a condition that only the tree evaluator bounds.
    fn bound_mask(&mut self, condition: &Cond<B>, upper: bool, sides: ReplySides) -> Option<Reg> {
        let board = self.game.geometry.board;
        match condition {
            Cond::True => self.constant(board),
            Cond::False => self.constant(B::EMPTY),
            Cond::PlaceOn(set) => self.bound_set(set, upper, sides),
            Cond::And(a, b) => {
                let a = self.bound_mask(a, upper, sides)?;
                let b = self.bound_mask(b, upper, sides)?;
                self.and(a, b)
            }
            Cond::Or(a, b) => {
                let a = self.bound_mask(a, upper, sides)?;
                let b = self.bound_mask(b, upper, sides)?;
                self.or(a, b)
            }
            Cond::Not(a) => {
                let a = self.bound_mask(a, !upper, sides)?;
                self.unary(a, |a| board & !a, Op::Not)
            }
            // The drop occupies a square: such a set is not empty after it.
            Cond::Some(set) if upper && holds_the_drop(set) => self.constant(board),
            Cond::Some(set) => {
                let set = self.bound_set(set, upper, sides)?;
                let any = |a: B| if a.any() { board } else { B::EMPTY };
                self.unary(set, any, Op::Any)
            }
            _ => None,
        }
    }

    /// The upper (`upper`) or lower bound of a folded set of the next side's rules after the
    /// mover's drop on one of the empty squares (the register [`EMPTY`] holds those squares,
    /// and the drop's square is known where it is the only one).
    fn bound_set(&mut self, set: &Set<B>, upper: bool, sides: ReplySides) -> Option<Reg> {
        let (next, mover) = sides;
        let (game, board) = (self.game, self.game.geometry.board);
        let sides_of = |reference| sides_of(game, self.position, next, reference);
        match set {
            // Empty before (upper; the closures take out the drop's square where it is the only
            // one), less every square the drop may be on (lower): nothing, here.
            Set::Empty if upper => Some(EMPTY),
            Set::Empty => self.constant(B::EMPTY),
            // Occupied before, with every square the drop may be on (upper): the board, here;
            // occupied before (lower; the closures add the drop's square where it is the only
            // one).
            Set::Occupied if upper => self.constant(board),
            Set::Occupied => Some(OCCUPIED),
            Set::Fixed(squares) => self.constant(*squares),
            Set::Zone(per_side) => self.constant(per_side[next]),
            Set::Pieces(reference, piece) => {
                let (sides, piece) = (sides_of(*reference), piece.map(|piece| piece as u8));
                let pieces = self.register(|to| Op::Pieces(to, sides, piece))?;
                // The mover's drop may add one of its pieces (looser than the closures' bound,
                // which asks whether the mover holds one of the type).
                if upper && sides & (1 << mover) != 0 {
                    self.or(pieces, EMPTY)
                } else {
                    Some(pieces)
                }
            }
            Set::LastDrop(reference) => {
                let sides = sides_of(*reference);
                // The mover's last drop will be the unknown one: on one of the empty squares
                // (upper), not known (lower; the closures add it where it is the only one).
                let known_sides = sides & !(1 << mover);
                let known = self.register(|to| Op::LastDrop(to, known_sides))?;
                if upper && sides & (1 << mover) != 0 {
                    self.or(known, EMPTY)
                } else {
                    Some(known)
                }
            }
            Set::Adjacent(inner) => {
                let inner = self.bound_set(inner, upper, sides)?;
                self.unary(inner, |a| around(game, a), Op::Around)
            }
            Set::ColourOf(inner) => {
                let inner = self.bound_set(inner, upper, sides)?;
                self.unary(inner, |a| colour_of(game, a), Op::ColourOf)
            }
            Set::And(a, b) => {
                let a = self.bound_set(a, upper, sides)?;
                let b = self.bound_set(b, upper, sides)?;
                self.and(a, b)
            }
            Set::Or(a, b) => {
                let a = self.bound_set(a, upper, sides)?;
                let b = self.bound_set(b, upper, sides)?;
                self.or(a, b)
            }
            Set::Except(a, b) => {
                let a = self.bound_set(a, upper, sides)?;
                let b = self.bound_set(b, !upper, sides)?;
                self.binary(a, b, |a, b| a & !b, Op::Except)
            }
            Set::Not(a) => {
                let a = self.bound_set(a, !upper, sides)?;
                self.unary(a, |a| board & !a, Op::Not)
            }
            // Control, attacks, legal drops, acted pieces, fields: unknown after the drop.
            Set::ControlledBy(_)
            | Set::AttackedBy(_)
            | Set::LegalDrops
            | Set::Acted
            | Set::Compare(..) => self.constant(if upper { board } else { B::EMPTY }),
        }
    }
}

#[cfg(test)]
impl<B: Bitboard> Program<B> {
    /// A program computing the squares where the folded `condition` holds for `side` on
    /// `position`'s scalar state, and the register that holds them: for tests against the
    /// judge.
    pub(crate) fn for_mask(
        game: &Rules<B>,
        position: &Position<B>,
        side: usize,
        condition: &Cond<B>,
    ) -> Option<(Self, Reg)> {
        let mut compiler = Compiler::new(game, position, side)?;
        let result = compiler.mask(condition)?;
        let (registers, constants) = compiler.constants();
        let program = Program {
            registers,
            constants,
            ops: compiler.ops,
            by_type: Vec::new(),
            by_pair: Vec::new(),
            reply: Vec::new(),
        };
        Some((program, result))
    }

    /// The value of `register` once the program has run.
    pub(crate) fn value_of(&self, judge: &mut Judge<'_, B>, register: Reg) -> B {
        self.registers_after(judge)[usize::from(register)]
    }

    /// Every register once the program has run.
    pub(crate) fn registers_after(&self, judge: &mut Judge<'_, B>) -> Vec<B> {
        let mut registers = vec![B::EMPTY; MAX_REGISTERS];
        self.execute(judge, &mut registers);
        registers
    }
}
