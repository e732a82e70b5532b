//! Building the AST of a `policy` statement: its dice rolls and steps, and the conditions and
//! numbers that choose an action.

use crate::ast::*;
use crate::parse::expressions::{comparison_of, expression, side_reference};
use crate::parse::grammar::Rule;
use crate::parse::pairs::{block_items, child, span_of, string_of, text_of};
use crate::span::{FileId, Spanned};
use pest::iterators::{Pair, Pairs};

pub(super) fn policy_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> PolicyStatement {
    let keyword = span_of(file, &child(inner));
    let side = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::policy_rule => {
                    parts.next();
                    let label = text_of(file, &child(&mut parts));
                    let steps = block_items(parts)
                        .map(|step| policy_step(file, step))
                        .collect();
                    PolicyItemSyntax::Rule(label, steps)
                }
                Rule::policy_roll => {
                    let label = parts
                        .clone()
                        .find(|p| p.as_rule() == Rule::rule_label)
                        .map(|p| text_of(file, &p));
                    let (dice, name) = roll(file, parts);
                    PolicyItemSyntax::Roll(dice, name, label)
                }
                _ => {
                    let words: Vec<Pair<'_, Rule>> = parts.collect();
                    let idents: Vec<Spanned<String>> = words
                        .iter()
                        .filter(|p| p.as_rule() == Rule::identifier)
                        .map(|p| text_of(file, p))
                        .collect();
                    PolicyItemSyntax::Nearest {
                        name: idents[0].clone(),
                        to: idents[1].clone(),
                        except: idents[2].clone(),
                        lower_when_odd: words.iter().any(|p| p.as_rule() == Rule::kw_lower),
                    }
                }
            };
            Spanned::new(item, span)
        })
        .collect();
    PolicyStatement {
        keyword,
        side,
        items,
    }
}

pub(super) fn roll(file: FileId, mut parts: Pairs<'_, Rule>) -> (DiceSyntax, Spanned<String>) {
    parts.next();
    let mut dice = child(&mut parts).into_inner();
    let count = text_of(file, &child(&mut dice));
    let faces = text_of(file, &child(&mut dice));
    let mut next = child(&mut parts);
    let mut offset = 0;
    if next.as_rule() == Rule::dice_offset {
        let text: String = next
            .as_str()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        offset = text.parse::<i64>().unwrap_or(0);
        next = child(&mut parts);
    }
    let _ = next; // `as`
    let name = text_of(file, &child(&mut parts));
    (
        DiceSyntax {
            count,
            faces,
            offset,
        },
        name,
    )
}

pub(super) fn policy_step(file: FileId, pair: Pair<'_, Rule>) -> Spanned<PolicyStepSyntax> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut parts = pair.into_inner();
    let idents = |parts: Pairs<'_, Rule>| -> Vec<Spanned<String>> {
        parts
            .filter(|p| p.as_rule() == Rule::identifier)
            .map(|p| text_of(file, &p))
            .collect()
    };
    let step = match rule {
        Rule::step_moves => PolicyStepSyntax::Moves(idents(parts).into_iter().next()),
        Rule::step_captures => {
            PolicyStepSyntax::Captures(idents(parts).into_iter().next().expect("number"))
        }
        Rule::step_where => {
            parts.next();
            PolicyStepSyntax::Where(action_condition(file, child(&mut parts)))
        }
        Rule::step_prefer => {
            parts.next();
            PolicyStepSyntax::Prefer(parts.map(|p| action_condition(file, p)).collect())
        }
        Rule::step_best => {
            let highest = child(&mut parts).as_rule() == Rule::kw_highest;
            let measure = action_number(file, child(&mut parts));
            let per = parts.nth(1).map(|p| p.as_str().to_string());
            PolicyStepSyntax::Best {
                highest,
                measure,
                per,
            }
        }
        Rule::policy_roll => {
            let (dice, name) = roll(file, parts);
            PolicyStepSyntax::Roll(dice, name)
        }
        Rule::step_slide => {
            let piece = text_of(file, &parts.nth(1).expect("piece"));
            let lines = string_of(file, parts.nth(1).expect("lines"));
            let until = Box::new(expression(file, parts.nth(1).expect("squares")));
            PolicyStepSyntax::Slide {
                piece,
                lines,
                until,
            }
        }
        _ => {
            let clause = |rule: Rule, parts: &Pairs<'_, Rule>| {
                parts.clone().find(|p| p.as_rule() == rule).map(|p| {
                    Box::new(action_condition(
                        file,
                        p.into_inner().nth(2).expect("condition"),
                    ))
                })
            };
            let lands = clause(Rule::jump_lands, &parts);
            let removed = clause(Rule::jump_removed, &parts);
            let mut names = idents(parts).into_iter();
            let number = names.next().expect("number");
            let column = names.next().expect("file");
            let row = names.next().expect("rank");
            PolicyStepSyntax::Jump {
                number,
                file: column,
                rank: row,
                lands,
                removed,
            }
        }
    };
    Spanned::new(step, span)
}

pub(super) fn action_condition(
    file: FileId,
    pair: Pair<'_, Rule>,
) -> Spanned<ActionConditionSyntax> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut parts = pair.into_inner();
    let node = match rule {
        Rule::action_condition | Rule::action_and => {
            let operands: Vec<Spanned<ActionConditionSyntax>> = parts
                .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and))
                .map(|p| action_condition(file, p))
                .collect();
            if operands.len() == 1 {
                return operands.into_iter().next().expect("one");
            }
            if rule == Rule::action_condition {
                ActionConditionSyntax::Or(operands)
            } else {
                ActionConditionSyntax::And(operands)
            }
        }
        Rule::action_not => {
            let first = child(&mut parts);
            if first.as_rule() != Rule::kw_not {
                return action_condition(file, first);
            }
            ActionConditionSyntax::Not(Box::new(action_condition(file, child(&mut parts))))
        }
        Rule::a_capture_checker => ActionConditionSyntax::CaptureOfChecker,
        Rule::a_in_check => ActionConditionSyntax::InCheck,
        Rule::a_legal => ActionConditionSyntax::Legal,
        Rule::a_capture => ActionConditionSyntax::Capture,
        Rule::a_moving => {
            ActionConditionSyntax::Moving(text_of(file, &parts.nth(1).expect("piece")))
        }
        Rule::a_from => {
            ActionConditionSyntax::From(expression(file, parts.nth(1).expect("squares")))
        }
        Rule::a_to => ActionConditionSyntax::To(expression(file, parts.nth(1).expect("squares"))),
        Rule::a_lands => {
            ActionConditionSyntax::LandsOn(expression(file, parts.nth(2).expect("squares")))
        }
        Rule::a_attacks => {
            ActionConditionSyntax::ThenAttacks(expression(file, parts.nth(2).expect("squares")))
        }
        _ => {
            let left = action_number(file, child(&mut parts));
            let operator = child(&mut parts);
            let comparison = comparison_of(operator.as_str());
            let right = action_number(file, child(&mut parts));
            ActionConditionSyntax::Compare(left, comparison, right)
        }
    };
    Spanned::new(node, span)
}

pub(super) fn action_number(file: FileId, pair: Pair<'_, Rule>) -> Spanned<ActionNumberSyntax> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let text = pair.as_str().to_string();
    let mut parts = pair.into_inner();
    let node = match rule {
        Rule::n_integer => ActionNumberSyntax::Integer(text),
        Rule::n_candidates => ActionNumberSyntax::Candidates,
        Rule::n_value => match parts.nth(2).map(|p| p.as_rule()) {
            Some(Rule::kw_mover) => ActionNumberSyntax::MoverValue,
            Some(Rule::kw_target) => ActionNumberSyntax::TargetValue,
            _ => ActionNumberSyntax::VictimValue,
        },
        Rule::n_distance => ActionNumberSyntax::Distance,
        Rule::n_attackers => {
            ActionNumberSyntax::Attackers(side_reference(file, parts.nth(4).expect("side")))
        }
        _ => ActionNumberSyntax::Variable(text),
    };
    Spanned::new(node, span)
}
