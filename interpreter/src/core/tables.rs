//! The compiled tables: a [`Definition`]'s board and pieces turned into flat tables, built once
//! when a game is loaded.
//!
//! Every Betza atom of every piece, for every side, becomes either a leap table (one bitboard of
//! targets per square), a lame-leap list (target plus the path that must be empty), or a ride
//! (an index into the shared [`Ray`] tables plus an optional range-limited reach), or a hop (a
//! ray whose first piece is a hurdle to jump, Betza `p` and `g`). Attacks are
//! answered backwards: for each attacking side the same atoms are inverted once, so "is this
//! square attacked?" is a handful of table lookups, grouped by direction so that a queen and a
//! rook sharing a direction cost one ray walk. Hops are kept apart from rides, in lists that
//! stay empty in games without hoppers: only games whose pieces hop pay for them.
//!
//! [`Tables`] hold what the core (positions, move generation, attacks, control, paths) reads.
//! The rules layer's [`crate::rules::Rules`] holds a `Tables` and adds the compiled
//! expressions; it dereferences to its tables, so `rules.geometry` reads the same either way.

use crate::bitboard::Bitboard;
use crate::core::index::{ByPiece, BySide, BySquare, Sq};
pub use crate::geometry::absolute;
use crate::geometry::{limited_ray, Geometry, Ray};
use crate::zobrist::Zobrist;
use std::fmt;
use variant_dsl::{Definition, Hop, MoveAtom, MoveMode, PieceId, SideId};

// The engine's limits on sides and piece types size the per-side and per-piece tables: they
// live with those tables (`index.rs`), which import nothing of the core.
pub use crate::core::index::{MAX_PIECE_TYPES, MAX_SIDES};
/// The most numbered pieces (`numbers`) of all sides together.
pub const MAX_NUMBERED: usize = 32;

/// The side slot of the position that holds the neutral piece (`neutral`): the last one, which
/// no playing side of such a game uses (validation allows it fewer sides). Kept there, the
/// piece is in every count of occupied squares, so it blocks every move and line at no cost to
/// other games, and in no side's pieces, material or control.
pub const NEUTRAL_SLOT: SideId = SideId((crate::core::index::MAX_SIDES - 1) as u8);

/// Why a definition cannot be compiled (limits of this engine, not mistakes in the file): each
/// names the limit and what the game asks of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// More sides than [`MAX_SIDES`].
    TooManySides {
        /// The game's sides.
        sides: usize,
    },
    /// More piece types than [`MAX_PIECE_TYPES`].
    TooManyPieceTypes {
        /// The game's piece types.
        pieces: usize,
    },
    /// More numbered pieces than [`MAX_NUMBERED`].
    TooManyNumbered {
        /// The game's numbered pieces, all sides together.
        numbered: usize,
    },
    /// Numbered pieces on a board of more than 255 squares.
    NumberedOnLargeBoard {
        /// The squares of the board's grid.
        squares: usize,
    },
    /// A board larger than the bitboard width it was compiled for.
    BoardTooLarge {
        /// The squares of the board's grid.
        squares: usize,
        /// The bitboard's width.
        capacity: usize,
    },
    /// More than 32 castling moves.
    TooManyCastles {
        /// The game's castling moves, all sides together.
        castles: usize,
    },
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::TooManySides { .. } => {
                write!(f, "at most {MAX_SIDES} sides are supported")
            }
            CompileError::TooManyPieceTypes { .. } => {
                write!(f, "at most {MAX_PIECE_TYPES} piece types are supported")
            }
            CompileError::TooManyNumbered { numbered } => write!(
                f,
                "{numbered} numbered pieces: at most {MAX_NUMBERED} are supported"
            ),
            CompileError::NumberedOnLargeBoard { .. } => {
                f.write_str("numbered pieces need a board of at most 255 squares")
            }
            CompileError::BoardTooLarge { .. } => {
                f.write_str("board too large for this bitboard width")
            }
            CompileError::TooManyCastles { castles } => {
                write!(f, "{castles} castling moves: at most 32 are supported")
            }
        }
    }
}

impl std::error::Error for CompileError {}

/// Targets of non-lame leaps sharing a mode and an initial-only flag, per square.
#[derive(Clone, Debug)]
pub struct LeapTable<B> {
    /// Move, capture or both.
    pub mode: MoveMode,
    /// Only from the piece's initial zone.
    pub initial_only: bool,
    /// Per square, the targets.
    pub targets: BySquare<B>,
}

/// One lame leap from one square: its target and the squares that must be empty on the way.
#[derive(Clone, Copy, Debug)]
pub struct LameLeap<B> {
    /// Target square.
    pub to: Sq,
    /// Squares that must be empty.
    pub path: B,
    /// Move, capture or both.
    pub mode: MoveMode,
    /// Only from the initial zone.
    pub initial_only: bool,
    /// The first square passed, which becomes an en-passant target after an initial move.
    pub passed: Option<Sq>,
}

/// One rider direction of a piece.
#[derive(Clone, Debug)]
pub struct Ride<B> {
    /// Index into [`Tables::rays`].
    pub ray: usize,
    /// For a limited range, the reach per square; `None` means the whole ray.
    pub reach: Option<BySquare<B>>,
    /// The range, `None` when unlimited.
    pub range: Option<u8>,
    /// Move, capture or both.
    pub mode: MoveMode,
    /// Only from the initial zone.
    pub initial_only: bool,
}

/// One hopper direction of a piece (Betza `p`, `g`): always an unlimited ride.
#[derive(Clone, Debug)]
pub struct HopRide<B> {
    /// Index into [`Tables::rays`].
    pub ray: usize,
    /// Cannon or grasshopper.
    pub hop: Hop,
    /// Move, capture or both, on the landing square.
    pub mode: MoveMode,
    /// Only from the initial zone.
    pub initial_only: bool,
    /// For a hop along a zone (`moves "pB" along zone palace-lines`), per square the squares
    /// it may land on: the ray's squares up to the zone's edge; `None` for the whole ray.
    pub reach: Option<BySquare<B>>,
}

/// How one piece type of one side moves (by default, not at all: the entry of a side that a
/// game does not have, in a [`crate::core::index::BySide`] table).
#[derive(Clone, Debug, Default)]
pub struct PieceMoves<B> {
    /// Leaps grouped by mode.
    pub leaps: Vec<LeapTable<B>>,
    /// Lame leaps, per square.
    pub lame: BySquare<Vec<LameLeap<B>>>,
    /// Rider directions.
    pub rides: Vec<Ride<B>>,
    /// Hopper directions (empty for most pieces).
    pub hops: Vec<HopRide<B>>,
    /// Piece types the hops may not jump over (`may not hop over`; empty for most pieces).
    pub no_hurdle: Vec<PieceId>,
    /// Piece types the piece may not capture (`may not capture`; empty for most pieces).
    pub no_capture: Vec<PieceId>,
    /// Per square, the squares from which an en-passant capture lands (targets of `e` atoms).
    pub en_passant: BySquare<B>,
    /// Where `i` moves are allowed.
    pub initial_zone: B,
    /// Promotion zone and choices.
    pub promotion: Option<PromotionRule<B>>,
    /// Compound paths (slides, conversions on the way), walked by [`crate::core::route::walk`].
    pub routes: Vec<crate::path::Route>,
    /// Whether some route attacks ([`crate::path::Route::attacks`]): captures along it give
    /// check and count in control.
    pub route_attacks: bool,
    /// Whether every leap and ride moves or captures alike, from any square, the rides without
    /// a range limit, and no leap is lame: the piece's targets are then one table lookup and
    /// its rides' slides ([`targets`]), as most pieces' are.
    pub simple: bool,
    /// Whether the piece has an en-passant capture (`e`): some square of
    /// [`PieceMoves::en_passant`].
    pub takes_en_passant: bool,
}

impl<B: Bitboard> PieceMoves<B> {
    /// Whether the moves are [`PieceMoves::simple`].
    fn are_simple(&self) -> bool {
        self.no_capture.is_empty()
            && self.lame.iter().all(Vec::is_empty)
            && self.hops.is_empty()
            && self.leaps.len() <= 1
            && self
                .leaps
                .iter()
                .all(|table| table.mode == MoveMode::Both && !table.initial_only)
            && self.rides.iter().all(|ride| {
                ride.reach.is_none() && ride.mode == MoveMode::Both && !ride.initial_only
            })
    }
}

impl<B: Bitboard> PieceMoves<B> {
    /// The leap table of a mode, created empty if the piece has none yet.
    pub fn leap_table(
        &mut self,
        mode: MoveMode,
        initial_only: bool,
        size: usize,
    ) -> &mut LeapTable<B> {
        let found = self
            .leaps
            .iter()
            .position(|t| t.mode == mode && t.initial_only == initial_only);
        let index = found.unwrap_or_else(|| {
            self.leaps.push(LeapTable {
                mode,
                initial_only,
                targets: BySquare::from_fn(size, |_| B::EMPTY),
            });
            self.leaps.len() - 1
        });
        &mut self.leaps[index]
    }
}

/// Where a piece promotes and to what.
#[derive(Clone, Debug)]
pub struct PromotionRule<B> {
    /// The zone.
    pub zone: B,
    /// The choices.
    pub choices: Vec<PieceId>,
    /// Which moves promote, by where they start and end relative to the zone.
    pub moves: variant_dsl::PromotionMoves,
    /// `optionally`: a promoting move may also be made without promoting.
    pub optional: bool,
    /// Where the piece, unpromoted, would be stranded (no move of it could leave): an optional
    /// promotion is forced there.
    pub stranded: B,
    /// `moves`, `optional` and `stranded` as masks, found once when the game is compiled.
    pub masks: PromotionMasks<B>,
    /// Whether a choice is a royal piece (its promotions are then each tested for the king's
    /// safety), found once when the game is compiled rather than per move generation.
    pub to_royal: bool,
}

/// A promotion rule's tests as masks of target squares, so that the move loop pays a choice
/// between two masks rather than the rule's words per move (issue 26).
#[derive(Clone, Copy, Debug)]
pub struct PromotionMasks<B> {
    /// The targets that promote of a move that starts in the zone.
    pub from_zone: B,
    /// The targets that promote of a move that starts outside the zone.
    pub from_outside: B,
    /// The promoting targets where the move may also be made without promoting.
    pub plain: B,
}

impl<B: Bitboard> PromotionMasks<B> {
    /// No target promotes: the value before [`PromotionRule::with_masks`].
    pub const NONE: PromotionMasks<B> = PromotionMasks {
        from_zone: B::EMPTY,
        from_outside: B::EMPTY,
        plain: B::EMPTY,
    };
}

impl<B: Bitboard> PromotionRule<B> {
    /// The rule with its [`PromotionMasks`] found from its zone and words.
    pub fn with_masks(mut self) -> Self {
        let (zone, moves) = (self.zone, self.moves);
        let when = |promotes: bool, mask: B| if promotes { mask } else { B::EMPTY };
        self.masks = PromotionMasks {
            from_zone: when(moves.within, zone) | when(moves.leaving, !zone),
            from_outside: when(moves.entering, zone),
            plain: when(self.optional, !self.stranded),
        };
        self
    }

    /// The targets of a move from `from` that promote.
    #[inline]
    pub fn promoting(&self, from: Sq, targets: B) -> B {
        let mask = if self.zone.has(from) {
            self.masks.from_zone
        } else {
            self.masks.from_outside
        };
        targets & mask
    }

    /// Among the promoting targets, those where the move may also be made without promoting.
    #[inline]
    pub fn also_plain(&self, promoting: B) -> B {
        promoting & self.masks.plain
    }
}

/// Leap attacks of one piece type, inverted: per target square, the squares attacking it.
#[derive(Clone, Debug)]
pub struct LeapAttack<B> {
    /// The attacking piece type.
    pub piece: PieceId,
    /// Per attacked square, the squares an attacker would stand on.
    pub sources: BySquare<B>,
    /// Attackers must stand here (initial-only captures), else the whole board.
    pub zone: B,
}

/// Rider attacks along one direction, shared by every piece type that rides it.
#[derive(Clone, Debug)]
pub struct RideAttack<B> {
    /// The ray pointing from the attacked square towards the attackers.
    pub ray: usize,
    /// Range-limited reach, per square.
    pub reach: Option<BySquare<B>>,
    /// The piece types riding this way (towards the attacked square).
    pub pieces: Vec<PieceId>,
}

/// Lame-leap attacks of one piece type, inverted.
#[derive(Clone, Debug)]
pub struct LameAttack<B> {
    /// The attacking piece type.
    pub piece: PieceId,
    /// Per attacked square, (attacker square, path that must be empty).
    pub sources: BySquare<Vec<(Sq, B)>>,
}

/// Hopper attacks along one direction, shared by the piece types hopping it alike.
#[derive(Clone, Debug)]
pub struct HopAttack<B> {
    /// The ray pointing from the attacked square towards the attackers.
    pub ray: usize,
    /// Cannon or grasshopper.
    pub hop: Hop,
    /// Attackers must stand here (initial-only captures), else the whole board.
    pub zone: B,
    /// For hops along a zone, per attacked square the squares an attacker may stand on.
    pub reach: Option<BySquare<B>>,
    /// Piece types that may not be the hurdle (`may not hop over`).
    pub no_hurdle: Vec<PieceId>,
    /// The piece types hopping this way (towards the attacked square).
    pub pieces: Vec<PieceId>,
}

/// Everything one side attacks with, inverted.
#[derive(Clone, Debug, Default)]
pub struct Attacks<B> {
    /// Leap attacks.
    pub leaps: Vec<LeapAttack<B>>,
    /// Rider attacks.
    pub rides: Vec<RideAttack<B>>,
    /// Lame attacks.
    pub lame: Vec<LameAttack<B>>,
    /// Hopper attacks (empty in games without hoppers).
    pub hops: Vec<HopAttack<B>>,
}

/// The pieces' parts in `perpetual chase` (§2.12), compiled from their `chase strength`, `never
/// chases` and `chased in` statements: what [`crate::core::chase`] reads after every action.
#[derive(Clone, Debug)]
pub struct ChaseTable<B> {
    /// Per piece type, whether its attacks can be a chase: not royal, not `never chases`.
    pub chases: ByPiece<bool>,
    /// Per side and piece type, the squares where such a piece can be chased: none for a royal
    /// piece, its `chased in` zone, else the whole board.
    pub chased_on: BySide<ByPiece<B>>,
    /// Per piece type, its `chase strength`.
    pub strength: ByPiece<Option<u32>>,
}

impl<B: Bitboard> ChaseTable<B> {
    /// The table of a game whose repetition rule has `perpetual chase`; `None` for the others.
    fn compile(definition: &variant_dsl::Definition, geometry: &Geometry<B>) -> Option<Self> {
        definition.end.repetition?.perpetual_chase?;
        let piece = |id: PieceId| definition.pieces.get(id.index());
        Some(ChaseTable {
            chases: ByPiece::from_fn(|id| {
                piece(id).is_some_and(|p| !p.royal && !p.chase.never_chases)
            }),
            chased_on: BySide::from_fn(|side| {
                ByPiece::from_fn(|id| match piece(id) {
                    None => B::EMPTY,
                    Some(p) if p.royal => B::EMPTY,
                    Some(p) => p.chase.chased_in.as_ref().map_or(geometry.board, |zone| {
                        zone.get(side.index())
                            .map_or(B::EMPTY, |squares| geometry.mask(squares))
                    }),
                })
            }),
            strength: ByPiece::from_fn(|id| piece(id).and_then(|p| p.chase.strength)),
        })
    }
}

/// A castling move, compiled.
#[derive(Clone, Debug)]
pub struct Castle<B> {
    /// The side.
    pub side: SideId,
    /// The king's type when the castling names it; else a royal piece castles.
    pub king_piece: Option<PieceId>,
    /// The rook's type when the castling names it; else any piece of the side castles.
    pub rook_piece: Option<PieceId>,
    /// King from.
    pub king_from: Sq,
    /// King to.
    pub king_to: Sq,
    /// Rook from.
    pub rook_from: Sq,
    /// Rook to.
    pub rook_to: Sq,
    /// Squares that must be empty (besides the king and the rook themselves).
    pub empty: B,
    /// Squares the king stands on, crosses or reaches: none may be attacked.
    pub king_path: Vec<Sq>,
    /// The right is gained when a drop leaves the king and the rook on their start squares.
    pub when_placed: bool,
}

impl<B> Castle<B> {
    /// Whether a piece of this type castles as the king: the type named, else a royal one.
    pub fn king_is(&self, piece: PieceId, royal: &[PieceId]) -> bool {
        self.king_piece
            .map_or_else(|| royal.contains(&piece), |named| named == piece)
    }

    /// Whether a piece of this type castles as the rook: the type named, else any.
    pub fn rook_is(&self, piece: PieceId) -> bool {
        self.rook_piece.is_none_or(|named| named == piece)
    }
}

/// The compiled tables of a game: what the core reads.
#[derive(Clone, Debug)]
pub struct Tables<B> {
    /// The definition it was compiled from.
    pub(super) definition: Definition,
    /// The board.
    pub(super) geometry: Geometry<B>,
    /// Number of sides.
    pub(super) sides: usize,
    /// Number of piece types.
    pub(super) pieces: usize,
    /// Shared ray tables.
    pub(super) rays: Vec<Ray<B>>,
    /// Movement per (side, piece): index `side * pieces + piece`.
    pub(super) movement: Vec<PieceMoves<B>>,
    /// Attacks per attacking side.
    pub(super) attacks: BySide<Attacks<B>>,
    /// Castling moves, in definition order.
    pub(super) castles: Vec<Castle<B>>,
    /// Per square, the castling rights lost when a move starts or ends there.
    pub(super) castle_loss: BySquare<u32>,
    /// Per square, the castling rights (`when placed`) a drop there may gain.
    pub(super) castle_gain: BySquare<u32>,
    /// Royal piece types.
    pub(super) royal: Vec<PieceId>,
    /// Piece types no action captures (`uncapturable`).
    pub(super) uncapturable: Vec<PieceId>,
    /// The neutral piece type (`neutral`), kept in the side slot [`NEUTRAL_SLOT`]; `None` in
    /// most games, whose moves then never look for it.
    pub(super) neutral: Option<PieceId>,
    /// Irreversible piece types (reset the move-limit counter).
    pub(super) irreversible: ByPiece<bool>,
    /// Piece types whose drops reset the move-limit counter: the irreversible ones, or every
    /// type where the `drops` block says `irreversible`.
    pub(super) drop_irreversible: ByPiece<bool>,
    /// Piece types dropped from an endless supply (`supply`), a bit per type: every side
    /// always holds one of each in hand, which no setup shows.
    pub(super) supply: u32,
    /// Piece types whose landing converts the enemy pieces around (`converts around`), a bit
    /// per type; 0 in most games, which then pay nothing.
    pub(super) converts_around: u32,
    /// Whether pins and checks computed from leaps and rides decide legality exactly (no lame
    /// attackers whose path a move could open).
    pub(super) pins_suffice: bool,
    /// Whether, where pins do not suffice, legality is decided from the screens of the royal
    /// piece ([`crate::core::legality::screens`]) rather than by testing every move (off only
    /// in tests that compare the two).
    pub(super) screens: bool,
    /// Whether captures explode and shield touching royal pieces, and the rest of the rules let
    /// legality be judged from that ([`crate::core::legality::explosion_shield`]).
    pub(super) explosion_shield: bool,
    /// Whether a plain move or a promotion on the board changes nothing of the board but its
    /// two squares (no capture effects, no conversions around the target) and every attack is an
    /// ordinary move's (no attacking routes): the legality test and the move rules judged after
    /// the move then read the board it leaves without playing it
    /// ([`crate::core::board::AfterMove`]).
    pub(super) board_moves: bool,
    /// Hash keys.
    pub(super) zobrist: Zobrist,
    /// Per square, its (up to 8) neighbours: "touching".
    pub(super) neighbours: BySquare<B>,
    /// The neighbours of many squares at once: per King step, the squares it stays on the
    /// board from and how far it moves a square's index, up (the first four) or down.
    pub(super) neighbour_steps: [(B, u32); 8],
    /// The squares next to some square of the board: the squares around the whole board.
    pub(super) around_board: B,
    /// Per side whose piece would be the victim, per passed square: the (landing square, piece
    /// type) of initial lame moves passing it, for `en-passant standing` control.
    pub(super) standing_en_passant: BySide<BySquare<Vec<(Sq, PieceId)>>>,
    /// Whether captures have effects (`capture` rules): check and legality then take them in.
    pub(super) capture_effects: bool,
    /// Whether a turn may have several actions (`turn { up to N actions }`, N > 1).
    pub(super) multi_action: bool,
    /// `gating`: a piece first leaving a gating square may have a piece of the hand placed on
    /// the square it left ([`crate::moves::Move::gate`]).
    pub(super) gating: bool,
    /// Whether a side whose hand is empty keeps its gating rights (captures fill hands).
    pub(super) gates_kept_without_hand: bool,
    /// Per piece type, where its captured pieces go (`capture { ... to hand }`).
    pub(super) stores: ByPiece<Option<variant_dsl::Store>>,
    /// Per piece type, the type a promoted piece of it goes back to when captured into a hand:
    /// the first piece type that promotes to it (itself when none does).
    pub(super) unpromoted: ByPiece<PieceId>,
    /// Per piece type, whether it is a promoted form (`letter +P`): always demoted when captured
    /// into a hand, and never marked `~`.
    pub(super) promoted_form: ByPiece<bool>,
    /// Whether promoted pieces are marked (some captures go to the hand).
    pub(super) tracks_promotion: bool,
    /// Whether captured pieces can come back (into a hand or a prison): repetition then looks
    /// back over the whole game, not only since the last capture.
    pub(super) pieces_return: bool,
    /// Whether positions count each side's checks in a row (`repetition ..., perpetual check`):
    /// a repetition then tells who checked with every move of the cycle.
    pub(super) tracks_checks: bool,
    /// `repetition ..., perpetual chase VERDICT`: the pieces' parts in a chase, compiled;
    /// positions then follow each side's chases.
    pub(super) chase: Option<ChaseTable<B>>,
    /// Whether positions keep a turn's progress: turns of several actions or `at turn start`
    /// (set by [`crate::rules::Rules::compile`], which knows the `at turn start` conditions).
    pub(super) tracks_turns: bool,
    /// `exchange prisoners` at the end of every turn.
    pub(super) exchanges_prisoners: bool,
    /// Whether some rule reads the sides' last drops: they are then hashed.
    pub(super) reads_last_drop: bool,
    /// Whether some side numbers its pieces (`numbers`): positions then carry the numbers.
    pub(super) numbered: bool,
    /// Whether the game keeps counters (`counter`): actions then count their events.
    pub(super) counts: bool,
    /// Whether positions remember which sides passed last (`may pass`: `opponent passed`).
    pub(super) tracks_passes: bool,
    /// Per side, where its numbered pieces start in a position's table of numbers.
    pub(super) number_base: BySide<u8>,
    /// Whether the turn order names a side more than once: the place in it is then hashed.
    pub(super) cycle_repeats: bool,
    /// Per attacking side, the piece types with attacking routes (empty in most games).
    pub(super) route_attackers: BySide<Vec<PieceId>>,
    /// Per side, its allies as a bit mask (itself included): `team` statements.
    pub(super) allies: BySide<u8>,
    /// Whether any side has an ally: royal pieces are then judged per team.
    pub(super) teams: bool,
    /// No teams and no uncapturable pieces: a side's moves are blocked by its own pieces only.
    pub(super) plain_sides: bool,
}

impl<B> Tables<B> {
    /// The definition the tables were compiled from.
    #[inline]
    pub fn definition(&self) -> &Definition {
        &self.definition
    }

    /// The board.
    #[inline]
    pub fn geometry(&self) -> &Geometry<B> {
        &self.geometry
    }

    /// The number of sides.
    #[inline]
    pub fn sides(&self) -> usize {
        self.sides
    }

    /// The number of piece types.
    #[inline]
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The slot of a side's piece number in a position's table of numbers.
    #[inline]
    pub fn number_slot(&self, side: SideId, number: u8) -> Option<usize> {
        let count = self.definition.sides.get(side.index())?.numbers.len();
        (number >= 1 && usize::from(number) <= count)
            .then(|| self.number_base[side] as usize + usize::from(number) - 1)
    }

    /// Whether `other` is an enemy of `side` (not on its team).
    #[inline(always)]
    pub fn is_enemy(&self, side: SideId, other: SideId) -> bool {
        self.allies[side] >> other.0 & 1 == 0
    }

    /// The sides, in index order.
    #[inline]
    pub fn side_ids(&self) -> impl DoubleEndedIterator<Item = SideId> + Clone {
        crate::core::index::sides(self.sides)
    }

    /// The piece types, in index order.
    #[inline]
    pub fn piece_ids(&self) -> impl DoubleEndedIterator<Item = PieceId> + Clone {
        crate::core::index::pieces(self.pieces)
    }
}

impl<B: Bitboard> Tables<B> {
    /// The movement of Betza atoms that no piece has (`reach of S by "vR"`), one per side
    /// (directions are each side's), with the rays it needs added to the tables'.
    pub(crate) fn movement_of(&mut self, atoms: &[MoveAtom]) -> Vec<PieceMoves<B>> {
        let mut builder = Builder {
            geometry: &self.geometry,
            rays: std::mem::take(&mut self.rays),
        };
        let moves = (0..self.sides)
            .map(|side| builder.atoms_moves(self.definition.sides[side].forward, atoms))
            .collect();
        self.rays = builder.rays;
        moves
    }

    /// Compiles a definition whose board fits this bitboard width.
    pub fn compile(definition: &Definition) -> Result<Self, CompileError> {
        let sides = definition.sides.len();
        let pieces = definition.pieces.len();
        if sides > MAX_SIDES {
            return Err(CompileError::TooManySides { sides });
        }
        if pieces > MAX_PIECE_TYPES {
            return Err(CompileError::TooManyPieceTypes { pieces });
        }
        let numbered: usize = definition.sides.iter().map(|side| side.numbers.len()).sum();
        if numbered > MAX_NUMBERED {
            return Err(CompileError::TooManyNumbered { numbered });
        }
        // Checked before the geometry is built: its squares are bits of `B`.
        if definition.board.files as usize * definition.board.ranks as usize > B::CAPACITY {
            return Err(CompileError::BoardTooLarge {
                squares: definition.board.files as usize * definition.board.ranks as usize,
                capacity: B::CAPACITY,
            });
        }
        let geometry = Geometry::<B>::new(&definition.board);
        if numbered > 0 && geometry.grid_size() > 255 {
            return Err(CompileError::NumberedOnLargeBoard {
                squares: geometry.grid_size(),
            });
        }
        let mut builder = Builder {
            geometry: &geometry,
            rays: Vec::new(),
        };
        let mut movement = Vec::with_capacity(sides * pieces);
        for side in 0..sides {
            for piece in &definition.pieces {
                movement.push(builder.piece_moves(definition, side, piece));
            }
        }
        let attacks = BySide::from_fn(|side| match side.index() {
            side if side < sides => builder.attacks(&movement[side * pieces..(side + 1) * pieces]),
            _ => Attacks::default(),
        });
        let castles = compile_castles(definition, &geometry);
        if castles.len() > 32 {
            return Err(CompileError::TooManyCastles {
                castles: castles.len(),
            });
        }
        let mut castle_loss = BySquare::from_fn(geometry.grid_size(), |_| 0u32);
        for (index, castle) in castles.iter().enumerate() {
            castle_loss[castle.king_from] |= 1 << index;
            castle_loss[castle.rook_from] |= 1 << index;
        }
        let mut castle_gain = BySquare::from_fn(geometry.grid_size(), |_| 0u32);
        for (index, castle) in castles.iter().enumerate().filter(|(_, c)| c.when_placed) {
            castle_gain[castle.king_from] |= 1 << index;
            castle_gain[castle.rook_from] |= 1 << index;
        }
        let royal: Vec<PieceId> = definition
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, p)| p.royal)
            .map(|(i, _)| PieceId(i as u8))
            .collect();
        for rule in movement.iter_mut().filter_map(|m| m.promotion.as_mut()) {
            rule.to_royal = rule.choices.iter().any(|choice| royal.contains(choice));
        }
        // Capture effects can remove the mover's own royal piece with any capture: every move is
        // then tested by playing it.
        // A hopper's attack opens and closes as pieces enter or leave its line on either side of
        // its hurdle: no pin describes that, so games with capturing hoppers play every move.
        let pins_suffice = !definition.capture.any()
            && movement.iter().all(|m: &PieceMoves<B>| {
                m.lame
                    .iter()
                    .flatten()
                    .all(|leap| leap.mode == MoveMode::MoveOnly)
                    && m.hops.iter().all(|hop| hop.mode == MoveMode::MoveOnly)
                    && !m.route_attacks
            });
        let route_attackers = BySide::from_fn(|side| {
            (0..pieces)
                .map(PieceId::new)
                .filter(|&piece| {
                    side.index() < sides
                        && movement[side.index() * pieces + piece.index()].route_attacks
                })
                .collect()
        });
        let board_moves = !definition.capture.any()
            && piece_mask(definition, |piece| piece.converts_around) == 0
            && route_attackers.iter().all(Vec::is_empty);
        let zobrist = Zobrist::new(sides, pieces, geometry.grid_size(), castles.len());
        let neighbours = BySquare::from_fn(geometry.grid_size(), |square| {
            let mut around = B::EMPTY;
            for (dx, dy) in crate::geometry::KING_STEPS {
                if let Some(next) = geometry.step(square, dx, dy) {
                    around |= B::single(next);
                }
            }
            around
        });
        let mut steps = crate::geometry::KING_STEPS.map(|(dx, dy)| {
            let shift = dy * geometry.files as i32 + dx;
            let from = geometry
                .grid()
                .filter(|&square| geometry.step(square, dx, dy).is_some())
                .fold(B::EMPTY, |acc, square| acc | B::single(square));
            (from, shift)
        });
        // Four steps move up, four down (opposite steps): the up ones first.
        steps.sort_by_key(|&(_, shift)| std::cmp::Reverse(shift));
        let neighbour_steps = steps.map(|(from, shift)| (from, shift.unsigned_abs()));
        let around_board = geometry
            .board
            .squares()
            .fold(B::EMPTY, |acc, square| acc | neighbours[square]);
        let standing_en_passant = BySide::from_fn(|side| match side.index() {
            side if side < sides => {
                standing_en_passant(&geometry, &movement[side * pieces..(side + 1) * pieces])
            }
            _ => BySquare::default(),
        });
        let chase = ChaseTable::compile(definition, &geometry);
        let tables = Tables {
            chase,
            definition: definition.clone(),
            rays: builder.rays,
            geometry,
            sides,
            pieces,
            movement,
            attacks,
            castles,
            castle_loss,
            castle_gain,
            royal,
            irreversible: ByPiece::from_fn(|piece| {
                definition
                    .pieces
                    .get(piece.index())
                    .is_some_and(|p| p.irreversible)
            }),
            drop_irreversible: ByPiece::from_fn(|piece| {
                definition
                    .pieces
                    .get(piece.index())
                    .is_some_and(|p| p.irreversible || definition.drops.irreversible)
            }),
            pins_suffice,
            screens: true,
            explosion_shield: false,
            board_moves,
            zobrist,
            around_board,
            neighbours,
            neighbour_steps,
            standing_en_passant,
            capture_effects: definition.capture.any(),
            multi_action: definition.turn.actions > 1,
            stores: ByPiece::from_fn(|piece| {
                (piece.index() < pieces)
                    .then(|| definition.capture.store(piece))
                    .flatten()
            }),
            unpromoted: ByPiece::from_fn(|piece| {
                if let Some(base) = definition.base_of(variant_dsl::PieceId(piece.0)) {
                    return PieceId::new(base.0 as usize);
                }
                definition
                    .pieces
                    .iter()
                    .position(|p| {
                        p.promotion
                            .as_ref()
                            .is_some_and(|rule| rule.may_become(piece))
                    })
                    .map_or(piece, PieceId::new)
            }),
            promoted_form: ByPiece::from_fn(|piece| {
                definition
                    .pieces
                    .get(piece.index())
                    .is_some_and(|p| p.promoted_form)
            }),
            tracks_promotion: definition
                .capture
                .stores
                .contains(&Some(variant_dsl::Store::Hand)),
            pieces_return: definition.capture.stores.iter().any(Option::is_some),
            tracks_checks: definition
                .end
                .repetition
                .is_some_and(|repetition| repetition.perpetual_check.is_some()),
            tracks_turns: false,
            gating: definition.gating.is_some(),
            gates_kept_without_hand: variant_dsl::GatingDef::kept_without_hand(definition),
            exchanges_prisoners: definition.turn.exchange_prisoners,
            reads_last_drop: definition.reads_last_drop(),
            uncapturable: crate::core::index::pieces(pieces)
                .filter(|&p| definition.pieces[p.index()].uncapturable)
                .collect(),
            neutral: definition.neutral_piece(),
            supply: piece_mask(definition, |piece| piece.supply),
            converts_around: piece_mask(definition, |piece| piece.converts_around),
            number_base: {
                let mut base = BySide::splat(0u8);
                let mut next = 0usize;
                for (side, def) in definition.sides.iter().enumerate() {
                    base[SideId::new(side)] = next as u8;
                    next += def.numbers.len();
                }
                base
            },
            numbered: definition.sides.iter().any(|side| !side.numbers.is_empty()),
            counts: !definition.counters.is_empty(),
            tracks_passes: definition.turn.may_pass,
            cycle_repeats: {
                let order = &definition.turn_order;
                (0..order.len()).any(|i| order[..i].contains(&order[i]))
            },
            allies: {
                let mut allies = BySide::splat(0u8);
                for (side, mask) in allies.iter_mut().enumerate().take(sides) {
                    for other in 0..sides {
                        if definition.allied(SideId(side as u8), SideId(other as u8)) {
                            *mask |= 1 << other;
                        }
                    }
                }
                allies
            },
            teams: !definition.teams.is_empty(),
            route_attackers,
            plain_sides: definition.teams.is_empty()
                && !definition
                    .pieces
                    .iter()
                    .any(|piece| piece.uncapturable || piece.neutral),
        };
        Ok(tables)
    }

    /// Movement of one piece type for one side.
    #[inline]
    pub fn moves_of(&self, side: SideId, piece: PieceId) -> &PieceMoves<B> {
        &self.movement[side.index() * self.pieces + piece.index()]
    }
}

/// What the layers above read of the tables: the fields stay the core's, so a table can change
/// shape without its readers noticing; each reader asks one question here.
impl<B: Bitboard> Tables<B> {
    /// The royal piece types.
    #[inline]
    pub fn royal(&self) -> &[PieceId] {
        &self.royal
    }

    /// The piece types no action captures (`uncapturable`).
    #[inline]
    pub fn uncapturable(&self) -> &[PieceId] {
        &self.uncapturable
    }

    /// The neutral piece type (`neutral`), if the game has one.
    #[inline]
    pub fn neutral(&self) -> Option<PieceId> {
        self.neutral
    }

    /// Whether a turn may have several actions (`turn { up to N actions }`, N > 1).
    #[inline(always)]
    pub fn multi_action(&self) -> bool {
        self.multi_action
    }

    /// The castling moves, in definition order.
    #[inline]
    pub fn castles(&self) -> &[Castle<B>] {
        &self.castles
    }

    /// The shared ray tables that rides and hops index ([`Ride::ray`], [`HopRide::ray`]).
    #[inline]
    pub fn rays(&self) -> &[Ray<B>] {
        &self.rays
    }

    /// The movement of every (side, piece) pair, side-major.
    #[inline]
    pub fn movements(&self) -> &[PieceMoves<B>] {
        &self.movement
    }

    /// The attacks of one attacking side.
    #[inline]
    pub fn attacks_of(&self, side: SideId) -> &Attacks<B> {
        &self.attacks[side]
    }

    /// Whether pins and checks computed from leaps and rides decide legality exactly.
    #[inline]
    pub fn pins_suffice(&self) -> bool {
        self.pins_suffice
    }

    /// Whether captured pieces can come back (into a hand or a prison).
    #[inline]
    pub fn pieces_return(&self) -> bool {
        self.pieces_return
    }

    /// Piece types dropped from an endless supply (`supply`), a bit per type.
    #[inline]
    pub fn supply(&self) -> u32 {
        self.supply
    }

    /// Piece types whose landing converts the enemy pieces around (`converts around`), a bit
    /// per type.
    #[inline]
    pub fn converts_around(&self) -> u32 {
        self.converts_around
    }

    /// A side's allies as a bit mask, itself included (`team` statements).
    #[inline(always)]
    pub fn allies(&self, side: SideId) -> u8 {
        self.allies[side]
    }

    /// Whether the game keeps counters (`counter`).
    #[inline(always)]
    pub fn counts(&self) -> bool {
        self.counts
    }

    /// Whether captures have effects (`capture` rules).
    #[inline]
    pub fn capture_effects(&self) -> bool {
        self.capture_effects
    }

    /// Per piece type, where its captured pieces go (`capture { ... to hand }`).
    #[inline]
    pub fn stores(&self) -> &ByPiece<Option<variant_dsl::Store>> {
        &self.stores
    }

    /// Whether plain moves change only their two squares ([`crate::core::board::AfterMove`]).
    #[inline]
    pub fn board_moves(&self) -> bool {
        self.board_moves
    }

    /// Whether `gating` is on.
    #[inline(always)]
    pub fn gating(&self) -> bool {
        self.gating
    }

    /// Whether positions count each side's checks in a row (`perpetual check`).
    #[inline(always)]
    pub fn tracks_checks(&self) -> bool {
        self.tracks_checks
    }

    /// Whether positions follow the sides' chases (`perpetual chase`).
    #[inline(always)]
    pub fn follows_chases(&self) -> bool {
        self.chase.is_some()
    }

    /// Per square, its (up to 8) neighbours: "touching".
    #[inline(always)]
    pub fn neighbours(&self) -> &BySquare<B> {
        &self.neighbours
    }

    /// The neighbours of many squares at once: per King step, the squares it stays on the
    /// board from and how far it moves a square's index, up (the first four) or down.
    #[inline(always)]
    pub fn neighbour_steps(&self) -> &[(B, u32); 8] {
        &self.neighbour_steps
    }

    /// The squares next to some square of the board.
    #[inline(always)]
    pub fn around_board(&self) -> B {
        self.around_board
    }

    /// Decides how legality is judged: from pins and screens where the tables allow it
    /// (`pins`), and from explosion shields where `shield` says the rules allow it
    /// ([`crate::core::legality::explosion_shield`]); with `pins` off (tests comparing the
    /// two), by playing moves.
    pub(crate) fn use_pins(&mut self, pins: bool, shield: bool) {
        self.pins_suffice &= pins;
        self.screens = pins;
        self.explosion_shield = pins && shield;
    }

    /// Sets whether positions keep a turn's progress: turns of several actions, or some
    /// `at turn start` condition (`turn_start`, which the rules layer knows).
    pub(crate) fn track_turns(&mut self, turn_start: bool) {
        self.tracks_turns = self.multi_action || turn_start;
    }
}

/// The squares of the pieces a piece may not jump over and may not capture (`may not hop
/// over`, `may not capture`), read from the pieces' squares by type: both empty for most pieces.
#[derive(Clone, Copy, Debug)]
pub struct Barred<B> {
    /// Pieces that may not be a hurdle.
    pub hurdles: B,
    /// Pieces that may not be captured.
    pub prey: B,
}

impl<B: Bitboard> Barred<B> {
    /// Nothing barred.
    pub const NONE: Barred<B> = Barred {
        hurdles: B::EMPTY,
        prey: B::EMPTY,
    };

    /// What `moves` bars, with the squares of each piece type given by `typed` (nothing for a
    /// [`PieceMoves::simple`] piece: it has no hops and may capture anything).
    #[inline]
    pub fn of(moves: &PieceMoves<B>, typed: impl Fn(PieceId) -> B) -> Self {
        if moves.simple || (moves.no_hurdle.is_empty() && moves.no_capture.is_empty()) {
            return Barred::NONE;
        }
        let squares = |types: &[PieceId]| types.iter().fold(B::EMPTY, |acc, &p| acc | typed(p));
        Barred {
            hurdles: squares(&moves.no_hurdle),
            prey: squares(&moves.no_capture),
        }
    }
}

/// The piece types for which `test` holds, a bit per type.
fn piece_mask(definition: &Definition, test: impl Fn(&variant_dsl::PieceDef) -> bool) -> u32 {
    definition
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, piece)| test(piece))
        .fold(0, |mask, (index, _)| mask | 1 << index)
}

/// Pseudo-legal targets of one piece (here rather than in [`crate::movegen`], which calls it
/// most, because attacks and control ask it too: a function of the tables alone).
#[inline]
pub(crate) fn targets<B: Bitboard>(
    rules: &Tables<B>,
    moves: &PieceMoves<B>,
    from: Sq,
    own: B,
    enemy: B,
    occupied: B,
) -> B {
    targets_barred(rules, moves, from, own, enemy, occupied, Barred::NONE)
}

/// [`targets`] of a piece that may not hop over or capture the pieces `barred` (a janggi
/// cannon): a hop whose hurdle is barred does not land, and a barred piece is not taken.
///
/// A [`PieceMoves::simple`] piece's targets (most pieces') are computed where they are asked
/// for, without a call; the others' in [`general_targets`]. Why: called per piece per node, the
/// call itself (seven arguments, two of them on the stack) had cost chess perft 5% of its
/// instructions.
#[inline(always)]
pub(crate) fn targets_barred<B: Bitboard>(
    rules: &Tables<B>,
    moves: &PieceMoves<B>,
    from: Sq,
    own: B,
    enemy: B,
    occupied: B,
    barred: Barred<B>,
) -> B {
    if moves.simple {
        let mut targets = moves
            .leaps
            .first()
            .map_or(B::EMPTY, |table| table.targets[from]);
        for ride in &moves.rides {
            let ray = &rules.rays[ride.ray];
            targets |= ray.slide(ray.beyond[from], occupied);
        }
        return targets & !own;
    }
    general_targets(rules, moves, from, (own, enemy, occupied), &barred)
}

/// [`targets_barred`] of a piece that is not [`PieceMoves::simple`]: modes, initial-only and
/// lame leaps, limited rides, hops, barred pieces.
#[inline(never)]
fn general_targets<B: Bitboard>(
    rules: &Tables<B>,
    moves: &PieceMoves<B>,
    from: Sq,
    (own, enemy, occupied): (B, B, B),
    barred: &Barred<B>,
) -> B {
    let initial = moves.initial_zone.has(from);
    let allowed = |mode: MoveMode| match mode {
        MoveMode::Both => !own,
        MoveMode::MoveOnly => !occupied,
        MoveMode::CaptureOnly => enemy,
    };
    let mut targets = B::EMPTY;
    for table in &moves.leaps {
        if !table.initial_only || initial {
            targets |= table.targets[from] & allowed(table.mode);
        }
    }
    for leap in &moves.lame[from] {
        if (!leap.initial_only || initial)
            && (leap.path & occupied).is_empty()
            && allowed(leap.mode).has(leap.to)
        {
            targets |= B::single(leap.to);
        }
    }
    for ride in &moves.rides {
        if ride.initial_only && !initial {
            continue;
        }
        let ray = &rules.rays[ride.ray];
        let reach = match &ride.reach {
            Some(reach) => reach[from],
            None => ray.beyond[from],
        };
        targets |= ray.slide(reach, occupied) & allowed(ride.mode);
    }
    for hop in &moves.hops {
        if !hop.initial_only || initial {
            let ray = &rules.rays[hop.ray];
            let mut lands = ray.hop(hop.hop, from, occupied);
            if barred.hurdles.any() {
                // Landing squares past a barred hurdle are not landing squares once the barred
                // pieces are taken away: the hurdle found then lies further.
                lands &= ray.hop(hop.hop, from, occupied & !barred.hurdles);
            }
            if let Some(reach) = &hop.reach {
                lands &= reach[from];
            }
            targets |= lands & allowed(hop.mode);
        }
    }
    targets & !barred.prey
}

/// Where a movement applies from and where it may land (`moves ... in`, `confined to`), and for
/// a movement along a zone (`moves ... along`) the zone every square it passes must be in.
#[derive(Clone, Copy)]
struct Region<B> {
    from: B,
    to: B,
    along: Option<B>,
}

impl<B: Bitboard> Region<B> {
    /// Per square, the squares a ride or hop from it may reach along `(dx, dy)`: from a square
    /// of the region, the ray's squares while they stay in its `along` zone (and, for a ride,
    /// where it may land, so that the squares stay a prefix of the ray).
    fn reach(&self, geometry: &Geometry<B>, dx: i32, dy: i32, ride: bool) -> BySquare<B> {
        let lane = self.along.unwrap_or(geometry.board);
        let lane = if ride { lane & self.to } else { lane };
        geometry
            .grid()
            .map(|from| {
                let mut squares = B::EMPTY;
                if !self.from.has(from) {
                    return squares;
                }
                let mut at = from;
                while let Some(next) = geometry.step(at, dx, dy).filter(|&next| lane.has(next)) {
                    squares |= B::single(next);
                    at = next;
                }
                if ride {
                    squares
                } else {
                    squares & self.to
                }
            })
            .collect()
    }
}

/// Per square, the squares from which a ride or hop with these per-square `reach`es reaches it.
fn inverted<B: Bitboard>(reach: &BySquare<B>) -> BySquare<B> {
    let mut sources = BySquare::from_fn(reach.len(), |_| B::EMPTY);
    for (from, targets) in reach.pairs() {
        for to in targets.squares() {
            sources[to] |= B::single(from);
        }
    }
    sources
}

struct Builder<'g, B> {
    geometry: &'g Geometry<B>,
    rays: Vec<Ray<B>>,
}

impl<B: Bitboard> Builder<'_, B> {
    fn ray_index(&mut self, dx: i32, dy: i32) -> usize {
        if let Some(found) = self.rays.iter().position(|r| r.dx == dx && r.dy == dy) {
            return found;
        }
        self.rays.push(Ray::new(self.geometry, dx, dy));
        self.rays.len() - 1
    }

    fn piece_moves(
        &mut self,
        def: &Definition,
        side: usize,
        piece: &variant_dsl::PieceDef,
    ) -> PieceMoves<B> {
        let forward = def.sides[side].forward;
        let size = self.geometry.grid_size();
        let mut moves = PieceMoves {
            leaps: Vec::new(),
            lame: BySquare::from_fn(size, |_| Vec::new()),
            rides: Vec::new(),
            hops: Vec::new(),
            no_hurdle: piece.no_hurdle.iter().map(|p| PieceId(p.0)).collect(),
            no_capture: piece.no_capture.iter().map(|p| PieceId(p.0)).collect(),
            en_passant: BySquare::from_fn(size, |_| B::EMPTY),
            initial_zone: piece
                .initial_zone
                .get(side)
                .map_or(B::EMPTY, |zone| self.geometry.mask(zone)),
            promotion: piece.promotion.as_ref().map(|promotion| {
                PromotionRule {
                    zone: promotion
                        .zone
                        .get(side)
                        .map_or(B::EMPTY, |z| self.geometry.mask(z)),
                    choices: promotion.choices_for(SideId(side as u8)).to_vec(),
                    moves: promotion.moves,
                    optional: promotion.optional,
                    stranded: def.pieces.iter().position(|p| p == piece).map_or(
                        B::EMPTY,
                        |index| {
                            self.geometry.mask(&def.stranded_squares(
                                variant_dsl::SideId(side as u8),
                                variant_dsl::PieceId(index as u8),
                            ))
                        },
                    ),
                    masks: PromotionMasks::NONE,
                    to_royal: false,
                }
                .with_masks()
            }),
            routes: Vec::new(),
            route_attacks: false,
            simple: false,
            takes_en_passant: false,
        };
        for (region, atoms) in self.regions(side, piece) {
            for atom in atoms {
                for step in &atom.steps {
                    let (dx, dy) = absolute(forward, step.right, step.forward);
                    self.add_atom(&mut moves, atom, dx, dy, region);
                }
            }
        }
        let paths = crate::path::compile_paths(self.geometry, &piece.paths, forward);
        for leap in paths.leaps {
            if leap.path.is_empty() {
                let table = moves.leap_table(leap.mode, false, self.geometry.grid_size());
                table.targets[Sq::new(leap.from)] |= B::single(Sq::new(leap.to));
            } else {
                moves.lame[Sq::new(leap.from)].push(LameLeap {
                    to: Sq::new(leap.to),
                    path: leap.path,
                    mode: leap.mode,
                    initial_only: false,
                    passed: None,
                });
            }
        }
        moves.routes.extend(paths.routes);
        if let Some(zone) = &piece.en_passant_zone {
            // `en-passant on ZONE`: a square passed outside the zone is no target.
            let zone = zone
                .get(side)
                .map_or(B::EMPTY, |squares| self.geometry.mask(squares));
            for leap in moves.lame.iter_mut().flatten() {
                leap.passed = leap.passed.filter(|&square| zone.has(square));
            }
        }
        moves.simple = moves.are_simple();
        moves.route_attacks = moves.routes.iter().any(crate::path::Route::attacks);
        moves.takes_en_passant = moves.en_passant.iter().any(|squares| squares.any());
        moves
    }

    /// The movement of Betza atoms alone: no initial zone, no promotion, no paths.
    fn atoms_moves(&mut self, forward: variant_dsl::Forward, atoms: &[MoveAtom]) -> PieceMoves<B> {
        let size = self.geometry.grid_size();
        let mut moves = PieceMoves {
            leaps: Vec::new(),
            lame: BySquare::from_fn(size, |_| Vec::new()),
            rides: Vec::new(),
            hops: Vec::new(),
            no_hurdle: Vec::new(),
            no_capture: Vec::new(),
            en_passant: BySquare::from_fn(size, |_| B::EMPTY),
            initial_zone: B::EMPTY,
            promotion: None,
            routes: Vec::new(),
            route_attacks: false,
            simple: false,
            takes_en_passant: false,
        };
        for atom in atoms {
            for step in &atom.steps {
                let (dx, dy) = absolute(forward, step.right, step.forward);
                self.add_atom(&mut moves, atom, dx, dy, None);
            }
        }
        moves.simple = moves.are_simple();
        moves
    }

    /// A piece's movements with the squares each applies from and may land on: its `moves`
    /// from the squares of no `moves ... in` zone, each zoned movement from its zone (less the
    /// zones before it), every one landing in its `confined to` zone. Compiled into the leap
    /// tables, so that a game without zones pays nothing; validation keeps zones to leaps.
    fn regions<'d>(
        &self,
        side: usize,
        piece: &'d variant_dsl::PieceDef,
    ) -> Vec<(Option<Region<B>>, &'d [MoveAtom])> {
        let side_id = SideId::new(side);
        let mask = |zone: &Vec<Vec<variant_dsl::Square>>| {
            zone.get(side_id.index())
                .map_or(B::EMPTY, |squares| self.geometry.mask(squares))
        };
        let board = self.geometry.board;
        let to = piece.confined.as_ref().map_or(board, mask);
        let lined = piece.lined_moves.iter().map(|lined| {
            let zone = mask(&lined.zone);
            let region = Region {
                from: zone,
                to: to & zone,
                along: Some(zone),
            };
            (Some(region), lined.moves.as_slice())
        });
        let zoned = piece.confined.is_some() || !piece.zoned_moves.is_empty();
        if !zoned {
            return std::iter::once((None, piece.moves.as_slice()))
                .chain(lined)
                .collect();
        }
        let mut taken = B::EMPTY;
        let mut sets = Vec::with_capacity(piece.zoned_moves.len() + 1);
        for zoned in &piece.zoned_moves {
            let zone = mask(&zoned.zone);
            sets.push((
                Some(Region {
                    from: zone & !taken,
                    to,
                    along: None,
                }),
                zoned.moves.as_slice(),
            ));
            taken |= zone;
        }
        sets.push((
            Some(Region {
                from: board & !taken,
                to,
                along: None,
            }),
            piece.moves.as_slice(),
        ));
        sets.extend(lined);
        sets
    }

    fn add_atom(
        &mut self,
        moves: &mut PieceMoves<B>,
        atom: &MoveAtom,
        dx: i32,
        dy: i32,
        region: Option<Region<B>>,
    ) {
        let geometry = self.geometry;
        let allows = |from: Sq, to: Sq| {
            region.is_none_or(|region| region.from.has(from) && region.to.has(to))
        };
        // A lame leap along a zone passes its squares only.
        let passes = |path: B| {
            region
                .and_then(|region| region.along)
                .is_none_or(|lane| (path & !lane).is_empty())
        };
        debug_assert!(
            region.is_none_or(|region| region.along.is_some())
                || (atom.range == Some(1) && atom.hop.is_none()),
            "validation keeps zones other than `along` to leaps"
        );
        if !atom.hop.is_none() {
            let ray = self.ray_index(dx, dy);
            moves.hops.push(HopRide {
                ray,
                hop: atom.hop,
                mode: atom.mode,
                initial_only: atom.initial_only,
                reach: region.map(|region| region.reach(geometry, dx, dy, false)),
            });
            return;
        }
        if atom.en_passant {
            for (from, targets) in geometry.grid().zip(moves.en_passant.iter_mut()) {
                if let Some(to) = geometry.step(from, dx, dy).filter(|&to| allows(from, to)) {
                    *targets |= B::single(to);
                }
            }
        }
        if atom.range == Some(1) && atom.lame {
            for from in geometry.grid() {
                if let Some(leap) = lame_leap(geometry, from, dx, dy, atom) {
                    if allows(from, leap.to) && passes(leap.path) {
                        moves.lame[from].push(leap);
                    }
                }
            }
        } else if atom.range == Some(1) {
            let table = moves.leap_table(atom.mode, atom.initial_only, geometry.grid_size());
            for (from, targets) in geometry.grid().zip(table.targets.iter_mut()) {
                if let Some(to) = geometry.step(from, dx, dy).filter(|&to| allows(from, to)) {
                    if leap_crosses_board(geometry, from, dx, dy) {
                        *targets |= B::single(to);
                    }
                }
            }
        } else {
            let ray = self.ray_index(dx, dy);
            let limited = |from: Sq| match atom.range {
                Some(range) => limited_ray(geometry, from, dx, dy, range as usize),
                None => geometry.board,
            };
            let reach = match region {
                Some(region) => Some(
                    region
                        .reach(geometry, dx, dy, true)
                        .pairs()
                        .map(|(from, &squares)| squares & limited(from))
                        .collect(),
                ),
                None => atom.range.map(|_| geometry.grid().map(limited).collect()),
            };
            moves.rides.push(Ride {
                ray,
                reach,
                range: atom.range,
                mode: atom.mode,
                initial_only: atom.initial_only,
            });
        }
    }

    fn attacks(&mut self, movement: &[PieceMoves<B>]) -> Attacks<B> {
        let size = self.geometry.grid_size();
        let mut attacks = Attacks::default();
        for (piece_index, moves) in movement.iter().enumerate() {
            let piece = PieceId(piece_index as u8);
            for table in moves.leaps.iter().filter(|t| t.mode != MoveMode::MoveOnly) {
                let mut sources = BySquare::from_fn(size, |_| B::EMPTY);
                for (from, targets) in table.targets.pairs() {
                    for to in targets.squares() {
                        sources[to] |= B::single(from);
                    }
                }
                let zone = if table.initial_only {
                    moves.initial_zone
                } else {
                    self.geometry.board
                };
                attacks.leaps.push(LeapAttack {
                    piece,
                    sources,
                    zone,
                });
            }
            let mut lame_sources = BySquare::from_fn(size, |_| Vec::new());
            for (from, leaps) in moves.lame.pairs() {
                for leap in leaps
                    .iter()
                    .filter(|l| l.mode != MoveMode::MoveOnly && !l.initial_only)
                {
                    lame_sources[leap.to].push((from, leap.path));
                }
            }
            if lame_sources.iter().any(|s| !s.is_empty()) {
                attacks.lame.push(LameAttack {
                    piece,
                    sources: lame_sources,
                });
            }
            for hop in moves.hops.iter().filter(|h| h.mode != MoveMode::MoveOnly) {
                let (dx, dy) = (self.rays[hop.ray].dx, self.rays[hop.ray].dy);
                let back = self.ray_index(-dx, -dy);
                let zone = if hop.initial_only {
                    moves.initial_zone
                } else {
                    self.geometry.board
                };
                let reach = hop.reach.as_ref().map(inverted);
                match attacks.hops.iter_mut().find(|a| {
                    a.ray == back
                        && a.hop == hop.hop
                        && a.zone == zone
                        && a.reach.is_none()
                        && reach.is_none()
                        && a.no_hurdle == moves.no_hurdle
                }) {
                    Some(shared) if !shared.pieces.contains(&piece) => shared.pieces.push(piece),
                    Some(_) => {}
                    None => attacks.hops.push(HopAttack {
                        ray: back,
                        hop: hop.hop,
                        zone,
                        reach,
                        no_hurdle: moves.no_hurdle.clone(),
                        pieces: vec![piece],
                    }),
                }
            }
            for ride in moves
                .rides
                .iter()
                .filter(|r| r.mode != MoveMode::MoveOnly && !r.initial_only)
            {
                let (dx, dy) = (self.rays[ride.ray].dx, self.rays[ride.ray].dy);
                let back = self.ray_index(-dx, -dy);
                let reach = ride.reach.as_ref().map(inverted);
                match attacks
                    .rides
                    .iter_mut()
                    .find(|a| a.ray == back && a.reach.is_none() && reach.is_none())
                {
                    Some(shared) if !shared.pieces.contains(&piece) => shared.pieces.push(piece),
                    Some(_) => {}
                    None => attacks.rides.push(RideAttack {
                        ray: back,
                        reach,
                        pieces: vec![piece],
                    }),
                }
            }
        }
        attacks
    }
}

/// Per passed square, the initial lame moves of one side that pass it: (landing, piece type).
fn standing_en_passant<B: Bitboard>(
    geometry: &Geometry<B>,
    movement: &[PieceMoves<B>],
) -> BySquare<Vec<(Sq, PieceId)>> {
    let mut passing = BySquare::from_fn(geometry.grid_size(), |_| Vec::new());
    for (piece, moves) in movement.iter().enumerate() {
        for (from, leaps) in moves.lame.iter().enumerate() {
            if !moves.initial_zone.has(Sq::new(from)) {
                continue;
            }
            for leap in leaps
                .iter()
                .filter(|l| l.initial_only && l.mode != MoveMode::CaptureOnly)
            {
                if let Some(passed) = leap.passed {
                    passing[passed].push((leap.to, PieceId::new(piece)));
                }
            }
        }
    }
    passing
}

/// Whether a straight (orthogonal or diagonal) leap from `from` crosses only board squares: no
/// piece jumps over a hole. Oblique leaps cross no square and always qualify.
fn leap_crosses_board<B: Bitboard>(geometry: &Geometry<B>, from: Sq, dx: i32, dy: i32) -> bool {
    let straight = dx == 0 || dy == 0 || dx.abs() == dy.abs();
    if !straight {
        return true;
    }
    let steps = dx.abs().max(dy.abs());
    (1..steps).all(|k| {
        geometry
            .step(from, k * dx.signum(), k * dy.signum())
            .is_some()
    })
}

/// A lame leap: the path runs along the longer component first (straight for orthogonal and
/// diagonal atoms; for oblique atoms an orthogonal step then diagonal steps, as the Xiangqi horse).
fn lame_leap<B: Bitboard>(
    geometry: &Geometry<B>,
    from: Sq,
    dx: i32,
    dy: i32,
    atom: &MoveAtom,
) -> Option<LameLeap<B>> {
    if !geometry.on_board(from) {
        return None;
    }
    let to = geometry.step(from, dx, dy)?;
    let mut path = B::EMPTY;
    let mut passed = None;
    let (mut x, mut y) = (0, 0);
    loop {
        // Step towards the target, orthogonally along the longer axis while it leads, then
        // diagonally.
        let (rx, ry) = (dx - x, dy - y);
        let (sx, sy) = if rx.abs() > ry.abs() {
            (
                rx.signum(),
                if ry.abs() == rx.abs() { ry.signum() } else { 0 },
            )
        } else if ry.abs() > rx.abs() {
            (0, ry.signum())
        } else {
            (rx.signum(), ry.signum())
        };
        x += sx;
        y += sy;
        if (x, y) == (dx, dy) {
            break;
        }
        let square = geometry.step(from, x, y)?;
        passed.get_or_insert(square);
        path |= B::single(square);
    }
    Some(LameLeap {
        to,
        path,
        mode: atom.mode,
        initial_only: atom.initial_only,
        passed,
    })
}

fn compile_castles<B: Bitboard>(definition: &Definition, geometry: &Geometry<B>) -> Vec<Castle<B>> {
    definition
        .castling
        .iter()
        .map(|castle| {
            let king_from = geometry.index(castle.king_from);
            let king_to = geometry.index(castle.king_to);
            let rook_from = geometry.index(castle.rook_from);
            let rook_to = geometry.index(castle.rook_to);
            let king_path = line(geometry, king_from, king_to);
            let mut empty = B::EMPTY;
            for square in king_path
                .iter()
                .chain(line(geometry, rook_from, rook_to).iter())
            {
                empty |= B::single(*square);
            }
            empty &= !(B::single(king_from) | B::single(rook_from));
            Castle {
                side: castle.side,
                king_piece: castle.king_piece,
                rook_piece: castle.rook_piece,
                king_from,
                king_to,
                rook_from,
                rook_to,
                empty,
                king_path,
                when_placed: castle.when_placed,
            }
        })
        .collect()
}

/// The squares from `from` to `to` inclusive along a straight line (just the two ends when they
/// are not aligned).
fn line<B: Bitboard>(geometry: &Geometry<B>, from: Sq, to: Sq) -> Vec<Sq> {
    let (fx, fy) = geometry.coords(from);
    let (tx, ty) = geometry.coords(to);
    let (fx, fy, tx, ty) = (fx as i32, fy as i32, tx as i32, ty as i32);
    let (dx, dy) = (tx - fx, ty - fy);
    let aligned = dx == 0 || dy == 0 || dx.abs() == dy.abs();
    if !aligned {
        return vec![from, to];
    }
    let steps = dx.abs().max(dy.abs());
    (0..=steps)
        .map(|k| {
            let x = fx + k * dx.signum();
            let y = fy + k * dy.signum();
            Sq::new(y as usize * geometry.files + x as usize)
        })
        .collect()
}
