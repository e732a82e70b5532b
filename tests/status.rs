//! `outcome::status_into`, the playout loop's call: a list of legal actions kept across plies
//! and games is refilled exactly as a fresh generation (`outcome::status`) would give it, and
//! the end it reports (judged with the drop squares the generation gathered) is the one
//! `outcome::outcome` finds on its own.

use std::path::Path;
use variant_interpreter::movegen::legal_moves_into;
use variant_interpreter::moves::Move;
use variant_interpreter::outcome::{outcome, status, status_into, Status};
use variant_interpreter::{Bitboard, MoveKind, Position, Rules};

/// Along seeded random games of a moving game, the placement games and a game of turns, the
/// kept list holds the same actions in the same order at every ply, and the same end.
#[test]
fn a_kept_list_of_actions_is_refilled_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    // Stale contents, to be cleared.
    let mut moves = vec![Move::pass(); 3];
    for game in ["chess", "coverage", "cheversi", "kingdrops"] {
        let loaded = variant_dsl::load_file(&root.join(format!("{game}.variant")))
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        let rules = Rules::<u64>::compile(&loaded.definition).expect("compiles");
        let mut seed = 5u64;
        let mut plies = 0;
        for _ in 0..3 {
            let mut position =
                Position::from_setup(&rules, &loaded.definition.setup).expect("setup");
            let mut history = Vec::new();
            for _ in 0..120 {
                let kept = status_into(&rules, &position, &history, &mut moves);
                assert_eq!(kept, outcome(&rules, &position, &history), "{game}");
                // The drop squares gathered while generating are the list's.
                let mut fresh = Vec::new();
                let gathered: u64 = legal_moves_into(&rules, &position, &mut fresh);
                let listed = fresh
                    .iter()
                    .filter(|mv| matches!(mv.kind, MoveKind::Drop(_)))
                    .fold(0u64, |squares, mv| {
                        squares | u64::single(usize::from(mv.to))
                    });
                assert_eq!(gathered, listed, "{game}");
                match status(&rules, &position, &history) {
                    Status::Over(outcome) => {
                        assert_eq!(kept, Some(outcome), "{game}");
                        assert!(moves.is_empty());
                        break;
                    }
                    Status::Moves(fresh) => {
                        assert_eq!(kept, None, "{game}");
                        assert_eq!(moves, fresh, "{game}");
                    }
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let chosen = moves[(seed >> 33) as usize % moves.len()];
                history.push(position.hash());
                position.play_unchecked(&rules, chosen);
                plies += 1;
            }
        }
        assert!(plies >= 40, "{game}: {plies} plies");
    }
}
