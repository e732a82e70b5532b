//! Coverage and Cheversi: hand-checked positions, drawn with their control maps and scores by the
//! real binary (insta snapshots), each with the facts that were checked by hand asserted too.

use std::process::Command;

fn variant(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    all.push("--json");
    let (ok, out, err) = variant(&all);
    assert!(ok, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

fn show(args: &[&str]) -> String {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    let (ok, out, err) = variant(&all);
    assert!(ok, "{err}");
    out
}

fn moves(args: &[&str]) -> Vec<String> {
    let mut all = vec!["moves"];
    all.extend_from_slice(args);
    let (ok, out, err) = variant(&all);
    assert!(ok, "{err}");
    out.lines().map(String::from).collect()
}

fn score(value: &serde_json::Value, side: &str) -> i64 {
    value["scores"][side].as_i64().expect("a score")
}

fn coverage_fen(board: &str, hands: &str, side: &str) -> String {
    format!("{board}[{hands}] {side} - - 0 1")
}

// ---------------------------------------------------------------------------------------------
// Coverage
// ---------------------------------------------------------------------------------------------

#[test]
fn coverage_starts_with_every_piece_type_anywhere() {
    let listed = moves(&["coverage"]);
    // Six piece types in hand, 64 empty squares, nothing controlled yet.
    assert_eq!(listed.len(), 6 * 64);
    assert!(listed.contains(&"K@e4".to_string()) && listed.contains(&"P@a1".to_string()));
}

#[test]
fn coverage_pawn_on_its_second_row_controls_two_squares() {
    // C2: a White pawn on e2 controls e3 and e4; nothing else is on the board.
    let value = json(&["coverage", "--play", "P@e2"]);
    assert_eq!(score(&value, "white"), 2);
    insta::assert_snapshot!(show(&["coverage", "--play", "P@e2"]));
}

#[test]
fn coverage_pawn_off_its_second_row_controls_one_square() {
    // C2: on e3 the pawn controls only e4. A Black pawn on d7 (its second row) controls d6, d5.
    let value = json(&["coverage", "--play", "P@e3 P@d7"]);
    assert_eq!(score(&value, "white"), 1);
    assert_eq!(score(&value, "black"), 2);
    insta::assert_snapshot!(show(&["coverage", "--play", "P@e3 P@d7"]));
}

#[test]
fn coverage_pawn_on_the_last_row_controls_nothing() {
    // C3: a White pawn on e8 stands but controls nothing.
    let value = json(&["coverage", "--play", "P@e8"]);
    assert_eq!(score(&value, "white"), 0);
}

#[test]
fn coverage_en_passant_control() {
    // C8: a Black pawn on d5 (its 4th row), a White pawn beside it on e5, d6 empty: the White
    // pawn controls d6 (behind the Black pawn) and e6 (in front of itself). The Black pawn on d5
    // controls d4 only.
    let fen = coverage_fen("8/8/8/3pP3/8/8/8/8", "KQBBRRNNPPPPPPPkqbbrrnnppppppp", "w");
    let value = json(&["coverage", "--fen", &fen]);
    assert_eq!(score(&value, "white"), 2);
    assert_eq!(score(&value, "black"), 1);
    insta::assert_snapshot!(show(&["coverage", "--fen", &fen]));
    // The mirror case: a White pawn on e4 (White's 4th row) beside a Black pawn on d4, e3
    // empty: the Black pawn controls d3 and e3; the White pawn controls e5 only (off its 2nd row).
    let mirrored = coverage_fen("8/8/8/8/3pP3/8/8/8", "KQBBRRNNPPPPPPPkqbbrrnnppppppp", "w");
    let value = json(&["coverage", "--fen", &mirrored]);
    assert_eq!(score(&value, "white"), 1);
    assert_eq!(score(&value, "black"), 2);
}

#[test]
fn coverage_knight_is_blocked_by_its_own_piece() {
    // C4/C5: "Doing so interrupts the line of control for that piece. Even for knights." A White
    // knight on b1 with a White pawn on d2: the knight controls a3 and c3 but not d2; the pawn
    // controls d3 and d4. White: a3 c3 d3 d4 = 4.
    let value = json(&["coverage", "--play", "N@b1 P@h7 P@d2"]);
    assert_eq!(score(&value, "white"), 4);
    insta::assert_snapshot!(show(&["coverage", "--play", "N@b1 P@h7 P@d2"]));
}

#[test]
fn coverage_contested_squares_score_for_nobody() {
    // C6: White rook a1, Black rook h2: a2 and h1 are controlled by both and score for nobody.
    // White alone: a3..a8 and b1..g1 = 12; Black alone: b2..g2 and h3..h8 = 12.
    let value = json(&["coverage", "--play", "R@a1 R@h2"]);
    assert_eq!(score(&value, "white"), 12);
    assert_eq!(score(&value, "black"), 12);
    insta::assert_snapshot!(show(&["coverage", "--play", "R@a1 R@h2"]));
}

#[test]
fn coverage_an_enemy_piece_square_scores_for_its_attacker() {
    // C4: White rook a1, Black knight c3, White bishop e1. White controls a2..a8, b1 c1 d1 (the
    // bishop on e1 interrupts the rank), d2, c3 (the knight, which the bishop could capture), f2
    // g3 h4 = 15; the knight controls a2 a4 b1 b5 d1 d5 e2 e4, of which a2 a4 b1 d1 are
    // contested. White 11 (c3 included), Black 4.
    let value = json(&["coverage", "--play", "R@a1 N@c3 B@e1"]);
    assert_eq!(score(&value, "white"), 11);
    assert_eq!(score(&value, "black"), 4);
    insta::assert_snapshot!(show(&["coverage", "--play", "R@a1 N@c3 B@e1"]));
}

#[test]
fn coverage_never_drops_on_a_square_the_opponent_controls() {
    // C7: after a White rook on a1, Black may not drop on the a-file or the first rank.
    let listed = moves(&["coverage", "--play", "R@a1"]);
    assert!(listed
        .iter()
        .all(|m| !m.ends_with("@a4") && !m.ends_with("@e1")));
    assert_eq!(listed.len(), 6 * (64 - 15));
}

#[test]
fn coverage_weighted_majority_then_values() {
    // C13: White rook a1, Black rook h2: a2 and h1 have one controller each with equal values
    // (R3 against R3): nobody takes them, as in plain scoring: 12 each.
    let value = json(&["coverage-weighted", "--play", "R@a1 R@h2"]);
    assert_eq!(score(&value, "white"), 12);
    assert_eq!(score(&value, "black"), 12);
    // White queen d1, Black knight f2: the knight controls d1 d3 e4 g4 h3 h1; the queen also
    // controls d3 (file), g4 (diagonal) and h1 (rank): one piece each, values Q1 < N2, so the
    // weighted rule gives those three squares to Black, which plain scoring leaves to nobody.
    let value = json(&["coverage-weighted", "--play", "Q@d1 N@f2"]);
    let plain = json(&["coverage", "--play", "Q@d1 N@f2"]);
    assert_eq!(
        score(&value, "black") - score(&plain, "black"),
        3,
        "d3 g4 h1 go to the knight"
    );
    assert_eq!(score(&value, "white"), score(&plain, "white"));
    insta::assert_snapshot!(show(&["coverage-weighted", "--play", "Q@d1 N@f2"]));
}

// ---------------------------------------------------------------------------------------------
// Cheversi
// ---------------------------------------------------------------------------------------------

#[test]
fn cheversi_white_opens_with_the_king_anywhere() {
    // CH3: 64 King drops, nothing else.
    let listed = moves(&["cheversi"]);
    assert_eq!(listed.len(), 64);
    assert!(listed.iter().all(|m| m.starts_with("K@")));
}

#[test]
fn cheversi_black_answers_touching_with_any_piece_but_the_king() {
    // CH1-CH3: K@e4, then Black: Q, R, B, N on the 8 squares around e4.
    let listed = moves(&["cheversi", "--play", "K@e4"]);
    assert_eq!(listed.len(), 4 * 8);
    assert!(listed.iter().all(|m| !m.starts_with("K@")));
}

#[test]
fn cheversi_queen_call_forces_the_reply() {
    // CH6: Black places his Queen: White's next placement must be his Queen.
    let listed = moves(&["cheversi", "--play", "K@e4 Q@e5"]);
    assert!(!listed.is_empty());
    assert!(listed.iter().all(|m| m.starts_with("Q@")), "{listed:?}");
    insta::assert_snapshot!(show(&["cheversi", "--play", "K@e4 Q@e5"]));
}

#[test]
fn cheversi_bishops_take_different_colours() {
    // CH5: White's bishop on d3 (light): White's second bishop only on dark squares.
    let listed = moves(&["cheversi", "--play", "K@e4 N@e5 B@d3 N@f5"]);
    let bishops: Vec<&String> = listed.iter().filter(|m| m.starts_with("B@")).collect();
    assert!(!bishops.is_empty());
    for mv in bishops {
        let square = &mv[2..];
        let file = square.as_bytes()[0] - b'a';
        let rank = square.as_bytes()[1] - b'1';
        assert_eq!((file + rank) % 2, 0, "{mv} is on a light square");
    }
}

#[test]
fn cheversi_black_queen_by_the_seventh_placement() {
    // CH6: Black's 7th placement must be his Queen if he still holds it.
    let play = "K@e4 R@e5 R@e3 R@e6 R@e2 B@e7 B@d2 B@d7 B@c2 N@c7 N@b2 N@c6 N@a2";
    let listed = moves(&["cheversi", "--play", play]);
    assert!(listed.iter().all(|m| m.starts_with("Q@")), "{listed:?}");
}

#[test]
fn cheversi_black_king_comes_last_touching_whites_last_piece() {
    // CH4: Black's 8th placement is the King, on a square touching White's 8th piece (f1 here).
    let play = "K@e4 R@e5 R@e3 R@e6 R@e2 B@e7 B@d2 B@d7 B@c2 Q@c7 Q@b2 N@c6 N@a2 N@b6 N@f1";
    let listed = moves(&["cheversi", "--play", play]);
    assert!(!listed.is_empty());
    assert!(listed.iter().all(|m| m.starts_with("K@")));
    let around_f1 = ["K@e1", "K@g1", "K@f2", "K@g2"];
    assert!(
        listed.iter().all(|m| around_f1.contains(&m.as_str())),
        "{listed:?}"
    );
    insta::assert_snapshot!(show(&["cheversi", "--play", play]));
}

#[test]
fn cheversi_lookahead_forbids_a_white_eighth_piece_the_black_king_cannot_touch() {
    // CH4: White's last piece may not go to a1, whose neighbours a2 b1 b2 are all occupied: the
    // Black King could not touch it.
    let fen = "8/8/8/8/8/8/Kq6/1rQ5[Nk] w - - 0 1";
    let listed = moves(&["cheversi", "--fen", fen]);
    assert!(!listed.contains(&"N@a1".to_string()), "{listed:?}");
    assert!(listed.contains(&"N@c2".to_string()), "{listed:?}");
}

#[test]
fn cheversi_scores_count_attackers_of_empty_squares() {
    // CH7: K@e4 alone attacks 8 empty squares: White 8. Black's knight on e5 attacks 8 squares
    // (c4 c6 d3 d7 f3 f7 g4 g6), all empty; it takes e5 from White's count: White 7, Black 8.
    let value = json(&["cheversi", "--play", "K@e4"]);
    assert_eq!(score(&value, "white"), 8);
    let value = json(&["cheversi", "--play", "K@e4 N@e5"]);
    assert_eq!(score(&value, "white"), 7);
    assert_eq!(score(&value, "black"), 8);
}

// ---------------------------------------------------------------------------------------------
// Ends and tie-breaks
// ---------------------------------------------------------------------------------------------

#[test]
fn coverage_equal_scores_go_to_the_side_with_fewer_unplaced_pieces() {
    // C11: White to move with an empty hand has no legal placement: the game ends. Rook a1
    // against rook h1: 8 each (see above). C12: White has 0 unplaced pieces, Black 1: White wins.
    let value = json(&["coverage", "--fen", "8/8/8/8/8/8/8/R6r[p] w - - 0 1"]);
    assert_eq!(score(&value, "white"), 8);
    assert_eq!(score(&value, "black"), 8);
    assert_eq!(value["result"]["winners"], serde_json::json!(["white"]));
    assert_eq!(value["result"]["reason"], "score");
}

#[test]
fn coverage_equal_scores_and_hands_draw() {
    // "If that is also a tie, the game ends in a draw": both hands empty, 8 to 8.
    let value = json(&["coverage", "--fen", "8/8/8/8/8/8/8/R6r[] w - - 0 1"]);
    assert_eq!(value["result"]["winners"], serde_json::json!([]));
}

#[test]
fn coverage_ends_when_every_placement_would_block_ones_own_lines() {
    // C11: in this game (the oracle's seed-1 game, tests/games/coverage.games) Black, to move
    // after 27 placements, still holds pieces and has legal placements, but each is on a square
    // Black already controls: the game ends, and White wins 13-4.
    let play = "K@a5 R@a2 B@f3 N@h3 B@e8 P@b8 Q@e7 R@d3 R@f1 P@c3 N@g8 B@d4 R@b4 B@c2 P@h7 Q@g3 \
                P@c6 N@h2 N@a6 P@f5 P@h5 K@f4 P@d6 P@a3 P@h6 P@c8 P@a8";
    let value = json(&["coverage", "--play", play]);
    // The game is over, so nothing is listed as legal ...
    assert_eq!(value["legal_moves"], serde_json::json!([]));
    assert_eq!(value["side_to_move"], "black");
    // ... although the placement rules alone still allow Black some drops, each on a square
    // Black already controls.
    let loaded =
        variant_dsl::load_file(std::path::Path::new("games/coverage.variant")).expect("loads");
    let mut game = variant_interpreter::Game::<u64>::new(&loaded.definition, None).expect("opens");
    for placement in play.split_whitespace() {
        variant_interpreter::Session::play(&mut game, placement).expect("legal");
    }
    let allowed = variant_interpreter::movegen::legal_moves(game.rules(), game.position());
    assert!(!allowed.is_empty(), "Black still has placements");
    let black_control = &value["control"]["black"];
    for placement in &allowed {
        let square = game.rules().geometry().square(placement.to).to_string();
        assert!(
            black_control
                .as_array()
                .expect("squares")
                .iter()
                .any(|s| s == &square),
            "{square}"
        );
    }
    assert_eq!(value["result"]["winners"], serde_json::json!(["white"]));
    assert_eq!((score(&value, "white"), score(&value, "black")), (13, 4));
}

// ---------------------------------------------------------------------------------------------
// A gallery of hand-checked positions, each drawn with its control maps and scores
// ---------------------------------------------------------------------------------------------

/// (name, game, arguments after the game, what was checked by hand in the drawing)
const GALLERY: &[(&str, &str, &[&str], &str)] = &[
    (
        "coverage-01-empty-board",
        "coverage",
        &[],
        "nothing controlled, scores 0-0",
    ),
    (
        "coverage-02-king-in-the-centre",
        "coverage",
        &["--play", "K@e4"],
        "8 squares around e4",
    ),
    (
        "coverage-03-rook-in-the-corner",
        "coverage",
        &["--play", "R@a1"],
        "a2-a8 and b1-h1: 14",
    ),
    (
        "coverage-04-queen-lines-stop-at-own-pieces",
        "coverage",
        &["--play", "Q@d4 P@c7 B@b2"],
        "the queen's diagonal to a1 stops before b2 (own bishop)",
    ),
    (
        "coverage-05-pawn-second-row",
        "coverage",
        &["--play", "P@e2"],
        "e3 e4 (C2)",
    ),
    (
        "coverage-06-pawn-capture-square",
        "coverage",
        &["--play", "P@e4 N@h8 N@a8 P@d5"],
        "White pawn e4 controls e5 and d5 (enemy pawn), not f5",
    ),
    (
        "coverage-07-pawn-last-row",
        "coverage",
        &["--play", "P@e8"],
        "controls nothing (C3)",
    ),
    (
        "coverage-08-en-passant-control",
        "coverage",
        &[
            "--fen",
            "8/8/8/3pP3/8/8/8/8[KQBBRRNNPPPPPPPkqbbrrnnppppppp] w - - 0 1",
        ],
        "White e5 pawn controls d6 and e6 (C8)",
    ),
    (
        "coverage-09-knight-blocked-by-own-piece",
        "coverage",
        &["--play", "N@b1 P@h7 P@d2"],
        "knight loses d2 (C5)",
    ),
    (
        "coverage-10-contested-squares",
        "coverage",
        &["--play", "R@a1 R@h2"],
        "a2 and h1 contested: 12-12 (C6)",
    ),
    (
        "coverage-11-fewest-unplaced-wins",
        "coverage",
        &["--fen", "8/8/8/8/8/8/8/R6r[p] w - - 0 1"],
        "8-8, White wins on unplaced pieces (C12)",
    ),
    (
        "coverage-12-weighted-value-tie-break",
        "coverage-weighted",
        &["--play", "Q@d1 N@f2"],
        "d3 g4 h1 go to the knight (N2 > Q1, C13)",
    ),
    (
        "coverage-13-weighted-majority",
        "coverage-weighted",
        &["--play", "R@a1 N@c3 B@e1 R@h2"],
        "a2: white rook vs black knight and rook: black majority",
    ),
    (
        "cheversi-01-opening",
        "cheversi",
        &[],
        "only King drops, 64",
    ),
    (
        "cheversi-02-black-answers",
        "cheversi",
        &["--play", "K@e4"],
        "Q R B N around e4",
    ),
    (
        "cheversi-03-queen-call",
        "cheversi",
        &["--play", "K@e4 Q@e5"],
        "White must place his Queen (CH6)",
    ),
    (
        "cheversi-04-bishop-colours",
        "cheversi",
        &["--play", "K@e4 N@e5 B@d3 N@f5"],
        "second White bishop on dark squares (CH5)",
    ),
    (
        "cheversi-05-queen-by-the-seventh",
        "cheversi",
        &[
            "--play",
            "K@e4 R@e5 R@e3 R@e6 R@e2 B@e7 B@d2 B@d7 B@c2 N@c7 N@b2 N@c6 N@a2",
        ],
        "Black's 7th must be the Queen (CH6)",
    ),
    (
        "cheversi-06-black-king-last",
        "cheversi",
        &[
            "--play",
            "K@e4 R@e5 R@e3 R@e6 R@e2 B@e7 B@d2 B@d7 B@c2 Q@c7 Q@b2 N@c6 N@a2 N@b6 N@f1",
        ],
        "the King touches f1 (CH4)",
    ),
    (
        "cheversi-07-lookahead",
        "cheversi",
        &["--fen", "8/8/8/8/8/8/Kq6/1rQ5[Nk] w - - 0 1"],
        "no N@a1: the Black King could not touch it (CH4)",
    ),
    (
        "cheversi-08-king-alone",
        "cheversi",
        &["--play", "K@e4"],
        "8 empty squares attacked: White 8",
    ),
    (
        "cheversi-09-knight-reply",
        "cheversi",
        &["--play", "K@e4 N@e5"],
        "White 7, Black 8 (CH7)",
    ),
    (
        "cheversi-10-lines-blocked-by-any-piece",
        "cheversi",
        &["--play", "K@e4 R@e5 R@e3"],
        "Black's e5 rook stops at e4; White's e3 rook is stopped by e4 upwards",
    ),
    (
        "cheversi-11-square-scores-for-both",
        "cheversi",
        &["--play", "K@e4 N@e5 N@d3"],
        "squares attacked by both count for both (CH7)",
    ),
    (
        "cheversi-12-finished-game",
        "cheversi",
        &[
            "--play",
            "K@c2 B@c3 N@d1 N@b3 Q@b4 Q@d4 N@d2 R@b1 R@c1 N@b2 B@a4 R@d5 B@a1 B@e4 R@e6 K@f5",
        ],
        "16 placements, Black wins 33-31 (the oracle's seed-1 game)",
    ),
];

#[test]
fn gallery_of_hand_checked_positions() {
    for (name, game, args, checked) in GALLERY {
        let mut all = vec![*game];
        all.extend_from_slice(args);
        let drawing = format!("{checked}\n\n{}", show(&all));
        insta::assert_snapshot!(*name, drawing);
    }
}

/// The last drops that Cheversi's rules read (the Queen call, the Black King's touch) are part of
/// the position: a FEN carries them, and a game opened from it keeps the call.
#[test]
fn cheversi_last_drops_travel_in_the_fen() {
    let fen = json(&["cheversi", "--play", "K@e4 Q@e5"])["fen"]
        .as_str()
        .expect("fen")
        .to_string();
    assert_eq!(
        fen,
        "8/8/8/4q3/4K3/8/8/8[QRRBBNNkrrbbnn] w - - 2 2 last:K@e4,q@e5"
    );
    let from_fen = moves(&["cheversi", "--fen", &fen]);
    assert_eq!(from_fen, moves(&["cheversi", "--play", "K@e4 Q@e5"]));
    assert!(from_fen.iter().all(|m| m.starts_with("Q@")), "{from_fen:?}");
    // Without the field, the same board has no call to answer.
    let forgotten = moves(&[
        "cheversi",
        "--fen",
        "8/8/8/4q3/4K3/8/8/8[QRRBBNNkrrbbnn] w - - 2 2",
    ]);
    assert!(
        forgotten.iter().any(|m| m.starts_with("R@")),
        "{forgotten:?}"
    );
}
