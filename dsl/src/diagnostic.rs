//! Problems found in a game file, as data.
//!
//! Every stage reports [`Diagnostic`]s — a stable code, a plain message, a primary [`Label`]
//! pointing at the exact text, optional secondary labels and a `help` line — and never prints
//! them. [`Diagnostics::render`] turns them into rustc-style text once, at the edge, with
//! `annotate-snippets`.

use crate::span::{SourceMap, Span};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::ops::Range;

/// The stable codes of every diagnostic, grouped by concern.
///
/// A code never changes meaning once published, so that users can search for it.
pub mod code {
    /// The text does not follow the grammar.
    pub const SYNTAX: &str = "E0001";
    /// The file is larger than the 1 MiB limit.
    pub const FILE_TOO_LARGE: &str = "E0002";
    /// The file is not UTF-8 text.
    pub const NOT_UTF8: &str = "E0003";
    /// Braces are nested too deeply.
    pub const NESTING_TOO_DEEP: &str = "E0004";
    /// A string has no closing quote on its line.
    pub const UNTERMINATED_STRING: &str = "E0005";
    /// A `/*` comment has no closing `*/`.
    pub const UNTERMINATED_COMMENT: &str = "E0006";
    /// A file could not be read.
    pub const CANNOT_READ: &str = "E0007";
    /// `extends` statements form a cycle.
    pub const EXTENDS_CYCLE: &str = "E0008";
    /// A name that is not a declared piece.
    pub const UNKNOWN_PIECE: &str = "E0101";
    /// A name that is not a declared side.
    pub const UNKNOWN_SIDE: &str = "E0102";
    /// Two pieces with the same name.
    pub const DUPLICATE_PIECE_NAME: &str = "E0103";
    /// Two pieces with the same letter.
    pub const DUPLICATE_PIECE_LETTER: &str = "E0104";
    /// Two sides with the same name.
    pub const DUPLICATE_SIDE_NAME: &str = "E0105";
    /// Two sides with the same FEN letter.
    pub const DUPLICATE_SIDE_LETTER: &str = "E0106";
    /// A statement that may appear once appears twice.
    pub const DUPLICATE_STATEMENT: &str = "E0201";
    /// A required statement is missing.
    pub const MISSING_STATEMENT: &str = "E0202";
    /// A number is out of its allowed range.
    pub const NUMBER_OUT_OF_RANGE: &str = "E0203";
    /// The board is too small or too large.
    pub const BOARD_SIZE: &str = "E0301";
    /// A square outside the grid, or on a hole.
    pub const OFF_BOARD: &str = "E0302";
    /// A square name that does not name a square.
    pub const BAD_SQUARE: &str = "E0303";
    /// A rank outside the board.
    pub const BAD_RANK: &str = "E0304";
    /// `forward` is neither `up` nor `down`.
    pub const BAD_FORWARD: &str = "E0401";
    /// A Betza modifier letter that does not exist.
    pub const BETZA_MODIFIER: &str = "E0501";
    /// A Betza atom letter that does not exist.
    pub const BETZA_ATOM: &str = "E0502";
    /// Betza modifiers with no atom after them.
    pub const BETZA_MISSING_ATOM: &str = "E0503";
    /// A Betza direction selection that selects no step.
    pub const BETZA_NO_DIRECTION: &str = "E0504";
    /// A Betza range that is too large.
    pub const BETZA_RANGE: &str = "E0505";
    /// A castling right letter in the wrong case or used twice.
    pub const CASTLING_LETTER: &str = "E0601";
    /// The `setup` FEN is not valid for this game.
    pub const FEN: &str = "E0701";
    /// An `end` rule with a meaningless count.
    pub const END_RULE: &str = "E0801";
    /// A `path` whose legs do not make a movement.
    pub const PATH: &str = "E0506";
    /// A construct of the language that this version does not implement yet.
    pub const NOT_SUPPORTED: &str = "E0900";
    /// A piece that never appears: not in the setup, not a promotion choice.
    pub const UNUSED_PIECE: &str = "W0001";
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The game cannot be loaded.
    Error,
    /// Suspicious, but the game loads.
    Warning,
}

/// A span with a short message shown next to its carets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The text pointed at.
    pub span: Span,
    /// What is wrong with it (may be empty).
    pub message: String,
}

impl Label {
    /// A label on `span` saying `message`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Label {
            span,
            message: message.into(),
        }
    }
}

/// One problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable code from [`code`].
    pub code: &'static str,
    /// The headline, in plain words.
    pub message: String,
    /// Where the problem is.
    pub primary: Label,
    /// Related places (the first declaration of a duplicate, the other files of a cycle).
    pub secondary: Vec<Label>,
    /// A suggestion (`did you mean `Knight`?`).
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with code `code`, headline `message`, pointing at `span` with `label`.
    pub fn error(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: Label::new(span, label),
            secondary: Vec::new(),
            help: None,
        }
    }

    /// A warning with code `code`, headline `message`, pointing at `span` with `label`.
    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message, span, label)
        }
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label::new(span, message));
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line if there is one.
    pub fn with_optional_help(mut self, help: Option<String>) -> Self {
        self.help = help;
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A list of diagnostics, kept in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(Vec<Diagnostic>);

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Self {
        Diagnostics::default()
    }

    /// Adds one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    /// Adds every diagnostic of `other`.
    pub fn append(&mut self, other: Diagnostics) {
        self.0.extend(other.0);
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// The number of diagnostics.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The diagnostics, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// The diagnostics as a slice.
    pub fn as_slice(&self) -> &[Diagnostic] {
        &self.0
    }

    /// Splits into (errors, warnings), each in order.
    pub fn partition(self) -> (Diagnostics, Diagnostics) {
        let (errors, warnings) = self.0.into_iter().partition(Diagnostic::is_error);
        (Diagnostics(errors), Diagnostics(warnings))
    }

    /// Sorts by file, then by position in the file; diagnostics at the same place keep the
    /// order they were reported in.
    pub fn sort(&mut self) {
        self.0.sort_by_key(|diagnostic| {
            (diagnostic.primary.span.file, diagnostic.primary.span.start)
        });
    }

    /// Renders every diagnostic as rustc-style plain text (no colour), separated by blank lines.
    pub fn render(&self, sources: &SourceMap) -> String {
        let rendered: Vec<String> = self
            .0
            .iter()
            .map(|diagnostic| render_one(diagnostic, sources))
            .collect();
        let mut text = rendered.join("\n\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text
    }
}

impl From<Vec<Diagnostic>> for Diagnostics {
    fn from(diagnostics: Vec<Diagnostic>) -> Self {
        Diagnostics(diagnostics)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Diagnostics(vec![diagnostic])
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        Diagnostics(iter.into_iter().collect())
    }
}

impl Extend<Diagnostic> for Diagnostics {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

fn render_one(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let level = match diagnostic.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let title = level
        .primary_title(diagnostic.message.as_str())
        .id(diagnostic.code);
    let mut primary_group = Group::with_title(title);
    for element in source_elements(diagnostic, sources) {
        primary_group = primary_group.element(element);
    }
    let mut report = vec![primary_group];
    if let Some(help) = &diagnostic.help {
        report.push(Group::with_title(
            Level::HELP.secondary_title(help.as_str()),
        ));
    }
    Renderer::plain().render(&report)
}

/// One snippet per file the labels point into (the primary label's file first); files without
/// text (unreadable, too large) are shown by name only.
fn source_elements<'a>(
    diagnostic: &'a Diagnostic,
    sources: &'a SourceMap,
) -> Vec<annotate_snippets::Element<'a>> {
    let mut files = vec![diagnostic.primary.span.file];
    for label in &diagnostic.secondary {
        if !files.contains(&label.span.file) {
            files.push(label.span.file);
        }
    }
    files
        .into_iter()
        .map(|file| {
            let name = sources.name(file);
            let text = sources.text(file);
            if text.is_empty() {
                return Origin::path(name).into();
            }
            let mut snippet = Snippet::source(text).path(name);
            if diagnostic.primary.span.file == file {
                snippet = snippet.annotation(
                    AnnotationKind::Primary
                        .span(clamp(diagnostic.primary.span, text))
                        .label(non_empty(&diagnostic.primary.message)),
                );
            }
            for label in diagnostic
                .secondary
                .iter()
                .filter(|label| label.span.file == file)
            {
                snippet = snippet.annotation(
                    AnnotationKind::Context
                        .span(clamp(label.span, text))
                        .label(non_empty(&label.message)),
                );
            }
            snippet.into()
        })
        .collect()
}

fn non_empty(message: &str) -> Option<&str> {
    (!message.is_empty()).then_some(message)
}

/// The span as a range that is inside `text` and on character boundaries, so that rendering
/// never panics on a span computed from bad input.
fn clamp(span: Span, text: &str) -> Range<usize> {
    let floor = |mut offset: usize| {
        offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    };
    let start = floor(span.start);
    let end = floor(span.end.max(start));
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceMap;

    fn one_file(text: &str) -> (SourceMap, crate::span::FileId) {
        let mut sources = SourceMap::new();
        let file = sources.add("games/x.variant", text);
        (sources, file)
    }

    #[test]
    fn renders_like_rustc() {
        let (sources, file) =
            one_file("game \"x\"\npiece Pawn {\n    promotes on last rank to Knigt\n}\n");
        let start = sources.text(file).find("Knigt").unwrap();
        let diagnostic = Diagnostic::error(
            code::UNKNOWN_PIECE,
            "unknown piece `Knigt` in `promotes`",
            Span::new(file, start, start + 5),
            "not a piece of this game",
        )
        .with_help("did you mean `Knight`?");
        let text = Diagnostics::from(diagnostic).render(&sources);
        assert_eq!(
            text,
            "error[E0101]: unknown piece `Knigt` in `promotes`\n \
             --> games/x.variant:3:30\n  \
             |\n\
             3 |     promotes on last rank to Knigt\n  \
             |                              ^^^^^ not a piece of this game\n  \
             |\n\
             help: did you mean `Knight`?\n"
        );
    }

    #[test]
    fn clamps_spans_outside_the_text() {
        let (sources, file) = one_file("é");
        let diagnostic = Diagnostic::error(code::SYNTAX, "bad", Span::new(file, 1, 99), "");
        let text = Diagnostics::from(diagnostic).render(&sources);
        assert!(text.starts_with("error[E0001]: bad"));
    }

    #[test]
    fn sorts_in_source_order() {
        let (_, file) = one_file("abcdef");
        let mut diagnostics = Diagnostics::new();
        diagnostics.push(Diagnostic::error(
            code::SYNTAX,
            "second",
            Span::new(file, 4, 5),
            "",
        ));
        diagnostics.push(Diagnostic::error(
            code::SYNTAX,
            "first",
            Span::new(file, 1, 2),
            "",
        ));
        diagnostics.sort();
        let messages: Vec<_> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages, ["first", "second"]);
    }
}
