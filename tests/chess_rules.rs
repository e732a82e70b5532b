//! Counters in the position and move obligations (issue 28), through the real binary and the
//! library: 3check's checks given (FEN `3+3`, the third check wins, the hash tells counts
//! apart), antichess's and losers' compulsory capture (and its explanation), and "a side with
//! pieces in hand must drop" (tests/variants/must-drop.variant).

mod common;

use common::{stderr, stdout, variant};
use std::path::Path;
use variant_interpreter::{Position, Rules};

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn three_check_writes_the_checks_still_to_give_and_the_third_wins() {
    let after_one = variant(&["show", "games/3check.variant", "--play", "e2e4 f7f6 d1h5"]);
    assert!(after_one.status.success(), "{}", stderr(&after_one));
    assert!(
        stdout(&after_one)
            .contains("FEN: rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2"),
        "{}",
        stdout(&after_one)
    );
    // Bc4xf7+ and Qh5+ are two checks; Qxg6+ is the third, and White wins though it is no mate.
    let moves = "e2e4 e7e5 f1c4 b8c6 c4f7 e8f7 d1h5 g7g6 h5g6";
    let third = variant(&["show", "games/3check.variant", "--play", moves]);
    let text = stdout(&third);
    assert!(text.contains(" b KQ - 0+3 0 5"), "{text}");
    assert!(text.contains("white wins"), "{text}");
    // One check fewer: the game goes on.
    let second = variant(&[
        "moves",
        "games/3check.variant",
        "--play",
        &moves[..moves.len() - 5],
    ]);
    assert!(!stdout(&second).trim().is_empty(), "{}", stderr(&second));
}

#[test]
fn three_check_reads_its_counter_from_a_fen_and_hashes_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let definition = variant_dsl::load_file(&root.join("games/3check.variant"))
        .expect("loads")
        .definition;
    let rules = Rules::<u64>::compile(&definition).expect("compiles");
    let open = |fen: &str| {
        let setup = variant_dsl::fen::parse_fen(&definition, fen).expect("a FEN of 3check");
        Position::from_setup(&rules, &setup).expect("playable")
    };
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
    let fresh = open(&format!("{board} 3+3 0 1"));
    let checked = open(&format!("{board} 1+2 0 1"));
    // Same board, other counts: another position for repetition.
    assert_ne!(fresh.hash(), checked.hash());
    assert_eq!(checked.hash(), checked.fresh_hash(&rules));
    // Written back as read; left out, the counter starts at its start value.
    let written = variant_dsl::fen::write_fen(&definition, &checked.to_setup(&rules));
    assert_eq!(written, format!("{board} 1+2 0 1"));
    let short = open(&format!("{board} 0 1"));
    assert_eq!(short.hash(), fresh.hash());
    // A count that the FEN's countdown cannot show is refused with the field named.
    let refused = variant_dsl::fen::parse_fen(&definition, &format!("{board} 4+3 0 1"));
    let message = refused.expect_err("4 checks to give of 3").to_string();
    assert!(message.contains("counter `checks`"), "{message}");
}

#[test]
fn three_check_refuses_a_bad_counter_field_on_the_command_line() {
    let output = variant(&[
        "moves",
        "games/3check.variant",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+x 0 1",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("`3+x` is not the counter `checks`"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn antichess_captures_are_compulsory_and_a_king_may_be_taken() {
    let output = variant(&["moves", "games/antichess.variant", "--play", "e2e4 d7d5"]);
    assert_eq!(lines(&stdout(&output)), ["e4d5"], "{}", stderr(&output));
    // No capture: every move, the King's included.
    let output = variant(&["moves", "games/antichess.variant", "--play", "e2e4"]);
    assert_eq!(lines(&stdout(&output)).len(), 20);
    // The King is no royal piece: it walks into attack and is captured like any piece.
    let output = variant(&[
        "moves",
        "games/antichess.variant",
        "--fen",
        "8/8/8/8/8/8/4k3/4K3 w - - 0 1",
    ]);
    assert_eq!(lines(&stdout(&output)), ["e1e2"], "{}", stderr(&output));
}

#[test]
fn a_move_that_is_no_capture_is_explained_by_the_obligation() {
    let output = variant(&[
        "explain",
        "games/antichess.variant",
        "a2a3",
        "--play",
        "e2e4 d7d5",
    ]);
    let text = stdout(&output) + &stderr(&output);
    assert!(text.contains("white must capture now"), "{text}");
    assert!(
        text.contains("antichess.variant:")
            && text.contains("must capture when a capture is possible"),
        "{text}"
    );
    assert!(text.contains("for example e4d5"), "{text}");
}

#[test]
fn losers_captures_only_among_the_moves_that_parry_check() {
    // In check from the queen on e7, Black may take the pawn on d4 only if that parries the
    // check: it does not, so the King's moves (and capturing the checker) are all it has.
    let fen = "4k3/4Q3/8/8/3p4/4P3/8/4K3 b - - 0 1";
    let output = variant(&["moves", "games/losers.variant", "--fen", fen]);
    assert_eq!(lines(&stdout(&output)), ["e8e7"], "{}", stderr(&output));
    // A bare King wins at once.
    let output = variant(&[
        "show",
        "games/losers.variant",
        "--fen",
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
    ]);
    assert!(
        stdout(&output).contains("black wins"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn a_side_with_pieces_in_hand_must_drop() {
    let game = "tests/variants/must-drop.variant";
    // Nothing in hand: moves as in crazyhouse.
    let output = variant(&["moves", game, "--play", "e2e4 d7d5"]);
    assert!(
        lines(&stdout(&output)).contains(&"e4d5"),
        "{}",
        stderr(&output)
    );
    // White took a pawn: it holds one, and its only actions are pawn drops.
    let output = variant(&["moves", game, "--play", "e2e4 d7d5 e4d5 g8f6"]);
    let text = stdout(&output);
    let moves = lines(&text);
    assert!(!moves.is_empty(), "{}", stderr(&output));
    assert!(moves.iter().all(|mv| mv.starts_with("P@")), "{moves:?}");
}
