//! Invariants of the placement games along random games (proptest): every placement obeys the
//! rules it is bound by, games end where they must, scores stay within the board, and `moves`
//! agrees with `perft --divide`.

use proptest::prelude::*;
use std::collections::HashMap;
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

/// The pieces on the board, by square name, read from the FEN's board field (8x8 boards).
fn board(fen: &str) -> HashMap<String, char> {
    let field = fen.split(['[', ' ']).next().expect("a board field");
    let mut squares = HashMap::new();
    for (row, rank_text) in field.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(empty) = c.to_digit(10) {
                file += empty as u8;
            } else {
                squares.insert(format!("{}{}", (b'a' + file) as char, 8 - row), c);
                file += 1;
            }
        }
    }
    squares
}

fn neighbours(square: &str) -> Vec<String> {
    let (file, rank) = (
        square.as_bytes()[0] as i32,
        square[1..].parse::<i32>().expect("rank"),
    );
    let mut around = Vec::new();
    for df in -1..=1 {
        for dr in -1..=1 {
            let (f, r) = (file + df, rank + dr);
            if (df, dr) != (0, 0)
                && (b'a' as i32..=b'h' as i32).contains(&f)
                && (1..=8).contains(&r)
            {
                around.push(format!("{}{}", f as u8 as char, r));
            }
        }
    }
    around
}

/// Plays a random game; `check` sees the session before each placement with the placement.
fn play_random(
    definition: &Definition,
    choices: &[usize],
    mut check: impl FnMut(&dyn Session, &str),
) -> Box<dyn Session> {
    let mut session = variant_interpreter::open(definition, None).expect("opens");
    let mut next_choice = choices.iter().cycle();
    while session.outcome().is_none() {
        let moves = session.legal_moves();
        assert!(
            !moves.is_empty(),
            "stuck without a result at {}",
            session.fen()
        );
        let chosen = moves[next_choice.next().copied().unwrap_or(0) % moves.len()].clone();
        check(session.as_ref(), &chosen);
        session
            .play(&chosen)
            .expect("a generated placement can be played");
        assert!(session.history().len() <= 32, "more placements than pieces");
    }
    session
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn coverage_never_places_on_a_square_the_opponent_controls(choices in prop::collection::vec(any::<usize>(), 1..40)) {
        let coverage = definition("coverage");
        let finished = play_random(&coverage, &choices, |session, placement| {
            let square = placement.split('@').nth(1).expect("a drop");
            let opponent = if session.side_to_move() == "white" { "black" } else { "white" };
            assert!(!session.controlled_squares(opponent).iter().any(|s| s == square),
                "{placement} lands on a square {opponent} controls in {}", session.fen());
            assert!(!board(&session.fen()).contains_key(square), "{placement} lands on a piece");
        });
        let scores = finished.scores().expect("Coverage keeps a score");
        let total: i64 = scores.iter().map(|(_, s)| s).sum();
        prop_assert!(total <= 64, "more squares scored than the board has: {scores:?}");
        prop_assert!(scores.iter().all(|(_, s)| *s >= 0));
    }

    #[test]
    fn coverage_weighted_terminates_within_the_board(choices in prop::collection::vec(any::<usize>(), 1..40)) {
        let weighted = definition("coverage-weighted");
        let finished = play_random(&weighted, &choices, |_, _| {});
        let total: i64 = finished.scores().expect("a score").iter().map(|(_, s)| s).sum();
        prop_assert!(total <= 64);
    }

    #[test]
    fn cheversi_ends_after_sixteen_placements_with_the_black_king_touching_whites_last(choices in prop::collection::vec(any::<usize>(), 1..40)) {
        let cheversi = definition("cheversi");
        let finished = play_random(&cheversi, &choices, |session, placement| {
            let square = placement.split('@').nth(1).expect("a drop");
            let placed = board(&session.fen());
            if !placed.is_empty() {
                assert!(neighbours(square).iter().any(|n| placed.contains_key(n)),
                    "{placement} touches nothing in {}", session.fen());
            }
        });
        let history = finished.history();
        prop_assert_eq!(history.len(), 16);
        prop_assert!(history[15].starts_with("K@"), "Black's last piece is {}", history[15]);
        prop_assert!(!history[..15].iter().skip(1).step_by(2).any(|m| m.starts_with("K@")), "an early Black King");
        let white_last = history[14].split('@').nth(1).expect("a drop").to_string();
        let king = history[15].split('@').nth(1).expect("a drop");
        prop_assert!(neighbours(king).contains(&white_last));
        let empty = 64 - 16;
        for (_, score) in finished.scores().expect("a score") {
            prop_assert!(score >= 0 && score <= 8 * empty);
        }
    }

    #[test]
    fn placement_moves_agree_with_divide(choices in prop::collection::vec(any::<usize>(), 0..12), game in prop::sample::select(vec!["coverage", "cheversi"])) {
        let def = definition(game);
        let mut session = variant_interpreter::open(&def, None).expect("opens");
        for choice in choices {
            if session.outcome().is_some() {
                break;
            }
            let moves = session.legal_moves();
            let mut listed = moves.clone();
            let mut roots: Vec<String> = session.divide(1).into_iter().map(|(m, _)| m).collect();
            listed.sort();
            roots.sort();
            prop_assert_eq!(listed, roots);
            prop_assert_eq!(session.perft(1), moves.len() as u64);
            session.play(&moves[choice % moves.len()]).expect("plays");
        }
    }
}
