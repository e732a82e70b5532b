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
//! Compiling is a pass over the expression IR, not a walker of its own: the [`Compiler`] is a
//! [`Domain`] whose values are registers (a set's squares, a number, a truth as the board or
//! nothing), and the one walk of [`crate::domain`] visits the terms while each domain method
//! emits the operation of its term (or folds it, where its operands are constants). The next
//! side's rules, which the lookahead's proof reads over bounds, compile the same way in a
//! second domain ([`ReplyBounds`], each value a pair of registers: the interval domain
//! [`crate::expression::Bounds`] over every drop on an empty square). Only their bounds that the
//! mover's rules compute already ("the squares touching a piece", for both sides of a
//! placement game) are kept ([`ReplyRules`]): those cost nothing to compute, and a proof that
//! reads only them is a short loop over registers. The proof's other bounds are compiled by
//! the same pass into a [`Replay`]: operations over registers of any domain, with every leaf
//! asked of the domain, replayed on the interval and symbolic ones for the drops in question
//! (no tree of boxed closures).
//!
//! Terms that gain nothing from this (control, attacks, legal drops, comparisons of fields,
//! the turn's conditions) are one operation that asks the [`Judge`] for that term alone.

use crate::bitboard::Bitboard;
use crate::core::index::{ByPiece, BySide, PieceId, SideId};
use crate::domain::{self, Domain};
use crate::expression::{
    around, colour_of, file_of, sides_of, Cond, Fld, Judge, Num, Set, OTHER_PIECE,
};
use crate::position::Position;
use crate::rules::plan_data::{needed, set_place, Op, EMPTY, MAX_NUMBERS, OCCUPIED};
pub(crate) use crate::rules::plan_data::{NumReg, Program, Reg, Replay, MAX_REGISTERS};
use crate::rules::Rules;
use std::collections::HashMap;
use variant_dsl::expression::{Comparison, SideRef};

/// The next side's rules, folded, for the lookahead's proof ([`crate::plan`]): their bounds
/// after the mover's drop on one of the empty squares are compiled with the mover's rules,
/// sharing their registers ("the squares touching a piece" is computed once for both sides).
pub(crate) struct ReplyRules<'a, B> {
    /// The side that replies.
    pub next: SideId,
    /// The side that drops.
    pub mover: SideId,
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
        side: SideId,
        rules: &[FoldedRule<'_, B>],
        by_piece: &ByPiece<Vec<u8>>,
        group: &[PieceId],
        reply: Option<&ReplyRules<'_, B>>,
    ) -> Option<Self> {
        let mut compiler = Compiler::new(game, position, side);
        let (empty, nothing) = (EMPTY, compiler.constant(B::EMPTY));
        let mut groups = ByPiece::splat((empty, nothing));
        for (piece, slots) in by_piece.pairs().take(group.len()) {
            if group[piece.index()] != piece {
                continue;
            }
            let mut allowed = empty;
            let mut lookahead = nothing;
            for &index in slots {
                let rule = &rules[usize::from(index)];
                let applies = compiler.mask(rule.condition);
                match rule.requirement {
                    Some(requirement) => {
                        let allows = compiler.mask(requirement);
                        allowed = compiler.obey(allowed, applies, allows);
                    }
                    None => {
                        lookahead = compiler.or(lookahead, applies);
                    }
                }
            }
            groups[piece] = (allowed, lookahead);
        }
        if compiler.overflow {
            return None;
        }
        // The next side's bounds that the mover's rules compute already (or the plan
        // decides): the program computes them at no cost, where the proof would compute them
        // itself. Others are left to the proof, which computes them only when it gets to them
        // (it stops at the first type it proves for).
        let reply: Vec<(Option<Reg>, Option<Reg>)> = reply.map_or(Vec::new(), |reply| {
            let sides = (reply.next, reply.mover);
            reply
                .rules
                .iter()
                .map(|&(condition, requirement)| {
                    (
                        compiler.free_bound(condition, Direction::Upper, sides),
                        compiler.free_bound(requirement, Direction::Lower, sides),
                    )
                })
                .collect()
        });
        let (registers, constants) = compiler.constants();
        let by_type: Vec<(Reg, Reg)> = group.iter().map(|&first| groups[first]).collect();
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
            numbers: compiler.numbers.len(),
            number_constants: compiler.number_constants(),
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
        allowed_of: &mut ByPiece<B>,
        lookahead_of: &mut ByPiece<B>,
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
        allowed_of: &mut ByPiece<B>,
        lookahead_of: &mut ByPiece<B>,
    ) {
        let mut registers = [B::EMPTY; N];
        self.execute(judge, &mut registers);
        let mut rest = pieces;
        while rest != 0 {
            let piece = PieceId::new(rest.trailing_zeros() as usize);
            rest &= rest - 1;
            let Some(&(allowed, lookahead)) = self.by_type.get(piece.index()) else {
                break;
            };
            let allowed = registers[usize::from(allowed)];
            allowed_of[piece] = allowed;
            lookahead_of[piece] = registers[usize::from(lookahead)] & allowed;
        }
        if !lookahead_wanted {
            *lookahead_of = ByPiece::splat(B::EMPTY);
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
        if self.numbers == 0 {
            self.execute_with(judge, registers, &mut []);
        } else {
            let mut numbers = [0i64; MAX_NUMBERS];
            for &(register, value) in &self.number_constants {
                numbers[usize::from(register)] = value;
            }
            self.execute_with(judge, registers, &mut numbers);
        }
    }

    /// [`Program::execute`] with the number registers `numbers` (none where the program reads
    /// no number).
    #[inline(always)]
    fn execute_with(&self, judge: &mut Judge<'_, B>, registers: &mut [B], numbers: &mut [i64]) {
        let rules = judge.rules();
        let position = judge.position();
        let board = rules.geometry().board;
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
                        Some(piece) => (to, squares & position.typed(piece)),
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
                Op::FileOf(to, a) => (to, file_of(rules, registers[usize::from(a)])),
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
                Op::AttackedAmong(to, sides, among) => (
                    to,
                    judge.attacked_among(sides, registers[usize::from(among)]),
                ),
                Op::Holds(to, ref condition) => {
                    let holds = judge.holds(condition);
                    (to, judge.everywhere(holds))
                }
                Op::Compare(to, a, op, b) => {
                    let (a, b) = (numbers[usize::from(a)], numbers[usize::from(b)]);
                    let holds = judge.compare(a, op, b);
                    (to, judge.everywhere(holds))
                }
                Op::Number(to, ref number) => {
                    numbers[usize::from(to)] = judge.number(number);
                    continue;
                }
                Op::Count(to, a) => {
                    numbers[usize::from(to)] = judge.count(registers[usize::from(a)]);
                    continue;
                }
                Op::Sum(to, ref field, a) => {
                    numbers[usize::from(to)] = judge.sum(field, registers[usize::from(a)]);
                    continue;
                }
                Op::Plus(to, a, b) => {
                    let (a, b) = (numbers[usize::from(a)], numbers[usize::from(b)]);
                    numbers[usize::from(to)] = judge.plus(a, b);
                    continue;
                }
                Op::Minus(to, a, b) => {
                    let (a, b) = (numbers[usize::from(a)], numbers[usize::from(b)]);
                    numbers[usize::from(to)] = judge.minus(a, b);
                    continue;
                }
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

/// Compiles expressions into operations, one register per distinct expression: the domain of
/// registers (see the module documentation).
struct Compiler<'a, B: Bitboard> {
    game: &'a Rules<B>,
    position: &'a Position<B>,
    side: SideId,
    ops: Vec<Op<B>>,
    /// The register of each set or truth compiled, by what computes it.
    known: HashMap<Source<B>, Reg>,
    /// The register of each number compiled, by what computes it.
    known_numbers: HashMap<Source<B>, NumReg>,
    /// Per register, its value where the plan decides it (set before the program runs).
    constants: Vec<Option<B>>,
    /// Per number register, its value where the plan decides it.
    numbers: Vec<Option<i64>>,
    /// Whether a register was asked for past [`MAX_REGISTERS`] or [`MAX_NUMBERS`] (the program
    /// is then not made).
    overflow: bool,
    /// Whether the pieces and last drops are read from the position (a plan's program, run on
    /// the judge) or asked of the domain the program runs on (a [`Replay`]).
    asked: bool,
}

/// What computes a register, by which equal expressions share one: an operation (with no
/// target), an input, or a constant. Compared as data (hashing the operation's tree), where
/// writing each operation out as text to compare it cost more than the rest of making a plan.
#[derive(PartialEq, Eq, Hash)]
enum Source<B> {
    Op(Op<B>),
    Input(usize),
    Constant(B),
    Number(i64),
}

/// How far the compiler has got: what [`Compiler::rollback`] returns to.
#[derive(Clone, Copy)]
struct Mark {
    ops: usize,
    registers: usize,
    numbers: usize,
    overflow: bool,
}

/// Which bound of the next side's rules the proof reads: where a rule possibly applies (the
/// upper bound of its condition), or where it certainly allows (the lower bound of its
/// requirement).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Lower,
    Upper,
}

impl<'a, B: Bitboard> Compiler<'a, B> {
    /// A compiler for `side`'s rules on `position`'s scalar state, with the registers of the
    /// empty and occupied squares.
    fn new(game: &'a Rules<B>, position: &'a Position<B>, side: SideId) -> Self {
        let mut compiler = Compiler {
            game,
            position,
            side,
            ops: Vec::new(),
            known: HashMap::new(),
            known_numbers: HashMap::new(),
            constants: Vec::new(),
            numbers: Vec::new(),
            overflow: false,
            asked: false,
        };
        let empty = compiler.input();
        let occupied = compiler.input();
        debug_assert_eq!((empty, occupied), (EMPTY, OCCUPIED));
        compiler
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

    /// The numbers the plan decides, by number register.
    fn number_constants(&self) -> Vec<(NumReg, i64)> {
        self.numbers
            .iter()
            .enumerate()
            .filter_map(|(register, value)| value.map(|value| (register as NumReg, value)))
            .collect()
    }

    /// The register of the operation `op` makes (given its target), compiled the first time
    /// (equal operations share a register).
    fn register(&mut self, op: impl Fn(Reg) -> Op<B>) -> Reg {
        // Keyed by the operation with no target.
        let key = Source::Op(op(Reg::MAX));
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        let to = self.fresh(key, None);
        self.ops.push(op(to));
        to
    }

    /// A new register for the expression `key`, holding `constant` before the program runs
    /// (past [`MAX_REGISTERS`], the compilation has failed: see [`Compiler::overflow`]).
    fn fresh(&mut self, key: Source<B>, constant: Option<B>) -> Reg {
        if self.constants.len() >= MAX_REGISTERS {
            self.overflow = true;
            return EMPTY;
        }
        let to = self.constants.len() as Reg;
        self.constants.push(constant);
        self.known.insert(key, to);
        to
    }

    /// A register set from the position before the program runs.
    fn input(&mut self) -> Reg {
        let key = Source::Input(self.constants.len());
        self.fresh(key, None)
    }

    /// A register holding `squares`, known when the plan is made.
    fn constant(&mut self, squares: B) -> Reg {
        let key = Source::Constant(squares);
        if let Some(&known) = self.known.get(&key) {
            return known;
        }
        self.fresh(key, Some(squares))
    }

    /// The value of a register where the plan decides it.
    fn value(&self, register: Reg) -> Option<B> {
        self.constants.get(usize::from(register)).copied().flatten()
    }

    /// The register of a number operation, as [`Compiler::register`] for sets.
    fn number_register(&mut self, op: impl Fn(NumReg) -> Op<B>) -> NumReg {
        let key = Source::Op(op(NumReg::MAX));
        if let Some(&known) = self.known_numbers.get(&key) {
            return known;
        }
        let to = self.fresh_number(key, None);
        self.ops.push(op(to));
        to
    }

    /// A new number register for the expression `key`.
    fn fresh_number(&mut self, key: Source<B>, constant: Option<i64>) -> NumReg {
        if self.numbers.len() >= MAX_NUMBERS {
            self.overflow = true;
            return 0;
        }
        let to = self.numbers.len() as NumReg;
        self.numbers.push(constant);
        self.known_numbers.insert(key, to);
        to
    }

    /// A number register holding `value`, known when the plan is made.
    fn number_constant(&mut self, value: i64) -> NumReg {
        let key = Source::Number(value);
        if let Some(&known) = self.known_numbers.get(&key) {
            return known;
        }
        self.fresh_number(key, Some(value))
    }

    /// The value of a number register where the plan decides it.
    fn number_value(&self, register: NumReg) -> Option<i64> {
        self.numbers.get(usize::from(register)).copied().flatten()
    }

    /// Where the compilation is: what a later [`Compiler::rollback`] returns to.
    fn mark(&self) -> Mark {
        Mark {
            ops: self.ops.len(),
            registers: self.constants.len(),
            numbers: self.numbers.len(),
            overflow: self.overflow,
        }
    }

    /// Forgets every operation and register made since `mark`.
    fn rollback(&mut self, mark: Mark) {
        self.ops.truncate(mark.ops);
        self.constants.truncate(mark.registers);
        self.numbers.truncate(mark.numbers);
        self.known
            .retain(|_, register| usize::from(*register) < mark.registers);
        self.known_numbers
            .retain(|_, register| usize::from(*register) < mark.numbers);
        self.overflow = mark.overflow;
    }

    /// `op` of registers `a` and `b`, folded where both are known.
    fn binary(
        &mut self,
        a: Reg,
        b: Reg,
        fold: impl Fn(B, B) -> B,
        op: impl Fn(Reg, Reg, Reg) -> Op<B>,
    ) -> Reg {
        match (self.value(a), self.value(b)) {
            (Some(a), Some(b)) => self.constant(fold(a, b)),
            _ => self.register(|to| op(to, a, b)),
        }
    }

    /// `op` of register `a`, folded where it is known.
    fn unary(&mut self, a: Reg, fold: impl Fn(B) -> B, op: impl Fn(Reg, Reg) -> Op<B>) -> Reg {
        match self.value(a) {
            Some(a) => self.constant(fold(a)),
            None => self.register(|to| op(to, a)),
        }
    }

    /// `op` of number registers `a` and `b`, folded where both are known.
    fn number_binary(
        &mut self,
        a: NumReg,
        b: NumReg,
        fold: impl Fn(i64, i64) -> i64,
        op: impl Fn(NumReg, NumReg, NumReg) -> Op<B>,
    ) -> NumReg {
        match (self.number_value(a), self.number_value(b)) {
            (Some(a), Some(b)) => self.number_constant(fold(a, b)),
            _ => self.number_register(|to| op(to, a, b)),
        }
    }

    /// The board where `holds`, else nothing, as a constant register.
    fn truth_constant(&mut self, holds: bool) -> Reg {
        let board = self.game.geometry().board;
        self.constant(if holds { board } else { B::EMPTY })
    }

    fn and(&mut self, a: Reg, b: Reg) -> Reg {
        let board = self.game.geometry().board;
        match (self.value(a), self.value(b)) {
            (Some(all), _) if all == board => b,
            (_, Some(all)) if all == board => a,
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
        let place = set_place(register);
        self.ops.iter().rev().find(|op| op.target() == place)
    }

    /// The register a register is the board less, where it is.
    fn negated(&self, register: Reg) -> Option<Reg> {
        match self.producer(register)? {
            Op::Not(_, inner) => Some(*inner),
            _ => None,
        }
    }

    fn or(&mut self, a: Reg, b: Reg) -> Reg {
        let board = self.game.geometry().board;
        match (self.value(a), self.value(b)) {
            (Some(none), _) if none.is_empty() => b,
            (_, Some(none)) if none.is_empty() => a,
            (Some(all), _) if all == board => a,
            (_, Some(all)) if all == board => b,
            _ => self.binary(a, b, |a, b| a | b, Op::Or),
        }
    }

    fn not(&mut self, a: Reg) -> Reg {
        let board = self.game.geometry().board;
        self.unary(a, |a| board & !a, Op::Not)
    }

    /// The board if register `a` holds a square, else nothing.
    fn any(&mut self, a: Reg) -> Reg {
        let board = self.game.geometry().board;
        let any = |a: B| if a.any() { board } else { B::EMPTY };
        self.unary(a, any, Op::Any)
    }

    /// The squares `allowed` less those where a rule applies (`applies`) and does not allow
    /// (`allows`).
    fn obey(&mut self, allowed: Reg, applies: Reg, allows: Reg) -> Reg {
        let board = self.game.geometry().board;
        if self.value(allowed).is_some_and(|none| none.is_empty()) {
            return allowed;
        }
        match self.value(applies) {
            Some(none) if none.is_empty() => allowed,
            Some(all) if all == board => self.and(allowed, allows),
            _ => match self.producer(applies) {
                Some(&Op::Any(_, set)) => {
                    self.register(|to| Op::ObeyWhenAny(to, allowed, set, allows))
                }
                _ => self.register(|to| Op::Obey(to, allowed, applies, allows)),
            },
        }
    }

    /// The squares where a folded drop condition holds: the one walk of [`crate::domain`] in
    /// this domain (a folded condition names no piece type: `place` is settled).
    fn mask(&mut self, condition: &Cond<B>) -> Reg {
        domain::drop_mask(self, condition, OTHER_PIECE)
    }

    /// The sides a reference names, judged for the compiled side on the plan's scalar state.
    fn sides(&self, reference: SideRef) -> u32 {
        sides_of(self.game, self.position, self.side, reference)
    }

    /// A leaf set the judge computes when the program runs.
    fn judged(&mut self, set: Set<B>) -> Reg {
        self.register(|to| Op::Judged(to, Box::new(set.clone())))
    }

    /// A leaf condition the judge decides when the program runs.
    fn judged_truth(&mut self, condition: Cond<B>) -> Reg {
        self.register(|to| Op::Holds(to, Box::new(condition.clone())))
    }

    /// A leaf number the judge computes when the program runs.
    fn judged_number(&mut self, number: Num<B>) -> NumReg {
        self.number_register(|to| Op::Number(to, Box::new(number.clone())))
    }

    /// A bound of the next side's folded `condition` after the mover's drop on any empty
    /// square (see [`ReplyBounds`]), where it costs nothing: a constant the plan decides, or a
    /// register the program computes already; `None` otherwise (nothing is added to the
    /// program either way).
    fn free_bound(
        &mut self,
        condition: &Cond<B>,
        direction: Direction,
        (next, mover): (SideId, SideId),
    ) -> Option<Reg> {
        let mark = self.mark();
        let bounds = domain::drop_mask(
            &mut ReplyBounds {
                compiler: self,
                next,
                mover,
            },
            condition,
            OTHER_PIECE,
        );
        let register = bounds.map(|(lower, upper)| match direction {
            Direction::Lower => lower,
            Direction::Upper => upper,
        });
        let failed = self.overflow;
        let constant = register.and_then(|register| self.value(register));
        let computed = register.filter(|&register| usize::from(register) < mark.registers);
        self.rollback(mark);
        if failed {
            return None;
        }
        match (constant, computed) {
            (Some(squares), _) => {
                let register = self.constant(squares);
                (!self.overflow).then_some(register)
            }
            (None, computed) => computed,
        }
    }
}

/// The program's domain: each term's value is a register (a truth's, the board where it holds
/// and nothing where not), computed by the operation the term emits, or a constant where the
/// plan decides it.
impl<B: Bitboard> Domain<B> for Compiler<'_, B> {
    type Squares = Reg;
    type Number = NumReg;
    type Truth = Reg;

    fn empty(&mut self) -> Reg {
        EMPTY
    }
    fn occupied(&mut self) -> Reg {
        OCCUPIED
    }
    fn fixed(&mut self, squares: B) -> Reg {
        self.constant(squares)
    }
    fn zone(&mut self, per_side: &BySide<B>) -> Reg {
        self.constant(per_side[self.side])
    }
    fn pieces(&mut self, sides: SideRef, piece: Option<PieceId>) -> Reg {
        if self.asked {
            return self.judged(Set::Pieces(sides, piece));
        }
        let sides = self.sides(sides);
        self.register(|to| Op::Pieces(to, sides, piece))
    }
    fn controlled_by(&mut self, sides: SideRef) -> Reg {
        self.judged(Set::ControlledBy(sides))
    }
    fn attacked_among(&mut self, sides: SideRef, among: Reg) -> Reg {
        if self.value(among).is_some_and(|none| none.is_empty()) {
            return among;
        }
        self.register(|to| Op::AttackedAmong(to, sides, among))
    }
    fn attacked_by(&mut self, sides: SideRef) -> Reg {
        self.judged(Set::AttackedBy(sides))
    }
    fn reach(&mut self, from: &Set<B>, index: usize) -> Reg {
        self.judged(Set::Reach(Box::new(from.clone()), index))
    }
    fn last_drop(&mut self, sides: SideRef) -> Reg {
        if self.asked {
            return self.judged(Set::LastDrop(sides));
        }
        let sides = self.sides(sides);
        self.register(|to| Op::LastDrop(to, sides))
    }
    fn legal_drops(&mut self) -> Reg {
        self.judged(Set::LegalDrops)
    }
    fn acted(&mut self) -> Reg {
        self.judged(Set::Acted)
    }
    fn compare_fields(&mut self, a: &Fld, op: Comparison, b: &Fld) -> Reg {
        self.judged(Set::Compare(a.clone(), op, b.clone()))
    }
    fn adjacent(&mut self, inner: Reg) -> Reg {
        let game = self.game;
        self.unary(inner, |a| around(game, a), Op::Around)
    }
    fn colour_of(&mut self, inner: Reg) -> Reg {
        let game = self.game;
        self.unary(inner, |a| colour_of(game, a), Op::ColourOf)
    }
    fn file_of(&mut self, inner: Reg) -> Reg {
        let game = self.game;
        self.unary(inner, |a| file_of(game, a), Op::FileOf)
    }
    fn intersection(&mut self, a: Reg, b: Reg) -> Reg {
        self.and(a, b)
    }
    fn union(&mut self, a: Reg, b: Reg) -> Reg {
        self.or(a, b)
    }
    fn difference(&mut self, a: Reg, b: Reg) -> Reg {
        self.binary(a, b, |a, b| a & !b, Op::Except)
    }
    fn complement(&mut self, a: Reg) -> Reg {
        self.not(a)
    }
    fn nothing(&self, squares: Reg) -> bool {
        self.value(squares).is_some_and(|none| none.is_empty())
    }
    fn everything(&self, squares: Reg) -> bool {
        self.value(squares) == Some(self.game.geometry().board)
    }

    fn constant(&mut self, value: i64) -> NumReg {
        self.number_constant(value)
    }
    fn placement(&mut self) -> NumReg {
        self.judged_number(Num::Placement)
    }
    fn count(&mut self, squares: Reg) -> NumReg {
        match self.value(squares) {
            Some(squares) => self.number_constant(i64::from(squares.count())),
            None => self.number_register(|to| Op::Count(to, squares)),
        }
    }
    fn hand(&mut self, sides: SideRef, piece: Option<PieceId>) -> NumReg {
        self.judged_number(Num::Hand(sides, piece))
    }
    fn counter(&mut self, sides: SideRef, counter: usize) -> NumReg {
        self.judged_number(Num::Counter(sides, counter))
    }
    fn actions_this_turn(&mut self) -> NumReg {
        self.judged_number(Num::ActionsThisTurn)
    }
    fn drops_this_turn(&mut self) -> NumReg {
        self.judged_number(Num::DropsThisTurn)
    }
    fn sum(&mut self, field: &Fld, squares: Reg) -> NumReg {
        self.number_register(|to| Op::Sum(to, Box::new(field.clone()), squares))
    }
    fn plus(&mut self, a: NumReg, b: NumReg) -> NumReg {
        self.number_binary(a, b, i64::saturating_add, Op::Plus)
    }
    fn minus(&mut self, a: NumReg, b: NumReg) -> NumReg {
        self.number_binary(a, b, i64::saturating_sub, Op::Minus)
    }

    fn truth(&mut self, holds: bool) -> Reg {
        self.truth_constant(holds)
    }
    fn leave_action(&mut self) -> Reg {
        self.judged_truth(Cond::LeaveAction)
    }
    fn at_turn_start(&mut self, index: usize) -> Reg {
        self.judged_truth(Cond::AtTurnStart(index))
    }
    fn can_act(&mut self) -> Reg {
        self.judged_truth(Cond::CanAct)
    }
    fn can_act_without_promoting(&mut self) -> Reg {
        self.judged_truth(Cond::CanActWithoutPromoting)
    }
    fn compare(&mut self, a: NumReg, op: Comparison, b: NumReg) -> Reg {
        match (self.number_value(a), self.number_value(b)) {
            (Some(a), Some(b)) => self.truth_constant(op.holds(a, b)),
            _ => self.register(|to| Op::Compare(to, a, op, b)),
        }
    }
    fn some(&mut self, squares: Reg) -> Reg {
        self.any(squares)
    }
    fn hands_empty(&mut self) -> Reg {
        self.judged_truth(Cond::HandsEmpty)
    }
    fn placed(&mut self, sides: SideRef, piece: PieceId) -> Reg {
        self.judged_truth(Cond::Placed(sides, piece))
    }
    fn passed(&mut self, sides: SideRef) -> Reg {
        self.judged_truth(Cond::Passed(sides))
    }
    fn both(&mut self, a: Reg, b: Reg) -> Reg {
        self.and(a, b)
    }
    fn either(&mut self, a: Reg, b: Reg) -> Reg {
        self.or(a, b)
    }
    fn negation(&mut self, a: Reg) -> Reg {
        self.not(a)
    }
    fn never(&self, truth: Reg) -> bool {
        self.nothing(truth)
    }
    fn always(&self, truth: Reg) -> bool {
        self.everything(truth)
    }
    fn everywhere(&mut self, truth: Reg) -> Reg {
        truth
    }
}

/// The next side's folded rules over every drop the mover can make on an empty square,
/// compiled into the mover's program: the interval domain ([`crate::expression::Bounds`]) with
/// each bound a register (the register [`EMPTY`] holds the squares the drop may be on), or
/// looser bounds (never tighter) where the plan cannot settle what the interval domain reads
/// (whether the mover holds a piece of a type). A set's value is `(lower, upper)`; a truth's
/// `(certainly, possibly)`, each the board or nothing, or `None` for a condition whose bounds
/// only the proof computes (numbers and the turn's conditions: numbers are not kept).
struct ReplyBounds<'c, 'a, B: Bitboard> {
    compiler: &'c mut Compiler<'a, B>,
    /// The side whose drops are bounded.
    next: SideId,
    /// The side whose drop comes first.
    mover: SideId,
}

/// A pair of registers: a lower and an upper bound.
type Pair = Option<(Reg, Reg)>;

impl<'a, B: Bitboard> ReplyBounds<'_, 'a, B> {
    fn sides(&self, reference: SideRef) -> u32 {
        sides_of(
            self.compiler.game,
            self.compiler.position,
            self.next,
            reference,
        )
    }

    /// The same set whatever the drop.
    fn exact(&mut self, squares: B) -> Pair {
        let register = self.compiler.constant(squares);
        Some((register, register))
    }

    /// Nothing known after the drop: from nothing to the board.
    fn unknown(&mut self) -> Pair {
        let nothing = self.compiler.constant(B::EMPTY);
        let board = self.compiler.constant(self.compiler.game.geometry().board);
        Some((nothing, board))
    }

    /// Each bound mapped by `f`.
    fn each(&mut self, a: Pair, mut f: impl FnMut(&mut Compiler<'a, B>, Reg) -> Reg) -> Pair {
        let (low, high) = a?;
        Some((f(self.compiler, low), f(self.compiler, high)))
    }

    /// The bounds combined by `f`, lower with lower and upper with upper.
    fn both_ways(
        &mut self,
        a: Pair,
        b: Pair,
        mut f: impl FnMut(&mut Compiler<'a, B>, Reg, Reg) -> Reg,
    ) -> Pair {
        let ((a0, a1), (b0, b1)) = (a?, b?);
        Some((f(self.compiler, a0, b0), f(self.compiler, a1, b1)))
    }

    /// The pieces or last drops of some sides (`known`: those of the sides but the mover),
    /// which gain the mover's drop, on one of the empty squares, where `grows`.
    fn may_gain_the_drop(&mut self, known: Reg, grows: bool) -> Pair {
        if grows {
            let upper = self.compiler.or(known, EMPTY);
            Some((known, upper))
        } else {
            Some((known, known))
        }
    }
}

impl<B: Bitboard> Domain<B> for ReplyBounds<'_, '_, B> {
    type Squares = Pair;
    type Number = ();
    type Truth = Pair;

    fn empty(&mut self) -> Pair {
        // Empty before (upper), less every square the drop may be on (lower): nothing.
        let nothing = self.compiler.constant(B::EMPTY);
        Some((nothing, EMPTY))
    }
    fn occupied(&mut self) -> Pair {
        // Occupied before (lower), with every square the drop may be on (upper): the board.
        let board = self.compiler.constant(self.compiler.game.geometry().board);
        Some((OCCUPIED, board))
    }
    fn fixed(&mut self, squares: B) -> Pair {
        self.exact(squares)
    }
    fn zone(&mut self, per_side: &BySide<B>) -> Pair {
        self.exact(per_side[self.next])
    }
    fn pieces(&mut self, reference: SideRef, piece: Option<PieceId>) -> Pair {
        let sides = self.sides(reference);
        let pieces = self.compiler.register(|to| Op::Pieces(to, sides, piece));
        // The mover's drop may add one of its pieces (looser than the interval domain, which
        // asks whether the mover holds one of the type).
        self.may_gain_the_drop(pieces, sides & (1 << self.mover.0) != 0)
    }
    fn controlled_by(&mut self, _: SideRef) -> Pair {
        self.unknown()
    }
    fn attacked_among(&mut self, sides: SideRef, among: Pair) -> Pair {
        let attacked = self.attacked_by(sides);
        self.intersection(among, attacked)
    }
    fn attacked_by(&mut self, _: SideRef) -> Pair {
        self.unknown()
    }
    fn reach(&mut self, _: &Set<B>, _: usize) -> Pair {
        self.unknown()
    }
    fn last_drop(&mut self, reference: SideRef) -> Pair {
        let sides = self.sides(reference);
        // The mover's last drop will be the unknown one: on one of the empty squares.
        let known_sides = sides & !(1 << self.mover.0);
        let known = self.compiler.register(|to| Op::LastDrop(to, known_sides));
        self.may_gain_the_drop(known, sides & (1 << self.mover.0) != 0)
    }
    fn legal_drops(&mut self) -> Pair {
        self.unknown()
    }
    fn acted(&mut self) -> Pair {
        self.unknown()
    }
    fn compare_fields(&mut self, _: &Fld, _: Comparison, _: &Fld) -> Pair {
        self.unknown()
    }
    fn adjacent(&mut self, inner: Pair) -> Pair {
        self.each(inner, |compiler, a| compiler.adjacent(a))
    }
    fn colour_of(&mut self, inner: Pair) -> Pair {
        self.each(inner, |compiler, a| Domain::colour_of(compiler, a))
    }
    fn file_of(&mut self, inner: Pair) -> Pair {
        self.each(inner, |compiler, a| Domain::file_of(compiler, a))
    }
    fn intersection(&mut self, a: Pair, b: Pair) -> Pair {
        self.both_ways(a, b, Compiler::and)
    }
    fn union(&mut self, a: Pair, b: Pair) -> Pair {
        self.both_ways(a, b, Compiler::or)
    }
    fn difference(&mut self, a: Pair, b: Pair) -> Pair {
        let ((a0, a1), (b0, b1)) = (a?, b?);
        let lower = self.compiler.difference(a0, b1);
        let upper = self.compiler.difference(a1, b0);
        Some((lower, upper))
    }
    fn complement(&mut self, a: Pair) -> Pair {
        let (low, high) = a?;
        let lower = self.compiler.not(high);
        let upper = self.compiler.not(low);
        Some((lower, upper))
    }
    fn nothing(&self, squares: Pair) -> bool {
        squares.is_some_and(|(_, high)| self.compiler.nothing(high))
    }
    fn everything(&self, squares: Pair) -> bool {
        squares.is_some_and(|(low, _)| self.compiler.everything(low))
    }

    // Numbers are not kept: a comparison is left to the proof.
    fn constant(&mut self, _: i64) {}
    fn placement(&mut self) {}
    fn count(&mut self, _: Pair) {}
    fn hand(&mut self, _: SideRef, _: Option<PieceId>) {}
    fn counter(&mut self, _: SideRef, _: usize) {}
    fn actions_this_turn(&mut self) {}
    fn drops_this_turn(&mut self) {}
    fn sum(&mut self, _: &Fld, _: Pair) {}
    fn plus(&mut self, _: (), _: ()) {}
    fn minus(&mut self, _: (), _: ()) {}

    fn truth(&mut self, holds: bool) -> Pair {
        let register = self.compiler.truth_constant(holds);
        Some((register, register))
    }
    fn leave_action(&mut self) -> Pair {
        None
    }
    fn at_turn_start(&mut self, _: usize) -> Pair {
        None
    }
    fn can_act(&mut self) -> Pair {
        None
    }
    fn can_act_without_promoting(&mut self) -> Pair {
        None
    }
    fn compare(&mut self, _: (), _: Comparison, _: ()) -> Pair {
        None
    }
    fn some(&mut self, squares: Pair) -> Pair {
        // A set that holds the drop's square (the occupied squares, say) has the board as its
        // upper bound: possibly, indeed certainly, not empty.
        self.each(squares, Compiler::any)
    }
    fn hands_empty(&mut self) -> Pair {
        None
    }
    fn placed(&mut self, _: SideRef, _: PieceId) -> Pair {
        None
    }
    fn passed(&mut self, _: SideRef) -> Pair {
        None
    }
    fn both(&mut self, a: Pair, b: Pair) -> Pair {
        self.intersection(a, b)
    }
    fn either(&mut self, a: Pair, b: Pair) -> Pair {
        self.union(a, b)
    }
    fn negation(&mut self, a: Pair) -> Pair {
        self.complement(a)
    }
    fn never(&self, truth: Pair) -> bool {
        self.nothing(truth)
    }
    fn always(&self, truth: Pair) -> bool {
        self.everything(truth)
    }
    fn everywhere(&mut self, truth: Pair) -> Pair {
        truth
    }
}

impl<B: Bitboard> Replay<B> {
    /// Compiles the folded `condition` of `side`'s rules on `position`'s scalar state; `None`
    /// past the registers a program has.
    pub(crate) fn compile(
        game: &Rules<B>,
        position: &Position<B>,
        side: SideId,
        condition: &Cond<B>,
    ) -> Option<Self> {
        let mut compiler = Compiler::new(game, position, side);
        compiler.asked = true;
        let output = compiler.mask(condition);
        if compiler.overflow {
            return None;
        }
        let settled = compiler.value(output);
        let (registers, constants) = compiler.constants();
        Some(Replay {
            numbers: compiler.numbers.len(),
            number_constants: compiler.number_constants(),
            ops: needed(compiler.ops, &[output]),
            registers,
            constants,
            output,
            settled,
        })
    }

    /// The condition's squares where the plan decides them, in every domain.
    #[inline(always)]
    pub(crate) fn settled(&self) -> Option<B> {
        self.settled
    }

    /// The condition's squares in `domain`.
    #[inline]
    pub(crate) fn run<D: Domain<B>>(&self, domain: &mut D) -> D::Squares {
        if self.registers <= 16 {
            self.run_with::<D, 16>(domain)
        } else if self.registers <= 64 {
            self.run_with::<D, 64>(domain)
        } else {
            self.run_with::<D, MAX_REGISTERS>(domain)
        }
    }

    #[inline(always)]
    fn run_with<D: Domain<B>, const N: usize>(&self, domain: &mut D) -> D::Squares {
        let nothing = domain.fixed(B::EMPTY);
        let mut registers = [nothing; N];
        registers[usize::from(EMPTY)] = domain.empty();
        registers[usize::from(OCCUPIED)] = domain.occupied();
        for &(register, value) in &self.constants {
            registers[usize::from(register)] = domain.fixed(value);
        }
        if self.numbers == 0 {
            replay(&self.ops, domain, &mut registers, &mut []);
        } else {
            let zero = domain.constant(0);
            let mut numbers = [zero; MAX_NUMBERS];
            for &(register, value) in &self.number_constants {
                numbers[usize::from(register)] = domain.constant(value);
            }
            replay(&self.ops, domain, &mut registers, &mut numbers);
        }
        registers[usize::from(self.output)]
    }
}

/// Runs `ops` on `domain`'s values: each operation is its term's method there.
#[inline(always)]
fn replay<B: Bitboard, D: Domain<B>>(
    ops: &[Op<B>],
    domain: &mut D,
    registers: &mut [D::Squares],
    numbers: &mut [D::Number],
) {
    let set = |registers: &[D::Squares], register: Reg| registers[usize::from(register)];
    for op in ops {
        let (to, value) = match *op {
            Op::Pieces(..) | Op::LastDrop(..) => {
                unreachable!("a replay asks the domain for its leaves")
            }
            Op::Around(to, a) => (to, domain.adjacent(set(registers, a))),
            Op::ColourOf(to, a) => (to, domain.colour_of(set(registers, a))),
            Op::FileOf(to, a) => (to, domain.file_of(set(registers, a))),
            Op::And(to, a, b) => (
                to,
                domain.intersection(set(registers, a), set(registers, b)),
            ),
            Op::Or(to, a, b) => (to, domain.union(set(registers, a), set(registers, b))),
            Op::Except(to, a, b) => (to, domain.difference(set(registers, a), set(registers, b))),
            Op::Not(to, a) => (to, domain.complement(set(registers, a))),
            Op::Any(to, a) => {
                let some = domain.some(set(registers, a));
                (to, domain.everywhere(some))
            }
            Op::Judged(to, ref leaf) => (to, domain::set(domain, leaf)),
            Op::AttackedAmong(to, sides, among) => {
                (to, domain.attacked_among(sides, set(registers, among)))
            }
            Op::Holds(to, ref leaf) => {
                let holds = domain::holds(domain, leaf);
                (to, domain.everywhere(holds))
            }
            Op::Compare(to, a, op, b) => {
                let (a, b) = (numbers[usize::from(a)], numbers[usize::from(b)]);
                let holds = domain.compare(a, op, b);
                (to, domain.everywhere(holds))
            }
            Op::Number(to, ref leaf) => {
                numbers[usize::from(to)] = domain::number(domain, leaf);
                continue;
            }
            Op::Count(to, a) => {
                numbers[usize::from(to)] = domain.count(set(registers, a));
                continue;
            }
            Op::Sum(to, ref field, a) => {
                numbers[usize::from(to)] = domain.sum(field, set(registers, a));
                continue;
            }
            Op::Plus(to, a, b) => {
                let (a, b) = (numbers[usize::from(a)], numbers[usize::from(b)]);
                numbers[usize::from(to)] = domain.plus(a, b);
                continue;
            }
            Op::Minus(to, a, b) => {
                let (a, b) = (numbers[usize::from(a)], numbers[usize::from(b)]);
                numbers[usize::from(to)] = domain.minus(a, b);
                continue;
            }
            Op::Obey(to, allowed, applies, allows) => {
                let outside = domain.complement(set(registers, applies));
                let rule = domain.union(outside, set(registers, allows));
                (to, domain.intersection(set(registers, allowed), rule))
            }
            Op::ObeyWhenAny(to, allowed, any, allows) => {
                let some = domain.some(set(registers, any));
                let applies = domain.everywhere(some);
                let outside = domain.complement(applies);
                let rule = domain.union(outside, set(registers, allows));
                (to, domain.intersection(set(registers, allowed), rule))
            }
        };
        registers[usize::from(to)] = value;
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
        side: SideId,
        condition: &Cond<B>,
    ) -> Option<(Self, Reg)> {
        let mut compiler = Compiler::new(game, position, side);
        let result = compiler.mask(condition);
        if compiler.overflow {
            return None;
        }
        let (registers, constants) = compiler.constants();
        let program = Program {
            numbers: compiler.numbers.len(),
            number_constants: compiler.number_constants(),
            registers,
            constants,
            ops: compiler.ops,
            by_type: Vec::new(),
            by_pair: Vec::new(),
            reply: Vec::new(),
        };
        Some((program, result))
    }

    /// A program compiling one term of the IR in the domain of registers ([`Compiler`]), for
    /// `side` on `position`'s scalar state: the term's register, or `None` past the registers
    /// a program has. For tests of the domain against the judge.
    pub(crate) fn for_term(
        game: &Rules<B>,
        position: &Position<B>,
        side: SideId,
        term: TestTerm<'_, B>,
    ) -> Option<(Self, TestValue)> {
        let mut compiler = Compiler::new(game, position, side);
        let value = match term {
            TestTerm::Set(set) => TestValue::Squares(domain::set(&mut compiler, set)),
            TestTerm::Number(number) => TestValue::Number(domain::number(&mut compiler, number)),
            TestTerm::Holds(condition) => {
                TestValue::Squares(domain::holds(&mut compiler, condition))
            }
            TestTerm::DropMask(condition, piece) => {
                TestValue::Squares(domain::drop_mask(&mut compiler, condition, piece))
            }
        };
        (!compiler.overflow).then(|| (Self::of(compiler), value))
    }

    /// A program compiling the bounds of one term of the IR over the mover's drop on any empty
    /// square, in the domain of pairs of registers ([`ReplyBounds`]), for the next side `next`
    /// on `position`'s scalar state: the registers of the (lower, upper) bounds, `None` where
    /// the domain leaves them to the proof.
    pub(crate) fn for_reply_bounds(
        game: &Rules<B>,
        position: &Position<B>,
        next: SideId,
        term: TestTerm<'_, B>,
    ) -> Option<(Self, (Reg, Reg))> {
        let mover = position.side_to_move(game);
        let mut compiler = Compiler::new(game, position, mover);
        let mut bounds = ReplyBounds {
            compiler: &mut compiler,
            next,
            mover,
        };
        let pair = match term {
            TestTerm::Set(set) => domain::set(&mut bounds, set),
            TestTerm::Number(_) => None,
            TestTerm::Holds(condition) => domain::holds(&mut bounds, condition),
            TestTerm::DropMask(condition, piece) => {
                domain::drop_mask(&mut bounds, condition, piece)
            }
        };
        (!compiler.overflow)
            .then_some(pair)
            .flatten()
            .map(|pair| (Self::of(compiler), pair))
    }

    /// The program of every operation a compiler made, with no outputs.
    fn of(compiler: Compiler<'_, B>) -> Self {
        let (registers, constants) = compiler.constants();
        Program {
            numbers: compiler.numbers.len(),
            number_constants: compiler.number_constants(),
            registers,
            constants,
            ops: compiler.ops,
            by_type: Vec::new(),
            by_pair: Vec::new(),
            reply: Vec::new(),
        }
    }

    /// The value of the number register `register` once the program has run.
    pub(crate) fn number_of(&self, judge: &mut Judge<'_, B>, register: NumReg) -> i64 {
        let mut registers = vec![B::EMPTY; MAX_REGISTERS];
        let mut numbers = [0i64; MAX_NUMBERS];
        for &(register, value) in &self.number_constants {
            numbers[usize::from(register)] = value;
        }
        self.execute_with(judge, &mut registers, &mut numbers);
        numbers[usize::from(register)]
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

/// A term of the IR as the tests compile it ([`Program::for_term`]).
#[cfg(test)]
pub(crate) enum TestTerm<'t, B> {
    /// A set of squares.
    Set(&'t Set<B>),
    /// A number.
    Number(&'t Num<B>),
    /// A condition, judged where no piece drops (its truth register: the board or nothing).
    Holds(&'t Cond<B>),
    /// A condition's squares for a drop of a piece type.
    DropMask(&'t Cond<B>, PieceId),
}

/// The register of a term compiled for tests.
#[cfg(test)]
#[derive(Debug)]
pub(crate) enum TestValue {
    /// A set's or truth's register.
    Squares(Reg),
    /// A number's register.
    Number(NumReg),
}
