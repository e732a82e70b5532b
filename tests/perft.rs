//! Perft suites, read from `tests/perft/*.perft` data files that cite their sources.
//!
//! Depths up to [`BUDGET`] nodes run in `cargo test`; deeper ones under
//! `cargo test --release -- --ignored`.

use std::path::Path;

/// The most nodes a depth may have to run in the ordinary test suite.
const BUDGET: u64 = 5_000_000;

struct Case {
    id: String,
    fen: String,
    depths: Vec<(u32, u64)>,
}

fn read_suite(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).expect("suite file is readable");
    let mut cases: Vec<Case> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (keyword, rest) = line.split_once(' ').expect("`keyword value` lines");
        match keyword {
            "id" => cases.push(Case {
                id: rest.to_string(),
                fen: String::new(),
                depths: Vec::new(),
            }),
            "fen" => cases.last_mut().expect("fen after id").fen = rest.to_string(),
            "perft" => {
                let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
                let case = cases.last_mut().expect("perft after id");
                case.depths
                    .push((depth.parse().unwrap(), nodes.parse().unwrap()));
            }
            other => panic!("unknown suite keyword `{other}`"),
        }
    }
    cases
}

fn run_suite(game: &str, suite: &str, deep: bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded = variant_dsl::load_file(&root.join("games").join(format!("{game}.variant")))
        .unwrap_or_else(|f| panic!("{}", f.render()));
    let mut checked = 0;
    for case in read_suite(&root.join("tests/perft").join(suite)) {
        let session = variant_interpreter::open(&loaded.definition, Some(&case.fen))
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, nodes) in &case.depths {
            if (nodes > BUDGET) != deep {
                continue;
            }
            assert_eq!(session.perft(depth), nodes, "{} at depth {depth}", case.id);
            eprintln!("checked {} depth {depth}: {nodes}", case.id);
            checked += 1;
        }
    }
    assert!(checked > 0, "no depth of {suite} was checked");
}

#[test]
fn chess_suite_cheap_depths() {
    run_suite("chess", "chess.perft", false);
}

#[test]
#[ignore = "deep perft: run with `cargo test --release -- --ignored`"]
fn chess_suite_deep_depths() {
    run_suite("chess", "chess.perft", true);
}

#[test]
fn coverage_suite_cheap_depths() {
    run_suite("coverage", "coverage.perft", false);
}

#[test]
#[ignore = "deep perft: run with `cargo test --release -- --ignored`"]
fn coverage_suite_deep_depths() {
    run_suite("coverage", "coverage.perft", true);
}

#[test]
fn coverage_weighted_has_the_same_tree_as_coverage() {
    run_suite("coverage-weighted", "coverage.perft", false);
}

#[test]
fn cheversi_suite() {
    run_suite("cheversi", "cheversi.perft", false);
}

/// Kingdrops, actions counted one by one, against the independent oracle's counts.
#[test]
fn kingdrops_suite() {
    run_suite("kingdrops", "kingdrops.perft", false);
}

/// Takeover Chess and its sub-variants, against the independent oracle's counts.
#[test]
fn takeover_suites() {
    for game in [
        "takeover-chess",
        "takeover-chess-64",
        "takeover-chess-undefended",
        "takeover-chess-short-jump",
        "takeover-chess-64-undefended",
        "takeover-chess-64-short-jump",
        "takeover-chess-free-setup",
        "takeover-chess-64-free-setup",
    ] {
        run_suite(game, &format!("{game}.perft"), false);
    }
}
