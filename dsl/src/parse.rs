//! From text to a [`GameFile`]: input guards, the pest grammar, and syntax errors in plain words.
//!
//! The grammar lives in `grammar.pest`. pest `Pair`s never leave this module: [`parse`] returns
//! an AST whose nodes carry [`Span`]s. Before pest runs, [`decode`] and a lexical pre-scan turn
//! the inputs that could hurt (huge files, bytes that are not UTF-8, unterminated strings and
//! comments, braces nested thousands deep) into diagnostics.

use crate::ast::*;
use crate::definition::Verdict;
use crate::diagnostic::{code, Diagnostic, Diagnostics};
use crate::span::{FileId, Span, Spanned};
use crate::suggestion;
use pest::iterators::{Pair, Pairs};
use pest::Parser;

/// The largest game file accepted, in bytes (1 MiB).
pub const MAX_FILE_BYTES: usize = 1 << 20;

/// The deepest nesting of `{ ... }` accepted.
pub const MAX_NESTING: usize = 64;

/// The generated parser; private, so that `Rule` and `Pair`s stay inside this module.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub(super) struct GrammarParser;
}

use grammar::{GrammarParser, Rule};

/// Turns the bytes of a file into the text to parse and to quote in diagnostics.
///
/// Returns the text (empty for a file that is too large, lossily decoded for bytes that are not
/// UTF-8) and the problem, if any: such a file must not be parsed.
pub fn decode(file: FileId, bytes: &[u8]) -> (String, Option<Diagnostic>) {
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

// ---------------------------------------------------------------------------------------------
// Lexical pre-scan
// ---------------------------------------------------------------------------------------------

/// Follows strings, comments and braces the way the grammar does, and reports what would make
/// pest fail badly: an unterminated string or comment, or braces nested deeper than
/// [`MAX_NESTING`] (the recursive `future_block` rule could overflow the stack).
fn prescan(file: FileId, text: &str) -> Result<(), Box<Diagnostic>> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'"' => index = skip_string(file, text, index)?,
            b'/' if bytes.get(index + 1) == Some(&b'/') => {
                index = text[index..]
                    .find('\n')
                    .map_or(bytes.len(), |newline| index + newline);
            }
            b'/' if bytes.get(index + 1) == Some(&b'*') => {
                index = skip_block_comment(file, text, index)?;
            }
            b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(Box::new(Diagnostic::error(
                        code::NESTING_TOO_DEEP,
                        format!("braces are nested more than {MAX_NESTING} deep"),
                        Span::new(file, index, index + 1),
                        format!("this `{{` is at depth {depth}"),
                    )));
                }
                index += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                index += 1;
            }
            _ => index += 1,
        }
    }
    Ok(())
}

/// Skips the string opening at `start`; returns the index after its closing quote.
fn skip_string(file: FileId, text: &str, start: usize) -> Result<usize, Box<Diagnostic>> {
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
fn skip_block_comment(file: FileId, text: &str, start: usize) -> Result<usize, Box<Diagnostic>> {
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

// ---------------------------------------------------------------------------------------------
// Syntax errors in plain words
// ---------------------------------------------------------------------------------------------

/// What the user is told a rule stands for, and the keyword it starts with (for "did you mean").
struct Expected {
    words: Option<&'static str>,
    keyword: Option<&'static str>,
}

const fn words(words: &'static str) -> Expected {
    Expected {
        words: Some(words),
        keyword: None,
    }
}

const fn keyword(words: &'static str, keyword: &'static str) -> Expected {
    Expected {
        words: Some(words),
        keyword: Some(keyword),
    }
}

const fn unmentioned() -> Expected {
    Expected {
        words: None,
        keyword: None,
    }
}

const STATEMENT: &str = "a statement such as `piece` or `board`";
const PIECE_ITEM: &str = "a piece property such as `letter`, `moves` or `promotes`";
const SIDE_ITEM: &str = "a side property such as `forward up`";
const END_ITEM: &str = "an end rule such as `checkmate loses`";
const ZONE: &str = "a zone such as `rank 2`, `ranks 1-3`, `last rank` or `squares e4 d5`";
const VERDICT: &str = "`loses`, `wins` or `draws`";

/// The one table from grammar rules to plain words. It is exhaustive on purpose: a new rule
/// does not compile until it says how errors should name it.
fn expected(rule: Rule) -> Expected {
    match rule {
        Rule::EOI => words("the end of the line"),
        Rule::file => words(STATEMENT),
        Rule::string => words("a string in double quotes"),
        Rule::string_inner => words("the text of the string"),
        Rule::identifier => words("a name"),
        Rule::integer => words("a number"),
        Rule::signed_integer => words("a number such as `3` or `-1`"),
        Rule::square => words("a square such as `e4`"),
        Rule::letter => words("a single letter"),
        Rule::open_brace => words("`{`"),
        Rule::close_brace => words("`}`"),
        Rule::game_statement => keyword(STATEMENT, "game"),
        Rule::extends_statement => keyword(STATEMENT, "extends"),
        Rule::description_statement => keyword(STATEMENT, "description"),
        Rule::credits_statement => keyword(STATEMENT, "credits"),
        Rule::board_statement => keyword(STATEMENT, "board"),
        Rule::side_statement => keyword(STATEMENT, "side"),
        Rule::turns_statement => keyword(STATEMENT, "turns"),
        Rule::piece_statement => keyword(STATEMENT, "piece"),
        Rule::castling_statement => keyword(STATEMENT, "castling"),
        Rule::setup_statement => keyword(STATEMENT, "setup"),
        Rule::end_statement => keyword(STATEMENT, "end"),
        Rule::board_size => words("a board size such as `8x8`"),
        Rule::holes_statement => keyword("`holes`", "holes"),
        Rule::forward_statement => keyword(SIDE_ITEM, "forward"),
        Rule::fen_letter_statement => keyword(SIDE_ITEM, "fen-letter"),
        Rule::letter_statement => keyword(PIECE_ITEM, "letter"),
        Rule::value_statement => keyword(PIECE_ITEM, "value"),
        Rule::royal_statement => keyword(PIECE_ITEM, "royal"),
        Rule::moves_statement => keyword(PIECE_ITEM, "moves"),
        Rule::initial_statement => keyword(PIECE_ITEM, "initial"),
        Rule::promotes_statement => keyword(PIECE_ITEM, "promotes"),
        Rule::irreversible_statement => keyword(PIECE_ITEM, "irreversible"),
        Rule::zone
        | Rule::zone_rank
        | Rule::zone_ranks
        | Rule::zone_last_rank
        | Rule::zone_squares => words(ZONE),
        Rule::rank_span => words("a range of ranks such as `1-3`"),
        Rule::castle => words("a castling move such as `white K king e1-g1 rook h1-f1`"),
        Rule::square_path => words("two squares such as `e1-g1`"),
        Rule::check_rule => keyword(END_ITEM, "check"),
        Rule::checkmate_rule => keyword(END_ITEM, "checkmate"),
        Rule::stalemate_rule => keyword(END_ITEM, "stalemate"),
        Rule::repetition_rule => keyword(END_ITEM, "repetition"),
        Rule::move_limit_rule => keyword(END_ITEM, "move-limit"),
        Rule::verdict | Rule::kw_loses | Rule::kw_wins | Rule::kw_draws => words(VERDICT),
        Rule::future_statement | Rule::future_keyword | Rule::future_word | Rule::future_block => {
            unmentioned()
        }
        Rule::WHITESPACE | Rule::COMMENT | Rule::keyword_end => unmentioned(),
        Rule::separator => words("the end of the line"),
        Rule::statement => words(STATEMENT),
        Rule::board_block | Rule::board_item => keyword("`holes`", "holes"),
        Rule::side_item => words(SIDE_ITEM),
        Rule::piece_item => words(PIECE_ITEM),
        Rule::end_item => words(END_ITEM),
        Rule::kw_game => keyword(STATEMENT, "game"),
        Rule::kw_extends => keyword(STATEMENT, "extends"),
        Rule::kw_description => keyword(STATEMENT, "description"),
        Rule::kw_credits => keyword(STATEMENT, "credits"),
        Rule::kw_board => keyword(STATEMENT, "board"),
        Rule::kw_holes => keyword("`holes`", "holes"),
        Rule::kw_side => keyword(STATEMENT, "side"),
        Rule::kw_forward => keyword(SIDE_ITEM, "forward"),
        Rule::kw_fen_letter => keyword(SIDE_ITEM, "fen-letter"),
        Rule::kw_turns => keyword(STATEMENT, "turns"),
        Rule::kw_piece => keyword(STATEMENT, "piece"),
        Rule::kw_letter => keyword(PIECE_ITEM, "letter"),
        Rule::kw_value => keyword(PIECE_ITEM, "value"),
        Rule::kw_royal => keyword(PIECE_ITEM, "royal"),
        Rule::kw_moves => keyword(PIECE_ITEM, "moves"),
        Rule::kw_initial => keyword(PIECE_ITEM, "initial"),
        Rule::kw_promotes => keyword(PIECE_ITEM, "promotes"),
        Rule::kw_on => keyword("`on`", "on"),
        Rule::kw_to => keyword("`to`", "to"),
        Rule::kw_irreversible => keyword(PIECE_ITEM, "irreversible"),
        Rule::kw_rank => keyword("`rank`", "rank"),
        Rule::kw_ranks => keyword(ZONE, "ranks"),
        Rule::kw_last => keyword(ZONE, "last"),
        Rule::kw_squares => keyword(ZONE, "squares"),
        Rule::kw_castling => keyword(STATEMENT, "castling"),
        Rule::kw_king => keyword("`king`", "king"),
        Rule::kw_rook => keyword("`rook`", "rook"),
        Rule::kw_setup => keyword(STATEMENT, "setup"),
        Rule::kw_end => keyword(STATEMENT, "end"),
        Rule::kw_check => keyword(END_ITEM, "check"),
        Rule::kw_checkmate => keyword(END_ITEM, "checkmate"),
        Rule::kw_stalemate => keyword(END_ITEM, "stalemate"),
        Rule::kw_repetition => keyword(END_ITEM, "repetition"),
        Rule::kw_move_limit => keyword(END_ITEM, "move-limit"),
    }
}

fn syntax_error(file: FileId, text: &str, error: &pest::error::Error<Rule>) -> Diagnostic {
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
        phrases.retain(|phrase| *phrase != "`rank`");
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
    let keywords = expectations
        .iter()
        .filter_map(|expectation| expectation.keyword);
    let help = suggestion::did_you_mean(snippet(text, found_span), keywords);
    let mut diagnostic = Diagnostic::error(
        code::SYNTAX,
        message,
        Span::new(file, found_span.0, found_span.1),
        label,
    )
    .with_optional_help(help);
    if expects_close_brace {
        if let Some(open) = innermost_unclosed_brace(text, position) {
            diagnostic = diagnostic
                .with_secondary(Span::new(file, open, open + 1), "this `{` is not closed");
        }
    }
    diagnostic
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

// ---------------------------------------------------------------------------------------------
// Building the AST
// ---------------------------------------------------------------------------------------------

fn span_of(file: FileId, pair: &Pair<'_, Rule>) -> Span {
    Span::new(file, pair.as_span().start(), pair.as_span().end())
}

/// The next child; the grammar guarantees it exists.
fn child<'i>(pairs: &mut Pairs<'i, Rule>) -> Pair<'i, Rule> {
    pairs.next().expect("the grammar guarantees this child")
}

fn text_of(file: FileId, pair: &Pair<'_, Rule>) -> Spanned<String> {
    Spanned::new(pair.as_str().to_string(), span_of(file, pair))
}

fn letter_of(file: FileId, pair: &Pair<'_, Rule>) -> Spanned<char> {
    Spanned::new(
        pair.as_str().chars().next().unwrap_or('?'),
        span_of(file, pair),
    )
}

fn string_of(file: FileId, pair: Pair<'_, Rule>) -> Spanned<StringLit> {
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

fn build_statement(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Statement> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let statement = match rule {
        Rule::game_statement => Statement::Game(text_statement(file, &mut inner)),
        Rule::extends_statement => Statement::Extends(text_statement(file, &mut inner)),
        Rule::description_statement => Statement::Description(text_statement(file, &mut inner)),
        Rule::credits_statement => Statement::Credits(text_statement(file, &mut inner)),
        Rule::setup_statement => Statement::Setup(text_statement(file, &mut inner)),
        Rule::board_statement => Statement::Board(board_statement(file, &mut inner)),
        Rule::side_statement => Statement::Side(side_statement(file, &mut inner)),
        Rule::turns_statement => Statement::Turns(turns_statement(file, &mut inner)),
        Rule::piece_statement => Statement::Piece(piece_statement(file, &mut inner)),
        Rule::castling_statement => Statement::Castling(castling_statement(file, &mut inner)),
        Rule::end_statement => Statement::End(end_statement(file, &mut inner)),
        _ => Statement::Future(future_statement(file, &mut inner)),
    };
    Spanned::new(statement, span)
}

fn text_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> TextStatement {
    let keyword = span_of(file, &child(inner));
    TextStatement {
        keyword,
        text: string_of(file, child(inner)),
    }
}

fn future_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> FutureStatement {
    FutureStatement {
        keyword: text_of(file, &child(inner)),
    }
}

/// The pairs of a block's items, braces left out.
fn block_items<'i>(inner: Pairs<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    inner.filter(|pair| !matches!(pair.as_rule(), Rule::open_brace | Rule::close_brace))
}

fn board_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> BoardStatement {
    let keyword = span_of(file, &child(inner));
    let mut size = child(inner).into_inner();
    let files = text_of(file, &child(&mut size));
    let ranks = text_of(file, &child(&mut size));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::holes_statement => {
                    BoardItem::Holes(parts.skip(1).map(|square| text_of(file, &square)).collect())
                }
                _ => BoardItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    BoardStatement {
        keyword,
        files,
        ranks,
        items,
    }
}

fn side_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> SideStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::forward_statement => {
                    SideItem::Forward(text_of(file, &parts.nth(1).expect("direction")))
                }
                Rule::fen_letter_statement => {
                    SideItem::FenLetter(letter_of(file, &parts.nth(1).expect("letter")))
                }
                _ => SideItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    SideStatement {
        keyword,
        name,
        items,
    }
}

fn turns_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> TurnsStatement {
    let keyword = span_of(file, &child(inner));
    TurnsStatement {
        keyword,
        sides: inner.map(|side| text_of(file, &side)).collect(),
    }
}

fn piece_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> PieceStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| piece_item(file, pair))
        .collect();
    PieceStatement {
        keyword,
        name,
        items,
    }
}

fn piece_item(file: FileId, pair: Pair<'_, Rule>) -> Spanned<PieceItem> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut parts = pair.into_inner();
    let item = match rule {
        Rule::letter_statement => {
            PieceItem::Letter(letter_of(file, &parts.nth(1).expect("letter")))
        }
        Rule::value_statement => PieceItem::Value(text_of(file, &parts.nth(1).expect("value"))),
        Rule::royal_statement => PieceItem::Royal,
        Rule::moves_statement => PieceItem::Moves(string_of(file, parts.nth(1).expect("moves"))),
        Rule::initial_statement => PieceItem::Initial(zone(file, parts.nth(1).expect("zone"))),
        Rule::promotes_statement => {
            let zone = zone(file, parts.nth(2).expect("zone"));
            let choices = parts.skip(1).map(|name| text_of(file, &name)).collect();
            PieceItem::Promotes { zone, choices }
        }
        Rule::irreversible_statement => PieceItem::Irreversible,
        _ => PieceItem::Future(future_statement(file, &mut parts)),
    };
    Spanned::new(item, span)
}

fn zone(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Zone> {
    let span = span_of(file, &pair);
    let shape = pair.into_inner().next().expect("a zone has one shape");
    let rule = shape.as_rule();
    let mut parts = shape.into_inner();
    let zone = match rule {
        Rule::zone_rank => Zone::Rank(text_of(file, &parts.nth(1).expect("rank"))),
        Rule::zone_ranks => {
            let mut span_parts = parts.nth(1).expect("rank span").into_inner();
            let first = text_of(file, &child(&mut span_parts));
            let last = text_of(file, &child(&mut span_parts));
            Zone::Ranks { first, last }
        }
        Rule::zone_last_rank => Zone::LastRank,
        _ => Zone::Squares(parts.skip(1).map(|square| text_of(file, &square)).collect()),
    };
    Spanned::new(zone, span)
}

fn castling_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> CastlingStatement {
    let keyword = span_of(file, &child(inner));
    let castles = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let mut parts = pair.into_inner();
            let side = text_of(file, &child(&mut parts));
            let letter = letter_of(file, &child(&mut parts));
            let (king_from, king_to) = square_path(file, parts.nth(1).expect("king path"));
            let (rook_from, rook_to) = square_path(file, parts.nth(1).expect("rook path"));
            Spanned::new(
                Castle {
                    side,
                    letter,
                    king_from,
                    king_to,
                    rook_from,
                    rook_to,
                },
                span,
            )
        })
        .collect();
    CastlingStatement { keyword, castles }
}

fn square_path(file: FileId, pair: Pair<'_, Rule>) -> (Spanned<String>, Spanned<String>) {
    let mut squares = pair.into_inner();
    let from = text_of(file, &child(&mut squares));
    let to = text_of(file, &child(&mut squares));
    (from, to)
}

fn end_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> EndStatement {
    let keyword = span_of(file, &child(inner));
    let rules = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let end_rule = match rule {
                Rule::check_rule => EndRule::Check,
                Rule::checkmate_rule => {
                    EndRule::Checkmate(verdict(file, parts.nth(1).expect("verdict")))
                }
                Rule::stalemate_rule => {
                    EndRule::Stalemate(verdict(file, parts.nth(1).expect("verdict")))
                }
                Rule::repetition_rule => {
                    let count = text_of(file, &parts.nth(1).expect("count"));
                    EndRule::Repetition {
                        count,
                        verdict: verdict(file, child(&mut parts)),
                    }
                }
                Rule::move_limit_rule => {
                    let moves = text_of(file, &parts.nth(1).expect("moves"));
                    EndRule::MoveLimit {
                        moves,
                        verdict: verdict(file, child(&mut parts)),
                    }
                }
                _ => EndRule::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(end_rule, span)
        })
        .collect();
    EndStatement { keyword, rules }
}

fn verdict(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Verdict> {
    let span = span_of(file, &pair);
    let verdict = match pair.as_str() {
        "wins" => Verdict::Win,
        "draws" => Verdict::Draw,
        _ => Verdict::Loss,
    };
    Spanned::new(verdict, span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SourceMap;

    fn error_of(text: &str) -> String {
        let mut sources = SourceMap::new();
        let file = sources.add("x.variant", text);
        parse(file, text)
            .expect_err("should not parse")
            .render(&sources)
    }

    fn message_of(text: &str) -> String {
        let mut sources = SourceMap::new();
        let file = sources.add("x.variant", text);
        let diagnostics = parse(file, text).expect_err("should not parse");
        diagnostics
            .iter()
            .next()
            .map(|d| d.message.clone())
            .unwrap_or_default()
    }

    #[test]
    fn syntax_errors_speak_plainly() {
        let cases = [
            ("peice Knight { letter N }", "expected a statement such as `piece` or `board`, found `peice`"),
            (
                "piece Knight { leter N }",
                "expected `}` or a piece property such as `letter`, `moves` or `promotes`, found `leter`",
            ),
            ("board 8by8", "expected a board size such as `8x8`, found `8by8`"),
            ("board 8x8 extra", "expected the end of the line or `{`, found `extra`"),
            ("side white { forward up", "expected `}`, found the end of the file"),
            ("piece Knight { value three }", "expected a number such as `3` or `-1`, found `three`"),
            ("board 8x8 {\n  holes z\n}", "expected a square such as `e4`, found `z`"),
            ("castling { white K king e1 rook h1-f1 }", "expected two squares such as `e1-g1`, found `e1`"),
            ("end { checkmate lose }", "expected `loses`, `wins` or `draws`, found `lose`"),
            ("piece X { promotes on last to Queen }", "expected `rank`, found `to`"),
            (
                "piece X { promotes on rnk 8 to Queen }",
                "expected a zone such as `rank 2`, `ranks 1-3`, `last rank` or `squares e4 d5`, found `rnk`",
            ),
            ("turns", "expected a name, found the end of the file"),
            ("setup rnbqk", "expected a string in double quotes, found `rnbqk`"),
            ("game \"x\" @", "expected the end of the line, found `@`"),
        ];
        for (text, message) in cases {
            assert_eq!(message_of(text), message, "{text}");
        }
    }

    #[test]
    fn syntax_errors_suggest_keywords() {
        let rendered = error_of("piece Knight { leter N }");
        assert!(
            rendered.contains("help: did you mean `letter`?"),
            "{rendered}"
        );
        assert!(rendered.contains("x.variant:1:16"), "{rendered}");
    }

    #[test]
    fn an_unclosed_brace_is_pointed_at() {
        let rendered = error_of("piece King {\n  letter K\n\npiece Rook { letter R }\n");
        assert!(rendered.contains("this `{` is not closed"), "{rendered}");
    }

    #[test]
    fn lexical_guards() {
        assert!(message_of("game \"x").contains("no closing `\"`"));
        assert!(message_of("/* x").contains("no closing `*/`"));
        let deep = format!("phase x {}{}", "{".repeat(10_000), "}".repeat(10_000));
        assert_eq!(message_of(&deep), "braces are nested more than 64 deep");
        let just_deep_enough = format!(
            "phase x {}{}",
            "{".repeat(MAX_NESTING),
            "}".repeat(MAX_NESTING)
        );
        assert!(parse(FileId(0), &just_deep_enough).is_ok());
    }

    #[test]
    fn decode_guards_bytes() {
        let (text, problem) = decode(FileId(0), b"game \"x\"\nboard \xff");
        assert_eq!(problem.expect("not UTF-8").primary.span.start, 15);
        assert!(text.ends_with('\u{FFFD}'));
        let (text, problem) = decode(FileId(0), &vec![b' '; MAX_FILE_BYTES + 1]);
        assert!(text.is_empty());
        assert_eq!(problem.expect("too large").code, code::FILE_TOO_LARGE);
        assert!(decode(FileId(0), b"game \"x\"").1.is_none());
    }

    #[test]
    fn chess_parses_with_spans() {
        let text = include_str!("../../games/chess.variant");
        let game = parse(FileId(0), text).expect("chess parses");
        assert_eq!(game.statements.len(), 16);
        let Statement::Piece(king) = &game.statements[7].node else {
            panic!("the King")
        };
        assert_eq!(&text[king.name.span.start..king.name.span.end], "King");
        let moves = game
            .statements
            .iter()
            .find_map(|statement| match &statement.node {
                Statement::Piece(piece) if piece.name.node == "Pawn" => {
                    piece.items.iter().find_map(|item| match &item.node {
                        PieceItem::Moves(moves) => Some(moves.clone()),
                        _ => None,
                    })
                }
                _ => None,
            })
            .expect("the pawn's moves");
        assert_eq!(moves.node.value, "mfW cfeF imfnD");
        let span = moves.span_of(4..8);
        assert_eq!(&text[span.start..span.end], "cfeF");
    }
}
