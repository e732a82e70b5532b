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
    if let Some(reason) = common::python_missing() {
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

// ---------------------------------------------------------------------------------------------
// Hand-checked positions
// ---------------------------------------------------------------------------------------------

/// A setup: White on ranks 1-2, Black mirrored on 7-8.
const S1: &str = "S@a1 A@b1 G@c1 B@d1 K@e1 A@f1 S@g1 A@h1 R@a2 Q@b2 S@c2 A@d2 S@e2 G@f2 B@g2 \
                  R@h2 S@a8 A@b8 G@c8 B@d8 K@e8 A@f8 S@g8 A@h8 R@a7 Q@b7 S@c7 A@d7 S@e7 G@f7 \
                  B@g7 R@h7";
/// Another, with the minor pieces on the first row.
const S2: &str = "S@a1 S@b1 S@c1 S@d1 A@e1 A@f1 A@g1 A@h1 R@a2 G@b2 Q@c2 K@d2 G@e2 R@f2 B@g2 \
                  B@h2 S@a8 S@b8 S@c8 S@d8 A@e8 A@f8 A@g8 A@h8 R@a7 G@b7 Q@c7 K@d7 G@e7 R@f7 \
                  B@g7 B@h7";

/// Plays `line` after the setup `setup` and draws what a reader checks by hand: the board, the
/// FEN, the state of the turn and the stores, the legal next actions and the result.
fn picture(setup: &str, line: &str) -> String {
    let mut session = open(None);
    for action in setup.split_whitespace().chain(line.split_whitespace()) {
        session
            .play(action)
            .unwrap_or_else(|e| panic!("{action}: {e}"));
    }
    let report = session.turn_report();
    format!(
        "{}\nFEN: {}\nside to move: {}\nturn so far: {:?}\nreserves: {:?}\nprisoners: {:?}\n\
         legal: {}\nresult: {}\n",
        session.diagram(),
        session.fen(),
        session.side_to_move(),
        report.turn_actions.unwrap_or_default(),
        report.reserves.unwrap_or_default(),
        report.prisoners.unwrap_or_default(),
        sorted(session.legal_moves()).join(" "),
        session
            .outcome()
            .map_or("none".to_string(), |o| o.description()),
    )
}

#[test]
fn hand_checked_positions() {
    // Setup, then the first position of play.
    insta::assert_snapshot!("kingdrops-01-setup-done", picture(S1, ""));
    // Captures go to prison: White's Archer takes the Queen on a5 (Black's Q is prisoner of
    // White), mid-turn; Black took White's Rook earlier.
    let prison = "a2a5 b2b4 d2c3 a7a5 b7b6 c7c6 b4a5 c3b4";
    insta::assert_snapshot!("kingdrops-02-prisons-mid-turn", picture(S1, prison));
    // The turn ends (three actions): the Rooks in both prisons are exchanged back to the
    // reserves; the Queen stays in prison (no Queen of White's in Black's prison).
    let exchanged = format!("{prison} e2e3");
    insta::assert_snapshot!("kingdrops-03-exchange", picture(S1, &exchanged));
    // Drops beside the own King only, and the Queen captured this turn is not droppable yet.
    let drops = format!("{exchanged} b6a5 e7e6 c6c5 b4a5");
    insta::assert_snapshot!("kingdrops-04-drop-beside-the-king", picture(S1, &drops));
    // One drop per turn: after Q@d2, no further drop.
    let dropped = format!("{drops} e3e4 h2h3 c5c4 e6e5 f7f6 Q@d2");
    insta::assert_snapshot!("kingdrops-05-one-drop-per-turn", picture(S1, &dropped));
    // K3: White's King on e1 is attacked by the Rook on e4 at the start of the turn: it may move
    // as the first action only.
    let attacked = "e2e3 c2c3 f2f3 h7h4 c7c6 e7e6 e3e4 a2a3 b2b3 h4e4 c6c5 e6e5";
    insta::assert_snapshot!("kingdrops-06-attacked-king-first", picture(S1, attacked));
    insta::assert_snapshot!(
        "kingdrops-07-attacked-king-not-second",
        picture(S1, &format!("{attacked} a3a4"))
    );
    // A win mid-turn by capturing the King: the game ends at once, Black keeps the move.
    insta::assert_snapshot!(
        "kingdrops-08-king-captured-mid-turn",
        picture(S1, &format!("{attacked} a3a4 b3b4 c3c4 c5c4 e4e1"))
    );
    // A win mid-turn by reaching the last row: the captured Guard stays in prison (no exchange
    // after a win).
    let race = "c2c3 a2a3 h2h3 a7a6 h7h6 b7b6 c3c4 a3a2 h3h2 a6a7 h6h7 b6b7 c4c5 a2a3 h2h3 a7a6 \
                h7h6 b7b6 c5c6 a3a2 h3h2 a6a7 h6h7 b6b7 c6c7 a2a3 h2h3 a7a6 h7h6 b7b6 a3a2 c7c8";
    insta::assert_snapshot!("kingdrops-09-last-row-mid-turn", picture(S1, race));
    // Threefold repetition at a turn boundary: the start of play comes back a third time after
    // Black's turn; Black, whose completed turn made it, loses.
    let there_and_back = "a2a3 b2b3 c2c3 a7a6 b7b6 c7c6 a3a2 b3b2 c3c2 a6a7 b6b7 c6c7";
    insta::assert_snapshot!(
        "kingdrops-10-threefold-repetition",
        picture(S2, &format!("{there_and_back} {there_and_back}"))
    );
}

#[test]
fn the_maximal_turn_looks_ahead() {
    // White: King f4, Guard e3 in front of the Spearman e2. The longest turn has three actions
    // (the Guard steps aside, the Spearman advances, the King moves), so after the Guard goes
    // to e4 the King may not step to e3: the Spearman could not move after it.
    let fen = "k7/8/8/8/5K2/4G3/4S3/8[] w - - 0 20";
    let mut session = open(Some(fen));
    let first = sorted(session.legal_moves());
    assert!(!first.iter().any(|m| m.starts_with("e2")), "{first:?}");
    assert!(first.contains(&"e3e4".to_string()), "{first:?}");
    session.play("e3e4").expect("legal");
    let second = sorted(session.legal_moves());
    assert!(!second.contains(&"f4e3".to_string()), "{second:?}");
    assert!(second.contains(&"e2e3".to_string()), "{second:?}");
    assert!(second.contains(&"f4f5".to_string()), "{second:?}");
    let refused = session.play("f4e3").expect_err("greedy King move refused");
    insta::assert_snapshot!("kingdrops-11-greedy-action-refused", refused.to_string());
    // Without the lookahead the King's step would leave the turn one action short: the
    // oracle agrees.
    if !skip_without_python("the_maximal_turn_looks_ahead") {
        let position = r#"{"phase": "play", "side_to_move": "white", "board": {"a8": "k", "f4": "K", "e3": "G", "e2": "S"}, "reserve": {"white": "", "black": ""}, "prison": {"white": "", "black": ""}, "turn_actions": [], "result": null}"#;
        let oracle_second = oracle(&["moves", "--position", position, "--play", "e3e4"]);
        let oracle_second: Vec<String> = oracle_second.lines().map(str::to_string).collect();
        assert_eq!(second, sorted(oracle_second));
    }
}

// ---------------------------------------------------------------------------------------------
// Invariants along random games
// ---------------------------------------------------------------------------------------------

/// The position as the repetition rule compares it: board, reserves, prisons, side to move
/// (the FEN without its clocks and turn fields).
fn repetition_key(session: &dyn Session) -> String {
    let fen = session.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let prison = fields
        .iter()
        .find(|f| f.starts_with("prison:"))
        .copied()
        .unwrap_or("");
    format!("{} {} {prison}", fields[0], fields[1])
}

/// Pieces on the board, in the reserves and in the prisons.
fn pieces_in_play(session: &dyn Session) -> usize {
    let report = session.turn_report();
    let stored: usize = report
        .reserves
        .iter()
        .chain(report.prisoners.iter())
        .flat_map(|map| map.values())
        .map(String::len)
        .sum();
    board_of(session).len() + stored
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, ..Default::default() })]

    #[test]
    fn random_games_keep_the_turn_rules(seed in 0u64..u64::MAX) {
        let mut rng = common::SplitMix(seed);
        let mut session = open(None);
        let mut removed = 0usize;
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut turn: Vec<String> = Vec::new();
        let mut turn_side = session.side_to_move();
        let mut longest_at_start: Option<u8> = None;
        for _ in 0..600 {
            let legal = session.legal_moves();
            if legal.is_empty() {
                break;
            }
            if turn.is_empty() && session.turn_report().phase.as_deref() == Some("play") {
                *seen.entry(repetition_key(session.as_ref())).or_default() += 1;
            }
            let action = legal[rng.below(legal.len())].clone();
            // No piece acts twice in a turn: a move never starts where an action of the
            // turn ended.
            if let Some(from) = action.get(..2).filter(|_| !action.contains('@') && action != "pass") {
                proptest::prop_assert!(
                    !turn.iter().any(|done| done.ends_with(from) || done.get(2..4) == Some(from)),
                    "{action} after {turn:?}"
                );
            }
            session.play(&action).expect("a listed action is accepted");
            if let Some(report) = session.last_move() {
                removed += report
                    .captured
                    .iter()
                    .filter(|p| ["Spearman", "Archer", "King"].contains(&p.piece.as_str()))
                    .count();
            }
            turn.push(action);
            // Every piece is on the board, in a reserve or in a prison, unless a capture
            // removed it from the game.
            proptest::prop_assert_eq!(pieces_in_play(session.as_ref()) + removed, 32);
            let progress = session.turn_report().turn_actions.unwrap_or_default();
            if progress.len() == 1 && session.turn_report().phase.as_deref() == Some("play") {
                longest_at_start = session
                    .fen()
                    .split_whitespace()
                    .find_map(|f| f.strip_prefix("longest:"))
                    .and_then(|n| n.parse().ok());
            }
            let over = session.outcome();
            if progress.is_empty() || over.is_some() {
                // The turn is complete: at most one drop, at most three actions, and (without
                // a win) exactly the turn's longest length.
                proptest::prop_assert!(turn.iter().filter(|a| a.contains('@')).count() <= 1 || session.turn_report().phase.is_none());
                proptest::prop_assert!(turn.len() <= 3, "{turn:?}");
                let in_play = turn_side == session.side_to_move() || over.is_none();
                if over.is_none() && in_play && turn.len() > 1 {
                    if let Some(longest) = longest_at_start {
                        proptest::prop_assert_eq!(turn.len(), longest as usize, "{:?}", turn);
                    }
                }
                turn.clear();
                turn_side = session.side_to_move();
                longest_at_start = None;
            }
            if let Some(outcome) = over {
                // Repetition is declared exactly when a naive count of the positions at turn
                // boundaries reaches three.
                let key = repetition_key(session.as_ref());
                let third = session.turn_report().turn_actions.unwrap_or_default().is_empty()
                    && seen.get(&key).copied().unwrap_or(0) >= 2;
                proptest::prop_assert_eq!(
                    outcome.reason == variant_interpreter::Reason::Repetition,
                    third,
                    "{}",
                    outcome.description()
                );
                break;
            }
        }
    }
}
