//! The parser that pest generates from `grammar.pest`: private to [`crate::parse`], so that
//! `Rule` and pest `Pair`s never leave the parsing module.

/// The generated parser.
#[derive(pest_derive::Parser)]
#[grammar = "grammar.pest"]
pub(super) struct GrammarParser;
