//! The validator's state: the diagnostics it collects and the count of errors among them, and
//! the two reports every part makes (a statement given twice, a statement not supported yet).
//! Every other part of validation adds methods to [`Validator`] for its own statements.

use crate::ast::*;
use crate::diagnostic::{code, Diagnostic, Diagnostics};
use crate::span::{SourceMap, Span};
use std::collections::HashSet;

/// One validation in progress: the diagnostics so far. Each part of validation adds methods.
pub(super) struct Validator<'s> {
    /// The files of the game, for the origins of statements the engine may quote.
    pub(super) sources: &'s SourceMap,
    /// Where "missing statement" diagnostics point: the end of the top-level file.
    pub(super) end_of_file: Span,
    pub(super) diagnostics: Diagnostics,
    /// The number of errors in `diagnostics`, kept so that asking costs nothing: checks ask
    /// before and after each statement, and a file may have thousands of statements.
    pub(super) errors: usize,
    /// Pieces left out because their letter is taken (already reported): names that refer to
    /// them are not reported again as unknown.
    pub(super) left_out_pieces: HashSet<String>,
}

impl<'s> Validator<'s> {
    pub(super) fn new(game: &GameFile, sources: &'s SourceMap) -> Self {
        let end = sources.text(game.file).trim_end().len();
        Validator {
            sources,
            end_of_file: Span::point(game.file, end),
            diagnostics: Diagnostics::new(),
            errors: 0,
            left_out_pieces: HashSet::new(),
        }
    }

    pub(super) fn error(&mut self, diagnostic: Diagnostic) {
        self.errors += usize::from(diagnostic.is_error());
        self.diagnostics.push(diagnostic);
    }

    pub(super) fn error_count(&self) -> usize {
        self.errors
    }
}

pub(super) fn duplicate(keyword: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        code::DUPLICATE_STATEMENT,
        format!("`{keyword}` is given twice"),
        span,
        "given again here",
    )
    .with_secondary(first, "first given here")
    .with_help("remove one of them")
}

pub(super) fn not_supported(future: &FutureStatement) -> Diagnostic {
    Diagnostic::error(
        code::NOT_SUPPORTED,
        format!("`{}` is not supported yet", future.keyword.node),
        future.keyword.span,
        "part of the language reference, not implemented in this version",
    )
}
