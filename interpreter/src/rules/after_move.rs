//! Move rules judged on the position after the move: `must not give check` (racing kings),
//! `must not after some (opponent General and reach of (own General) by "vR")` (xiangqi's flying
//! general).
//!
//! Most move rules are compiled into the squares each piece type may move from
//! ([`crate::expression::movable_squares`]): they read the position before the move. These read
//! the position after it, so they are judged the way the `check` rule judges whether a move
//! leaves the mover's king attacked: the move is played on a copy ([`Position::act`], the board
//! alone: the turn is not ended) and the copy is tested. [`AfterMoves`] does that as a sink
//! between the core's move generator and the caller's sink, so every generated board move
//! (promotions, en passant and castling included) passes the test before it is counted or
//! listed. Only a game with such rules wraps its sink; every other game pays one test of an
//! empty list per position. Where every rule asks only whether the move gives check, a piece's
//! plain moves are judged together from the check givers found once per position
//! ([`CheckGivers`]); where the move only moves a piece, nothing is played: the test reads the
//! board it leaves through the position before it ([`BoardJudge`]); only the rest is played.

use crate::core::attack;
use crate::core::bitboard::Bitboard;
use crate::core::board::AfterMove;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::legality::CheckGivers;
use crate::core::movegen::{promotion_moves, Sink};
use crate::core::moves::Move;
use crate::core::position::Position;
use crate::core::tables::PromotionRule;
use crate::expression::{Judge, OTHER_PIECE};
use crate::rules::after_board::{BoardJudge, Facing};
use crate::rules::ir::{AfterRule, AfterTest, Cond};
use crate::rules::Rules;

/// Whether a move of the side to move meets every move rule judged after the move (`true` in
/// a game without such rules).
pub fn allows<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, mv: Move) -> bool {
    let us = position.side_to_move(rules);
    let mut before = Judge::new(rules, position, us);
    let binding = binding(rules, us);
    allowed(rules, position, &mut before, &binding, us, mv)
}

/// Whether `board` is one that `side`'s own `must not` rules judged after a move forbid, its
/// `when` aside (rules with one are left out): what makes a piece pinned for `perpetual chase`
/// beyond check ([`crate::core::chase`]: a piece alone between the generals under the flying
/// general, a general whose recapture would face the other).
pub(crate) fn forbidden<B: Bitboard>(rules: &Rules<B>, board: &Position<B>, side: SideId) -> bool {
    binding(rules, side)
        .into_iter()
        .filter(|rule| !rule.holds && matches!(rule.condition, Cond::True))
        .any(|rule| match &rule.test {
            AfterTest::Check => rules
                .side_ids()
                .any(|other| rules.is_enemy(side, other) && board.in_check(rules, other)),
            AfterTest::Holds(condition) => Judge::new(rules, board, side).holds(condition),
        })
}

/// The rules that bind `us`, in source order.
fn binding<B: Bitboard>(rules: &Rules<B>, us: SideId) -> Vec<&AfterRule<B>> {
    rules
        .expressions
        .after
        .iter()
        .filter(|rule| rule.side.is_none_or(|side| side == us))
        .collect()
}

/// [`allows`], with the judge of the position before the move and the binding rules at hand.
pub(crate) fn allowed<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    before: &mut Judge<'_, B>,
    binding: &[&AfterRule<B>],
    us: SideId,
    mv: Move,
) -> bool {
    let board = AfterMove::of(rules, position, mv);
    let mut after: Option<Position<B>> = None;
    binding.iter().all(|rule| {
        !applies(before, position, &rule.condition, mv.from)
            || meets(rules, position, (board, &mut after), rule, us, mv)
    })
}

/// Whether `mv` meets `rule` (whose `when` applies to it): judged on the board it leaves where
/// `board` has it, else on the position after it, played into `after` the first time.
fn meets<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    (board, after): (Option<AfterMove<'_, B>>, &mut Option<Position<B>>),
    rule: &AfterRule<B>,
    us: SideId,
    mv: Move,
) -> bool {
    if let Some(board) = board {
        return board_holds(rules, position, board, mv, us, &rule.test) == rule.holds;
    }
    let next = after.get_or_insert_with(|| {
        let mut next = *position;
        next.act(rules, mv);
        next
    });
    let holds = match &rule.test {
        AfterTest::Check => rules
            .side_ids()
            .any(|side| rules.is_enemy(us, side) && next.in_check(rules, side)),
        AfterTest::Holds(condition) => Judge::new(rules, next, us).holds(condition),
    };
    holds == rule.holds
}

/// Whether a rule's test holds on the board `mv` leaves, read without playing the move
/// ([`BoardJudge`]).
fn board_holds<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    board: AfterMove<'_, B>,
    mv: Move,
    us: SideId,
    test: &AfterTest<B>,
) -> bool {
    match test {
        AfterTest::Check => rules
            .side_ids()
            .any(|side| rules.is_enemy(us, side) && attack::in_check(&board, rules, side)),
        AfterTest::Holds(condition) => {
            BoardJudge::new(rules, position, board, mv, us).holds(condition)
        }
    }
}

/// Whether a rule's `when` condition holds for a move from `from` (judged before it, for the
/// moving piece and its square).
fn applies<B: Bitboard>(
    before: &mut Judge<'_, B>,
    position: &Position<B>,
    condition: &Cond<B>,
    from: Sq,
) -> bool {
    if matches!(condition, Cond::True) {
        return true;
    }
    let piece = position
        .at(from)
        .map_or(OTHER_PIECE, |occupant| occupant.piece);
    before.move_mask(condition, piece).has(from)
}

/// A sink that passes on the moves that meet the rules judged after the move.
pub(crate) struct AfterMoves<'a, 'r, B: Bitboard, S> {
    rules: &'r Rules<B>,
    position: &'r Position<B>,
    before: Judge<'r, B>,
    binding: Vec<&'r AfterRule<B>>,
    us: SideId,
    inner: &'a mut S,
    /// Where every binding rule is `must (not) give check` for any piece: the moves that
    /// give check, found without playing them ([`CheckGivers`]); `None` elsewhere.
    givers: Option<CheckGivers<B>>,
    /// A bit per binding rule (the first 64) whose `when` names neither the moving piece nor
    /// its square ([`reads_move`]): the same for every move of the position, judged once.
    same_when: u64,
    /// Of those, the rules whose `when` has been judged, and those for which it holds.
    when_judged: u64,
    when_holds: u64,
    /// Per binding rule, its condition's facing form on the position ([`Facing`]), read the
    /// first time a piece's moves are judged by it (`Some(None)`: another form).
    facing: Vec<Option<Option<Facing<B>>>>,
}

/// Whether a condition names the moving (or dropped) piece or its square: where it does not,
/// it holds for every move of a position or for none.
fn reads_move<B>(condition: &Cond<B>) -> bool {
    match condition {
        Cond::Move(_) | Cond::MoveFrom(_) | Cond::Place(_) | Cond::PlaceOn(_) => true,
        Cond::And(a, b) | Cond::Or(a, b) => reads_move(a) || reads_move(b),
        Cond::Not(a) => reads_move(a),
        _ => false,
    }
}

impl<'a, 'r, B: Bitboard, S: Sink<B>> AfterMoves<'a, 'r, B, S> {
    /// The sink in front of `inner` for the side to move of `position`.
    pub(crate) fn new(rules: &'r Rules<B>, position: &'r Position<B>, inner: &'a mut S) -> Self {
        let us = position.side_to_move(rules);
        let binding = binding(rules, us);
        let only_checks = binding.iter().all(|rule| {
            matches!(rule.test, AfterTest::Check) && matches!(rule.condition, Cond::True)
        });
        let givers = only_checks
            .then(|| CheckGivers::new(rules, position, us))
            .flatten();
        let binding_len = binding.len();
        let same_when = binding
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, rule)| !reads_move(&rule.condition))
            .fold(0, |bits, (index, _)| bits | 1 << index);
        AfterMoves {
            rules,
            position,
            before: Judge::new(rules, position, us),
            binding,
            us,
            inner,
            givers,
            same_when,
            when_judged: 0,
            when_holds: 0,
            facing: vec![None; binding_len],
        }
    }

    /// The plain moves from `from` to `targets` that meet the rules: judged from the check
    /// givers where they are known, else each played.
    fn allowed_targets(&mut self, from: Sq, targets: B) -> B {
        let mut rest = targets;
        let mut kept = B::EMPTY;
        if let Some(givers) = &self.givers {
            let (giving, unknown) =
                givers.giving(self.rules, self.position, self.us, from, targets);
            kept = targets & !unknown;
            for rule in &self.binding {
                kept &= if rule.holds { giving } else { !giving };
            }
            rest = unknown;
        }
        if rest.is_empty() {
            return kept;
        }
        if self.binding.len() > 64 {
            for to in rest.squares() {
                if self.allows(Move::normal(from, to)) {
                    kept |= B::single(to);
                }
            }
            return kept;
        }
        let Some(open) = self.open_rules(from) else {
            return kept;
        };
        if open == 0 {
            return kept | rest;
        }
        for to in rest.squares() {
            let mv = Move::normal(from, to);
            let board = AfterMove::of(self.rules, self.position, mv);
            let mut after = None;
            let meets_all = self.binding.iter().enumerate().all(|(index, rule)| {
                open >> index & 1 == 0
                    || meets(
                        self.rules,
                        self.position,
                        (board, &mut after),
                        rule,
                        self.us,
                        mv,
                    )
            });
            if meets_all {
                kept |= B::single(to);
            }
        }
        kept
    }

    /// The binding rules that the plain moves of the piece on `from` must each be judged by, a
    /// bit per rule: those whose `when` applies to it (judged once for all its moves), but not
    /// those settled for all of them at once ([`Facing::false_after_moves_from`]). `None` where such a
    /// settled rule fails every move. At most 64 rules.
    fn open_rules(&mut self, from: Sq) -> Option<u64> {
        let mut open = 0;
        for index in 0..self.binding.len() {
            let rule = self.binding[index];
            if !self.applies_from(index, rule, from) {
                continue;
            }
            if let AfterTest::Holds(condition) = &rule.test {
                let (rules, position, us) = (self.rules, self.position, self.us);
                let facing = *self.facing[index].get_or_insert_with(|| {
                    Facing::of(rules, &mut self.before, position, us, condition)
                });
                if facing
                    .is_some_and(|facing| facing.false_after_moves_from(rules, position, us, from))
                {
                    if rule.holds {
                        return None;
                    }
                    continue;
                }
            }
            open |= 1 << index;
        }
        Some(open)
    }

    /// Whether the `when` of `rule`, the binding rule `index` (one of the first 64), applies to
    /// the moves from `from`: judged once per position where it reads no move.
    fn applies_from(&mut self, index: usize, rule: &AfterRule<B>, from: Sq) -> bool {
        let bit = 1u64 << index;
        if self.same_when & bit == 0 {
            return applies(&mut self.before, self.position, &rule.condition, from);
        }
        if self.when_judged & bit == 0 {
            self.when_judged |= bit;
            if applies(&mut self.before, self.position, &rule.condition, from) {
                self.when_holds |= bit;
            }
        }
        self.when_holds & bit != 0
    }

    fn allows(&mut self, mv: Move) -> bool {
        allowed(
            self.rules,
            self.position,
            &mut self.before,
            &self.binding,
            self.us,
            mv,
        )
    }
}

impl<B: Bitboard, S: Sink<B>> Sink<B> for AfterMoves<'_, '_, B, S> {
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>) {
        match promotion.filter(|rule| (rule.zone & targets).any()) {
            None => {
                let kept = self.allowed_targets(from, targets);
                if kept.any() {
                    self.inner.batch(from, kept, promotion);
                }
            }
            // Each promotion choice is its own move, judged on its own.
            Some(rule) => {
                let mut moves = Vec::new();
                promotion_moves(from, targets, rule, |mv| moves.push(mv));
                for mv in moves {
                    if self.allows(mv) {
                        self.inner.single(mv);
                    }
                }
            }
        }
    }

    fn single(&mut self, mv: Move) {
        if self.allows(mv) {
            self.inner.single(mv);
        }
    }

    fn drops(&mut self, piece: PieceId, targets: B) {
        // Move rules bind the moves of pieces on the board, not drops.
        self.inner.drops(piece, targets);
    }

    fn satisfied(&self) -> bool {
        self.inner.satisfied()
    }

    const ONE_IS_ENOUGH: bool = S::ONE_IS_ENOUGH;
    const TACTICAL: bool = S::TACTICAL;
}
