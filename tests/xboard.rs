//! `variant xboard`: CECP v2 line by line with timeouts, and python-chess's `chess.engine`
//! driving whole games over it through `scripts/uci_python_chess.py --protocol xboard`.
//!
//! Without python3 or python-chess the client test prints a `SKIPPED` line and passes, except in
//! CI (`CI` set), where `.ci/run` installs python-chess and its absence fails the test.

mod common;

use common::engine::{Engine, PATIENCE};
use std::time::{Duration, Instant};

fn engine_move(lines: &[String]) -> String {
    let last = lines.last().expect("a line");
    last.strip_prefix("move ")
        .unwrap_or_else(|| panic!("{lines:#?}"))
        .to_string()
}

fn legal_moves(game: &str, play: &str) -> Vec<String> {
    let output = common::variant(&["moves", game, "--play", play]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    common::stdout(&output)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn protover_declares_the_features_and_the_variants() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("xboard");
    engine.send("protover 2");
    let lines = engine.until(PATIENCE, |l| l.contains("done=1"));
    let features = lines.last().unwrap();
    for feature in [
        "feature myname=\"variant ",
        " setboard=1",
        " usermove=1",
        " san=0",
        " ping=1",
        " memory=1",
        " analyze=1",
        " highlight=1",
    ] {
        assert!(features.contains(feature), "{feature}: {features}");
    }
    let variants = features
        .split("variants=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("variants");
    let variants: Vec<&str> = variants.split(',').collect();
    assert!(variants.contains(&"normal"), "{variants:?}");
    assert!(variants.contains(&"takeover-chess"), "{variants:?}");
    assert!(!variants.contains(&"chess") && !variants.contains(&"kingdrops"));
    assert!(engine.ping().is_empty());
    engine.quit();
}

#[test]
fn the_engine_answers_moves_and_plays_its_side() {
    let mut engine = Engine::start(&["xboard"]);
    for command in ["new", "post", "sd 3", "usermove e2e4"] {
        engine.send(command);
    }
    // Black, the engine's side after `new`, answers with thinking lines and its move.
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    let reply = engine_move(&lines);
    assert!(legal_moves("chess", "e2e4").contains(&reply), "{reply}");
    let thinking: Vec<&String> = lines.iter().filter(|l| !l.starts_with("move ")).collect();
    assert_eq!(thinking.len(), 3, "{lines:#?}");
    for (depth, line) in thinking.iter().enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[0], (depth + 1).to_string(), "{line}");
        assert!(
            fields[1..4].iter().all(|f| f.parse::<i64>().is_ok()),
            "{line}"
        );
    }
    // The reply is on the engine's board: the next move follows from it.
    engine.ping();
    engine.send("usermove d2d4");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    let played = format!("e2e4 {reply} d2d4");
    assert!(legal_moves("chess", &played).contains(&engine_move(&lines)));
    engine.quit();
}

#[test]
fn force_setboard_go_and_move_now() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    engine.send("force");
    // White mates in one.
    engine.send("setboard r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    assert!(engine.ping().is_empty());
    engine.send("go");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    assert_eq!(engine_move(&lines), "h5f7");
    // The engine's mate ends the game: announced before the next command is answered.
    let lines = engine.ping();
    assert_eq!(lines, ["1-0 {white wins by checkmate}"]);
    // `?` moves at once from a long search.
    engine.send("new");
    engine.send("st 60");
    engine.send("usermove e2e4");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.send("?");
    let lines = engine.until(Duration::from_secs(3), |l| l.starts_with("move "));
    assert!(asked.elapsed() < Duration::from_secs(2));
    assert!(legal_moves("chess", "e2e4").contains(&engine_move(&lines)));
    engine.quit();
}

#[test]
fn analyze_reports_until_exit_and_bad_input_is_an_error() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    engine.send("force");
    engine.send("usermove e2e4");
    engine.send("analyze");
    let lines = engine.until(PATIENCE, |l| l.starts_with("3 "));
    assert!(lines.iter().all(|l| !l.starts_with("move ")), "{lines:#?}");
    engine.send("exit");
    engine.ping();
    for (command, answer) in [
        ("usermove e2e5", "Illegal move ("),
        (
            "setboard not-a-fen",
            "Error (illegal position): setboard not-a-fen",
        ),
        (
            "variant kingdrops",
            "Error (variant kingdrops cannot be played",
        ),
        ("flurb", "Error (unknown command): flurb"),
        ("level x y z", "Error (write level"),
    ] {
        engine.send(command);
        let lines = engine.ping();
        assert!(
            lines.iter().any(|l| l.starts_with(answer)),
            "{command}: {lines:#?}"
        );
    }
    // Still e2e4 played, black to move: `go` answers for black.
    engine.send("go");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    assert!(legal_moves("chess", "e2e4").contains(&engine_move(&lines)));
    engine.quit();
}

#[test]
fn a_variant_the_gui_may_not_know_is_played() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    engine.send("variant takeover-chess");
    engine.send("sd 2");
    engine.send("go");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    assert!(legal_moves("takeover-chess", "").contains(&engine_move(&lines)));
    engine.quit();
}

#[test]
fn python_chess_plays_whole_games_through_xboard() {
    if !common::python_module_or_skip(
        "python_chess_plays_whole_games_through_xboard",
        "chess.engine",
        "chess",
    ) {
        return;
    }
    let stdout =
        common::run_python_script("scripts/uci_python_chess.py", &["--protocol", "xboard"]);
    assert!(stdout.contains("played `variant xboard`"), "{stdout}");
    for game in [
        "chess 1-0",
        "chess 0-1",
        "crazyhouse ",
        "atomic ",
        "self-play ",
    ] {
        assert!(stdout.contains(game), "{game}: {stdout}");
    }
}

#[test]
fn lift_highlights_the_targets_of_a_piece() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    engine.send("force");
    engine.send("setboard r3k2r/1P6/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1");
    for (square, board) in [
        // The king: steps, and castling on both sides as the king's move.
        ("e1", "8/8/8/8/8/8/3YYY2/2YY1YY1"),
        // The pawn: a push and a capture.
        ("e4", "8/8/8/3RY3/8/8/8/8"),
        // Promotions, one of them by capture.
        ("b7", "MM6/8/8/8/8/8/8/8"),
        // No piece of the side to move there.
        ("d5", "8/8/8/8/8/8/8/8"),
    ] {
        engine.send(&format!("lift {square}"));
        let lines = engine.ping();
        assert_eq!(lines, [format!("highlight {board}")], "{square}");
    }
    engine.send("put e4");
    assert!(engine.ping().is_empty());
    engine.quit();
}
