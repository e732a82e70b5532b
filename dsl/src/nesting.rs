//! How deep a file nests, measured on its tokens before pest runs.
//!
//! Every stage after the parser walks expressions recursively: pest itself, the AST builder,
//! the validator, the RON serialiser, the compiler and the evaluator. A rule nested thousands
//! deep (`((((...))))`, `not not not ...`) or a chain of thousands of terms (`1 + 1 + 1 ...`,
//! read as `((1 + 1) + 1) + ...`, one level per operator) would overflow the stack of one of
//! them. So the pre-scan of [`crate::parse`] feeds every token to a [`Nesting`], which reports
//! the first token past one of two limits, and nothing downstream needs a guard of its own:
//!
//! - [`MAX_NESTING`] bounds the *nesting*: braces, parentheses, and the words that take an
//!   operand (`not`, `count`, `some`, `adjacent to` ...), as pest recurses into them;
//! - [`MAX_EXPRESSION_DEPTH`] bounds the *depth* of the syntax tree: the nesting plus, at every
//!   level, the binary operators (`and`, `or`, `+`, `-`, `except`, comparisons) of the chain that
//!   the level sits in.
//!
//! The measure over-counts a little (a word such as `to` always counts, `move from` counts
//! twice) and never under-counts, so a file that passes holds no deeper tree than the limits.

use crate::diagnostic::{code, Diagnostic};
use crate::span::{FileId, Span};

/// The deepest nesting of braces, parentheses and operand-taking words accepted.
pub const MAX_NESTING: usize = 64;

/// The deepest expression accepted, counting nesting and the operators of chains.
pub const MAX_EXPRESSION_DEPTH: usize = 256;

/// Words that take the next operand (and so nest it): `not`, `count` ... and the action
/// conditions of policies (`from`, `to`, `lands on`, `then attacks`).
const OPERAND_WORDS: &[&str] = &[
    "not", "count", "some", "no", "touch", "adjacent", "colour", "place", "placing", "move",
    "moving", "at", "sum", "from", "to", "lands", "attacks", "until", "after", "reach",
];

/// Words after which an expression starts afresh: a `not` that follows one negates everything
/// up to the next `and` or `or`.
const EXPRESSION_STARTS: &[&str] = &["must", "when", "score", "where", "prefer"];

/// One open brace or parenthesis (or the file itself).
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// `{` or `(` (nothing for the file's frame).
    bracket: Option<char>,
    /// The nesting of the bracket that opened this frame.
    nesting: usize,
    /// The depth of the bracket that opened this frame.
    depth: usize,
    /// Binary operators since the frame opened or its statement started.
    chain: usize,
    /// `not`s that negate a whole conjunction operand, open until the next `and` or `or`.
    negations: usize,
    /// Operand-taking words open until the next binary operator.
    operand_words: usize,
    /// Whether the next `not` starts a conjunction operand (nothing else written since one
    /// started).
    fresh: bool,
}

impl Frame {
    fn opened(bracket: Option<char>, nesting: usize, depth: usize) -> Self {
        Frame {
            bracket,
            nesting,
            depth,
            fresh: true,
            ..Frame::default()
        }
    }

    fn nesting(&self) -> usize {
        self.nesting + self.negations + self.operand_words
    }

    fn depth(&self) -> usize {
        self.depth + self.chain + self.negations + self.operand_words
    }
}

/// The nesting measure, fed one token at a time in file order.
#[derive(Debug)]
pub(crate) struct Nesting {
    file: FileId,
    /// The open brackets; the first frame is the file's and is never closed.
    frames: Vec<Frame>,
}

impl Nesting {
    /// Starts at the beginning of `file`.
    pub(crate) fn new(file: FileId) -> Self {
        Nesting {
            file,
            frames: vec![Frame::opened(None, 0, 0)],
        }
    }

    fn top(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("the file's frame is never closed")
    }

    /// A `{` or `(` at `start`.
    pub(crate) fn open(&mut self, bracket: char, start: usize) -> Result<(), Box<Diagnostic>> {
        let outer = *self.top();
        self.top().fresh = false;
        let frame = Frame::opened(Some(bracket), outer.nesting() + 1, outer.depth() + 1);
        self.frames.push(frame);
        self.check(&bracket.to_string(), start, start + 1)
    }

    /// A `}` or `)`. A `)` closes the innermost bracket if it is a `(`; a `}` closes the
    /// innermost `{` and every `(` inside it (inside a planned construct's block, parentheses
    /// are plain characters). A closer that matches nothing is ignored: the parser reports it,
    /// and ignoring it can only over-count.
    pub(crate) fn close(&mut self, bracket: char) {
        let opening = if bracket == ')' { '(' } else { '{' };
        let open = self
            .frames
            .iter()
            .rposition(|frame| frame.bracket == Some(opening));
        match open {
            Some(index) if bracket == '}' || index == self.frames.len() - 1 => {
                self.frames.truncate(index.max(1));
            }
            _ => {}
        }
        self.top().fresh = false;
    }

    /// A newline, `;` or `,`: what follows is another statement or another expression.
    pub(crate) fn separator(&mut self) {
        let frame = self.top();
        *frame = Frame::opened(frame.bracket, frame.nesting, frame.depth);
    }

    /// A binary operator (`+`, `-`, `<=` ...) from `start` to `end`.
    pub(crate) fn operator(&mut self, start: usize, end: usize) -> Result<(), Box<Diagnostic>> {
        let frame = self.top();
        frame.chain += 1;
        frame.operand_words = 0;
        frame.fresh = false;
        self.check_depth(start, end)
    }

    /// A word (a name or keyword) from `start` to `end`.
    pub(crate) fn word(
        &mut self,
        word: &str,
        start: usize,
        end: usize,
    ) -> Result<(), Box<Diagnostic>> {
        let frame = self.top();
        match word {
            "and" | "or" => {
                frame.chain += 1;
                frame.negations = 0;
                frame.operand_words = 0;
                frame.fresh = true;
            }
            "except" => {
                frame.chain += 1;
                frame.operand_words = 0;
                frame.fresh = false;
            }
            "not" if frame.fresh => frame.negations += 1,
            _ if OPERAND_WORDS.contains(&word) => {
                frame.operand_words += 1;
                frame.fresh = false;
            }
            _ if EXPRESSION_STARTS.contains(&word) => {
                *frame = Frame::opened(frame.bracket, frame.nesting, frame.depth);
                return Ok(());
            }
            _ => {
                frame.fresh = false;
                return Ok(());
            }
        }
        self.check(word, start, end)
    }

    /// Any other token: a number, a string, punctuation.
    pub(crate) fn other(&mut self) {
        self.top().fresh = false;
    }

    /// Both limits, after the token `what` from `start` to `end`.
    fn check(&mut self, what: &str, start: usize, end: usize) -> Result<(), Box<Diagnostic>> {
        let nesting = self.top().nesting();
        if nesting > MAX_NESTING {
            let span = Span::new(self.file, start, end);
            let diagnostic = if what == "{" {
                Diagnostic::error(
                    code::NESTING_TOO_DEEP,
                    format!("braces are nested more than {MAX_NESTING} deep"),
                    span,
                    format!("this `{{` is at depth {nesting}"),
                )
            } else {
                Diagnostic::error(
                    code::NESTING_TOO_DEEP,
                    format!("this expression is nested more than {MAX_NESTING} deep"),
                    span,
                    format!("this `{what}` is at depth {nesting}"),
                )
                .with_help(
                    "braces, parentheses and the words that take an operand (`not`, `count`, \
                     `some`, `adjacent to` ...) each open a level; write the rule with fewer",
                )
            };
            return Err(Box::new(diagnostic));
        }
        self.check_depth(start, end)
    }

    fn check_depth(&mut self, start: usize, end: usize) -> Result<(), Box<Diagnostic>> {
        let depth = self.top().depth();
        if depth <= MAX_EXPRESSION_DEPTH {
            return Ok(());
        }
        Err(Box::new(
            Diagnostic::error(
                code::EXPRESSION_TOO_DEEP,
                format!("this expression is more than {MAX_EXPRESSION_DEPTH} levels deep"),
                Span::new(self.file, start, end),
                format!("level {depth}"),
            )
            .with_help(
                "`a + b + c` is read as `(a + b) + c`: every `and`, `or`, `+`, `-`, `except` and \
                 comparison of a chain adds a level, as does every parenthesis and every word \
                 that takes an operand; split the rule or write it shorter",
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first token past a limit, as (code, text of the token), for an expression in a
    /// `score` statement; `None` if the expression is within the limits.
    fn first_past_limit(expression: &str) -> Option<(&'static str, String)> {
        let text = format!("score {expression}\n");
        match crate::parse::parse(FileId(0), &text) {
            Err(diagnostics) => {
                let diagnostic = diagnostics.iter().next().expect("one");
                let span = diagnostic.primary.span;
                Some((diagnostic.code, text[span.start..span.end].to_string()))
            }
            Ok(_) => None,
        }
    }

    #[test]
    fn parentheses_nest_up_to_the_limit() {
        let deep = |n: usize| format!("{}occupied{}", "(".repeat(n), ")".repeat(n));
        assert_eq!(
            first_past_limit(&format!("count {}", deep(MAX_NESTING - 1))),
            None
        );
        assert_eq!(
            first_past_limit(&format!("count {}", deep(MAX_NESTING))),
            Some((code::NESTING_TOO_DEEP, "(".to_string()))
        );
        assert_eq!(
            first_past_limit(&format!("count {}", deep(5_000))),
            Some((code::NESTING_TOO_DEEP, "(".to_string()))
        );
    }

    #[test]
    fn prefix_words_nest() {
        let nots = |n: usize| format!("count {}occupied", "not ".repeat(n));
        assert_eq!(first_past_limit(&nots(MAX_NESTING - 1)), None);
        assert_eq!(
            first_past_limit(&nots(4_000)),
            Some((code::NESTING_TOO_DEEP, "not".to_string()))
        );
        let counts = format!("{}occupied", "count ".repeat(MAX_NESTING + 1));
        assert_eq!(
            first_past_limit(&counts).map(|(code, _)| code),
            Some(code::NESTING_TOO_DEEP)
        );
        // `sum F on S` nests S too: a chain of sums is as deep as it is long.
        let sums = format!(
            "{}empty",
            "sum controllers of own on ".repeat(MAX_NESTING + 1)
        );
        assert_eq!(
            first_past_limit(&sums),
            Some((code::NESTING_TOO_DEEP, "sum".to_string()))
        );
    }

    #[test]
    fn operand_words_close_at_an_operator() {
        let many = vec!["count occupied"; 200].join(" + ");
        assert_eq!(first_past_limit(&many), None);
        let negated = vec!["not some occupied"; 200].join(" and ");
        assert_eq!(first_past_limit(&format!("count ({negated})")), None);
    }

    #[test]
    fn chains_count_towards_the_depth() {
        let chain = |n: usize| format!("count occupied{}", " + 1".repeat(n));
        assert_eq!(first_past_limit(&chain(MAX_EXPRESSION_DEPTH)), None);
        assert_eq!(
            first_past_limit(&chain(MAX_EXPRESSION_DEPTH + 1)),
            Some((code::EXPRESSION_TOO_DEEP, "+".to_string()))
        );
        assert_eq!(
            first_past_limit(&chain(3_500)).map(|(code, _)| code),
            Some(code::EXPRESSION_TOO_DEEP)
        );
        // Nested chains add up.
        let inner = format!("({})", chain(200));
        assert_eq!(
            first_past_limit(&format!("{}{inner}", "1 - ".repeat(100))).map(|(c, _)| c),
            Some(code::EXPRESSION_TOO_DEEP)
        );
    }

    #[test]
    fn negations_before_a_chain_stay_open_across_it() {
        // `not a + not a + ...` is `not (a + (not a) + ...)`: the first `not` is above the
        // whole chain, so it counts for every level of it.
        let chain = format!("not {}", vec!["not occupied"; 130].join(" except "));
        assert_eq!(first_past_limit(&format!("count ({chain})")), None);
        let deep = format!("{}occupied", "not (".repeat(40)) + &")".repeat(40);
        assert_eq!(
            first_past_limit(&format!("count {deep}")).map(|(c, _)| c),
            Some(code::NESTING_TOO_DEEP)
        );
    }

    #[test]
    fn a_closer_that_matches_nothing_does_not_lower_the_count() {
        // Inside a planned construct's block, `)` is a plain character and `{` nests.
        let text = format!("option x {}\n", "{ ) ".repeat(5_000));
        let errors = crate::parse::parse(FileId(0), &text).expect_err("too deep");
        let error = errors.iter().next().expect("one");
        assert_eq!(error.code, code::NESTING_TOO_DEEP);
        assert_eq!(
            error.primary.span.start,
            "option x ".len() + 4 * MAX_NESTING
        );
        // And `}` closes the parentheses left open inside its block.
        let text = format!(
            "{}\nscore count {}occupied",
            "option x { ( }\n".repeat(100),
            "(".repeat(60)
        );
        let text = format!("{text}{}\n", ")".repeat(60));
        assert!(crate::parse::parse(FileId(0), &text).is_ok());
    }

    #[test]
    fn statements_and_expressions_start_afresh() {
        let lines = vec!["score count occupied + 1"; 300].join("\n");
        let text = format!("{lines}\n");
        // Each line is its own chain (the file is rejected later, for 300 `score`s).
        assert!(crate::parse::parse(FileId(0), &text).is_ok());
        let numbers = (1..=26)
            .map(|rank| format!("a{rank}-z{rank}"))
            .collect::<Vec<_>>()
            .join(" ");
        // `squares e4-1` is a square less one: the `-` after a square is an operator.
        let minus_squares = format!("count squares e4{}", "-squares e4".repeat(300));
        assert_eq!(
            first_past_limit(&minus_squares).map(|(c, _)| c),
            Some(code::EXPRESSION_TOO_DEEP)
        );
        let side = format!("side white {{ forward up; numbers {numbers} }}\n");
        assert!(crate::parse::parse(FileId(0), &side).is_ok());
    }
}
