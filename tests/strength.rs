//! How strong the computer players are: the table of the README, measured, not claimed.
//!
//! Ignored in the default run (it takes the better part of an hour). Run it on a quiet machine
//! with the release profile:
//!
//! ```sh
//! cargo test --release --test strength -- --ignored --nocapture
//! ```
//!
//! `STRENGTH_GAMES` sets the number of games of `mcts:1s` against `random` per game (default
//! 100), `STRENGTH_CHESS_GAMES` the games of `search:1s` against `mcts:1s` at chess and at
//! Takeover Chess (default 20), `STRENGTH_JOBS` the games played at once (default 1: time budgets are only fair when
//! the players do not share a core).

use std::process::Command;

/// Whether the game file gives some side a scripted policy.
fn has_policy(game: &str) -> bool {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("games/{game}.variant"));
    let loaded = variant_dsl::load_file(&path).expect("loads");
    !loaded.definition.policies.is_empty()
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn games() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .expect("games folder")
        .filter_map(|e| {
            let path = e.ok()?.path();
            if path.extension()? != "variant" {
                return None;
            }
            Some(path.file_stem()?.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
}

/// `variant match GAME A B --json`: (wins, draws, losses, games per second) for A.
fn run_match(game: &str, a: &str, b: &str, games: usize, jobs: usize) -> (u64, u64, u64, f64) {
    let output = Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(["match", game, a, b, "--json", "--seed", "2026"])
        .args(["--games", &games.to_string(), "--jobs", &jobs.to_string()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let n = |k: &str| value[k].as_u64().expect("count");
    (
        n("wins"),
        n("draws"),
        n("losses"),
        value["games_per_second"].as_f64().expect("rate"),
    )
}

/// MCTS playouts in one second from the start position.
fn playouts_per_second(game: &str) -> u64 {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("games/{game}.variant"));
    let loaded = variant_dsl::load_file(&path).expect("loads");
    let session = variant_interpreter::open(&loaded.definition, None).expect("opens");
    variant_interpreter::ai::mcts_playouts_per_second(session.as_ref()).expect("a move")
}

#[test]
#[ignore = "minutes to hours: run with --release --ignored"]
fn mcts_beats_random_and_search_beats_mcts() {
    let games_each = env_number("STRENGTH_GAMES", 100);
    let chess_games = env_number("STRENGTH_CHESS_GAMES", 20);
    let jobs = env_number("STRENGTH_JOBS", 1);
    println!("| game | playouts/s (mcts, start position) | mcts:1s against random: wins-draws-losses | score |");
    println!("|---|---|---|---|");
    let mut failures = Vec::new();
    for game in games() {
        let rate = playouts_per_second(&game);
        if has_policy(&game) {
            // A team against the file's scripted side (Cooperative Chess): `mcts:1s` and
            // `random` are partners there, not opponents, so the two teams are compared
            // against the scripted side instead.
            let team = |player: &str| {
                let (w, d, l, _) = run_match(&game, player, player, games_each, jobs);
                println!("| {game}, {player} team | {rate} | {w}-{d}-{l} | |");
                (w as f64 + d as f64 / 2.0) / (w + d + l) as f64
            };
            let (mcts, random) = (team("mcts:1s"), team("random"));
            if mcts <= random {
                failures.push(format!(
                    "{game}: an mcts:1s team scored {mcts:.2}, a random team {random:.2}"
                ));
            }
            continue;
        }
        let (w, d, l, _) = run_match(&game, "mcts:1s", "random", games_each, jobs);
        let score = (w as f64 + d as f64 / 2.0) / (w + d + l) as f64;
        println!("| {game} | {rate} | {w}-{d}-{l} | {:.1}% |", score * 100.0);
        if (w as f64) < 0.95 * (w + d + l) as f64 {
            failures.push(format!("{game}: mcts:1s won {w} of {}", w + d + l));
        }
    }
    for game in ["chess", "takeover-chess"] {
        let (w, d, l, _) = run_match(game, "search:1s", "mcts:1s", chess_games, jobs);
        println!("\n{game}, search:1s against mcts:1s: {w}-{d}-{l}");
        if w <= l {
            failures.push(format!(
                "{game}: search:1s scored {w}-{d}-{l} against mcts:1s"
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
