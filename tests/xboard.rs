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

/// XBoard's start of courier (backend.c's `CourierArray`), where `variant xboard` starts it.
const XBOARD_COURIER: &str =
    "rnebmkfwbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w - - 0 1";

fn legal_moves(game: &str, play: &str) -> Vec<String> {
    let mut args = vec!["moves", game, "--play", play];
    if game == "courier" {
        args.extend(["--fen", XBOARD_COURIER]);
    }
    let output = common::variant(&args);
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
    mates_in_one_and_moves_now(&mut engine);
    engine.quit();
}

/// The engine finds a mate in one after `setboard` and `go`, and `?` makes it move at once
/// from a long search.
fn mates_in_one_and_moves_now(engine: &mut Engine) {
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
}

/// `cores N` searches with N threads: the mate is still found, `?` still moves at once, and a
/// count that is not one is an error that leaves the engine as it was.
#[test]
fn cores_sets_the_threads_of_the_search() {
    let mut engine = Engine::start(&["xboard"]);
    for bad in ["cores 0", "cores two"] {
        engine.send(bad);
        let lines = engine.ping();
        assert_eq!(
            lines,
            [format!("Error (cores takes a number of threads): {bad}")]
        );
    }
    engine.send("cores 2");
    mates_in_one_and_moves_now(&mut engine);
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
        "kingofthehill ",
        "3check ",
        "horde ",
        "racingkings ",
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

#[test]
fn a_game_xboard_does_not_know_is_sent_as_setup_and_comments() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("protover 2");
    engine.until(PATIENCE, |l| l.contains("done=1"));
    // Chess is XBoard's own `normal`: nothing to tell it.
    engine.send("variant normal");
    assert!(engine.ping().is_empty());
    engine.send("variant takeover-chess");
    let lines = engine.ping();
    // The king in XBoard's king slot, the pawn in its pawn slot, the mirror knight in the
    // slot named by its letter; the holes as `*` in the FEN.
    assert_eq!(
        lines[0],
        "setup (PNBRQ.....M..........Kpnbrq.....m..........k) 7x7+0_fairy \
         *rbkqb*/*pmpnp*/2p1p2/7/2P1P2/*PMPNP*/*RBKQB* w - - 0 1"
    );
    // Every piece takes pieces over along paths: no piece line, a comment for each.
    assert_eq!(lines.len(), 8, "{lines:#?}");
    for (line, letter) in lines[1..].iter().zip("KQRBNMP".chars()) {
        assert!(
            line.starts_with(&format!("# piece {letter} (")) && line.contains("along paths"),
            "{line}"
        );
    }
    engine.quit();
}

/// Under the parent `shogi`, XBoard 4.9 judges the pieces in its Knight and Queen slots by
/// shogi's knight and lance (no drop on the last ranks, promotion there forced), whatever their
/// piece lines say, and promotes only the pieces before its Wazir slot: minishogi's Silver
/// takes the Ferz slot, as in Fairy-Stockfish's own `setup`, not the Knight's (where XBoard
/// forfeited a legal Silver drop on the second-last rank), and each promoted form sits eleven
/// slots after its base (`+`).
#[test]
fn a_shogi_parent_keeps_xboard_s_knight_and_lance_slots_empty() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("variant minishogi");
    let lines = engine.ping();
    assert_eq!(
        lines[0],
        "setup (P.BR.S.....+.++G+....Kp.br.s.....+.++g+....k) 5x5+5_shogi \
         rbsgk/4p/5/P4/KGSBR[] w - - 0 1"
    );
    engine.quit();
}

/// Torpedo's pawn may double-step from every rank (`imfnD` from an initial zone that is the
/// whole board): its piece line says so without the `i`, which XBoard reads as "unmoved".
#[test]
fn an_initial_zone_of_the_whole_board_is_written_without_xbetza_s_i() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("variant torpedo");
    let lines = engine.ping();
    assert!(
        lines.contains(&"piece P& fmWfceFfmnD".to_string()),
        "{lines:#?}"
    );
    engine.send("variant chess");
    engine.send("variant berolina");
    let lines = engine.ping();
    assert!(
        lines.contains(&"piece P& fmFfceWifmnA".to_string()),
        "{lines:#?}"
    );
    engine.quit();
}

#[test]
fn pieces_with_an_xbetza_equivalent_get_piece_lines() {
    let dir = common::temporary_dir("xboard-pieces");
    let game = dir.join("pieces-test.variant");
    std::fs::write(
        &game,
        r#"game "Pieces"
board 8x8
side white { forward up }
side black { forward down }
piece King { letter K; royal; moves "K" }
piece Rook { letter R; moves "R" }
piece Archbishop { letter A; moves "BN" }
piece Shogi { letter S; moves "ffN" }
piece Leaper { letter X; moves "flN" }
piece Pawn { letter P; moves "mfW cfeF imfnD"; initial rank 2; promotes on last rank to Archbishop }
castling {
    white K king e1-g1 rook h1-f1
    white Q king e1-c1 rook a1-d1
    black k king e8-g8 rook h8-f8
    black q king e8-c8 rook a8-d8
}
setup "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
end { check; checkmate loses }
"#,
    )
    .expect("the game file is written");
    let mut engine = Engine::start(&["xboard", "--variant-path", game.to_str().unwrap()]);
    engine.send("variant pieces-test");
    let lines = engine.ping();
    assert_eq!(
        lines,
        [
            // Letters naming an XBoard slot keep it (R, A, S); X names none and takes the
            // first free one, the knight's.
            "setup (PX.R...A...........S.Kpx.r...a...........s.k) 8x8+0_fairy \
             r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
            "piece K& KO2",
            "piece R& R",
            "piece A& BN",
            "piece S& ffN",
            "# piece X (Leaper): no exact XBetza equivalent: its N directions are not a union \
             of XBetza's ff/bb/fs/bs pairs",
            "piece P& fmWfceFifmnD",
        ]
    );
    engine.quit();
}

#[test]
fn a_takeover_without_its_mark_is_the_takeover_it_stands_for() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("variant takeover-chess");
    engine.send("force");
    engine.ping();
    // XBoard passes `e5g3^f4` on as `e5g3`: the one legal move it stands for.
    engine.send("usermove f2f4");
    engine.send("usermove e5g3");
    assert!(engine.ping().is_empty());
    // The pawn on f4 is Red's now: White's pawn on e3 may capture it.
    engine.send("usermove e3f4");
    assert!(engine.ping().is_empty());
    // A move that stands for no legal move is still refused.
    engine.send("usermove c6c4");
    let lines = engine.ping();
    assert!(lines[0].starts_with("Illegal move ("), "{lines:#?}");
    engine.quit();
}

/// A move or square in the game's notation with every rank moved by `by` (XBoard counts the
/// ranks of a ten-rank board from 0).
fn shift_ranks(text: &str, by: i32) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if !digits.is_empty() {
            let rank: i32 = digits.parse().expect("a rank");
            out.push_str(&(rank + by).to_string());
            digits.clear();
        }
    };
    let mut after_file = false;
    for c in text.chars() {
        if c.is_ascii_digit() && (after_file || !digits.is_empty()) {
            digits.push(c);
            after_file = false;
            continue;
        }
        flush(&mut digits, &mut out);
        after_file = c.is_ascii_lowercase();
        out.push(c);
    }
    flush(&mut digits, &mut out);
    out
}

#[test]
fn a_ten_rank_board_counts_its_ranks_from_zero_as_xboard_does() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("variant xiangqi");
    engine.send("force");
    engine.ping();
    // The horse on b1 (XBoard's b0) reaches a3 and c3: the highlight board names no rank.
    engine.send("lift b0");
    assert_eq!(engine.ping(), ["highlight 9/9/9/9/9/9/9/Y1Y6/9/9"]);
    // The cannon h3-e3 is XBoard's `h2e2`; `h3e3` would be h4-e4, which is no move.
    engine.send("usermove h2e2");
    assert!(engine.ping().is_empty());
    // The game's own `b10c8` names an eleventh rank: refused, echoed as sent.
    engine.send("usermove b10c8");
    let lines = engine.ping();
    assert!(lines[0].starts_with("Illegal move ("), "{lines:#?}");
    assert!(lines[0].ends_with(": b10c8"), "{lines:#?}");
    // Red's horse b10-c8 is `b9c7`.
    engine.send("usermove b9c7");
    assert!(engine.ping().is_empty());
    // The engine's move and its thinking come in XBoard's numbering too.
    engine.send("post");
    engine.send("sd 2");
    engine.send("go");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    let reply = shift_ranks(&engine_move(&lines), 1);
    assert!(
        legal_moves("xiangqi", "h3e3 b10c8").contains(&reply),
        "{reply}: {lines:#?}"
    );
    let pv_first = lines[0]
        .split_whitespace()
        .nth(6)
        .expect("a thinking line's move");
    assert!(
        legal_moves("xiangqi", "h3e3 b10c8").contains(&shift_ranks(pv_first, 1)),
        "{lines:#?}"
    );
    engine.quit();
}

#[test]
fn every_library_game_is_set_up_lifted_moved_and_answered() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("protover 2");
    let features = engine.until(PATIENCE, |l| l.contains("done=1"));
    let variants: Vec<String> = features
        .last()
        .and_then(|f| f.split("variants=\"").nth(1))
        .and_then(|rest| rest.split('"').next())
        .expect("variants")
        .split(',')
        .map(str::to_string)
        .collect();
    assert!(variants.len() >= 40, "{variants:?}");
    let mut set_up = 0;
    for name in &variants {
        let game = if name == "normal" { "chess" } else { name };
        engine.send("new");
        engine.send(&format!("variant {name}"));
        engine.send("force");
        let lines = engine.ping();
        // Nothing but a description of the game: a `setup` line first, if any, then `piece`
        // lines and comments.
        for (index, line) in lines.iter().enumerate() {
            let fits = if index == 0 {
                line.starts_with("setup (") || line.starts_with("piece ")
            } else {
                line.starts_with("piece ") || line.starts_with("# ")
            };
            assert!(fits, "{name}: {lines:#?}");
        }
        set_up += usize::from(lines.first().is_some_and(|l| l.starts_with("setup (")));
        // The board's ranks, from a lift on no piece's square.
        engine.send("lift a1");
        let board = engine.ping();
        let ranks = board[0].matches('/').count() + 1;
        let by = if ranks == 10 { 1 } else { 0 };
        let first = legal_moves(game, "")
            .into_iter()
            .next()
            .expect("a legal move");
        let sent = shift_ranks(&first, -by);
        // A move from a square: its piece's lift marks some target.
        if !first.contains('@') {
            let from: String = sent
                .chars()
                .take_while(|c| c.is_ascii_lowercase())
                .chain(
                    sent.chars()
                        .skip_while(|c| c.is_ascii_lowercase())
                        .take_while(|c| c.is_ascii_digit()),
                )
                .collect();
            engine.send(&format!("lift {from}"));
            let highlight = engine.ping();
            assert_eq!(highlight.len(), 1, "{name}: {highlight:#?}");
            assert!(
                highlight[0].starts_with("highlight ")
                    && highlight[0].contains(['Y', 'R', 'M'])
                    && highlight[0].matches('/').count() + 1 == ranks,
                "{name} lift {from}: {highlight:#?}"
            );
            engine.send(&format!("put {from}"));
            assert!(engine.ping().is_empty(), "{name}");
        }
        engine.send(&format!("usermove {sent}"));
        assert!(engine.ping().is_empty(), "{name}: usermove {sent}");
        engine.send("sd 1");
        engine.send("go");
        let lines = engine.until(PATIENCE, |l| l.starts_with("move ") || l.contains(" {"));
        let last = lines.last().expect("a line");
        if let Some(reply) = last.strip_prefix("move ") {
            let legal = legal_moves(game, &first);
            let fits = if reply == "@@@@" {
                // The null move: a pass, `pass` or a piece's move to its own square.
                legal.iter().any(|m| {
                    m == "pass" || (m.len() % 2 == 0 && m[..m.len() / 2] == m[m.len() / 2..])
                })
            } else {
                legal.contains(&shift_ranks(reply, by))
            };
            assert!(fits, "{name}: {first} {reply}");
        }
    }
    // The games XBoard does not know by name were described to it.
    assert!(set_up >= 20, "{set_up} setup lines");
    engine.quit();
}

#[test]
fn an_overlong_line_is_skipped_with_an_error_and_the_engine_goes_on() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send(&format!("usermove {}", "e".repeat(200_000)));
    let lines = engine.ping();
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].starts_with("Error (longer than "), "{lines:#?}");
    engine.send("new");
    engine.send("usermove e2e4");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    assert!(legal_moves("chess", "e2e4").contains(&engine_move(&lines)));
    engine.quit();
}

#[test]
fn a_pass_crosses_the_protocol_as_the_null_move() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("variant ataxx");
    engine.send("force");
    // White's one stone has no empty square within two steps: its one move is a pass.
    let fen = "pppppp1/ppppppp/ppppppp/ppppppp/ppppppp/ppppppp/Ppppppp w - - 0 1";
    engine.send(&format!("setboard {fen}"));
    engine.send("sd 2");
    engine.send("go");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    assert_eq!(engine_move(&lines), "@@@@");
    // XBoard's `@@@@` is the pass, from the same position; in another one it is refused.
    engine.send("force");
    engine.send(&format!("setboard {fen}"));
    engine.send("usermove @@@@");
    assert!(engine.ping().is_empty());
    engine.send("new");
    engine.send("usermove @@@@");
    let lines = engine.ping();
    assert!(lines[0].starts_with("Illegal move ("), "{lines:#?}");
    engine.quit();
}

#[test]
fn a_pass_relayed_as_the_board_after_it_is_played_and_answered() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    engine.send("variant janggi");
    engine.send("sd 1");
    // White passes in XBoard; XBoard tells the engine, playing Black, the board after it.
    let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR";
    engine.send(&format!("setboard {start} b - - 1 1"));
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    let reply = match engine_move(&lines).as_str() {
        // Black's own pass: its general's square.
        "@@@@" => "e9e9".to_string(),
        reply => shift_ranks(reply, 1),
    };
    // The pass is in the engine's game: its reply follows it, and `remove` takes back the
    // reply and then the pass, which leaves White to move.
    assert!(legal_moves("janggi", "e2e2").contains(&reply), "{reply}");
    engine.send("force");
    engine.send("remove");
    engine.send("lift e1");
    let lines = engine.ping();
    // (Black's pass would have ended the game after White's: "two passes in a row".)
    let highlight = lines.last().expect("a highlight");
    assert!(
        highlight.starts_with("highlight ") && highlight.contains('Y'),
        "White's king moves: {lines:#?}"
    );
    // A board no pass leads to is set as it is, with no history to take back.
    engine.send("setboard 3k5/9/9/9/9/9/9/9/4K4/9 b - - 0 1");
    engine.send("lift d9");
    let highlight = engine.ping();
    assert!(
        highlight[0].contains('Y'),
        "Black's king moves: {highlight:#?}"
    );
    engine.send("undo");
    engine.send("lift d9");
    assert_eq!(engine.ping(), highlight, "still Black's move");
    engine.quit();
}

#[test]
fn any_clock_is_taken_and_the_engine_still_moves() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    // The longest clock an i64 holds (ten times it overflows), then one past its flag: neither
    // is an error.
    for clock in ["time 9223372036854775807", "time -300"] {
        engine.send(clock);
        assert!(engine.ping().is_empty(), "{clock}");
    }
    engine.send("time 18446744073709551616");
    let lines = engine.ping();
    assert!(
        lines[0].starts_with("Error (time takes centiseconds)"),
        "{lines:#?}"
    );
    // Out of time, the engine still answers with a legal move at once.
    engine.send("usermove e2e4");
    let lines = engine.until(PATIENCE, |l| l.starts_with("move "));
    assert!(legal_moves("chess", "e2e4").contains(&engine_move(&lines)));
    engine.send("time 9999999999999999");
    engine.send("usermove d2d4");
    engine.send("?");
    engine.until(PATIENCE, |l| l.starts_with("move "));
    engine.quit();
}

/// XBoard starts courier from its own position (backend.c `CourierArray`: every pawn on its
/// second rank, the ferz on g1) and, testing legality, ignores an engine's `setup` for it: the
/// engine starts there too (`g2g3` is legal only there: the library's start has no g2 pawn),
/// and a `setboard` still sets the library's start.
#[test]
fn courier_starts_from_xboard_s_own_position() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("xboard");
    engine.send("protover 2");
    engine.until(PATIENCE, |l| l.contains("done=1"));
    engine.send("new");
    engine.send("force");
    engine.send("variant courier");
    let lines = engine.ping();
    assert!(!lines.iter().any(|l| l.starts_with("setup")), "{lines:#?}");
    engine.send("usermove g2g3");
    engine.send("usermove g7g6");
    engine.send("usermove f1g2");
    let lines = engine.ping();
    assert!(lines.is_empty(), "{lines:#?}");
    engine.send(
        "setboard rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
    );
    engine.send("usermove g2g3");
    let lines = engine.ping();
    assert!(lines[0].starts_with("Illegal move ("), "{lines:#?}");
    engine.send("usermove f1g2");
    assert!(engine.ping().is_empty());
    engine.quit();
}
