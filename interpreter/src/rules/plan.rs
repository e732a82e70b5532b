//! Drop rules specialised to a position's scalar state.
//!
//! Most parts of a drop rule read no square: `placement = 7`, `hand Queen > 0`, `opponent
//! placed Queen`, a side's zone. Their values depend only on a few numbers of the position (the
//! side judged and the side to move, the turn and phase, some hand counts, the types of the last
//! drops, the turn's progress): its *scalar state*. A game visits few scalar states across
//! millions of positions, yet judging those parts again at every position was most of the cost
//! of a placement game's move generation.
//!
//! A [`Plan`] is the drop rules for one scalar state with every such part evaluated once: rules
//! that cannot apply are gone, conditions that always apply are `true`, and what remains reads
//! only the board. That remainder is compiled into a straight-line program over bitboard
//! registers ([`crate::program`]), which gives every piece type's drop squares in one pass. For
//! the lookahead's proof ([`crate::expression::reply_certain`]) the plan also holds the next
//! side's rules folded over bounds (a part is folded only where its lower and upper bounds
//! agree), compiled by the same pass into programs that the proof replays on the interval and
//! symbolic domains ([`crate::program::Replay`]).
//!
//! Plans are made on first use and kept by the compiled game that they fold ([`PlanCache`], a
//! field of [`Rules`]): the rules are shared between threads, so the cache is a table whose
//! slots are filled once and then only read, without a lock (one taken at every position would
//! cost more than a plan saves). A game keeps a bounded number of plans; past that bound,
//! positions are judged from the full rules, with the same answers.

use crate::after_drop::{After, Certain, Lower, Symbolic};
use crate::bitboard::Bitboard;
use crate::core::index::{pieces, ByPiece, PieceId, SideId};
use crate::domain::{every_term, Settles, Term};
use crate::expression::{known_square, reply_side, Bounds, Cond, DropRule, Judge, Num, Set};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::program::{FoldedRule, ReplyRules};
pub use crate::rules::plan_cache::{KeySpec, PlanCache};
pub use crate::rules::plan_data::Plan;
use crate::rules::plan_data::{Program, Reg, Replay, Reply, ReplySlot};
use crate::rules::Rules;

/// The most rule slots a plan holds (rules times the piece types they name); a game with more
/// is judged unfolded.
const MAX_SLOTS: usize = 32;

impl<B: Bitboard> ReplySlot<B> {
    /// Where the rule possibly applies, whatever the mover drops (on one of `after`'s squares).
    #[inline(always)]
    fn possibly_applies(&self, next: SideId, (rules, position, after): At<'_, B>) -> B {
        match self.condition.settled() {
            Some(squares) => squares,
            None => {
                let mut bounds = Bounds::after(rules, position, next, after.drops);
                self.condition.run(&mut bounds).1
            }
        }
    }

    /// Where it certainly allows the next side's drop.
    #[inline(always)]
    fn certainly_allows(&self, next: SideId, (rules, position, after): At<'_, B>) -> B {
        match self.requirement.settled() {
            Some(squares) => squares,
            None => {
                let mut bounds = Bounds::after(rules, position, next, after.drops);
                self.requirement.run(&mut bounds).0
            }
        }
    }

    /// The same, kept symbolic where it moves with the drop ([`Lower`]).
    #[inline(always)]
    fn certainly_allows_around(
        &self,
        next: SideId,
        (rules, position, after): At<'_, B>,
    ) -> Lower<B> {
        match self.requirement.settled() {
            Some(squares) => Lower::plain(squares),
            None => {
                let mut symbolic = Symbolic::new(rules, position, next, after);
                self.requirement.run(&mut symbolic).0
            }
        }
    }
}

impl<B: Bitboard> Plan<B> {
    /// Per piece type of `pieces` (a bit per type), the squares where the judged side may drop
    /// it under every rule but the lookahead, and those where a lookahead rule binds (empty
    /// unless `lookahead_wanted`): what [`crate::expression::drop_squares`] gives, from the
    /// folded rules. Written to `allowed_of[piece]` and `lookahead_of[piece]`.
    #[inline]
    pub fn drop_squares(
        &self,
        judge: &mut Judge<'_, B>,
        pieces: u32,
        lookahead_wanted: bool,
        allowed_of: &mut ByPiece<B>,
        lookahead_of: &mut ByPiece<B>,
    ) {
        self.program
            .run(judge, pieces, lookahead_wanted, allowed_of, lookahead_of);
    }

    /// The number of drops the judged side may make with the types of `pieces` (a bit per
    /// type), where no lookahead rule binds one of them or the next side is proved to have a
    /// reply whatever the drop (tried where `prove` and a lookahead rule applies): what
    /// generating the drops into a counting sink gives, without writing each type's squares.
    /// `None` where the lookahead is left to be tested drop by drop.
    #[inline(always)]
    pub fn count_drops(&self, judge: &mut Judge<'_, B>, pieces: u32, prove: bool) -> Option<u64> {
        let (rules, position) = (judge.rules(), judge.position());
        self.program.count(judge, pieces, |registers| {
            let empty = rules.geometry().board & !position.occupied();
            prove
                && (self.proved_from_registers(position, empty, registers) == Some(true)
                    || self.reply_certain_given(rules, position, empty, Some(registers)))
        })
    }

    /// The plain proof of [`Plan::reply_certain`] for drops on any of the `empty` squares, read
    /// from the registers of the plan's program run on `position` alone: `None` where it gets
    /// to a type with a rule the program does not bound. (The proof of `prove`, without its
    /// memo of what it computed: every bound here is computed already.)
    #[inline]
    fn proved_from_registers(
        &self,
        position: &Position<B>,
        empty: B,
        registers: &[B],
    ) -> Option<bool> {
        let next = self.reply.as_ref()?.next;
        let mut open = B::EMPTY;
        for (piece, rules) in &self.register_proof {
            if position.hand(next, *piece) == 0 {
                continue;
            }
            let mut allowed = empty;
            for &(possibly, certainly) in rules.as_deref()? {
                let applies = registers[usize::from(possibly)];
                if (applies & allowed).is_empty() {
                    continue;
                }
                allowed &= !applies | registers[usize::from(certainly)];
                if allowed.is_empty() {
                    break;
                }
            }
            open |= allowed;
            if crate::expression::open_after(open, empty) {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether an end condition that reads neither the actions nor a square has ended the
    /// game, where every end condition that reads no action is of that kind: the scalar state
    /// settles it. `None` where the conditions are to be judged.
    #[inline]
    pub fn ends(&self) -> Option<bool> {
        self.ends
    }

    /// Whether, whatever drop the side to move makes on one of the squares `drops`, the next
    /// side will have a legal drop: [`crate::expression::reply_certain_after`] from the folded
    /// rules, and where that fails over several squares, the same proof with what moves with
    /// the drop kept symbolic ([`Lower`]; the squares around the drop, which no square of a
    /// large set has in common with every other).
    pub fn reply_certain(&self, rules: &Rules<B>, position: &Position<B>, drops: B) -> bool {
        self.reply_certain_given(rules, position, drops, None)
    }

    /// [`Plan::reply_certain`]; where `registers` are given, `drops` are the empty squares and
    /// the registers those of the plan's program run on `position`: the next side's bounds
    /// compiled there are read rather than computed.
    fn reply_certain_given(
        &self,
        rules: &Rules<B>,
        position: &Position<B>,
        drops: B,
        registers: Option<&[B]>,
    ) -> bool {
        let Some(reply) = &self.reply else {
            return false;
        };
        let compiled = |register: Option<Reg>| Some(registers?[usize::from(register?)]);
        // Room for the slots' values on the stack, no more than needed: cleared at every call.
        let tiny = reply.slots.len() <= 4;
        let small = reply.slots.len() <= 8;
        let next = reply.next;
        let possibly = |index: usize, slot: &ReplySlot<B>, at: At<'_, B>| {
            compiled(self.program.reply_registers(index).0)
                .unwrap_or_else(|| slot.possibly_applies(next, at))
        };
        let plain = |index: usize, slot: &ReplySlot<B>, at: At<'_, B>| {
            compiled(self.program.reply_registers(index).1)
                .unwrap_or_else(|| slot.certainly_allows(next, at))
        };
        let symbolic =
            |_: usize, slot: &ReplySlot<B>, at: At<'_, B>| slot.certainly_allows_around(next, at);
        let proved = if tiny {
            prove::<B, B, 4>(reply, rules, position, drops, possibly, plain)
        } else if small {
            prove::<B, B, 8>(reply, rules, position, drops, possibly, plain)
        } else {
            prove::<B, B, MAX_SLOTS>(reply, rules, position, drops, possibly, plain)
        };
        proved
            || drops.without_lowest().any()
                && if tiny {
                    prove::<B, Lower<B>, 4>(reply, rules, position, drops, possibly, symbolic)
                } else if small {
                    prove::<B, Lower<B>, 8>(reply, rules, position, drops, possibly, symbolic)
                } else {
                    prove::<B, Lower<B>, MAX_SLOTS>(
                        reply, rules, position, drops, possibly, symbolic,
                    )
                }
    }
}

/// Where the proof's bounds are taken: the rules, the position, and the mover's drop.
type At<'a, B> = (&'a Rules<B>, &'a Position<B>, After<B>);

/// [`Plan::reply_certain`] for at most `N` slots, with each slot's upper bound of where it
/// applies given by `possibly` and its lower bound of what it allows by `allows`, as plain sets
/// or symbolic ones ([`Certain`]).
#[inline]
fn prove<B: Bitboard, C: Certain<B>, const N: usize>(
    reply: &Reply<B>,
    rules: &Rules<B>,
    position: &Position<B>,
    drops: B,
    possibly_of: impl Fn(usize, &ReplySlot<B>, At<'_, B>) -> B,
    allows: impl Fn(usize, &ReplySlot<B>, At<'_, B>) -> C,
) -> bool {
    let after = After {
        drops,
        known: known_square(drops),
    };
    let at = (rules, position, after);
    let empty = C::empty_after(rules.geometry().board & !position.occupied(), rules, after);
    let mut possibly = [B::EMPTY; N];
    let mut certainly = [C::nothing(); N];
    let (mut known_possibly, mut known_certainly) = (0u32, 0u32);
    let mut open = C::nothing();
    for &piece in &reply.tried {
        if position.hand(reply.next, piece) == 0 {
            continue;
        }
        let mut allowed = empty;
        for &index in &reply.by_piece[piece] {
            let index = usize::from(index);
            let slot = &reply.slots[index];
            let bit = 1u32 << index;
            if known_possibly & bit == 0 {
                possibly[index] = possibly_of(index, slot, at);
                known_possibly |= bit;
            }
            let applies = possibly[index];
            if (applies & allowed.reach(after)).is_empty() {
                continue;
            }
            if known_certainly & bit == 0 {
                certainly[index] = allows(index, slot, at);
                known_certainly |= bit;
            }
            allowed = allowed.obeying(applies, certainly[index]);
            if allowed.is_nothing() {
                break;
            }
        }
        open = open.either(allowed);
        if open.certainly_some(rules, after) {
            return true;
        }
    }
    false
}

/// Whether the positions that the moves `a` and `b` make from one position have the same
/// plan key, known without writing the keys: drops of one piece type change the scalar state
/// a key reads (hands and their totals, the type of a side's last drop, whose turn it is, the
/// phase) alike wherever they land, in games of one action a turn whose key does not read the
/// turn's progress (computed from the board when a turn starts). A drop that converts a piece
/// changes the board alone, but is left out: the claim stays as narrow as its proof.
pub fn same_key_after<B: Bitboard>(rules: &Rules<B>, a: Move, b: Move) -> bool {
    let same_drop = match (a.kind, b.kind) {
        (MoveKind::Drop(first), MoveKind::Drop(second)) => first == second,
        _ => false,
    };
    same_drop
        && a.converts.is_none()
        && b.converts.is_none()
        && !rules.plan_key.progress
        && !rules.multi_action()
}

/// The plan of `position`'s scalar state for `side`'s drops, made on first use and kept by
/// the rules ([`PlanCache`]); `None` when the game has no drop rules, too many for a plan, or
/// the game keeps no more plans.
#[inline]
pub fn plan<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
    side: SideId,
) -> Option<&'r Plan<B>> {
    let spec = &rules.plan_key;
    if !spec.active {
        return None;
    }
    let key = spec.key(rules, position, side)?;
    rules.plans.get_or_make(key, || make(rules, position, side))
}

/// The plan of `position`'s scalar state for `side`: every scalar part of the rules
/// evaluated, the rest compiled; `None` if the rules need more than [`MAX_SLOTS`] slots or a
/// program more than [`crate::program::MAX_REGISTERS`] registers.
fn make<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, side: SideId) -> Option<Plan<B>> {
    let in_force = rules.expressions.drop_rules(position.phase());
    let mut judge = Judge::new(rules, position, side);
    let (folded, by_piece) = slots(
        rules,
        in_force
            .iter()
            .filter(|rule| rule.side.is_none_or(|s| s == side)),
        &mut |rule, piece| fold_rule(rule, piece, &mut judge, true),
    )?;
    let written: Vec<FoldedRule<'_, B>> = folded
        .iter()
        .map(|rule| FoldedRule {
            condition: &rule.condition,
            requirement: (!rule.lookahead).then_some(&rule.requirement),
        })
        .collect();
    // Types with the same slots share a group, numbered in order of first appearance.
    let group = pieces(rules.pieces())
        .map(|piece| {
            pieces(piece.index())
                .find(|&other| by_piece[other] == by_piece[piece])
                .unwrap_or(piece)
        })
        .collect::<Vec<PieceId>>();
    // The next side's rules folded over bounds, for the lookahead's proof.
    let next_slots = match reply_side(rules, position) {
        None => None,
        Some(next) => {
            let mut bounds = Bounds::new(rules, position, next);
            let next_rules = rules
                .expressions
                .drops
                .iter()
                .filter(|rule| !rule.lookahead && rule.side.is_none_or(|s| s == next));
            let (slots, by_piece) = slots(rules, next_rules, &mut |rule, piece| {
                fold_rule(rule, piece, &mut bounds, false)
            })?;
            Some((next, slots, by_piece))
        }
    };
    let mover = position.side_to_move(rules);
    let reply_rules = next_slots.as_ref().map(|(next, slots, _)| ReplyRules {
        next: *next,
        mover,
        rules: slots
            .iter()
            .map(|rule| (&rule.condition, &rule.requirement))
            .collect(),
    });
    let program = Program::compile(
        rules,
        position,
        side,
        &written,
        &by_piece,
        &group,
        reply_rules.as_ref(),
    )?;
    let reply = match next_slots {
        None => None,
        Some((next, slots, by_piece)) => {
            let compiled = |condition: &Cond<B>| Replay::compile(rules, position, next, condition);
            let slots = slots
                .iter()
                .map(|rule| {
                    Some(ReplySlot {
                        condition: compiled(&rule.condition)?,
                        requirement: compiled(&rule.requirement)?,
                    })
                })
                .collect::<Option<Vec<ReplySlot<B>>>>()?;
            let board = rules.geometry().board;
            let forbids_everywhere = |slot: &ReplySlot<B>| {
                slot.condition.settled() == Some(board)
                    && slot
                        .requirement
                        .settled()
                        .is_some_and(|none| none.is_empty())
            };
            let tried = pieces(rules.pieces())
                .filter(|&piece| {
                    !by_piece[piece]
                        .iter()
                        .any(|&index| forbids_everywhere(&slots[usize::from(index)]))
                })
                .collect();
            Some(Reply {
                next,
                slots,
                by_piece,
                tried,
            })
        }
    };
    let ends = scalar_ends(rules, position);
    let register_proof = reply.as_ref().map_or(Vec::new(), |reply| {
        reply
            .tried
            .iter()
            .map(|&piece| {
                let registers = reply.by_piece[piece]
                    .iter()
                    .map(|&index| match program.reply_registers(usize::from(index)) {
                        (Some(possibly), Some(certainly)) => Some((possibly, certainly)),
                        _ => None,
                    })
                    .collect();
                (piece, registers)
            })
            .collect()
    });
    let plan = Plan {
        program,
        reply,
        register_proof,
        ends,
    };
    Some(plan)
}

/// Whether an end condition that reads no action holds on `position`, where every such
/// condition reads no square (then the scalar state, and so the plan's key, settles it).
fn scalar_ends<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<bool> {
    let before_actions = |end: &crate::expression::EndCheck<B>| !end.needs_actions;
    rules
        .expressions
        .end
        .iter()
        .filter(|end| before_actions(end))
        .all(|end| scalar_condition(&end.condition))
        .then(|| {
            crate::outcome::fired_end_condition(rules, position, None, before_actions).is_some()
        })
}

/// Folds each rule once for the piece types it does not name and once per type it names, and
/// lists per piece type the folded rules that can bind it; `None` past [`MAX_SLOTS`].
#[allow(clippy::type_complexity)]
fn slots<'r, B: Bitboard + 'r>(
    rules: &Rules<B>,
    in_force: impl Iterator<Item = &'r DropRule<B>>,
    fold: &mut dyn FnMut(&DropRule<B>, Option<PieceId>) -> Option<DropRule<B>>,
) -> Option<(Vec<DropRule<B>>, ByPiece<Vec<u8>>)> {
    let mut slots = Vec::new();
    let mut by_piece: ByPiece<Vec<u8>> = ByPiece::default();
    for rule in in_force {
        let mut other = None;
        for (piece, list) in pieces(rules.pieces()).zip(by_piece.iter_mut()) {
            let index = if rule.named.contains(&piece) {
                fold(rule, Some(piece)).map(|folded| {
                    slots.push(folded);
                    slots.len() - 1
                })
            } else {
                *other.get_or_insert_with(|| {
                    fold(rule, None).map(|folded| {
                        slots.push(folded);
                        slots.len() - 1
                    })
                })
            };
            if let Some(index) = index {
                if index >= MAX_SLOTS {
                    return None;
                }
                list.push(index as u8);
            }
        }
    }
    Some((slots, by_piece))
}

/// A rule with its scalar parts evaluated and the dropped piece's type known (`None`: a type
/// the rule does not name); `None` when it can never bind.
fn fold_rule<B: Bitboard>(
    rule: &DropRule<B>,
    piece: Option<PieceId>,
    folder: &mut impl Settles<B>,
    keep_lookahead: bool,
) -> Option<DropRule<B>> {
    if rule.lookahead && !keep_lookahead {
        return None;
    }
    let condition = fold_condition(&rule.condition, piece, folder);
    if matches!(condition, Cond::False) {
        return None;
    }
    if rule.lookahead {
        return Some(DropRule::new(rule.side, Cond::LeaveAction, condition, true));
    }
    let requirement = fold_condition(&rule.requirement, piece, folder);
    if matches!(requirement, Cond::True) {
        return None;
    }
    Some(DropRule::new(rule.side, requirement, condition, false))
}

/// The value of a condition where domain `D` settles it.
fn settled_truth<B: Bitboard, D: Settles<B>>(domain: &mut D, condition: &Cond<B>) -> Option<bool> {
    let truth = crate::domain::holds(domain, condition);
    D::settled_truth(truth)
}

/// The value of a number where domain `D` settles it.
fn settled_number<B: Bitboard, D: Settles<B>>(domain: &mut D, number: &Num<B>) -> Option<i64> {
    let value = crate::domain::number(domain, number);
    D::settled_number(value)
}

/// The value of a set where domain `D` settles it.
fn settled_squares<B: Bitboard, D: Settles<B>>(domain: &mut D, set: &Set<B>) -> Option<B> {
    let squares = crate::domain::set(domain, set);
    D::settled_squares(squares)
}

/// A drop rule's condition folded: scalar parts evaluated, the dropped piece's type known
/// (`Some(type)`, or `None` for a type no `place` names), moves never in question.
fn fold_condition<B: Bitboard>(
    condition: &Cond<B>,
    piece: Option<PieceId>,
    folder: &mut impl Settles<B>,
) -> Cond<B> {
    if scalar_condition(condition) {
        match settled_truth(folder, condition) {
            Some(true) => return Cond::True,
            Some(false) => return Cond::False,
            None => {}
        }
    }
    let truth = |holds: bool| if holds { Cond::True } else { Cond::False };
    match condition {
        Cond::Place(named) => truth(piece == Some(*named)),
        // A drop is not a move: as `Judge::drop_mask` reads them, these never hold.
        Cond::Move(_) | Cond::MoveFrom(_) => Cond::False,
        Cond::And(a, b) => match (
            fold_condition(a, piece, folder),
            fold_condition(b, piece, folder),
        ) {
            (Cond::False, _) | (_, Cond::False) => Cond::False,
            (Cond::True, other) | (other, Cond::True) => other,
            (a, b) => Cond::And(Box::new(a), Box::new(b)),
        },
        Cond::Or(a, b) => match (
            fold_condition(a, piece, folder),
            fold_condition(b, piece, folder),
        ) {
            (Cond::True, _) | (_, Cond::True) => Cond::True,
            (Cond::False, other) | (other, Cond::False) => other,
            (a, b) => Cond::Or(Box::new(a), Box::new(b)),
        },
        Cond::Not(a) => match fold_condition(a, piece, folder) {
            Cond::True => Cond::False,
            Cond::False => Cond::True,
            other => Cond::Not(Box::new(other)),
        },
        Cond::PlaceOn(set) => Cond::PlaceOn(fold_set(set, folder)),
        Cond::Some(set) => Cond::Some(fold_set(set, folder)),
        Cond::Compare(a, op, b) => {
            Cond::Compare(fold_number(a, folder), *op, fold_number(b, folder))
        }
        other => other.clone(),
    }
}

fn fold_number<B: Bitboard>(number: &Num<B>, folder: &mut impl Settles<B>) -> Num<B> {
    if scalar_number(number) {
        if let Some(value) = settled_number(folder, number) {
            return Num::Constant(value);
        }
    }
    let boxed = |n: Num<B>| Box::new(n);
    match number {
        Num::Count(set) => Num::Count(Box::new(fold_set(set, folder))),
        Num::Sum(field, set) => Num::Sum(field.clone(), Box::new(fold_set(set, folder))),
        Num::Plus(a, b) => Num::Plus(boxed(fold_number(a, folder)), boxed(fold_number(b, folder))),
        Num::Minus(a, b) => {
            Num::Minus(boxed(fold_number(a, folder)), boxed(fold_number(b, folder)))
        }
        other => other.clone(),
    }
}

fn fold_set<B: Bitboard>(set: &Set<B>, folder: &mut impl Settles<B>) -> Set<B> {
    if scalar_set(set) {
        if let Some(squares) = settled_squares(folder, set) {
            return Set::Fixed(squares);
        }
    }
    let boxed = |s: Set<B>| Box::new(s);
    match set {
        Set::Adjacent(a) => Set::Adjacent(boxed(fold_set(a, folder))),
        Set::ColourOf(a) => Set::ColourOf(boxed(fold_set(a, folder))),
        Set::FileOf(a) => Set::FileOf(boxed(fold_set(a, folder))),
        Set::Not(a) => Set::Not(boxed(fold_set(a, folder))),
        Set::And(a, b) => Set::And(boxed(fold_set(a, folder)), boxed(fold_set(b, folder))),
        Set::Or(a, b) => Set::Or(boxed(fold_set(a, folder)), boxed(fold_set(b, folder))),
        Set::Except(a, b) => Set::Except(boxed(fold_set(a, folder)), boxed(fold_set(b, folder))),
        other => other.clone(),
    }
}

/// Whether a condition reads nothing but the scalar state ([`KeySpec`]): not the board, not
/// the dropped or moving piece, not the legal actions.
fn scalar_condition<B>(condition: &Cond<B>) -> bool {
    every_term(Term::Condition(condition), &mut scalar_term)
}

fn scalar_number<B>(number: &Num<B>) -> bool {
    every_term(Term::Number(number), &mut scalar_term)
}

fn scalar_set<B>(set: &Set<B>) -> bool {
    every_term(Term::Set(set), &mut scalar_term)
}

/// Whether a term itself reads nothing but the scalar state (its operands aside).
fn scalar_term<B>(term: Term<'_, B>) -> bool {
    !matches!(
        term,
        Term::Condition(
            Cond::Place(_)
                | Cond::PlaceOn(_)
                | Cond::LeaveAction
                | Cond::Move(_)
                | Cond::MoveFrom(_)
                | Cond::CanAct
                | Cond::CanActWithoutPromoting
        ) | Term::Number(Num::Sum(..) | Num::Counter(..))
            | Term::Set(
                Set::Empty
                    | Set::Occupied
                    | Set::Pieces(..)
                    | Set::ControlledBy(_)
                    | Set::AttackedBy(_)
                    | Set::Reach(..)
                    | Set::LastDrop(_)
                    | Set::LegalDrops
                    | Set::Acted
                    | Set::Compare(..)
            )
    )
}

#[cfg(test)]
mod tests {
    //! The folded, compiled rules against the tree evaluators they replace ([`Judge`] and
    //! [`Bounds`] on the unfolded rules), rule by rule and piece type by piece type, in both
    //! bound directions, along random games of the game files with drop rules and of the test
    //! variant written to use every expression term.
    use super::*;
    use crate::legal::legal_moves;
    use crate::outcome::outcome;

    /// Every game file and test variant with drop rules whose board fits 64 bits.
    fn games_with_drop_rules() -> Vec<(std::path::PathBuf, Rules<u64>, Position<u64>)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
        let mut games = Vec::new();
        for dir in ["games", "tests/variants"] {
            let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
                .expect("readable")
                .map(|entry| entry.expect("entry").path())
                .filter(|path| path.extension().is_some_and(|e| e == "variant"))
                .collect();
            paths.sort();
            for path in paths {
                let loaded = variant_dsl::load_file_with(&path, &options)
                    .unwrap_or_else(|failure| panic!("{}", failure.render()));
                let Ok(rules) = Rules::<u64>::compile(&loaded.definition) else {
                    continue;
                };
                if rules.plan_key.active {
                    let position =
                        Position::from_setup(&rules, &loaded.definition.setup).expect("opens");
                    games.push((path, rules, position));
                }
            }
        }
        games
    }

    /// Calls `visit` with every position of `games` seeded random games from `start` (at most
    /// `plies` plies each) while the game goes on, and with its legal moves.
    fn along_random_games(
        rules: &Rules<u64>,
        start: &Position<u64>,
        (mut seed, games, plies): (u64, usize, usize),
        mut visit: impl FnMut(&Position<u64>, &[Move]),
    ) {
        for _ in 0..games {
            let mut position = *start;
            let mut history = Vec::new();
            for _ in 0..plies {
                if outcome(rules, &position, &history).is_some() {
                    break;
                }
                let moves = legal_moves(rules, &position);
                visit(&position, &moves);
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                history.push(position.hash());
                position.play_unchecked(rules, moves[(seed >> 33) as usize % moves.len()]);
            }
        }
    }

    /// The type a slot is folded for: the piece's own where the rule names it.
    fn folded_for<B>(rule: &DropRule<B>, piece: PieceId) -> Option<PieceId> {
        rule.named.contains(&piece).then_some(piece)
    }

    fn check_position(rules: &Rules<u64>, position: &Position<u64>) -> usize {
        let board = rules.geometry().board;
        let side = position.side_to_move(rules);
        let mut checked = 0;
        let mut judge = Judge::new(rules, position, side);
        let compiled = |condition: &Cond<u64>, judge: &mut Judge<'_, u64>| {
            let (program, register) = Program::for_mask(rules, position, side, condition)
                .expect("a condition fits in a program");
            program.value_of(judge, register)
        };
        for rule in rules.expressions.drop_rules(position.phase()) {
            if rule.side.is_some_and(|s| s != side) {
                continue;
            }
            for piece in pieces(rules.pieces()) {
                let folded = {
                    let piece = folded_for(rule, piece);
                    let mut folder = Judge::new(rules, position, side);
                    (
                        fold_condition(&rule.condition, piece, &mut folder),
                        fold_condition(&rule.requirement, piece, &mut folder),
                    )
                };
                let applies = compiled(&folded.0, &mut judge);
                assert_eq!(applies, judge.drop_mask(&rule.condition, piece));
                if !rule.lookahead {
                    let allows = compiled(&folded.1, &mut judge);
                    assert_eq!(allows, judge.drop_mask(&rule.requirement, piece));
                }
                checked += 1;
            }
        }
        let Some(next) = reply_side(rules, position) else {
            return checked;
        };
        // Over every drop, and over the drops on one square (the lowest and highest empty).
        let empty = board & !position.occupied();
        let mut ranges = vec![empty];
        if empty.any() {
            ranges.push(u64::single(empty.lowest()));
            ranges.push(u64::single(empty.highest()));
        }
        for drops in ranges {
            let mut bounds = Bounds::after(rules, position, next, drops);
            let after = After {
                drops,
                known: known_square(drops),
            };
            for rule in &rules.expressions.drops {
                if rule.lookahead || rule.side.is_some_and(|s| s != next) {
                    continue;
                }
                for piece in pieces(rules.pieces()) {
                    for cond in [&rule.condition, &rule.requirement] {
                        // Folded over every drop, as plans are: a tighter range cannot unfold it.
                        let mut folder = Bounds::new(rules, position, next);
                        let folded = fold_condition(cond, folded_for(rule, piece), &mut folder);
                        let (low, high) = bounds.drop_mask(cond, piece);
                        let replay =
                            Replay::compile(rules, position, next, &folded).expect("compiles");
                        let mut interval = Bounds::after(rules, position, next, drops);
                        let (lower, upper) = replay.run(&mut interval);
                        assert_eq!((lower & board, upper & board), (low & board, high & board));
                        checked += 1;
                    }
                    // The symbolic lower bound of the requirement: the plain one on a known
                    // square, at least the plain one over many, and at every drop no more than
                    // the squares the requirement allows once the drop is played.
                    let mut folder = Bounds::new(rules, position, next);
                    let folded =
                        fold_condition(&rule.requirement, folded_for(rule, piece), &mut folder);
                    let (low, _) = bounds.drop_mask(&rule.requirement, piece);
                    let replay = Replay::compile(rules, position, next, &folded).expect("compiles");
                    let symbolic = replay
                        .run(&mut Symbolic::new(rules, position, next, after))
                        .0;
                    let certain = symbolic.fold(rules, after) & board;
                    if after.known.any() {
                        assert_eq!(certain, low & board);
                    } else {
                        assert_eq!(low & board & !certain, 0);
                    }
                    for to in [drops.lowest(), drops.highest()]
                        .into_iter()
                        .filter(|_| drops.any())
                    {
                        let square = After {
                            drops: u64::single(to),
                            known: u64::single(to),
                        };
                        let at_square = symbolic.fold(rules, square) & board;
                        for dropped in
                            pieces(rules.pieces()).filter(|&p| position.hand(side, p) > 0)
                        {
                            let mut played = *position;
                            played.play_unchecked(rules, crate::moves::Move::drop(dropped, to));
                            let truth = Judge::new(rules, &played, next)
                                .drop_mask(&rule.requirement, piece);
                            assert_eq!(at_square & !truth, 0, "drop {dropped:?} on {to}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        checked
    }

    /// The rules, and so their plans, may be shared between threads.
    #[test]
    fn rules_with_their_plans_are_send_and_sync() {
        fn shared<T: Send + Sync>() {}
        shared::<Rules<u64>>();
        shared::<Rules<u128>>();
        shared::<Rules<crate::bitboard::Wide256>>();
    }

    /// A plan is made once per scalar state and kept by the rules that made it: looked up
    /// again, from this thread or another, it is the same plan; a copy of the rules starts with
    /// none of them, and makes its own.
    #[test]
    fn the_rules_keep_their_plans() {
        let (path, rules, start) = games_with_drop_rules()
            .into_iter()
            .next()
            .expect("a game with drop rules");
        let at = path.display();
        let side = start.side_to_move(&rules);
        assert_eq!(rules.plans.len(), 0, "{at}");
        let first = super::plan(&rules, &start, side).expect("a plan") as *const Plan<u64>;
        let again = super::plan(&rules, &start, side).expect("a plan") as *const Plan<u64>;
        assert_eq!(first, again, "{at}");
        assert_eq!(rules.plans.len(), 1, "{at}");
        let from_threads: Vec<usize> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(|| {
                        let plan = super::plan(&rules, &start, side).expect("a plan");
                        plan as *const Plan<u64> as usize
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|thread| thread.join().expect("joins"))
                .collect()
        });
        assert_eq!(from_threads, [first as usize; 2], "{at}");
        let copy = rules.clone();
        assert_eq!(copy.plans.len(), 0, "{at}");
        let own = super::plan(&copy, &start, side).expect("a plan") as *const Plan<u64>;
        assert_ne!(own, first, "{at}");
        // Along random games, each new scalar state adds one plan (or the note that its rules
        // need more than a plan holds), and no other.
        let mut keys = Vec::new();
        along_random_games(&rules, &start, (3, 2, 40), |position, _| {
            let side = position.side_to_move(&rules);
            if let Some(key) = rules.plan_key.key(&rules, position, side) {
                if !keys.contains(&key) {
                    keys.push(key);
                }
                super::plan(&rules, position, side);
            }
        });
        assert_eq!(rules.plans.len(), keys.len(), "{at}");
    }

    #[test]
    fn compiled_plans_agree_with_the_tree_evaluators() {
        let games = games_with_drop_rules();
        assert!(games.len() >= 6, "{} games with drop rules", games.len());
        for (path, rules, start) in games {
            let mut checked = 0;
            along_random_games(&rules, &start, (2026, 6, 80), |position, _| {
                checked += check_position(&rules, position);
            });
            assert!(checked > 100, "{}: {checked} checks", path.display());
        }
    }

    /// What [`same_key_after`] claims, tested: along random games of every game file and test
    /// variant with drop rules, the children of two legal moves it pairs have equal keys (for
    /// the side to move there, as perft's last ply looks them up).
    #[test]
    fn drops_of_one_type_make_one_key() {
        let mut paired = 0;
        for (path, rules, start) in games_with_drop_rules() {
            let child_key = |position: &Position<u64>, mv: Move| {
                let mut child = *position;
                child.play_unchecked(&rules, mv);
                let side = child.side_to_move(&rules);
                rules.plan_key.key(&rules, &child, side)
            };
            along_random_games(&rules, &start, (7, 4, 60), |position, moves| {
                for pair in moves.windows(2) {
                    if same_key_after(&rules, pair[0], pair[1]) {
                        let keys = (child_key(position, pair[0]), child_key(position, pair[1]));
                        assert!(keys.0 == keys.1, "{}: {pair:?}", path.display());
                        paired += 1;
                    }
                }
            });
        }
        assert!(paired > 1000, "{paired} pairs");
    }

    /// The lookahead's proof read from the program's registers (the next side's bounds that
    /// the mover's rules compute already): along random games of every game with drop rules,
    /// where it holds, the proof from the replayed programs' tighter bounds holds too, and every drop
    /// the mover's rules allow (the lookahead aside) leaves the next side a legal action, as
    /// generation finds it, drop by drop.
    #[test]
    fn the_proof_from_registers_is_sound() {
        let (mut proved, mut unproved) = (0, 0);
        for (path, rules, start) in games_with_drop_rules() {
            along_random_games(&rules, &start, (11, 12, 60), |position, _| {
                match check_register_proof(&rules, position, &path) {
                    Some(true) => proved += 1,
                    Some(false) => unproved += 1,
                    None => {}
                }
            });
        }
        assert!(proved > 100, "{proved} proved, {unproved} not");
    }

    /// The register proof on `position` (see [`the_proof_from_registers_is_sound`]), checked
    /// where it holds; what it gave.
    fn check_register_proof(
        rules: &Rules<u64>,
        position: &Position<u64>,
        path: &std::path::Path,
    ) -> Option<bool> {
        let side = position.side_to_move(rules);
        let plan = super::plan(rules, position, side)?;
        let mut judge = Judge::new(rules, position, side);
        let registers = plan.program.registers_after(&mut judge);
        let empty = rules.geometry().board & !position.occupied();
        let proved = plan.proved_from_registers(position, empty, &registers)?;
        if !proved {
            return Some(false);
        }
        let at = path.display();
        assert!(plan.reply_certain(rules, position, empty), "{at}");
        let all = (1u32 << rules.pieces()) - 1;
        let mut allowed_of = ByPiece::splat(0u64);
        let mut ahead_of = ByPiece::splat(0u64);
        plan.drop_squares(&mut judge, all, false, &mut allowed_of, &mut ahead_of);
        for piece in pieces(rules.pieces()).filter(|&piece| position.hand(side, piece) > 0) {
            for to in allowed_of[piece].squares() {
                let drop = Move::drop(piece, to);
                assert!(
                    crate::legal::leaves_a_reply(rules, position, drop),
                    "{at}: {drop:?} leaves no reply"
                );
            }
        }
        Some(true)
    }
}
