//! Neutral pieces (docs/language.md §2.6.4), on the real binary: duck chess's moves written
//! `e2e4,e4e5` in every command (`moves`, `play`, `uci`), the duck read and written `*` in its
//! FENs while `*` stays a hole elsewhere, its blocking, its ends (a King captured, stalemate
//! won, the move limit), and the diagnostics (`E0605`) of a `neutral` piece the game cannot
//! have. Agreement with Fairy-Stockfish along random games is tests/library.rs's
//! (tests/fsf/duck.txt).

mod common;

use common::{run_in, show_json, stderr, stdout, temporary_dir, variant};

const DUCK: &str = "games/duck.variant";

/// `variant moves games/duck.variant [--fen FEN]`'s moves.
fn moves(fen: Option<&str>) -> Vec<String> {
    let mut args = vec!["moves", DUCK];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let output = variant(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output).lines().map(str::to_string).collect()
}

#[test]
fn every_move_ends_by_putting_the_duck_on_an_empty_square() {
    let start = moves(None);
    assert_eq!(
        start.len(),
        640,
        "20 moves, each with 32 squares for the duck"
    );
    // Written from the move's destination; the square just left is one of the duck's.
    assert!(start.contains(&"e2e4,e4e2".to_string()));
    assert!(start.contains(&"g1f3,f3e5".to_string()));
    // Never on an occupied square, nor where the piece moved to.
    assert!(!start.iter().any(|m| m == "e2e4,e4e4" || m == "e2e4,e4e7"));
    assert!(start
        .iter()
        .all(|m| m.len() == 9 && m.as_bytes()[4] == b','));
}

#[test]
fn the_duck_blocks_must_move_and_cannot_be_taken() {
    // The duck on e3: the e-pawn is stuck; the d-pawn may not leave it there.
    let fen = "rnbqkbnr/pppppppp/8/8/8/4*3/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let listed = moves(Some(fen));
    assert!(!listed.iter().any(|m| m.starts_with("e2")), "blocked");
    assert!(
        !listed.iter().any(|m| m.ends_with("e3")),
        "the duck must move"
    );
    assert!(listed.contains(&"d2d3,d3d2".to_string()));
    // A Bishop's line stops before it, and nothing lands on it.
    let fen = "4k3/8/8/8/8/2*5/8/B3K3 w - - 0 1";
    let listed = moves(Some(fen));
    assert!(listed.iter().any(|m| m.starts_with("a1b2,")));
    assert!(!listed
        .iter()
        .any(|m| m.starts_with("a1c3") || m.starts_with("a1d4")));
}

#[test]
fn duck_fens_are_written_back_as_read() {
    for fen in [
        "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3p4/3*P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        // No duck yet: the start.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ] {
        assert_eq!(show_json(&[DUCK, "--fen", fen])["fen"], fen);
    }
    // Fairy-Stockfish's castling: the King's move, then the duck from its square.
    let castled = show_json(&[
        DUCK,
        "--fen",
        "r3k2r/pPpppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "--play",
        "e1g1,g1e1",
    ]);
    assert_eq!(
        castled["fen"],
        "r3k2r/pPpppppp/8/8/8/8/PPPPPPPP/R3*RK1 b kq - 1 1"
    );
}

#[test]
fn a_second_duck_is_refused_and_a_star_stays_a_hole_elsewhere() {
    let two = "rnbqkbnr/pppp*ppp/8/8/8/4*3/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let output = variant(&["show", DUCK, "--fen", two]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("a second `*`"),
        "{}",
        stderr(&output)
    );
    // Chess has neither holes nor a neutral piece.
    let output = variant(&["show", "games/chess.variant", "--fen", two]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("`*` marks a hole"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn duck_chess_ends_by_a_king_captured_stalemate_or_the_move_limit() {
    let result = |fen: &str| show_json(&[DUCK, "--fen", fen])["result"].clone();
    // White's King is gone.
    let taken = result("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1");
    assert_eq!(taken["winners"], serde_json::json!(["black"]));
    // White cannot move (its pawns blocked, the duck on b8): the stalemated side wins.
    let stalemate = result("K*6/PP6/PP6/PP6/PP6/PP6/PP6/7k w - - 0 1");
    assert_eq!(stalemate["winners"], serde_json::json!(["white"]));
    assert_eq!(stalemate["reason"], "stalemate");
    // Fifty moves each without a capture or a pawn move.
    let limit = result("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 60");
    assert_eq!(limit["draw"], true);
}

#[test]
fn duck_moves_are_typed_at_the_prompt_in_both_notations_and_saved() {
    let dir = temporary_dir("duck-play");
    let output = run_in(
        &dir,
        &["play", "duck", "--black", "random", "--seed", "3"],
        "explain e2e4\nexplain e2e4,e4e7\ne2e4,e4e5\nundo\ne4,e5\nsave game.pgn\nquit\n",
    );
    let transcript = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        transcript.contains("neither side's: * Duck"),
        "{transcript}"
    );
    // A move without its placement, and a placement on a piece, are explained.
    assert!(
        transcript.contains("the move does not put the Duck"),
        "{transcript}"
    );
    assert!(
        transcript.contains("the Duck cannot be put as `e4e7` after this move"),
        "{transcript}"
    );
    assert!(
        transcript.contains("for example `e2e4,e4e2`"),
        "{transcript}"
    );
    // The UCI move was taken back, the SAN one played; the board draws the duck `*`.
    assert!(
        transcript.contains("Taken back: e2e4,e4e5 "),
        "{transcript}"
    );
    let drawn = transcript
        .lines()
        .filter(|line| line.starts_with(' ') && line.contains('*'))
        .count();
    assert!(drawn >= 2, "{transcript}");
    let record = std::fs::read_to_string(dir.join("game.pgn")).expect("saved");
    assert!(record.contains("1. e4,e5 "), "{record}");
}

#[test]
fn the_uci_engine_reads_and_writes_duck_moves() {
    let dir = temporary_dir("duck-uci");
    let output = run_in(
        &dir,
        &["uci"],
        "uci\nsetoption name UCI_Variant value duck\nposition startpos moves e2e4,e4e5 d7d5,d5e2\ngo depth 1\nquit\n",
    );
    let text = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    let best = text
        .lines()
        .find_map(|line| line.strip_prefix("bestmove "))
        .expect("a best move");
    let (played, duck) = best.split_once(',').expect("a duck move: {best}");
    assert_eq!(played.len(), 4, "{best}");
    assert_eq!(
        &duck[..2],
        &played[2..4],
        "written from the destination: {best}"
    );
}

/// `variant check` of a chess-like game with `extra` added, which must fail with `E0605`
/// and say `expected`.
fn refused(name: &str, extra: &str, expected: &str) {
    let dir = temporary_dir(name);
    let file = dir.join("game.variant");
    let source = format!(
        "game \"Broken\"\nboard 8x8\nside white {{ forward up }}\nside black {{ forward down }}\n\
         piece King {{ letter K\n moves \"K\" }}\n{extra}\nsetup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n"
    );
    std::fs::write(&file, source).expect("written");
    let output = variant(&["check", file.to_str().expect("a path")]);
    let text = stderr(&output);
    assert!(!output.status.success(), "{name}: accepted");
    assert!(text.contains("error[E0605]"), "{name}: {text}");
    assert!(text.contains(expected), "{name}: {text}");
}

#[test]
fn misused_neutral_pieces_are_reported() {
    refused(
        "neutral-two",
        "piece Duck { letter D\n neutral }\npiece Goose { letter G\n neutral }",
        "a second neutral piece, `Goose`",
    );
    refused(
        "neutral-moves",
        "piece Duck { letter D\n neutral\n moves \"K\" }",
        "`moves` on the neutral piece `Duck`",
    );
    refused(
        "neutral-gating",
        "piece Duck { letter D\n neutral }\ngating from rank 1",
        "a neutral piece in a game with `gating`",
    );
    refused(
        "neutral-turns",
        "piece Duck { letter D\n neutral }\nturn { up to 2 actions }",
        "turns of several actions",
    );
}

#[test]
fn no_en_passant_onto_the_duck() {
    // Black's double step puts the duck on the square passed: e5xd6 would land on it.
    let after = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    let output = variant(&["moves", DUCK, "--fen", after, "--play", "d7d5,d5d6"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let listed = stdout(&output);
    assert!(!listed.lines().any(|m| m.starts_with("e5d6")), "{listed}");
    // With the duck elsewhere, en passant is a move (once per square for the duck).
    let output = variant(&["moves", DUCK, "--fen", after, "--play", "d7d5,d5a8"]);
    assert!(stdout(&output).lines().any(|m| m == "e5d6,d6d5"));
}

#[test]
fn perft_3_from_the_start_is_fairy_stockfish_s() {
    // Fairy-Stockfish's `go perft 3` with `UCI_Variant duck` (pyffish's perft 2 is in
    // tests/fsf/duck.txt).
    let output = variant(&["perft", DUCK, "--depth", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("Nodes searched: 249921262"),
        "{}",
        stdout(&output)
    );
}
