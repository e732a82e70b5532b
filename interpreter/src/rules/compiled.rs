//! The compiled game: the core's [`Tables`] plus what the rules layer compiles from a
//! [`Definition`] (the drop, move and end expressions, the key of their plans, the squares each
//! piece can reach).
//!
//! [`Rules`] dereferences to its [`Tables`], so code of any layer reads `rules.geometry` or
//! `rules.castles` as before, and a function of the core that takes `&Tables<B>` is called with
//! `&rules`. The core itself never sees a `Rules`.

use crate::core::bitboard::Bitboard;
use crate::core::tables::Tables;
pub use crate::core::tables::{CompileError, MAX_PIECE_TYPES, MAX_SIDES};
use std::ops::Deref;
use variant_dsl::Definition;

/// The compiled game.
#[derive(Clone, Debug)]
pub struct Rules<B> {
    /// The core's tables: geometry, rays, movement, attacks, castling, hash keys.
    pub tables: Tables<B>,
    /// Per side, how many pieces its hand holds in the game's setup: drops made so far are
    /// counted against it.
    pub setup_hand: Vec<u32>,
    /// Per `side * pieces + piece`, the squares that piece can ever stand on (empty in games
    /// with drops); see [`crate::plausible`].
    pub reachable: Vec<B>,
    /// Piece types that no `material` rule allows on the board: one of them present rules
    /// every material end out at once (pawns in chess).
    pub material_excluded: Vec<usize>,
    /// The drop rules, score and end conditions, compiled.
    pub expressions: crate::expression::Compiled<B>,
    /// Whether the lookahead may be proved unnecessary once per position
    /// ([`crate::expression::reply_certain`]); off only to test that proof against drop-by-drop
    /// testing.
    pub lookahead_pruning: bool,
    /// What the scalar parts of the drop rules read: the key of their folded plans
    /// ([`crate::plan`]). A copy of the rules has its own plans, so a copy may have its
    /// expressions changed; rules already used must not.
    pub plan_key: crate::plan::KeySpec,
}

impl<B> Deref for Rules<B> {
    type Target = Tables<B>;

    #[inline(always)]
    fn deref(&self) -> &Tables<B> {
        &self.tables
    }
}

impl<B: Bitboard> Rules<B> {
    /// Compiles a definition whose board fits this bitboard width.
    pub fn compile(definition: &Definition) -> Result<Self, CompileError> {
        let mut tables = Tables::compile(definition)?;
        let pieces = tables.pieces;
        let expressions = crate::expression::Compiled::new(definition, &tables.geometry);
        tables.tracks_turns = tables.multi_action || !expressions.turn_start.is_empty();
        let plan_key = crate::plan::KeySpec::new(&expressions);
        let mut rules = Rules {
            tables,
            setup_hand: setup_hand(definition),
            reachable: Vec::new(),
            material_excluded: (0..pieces)
                .filter(|&piece| {
                    definition.end.material.iter().all(|rule| {
                        rule.counts
                            .iter()
                            .all(|c| c.piece.0 as usize != piece || c.max == Some(0))
                    })
                })
                .collect(),
            expressions,
            lookahead_pruning: true,
            plan_key,
        };
        rules.reachable = crate::plausible::reachable_squares(&rules);
        Ok(rules)
    }
}

/// Per side, how many pieces its hand holds in the game's setup.
fn setup_hand(definition: &Definition) -> Vec<u32> {
    (0..definition.sides.len())
        .map(|side| {
            definition
                .setup
                .hands
                .iter()
                .filter(|(s, _, _)| s.0 as usize == side)
                .map(|(_, _, count)| count)
                .sum()
        })
        .collect()
}
