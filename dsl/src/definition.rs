//! The validated game definition: the one door from the language to the interpreter.
//!
//! A [`Definition`] is known good: every name is resolved to an index, every zone is resolved to
//! concrete squares for each side, every Betza string is decoded into [`MoveAtom`]s, and the
//! starting position is parsed. It has no pest lifetimes and no source spans, and it round-trips
//! through serde (RON is its dump format, see [`Definition::to_ron`]).
//!
//! Directions inside a definition are *relative to the side that owns the piece*: in an
//! [`Offset`], `forward` is towards the owner's far edge (see [`SideDef::forward`]). The
//! interpreter turns them into absolute board steps per side when it compiles the game.

use crate::expression::Comparison;
pub use crate::id::{PieceId, SideId, Square};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest number of files or ranks a board may have.
pub const MAX_BOARD_EDGE: u8 = 16;

/// A whole game, validated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Definition {
    /// The game's display name (`game "Chess"`).
    pub name: String,
    /// Optional longer description.
    pub description: Option<String>,
    /// Optional source and credits.
    pub credits: Option<String>,
    /// The board geometry.
    pub board: BoardDef,
    /// The sides, in declaration order; the first one writes its FEN letters in upper case.
    pub sides: Vec<SideDef>,
    /// The order in which sides take turns, repeated cyclically.
    pub turn_order: Vec<SideId>,
    /// Piece types, in declaration order.
    pub pieces: Vec<PieceDef>,
    /// Castling moves, if any.
    pub castling: Vec<CastlingDef>,
    /// How games end.
    pub end: EndRules,
    /// The starting position.
    pub setup: Setup,
    /// What a turn may consist of (`actions moves drops`).
    #[serde(default)]
    pub actions: Actions,
    /// Constraints on drops (placements from the hand).
    #[serde(default)]
    pub drops: DropRules,
    /// Constraints on moves of pieces on the board (`moves { must ... }`), the same kind of rules.
    #[serde(default)]
    pub move_rules: DropRules,
    /// Placement phases before play (`phase setup { ... }`), in order.
    #[serde(default)]
    pub phases: Vec<PhaseDef>,
    /// What one turn is (`turn { ... }`).
    #[serde(default)]
    pub turn: TurnRules,
    /// How control (the squares a piece attacks) is computed.
    #[serde(default)]
    pub control: ControlRules,
    /// The score, if the game keeps one.
    #[serde(default)]
    pub score: Option<ScoreRule>,
    /// What a capture does besides removing the captured piece.
    #[serde(default)]
    pub capture: CaptureRules,
    /// Teams of allied sides (`team white black`); a side in none is its own team.
    #[serde(default)]
    pub teams: Vec<Vec<SideId>>,
    /// Scripted controllers of sides (`policy red { ... }`).
    #[serde(default)]
    pub policies: Vec<PolicyDef>,
    /// Numbers per side that the position keeps (`counter checks { ... }`), in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<CounterDef>,
    /// `gating from rank 1`: the squares whose first piece may gate a piece from the hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gating: Option<GatingDef>,
}

/// `gating from ZONE` (Seirawan chess): when a piece first leaves one of the zone's squares, its
/// side may place a piece of its hand on the square it left, as part of the same move. The
/// squares whose piece has not left yet are part of the position ([`Setup::gates`]); the FEN
/// writes them in the castling field as file letters, in the side's case, after the castling
/// rights, leaving out the squares a castling right it holds names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GatingDef {
    /// Per side (by [`SideId`]), the zone's squares counted from that side; at most one per
    /// file, so that a file letter names each.
    pub squares: Vec<Vec<Square>>,
}

impl GatingDef {
    /// The letter naming a gating square on `file` in a FEN's castling field: the file's
    /// letter, in upper case for the first side and lower case for the second.
    pub fn letter(side: SideId, file: u8) -> char {
        let letter = (b'a' + file) as char;
        if side.0 == 0 {
            letter.to_ascii_uppercase()
        } else {
            letter
        }
    }

    /// Whether a side whose hand is empty keeps its gating rights in `def`: only where captured
    /// pieces go to a hand, which may fill again. Elsewhere an empty hand never fills, and the
    /// side's rights are gone (as Fairy-Stockfish drops them).
    pub fn kept_without_hand(def: &Definition) -> bool {
        def.capture.stores.contains(&Some(Store::Hand))
    }

    /// The gating square of `side` named by `letter`, if any.
    pub fn square_of(&self, side: SideId, letter: char) -> Option<Square> {
        self.squares
            .get(side.index())?
            .iter()
            .copied()
            .find(|square| Self::letter(side, square.file) == letter)
    }
}

/// `counter checks { start 0; add 1 on check; fen remaining 3 }`: a number per side, part of
/// the position (its hash, repetition, its FEN), changed by events, read by expressions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterDef {
    /// Its name, as expressions read it (`opponent checks`).
    pub name: String,
    /// Every side's value at the setup, when its FEN does not give the counter.
    pub start: u32,
    /// What changes it: after an action of a side, for each event that happened, the side's
    /// value goes up by the amount.
    pub events: Vec<(CounterEvent, u32)>,
    /// How the FEN shows it.
    pub fen: CounterFen,
}

/// What happens in an action that a counter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CounterEvent {
    /// `on check`: after the action, an opponent's royal piece is attacked.
    Check,
    /// `on capture`: the action captured.
    Capture,
}

/// How a counter appears in the FEN: a field after the en-passant square, each side's value in
/// side order joined by `+` (Fairy-Stockfish's `3+3` of 3check).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CounterFen {
    /// `fen count`: the values themselves.
    Count,
    /// `fen remaining 3`: 3 minus each value (the checks still to give).
    Remaining(u32),
}

impl CounterFen {
    /// The number written for a value.
    pub fn shown(self, value: u32) -> i64 {
        match self {
            CounterFen::Count => i64::from(value),
            CounterFen::Remaining(of) => i64::from(of) - i64::from(value),
        }
    }

    /// The value of a number written, if it is one the counter can have.
    pub fn value(self, shown: i64) -> Option<u32> {
        let value = match self {
            CounterFen::Count => shown,
            CounterFen::Remaining(of) => i64::from(of) - shown,
        };
        u32::try_from(value)
            .ok()
            .filter(|&v| v <= MAX_COUNTER_VALUE)
    }
}

/// The largest value a counter holds (it stops there).
pub const MAX_COUNTER_VALUE: u32 = 255;

/// The most counters a game may declare.
pub const MAX_COUNTERS: usize = 4;

/// What an obligation asks of the turn's action (`must capture`, `must drop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ObligationKind {
    /// `capture`: the action captures (en passant included).
    Capture,
    /// `drop`: the action is a drop from the hand.
    Drop,
}

impl ObligationKind {
    /// The word as written.
    pub fn word(self) -> &'static str {
        match self {
            ObligationKind::Capture => "capture",
            ObligationKind::Drop => "drop",
        }
    }
}

/// `[side] must capture when a capture is possible`: while the condition holds, the side's
/// only legal actions are those of the kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Obligation {
    /// The side it binds; `None` for every side.
    pub side: Option<SideId>,
    /// What the action must be.
    pub kind: ObligationKind,
    /// When it binds.
    pub condition: ObligationWhen,
    /// Where the statement is written, for explanations.
    #[serde(default)]
    pub origin: Origin,
}

/// When an obligation binds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObligationWhen {
    /// `a capture is possible`: some legal action (before the obligations) is of this kind.
    Possible(ObligationKind),
    /// A condition judged for the side to move ([`crate::expression::Condition::True`] for
    /// always).
    Holds(crate::expression::Condition),
}

/// `policy red { ... }`: how a side chooses its actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PolicyDef {
    /// The side it moves.
    pub side: SideId,
    /// Rules, rolls and choices, tried in order.
    pub items: Vec<PolicyItem>,
}

/// `3d6 - 2`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dice {
    /// How many dice.
    pub count: u8,
    /// Faces of each (1 to this).
    pub faces: u8,
    /// Added to their total.
    pub offset: i32,
}

/// One item of a policy, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PolicyItem {
    /// `rule 6a { ... }`: candidate actions built step by step; the first rule with some decides.
    Rule {
        /// Its name, reported with the choice.
        label: String,
        /// The steps.
        steps: Vec<PolicyStep>,
    },
    /// `roll 3d6 - 2 as n for rule 6`
    Roll {
        /// The dice.
        dice: Dice,
        /// The name their total is kept under.
        name: String,
        /// The rule it belongs to, for messages (`for rule 6`).
        #[serde(default)]
        rule: Option<String>,
    },
    /// `let m = nearest number to n except n, ties lower when odd`
    Nearest {
        /// The name given.
        name: String,
        /// The number to be near.
        to: String,
        /// The number left out.
        except: String,
        /// Ties go to the lower number when `to` is odd (else the higher), and the other way
        /// round when it is even.
        lower_when_odd: bool,
    },
}

/// One step of a policy rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PolicyStep {
    /// `moves`: the legal actions; `moves of number n`: those of the piece numbered `n`.
    Moves(Option<String>),
    /// `captures of number m`: the captures the movement of the piece numbered `m` allows,
    /// legal or not.
    Captures(String),
    /// `where C`
    Where(ActionCondition),
    /// `prefer A, B`: the first non-empty group.
    Prefer(Vec<ActionCondition>),
    /// `highest X`, `lowest X per piece`
    Best {
        /// Keep the highest (else the lowest).
        highest: bool,
        /// What is compared.
        measure: ActionNumber,
        /// Compared within groups.
        per: Option<Grouping>,
    },
    /// `roll 1d6 as r`, rolled only when some candidates are left.
    Roll {
        /// The dice.
        dice: Dice,
        /// The name their total is kept under.
        name: String,
    },
    /// `then King slides "Q" until on (not attacked by opponent)`: each candidate is followed
    /// by a slide of the side's piece of this type, along one of the lines, to the first
    /// square of the set (judged after the slide); a piece already on the set stays, and the
    /// candidate is kept as it is.
    Slide {
        /// The piece type that slides.
        piece: PieceId,
        /// The lines it may slide along: a step and how many steps at most (`None`: to the
        /// edge), from the Betza text.
        lines: Vec<SlideLine>,
        /// Where the slide ends.
        until: crate::expression::Squares,
    },
    /// `jump number m to file c rank r, lands when C, removed when C`
    Jump {
        /// The number of the piece.
        number: String,
        /// Its file, 1 for `a`.
        file: String,
        /// Its rank, 1 for the first.
        rank: String,
        /// When the jumper lands on the square (taking what stood there); `None`: always.
        #[serde(default)]
        lands: Option<ActionCondition>,
        /// When the jumper is removed instead; `None`: never. When both hold, both outcomes
        /// are candidates; when neither does, nothing happens.
        #[serde(default)]
        removed: Option<ActionCondition>,
    },
}

/// One line of a slide: a direction and how far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlideLine {
    /// One step, relative to the side's forward direction.
    pub step: Offset,
    /// The most steps; `None`: as far as the board goes.
    pub range: Option<u8>,
}

/// Groups that `highest` and `lowest` compare within.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Grouping {
    /// The moving piece.
    Piece,
    /// The direction of the move (a knight's move is its own direction).
    Direction,
}

/// A condition on a candidate action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ActionCondition {
    /// All of them.
    And(Vec<ActionCondition>),
    /// One of them.
    Or(Vec<ActionCondition>),
    /// The opposite.
    Not(Box<ActionCondition>),
    /// It captures.
    Capture,
    /// It captures a piece that attacks one of the mover's royal pieces.
    CaptureOfChecker,
    /// The side choosing is in check.
    InCheck,
    /// The action is legal.
    Legal,
    /// The moving piece is of this type.
    Moving(PieceId),
    /// It starts on one of these squares.
    From(crate::expression::Squares),
    /// It ends on one of these squares, judged before it.
    To(crate::expression::Squares),
    /// It ends on one of these squares, judged after it.
    LandsOn(crate::expression::Squares),
    /// After it, the moved piece attacks one of these squares.
    ThenAttacks(crate::expression::Squares),
    /// A comparison.
    Compare(ActionNumber, Comparison, ActionNumber),
}

/// A number about a candidate action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ActionNumber {
    /// A constant.
    Constant(i64),
    /// How many candidates are left.
    Candidates,
    /// The value of the moving piece.
    MoverValue,
    /// The value of the piece captured, 0 for none.
    VictimValue,
    /// The value of the piece standing on the destination before the action, whatever its
    /// side, 0 for none (`value of target`: a jump's contest).
    TargetValue,
    /// King steps from start to end.
    Distance,
    /// Pieces of these sides attacking the destination, after the action.
    Attackers(crate::expression::SideRef),
    /// A number rolled or chosen earlier.
    Variable(String),
}

/// `capture { remove capturer; remove around except Pawn }`: the effects of every capture (by
/// replacement or en passant) besides removing the captured piece, centred on the square where
/// the capturing piece lands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureRules {
    /// `remove capturer`: the capturing piece is removed too.
    pub remove_capturer: bool,
    /// `remove around except ...`: every piece on the 8 squares around the landing square is
    /// removed, except pieces of these types; `None` without the rule.
    pub remove_around_except: Option<Vec<PieceId>>,
    /// `... to hand`, `... to prison`: where captured pieces of a type go, per piece type
    /// (indexed by [`PieceId`]); empty, or `None` for a type, when they leave the game.
    #[serde(default)]
    pub stores: Vec<Option<Store>>,
}

impl CaptureRules {
    /// Whether captures do anything besides removing the captured piece.
    pub fn any(&self) -> bool {
        self.remove_capturer || self.remove_around_except.is_some()
    }

    /// Where a captured piece of this type goes; `None` when it leaves the game.
    pub fn store(&self, piece: PieceId) -> Option<Store> {
        self.stores.get(piece.0 as usize).copied().flatten()
    }
}

/// Where captured pieces go instead of leaving the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Store {
    /// `to hand`: into the capturer's hand, as the capturer's piece (crazyhouse); a promoted
    /// piece goes back as the piece it promoted from.
    Hand,
    /// `to prison`: into the capturer's prison, still its owner's piece; `exchange prisoners`
    /// sends it home.
    Prison,
}

/// `phase setup { order white black; must place on ranks 1-2 }`: a placement phase before play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseDef {
    /// Its name, as written (and as the FEN's `phase:` field writes it).
    pub name: String,
    /// The sides that place, in order: each places its whole hand, one piece per turn, before
    /// the next starts.
    pub order: Vec<SideId>,
    /// The drop rules during the phase (instead of [`Definition::drops`]).
    pub drops: DropRules,
}

/// `turn { up to 3 actions; maximal; pass when no action; exchange prisoners }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRules {
    /// The most actions in one turn (1 without a `turn` block).
    pub actions: u8,
    /// `maximal`: a turn must be as long as the longest possible one; a game-ending action ends
    /// it at any length.
    pub maximal: bool,
    /// `pass when no action`: a side without a legal action at the start of its turn passes
    /// (instead of the game ending by stalemate).
    pub pass: bool,
    /// `exchange prisoners`: after every turn, for each piece type held in every side's prison,
    /// as many as every side holds go back to their owners' hands.
    pub exchange_prisoners: bool,
    /// `may pass`: the side to move may pass instead of acting, written as its royal piece's
    /// square twice (`e2e2`, Fairy-Stockfish's janggi).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub may_pass: bool,
}

impl Default for TurnRules {
    fn default() -> Self {
        TurnRules {
            actions: 1,
            maximal: false,
            pass: false,
            exchange_prisoners: false,
            may_pass: false,
        }
    }
}

/// What a turn may consist of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Actions {
    /// Pieces on the board move (`actions moves`).
    pub moves: bool,
    /// Pieces in hand are dropped on the board (`actions drops`).
    pub drops: bool,
}

impl Default for Actions {
    fn default() -> Self {
        Actions {
            moves: true,
            drops: true,
        }
    }
}

/// Rules every drop must obey.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DropRules {
    /// `must ...` statements, in source order.
    pub constraints: Vec<DropConstraint>,
    /// `must capture ...`, `must drop ...`: obligations on the turn's action as a whole (a
    /// `moves` block's), in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obligations: Vec<Obligation>,
    /// `must [not] after C` and `must [not] give check` statements (move rules only), in source
    /// order: judged on the position after each move, not compiled into the squares a piece may
    /// move from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<AfterRule>,
    /// `irreversible` (the `drops` block only): every drop, in a placement phase too, resets
    /// the half-move clock, as Fairy-Stockfish counts; without it only drops of `irreversible`
    /// pieces do.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub irreversible: bool,
}

/// `[side] must [not] after C [when CONDITION]` in the `moves` block: a move of the side, when
/// the condition holds (judged before the move, like any move rule's), is legal only if the test
/// holds (with `not`: does not hold) on the position after it. The move is played on a copy and
/// judged there, as the `check` rule judges whether a move leaves the mover's king attacked, and
/// the test is judged for the moving side: `own` is the mover.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AfterRule {
    /// The side it binds; `None` for every side.
    pub side: Option<SideId>,
    /// `must` (`true`) or `must not` (`false`).
    pub holds: bool,
    /// What is judged after the move.
    pub test: AfterTest,
    /// When it applies, judged before the move ([`crate::expression::Condition::True`] for
    /// always); it may speak of the moving piece (`move King`, `move from S`).
    pub condition: crate::expression::Condition,
    /// Where the `must` statement is written.
    #[serde(default)]
    pub origin: Origin,
}

/// What an [`AfterRule`] judges on the position after a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AfterTest {
    /// `give check`: a royal piece of an opponent of the mover is attacked, as the `check` rule
    /// sees attacks (capture effects included).
    Check,
    /// `after C`: the condition, judged for the mover.
    Condition(crate::expression::Condition),
}

/// `[side] must REQUIREMENT [when CONDITION]`: a drop of the side, when the condition holds,
/// must satisfy the requirement. Both are judged for the dropping side, and may depend on the
/// dropped piece and its square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DropConstraint {
    /// The side it binds; `None` for every side.
    pub side: Option<SideId>,
    /// What the drop must satisfy.
    pub requirement: crate::expression::Condition,
    /// When it applies ([`crate::expression::Condition::True`] for always).
    pub condition: crate::expression::Condition,
    /// Where the `must` statement is written (in the parent's file for an inherited one), so
    /// that a refused drop can be explained by quoting it.
    #[serde(default)]
    pub origin: Origin,
}

/// Where a statement of a game file is written, for messages at run time:
/// `cheversi.variant:40: must touch any piece when board occupied` (its [`fmt::Display`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// The file's name without its directory (`cheversi.variant`), whatever path it was loaded
    /// by, so that messages and dumps do not depend on the directory.
    pub file: String,
    /// The 1-based line where the statement starts.
    pub line: u32,
    /// The statement's text on one line: comments removed, each run of spaces, tabs, newlines
    /// and line continuations written as one space, trimmed.
    pub text: String,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.text)
    }
}

/// How control is computed: a piece controls the squares it could move or capture to, its own
/// pieces interrupting lines and occupying targets (even for leapers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ControlRules {
    /// `en-passant standing`: an enemy piece standing where its initial lame move lands, with the
    /// square it would have passed empty, counts as capturable en passant there, as if it had
    /// just made that move: pieces with `e` captures control that square. It changes control
    /// only; en-passant moves still need the enemy's move to have just happened.
    pub en_passant_standing: bool,
}

/// `score EXPRESSION`: each side's score, the number judged for that side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreRule {
    /// The number.
    pub expression: crate::expression::Number,
}

/// Breaks a tie of scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tiebreak {
    /// `tiebreak fewest in hand`: fewer unplaced pieces wins.
    FewestInHand,
}

/// A rectangular grid, possibly with holes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardDef {
    /// Number of files (columns), 1..=16.
    pub files: u8,
    /// Number of ranks (rows), 1..=16.
    pub ranks: u8,
    /// Squares of the grid that are not part of the board: nothing lands on, passes or jumps over
    /// them.
    pub holes: Vec<Square>,
}

impl BoardDef {
    /// Whether `square` is inside the grid and not a hole.
    pub fn contains(&self, square: Square) -> bool {
        square.file < self.files && square.rank < self.ranks && !self.holes.contains(&square)
    }

    /// The colour of a square: `true` for light squares (a1 is dark, as on a chess board).
    pub fn is_light(square: Square) -> bool {
        (square.file + square.rank) % 2 == 1
    }
}

/// Which way a side's pieces move forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Forward {
    /// Towards higher ranks (White in chess).
    Up,
    /// Towards lower ranks (Black in chess).
    Down,
}

/// One side (a colour).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideDef {
    /// Name as written in the file (`white`).
    pub name: String,
    /// The letter naming the side to move in a FEN (`w`).
    pub fen_letter: char,
    /// Forward direction of its pieces.
    pub forward: Forward,
    /// The side's own letter for each piece type (by [`PieceId`]), from `letters`; empty when
    /// the side writes the piece letters in its case (upper for the first side, lower for the
    /// second).
    #[serde(default)]
    pub letters: Vec<char>,
    /// `numbers`: the starting square of the side's piece number `i + 1`; empty when the side's
    /// pieces are not numbered.
    #[serde(default)]
    pub numbers: Vec<Square>,
}

/// A piece type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PieceDef {
    /// Name (`Knight`).
    pub name: String,
    /// FEN and notation letter, upper case (`N`).
    pub letter: char,
    /// Value used by scoring, policies and engines.
    pub value: i32,
    /// A royal piece may not be left attacked when [`EndRules::check`] holds.
    pub royal: bool,
    /// The Betza text the movement was decoded from, for display.
    pub betza: String,
    /// Decoded movement.
    pub moves: Vec<MoveAtom>,
    /// Promotion, if the piece promotes.
    pub promotion: Option<Promotion>,
    /// For each side, the squares from which its `i` (initial) moves are allowed.
    pub initial_zone: Vec<Vec<Square>>,
    /// Its moves reset the move-limit counter (pawns in chess).
    pub irreversible: bool,
    /// No action captures it (`uncapturable`).
    #[serde(default)]
    pub uncapturable: bool,
    /// `supply`: each side may drop it at any time without holding one (an endless supply, in
    /// no hand and no FEN).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub supply: bool,
    /// `neutral`: the piece belongs to no side and is written `*` in FEN; every move ends by
    /// putting it on an empty square other than its own (duck chess's duck). A game has at most
    /// one neutral piece on the board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub neutral: bool,
    /// `converts around`: after every action that lands it on a square (a move or a drop), the
    /// enemy pieces on the 8 squares around become the mover's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub converts_around: bool,
    /// Movements written leg by leg (`path W any, then outward`), besides the Betza ones.
    #[serde(default)]
    pub paths: Vec<PathDef>,
    /// `letter +P`: the piece is the promoted form of the piece whose letter it shares, written
    /// `+P` in FEN, and goes back to that piece when captured into a hand (shogi's tokin).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub promoted_form: bool,
    /// For each side, the only squares its moves may end on (`confined to ZONE`); `None` when
    /// the piece may go anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confined: Option<Vec<Vec<Square>>>,
    /// Movements that replace [`PieceDef::moves`] while the piece stands in a zone (`moves
    /// "fsW" in ranks 6-10`), the first whose zone holds the piece's square.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zoned_moves: Vec<ZonedMoves>,
    /// Movements added on the squares of a zone, every square they pass or land on in it
    /// (`moves "B" along zone palace-lines`): janggi's palace diagonals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lined_moves: Vec<ZonedMoves>,
    /// Piece types this piece never jumps over as a hopper (`may not hop over Cannon`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_hurdle: Vec<PieceId>,
    /// Piece types this piece never captures (`may not capture Cannon`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_capture: Vec<PieceId>,
    /// `promotes in place ...`: a promotion that is a move of its own (sittuyin's pawn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_place: Option<InPlacePromotion>,
    /// For each side, the only squares where the piece's initial lame moves leave an
    /// en-passant target (`en-passant on ZONE`); `None`: wherever they pass a square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en_passant_zone: Option<Vec<Vec<Square>>>,
    /// How the piece takes part in `perpetual chase` (`chase strength`, `never chases`,
    /// `chased in`).
    #[serde(default, skip_serializing_if = "PieceChase::is_plain")]
    pub chase: PieceChase,
}

/// A piece's part in `perpetual chase` (§2.12): whether its attacks can be a chase, where it can
/// be chased, and its strength. A royal piece is never chased (an attack on it is check) and
/// never chases.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceChase {
    /// `chase strength N`: an attack by a piece of smaller strength on this one is a chase even
    /// when this one is protected; `None`: no attack is stronger than another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<u32>,
    /// `never chases`: its attacks are never a chase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub never_chases: bool,
    /// `chased in ZONE`: for each side, the only squares where it can be chased; `None`:
    /// anywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chased_in: Option<Vec<Vec<Square>>>,
}

impl PieceChase {
    /// Whether nothing was said (the default: chased anywhere, chases, no strength).
    pub fn is_plain(&self) -> bool {
        *self == PieceChase::default()
    }
}

/// `promotes in place or by "mF" to Ferz { must no own Ferz }`: the piece may, as a move of its
/// own, turn into one of the choices where it stands (`d5d5f`), or after one move of the step's
/// Betza text to an empty square (`d5e6f`), where the block's move rules allow it: rules judged
/// before the move (`move from S`, `no own Ferz`) and after it (`must not give check`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InPlacePromotion {
    /// The Betza text of the step, for display; empty for in place only.
    pub betza: String,
    /// The step's decoded movement (moves only, never captures); empty for in place only.
    pub step: Vec<MoveAtom>,
    /// The pieces it may become.
    pub choices: Vec<PieceId>,
    /// The move rules of its block.
    pub rules: DropRules,
}

/// `moves "fsW" in ranks 6-10`: a piece's movement while it stands in a zone, instead of its
/// `moves`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZonedMoves {
    /// For each side, where the movement applies.
    pub zone: Vec<Vec<Square>>,
    /// The Betza text, for display.
    pub betza: String,
    /// Decoded movement.
    pub moves: Vec<MoveAtom>,
}

/// A movement written leg by leg: `path W* , then straight enemy not royal convert, then
/// straight+`. The piece walks the legs in order; the last leg's square is where it lands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PathDef {
    /// The statement as written, for descriptions and explanations.
    pub text: String,
    /// The legs, first to last.
    pub legs: Vec<Leg>,
}

/// One leg of a [`PathDef`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leg {
    /// Which way it goes.
    pub direction: LegDirection,
    /// One step, or a slide over empty squares.
    pub count: LegCount,
    /// What the square of a one-step leg may hold (ignored for slides, which pass empty squares).
    pub holds: SquareTest,
    /// What happens to the piece on the square of a one-step leg that is not the last.
    pub effect: LegEffect,
}

/// The direction of a leg.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LegDirection {
    /// The first leg: the steps of a Betza leaper atom (`W`, `fF`, ...), relative to the side.
    Steps(Vec<Offset>),
    /// `straight`: the same step as the previous leg.
    Straight,
    /// `outward`: a step turned 45 degrees either way from the previous leg's one-square step
    /// (a diagonal after an orthogonal step and the reverse), as a knight's second step.
    Outward,
}

/// How far a leg goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LegCount {
    /// One step.
    One,
    /// `*`: zero or more steps over empty squares.
    AnyEmpty,
    /// `+`: one or more steps over empty squares.
    SomeEmpty,
}

/// What a square may hold, from the moving side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquareTest {
    /// It may be empty.
    pub empty: bool,
    /// It may hold an enemy piece.
    pub enemy: bool,
    /// It may hold a piece of the mover's side.
    pub friend: bool,
    /// `not royal`: a piece there must not be royal.
    pub not_royal: bool,
    /// `undefended`: a piece there must not be defended, judged before the move: no other piece
    /// of its owner could capture on its square by an ordinary capture.
    pub undefended: bool,
}

impl SquareTest {
    /// Empty or enemy: where a move may land (capturing by replacement).
    pub const LANDING: SquareTest = SquareTest {
        empty: true,
        enemy: true,
        friend: false,
        not_royal: false,
        undefended: false,
    };
    /// Anything on the board.
    pub const ANY: SquareTest = SquareTest {
        empty: true,
        enemy: true,
        friend: true,
        not_royal: false,
        undefended: false,
    };
}

/// What a leg does to the piece on its square (legs before the last).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LegEffect {
    /// Nothing: the piece is passed over.
    None,
    /// `convert`: the piece changes owner to the mover's side where it stands (a takeover).
    Convert,
}

/// A step on the board relative to the moving side: `forward` counts towards the owner's far
/// edge, `right` towards higher files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Offset {
    /// Files to the right (towards `h`), negative to the left.
    pub right: i8,
    /// Ranks forward for the owner, negative backward.
    pub forward: i8,
}

/// What a move may do on its destination square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveMode {
    /// Move to an empty square or capture an enemy piece there (Betza default).
    Both,
    /// Only move to an empty square (`m`).
    MoveOnly,
    /// Only capture an enemy piece (`c`).
    CaptureOnly,
}

/// One decoded Betza atom with its modifiers, for a set of directions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveAtom {
    /// The directions, each one step of the atom.
    pub steps: Vec<Offset>,
    /// How many steps the piece may take in one direction: `Some(1)` for a leaper, `Some(n)` for
    /// a limited rider, `None` for an unlimited rider.
    pub range: Option<u8>,
    /// Move, capture, or both.
    pub mode: MoveMode,
    /// Only from the piece's initial zone (`i`, see [`PieceDef::initial_zone`]). A lame `i` move
    /// that passes over squares leaves them as en-passant targets for one turn.
    pub initial_only: bool,
    /// Lame (`n`): a leap whose intermediate squares (orthogonal-then-diagonal path for oblique
    /// atoms, the squares in between for straight ones) must be empty.
    pub lame: bool,
    /// May capture en passant (`e`): land on the square an enemy lame initial move passed over,
    /// removing that piece.
    pub en_passant: bool,
    /// A hopper (`p`, `g`): the rider must jump one piece, its hurdle, on the way.
    #[serde(default, skip_serializing_if = "Hop::is_none")]
    pub hop: Hop,
}

/// How a rider jumps a piece on its line (Betza's `p` and `g`, as Fairy-Stockfish writes them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hop {
    /// An ordinary rider: it stops at the first piece.
    #[default]
    None,
    /// `p`, a cannon: it jumps exactly one piece of either side, then goes on as the rider
    /// up to the next piece, which it may capture (the xiangqi cannon captures by `cpR`).
    Cannon,
    /// `g`, a grasshopper: it lands on the square just beyond the first piece on its line.
    Grasshopper,
}

impl Hop {
    /// Whether the atom hops at all.
    pub fn is_none(&self) -> bool {
        *self == Hop::None
    }
}

/// How and where a piece promotes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Promotion {
    /// For each side (indexed by [`SideId`]), the squares where the piece must promote.
    pub zone: Vec<Vec<Square>>,
    /// The piece types it may become.
    pub choices: Vec<PieceId>,
    /// Per side (by [`SideId`]), its own choices (`red promotes on ... to Queen`); empty: the
    /// general ones.
    #[serde(default)]
    pub side_choices: Vec<Vec<PieceId>>,
    /// `optionally`: a move that may promote may also be made without promoting, except to a
    /// square where the piece would be stranded (no move of it could ever leave the square).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// Which moves promote, by where they start and end.
    #[serde(default, skip_serializing_if = "PromotionMoves::is_default")]
    pub moves: PromotionMoves,
}

/// Which moves promote, by where they start and end relative to the zone: `on` is entering and
/// within (the move ends in the zone, chess), `on or from` all three (shogi).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromotionMoves {
    /// `into`: from outside the zone into it.
    pub entering: bool,
    /// `within`: from a square of the zone to another.
    pub within: bool,
    /// `out of`: from the zone to a square outside it.
    pub leaving: bool,
}

impl PromotionMoves {
    /// No move promotes (the parser's start before it reads the words).
    pub const NONE: PromotionMoves = PromotionMoves {
        entering: false,
        within: false,
        leaving: false,
    };

    /// Whether these are `on`'s moves, the default.
    pub fn is_default(&self) -> bool {
        *self == PromotionMoves::default()
    }
}

impl Default for PromotionMoves {
    /// `on`: moves that end in the zone.
    fn default() -> Self {
        PromotionMoves {
            entering: true,
            within: true,
            leaving: false,
        }
    }
}

impl Promotion {
    /// The piece types a side's piece may become.
    pub fn choices_for(&self, side: SideId) -> &[PieceId] {
        match self.side_choices.get(side.0 as usize) {
            Some(own) if !own.is_empty() => own,
            _ => &self.choices,
        }
    }

    /// Whether some side's piece may become this type.
    pub fn may_become(&self, piece: PieceId) -> bool {
        self.choices.contains(&piece) || self.side_choices.iter().any(|c| c.contains(&piece))
    }
}

/// One castling move of one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CastlingDef {
    /// The side that may castle this way.
    pub side: SideId,
    /// The FEN letter of this right in the side's case (`K`, `Q`, `k`, `q`).
    pub fen_letter: char,
    /// The king's piece type when the castling names it; else the side's royal piece castles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub king_piece: Option<PieceId>,
    /// Where the king starts.
    pub king_from: Square,
    /// Where the king ends.
    pub king_to: Square,
    /// The rook's piece type when the castling names it; else any piece of the side castles.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rook_piece: Option<PieceId>,
    /// Where the rook starts.
    pub rook_from: Square,
    /// Where the rook ends.
    pub rook_to: Square,
    /// The right is gained when a drop leaves the king and the rook on their start squares
    /// (`when placed`), besides being given by the setup.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub when_placed: bool,
}

/// A result for the side that is in the named situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The side loses (its opponents win).
    Loss,
    /// The side wins.
    Win,
    /// Nobody wins.
    Draw,
}

/// How games end.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct EndRules {
    /// `check`: no action may leave one of the mover's royal pieces attacked.
    pub check: bool,
    /// Verdict for the side to move when it has no legal action and a royal piece is attacked.
    pub checkmate: Option<Verdict>,
    /// Verdict for the side to move when it has no legal action otherwise.
    pub stalemate: Option<Verdict>,
    /// `repetition N verdict`: the N-th occurrence of a position ends the game; the verdict is
    /// for the side whose action produced it.
    pub repetition: Option<Repetition>,
    /// `move-limit N verdict`: N moves by each side (2N plies) with no capture and no move of an
    /// `irreversible` piece end the game; the verdict is for the side to move then.
    pub move_limit: Option<MoveLimit>,
    /// `by score when hands empty`, `loses when ...`: conditions judged for the side to move
    /// after every action, in source order, before checkmate and stalemate.
    #[serde(default)]
    pub conditions: Vec<EndCondition>,
    /// `tiebreak ...`: how equal scores are separated, in order; then a draw.
    #[serde(default)]
    pub tiebreaks: Vec<Tiebreak>,
    /// `material ... VERDICT` rules, in source order: positions decided by the pieces left (the
    /// dead positions of FIDE Laws 5.2.2 that material alone shows). See [`MaterialRule`].
    #[serde(default)]
    pub material: Vec<MaterialRule>,
    /// `royal captured loses`: a side left with no royal piece on the board or in hand ends the
    /// game, with this verdict for that side (atomic chess, Kingdrops).
    #[serde(default)]
    pub royal_captured: Option<Verdict>,
    /// `check when all royal pieces attacked`: with [`EndRules::check`], a side is in check
    /// only when every one of its royal pieces is attacked (Spartan chess's duple check): no
    /// action may leave them all attacked, and checkmate needs them all attacked.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub check_all_royals: bool,
}

/// `RESULT when CONDITION`: the game ends when the condition holds for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndCondition {
    /// `each side`: judged for every side (starting with the side that acted last), the result
    /// for the first it holds for; otherwise judged for the side to move.
    #[serde(default)]
    pub each_side: bool,
    /// The verdict for the side concerned; `None` for `by score`.
    pub verdict: Option<Verdict>,
    /// The condition, judged for the side to move.
    pub condition: crate::expression::Condition,
    /// Where it is written.
    #[serde(default)]
    pub origin: Origin,
}

/// `material King King Knight draws`, `material King King Bishop* on one colour draws`.
///
/// The rule holds in a position when all of these are true:
///
/// - every hand is empty;
/// - for each piece type, the number of pieces of that type on the board, counting every side's
///   pieces together, is within `min..=max` of its entry in [`MaterialRule::counts`], and is 0
///   for a type that has no entry (owners do not matter: `King King Knight` is king and knight
///   against king, whoever owns the knight);
/// - with [`MaterialRule::one_colour`], the non-royal pieces on the board all stand on light
///   squares or all on dark squares ([`BoardDef::is_light`]); true when there is none.
///
/// When a rule holds, the game ends with [`MaterialRule::verdict`] for the side to move (chess
/// uses `draws`). It is meant to be judged after every action, after checkmate and stalemate
/// (a side without a legal action is judged by those rules first) and before repetition and
/// the move limit. The rules of one game are alternatives: the first that holds decides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaterialRule {
    /// The piece types listed, in [`PieceId`] order, each once with its allowed count.
    pub counts: Vec<PieceCount>,
    /// `on one colour`: every non-royal piece on the board stands on squares of one colour.
    pub one_colour: bool,
    /// The verdict for the side to move when the rule holds.
    pub verdict: Verdict,
}

/// How many pieces of one type a [`MaterialRule`] allows on the board, all sides together:
/// `Knight` is `1..=1`, `Bishop*` is `0..`, `Pawn+` is `1..`; terms naming the same piece add up
/// (`King King` is `2..=2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PieceCount {
    /// The piece type.
    pub piece: PieceId,
    /// The fewest pieces of that type.
    pub min: u32,
    /// The most pieces of that type; `None` for no limit.
    pub max: Option<u32>,
}

/// The repetition rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Repetition {
    /// How many occurrences end the game (3 for threefold).
    pub count: u32,
    /// The verdict for the side whose action produced the last occurrence (or, with
    /// [`Repetition::for_side`], for that side). With [`Repetition::by_score`] it is `Draw`:
    /// what equal scores give.
    pub verdict: Verdict,
    /// `, perpetual check VERDICT`: the verdict for a side that gave check with each of its
    /// moves since the first of the occurrences (perpetual check), when only one side did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perpetual_check: Option<Verdict>,
    /// `, perpetual chase VERDICT`: the verdict for a side that chased one enemy piece with each
    /// of its moves since the first of the occurrences (xiangqi's perpetual chase), when only it
    /// did and no side checked perpetually.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub perpetual_chase: Option<Verdict>,
    /// `repetition N VERDICT for SIDE`: the verdict is for this side, whoever produced the last
    /// occurrence (Fairy-Stockfish's `nFoldValueAbsolute`: minishogi's sennichite loses for
    /// sente).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub for_side: Option<SideId>,
    /// `repetition N by score`: the scores decide (§2.13), as `by score when ...` does: the
    /// highest wins, then the tie-breaks, else a draw (Fairy-Stockfish's `materialCounting`).
    /// Perpetual check, where the rule has it, is judged first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_score: bool,
}

/// The move-limit rule (FIDE's 50-move rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveLimit {
    /// Moves per side (50 in chess), or plies with `plies`.
    pub moves: u32,
    /// `move-limit 100 plies`: the limit counts single actions, not moves of each side.
    #[serde(default)]
    pub plies: bool,
    /// The verdict for the side to move when the limit is reached. With
    /// [`MoveLimit::by_score`] it is `Draw`: what equal scores give.
    pub verdict: Verdict,
    /// `move-limit N by score`: the scores decide (§2.13), as `by score when ...` does
    /// (Fairy-Stockfish's `materialCounting` on its `nMoveRule`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_score: bool,
}

/// A position as a FEN describes it, resolved against a definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Pieces on the board.
    pub board: Vec<Placement>,
    /// Pieces in hand, per side and type (the `[...]` FEN field).
    pub hands: Vec<(SideId, PieceId, u32)>,
    /// The side to move.
    pub side_to_move: SideId,
    /// Castling rights held, as indices into [`Definition::castling`].
    pub castling: Vec<usize>,
    /// The en-passant target square, if any.
    pub en_passant: Option<Square>,
    /// Plies since the last capture or irreversible move.
    pub halfmove_clock: u32,
    /// The move number, starting at 1 and incremented after the last side of the turn order.
    pub fullmove_number: u32,
    /// Pieces in prison, per owner and type (the FEN's `prison:` field).
    #[serde(default)]
    pub prisons: Vec<(SideId, PieceId, u32)>,
    /// Squares of promoted pieces (`Q~` in a FEN), in games whose captures go to the hand.
    #[serde(default)]
    pub promoted: Vec<Square>,
    /// The placement phase under way, by index into [`Definition::phases`]; `None` in play.
    #[serde(default)]
    pub phase: Option<usize>,
    /// How far the current turn has gone (the FEN's `actions:`, `drops:`, `acted:`, `longest:`,
    /// `start:` fields).
    #[serde(default)]
    pub progress: TurnProgress,
    /// Each side's last action, if it was a drop: (side, piece, square) (the FEN's `last:` field,
    /// in games whose rules read it).
    #[serde(default)]
    pub last_drops: Vec<(SideId, PieceId, Square)>,
    /// The side to move's place in the turn order (the FEN's `turn:`, needed where the order
    /// names a side more than once); `None` means its first place.
    #[serde(default)]
    pub turn: Option<usize>,
    /// Numbered pieces (`numbers`): (square, number), by number.
    #[serde(default)]
    pub numbers: Vec<(Square, u8)>,
    /// The counters' values (`counter`), per counter then per side; empty in a game without
    /// counters (and where a FEN does not give them: their start values then).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<Vec<u32>>,
    /// The squares that still carry a gating right (`gating`), with the side whose piece stands
    /// there, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gates: Vec<(SideId, Square)>,
    /// The square of the game's neutral piece (`neutral`, written `*`), if it is on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub neutral: Option<Square>,
}

/// How far a turn of several actions has gone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnProgress {
    /// Actions taken this turn.
    pub actions: u8,
    /// Drops among them.
    pub drops: u8,
    /// Squares of the pieces that acted this turn.
    pub acted: Vec<Square>,
    /// With `maximal`, the length of the longest turn, computed at its start; `None` to compute
    /// it (only possible at the start of a turn).
    pub longest: Option<u8>,
    /// The values of the `at turn start` conditions at the start of the turn, one bit each in
    /// source order; `None` to compute them (only possible at the start of a turn).
    pub start: Option<u32>,
}

/// One piece on one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    /// Where.
    pub square: Square,
    /// Whose.
    pub side: SideId,
    /// What.
    pub piece: PieceId,
}

impl Definition {
    /// The letter a side's piece is written with in FEN and notation: the side's own `letters`,
    /// or the piece's letter in the side's case (upper for the first side, lower for the others).
    pub fn piece_letter(&self, side: SideId, piece: PieceId) -> char {
        let own = self
            .sides
            .get(side.0 as usize)
            .and_then(|def| def.letters.get(piece.0 as usize));
        if let Some(&letter) = own {
            return letter;
        }
        let letter = self
            .pieces
            .get(piece.0 as usize)
            .map_or('?', |piece| piece.letter);
        if side.0 == 0 {
            letter.to_ascii_uppercase()
        } else {
            letter.to_ascii_lowercase()
        }
    }

    /// The side and piece a FEN letter stands for (a promoted form, `+P`, is never found here:
    /// [`Definition::promoted_letter_piece`]).
    pub fn letter_piece(&self, letter: char) -> Option<(SideId, PieceId)> {
        self.find_letter(letter, false)
    }

    /// The side and piece that `+` and a letter stand for: a promoted form (`letter +P`).
    pub fn promoted_letter_piece(&self, letter: char) -> Option<(SideId, PieceId)> {
        self.find_letter(letter, true)
    }

    fn find_letter(&self, letter: char, promoted_form: bool) -> Option<(SideId, PieceId)> {
        (0..self.sides.len()).find_map(|side| {
            (0..self.pieces.len())
                .find(|&piece| {
                    // A neutral piece belongs to no side: it is written `*`, never by letter.
                    !self.pieces[piece].neutral
                        && self.pieces[piece].promoted_form == promoted_form
                        && self.piece_letter(SideId(side as u8), PieceId(piece as u8)) == letter
                })
                .map(|piece| (SideId(side as u8), PieceId(piece as u8)))
        })
    }

    /// A side's piece as a FEN writes it: its letter, after `+` for a promoted form (`+p`).
    pub fn piece_symbol(&self, side: SideId, piece: PieceId) -> String {
        let letter = self.piece_letter(side, piece);
        match self.pieces.get(piece.0 as usize) {
            Some(def) if def.promoted_form => format!("+{letter}"),
            _ => letter.to_string(),
        }
    }

    /// The piece a promoted form is the promoted form of (the piece with its letter, not
    /// itself a promoted form); `None` for other pieces.
    pub fn base_of(&self, piece: PieceId) -> Option<PieceId> {
        let def = self.pieces.get(piece.0 as usize)?;
        if !def.promoted_form {
            return None;
        }
        self.pieces
            .iter()
            .position(|p| !p.promoted_form && p.letter == def.letter)
            .map(|index| PieceId(index as u8))
    }

    /// The squares where a side's piece of this type is stranded: none of its moves (Betza
    /// atoms, whose first step for a rider, or the first leg of a path) lands on the board from
    /// there, whatever stands around. Shogi's pawn and lance on the last rank, its knight on the
    /// last two. A piece that never moves is stranded nowhere (it was never meant to move).
    pub fn stranded_squares(&self, side: SideId, piece: PieceId) -> Vec<Square> {
        let Some(def) = self.pieces.get(piece.0 as usize) else {
            return Vec::new();
        };
        let Some(side_def) = self.sides.get(side.0 as usize) else {
            return Vec::new();
        };
        let steps: Vec<(i32, i32)> = def
            .moves
            .iter()
            .flat_map(|atom| atom.steps.iter())
            .map(|step| (step.right, step.forward))
            .chain(
                def.paths
                    .iter()
                    .filter_map(|path| match &path.legs.first()?.direction {
                        LegDirection::Steps(steps) => {
                            Some(steps.iter().map(|s| (s.right, s.forward)))
                        }
                        _ => None,
                    })
                    .flatten(),
            )
            .map(|(right, ahead)| match side_def.forward {
                Forward::Up => (right as i32, ahead as i32),
                Forward::Down => (right as i32, -(ahead as i32)),
            })
            .collect();
        if steps.is_empty() {
            return Vec::new();
        }
        let board = &self.board;
        let on_board = |file: i32, rank: i32| {
            file >= 0
                && rank >= 0
                && file < board.files as i32
                && rank < board.ranks as i32
                && !board.holes.contains(&Square::new(file as u8, rank as u8))
        };
        let mut stranded = Vec::new();
        for rank in 0..board.ranks {
            for file in 0..board.files {
                let square = Square::new(file, rank);
                if board.holes.contains(&square) {
                    continue;
                }
                let (f, r) = (file as i32, rank as i32);
                if !steps.iter().any(|&(dx, dy)| on_board(f + dx, r + dy)) {
                    stranded.push(square);
                }
            }
        }
        stranded
    }

    /// Whether two sides are on one team (a side is its own ally).
    pub fn allied(&self, a: SideId, b: SideId) -> bool {
        a == b
            || self
                .teams
                .iter()
                .any(|team| team.contains(&a) && team.contains(&b))
    }

    /// Whether some rule reads the sides' last drops (`last drop of`, `placed`): they are then
    /// part of the position, written in its FEN (`last:`) and hashed.
    pub fn reads_last_drop(&self) -> bool {
        let constraints = self
            .drops
            .constraints
            .iter()
            .chain(&self.move_rules.constraints)
            .chain(
                self.phases
                    .iter()
                    .flat_map(|phase| &phase.drops.constraints),
            );
        let after_reads = |rule: &AfterRule| {
            rule.condition.reads_last_drop()
                || matches!(&rule.test, AfterTest::Condition(c) if c.reads_last_drop())
        };
        constraints
            .into_iter()
            .any(|c| c.requirement.reads_last_drop() || c.condition.reads_last_drop())
            || self.move_rules.after.iter().any(after_reads)
            || self
                .end
                .conditions
                .iter()
                .any(|end| end.condition.reads_last_drop())
            || self
                .score
                .as_ref()
                .is_some_and(|score| score.expression.reads_last_drop())
    }

    /// The game's neutral piece (`neutral`), if it has one (at most one: validation).
    pub fn neutral_piece(&self) -> Option<PieceId> {
        self.pieces
            .iter()
            .position(|piece| piece.neutral)
            .map(|index| PieceId(index as u8))
    }

    /// Whether the game is played with hands: its setup holds pieces in hand, or captured
    /// pieces go to a hand or a prison (from which exchanges send them to hands).
    pub fn uses_hands(&self) -> bool {
        !self.setup.hands.is_empty() || self.capture.stores.iter().any(Option::is_some)
    }

    /// Whether en passant can happen: some piece's move leaves an en-passant target (a lame
    /// initial move, `imfnD`) or takes one (`e`). A FEN of a game without it may leave out
    /// the en-passant field, as Fairy-Stockfish does.
    pub fn has_en_passant(&self) -> bool {
        self.pieces
            .iter()
            .flat_map(|piece| &piece.moves)
            .any(|atom| atom.en_passant || (atom.initial_only && atom.lame))
    }

    /// The definition as pretty RON, the dump format of `variant check --dump`. Nesting deeper
    /// than a move atom's fields (its steps, a zone's squares) is written on one line.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().depth_limit(5);
        // Serialising plain data to a string cannot fail: every type here serialises to
        // strings, numbers, sequences and structs, and no deeper than RON_RECURSION_LIMIT.
        ron_options()
            .to_string_pretty(self, config)
            .expect("a definition always serialises")
    }

    /// Reads a definition back from RON written by [`Definition::to_ron`].
    pub fn from_ron(text: &str) -> Result<Definition, ron::error::SpannedError> {
        ron_options().from_str(text)
    }
}

/// How deep RON may nest when a definition is written or read: RON's default (128) is less
/// than an expression may be ([`crate::nesting::MAX_EXPRESSION_DEPTH`] levels, a few RON levels
/// each, under a few levels of the definition's own structure); still a bound, so that reading
/// RON from elsewhere cannot overflow the stack.
const RON_RECURSION_LIMIT: usize = 4 * crate::nesting::MAX_EXPRESSION_DEPTH + 64;

fn ron_options() -> ron::Options {
    ron::Options::default().with_recursion_limit(RON_RECURSION_LIMIT)
}
