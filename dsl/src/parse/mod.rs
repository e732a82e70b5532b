//! From text to a [`GameFile`]: input guards, the pest grammar, and syntax errors in plain words.
//!
//! The grammar lives in `grammar.pest`. pest `Pair`s never leave this module: [`parse`] returns
//! an AST whose nodes carry [`Span`]s. Before pest runs, [`decode`] and a lexical pre-scan turn
//! the inputs that could hurt (huge files, bytes that are not UTF-8, unterminated strings and
//! comments, brackets or expressions nested thousands deep, see [`crate::nesting`]) into
//! diagnostics.

use crate::ast::*;
use crate::definition::{Store, Tiebreak, Verdict};
use crate::diagnostic::{code, Diagnostic, Diagnostics};
use crate::expression::{Comparison, SquareConstant};
use crate::nesting::Nesting;
use crate::span::{FileId, Span, Spanned};
use crate::suggestion;
use pest::iterators::{Pair, Pairs};
use pest::Parser;

/// The largest game file accepted, in bytes (1 MiB).
pub const MAX_FILE_BYTES: usize = 1 << 20;

pub use crate::nesting::{MAX_EXPRESSION_DEPTH, MAX_NESTING};

/// The generated parser; private, so that `Rule` and `Pair`s stay inside this module.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar.pest"]
    pub(super) struct GrammarParser;
}

use grammar::{GrammarParser, Rule};

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

// ---------------------------------------------------------------------------------------------
// Lexical pre-scan
// ---------------------------------------------------------------------------------------------

/// Follows strings, comments and brackets the way the grammar does, and reports what would make
/// pest or a later stage fail badly: an unterminated string or comment, or a file nested deeper
/// than the limits of [`crate::nesting`] (the recursive rules, and every walk of an expression
/// after them, could overflow the stack).
fn prescan(file: FileId, text: &str) -> Result<(), Box<Diagnostic>> {
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

/// What the user is told a rule stands for, and the keywords it may start with (for "did you
/// mean").
struct Expected {
    words: Option<&'static str>,
    keyword: Option<&'static str>,
    other_keywords: &'static [&'static str],
}

const fn words(words: &'static str) -> Expected {
    Expected {
        words: Some(words),
        keyword: None,
        other_keywords: &[],
    }
}

const fn keyword(words: &'static str, keyword: &'static str) -> Expected {
    Expected {
        words: Some(words),
        keyword: Some(keyword),
        other_keywords: &[],
    }
}

/// A rule with several possible first keywords.
const fn keywords(words: &'static str, keywords: &'static [&'static str]) -> Expected {
    Expected {
        words: Some(words),
        keyword: None,
        other_keywords: keywords,
    }
}

const fn unmentioned() -> Expected {
    Expected {
        words: None,
        keyword: None,
        other_keywords: &[],
    }
}

const STATEMENT: &str = "a statement such as `piece` or `board`";
const PIECE_ITEM: &str = "a piece property such as `letter`, `moves`, `path` or `promotes`";
const LEG: &str = "a leg such as `W any`, `straight enemy not royal convert` or `outward+`";
const SQUARE_TEST: &str = "what the square may hold: `empty`, `enemy`, `friend` or `any`";
const SIDE_ITEM: &str = "a side property such as `forward up`";
const END_ITEM: &str = "an end rule such as `checkmate loses`";
const ZONE: &str = "a zone such as `rank 2`, `ranks 1-3`, `last rank` or `squares e4 d5`";
const VERDICT: &str = "`loses`, `wins` or `draws`";
const ACTION_KIND: &str = "an action such as `moves` or `drops`";
const DROPS_ITEM: &str = "a drop rule such as `must place on not controlled by opponent`";
const EXPRESSION: &str =
    "an expression such as `place King`, `touch occupied`, `count own pieces` or `placement = 1`";
const EXPRESSION_KEYWORDS: &[&str] = &[
    "place",
    "placing",
    "touch",
    "leave",
    "can",
    "placement",
    "count",
    "sum",
    "hands",
    "hand",
    "last",
    "controlled",
    "attacked",
    "adjacent",
    "colour",
    "some",
    "no",
    "legal",
    "controllers",
    "control",
    "empty",
    "occupied",
    "light",
    "dark",
    "board",
    "own",
    "opponent",
    "any",
    "next",
    "not",
    "rank",
    "ranks",
    "squares",
    "move",
    "moving",
    "acted",
    "actions",
    "drops",
    "at",
];
/// Every word of expressions, for suggestions when a misspelt one reads as a name.
pub(crate) const EXPRESSION_WORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "except",
    "when",
    "place",
    "placing",
    "on",
    "touch",
    "leave",
    "can",
    "placement",
    "count",
    "sum",
    "hands",
    "hand",
    "placed",
    "last",
    "drop",
    "of",
    "controlled",
    "attacked",
    "by",
    "adjacent",
    "to",
    "colour",
    "some",
    "no",
    "legal",
    "drops",
    "controllers",
    "control",
    "value",
    "empty",
    "occupied",
    "light",
    "dark",
    "board",
    "own",
    "opponent",
    "any",
    "next",
    "pieces",
    "piece",
    "rank",
    "ranks",
    "squares",
    "move",
    "moving",
    "from",
    "acted",
    "actions",
    "this",
    "turn",
    "at",
    "start",
];
const SIDE_REFERENCE: &str = "a side such as `own`, `opponent`, `any`, `next` or a side's name";
const CONTROL_ITEM: &str = "a control rule such as `en-passant standing`";
const MATERIAL_TERM: &str = "a piece name such as `Knight` or `Bishop*`";

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
        Rule::team_statement | Rule::kw_team => keyword(STATEMENT, "team"),
        Rule::piece_letters_statement => keyword(SIDE_ITEM, "letters"),
        Rule::numbers_statement => keyword(SIDE_ITEM, "numbers"),
        Rule::piece_statement => keyword(STATEMENT, "piece"),
        Rule::remove_statement | Rule::kw_remove => keyword(STATEMENT, "remove"),
        Rule::castling_statement => keyword(STATEMENT, "castling"),
        Rule::setup_statement => keyword(STATEMENT, "setup"),
        Rule::end_statement => keyword(STATEMENT, "end"),
        Rule::actions_statement => keyword(STATEMENT, "actions"),
        Rule::drops_statement => keyword(STATEMENT, "drops"),
        Rule::control_statement => keyword(STATEMENT, "control"),
        Rule::capture_statement | Rule::kw_capture => keyword(STATEMENT, "capture"),
        Rule::capture_item | Rule::remove_capturer_rule | Rule::remove_around_rule => {
            words("`remove capturer` or `remove around`")
        }
        Rule::kw_capturer => keyword("`capturer`", "capturer"),
        Rule::kw_around => keyword("`around`", "around"),
        Rule::kw_except => keyword("`except`", "except"),
        Rule::royal_captured_rule | Rule::kw_captured => keyword("`captured`", "captured"),
        Rule::score_statement => keyword(STATEMENT, "score"),
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
        Rule::uncapturable_statement | Rule::kw_uncapturable => keyword(PIECE_ITEM, "uncapturable"),
        Rule::path_statement | Rule::kw_path => keyword(PIECE_ITEM, "path"),
        Rule::leg | Rule::leg_head | Rule::leg_direction | Rule::betza_leg => words(LEG),
        Rule::leg_count => words("`*` or `+`"),
        Rule::square_test | Rule::square_kind => words(SQUARE_TEST),
        Rule::kw_enemy => keyword("`enemy`", "enemy"),
        Rule::kw_friend => keyword("`friend`", "friend"),
        Rule::kw_or => keyword("`or`", "or"),
        Rule::not_royal => keyword("`not royal`", "not"),
        Rule::kw_undefended => keyword("`undefended`", "undefended"),
        Rule::leg_effect | Rule::kw_convert => keyword("`convert`", "convert"),
        Rule::kw_straight => keyword("`straight`", "straight"),
        Rule::kw_outward => keyword("`outward`", "outward"),
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
        Rule::tiebreak_rule => keyword(END_ITEM, "tiebreak"),
        Rule::material_rule | Rule::kw_material => keyword(END_ITEM, "material"),
        Rule::material_term => words(MATERIAL_TERM),
        Rule::one_colour | Rule::kw_one => keyword("`on one colour`", "one"),
        Rule::tiebreak | Rule::kw_fewest => {
            keyword("a tiebreak such as `fewest in hand`", "fewest")
        }
        Rule::action_kind => keywords(ACTION_KIND, &["moves", "drops"]),
        Rule::drops_item | Rule::drop_constraint => words(DROPS_ITEM),
        Rule::move_rules_statement | Rule::kw_moves_block => keyword(STATEMENT, "moves"),
        Rule::move_rules_item | Rule::move_constraint => {
            words("a rule such as `must not move from acted this turn`")
        }
        Rule::phase_statement | Rule::kw_phase => keyword(STATEMENT, "phase"),
        Rule::phase_item | Rule::order_statement | Rule::kw_order => {
            words("`order SIDE...` or a rule such as `must place on ranks 1-2`")
        }
        Rule::turn_statement | Rule::kw_turn => keyword(STATEMENT, "turn"),
        Rule::turn_item
        | Rule::turn_length_rule
        | Rule::maximal_rule
        | Rule::pass_rule
        | Rule::exchange_rule
        | Rule::kw_up
        | Rule::kw_maximal
        | Rule::kw_pass
        | Rule::kw_exchange => keywords(
            "`up to N actions`, `maximal`, `pass when no action` or `exchange prisoners`",
            &["up", "maximal", "pass", "exchange"],
        ),
        Rule::kw_prisoners => keyword("`prisoners`", "prisoners"),
        Rule::capture_store_rule | Rule::kw_prison => keyword("`to hand` or `to prison`", "prison"),
        Rule::each_side | Rule::kw_each => keyword("`each side`", "each"),
        Rule::kw_move => keyword("`move`", "move"),
        Rule::kw_moving => keyword("`moving`", "moving"),
        Rule::kw_from => keyword("`from`", "from"),
        Rule::kw_acted => keyword("`acted`", "acted"),
        Rule::kw_this => keyword("`this`", "this"),
        Rule::kw_at => keyword("`at`", "at"),
        Rule::kw_start => keyword("`start`", "start"),
        Rule::expression
        | Rule::disjunction
        | Rule::conjunction
        | Rule::negation
        | Rule::comparison
        | Rule::difference
        | Rule::operand
        | Rule::parenthesized
        | Rule::number_term
        | Rule::move_from_term
        | Rule::move_term
        | Rule::acted_term
        | Rule::turn_count_term
        | Rule::turn_start_term
        | Rule::place_on_term
        | Rule::place_term
        | Rule::touch_term
        | Rule::leave_action_term
        | Rule::can_act_term
        | Rule::placement_term
        | Rule::count_term
        | Rule::sum_term
        | Rule::hands_empty_term
        | Rule::hand_term
        | Rule::placed_term
        | Rule::last_drop_term
        | Rule::controlled_term
        | Rule::attacked_term
        | Rule::adjacent_term
        | Rule::colour_of_term
        | Rule::some_term
        | Rule::no_term
        | Rule::legal_drops_term
        | Rule::controllers_term
        | Rule::control_value_term
        | Rule::squares_term
        | Rule::pieces_term
        | Rule::term => keywords(EXPRESSION, EXPRESSION_KEYWORDS),
        Rule::comparison_operator => words("a comparison such as `=`, `<` or `>=`"),
        Rule::difference_operator => words("`+`, `-` or `except`"),
        Rule::side_reference => words(SIDE_REFERENCE),
        Rule::name | Rule::expression_word => words("a name"),
        Rule::kw_place => keyword("`place`", "place"),
        Rule::kw_not => keyword("`not`", "not"),
        Rule::kw_touch => keyword("`touch`", "touch"),
        Rule::kw_leave => keyword("`leave`", "leave"),
        Rule::kw_an => keyword("`an`", "an"),
        Rule::kw_can => keyword("`can`", "can"),
        Rule::kw_act => keyword("`act`", "act"),
        Rule::kw_count => keyword("`count`", "count"),
        Rule::kw_sum => keyword("`sum`", "sum"),
        Rule::kw_drop => keyword("`drop`", "drop"),
        Rule::kw_of => keyword("`of`", "of"),
        Rule::kw_attacked => keyword("`attacked`", "attacked"),
        Rule::kw_adjacent => keyword("`adjacent`", "adjacent"),
        Rule::kw_some => keyword("`some`", "some"),
        Rule::kw_controllers => keyword("`controllers`", "controllers"),
        Rule::kw_light => keyword("`light`", "light"),
        Rule::kw_dark => keyword("`dark`", "dark"),
        Rule::kw_next => keyword("`next`", "next"),
        Rule::kw_pieces => keyword("`pieces`", "pieces"),
        Rule::condition_rule | Rule::end_result | Rule::by_score => {
            words("a result such as `by score`, `loses`, `wins` or `draws`")
        }
        Rule::control_item | Rule::en_passant_standing_rule | Rule::kw_en_passant => {
            keyword(CONTROL_ITEM, "en-passant")
        }
        Rule::kw_actions => keyword(STATEMENT, "actions"),
        Rule::kw_drops => keyword("`drops`", "drops"),
        Rule::kw_must => keyword("`must`", "must"),
        Rule::kw_any => keyword("`any`", "any"),
        Rule::kw_opponent => keyword("`opponent`", "opponent"),
        Rule::kw_in => keyword("`in`", "in"),
        Rule::kw_colour => keyword("`colour`", "colour"),
        Rule::kw_own => keyword("`own`", "own"),
        Rule::kw_placement => keyword("`placement`", "placement"),
        Rule::kw_when => keyword("`when`", "when"),
        Rule::kw_and => keyword("`and`", "and"),
        Rule::kw_occupied => keyword("`occupied`", "occupied"),
        Rule::kw_placing => keyword("`placing`", "placing"),
        Rule::kw_placed => keyword("`placed`", "placed"),
        Rule::kw_control => keyword(STATEMENT, "control"),
        Rule::kw_standing => keyword("`standing`", "standing"),
        Rule::kw_score => keyword(STATEMENT, "score"),
        Rule::kw_controlled => keyword("`controlled`", "controlled"),
        Rule::kw_by => keyword("`by`", "by"),
        Rule::kw_then => keyword("`then`", "then"),
        Rule::kw_empty => keyword("`empty`", "empty"),
        Rule::kw_hands => keyword(END_ITEM, "hands"),
        Rule::kw_no => keyword(END_ITEM, "no"),
        Rule::kw_legal => keyword("`legal`", "legal"),
        Rule::kw_action => keyword("`action`", "action"),
        Rule::kw_tiebreak => keyword(END_ITEM, "tiebreak"),
        Rule::kw_hand => keyword("`hand`", "hand"),
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
        Rule::kw_letters => keyword(SIDE_ITEM, "letters"),
        Rule::kw_plies => words("`plies`"),
        Rule::policy_item => words("a policy item such as `rule 1 { ... }`"),
        Rule::policy_step => words("a policy step such as `moves` or `where capture`"),
        Rule::action_atom => words("a condition on an action such as `capture`"),
        Rule::action_number => words("a number such as `value of victim`"),
        Rule::policy_statement | Rule::kw_policy => keyword(STATEMENT, "policy"),
        Rule::policy_rule => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::rule_label => words("a rule name such as `1` or `6a`"),
        Rule::policy_roll => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::dice => words("dice such as `3d6`"),
        Rule::dice_offset => words("`+ 1` or `- 2`"),
        Rule::policy_nearest => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_moves => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_captures => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_where => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_prefer => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_best => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_escape => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::step_jump => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::action_condition => {
            words("a condition on an action such as `capture` or `moving King`")
        }
        Rule::action_and => words("a condition on an action such as `capture` or `moving King`"),
        Rule::action_not => words("a condition on an action such as `capture` or `moving King`"),
        Rule::a_in_check | Rule::a_legal => words("a condition on an action such as `capture`"),
        Rule::a_capture_checker => {
            words("a condition on an action such as `capture` or `moving King`")
        }
        Rule::a_capture => words("a condition on an action such as `capture` or `moving King`"),
        Rule::a_moving => words("a condition on an action such as `capture` or `moving King`"),
        Rule::a_from => words("a condition on an action such as `capture` or `moving King`"),
        Rule::a_to => words("a condition on an action such as `capture` or `moving King`"),
        Rule::a_lands => words("a condition on an action such as `capture` or `moving King`"),
        Rule::a_attacks => words("a condition on an action such as `capture` or `moving King`"),
        Rule::action_compare => {
            words("a condition on an action such as `capture` or `moving King`")
        }
        Rule::n_integer => words("a number such as `value of victim` or `distance`"),
        Rule::n_candidates => words("a number such as `value of victim` or `distance`"),
        Rule::n_value => words("a number such as `value of victim` or `distance`"),
        Rule::n_distance => words("a number such as `value of victim` or `distance`"),
        Rule::n_attackers => words("a number such as `value of victim` or `distance`"),
        Rule::n_variable => words("a number such as `value of victim` or `distance`"),
        Rule::kw_rule => words("`rule`"),
        Rule::kw_roll => words("`roll`"),
        Rule::kw_as => words("`as`"),
        Rule::kw_let => words("`let`"),
        Rule::kw_nearest => words("`nearest`"),
        Rule::kw_number => words("`number`"),
        Rule::kw_ties => words("`ties`"),
        Rule::kw_lower => words("`lower`"),
        Rule::kw_higher => words("`higher`"),
        Rule::kw_odd => words("`odd`"),
        Rule::kw_captures => words("`captures`"),
        Rule::kw_where => words("`where`"),
        Rule::kw_prefer => words("`prefer`"),
        Rule::kw_highest => words("`highest`"),
        Rule::kw_lowest => words("`lowest`"),
        Rule::kw_per => words("`per`"),
        Rule::kw_direction => words("`direction`"),
        Rule::kw_escape => words("`escape`"),
        Rule::kw_with => words("`with`"),
        Rule::kw_jump => words("`jump`"),
        Rule::kw_file => words("`file`"),
        Rule::kw_checker => words("`checker`"),
        Rule::kw_lands => words("`lands`"),
        Rule::kw_attacks => words("`attacks`"),
        Rule::kw_candidates => words("`candidates`"),
        Rule::kw_mover => words("`mover`"),
        Rule::kw_victim => words("`victim`"),
        Rule::kw_distance => words("`distance`"),
        Rule::kw_attackers => words("`attackers`"),
        Rule::kw_destination => words("`destination`"),
        Rule::kw_for => words("`for`"),
        Rule::kw_numbers => keyword(SIDE_ITEM, "numbers"),
        Rule::kw_piece => keyword("`piece`", "piece"),
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
        Rule::kw_last => keyword("`last`", "last"),
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
    if phrases.contains(&MATERIAL_TERM) && phrases.contains(&VERDICT) {
        // After a material term: another term, `on one colour` or the verdict.
        phrases.retain(|phrase| *phrase != "`on`" && *phrase != VERDICT);
        phrases.extend(["`on one colour`", "a verdict such as `draws`"]);
    }
    if phrases.contains(&STATEMENT) {
        // `drops` starts a statement, but also ends `actions drops` and `only self-controlled
        // drops`, so its rule reads "`drops`".
        phrases.retain(|phrase| *phrase != "`drops`");
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
        Rule::policy_statement => Statement::Policy(policy_statement(file, &mut inner)),
        Rule::team_statement => {
            let keyword = span_of(file, &child(&mut inner));
            Statement::Team(TeamStatement {
                keyword,
                sides: inner.map(|side| text_of(file, &side)).collect(),
            })
        }
        Rule::piece_statement => Statement::Piece(piece_statement(file, &mut inner)),
        Rule::remove_statement => Statement::Remove(RemoveStatement {
            keyword: span_of(file, &child(&mut inner)),
            piece: text_of(file, &inner.nth(1).expect("the piece's name")),
        }),
        Rule::castling_statement => Statement::Castling(castling_statement(file, &mut inner)),
        Rule::actions_statement => Statement::Actions(actions_statement(file, &mut inner)),
        Rule::drops_statement => Statement::Drops(drops_statement(file, &mut inner)),
        Rule::move_rules_statement => Statement::MoveRules(drops_statement(file, &mut inner)),
        Rule::phase_statement => Statement::Phase(phase_statement(file, &mut inner)),
        Rule::turn_statement => Statement::Turn(turn_statement(file, &mut inner)),
        Rule::control_statement => Statement::Control(control_statement(file, &mut inner)),
        Rule::capture_statement => Statement::Capture(capture_statement(file, &mut inner)),
        Rule::score_statement => Statement::Score(score_statement(file, &mut inner)),
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
                Rule::piece_letters_statement => {
                    parts.next();
                    let mut pairs = Vec::new();
                    while let (Some(name), Some(letter)) = (parts.next(), parts.next()) {
                        pairs.push((text_of(file, &name), letter_of(file, &letter)));
                    }
                    SideItem::Letters(pairs)
                }
                Rule::numbers_statement => {
                    parts.next();
                    SideItem::Numbers(
                        parts
                            .map(|part| match part.as_rule() {
                                Rule::square_path => square_path(file, part),
                                _ => (text_of(file, &part), text_of(file, &part)),
                            })
                            .collect(),
                    )
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

fn policy_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> PolicyStatement {
    let keyword = span_of(file, &child(inner));
    let side = text_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::policy_rule => {
                    parts.next();
                    let label = text_of(file, &child(&mut parts));
                    let steps = block_items(parts)
                        .map(|step| policy_step(file, step))
                        .collect();
                    PolicyItemSyntax::Rule(label, steps)
                }
                Rule::policy_roll => {
                    let label = parts
                        .clone()
                        .find(|p| p.as_rule() == Rule::rule_label)
                        .map(|p| text_of(file, &p));
                    let (dice, name) = roll(file, parts);
                    PolicyItemSyntax::Roll(dice, name, label)
                }
                _ => {
                    let words: Vec<Pair<'_, Rule>> = parts.collect();
                    let idents: Vec<Spanned<String>> = words
                        .iter()
                        .filter(|p| p.as_rule() == Rule::identifier)
                        .map(|p| text_of(file, p))
                        .collect();
                    PolicyItemSyntax::Nearest {
                        name: idents[0].clone(),
                        to: idents[1].clone(),
                        except: idents[2].clone(),
                        lower_when_odd: words.iter().any(|p| p.as_rule() == Rule::kw_lower),
                    }
                }
            };
            Spanned::new(item, span)
        })
        .collect();
    PolicyStatement {
        keyword,
        side,
        items,
    }
}

fn roll(file: FileId, mut parts: Pairs<'_, Rule>) -> (DiceSyntax, Spanned<String>) {
    parts.next();
    let mut dice = child(&mut parts).into_inner();
    let count = text_of(file, &child(&mut dice));
    let faces = text_of(file, &child(&mut dice));
    let mut next = child(&mut parts);
    let mut offset = 0;
    if next.as_rule() == Rule::dice_offset {
        let text: String = next
            .as_str()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        offset = text.parse::<i64>().unwrap_or(0);
        next = child(&mut parts);
    }
    let _ = next; // `as`
    let name = text_of(file, &child(&mut parts));
    (
        DiceSyntax {
            count,
            faces,
            offset,
        },
        name,
    )
}

fn policy_step(file: FileId, pair: Pair<'_, Rule>) -> Spanned<PolicyStepSyntax> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut parts = pair.into_inner();
    let idents = |parts: Pairs<'_, Rule>| -> Vec<Spanned<String>> {
        parts
            .filter(|p| p.as_rule() == Rule::identifier)
            .map(|p| text_of(file, &p))
            .collect()
    };
    let step = match rule {
        Rule::step_moves => PolicyStepSyntax::Moves(idents(parts).into_iter().next()),
        Rule::step_captures => {
            PolicyStepSyntax::Captures(idents(parts).into_iter().next().expect("number"))
        }
        Rule::step_where => {
            parts.next();
            PolicyStepSyntax::Where(action_condition(file, child(&mut parts)))
        }
        Rule::step_prefer => {
            parts.next();
            PolicyStepSyntax::Prefer(parts.map(|p| action_condition(file, p)).collect())
        }
        Rule::step_best => {
            let highest = child(&mut parts).as_rule() == Rule::kw_highest;
            let measure = action_number(file, child(&mut parts));
            let per = parts.nth(1).map(|p| p.as_str().to_string());
            PolicyStepSyntax::Best {
                highest,
                measure,
                per,
            }
        }
        Rule::policy_roll => {
            let (dice, name) = roll(file, parts);
            PolicyStepSyntax::Roll(dice, name)
        }
        Rule::step_escape => PolicyStepSyntax::Escape(idents(parts).remove(0)),
        _ => {
            let mut names = idents(parts).into_iter();
            let number = names.next().expect("number");
            let column = names.next().expect("file");
            let row = names.next().expect("rank");
            PolicyStepSyntax::Jump(number, column, row)
        }
    };
    Spanned::new(step, span)
}

fn action_condition(file: FileId, pair: Pair<'_, Rule>) -> Spanned<ActionConditionSyntax> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let mut parts = pair.into_inner();
    let node = match rule {
        Rule::action_condition | Rule::action_and => {
            let operands: Vec<Spanned<ActionConditionSyntax>> = parts
                .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and))
                .map(|p| action_condition(file, p))
                .collect();
            if operands.len() == 1 {
                return operands.into_iter().next().expect("one");
            }
            if rule == Rule::action_condition {
                ActionConditionSyntax::Or(operands)
            } else {
                ActionConditionSyntax::And(operands)
            }
        }
        Rule::action_not => {
            let first = child(&mut parts);
            if first.as_rule() != Rule::kw_not {
                return action_condition(file, first);
            }
            ActionConditionSyntax::Not(Box::new(action_condition(file, child(&mut parts))))
        }
        Rule::a_capture_checker => ActionConditionSyntax::CaptureOfChecker,
        Rule::a_in_check => ActionConditionSyntax::InCheck,
        Rule::a_legal => ActionConditionSyntax::Legal,
        Rule::a_capture => ActionConditionSyntax::Capture,
        Rule::a_moving => {
            ActionConditionSyntax::Moving(text_of(file, &parts.nth(1).expect("piece")))
        }
        Rule::a_from => {
            ActionConditionSyntax::From(expression(file, parts.nth(1).expect("squares")))
        }
        Rule::a_to => ActionConditionSyntax::To(expression(file, parts.nth(1).expect("squares"))),
        Rule::a_lands => {
            ActionConditionSyntax::LandsOn(expression(file, parts.nth(2).expect("squares")))
        }
        Rule::a_attacks => {
            ActionConditionSyntax::ThenAttacks(expression(file, parts.nth(2).expect("squares")))
        }
        _ => {
            let left = action_number(file, child(&mut parts));
            let operator = child(&mut parts);
            let comparison = comparison_of(operator.as_str());
            let right = action_number(file, child(&mut parts));
            ActionConditionSyntax::Compare(left, comparison, right)
        }
    };
    Spanned::new(node, span)
}

/// `=`, `!=`, `<`, `<=`, `>`, `>=` as written.
fn comparison_of(operator: &str) -> Comparison {
    match operator {
        "=" => Comparison::Equal,
        "!=" => Comparison::NotEqual,
        "<" => Comparison::Less,
        "<=" => Comparison::LessOrEqual,
        ">" => Comparison::Greater,
        _ => Comparison::GreaterOrEqual,
    }
}

fn action_number(file: FileId, pair: Pair<'_, Rule>) -> Spanned<ActionNumberSyntax> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    let text = pair.as_str().to_string();
    let mut parts = pair.into_inner();
    let node = match rule {
        Rule::n_integer => ActionNumberSyntax::Integer(text),
        Rule::n_candidates => ActionNumberSyntax::Candidates,
        Rule::n_value => {
            if parts.nth(2).is_some_and(|p| p.as_rule() == Rule::kw_mover) {
                ActionNumberSyntax::MoverValue
            } else {
                ActionNumberSyntax::VictimValue
            }
        }
        Rule::n_distance => ActionNumberSyntax::Distance,
        Rule::n_attackers => {
            ActionNumberSyntax::Attackers(side_reference(file, parts.nth(4).expect("side")))
        }
        _ => ActionNumberSyntax::Variable(text),
    };
    Spanned::new(node, span)
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
            parts.next();
            let mut next = parts.next().expect("`for` or `on`");
            let side = (next.as_rule() == Rule::kw_for).then(|| {
                let side = text_of(file, &parts.next().expect("side"));
                next = parts.next().expect("on");
                side
            });
            let _ = next;
            let zone = zone(file, parts.next().expect("zone"));
            let choices = parts.skip(1).map(|name| text_of(file, &name)).collect();
            PieceItem::Promotes {
                side,
                zone,
                choices,
            }
        }
        Rule::irreversible_statement => PieceItem::Irreversible,
        Rule::uncapturable_statement => PieceItem::Uncapturable,
        Rule::path_statement => PieceItem::Path(path(file, parts)),
        _ => PieceItem::Future(future_statement(file, &mut parts)),
    };
    Spanned::new(item, span)
}

/// The legs of a `path` statement (its pairs after the keyword; `then` keywords skipped).
fn path(file: FileId, parts: Pairs<'_, Rule>) -> Vec<Spanned<LegSyntax>> {
    parts
        .filter(|pair| pair.as_rule() == Rule::leg)
        .map(|pair| {
            let span = span_of(file, &pair);
            let mut leg = LegSyntax {
                direction: Spanned::new(String::new(), span),
                count: None,
                holds: Vec::new(),
                not_royal: false,
                undefended: false,
                convert: false,
            };
            for part in pair.into_inner() {
                match part.as_rule() {
                    Rule::leg_head => {
                        for head in part.into_inner() {
                            match head.as_rule() {
                                Rule::leg_direction => leg.direction = text_of(file, &head),
                                _ => leg.count = head.as_str().chars().next(),
                            }
                        }
                    }
                    Rule::square_test => {
                        for test in part.into_inner() {
                            match test.as_rule() {
                                Rule::square_kind => leg.holds.push(text_of(file, &test)),
                                Rule::not_royal => leg.not_royal = true,
                                _ => leg.undefended = true,
                            }
                        }
                    }
                    _ => leg.convert = true,
                }
            }
            Spanned::new(leg, span)
        })
        .collect()
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

fn actions_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ActionsStatement {
    let keyword = span_of(file, &child(inner));
    let kinds = inner
        .map(|kind| {
            let span = span_of(file, &kind);
            let action = match kind.into_inner().next().map(|word| word.as_rule()) {
                Some(Rule::kw_moves) => ActionKind::Moves,
                _ => ActionKind::Drops,
            };
            Spanned::new(action, span)
        })
        .collect();
    ActionsStatement { keyword, kinds }
}

fn drops_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> DropsStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::drop_constraint | Rule::move_constraint => {
                    DropsItem::Must(Box::new(must_statement(file, parts)))
                }
                _ => DropsItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    DropsStatement { keyword, items }
}

fn phase_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> PhaseStatement {
    let keyword = span_of(file, &child(inner));
    let name = text_of(file, &child(inner));
    let mut order = None;
    let mut rules = Vec::new();
    for pair in block_items(inner.clone()) {
        let span = span_of(file, &pair);
        let rule = pair.as_rule();
        let mut parts = pair.into_inner();
        match rule {
            Rule::order_statement => {
                let sides = parts
                    .filter(|p| p.as_rule() == Rule::identifier)
                    .map(|p| text_of(file, &p))
                    .collect();
                order = Some(Spanned::new(sides, span));
            }
            Rule::drop_constraint => rules.push(Spanned::new(
                DropsItem::Must(Box::new(must_statement(file, parts))),
                span,
            )),
            _ => rules.push(Spanned::new(
                DropsItem::Future(future_statement(file, &mut parts)),
                span,
            )),
        }
    }
    PhaseStatement {
        keyword,
        name,
        order,
        rules,
    }
}

fn turn_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> TurnStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::turn_length_rule => {
                    TurnItem::Length(text_of(file, &parts.nth(2).expect("a number")))
                }
                Rule::maximal_rule => TurnItem::Maximal,
                Rule::pass_rule => TurnItem::Pass,
                Rule::exchange_rule => TurnItem::ExchangePrisoners,
                _ => TurnItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    TurnStatement { keyword, items }
}

/// `[side] must EXPRESSION [when EXPRESSION]`: the keywords `must` and `when` are skipped.
fn must_statement(file: FileId, parts: Pairs<'_, Rule>) -> MustStatement {
    let mut side = None;
    let mut expressions = Vec::new();
    for part in parts {
        match part.as_rule() {
            Rule::identifier => side = Some(text_of(file, &part)),
            Rule::expression => expressions.push(expression(file, part)),
            _ => {}
        }
    }
    let mut expressions = expressions.into_iter();
    MustStatement {
        side,
        requirement: expressions
            .next()
            .expect("the grammar requires a requirement"),
        condition: expressions.next(),
    }
}

/// An expression, from any of the expression rules.
fn expression(file: FileId, pair: Pair<'_, Rule>) -> Spanned<Expression> {
    let span = span_of(file, &pair);
    let rule = pair.as_rule();
    if rule == Rule::zone {
        return Spanned::new(Expression::Zone(zone(file, pair)), span);
    }
    let mut parts = pair.into_inner();
    let boxed = |pair: Pair<'_, Rule>| Box::new(expression(file, pair));
    let side = |pair: Pair<'_, Rule>| side_reference(file, pair);
    let node = match rule {
        Rule::expression | Rule::parenthesized => return expression(file, child(&mut parts)),
        Rule::disjunction | Rule::conjunction => {
            let operands: Vec<Pair<'_, Rule>> = parts
                .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and))
                .collect();
            let mut operands = operands.into_iter();
            let mut left = expression(file, operands.next().expect("an operand"));
            for right in operands {
                let right = expression(file, right);
                let joined = left.span.to(right.span);
                let node = if rule == Rule::disjunction {
                    Expression::Or(Box::new(left), Box::new(right))
                } else {
                    Expression::And(Box::new(left), Box::new(right))
                };
                left = Spanned::new(node, joined);
            }
            return left;
        }
        Rule::negation | Rule::operand => {
            let first = child(&mut parts);
            if first.as_rule() != Rule::kw_not {
                return expression(file, first);
            }
            Expression::Not(boxed(child(&mut parts)))
        }
        Rule::comparison => {
            let left = child(&mut parts);
            let Some(operator) = parts.next() else {
                return expression(file, left);
            };
            let comparison = comparison_of(operator.as_str());
            let operator = Spanned::new(comparison, span_of(file, &operator));
            Expression::Compare(boxed(left), operator, boxed(child(&mut parts)))
        }
        Rule::difference => {
            let mut left = expression(file, child(&mut parts));
            while let Some(operator) = parts.next() {
                let right = expression(file, child(&mut parts));
                let joined = left.span.to(right.span);
                let node = match operator.as_str() {
                    "+" => Expression::Plus(Box::new(left), Box::new(right)),
                    "-" => Expression::Minus(Box::new(left), Box::new(right)),
                    _ => Expression::Except(Box::new(left), Box::new(right)),
                };
                left = Spanned::new(node, joined);
            }
            return left;
        }
        Rule::number_term => Expression::Number(child(&mut parts).as_str().to_string()),
        Rule::place_on_term => Expression::PlaceOn(boxed(parts.nth(2).expect("an operand"))),
        Rule::place_term => Expression::Place(text_of(file, &parts.nth(1).expect("a name"))),
        Rule::touch_term => Expression::Touch(boxed(parts.nth(1).expect("an operand"))),
        Rule::move_from_term => Expression::MoveFrom(boxed(parts.nth(2).expect("an operand"))),
        Rule::move_term => Expression::Move(text_of(file, &parts.nth(1).expect("a name"))),
        Rule::acted_term => Expression::Acted,
        Rule::turn_count_term => match child(&mut parts).as_rule() {
            Rule::kw_actions => Expression::ActionsThisTurn,
            _ => Expression::DropsThisTurn,
        },
        Rule::turn_start_term => Expression::AtTurnStart(boxed(parts.nth(3).expect("an operand"))),
        Rule::leave_action_term => Expression::LeaveAction,
        Rule::can_act_term => Expression::CanAct,
        Rule::placement_term => Expression::Placement,
        Rule::count_term => Expression::Count(boxed(parts.nth(1).expect("an operand"))),
        Rule::sum_term => {
            let field = boxed(parts.nth(1).expect("a field"));
            Expression::Sum(field, boxed(parts.nth(1).expect("squares")))
        }
        Rule::hands_empty_term => Expression::HandsEmpty,
        Rule::hand_term => {
            let mut side_written = None;
            let mut piece = None;
            for part in parts {
                match part.as_rule() {
                    Rule::side_reference => side_written = Some(side(part)),
                    Rule::name => piece = Some(text_of(file, &part)),
                    _ => {}
                }
            }
            Expression::Hand {
                side: side_written,
                piece,
            }
        }
        Rule::placed_term => {
            let who = side(child(&mut parts));
            Expression::Placed(who, text_of(file, &parts.nth(1).expect("a name")))
        }
        Rule::last_drop_term => Expression::LastDrop(side(parts.nth(3).expect("a side"))),
        Rule::controlled_term => Expression::ControlledBy(side(parts.nth(2).expect("a side"))),
        Rule::attacked_term => Expression::AttackedBy(side(parts.nth(2).expect("a side"))),
        Rule::adjacent_term => Expression::Adjacent(boxed(parts.nth(2).expect("an operand"))),
        Rule::colour_of_term => Expression::ColourOf(boxed(parts.nth(2).expect("an operand"))),
        Rule::some_term => Expression::Some(boxed(parts.nth(1).expect("an operand"))),
        Rule::no_term => Expression::No(boxed(parts.nth(1).expect("an operand"))),
        Rule::legal_drops_term => Expression::LegalDrops,
        Rule::controllers_term => Expression::Controllers(side(parts.nth(2).expect("a side"))),
        Rule::control_value_term => Expression::ControlValue(side(parts.nth(3).expect("a side"))),
        Rule::squares_term => Expression::Squares(match child(&mut parts).as_rule() {
            Rule::kw_empty => SquareConstant::Empty,
            Rule::kw_occupied => SquareConstant::Occupied,
            Rule::kw_light => SquareConstant::Light,
            Rule::kw_dark => SquareConstant::Dark,
            _ => SquareConstant::Board,
        }),
        Rule::pieces_term => {
            let who = side(child(&mut parts));
            let kind = child(&mut parts);
            let piece = (kind.as_rule() == Rule::name).then(|| text_of(file, &kind));
            Expression::Pieces(who, piece)
        }
        other => unreachable!("not an expression rule: {other:?}"),
    };
    Spanned::new(node, span)
}

fn side_reference(file: FileId, pair: Pair<'_, Rule>) -> Spanned<SideReference> {
    let span = span_of(file, &pair);
    let word = pair
        .into_inner()
        .next()
        .expect("a side reference has one word");
    let side = match word.as_rule() {
        Rule::kw_own => SideReference::Own,
        Rule::kw_opponent => SideReference::Opponent,
        Rule::kw_any => SideReference::Any,
        Rule::kw_next => SideReference::Next,
        Rule::kw_team => SideReference::Team,
        _ => SideReference::Named(word.as_str().to_string()),
    };
    Spanned::new(side, span)
}

fn control_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ControlStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::en_passant_standing_rule => ControlItem::EnPassantStanding,
                _ => ControlItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    ControlStatement { keyword, items }
}

fn capture_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> CaptureStatement {
    let keyword = span_of(file, &child(inner));
    let items = block_items(inner.clone())
        .map(|pair| {
            let span = span_of(file, &pair);
            let rule = pair.as_rule();
            let mut parts = pair.into_inner();
            let item = match rule {
                Rule::remove_capturer_rule => CaptureItem::RemoveCapturer,
                Rule::capture_store_rule => {
                    let mut pieces = Vec::new();
                    let mut store = Store::Hand;
                    for part in parts {
                        match part.as_rule() {
                            Rule::identifier => pieces.push(text_of(file, &part)),
                            Rule::kw_prison => store = Store::Prison,
                            _ => {}
                        }
                    }
                    CaptureItem::Store(pieces, store)
                }
                Rule::remove_around_rule => CaptureItem::RemoveAround(
                    parts
                        .filter(|p| p.as_rule() == Rule::identifier)
                        .map(|p| text_of(file, &p))
                        .collect(),
                ),
                _ => CaptureItem::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(item, span)
        })
        .collect();
    CaptureStatement { keyword, items }
}

fn score_statement(file: FileId, inner: &mut Pairs<'_, Rule>) -> ScoreStatement {
    let keyword = span_of(file, &child(inner));
    ScoreStatement {
        keyword,
        expression: expression(file, child(inner)),
    }
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
                    let mut next = child(&mut parts);
                    let plies = next.as_rule() == Rule::kw_plies;
                    if plies {
                        next = child(&mut parts);
                    }
                    EndRule::MoveLimit {
                        moves,
                        plies,
                        verdict: verdict(file, next),
                    }
                }
                Rule::condition_rule => {
                    let mut first = child(&mut parts);
                    let each_side = first.as_rule() == Rule::each_side;
                    if each_side {
                        first = child(&mut parts);
                    }
                    let result = first.into_inner().next().expect("a result");
                    let verdict =
                        (result.as_rule() == Rule::verdict).then(|| verdict(file, result));
                    EndRule::Condition {
                        each_side,
                        verdict,
                        condition: expression(file, parts.nth(1).expect("a condition")),
                    }
                }
                Rule::material_rule => EndRule::Material(material_statement(file, parts)),
                Rule::royal_captured_rule => {
                    EndRule::RoyalCaptured(verdict(file, parts.nth(2).expect("verdict")))
                }
                Rule::tiebreak_rule => {
                    let tiebreak = parts.nth(1).expect("tiebreak");
                    EndRule::Tiebreak(Spanned::new(
                        Tiebreak::FewestInHand,
                        span_of(file, &tiebreak),
                    ))
                }
                _ => EndRule::Future(future_statement(file, &mut parts)),
            };
            Spanned::new(end_rule, span)
        })
        .collect();
    EndStatement { keyword, rules }
}

/// `material TERM... [on one colour] VERDICT`; the keyword `material` is skipped.
fn material_statement(file: FileId, parts: Pairs<'_, Rule>) -> MaterialStatement {
    let mut pieces = Vec::new();
    let mut one_colour = None;
    let mut verdict_found = None;
    for part in parts {
        match part.as_rule() {
            Rule::material_term => {
                let span = span_of(file, &part);
                let text = part.as_str();
                let (name, quantifier) = match text.as_bytes().last() {
                    Some(b'*') => (&text[..text.len() - 1], Quantifier::AnyNumber),
                    Some(b'+') => (&text[..text.len() - 1], Quantifier::OneOrMore),
                    _ => (text, Quantifier::One),
                };
                let name_span = Span::new(file, span.start, span.start + name.len());
                let piece = Spanned::new(name.to_string(), name_span);
                pieces.push(Spanned::new(MaterialTerm { piece, quantifier }, span));
            }
            Rule::one_colour => one_colour = Some(span_of(file, &part)),
            Rule::verdict => verdict_found = Some(verdict(file, part)),
            _ => {}
        }
    }
    MaterialStatement {
        pieces,
        one_colour,
        verdict: verdict_found.expect("the grammar requires a verdict"),
    }
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
                "expected `}` or a piece property such as `letter`, `moves`, `path` or `promotes`, found `leter`",
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
            (
                "drops { must touch }",
                "expected an expression such as `place King`, `touch occupied`, `count own pieces` or `placement = 1`, found `}`",
            ),
            ("drops { black must touch last drop opponent }", "expected `of`, found `opponent`"),
            (
                "drops { must place King when placement = }",
                "expected an expression such as `place King`, `touch occupied`, `count own pieces` or `placement = 1`, found `}`",
            ),
            (
                "drops { must place on not controlled by }",
                "expected a side such as `own`, `opponent`, `any`, `next` or a side's name, found `}`",
            ),
            (
                "score count (empty",
                "expected a comparison such as `=`, `<` or `>=`, `except`, `or` or `and`, found the end of the file",
            ),
            ("actions jumps", "expected an action such as `moves` or `drops`, found `jumps`"),
            ("end { tiebreak most in hand }", "expected a tiebreak such as `fewest in hand`, found `most`"),
            ("end { material draws }", "expected a piece name such as `Knight` or `Bishop*`, found `draws`"),
            (
                "end { material King King }",
                "expected a piece name such as `Knight` or `Bishop*`, `on one colour` or a verdict such as `draws`, found `}`",
            ),
            (
                "end { material King Bishop *on one colour draws }",
                "expected a piece name such as `Knight` or `Bishop*`, `on one colour` or a verdict such as `draws`, found `*`",
            ),
            ("end { material King on one color draws }", "expected `colour`, found `color`"),
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
    fn drop_syntax_errors_suggest_keywords() {
        // A misspelt word of an expression reads as a side's name; validation then reports
        // the unknown side (see `typing`).
        let rendered = error_of("score cuont");
        assert!(rendered.contains("expected a name, `piece`"), "{rendered}");
    }

    #[test]
    fn drop_constraints_parse() {
        let text = "drops {\n  black must place Queen when placement = 7 and hand Queen > 0\n  must leave an action\n}";
        let game = parse(FileId(0), text).expect("parses");
        let Statement::Drops(drops) = &game.statements[0].node else {
            panic!("a drops block")
        };
        assert_eq!(drops.items.len(), 2);
        let DropsItem::Must(must) = &drops.items[0].node else {
            panic!("a must statement")
        };
        let side = must.side.as_ref().expect("a side");
        assert_eq!(&text[side.span.start..side.span.end], "black");
        let Expression::Place(queen) = &must.requirement.node else {
            panic!("place Queen")
        };
        assert_eq!(&text[queen.span.start..queen.span.end], "Queen");
        let condition = must.condition.as_ref().expect("a condition");
        assert_eq!(
            &text[condition.span.start..condition.span.end],
            "placement = 7 and hand Queen > 0"
        );
        let Expression::And(left, right) = &condition.node else {
            panic!("a conjunction")
        };
        let Expression::Compare(_, operator, seven) = &left.node else {
            panic!("a comparison")
        };
        assert_eq!(operator.node, Comparison::Equal);
        assert_eq!(seven.node, Expression::Number("7".to_string()));
        assert_eq!(&text[right.span.start..right.span.end], "hand Queen > 0");
        let DropsItem::Must(lookahead) = &drops.items[1].node else {
            panic!("a must statement")
        };
        assert_eq!(lookahead.requirement.node, Expression::LeaveAction);
    }

    #[test]
    fn expression_precedence_and_operands() {
        let text = "score count (controlled by own except controlled by opponent) + 1";
        let game = parse(FileId(0), text).expect("parses");
        let Statement::Score(score) = &game.statements[0].node else {
            panic!("a score")
        };
        let Expression::Plus(count, one) = &score.expression.node else {
            panic!("a sum, found {:?}", score.expression.node)
        };
        assert!(matches!(count.node, Expression::Count(_)));
        assert_eq!(one.node, Expression::Number("1".to_string()));
        let text = "drops { must not place King or touch own King and place on not light }";
        let game = parse(FileId(0), text).expect("parses");
        let Statement::Drops(drops) = &game.statements[0].node else {
            panic!("drops")
        };
        let DropsItem::Must(must) = &drops.items[0].node else {
            panic!("must")
        };
        // `or` binds loosest, `not` tighter than `and`.
        let Expression::Or(left, right) = &must.requirement.node else {
            panic!("or at the top")
        };
        assert!(matches!(left.node, Expression::Not(_)));
        assert!(matches!(right.node, Expression::And(..)));
    }

    #[test]
    fn material_rules_parse_with_spans() {
        let text = "end {\n  material King King Knight draws\n  material King King Bishop* Pawn+ on one colour loses\n}";
        let game = parse(FileId(0), text).expect("parses");
        let Statement::End(end) = &game.statements[0].node else {
            panic!("an end block")
        };
        let rules: Vec<&MaterialStatement> = end
            .rules
            .iter()
            .map(|rule| match &rule.node {
                EndRule::Material(material) => material,
                other => panic!("not a material rule: {other:?}"),
            })
            .collect();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].pieces.len(), 3);
        assert!(rules[0].one_colour.is_none());
        assert_eq!(rules[0].verdict.node, Verdict::Draw);
        let quantifiers: Vec<Quantifier> = rules[1]
            .pieces
            .iter()
            .map(|term| term.node.quantifier)
            .collect();
        assert_eq!(
            quantifiers,
            [
                Quantifier::One,
                Quantifier::One,
                Quantifier::AnyNumber,
                Quantifier::OneOrMore
            ]
        );
        let bishop = &rules[1].pieces[2];
        assert_eq!(&text[bishop.span.start..bishop.span.end], "Bishop*");
        let name = bishop.node.piece.span;
        assert_eq!(&text[name.start..name.end], "Bishop");
        let colour = rules[1].one_colour.expect("on one colour");
        assert_eq!(&text[colour.start..colour.end], "on one colour");
        assert_eq!(rules[1].verdict.node, Verdict::Loss);
    }

    #[test]
    fn a_misspelt_keyword_before_the_error_is_pointed_at() {
        let text = "score count (controled by opponent)\n";
        let errors = parse(FileId(0), text).expect_err("misspelt");
        let error = errors.iter().next().expect("one error");
        let span = error.primary.span;
        assert_eq!(&text[span.start..span.end], "controled");
        assert_eq!(error.help.as_deref(), Some("did you mean `controlled`?"));
        let unexpected = error.secondary[0].span;
        assert_eq!(&text[unexpected.start..unexpected.end], "opponent");
        // Names (capitalised) and keywords spelt right are not suspected.
        let text = "score count (own Kign opponent)\n";
        let errors = parse(FileId(0), text).expect_err("no operator");
        let span = errors.iter().next().expect("one error").primary.span;
        assert_eq!(&text[span.start..span.end], "opponent");
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
        let deep = format!("effect x {}{}", "{".repeat(10_000), "}".repeat(10_000));
        assert_eq!(message_of(&deep), "braces are nested more than 64 deep");
        let just_deep_enough = format!(
            "effect x {}{}",
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
    fn a_byte_order_mark_is_not_text() {
        let (text, problem) = decode(FileId(0), b"\xEF\xBB\xBFgame \"x\"\nboard 8by8");
        assert!(problem.is_none());
        assert_eq!(text, "game \"x\"\nboard 8by8");
        let error = parse(FileId(0), &text).expect_err("8by8 is not a size");
        let span = error.iter().next().expect("one error").primary.span;
        assert_eq!(&text[span.start..span.end], "8by8");
        // Only a leading mark is dropped; bad bytes after it are still found where they are.
        let (_, problem) = decode(FileId(0), b"\xEF\xBB\xBFgame \xff");
        assert_eq!(problem.expect("not UTF-8").primary.span.start, 5);
    }

    #[test]
    fn chess_parses_with_spans() {
        let text = include_str!("../../../games/chess.variant");
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
