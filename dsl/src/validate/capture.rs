//! Capture and control: the `capture` statement (where captured pieces go) and the `control`
//! statement.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::{Span, Spanned};
use crate::validate::names::Context;
use crate::validate::validator::{duplicate, not_supported, Validator};
use std::collections::HashMap;

impl Validator<'_> {
    pub(super) fn capture_rules(
        &mut self,
        statement: &CaptureStatement,
        context: &Context<'_>,
    ) -> CaptureRules {
        let mut rules = CaptureRules::default();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for item in &statement.items {
            let name = match &item.node {
                CaptureItem::Future(future) => {
                    self.error(not_supported(future));
                    continue;
                }
                CaptureItem::RemoveCapturer => "remove capturer",
                CaptureItem::RemoveAround(_) => "remove around",
                CaptureItem::Store(..) => {
                    self.capture_store(item, context, &mut rules);
                    continue;
                }
            };
            if let Some(first) = seen.insert(name, item.span) {
                self.error(duplicate(name, item.span, first));
                continue;
            }
            match &item.node {
                CaptureItem::RemoveCapturer => rules.remove_capturer = true,
                CaptureItem::RemoveAround(except) => {
                    let pieces = except
                        .iter()
                        .filter_map(|name| self.piece_id(name, context.pieces, "`remove around`"))
                        .collect();
                    rules.remove_around_except = Some(pieces);
                }
                CaptureItem::Future(_) | CaptureItem::Store(..) => {}
            }
        }
        rules
    }

    /// `PIECES to hand|prison`: each piece type named once across the block.
    fn capture_store(
        &mut self,
        item: &Spanned<CaptureItem>,
        context: &Context<'_>,
        rules: &mut CaptureRules,
    ) {
        let CaptureItem::Store(names, store) = &item.node else {
            return;
        };
        let count = context.pieces.len();
        rules.stores.resize(count, None);
        let pieces: Vec<PieceId> = if names.is_empty() {
            (0..count).map(|p| PieceId(p as u8)).collect()
        } else {
            names
                .iter()
                .filter_map(|name| self.piece_id(name, context.pieces, "the `capture` block"))
                .collect()
        };
        for piece in pieces {
            let entry = &mut rules.stores[piece.0 as usize];
            if entry.is_some() {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_STATEMENT,
                        format!(
                            "captured {} already go somewhere",
                            context.pieces[piece.0 as usize].statement.name.node
                        ),
                        item.span,
                        "a second destination for the same piece",
                    )
                    .with_help("name each piece type in one `to hand` or `to prison` rule"),
                );
                return;
            }
            *entry = Some(*store);
        }
    }

    pub(super) fn control_rules(&mut self, statement: &ControlStatement) -> ControlRules {
        let mut rules = ControlRules::default();
        let mut seen: Option<Span> = None;
        for item in &statement.items {
            match &item.node {
                ControlItem::Future(future) => self.error(not_supported(future)),
                ControlItem::EnPassantStanding => match seen {
                    Some(first) => self.error(duplicate("en-passant standing", item.span, first)),
                    None => {
                        seen = Some(item.span);
                        rules.en_passant_standing = true;
                    }
                },
            }
        }
        rules
    }
}
