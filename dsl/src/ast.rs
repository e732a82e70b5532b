//! The syntax tree: what a game file says, before anyone checks that it makes sense.
//!
//! A [`GameFile`] may be wrong (unknown names, boards of a billion squares); validation turns it
//! into a [`Definition`](crate::Definition) or diagnostics. Every node is [`Spanned`] so that a
//! diagnostic can point at the exact name, square, letter or character of a Betza string.
//! Numbers are kept as the digits written, so that validation can report an overflow where it is.

use crate::definition::{Tiebreak, Verdict};
use crate::span::{FileId, Span, Spanned};
use std::ops::Range;

/// A parsed game file.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFile {
    /// The file it was parsed from.
    pub file: FileId,
    /// Its statements, in order.
    pub statements: Vec<Spanned<Statement>>,
}

/// A string literal: its value, and the text between the quotes as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StringLit {
    /// The value, with `\"` and `\\` unescaped.
    pub value: String,
    /// The text between the quotes, escapes included.
    pub raw: String,
}

impl Spanned<StringLit> {
    /// The source span of the byte range `range` of the string's value: the literal's span, plus
    /// one for the opening quote, plus the offset (escapes accounted for).
    ///
    /// For many ranges of one string, [`Spanned::<StringLit>::spans_of`] is linear where calling
    /// this for each would scan the string from its start each time.
    pub fn span_of(&self, range: Range<usize>) -> Span {
        self.spans_of(std::iter::once(range))[0]
    }

    /// The source spans of several byte ranges of the string's value, in the same order.
    pub fn spans_of(&self, ranges: impl IntoIterator<Item = Range<usize>>) -> Vec<Span> {
        let offsets = self.raw_offsets();
        let raw_offset = |value_offset: usize| match &offsets {
            None => value_offset,
            Some(offsets) => offsets.get(value_offset).copied().unwrap_or_else(|| {
                let last = offsets.len().saturating_sub(1);
                offsets.last().copied().unwrap_or(0) + (value_offset - last)
            }),
        };
        let opening_quote = 1;
        let start = self.span.start + opening_quote;
        ranges
            .into_iter()
            .map(|range| {
                let end = range.end.max(range.start);
                Span::new(
                    self.span.file,
                    start + raw_offset(range.start),
                    start + raw_offset(end),
                )
            })
            .collect()
    }

    /// For each byte offset of the value (and one past its end), the offset in the raw text;
    /// `None` when the string has no escape, so that both are the same.
    fn raw_offsets(&self) -> Option<Vec<usize>> {
        let raw = self.node.raw.as_bytes();
        if !raw.contains(&b'\\') {
            return None;
        }
        let mut offsets = Vec::with_capacity(raw.len() + 1);
        let mut raw_index = 0;
        while raw_index < raw.len() {
            offsets.push(raw_index);
            raw_index += if raw[raw_index] == b'\\' { 2 } else { 1 };
        }
        offsets.push(raw.len());
        Some(offsets)
    }
}

/// A top-level statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `game "Chess"`
    Game(TextStatement),
    /// `extends "chess"`
    Extends(TextStatement),
    /// `description "..."`
    Description(TextStatement),
    /// `credits "..."`
    Credits(TextStatement),
    /// `board 8x8 { holes a1 }`
    Board(BoardStatement),
    /// `side white { forward up }`
    Side(SideStatement),
    /// `turns white black`
    Turns(TurnsStatement),
    /// `team white black`
    Team(TeamStatement),
    /// `policy red { ... }`
    Policy(PolicyStatement),
    /// `zone palace = ranks 1-3 and files d-f`
    Zone(ZoneStatement),
    /// `piece Knight { ... }`
    Piece(PieceStatement),
    /// `remove piece Bishop`
    Remove(RemoveStatement),
    /// `castling { ... }`
    Castling(CastlingStatement),
    /// `gating from rank 1`
    Gating(GatingStatement),
    /// `setup "..."`
    Setup(TextStatement),
    /// `actions moves drops`
    Actions(ActionsStatement),
    /// `drops { ... }`
    Drops(DropsStatement),
    /// `moves { ... }`: rules every move obeys (the same items as a `drops` block).
    MoveRules(DropsStatement),
    /// `counter checks { add 1 on check; fen remaining 3 }`
    Counter(CounterStatement),
    /// `phase setup { ... }`
    Phase(PhaseStatement),
    /// `turn { ... }`
    Turn(TurnStatement),
    /// `control { ... }`
    Control(ControlStatement),
    /// `capture { ... }`
    Capture(CaptureStatement),
    /// `score attackers on empty squares`
    Score(ScoreStatement),
    /// `end { ... }`
    End(EndStatement),
    /// A construct of the language this version does not implement (`phase`, `score`, ...).
    Future(FutureStatement),
}

impl Statement {
    /// The span of the statement's keyword.
    pub fn keyword(&self) -> Span {
        match self {
            Statement::Game(s)
            | Statement::Extends(s)
            | Statement::Description(s)
            | Statement::Credits(s)
            | Statement::Setup(s) => s.keyword,
            Statement::Board(s) => s.keyword,
            Statement::Side(s) => s.keyword,
            Statement::Turns(s) => s.keyword,
            Statement::Team(s) => s.keyword,
            Statement::Policy(s) => s.keyword,
            Statement::Zone(s) => s.keyword,
            Statement::Piece(s) => s.keyword,
            Statement::Remove(s) => s.keyword,
            Statement::Castling(s) => s.keyword,
            Statement::Gating(s) => s.keyword,
            Statement::Actions(s) => s.keyword,
            Statement::Drops(s) | Statement::MoveRules(s) => s.keyword,
            Statement::Counter(s) => s.keyword,
            Statement::Phase(s) => s.keyword,
            Statement::Turn(s) => s.keyword,
            Statement::Control(s) => s.keyword,
            Statement::Capture(s) => s.keyword,
            Statement::Score(s) => s.keyword,
            Statement::End(s) => s.keyword,
            Statement::Future(s) => s.keyword.span,
        }
    }

    /// The keyword as written in the language (`board`, `piece`, ...).
    pub fn keyword_text(&self) -> &str {
        match self {
            Statement::Game(_) => "game",
            Statement::Extends(_) => "extends",
            Statement::Description(_) => "description",
            Statement::Credits(_) => "credits",
            Statement::Board(_) => "board",
            Statement::Side(_) => "side",
            Statement::Turns(_) => "turns",
            Statement::Team(_) => "team",
            Statement::Policy(_) => "policy",
            Statement::Zone(_) => "zone",
            Statement::Piece(_) => "piece",
            Statement::Remove(_) => "remove",
            Statement::Castling(_) => "castling",
            Statement::Gating(_) => "gating",
            Statement::Setup(_) => "setup",
            Statement::Actions(_) => "actions",
            Statement::Drops(_) => "drops",
            Statement::MoveRules(_) => "moves",
            Statement::Counter(_) => "counter",
            Statement::Phase(_) => "phase",
            Statement::Turn(_) => "turn",
            Statement::Control(_) => "control",
            Statement::Capture(_) => "capture",
            Statement::Score(_) => "score",
            Statement::End(_) => "end",
            Statement::Future(s) => &s.keyword.node,
        }
    }
}

/// A keyword followed by one string (`game "Chess"`, `setup "..."`).
#[derive(Clone, Debug, PartialEq)]
pub struct TextStatement {
    /// The keyword.
    pub keyword: Span,
    /// The string.
    pub text: Spanned<StringLit>,
}

/// `board 8x8 { holes a1 }`
#[derive(Clone, Debug, PartialEq)]
pub struct BoardStatement {
    /// The `board` keyword.
    pub keyword: Span,
    /// Number of files, as written.
    pub files: Spanned<String>,
    /// Number of ranks, as written.
    pub ranks: Spanned<String>,
    /// The statements of the block.
    pub items: Vec<Spanned<BoardItem>>,
}

/// A statement inside a `board` block.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardItem {
    /// `holes a1 a2`
    Holes(Vec<Spanned<String>>),
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// `side white { forward up }`
#[derive(Clone, Debug, PartialEq)]
pub struct SideStatement {
    /// The `side` keyword.
    pub keyword: Span,
    /// The side's name.
    pub name: Spanned<String>,
    /// The statements of the block.
    pub items: Vec<Spanned<SideItem>>,
}

/// A statement inside a `side` block.
#[derive(Clone, Debug, PartialEq)]
pub enum SideItem {
    /// `forward up`: the direction word as written.
    Forward(Spanned<String>),
    /// `fen-letter w`
    FenLetter(Spanned<char>),
    /// `letters King x Queen z`: the side's own letter per piece name.
    Letters(Vec<(Spanned<String>, Spanned<char>)>),
    /// `numbers a7-h7 a8-h8`: square ranges (a single square is a range of one).
    Numbers(Vec<(Spanned<String>, Spanned<String>)>),
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// `policy red { ... }`
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyStatement {
    /// The `policy` keyword.
    pub keyword: Span,
    /// The side it moves.
    pub side: Spanned<String>,
    /// Its rules, rolls and choices, in order.
    pub items: Vec<Spanned<PolicyItemSyntax>>,
}

/// `3d6 - 2`
#[derive(Clone, Debug, PartialEq)]
pub struct DiceSyntax {
    /// How many dice.
    pub count: Spanned<String>,
    /// Faces of each.
    pub faces: Spanned<String>,
    /// Added to the total.
    pub offset: i64,
}

/// One item of a policy.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyItemSyntax {
    /// `rule 6a { ... }`
    Rule(Spanned<String>, Vec<Spanned<PolicyStepSyntax>>),
    /// `roll 3d6 - 2 as n [for rule 6]`
    Roll(DiceSyntax, Spanned<String>, Option<Spanned<String>>),
    /// `let m = nearest number to n except n, ties lower when odd`
    Nearest {
        /// The name given.
        name: Spanned<String>,
        /// The number to be near.
        to: Spanned<String>,
        /// The number left out.
        except: Spanned<String>,
        /// `ties lower when odd` (else `higher`).
        lower_when_odd: bool,
    },
}

/// One step of a policy rule.
#[derive(Clone, Debug, PartialEq)]
pub enum PolicyStepSyntax {
    /// `moves`, `moves of number n`
    Moves(Option<Spanned<String>>),
    /// `captures of number m`
    Captures(Spanned<String>),
    /// `where C`
    Where(Spanned<ActionConditionSyntax>),
    /// `prefer A, B`
    Prefer(Vec<Spanned<ActionConditionSyntax>>),
    /// `highest X per piece`
    Best {
        /// `highest` (else `lowest`).
        highest: bool,
        /// What is compared.
        measure: Spanned<ActionNumberSyntax>,
        /// `per piece` or `per direction`.
        per: Option<String>,
    },
    /// `roll 1d6 as r`
    Roll(DiceSyntax, Spanned<String>),
    /// `then King slides "Q" until not attacked by opponent`
    Slide {
        /// The piece type that slides.
        piece: Spanned<String>,
        /// The lines, in Betza notation.
        lines: Spanned<StringLit>,
        /// Where the slide ends.
        until: Box<Spanned<Expression>>,
    },
    /// `jump number m to file c rank r, lands when C, removed when C`
    Jump {
        /// The number of the piece.
        number: Spanned<String>,
        /// Its file.
        file: Spanned<String>,
        /// Its rank.
        rank: Spanned<String>,
        /// `lands when C`
        lands: Option<Box<Spanned<ActionConditionSyntax>>>,
        /// `removed when C`
        removed: Option<Box<Spanned<ActionConditionSyntax>>>,
    },
}

/// A condition on a candidate action.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionConditionSyntax {
    /// `A or B`
    Or(Vec<Spanned<ActionConditionSyntax>>),
    /// `A and B`
    And(Vec<Spanned<ActionConditionSyntax>>),
    /// `not A`
    Not(Box<Spanned<ActionConditionSyntax>>),
    /// `capture of checker`
    CaptureOfChecker,
    /// `in check`
    InCheck,
    /// `legal`
    Legal,
    /// `capture`
    Capture,
    /// `moving Pawn`
    Moving(Spanned<String>),
    /// `from S`
    From(Spanned<Expression>),
    /// `to S`
    To(Spanned<Expression>),
    /// `lands on S`
    LandsOn(Spanned<Expression>),
    /// `then attacks S`
    ThenAttacks(Spanned<Expression>),
    /// `X < Y`
    Compare(
        Spanned<ActionNumberSyntax>,
        crate::expression::Comparison,
        Spanned<ActionNumberSyntax>,
    ),
}

/// A number about a candidate action.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionNumberSyntax {
    /// `3`
    Integer(String),
    /// `candidates`
    Candidates,
    /// `value of target`
    TargetValue,
    /// `value of mover`
    MoverValue,
    /// `value of victim`
    VictimValue,
    /// `distance`
    Distance,
    /// `attackers of destination by next`
    Attackers(Spanned<SideReference>),
    /// A name rolled or chosen earlier.
    Variable(String),
}

/// `team white black`
#[derive(Clone, Debug, PartialEq)]
pub struct TeamStatement {
    /// The `team` keyword.
    pub keyword: Span,
    /// The allied sides.
    pub sides: Vec<Spanned<String>>,
}

/// `turns white black`
#[derive(Clone, Debug, PartialEq)]
pub struct TurnsStatement {
    /// The `turns` keyword.
    pub keyword: Span,
    /// Side names, in turn order.
    pub sides: Vec<Spanned<String>>,
}

/// `piece Knight { letter N; moves "N" }`
#[derive(Clone, Debug, PartialEq)]
pub struct PieceStatement {
    /// The `piece` keyword.
    pub keyword: Span,
    /// The piece's name.
    pub name: Spanned<String>,
    /// The statements of the block.
    pub items: Vec<Spanned<PieceItem>>,
}

/// `remove piece Bishop`: takes a piece declared by an ancestor (`extends`) out of the game.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoveStatement {
    /// The `remove` keyword.
    pub keyword: Span,
    /// The name of the piece to remove.
    pub piece: Spanned<String>,
}

/// A statement inside a `piece` block.
#[derive(Clone, Debug, PartialEq)]
pub enum PieceItem {
    /// `letter N`
    Letter(Spanned<char>),
    /// `value -1`: the digits as written, sign included.
    Value(Spanned<String>),
    /// `royal`
    Royal,
    /// `moves "mfW"`
    Moves(Spanned<StringLit>),
    /// `moves "fsW" in ranks 6-10`: the movement instead while standing in the zone.
    MovesIn {
        /// The Betza text.
        moves: Spanned<StringLit>,
        /// Where it applies.
        zone: Spanned<Zone>,
    },
    /// `moves "B" along zone palace-lines`: more movement from the zone's squares, every square
    /// passed or landed on in the zone.
    MovesAlong {
        /// The Betza text.
        moves: Spanned<StringLit>,
        /// The zone it runs in.
        zone: Spanned<Zone>,
    },
    /// `confined to zone palace`: the piece never leaves the zone.
    Confined(Spanned<Zone>),
    /// `may not hop over Cannon` (`hop` true) or `may not capture Cannon`: piece types this
    /// piece never jumps over, or never takes.
    MayNot {
        /// `hop over` rather than `capture`.
        hop: bool,
        /// The piece names.
        pieces: Vec<Spanned<String>>,
    },
    /// `initial rank 2`
    Initial(Spanned<Zone>),
    /// `en-passant on rank 3`: where the piece's initial lame moves leave en-passant targets.
    EnPassantOn(Spanned<Zone>),
    /// `letter +P`: the piece is the promoted form of the piece lettered `P`.
    PromotedLetter(Spanned<char>),
    /// `promotes on last rank to Queen Rook`
    Promotes {
        /// The side it applies to (`red promotes ...`); `None` for every side.
        side: Option<Spanned<String>>,
        /// `optionally`: the move may also be made without promoting.
        optionally: bool,
        /// Which moves promote (`on`, `on or from` ...).
        moves: crate::definition::PromotionMoves,
        /// Where it promotes.
        zone: Spanned<Zone>,
        /// Piece names it may become.
        choices: Vec<Spanned<String>>,
    },
    /// `promotes in place or by "mF" to Ferz { must no own Ferz }`: a promotion that is a move
    /// of its own.
    PromotesInPlace {
        /// `or by "BETZA"`: the step it may make as it promotes; `None` for in place only.
        step: Option<Spanned<StringLit>>,
        /// Piece names it may become.
        choices: Vec<Spanned<String>>,
        /// The move rules of its block.
        rules: Vec<Spanned<DropsItem>>,
    },
    /// `irreversible`
    Irreversible,
    /// `uncapturable`
    Uncapturable,
    /// `supply`: dropped from an endless supply.
    Supply,
    /// `neutral`: a piece of no side, moved by every side as the last part of its move.
    Neutral,
    /// `converts around`: its landing converts the enemy pieces around.
    ConvertsAround,
    /// `path W any, then outward`: the legs in order.
    Path(Vec<Spanned<LegSyntax>>),
    /// `chase strength 3`: its strength for `perpetual chase`, as written.
    ChaseStrength(Spanned<String>),
    /// `never chases`: its attacks are never a chase.
    NeverChases,
    /// `chased in ranks 6-10`: it can be chased only while in the zone.
    ChasedIn(Spanned<Zone>),
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// One leg of a `path`, as written.
#[derive(Clone, Debug, PartialEq)]
pub struct LegSyntax {
    /// `straight`, `outward` or a Betza atom such as `fF`.
    pub direction: Spanned<String>,
    /// `*` or `+`, if given.
    pub count: Option<char>,
    /// `empty`, `enemy`, `friend`, `any`, as written.
    pub holds: Vec<Spanned<String>>,
    /// `not royal`
    pub not_royal: bool,
    /// `undefended`
    pub undefended: bool,
    /// `convert`
    pub convert: bool,
}

impl PieceItem {
    /// The item's keyword, for messages about duplicates.
    pub fn keyword_text(&self) -> &str {
        match self {
            PieceItem::Letter(_) | PieceItem::PromotedLetter(_) => "letter",
            PieceItem::Value(_) => "value",
            PieceItem::Royal => "royal",
            PieceItem::Moves(_) | PieceItem::MovesIn { .. } | PieceItem::MovesAlong { .. } => {
                "moves"
            }
            PieceItem::Confined(_) => "confined",
            PieceItem::MayNot { hop: true, .. } => "may not hop over",
            PieceItem::MayNot { hop: false, .. } => "may not capture",
            PieceItem::Initial(_) => "initial",
            PieceItem::EnPassantOn(_) => "en-passant on",
            PieceItem::Promotes { .. } => "promotes",
            PieceItem::PromotesInPlace { .. } => "promotes in place",
            PieceItem::Irreversible => "irreversible",
            PieceItem::Uncapturable => "uncapturable",
            PieceItem::Supply => "supply",
            PieceItem::Neutral => "neutral",
            PieceItem::ConvertsAround => "converts",
            PieceItem::Path(_) => "path",
            PieceItem::ChaseStrength(_) => "chase strength",
            PieceItem::NeverChases => "never chases",
            PieceItem::ChasedIn(_) => "chased in",
            PieceItem::Future(future) => &future.keyword.node,
        }
    }
}

/// A set of squares relative to the side that uses it.
#[derive(Clone, Debug, PartialEq)]
pub enum Zone {
    /// `rank 2`: the owner's second rank.
    Rank(Spanned<String>),
    /// `ranks 1-3`
    Ranks {
        /// First rank, as written.
        first: Spanned<String>,
        /// Last rank, as written.
        last: Spanned<String>,
    },
    /// `last rank`: the owner's far rank.
    LastRank,
    /// `squares e4 d5`: absolute squares, as written.
    Squares(Vec<Spanned<String>>),
    /// `file e`, `files d-f`: absolute files, as written (one letter each).
    Files {
        /// First file.
        first: Spanned<String>,
        /// Last file (the first again for `file e`).
        last: Spanned<String>,
    },
    /// `zone palace`: a zone declared by a `zone` statement.
    Named(Spanned<String>),
    /// `A and B`, `A or B`, `A except B` (in `zone` statements).
    Combined {
        /// How the two combine.
        operator: ZoneOperator,
        /// The left operand.
        left: Box<Spanned<Zone>>,
        /// The right operand.
        right: Box<Spanned<Zone>>,
    },
}

/// How a `zone` statement combines two zones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneOperator {
    /// `and`: the squares of both.
    And,
    /// `or`: the squares of either.
    Or,
    /// `except`: the squares of the left one that are not in the right one.
    Except,
}

/// `zone palace = ranks 1-3 and files d-f`: a named zone.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneStatement {
    /// The `zone` keyword.
    pub keyword: Span,
    /// The zone's name.
    pub name: Spanned<String>,
    /// Its squares, relative to the side that uses it.
    pub zone: Spanned<Zone>,
}

/// `castling { white K king e1-g1 rook h1-f1 }`
#[derive(Clone, Debug, PartialEq)]
pub struct CastlingStatement {
    /// The `castling` keyword.
    pub keyword: Span,
    /// One line per castling move.
    pub castles: Vec<Spanned<Castle>>,
}

/// `white K king e1-g1 rook h1-f1`
#[derive(Clone, Debug, PartialEq)]
pub struct Castle {
    /// The side that castles.
    pub side: Spanned<String>,
    /// The FEN letter of the right.
    pub letter: Spanned<char>,
    /// The king's piece type when named (`king King e1-g1`); else the side's royal piece.
    pub king_piece: Option<Spanned<String>>,
    /// Where the king starts.
    pub king_from: Spanned<String>,
    /// Where the king ends.
    pub king_to: Spanned<String>,
    /// The rook's piece type when named (`rook Rook h1-f1`); else any piece of the side.
    pub rook_piece: Option<Spanned<String>>,
    /// Where the rook starts.
    pub rook_from: Spanned<String>,
    /// Where the rook ends.
    pub rook_to: Spanned<String>,
    /// `when placed`: the right is gained when drops put the king and the rook on their start
    /// squares.
    pub when_placed: Option<Span>,
}

/// `actions moves drops`
#[derive(Clone, Debug, PartialEq)]
pub struct ActionsStatement {
    /// The `actions` keyword.
    pub keyword: Span,
    /// The kinds of action, as written.
    pub kinds: Vec<Spanned<ActionKind>>,
}

/// A kind of action a turn may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    /// `moves`: a piece on the board moves.
    Moves,
    /// `drops`: a piece in hand is dropped.
    Drops,
}

impl ActionKind {
    /// The word as written.
    pub fn keyword_text(self) -> &'static str {
        match self {
            ActionKind::Moves => "moves",
            ActionKind::Drops => "drops",
        }
    }
}

/// `drops { must be on not controlled by opponent }`
#[derive(Clone, Debug, PartialEq)]
pub struct DropsStatement {
    /// The `drops` keyword.
    pub keyword: Span,
    /// The statements of the block.
    pub items: Vec<Spanned<DropsItem>>,
}

/// A statement inside a `drops` block.
#[derive(Clone, Debug, PartialEq)]
pub enum DropsItem {
    /// `black must place Queen when placement = 7 and hand Queen > 0`
    Must(Box<MustStatement>),
    /// `must capture when a capture is possible` (in a `moves` block only)
    Obligation(Box<ObligationStatement>),
    /// `irreversible` (in a `drops` block only): every drop resets the half-move clock.
    Irreversible,
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// `phase setup { order white black; must place on ranks 1-2 }`
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseStatement {
    /// The `phase` keyword.
    pub keyword: Span,
    /// The phase's name.
    pub name: Spanned<String>,
    /// `order white black`: the sides, as written, with the statement's span; `None` when missing.
    pub order: Option<Spanned<Vec<Spanned<String>>>>,
    /// The phase's drop rules.
    pub rules: Vec<Spanned<DropsItem>>,
}

/// `turn { up to 3 actions; maximal; pass when no action; exchange prisoners }`
#[derive(Clone, Debug, PartialEq)]
pub struct TurnStatement {
    /// The `turn` keyword.
    pub keyword: Span,
    /// The rules of the block.
    pub items: Vec<Spanned<TurnItem>>,
}

/// A statement inside a `turn` block.
#[derive(Clone, Debug, PartialEq)]
pub enum TurnItem {
    /// `up to 3 actions`: the number as written.
    Length(Spanned<String>),
    /// `maximal`
    Maximal,
    /// `pass when no action`
    Pass,
    /// `may pass`: the side to move may pass instead of acting; with `in check when C`, also
    /// while in check where C holds.
    MayPass(Option<Spanned<Expression>>),
    /// `exchange prisoners`
    ExchangePrisoners,
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// `[SIDE] must EXPRESSION [when EXPRESSION]`
#[derive(Clone, Debug, PartialEq)]
pub struct MustStatement {
    /// The side it binds, as written; `None` for every side.
    pub side: Option<Spanned<String>>,
    /// What the drop must satisfy.
    pub requirement: Spanned<Expression>,
    /// When the rule applies; `None` for always.
    pub condition: Option<Spanned<Expression>>,
}

/// `[side] must capture|drop [when CONDITION]`: an obligation on the turn's action.
#[derive(Clone, Debug, PartialEq)]
pub struct ObligationStatement {
    /// The side it binds, as written; `None` for every side.
    pub side: Option<Spanned<String>>,
    /// What the action must be.
    pub kind: Spanned<crate::definition::ObligationKind>,
    /// When the obligation binds; `None` for always.
    pub condition: Option<Spanned<ObligationCondition>>,
}

/// When an obligation binds, as written.
#[derive(Clone, Debug, PartialEq)]
pub enum ObligationCondition {
    /// `a capture is possible`, `a drop is possible`.
    Possible(crate::definition::ObligationKind),
    /// Any condition.
    When(Expression),
}

/// `counter checks { start 0; add 1 on check; fen remaining 3 }`
#[derive(Clone, Debug, PartialEq)]
pub struct CounterStatement {
    /// The `counter` keyword.
    pub keyword: Span,
    /// The counter's name, as expressions read it (`opponent checks`).
    pub name: Spanned<String>,
    /// The statements of the block.
    pub items: Vec<Spanned<CounterItem>>,
}

/// A statement inside a `counter` block; numbers as written.
#[derive(Clone, Debug, PartialEq)]
pub enum CounterItem {
    /// `start 0`
    Start(Spanned<String>),
    /// `add 1 on check`
    Add(Spanned<String>, crate::definition::CounterEvent),
    /// `fen remaining 3`
    FenRemaining(Spanned<String>),
    /// `fen count`
    FenCount,
}

/// An expression as written: names unresolved, types unchecked (see `crate::typing`).
#[derive(Clone, Debug, PartialEq)]
pub enum Expression {
    /// `7`, as written.
    Number(String),
    /// `A or B`
    Or(Box<Spanned<Expression>>, Box<Spanned<Expression>>),
    /// `A and B`
    And(Box<Spanned<Expression>>, Box<Spanned<Expression>>),
    /// `not A`
    Not(Box<Spanned<Expression>>),
    /// `A < B`
    Compare(
        Box<Spanned<Expression>>,
        Spanned<crate::expression::Comparison>,
        Box<Spanned<Expression>>,
    ),
    /// `A + B`
    Plus(Box<Spanned<Expression>>, Box<Spanned<Expression>>),
    /// `A - B`
    Minus(Box<Spanned<Expression>>, Box<Spanned<Expression>>),
    /// `A except B`
    Except(Box<Spanned<Expression>>, Box<Spanned<Expression>>),
    /// `place on S`
    PlaceOn(Box<Spanned<Expression>>),
    /// `place King`
    Place(Spanned<String>),
    /// `touch S`
    Touch(Box<Spanned<Expression>>),
    /// `move King`
    Move(Spanned<String>),
    /// `move from S`
    MoveFrom(Box<Spanned<Expression>>),
    /// `acted this turn`
    Acted,
    /// `actions this turn`
    ActionsThisTurn,
    /// `drops this turn`
    DropsThisTurn,
    /// `at turn start C`
    AtTurnStart(Box<Spanned<Expression>>),
    /// `leave an action`
    LeaveAction,
    /// `give checkmate`
    GiveCheckmate,
    /// `place stranded`
    PlaceStranded,
    /// `can act`
    CanAct,
    /// `can act without promoting`
    CanActWithoutPromoting,
    /// `after C`: C on the position after the move (move rules)
    After(Box<Spanned<Expression>>),
    /// `give check`: after the move, an opponent's royal piece is attacked (move rules)
    GiveCheck,
    /// `placement`
    Placement,
    /// `count S`
    Count(Box<Spanned<Expression>>),
    /// `sum F on S`
    Sum(Box<Spanned<Expression>>, Box<Spanned<Expression>>),
    /// `hands empty`
    HandsEmpty,
    /// `[side] hand [Piece]`
    Hand {
        /// The side, `own` when not written.
        side: Option<Spanned<SideReference>>,
        /// The piece type; every type when not written.
        piece: Option<Spanned<String>>,
    },
    /// `opponent placed Queen`
    Placed(Spanned<SideReference>, Spanned<String>),
    /// `opponent passed`: the side's last action was a pass.
    Passed(Spanned<SideReference>),
    /// `last drop of opponent`
    LastDrop(Spanned<SideReference>),
    /// `controlled by own`
    ControlledBy(Spanned<SideReference>),
    /// `attacked by opponent`
    AttackedBy(Spanned<SideReference>),
    /// `adjacent to S`
    Adjacent(Box<Spanned<Expression>>),
    /// `reach of S by "vR"`
    Reach(Box<Spanned<Expression>>, Spanned<StringLit>),
    /// `colour of S`
    ColourOf(Box<Spanned<Expression>>),
    /// `file of S`
    FileOf(Box<Spanned<Expression>>),
    /// `some S`
    Some(Box<Spanned<Expression>>),
    /// `no S`
    No(Box<Spanned<Expression>>),
    /// `legal drops`
    LegalDrops,
    /// `controllers of own`
    Controllers(Spanned<SideReference>),
    /// `control value of own`
    ControlValue(Spanned<SideReference>),
    /// `value`: the value of the piece on each square.
    PieceValue,
    /// `empty`, `occupied`, `light`, `dark`, `board`
    Squares(crate::expression::SquareConstant),
    /// `rank 2`, `last rank`, `squares e4 d5`
    Zone(Spanned<Zone>),
    /// `own King`, `any piece`: the piece name, `None` for every type.
    Pieces(Spanned<SideReference>, Option<Spanned<String>>),
}

/// A side as an expression names it.
#[derive(Clone, Debug, PartialEq)]
pub enum SideReference {
    /// `own`
    Own,
    /// `opponent`
    Opponent,
    /// `any`
    Any,
    /// `next`
    Next,
    /// `team`
    Team,
    /// `white`: a side by name.
    Named(String),
}

/// `capture { remove capturer; remove around except Pawn }`
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureStatement {
    /// The `capture` keyword.
    pub keyword: Span,
    /// The statements of the block.
    pub items: Vec<Spanned<CaptureItem>>,
}

/// A statement inside a `capture` block.
#[derive(Clone, Debug, PartialEq)]
pub enum CaptureItem {
    /// `remove capturer`
    RemoveCapturer,
    /// `remove around except Pawn`: the piece names after `except`.
    RemoveAround(Vec<Spanned<String>>),
    /// `Queen Rook to prison`, `to hand`: the piece names (none for every type) and the store.
    Store(Vec<Spanned<String>>, crate::definition::Store),
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// `gating from rank 1`: the squares whose first piece may gate a piece from the hand.
#[derive(Clone, Debug, PartialEq)]
pub struct GatingStatement {
    /// The `gating` keyword.
    pub keyword: Span,
    /// The squares, counted from each side.
    pub zone: Spanned<Zone>,
}

/// `control { en-passant standing }`
#[derive(Clone, Debug, PartialEq)]
pub struct ControlStatement {
    /// The `control` keyword.
    pub keyword: Span,
    /// The statements of the block.
    pub items: Vec<Spanned<ControlItem>>,
}

/// A statement inside a `control` block.
#[derive(Clone, Debug, PartialEq)]
pub enum ControlItem {
    /// `en-passant standing`
    EnPassantStanding,
    /// A construct not implemented yet.
    Future(FutureStatement),
}

/// `score count (controlled by own except controlled by opponent)`
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreStatement {
    /// The `score` keyword.
    pub keyword: Span,
    /// Each side's score, judged for that side.
    pub expression: Spanned<Expression>,
}

/// `end { checkmate loses }`
#[derive(Clone, Debug, PartialEq)]
pub struct EndStatement {
    /// The `end` keyword.
    pub keyword: Span,
    /// The rules of the block.
    pub rules: Vec<Spanned<EndRule>>,
}

/// A rule inside an `end` block.
#[derive(Clone, Debug, PartialEq)]
pub enum EndRule {
    /// `check`
    Check,
    /// `checkmate loses`
    Checkmate(Spanned<Verdict>),
    /// `stalemate draws`
    Stalemate(Spanned<Verdict>),
    /// `repetition 3 draws`
    Repetition {
        /// Occurrences, as written.
        count: Spanned<String>,
        /// The verdict; `None` for `by score`.
        verdict: Option<Spanned<Verdict>>,
        /// `for SIDE`: the side the verdict is for, whoever made the repetition.
        for_side: Option<Spanned<String>>,
        /// `, perpetual check VERDICT`: the verdict of a side that gave check with every move
        /// since the first occurrence.
        perpetual_check: Option<Spanned<Verdict>>,
        /// `, perpetual chase VERDICT`: the verdict of a side that chased a piece with every
        /// move since the first occurrence.
        perpetual_chase: Option<Spanned<Verdict>>,
    },
    /// `move-limit 50 draws`
    MoveLimit {
        /// Moves per side, as written.
        moves: Spanned<String>,
        /// `plies`: the number counts single actions.
        plies: bool,
        /// The verdict; `None` for `by score`.
        verdict: Option<Spanned<Verdict>>,
        /// `, plus N per check beyond M`: N and M, as written.
        checks: Option<(Spanned<String>, Spanned<String>)>,
    },
    /// `counting 16 draws when C`
    Counting {
        /// The limit in moves per side, as written.
        moves: Spanned<String>,
        /// The verdict for the side to move when the count passes the limit.
        verdict: Spanned<Verdict>,
        /// When the count runs, judged for the side to move.
        condition: Spanned<Expression>,
    },
    /// `by score when hands empty`, `loses when no own King`
    Condition {
        /// `each side`: judged for every side, not only the side to move.
        each_side: bool,
        /// `None` for `by score`.
        verdict: Option<Spanned<Verdict>>,
        /// The condition, judged for the side to move.
        condition: Spanned<Expression>,
    },
    /// `tiebreak fewest in hand`
    Tiebreak(Spanned<Tiebreak>),
    /// `material King King Bishop* on one colour draws`
    Material(MaterialStatement),
    /// `royal captured loses`
    RoyalCaptured(Spanned<Verdict>),
    /// `check when all royal pieces attacked`: `check`, where a side is in check only when
    /// every one of its royal pieces is attacked.
    CheckWhenAll,
    /// A construct not implemented yet.
    Future(FutureStatement),
}

impl EndRule {
    /// The rule's keyword, for messages about duplicates.
    pub fn keyword_text(&self) -> &str {
        match self {
            EndRule::Check | EndRule::CheckWhenAll => "check",
            EndRule::Checkmate(_) => "checkmate",
            EndRule::Stalemate(_) => "stalemate",
            EndRule::Repetition { .. } => "repetition",
            EndRule::MoveLimit { .. } => "move-limit",
            EndRule::Condition { .. } => "when",
            EndRule::Counting { .. } => "counting",
            EndRule::Material(_) => "material",
            EndRule::RoyalCaptured(_) => "royal captured",
            EndRule::Tiebreak(tiebreak) => match tiebreak.node {
                Tiebreak::FewestInHand => "tiebreak fewest in hand",
            },
            EndRule::Future(future) => &future.keyword.node,
        }
    }
}

/// `material King King Bishop* on one colour draws`
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialStatement {
    /// The pieces listed, in order, each with its quantifier.
    pub pieces: Vec<Spanned<MaterialTerm>>,
    /// The span of `on one colour`, if written.
    pub one_colour: Option<Span>,
    /// The verdict.
    pub verdict: Spanned<Verdict>,
}

/// `Knight`, `Bishop*` or `Pawn+`: a piece name as written, and how many it stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialTerm {
    /// The piece's name.
    pub piece: Spanned<String>,
    /// How many pieces of that type the term stands for.
    pub quantifier: Quantifier,
}

/// How many pieces a material term stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `Knight`: one.
    One,
    /// `Bishop*`: any number, none included.
    AnyNumber,
    /// `Pawn+`: one or more.
    OneOrMore,
}

/// A statement of the language reference that this version does not implement yet: only its
/// keyword is kept, so that validation can say "`phase` is not supported yet".
#[derive(Clone, Debug, PartialEq)]
pub struct FutureStatement {
    /// The keyword (`phase`, `score`, ...).
    pub keyword: Spanned<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn literal(raw: &str, start: usize) -> Spanned<StringLit> {
        let value = raw.replace("\\\"", "\"").replace("\\\\", "\\");
        let span = Span::new(FileId(0), start, start + raw.len() + 2);
        Spanned::new(
            StringLit {
                value,
                raw: raw.to_string(),
            },
            span,
        )
    }

    #[test]
    fn span_of_skips_the_opening_quote() {
        let moves = literal("mfW cfeF", 10);
        assert_eq!(moves.span_of(4..8), Span::new(FileId(0), 15, 19));
    }

    #[test]
    fn spans_of_maps_every_offset_once() {
        // value `a"b\é`: a(0) "(1) b(2) \(3) é(4..6); raw `a\"b\\é`: a(0) \"(1) b(3) \\(4) é(6..8)
        let text = literal(r#"a\"b\\é"#, 10);
        assert_eq!(text.node.value, "a\"b\\é");
        let starts: Vec<usize> = text
            .spans_of((0..=8).map(|offset| offset..offset))
            .iter()
            .map(|span| span.start - 11)
            .collect();
        assert_eq!(starts, [0, 1, 3, 4, 6, 7, 8, 9, 10]);
        let plain = literal("mfW cfeF", 0);
        assert_eq!(
            plain.spans_of([0..3, 4..8]),
            [Span::new(FileId(0), 1, 4), Span::new(FileId(0), 5, 9)]
        );
    }

    #[test]
    fn span_of_accounts_for_escapes() {
        let text = literal(r#"a\"b"#, 0);
        assert_eq!(text.node.value, "a\"b");
        assert_eq!(text.span_of(2..3), Span::new(FileId(0), 4, 5));
    }
}
