//! Drops and turns: `actions`, `drops` and `move` rules (`must` constraints with their origin
//! in the source), `phase` statements and the `turn` statement.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::expression::Condition;
use crate::span::{Span, Spanned};
use crate::typing::{self, Place};
use crate::validate::names::{Context, Resolver};
use crate::validate::validator::{duplicate, not_supported, Validator};
use std::collections::HashMap;

/// The most actions one turn may have (`up to N actions`).
pub const MAX_TURN_ACTIONS: u8 = 8;

impl Validator<'_> {
    pub(super) fn actions(&mut self, statement: &ActionsStatement) -> Actions {
        let mut actions = Actions {
            moves: false,
            drops: false,
        };
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for kind in &statement.kinds {
            let word = kind.node.keyword_text();
            if let Some(first) = seen.insert(word, kind.span) {
                self.error(duplicate(word, kind.span, first));
                continue;
            }
            match kind.node {
                ActionKind::Moves => actions.moves = true,
                ActionKind::Drops => actions.drops = true,
            }
        }
        actions
    }

    pub(super) fn drop_rules(
        &mut self,
        items: &[Spanned<DropsItem>],
        context: &Context<'_>,
        kind: RuleKind,
    ) -> DropRules {
        let mut rules = DropRules::default();
        for item in items {
            match &item.node {
                DropsItem::Future(future) => self.error(not_supported(future)),
                DropsItem::Irreversible => rules.irreversible = true,
                DropsItem::Must(must) if kind == RuleKind::Move => {
                    match self.after_rule(must, item.span, context) {
                        Ok(Some(rule)) => rules.after.push(rule),
                        Ok(None) => {}
                        Err(()) => {
                            if let Some(constraint) =
                                self.drop_constraint(must, item.span, context, kind)
                            {
                                rules.constraints.push(constraint);
                            }
                        }
                    }
                }
                DropsItem::Must(must) => {
                    if let Some(constraint) = self.drop_constraint(must, item.span, context, kind) {
                        self.one_kind_of_lookahead(&rules, &constraint, item.span);
                        rules.constraints.push(constraint);
                    }
                }
                DropsItem::Obligation(obligation) if kind == RuleKind::Drop => {
                    let word = obligation.kind.node.word();
                    self.error(
                        Diagnostic::error(
                            code::EXPRESSION_PLACE,
                            format!("`must {word}` is a rule of the `moves` block"),
                            obligation.kind.span,
                            "an obligation on the turn's action as a whole",
                        )
                        .with_help(format!(
                            "write it in `moves {{ ... }}`: `moves {{ must {word} when a {word} is possible }}`"
                        )),
                    );
                }
                DropsItem::Obligation(obligation) => {
                    if let Some(obligation) = self.obligation(obligation, item.span, context) {
                        rules.obligations.push(obligation);
                    }
                }
            }
        }
        rules
    }

    /// A move rule judged after the move (`must [not] after C`, `must [not] give check`):
    /// `Ok(None)` if any of its names or types is wrong (each is reported), `Err(())` if the
    /// statement is an ordinary move rule.
    fn after_rule(
        &mut self,
        must: &MustStatement,
        span: Span,
        context: &Context<'_>,
    ) -> Result<Option<AfterRule>, ()> {
        if !typing::is_after(&must.requirement) {
            return Err(());
        }
        let side = must
            .side
            .as_ref()
            .map(|name| self.side_id(name, context.sides, "`moves`"));
        let mut names = Resolver {
            validator: self,
            context,
        };
        let test = typing::after_requirement(&mut names, &must.requirement);
        let condition = match &must.condition {
            Some(condition) => typing::condition(&mut names, condition, Place::Move),
            None => Some(Condition::True),
        };
        let (Some((holds, test)), Some(condition)) = (test, condition) else {
            return Ok(None);
        };
        let side = match side {
            Some(Some(side)) => Some(side),
            Some(None) => return Ok(None),
            None => None,
        };
        Ok(Some(AfterRule {
            side,
            holds,
            test,
            condition,
            origin: self.origin(span),
        }))
    }

    /// The lookahead of a block is either `leave an action` or `not give checkmate`: the engine
    /// tries the position after a drop one way for the whole game.
    fn one_kind_of_lookahead(&mut self, rules: &DropRules, new: &DropConstraint, span: Span) {
        let lookahead = |c: &DropConstraint| match c.requirement {
            Condition::LeaveAction => Some("must leave an action"),
            Condition::NoCheckmate => Some("must not give checkmate"),
            _ => None,
        };
        let Some(this) = lookahead(new) else {
            return;
        };
        if let Some(other) = rules
            .constraints
            .iter()
            .filter_map(lookahead)
            .find(|other| *other != this)
        {
            self.error(
                Diagnostic::error(
                    code::EXPRESSION_PLACE,
                    format!("`{this}` cannot be used in a block that says `{other}`"),
                    span,
                    "a second kind of look at the position after a drop",
                )
                .with_help(
                    "the drop rules of a game look after the drop one way: keep one of the two",
                ),
            );
        }
    }

    /// One `must capture` or `must drop` statement (the grammar allows them in a `moves` block
    /// only); `None` if any of its names or types is wrong (each is reported).
    fn obligation(
        &mut self,
        statement: &ObligationStatement,
        span: Span,
        context: &Context<'_>,
    ) -> Option<Obligation> {
        let side = statement
            .side
            .as_ref()
            .map(|name| self.side_id(name, context.sides, "`moves`"));
        let condition = match &statement.condition {
            None => Some(ObligationWhen::Holds(Condition::True)),
            Some(written) => match &written.node {
                ObligationCondition::Possible(kind) => Some(ObligationWhen::Possible(*kind)),
                ObligationCondition::When(expression) => {
                    let mut names = Resolver {
                        validator: self,
                        context,
                    };
                    let expression = Spanned::new(expression.clone(), written.span);
                    typing::condition(&mut names, &expression, Place::Obligation)
                        .map(ObligationWhen::Holds)
                }
            },
        };
        let side = match side {
            Some(found) => Some(found?),
            None => None,
        };
        Some(Obligation {
            side,
            kind: statement.kind.node,
            condition: condition?,
            origin: self.origin(span),
        })
    }

    /// One `must` statement; `None` if any of its names or types is wrong (each is reported).
    fn drop_constraint(
        &mut self,
        must: &MustStatement,
        span: Span,
        context: &Context<'_>,
        kind: RuleKind,
    ) -> Option<DropConstraint> {
        let (block, requirement_place, condition_place) = match kind {
            RuleKind::Drop => ("`drops`", Place::DropRequirement, Place::DropCondition),
            RuleKind::Move => ("`moves`", Place::Move, Place::Move),
        };
        let side = must
            .side
            .as_ref()
            .map(|name| self.side_id(name, context.sides, block));
        let mut names = Resolver {
            validator: self,
            context,
        };
        let requirement = typing::condition(&mut names, &must.requirement, requirement_place);
        let condition = match &must.condition {
            Some(condition) => typing::condition(&mut names, condition, condition_place),
            None => Some(Condition::True),
        };
        let side = match side {
            Some(found) => Some(found?),
            None => None,
        };
        Some(DropConstraint {
            side,
            requirement: requirement?,
            condition: condition?,
            origin: self.origin(span),
        })
    }

    /// `phase NAME { order ...; must ... }`; `None` after reporting a mistake.
    pub(super) fn phase(
        &mut self,
        phase: &PhaseStatement,
        context: &Context<'_>,
        actions: Actions,
    ) -> Option<PhaseDef> {
        if !actions.drops {
            self.error(
                Diagnostic::error(
                    code::TURN_ORDER,
                    "a placement phase needs drops",
                    phase.keyword,
                    "sides place pieces from their hands in this phase",
                )
                .with_help("add `actions moves drops` (or `actions drops`)"),
            );
            return None;
        }
        let Some(order) = &phase.order else {
            self.error(
                Diagnostic::error(
                    code::MISSING_STATEMENT,
                    format!("the phase `{}` has no `order`", phase.name.node),
                    phase.keyword,
                    "which sides place, in which order?",
                )
                .with_help("add `order white black` inside the block"),
            );
            return None;
        };
        let sides: Vec<Option<SideId>> = order
            .node
            .iter()
            .map(|name| self.side_id(name, context.sides, "`order`"))
            .collect();
        let drops = self.drop_rules(&phase.rules, context, RuleKind::Drop);
        Some(PhaseDef {
            name: phase.name.node.clone(),
            order: sides.into_iter().collect::<Option<Vec<_>>>()?,
            drops,
        })
    }

    /// `turn { ... }`
    pub(super) fn turn_rules(
        &mut self,
        statement: &TurnStatement,
        context: &Context<'_>,
    ) -> TurnRules {
        let mut rules = TurnRules::default();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for item in &statement.items {
            let name = match &item.node {
                TurnItem::Future(future) => {
                    self.error(not_supported(future));
                    continue;
                }
                TurnItem::Length(_) => "up to",
                TurnItem::Maximal => "maximal",
                TurnItem::Pass => "pass",
                TurnItem::MayPass(_) => "may pass",
                TurnItem::ExchangePrisoners => "exchange prisoners",
            };
            if let Some(first) = seen.insert(name, item.span) {
                self.error(duplicate(name, item.span, first));
                continue;
            }
            match &item.node {
                TurnItem::Length(digits) => {
                    if let Some(count) = self.number(digits, 1, i64::from(MAX_TURN_ACTIONS)) {
                        rules.actions = count as u8;
                    }
                }
                TurnItem::Maximal => rules.maximal = true,
                TurnItem::Pass => rules.pass = true,
                TurnItem::MayPass(in_check) => {
                    rules.may_pass = true;
                    if let Some(condition) = in_check {
                        let mut names = Resolver {
                            validator: self,
                            context,
                        };
                        rules.pass_in_check =
                            typing::condition(&mut names, condition, Place::Obligation);
                    }
                }
                TurnItem::ExchangePrisoners => rules.exchange_prisoners = true,
                TurnItem::Future(_) => {}
            }
        }
        rules
    }

    /// Where the statement at `span` is written: its file's name, line and text.
    pub(super) fn origin(&self, span: Span) -> Origin {
        let name = self.sources.name(span.file);
        let file = std::path::Path::new(name).file_name().map_or_else(
            || name.to_string(),
            |file| file.to_string_lossy().into_owned(),
        );
        let line = self.sources.line_of(span.file, span.start);
        Origin {
            file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            text: statement_text(self.sources.snippet(span)),
        }
    }
}

/// The text of a statement without strings (a `must` statement) as one line: comments
/// removed, line continuations and runs of whitespace written as one space, trimmed.
fn statement_text(source: &str) -> String {
    let mut text = String::with_capacity(source.len());
    let mut rest = source;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |newline| &after[newline..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            text.push(' ');
        } else if let Some(after) = rest.strip_prefix('\\') {
            rest = after;
            text.push(' ');
        } else {
            let next = rest.chars().next().unwrap_or(' ');
            text.push(next);
            rest = &rest[next.len_utf8()..];
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a `must` rule binds drops or moves.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RuleKind {
    Drop,
    Move,
}

impl Validator<'_> {
    /// `supply` means something only where drops are played, and never beside a placement
    /// phase, which ends when the hands are empty: a supplied piece is always in hand.
    pub(super) fn supplies_fit(
        &mut self,
        pieces: &[&PieceStatement],
        actions: Actions,
        phases: bool,
    ) {
        let supplied = pieces.iter().flat_map(|piece| {
            piece
                .items
                .iter()
                .filter(|item| item.node == PieceItem::Supply)
                .map(move |item| (&piece.name.node, item.span))
        });
        let problems: Vec<(String, Span, &str, &str)> = supplied
            .filter_map(|(name, span)| {
                if !actions.drops {
                    Some((
                        format!("`supply` on `{name}` in a game whose `actions` have no `drops`"),
                        span,
                        "its pieces could never be dropped",
                        "add `drops` to the `actions` (`actions moves drops`), or remove `supply`",
                    ))
                } else if phases {
                    Some((
                        format!("`supply` on `{name}` in a game with a placement phase"),
                        span,
                        "a supplied piece is always in hand",
                        "a placement phase lasts until the hands are empty, which they never \
                         would be: remove the phase or `supply`",
                    ))
                } else {
                    None
                }
            })
            .collect();
        for (message, span, label, help) in problems {
            self.error(
                Diagnostic::error(code::EXPRESSION_PLACE, message, span, label).with_help(help),
            );
        }
    }
}
