//! Invariants along random games (proptest): every generated move is legal, the incremental
//! hash equals a fresh one, FENs round-trip, and `moves` agrees with `perft --divide`.

use proptest::prelude::*;
use std::path::Path;
use variant_dsl::Definition;
use variant_interpreter::Session;

fn definition(game: &str) -> Definition {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(format!("{game}.variant"));
    variant_dsl::load_file(&path)
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition
}

/// Plays the game chosen by `choices` (each picks among the legal moves), checking `check` at
/// every position reached, including the first.
fn walk(
    definition: &Definition,
    choices: &[usize],
    mut check: impl FnMut(&dyn Session, Option<&str>),
) {
    let mut session = variant_interpreter::open(definition, None).expect("opens");
    check(session.as_ref(), None);
    for &choice in choices {
        if session.outcome().is_some() {
            break;
        }
        let moves = session.legal_moves();
        let mover = session.side_to_move();
        let chosen = moves[choice % moves.len()].clone();
        session
            .play(&chosen)
            .expect("a generated move can be played");
        check(session.as_ref(), Some(&mover));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn chess_moves_never_leave_the_movers_king_attacked(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let chess = definition("chess");
        walk(&chess, &choices, |session, mover| {
            if let Some(mover) = mover {
                assert!(!session.checked_sides().iter().any(|s| s == mover), "{} left its king attacked: {}", mover, session.fen());
            }
        });
    }

    #[test]
    fn chess_incremental_hash_equals_fresh_hash(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let chess = definition("chess");
        walk(&chess, &choices, |session, _| {
            assert!(session.hash_is_consistent(), "hash drifted at {}", session.fen());
        });
    }

    #[test]
    fn chess_fen_round_trips(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        let chess = definition("chess");
        walk(&chess, &choices, |session, _| {
            let fen = session.fen();
            let reopened = variant_interpreter::open(&chess, Some(&fen)).expect("own FEN parses");
            assert_eq!(reopened.fen(), fen);
            assert_eq!(reopened.legal_moves(), session.legal_moves(), "moves differ after reading {fen}");
        });
    }

    #[test]
    fn chess_moves_agree_with_divide(choices in prop::collection::vec(any::<usize>(), 0..80)) {
        let chess = definition("chess");
        walk(&chess, &choices, |session, _| {
            let mut listed = session.legal_moves();
            let divided = session.divide(2);
            let mut roots: Vec<String> = divided.iter().map(|(m, _)| m.clone()).collect();
            listed.sort();
            roots.sort();
            assert_eq!(listed, roots);
            assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), session.perft(2));
            assert_eq!(session.perft(1), session.legal_moves().len() as u64);
        });
    }
}
