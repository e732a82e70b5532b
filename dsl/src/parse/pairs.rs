//! Reading pest pairs: spans, names, letters, strings (unescaped) and the items of a block. The
//! statement and expression builders read the grammar's pairs through these.

use crate::ast::*;
use crate::parse::grammar::Rule;
use crate::span::{FileId, Span, Spanned};
use pest::iterators::{Pair, Pairs};

pub(super) fn span_of(file: FileId, pair: &Pair<'_, Rule>) -> Span {
    Span::new(file, pair.as_span().start(), pair.as_span().end())
}

/// The next child; the grammar guarantees it exists.
pub(super) fn child<'i>(pairs: &mut Pairs<'i, Rule>) -> Pair<'i, Rule> {
    pairs.next().expect("the grammar guarantees this child")
}

pub(super) fn text_of(file: FileId, pair: &Pair<'_, Rule>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), span_of(file, pair))
}

pub(super) fn letter_of(file: FileId, pair: &Pair<'_, Rule>) -> Spanned<char> {
    Spanned::new(
        pair.as_str().chars().next().unwrap_or('?'),
        span_of(file, pair),
    )
}

pub(super) fn string_of(file: FileId, pair: Pair<'_, Rule>) -> Spanned<StringLit> {
    let span = span_of(file, &pair);
    let raw = pair
        .into_inner()
        .next()
        .map_or("", |inner| inner.as_str())
        .to_string();
    let value = unescape(&raw);
    Spanned::new(StringLit { value, raw }, span)
}

fn unescape(raw: &str) -> String {
    let mut value = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.extend(chars.next());
        } else {
            value.push(c);
        }
    }
    value
}

/// The pairs of a block's items, braces left out.
pub(super) fn block_items<'i>(inner: Pairs<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    inner.filter(|pair| !matches!(pair.as_rule(), Rule::open_brace | Rule::close_brace))
}
