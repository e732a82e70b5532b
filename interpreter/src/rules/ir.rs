//! The expression IR: a game's drop rules, move rules, scores and end conditions, compiled once
//! when the game loads into the [`Set`], [`Num`], [`Fld`] and [`Cond`] trees (zones become
//! bitboards per side, piece and side names become indices), and the one traversal of the
//! questions asked of an expression's shape rather than its value ([`every_term`]).
//!
//! This is the bottom of the rules layer: the IR reads only the core's geometry and the
//! definition. Evaluating it is the business of the files above: the walk of each domain
//! ([`crate::domain`]), the concrete judge and the interval bounds ([`crate::expression`]), the
//! plans ([`crate::plan`]).

use crate::bitboard::Bitboard;
use crate::core::index::{ByPiece, BySide, PieceId, SideId};
use variant_dsl::expression::{
    Comparison, Condition, Field, Number, SideRef, SquareConstant, Squares,
};
use variant_dsl::Definition;
/// A compiled set of squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Set<B> {
    /// Squares without a piece.
    Empty,
    /// Squares with a piece.
    Occupied,
    /// A fixed set (`board`, `light`, `dark`).
    Fixed(B),
    /// A zone, per side judged for (boxed: a table of bitboards per side would make every
    /// set as large as itself).
    Zone(Box<BySide<B>>),
    /// Pieces of some sides, of one type or all.
    Pieces(SideRef, Option<PieceId>),
    /// Control of some sides.
    ControlledBy(SideRef),
    /// Attacks of some sides, as check sees them.
    AttackedBy(SideRef),
    /// The last drop of some sides.
    LastDrop(SideRef),
    /// Where the side to move may drop.
    LegalDrops,
    /// The pieces that acted this turn.
    Acted,
    /// The squares a movement reaches from a set: the index of the movement in
    /// [`Compiled::reach`] (`reach of S by "vR"`).
    Reach(Box<Set<B>>, usize),
    /// The 8 squares around each.
    Adjacent(Box<Set<B>>),
    /// Every square of a colour present.
    ColourOf(Box<Set<B>>),
    /// Every square of a file present.
    FileOf(Box<Set<B>>),
    /// Intersection.
    And(Box<Set<B>>, Box<Set<B>>),
    /// Union.
    Or(Box<Set<B>>, Box<Set<B>>),
    /// Difference.
    Except(Box<Set<B>>, Box<Set<B>>),
    /// Complement within the board.
    Not(Box<Set<B>>),
    /// Squares where a comparison of fields holds.
    Compare(Fld, Comparison, Fld),
}

/// A compiled number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Num<B> {
    /// A constant.
    Constant(i64),
    /// The judged drop's number for its side.
    Placement,
    /// Squares in a set.
    Count(Box<Set<B>>),
    /// Pieces in hand.
    Hand(SideRef, Option<PieceId>),
    /// A counter's value, added up over some sides.
    Counter(SideRef, usize),
    /// Actions taken this turn.
    ActionsThisTurn,
    /// Drops taken this turn.
    DropsThisTurn,
    /// A field added up over a set.
    Sum(Fld, Box<Set<B>>),
    /// Addition.
    Plus(Box<Num<B>>, Box<Num<B>>),
    /// Subtraction.
    Minus(Box<Num<B>>, Box<Num<B>>),
}

/// A compiled number per square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fld {
    /// A constant.
    Constant(i64),
    /// Controlling pieces of some sides.
    Controllers(SideRef),
    /// Values of the controlling pieces of some sides.
    ControlValue(SideRef),
    /// The value of the piece on the square.
    PieceValue,
    /// Addition.
    Plus(Box<Fld>, Box<Fld>),
    /// Subtraction.
    Minus(Box<Fld>, Box<Fld>),
}

/// A compiled condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond<B> {
    /// Always.
    True,
    /// Never (what a condition folds to when it cannot hold: [`crate::plan`]).
    False,
    /// The dropped piece's type.
    Place(PieceId),
    /// The drop's square.
    PlaceOn(Set<B>),
    /// The next side can act after the drop.
    LeaveAction,
    /// The moving piece's type.
    Move(PieceId),
    /// The moving piece's square.
    MoveFrom(Set<B>),
    /// An `at turn start` condition, by index into [`Compiled::turn_start`].
    AtTurnStart(usize),
    /// The side to move can act.
    CanAct,
    /// The side to move has a legal action that is not a promotion.
    CanActWithoutPromoting,
    /// Numbers compared.
    Compare(Num<B>, Comparison, Num<B>),
    /// A set is not empty.
    Some(Set<B>),
    /// No side holds a piece.
    HandsEmpty,
    /// Some side's last action dropped this type.
    Placed(SideRef, PieceId),
    /// Some side's last action was a pass.
    Passed(SideRef),
    /// Both.
    And(Box<Cond<B>>, Box<Cond<B>>),
    /// Either.
    Or(Box<Cond<B>>, Box<Cond<B>>),
    /// Not.
    Not(Box<Cond<B>>),
}

/// A compiled drop rule.
#[derive(Clone, Debug)]
pub struct DropRule<B> {
    /// The side it binds; `None` for all.
    pub side: Option<SideId>,
    /// What the drop must satisfy.
    pub requirement: Cond<B>,
    /// When the rule applies.
    pub condition: Cond<B>,
    /// The requirement is `leave an action`.
    pub lookahead: bool,
    /// The piece types its requirement and condition name (`place King`, `move King`): for any
    /// other type the rule's masks are the same, and are computed once.
    pub named: Vec<PieceId>,
    /// Whether the condition names a piece type: if not, its mask is the same for every type.
    pub condition_named: bool,
    /// Whether the requirement names a piece type.
    pub requirement_named: bool,
}

impl<B> DropRule<B> {
    /// A rule, with the piece types it names worked out.
    pub fn new(
        side: Option<SideId>,
        requirement: Cond<B>,
        condition: Cond<B>,
        lookahead: bool,
    ) -> Self {
        let mut named = Vec::new();
        named_pieces(&requirement, &mut named);
        let requirement_named = !named.is_empty();
        let mut in_condition = Vec::new();
        named_pieces(&condition, &mut in_condition);
        let condition_named = !in_condition.is_empty();
        named_pieces(&condition, &mut named);
        DropRule {
            side,
            requirement,
            condition,
            lookahead,
            named,
            condition_named,
            requirement_named,
        }
    }
}

/// A compiled end condition.
#[derive(Clone, Debug)]
pub struct EndCheck<B> {
    /// The condition, judged for the side to move.
    pub condition: Cond<B>,
    /// Whether it reads the legal actions (`can act`, `legal drops`).
    pub needs_actions: bool,
}

/// A compiled move rule judged after the move (`must [not] after C`, `must [not] give check`).
#[derive(Clone, Debug)]
pub struct AfterRule<B> {
    /// The side it binds; `None` for all.
    pub side: Option<SideId>,
    /// Whether the test must hold (`must`) or must not (`must not`).
    pub holds: bool,
    /// What is judged on the position after the move.
    pub test: AfterTest<B>,
    /// When the rule applies, judged before the move (it may name the moving piece).
    pub condition: Cond<B>,
}

/// What an [`AfterRule`] judges after the move.
#[derive(Clone, Debug)]
pub enum AfterTest<B> {
    /// An opponent of the mover is in check.
    Check,
    /// The condition holds for the mover.
    Holds(Cond<B>),
}

/// Everything a game's expressions compile into.
#[derive(Clone, Debug, Default)]
pub struct Compiled<B> {
    /// The drop rules, in source order.
    pub drops: Vec<DropRule<B>>,
    /// The move rules, in source order (the same shape as drop rules).
    pub moves: Vec<DropRule<B>>,
    /// The move rules judged after the move, in source order.
    pub after: Vec<AfterRule<B>>,
    /// Per placement phase, its drop rules.
    pub phase_drops: Vec<Vec<DropRule<B>>>,
    /// The conditions of `at turn start` terms, judged when a turn starts.
    pub turn_start: Vec<Cond<B>>,
    /// The movements of `reach of S by "..."` terms, by index, each written once.
    pub reach: Vec<Vec<variant_dsl::MoveAtom>>,
    /// Whether some drop rule is `leave an action` or `not give checkmate`.
    pub lookahead: bool,
    /// Whether the lookahead is `not give checkmate`: a drop fails it only when it leaves the
    /// next side in check as well as without an action (validation keeps the two kinds apart).
    pub lookahead_mates_only: bool,
    /// The score, if the game keeps one.
    pub score: Option<Num<B>>,
    /// The end conditions, in source order (the definition's `end.conditions`).
    pub end: Vec<EndCheck<B>>,
    /// The obligations (`must capture ...`), in source order; empty in most games, which then
    /// generate their actions without looking at them.
    pub obligations: Vec<ObligationRule<B>>,
    /// The promotions in place (`promotes in place`), one per piece type that has one.
    pub in_place: Vec<InPlaceRules<B>>,
    /// `may pass in check when C`: C, judged for the side to move.
    pub pass_in_check: Option<Cond<B>>,
    /// `counting N VERDICT when C`: each line's C, in source order, judged for the side to move.
    pub counting: Vec<Cond<B>>,
}

/// A compiled promotion in place (`promotes in place or by "mF" to Ferz { ... }`).
#[derive(Clone, Debug)]
pub struct InPlaceRules<B> {
    /// The piece type that promotes.
    pub piece: PieceId,
    /// What it may become.
    pub choices: Vec<PieceId>,
    /// The block's rules judged before the move, compiled as move rules.
    pub before: Vec<DropRule<B>>,
    /// The block's rules judged after the move.
    pub after: Vec<AfterRule<B>>,
}

/// A compiled obligation (`[side] must capture when ...`).
#[derive(Clone, Debug)]
pub struct ObligationRule<B> {
    /// The side it binds; `None` for every side.
    pub side: Option<SideId>,
    /// What the action must be.
    pub kind: variant_dsl::ObligationKind,
    /// When it binds: `Err(kind)` while an action of that kind is possible, `Ok(condition)`
    /// while the condition holds for the side to move.
    pub when: Result<Cond<B>, variant_dsl::ObligationKind>,
}

impl<B: Bitboard> Compiled<B> {
    /// Compiles the expressions of a definition on its board.
    pub fn new(definition: &Definition, geometry: &crate::geometry::Geometry<B>) -> Self {
        let compiler = Compiler {
            geometry,
            turn_start: std::cell::RefCell::new(Vec::new()),
            reach: std::cell::RefCell::new(Vec::new()),
            stranded: stranded_masks(definition, geometry),
        };
        let rules = |constraints: &[variant_dsl::DropConstraint]| -> Vec<DropRule<B>> {
            constraints
                .iter()
                .map(|constraint| {
                    DropRule::new(
                        constraint.side,
                        compiler.condition(&constraint.requirement),
                        compiler.condition(&constraint.condition),
                        matches!(
                            constraint.requirement,
                            Condition::LeaveAction | Condition::NoCheckmate
                        ),
                    )
                })
                .collect()
        };
        let mates_only = definition
            .drops
            .constraints
            .iter()
            .chain(definition.phases.iter().flat_map(|p| &p.drops.constraints))
            .any(|constraint| constraint.requirement == Condition::NoCheckmate);
        let drops = rules(&definition.drops.constraints);
        let moves = rules(&definition.move_rules.constraints);
        let after_rules = |after: &[variant_dsl::AfterRule]| -> Vec<AfterRule<B>> {
            after
                .iter()
                .map(|rule| AfterRule {
                    side: rule.side,
                    holds: rule.holds,
                    test: match &rule.test {
                        variant_dsl::AfterTest::Check => AfterTest::Check,
                        variant_dsl::AfterTest::Condition(c) => {
                            AfterTest::Holds(compiler.condition(c))
                        }
                    },
                    condition: compiler.condition(&rule.condition),
                })
                .collect()
        };
        let after = after_rules(&definition.move_rules.after);
        let in_place = definition
            .pieces
            .iter()
            .enumerate()
            .filter_map(|(index, piece)| {
                let promotion = piece.in_place.as_ref()?;
                Some(InPlaceRules {
                    piece: PieceId::new(index),
                    choices: promotion
                        .choices
                        .iter()
                        .map(|choice| PieceId::new(choice.0 as usize))
                        .collect(),
                    before: rules(&promotion.rules.constraints),
                    after: after_rules(&promotion.rules.after),
                })
            })
            .collect();
        let phase_drops = definition
            .phases
            .iter()
            .map(|phase| rules(&phase.drops.constraints))
            .collect();
        let mut compiled = Compiled {
            lookahead: drops.iter().any(|rule| rule.lookahead),
            lookahead_mates_only: mates_only,
            drops,
            moves,
            after,
            phase_drops,
            turn_start: Vec::new(),
            reach: Vec::new(),
            score: definition
                .score
                .as_ref()
                .map(|score| compiler.number(&score.expression)),
            end: definition
                .end
                .conditions
                .iter()
                .map(|end| {
                    let condition = compiler.condition(&end.condition);
                    EndCheck {
                        needs_actions: condition_reads_actions(&condition),
                        condition,
                    }
                })
                .collect(),
            obligations: definition
                .move_rules
                .obligations
                .iter()
                .map(|obligation| ObligationRule {
                    side: obligation.side,
                    kind: obligation.kind,
                    when: match &obligation.condition {
                        variant_dsl::ObligationWhen::Possible(kind) => Err(*kind),
                        variant_dsl::ObligationWhen::Holds(condition) => {
                            Ok(compiler.condition(condition))
                        }
                    },
                })
                .collect(),
            in_place,
            pass_in_check: definition
                .turn
                .pass_in_check
                .as_ref()
                .map(|condition| compiler.condition(condition)),
            counting: definition
                .end
                .counting
                .iter()
                .map(|line| compiler.condition(&line.condition))
                .collect(),
        };
        compiled.turn_start = compiler.turn_start.into_inner();
        compiled.reach = compiler.reach.into_inner();
        compiled
    }

    /// The drop rules in force: the phase's during a placement phase.
    #[inline]
    pub fn drop_rules(&self, phase: Option<usize>) -> &[DropRule<B>] {
        match phase {
            Some(phase) => &self.phase_drops[phase],
            None => &self.drops,
        }
    }
}

/// The piece types a condition names as the dropped or moving piece.
fn named_pieces<B>(condition: &Cond<B>, named: &mut Vec<PieceId>) {
    each_term(Term::Condition(condition), &mut |term| {
        if let Term::Condition(Cond::Place(piece) | Cond::Move(piece)) = term {
            if !named.contains(piece) {
                named.push(*piece);
            }
        }
    });
}

/// A piece index that no rule names: the masks of "any other piece type".
pub(crate) const OTHER_PIECE: PieceId = PieceId(u8::MAX);

/// Whether a condition reads the legal actions (`can act`, `can act without promoting`, `legal
/// drops`).
fn condition_reads_actions<B>(condition: &Cond<B>) -> bool {
    !every_term(Term::Condition(condition), &mut |term| {
        !matches!(
            term,
            Term::Condition(Cond::CanAct | Cond::CanActWithoutPromoting)
                | Term::Set(Set::LegalDrops)
        )
    })
}

/// Compiles one set of squares (for policies, which are compiled when they are used).
pub fn compile_set<B: Bitboard>(geometry: &crate::geometry::Geometry<B>, set: &Squares) -> Set<B> {
    Compiler {
        geometry,
        turn_start: std::cell::RefCell::new(Vec::new()),
        reach: std::cell::RefCell::new(Vec::new()),
        stranded: ByPiece::splat(BySide::splat(B::EMPTY)),
    }
    .set(set)
}

/// Per piece type, per side, the squares where that side's piece is stranded
/// ([`variant_dsl::Definition::stranded_squares`]): what `place stranded` reads.
fn stranded_masks<B: Bitboard>(
    definition: &Definition,
    geometry: &crate::geometry::Geometry<B>,
) -> ByPiece<BySide<B>> {
    let sides = definition.sides.len();
    let pieces = definition.pieces.len();
    ByPiece::from_fn(|piece| {
        BySide::from_fn(|side| {
            if piece.index() < pieces && side.index() < sides {
                geometry.mask(&definition.stranded_squares(side, piece))
            } else {
                B::EMPTY
            }
        })
    })
}

struct Compiler<'g, B> {
    geometry: &'g crate::geometry::Geometry<B>,
    /// The `at turn start` conditions met so far.
    turn_start: std::cell::RefCell<Vec<Cond<B>>>,
    /// The movements of the `reach` terms met so far.
    reach: std::cell::RefCell<Vec<Vec<variant_dsl::MoveAtom>>>,
    /// Per piece type, per side, where it is stranded (empty when compiling a policy's set).
    stranded: ByPiece<BySide<B>>,
}

impl<B: Bitboard> Compiler<'_, B> {
    fn condition(&self, condition: &Condition) -> Cond<B> {
        let boxed = |c: &Condition| Box::new(self.condition(c));
        match condition {
            Condition::True => Cond::True,
            Condition::Place(piece) => Cond::Place(*piece),
            Condition::PlaceOn(set) => Cond::PlaceOn(self.set(set)),
            Condition::LeaveAction | Condition::NoCheckmate => Cond::LeaveAction,
            Condition::PlaceStranded => self.place_stranded(),
            Condition::Move(piece) => Cond::Move(*piece),
            Condition::MoveFrom(set) => Cond::MoveFrom(self.set(set)),
            Condition::AtTurnStart(inner) => {
                let compiled = self.condition(inner);
                let mut list = self.turn_start.borrow_mut();
                list.push(compiled);
                Cond::AtTurnStart(list.len() - 1)
            }
            Condition::CanAct => Cond::CanAct,
            Condition::CanActWithoutPromoting => Cond::CanActWithoutPromoting,
            Condition::Compare(a, op, b) => Cond::Compare(self.number(a), *op, self.number(b)),
            Condition::Some(set) => Cond::Some(self.set(set)),
            Condition::HandsEmpty => Cond::HandsEmpty,
            Condition::Placed(side, piece) => Cond::Placed(*side, *piece),
            Condition::Passed(side) => Cond::Passed(*side),
            Condition::And(a, b) => Cond::And(boxed(a), boxed(b)),
            Condition::Or(a, b) => Cond::Or(boxed(a), boxed(b)),
            Condition::Not(a) => Cond::Not(boxed(a)),
        }
    }

    /// `place stranded`: for each piece type stranded somewhere, `place T and place on` its
    /// squares (per side); never when no type is.
    fn place_stranded(&self) -> Cond<B> {
        let mut any = Cond::False;
        for (piece, per_side) in self.stranded.pairs() {
            if per_side.iter().all(|mask| mask.is_empty()) {
                continue;
            }
            let this = Cond::And(
                Box::new(Cond::Place(piece)),
                Box::new(Cond::PlaceOn(Set::Zone(Box::new(*per_side)))),
            );
            any = match any {
                Cond::False => this,
                earlier => Cond::Or(Box::new(earlier), Box::new(this)),
            };
        }
        any
    }

    fn set(&self, set: &Squares) -> Set<B> {
        let boxed = |s: &Squares| Box::new(self.set(s));
        let board = self.geometry.board;
        match set {
            Squares::Constant(SquareConstant::Empty) => Set::Empty,
            Squares::Constant(SquareConstant::Occupied) => Set::Occupied,
            Squares::Constant(SquareConstant::Board) => Set::Fixed(board),
            Squares::Constant(SquareConstant::Light) => Set::Fixed(board & self.geometry.light),
            Squares::Constant(SquareConstant::Dark) => Set::Fixed(board & !self.geometry.light),
            Squares::Zone(per_side) => Set::Zone(Box::new(BySide::from_fn(|side| {
                per_side
                    .get(side.index())
                    .map_or(B::EMPTY, |squares| self.geometry.mask(squares))
            }))),
            Squares::Pieces(side, piece) => Set::Pieces(*side, *piece),
            Squares::ControlledBy(side) => Set::ControlledBy(*side),
            Squares::AttackedBy(side) => Set::AttackedBy(*side),
            Squares::LastDrop(side) => Set::LastDrop(*side),
            Squares::LegalDrops => Set::LegalDrops,
            Squares::Acted => Set::Acted,
            Squares::Adjacent(a) => Set::Adjacent(boxed(a)),
            Squares::ColourOf(a) => Set::ColourOf(boxed(a)),
            Squares::Reach { from, betza } => {
                // Validation decoded it already: a text that does not decode reaches nothing.
                let moves = variant_dsl::betza::decode(betza).unwrap_or_default();
                let mut list = self.reach.borrow_mut();
                let index = list.iter().position(|m| *m == moves).unwrap_or_else(|| {
                    list.push(moves);
                    list.len() - 1
                });
                Set::Reach(boxed(from), index)
            }
            Squares::FileOf(a) => Set::FileOf(boxed(a)),
            Squares::And(a, b) => Set::And(boxed(a), boxed(b)),
            Squares::Or(a, b) => Set::Or(boxed(a), boxed(b)),
            Squares::Except(a, b) => Set::Except(boxed(a), boxed(b)),
            Squares::Not(a) => Set::Not(boxed(a)),
            Squares::Compare(a, op, b) => Set::Compare(field(a), *op, field(b)),
        }
    }

    fn number(&self, number: &Number) -> Num<B> {
        let boxed = |n: &Number| Box::new(self.number(n));
        match number {
            Number::Constant(value) => Num::Constant(*value),
            Number::Placement => Num::Placement,
            Number::Count(set) => Num::Count(Box::new(self.set(set))),
            Number::Hand(side, piece) => Num::Hand(*side, *piece),
            Number::Counter(side, counter) => Num::Counter(*side, *counter),
            Number::ActionsThisTurn => Num::ActionsThisTurn,
            Number::DropsThisTurn => Num::DropsThisTurn,
            Number::Sum(f, set) => Num::Sum(field(f), Box::new(self.set(set))),
            Number::Plus(a, b) => Num::Plus(boxed(a), boxed(b)),
            Number::Minus(a, b) => Num::Minus(boxed(a), boxed(b)),
        }
    }
}

fn field(field_expression: &Field) -> Fld {
    match field_expression {
        Field::Constant(value) => Fld::Constant(*value),
        Field::Controllers(side) => Fld::Controllers(*side),
        Field::ControlValue(side) => Fld::ControlValue(*side),
        Field::PieceValue => Fld::PieceValue,
        Field::Plus(a, b) => Fld::Plus(Box::new(field(a)), Box::new(field(b))),
        Field::Minus(a, b) => Fld::Minus(Box::new(field(a)), Box::new(field(b))),
    }
}

/// A term of the IR, as the passes that ask what an expression reads see it (the piece types
/// it names, whether it reads the legal actions or the board, what of the scalar state a plan's
/// key must hold).
pub(crate) enum Term<'a, B> {
    /// A set of squares.
    Set(&'a Set<B>),
    /// A number.
    Number(&'a Num<B>),
    /// A condition.
    Condition(&'a Cond<B>),
}

// By hand: a derive would ask `B: Copy` of a type that only holds references.
impl<B> Clone for Term<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for Term<'_, B> {}

/// Whether `test` passes every term of `term`: itself, then its operands, down to the leaves
/// (stopping at the first that fails). The one traversal of the questions asked of an
/// expression's shape rather than of its value: a pass that only reads terms is written as a
/// test of one term.
pub(crate) fn every_term<'a, B>(
    term: Term<'a, B>,
    test: &mut impl FnMut(Term<'a, B>) -> bool,
) -> bool {
    if !test(term) {
        return false;
    }
    match term {
        Term::Set(
            Set::Adjacent(a) | Set::ColourOf(a) | Set::FileOf(a) | Set::Not(a) | Set::Reach(a, _),
        ) => every_term(Term::Set(a), test),
        Term::Set(Set::And(a, b) | Set::Or(a, b) | Set::Except(a, b)) => {
            every_term(Term::Set(a), test) && every_term(Term::Set(b), test)
        }
        Term::Set(_) => true,
        Term::Number(Num::Count(set) | Num::Sum(_, set)) => every_term(Term::Set(set), test),
        Term::Number(Num::Plus(a, b) | Num::Minus(a, b)) => {
            every_term(Term::Number(a), test) && every_term(Term::Number(b), test)
        }
        Term::Number(_) => true,
        Term::Condition(Cond::PlaceOn(set) | Cond::MoveFrom(set) | Cond::Some(set)) => {
            every_term(Term::Set(set), test)
        }
        Term::Condition(Cond::Compare(a, _, b)) => {
            every_term(Term::Number(a), test) && every_term(Term::Number(b), test)
        }
        Term::Condition(Cond::And(a, b) | Cond::Or(a, b)) => {
            every_term(Term::Condition(a), test) && every_term(Term::Condition(b), test)
        }
        Term::Condition(Cond::Not(a)) => every_term(Term::Condition(a), test),
        Term::Condition(_) => true,
    }
}

/// Calls `visit` with every term of `term` (see [`every_term`]).
pub(crate) fn each_term<'a, B>(term: Term<'a, B>, visit: &mut impl FnMut(Term<'a, B>)) {
    every_term(term, &mut |term| {
        visit(term);
        true
    });
}
