//! Move rules judged on the position after the move (docs/language.md §2.11, "Judged after the
//! move"): `must not give check`, `must [not] after C`, with a side and a `when` condition, and
//! the diagnostics for `after` and `give check` written where they mean nothing. Every case runs
//! the real binary on a small game file.

mod common;

use common::{run_in, stderr, stdout};
use std::path::PathBuf;

/// Writes `text` as `NAME.variant` in a fresh directory of this test; returns the directory.
fn game_dir(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-after-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    std::fs::write(dir.join(format!("{name}.variant")), text).expect("writes");
    dir
}

/// Chess with these move rules.
fn chess_with_moves(rules: &str) -> String {
    format!("extends \"chess\"\ngame \"Test\"\nmoves {{\n{rules}\n}}\n")
}

/// The legal moves of `game` (a file in `dir`) at `fen`, sorted.
fn moves(dir: &std::path::Path, game: &str, fen: &str) -> Vec<String> {
    let output = run_in(
        dir,
        &["moves", &format!("{game}.variant"), "--fen", fen],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    moves.sort();
    moves
}

/// A white rook on b1 and king on h1 against the black king on a8: the rook gives check from a1
/// and from b8, from nowhere else.
const ROOK_FILE: &str = "k7/8/8/8/8/8/8/1R5K w - - 0 1";

fn rook_moves(moves: &[String]) -> Vec<&str> {
    moves
        .iter()
        .map(String::as_str)
        .filter(|m| m.starts_with("b1"))
        .collect()
}

#[test]
fn no_move_may_give_check() {
    let dir = game_dir("nocheck", &chess_with_moves("must not give check"));
    let moves = moves(&dir, "nocheck", ROOK_FILE);
    assert_eq!(
        rook_moves(&moves),
        ["b1b2", "b1b3", "b1b4", "b1b5", "b1b6", "b1b7", "b1c1", "b1d1", "b1e1", "b1f1", "b1g1"]
    );
    // The king's moves are untouched.
    assert!(moves.contains(&"h1g2".to_string()), "{moves:?}");
}

#[test]
fn a_discovered_check_is_a_check_too() {
    // The knight on a4 blocks the rook: every knight move uncovers the check, so none is legal.
    let dir = game_dir("discovered", &chess_with_moves("must not give check"));
    let moves = moves(&dir, "discovered", "k7/8/8/8/N7/8/8/R6K w - - 0 1");
    assert!(moves.iter().all(|m| !m.starts_with("a4")), "{moves:?}");
    // Without the rule the knight has its four moves.
    let dir = game_dir("discovered-free", "extends \"chess\"\ngame \"Test\"\n");
    let free = self::moves(&dir, "discovered-free", "k7/8/8/8/N7/8/8/R6K w - - 0 1");
    assert_eq!(free.iter().filter(|m| m.starts_with("a4")).count(), 4);
}

#[test]
fn an_after_condition_says_the_same_as_give_check() {
    let written = "must not after some (opponent King and attacked by own)";
    let dir = game_dir("aftercheck", &chess_with_moves(written));
    let by_condition = moves(&dir, "aftercheck", ROOK_FILE);
    let dir = game_dir("givecheck", &chess_with_moves("must not give check"));
    assert_eq!(by_condition, moves(&dir, "givecheck", ROOK_FILE));
}

#[test]
fn must_after_keeps_only_the_moves_after_which_the_condition_holds() {
    // Every move must leave the black king attacked: only the rook's checks and nothing else.
    let written = "must after some (opponent King and attacked by own)";
    let dir = game_dir("mustcheck", &chess_with_moves(written));
    assert_eq!(moves(&dir, "mustcheck", ROOK_FILE), ["b1a1", "b1b8"]);
}

#[test]
fn a_side_and_a_when_condition_narrow_the_rule() {
    // Only White is bound, and only its rook: Black may check, White's queen may check.
    let written = "white must not give check when move Rook";
    let dir = game_dir("narrow", &chess_with_moves(written));
    let white = moves(&dir, "narrow", "k7/8/8/8/8/8/8/1RQ4K w - - 0 1");
    assert!(!white.contains(&"b1a1".to_string()), "{white:?}");
    assert!(white.contains(&"b1b2".to_string()), "{white:?}");
    assert!(white.contains(&"c1c8".to_string()), "{white:?}");
    let black = moves(&dir, "narrow", "k6r/8/8/8/8/8/8/6K1 b - - 0 1");
    assert!(black.contains(&"h8g8".to_string()), "{black:?}");
}

#[test]
fn perft_counts_only_the_allowed_moves() {
    // Racing Kings' start (Fairy-Stockfish's perft: 21, 421, 11264).
    let dir = game_dir("racing", &chess_with_moves("must not give check"));
    let fen = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1";
    for (depth, nodes) in [("1", "21"), ("2", "421"), ("3", "11264")] {
        let output = run_in(
            &dir,
            &["perft", "racing.variant", "--fen", fen, "--depth", depth],
            "",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stdout(&output).ends_with(&format!("Nodes searched: {nodes}\n")),
            "depth {depth}: {}",
            stdout(&output)
        );
    }
}

/// `variant check` on a file: its exit status and standard error.
fn check(name: &str, text: &str) -> (bool, String) {
    let dir = game_dir(name, text);
    let output = run_in(&dir, &["check", &format!("{name}.variant")], "");
    (output.status.success(), stderr(&output))
}

#[test]
fn after_is_refused_where_it_means_nothing() {
    let cases = [
        (
            "in-drops",
            "extends \"chess\"\ngame \"T\"\ndrops { must not give check }\n",
        ),
        (
            "in-or",
            "extends \"chess\"\ngame \"T\"\nmoves { must (move King or after some occupied) }\n",
        ),
        (
            "in-end",
            "extends \"chess\"\ngame \"T\"\nend { loses when after some occupied }\n",
        ),
        (
            "nested",
            "extends \"chess\"\ngame \"T\"\nmoves { must not after (after some occupied) }\n",
        ),
        (
            "moving-inside",
            "extends \"chess\"\ngame \"T\"\nmoves { must not after move King }\n",
        ),
    ];
    for (name, text) in cases {
        let (ok, errors) = check(name, text);
        assert!(!ok, "{name}: accepted");
        assert!(errors.contains("error[E0812]"), "{name}: {errors}");
        assert!(!errors.contains("panicked"), "{name}: {errors}");
    }
    let (_, errors) = check(
        "in-drops-help",
        "extends \"chess\"\ngame \"T\"\ndrops { must not give check }\n",
    );
    assert!(
        errors.contains("`give check` cannot be used in a drop rule")
            && errors.contains("in the `moves` block"),
        "{errors}"
    );
}

#[test]
fn a_mistake_inside_after_is_reported() {
    let (ok, errors) = check(
        "typo",
        "extends \"chess\"\ngame \"T\"\nmoves { must not after some (opponent Kng) }\n",
    );
    assert!(!ok);
    assert!(errors.contains("Kng"), "{errors}");
    let (ok, errors) = check(
        "squares",
        "extends \"chess\"\ngame \"T\"\nmoves { must not after opponent King }\n",
    );
    assert!(!ok);
    assert!(errors.contains("expected a condition"), "{errors}");
}

#[test]
fn reach_gives_a_line_of_sight_for_the_flying_general() {
    // Kings may not face each other on a file with nothing between them.
    let written = "must not after some (opponent King and reach of (own King) by \"vR\")";
    let dir = game_dir("flying", &chess_with_moves(written));
    let open = moves(&dir, "flying", "4k3/p7/8/8/8/8/P7/3K4 w - - 0 1");
    let king: Vec<&str> = open
        .iter()
        .map(String::as_str)
        .filter(|m| m.starts_with("d1"))
        .collect();
    assert_eq!(king, ["d1c1", "d1c2", "d1d2"]);
    // A pawn on e5 closes the file: the king may step onto it.
    let closed = moves(&dir, "flying", "4k3/p7/8/4p3/8/8/P7/3K4 w - - 0 1");
    assert!(closed.contains(&"d1e1".to_string()), "{closed:?}");
    assert!(closed.contains(&"d1e2".to_string()), "{closed:?}");
    // Moving the blocker away opens the file: the pawn on e4 may not take on d5.
    let pinned = moves(&dir, "flying", "4k3/p7/8/3p4/4P3/8/P7/4K3 w - - 0 1");
    assert!(!pinned.contains(&"e4d5".to_string()), "{pinned:?}");
    assert!(pinned.contains(&"e4e5".to_string()), "{pinned:?}");
}

#[test]
fn reach_in_an_end_condition_and_its_mistakes() {
    // `reach` is a set of squares like any other: here an end condition (a rook's reach from
    // the own king touches the opponent's king: the side to move wins).
    let text = "extends \"chess\"\ngame \"T\"\nend { check\nwins when some (opponent King and \
                reach of (own King) by \"R\") }\n";
    let dir = game_dir("reach-end", text);
    let output = run_in(
        &dir,
        &[
            "show",
            "reach-end.variant",
            "--fen",
            "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("white wins"),
        "{}",
        stdout(&output)
    );
    // A wrong Betza text is reported where it is written.
    let (ok, errors) = check(
        "reach-betza",
        "extends \"chess\"\ngame \"T\"\nmoves { must not after some (reach of (own King) by \"vQ!\") }\n",
    );
    assert!(!ok);
    assert!(errors.contains("reach-betza.variant:3"), "{errors}");
    // Its operand is a set of squares.
    let (ok, errors) = check(
        "reach-type",
        "extends \"chess\"\ngame \"T\"\nmoves { must not after some (reach of 3 by \"R\") }\n",
    );
    assert!(!ok);
    assert!(errors.contains("expected a set of squares"), "{errors}");
}
