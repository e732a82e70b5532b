//! Problems found in a game file, as data.
//!
//! Every stage reports [`Diagnostic`]s — a stable code, a plain message, a primary [`Label`]
//! pointing at the exact text, optional secondary labels and a `help` line — and never prints
//! them. [`Diagnostics::render`] turns them into rustc-style text once, at the edge, with
//! `annotate-snippets`.
//!
//! A broken file can hold hundreds of thousands of mistakes (a 1 MiB list of bad squares), so
//! rendering must cost the same for each of them, whatever the size of the file: each diagnostic
//! hands `annotate-snippets` only the lines its labels point into, located with the
//! [`SourceMap`]'s line index, and only the first [`MAX_RENDERED`] are rendered at all; a last
//! line counts the rest.

use crate::span::{FileId, SourceMap, Span};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Renderer, Snippet};
use std::ops::Range;

/// The most diagnostics [`Diagnostics::render`] shows; the others are counted on a last line.
pub const MAX_RENDERED: usize = 50;

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
    /// Braces, parentheses or operand-taking words are nested too deeply.
    pub const NESTING_TOO_DEEP: &str = "E0004";
    /// A string has no closing quote on its line.
    pub const UNTERMINATED_STRING: &str = "E0005";
    /// A `/*` comment has no closing `*/`.
    pub const UNTERMINATED_COMMENT: &str = "E0006";
    /// A file could not be read.
    pub const CANNOT_READ: &str = "E0007";
    /// `extends` statements form a cycle.
    pub const EXTENDS_CYCLE: &str = "E0008";
    /// `extends` statements form a chain deeper than the limit.
    pub const EXTENDS_TOO_DEEP: &str = "E0009";
    /// An expression is deeper than the limit, counting the operators of its chains.
    pub const EXPRESSION_TOO_DEEP: &str = "E0010";
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
    /// A promoted form (`letter +P`) whose letter no other piece has.
    pub const PROMOTED_FORM: &str = "E0107";
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
    /// A `zone NAME` that no `zone` statement declares (before it, in a `zone` statement).
    pub const UNKNOWN_ZONE: &str = "E0305";
    /// Two `zone` statements with the same name.
    pub const DUPLICATE_ZONE: &str = "E0306";
    /// `confined to` or `moves ... in` on a piece that does not only leap.
    pub const REGION_MOVES: &str = "E0307";
    /// `en-passant on` on a piece none of whose moves leaves an en-passant target.
    pub const EN_PASSANT_ZONE: &str = "E0309";
    /// `may not hop over` on a piece that has no hop (`p`, `g`).
    pub const HURDLE_WITHOUT_HOP: &str = "E0310";
    /// `forward` is neither `up` nor `down`.
    pub const BAD_FORWARD: &str = "E0401";
    /// The turn order never gives the setup's side to move a turn.
    pub const TURN_ORDER: &str = "E0402";
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
    /// A hopper modifier (`p`, `g`) on an atom that cannot hop.
    pub const BETZA_HOP: &str = "E0506";
    /// A castling right letter in the wrong case or used twice.
    pub const CASTLING_LETTER: &str = "E0601";
    /// More castling rights than a position can hold.
    pub const CASTLING_LIMIT: &str = "E0602";
    /// A castling move whose king or rook stays put, or that puts both on one square.
    pub const CASTLING_PATH: &str = "E0603";
    /// A `gating` statement whose squares a FEN cannot name: two on a file, a file letter that
    /// is a castling letter, more than two sides, none on the board.
    pub const GATING: &str = "E0604";
    /// A `neutral` piece the game cannot have: a second one, one with moves, royalty,
    /// promotion or supply, or in a game of four sides, with holes, with gating, or with turns
    /// of several actions, passes or placement phases.
    pub const NEUTRAL: &str = "E0605";
    /// The `setup` FEN is not valid for this game.
    pub const FEN: &str = "E0701";
    /// An `end` rule with a meaningless count.
    pub const END_RULE: &str = "E0801";
    /// A `path` whose legs do not make a movement.
    pub const PATH: &str = "E0506";
    /// An expression of the wrong type: a set of squares where a condition is needed.
    pub const EXPRESSION_TYPE: &str = "E0811";
    /// An expression term used where it means nothing (`place King` in a score).
    pub const EXPRESSION_PLACE: &str = "E0812";
    /// A policy names something it has not defined (a roll, a number), or a piece it cannot.
    pub const POLICY: &str = "E0821";
    /// A construct of the language that this version does not implement yet.
    pub const NOT_SUPPORTED: &str = "E0900";
    /// A piece that never appears: not in the setup, not a promotion choice.
    pub const UNUSED_PIECE: &str = "W0001";
    /// `checkmate` in an `end` block without `check`: no side is ever checkmated.
    pub const CHECKMATE_WITHOUT_CHECK: &str = "W0002";
    /// A royal piece may be captured and no end rule notices.
    pub const CAPTURABLE_ROYAL: &str = "W0003";
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

    /// Renders the first [`MAX_RENDERED`] diagnostics as rustc-style plain text (no colour),
    /// separated by blank lines, then a line counting the ones not shown
    /// (`... and 19,950 more errors`).
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut text = String::new();
        for diagnostic in self.0.iter().take(MAX_RENDERED) {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(&render_one(diagnostic, sources));
        }
        if !text.is_empty() {
            text.push('\n');
        }
        if let Some(rest) = self.0.get(MAX_RENDERED..) {
            text.push_str(&count_not_shown(rest));
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

/// `\n... and 19,950 more errors\n` for the diagnostics not rendered; empty if there is none.
fn count_not_shown(rest: &[Diagnostic]) -> String {
    let errors = rest
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .count();
    let warnings = rest.len() - errors;
    let parts: Vec<String> = [(errors, "error"), (warnings, "warning")]
        .into_iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, what)| {
            let plural = if count == 1 { "" } else { "s" };
            format!("{} more {what}{plural}", thousands(count))
        })
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    format!("\n... and {}\n", parts.join(" and "))
}

/// `19950` as `19,950`.
fn thousands(number: usize) -> String {
    let digits = number.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
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
            let primary = (diagnostic.primary.span.file == file).then_some(&diagnostic.primary);
            let secondary = diagnostic
                .secondary
                .iter()
                .filter(|label| label.span.file == file);
            let labels: Vec<(&Label, AnnotationKind)> = primary
                .map(|label| (label, AnnotationKind::Primary))
                .into_iter()
                .chain(secondary.map(|label| (label, AnnotationKind::Context)))
                .collect();
            let window = Window::around(sources, file, labels.iter().map(|(label, _)| label.span));
            let mut snippet = Snippet::source(&text[window.bytes.clone()])
                .path(name)
                .line_start(window.first_line);
            for (label, kind) in labels {
                snippet = snippet.annotation(
                    kind.span(window.relative(clamp(label.span, text)))
                        .label(non_empty(&label.message)),
                );
            }
            snippet.into()
        })
        .collect()
}

/// The whole lines of a file that some spans point into: all that `annotate-snippets` needs.
struct Window {
    /// From the start of the first line to the end of the last one, newline included.
    bytes: Range<usize>,
    /// The 1-based number of the first line.
    first_line: usize,
}

impl Window {
    fn around(sources: &SourceMap, file: FileId, spans: impl Iterator<Item = Span>) -> Self {
        let text = sources.text(file);
        let (mut low, mut high) = (usize::MAX, 0);
        for span in spans {
            let range = clamp(span, text);
            low = low.min(range.start);
            high = high.max(range.end);
        }
        low = low.min(high);
        let first_line = sources.line_of(file, low);
        let end_line = sources.line_of(file, high);
        Window {
            bytes: sources.line_range(file, first_line).start
                ..sources.line_range(file, end_line).end,
            first_line,
        }
    }

    /// `range` (in the file) as a range in the window.
    fn relative(&self, range: Range<usize>) -> Range<usize> {
        let shift =
            |offset: usize| offset.clamp(self.bytes.start, self.bytes.end) - self.bytes.start;
        shift(range.start)..shift(range.end)
    }
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

    /// The rendering of one diagnostic by giving `annotate-snippets` the whole file, as the
    /// windowed rendering must look.
    fn render_with_whole_file(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
        let text = sources.text(diagnostic.primary.span.file);
        let mut snippet = Snippet::source(text).path(sources.name(diagnostic.primary.span.file));
        snippet = snippet.annotation(
            AnnotationKind::Primary
                .span(clamp(diagnostic.primary.span, text))
                .label(non_empty(&diagnostic.primary.message)),
        );
        for label in &diagnostic.secondary {
            snippet = snippet.annotation(
                AnnotationKind::Context
                    .span(clamp(label.span, text))
                    .label(non_empty(&label.message)),
            );
        }
        let title = Level::ERROR
            .primary_title(diagnostic.message.as_str())
            .id(diagnostic.code);
        Renderer::plain().render(&[Group::with_title(title).element(snippet)])
    }

    #[test]
    fn rendering_a_window_of_lines_looks_like_rendering_the_whole_file() {
        let texts = [
            "game \"x\"\nboard 8x8\n\npiece King {\n  letter K\n}\n",
            "game \"x\"\nboard 8x8 { holes z9 }",
            "\n\n\nsetup \"é\"\n\n",
            "one line",
        ];
        for text in texts {
            let (sources, file) = one_file(text);
            for start in 0..=text.len() + 1 {
                for end in [start, start + 1, start + 4, text.len() + 2] {
                    let mut diagnostic =
                        Diagnostic::error(code::SYNTAX, "bad", Span::new(file, start, end), "here");
                    if start > 2 {
                        diagnostic = diagnostic.with_secondary(Span::new(file, 1, 2), "there");
                    }
                    assert_eq!(
                        render_one(&diagnostic, &sources),
                        render_with_whole_file(&diagnostic, &sources),
                        "{text:?} {start}..{end}"
                    );
                }
            }
        }
    }

    #[test]
    fn only_the_first_diagnostics_are_rendered_the_rest_are_counted() {
        let (sources, file) = one_file("holes z9 z9");
        let mut diagnostics: Diagnostics = (0..MAX_RENDERED + 19_950)
            .map(|_| Diagnostic::error(code::OFF_BOARD, "off", Span::new(file, 6, 8), ""))
            .collect();
        let text = diagnostics.render(&sources);
        assert_eq!(text.matches("error[E0302]").count(), MAX_RENDERED);
        assert!(text.ends_with("\n\n... and 19,950 more errors\n"), "{text}");
        diagnostics.push(Diagnostic::warning(
            code::UNUSED_PIECE,
            "unused",
            Span::new(file, 0, 1),
            "",
        ));
        assert!(diagnostics
            .render(&sources)
            .ends_with("... and 19,950 more errors and 1 more warning\n"));
        let few: Diagnostics = diagnostics.iter().take(MAX_RENDERED).cloned().collect();
        assert!(!few.render(&sources).contains("more error"));
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(19_950), "19,950");
        assert_eq!(thousands(1_234_567), "1,234,567");
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
