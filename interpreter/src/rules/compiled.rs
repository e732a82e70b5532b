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
    /// pinned piece or a king on a copy.
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
    pub(crate) tables: Tables<B>,
    /// Per side, how many pieces its hand holds in the game's setup: drops made so far are
    /// counted against it.
    pub(crate) setup_hand: Vec<u32>,
    /// Per `side * pieces + piece`, the squares that piece can ever stand on (empty in games
    /// with drops); see [`crate::plausible`].
    pub(crate) reachable: Vec<B>,
    /// Piece types that no `material` rule allows on the board: one of them present rules
    /// every material end out at once (pawns in chess).
    pub(crate) material_excluded: Vec<usize>,
    /// The drop rules, score and end conditions, compiled.
    pub(crate) expressions: crate::expression::Compiled<B>,
    /// The shortcuts switched on (all, but in tests).
    pub(crate) options: Options,
    /// What the scalar parts of the drop rules read: the key of their folded plans
    /// ([`crate::plan`]). A copy of the rules has its own plans, so a copy may have its
    /// expressions changed; rules already used must not.
    pub(crate) plan_key: crate::plan::KeySpec,
    /// The plans made so far, kept for as long as the rules ([`crate::plan::plan`]).
    pub(crate) plans: crate::plan::PlanCache<B>,
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
}

impl<B: Bitboard> Rules<B> {
    /// Compiles a definition whose board fits this bitboard width.
    pub fn compile(definition: &Definition) -> Result<Self, CompileError> {
        Self::compile_with(definition, Options::default())
    }

    /// Compiles a definition with some shortcuts switched off (for tests).
    pub fn compile_with(definition: &Definition, options: Options) -> Result<Self, CompileError> {
        let mut tables = Tables::compile(definition)?;
        tables.pins_suffice &= options.pins;
        let pieces = tables.pieces;
        let mut expressions = crate::expression::Compiled::new(definition, &tables.geometry);
        if !options.drop_lookahead {
            expressions.drops.retain(|rule| !rule.lookahead);
        }
        tables.tracks_turns = tables.multi_action || !expressions.turn_start.is_empty();
        let plan_key = if options.plans {
            crate::plan::KeySpec::new(&expressions)
        } else {
            crate::plan::KeySpec::default()
        };
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
            options,
            plan_key,
            plans: crate::plan::PlanCache::default(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::position::Position;
    use std::path::Path;

    #[test]
    fn legality_without_the_pin_shortcut_counts_the_same_moves() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chess.variant");
        let definition = variant_dsl::load_file(&path).expect("loads").definition;
        // Kiwipete: pins, checks, castling and en passant within three plies.
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let setup = variant_dsl::fen::parse_fen(&definition, kiwipete).expect("a FEN");
        let options = Options {
            pins: false,
            ..Options::default()
        };
        let slow = Rules::<u64>::compile_with(&definition, options).expect("compiles");
        let fast = Rules::<u64>::compile(&definition).expect("compiles");
        assert!(fast.pins_suffice && !slow.pins_suffice);
        for rules in [&fast, &slow] {
            let position = Position::from_setup(rules, &setup).expect("opens");
            assert_eq!(crate::perft::perft(rules, &position, 3, &[]), 97_862);
        }
    }
}
