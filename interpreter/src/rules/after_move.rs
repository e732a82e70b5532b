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
use crate::core::index::{PieceId, SideId};
use crate::core::legality::CheckGivers;
use crate::core::movegen::{promotion_moves, Sink};
use crate::core::moves::Move;
use crate::core::position::Position;
use crate::core::tables::PromotionRule;
use crate::expression::{Judge, OTHER_PIECE};
use crate::rules::after_board::BoardJudge;
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
    for rule in binding {
        if !applies(before, position, &rule.condition, mv) {
            continue;
        }
        if let Some(board) = board {
            if board_holds(rules, position, board, mv, us, &rule.test) != rule.holds {
                return false;
            }
            continue;
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
        if holds != rule.holds {
            return false;
        }
    }
    true
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

/// Whether a rule's `when` condition holds for the move (judged before it, for the moving
/// piece and its square).
fn applies<B: Bitboard>(
    before: &mut Judge<'_, B>,
    position: &Position<B>,
    condition: &Cond<B>,
    mv: Move,
) -> bool {
    if matches!(condition, Cond::True) {
        return true;
    }
    let piece = position
        .occupant(mv.from)
        .map_or(OTHER_PIECE, |occupant| occupant.piece);
    before.move_mask(condition, piece).contains(mv.from)
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
        AfterMoves {
            rules,
            position,
            before: Judge::new(rules, position, us),
            binding,
            us,
            inner,
            givers,
        }
    }

    /// The plain moves from `from` to `targets` that meet the rules: judged from the check
    /// givers where they are known, else each played.
    fn allowed_targets(&mut self, from: usize, targets: B) -> B {
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
        for to in rest.squares() {
            if self.allows(Move::normal(from, to)) {
                kept |= B::single(to);
            }
        }
        kept
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
    fn batch(&mut self, from: usize, targets: B, promotion: Option<&PromotionRule<B>>) {
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
}
