//! Syntax errors in plain words: a pest error becomes a [`Diagnostic`] that says what was found,
//! what was expected (through [`crate::parse::words`]), and, where it can tell, which keyword was
//! misspelt or which `{` was left open.

use crate::diagnostic::{code, Diagnostic};
use crate::parse::grammar::Rule;
use crate::parse::prescan::{skip_block_comment, skip_string};
use crate::parse::words::{expected, Expected, MATERIAL_TERM, STATEMENT, VERDICT, ZONE};
use crate::span::{FileId, Span};
use crate::suggestion;

pub(super) fn syntax_error(
    file: FileId,
    text: &str,
    error: &pest::error::Error<Rule>,
) -> Diagnostic {
    let position = match error.location {
        pest::error::InputLocation::Pos(position) => position,
        pest::error::InputLocation::Span((start, _)) => start,
    };
    let positives = match &error.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        pest::error::ErrorVariant::CustomError { .. } => Vec::new(),
    };
    let (found, found_span) = found_at(text, position);
    let line_so_far = text
        .get(..position)
        .unwrap_or("")
        .rsplit('\n')
        .next()
        .unwrap_or("");
    let at_line_start = line_so_far.trim().is_empty();
    let expects_close_brace = positives.contains(&Rule::close_brace);
    let expectations: Vec<Expected> = positives
        .into_iter()
        .filter(|rule| !(*rule == Rule::EOI && at_line_start))
        .map(expected)
        .collect();
    let mut phrases: Vec<&str> = Vec::new();
    for phrase in expectations
        .iter()
        .filter_map(|expectation| expectation.words)
    {
        if !phrases.contains(&phrase) {
            phrases.push(phrase);
        }
    }
    if phrases.contains(&ZONE) {
        phrases.retain(|phrase| !["`rank`", "`file`", "`files`", "`zone`"].contains(phrase));
    }
    if phrases.contains(&MATERIAL_TERM) && phrases.contains(&VERDICT) {
        // After a material term: another term, `on one colour` or the verdict.
        phrases.retain(|phrase| *phrase != "`on`" && *phrase != VERDICT);
        phrases.extend(["`on one colour`", "a verdict such as `draws`"]);
    }
    if phrases.contains(&STATEMENT) {
        // `drops` starts a statement, but also ends `actions drops` and `only self-controlled
        // drops`, so its rule reads "`drops`".
        phrases.retain(|phrase| *phrase != "`drops`" && *phrase != "`zone`");
    }
    let message = match phrases.as_slice() {
        [] => format!("unexpected {found}"),
        _ => format!("expected {}, found {found}", join_alternatives(&phrases)),
    };
    let label = if phrases.len() == 1 {
        format!("expected {}", phrases[0])
    } else {
        "unexpected here".to_string()
    };
    let keywords = expectations.iter().flat_map(|expectation| {
        expectation
            .keyword
            .into_iter()
            .chain(expectation.other_keywords.iter().copied())
    });
    let help = suggestion::did_you_mean(snippet(text, found_span), keywords);
    let found_span = Span::new(file, found_span.0, found_span.1);
    let mut diagnostic = match (help, misspelt_keyword_before(text, position)) {
        (None, Some((start, end, keyword))) => Diagnostic::error(
            code::SYNTAX,
            message,
            Span::new(file, start, end),
            format!("is this `{keyword}` misspelt?"),
        )
        .with_secondary(found_span, label)
        .with_help(format!("did you mean `{keyword}`?")),
        (help, _) => {
            Diagnostic::error(code::SYNTAX, message, found_span, label).with_optional_help(help)
        }
    };
    if expects_close_brace {
        if let Some(open) = innermost_unclosed_brace(text, position) {
            diagnostic = diagnostic
                .with_secondary(Span::new(file, open, open + 1), "this `{` is not closed");
        }
    }
    diagnostic
}

/// How many words before a syntax error are looked at for a misspelt keyword.
const WORDS_LOOKED_BACK: usize = 3;

/// A word shortly before `position` on its line that is no keyword but one edit or so away from
/// one (`controled by opponent`: the grammar reads `controled by` as a side's pieces and stops at
/// `opponent`), as (start, end, the keyword).
fn misspelt_keyword_before(text: &str, position: usize) -> Option<(usize, usize, &'static str)> {
    let position = position.min(text.len());
    let line_start = text[..position]
        .rfind('\n')
        .map_or(0, |newline| newline + 1);
    let line = text.get(line_start..position)?;
    let keywords = || {
        Rule::all_rules().iter().flat_map(|rule| {
            let expected = expected(*rule);
            expected
                .keyword
                .into_iter()
                .chain(expected.other_keywords.iter().copied())
        })
    };
    let is_word_byte = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-';
    let mut words = Vec::new();
    let mut end = line.len();
    while words.len() < WORDS_LOOKED_BACK && end > 0 {
        let bytes = line.as_bytes();
        while end > 0 && !is_word_byte(bytes[end - 1]) {
            end -= 1;
        }
        let mut start = end;
        while start > 0 && is_word_byte(bytes[start - 1]) {
            start -= 1;
        }
        if start < end {
            words.push((start, end));
        }
        end = start;
    }
    words.into_iter().find_map(|(start, end)| {
        let word = &line[start..end];
        let lower_case = word.starts_with(|c: char| c.is_ascii_lowercase());
        if !lower_case || keywords().any(|keyword| keyword == word) {
            return None;
        }
        let keyword = suggestion::closest(word, keywords())?;
        Some((line_start + start, line_start + end, keyword))
    })
}

/// The offset of the innermost `{` still open at `position`, skipping strings and comments as
/// the grammar does.
fn innermost_unclosed_brace(text: &str, position: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let end = position.min(bytes.len());
    let mut open = Vec::new();
    let mut index = 0;
    while index < end {
        match bytes[index] {
            b'"' => index = skip_string(FileId(0), text, index).unwrap_or(end),
            b'/' if bytes.get(index + 1) == Some(&b'/') => {
                index = text[index..]
                    .find('\n')
                    .map_or(end, |newline| index + newline);
            }
            b'/' if bytes.get(index + 1) == Some(&b'*') => {
                index = skip_block_comment(FileId(0), text, index).unwrap_or(end);
            }
            b'{' => {
                open.push(index);
                index += 1;
            }
            b'}' => {
                open.pop();
                index += 1;
            }
            _ => index += 1,
        }
    }
    open.pop()
}

fn snippet(text: &str, (start, end): (usize, usize)) -> &str {
    text.get(start..end).unwrap_or("")
}

/// "a, b or c".
fn join_alternatives(phrases: &[&str]) -> String {
    match phrases {
        [] => String::new(),
        [only] => only.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Describes the text at `position` ("`peice`", "`}`", "the end of the line") and its byte range.
fn found_at(text: &str, position: usize) -> (String, (usize, usize)) {
    let rest = text.get(position..).unwrap_or("");
    let Some(first) = rest.chars().next() else {
        return ("the end of the file".to_string(), (text.len(), text.len()));
    };
    if first == '\n' || first == '\r' {
        return ("the end of the line".to_string(), (position, position));
    }
    let is_word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let len = if is_word_char(first) {
        rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len())
    } else {
        first.len_utf8()
    };
    let found = &rest[..len];
    let shown = if found.chars().count() > 40 {
        format!("{}...", found.chars().take(40).collect::<String>())
    } else {
        found.to_string()
    };
    (
        format!("`{}`", shown.escape_debug()),
        (position, position + len),
    )
}
