//! The placement games checked against `scripts/placement_oracle.py`, an independent Python
//! implementation of Coverage and Cheversi written from the rules texts without reading the
//! engine: a batch of seeded random games of each game is played here, every position's board,
//! side to move, legal placements and controlled squares and every game's scores and result
//! are written to a file, and the oracle replays the games with its own rules and compares
//! (`placement_oracle.py verify`).
//!
//! Property tests along random games check rules that need no oracle, read from the FEN: no
//! placement lands on a piece, Cheversi placements touch a piece, Cheversi ends after exactly
//! 16 placements with the Black King last, touching White's last piece; scores stay within
//! the board.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
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

/// Seeded unless `PROPTEST_RNG_SEED` is set; `PROPTEST_CASES` overrides the number of games.
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            default.rng_seed
        } else {
            RngSeed::Fixed(0x91ace)
        },
        ..default
    }
}

proptest! {
    #![proptest_config(config(32))]

    #[test]
    fn coverage_never_places_on_a_piece_and_scores_within_the_board(choices in prop::collection::vec(any::<usize>(), 1..40)) {
        let coverage = definition("coverage");
        let finished = play_random(&coverage, &choices, |session, placement| {
            let square = placement.split('@').nth(1).expect("a drop");
            assert!(!board(&session.fen()).contains_key(square), "{placement} lands on a piece in {}", session.fen());
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
}

/// A small deterministic generator (SplitMix64) for the oracle batch, so the batch is the same
/// on every run.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// What the engine says about one position, in the oracle's `verify` format.
fn position_claim(session: &dyn Session) -> serde_json::Value {
    let fen = session.fen();
    let board = fen.split(['[', ' ']).next().unwrap_or_default().to_string();
    let side = fen.split(' ').nth(1).unwrap_or_default().to_string();
    serde_json::json!({
        "board": board,
        "side": side,
        "moves": session.legal_moves(),
        "control": {
            "white": session.controlled_squares("white"),
            "black": session.controlled_squares("black"),
        },
    })
}

/// One random game to its end, with every position's claims, in the oracle's format.
fn game_claim(game: &str, definition: &Definition, rng: &mut SplitMix) -> String {
    let mut session = variant_interpreter::open(definition, None).expect("opens");
    let mut positions = vec![position_claim(session.as_ref())];
    while session.outcome().is_none() {
        let moves = session.legal_moves();
        assert!(
            !moves.is_empty(),
            "stuck without a result at {}",
            session.fen()
        );
        assert!(session.history().len() < 64, "a game longer than the board");
        session
            .play(&moves[rng.below(moves.len())])
            .expect("a generated placement can be played");
        positions.push(position_claim(session.as_ref()));
    }
    let scores: serde_json::Map<String, serde_json::Value> = session
        .scores()
        .expect("placement games keep a score")
        .into_iter()
        .map(|(side, score)| (side, score.into()))
        .collect();
    serde_json::json!({
        "game": game,
        "history": session.history(),
        "positions": positions,
        "scores": scores,
        "result": session.outcome(),
    })
    .to_string()
}

/// Runs `placement_oracle.py verify` over the claims: (success, stdout and stderr), or `None`
/// (with a loud message) when python3 is missing outside CI. In CI (`CI` set) a missing python3
/// fails.
fn run_oracle(test: &str, lines: &[String]) -> Option<(bool, String)> {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is missing: the placement oracle cannot run in CI"
        );
        eprintln!("SKIPPED {test}: python3 is not installed, the placement oracle cannot run");
        return None;
    }
    let file = std::env::temp_dir().join(format!(
        "variant-placement-claims-{}-{test}.jsonl",
        std::process::id()
    ));
    std::fs::write(&file, lines.join("\n") + "\n").expect("writes the claims");
    let output = std::process::Command::new("python3")
        .arg("scripts/placement_oracle.py")
        .arg("verify")
        .arg(&file)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_file(&file);
    Some((
        output.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    ))
}

/// Seeded random games of every placement game (`ORACLE_GAMES` of each, 40 by default), each
/// position checked by the independent Python oracle.
#[test]
fn random_games_agree_with_the_python_oracle() {
    let per_game: usize = std::env::var("ORACLE_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    let mut lines = Vec::new();
    let mut rng = SplitMix(2026);
    for game in ["coverage", "coverage-weighted", "cheversi"] {
        let def = definition(game);
        for _ in 0..per_game {
            lines.push(game_claim(game, &def, &mut rng));
        }
    }
    let Some((agreed, report)) = run_oracle("random_games_agree_with_the_python_oracle", &lines)
    else {
        return;
    };
    assert!(agreed, "the oracle disagrees:\n{report}");
    // The oracle must have read every game (a verifier that read nothing would pass too).
    assert!(
        report.contains(&format!("of {} games agree", 3 * per_game)),
        "{report}"
    );
    eprintln!("{report}");
}

/// The comparison can fail: a claim with one legal placement left out, and one with a wrong
/// score, are both rejected.
#[test]
fn the_oracle_rejects_wrong_claims() {
    let mut rng = SplitMix(7);
    let claim: serde_json::Value =
        serde_json::from_str(&game_claim("coverage", &definition("coverage"), &mut rng))
            .expect("JSON");
    let mut missing_move = claim.clone();
    missing_move["positions"][3]["moves"]
        .as_array_mut()
        .expect("moves")
        .pop();
    let mut wrong_score = claim.clone();
    wrong_score["scores"]["white"] =
        (wrong_score["scores"]["white"].as_i64().expect("a score") + 1).into();
    for (what, wrong) in [
        ("a missing move", missing_move),
        ("a wrong score", wrong_score),
    ] {
        let Some((agreed, report)) =
            run_oracle("the_oracle_rejects_wrong_claims", &[wrong.to_string()])
        else {
            return;
        };
        assert!(!agreed, "the oracle accepted {what}:\n{report}");
        assert!(report.contains("differ"), "{report}");
    }
}

/// Once a placement game is over, nothing can be placed.
#[test]
fn finished_placement_games_list_no_moves() {
    let mut rng = SplitMix(11);
    for game in ["coverage", "coverage-weighted", "cheversi"] {
        let def = definition(game);
        for _ in 0..8 {
            let mut session = variant_interpreter::open(&def, None).expect("opens");
            while session.outcome().is_none() {
                let moves = session.legal_moves();
                session.play(&moves[rng.below(moves.len())]).expect("plays");
            }
            assert_eq!(
                session.legal_moves(),
                Vec::<String>::new(),
                "{game}: {}",
                session.fen()
            );
            assert_eq!(session.perft(1), 0, "{game}: {}", session.fen());
        }
    }
}
