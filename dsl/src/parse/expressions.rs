//! Building the AST of expressions (from any of the expression rules), the side references and
//! comparisons in them, and zones (`rank 2`, `last rank`, `squares e4 d5`), which name squares
//! both in expressions and in piece statements.

use crate::ast::*;
use crate::expression::{Comparison, SquareConstant};
use crate::parse::grammar::Rule;
use crate::parse::pairs::{child, span_of, text_of};
use crate::span::{FileId, Spanned};
use pest::iterators::{Pair, Pairs};

/// `=`, `!=`, `<`, `<=`, `>`, `>=` as written.
pub(super) fn comparison_of(operator: &str) -> Comparison {
    match operator {
        "=" => Comparison::Equal,
        "!=" => Comparison::NotEqual,
        "<" => Comparison::Less,
        "<=" => Comparison::LessOrEqual,
        ">" => Comparison::Greater,
        _ => Comparison::GreaterOrEqual,
    }
}

pub(super) fn zone(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Zone> {
    let span = span_of(file, &pair);
    let shape = pair.into_inner().next().expect("a zone has one shape");
    let rule = shape.as_rule();
    let mut parts = shape.into_inner();
    let zone = match rule {
        Rule::zone_rank => Zone::Rank(text_of(file, &parts.nth(1).expect("rank"))),
        Rule::zone_ranks => {
            let mut span_parts = parts.nth(1).expect("rank span").into_inner();
            let first = text_of(file, &child(&mut span_parts));
            let last = text_of(file, &child(&mut span_parts));
            Zone::Ranks { first, last }
        }
        Rule::zone_last_rank => Zone::LastRank,
        Rule::zone_file => {
            let letter = text_of(file, &parts.nth(1).expect("file"));
            Zone::Files {
                first: letter.clone(),
                last: letter,
            }
        }
        Rule::zone_files => {
            let mut span_parts = parts.nth(1).expect("file span").into_inner();
            let first = text_of(file, &child(&mut span_parts));
            let last = text_of(file, &child(&mut span_parts));
            Zone::Files { first, last }
        }
        Rule::zone_named => Zone::Named(text_of(file, &parts.nth(1).expect("name"))),
        _ => Zone::Squares(parts.skip(1).map(|square| text_of(file, &square)).collect()),
    };
    Spanned::new(zone, span)
}

/// `zone palace = ranks 1-3 and files d-f` (its pairs).
pub(super) fn zone_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ZoneStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    ZoneStatement {
        keyword,
        name,
        zone: zone_combination(file, child(inner)),
    }
}

/// A `zone_union`, `zone_intersection` or `zone_difference`: operands joined left to right.
fn zone_combination(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Zone> {
    if pair.as_rule() == Rule::zone {
        return zone(file, pair);
    }
    let operator = match pair.as_rule() {
        Rule::zone_union => ZoneOperator::Or,
        Rule::zone_intersection => ZoneOperator::And,
        _ => ZoneOperator::Except,
    };
    let mut operands = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and | Rule::kw_except));
    let mut left = zone_combination(file, operands.next().expect("an operand"));
    for right in operands {
        let right = zone_combination(file, right);
        let span = left.span.to(right.span);
        left = Spanned::new(
            Zone::Combined {
                operator,
                left: Box::new(left),
                right: Box::new(right),
            },
            span,
        );
    }
    left
}

/// An expression, from any of the expression rules.
pub(super) fn expression(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Expression> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    if rule == Rule::zone {
        return Spanned::new(Expression::Zone(zone(file, pair)), span);
    }
    let mut parts = pair.into_inner();
    let boxed = |pair: Pair<'_, Rule>| Box::new(expression(file, pair));
    let side = |pair: Pair<'_, Rule>| side_reference(file, pair);
    let node = match rule {
        Rule::expression | Rule::parenthesized => return expression(file, child(&mut parts)),
        Rule::disjunction | Rule::conjunction => {
            let operands: Vec<Pair<'_, Rule>> = parts
                .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and))
                .collect();
            let mut operands = operands.into_iter();
            let mut left = expression(file, operands.next().expect("an operand"));
            for right in operands {
                let right = expression(file, right);
                let joined = left.span.to(right.span);
                let node = if rule == Rule::disjunction {
                    Expression::Or(Box::new(left), Box::new(right))
                } else {
                    Expression::And(Box::new(left), Box::new(right))
                };
                left = Spanned::new(node, joined);
            }
            return left;
        }
        Rule::negation | Rule::operand => {
            let first = child(&mut parts);
            if first.as_rule() != Rule::kw_not {
                return expression(file, first);
            }
            Expression::Not(boxed(child(&mut parts)))
        }
        Rule::comparison => {
            let left = child(&mut parts);
            let Some(operator) = parts.next() else {
                return expression(file, left);
            };
            let comparison = comparison_of(operator.as_str());
            let operator = Spanned::new(comparison, span_of(file, &operator));
            Expression::Compare(boxed(left), operator, boxed(child(&mut parts)))
        }
        Rule::difference => {
            let mut left = expression(file, child(&mut parts));
            while let Some(operator) = parts.next() {
                let right = expression(file, child(&mut parts));
                let joined = left.span.to(right.span);
                let node = match operator.as_str() {
                    "+" => Expression::Plus(Box::new(left), Box::new(right)),
                    "-" => Expression::Minus(Box::new(left), Box::new(right)),
                    _ => Expression::Except(Box::new(left), Box::new(right)),
                };
                left = Spanned::new(node, joined);
            }
            return left;
        }
        Rule::number_term => Expression::Number(child(&mut parts).as_str().to_string()),
        Rule::place_on_term => Expression::PlaceOn(boxed(parts.nth(2).expect("an operand"))),
        Rule::place_term => Expression::Place(text_of(file, &parts.nth(1).expect("a name"))),
        Rule::touch_term => Expression::Touch(boxed(parts.nth(1).expect("an operand"))),
        Rule::move_from_term => Expression::MoveFrom(boxed(parts.nth(2).expect("an operand"))),
        Rule::move_term => Expression::Move(text_of(file, &parts.nth(1).expect("a name"))),
        Rule::acted_term => Expression::Acted,
        Rule::turn_count_term => match child(&mut parts).as_rule() {
            Rule::kw_actions => Expression::ActionsThisTurn,
            _ => Expression::DropsThisTurn,
        },
        Rule::turn_start_term => Expression::AtTurnStart(boxed(parts.nth(3).expect("an operand"))),
        Rule::leave_action_term => Expression::LeaveAction,
        Rule::give_checkmate_term => Expression::GiveCheckmate,
        Rule::place_stranded_term => Expression::PlaceStranded,
        Rule::can_act_term if parts.any(|part| part.as_rule() == Rule::kw_promoting) => {
            Expression::CanActWithoutPromoting
        }
        Rule::can_act_term => Expression::CanAct,
        Rule::after_term => Expression::After(boxed(parts.nth(1).expect("an operand"))),
        Rule::give_check_term => Expression::GiveCheck,
        Rule::placement_term => Expression::Placement,
        Rule::count_term => Expression::Count(boxed(parts.nth(1).expect("an operand"))),
        Rule::sum_term => {
            let field = boxed(parts.nth(1).expect("a field"));
            Expression::Sum(field, boxed(parts.nth(1).expect("squares")))
        }
        Rule::hands_empty_term => Expression::HandsEmpty,
        Rule::hand_term => {
            let mut side_written = None;
            let mut piece = None;
            for part in parts {
                match part.as_rule() {
                    Rule::side_reference => side_written = Some(side(part)),
                    Rule::name => piece = Some(text_of(file, &part)),
                    _ => {}
                }
            }
            Expression::Hand {
                side: side_written,
                piece,
            }
        }
        Rule::placed_term => {
            let who = side(child(&mut parts));
            Expression::Placed(who, text_of(file, &parts.nth(1).expect("a name")))
        }
        Rule::passed_term => Expression::Passed(side(child(&mut parts))),
        Rule::last_drop_term => Expression::LastDrop(side(parts.nth(3).expect("a side"))),
        Rule::controlled_term => Expression::ControlledBy(side(parts.nth(2).expect("a side"))),
        Rule::attacked_term => Expression::AttackedBy(side(parts.nth(2).expect("a side"))),
        Rule::adjacent_term => Expression::Adjacent(boxed(parts.nth(2).expect("an operand"))),
        Rule::reach_term => {
            let from = boxed(parts.nth(2).expect("an operand"));
            let betza = crate::parse::pairs::string_of(file, parts.nth(1).expect("a string"));
            Expression::Reach(from, betza)
        }
        Rule::colour_of_term => Expression::ColourOf(boxed(parts.nth(2).expect("an operand"))),
        Rule::file_of_term => Expression::FileOf(boxed(parts.nth(2).expect("an operand"))),
        Rule::some_term => Expression::Some(boxed(parts.nth(1).expect("an operand"))),
        Rule::no_term => Expression::No(boxed(parts.nth(1).expect("an operand"))),
        Rule::legal_drops_term => Expression::LegalDrops,
        Rule::controllers_term => Expression::Controllers(side(parts.nth(2).expect("a side"))),
        Rule::piece_value_term => Expression::PieceValue,
        Rule::control_value_term => Expression::ControlValue(side(parts.nth(3).expect("a side"))),
        Rule::squares_term => Expression::Squares(match child(&mut parts).as_rule() {
            Rule::kw_empty => SquareConstant::Empty,
            Rule::kw_occupied => SquareConstant::Occupied,
            Rule::kw_light => SquareConstant::Light,
            Rule::kw_dark => SquareConstant::Dark,
            _ => SquareConstant::Board,
        }),
        Rule::pieces_term => {
            let who = side(child(&mut parts));
            let kind = child(&mut parts);
            let piece = (kind.as_rule() == Rule::name).then(|| text_of(file, &kind));
            Expression::Pieces(who, piece)
        }
        other => unreachable!("not an expression rule: {other:?}"),
    };
    Spanned::new(node, span)
}

pub(super) fn side_reference(file: FileId, pair: Pair<'_, Rule>) -> Spanned<SideReference> {
    let span = span_of(file, &pair);
    let word = pair
        .into_inner()
        .next()
        .expect("a side reference has one word");
    let side = match word.as_rule() {
        Rule::kw_own => SideReference::Own,
        Rule::kw_opponent => SideReference::Opponent,
        Rule::kw_any => SideReference::Any,
        Rule::kw_next => SideReference::Next,
        Rule::kw_team => SideReference::Team,
        _ => SideReference::Named(word.as_str().to_string()),
    };
    Spanned::new(side, span)
}
