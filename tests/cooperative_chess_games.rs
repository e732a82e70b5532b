//! Cooperative Chess played whole, by the library: seeded games with random team partners
//! against Red's policy (the file's priority list, dice from the game's seed).
//!
//! - Every Red action is one its policy allows for the dice it rolled: given those dice, the
//!   policy (`Session::policy`) names it among its candidates, and `last_policy` reports the
//!   same rule.
//! - A game replays exactly from its seed: the same players and seed give the same actions.
//! - Every game ends with a result (the move limit and repetition make sure of it).
//! - A complete seeded game, played by the binary, is kept as a snapshot.

mod common;

use variant_interpreter::{AgentOptions, PlayerSpec, Session};

fn definition() -> variant_dsl::Definition {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cooperative-chess.variant");
    variant_dsl::load_file(&path)
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition
}

/// A played game: its actions, Red's dice per Red action (by ply), the result's description.
type Played = (Vec<String>, Vec<(usize, Vec<u32>)>, Option<String>);

/// One game: random partners, Red by its policy.
fn play(seed: u64) -> Played {
    let definition = definition();
    let mut session = variant_interpreter::open(&definition, None).expect("opens");
    let specs = [PlayerSpec::Random, PlayerSpec::Random, PlayerSpec::Policy];
    let mut agents: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(side, &spec)| {
            session
                .agent(
                    spec,
                    AgentOptions {
                        seed: seed.wrapping_mul(3).wrapping_add(side as u64),
                        threads: 1,
                    },
                )
                .expect("agent")
        })
        .collect();
    let mut red_dice = Vec::new();
    while session.outcome().is_none() && session.history().len() < 5_000 {
        let side = definition
            .sides
            .iter()
            .position(|s| s.name == session.side_to_move())
            .expect("a side");
        let before = session.history().len();
        let choice = agents[side].choose(session.as_ref()).expect("a move");
        if side == 2 {
            let dice = choice.dice.clone().expect("the policy says its dice");
            check_red_action(session.as_ref(), &choice.mv, &dice, seed, before);
            red_dice.push((before, dice.clone()));
            session.play(&choice.mv).expect("Red's action is accepted");
            session.note_dice(dice.clone());
            let report = session
                .last_policy()
                .expect("the policy produced the last action");
            assert_eq!(report.dice, dice, "seed {seed}, ply {before}");
        } else {
            session.play(&choice.mv).expect("legal");
        }
    }
    (
        session.history(),
        red_dice,
        session.outcome().map(|o| o.description()),
    )
}

/// The policy, given the dice Red rolled, offers the action Red played.
fn check_red_action(session: &dyn Session, action: &str, dice: &[u32], seed: u64, ply: usize) {
    let report = session
        .policy(Some(dice), None)
        .unwrap_or_else(|e| panic!("seed {seed}, ply {ply}: {e}"));
    assert_eq!(report.dice, dice, "seed {seed}, ply {ply}: all dice read");
    assert!(
        report.candidates.iter().any(|c| c == action),
        "seed {seed}, ply {ply}: {action} is not among rule {}'s candidates {:?}",
        report.rule,
        report.candidates
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 16, ..Default::default() })]

    #[test]
    fn seeded_games_follow_the_policy_replay_and_end(seed in 0u64..1_000_000) {
        let (actions, dice, result) = play(seed);
        proptest::prop_assert!(result.is_some(), "seed {seed}: no result after {} plies", actions.len());
        proptest::prop_assert!(!dice.is_empty(), "seed {seed}: Red never moved");
        let again = play(seed);
        proptest::prop_assert_eq!(&again.0, &actions, "seed {}: replays", seed);
        proptest::prop_assert_eq!(&again.1, &dice);
        proptest::prop_assert_eq!(&again.2, &result);
    }
}

#[test]
fn a_complete_seeded_game_by_the_binary() {
    let output = common::variant(&[
        "play",
        "cooperative-chess",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "11",
    ]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    let transcript = common::stdout(&output);
    assert!(transcript.contains("Result: "), "{transcript}");
    assert!(
        transcript.contains("red: policy") || transcript.contains("policy"),
        "{transcript}"
    );
    let again = common::stdout(&common::variant(&[
        "play",
        "cooperative-chess",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "11",
    ]));
    assert_eq!(again, transcript, "the same seed plays the same game");
    insta::assert_snapshot!("cooperative-chess-seed-11", transcript);
}

#[test]
fn a_record_with_red_jumps_loads_and_replays() {
    let dir = common::temporary_dir("coop-record");
    let played = common::run_in(
        &dir,
        &[
            "play",
            "cooperative-chess",
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "11",
            "--record",
            "game.pgn",
        ],
        "",
    );
    assert!(played.status.success(), "{}", common::text(&played.stderr));
    let record = std::fs::read_to_string(dir.join("game.pgn")).expect("the record is written");
    assert!(record.contains("b8~b7"), "seed 11 has a 7b jump: {record}");
    assert!(record.contains("[Red \"policy\"]"), "{record}");
    let final_fen = |text: &str| {
        text.lines()
            .find(|line| line.starts_with("FEN: "))
            .map(str::to_string)
    };
    let replayed = common::run_in(&dir, &["replay", "game.pgn"], "");
    assert!(
        replayed.status.success(),
        "{}",
        common::text(&replayed.stderr)
    );
    let replayed = common::text(&replayed.stdout);
    assert!(
        replayed.contains("Result: red wins by checkmate"),
        "{replayed}"
    );
    assert_eq!(
        replayed
            .lines()
            .rev()
            .find(|l| l.starts_with("FEN: "))
            .map(str::to_string),
        final_fen(&common::text(&played.stdout)),
        "the replay ends where the game did"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explain_says_what_a_policy_action_does() {
    let explain = |args: &[&str]| {
        let output = common::variant(args);
        let text = common::stdout(&output);
        (output.status.success(), text)
    };
    let (code, text) = explain(&["explain", "cooperative-chess", "b8~b7", "--play", "b2b4"]);
    assert!(code, "{text}");
    assert!(
        text.contains("the Knight on b8 jumps to b7, removing the Pawn there"),
        "{text}"
    );
    // No dice make Red jump from an empty square, and White has no policy.
    let (code, text) = explain(&["explain", "cooperative-chess", "a6~b7", "--play", "b2b4"]);
    assert!(code, "{text}");
    assert!(
        text.contains("no action red's policy can take here"),
        "{text}"
    );
    let (code, text) = explain(&["explain", "cooperative-chess", "b8~b7"]);
    assert!(code, "{text}");
    assert!(text.contains("white, to move, has no policy"), "{text}");
}
