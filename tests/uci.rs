//! `variant uci`: the raw protocol, line by line with timeouts (the engine must answer while it
//! searches, and never hang or crash on bad input), and a real client, python-chess's
//! `chess.engine`, driving whole games through `scripts/uci_python_chess.py`.
//!
//! Without python3 or python-chess the client test prints a `SKIPPED` line and passes, except in
//! CI (`CI` set), where `.ci/run` installs python-chess and its absence fails the test.

mod common;

use common::engine::{Engine, PATIENCE};
use std::process::Command;
use std::time::{Duration, Instant};

fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a line");
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("bestmove"), "{lines:#?}");
    words.next().expect("a move").to_string()
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
fn uci_lists_the_options_and_the_two_sided_games() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("uci");
    let lines = engine.until(PATIENCE, |l| l == "uciok");
    assert!(lines[0].starts_with("id name variant"), "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "option name Hash type spin default 16 min 1",
        "option name Threads type spin default 1",
        "option name MultiPV type spin default 1 min 1 max 500",
        "option name Move Overhead type spin default 10",
        "option name Skill Level type spin default 20",
        "option name UCI_AnalyseMode type check default false",
        "option name VariantPath type string default <empty>",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "{option}: {lines:#?}"
        );
    }
    let variants = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo default chess "))
        .expect("the variant combo");
    let offered: Vec<&str> = variants.split(" var ").skip(1).collect();
    for game in ["chess", "takeover-chess", "cheversi"] {
        assert!(offered.contains(&game), "{game}: {variants}");
    }
    // Three sides, and three actions a turn: not for a two-player protocol.
    for game in ["cooperative-chess", "kingdrops"] {
        assert!(!offered.contains(&game), "{game}: {variants}");
    }
    assert!(engine.sync().is_empty());
    engine.quit();
}

#[test]
fn go_depth_reports_each_depth_and_a_legal_bestmove() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 3");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "{lines:#?}");
    for (depth, info) in infos.iter().enumerate() {
        let words: Vec<&str> = info.split_whitespace().collect();
        assert_eq!(words[2], (depth + 1).to_string(), "{info}");
        for key in [
            "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
        ] {
            assert!(words.contains(&key), "{key} missing: {info}");
        }
        assert!(
            info.contains(" score cp ") || info.contains(" score mate "),
            "{info}"
        );
    }
    let best = bestmove(&lines);
    assert!(legal_moves("chess", "e2e4 e7e5").contains(&best), "{best}");
    // The principal variation starts with the best move.
    let pv = infos.last().unwrap().split(" pv ").nth(1).unwrap();
    assert_eq!(pv.split_whitespace().next(), Some(best.as_str()));
    engine.quit();
}

#[test]
fn the_engine_answers_isready_while_searching_and_stops_promptly() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.sync();
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "{:?}",
        asked.elapsed()
    );
    // An infinite search never ends by itself...
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine.lines.try_iter().all(|l| !l.starts_with("bestmove")));
    // ...and `stop` ends it at once with a legal move.
    let stopped = Instant::now();
    engine.send("stop");
    let lines = engine.until(Duration::from_secs(2), |l| l.starts_with("bestmove"));
    assert!(stopped.elapsed() < Duration::from_secs(2));
    assert!(legal_moves("chess", "").contains(&bestmove(&lines)));
    engine.quit();
}

#[test]
fn a_clock_and_a_move_time_are_kept() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("position startpos moves d2d4");
    let started = Instant::now();
    engine.send("go wtime 2000 btime 2000 winc 0 binc 0");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    // Black's share of two seconds, far from all of it.
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "{:?}",
        started.elapsed()
    );
    assert!(legal_moves("chess", "d2d4").contains(&bestmove(&lines)));
    let started = Instant::now();
    engine.send("go movetime 300");
    engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    let spent = started.elapsed();
    assert!(spent < Duration::from_millis(1000), "{spent:?}");
    engine.send("go nodes 500");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(legal_moves("chess", "d2d4").contains(&bestmove(&lines)));
    engine.quit();
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("position startpos moves e2e4");
    engine.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(engine.lines.try_iter().all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    let lines = engine.until(Duration::from_secs(3), |l| l.starts_with("bestmove"));
    assert!(legal_moves("chess", "e2e4").contains(&bestmove(&lines)));
    engine.quit();
}

#[test]
fn multipv_reports_as_many_lines() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 2");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 2 ") && l.contains(&format!(" multipv {k} "))),
            "{lines:#?}"
        );
    }
    engine.quit();
}

#[test]
fn mate_is_found_and_reported_in_moves() {
    let mut engine = Engine::start(&["uci"]);
    // White mates in one: Qh5xf7.
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    engine.send("go mate 1");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "h5f7", "{lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:#?}"
    );
    // The game is over: no move, said so.
    engine.send(
        "position fen r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4 moves h5f7",
    );
    engine.send("go depth 2");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:#?}");
    assert!(
        lines.iter().any(|l| l == "info depth 0 score mate 0"),
        "{lines:#?}"
    );
    engine.quit();
}

#[test]
fn bad_input_gets_an_info_string_and_the_engine_goes_on() {
    let mut engine = Engine::start(&["uci"]);
    let cases = [
        ("flurb", "unknown command `flurb`"),
        (
            "setoption name Nonsense value 3",
            "unknown option `Nonsense`",
        ),
        (
            "setoption name Hash value lots",
            "option Hash takes a whole number",
        ),
        (
            "setoption value 3",
            "write `setoption name NAME value VALUE`",
        ),
        ("position", "write `position startpos"),
        ("position fen not/a/fen w - - 0 1", "invalid FEN"),
        (
            "position startpos moves e2e4 e7e4",
            "move 2 of the position: `e7e4` is not a legal move",
        ),
        (
            "position startpos moves e2e4 zz",
            "move 2 of the position: `zz` is not a move",
        ),
        (
            "setoption name UCI_Variant value nosuchgame",
            "no variant `nosuchgame`",
        ),
        ("ponderhit", "`ponderhit` without a search"),
    ];
    for (command, message) in cases {
        engine.send(command);
        let lines = engine.sync();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: ") && l.contains(message)),
            "{command}: {lines:#?}"
        );
    }
    // The position is the one before the illegal move: after e2e4, black to move.
    engine.send("position startpos moves e2e4 e7e4");
    engine.send("go depth 1");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(legal_moves("chess", "e2e4").contains(&bestmove(&lines)));
    // A bad parameter of go is left out, and go still ends with a move.
    engine.send("go depth x movetime 200");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(lines
        .iter()
        .any(|l| l.contains("`go depth` takes a whole number")));
    // An overlong line is skipped.
    engine.send(&"x".repeat(2 << 20));
    let lines = engine.sync();
    assert!(
        lines.iter().any(|l| l.contains("was skipped")),
        "{lines:#?}"
    );
    engine.quit();
}

#[test]
fn games_for_more_than_two_players_or_several_actions_are_refused() {
    let mut engine = Engine::start(&["uci"]);
    for (game, why) in [
        ("cooperative-chess", "it has 3 sides"),
        ("kingdrops", "a turn has up to 3 actions"),
    ] {
        engine.send(&format!("setoption name UCI_Variant value {game}"));
        let lines = engine.sync();
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ")
                && l.contains(&format!("variant {game} cannot be played"))
                && l.contains(why)),
            "{game}: {lines:#?}"
        );
    }
    // The variant is still chess.
    engine.send("position startpos");
    engine.send("go depth 1");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(legal_moves("chess", "").contains(&bestmove(&lines)));
    engine.quit();
}

#[test]
fn selecting_a_variant_prints_its_setup_and_plays_it() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("setoption name UCI_Variant value takeover-chess");
    let lines = engine.sync();
    let setup = common::show_json(&["takeover-chess"])["fen"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        lines,
        [format!(
            "info string variant takeover-chess files 7 ranks 7 pocket 0 template fairy startpos {setup}"
        )]
    );
    engine.send("setoption name UCI_Variant value chess");
    let lines = engine.sync();
    assert_eq!(
        lines,
        ["info string variant chess files 8 ranks 8 pocket 0 template fairy startpos rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    );
    engine.send("setoption name UCI_Variant value takeover-chess");
    engine.send("position startpos");
    engine.send("go depth 2");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(legal_moves("takeover-chess", "").contains(&bestmove(&lines)));
    engine.quit();
}

#[test]
fn variant_path_rebuilds_the_combo() {
    // Crazyhouse under a name that is not in the games folder (`extends "chess"` finds chess
    // in ./games).
    let dir = common::temporary_dir("uci-variant-path");
    let house = dir.join("house.variant");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/crazyhouse.variant");
    std::fs::copy(source, &house).expect("copied");
    let mut engine = Engine::start(&["uci"]);
    engine.send("setoption name UCI_Variant value house");
    assert!(engine.sync()[0].contains("no variant `house`"));
    engine.send(&format!(
        "setoption name VariantPath value {}",
        house.display()
    ));
    let lines = engine.sync();
    assert!(
        lines[0].starts_with("info string loaded house"),
        "{lines:#?}"
    );
    engine.send("uci");
    let lines = engine.until(PATIENCE, |l| l == "uciok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var house")));
    engine.send("setoption name UCI_Variant value house");
    let lines = engine.sync();
    assert_eq!(
        lines,
        ["info string variant house files 8 ranks 8 pocket 6 template crazyhouse startpos rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"]
    );
    // Drops, as Fairy-Stockfish writes them.
    engine.send("position startpos moves e2e4 d7d5 e4d5 d8d5 b1c3 d5a5");
    engine.send("go depth 2");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    let best = bestmove(&lines);
    let output = common::variant(&[
        "moves",
        "games/crazyhouse.variant",
        "--play",
        "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",
    ]);
    assert!(common::stdout(&output).lines().any(|m| m == best), "{best}");
    engine.send("setoption name VariantPath value tests/no-such-folder");
    assert!(engine.sync()[0].contains("neither a file nor a folder"));
    engine.quit();
}

#[test]
fn a_weaker_skill_level_still_plays_legal_moves() {
    let mut engine = Engine::start(&["uci"]);
    engine.send("setoption name Skill Level value 0");
    engine.send("position startpos moves g1f3");
    engine.send("go movetime 500");
    let started = Instant::now();
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    // Depth 1 at level 0: well within the move time.
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 2 ")),
        "{lines:#?}"
    );
    assert!(started.elapsed() < Duration::from_millis(500));
    assert!(legal_moves("chess", "g1f3").contains(&bestmove(&lines)));
    engine.quit();
}

#[test]
fn python_chess_plays_whole_games_through_uci() {
    if !common::python_module_or_skip(
        "python_chess_plays_whole_games_through_uci",
        "chess.engine",
        "chess",
    ) {
        return;
    }
    let stdout = common::run_python_script("scripts/uci_python_chess.py", &[]);
    for game in [
        "chess 1-0",
        "chess 0-1",
        "crazyhouse ",
        "atomic ",
        "kingofthehill ",
        "3check ",
        "antichess ",
        "horde ",
        "racingkings ",
        "self-play ",
    ] {
        assert!(stdout.contains(game), "{game}: {stdout}");
    }
}

#[test]
fn hash_clear_hash_and_new_games_keep_the_engine_playing() {
    let mut engine = Engine::start(&["uci"]);
    for command in [
        "setoption name Hash value 1",
        "setoption name Clear Hash",
        "setoption name Threads value 2",
        "setoption name Move Overhead value 50",
        "setoption name UCI_AnalyseMode value true",
        "setoption name Ponder value false",
        "ucinewgame",
    ] {
        engine.send(command);
        assert!(engine.sync().is_empty(), "{command}");
    }
    engine.send("position startpos moves e2e4");
    engine.send("go depth 3");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(legal_moves("chess", "e2e4").contains(&bestmove(&lines)));
    engine.send("ucinewgame");
    engine.send("position startpos moves d2d4");
    engine.send("go depth 3");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(legal_moves("chess", "d2d4").contains(&bestmove(&lines)));
    engine.quit();
}

/// Games against Fairy-Stockfish in every library game both know (one game each, our colour
/// alternating from game to game), refereed by pyffish: every move of ours legal, every game
/// ending in a result by pyffish's rules within 800 plies. It runs
/// where Fairy-Stockfish is found (see [`common::fairy_stockfish`]) and pyffish is installed, and
/// is skipped elsewhere, unless `FAIRY_STOCKFISH` is set (as `.ci/run` sets it), which makes it
/// required.
#[test]
fn games_against_fairy_stockfish_reach_a_result() {
    let pyffish = Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|output| output.status.success());
    let Some(fairy) = common::fairy_stockfish().filter(|_| pyffish) else {
        assert!(
            std::env::var_os("FAIRY_STOCKFISH").is_none(),
            "FAIRY_STOCKFISH is set, so pyffish must be installed"
        );
        eprintln!(
            "SKIPPED games_against_fairy_stockfish_reach_a_result: no Fairy-Stockfish (../shared/tools/build-fairy-stockfish.sh, or FAIRY_STOCKFISH) or no pyffish"
        );
        return;
    };
    let stdout = common::run_python_script(
        "scripts/fairy_match.py",
        &[
            "--fairy",
            &fairy,
            "--one-colour",
            "--movetime",
            "50",
            "--plies",
            "800",
        ],
    );
    let variants: Vec<&str> = stdout
        .lines()
        .find_map(|line| line.strip_prefix("variants: "))
        .unwrap_or_else(|| panic!("no variants line in {stdout}"))
        .split(' ')
        .collect();
    // Every game of the library that Fairy-Stockfish knows by the same name, and that is for
    // two sides acting once a turn, is played.
    for name in [
        "chess",
        "crazyhouse",
        "atomic",
        "3check",
        "antichess",
        "horde",
        "racingkings",
        "shogi",
        "minishogi",
        "xiangqi",
        "minixiangqi",
        "janggi",
        "sittuyin",
        "dobutsu",
        "ataxx",
        "seirawan",
        "spartan",
        "placement",
        "grasshopper",
        "duck",
    ] {
        assert!(variants.contains(&name), "{name} was not played: {stdout}");
    }
    let summary = format!(
        "{} games against Fairy-Stockfish (nodes 2000) reached a result, 0 unfinished",
        variants.len()
    );
    assert!(stdout.contains(&summary), "{stdout}");
    for variant in &variants {
        assert!(
            stdout.contains(&format!("\n{variant}: variant as ")),
            "{variant}: {stdout}"
        );
    }
}

/// A forced pass (`pass when no action`) goes over UCI as Fairy-Stockfish writes it: a move of
/// the mover's first piece in square order to its own square. The position is one of a game
/// played against Fairy-Stockfish in ataxx, where White has stones and no clone or jump, and
/// pyffish's one legal move there is `f5f5`.
#[test]
fn a_forced_pass_is_written_and_read_as_fairy_stockfish_writes_it() {
    let fen = "2pppPP/2pppPP/2pppPP/1pppppp/1pppppp/2ppppp/pp1ppp1 w - - 0 32";
    let mut engine = Engine::start(&["uci"]);
    engine.send("setoption name UCI_Variant value ataxx");
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 2");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert_eq!(bestmove(&lines), "f5f5", "{lines:?}");
    let pv = lines
        .iter()
        .filter_map(|l| l.split_once(" pv "))
        .collect::<Vec<_>>();
    assert!(
        pv.iter().all(|(_, line)| line.starts_with("f5f5")),
        "{lines:?}"
    );
    // Read back: the pass is played, and Black is to move.
    engine.send(&format!("position fen {fen} moves f5f5"));
    engine.send("go depth 1");
    let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    assert!(
        bestmove(&lines).starts_with(['a', 'b', 'c', 'P']),
        "{lines:?}"
    );
    // Another stone's square twice is no pass.
    engine.send(&format!("position fen {fen} moves g7g7"));
    let lines = engine.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    engine.quit();
}

/// Issue 29's suspected illegal move: after `c1d2 e9e8 i1i2 h7h6 b2c1 c9d8` in shogi, our
/// engine once answered `e2e3`, a move from an empty square (not reproduced since). The line is
/// replayed through one engine process after a game of chess (its table and its last position
/// left behind), with and without `ucinewgame`, under several `go` limits, `Hash` sizes and
/// `Threads`, after `stop` and `ponderhit`: every `bestmove` and `ponder` is legal where it is
/// played.
#[test]
fn the_shogi_line_of_the_suspected_illegal_move_gets_legal_moves_only() {
    let line = ["c1d2", "e9e8", "i1i2", "h7h6", "b2c1", "c9d8"];
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1";
    let legal: Vec<Vec<String>> = (0..=line.len())
        .map(|k| legal_moves("shogi", &line[..k].join(" ")))
        .collect();
    let after = |k: usize, mv: &str| legal_moves("shogi", &[&line[..k], &[mv]].concat().join(" "));
    let mut engine = Engine::start(&["uci"]);
    let check = |engine: &mut Engine, k: usize, go: &str| {
        let moves = line[..k].join(" ");
        engine.send(&format!("position fen {start} moves {moves}"));
        engine.send(go);
        let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
        let last: Vec<&str> = lines.last().expect("a line").split_whitespace().collect();
        assert!(
            legal[k].contains(&last[1].to_string()),
            "{go} after {moves}: {last:?}"
        );
        if let Some(ponder) = last.get(3) {
            assert!(
                after(k, last[1]).contains(&ponder.to_string()),
                "{go}: {last:?}"
            );
        }
    };
    for (hash, threads, newgame) in [(1, 1, true), (16, 4, false), (64, 1, false)] {
        engine.send(&format!("setoption name Hash value {hash}"));
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send("setoption name UCI_Variant value chess");
        for moves in ["e2e4", "e2e4 e7e5 g1f3"] {
            engine.send(&format!("position startpos moves {moves}"));
            engine.send("go depth 3");
            engine.until(PATIENCE, |l| l.starts_with("bestmove"));
        }
        engine.send("setoption name UCI_Variant value shogi");
        if newgame {
            engine.send("ucinewgame");
        }
        for go in [
            "go depth 1",
            "go depth 3",
            "go nodes 3000",
            "go movetime 50",
        ] {
            for k in [0, 2, 4, 6] {
                check(&mut engine, k, go);
            }
        }
        for (go, then) in [
            ("go infinite", "stop"),
            ("go ponder wtime 500 btime 500", "ponderhit"),
        ] {
            engine.send(&format!("position fen {start} moves {}", line.join(" ")));
            engine.send(go);
            engine.send(then);
            let lines = engine.until(PATIENCE, |l| l.starts_with("bestmove"));
            assert!(
                legal[6].contains(&bestmove(&lines)),
                "{go} {then}: {lines:?}"
            );
        }
    }
    engine.quit();
}
