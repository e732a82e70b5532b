//! `variant analyse`: the search's evaluation and best lines, as it deepens, in text and JSON,
//! for every game of the library.

mod common;

use common::{stderr, stdout, variant};
use std::time::{Duration, Instant};

/// `variant analyse ARGS... --json`, which must succeed: one object per line.
fn analyse_json(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["analyse"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = variant(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

fn legal_moves(game: &str, fen: Option<&str>) -> Vec<String> {
    let mut args = vec!["moves", game];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    stdout(&variant(&args))
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn text_shows_every_depth_in_san_and_in_the_games_notation() {
    let output = variant(&["analyse", "chess", "--depth", "3", "--play", "e2e4 e7e5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for depth in 1..=3 {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("depth {depth} (selective "))),
            "{text}"
        );
    }
    // A line: the rank, the score, the moves in SAN, the moves in the game's notation.
    let line = text
        .lines()
        .rfind(|l| l.starts_with("  1. "))
        .expect("a best line");
    let (san, notation) = line.split_once("  [").expect("two notations");
    let notation: Vec<&str> = notation.trim_end_matches(']').split(' ').collect();
    assert_eq!(notation.len(), 3, "{line}");
    assert_eq!(san.split_whitespace().count(), 2 + 3, "{line}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("best move: "), "{text}");
    assert!(last.contains(&format!("({})", notation[0])), "{text}");
    assert!(last.ends_with("for white at depth 3"), "{text}");
}

#[test]
fn json_reports_each_depth_then_the_best_move() {
    let reports = analyse_json(&["chess", "--depth", "3", "--multipv", "2"]);
    assert_eq!(reports.len(), 4, "{reports:#?}");
    let legal = legal_moves("chess", None);
    for (index, report) in reports[..3].iter().enumerate() {
        assert_eq!(report["depth"], index + 1);
        for key in ["seldepth", "nodes", "nps", "time_ms"] {
            assert!(report[key].is_u64(), "{key}: {report}");
        }
        let lines = report["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 2, "{report}");
        for (k, line) in lines.iter().enumerate() {
            assert_eq!(line["multipv"], k + 1);
            assert!(line["score"]["cp"].is_i64(), "{line}");
            let pv = line["pv"].as_array().unwrap();
            assert!(legal.contains(&pv[0].as_str().unwrap().to_string()));
            assert_eq!(line["san"].as_array().unwrap().len(), pv.len(), "{line}");
        }
        // Best first.
        assert!(lines[0]["score"]["cp"].as_i64() >= lines[1]["score"]["cp"].as_i64());
    }
    let best = &reports[3];
    assert_eq!(best["depth"], 3);
    assert_eq!(best["bestmove"], reports[2]["lines"][0]["pv"][0]);
    assert_eq!(best["san"], reports[2]["lines"][0]["san"][0]);
    assert_eq!(best["score"], reports[2]["lines"][0]["score"]);
}

#[test]
fn a_mate_is_scored_in_moves() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let reports = analyse_json(&["chess", "--fen", fen, "--depth", "3"]);
    let best = reports.last().unwrap();
    assert_eq!(best["bestmove"], "h5f7");
    assert_eq!(best["san"], "Qxf7#");
    assert_eq!(best["score"]["mate"], 1);
    let output = variant(&["analyse", "chess", "--fen", fen, "--depth", "2"]);
    assert!(
        stdout(&output).contains("white mates in 1"),
        "{}",
        stdout(&output)
    );
    // Where the side to move can defend, no mate: a score in centipawns.
    let reports = analyse_json(&[
        "chess",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1",
        "--depth",
        "3",
    ]);
    assert!(reports.last().unwrap()["score"]["cp"].is_i64());
}

/// With helper threads the reports go on as with one (every depth, legal lines, the mate) and
/// the nodes counted are the helpers' too; a thread count out of range is refused.
#[test]
fn threads_search_together_and_report_as_one() {
    let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
    let reports = analyse_json(&["chess", "--fen", fen, "--depth", "6", "--threads", "2"]);
    assert_eq!(reports.len(), 7, "{reports:#?}");
    let best = reports.last().unwrap();
    assert_eq!(best["bestmove"], "d5f6");
    assert_eq!(best["score"]["mate"], 2);
    let reports = analyse_json(&["crazyhouse", "--depth", "5", "--threads", "3"]);
    let legal = legal_moves("crazyhouse", None);
    assert!(legal.contains(
        &reports.last().unwrap()["bestmove"]
            .as_str()
            .unwrap()
            .to_string()
    ));
    for bad in ["0", "65", "x"] {
        let output = variant(&["analyse", "chess", "--depth", "2", "--threads", bad]);
        assert!(!output.status.success(), "--threads {bad}");
    }
}

#[test]
fn every_game_of_the_library_is_analysed() {
    for game in common::games() {
        let reports = analyse_json(&[&game, "--depth", "2"]);
        let best = reports.last().unwrap();
        let mv = best["bestmove"].as_str().expect("a best move").to_string();
        assert!(legal_moves(&game, None).contains(&mv), "{game}: {mv}");
        assert!(best["score"].is_object(), "{game}: {best}");
    }
}

#[test]
fn a_time_limit_is_kept() {
    let started = Instant::now();
    let reports = analyse_json(&["takeover-chess", "--time", "0.5"]);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(reports.last().unwrap()["bestmove"].is_string());
}

#[test]
fn bad_requests_are_refused_with_a_message() {
    let cases: [(&[&str], &str); 4] = [
        (&["chess", "--time", "0"], "the time must be more than 0"),
        (&["chess", "--depth", "0"], "0 is not in 1..=64"),
        (&["chess", "--play", "e2e5"], "move 1 of --play"),
        (
            &["chess", "--play", "f2f3 e7e5 g2g4 d8h4"],
            "the game is over",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["analyse"];
        all.extend_from_slice(args);
        let output = variant(&all);
        assert!(!output.status.success(), "{args:?}");
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
    let output = variant(&["analyse", "chess", "--depth", "2", "--time", "1"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("cannot be used with"),
        "{}",
        stderr(&output)
    );
}
