//! What the user is told a grammar rule stands for: the one exhaustive table from rules to plain
//! words ([`expected`]), with the keywords each rule may start with (for "did you mean"), and the
//! words of expressions.

use crate::parse::grammar::Rule;

/// What the user is told a rule stands for, and the keywords it may start with (for "did you
/// mean").
pub(super) struct Expected {
    pub(super) words: Option<&'static str>,
    pub(super) keyword: Option<&'static str>,
    pub(super) other_keywords: &'static [&'static str],
}

pub(super) const fn words(words: &'static str) -> Expected {
    Expected {
        words: Some(words),
        keyword: None,
        other_keywords: &[],
    }
}

pub(super) const fn keyword(words: &'static str, keyword: &'static str) -> Expected {
    Expected {
        words: Some(words),
        keyword: Some(keyword),
        other_keywords: &[],
    }
}

/// A rule with several possible first keywords.
pub(super) const fn keywords(words: &'static str, keywords: &'static [&'static str]) -> Expected {
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

pub(super) const STATEMENT: &str = "a statement such as `piece` or `board`";
const PIECE_ITEM: &str = "a piece property such as `letter`, `moves`, `path` or `promotes`";
const LEG: &str = "a leg such as `W any`, `straight enemy not royal convert` or `outward+`";
const SQUARE_TEST: &str = "what the square may hold: `empty`, `enemy`, `friend` or `any`";
const SIDE_ITEM: &str = "a side property such as `forward up`";
const END_ITEM: &str = "an end rule such as `checkmate loses`";
pub(super) const ZONE: &str =
    "a zone such as `rank 2`, `ranks 1-3`, `last rank`, `squares e4 d5`, `files d-f` or `zone palace`";
pub(super) const VERDICT: &str = "`loses`, `wins` or `draws`";
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
    "after",
    "give",
    "reach",
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
    "file",
    "give",
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
    "after",
    "give",
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
    "file",
    "give",
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
pub(super) const MATERIAL_TERM: &str = "a piece name such as `Knight` or `Bishop*`";

/// The one table from grammar rules to plain words. It is exhaustive on purpose: a new rule
/// does not compile until it says how errors should name it.
pub(super) fn expected(rule: Rule) -> Expected {
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
        Rule::gating_statement | Rule::kw_gating => keyword(STATEMENT, "gating"),
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
        Rule::promotes_statement | Rule::promotes_in_place_statement => {
            keyword(PIECE_ITEM, "promotes")
        }
        Rule::in_place_rules => words("a block of move rules such as `{ must not give check }`"),
        Rule::irreversible_statement => keyword(PIECE_ITEM, "irreversible"),
        Rule::uncapturable_statement | Rule::kw_uncapturable => keyword(PIECE_ITEM, "uncapturable"),
        Rule::supply_statement | Rule::kw_supply => keyword(PIECE_ITEM, "supply"),
        Rule::neutral_statement | Rule::kw_neutral => keyword(PIECE_ITEM, "neutral"),
        Rule::converts_statement | Rule::kw_converts => keyword(PIECE_ITEM, "converts"),
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
        | Rule::zone_squares
        | Rule::zone_file
        | Rule::zone_files
        | Rule::zone_named
        | Rule::zone_union
        | Rule::zone_intersection
        | Rule::zone_difference => words(ZONE),
        Rule::zone_statement => keyword(STATEMENT, "zone"),
        Rule::kw_zone => keyword("`zone`", "zone"),
        Rule::kw_files => words("`files`"),
        Rule::file_letter | Rule::file_start => words("a file's letter such as `e`"),
        Rule::file_span => words("files such as `d-f`"),
        Rule::confined_statement | Rule::kw_confined => keyword(PIECE_ITEM, "confined"),
        Rule::moves_in => keyword("`in` and a zone", "in"),
        Rule::moves_along | Rule::kw_along => keyword("`along` and a zone", "along"),
        Rule::may_not_statement | Rule::kw_may => keyword(PIECE_ITEM, "may"),
        Rule::hop_over | Rule::kw_hop | Rule::kw_over => keyword("`hop over`", "hop"),
        Rule::rank_span => words("a range of ranks such as `1-3`"),
        Rule::castle => words("a castling move such as `white K king e1-g1 rook h1-f1`"),
        Rule::square_path => words("two squares such as `e1-g1`"),
        // Optional before the squares, which the message names.
        Rule::castle_piece => unmentioned(),
        Rule::castle_when_placed => words("`when placed`"),
        Rule::check_rule => keyword(END_ITEM, "check"),
        Rule::check_when_all => words("`when all royal pieces attacked`"),
        Rule::kw_all => keyword("`all`", "all"),
        // `en-passant` opens a piece property (`en-passant on rank 3`) and a control rule
        // (`en-passant standing`); the control block reports its rule, the piece block the
        // bare keyword.
        Rule::en_passant_statement | Rule::kw_en_passant => keyword(PIECE_ITEM, "en-passant"),
        Rule::checkmate_rule => keyword(END_ITEM, "checkmate"),
        Rule::stalemate_rule => keyword(END_ITEM, "stalemate"),
        Rule::repetition_rule => keyword(END_ITEM, "repetition"),
        Rule::move_limit_rule => keyword(END_ITEM, "move-limit"),
        Rule::counting_rule => keyword(END_ITEM, "counting"),
        Rule::tiebreak_rule => keyword(END_ITEM, "tiebreak"),
        Rule::material_rule | Rule::kw_material => keyword(END_ITEM, "material"),
        Rule::material_term => words(MATERIAL_TERM),
        Rule::one_colour | Rule::kw_one => keyword("`on one colour`", "one"),
        Rule::tiebreak | Rule::kw_fewest => {
            keyword("a tiebreak such as `fewest in hand`", "fewest")
        }
        Rule::action_kind => keywords(ACTION_KIND, &["moves", "drops"]),
        Rule::drops_item | Rule::drop_constraint => words(DROPS_ITEM),
        Rule::drops_irreversible => keyword(DROPS_ITEM, "irreversible"),
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
        | Rule::may_pass_rule
        | Rule::exchange_rule
        | Rule::kw_up
        | Rule::kw_maximal
        | Rule::kw_pass
        | Rule::kw_exchange => keywords(
            "`up to N actions`, `maximal`, `pass when no action`, `may pass` or `exchange prisoners`",
            &["up", "maximal", "pass", "may", "exchange"],
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
        | Rule::give_checkmate_term
        | Rule::place_stranded_term
        | Rule::can_act_term
        | Rule::after_term
        | Rule::give_check_term
        | Rule::placement_term
        | Rule::count_term
        | Rule::sum_term
        | Rule::hands_empty_term
        | Rule::hand_term
        | Rule::placed_term
        | Rule::passed_term
        | Rule::last_drop_term
        | Rule::controlled_term
        | Rule::attacked_term
        | Rule::adjacent_term
        | Rule::reach_term
        | Rule::colour_of_term
        | Rule::file_of_term
        | Rule::some_term
        | Rule::no_term
        | Rule::legal_drops_term
        | Rule::controllers_term
        | Rule::control_value_term
        | Rule::piece_value_term
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
        Rule::kw_after => keyword("`after`", "after"),
        Rule::kw_give => keyword("`give`", "give"),
        Rule::kw_reach => keyword("`reach`", "reach"),
        Rule::kw_can => keyword("`can`", "can"),
        Rule::kw_act => keyword("`act`", "act"),
        Rule::kw_without => keyword("`without`", "without"),
        Rule::kw_promoting => keyword("`promoting`", "promoting"),
        Rule::kw_count => keyword("`count`", "count"),
        Rule::kw_sum => keyword("`sum`", "sum"),
        Rule::kw_drop => keyword("`drop`", "drop"),
        Rule::move_obligation => words("a rule such as `must capture when a capture is possible`"),
        Rule::obligation_kind => keywords("`capture` or `drop`", &["capture", "drop"]),
        Rule::obligation_condition => {
            words("a condition such as `a capture is possible` or `hand > 0`")
        }
        Rule::possible_clause | Rule::kw_a => keyword("`a capture is possible`", "a"),
        Rule::kw_is => keyword("`is`", "is"),
        Rule::kw_possible => keyword("`possible`", "possible"),
        Rule::counter_statement | Rule::kw_counter => keyword(STATEMENT, "counter"),
        Rule::counter_item => keywords(
            "a counter rule such as `start 0`, `add 1 on check` or `fen remaining 3`",
            &["start", "add", "fen"],
        ),
        Rule::counter_start => keyword("`start N`", "start"),
        Rule::counter_add | Rule::kw_add => keyword("`add N on EVENT`", "add"),
        Rule::counter_event => keywords("`check` or `capture`", &["check", "capture"]),
        Rule::counter_fen | Rule::kw_fen => keyword("`fen remaining N` or `fen count`", "fen"),
        Rule::kw_remaining => keyword("`remaining`", "remaining"),
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
        Rule::control_item | Rule::en_passant_standing_rule => keyword(CONTROL_ITEM, "en-passant"),
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
        Rule::kw_passed => keyword("`passed`", "passed"),
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
        Rule::kw_perpetual | Rule::perpetual_check => words("`, perpetual check VERDICT`"),
        Rule::perpetual_chase => words("`, perpetual chase VERDICT`"),
        Rule::chase_strength_statement | Rule::kw_chase | Rule::kw_strength => {
            keyword(PIECE_ITEM, "chase")
        }
        Rule::never_chases_statement | Rule::kw_never | Rule::kw_chases => {
            keyword(PIECE_ITEM, "never chases")
        }
        Rule::chased_in_statement | Rule::kw_chased => keyword(PIECE_ITEM, "chased in"),
        Rule::verdict_for => words("`for` and a side's name"),
        Rule::pass_in_check => words("`in check when CONDITION`"),
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
        Rule::step_slide => {
            words("a policy step such as `moves`, `where capture` or `highest value of victim`")
        }
        Rule::jump_lands => words("`, lands when` and a condition"),
        Rule::jump_removed => words("`, removed when` and a condition"),
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
        Rule::kw_plus => words("`plus`"),
        Rule::kw_beyond => words("`beyond`"),
        Rule::move_limit_checks => words("`, plus N per check beyond M`"),
        Rule::kw_direction => words("`direction`"),
        Rule::kw_slides => words("`slides`"),
        Rule::kw_until => words("`until`"),
        Rule::kw_removed => words("`removed`"),
        Rule::kw_target => words("`target`"),
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
        Rule::kw_counting => keyword(END_ITEM, "counting"),
        Rule::promoted_letter => words("`+` and a letter, such as `+P`"),
        Rule::promotion_moves | Rule::promotion_move => {
            words("`on`, `into`, `within`, `from` or `out of`")
        }
        Rule::kw_optionally => keyword("`optionally`", "optionally"),
        Rule::kw_into => keyword("`into`", "into"),
        Rule::kw_within => keyword("`within`", "within"),
        Rule::kw_out => keyword("`out`", "out"),
        Rule::kw_stranded => keyword("`stranded`", "stranded"),
    }
}
