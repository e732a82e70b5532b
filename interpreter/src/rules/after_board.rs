//! The concrete domain on the board a move leaves, read without playing the move
//! ([`AfterMove`]): how a move rule judged after the move (`must not after some (opponent
//! General and reach of (own General) by "vR")`, the flying general) is judged for every
//! generated move.
//!
//! Why a domain of its own: such a rule is judged once per legal move, and playing each move on
//! a copy of the position to judge it cost xiangqi's perft more than the judging. Most of these
//! conditions read only the board (pieces, occupancy, zones, the reach of a movement), which the
//! [`AfterMove`] view gives as a few bitboard operations. A term that reads more (hands,
//! counters, control, attacks, the turn's progress) is asked of the position after the move,
//! played on a copy the first time one is met ([`BoardJudge::after`]): the domain is exact for
//! every condition, and costs a copy only where the condition needs one.

use crate::bitboard::Bitboard;
use crate::core::board::{AfterMove, Board};
use crate::core::index::{BySide, PieceId, SideId, Sq};
use crate::domain::Domain;
use crate::expression::{
    around, colour_of, file_of, reach_squares, sides_of, Cond, Fld, Judge, Set,
};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use variant_dsl::expression::{Comparison, SideRef};

/// Judges conditions for one side on the board after one move.
pub(crate) struct BoardJudge<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    before: &'a Position<B>,
    board: AfterMove<'a, B>,
    mv: Move,
    side: SideId,
    /// The position after the move, played the first time a term reads more than the board.
    after: Option<Position<B>>,
}

impl<'a, B: Bitboard> BoardJudge<'a, B> {
    /// A judge for `side` of the board `board` that `mv` leaves on `before`.
    pub(crate) fn new(
        rules: &'a Rules<B>,
        before: &'a Position<B>,
        board: AfterMove<'a, B>,
        mv: Move,
        side: SideId,
    ) -> Self {
        BoardJudge {
            rules,
            before,
            board,
            mv,
            side,
            after: None,
        }
    }

    /// Whether the condition holds after the move.
    pub(crate) fn holds(&mut self, condition: &Cond<B>) -> bool {
        if let Some((targets, from, index)) = facing(condition) {
            return self.reaches(targets, from, index);
        }
        crate::domain::holds(self, condition)
    }

    /// Whether movement `index` from some square of `from` reaches a square of `targets`:
    /// `some (T and reach of (F) by "...")` judged from its operands' squares, without the
    /// reach's whole set where no target could be in it.
    fn reaches(&mut self, targets: &Set<B>, from: &Set<B>, index: usize) -> bool {
        let targets = crate::domain::set(self, targets) & self.rules.geometry().board;
        if targets.is_empty() {
            return false;
        }
        let from = crate::domain::set(self, from);
        let moves = &self.rules.reach[index][self.side];
        let occupied = self.board.occupied();
        from.squares().any(|square| {
            // Every piece stops a line and may be captured: nothing is the mover's own.
            (crate::core::tables::targets(self.rules, moves, square, B::EMPTY, occupied, occupied)
                & targets)
                .any()
        })
    }

    /// The concrete judge of the position after the move, played on a copy once.
    #[cold]
    fn after(&mut self) -> Judge<'_, B> {
        let (rules, before, mv) = (self.rules, self.before, self.mv);
        let after = self.after.get_or_insert_with(|| {
            let mut next = *before;
            next.act(rules, mv);
            next
        });
        Judge::new(rules, after, self.side)
    }

    /// The sides a reference names for the judged side (the move does not end the turn: the
    /// position before it answers as the one after it would).
    #[inline]
    fn sides(&self, reference: SideRef) -> u32 {
        sides_of(self.rules, self.before, self.side, reference)
    }
}

/// A condition of the facing form (`some (T and reach of (F) by "...")`, T and F the pieces of
/// some sides, of a type or all, the movement of leaps and rides alike for moves and captures:
/// [`PieceMoves::simple`]) read once on the board before a position's moves: what
/// [`Facing::false_after_moves_from`] settles the moves of a whole piece with.
///
/// [`PieceMoves::simple`]: crate::core::tables::PieceMoves::simple
#[derive(Clone, Copy)]
pub(crate) struct Facing<B> {
    /// The movement's index in [`Rules::reach`].
    index: usize,
    /// T and F before the moves.
    targets: B,
    origins: B,
    /// The squares the movement reaches from F before the moves.
    reached: B,
}

impl<B: Bitboard> Facing<B> {
    /// The facing form of `condition` for `side` on `position` (`before`: its judge for
    /// `side`); `None` where the condition has another form.
    pub(crate) fn of(
        rules: &Rules<B>,
        before: &mut Judge<'_, B>,
        position: &Position<B>,
        side: SideId,
        condition: &Cond<B>,
    ) -> Option<Self> {
        let (targets, origins, index) = facing(condition)?;
        if !matches!((targets, origins), (Set::Pieces(..), Set::Pieces(..))) {
            return None;
        }
        let moves = &rules.reach[index][side];
        if !moves.simple || !moves.routes.is_empty() {
            return None;
        }
        let targets = crate::domain::set(before, targets) & rules.geometry().board;
        let origins = crate::domain::set(before, origins);
        Some(Facing {
            index,
            targets,
            origins,
            reached: reach_from(rules, index, side, origins, position.occupied()),
        })
    }

    /// Whether the condition is false on the board after every plain move (no promotion) of
    /// the piece of `side` on `from`. Where that piece is in neither T nor F, each after the
    /// move is the one before without the move's target (a capture), and the reach is the
    /// movement's from a set of squares occupied as before, without `from`, with the target:
    /// such a movement reaches no further for one more piece on the board, so a reach that
    /// misses T with `from` emptied misses it after every such move. Emptying a square the
    /// movement does not reach opens none of its lines: the reach before the moves is then
    /// that reach. False where that is not shown (the move is then judged on its own): the
    /// xiangqi general's moves, a piece alone between the generals.
    pub(crate) fn false_after_moves_from(
        &self,
        rules: &Rules<B>,
        position: &Position<B>,
        side: SideId,
        from: Sq,
    ) -> bool {
        if (self.targets | self.origins).has(from) {
            return false;
        }
        let reached = if self.reached.has(from) {
            let occupied = position.occupied() & !B::single(from);
            reach_from(rules, self.index, side, self.origins, occupied)
        } else {
            self.reached
        };
        (reached & self.targets).is_empty()
    }
}

/// The squares movement `index` of `side` reaches from `origins` with the board occupied as
/// `occupied`, as [`BoardJudge::reaches`] reads it: every piece stops a line and may be
/// captured.
fn reach_from<B: Bitboard>(
    rules: &Rules<B>,
    index: usize,
    side: SideId,
    origins: B,
    occupied: B,
) -> B {
    let moves = &rules.reach[index][side];
    origins.squares().fold(B::EMPTY, |acc, square| {
        acc | crate::core::tables::targets(rules, moves, square, B::EMPTY, occupied, occupied)
    })
}

/// A condition of the form `some (T and reach of (F) by "...")` (either operand first), as
/// (T, F, the movement's index): the flying general's form, a reach that must (not) find a
/// piece.
fn facing<B>(condition: &Cond<B>) -> Option<(&Set<B>, &Set<B>, usize)> {
    let Cond::Some(Set::And(a, b)) = condition else {
        return None;
    };
    match (&**a, &**b) {
        (targets, Set::Reach(from, index)) | (Set::Reach(from, index), targets) => {
            Some((targets, from, *index))
        }
        _ => None,
    }
}

impl<B: Bitboard> Domain<B> for BoardJudge<'_, B> {
    type Squares = B;
    type Number = i64;
    type Truth = bool;

    #[inline]
    fn empty(&mut self) -> B {
        self.rules.geometry().board & !self.board.occupied()
    }
    #[inline]
    fn occupied(&mut self) -> B {
        self.board.occupied()
    }
    #[inline]
    fn fixed(&mut self, squares: B) -> B {
        squares
    }
    #[inline]
    fn zone(&mut self, per_side: &BySide<B>) -> B {
        per_side[self.side]
    }
    #[inline]
    fn pieces(&mut self, sides: SideRef, piece: Option<PieceId>) -> B {
        let mut mask = self.sides(sides);
        let mut squares = B::EMPTY;
        while mask != 0 {
            squares |= self
                .board
                .side_pieces(SideId::new(mask.trailing_zeros() as usize));
            mask &= mask - 1;
        }
        match piece {
            Some(piece) => squares & self.board.typed(piece),
            None => squares,
        }
    }
    fn controlled_by(&mut self, sides: SideRef) -> B {
        self.after().controlled_by(sides)
    }
    fn attacked_among(&mut self, sides: SideRef, among: B) -> B {
        self.after().attacked_among(sides, among)
    }
    fn attacked_by(&mut self, sides: SideRef) -> B {
        self.after().attacked_by(sides)
    }
    fn last_drop(&mut self, sides: SideRef) -> B {
        self.after().last_drop(sides)
    }
    fn legal_drops(&mut self) -> B {
        self.after().legal_drops()
    }
    fn acted(&mut self) -> B {
        self.after().acted()
    }
    fn compare_fields(&mut self, a: &Fld, op: Comparison, b: &Fld) -> B {
        self.after().compare_fields(a, op, b)
    }
    fn reach(&mut self, from: &Set<B>, index: usize) -> B {
        let from = crate::domain::set(self, from);
        reach_squares(self.rules, index, self.side, from, self.board.occupied())
    }
    #[inline]
    fn adjacent(&mut self, inner: B) -> B {
        around(self.rules, inner)
    }
    #[inline]
    fn colour_of(&mut self, inner: B) -> B {
        colour_of(self.rules, inner)
    }
    #[inline]
    fn file_of(&mut self, inner: B) -> B {
        file_of(self.rules, inner)
    }
    #[inline]
    fn intersection(&mut self, a: B, b: B) -> B {
        a & b
    }
    #[inline]
    fn union(&mut self, a: B, b: B) -> B {
        a | b
    }
    #[inline]
    fn difference(&mut self, a: B, b: B) -> B {
        a & !b
    }
    #[inline]
    fn complement(&mut self, a: B) -> B {
        self.rules.geometry().board & !a
    }
    #[inline]
    fn nothing(&self, squares: B) -> bool {
        squares.is_empty()
    }
    #[inline]
    fn everything(&self, squares: B) -> bool {
        squares == self.rules.geometry().board
    }

    #[inline]
    fn constant(&mut self, value: i64) -> i64 {
        value
    }
    fn placement(&mut self) -> i64 {
        self.after().placement()
    }
    #[inline]
    fn count(&mut self, squares: B) -> i64 {
        i64::from(squares.count())
    }
    fn hand(&mut self, sides: SideRef, piece: Option<PieceId>) -> i64 {
        self.after().hand(sides, piece)
    }
    fn counter(&mut self, sides: SideRef, counter: usize) -> i64 {
        self.after().counter(sides, counter)
    }
    fn actions_this_turn(&mut self) -> i64 {
        self.after().actions_this_turn()
    }
    fn drops_this_turn(&mut self) -> i64 {
        self.after().drops_this_turn()
    }
    fn sum(&mut self, field: &Fld, squares: B) -> i64 {
        self.after().sum(field, squares)
    }
    #[inline]
    fn plus(&mut self, a: i64, b: i64) -> i64 {
        a.saturating_add(b)
    }
    #[inline]
    fn minus(&mut self, a: i64, b: i64) -> i64 {
        a.saturating_sub(b)
    }

    #[inline]
    fn truth(&mut self, holds: bool) -> bool {
        holds
    }
    fn leave_action(&mut self) -> bool {
        self.after().leave_action()
    }
    fn at_turn_start(&mut self, index: usize) -> bool {
        self.after().at_turn_start(index)
    }
    fn can_act(&mut self) -> bool {
        self.after().can_act()
    }
    fn can_act_without_promoting(&mut self) -> bool {
        self.after().can_act_without_promoting()
    }
    #[inline]
    fn compare(&mut self, a: i64, op: Comparison, b: i64) -> bool {
        op.holds(a, b)
    }
    #[inline]
    fn some(&mut self, squares: B) -> bool {
        squares.any()
    }
    fn hands_empty(&mut self) -> bool {
        self.after().hands_empty()
    }
    fn placed(&mut self, sides: SideRef, piece: PieceId) -> bool {
        self.after().placed(sides, piece)
    }
    fn passed(&mut self, sides: SideRef) -> bool {
        self.after().passed(sides)
    }
    #[inline]
    fn both(&mut self, a: bool, b: bool) -> bool {
        a && b
    }
    #[inline]
    fn either(&mut self, a: bool, b: bool) -> bool {
        a || b
    }
    #[inline]
    fn negation(&mut self, a: bool) -> bool {
        !a
    }
    #[inline]
    fn never(&self, truth: bool) -> bool {
        !truth
    }
    #[inline]
    fn always(&self, truth: bool) -> bool {
        truth
    }
    #[inline]
    fn everywhere(&mut self, truth: bool) -> B {
        if truth {
            self.rules.geometry().board
        } else {
            B::EMPTY
        }
    }
}

#[cfg(test)]
mod tests {
    //! The fast paths that read the board a move leaves without playing it, against the move
    //! played on a copy, for every plain move of every piece of the side to move (legal or
    //! not) along seeded random games: the check test ([`attack::in_check`]), the test of the
    //! attacks a move could open ([`attack::opens_attack`]) and the move rules judged after
    //! the move ([`BoardJudge`]).
    use super::*;
    use crate::core::attack;
    use crate::expression::AfterTest;

    /// The games with hoppers, lame leapers, after-move rules and promotions.
    const GAMES: [&str; 9] = [
        "xiangqi",
        "janggi",
        "minixiangqi",
        "shako",
        "grasshopper",
        "chess",
        "shogi",
        "dobutsu",
        "racingkings",
    ];

    fn load(name: &str) -> (Rules<u128>, Position<u128>) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let path = root.join(format!("games/{name}.variant"));
        let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
        let definition = variant_dsl::load_file_with(&path, &options)
            .expect("loads")
            .definition;
        let rules = Rules::<u128>::compile(&definition).expect("compiles");
        let position = Position::from_setup(&rules, &definition.setup).expect("opens");
        (rules, position)
    }

    /// Every plain move of the side to move's pieces to a square not its own, and a promotion
    /// to each type for each: legal or not, each changes the board on two squares.
    fn candidates(rules: &Rules<u128>, position: &Position<u128>) -> Vec<Move> {
        let us = position.side_to_move(rules);
        let own = position.side_pieces(us);
        let mut moves = Vec::new();
        for from in own.squares() {
            for to in (rules.geometry().board & !own).squares() {
                moves.push(Move::normal(from, to));
            }
        }
        moves
    }

    /// The slow answers: the move played on a copy.
    fn played(rules: &Rules<u128>, position: &Position<u128>, mv: Move) -> Position<u128> {
        let mut next = *position;
        next.act(rules, mv);
        next
    }

    #[test]
    fn the_board_after_a_move_answers_as_the_move_played() {
        for name in GAMES {
            let (rules, mut position) = load(name);
            assert!(rules.board_moves(), "{name}: moves change two squares only");
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut judged = 0;
            let mut settled = 0;
            for _ply in 0..40 {
                let us = position.side_to_move(&rules);
                let royals = position.team_royals(&rules, us);
                let quiet = royals.count() == 1 && !position.in_check(&rules, us);
                let mut before = Judge::new(&rules, &position, us);
                for mv in candidates(&rules, &position) {
                    let board = AfterMove::of(&rules, &position, mv).expect("a plain move");
                    let next = played(&rules, &position, mv);
                    for side in rules.side_ids() {
                        assert_eq!(
                            attack::in_check(&board, &rules, side),
                            next.in_check(&rules, side),
                            "{name}: check of {side:?} after {mv:?}"
                        );
                    }
                    let royal = rules.royal().contains(&position.at(mv.from).unwrap().piece);
                    if quiet && !royal {
                        let touched = (1u128 << mv.from.index()) | (1u128 << mv.to.index());
                        assert_eq!(
                            attack::opens_attack(&board, &rules, us, royals.lowest(), touched),
                            next.in_check(&rules, us),
                            "{name}: attack opened by {mv:?}"
                        );
                    }
                    for rule in &rules.expressions.after {
                        if let AfterTest::Holds(condition) = &rule.test {
                            let fast =
                                BoardJudge::new(&rules, &position, board, mv, us).holds(condition);
                            let slow = Judge::new(&rules, &next, us).holds(condition);
                            assert_eq!(fast, slow, "{name}: after-move rule after {mv:?}");
                            judged += 1;
                            let from = mv.from;
                            let (rules, position) = (&rules, &position);
                            let facing = Facing::of(rules, &mut before, position, us, condition);
                            if facing.is_some_and(|facing| {
                                facing.false_after_moves_from(rules, position, us, from)
                            }) {
                                assert!(!slow, "{name}: settled for {mv:?}, but holds after it");
                                settled += 1;
                            }
                        }
                    }
                }
                let moves = crate::legal::legal_moves(&rules, &position);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                position.play_legal(&rules, moves[(seed % moves.len() as u64) as usize]);
            }
            let has_after = ["xiangqi", "janggi", "minixiangqi"].contains(&name);
            assert_eq!(judged > 0, has_after, "{name}: after-move rules judged");
            // The flying general's rule is settled for most pieces at once.
            assert_eq!(
                settled > judged / 2,
                has_after,
                "{name}: {settled} of {judged} settled"
            );
        }
    }
}
