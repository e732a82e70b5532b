//! From text to a [`GameFile`]: input guards, the pest grammar, and syntax errors in plain words.
//!
//! The grammar lives in `grammar.pest`. pest `Pair`s never leave this module: [`parse`] returns
//! an AST whose nodes carry [`Span`]s. Before pest runs, [`decode`] and a lexical pre-scan turn
//! the inputs that could hurt (huge files, bytes that are not UTF-8, unterminated strings and
//! comments, brackets or expressions nested thousands deep, see [`crate::nesting`]) into
//! diagnostics.
//!
//! The parts: `grammar` (the generated parser, private here), `prescan` (the lexical pre-scan),
//! `words` (the one table from grammar rules to plain words) and `errors` (a pest error as a
//! diagnostic, through `words`); then building the AST: `pairs` (spans and texts of pest pairs),
//! `expressions` (expressions and zones), `policy` (policy statements, which hold expressions)
//! and `statements` (every other statement). Each part imports only the ones listed before it;
//! this module runs them: decode, pre-scan, pest, build.

mod errors;
mod expressions;
mod grammar;
mod pairs;
mod policy;
mod prescan;
mod statements;
#[cfg(test)]
mod tests;
mod words;

use crate::ast::GameFile;
use crate::diagnostic::{code, Diagnostic, Diagnostics};
use crate::parse::errors::syntax_error;
use crate::parse::grammar::{GrammarParser, Rule};
use crate::parse::prescan::prescan;
use crate::parse::statements::build_statement;
use crate::span::{FileId, Span};
use pest::Parser;

pub(crate) use words::EXPRESSION_WORDS;

/// The largest game file accepted, in bytes (1 MiB).
pub const MAX_FILE_BYTES: usize = 1 << 20;

pub use crate::nesting::{MAX_EXPRESSION_DEPTH, MAX_NESTING};

/// The UTF-8 byte-order mark that some editors write at the start of a text file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// Turns the bytes of a file into the text to parse and to quote in diagnostics.
///
/// A leading UTF-8 byte-order mark is dropped: it is not part of the text, and spans, lines and
/// columns count from the first character after it. Returns the text (empty for a file that is
/// too large, lossily decoded for bytes that are not UTF-8) and the problem, if any: such a file
/// must not be parsed.
pub fn decode(file: FileId, bytes: &[u8]) -> (String, Option<Diagnostic>) {
    let bytes = bytes.strip_prefix(BYTE_ORDER_MARK).unwrap_or(bytes);
    if bytes.len() > MAX_FILE_BYTES {
        let diagnostic = Diagnostic::error(
            code::FILE_TOO_LARGE,
            format!(
                "this file is larger than {MAX_FILE_BYTES} bytes (1 MiB), the limit for a game file"
            ),
            Span::point(file, 0),
            "",
        );
        return (String::new(), Some(diagnostic));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), None),
        Err(error) => {
            let offset = error.valid_up_to();
            let byte = bytes[offset];
            let replacement_len = '\u{FFFD}'.len_utf8();
            let diagnostic = Diagnostic::error(
                code::NOT_UTF8,
                "this file is not UTF-8 text",
                Span::new(file, offset, offset + replacement_len),
                format!("byte 0x{byte:02X} is not valid UTF-8"),
            )
            .with_help("game files are plain text; is this the right file?");
            (
                String::from_utf8_lossy(bytes).into_owned(),
                Some(diagnostic),
            )
        }
    }
}

/// Parses the text of one file.
///
/// Returns the syntax tree, or the first lexical or syntax error (a parser cannot tell what
/// follows a syntax error, so there is only one).
pub fn parse(file: FileId, text: &str) -> Result<GameFile, Diagnostics> {
    if text.len() > MAX_FILE_BYTES {
        return Err(decode(file, text.as_bytes()).1.into_iter().collect());
    }
    prescan(file, text).map_err(|diagnostic| Diagnostics::from(*diagnostic))?;
    let mut pairs = GrammarParser::parse(Rule::file, text)
        .map_err(|error| Diagnostics::from(syntax_error(file, text, &error)))?;
    let statements = pairs
        .next()
        .map(|file_pair| {
            file_pair
                .into_inner()
                .filter(|pair| pair.as_rule() != Rule::EOI)
        })
        .into_iter()
        .flatten()
        .map(|pair| build_statement(file, pair))
        .collect();
    Ok(GameFile { file, statements })
}
