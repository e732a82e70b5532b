//! Golden runs of the real `variant` binary: the command forms that users and scripts rely on.

mod common;

use common::{stderr, stdout, variant};

#[test]
fn perft_depth_five_of_chess_prints_the_published_count() {
    let output = variant(&["perft", "chess", "--depth", "5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output).lines().last(),
        Some("Nodes searched: 4865609")
    );
}

#[test]
fn perft_divide_lists_root_moves_then_the_total() {
    let output = variant(&["perft", "chess", "--depth", "2", "--divide"]);
    assert!(output.status.success());
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    let roots: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
        .collect();
    assert_eq!(roots.len(), 20);
    assert!(roots.contains(&"e2e4: 20"));
    assert_eq!(lines.last(), Some(&"Nodes searched: 400"));
}

#[test]
fn moves_after_played_moves_use_uci() {
    let output = variant(&["moves", "chess", "--play", "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let moves = stdout(&output);
    assert!(
        moves.lines().any(|m| m == "e1g1"),
        "castling is the king's move"
    );
    assert_eq!(moves.lines().count(), 33);
}

#[test]
fn moves_from_a_fen_include_promotions_and_en_passant() {
    let output = variant(&[
        "moves",
        "chess",
        "--fen",
        "8/1P6/8/3pP3/8/8/8/k1K5 w - d6 0 1",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let moves: Vec<String> = stdout(&output).lines().map(String::from).collect();
    for expected in ["b7b8q", "b7b8r", "b7b8b", "b7b8n", "e5d6", "e5e6"] {
        assert!(
            moves.contains(&expected.to_string()),
            "{expected} missing from {moves:?}"
        );
    }
}

#[test]
fn show_json_has_the_contract_fields() {
    let output = variant(&["show", "chess", "--json", "--play", "f2f3 e7e5 g2g4 d8h4"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
    assert_eq!(
        value["fen"],
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    );
    assert_eq!(value["side_to_move"], "white");
    assert_eq!(value["legal_moves"].as_array().map(Vec::len), Some(0));
    assert_eq!(value["result"]["winners"][0], "black");
    assert_eq!(value["result"]["reason"], "checkmate");
    assert!(value.get("scores").is_some());
}

#[test]
fn show_draws_the_board() {
    let output = variant(&["show", "chess"]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains(" 8  r n b q k b n r"), "{text}");
    assert!(text.contains(" 1  R N B Q K B N R"), "{text}");
    assert!(text.contains("FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
}

#[test]
fn an_illegal_move_is_an_error_with_exit_code_one() {
    let output = variant(&["moves", "chess", "--play", "e2e5"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("`e2e5` is not a legal move"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_malformed_move_is_an_error_with_exit_code_one() {
    let output = variant(&["moves", "chess", "--play", "e2e4e4"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("`e2e4e4` is not a move"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_malformed_fen_is_an_error_with_exit_code_one() {
    for fen in [
        "",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "8/8/8/8/8/8/8/9 w - - 0 1",
        "x",
    ] {
        let output = variant(&["show", "chess", "--fen", fen]);
        assert_eq!(output.status.code(), Some(1), "{fen:?}");
        assert!(
            stderr(&output).contains("FEN"),
            "{fen:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn an_unknown_game_is_an_error() {
    let output = variant(&["show", "no-such-game"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("no game `no-such-game`"));
}

#[test]
fn check_accepts_every_shipped_game() {
    let games: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/games"))
        .expect("games folder")
        .map(|e| e.expect("entry").path().display().to_string())
        .filter(|p| p.ends_with(".variant"))
        .collect();
    let mut args = vec!["check"];
    args.extend(games.iter().map(String::as_str));
    let output = variant(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stdout(&output)
            .lines()
            .filter(|l| l.starts_with("ok: "))
            .count(),
        games.len()
    );
}

#[test]
fn check_rejects_a_broken_file_with_exit_code_one() {
    let output = variant(&[
        "check",
        "games/chess.variant",
        "tests/inputs/invalid/26-empty-file.variant",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("ok: games/chess.variant"));
    assert!(stderr(&output).contains("error"));
}

#[test]
fn help_is_stable() {
    let output = variant(&["--help"]);
    assert!(output.status.success());
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn compiled_chess_is_described() {
    let output = variant(&["dump", "chess", "--compiled"]);
    assert!(output.status.success(), "{}", stderr(&output));
    insta::assert_snapshot!(stdout(&output));
}

#[test]
fn every_compiled_game_is_described() {
    for game in ["coverage", "coverage-weighted", "cheversi"] {
        let output = variant(&["dump", game, "--compiled"]);
        assert!(output.status.success(), "{}", stderr(&output));
        insta::assert_snapshot!(format!("compiled-{game}"), stdout(&output));
    }
}
