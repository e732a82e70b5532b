//! Compiling a [`Definition`] into [`Rules`]: the core's tables, the expressions, the plans'
//! key, the squares each piece can reach.
//!
//! This is the top of the rules layer: the one place that sees every part of it, so it is where
//! the parts are wired together. The expressions read the legal actions (`legal drops`, `can
//! act`) but the move generator judges expressions; the rules carry the generator's functions
//! ([`LegalActions`]), set here, so that neither file imports the other.

use crate::core::bitboard::Bitboard;
use crate::core::index::BySide;
use crate::core::tables::{PieceMoves, Tables};
use crate::rules::compiled::LegalActions;
use crate::rules::{CompileError, Options, Rules};
use variant_dsl::Definition;

impl<B: Bitboard> Rules<B> {
    /// Compiles a definition whose board fits this bitboard width.
    pub fn compile(definition: &Definition) -> Result<Self, CompileError> {
        Self::compile_with(definition, Options::default())
    }

    /// Compiles a definition with some shortcuts switched off (for tests).
    pub fn compile_with(definition: &Definition, options: Options) -> Result<Self, CompileError> {
        let mut tables = Tables::compile(definition)?;
        let shield = crate::core::legality::explosion_shield(&tables);
        tables.use_pins(options.pins, shield);
        let pieces = tables.pieces();
        let mut expressions = crate::expression::Compiled::new(definition, tables.geometry());
        if !options.drop_lookahead {
            expressions.drops.retain(|rule| !rule.lookahead);
        }
        tables.track_turns(!expressions.turn_start.is_empty());
        let reach = expressions
            .reach
            .iter()
            .map(|atoms| by_side(tables.movement_of(atoms)))
            .collect();
        let in_place_steps = expressions
            .in_place
            .iter()
            .map(|rule| {
                let step = definition.pieces[rule.piece.index()]
                    .in_place
                    .as_ref()
                    .map_or(&[][..], |promotion| &promotion.step[..]);
                by_side(tables.movement_of(step))
            })
            .collect();
        let plan_key = if options.plans {
            crate::plan::KeySpec::new(&expressions)
        } else {
            crate::plan::KeySpec::default()
        };
        let mut rules = Rules {
            tables,
            setup_hand: setup_hand(definition),
            reachable: None,
            material_excluded: crate::core::index::pieces(pieces)
                .filter(|&piece| {
                    definition.end.material.iter().all(|rule| {
                        rule.counts
                            .iter()
                            .all(|c| c.piece != piece || c.max == Some(0))
                    })
                })
                .collect(),
            expressions,
            reach,
            in_place_steps,
            options,
            plan_key,
            plans: crate::plan::PlanCache::default(),
            legal: LegalActions {
                moves: crate::legal::legal_moves,
                any: crate::legal::any_legal,
            },
        };
        rules.reachable = crate::plausible::reachable_squares(&rules);
        Ok(rules)
    }
}

/// A movement's moves listed by side ([`Tables::movement_of`]) as a per-side table; the sides
/// the game does not have move nowhere.
fn by_side<B: Bitboard>(moves: Vec<PieceMoves<B>>) -> BySide<PieceMoves<B>> {
    let mut moves = moves.into_iter();
    BySide::from_fn(|_| moves.next().unwrap_or_default())
}

/// Per side, how many pieces its hand holds in the game's setup.
fn setup_hand(definition: &Definition) -> BySide<u32> {
    BySide::from_fn(|side| {
        definition
            .setup
            .hands
            .iter()
            .filter(|(s, _, _)| *s == side)
            .map(|(_, _, count)| count)
            .sum()
    })
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
        assert!(fast.pins_suffice() && !slow.pins_suffice());
        for rules in [&fast, &slow] {
            let position = Position::from_setup(rules, &setup).expect("opens");
            assert_eq!(crate::perft::perft(rules, &position, 3, &[]), 97_862);
        }
    }
}
