//! One walk over the expression IR, many domains.
//!
//! A game's expressions are compiled once into one intermediate representation: the [`Set`],
//! [`Num`], [`Fld`] and [`Cond`] trees of [`crate::expression`]. They are evaluated in several
//! ways: concretely on one position ([`crate::expression::Judge`]), over intervals that hold
//! whatever drop the mover makes ([`crate::expression::Bounds`], for the lookahead's proof),
//! symbolically around that drop ([`crate::after_drop::Symbolic`]), folded per scalar state
//! ([`crate::plan`]), and compiled into registers ([`crate::program`]). Each of those is a [`Domain`]: what every
//! term means there, one method per term kind. The walk over the tree ([`set`], [`number`],
//! [`holds`], [`drop_mask`], [`move_mask`]) is written once, here, and is the same for every
//! domain; so a new term is one edit to the IR and one method per domain, and the walk's
//! shortcuts (an intersection stops at an empty operand) serve every domain alike.
//!
//! The walk is generic, not dynamic: each domain gets its own copy, compiled as its hand-written
//! walker was (move generation evaluates the concrete domain in its hot loop).
//!
//! The questions asked of an expression's shape rather than its value (which piece types it
//! names, whether it reads the legal actions, whether it reads only the scalar state a plan is
//! keyed by, what of that state) are tests of one [`Term`] each, over one traversal
//! ([`every_term`]).
//!
//! Compiling to register programs is a pass of the same walk ([`crate::program`]): a domain
//! whose values are registers emits one operation per term, and a second one, whose values are
//! pairs of registers, compiles the next side's bounds that a plan's program computes for the
//! lookahead's proof. The proof's other bounds are programs compiled by that pass and replayed
//! on the interval domain or on the symbolic one ([`crate::after_drop::Symbolic`]: what is
//! certain of a set after a drop on an unknown square, kept symbolic around the drop).

use crate::bitboard::Bitboard;
use crate::core::index::{BySide, PieceId};
// The shape questions' traversal is the IR's own; it is re-exported here, where the passes
// that ask them have always found it.
pub(crate) use crate::rules::ir::{each_term, every_term, Term};
use crate::rules::ir::{Cond, Fld, Num, Set};
use variant_dsl::expression::{Comparison, SideRef};

/// What each term of the expression IR means in one way of evaluating it.
///
/// Leaves are given their data; composite terms are given their operands' values, evaluated by
/// the walk. Values come in three sorts: sets of squares, numbers, and truths (a concrete
/// domain's bitboard, number and boolean; an interval domain's pairs of bounds).
pub(crate) trait Domain<B: Bitboard> {
    /// A set of squares.
    type Squares: Copy;
    /// A number.
    type Number: Copy;
    /// Whether a condition holds.
    type Truth: Copy;

    // --- Sets of squares -------------------------------------------------------------------

    /// `empty`: squares without a piece.
    fn empty(&mut self) -> Self::Squares;
    /// `occupied`: squares with a piece.
    fn occupied(&mut self) -> Self::Squares;
    /// A fixed set (`board`, `light`, `dark`, or what folding settled).
    fn fixed(&mut self, squares: B) -> Self::Squares;
    /// A zone, given per side.
    fn zone(&mut self, per_side: &BySide<B>) -> Self::Squares;
    /// The pieces of some sides, of one type or of all.
    fn pieces(&mut self, sides: SideRef, piece: Option<PieceId>) -> Self::Squares;
    /// The squares some sides control.
    fn controlled_by(&mut self, sides: SideRef) -> Self::Squares;
    /// The squares among `among` that some sides attack, as check sees it (`among` is what an
    /// intersection with the attacks already knows: the attacks need not be computed
    /// elsewhere).
    fn attacked_among(&mut self, sides: SideRef, among: Self::Squares) -> Self::Squares;
    /// The squares some sides attack, as check sees it.
    fn attacked_by(&mut self, sides: SideRef) -> Self::Squares;
    /// The squares of the last drops of some sides.
    fn last_drop(&mut self, sides: SideRef) -> Self::Squares;
    /// `legal drops`: where the side to move may drop.
    fn legal_drops(&mut self) -> Self::Squares;
    /// `acted`: the pieces that acted this turn.
    fn acted(&mut self) -> Self::Squares;
    /// The squares where a comparison of two fields holds.
    fn compare_fields(&mut self, a: &Fld, op: Comparison, b: &Fld) -> Self::Squares;
    /// The squares that movement `index` ([`crate::expression::Compiled::reach`]) reaches
    /// from the squares of `from` (given unevaluated: a domain that knows nothing of it after a
    /// drop need not evaluate it).
    fn reach(&mut self, from: &Set<B>, index: usize) -> Self::Squares;
    /// The squares around some square of a set.
    fn adjacent(&mut self, inner: Self::Squares) -> Self::Squares;
    /// Every square of a colour that a set has a square of.
    fn colour_of(&mut self, inner: Self::Squares) -> Self::Squares;
    /// Every square of a file that a set has a square on.
    fn file_of(&mut self, inner: Self::Squares) -> Self::Squares;
    /// Intersection.
    fn intersection(&mut self, a: Self::Squares, b: Self::Squares) -> Self::Squares;
    /// Union.
    fn union(&mut self, a: Self::Squares, b: Self::Squares) -> Self::Squares;
    /// Difference.
    fn difference(&mut self, a: Self::Squares, b: Self::Squares) -> Self::Squares;
    /// Complement within the board.
    fn complement(&mut self, a: Self::Squares) -> Self::Squares;
    /// Whether a set is certainly empty (the walk then skips what it would intersect).
    fn nothing(&self, squares: Self::Squares) -> bool;
    /// Whether a set is certainly the whole board (the walk then skips what it would add).
    fn everything(&self, squares: Self::Squares) -> bool;

    // --- Numbers ---------------------------------------------------------------------------

    /// A constant.
    fn constant(&mut self, value: i64) -> Self::Number;
    /// `placement`: the number of the judged side's next drop.
    fn placement(&mut self) -> Self::Number;
    /// The number of squares in a set.
    fn count(&mut self, squares: Self::Squares) -> Self::Number;
    /// The pieces some sides hold in hand, of one type or of all.
    fn hand(&mut self, sides: SideRef, piece: Option<PieceId>) -> Self::Number;
    /// A counter's value, added up over some sides (`opponent checks`).
    fn counter(&mut self, sides: SideRef, counter: usize) -> Self::Number;
    /// `actions this turn`.
    fn actions_this_turn(&mut self) -> Self::Number;
    /// `drops this turn`.
    fn drops_this_turn(&mut self) -> Self::Number;
    /// A field added up over a set.
    fn sum(&mut self, field: &Fld, squares: Self::Squares) -> Self::Number;
    /// Addition.
    fn plus(&mut self, a: Self::Number, b: Self::Number) -> Self::Number;
    /// Subtraction.
    fn minus(&mut self, a: Self::Number, b: Self::Number) -> Self::Number;

    // --- Conditions ------------------------------------------------------------------------

    /// A truth known without the position (`true`, `false`, and the terms that speak of a
    /// dropped or moving piece, judged where no piece drops or moves: they do not hold).
    fn truth(&mut self, holds: bool) -> Self::Truth;
    /// `leave an action`, judged as a condition.
    fn leave_action(&mut self) -> Self::Truth;
    /// An `at turn start` condition, by index.
    fn at_turn_start(&mut self, index: usize) -> Self::Truth;
    /// `can act`: the side to move has a legal action.
    fn can_act(&mut self) -> Self::Truth;
    /// `can act without promoting`: the side to move has a legal action that is not a
    /// promotion.
    fn can_act_without_promoting(&mut self) -> Self::Truth;
    /// Two numbers compared.
    fn compare(&mut self, a: Self::Number, op: Comparison, b: Self::Number) -> Self::Truth;
    /// A set is not empty.
    fn some(&mut self, squares: Self::Squares) -> Self::Truth;
    /// No side holds a piece in hand.
    fn hands_empty(&mut self) -> Self::Truth;
    /// Some side's last action dropped this type.
    fn placed(&mut self, sides: SideRef, piece: PieceId) -> Self::Truth;
    /// Some side's last action was a pass.
    fn passed(&mut self, sides: SideRef) -> Self::Truth;
    /// Both.
    fn both(&mut self, a: Self::Truth, b: Self::Truth) -> Self::Truth;
    /// Either.
    fn either(&mut self, a: Self::Truth, b: Self::Truth) -> Self::Truth;
    /// Not.
    fn negation(&mut self, a: Self::Truth) -> Self::Truth;
    /// Whether a truth certainly does not hold (the walk then skips the rest of a `and`).
    fn never(&self, truth: Self::Truth) -> bool;
    /// Whether a truth certainly holds (the walk then skips the rest of an `or`).
    fn always(&self, truth: Self::Truth) -> bool;
    /// Every square of the board where a truth holds, none where it does not.
    fn everywhere(&mut self, truth: Self::Truth) -> Self::Squares;
}

/// A domain whose values may be exact: what folding per scalar state keeps ([`crate::plan`]),
/// a value the domain settles (the concrete domain always, the interval one where its bounds
/// meet).
pub(crate) trait Settles<B: Bitboard>: Domain<B> {
    /// The set, where the domain settles it.
    fn settled_squares(squares: Self::Squares) -> Option<B>;
    /// The number, where the domain settles it.
    fn settled_number(number: Self::Number) -> Option<i64>;
    /// The truth, where the domain settles it.
    fn settled_truth(truth: Self::Truth) -> Option<bool>;
}

/// The value of a set in domain `D`.
#[inline]
pub(crate) fn set<B: Bitboard, D: Domain<B>>(domain: &mut D, set_term: &Set<B>) -> D::Squares {
    match set_term {
        Set::Empty => domain.empty(),
        Set::Occupied => domain.occupied(),
        Set::Fixed(squares) => domain.fixed(*squares),
        Set::Zone(per_side) => domain.zone(per_side),
        Set::Pieces(sides, piece) => domain.pieces(*sides, *piece),
        Set::ControlledBy(sides) => domain.controlled_by(*sides),
        Set::AttackedBy(sides) => domain.attacked_by(*sides),
        Set::LastDrop(sides) => domain.last_drop(*sides),
        Set::LegalDrops => domain.legal_drops(),
        Set::Acted => domain.acted(),
        Set::Compare(a, op, b) => domain.compare_fields(a, *op, b),
        Set::Reach(from, index) => domain.reach(from, *index),
        Set::Adjacent(inner) => {
            let inner = set(domain, inner);
            domain.adjacent(inner)
        }
        Set::ColourOf(inner) => {
            let inner = set(domain, inner);
            domain.colour_of(inner)
        }
        Set::FileOf(inner) => {
            let inner = set(domain, inner);
            domain.file_of(inner)
        }
        Set::And(a, b) => {
            let a = set(domain, a);
            if domain.nothing(a) {
                return a;
            }
            // `own King and attacked by opponent`: only the squares that count are tested.
            match &**b {
                Set::AttackedBy(sides) => domain.attacked_among(*sides, a),
                other => {
                    let b = set(domain, other);
                    domain.intersection(a, b)
                }
            }
        }
        Set::Or(a, b) => {
            let a = set(domain, a);
            let b = set(domain, b);
            domain.union(a, b)
        }
        Set::Except(a, b) => {
            let a = set(domain, a);
            if domain.nothing(a) {
                return a;
            }
            // `own Lion and last rank except attacked by opponent`: only the squares that could
            // be taken away are tested.
            let b = match &**b {
                Set::AttackedBy(sides) => domain.attacked_among(*sides, a),
                other => set(domain, other),
            };
            domain.difference(a, b)
        }
        Set::Not(a) => {
            let a = set(domain, a);
            domain.complement(a)
        }
    }
}

/// The value of a number in domain `D`.
#[inline]
pub(crate) fn number<B: Bitboard, D: Domain<B>>(domain: &mut D, number_term: &Num<B>) -> D::Number {
    match number_term {
        Num::Constant(value) => domain.constant(*value),
        Num::Placement => domain.placement(),
        Num::Count(squares) => {
            let squares = set(domain, squares);
            domain.count(squares)
        }
        Num::Hand(sides, piece) => domain.hand(*sides, *piece),
        Num::Counter(sides, counter) => domain.counter(*sides, *counter),
        Num::ActionsThisTurn => domain.actions_this_turn(),
        Num::DropsThisTurn => domain.drops_this_turn(),
        Num::Sum(field, squares) => {
            let squares = set(domain, squares);
            domain.sum(field, squares)
        }
        Num::Plus(a, b) => {
            let a = number(domain, a);
            let b = number(domain, b);
            domain.plus(a, b)
        }
        Num::Minus(a, b) => {
            let a = number(domain, a);
            let b = number(domain, b);
            domain.minus(a, b)
        }
    }
}

/// Whether a condition holds in domain `D`, judged where no piece drops or moves (the terms
/// that speak of one do not hold: [`drop_mask`] and [`move_mask`] judge those).
#[inline]
pub(crate) fn holds<B: Bitboard, D: Domain<B>>(domain: &mut D, condition: &Cond<B>) -> D::Truth {
    match condition {
        Cond::True => domain.truth(true),
        Cond::False => domain.truth(false),
        // Only drop rules speak of the dropped piece, only move rules of the moving piece.
        Cond::Place(_) | Cond::PlaceOn(_) | Cond::Move(_) | Cond::MoveFrom(_) => {
            domain.truth(false)
        }
        Cond::LeaveAction => domain.leave_action(),
        Cond::AtTurnStart(index) => domain.at_turn_start(*index),
        Cond::CanAct => domain.can_act(),
        Cond::CanActWithoutPromoting => domain.can_act_without_promoting(),
        Cond::Compare(a, op, b) => {
            let a = number(domain, a);
            let b = number(domain, b);
            domain.compare(a, *op, b)
        }
        Cond::Some(squares) => {
            let squares = set(domain, squares);
            domain.some(squares)
        }
        Cond::HandsEmpty => domain.hands_empty(),
        Cond::Placed(sides, piece) => domain.placed(*sides, *piece),
        Cond::Passed(sides) => domain.passed(*sides),
        Cond::And(a, b) => {
            let a = holds(domain, a);
            if domain.never(a) {
                return a;
            }
            let b = holds(domain, b);
            domain.both(a, b)
        }
        Cond::Or(a, b) => {
            let a = holds(domain, a);
            if domain.always(a) {
                return a;
            }
            let b = holds(domain, b);
            domain.either(a, b)
        }
        Cond::Not(a) => {
            let a = holds(domain, a);
            domain.negation(a)
        }
    }
}

/// What a piece does that a condition may speak of: dropped (`place`, `place on`) or moved
/// (`move`, `move from`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    Drop,
    Move,
}

/// The squares where a condition holds in domain `D` for a drop of `piece` there.
#[inline]
pub(crate) fn drop_mask<B: Bitboard, D: Domain<B>>(
    domain: &mut D,
    condition: &Cond<B>,
    piece: PieceId,
) -> D::Squares {
    mask(domain, condition, piece, Action::Drop)
}

/// The squares from which a piece of type `piece` moving from there meets a condition, in
/// domain `D`.
#[inline]
pub(crate) fn move_mask<B: Bitboard, D: Domain<B>>(
    domain: &mut D,
    condition: &Cond<B>,
    piece: PieceId,
) -> D::Squares {
    mask(domain, condition, piece, Action::Move)
}

/// [`drop_mask`] and [`move_mask`]: the terms of the other action never hold.
#[inline]
fn mask<B: Bitboard, D: Domain<B>>(
    domain: &mut D,
    condition: &Cond<B>,
    piece: PieceId,
    action: Action,
) -> D::Squares {
    match (condition, action) {
        (Cond::Place(named), Action::Drop) | (Cond::Move(named), Action::Move) => {
            let truth = domain.truth(*named == piece);
            domain.everywhere(truth)
        }
        (Cond::PlaceOn(squares), Action::Drop) | (Cond::MoveFrom(squares), Action::Move) => {
            set(domain, squares)
        }
        (Cond::And(a, b), _) => {
            let a = mask(domain, a, piece, action);
            if domain.nothing(a) {
                return a;
            }
            let b = mask(domain, b, piece, action);
            domain.intersection(a, b)
        }
        (Cond::Or(a, b), _) => {
            let a = mask(domain, a, piece, action);
            if domain.everything(a) {
                return a;
            }
            let b = mask(domain, b, piece, action);
            domain.union(a, b)
        }
        (Cond::Not(a), _) => {
            let a = mask(domain, a, piece, action);
            domain.complement(a)
        }
        (other, _) => {
            let truth = holds(domain, other);
            domain.everywhere(truth)
        }
    }
}

#[cfg(test)]
mod tests {
    //! Each term of the IR in each domain, against the concrete evaluation, on positions of
    //! random games: the interval domain ([`crate::expression::Bounds`]) bounds the concrete
    //! value after every drop the mover could make, and the concrete domain's composite terms
    //! are what their definitions say of their operands' values (the walk's shortcuts change
    //! nothing). Before, only the differential tests of whole rules covered them.
    use super::*;
    use crate::after_drop::{After, Symbolic};
    use crate::core::index::{pieces, PieceId, Sq};
    use crate::expression::{reply_side, Bounds, Judge};
    use crate::moves::Move;
    use crate::position::Position;
    use crate::program::{Program, Replay, TestTerm, TestValue};
    use crate::rules::Rules;
    use proptest::prelude::*;
    use std::sync::OnceLock;
    use variant_dsl::SideId;

    /// A term of any sort.
    #[derive(Clone, Debug)]
    enum Term {
        Set(Set<u64>),
        Num(Num<u64>),
        Cond(Cond<u64>),
    }

    /// A game's file name, rules and start.
    type Game = (String, Rules<u64>, Position<u64>);

    /// The games the terms are judged on: those with drops whose board fits 64 bits, with the
    /// test variant written to use every term.
    fn games() -> &'static [Game] {
        static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
        GAMES.get_or_init(|| {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
            let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
            let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(root.join("games"))
                .expect("games/")
                .map(|entry| entry.expect("an entry").path())
                .filter(|path| path.extension().is_some_and(|e| e == "variant"))
                .collect();
            files.sort();
            files.push(root.join("tests/variants/drop-terms.variant"));
            files
                .into_iter()
                .filter_map(|path| {
                    let loaded = variant_dsl::load_file_with(&path, &options)
                        .unwrap_or_else(|failure| panic!("{}", failure.render()));
                    let board = &loaded.definition.board;
                    let fits = board.files as usize * board.ranks as usize <= 64;
                    if !loaded.definition.actions.drops || !fits {
                        return None;
                    }
                    let rules = Rules::<u64>::compile(&loaded.definition).expect("compiles");
                    let start =
                        Position::from_setup(&rules, &loaded.definition.setup).expect("opens");
                    Some((path.display().to_string(), rules, start))
                })
                .collect()
        })
    }

    /// Every leaf set, with each side reference and piece type.
    fn leaf_sets(rules: &Rules<u64>) -> Vec<Set<u64>> {
        let board = rules.geometry().board;
        let references = [
            SideRef::Own,
            SideRef::Opponents,
            SideRef::Team,
            SideRef::Any,
            SideRef::Next,
            SideRef::Side(SideId(0)),
            SideRef::Side(SideId(1)),
        ];
        let mut sets = vec![
            Set::Empty,
            Set::Occupied,
            Set::Fixed(board & rules.geometry().light),
            Set::Zone(Box::new(BySide::from_fn(|side| match side.0 {
                0 => board & 0xFFFF,
                1 => board & 0xFFFF << 48,
                _ => 0,
            }))),
            Set::LegalDrops,
            Set::Acted,
            Set::Compare(
                Fld::Controllers(SideRef::Own),
                Comparison::Less,
                Fld::Minus(
                    Box::new(Fld::ControlValue(SideRef::Opponents)),
                    Box::new(Fld::Constant(1)),
                ),
            ),
        ];
        for reference in references {
            sets.push(Set::Pieces(reference, None));
            sets.extend(pieces(rules.pieces()).map(|piece| Set::Pieces(reference, Some(piece))));
            sets.push(Set::ControlledBy(reference));
            sets.push(Set::AttackedBy(reference));
            sets.push(Set::LastDrop(reference));
        }
        sets
    }

    /// Every term kind, leaves and composites of leaves.
    fn terms(rules: &Rules<u64>) -> Vec<Term> {
        let leaves = leaf_sets(rules);
        let boxed = |set: &Set<u64>| Box::new(set.clone());
        let mut sets = leaves.clone();
        for (index, a) in leaves.iter().enumerate() {
            let b = &leaves[(index * 7 + 3) % leaves.len()];
            sets.push(Set::Adjacent(boxed(a)));
            sets.push(Set::ColourOf(boxed(a)));
            sets.push(Set::FileOf(boxed(a)));
            sets.push(Set::Not(boxed(a)));
            sets.push(Set::And(boxed(a), boxed(b)));
            sets.push(Set::Or(boxed(a), boxed(b)));
            sets.push(Set::Except(boxed(a), boxed(b)));
            sets.push(Set::And(
                boxed(a),
                Box::new(Set::AttackedBy(SideRef::Opponents)),
            ));
        }
        let mut numbers = vec![
            Num::Constant(3),
            Num::Placement,
            Num::ActionsThisTurn,
            Num::DropsThisTurn,
        ];
        for reference in [
            SideRef::Own,
            SideRef::Opponents,
            SideRef::Any,
            SideRef::Next,
        ] {
            numbers.push(Num::Hand(reference, None));
            numbers.extend(pieces(rules.pieces()).map(|piece| Num::Hand(reference, Some(piece))));
        }
        for set in &leaves {
            numbers.push(Num::Count(boxed(set)));
            numbers.push(Num::Sum(Fld::Controllers(SideRef::Opponents), boxed(set)));
        }
        let count = |set: Set<u64>| Box::new(Num::Count(Box::new(set)));
        let hand = Box::new(Num::Hand(SideRef::Own, None));
        numbers.push(Num::Plus(count(Set::Empty), hand.clone()));
        numbers.push(Num::Minus(count(Set::Occupied), hand.clone()));
        let mut conditions = vec![
            Cond::True,
            Cond::False,
            Cond::LeaveAction,
            Cond::AtTurnStart(0),
            Cond::CanAct,
            Cond::CanActWithoutPromoting,
            Cond::HandsEmpty,
        ];
        for reference in [
            SideRef::Own,
            SideRef::Opponents,
            SideRef::Any,
            SideRef::Next,
        ] {
            conditions.extend(pieces(rules.pieces()).map(|piece| Cond::Placed(reference, piece)));
        }
        conditions.extend(leaves.iter().map(|set| Cond::Some(set.clone())));
        let operators = [
            Comparison::Equal,
            Comparison::NotEqual,
            Comparison::Less,
            Comparison::LessOrEqual,
            Comparison::Greater,
            Comparison::GreaterOrEqual,
        ];
        for (index, a) in numbers.iter().enumerate() {
            let b = &numbers[(index * 5 + 1) % numbers.len()];
            conditions.push(Cond::Compare(a.clone(), operators[index % 6], b.clone()));
        }
        let simple = conditions.clone();
        for (index, a) in simple.iter().enumerate() {
            let b = &simple[(index * 3 + 2) % simple.len()];
            conditions.push(Cond::And(Box::new(a.clone()), Box::new(b.clone())));
            conditions.push(Cond::Or(Box::new(a.clone()), Box::new(b.clone())));
            conditions.push(Cond::Not(Box::new(a.clone())));
        }
        // What only a drop rule reads.
        for piece in pieces(rules.pieces()) {
            conditions.push(Cond::Place(piece));
        }
        for set in leaves.iter().take(12) {
            conditions.push(Cond::PlaceOn(set.clone()));
            conditions.push(Cond::And(
                Box::new(Cond::PlaceOn(set.clone())),
                Box::new(Cond::Place(PieceId::new(0))),
            ));
        }
        sets.into_iter()
            .map(Term::Set)
            .chain(numbers.into_iter().map(Term::Num))
            .chain(conditions.into_iter().map(Term::Cond))
            .collect()
    }

    /// The position `plies` random plies (from `seed`) into a game, or earlier where it ends.
    fn random_position(
        rules: &Rules<u64>,
        start: &Position<u64>,
        mut seed: u64,
        plies: usize,
    ) -> Position<u64> {
        let mut position = *start;
        let mut history = Vec::new();
        for _ in 0..plies {
            if crate::outcome::outcome(rules, &position, &history).is_some() {
                break;
            }
            let moves = crate::legal::legal_moves(rules, &position);
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            history.push(position.hash());
            position.play_unchecked(rules, moves[(seed >> 33) as usize % moves.len()]);
        }
        position
    }

    /// A random position of a game (see [`random_position`]) and a drop its mover could make
    /// there, played: what the drop tests judge.
    struct Dropped {
        position: Position<u64>,
        played: Position<u64>,
        /// The side that replies to the drop.
        next: SideId,
        mover: SideId,
        /// The empty squares before the drop.
        empty: u64,
        to: Sq,
        dropped: PieceId,
    }

    /// [`Dropped`] from `seed`, `plies` and `pick` (the square, then the piece type); `None`
    /// where no side replies, no square is empty or the mover holds nothing.
    fn random_drop(
        rules: &Rules<u64>,
        start: &Position<u64>,
        seed: u64,
        plies: usize,
        pick: u32,
    ) -> Option<Dropped> {
        let position = random_position(rules, start, seed, plies);
        let next = reply_side(rules, &position)?;
        let mover = position.side_to_move(rules);
        let empty = rules.geometry().board & !position.occupied();
        let held: Vec<PieceId> = pieces(rules.pieces())
            .filter(|&p| position.hand(mover, p) > 0)
            .collect();
        if empty == 0 || held.is_empty() {
            return None;
        }
        let squares: Vec<Sq> = empty.squares().collect();
        let to = squares[pick as usize % squares.len()];
        let dropped = held[(pick >> 16) as usize % held.len()];
        let mut played = position;
        played.play_unchecked(rules, Move::drop(dropped, to));
        Some(Dropped {
            position,
            played,
            next,
            mover,
            empty,
            to,
            dropped,
        })
    }

    /// Whether the concrete value of `term` for `next` after the drop is within the interval
    /// `bounds` gives it before the drop.
    fn within(bounds: &mut Bounds<'_, u64>, after: &mut Judge<'_, u64>, term: &Term) -> bool {
        let board = after.rules().geometry().board;
        match term {
            Term::Set(set) => {
                let (low, high) = super::set(bounds, set);
                let value = after.set(set);
                (low & board) & !value == 0 && value & board & !high == 0
            }
            Term::Num(number) => {
                let (low, high) = super::number(bounds, number);
                let value = after.number(number);
                low <= value && value <= high
            }
            Term::Cond(condition) => {
                let (certainly, possibly) = super::holds(bounds, condition);
                let value = after.holds(condition);
                (!certainly || value) && (!value || possibly)
            }
        }
    }

    /// The concrete domain's composite terms against their definitions, on operands' values
    /// evaluated on their own.
    fn defined(judge: &mut Judge<'_, u64>, term: &Term) -> bool {
        let rules = judge.rules();
        let board = rules.geometry().board;
        match term {
            Term::Set(set) => {
                let value = judge.set(set);
                let expected = match set {
                    Set::Adjacent(a) => judge
                        .set(a)
                        .squares()
                        .fold(0, |acc, square| acc | rules.neighbours()[square]),
                    Set::ColourOf(a) => {
                        let a = judge.set(a);
                        let light = board & rules.geometry().light;
                        let dark = board & !light;
                        (if a & light != 0 { light } else { 0 })
                            | (if a & dark != 0 { dark } else { 0 })
                    }
                    Set::FileOf(a) => {
                        let a = judge.set(a);
                        let files = rules.geometry().files;
                        let columns: Vec<usize> = a.squares().map(|s| s.index() % files).collect();
                        (0..rules.geometry().grid_size())
                            .filter(|s| columns.contains(&(s % files)))
                            .fold(0, |acc, s| acc | 1 << s)
                            & board
                    }
                    Set::Not(a) => board & !judge.set(a),
                    Set::And(a, b) => judge.set(a) & judge.set(b),
                    Set::Or(a, b) => judge.set(a) | judge.set(b),
                    Set::Except(a, b) => judge.set(a) & !judge.set(b),
                    Set::Empty => board & !judge.position().occupied(),
                    _ => value,
                };
                value == expected
            }
            Term::Num(number) => {
                let value = judge.number(number);
                let expected = match number {
                    Num::Count(a) => i64::from(judge.set(a).count_ones()),
                    Num::Plus(a, b) => judge.number(a) + judge.number(b),
                    Num::Minus(a, b) => judge.number(a) - judge.number(b),
                    _ => value,
                };
                value == expected
            }
            Term::Cond(condition) => {
                let value = judge.holds(condition);
                let expected = match condition {
                    Cond::And(a, b) => judge.holds(a) & judge.holds(b),
                    Cond::Or(a, b) => judge.holds(a) | judge.holds(b),
                    Cond::Not(a) => !judge.holds(a),
                    Cond::Some(a) => judge.set(a) != 0,
                    Cond::Compare(a, op, b) => op.holds(judge.number(a), judge.number(b)),
                    Cond::True => true,
                    Cond::False | Cond::Place(_) | Cond::PlaceOn(_) => false,
                    _ => value,
                };
                value == expected
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// The interval domain bounds every term's concrete value after the mover's drop, over
        /// all empty squares and over the dropped square alone, drop masks included.
        #[test]
        fn bounds_hold_every_term_s_value_after_each_drop(
            game in 0usize..5,
            seed in any::<u64>(),
            plies in 0usize..40,
            pick in any::<u32>(),
        ) {
            let (name, rules, start) = &games()[game];
            let Some(Dropped { position, played, next, empty, to, dropped, .. }) =
                random_drop(rules, start, seed, plies, pick)
            else {
                return Ok(());
            };
            let terms = terms(rules);
            for drops in [empty, u64::single(to)] {
                let mut bounds = Bounds::after(rules, &position, next, drops);
                let mut after = Judge::new(rules, &played, next);
                for term in &terms {
                    prop_assert!(
                        within(&mut bounds, &mut after, term),
                        "{}: {:?} after {:?} on {} (drops {:#x})", name, term, dropped, to, drops
                    );
                }
                for piece in pieces(rules.pieces()) {
                    for term in &terms {
                        let Term::Cond(condition) = term else { continue };
                        let (low, high) = bounds.drop_mask(condition, piece);
                        let value = after.drop_mask(condition, piece);
                        let board = rules.geometry().board;
                        prop_assert!(
                            low & board & !value == 0 && value & board & !high == 0,
                            "{}: drop mask {:?} of {:?}", name, condition, piece
                        );
                    }
                }
            }
        }

        /// The concrete domain's composite terms are their definitions over their operands,
        /// whatever shortcut the walk takes; and its drop and move masks read `place` and
        /// `move` of the piece given.
        #[test]
        fn concrete_composites_are_their_definitions(
            game in 0usize..5,
            seed in any::<u64>(),
            plies in 0usize..40,
        ) {
            let (name, rules, start) = &games()[game];
            let position = random_position(rules, start, seed, plies);
            let side = position.side_to_move(rules);
            let mut judge = Judge::new(rules, &position, side);
            let board = rules.geometry().board;
            for term in &terms(rules) {
                prop_assert!(defined(&mut judge, term), "{}: {:?}", name, term);
                if let Term::Cond(condition) = term {
                    for piece in pieces(rules.pieces()) {
                        let mask = judge.drop_mask(condition, piece);
                        let expected = match condition {
                            Cond::Place(named) => if *named == piece { board } else { 0 },
                            Cond::PlaceOn(set) => judge.set(set),
                            Cond::And(..) | Cond::Or(..) | Cond::Not(..) => mask,
                            other => if judge.holds(other) { board } else { 0 },
                        };
                        prop_assert_eq!(mask, expected, "{}: {:?}", name, condition);
                        let moved = judge.move_mask(condition, piece);
                        let expected = match condition {
                            Cond::Place(_) | Cond::PlaceOn(_) => 0,
                            Cond::And(..) | Cond::Or(..) | Cond::Not(..) => moved,
                            other => if judge.holds(other) { board } else { 0 },
                        };
                        prop_assert_eq!(moved, expected, "{}: {:?}", name, condition);
                    }
                }
            }
        }

        /// The domain of registers ([`crate::program`]): every term compiled into a program on a
        /// position's scalar state, run on that position, gives its concrete value; drop masks
        /// too, for each piece type and for a type no rule names.
        #[test]
        fn registers_hold_every_term_s_concrete_value(
            game in 0usize..5,
            seed in any::<u64>(),
            plies in 0usize..40,
        ) {
            let (name, rules, start) = &games()[game];
            let position = random_position(rules, start, seed, plies);
            let side = position.side_to_move(rules);
            let board = rules.geometry().board;
            let mut judge = Judge::new(rules, &position, side);
            let compiled = |term: TestTerm<'_, u64>| {
                Program::for_term(rules, &position, side, term).expect("fits in a program")
            };
            let squares = |judge: &mut Judge<'_, u64>, (program, value): (Program<u64>, TestValue)| {
                match value {
                    TestValue::Squares(register) => program.value_of(judge, register),
                    TestValue::Number(_) => unreachable!("a set or a truth"),
                }
            };
            for term in &terms(rules) {
                match term {
                    Term::Set(set) => {
                        let value = squares(&mut judge, compiled(TestTerm::Set(set)));
                        prop_assert_eq!(value, judge.set(set), "{}: {:?}", name, set);
                    }
                    Term::Num(number) => {
                        let (program, value) = compiled(TestTerm::Number(number));
                        let TestValue::Number(register) = value else {
                            unreachable!("a number")
                        };
                        let value = program.number_of(&mut judge, register);
                        prop_assert_eq!(value, judge.number(number), "{}: {:?}", name, number);
                    }
                    Term::Cond(condition) => {
                        let value = squares(&mut judge, compiled(TestTerm::Holds(condition)));
                        let expected = if judge.holds(condition) { board } else { 0 };
                        prop_assert_eq!(value, expected, "{}: {:?}", name, condition);
                        // Replayed on the concrete domain, as the proof replays it on bounds.
                        let replay = Replay::compile(rules, &position, side, condition)
                            .expect("fits in a program");
                        let other = crate::expression::OTHER_PIECE;
                        prop_assert_eq!(
                            replay.run(&mut judge), judge.drop_mask(condition, other),
                            "{}: replayed {:?}", name, condition
                        );
                        for piece in pieces(rules.pieces()).chain([other]) {
                            let term = TestTerm::DropMask(condition, piece);
                            let value = squares(&mut judge, compiled(term));
                            let expected = judge.drop_mask(condition, piece);
                            prop_assert_eq!(value, expected, "{}: {:?} of {:?}", name, condition, piece);
                        }
                    }
                }
            }
        }

        /// The domain of pairs of registers over the mover's drop ([`crate::program`], the
        /// next side's bounds that a plan's program computes): every term it compiles is
        /// bounded by its pair after each drop the mover could make, and the pair is never
        /// tighter than the interval domain's over every empty square.
        #[test]
        fn reply_registers_bound_every_term_after_each_drop(
            game in 0usize..5,
            seed in any::<u64>(),
            plies in 0usize..40,
            pick in any::<u32>(),
        ) {
            let (name, rules, start) = &games()[game];
            let Some(Dropped { position, played, next, mover, .. }) =
                random_drop(rules, start, seed, plies, pick)
            else {
                return Ok(());
            };
            let board = rules.geometry().board;
            let mut after = Judge::new(rules, &played, next);
            let mut bounds = Bounds::new(rules, &position, next);
            let mut before = Judge::new(rules, &position, mover);
            let mut compiled = 0;
            let mut check = |term: TestTerm<'_, u64>, value: u64, (low, high): (u64, u64)| {
                let Some((program, (lower, upper))) =
                    Program::for_reply_bounds(rules, &position, next, term)
                else {
                    return Ok(());
                };
                compiled += 1;
                let registers = program.registers_after(&mut before);
                let (lower, upper) =
                    (registers[usize::from(lower)] & board, registers[usize::from(upper)] & board);
                prop_assert!(lower & !value == 0 && value & !upper == 0, "{} ({:#x})", name, value);
                prop_assert!(lower & !low == 0 && high & board & !upper == 0, "{}: tighter", name);
                Ok(())
            };
            for term in &terms(rules) {
                match term {
                    Term::Set(set) => {
                        let value = after.set(set);
                        let pair = super::set(&mut bounds, set);
                        check(TestTerm::Set(set), value & board, pair)
                            .map_err(|e| TestCaseError::fail(format!("{e} {set:?}")))?;
                    }
                    Term::Num(_) => {}
                    Term::Cond(condition) => {
                        let all = |holds: bool| if holds { board } else { 0 };
                        let value = all(after.holds(condition));
                        let (certainly, possibly) = super::holds(&mut bounds, condition);
                        check(TestTerm::Holds(condition), value, (all(certainly), all(possibly)))
                            .map_err(|e| TestCaseError::fail(format!("{e} {condition:?}")))?;
                        for piece in pieces(rules.pieces()) {
                            let value = after.drop_mask(condition, piece);
                            let pair = bounds.drop_mask(condition, piece);
                            check(TestTerm::DropMask(condition, piece), value, pair)
                                .map_err(|e| TestCaseError::fail(format!("{e} {condition:?} of {piece:?}")))?;
                        }
                    }
                }
            }
            prop_assert!(compiled > 0, "{}: no term compiled", name);
        }

        /// The symbolic domain ([`crate::after_drop`]): every term's symbolic lower bound, read
        /// at the square the mover dropped on, and its upper bound, hold the term's concrete
        /// value after that drop, over all empty squares and over that square alone; its
        /// truths too, and its drop masks.
        #[test]
        fn symbolic_bounds_hold_every_term_s_value_after_each_drop(
            game in 0usize..5,
            seed in any::<u64>(),
            plies in 0usize..40,
            pick in any::<u32>(),
        ) {
            let (name, rules, start) = &games()[game];
            let Some(Dropped { position, played, next, empty, to, dropped, .. }) =
                random_drop(rules, start, seed, plies, pick)
            else {
                return Ok(());
            };
            let board = rules.geometry().board;
            let mut after = Judge::new(rules, &played, next);
            let at_drop = After { drops: u64::single(to), known: u64::single(to) };
            let terms = terms(rules);
            for drops in [empty, u64::single(to)] {
                let over = After { drops, known: crate::expression::known_square(drops) };
                let mut symbolic = Symbolic::new(rules, &position, next, over);
                let within = |(low, high): (crate::after_drop::Lower<u64>, u64), value: u64| {
                    let low = low.fold(rules, at_drop) & board;
                    low & !value == 0 && value & board & !high == 0
                };
                for term in &terms {
                    match term {
                        Term::Set(set) => {
                            let value = after.set(set);
                            prop_assert!(
                                within(super::set(&mut symbolic, set), value),
                                "{}: {:?} after {:?} on {}", name, set, dropped, to
                            );
                        }
                        Term::Num(number) => {
                            let (low, high) = super::number(&mut symbolic, number);
                            let value = after.number(number);
                            prop_assert!(low <= value && value <= high, "{}: {:?}", name, number);
                        }
                        Term::Cond(condition) => {
                            let (certainly, possibly) = super::holds(&mut symbolic, condition);
                            let value = after.holds(condition);
                            prop_assert!(
                                (!certainly || value) && (!value || possibly),
                                "{}: {:?} after {:?} on {}", name, condition, dropped, to
                            );
                            for piece in pieces(rules.pieces()) {
                                let mask = super::drop_mask(&mut symbolic, condition, piece);
                                let value = after.drop_mask(condition, piece);
                                prop_assert!(
                                    within(mask, value),
                                    "{}: drop mask {:?} of {:?}", name, condition, piece
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
