//! Policies: `policy` statements, their dice and their steps, with the conditions and numbers
//! that choose an action.

use crate::ast::*;
use crate::betza;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::Spanned;
use crate::suggestion;
use crate::typing::{self, Place};
use crate::validate::names::{Context, Resolver};
use crate::validate::validator::{duplicate, Validator};

impl Validator<'_> {
    /// `policy red { ... }`: one per side; names are defined (by `roll` and `let`) before use.
    pub(super) fn policies(
        &mut self,
        statements: &[&PolicyStatement],
        context: &Context<'_>,
    ) -> Vec<PolicyDef> {
        let mut policies: Vec<PolicyDef> = Vec::new();
        for statement in statements {
            let Some(side) = self.side_id(&statement.side, context.sides, "`policy`") else {
                continue;
            };
            if policies.iter().any(|p| p.side == side) {
                self.error(duplicate("policy", statement.keyword, statement.keyword));
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            let mut items = Vec::new();
            for item in &statement.items {
                let resolved = match &item.node {
                    PolicyItemSyntax::Rule(label, steps) => {
                        let steps = steps
                            .iter()
                            .filter_map(|step| self.policy_step(step, context, &mut names))
                            .collect();
                        PolicyItem::Rule {
                            label: label.node.clone(),
                            steps,
                        }
                    }
                    PolicyItemSyntax::Roll(dice, name, label) => {
                        let Some(dice) = self.dice(dice) else {
                            continue;
                        };
                        names.push(name.node.clone());
                        PolicyItem::Roll {
                            dice,
                            name: name.node.clone(),
                            rule: label.as_ref().map(|label| label.node.clone()),
                        }
                    }
                    PolicyItemSyntax::Nearest {
                        name,
                        to,
                        except,
                        lower_when_odd,
                    } => {
                        self.defined(to, &names);
                        self.defined(except, &names);
                        names.push(name.node.clone());
                        PolicyItem::Nearest {
                            name: name.node.clone(),
                            to: to.node.clone(),
                            except: except.node.clone(),
                            lower_when_odd: *lower_when_odd,
                        }
                    }
                };
                items.push(resolved);
            }
            policies.push(PolicyDef { side, items });
        }
        policies
    }

    fn dice(&mut self, dice: &DiceSyntax) -> Option<Dice> {
        let count = self.number(&dice.count, 1, 16)? as u8;
        let faces = self.number(&dice.faces, 1, 100)? as u8;
        Some(Dice {
            count,
            faces,
            offset: dice.offset.clamp(-1000, 1000) as i32,
        })
    }

    /// Reports a name used before a `roll` or `let` defines it.
    fn defined(&mut self, name: &Spanned<String>, names: &[String]) -> Option<()> {
        if names.contains(&name.node) {
            return Some(());
        }
        let mut diagnostic = Diagnostic::error(
            code::POLICY,
            format!("`{}` is not defined here", name.node),
            name.span,
            "no `roll` or `let` before this names it",
        );
        if let Some(help) = suggestion::did_you_mean(&name.node, names.iter().map(String::as_str)) {
            diagnostic = diagnostic.with_help(help);
        }
        self.error(diagnostic);
        None
    }

    fn policy_step(
        &mut self,
        step: &Spanned<PolicyStepSyntax>,
        context: &Context<'_>,
        names: &mut Vec<String>,
    ) -> Option<PolicyStep> {
        Some(match &step.node {
            PolicyStepSyntax::Moves(number) => {
                if let Some(number) = number {
                    self.defined(number, names)?;
                }
                PolicyStep::Moves(number.as_ref().map(|n| n.node.clone()))
            }
            PolicyStepSyntax::Captures(number) => {
                self.defined(number, names)?;
                PolicyStep::Captures(number.node.clone())
            }
            PolicyStepSyntax::Where(condition) => {
                PolicyStep::Where(self.action_condition(condition, context, names)?)
            }
            PolicyStepSyntax::Prefer(groups) => PolicyStep::Prefer(
                groups
                    .iter()
                    .map(|group| self.action_condition(group, context, names))
                    .collect::<Option<Vec<_>>>()?,
            ),
            PolicyStepSyntax::Best {
                highest,
                measure,
                per,
            } => PolicyStep::Best {
                highest: *highest,
                measure: self.action_number(measure, context, names)?,
                per: per.as_deref().map(|per| {
                    if per == "piece" {
                        Grouping::Piece
                    } else {
                        Grouping::Direction
                    }
                }),
            },
            PolicyStepSyntax::Roll(dice, name) => {
                let dice = self.dice(dice)?;
                names.push(name.node.clone());
                PolicyStep::Roll {
                    dice,
                    name: name.node.clone(),
                }
            }
            PolicyStepSyntax::Slide {
                piece,
                lines,
                until,
            } => {
                let piece = self.piece_id(piece, context.pieces, "`then ... slides`");
                let lines = self.slide_lines(lines);
                let mut resolver = Resolver {
                    validator: self,
                    context,
                };
                let until = typing::squares(&mut resolver, until, Place::Policy);
                PolicyStep::Slide {
                    piece: piece?,
                    lines: lines?,
                    until: until?,
                }
            }
            PolicyStepSyntax::Jump {
                number,
                file,
                rank,
                lands,
                removed,
            } => {
                self.defined(number, names)?;
                self.defined(file, names)?;
                self.defined(rank, names)?;
                let mut clause = |condition: &Option<Box<Spanned<ActionConditionSyntax>>>| {
                    condition
                        .as_ref()
                        .map(|c| self.action_condition(c, context, names).ok_or(()))
                        .transpose()
                };
                let lands = clause(lands);
                let removed = clause(removed);
                PolicyStep::Jump {
                    number: number.node.clone(),
                    file: file.node.clone(),
                    rank: rank.node.clone(),
                    lands: lands.ok()?,
                    removed: removed.ok()?,
                }
            }
        })
    }

    /// The lines of `then PIECE slides "LINES"`: every step of each Betza atom, as far as the
    /// atom goes. Modifiers other than directions mean nothing for a slide and are refused.
    fn slide_lines(&mut self, text: &Spanned<StringLit>) -> Option<Vec<SlideLine>> {
        if betza::decode(&text.node.value).is_err() {
            // Reported where each Betza error is.
            self.moves(text);
            return None;
        }
        let atoms = self.moves(text);
        if atoms.is_empty() {
            self.error(Diagnostic::error(
                code::POLICY,
                "a slide needs lines to slide along",
                text.span,
                "no Betza atom here",
            ));
            return None;
        }
        let plain = |atom: &MoveAtom| {
            atom.mode == MoveMode::Both
                && !atom.initial_only
                && !atom.lame
                && !atom.en_passant
                && atom.hop.is_none()
        };
        if !atoms.iter().all(plain) {
            self.error(
                Diagnostic::error(
                    code::POLICY,
                    format!(
                        "`{}` is not a set of lines: a slide takes atoms and directions only",
                        text.node.value
                    ),
                    text.span,
                    "`m`, `c`, `i`, `n` and `e` mean nothing for a slide",
                )
                .with_help("write the lines as a rider, such as \"Q\", \"R\" or \"fB\""),
            );
            return None;
        }
        Some(
            atoms
                .iter()
                .flat_map(|atom| {
                    atom.steps.iter().map(|&step| SlideLine {
                        step,
                        range: atom.range,
                    })
                })
                .collect(),
        )
    }

    fn action_condition(
        &mut self,
        condition: &Spanned<ActionConditionSyntax>,
        context: &Context<'_>,
        names: &[String],
    ) -> Option<ActionCondition> {
        let squares = |validator: &mut Self, expression: &Spanned<Expression>| {
            let mut resolver = Resolver { validator, context };
            typing::squares(&mut resolver, expression, Place::Policy)
        };
        Some(match &condition.node {
            ActionConditionSyntax::Or(parts) | ActionConditionSyntax::And(parts) => {
                let parts = parts
                    .iter()
                    .map(|part| self.action_condition(part, context, names))
                    .collect::<Option<Vec<_>>>()?;
                if matches!(condition.node, ActionConditionSyntax::Or(_)) {
                    ActionCondition::Or(parts)
                } else {
                    ActionCondition::And(parts)
                }
            }
            ActionConditionSyntax::Not(inner) => {
                ActionCondition::Not(Box::new(self.action_condition(inner, context, names)?))
            }
            ActionConditionSyntax::CaptureOfChecker => ActionCondition::CaptureOfChecker,
            ActionConditionSyntax::InCheck => ActionCondition::InCheck,
            ActionConditionSyntax::Legal => ActionCondition::Legal,
            ActionConditionSyntax::Capture => ActionCondition::Capture,
            ActionConditionSyntax::Moving(piece) => {
                ActionCondition::Moving(self.piece_id(piece, context.pieces, "`moving`")?)
            }
            ActionConditionSyntax::From(set) => ActionCondition::From(squares(self, set)?),
            ActionConditionSyntax::To(set) => ActionCondition::To(squares(self, set)?),
            ActionConditionSyntax::LandsOn(set) => ActionCondition::LandsOn(squares(self, set)?),
            ActionConditionSyntax::ThenAttacks(set) => {
                ActionCondition::ThenAttacks(squares(self, set)?)
            }
            ActionConditionSyntax::Compare(left, comparison, right) => ActionCondition::Compare(
                self.action_number(left, context, names)?,
                *comparison,
                self.action_number(right, context, names)?,
            ),
        })
    }

    fn action_number(
        &mut self,
        number: &Spanned<ActionNumberSyntax>,
        context: &Context<'_>,
        names: &[String],
    ) -> Option<ActionNumber> {
        Some(match &number.node {
            ActionNumberSyntax::Integer(text) => ActionNumber::Constant(self.number(
                &Spanned::new(text.clone(), number.span),
                0,
                1_000_000,
            )?),
            ActionNumberSyntax::Candidates => ActionNumber::Candidates,
            ActionNumberSyntax::MoverValue => ActionNumber::MoverValue,
            ActionNumberSyntax::VictimValue => ActionNumber::VictimValue,
            ActionNumberSyntax::TargetValue => ActionNumber::TargetValue,
            ActionNumberSyntax::Distance => ActionNumber::Distance,
            ActionNumberSyntax::Attackers(side) => {
                let side = match &side.node {
                    SideReference::Own => crate::expression::SideRef::Own,
                    SideReference::Team => crate::expression::SideRef::Team,
                    SideReference::Opponent => crate::expression::SideRef::Opponents,
                    SideReference::Any => crate::expression::SideRef::Any,
                    SideReference::Next => crate::expression::SideRef::Next,
                    SideReference::Named(name) => crate::expression::SideRef::Side(self.side_id(
                        &Spanned::new(name.clone(), side.span),
                        context.sides,
                        "`attackers`",
                    )?),
                };
                ActionNumber::Attackers(side)
            }
            ActionNumberSyntax::Variable(name) => {
                self.defined(&Spanned::new(name.clone(), number.span), names)?;
                ActionNumber::Variable(name.clone())
            }
        })
    }
}
