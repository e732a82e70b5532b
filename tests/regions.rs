//! Regions (issue 27): named zones (`zone NAME = ...`), pieces confined to a zone (`confined
//! to`), movement that changes in a zone (`moves "..." in ZONE`), and the 10-rank boards of
//! xiangqi, through the real binary.
//!
//! - Xiangqi's general, advisors and elephants stay home and its soldier turns sideways across
//!   the river, in positions whose legal moves are pyffish's (pyffish 0.0.90, `xiangqi`, listed
//!   here); whole games agree in `tests/library.rs` (tests/fsf/xiangqi.txt).
//! - A confined piece attacks only inside its zone; a named zone works in promotion zones and
//!   expressions; `extends` replaces a zone by name.
//! - Diagnostics: an unknown zone (with a suggestion), a zone declared twice, backwards or
//!   off-board files, a region on a rider.
//! - Ten ranks: `show --fen F` writes `F` back, moves from rank 10 are written `a10a9`, as
//!   pyffish writes them.

mod common;

use common::{stderr, stdout, temporary_dir, variant};

const XIANGQI: &str = "games/xiangqi.variant";
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn moves(game: &str, fen: &str) -> Vec<String> {
    let output = variant(&["moves", game, "--fen", fen]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    moves.sort();
    moves
}

fn sorted(moves: &[&str]) -> Vec<String> {
    let mut moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    moves.sort();
    moves
}

#[test]
fn general_advisors_and_elephants_stay_home_as_in_fairy_stockfish() {
    // White: advisors d1 f1, general e1, elephants g1 and c5 (on its river bank). The advisors
    // reach e2 only (c2, g2 are outside the palace); the elephant on c5 goes back, never across
    // to a7 or e7; the general keeps to d1-f3.
    //   10  . . . . . k . . .
    //    5  . . B . . . . . .
    //    1  . . . A K A B . .
    assert_eq!(
        moves(XIANGQI, "5k3/9/9/9/9/2B6/9/9/9/3AKAB2 w - - 0 1"),
        sorted(&["c5a3", "c5e3", "d1e2", "e1e2", "f1e2", "g1e3", "g1i3"])
    );
    // Black, mirrored: its palace is d8-f10, its half ranks 6-10. The elephant on c6 has a8
    // only (e8 holds its own elephant; a4 and e4 are across the river).
    assert_eq!(
        moves(XIANGQI, "4ak3/4a4/4b4/9/2b6/9/9/9/9/3K5 b - - 0 1"),
        sorted(&[
            "c6a8", "e10d9", "e10f9", "e8c10", "e8g10", "e8g6", "e9d10", "e9d8", "e9f8", "f10f9"
        ])
    );
}

#[test]
fn the_soldier_turns_sideways_only_across_the_river() {
    //   7  . . . . . . . . .      White's soldier on e6 (across): d6, e7, f6
    //   6  . . . . P . . . .
    //   5  . . . . P . . . .      on e5 (its own half): e6 only, which its neighbour holds
    assert_eq!(
        moves(XIANGQI, "5k3/9/9/9/4P4/4P4/9/9/9/3K5 w - - 0 1"),
        sorted(&["d1d2", "d1e1", "e6d6", "e6e7", "e6f6"])
    );
    // Black's soldier on e4 has crossed: e3, d4, f4.
    assert_eq!(
        moves(XIANGQI, "5k3/9/9/9/9/9/4p4/9/9/3K5 b - - 0 1"),
        sorted(&["e4d4", "e4e3", "e4f4", "f10e10", "f10f9"])
    );
}

/// A game on 5x5: White's king keeps to its first two ranks, Black's ruler goes anywhere.
const CONFINED_KING: &str = r#"
game "Confined king"
board 5x5
side white { forward up }
side black { forward down }
zone home = ranks 1-2
piece King { letter K; royal; moves "K"; confined to zone home }
piece Ruler { letter U; royal; moves "K" }
piece Wazir { letter W; moves "mW" }
setup "2u2/5/5/5/2K2 w - - 0 1"
end { check; checkmate loses; stalemate draws }
"#;

#[test]
fn a_confined_piece_attacks_only_inside_its_zone() {
    let dir = temporary_dir("regions-attacks");
    let game = dir.join("king.variant");
    std::fs::write(&game, CONFINED_KING).expect("written");
    let game = game.to_str().expect("path");
    //   4  . . u . .     White's king on c2 may not step to rank 3, nor take the wazir there;
    //   3  . . w . .     Black's ruler may step to b3 or d3, next to White's king, which could
    //   2  . . K . .     never capture outside its two ranks.
    let fen = "5/2u2/2w2/2K2/5 w - - 0 1";
    assert_eq!(
        moves(game, fen),
        sorted(&["c2b1", "c2b2", "c2c1", "c2d1", "c2d2"])
    );
    let black = moves(game, &fen.replace(" w ", " b "));
    assert!(black.contains(&"c4b3".to_string()), "{black:?}");
    assert!(black.contains(&"c4d3".to_string()), "{black:?}");
    // Inside its zone the king captures as usual: Black's wazir on b2 is taken.
    assert!(moves(game, "5/2u2/5/1wK2/5 w - - 0 1").contains(&"c2b2".to_string()));
}

#[test]
fn a_named_zone_works_in_promotion_and_expressions_and_extends_replaces_it() {
    let dir = temporary_dir("regions-named");
    std::fs::write(
        dir.join("hill.variant"),
        r#"
game "Zone hill"
board 6x6
side white { forward up }
side black { forward down }
zone far = last rank
zone hill = files c-d and ranks 3-4 except squares d4 c4 or squares c3
piece King { letter K; royal; moves "K" }
piece Pawn { letter P; moves "fW"; promotes on zone far to Queen }
piece Queen { letter Q; moves "Q" }
setup "k5/6/6/6/P5/5K w - - 0 1"
end {
    check
    checkmate loses
    stalemate draws
    each side wins when some (own King and zone hill)
}
"#,
    )
    .expect("written");
    std::fs::write(
        dir.join("wide-hill.variant"),
        "extends \"hill\"\ngame \"Wide hill\"\nzone hill = files b-e and ranks 3-4\n",
    )
    .expect("written");
    let hill = dir.join("hill.variant");
    let hill = hill.to_str().expect("path");
    // The pawn promotes on the far rank: the named zone is the promotion zone.
    assert_eq!(
        moves(hill, "5k/P5/6/6/6/K5 w - - 0 1")
            .into_iter()
            .filter(|m| m.starts_with("a5"))
            .collect::<Vec<_>>(),
        vec!["a5a6q".to_string()]
    );
    // `files c-d and ranks 3-4 except squares d4 c4 or squares c3`: c3 and d3 (`except` first,
    // then `and`, then `or`). A king on d3 has won; on d4 the game goes on.
    let won = common::show_json(&[hill, "--fen", "k5/6/6/3K2/6/6 b - - 0 1"]);
    assert_eq!(won["result"]["winners"][0], "white", "{won}");
    let goes_on = common::show_json(&[hill, "--fen", "k5/6/3K2/6/6/6 b - - 0 1"]);
    assert!(goes_on["result"].is_null(), "{goes_on}");
    // The child's `zone hill` replaces the parent's: d4 is on the hill there.
    let wide = dir.join("wide-hill.variant");
    let wide = wide.to_str().expect("path");
    let won = common::show_json(&[wide, "--fen", "k5/6/3K2/6/6/6 b - - 0 1"]);
    assert_eq!(won["result"]["winners"][0], "white", "{won}");
}

fn check_errors(source: &str) -> String {
    let dir = temporary_dir("regions-errors");
    let game = dir.join("broken.variant");
    std::fs::write(&game, source).expect("written");
    let output = variant(&["check", game.to_str().expect("path")]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    stderr(&output)
}

const HEAD: &str = "game \"Broken\"\nboard 9x10\nside white { forward up }\n\
                    side black { forward down }\nsetup \"4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"\n";

#[test]
fn zone_mistakes_are_reported_with_their_codes() {
    let unknown = check_errors(&format!(
        "{HEAD}zone palace = ranks 1-3 and files d-f\n\
         piece King {{ letter K; royal; moves \"W\"; confined to zone palce }}\n"
    ));
    assert!(
        unknown.contains("error[E0305]: unknown zone `palce`"),
        "{unknown}"
    );
    assert!(unknown.contains("did you mean `palace`?"), "{unknown}");

    // A zone statement may use only the zones declared before it.
    let later = check_errors(&format!(
        "{HEAD}zone inner = zone palace except squares e2\nzone palace = ranks 1-3\n\
         piece King {{ letter K; royal; moves \"W\" }}\n"
    ));
    assert!(
        later.contains("error[E0305]: unknown zone `palace`"),
        "{later}"
    );

    let twice = check_errors(&format!(
        "{HEAD}zone palace = ranks 1-3\nzone palace = ranks 1-2\n\
         piece King {{ letter K; royal; moves \"W\" }}\n"
    ));
    assert!(
        twice.contains("error[E0306]: the zone `palace` is declared twice"),
        "{twice}"
    );
    assert!(twice.contains("first declared here"), "{twice}");

    let files = check_errors(&format!(
        "{HEAD}zone a = files f-d\nzone b = file k\npiece King {{ letter K; royal; moves \"W\" }}\n"
    ));
    assert!(files.contains("the files `f-d` are backwards"), "{files}");
    assert!(
        files.contains("file `k` is off the board: it has 9 files"),
        "{files}"
    );

    let rider = check_errors(&format!(
        "{HEAD}piece King {{ letter K; royal; moves \"W\" }}\n\
         piece Rook {{ letter R; moves \"R\"; confined to ranks 1-5 }}\n"
    ));
    assert!(
        rider.contains(
            "error[E0307]: the piece `Rook` has a zone of movement but does not only leap"
        ),
        "{rider}"
    );
    let hopper = check_errors(&format!(
        "{HEAD}piece King {{ letter K; royal; moves \"W\" }}\n\
         piece Cannon {{ letter C; moves \"W\"; moves \"mRcpR\" in ranks 6-10 }}\n"
    ));
    assert!(hopper.contains("error[E0307]"), "{hopper}");
}

#[test]
fn ten_rank_fens_read_back_and_rank_ten_moves_are_written_as_pyffish_writes_them() {
    // pyffish's FENs: the start, and after h3e3 a10a9 (a rook from rank 10).
    for fen in [
        START,
        "1nbakabnr/r8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
        "4ak3/4a4/4b4/9/2b6/9/9/9/9/3K5 b - - 0 1",
    ] {
        let output = variant(&["show", XIANGQI, "--fen", fen]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stdout(&output).contains(&format!("FEN: {fen}")),
            "{}",
            stdout(&output)
        );
    }
    let black = START.replace(" w ", " b ");
    let from_rank_ten: Vec<String> = moves(XIANGQI, &black)
        .into_iter()
        .filter(|m| m.contains("10"))
        .collect();
    // pyffish 0.0.90's moves from rank 10 in the start position, Black to move.
    assert_eq!(
        from_rank_ten,
        sorted(&[
            "a10a8", "a10a9", "i10i8", "i10i9", "d10e9", "f10e9", "b10a8", "b10c8", "h10g8",
            "h10i8", "c10a8", "c10e8", "g10e8", "g10i8", "e10e9"
        ])
    );
    // Played in UCI, a rank-10 move gives pyffish's FEN.
    let output = variant(&["show", XIANGQI, "--play", "h3e3 a10a9"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output)
        .contains("FEN: 1nbakabnr/r8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"));
}

#[test]
fn the_generals_never_face_each_other_on_an_open_file() {
    // The flying general, a move rule judged after the move (`must not after some (opponent
    // General and reach of (own General) by "vR")`), against pyffish 0.0.90:
    //   10  . . . . k . . . .     White's advisor on e2 is the only piece between the generals:
    //    2  . . . . A . . . .     it may not move (each of its moves leaves the e-file), and
    //    1  . . . . K . . . .     the general steps aside.
    assert_eq!(
        moves(XIANGQI, "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"),
        sorted(&["e1d1", "e1f1"])
    );
    // Black may step forward behind the screen (e9), or aside.
    assert_eq!(
        moves(XIANGQI, "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 0 1"),
        sorted(&["e10d10", "e10e9", "e10f10"])
    );
    // Minixiangqi: White's general on d1 may not step onto the open e-file facing e7.
    assert_eq!(
        moves("games/minixiangqi.variant", "4k2/7/7/7/7/7/3K3 w - - 0 1"),
        sorted(&["d1c1", "d1d2"])
    );
}

#[test]
fn perft_from_the_start_equals_fairy_stockfish() {
    // Fairy-Stockfish's `go perft` (the engine built from pyffish 0.0.90's sources): xiangqi 4
    // is 3,290,240 (8 fewer than without the flying general), minixiangqi 5 is 2,666,905.
    for (game, depth, nodes) in [
        (XIANGQI, "4", "3290240"),
        ("games/minixiangqi.variant", "5", "2666905"),
    ] {
        let output = variant(&["perft", game, "--depth", depth]);
        assert!(output.status.success(), "{}", stderr(&output));
        assert_eq!(
            stdout(&output).lines().last(),
            Some(format!("Nodes searched: {nodes}").as_str()),
            "{game}"
        );
    }
}
