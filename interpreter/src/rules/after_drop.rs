//! What is certain of a set of squares after the side to move drops a piece on one square of a
//! set `D`, whichever square it is.
//!
//! The lookahead's proof ([`crate::expression::reply_certain`]) asks whether *every* drop the
//! side to move can make leaves the next side a drop. Judged with plain lower bounds, a set that
//! depends on where the drop lands is bounded by what it holds for all of `D` at once, which is
//! often nothing: "the squares touching a piece" holds, after a drop on `d`, the squares around
//! `d`, and no square is around every `d` of a large `D`. The proof then failed and every
//! candidate was proved on its own (64 proofs at a placement game's first ply).
//!
//! A [`Lower`] keeps the part that moves with the drop symbolically: for every `d` in `D` the set
//! holds at least
//!
//! ```text
//! ((certain ∪ (N(d) ∩ near)) \ {d if without_drop}) ∪ {d if with_drop}
//! ```
//!
//! where `N(d)` is the 8 squares around `d`. Unions and intersections of such sets are again
//! such sets (exactly, but perhaps for the drop's own square, never a reply's), and the
//! question the proof ends with, "is the set non-empty for every `d`", has a closed answer:
//! adjacency is symmetric, so `N(d)` meets `near` exactly when `d` is around `near`. When `D` is
//! one known square everything is folded into `certain`, and the bounds are the plain ones.
//!
//! [`Symbolic`] is the domain of the one walk over the expressions ([`crate::domain`]) whose
//! sets are a [`Lower`] with the interval domain's upper bound: the proof replays the next
//! side's compiled requirements on it ([`crate::program::Replay`]).

use crate::bitboard::Bitboard;
use crate::core::index::{BySide, PieceId, SideId};
use crate::domain::Domain;
use crate::expression::{around, colour_of, file_of, Bounds, Fld};
use crate::position::Position;
use crate::rules::Rules;
use variant_dsl::expression::{Comparison, SideRef};

/// What is known of the mover's drop that the bounds range over: the empty squares it may be
/// on, and that square when there is one.
#[derive(Clone, Copy)]
pub(crate) struct After<B> {
    pub drops: B,
    pub known: B,
}

/// A lower bound of a set of squares after the mover's drop on an unknown square of
/// [`After::drops`] (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lower<B> {
    /// Squares in the set whatever the drop (but the drop's own square when `without_drop`).
    pub certain: B,
    /// Squares in the set when they are around the drop's square.
    pub near: B,
    /// The drop's square is in the set.
    pub with_drop: bool,
    /// The drop's square is taken out of `certain` (as the empty squares lose it).
    pub without_drop: bool,
}

impl<B: Bitboard> Lower<B> {
    /// A set known the same whatever the drop.
    #[inline(always)]
    pub fn plain(certain: B) -> Self {
        Lower {
            certain,
            near: B::EMPTY,
            with_drop: false,
            without_drop: false,
        }
    }

    /// The squares in the set for every drop: the set itself when the drop's square is known.
    #[inline]
    pub fn fold(self, rules: &Rules<B>, after: After<B>) -> B {
        let known = after.known;
        if known.any() {
            let mut set = self.certain;
            if self.near.any() {
                set |= around(rules, known) & self.near;
            }
            if self.without_drop {
                set &= !known;
            }
            if self.with_drop {
                set |= known;
            }
            set
        } else if self.without_drop {
            self.certain & !after.drops
        } else {
            self.certain
        }
    }

    /// The set with its symbolic parts folded when the drop's square is known (then every
    /// operation below is the plain one on sets, and exact).
    #[inline(always)]
    pub fn settled(self, rules: &Rules<B>, after: After<B>) -> Self {
        if after.known.any() {
            Lower::plain(self.fold(rules, after))
        } else {
            self
        }
    }

    /// Every square the set may hold for some drop (an upper bound of its squares).
    #[inline(always)]
    pub fn reach(self, after: After<B>) -> B {
        let mut reach = self.certain | self.near;
        if self.with_drop {
            reach |= after.drops;
        }
        reach
    }

    /// The set holds no square for any drop.
    #[inline(always)]
    pub fn is_nothing(self) -> bool {
        self.certain.is_empty() && self.near.is_empty() && !self.with_drop
    }

    /// Both sets' squares: `(A ∪ N∩a) ∩ (B ∪ N∩b) = A∩B ∪ N∩(a∩B ∪ A∩b ∪ a∩b)`.
    #[inline(always)]
    pub fn and(self, other: Self) -> Self {
        Lower {
            certain: self.certain & other.certain,
            near: (self.near & (other.certain | other.near)) | (self.certain & other.near),
            with_drop: self.with_drop && other.with_drop,
            without_drop: self.without_drop || other.without_drop,
        }
    }

    /// Either set's squares.
    #[inline(always)]
    pub fn or(self, other: Self) -> Self {
        Lower {
            certain: self.certain | other.certain,
            near: self.near | other.near,
            with_drop: self.with_drop || other.with_drop,
            without_drop: self.without_drop || other.without_drop,
        }
    }

    /// The set less `upper`, a set that holds at most those squares for every drop.
    #[inline(always)]
    pub fn except(self, upper: B, after: After<B>) -> Self {
        Lower {
            certain: self.certain & !upper,
            near: self.near & !upper,
            with_drop: self.with_drop && (after.drops & upper).is_empty(),
            without_drop: self.without_drop,
        }
    }

    /// The squares around the set's: around what it holds for every drop, and around the drop
    /// where the set holds it (the squares around those around `d` are left out: a weaker bound,
    /// still a bound).
    #[inline]
    pub fn adjacent(self, rules: &Rules<B>, after: After<B>) -> Self {
        if after.known.any() {
            return Lower::plain(around(rules, self.fold(rules, after)));
        }
        Lower {
            certain: around(rules, self.fold(rules, after)),
            near: if self.with_drop {
                rules.geometry().board
            } else {
                B::EMPTY
            },
            with_drop: false,
            without_drop: false,
        }
    }

    /// Whether the set holds a square whichever square of [`After::drops`] the drop is on.
    #[inline]
    pub fn certainly_some(self, rules: &Rules<B>, after: After<B>) -> bool {
        if after.known.any() {
            return self.fold(rules, after).any();
        }
        if self.with_drop || self.fold(rules, after).any() {
            return true;
        }
        // What is left of `certain` loses the drop's square: with two squares, one stays.
        let lost = if self.without_drop {
            self.certain
        } else {
            B::EMPTY
        };
        if lost.without_lowest().any() {
            return true;
        }
        // The drops that could leave the set empty but for the squares around them: every drop
        // when `certain` holds nothing, else the one on its single square.
        let exposed = if lost.any() { lost } else { after.drops };
        (exposed & !around(rules, self.near)).is_empty()
    }
}

/// What the lookahead's proof computes with: the squares certainly in a set after the drop,
/// as a plain set (what holds for every drop at once) or as a [`Lower`] (what moves with the
/// drop kept symbolic). One proof, written once, for both.
pub(crate) trait Certain<B: Bitboard>: Copy {
    /// The empty squares after the drop.
    fn empty_after(empty: B, rules: &Rules<B>, after: After<B>) -> Self;
    /// No square.
    fn nothing() -> Self;
    /// Every square the set may hold for some drop.
    fn reach(self, after: After<B>) -> B;
    /// The set less the squares where a rule possibly applies (`applies`) and does not
    /// certainly allow (`allows`).
    fn obeying(self, applies: B, allows: Self) -> Self;
    /// Either set's squares.
    fn either(self, other: Self) -> Self;
    /// The set holds no square.
    fn is_nothing(self) -> bool;
    /// The set holds a square whichever square of [`After::drops`] the drop is on.
    fn certainly_some(self, rules: &Rules<B>, after: After<B>) -> bool;
}

impl<B: Bitboard> Certain<B> for B {
    #[inline(always)]
    fn empty_after(empty: B, _: &Rules<B>, _: After<B>) -> Self {
        // The drop's square is taken out at the end ([`crate::expression::open_after`]).
        empty
    }
    #[inline(always)]
    fn nothing() -> Self {
        B::EMPTY
    }
    #[inline(always)]
    fn reach(self, _: After<B>) -> B {
        self
    }
    #[inline(always)]
    fn obeying(self, applies: B, allows: Self) -> Self {
        self & (!applies | allows)
    }
    #[inline(always)]
    fn either(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn is_nothing(self) -> bool {
        self.is_empty()
    }
    #[inline(always)]
    fn certainly_some(self, _: &Rules<B>, after: After<B>) -> bool {
        crate::expression::open_after(self, after.drops)
    }
}

impl<B: Bitboard> Certain<B> for Lower<B> {
    #[inline(always)]
    fn empty_after(empty: B, rules: &Rules<B>, after: After<B>) -> Self {
        Lower {
            certain: empty,
            without_drop: true,
            ..Lower::plain(B::EMPTY)
        }
        .settled(rules, after)
    }
    #[inline(always)]
    fn nothing() -> Self {
        Lower::plain(B::EMPTY)
    }
    #[inline(always)]
    fn reach(self, after: After<B>) -> B {
        Lower::reach(self, after)
    }
    #[inline(always)]
    fn obeying(self, applies: B, allows: Self) -> Self {
        self.and(Lower::plain(!applies).or(allows))
    }
    #[inline(always)]
    fn either(self, other: Self) -> Self {
        self.or(other)
    }
    #[inline(always)]
    fn is_nothing(self) -> bool {
        Lower::is_nothing(self)
    }
    #[inline(always)]
    fn certainly_some(self, rules: &Rules<B>, after: After<B>) -> bool {
        Lower::certainly_some(self, rules, after)
    }
}

/// The symbolic domain: a set's value is what it certainly holds after the mover's drop, kept
/// symbolic where it moves with the drop ([`Lower`]), with the interval domain's upper bound
/// ([`Bounds`]); numbers and truths are the interval domain's. What the lookahead's proof
/// reads of the next side's requirements when the plain lower bounds prove nothing (a
/// [`crate::program::Replay`] run here).
pub(crate) struct Symbolic<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    position: &'a Position<B>,
    after: After<B>,
    /// The interval domain, for the leaves whose lower bound does not move with the drop.
    bounds: Bounds<'a, B>,
}

impl<'a, B: Bitboard> Symbolic<'a, B> {
    /// The symbolic domain for `next`'s drops after the side to move's drop on one of `after`'s
    /// squares.
    pub(crate) fn new(
        rules: &'a Rules<B>,
        position: &'a Position<B>,
        next: SideId,
        after: After<B>,
    ) -> Self {
        Symbolic {
            rules,
            position,
            after,
            bounds: Bounds::after(rules, position, next, after.drops),
        }
    }

    /// A set whose lower bound does not move with the drop.
    fn plain((low, high): (B, B)) -> (Lower<B>, B) {
        (Lower::plain(low), high)
    }

    /// The squares certainly in a set, folded: what it holds for every drop.
    fn fold(&self, lower: Lower<B>) -> B {
        lower.fold(self.rules, self.after)
    }
}

impl<B: Bitboard> Domain<B> for Symbolic<'_, B> {
    type Squares = (Lower<B>, B);
    type Number = (i64, i64);
    type Truth = (bool, bool);

    fn empty(&mut self) -> (Lower<B>, B) {
        let empty = self.rules.geometry().board & !self.position.occupied();
        let lower = Lower {
            certain: empty,
            without_drop: true,
            ..Lower::plain(B::EMPTY)
        };
        (lower.settled(self.rules, self.after), self.bounds.empty().1)
    }
    fn occupied(&mut self) -> (Lower<B>, B) {
        let lower = Lower {
            certain: self.position.occupied(),
            with_drop: true,
            ..Lower::plain(B::EMPTY)
        };
        (
            lower.settled(self.rules, self.after),
            self.bounds.occupied().1,
        )
    }
    fn fixed(&mut self, squares: B) -> (Lower<B>, B) {
        (Lower::plain(squares), squares)
    }
    fn zone(&mut self, per_side: &BySide<B>) -> (Lower<B>, B) {
        Self::plain(self.bounds.zone(per_side))
    }
    fn pieces(&mut self, sides: SideRef, piece: Option<PieceId>) -> (Lower<B>, B) {
        Self::plain(self.bounds.pieces(sides, piece))
    }
    fn controlled_by(&mut self, sides: SideRef) -> (Lower<B>, B) {
        Self::plain(self.bounds.controlled_by(sides))
    }
    fn attacked_among(&mut self, sides: SideRef, among: (Lower<B>, B)) -> (Lower<B>, B) {
        let attacked = self.attacked_by(sides);
        self.intersection(among, attacked)
    }
    fn attacked_by(&mut self, sides: SideRef) -> (Lower<B>, B) {
        Self::plain(self.bounds.attacked_by(sides))
    }
    fn reach(&mut self, from: &crate::rules::ir::Set<B>, index: usize) -> (Lower<B>, B) {
        Self::plain(self.bounds.reach(from, index))
    }
    fn last_drop(&mut self, sides: SideRef) -> (Lower<B>, B) {
        let (low, high) = self.bounds.last_drop(sides);
        // The mover's last drop will be the unknown one: the set gains the drop's square.
        if self.bounds.includes_mover(sides) && self.after.known.is_empty() {
            let lower = Lower {
                certain: low,
                with_drop: true,
                ..Lower::plain(B::EMPTY)
            };
            (lower, high)
        } else {
            (Lower::plain(low), high)
        }
    }
    fn legal_drops(&mut self) -> (Lower<B>, B) {
        Self::plain(self.bounds.legal_drops())
    }
    fn acted(&mut self) -> (Lower<B>, B) {
        Self::plain(self.bounds.acted())
    }
    fn compare_fields(&mut self, a: &Fld, op: Comparison, b: &Fld) -> (Lower<B>, B) {
        Self::plain(self.bounds.compare_fields(a, op, b))
    }
    fn adjacent(&mut self, (low, high): (Lower<B>, B)) -> (Lower<B>, B) {
        (
            low.adjacent(self.rules, self.after),
            around(self.rules, high),
        )
    }
    fn colour_of(&mut self, (low, high): (Lower<B>, B)) -> (Lower<B>, B) {
        let low = colour_of(self.rules, self.fold(low));
        (Lower::plain(low), colour_of(self.rules, high))
    }
    fn file_of(&mut self, (low, high): (Lower<B>, B)) -> (Lower<B>, B) {
        let low = file_of(self.rules, self.fold(low));
        (Lower::plain(low), file_of(self.rules, high))
    }
    fn intersection(&mut self, a: (Lower<B>, B), b: (Lower<B>, B)) -> (Lower<B>, B) {
        (a.0.and(b.0), a.1 & b.1)
    }
    fn union(&mut self, a: (Lower<B>, B), b: (Lower<B>, B)) -> (Lower<B>, B) {
        (a.0.or(b.0), a.1 | b.1)
    }
    fn difference(&mut self, a: (Lower<B>, B), b: (Lower<B>, B)) -> (Lower<B>, B) {
        (a.0.except(b.1, self.after), a.1 & !self.fold(b.0))
    }
    fn complement(&mut self, (low, high): (Lower<B>, B)) -> (Lower<B>, B) {
        let board = self.rules.geometry().board;
        (Lower::plain(board & !high), board & !self.fold(low))
    }
    fn nothing(&self, (low, high): (Lower<B>, B)) -> bool {
        low.is_nothing() && high.is_empty()
    }
    fn everything(&self, _: (Lower<B>, B)) -> bool {
        // Never claimed: a union is computed whole.
        false
    }

    fn constant(&mut self, value: i64) -> (i64, i64) {
        self.bounds.constant(value)
    }
    fn placement(&mut self) -> (i64, i64) {
        self.bounds.placement()
    }
    fn count(&mut self, (low, high): (Lower<B>, B)) -> (i64, i64) {
        let low = self.fold(low);
        self.bounds.count((low, high))
    }
    fn hand(&mut self, sides: SideRef, piece: Option<PieceId>) -> (i64, i64) {
        self.bounds.hand(sides, piece)
    }
    fn counter(&mut self, sides: SideRef, counter: usize) -> (i64, i64) {
        self.bounds.counter(sides, counter)
    }
    fn actions_this_turn(&mut self) -> (i64, i64) {
        self.bounds.actions_this_turn()
    }
    fn drops_this_turn(&mut self) -> (i64, i64) {
        self.bounds.drops_this_turn()
    }
    fn sum(&mut self, field: &Fld, (low, high): (Lower<B>, B)) -> (i64, i64) {
        let low = self.fold(low);
        self.bounds.sum(field, (low, high))
    }
    fn plus(&mut self, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
        self.bounds.plus(a, b)
    }
    fn minus(&mut self, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
        self.bounds.minus(a, b)
    }

    fn truth(&mut self, holds: bool) -> (bool, bool) {
        (holds, holds)
    }
    fn leave_action(&mut self) -> (bool, bool) {
        self.bounds.leave_action()
    }
    fn at_turn_start(&mut self, index: usize) -> (bool, bool) {
        self.bounds.at_turn_start(index)
    }
    fn can_act(&mut self) -> (bool, bool) {
        self.bounds.can_act()
    }
    fn can_act_without_promoting(&mut self) -> (bool, bool) {
        self.bounds.can_act_without_promoting()
    }
    fn compare(&mut self, a: (i64, i64), op: Comparison, b: (i64, i64)) -> (bool, bool) {
        self.bounds.compare(a, op, b)
    }
    fn some(&mut self, (low, high): (Lower<B>, B)) -> (bool, bool) {
        (low.certainly_some(self.rules, self.after), high.any())
    }
    fn hands_empty(&mut self) -> (bool, bool) {
        self.bounds.hands_empty()
    }
    fn placed(&mut self, sides: SideRef, piece: PieceId) -> (bool, bool) {
        self.bounds.placed(sides, piece)
    }
    fn passed(&mut self, sides: SideRef) -> (bool, bool) {
        self.bounds.passed(sides)
    }
    fn both(&mut self, a: (bool, bool), b: (bool, bool)) -> (bool, bool) {
        (a.0 && b.0, a.1 && b.1)
    }
    fn either(&mut self, a: (bool, bool), b: (bool, bool)) -> (bool, bool) {
        (a.0 || b.0, a.1 || b.1)
    }
    fn negation(&mut self, a: (bool, bool)) -> (bool, bool) {
        (!a.1, !a.0)
    }
    fn never(&self, truth: (bool, bool)) -> bool {
        truth == (false, false)
    }
    fn always(&self, truth: (bool, bool)) -> bool {
        truth == (true, true)
    }
    fn everywhere(&mut self, (certainly, possibly): (bool, bool)) -> (Lower<B>, B) {
        let board = self.rules.geometry().board;
        let all = |holds: bool| if holds { board } else { B::EMPTY };
        (Lower::plain(all(certainly)), all(possibly))
    }
}

#[cfg(test)]
mod tests {
    //! Every operation against the sets it bounds, drop square by drop square, on a board with
    //! holes (where the squares around a square are fewer than 8).
    use super::*;

    fn rules() -> Rules<u64> {
        let source = "game \"t\"\nboard 7x7 { holes a1 a2 g1 g2 a6 a7 g6 g7 }\n\
                      side white { forward up }\nside black { forward down }\nturns white black\n\
                      piece King { letter K; moves \"K\" }\n\
                      setup \"*5*/*5*/7/7/7/*5*/*5* w - - 0 1\"\n";
        let loaded = variant_dsl::load_source("t", source)
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        Rules::<u64>::compile(&loaded.definition).expect("compiles")
    }

    struct Seeded(u64);

    impl Seeded {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 11
        }

        /// A random subset of `within`, sparse or dense.
        fn squares(&mut self, within: u64) -> u64 {
            let density = self.next() % 4;
            let mut set = self.next() & self.next();
            if density >= 2 {
                set |= self.next();
            }
            if density == 3 {
                set = self.next() & self.next() & self.next();
            }
            set & within
        }

        fn lower(&mut self, within: u64) -> Lower<u64> {
            Lower {
                certain: self.squares(within),
                near: self.squares(within),
                with_drop: self.next().is_multiple_of(3),
                without_drop: self.next().is_multiple_of(3),
            }
        }
    }

    /// The set a bound says is there after a drop on `d`, from its definition.
    fn meaning(rules: &Rules<u64>, lower: Lower<u64>, d: usize) -> u64 {
        let square = 1u64 << d;
        let mut set =
            lower.certain | (rules.neighbours()[crate::core::index::Sq::new(d)] & lower.near);
        if lower.without_drop {
            set &= !square;
        }
        if lower.with_drop {
            set |= square;
        }
        set
    }

    fn after(drops: u64) -> After<u64> {
        After {
            drops,
            known: crate::expression::known_square(drops),
        }
    }

    #[test]
    fn operations_bound_the_sets_they_stand_for_at_every_drop() {
        let rules = rules();
        let board = rules.geometry().board;
        let mut seeded = Seeded(11);
        let mut proved = 0;
        for _ in 0..4000 {
            let (a, b) = (seeded.lower(board), seeded.lower(board));
            let upper = seeded.squares(board);
            let drops = match seeded.next() % 3 {
                0 => 1 << (seeded.next() % 64) & board,
                _ => seeded.squares(board),
            };
            if drops == 0 {
                continue;
            }
            let after = after(drops);
            let (a, b) = (a.settled(&rules, after), b.settled(&rules, after));
            let and = a.and(b);
            let or = a.or(b);
            let except = a.except(upper, after);
            let adjacent = a.adjacent(&rules, after);
            for d in (0..64).filter(|&d| drops >> d & 1 == 1) {
                let (sa, sb) = (meaning(&rules, a, d), meaning(&rules, b, d));
                // Never more than the truth; a union is exact but perhaps for the drop's square.
                assert_eq!(meaning(&rules, and, d) & !(sa & sb), 0);
                assert_eq!(meaning(&rules, or, d) & !(sa | sb), 0);
                assert_eq!(meaning(&rules, or, d) | 1 << d, sa | sb | 1 << d);
                assert_eq!(meaning(&rules, except, d) & !(sa & !upper), 0);
                let around_a = crate::expression::around(&rules, sa);
                assert_eq!(meaning(&rules, adjacent, d) & !around_a, 0);
                // Folding gives what holds at this drop, or at every drop.
                assert_eq!(a.fold(&rules, after) & !sa, 0);
                if after.known.any() {
                    assert_eq!(a.fold(&rules, after), sa);
                    assert_eq!(meaning(&rules, adjacent, d), around_a);
                }
            }
            // The closed answer against the question asked drop by drop.
            let every = (0..64)
                .filter(|&d| drops >> d & 1 == 1)
                .all(|d| meaning(&rules, a, d) != 0);
            assert_eq!(
                a.certainly_some(&rules, after),
                every,
                "{a:?} over {drops:x}"
            );
            proved += usize::from(every);
        }
        assert!(proved > 100, "the test reaches non-empty sets ({proved})");
    }

    #[test]
    fn the_squares_touching_a_drop_anywhere_are_never_none() {
        let rules = rules();
        let empty = rules.geometry().board;
        let after = after(empty);
        // The empty squares after the drop, and the squares around the pieces (the drop's).
        let empty_after = Lower {
            certain: empty,
            near: 0,
            with_drop: false,
            without_drop: true,
        };
        let occupied = Lower {
            certain: 0,
            near: 0,
            with_drop: true,
            without_drop: false,
        };
        let touching = empty_after.and(occupied.adjacent(&rules, after));
        assert!(touching.certainly_some(&rules, after));
        // As a plain bound, the same set is empty: no square is around every square.
        assert_eq!(touching.fold(&rules, after), 0);
    }
}
