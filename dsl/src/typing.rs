//! Type checking of expressions: from the [`crate::ast::Expression`] as written to the checked
//! [`crate::expression`] types, with a diagnostic for every misuse.
//!
//! Each expression has one of four types (condition, squares, number, field); operators that
//! work on several (`and`, `or`, `not`, comparisons, `+`, `-`) are resolved from their operands'
//! types. Terms that only mean something in one place (`place King` in a drop rule, `legal
//! drops` in an end condition) are refused elsewhere, naming the place.

use crate::ast::{Expression, SideReference, Zone};
use crate::definition::{AfterTest, PieceId, SideId, Square};
use crate::diagnostic::{code, Diagnostic};
use crate::expression::{Condition, Field, Number, SideRef, Squares};
use crate::span::{Span, Spanned};

/// What the checker needs from its caller: name resolution and error reporting.
pub(crate) trait Names {
    /// The piece named, or `None` after reporting it.
    fn piece(&mut self, name: &Spanned<String>, context: &str) -> Option<PieceId>;
    /// The side named, or `None` after reporting it.
    fn side(&mut self, name: &Spanned<String>, context: &str) -> Option<SideId>;
    /// The zone's squares for every side, or `None` after reporting it.
    fn zone(&mut self, zone: &Spanned<Zone>) -> Option<Vec<Vec<Square>>>;
    /// Reports a problem.
    fn error(&mut self, diagnostic: Diagnostic);
    /// The Betza text decoded, or `None` after reporting its mistakes.
    fn moves(
        &mut self,
        text: &Spanned<crate::ast::StringLit>,
    ) -> Option<Vec<crate::definition::MoveAtom>>;
    /// Whether captured pieces come back to a hand in this game.
    fn pieces_return(&self) -> bool;
    /// The counter of this name (`counter checks`), if the game declares one.
    fn counter(&self, name: &str) -> Option<usize>;
}

/// Where an expression is written: what it may speak of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The requirement of a `must` drop rule: the dropped piece and square, the lookahead.
    DropRequirement,
    /// The `when` condition of a drop rule: the dropped piece and square.
    DropCondition,
    /// A move rule's requirement or condition: the moving piece and its square.
    Move,
    /// Inside `after C` (a move rule): judged on the position after the move, for the mover.
    AfterMove,
    /// Inside `at turn start`: judged when the turn starts, before any action.
    TurnStart,
    /// The `when` condition of an obligation (`must capture when ...`): judged for the side to
    /// move, before any action.
    Obligation,
    /// A `score`.
    Score,
    /// An `end` condition: the legal actions of the side to move.
    End,
    /// A policy's condition on an action (`from S`, `lands on S`): sets of squares.
    Policy,
}

impl Place {
    fn words(self) -> &'static str {
        match self {
            Place::DropRequirement | Place::DropCondition => "a drop rule",
            Place::Move => "a move rule",
            Place::AfterMove => "an `after` condition",
            Place::TurnStart => "an `at turn start` condition",
            Place::Obligation => "the condition of `must capture` or `must drop`",
            Place::Score => "a score",
            Place::End => "an end condition",
            Place::Policy => "a policy",
        }
    }

    fn is_drop(self) -> bool {
        matches!(self, Place::DropRequirement | Place::DropCondition)
    }
}

/// A checked expression of any type.
enum Typed {
    Condition(Condition),
    Squares(Squares),
    Number(Number),
    Field(Field),
}

impl Typed {
    fn words(&self) -> &'static str {
        match self {
            Typed::Condition(_) => "a condition",
            Typed::Squares(_) => "a set of squares",
            Typed::Number(_) => "a number",
            Typed::Field(_) => "a number per square",
        }
    }
}

/// Checks a condition.
pub(crate) fn condition(
    names: &mut dyn Names,
    expression: &Spanned<Expression>,
    place: Place,
) -> Option<Condition> {
    if place == Place::DropRequirement {
        if let Expression::LeaveAction = expression.node {
            return Some(Condition::LeaveAction);
        }
        if let Expression::Not(inner) = &expression.node {
            if let Expression::GiveCheckmate = inner.node {
                return Some(Condition::NoCheckmate);
            }
        }
    }
    let mut checker = Checker { names, place };
    let typed = checker.check(expression)?;
    checker.as_condition(typed, expression.span)
}

/// Whether a move rule's requirement is judged after the move: `[not] after C` or `[not] give
/// check`.
pub(crate) fn is_after(requirement: &Spanned<Expression>) -> bool {
    let inner = match &requirement.node {
        Expression::Not(inner) => &**inner,
        _ => requirement,
    };
    matches!(inner.node, Expression::After(_) | Expression::GiveCheck)
}

/// What a requirement for which [`is_after`] holds judges: whether it must hold (`must`) or
/// must not (`must not`), and the test; `None` after reporting a mistake in the condition.
pub(crate) fn after_requirement(
    names: &mut dyn Names,
    requirement: &Spanned<Expression>,
) -> Option<(bool, AfterTest)> {
    let (holds, inner) = match &requirement.node {
        Expression::Not(inner) => (false, &**inner),
        _ => (true, requirement),
    };
    match &inner.node {
        Expression::After(condition) => {
            let checked = self::condition(names, condition, Place::AfterMove)?;
            Some((holds, AfterTest::Condition(checked)))
        }
        _ => Some((holds, AfterTest::Check)),
    }
}

/// Checks a set of squares.
pub(crate) fn squares(
    names: &mut dyn Names,
    expression: &Spanned<Expression>,
    place: Place,
) -> Option<Squares> {
    let mut checker = Checker { names, place };
    checker.squares_of(expression)
}

/// Checks a number.
pub(crate) fn number(
    names: &mut dyn Names,
    expression: &Spanned<Expression>,
    place: Place,
) -> Option<Number> {
    let mut checker = Checker { names, place };
    let typed = checker.check(expression)?;
    checker.as_number(typed, expression.span)
}

struct Checker<'n> {
    names: &'n mut dyn Names,
    place: Place,
}

impl Checker<'_> {
    fn mismatch(&mut self, span: Span, expected: &str, found: &Typed, help: Option<&str>) {
        let diagnostic = Diagnostic::error(
            code::EXPRESSION_TYPE,
            format!("expected {expected}, found {}", found.words()),
            span,
            format!("this is {}", found.words()),
        );
        let diagnostic = match help {
            Some(help) => diagnostic.with_help(help),
            None => diagnostic,
        };
        self.names.error(diagnostic);
    }

    fn misplaced(&mut self, span: Span, term: &str, meaning: &str) {
        self.names.error(
            Diagnostic::error(
                code::EXPRESSION_PLACE,
                format!("`{term}` cannot be used in {}", self.place.words()),
                span,
                format!("`{term}` {meaning}"),
            )
            .with_help(match term {
                "leave an action" => "write it alone after `must`: `must leave an action`",
                "after" | "give check" => {
                    "write it alone after `must` or `must not` in the `moves` block: \
                     `must not give check`, `must not after some (opponent King and attacked by own)`"
                }
                "give checkmate" => "write it alone after `must not`: `must not give checkmate`",
                _ => "see docs/language.md, \"Expressions\", for where each term may be used",
            }),
        );
    }

    fn as_condition(&mut self, typed: Typed, span: Span) -> Option<Condition> {
        match typed {
            Typed::Condition(condition) => Some(condition),
            other => {
                let help = matches!(other, Typed::Squares(_)).then_some(
                    "write `some S` (the set is not empty), `no S`, or `place on S` (the drop lands there)",
                );
                self.mismatch(span, "a condition", &other, help);
                None
            }
        }
    }

    fn as_squares(&mut self, typed: Typed, span: Span) -> Option<Squares> {
        match typed {
            Typed::Squares(squares) => Some(squares),
            other => {
                self.mismatch(span, "a set of squares", &other, None);
                None
            }
        }
    }

    fn as_number(&mut self, typed: Typed, span: Span) -> Option<Number> {
        match typed {
            Typed::Number(number) => Some(number),
            other => {
                let help = matches!(other, Typed::Squares(_))
                    .then_some("write `count S` for the number of squares");
                self.mismatch(span, "a number", &other, help);
                None
            }
        }
    }

    fn as_field(&mut self, typed: Typed, span: Span) -> Option<Field> {
        match typed {
            Typed::Field(field) => Some(field),
            Typed::Number(Number::Constant(value)) => Some(Field::Constant(value)),
            other => {
                self.mismatch(span, "a number per square", &other, None);
                None
            }
        }
    }

    fn side(&mut self, side: &Spanned<SideReference>) -> Option<SideRef> {
        Some(match &side.node {
            SideReference::Own => SideRef::Own,
            SideReference::Team => SideRef::Team,
            SideReference::Opponent => SideRef::Opponents,
            SideReference::Any => SideRef::Any,
            SideReference::Next => SideRef::Next,
            SideReference::Named(name) => SideRef::Side(
                self.names
                    .side(&Spanned::new(name.clone(), side.span), "an expression")?,
            ),
        })
    }

    fn squares_of(&mut self, operand: &Spanned<Expression>) -> Option<Squares> {
        let typed = self.check(operand)?;
        self.as_squares(typed, operand.span)
    }

    fn drop_only(&mut self, span: Span, term: &str, meaning: &str) -> Option<()> {
        if self.place.is_drop() {
            Some(())
        } else {
            self.misplaced(span, term, meaning);
            None
        }
    }

    fn move_only(&mut self, span: Span, term: &str, meaning: &str) -> Option<()> {
        if self.place == Place::Move {
            Some(())
        } else {
            self.misplaced(span, term, meaning);
            None
        }
    }

    /// Checks both operands (reporting errors in each) before combining them.
    fn pair(
        &mut self,
        left: &Spanned<Expression>,
        right: &Spanned<Expression>,
    ) -> Option<(Typed, Typed)> {
        let left = self.check(left);
        let right = self.check(right);
        Some((left?, right?))
    }

    fn check(&mut self, expression: &Spanned<Expression>) -> Option<Typed> {
        let span = expression.span;
        Some(match &expression.node {
            Expression::Number(digits) => match digits.parse::<i64>() {
                Ok(value) if value <= i64::from(u32::MAX) => Typed::Number(Number::Constant(value)),
                _ => {
                    self.names.error(Diagnostic::error(
                        code::NUMBER_OUT_OF_RANGE,
                        format!("the number `{digits}` is too large"),
                        span,
                        "numbers in expressions go up to 4294967295",
                    ));
                    return None;
                }
            },
            Expression::And(left, right) | Expression::Or(left, right) => {
                let is_and = matches!(expression.node, Expression::And(..));
                let (a, b) = self.pair(left, right)?;
                match a {
                    Typed::Squares(a) => {
                        let b = self.as_squares(b, right.span)?;
                        Typed::Squares(if is_and {
                            Squares::And(Box::new(a), Box::new(b))
                        } else {
                            Squares::Or(Box::new(a), Box::new(b))
                        })
                    }
                    other => {
                        let a = self.as_condition(other, left.span)?;
                        let b = self.as_condition(b, right.span)?;
                        Typed::Condition(if is_and {
                            Condition::And(Box::new(a), Box::new(b))
                        } else {
                            Condition::Or(Box::new(a), Box::new(b))
                        })
                    }
                }
            }
            Expression::Not(operand) => match self.check(operand)? {
                Typed::Squares(a) => Typed::Squares(Squares::Not(Box::new(a))),
                other => Typed::Condition(Condition::Not(Box::new(
                    self.as_condition(other, operand.span)?,
                ))),
            },
            Expression::Compare(left, operator, right) => {
                let (a, b) = self.pair(left, right)?;
                match (a, b) {
                    (Typed::Number(a), Typed::Number(b)) => {
                        Typed::Condition(Condition::Compare(a, operator.node, b))
                    }
                    (a, b) if matches!(a, Typed::Field(_)) || matches!(b, Typed::Field(_)) => {
                        let a = self.as_field(a, left.span)?;
                        let b = self.as_field(b, right.span)?;
                        Typed::Squares(Squares::Compare(a, operator.node, b))
                    }
                    (Typed::Number(_), other) => {
                        self.mismatch(right.span, "a number", &other, None);
                        return None;
                    }
                    (other, _) => {
                        self.mismatch(left.span, "a number", &other, None);
                        return None;
                    }
                }
            }
            Expression::Plus(left, right) | Expression::Minus(left, right) => {
                let plus = matches!(expression.node, Expression::Plus(..));
                let (a, b) = self.pair(left, right)?;
                match (a, b) {
                    (Typed::Number(a), Typed::Number(b)) => Typed::Number(if plus {
                        Number::Plus(Box::new(a), Box::new(b))
                    } else {
                        Number::Minus(Box::new(a), Box::new(b))
                    }),
                    (Typed::Squares(_), _) if !plus => {
                        self.names.error(
                            Diagnostic::error(
                                code::EXPRESSION_TYPE,
                                "sets of squares are subtracted with `except`",
                                span,
                                "a set of squares minus something",
                            )
                            .with_help("write `A except B`"),
                        );
                        return None;
                    }
                    (a, b) => {
                        let a = self.as_field(a, left.span)?;
                        let b = self.as_field(b, right.span)?;
                        Typed::Field(if plus {
                            Field::Plus(Box::new(a), Box::new(b))
                        } else {
                            Field::Minus(Box::new(a), Box::new(b))
                        })
                    }
                }
            }
            Expression::Except(left, right) => {
                let (a, b) = self.pair(left, right)?;
                let a = self.as_squares(a, left.span)?;
                let b = self.as_squares(b, right.span)?;
                Typed::Squares(Squares::Except(Box::new(a), Box::new(b)))
            }
            Expression::PlaceOn(operand) => {
                self.drop_only(span, "place on", "speaks of the square a drop lands on")?;
                Typed::Condition(Condition::PlaceOn(self.squares_of(operand)?))
            }
            Expression::Place(name) => {
                self.drop_only(span, "place", "speaks of the piece dropped")?;
                Typed::Condition(Condition::Place(self.names.piece(name, "`place`")?))
            }
            Expression::Touch(operand) => {
                self.drop_only(span, "touch", "speaks of the square a drop lands on")?;
                let squares = self.squares_of(operand)?;
                Typed::Condition(Condition::PlaceOn(Squares::Adjacent(Box::new(squares))))
            }
            Expression::Move(name) => {
                self.move_only(span, "move", "speaks of the moving piece")?;
                Typed::Condition(Condition::Move(self.names.piece(name, "`move`")?))
            }
            Expression::MoveFrom(operand) => {
                self.move_only(span, "move from", "speaks of the square a move starts from")?;
                Typed::Condition(Condition::MoveFrom(self.squares_of(operand)?))
            }
            Expression::Acted => Typed::Squares(Squares::Acted),
            Expression::ActionsThisTurn => Typed::Number(Number::ActionsThisTurn),
            Expression::DropsThisTurn => Typed::Number(Number::DropsThisTurn),
            Expression::AtTurnStart(operand) => {
                // Judged once when the turn starts: nothing about the action being judged.
                let place = std::mem::replace(&mut self.place, Place::TurnStart);
                let typed = self.check(operand);
                self.place = place;
                let condition = self.as_condition(typed?, operand.span)?;
                Typed::Condition(Condition::AtTurnStart(Box::new(condition)))
            }
            Expression::After(_) => {
                self.misplaced(span, "after", "looks at the position after a move");
                return None;
            }
            Expression::GiveCheck => {
                self.misplaced(span, "give check", "looks at the position after a move");
                return None;
            }
            Expression::LeaveAction => {
                self.misplaced(
                    span,
                    "leave an action",
                    "looks at the position after a drop",
                );
                return None;
            }
            Expression::GiveCheckmate => {
                self.misplaced(span, "give checkmate", "looks at the position after a drop");
                return None;
            }
            Expression::PlaceStranded => {
                self.drop_only(
                    span,
                    "place stranded",
                    "speaks of the piece dropped and its square",
                )?;
                Typed::Condition(Condition::PlaceStranded)
            }
            Expression::CanAct | Expression::CanActWithoutPromoting => {
                let (words, condition) = match &expression.node {
                    Expression::CanAct => ("can act", Condition::CanAct),
                    _ => (
                        "can act without promoting",
                        Condition::CanActWithoutPromoting,
                    ),
                };
                if self.place != Place::End {
                    self.misplaced(
                        span,
                        words,
                        "looks at the legal actions of the side to move",
                    );
                    return None;
                }
                Typed::Condition(condition)
            }
            Expression::Placement => {
                self.drop_only(span, "placement", "is the number of the drop being judged")?;
                if self.names.pieces_return() {
                    // It is counted from the pieces gone from the hand since the setup.
                    self.names.error(
                        Diagnostic::error(
                            code::EXPRESSION_PLACE,
                            "`placement` cannot be used in a game whose captured pieces come back to a hand",
                            span,
                            "counted from the pieces gone from the hand since the setup",
                        )
                        .with_help("a captured piece back in the hand would make the count wrong; use `hand` instead"),
                    );
                    return None;
                }
                Typed::Number(Number::Placement)
            }
            Expression::Count(operand) => {
                Typed::Number(Number::Count(Box::new(self.squares_of(operand)?)))
            }
            Expression::Sum(field, squares) => {
                let (a, b) = self.pair(field, squares)?;
                let field = self.as_field(a, field.span)?;
                let squares = self.as_squares(b, squares.span)?;
                Typed::Number(Number::Sum(field, Box::new(squares)))
            }
            Expression::HandsEmpty => Typed::Condition(Condition::HandsEmpty),
            Expression::Hand { side, piece } => {
                let side = match side {
                    Some(side) => self.side(side),
                    None => Some(SideRef::Own),
                };
                let piece = match piece {
                    Some(name) => Some(self.names.piece(name, "`hand`")?),
                    None => None,
                };
                Typed::Number(Number::Hand(side?, piece))
            }
            Expression::Placed(side, name) => {
                let side = self.side(side);
                let piece = self.names.piece(name, "`placed`");
                Typed::Condition(Condition::Placed(side?, piece?))
            }
            Expression::Passed(side) => Typed::Condition(Condition::Passed(self.side(side)?)),
            Expression::LastDrop(side) => Typed::Squares(Squares::LastDrop(self.side(side)?)),
            Expression::ControlledBy(side) => {
                Typed::Squares(Squares::ControlledBy(self.side(side)?))
            }
            Expression::AttackedBy(side) => Typed::Squares(Squares::AttackedBy(self.side(side)?)),
            Expression::Adjacent(operand) => {
                Typed::Squares(Squares::Adjacent(Box::new(self.squares_of(operand)?)))
            }
            Expression::Reach(operand, betza) => {
                if self.place == Place::Policy {
                    self.misplaced(span, "reach", "is compiled with the game's rules");
                    return None;
                }
                let from = self.squares_of(operand);
                self.names.moves(betza)?;
                Typed::Squares(Squares::Reach {
                    from: Box::new(from?),
                    betza: betza.node.value.clone(),
                })
            }
            Expression::ColourOf(operand) => {
                Typed::Squares(Squares::ColourOf(Box::new(self.squares_of(operand)?)))
            }
            Expression::FileOf(operand) => {
                Typed::Squares(Squares::FileOf(Box::new(self.squares_of(operand)?)))
            }
            Expression::Some(operand) => {
                Typed::Condition(Condition::Some(self.squares_of(operand)?))
            }
            Expression::No(operand) => Typed::Condition(Condition::Not(Box::new(Condition::Some(
                self.squares_of(operand)?,
            )))),
            Expression::LegalDrops => {
                if self.place != Place::End {
                    self.misplaced(
                        span,
                        "legal drops",
                        "looks at the legal actions of the side to move",
                    );
                    return None;
                }
                Typed::Squares(Squares::LegalDrops)
            }
            Expression::Controllers(side) => Typed::Field(Field::Controllers(self.side(side)?)),
            Expression::ControlValue(side) => Typed::Field(Field::ControlValue(self.side(side)?)),
            Expression::PieceValue => Typed::Field(Field::PieceValue),
            Expression::Squares(constant) => Typed::Squares(Squares::Constant(*constant)),
            Expression::Zone(zone) => Typed::Squares(Squares::Zone(self.names.zone(zone)?)),
            Expression::Pieces(side, Some(name)) if self.names.counter(&name.node).is_some() => {
                // `opponent checks`: a counter's value, added up over the sides.
                let counter = self.names.counter(&name.node)?;
                Typed::Number(Number::Counter(self.side(side)?, counter))
            }
            Expression::Pieces(side, piece) => {
                let side = self.side(side);
                let piece = match piece {
                    Some(name) => Some(self.names.piece(name, "an expression")?),
                    None => None,
                };
                Typed::Squares(Squares::Pieces(side?, piece))
            }
        })
    }
}
