//! The compiled game: the core's [`Tables`] plus what the rules layer compiles from a
//! [`Definition`] (the drop, move and end expressions, the key of their plans, the squares each
//! piece can reach).
//!
//! [`Rules`] dereferences to its [`Tables`], so code of any layer asks `rules.geometry()` or
//! `rules.castles()`, and a function of the core that takes `&Tables<B>` is called with
//! `&rules`. The core itself never sees a `Rules`. The fields of both are private to their
//! layer (the core's tables to the core, the rules' to the rules layer): what a layer above
//! reads is a method, so a table may change shape without its readers noticing; what a test
//! switches off is an [`Options`].
//!
//! This file names only what lies below it (the core's tables, the expression IR, the plans'
//! cache): the rules are compiled by [`crate::rules::compile`], which sees every part of the
//! layer, and the one question that an expression asks of the layer above it (the legal
//! actions, for `legal drops` and `can act`) goes through [`LegalActions`], which that
//! compilation fills in.

use crate::core::bitboard::Bitboard;
use crate::core::index::{ByPiece, BySide, PieceId};
use crate::core::moves::Move;
use crate::core::position::Position;
use crate::core::tables::Tables;
pub use crate::core::tables::{CompileError, MAX_PIECE_TYPES, MAX_SIDES};
use crate::rules::plan_cache::{KeySpec, PlanCache};
use std::ops::Deref;

/// What a test may switch off: the generator's shortcuts, to check each against the long way
/// (each is exact), and the drop rules that look ahead, to see what they refuse. All on by
/// default ([`Options::default`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether the drop rules' lookahead may be proved unnecessary once per position
    /// ([`crate::expression::reply_certain`]) rather than tested drop by drop.
    pub lookahead_pruning: bool,
    /// Whether legality is decided from pins and checks where the tables say that is exact
    /// (no lame attacker whose path a move could open), rather than by playing each move of a
    /// pinned piece or a king on a copy; and, where hoppers or lame leapers attack, from the
    /// screens of the royal piece ([`crate::core::legality::screens`]) rather than by testing
    /// every move.
    pub pins: bool,
    /// Whether the drop rules that look ahead (`must leave an action`) apply at all.
    pub drop_lookahead: bool,
    /// Whether the drop rules are folded per scalar state into plans ([`crate::plan`]), where
    /// some rule reads a number or a condition, rather than judged rule by rule.
    pub plans: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            lookahead_pruning: true,
            pins: true,
            drop_lookahead: true,
            plans: true,
        }
    }
}

/// The compiled game: what other layers read of it are methods (and, through [`Deref`], the
/// methods of its [`Tables`]).
#[derive(Clone, Debug)]
pub struct Rules<B: Bitboard> {
    /// The core's tables: geometry, rays, movement, attacks, castling, hash keys.
    pub(super) tables: Tables<B>,
    /// Per side, how many pieces its hand holds in the game's setup: drops made so far are
    /// counted against it.
    pub(super) setup_hand: BySide<u32>,
    /// Per side and piece type, the squares that piece can ever stand on (`None` in games with
    /// pieces in hand to drop); see [`crate::plausible`].
    pub(super) reachable: Option<BySide<ByPiece<B>>>,
    /// Piece types that no `material` rule allows on the board: one of them present rules
    /// every material end out at once (pawns in chess).
    pub(super) material_excluded: Vec<PieceId>,
    /// The drop rules, score and end conditions, compiled.
    pub(super) expressions: crate::expression::Compiled<B>,
    /// Per `reach` movement of the expressions ([`crate::expression::Compiled::reach`]), its
    /// moves for each side.
    pub(super) reach: Vec<BySide<crate::core::tables::PieceMoves<B>>>,
    /// Per promotion in place ([`crate::expression::Compiled::in_place`]), its step's moves for
    /// each side (no move at all for a promotion in place only).
    pub(super) in_place_steps: Vec<BySide<crate::core::tables::PieceMoves<B>>>,
    /// The shortcuts switched on (all, but in tests).
    pub(super) options: Options,
    /// What the scalar parts of the drop rules read: the key of their folded plans
    /// ([`crate::plan`]). A copy of the rules has its own plans, so a copy may have its
    /// expressions changed; rules already used must not.
    pub(super) plan_key: KeySpec,
    /// The plans made so far, kept for as long as the rules ([`crate::plan::plan`]).
    pub(super) plans: PlanCache<B>,
    /// The legal actions of a position, as the expressions ask for them.
    pub(super) legal: LegalActions<B>,
}

/// The legal actions of a position, for the expressions that read them (`legal drops`, `can
/// act`): the move generator ([`crate::legal`]) sits above the expressions, since it judges
/// them, so they reach it through these functions, which the compilation of the rules sets to
/// the generator's ([`crate::rules::compile`]).
pub(crate) struct LegalActions<B: Bitboard> {
    /// Every legal action of the side to move.
    pub(super) moves: fn(&Rules<B>, &Position<B>) -> Vec<Move>,
    /// Whether the side to move has a legal action (stopping at the first).
    pub(super) any: fn(&Rules<B>, &Position<B>) -> bool,
}

// By hand: a derive would ask `B: Clone` and `B: Debug` of a type that only holds functions.
impl<B: Bitboard> Clone for LegalActions<B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: Bitboard> Copy for LegalActions<B> {}

impl<B: Bitboard> std::fmt::Debug for LegalActions<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LegalActions")
    }
}

impl<B: Bitboard> Deref for Rules<B> {
    type Target = Tables<B>;

    #[inline(always)]
    fn deref(&self) -> &Tables<B> {
        &self.tables
    }
}

impl<B: Bitboard> Rules<B> {
    /// The shortcuts this game was compiled with.
    #[inline]
    pub fn options(&self) -> Options {
        self.options
    }

    /// Whether the drop rules are folded per scalar state into plans ([`crate::plan`]): some
    /// drop rule reads a number or a condition that does not depend on the square.
    #[inline]
    pub fn folds_drop_rules(&self) -> bool {
        self.plan_key.active
    }

    /// Whether some drop rule looks ahead (`must leave an action`).
    #[inline]
    pub fn drop_lookahead(&self) -> bool {
        self.expressions.lookahead
    }

    /// The `score` expression, compiled, if the game has one.
    #[inline]
    pub fn score_expression(&self) -> Option<&crate::expression::Num<B>> {
        self.expressions.score.as_ref()
    }

    /// The drop rules of the game (outside any phase), compiled in the order of the
    /// definition's `drops` constraints.
    #[inline]
    pub fn drop_constraints(&self) -> &[crate::expression::DropRule<B>] {
        &self.expressions.drops
    }
}
