//! Positions as players and other engines write them, through the real binary.
//!
//! A hand-made position that the game's setup cannot reach (pieces where their type never
//! stands, more pieces than the setup gives) is played from, after one `warning:` line on
//! standard error; `--strict` refuses it. A position the rules cannot be played from is still
//! refused, with the reason. Fairy-Stockfish's FEN forms are read for every game: the castling
//! and en-passant fields left out where the game lacks them, `[-]` for empty hands.

mod common;

use common::{show_json, stderr, stdout, variant};
use std::process::Output;

/// Chess with Kingdrops' Guard, Spearman and Archer added: no Spearman or Archer can ever stand
/// anywhere, since none is in the setup.
const KINGDROPS_CHESS: &str = "tests/variants/chess-kingdrops-pieces.variant";

/// The position of the report: Fairy-Stockfish plays it.
const ARCHERS_AND_SPEARMEN: &str = "4k3/8/2a1s3/8/8/2A1S3/8/4K3 w - - 0 1";

/// The lines of standard error that are the position's warning (a game file's own warnings
/// are written `warning[W...]`).
fn warnings(output: &Output) -> Vec<String> {
    stderr(output)
        .lines()
        .filter(|line| line.starts_with("warning:"))
        .map(str::to_string)
        .collect()
}

/// Runs `variant ARGS... --fen FEN` and `... --strict`: the first must succeed after exactly
/// one warning that contains each of `reasons`, the second fail with the reasons and print
/// nothing on standard output. Returns the first run.
fn warned_then_refused(args: &[&str], fen: &str, reasons: &[&str]) -> Output {
    let mut lenient = args.to_vec();
    lenient.extend(["--fen", fen]);
    let output = variant(&lenient);
    assert!(output.status.success(), "{lenient:?}: {}", stderr(&output));
    let lines = warnings(&output);
    assert_eq!(lines.len(), 1, "{lenient:?}: {}", stderr(&output));
    for reason in reasons {
        assert!(lines[0].contains(reason), "{lenient:?}: {}", lines[0]);
    }
    assert!(lines[0].contains("--strict"), "{}", lines[0]);
    let mut strict = lenient.clone();
    strict.push("--strict");
    let refused = variant(&strict);
    assert_eq!(refused.status.code(), Some(1), "{strict:?} was accepted");
    for reason in reasons {
        assert!(
            stderr(&refused).contains(reason),
            "{strict:?}: {}",
            stderr(&refused)
        );
    }
    assert!(stderr(&refused).contains("error:"), "{}", stderr(&refused));
    assert_eq!(stdout(&refused), "", "{strict:?}");
    output
}

#[test]
fn a_position_with_pieces_the_setup_never_places_is_played_with_a_warning() {
    let reasons = [
        "white's Archer on c3: no Archer of white can ever stand there",
        "nor can 3 more pieces where they stand",
        "white has 1 Spearman, but the game gives it 0",
    ];
    let output = warned_then_refused(&["moves", KINGDROPS_CHESS], ARCHERS_AND_SPEARMEN, &reasons);
    let listed = stdout(&output);
    let mut moves: Vec<&str> = listed.lines().collect();
    moves.sort_unstable();
    // The Archer steps diagonally forward, the Spearman forward, the King anywhere near.
    assert_eq!(
        moves,
        ["c3b4", "c3d4", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e3e4"]
    );
    let shown = warned_then_refused(
        &["show", KINGDROPS_CHESS, "--json"],
        ARCHERS_AND_SPEARMEN,
        &reasons,
    );
    let value: serde_json::Value = serde_json::from_slice(&shown.stdout).expect("JSON");
    assert_eq!(value["fen"], ARCHERS_AND_SPEARMEN);
    assert_eq!(value["result"], serde_json::Value::Null);
    // Play goes on from it: the Spearmen advance until one takes the other.
    let after = show_json(&[
        KINGDROPS_CHESS,
        "--fen",
        ARCHERS_AND_SPEARMEN,
        "--play",
        "e3e4 e6e5 e4e5",
    ]);
    assert_eq!(after["fen"], "4k3/8/2a5/4S3/8/2A5/8/4K3 b - - 0 2");
}

#[test]
fn every_command_with_a_fen_takes_strict() {
    let fen = ARCHERS_AND_SPEARMEN;
    let reason = ["no Archer of white can ever stand there"];
    let perft = warned_then_refused(&["perft", KINGDROPS_CHESS, "--depth", "2"], fen, &reason);
    assert!(
        stdout(&perft).ends_with("Nodes searched: 64\n"),
        "{}",
        stdout(&perft)
    );
    let explained = warned_then_refused(&["explain", KINGDROPS_CHESS, "e3e4"], fen, &reason);
    assert!(!stdout(&explained).is_empty());
    let played = warned_then_refused(
        &[
            "play",
            KINGDROPS_CHESS,
            "--white",
            "random",
            "--black",
            "random",
            "--seed",
            "3",
        ],
        fen,
        &reason,
    );
    assert!(stdout(&played).contains("FEN"), "{}", stdout(&played));
    // `policy` refuses the position before it looks for a policy.
    let policy = variant(&["policy", KINGDROPS_CHESS, "--fen", fen, "--strict"]);
    assert_eq!(policy.status.code(), Some(1));
    assert!(stderr(&policy).contains(reason[0]), "{}", stderr(&policy));
    let policy = variant(&["policy", KINGDROPS_CHESS, "--fen", fen]);
    assert_eq!(warnings(&policy).len(), 1, "{}", stderr(&policy));
    assert!(
        stderr(&policy).contains("has no policy"),
        "{}",
        stderr(&policy)
    );
    // A position the setup reaches passes `--strict` without a word, in every command.
    let reachable = "r3k3/8/8/8/8/8/8/4K3 b - - 0 1";
    for args in [
        vec!["moves", "chess"],
        vec!["show", "chess"],
        vec!["perft", "chess", "--depth", "1"],
        vec!["explain", "chess", "e8d8"],
        vec!["policy", "cooperative-chess"],
    ] {
        let mut all = args.clone();
        let fen = if args[1] == "cooperative-chess" {
            None
        } else {
            Some(reachable)
        };
        if let Some(fen) = fen {
            all.extend(["--fen", fen]);
        }
        all.push("--strict");
        let output = variant(&all);
        assert!(
            !stderr(&output).contains("warning:") && !stderr(&output).contains("impossible"),
            "{all:?}: {}",
            stderr(&output)
        );
        if args[0] != "policy" {
            assert!(output.status.success(), "{all:?}: {}", stderr(&output));
        }
    }
}

#[test]
fn positions_the_rules_cannot_be_played_from_are_still_refused() {
    let queens = |white: usize, black: usize| {
        format!(
            "4k3/8/8/8/8/8/8/4K3[{}{}] w - - 0 1",
            "Q".repeat(white),
            "q".repeat(black)
        )
    };
    let cases = [
        // A side without the royal piece its end rules (`check`) need.
        (
            KINGDROPS_CHESS,
            "4k3/8/2a1s3/8/8/2A1S3/8/8 w - - 0 1".to_string(),
            "white has no King on the board",
        ),
        // The side not to move with its royal piece attacked.
        (
            KINGDROPS_CHESS,
            "4k3/4Q3/2a5/8/8/2A5/8/4K3 w - - 0 1".to_string(),
            "black's King on e8 is attacked by white's Queen on e7, with white to move",
        ),
        // Pieces in hand in a game without hands.
        (
            KINGDROPS_CHESS,
            "4k3/8/2a1s3/8/8/2A1S3/8/4K3[S] w - - 0 1".to_string(),
            "white holds 1 Spearman in hand, but nothing in this game puts pieces in a hand",
        ),
        // Counts past the engine's limits: a hand holds at most 255 of a type, and where
        // captured pieces come back to a hand, no more than 255 pieces in all.
        (
            "games/crazyhouse.variant",
            queens(256, 0),
            "more than 255 `Q` in hand",
        ),
        (
            "games/crazyhouse.variant",
            queens(200, 60),
            "262 pieces on the board, in hand and in prison",
        ),
        // Malformed text.
        (
            KINGDROPS_CHESS,
            "4k3/8/2a1s3/8/8/2A1S3/4K3 w - - 0 1".to_string(),
            "the FEN gives 7 ranks, the board has 8",
        ),
        (
            KINGDROPS_CHESS,
            "4k3/8/2a1s3/8/8/2A1S3/8/4K3 w - 0 1".to_string(),
            "expected the en-passant square or `-` before the move counters, found `0`",
        ),
    ];
    for (game, fen, reason) in cases {
        for strict in [false, true] {
            let mut args = vec!["moves", game, "--fen", &fen];
            if strict {
                args.push("--strict");
            }
            let output = variant(&args);
            assert_eq!(output.status.code(), Some(1), "{args:?} was accepted");
            assert!(
                stderr(&output).contains(reason),
                "{args:?}: {}",
                stderr(&output)
            );
            assert!(
                warnings(&output).is_empty(),
                "{args:?}: {}",
                stderr(&output)
            );
            assert_eq!(stdout(&output), "");
        }
    }
    // Right at the limit, a crazyhouse position is played from (with a warning: the setup
    // has fewer pieces).
    let output = variant(&[
        "moves",
        "games/crazyhouse.variant",
        "--fen",
        &queens(200, 53),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(warnings(&output).len(), 1, "{}", stderr(&output));
}

/// The FEN as Fairy-Stockfish writes it for this game: without the castling field where the
/// game has no castling, without the en-passant field where it has no en passant, and `[-]`
/// for empty hands.
fn fairy_form(definition: &variant_dsl::Definition, fen: &str) -> String {
    let fields: Vec<&str> = fen.split(' ').collect();
    let board = fields[0].replace("[]", "[-]");
    let mut out = vec![board.as_str(), fields[1]];
    if !definition.castling.is_empty() {
        out.push(fields[2]);
    }
    if definition.has_en_passant() {
        out.push(fields[3]);
    }
    out.extend(&fields[4..]);
    out.join(" ")
}

/// For every game file and test variant, along a seeded random game, the FEN `show` writes,
/// rewritten as Fairy-Stockfish writes it (fields the game lacks left out, `[-]` for empty
/// hands), reads back to the same position; the FEN written stays the full form.
#[test]
fn fairy_stockfish_fen_forms_read_back_for_every_game() {
    const CHECKED_PLIES: [usize; 8] = [0, 1, 2, 4, 8, 16, 32, 48];
    let (mut without_castling, mut without_en_passant, mut dashed_hands) = (0, 0, 0);
    for (path, definition) in common::game_and_test_variant_files() {
        let game = path.to_str().expect("a UTF-8 path");
        let mut session = variant_interpreter::open(&definition, None).expect("opens");
        let mut played: Vec<String> = Vec::new();
        let mut seed = 7u64;
        loop {
            let over = session.outcome().is_some();
            if CHECKED_PLIES.contains(&played.len()) || over {
                let line = played.join(" ");
                let mut args = vec![game];
                if !line.is_empty() {
                    args.extend(["--play", &line]);
                }
                let written = show_json(&args)["fen"].as_str().expect("a FEN").to_string();
                assert_eq!(written, session.fen(), "{game} after {line}");
                let fairy = fairy_form(&definition, &written);
                without_castling += usize::from(definition.castling.is_empty());
                without_en_passant += usize::from(!definition.has_en_passant());
                dashed_hands += usize::from(fairy.contains("[-]"));
                let read = variant(&["show", game, "--fen", &fairy, "--json"]);
                assert!(
                    read.status.success(),
                    "{game}: `{fairy}`: {}",
                    stderr(&read)
                );
                let read: serde_json::Value = serde_json::from_slice(&read.stdout).expect("JSON");
                assert_eq!(read["fen"], written, "{game}: `{fairy}`");
            }
            let moves = session.legal_moves();
            if over || moves.is_empty() || played.len() >= 48 {
                break;
            }
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mv = moves[(seed >> 33) as usize % moves.len()].clone();
            session.play(&mv).expect("a listed move");
            played.push(mv);
        }
    }
    // Each form was met, in several games.
    assert!(without_castling >= 10, "{without_castling}");
    assert!(without_en_passant >= 10, "{without_en_passant}");
    assert!(dashed_hands >= 3, "{dashed_hands}");
}

/// A side without its royal piece is refused where `check` needs one, but not where the end
/// rules say what its loss means (`royal captured`): there the position is a finished game,
/// such as the last position of an atomic game whose King exploded.
#[test]
fn a_lost_royal_piece_is_a_finished_game_where_the_end_rules_say_so() {
    let exploded = "8/8/8/8/8/8/8/4K3 b - - 0 1";
    for strict in [false, true] {
        let mut args = vec!["games/atomic.variant", "--fen", exploded];
        if strict {
            args.push("--strict");
        }
        let value = show_json(&args);
        assert_eq!(
            value["result"]["description"],
            "white wins by capture of the royal piece"
        );
        assert_eq!(value["legal_moves"], serde_json::json!([]));
    }
    // Black's capture exploded White's King with Black's own in the Rook's line: the game
    // ended with that capture, so Black's attacked King is no broken position.
    let taken_in_check = "k7/8/8/8/8/8/8/R7 w - - 0 2";
    let value = show_json(&["games/atomic.variant", "--fen", taken_in_check]);
    assert_eq!(
        value["result"]["description"],
        "black wins by capture of the royal piece"
    );
    let output = variant(&["show", "chess", "--fen", exploded]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("black has no King on the board"),
        "{}",
        stderr(&output)
    );
}

/// A double step that ends on the promotion rank (Torpedo's b3-b1, which promotes) leaves its
/// en-passant target behind the promoted piece: the FEN printed after it reads back, and is
/// played from. An en-passant square that no double step could have left is still refused.
#[test]
fn the_target_of_a_promoting_double_step_reads_back() {
    let before = "4k3/8/8/8/8/1p6/8/4K3 b - - 0 1";
    let after = show_json(&["games/torpedo.variant", "--fen", before, "--play", "b3b1b"]);
    let fen = after["fen"].as_str().expect("a FEN").to_string();
    assert_eq!(fen, "4k3/8/8/8/8/8/8/1b2K3 w - b2 0 2");
    for strict in [false, true] {
        let mut args = vec!["games/torpedo.variant", "--fen", &fen];
        if strict {
            args.push("--strict");
        }
        let read = show_json(&args);
        assert_eq!(read["fen"], fen.as_str());
    }
    // The start square b3 is occupied: no double step passed b2.
    let output = variant(&[
        "moves",
        "games/torpedo.variant",
        "--fen",
        "4k3/8/8/8/8/1n6/8/1b2K3 w - b2 0 2",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("no piece can be captured en passant on b2"),
        "{}",
        stderr(&output)
    );
}
