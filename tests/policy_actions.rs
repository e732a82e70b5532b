//! A policy's own actions made of board edits, in a game other than Cooperative Chess
//! (`tests/variants/slide-and-jump.variant`), through the real `variant` binary:
//!
//! - `then King slides "R" until not attacked by opponent`: a capture that leaves the King
//!   attacked becomes that capture followed by each slide of the King along a rook's line to the
//!   first square not attacked, taking a piece where it ends; a capture that leaves it safe stays
//!   as it is;
//! - `jump ..., lands when ..., removed when ...`: a contest decided by values: the jumper lands
//!   on an empty square or a weaker piece, is removed by one as strong or stronger, and nothing
//!   happens on its own square;
//! - such actions are played (`--play`), written and explained as the policy builds them, and
//!   text that no dice give is refused.
//!
//! The misuse of these constructs is in `tests/inputs/invalid/77-*` to `81-*` (diagnostics with
//! file:line:col, snapshotted by `tests/diagnostics.rs`).

mod common;

use serde_json::Value;

const GAME: &str = "tests/variants/slide-and-jump.variant";

/// Black's rook c5 (number 3) shields its King e5 from the White rook a5; it may take the rook
/// a5 or the knight c2.
const PINNED: &str = "6/R1r1k1/6/6/2N3/K5 b - - 0 1 numbers:c5=3";

/// Black's rook c6 (number 3) has nothing to capture; a White rook b2 (as strong), a White
/// knight e2 (weaker), a Black knight d6 (weaker).
const CONTEST: &str = "2rn1k/6/6/6/1R2N1/K5 b - - 0 1";

/// `variant policy GAME --fen FEN --dice DICE --json`.
fn decision(fen: &str, dice: &str) -> Value {
    let output = common::variant(&["policy", GAME, "--fen", fen, "--dice", dice, "--json"]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    serde_json::from_str(&common::stdout(&output)).expect("policy --json prints JSON")
}

fn candidates(decision: &Value) -> Vec<String> {
    decision["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .map(|c| c.as_str().expect("a candidate").to_string())
        .collect()
}

#[test]
fn a_capture_that_exposes_the_king_is_followed_by_its_slide() {
    let decision = decision(PINNED, "3");
    assert_eq!(decision["rule"], "rescue");
    // c5a5 leaves the King safe: it stays a plain capture. c5c2 opens rank 5 to the rook a5:
    // the King slides up to e6, down to e4, or left along the attacked rank to take the rook on
    // a5; right, f5 is attacked and the edge follows, so that line gives nothing.
    assert_eq!(
        candidates(&decision),
        ["c5a5", "c5c2&e5a5", "c5c2&e5e4", "c5c2&e5e6"]
    );
}

#[test]
fn a_jump_is_a_contest_decided_by_values() {
    let cases = [
        ("3,5,2", "c6~e2"),  // onto the weaker White knight: lands, taking it
        ("3,2,2", "c6~b2x"), // onto the White rook, as strong: the jumper is removed
        ("3,4,6", "c6~d6"),  // onto its own weaker knight: lands, taking it
        ("3,3,6", "c6~c6-"), // its own square: nothing happens
        ("3,1,4", "c6~a4"),  // an empty square: lands
    ];
    for (dice, expected) in cases {
        let decision = decision(CONTEST, dice);
        assert_eq!(decision["rule"], "duel", "dice {dice}");
        assert_eq!(candidates(&decision), [expected], "dice {dice}");
    }
}

#[test]
fn policy_actions_are_played_as_their_edits() {
    let show = |fen: &str, play: &str| common::show_json(&[GAME, "--fen", fen, "--play", play]);
    // The rook takes the knight on c2 (keeping its number), the King slides e5-a5 taking the
    // rook there; a capture resets the clock.
    let after = show(PINNED, "c5c2&e5a5");
    assert_eq!(after["fen"], "6/k5/6/6/2r3/K5 w - - 0 2 numbers:c2=3");
    assert_eq!(after["history"][0], "c5c2&e5a5");
    // What it took: the knight and the rook, not the King that slid away from e5.
    let taken: Vec<&str> = after["last_move"]["captured"]
        .as_array()
        .expect("captured")
        .iter()
        .map(|piece| piece["square"].as_str().expect("a square"))
        .collect();
    assert_eq!(taken, ["c2", "a5"]);
    // The rook is removed by the White rook b2; the knight d6 stays.
    let after = show(CONTEST, "c6~b2x");
    assert_eq!(after["fen"], "3n1k/6/6/6/1R2N1/K5 w - - 0 2");
    assert_eq!(after["last_move"]["captured"][0]["square"], "c6");
    assert_eq!(after["last_move"]["captured"][0]["side"], "black");
    // Nothing happens: the board is the same, the turn passes and the clock runs.
    let after = show(CONTEST, "c6~c6-");
    assert_eq!(after["fen"], "2rn1k/6/6/6/1R2N1/K5 w - - 1 2");
}

#[test]
fn text_no_dice_give_is_refused_and_explained() {
    // The rook on b2 would be kept by the White rook: `x`, not a landing.
    let output = common::variant(&["show", GAME, "--fen", CONTEST, "--play", "c6~b2"]);
    assert!(!output.status.success());
    let error = common::stderr(&output);
    assert!(
        error.contains("`c6~b2` is no action black's policy can take here"),
        "{error}"
    );
    // The King is safe after c5a5: no slide follows it.
    let output = common::variant(&["show", GAME, "--fen", PINNED, "--play", "c5a5&e5e6"]);
    assert!(!output.status.success());
    let output = common::variant(&["explain", GAME, "c6~e2", "--fen", CONTEST]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    assert!(
        common::stdout(&output)
            .contains("black's policy may play it (`jump`): the Rook on c6 jumps to e2, removing the Knight there"),
        "{}",
        common::stdout(&output)
    );
}

#[test]
fn a_seeded_game_with_the_policy_replays() {
    let dir = common::temporary_dir("slide-and-jump");
    let played = common::run_in(
        &dir,
        &[
            "play",
            &format!("{}/{GAME}", env!("CARGO_MANIFEST_DIR")),
            "--white",
            "random",
            "--seed",
            "5",
            "--record",
            "game.pgn",
        ],
        "",
    );
    assert!(played.status.success(), "{}", common::stderr(&played));
    let record = std::fs::read_to_string(dir.join("game.pgn")).expect("the record is written");
    assert!(record.contains('~'), "Black's policy jumps: {record}");
    let replayed = common::run_in(&dir, &["replay", "game.pgn"], "");
    assert!(replayed.status.success(), "{}", common::stderr(&replayed));
    let last_fen = |text: &str| {
        text.lines()
            .rev()
            .find(|line| line.starts_with("FEN: "))
            .map(str::to_string)
    };
    assert_eq!(
        last_fen(&common::stdout(&replayed)),
        last_fen(&common::stdout(&played)),
        "the replay ends where the game did"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
