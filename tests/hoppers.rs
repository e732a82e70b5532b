//! Hoppers (Betza `p` and `g`) and path captures that attack, through the real binary.
//!
//! - `games/grasshopper.variant` against Fairy-Stockfish's `grasshopper`: perft from the start
//!   and from middle-game positions (counts from pyffish, stored here), and seeded random games
//!   compared at every position (`scripts/crosscheck_fairy.py`).
//! - `tests/variants/cannon.variant` (chess with xiangqi cannons `mRcpR`) against the same game
//!   configured in pyffish (`tests/inputs/cannon.ini`), the same ways.
//! - `tests/variants/grasshopper-path.variant`: the grasshopper written as a `path`; it plays as
//!   Fairy-Stockfish's, checks included (a path capture attacks), and keeps every landing (the
//!   jump over an adjacent hurdle, `a2a4` with a knight on b1).
//! - Hand-checked positions: a king in check from a cannon and a grasshopper, a piece pinned
//!   because leaving would turn the cannon's double screen into a single one, a move refused
//!   because it would become the screen, control and `explain` counting hopper captures.

mod common;

use common::{show_json, stderr, stdout, variant};

const GRASSHOPPER: &str = "games/grasshopper.variant";
const GRASSHOPPER_PATH: &str = "tests/variants/grasshopper-path.variant";
const CANNON: &str = "tests/variants/cannon.variant";
const CANNON_CONFIG: &str = "tests/inputs/cannon.ini";

fn moves(game: &str, fen: &str) -> Vec<String> {
    let output = variant(&["moves", game, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves
}

fn perft(game: &str, fen: Option<&str>, depth: u32) -> String {
    let depth = depth.to_string();
    let mut args = vec!["perft", game, "--depth", &depth];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let output = variant(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

fn assert_perft(game: &str, fen: Option<&str>, counts: &[(u32, u64)]) {
    for &(depth, nodes) in counts {
        assert_eq!(
            perft(game, fen, depth),
            format!("Nodes searched: {nodes}"),
            "{game} {fen:?} depth {depth}"
        );
    }
}

#[test]
fn grasshopper_perft_from_the_start_equals_fairy_stockfish() {
    // pyffish 0.0.90, `grasshopper`, legal moves at the last ply summed over the tree
    // (scripts/crosscheck_fairy.py --variant grasshopper --perft 3).
    assert_perft(GRASSHOPPER, None, &[(1, 28), (2, 782), (3, 22_314)]);
}

#[test]
fn cannon_perft_from_the_start_equals_fairy_stockfish() {
    // pyffish 0.0.90 with tests/inputs/cannon.ini, `cannonchess`
    // (scripts/crosscheck_fairy.py --config tests/inputs/cannon.ini --variant cannonchess
    // --perft 3).
    assert_perft(CANNON, None, &[(1, 32), (2, 970), (3, 29_326)]);
}

/// Middle-game positions (ply 20 of seeded random games) and their perft counts, from pyffish
/// 0.0.90: `scripts/fsf_oracle_data.py VARIANT --games 3 --plies 40 --perft-depth 2
/// --mid-depth 3 --seed 1` (with `--config tests/inputs/cannon.ini` for `cannonchess`).
const GRASSHOPPER_MIDDLE: [(&str, [u64; 3]); 3] = [
    (
        "rnbqkbnr/1gggggg1/1pppp2p/p1g1gpp1/2GG2PG/PPPPPP1P/GGG3GG/RNBQKBNR w KQkq - 2 11",
        [35, 993, 34_216],
    ),
    (
        "rn2k1nr/gbqg1gbg/p1pp1ppp/1p1p2g1/G2PG2G/PPP1gPPP/gG1G1GG1/RNBQKBNR w KQkq - 4 11",
        [30, 948, 27_995],
    ),
    (
        "rnb1k1nr/ggq1g1b1/1ppppppp/1pg1G2g/2G1PP2/1PPP3P/GGGGKGG1/RNBQ1BR1 w kq - 2 11",
        [31, 959, 31_513],
    ),
];

const CANNON_MIDDLE: [(&str, [u64; 3]); 3] = [
    (
        "rn1qk1nr/1pp1pp1p/pcc3p1/3pb3/8/P1PCPP2/1P1PQNPP/RNB1KB1R w KQkq - 3 11",
        [20, 674, 14_212],
    ),
    (
        "rnbqk1nr/ppppp2p/6pb/1B3P2/PC3P1C/8/1PPP2PP/RNBcK1cR w KQkq - 4 11",
        [35, 700, 24_103],
    ),
    (
        "rnb2bnr/1pp1pkpp/3q4/p1cp1pC1/5P1P/C2P2K1/PPP1P2c/RNBQ1BNR w - - 1 11",
        [33, 1404, 45_853],
    ),
];

fn assert_middle_perft(game: &str, positions: &[(&str, [u64; 3])]) {
    for (fen, counts) in positions {
        let counts: Vec<(u32, u64)> = (1..).zip(counts.iter().copied()).collect();
        assert_perft(game, Some(fen), &counts);
    }
}

#[test]
fn grasshopper_perft_from_middle_games_equals_fairy_stockfish() {
    assert_middle_perft(GRASSHOPPER, &GRASSHOPPER_MIDDLE);
    assert_middle_perft(GRASSHOPPER_PATH, &GRASSHOPPER_MIDDLE[..1]);
}

#[test]
fn cannon_perft_from_middle_games_equals_fairy_stockfish() {
    assert_middle_perft(CANNON, &CANNON_MIDDLE);
}

#[test]
fn the_path_grasshopper_has_the_perft_of_the_betza_one() {
    assert_perft(GRASSHOPPER_PATH, None, &[(1, 28), (2, 782), (3, 22_314)]);
}

#[test]
fn random_grasshopper_games_agree_with_fairy_stockfish() {
    common::crosscheck_fairy(
        "random_grasshopper_games_agree_with_fairy_stockfish",
        "grasshopper",
        GRASSHOPPER,
        &["--games", "4", "--seed", "27", "--plies", "80"],
    );
    // Thinned setups reach open lines, checks from afar and mates.
    common::crosscheck_fairy(
        "random_grasshopper_games_agree_with_fairy_stockfish",
        "grasshopper",
        GRASSHOPPER,
        &[
            "--games", "4", "--seed", "5", "--plies", "80", "--sparse", "0.6",
        ],
    );
}

#[test]
fn random_path_grasshopper_games_agree_with_fairy_stockfish() {
    common::crosscheck_fairy(
        "random_path_grasshopper_games_agree_with_fairy_stockfish",
        "grasshopper",
        GRASSHOPPER_PATH,
        &[
            "--games", "3", "--seed", "5", "--plies", "60", "--sparse", "0.6",
        ],
    );
}

#[test]
fn random_cannon_games_agree_with_fairy_stockfish() {
    let config = ["--config", CANNON_CONFIG];
    common::crosscheck_fairy(
        "random_cannon_games_agree_with_fairy_stockfish",
        "cannonchess",
        CANNON,
        &[
            &config[..],
            &["--games", "4", "--seed", "27", "--plies", "80"],
        ]
        .concat(),
    );
    common::crosscheck_fairy(
        "random_cannon_games_agree_with_fairy_stockfish",
        "cannonchess",
        CANNON,
        &[
            &config[..],
            &[
                "--games", "4", "--seed", "5", "--plies", "80", "--sparse", "0.6",
            ],
        ]
        .concat(),
    );
}

#[test]
fn a_cannon_checks_over_one_screen_only() {
    // Black cannon e8, white pawn e4 between it and the White King on e1: check. The pawn may
    // not step on (the screen stays), the King may not stay on the file.
    let fen = "4c2k/8/8/8/4P3/8/8/4K3 w - - 0 1";
    assert_eq!(show_json(&[CANNON, "--fen", fen])["in_check"], true);
    assert_eq!(moves(CANNON, fen), ["e1d1", "e1d2", "e1f1", "e1f2"]);
    // Two screens: no check.
    let fen = "4c2k/8/8/8/4P3/8/4P3/4K3 w - - 0 1";
    assert_eq!(show_json(&[CANNON, "--fen", fen])["in_check"], false);
}

#[test]
fn a_screen_is_pinned_and_a_move_may_not_become_one() {
    // The Knight on e4 and the pawn on e2 both screen the cannon on e8: the Knight leaving would
    // leave one screen, so it may not move; the pawn may step to e3 (still two screens).
    assert_eq!(
        moves(CANNON, "4c2k/8/8/8/4N3/8/4P3/4K3 w - - 0 1"),
        ["e1d1", "e1d2", "e1f1", "e1f2", "e2e3"]
    );
    // An empty file: the Bishop may not go to e3, where it would become the screen.
    // (Fairy-Stockfish lists the same moves.)
    assert_eq!(
        moves(CANNON, "4c2k/8/8/8/8/8/8/2B1K3 w - - 0 1"),
        ["c1a3", "c1b2", "c1d2", "c1f4", "c1g5", "c1h6", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
}

#[test]
fn the_worked_example_of_the_language_reference() {
    // docs/language.md §2.7.4, Hoppers: a cannon and a grasshopper on b3.
    assert_eq!(
        moves(CANNON, "4k3/1p6/1n6/8/8/1C6/1P6/4K3 w - - 0 1"),
        [
            "b3a3", "b3b4", "b3b5", "b3b7", "b3c3", "b3d3", "b3e3", "b3f3", "b3g3", "b3h3", "e1d1",
            "e1d2", "e1e2", "e1f1", "e1f2"
        ]
    );
    let fen = "4k3/1p6/1n6/8/8/1G6/1P6/4K3 w - - 0 1";
    let expected = ["b3b1", "b3b7", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"];
    assert_eq!(moves(GRASSHOPPER, fen), expected);
    assert_eq!(moves(GRASSHOPPER_PATH, fen), expected);
}

#[test]
fn a_grasshopper_checks_from_beyond_its_hurdle() {
    // White grasshopper e1, black pawn e7 next to the Black King on e8: check, whether the
    // grasshopper is Betza or a path. Moving the pawn to e6 parries it (the landing becomes e7).
    let fen = "4k3/4p3/8/8/8/8/8/4G1K1 b - - 0 1";
    for game in [GRASSHOPPER, GRASSHOPPER_PATH] {
        assert_eq!(show_json(&[game, "--fen", fen])["in_check"], true, "{game}");
        assert_eq!(
            moves(game, fen),
            ["e7e6", "e8d7", "e8d8", "e8f7", "e8f8"],
            "{game}"
        );
    }
}

#[test]
fn a_path_grasshopper_jumps_an_adjacent_hurdle_whatever_stands_elsewhere() {
    // Issue 27: with a Knight on b1, the path grasshopper on a2 lost its jump over a3 to a4.
    let fen = "4k3/8/8/8/8/PP6/G7/1N2K3 w - - 0 1";
    let listed = moves(GRASSHOPPER_PATH, fen);
    for jump in ["a2a4", "a2c4"] {
        assert!(listed.contains(&jump.to_string()), "{jump}: {listed:?}");
    }
    assert_eq!(listed, moves(GRASSHOPPER, fen));
}
