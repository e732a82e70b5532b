//! Counters (`counter checks { start 0; add 1 on check; fen remaining 3 }`): numbers per side
//! that the position keeps. Their names are resolved before every expression, so that an end
//! condition can read `opponent checks`; a name may not be a piece's, and the block must say
//! what changes the counter.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::Span;
use crate::validate::names::PieceName;
use crate::validate::validator::{duplicate, Validator};
use std::collections::HashMap;

impl Validator<'_> {
    /// The counters' names, by index (before any expression is typed); reports a name given
    /// twice, a piece's name, and more than [`MAX_COUNTERS`] counters.
    pub(super) fn counter_names(
        &mut self,
        counters: &[&CounterStatement],
        pieces: &[PieceName<'_>],
    ) -> Vec<String> {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut names = Vec::new();
        for counter in counters {
            let name = &counter.name;
            if let Some(first) = seen.insert(name.node.as_str(), name.span) {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_STATEMENT,
                        format!("the counter `{}` is declared twice", name.node),
                        name.span,
                        "declared again here",
                    )
                    .with_secondary(first, "first declared here")
                    .with_help("remove one of them, or give this one another name"),
                );
            } else if pieces.iter().any(|p| p.statement.name.node == name.node) {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_PIECE_NAME,
                        format!("the counter `{}` has the name of a piece", name.node),
                        name.span,
                        "also a piece of this game",
                    )
                    .with_help(
                        "expressions read both as `own NAME`: give the counter another name",
                    ),
                );
            }
            names.push(name.node.clone());
        }
        if let Some(extra) = counters.get(MAX_COUNTERS) {
            self.error(Diagnostic::error(
                code::NUMBER_OUT_OF_RANGE,
                format!("more than {MAX_COUNTERS} counters"),
                extra.name.span,
                format!("a game keeps at most {MAX_COUNTERS} counters"),
            ));
        }
        names
    }

    /// One `counter` block; `None` after reporting a mistake.
    pub(super) fn counter(&mut self, counter: &CounterStatement) -> Option<CounterDef> {
        let max = i64::from(MAX_COUNTER_VALUE);
        let mut start = None;
        let mut fen = None;
        let mut events = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut broken = false;
        for item in &counter.items {
            let word = match &item.node {
                CounterItem::Start(_) => "start",
                CounterItem::Add(..) => "add",
                CounterItem::FenRemaining(_) | CounterItem::FenCount => "fen",
            };
            if word != "add" {
                if let Some(first) = seen.insert(word, item.span) {
                    self.error(duplicate(word, item.span, first));
                    broken = true;
                    continue;
                }
            }
            match &item.node {
                CounterItem::Start(digits) => {
                    start = Some((self.number(digits, 0, max), digits.span));
                }
                CounterItem::Add(digits, event) => match self.number(digits, 1, max) {
                    Some(amount) => events.push((*event, amount as u32)),
                    None => broken = true,
                },
                CounterItem::FenRemaining(digits) => {
                    fen = self
                        .number(digits, 1, max)
                        .map(|of| CounterFen::Remaining(of as u32));
                    broken |= fen.is_none();
                }
                CounterItem::FenCount => fen = Some(CounterFen::Count),
            }
        }
        if events.is_empty() {
            self.error(
                Diagnostic::error(
                    code::MISSING_STATEMENT,
                    format!("the counter `{}` never changes", counter.name.node),
                    counter.name.span,
                    "nothing in its block adds to it",
                )
                .with_help("say what counts, for example `add 1 on check` or `add 1 on capture`"),
            );
            return None;
        }
        let fen = fen.unwrap_or(CounterFen::Count);
        let start = match start {
            Some((Some(value), span)) => {
                if matches!(fen, CounterFen::Remaining(of) if value as u32 > of) {
                    self.error(Diagnostic::error(
                        code::NUMBER_OUT_OF_RANGE,
                        format!(
                            "the counter `{}` cannot start at {value}: its FEN counts down from less",
                            counter.name.node
                        ),
                        span,
                        "more than the `fen remaining` number",
                    ));
                    return None;
                }
                value as u32
            }
            Some((None, _)) => return None,
            None => 0,
        };
        (!broken).then(|| CounterDef {
            name: counter.name.node.clone(),
            start,
            events,
            fen,
        })
    }
}
