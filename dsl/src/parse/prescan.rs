//! The lexical pre-scan that runs before pest: it follows strings, comments and brackets the way
//! the grammar does and turns what would make pest or a later stage fail badly (an unterminated
//! string or comment, nesting deeper than [`crate::nesting`] allows) into a diagnostic.

use crate::diagnostic::{code, Diagnostic};
use crate::nesting::Nesting;
use crate::span::{FileId, Span};

/// Follows strings, comments and brackets the way the grammar does, and reports what would make
/// pest or a later stage fail badly: an unterminated string or comment, or a file nested deeper
/// than the limits of [`crate::nesting`] (the recursive rules, and every walk of an expression
/// after them, could overflow the stack).
pub(super) fn prescan(file: FileId, text: &str) -> Result<(), Box<Diagnostic>> {
    let bytes = text.as_bytes();
    let mut nesting = Nesting::new(file);
    let mut index = 0;
    while index < bytes.len() {
        let start = index;
        index += 1;
        match bytes[start] {
            b'"' => {
                index = skip_string(file, text, start)?;
                nesting.other();
            }
            b'/' if bytes.get(start + 1) == Some(&b'/') => {
                index = text[start..]
                    .find('\n')
                    .map_or(bytes.len(), |newline| start + newline);
            }
            b'/' if bytes.get(start + 1) == Some(&b'*') => {
                index = skip_block_comment(file, text, start)?;
            }
            // A backslash at the end of a line continues the statement.
            b'\\' if bytes[index..].starts_with(b"\r\n") => index += 2,
            b'\\' if matches!(bytes.get(index), Some(b'\n' | b'\r')) => index += 1,
            b' ' | b'\t' | b'\r' => {}
            b'\n' | b';' | b',' => nesting.separator(),
            bracket @ (b'{' | b'(') => nesting.open(char::from(bracket), start)?,
            bracket @ (b'}' | b')') => nesting.close(char::from(bracket)),
            b'+' | b'-' => nesting.operator(start, index)?,
            b'<' | b'>' | b'=' | b'!' => {
                index = end_of(bytes, start, |b| matches!(b, b'<' | b'>' | b'=' | b'!'));
                nesting.operator(start, index)?;
            }
            byte if byte.is_ascii_alphabetic() => {
                index = end_of_word(bytes, start);
                nesting.word(&text[start..index], start, index)?;
            }
            byte if byte.is_ascii_digit() => {
                index = end_of(bytes, start, |b| b.is_ascii_alphanumeric());
                nesting.other();
            }
            _ => nesting.other(),
        }
    }
    Ok(())
}

/// The end of the word (a name or keyword) from `start`, as the grammar reads it: letters,
/// digits, `_` and `-`, except that a square (`e4`) ends before a `-`, which may then be a
/// minus (`squares e4-1`).
fn end_of_word(bytes: &[u8], start: usize) -> usize {
    let end = end_of(bytes, start, |b| {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
    });
    let digits = end_of(bytes, start + 1, |b| b.is_ascii_digit());
    let square = bytes[start].is_ascii_lowercase() && digits > start + 1;
    if square && bytes.get(digits) == Some(&b'-') {
        digits
    } else {
        end
    }
}

/// The end of the run of bytes from `start` that `belongs` accepts.
fn end_of(bytes: &[u8], start: usize, belongs: impl Fn(u8) -> bool) -> usize {
    bytes[start..]
        .iter()
        .position(|&byte| !belongs(byte))
        .map_or(bytes.len(), |length| start + length)
}

/// Skips the string opening at `start`; returns the index after its closing quote.
pub(super) fn skip_string(
    file: FileId,
    text: &str,
    start: usize,
) -> Result<usize, Box<Diagnostic>> {
    let bytes = text.as_bytes();
    let mut index = start + 1;
    while index < bytes.len() {
        match bytes[index] {
            b'"' => return Ok(index + 1),
            b'\\' if matches!(bytes.get(index + 1), Some(b'"' | b'\\')) => index += 2,
            b'\n' | b'\r' => break,
            _ => index += 1,
        }
    }
    Err(Box::new(
        Diagnostic::error(
            code::UNTERMINATED_STRING,
            "this string has no closing `\"`",
            Span::new(file, start, index),
            "the string starts here",
        )
        .with_help("a string ends on the line it starts on: add a `\"`"),
    ))
}

/// Skips the block comment opening at `start`; returns the index after its `*/`.
pub(super) fn skip_block_comment(
    file: FileId,
    text: &str,
    start: usize,
) -> Result<usize, Box<Diagnostic>> {
    match text[start + 2..].find("*/") {
        Some(offset) => Ok(start + 2 + offset + 2),
        None => Err(Box::new(Diagnostic::error(
            code::UNTERMINATED_COMMENT,
            "this comment has no closing `*/`",
            Span::new(file, start, start + 2),
            "the comment starts here",
        ))),
    }
}
