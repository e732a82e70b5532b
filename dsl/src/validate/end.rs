//! The end of a game: the `end` block (checkmate, stalemate, repetition, material and other
//! rules), and the warnings about royals no end rule notices.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::{Span, Spanned};
use crate::typing::{self, Place};
use crate::validate::names::{Context, PieceName, Resolver};
use crate::validate::validator::{duplicate, not_supported, Validator};
use std::collections::HashMap;

impl Validator<'_> {
    pub(super) fn end_rules(&mut self, end: &EndStatement, context: &Context<'_>) -> EndRules {
        let mut rules = EndRules::default();
        let mut seen: HashMap<String, Span> = HashMap::new();
        let mut materials: HashMap<(Vec<PieceCount>, bool), Span> = HashMap::new();
        for rule in &end.rules {
            if let EndRule::Future(future) = &rule.node {
                self.error(not_supported(future));
                continue;
            }
            if let EndRule::Material(material) = &rule.node {
                let Some(resolved) = self.material(material, context) else {
                    continue;
                };
                let key = (resolved.counts.clone(), resolved.one_colour);
                if let Some(first) = materials.insert(key, rule.span) {
                    self.error(
                        Diagnostic::error(
                            code::DUPLICATE_STATEMENT,
                            "two `material` rules list the same pieces",
                            rule.span,
                            "the same pieces again",
                        )
                        .with_secondary(first, "first listed here")
                        .with_help("keep one of them"),
                    );
                    continue;
                }
                rules.material.push(resolved);
                continue;
            }
            if let EndRule::Condition {
                each_side,
                verdict,
                condition,
            } = &rule.node
            {
                let mut names = Resolver {
                    validator: self,
                    context,
                };
                if let Some(condition) = typing::condition(&mut names, condition, Place::End) {
                    rules.conditions.push(EndCondition {
                        each_side: *each_side,
                        verdict: verdict.as_ref().map(|verdict| verdict.node),
                        condition,
                        origin: self.origin(rule.span),
                    });
                }
                continue;
            }
            let keyword = rule.node.keyword_text().to_string();
            if let Some(first) = seen.insert(keyword.clone(), rule.span) {
                self.error(duplicate(&keyword, rule.span, first));
                continue;
            }
            match &rule.node {
                EndRule::Check => rules.check = true,
                EndRule::CheckWhenAll => {
                    rules.check = true;
                    rules.check_all_royals = true;
                }
                EndRule::Checkmate(verdict) => rules.checkmate = Some(verdict.node),
                EndRule::Stalemate(verdict) => rules.stalemate = Some(verdict.node),
                EndRule::RoyalCaptured(verdict) => rules.royal_captured = Some(verdict.node),
                EndRule::Repetition {
                    count,
                    verdict,
                    for_side,
                    perpetual_check,
                    perpetual_chase,
                } => {
                    let for_side = self.verdict_for(verdict.as_ref(), for_side.as_ref(), context);
                    rules.repetition = self
                        .count(count, 2, "a position repeats at least twice")
                        .zip(for_side)
                        .map(|(count, for_side)| Repetition {
                            count,
                            verdict: verdict.as_ref().map_or(Verdict::Draw, |v| v.node),
                            perpetual_check: perpetual_check.as_ref().map(|verdict| verdict.node),
                            perpetual_chase: perpetual_chase.as_ref().map(|verdict| verdict.node),
                            for_side,
                            by_score: verdict.is_none(),
                        });
                }
                EndRule::MoveLimit {
                    moves,
                    plies,
                    verdict,
                } => {
                    rules.move_limit =
                        self.count(moves, 1, "the move limit is at least 1")
                            .map(|moves| MoveLimit {
                                moves,
                                plies: *plies,
                                verdict: verdict.as_ref().map_or(Verdict::Draw, |v| v.node),
                                by_score: verdict.is_none(),
                            });
                }
                EndRule::Tiebreak(tiebreak) => rules.tiebreaks.push(tiebreak.node),
                EndRule::Material(_) | EndRule::Condition { .. } | EndRule::Future(_) => {}
            }
        }
        self.warn_checkmate_without_check(end, &rules);
        rules
    }

    /// `VERDICT for SIDE`: the side named (`Some(None)` without `for`); `None` after an error
    /// (an unknown side, or `for` after `by score`, which is for no side).
    fn verdict_for(
        &mut self,
        verdict: Option<&Spanned<Verdict>>,
        for_side: Option<&Spanned<String>>,
        context: &Context<'_>,
    ) -> Option<Option<SideId>> {
        let Some(name) = for_side else {
            return Some(None);
        };
        if verdict.is_none() {
            self.error(
                Diagnostic::error(
                    code::END_RULE,
                    "`by score` is for no side",
                    name.span,
                    "a side named after `by score`",
                )
                .with_help("write a verdict before `for` (`loses for sente`), or drop `for ...`"),
            );
            return None;
        }
        let mut names = Resolver {
            validator: self,
            context,
        };
        typing::Names::side(&mut names, name, "a repetition rule").map(Some)
    }

    /// `checkmate` needs `check`: without it a move may leave the royal piece attacked, so a
    /// side always has moves and is never checkmated (easy to miss when an `end` block replaces
    /// an inherited one whole).
    fn warn_checkmate_without_check(&mut self, end: &EndStatement, rules: &EndRules) {
        if rules.check {
            return;
        }
        let Some(checkmate) = end
            .rules
            .iter()
            .find(|rule| matches!(rule.node, EndRule::Checkmate(_)))
        else {
            return;
        };
        self.diagnostics.push(
            Diagnostic::warning(
                code::CHECKMATE_WITHOUT_CHECK,
                "`checkmate` without `check`: no side is ever checkmated",
                checkmate.span,
                "never happens in this `end` block",
            )
            .with_secondary(end.keyword, "this block has no `check`")
            .with_help(
                "add `check` to the `end` block (an `end` block replaces an inherited one \
                 whole): without it a move may leave the royal piece attacked, and it may be \
                 captured",
            ),
        );
    }

    /// A `material` rule with its names resolved and its terms added up per piece; `None` if a
    /// name is unknown (reported).
    pub(super) fn material(
        &mut self,
        material: &MaterialStatement,
        context: &Context<'_>,
    ) -> Option<MaterialRule> {
        let mut counts: Vec<PieceCount> = Vec::new();
        let mut known = true;
        for term in &material.pieces {
            let Some(piece) = self.piece_id(&term.node.piece, context.pieces, "`material`") else {
                known = false;
                continue;
            };
            let (min, max) = match term.node.quantifier {
                Quantifier::One => (1, Some(1)),
                Quantifier::AnyNumber => (0, None),
                Quantifier::OneOrMore => (1, None),
            };
            match counts.iter_mut().find(|count| count.piece == piece) {
                Some(count) => {
                    count.min = count.min.saturating_add(min);
                    count.max = count.max.zip(max).map(|(a, b)| a.saturating_add(b));
                }
                None => counts.push(PieceCount { piece, min, max }),
            }
        }
        counts.sort_by_key(|count| count.piece);
        known.then_some(MaterialRule {
            counts,
            one_colour: material.one_colour.is_some(),
            verdict: material.verdict.node,
        })
    }

    pub(super) fn count(
        &mut self,
        digits: &Spanned<String>,
        minimum: u32,
        why: &str,
    ) -> Option<u32> {
        self.count_with(code::END_RULE, digits, minimum, why)
    }

    /// Reads a count of at least `minimum`, reporting a smaller one under `code`.
    fn count_with(
        &mut self,
        code: &'static str,
        digits: &Spanned<String>,
        minimum: u32,
        why: &str,
    ) -> Option<u32> {
        let value = self.number(digits, 0, u32::MAX as i64)? as u32;
        if value < minimum {
            self.error(Diagnostic::error(
                code,
                format!("`{value}` is too small: {why}"),
                digits.span,
                format!("at least {minimum}"),
            ));
            return None;
        }
        Some(value)
    }

    /// A royal piece that can be captured (no `check` keeps it safe) with no end rule that
    /// notices (`royal captured`, or a condition reading where it stands): play would go on
    /// without it. Only for a file without errors.
    pub(super) fn warn_capturable_royals(
        &mut self,
        definition: &Definition,
        names: &[PieceName<'_>],
        end: Option<&EndStatement>,
    ) {
        let rules = &definition.end;
        // A file with errors is told about them first: the warning would be noise there.
        if self.error_count() > 0 || rules.check || rules.royal_captured.is_some() {
            return;
        }
        for (index, (piece, name)) in definition.pieces.iter().zip(names).enumerate() {
            let id = PieceId(index as u8);
            let noticed = rules
                .conditions
                .iter()
                .any(|rule| rule.condition.reads_pieces_of(id));
            if !piece.royal || piece.uncapturable || noticed {
                continue;
            }
            let royal = name
                .statement
                .items
                .iter()
                .find(|item| matches!(item.node, PieceItem::Royal))
                .map_or(name.statement.name.span, |item| item.span);
            let message = format!(
                "the royal piece `{}` can be captured, and no end rule says what happens then",
                piece.name
            );
            let help = format!(
                "add `check` to the `end` block (no move may leave it attacked), or \
                 `royal captured loses`, or a rule such as `loses when no own {}`",
                piece.name
            );
            let diagnostic = match end {
                Some(end) => Diagnostic::warning(
                    code::CAPTURABLE_ROYAL,
                    message,
                    end.keyword,
                    "no `check` nor `royal captured` in this block",
                )
                .with_secondary(royal, "royal here"),
                None => Diagnostic::warning(
                    code::CAPTURABLE_ROYAL,
                    message,
                    royal,
                    "royal, and there is no `end` block",
                ),
            };
            self.diagnostics.push(diagnostic.with_help(help));
        }
    }
}
