//! `outcome::status_into`, the playout loop's call: a list of legal actions kept across plies
//! and games is refilled exactly as a fresh generation (`outcome::status`) would give it, and
//! the end it reports (judged with the drop squares the generation gathered) is the one
//! `outcome::outcome` finds on its own.

mod common;

use std::path::Path;
use variant_interpreter::action_set::ActionSet;
use variant_interpreter::movegen::{count_legal, count_legal_unless_ended, legal_moves_into};
use variant_interpreter::moves::Move;
use variant_interpreter::outcome::{
    ends_before_actions, outcome, status, status_into, status_into_set, Status,
};
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
                    .fold(0u64, |squares, mv| squares | u64::single(mv.to));
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
                position.play_legal(&rules, chosen);
                plies += 1;
            }
        }
        assert!(plies >= 40, "{game}: {plies} plies");
    }
}

/// `outcome::status_into_set`, the set of actions a random playout counts and takes one of:
/// along seeded random games of every game file and test variant (whose board fits 64 bits),
/// a set kept across plies and games reports the end `status_into` reports, and holds its
/// actions in its order (by `get` and by `iter`), with their number and their drop squares.
#[test]
fn a_kept_set_of_actions_holds_the_list_of_actions() {
    let mut set = ActionSet::<u64>::new();
    let mut list = Vec::new();
    let mut files = 0;
    for (path, definition) in common::game_and_test_variant_files() {
        // A board wider than 64 squares needs a wider bitboard.
        let Ok(rules) = Rules::<u64>::compile(&definition) else {
            continue;
        };
        let Ok(start) = Position::from_setup(&rules, &definition.setup) else {
            continue;
        };
        files += 1;
        let at = path.display();
        let mut seed = 11u64;
        for _ in 0..3 {
            let mut position = start;
            let mut history = Vec::new();
            for _ in 0..80 {
                let by_set = status_into_set(&rules, &position, &history, &mut set);
                let by_list = status_into(&rules, &position, &history, &mut list);
                assert_eq!(by_set, by_list, "{at}");
                if by_list.is_some() {
                    assert!(set.is_empty(), "{at}: actions kept after the end");
                    break;
                }
                assert_eq!(set.len(), list.len(), "{at}");
                let got: Vec<Move> = (0..set.len()).map(|i| set.get(i).unwrap()).collect();
                assert_eq!(got, list, "{at}: by index");
                assert_eq!(set.iter().collect::<Vec<_>>(), list, "{at}: in order");
                assert_eq!(set.get(set.len()), None, "{at}");
                let listed = list
                    .iter()
                    .filter(|mv| matches!(mv.kind, MoveKind::Drop(_)))
                    .fold(0u64, |squares, mv| squares | u64::single(mv.to));
                assert_eq!(set.drop_squares(), listed, "{at}");
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let chosen = list[(seed >> 33) as usize % list.len()];
                history.push(position.hash());
                position.play_legal(&rules, chosen);
            }
        }
    }
    assert!(files >= 20, "only {files} game files played");
}

/// `movegen::count_legal_unless_ended`, perft's last ply, takes whether an end condition that
/// reads no square holds from the plan of the position's scalar state: along seeded random
/// games of every game file and test variant, and of Cheversi with an end condition that holds
/// while hands still hold pieces (a side without its Queen in hand), it counts what the
/// unfolded end rules and generation count.
#[test]
fn the_last_ply_counts_as_the_unfolded_end_rules_do() {
    let cheversi = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cheversi.variant"),
    )
    .expect("cheversi.variant");
    let written = "    by score when hands empty";
    assert!(cheversi.contains(written));
    let early = cheversi.replace(
        written,
        &format!("{written}\n    by score when hand Queen = 0"),
    );
    let loaded = variant_dsl::load_source("early-end.variant", &early)
        .unwrap_or_else(|failure| panic!("{}", failure.render()));
    let mut games = common::game_and_test_variant_files();
    games.push(("early-end.variant".into(), loaded.definition));
    let mut ended_early = 0;
    for (path, definition) in games {
        let Ok(rules) = Rules::<u64>::compile(&definition) else {
            continue;
        };
        let Ok(start) = Position::from_setup(&rules, &definition.setup) else {
            continue;
        };
        let at = path.display();
        let mut seed = 3u64;
        for _ in 0..3 {
            let mut position = start;
            let mut history = Vec::new();
            let mut list = Vec::new();
            for _ in 0..80 {
                let ended = ends_before_actions(&rules, &position, &history);
                let unfolded = if ended {
                    0
                } else {
                    count_legal(&rules, &position)
                };
                let counted = count_legal_unless_ended(&rules, &position, &history);
                assert_eq!(counted, unfolded, "{at}");
                if ended && position.hand_total(position.side_to_move(&rules)) > 0 {
                    ended_early += 1;
                }
                if status_into(&rules, &position, &history, &mut list).is_some() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let chosen = list[(seed >> 33) as usize % list.len()];
                history.push(position.hash());
                position.play_legal(&rules, chosen);
            }
        }
    }
    // The early end was reached with pieces in hand, where the plan settles it.
    assert!(
        ended_early >= 3,
        "{ended_early} games ended with pieces in hand"
    );
}
