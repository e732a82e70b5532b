//! The benchmark suite's instrument, without running it (benchmarks are not built by
//! `cargo test`): its table names every game once and agrees with the perft suites, the
//! comparison script judges synthetic runs by issue 26's rule, and the driver script refuses bad
//! input before building anything.

mod common;

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The table's lines: (path, perft depth, perft nodes, playouts, max plies, plies).
fn table() -> Vec<(String, u32, u64, u64, u64, u64)> {
    let text = std::fs::read_to_string(root().join("benches/suite-games.txt")).expect("table");
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 6, "six fields: {line}");
            let n = |i: usize| f[i].replace('_', "").parse::<u64>().expect("a number");
            (f[0].to_string(), n(1) as u32, n(2), n(3), n(4), n(5))
        })
        .collect()
}

#[test]
fn the_table_lists_every_game_and_test_variant_once() {
    let listed: Vec<String> = table().into_iter().map(|row| row.0).collect();
    let mut files = Vec::new();
    for dir in ["games", "tests/variants"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("folder") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if name.ends_with(".variant") {
                files.push(format!("{dir}/{name}"));
            }
        }
    }
    files.sort();
    let mut sorted = listed.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        listed.len(),
        "a game listed twice: {listed:?}"
    );
    assert_eq!(
        sorted, files,
        "benches/suite-games.txt against the game files"
    );
}

#[test]
fn the_table_has_work_in_every_line() {
    for (path, depth, nodes, playouts, max_plies, plies) in table() {
        assert!((1..=12).contains(&depth), "{path}: depth {depth}");
        assert!(
            nodes > 0 && playouts > 0 && max_plies > 0,
            "{path}: no work"
        );
        assert!(
            plies >= playouts && plies <= playouts * max_plies,
            "{path}: {plies} plies for {playouts} playouts of at most {max_plies}"
        );
    }
}

/// Perft counts from the start position in `tests/perft/GAME.perft` (its block whose id begins
/// with `start`), by depth.
fn start_counts(game: &str) -> Option<Vec<(u32, u64)>> {
    let text = std::fs::read_to_string(root().join(format!("tests/perft/{game}.perft"))).ok()?;
    let mut counts = Vec::new();
    let mut in_start = false;
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("id ") {
            in_start = id.starts_with("start");
        } else if let Some(rest) = line.strip_prefix("perft ").filter(|_| in_start) {
            let mut fields = rest
                .split_whitespace()
                .map(|f| f.parse::<u64>().expect("number"));
            counts.push((fields.next()? as u32, fields.next()?));
        }
    }
    Some(counts)
}

#[test]
fn the_table_agrees_with_the_perft_suites() {
    let mut checked = Vec::new();
    for (path, depth, nodes, ..) in table() {
        let game = Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let Some(counts) = start_counts(&game) else {
            continue;
        };
        if let Some(&(_, known)) = counts.iter().find(|(d, _)| *d == depth) {
            assert_eq!(nodes, known, "{path}: perft {depth}");
            checked.push(game);
        }
    }
    // The suites list these games' start counts at the table's depths (the others' suites stop
    // at a lower depth).
    for game in [
        "chess",
        "cheversi",
        "coverage",
        "takeover-chess-64-free-setup",
        "takeover-chess-free-setup",
    ] {
        assert!(
            checked.iter().any(|g| g == game),
            "{game} not checked: {checked:?}"
        );
    }
}

/// One measurement line of the suite's `--json` output.
fn line(game: &str, measure: &str, rate: f64) -> String {
    serde_json::json!({
        "game": game, "measure": measure, "work": 1000, "unit": "nodes", "depth": 3,
        "seconds": 1000.0 / rate, "rate": rate, "runs": 3,
    })
    .to_string()
}

/// A measurement against a reference, the engine at `ratio` of the reference's speed.
fn reference_line(game: &str, measure: &str, ratio: f64) -> String {
    serde_json::json!({
        "game": game, "measure": measure, "work": 1000, "unit": "nodes",
        "seconds": 1.0, "rate": 1000.0 * ratio, "reference_work": 1000,
        "reference_seconds": ratio, "reference_rate": 1000.0, "ratio": ratio, "runs": 3,
    })
    .to_string()
}

/// Runs `scripts/bench_compare.py` on one BASE run and one HEAD run.
fn compare(name: &str, base: &[String], head: &[String]) -> Output {
    let dir = common::temporary_dir(name);
    let base_file = dir.join("base.jsonl");
    let head_file = dir.join("head.jsonl");
    std::fs::write(&base_file, base.join("\n")).expect("written");
    std::fs::write(&head_file, head.join("\n")).expect("written");
    let output = python(&[
        "scripts/bench_compare.py".as_ref(),
        "--base".as_ref(),
        base_file.as_os_str(),
        "--head".as_ref(),
        head_file.as_os_str(),
    ]);
    std::fs::remove_dir_all(&dir).ok();
    output
}

fn python(args: &[&std::ffi::OsStr]) -> Output {
    if let Some(reason) = common::python_missing() {
        panic!("python3 is needed by scripts/bench-compare.sh: {reason}");
    }
    Command::new("python3")
        .args(args)
        .current_dir(root())
        .output()
        .expect("python3 runs")
}

fn row<'a>(text: &'a str, game: &str, measure: &str) -> &'a str {
    let start = format!("| {game} | {measure} |");
    text.lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no row for {game} {measure} in:\n{text}"))
}

#[test]
fn the_comparison_passes_within_five_percent_and_flags_beyond() {
    let base = [
        line("chess", "perft", 100.0),
        line("coverage", "playouts", 50.0),
    ];
    let within = [
        line("chess", "perft", 96.0),
        line("coverage", "playouts", 51.0),
    ];
    let output = compare("bench-within", &base, &within);
    let text = common::stdout(&output);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{text}{}",
        common::stderr(&output)
    );
    assert!(row(&text, "chess", "perft").contains("| 0.960 |"), "{text}");
    assert!(row(&text, "chess", "perft").ends_with("| ok |"), "{text}");

    let beyond = [
        line("chess", "perft", 100.0),
        line("coverage", "playouts", 47.0),
    ];
    let output = compare("bench-beyond", &base, &beyond);
    let text = common::stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        row(&text, "coverage", "playouts").contains("SLOWER by 6.0%"),
        "{text}"
    );
    assert!(row(&text, "chess", "perft").ends_with("| ok |"), "{text}");
    assert!(text.contains("FAILED"), "{text}");
}

#[test]
fn cheversi_perft_is_judged_by_its_ratio_to_the_hand_written_reference() {
    let base = [
        line("cheversi", "perft", 100.0),
        reference_line("cheversi", "perft-vs-hand-written", 0.22),
    ];
    // 30% slower, but still at 15.4% of the hand-written speed: allowed.
    let slower = [
        line("cheversi", "perft", 70.0),
        reference_line("cheversi", "perft-vs-hand-written", 0.154),
    ];
    let output = compare("bench-cheversi-ok", &base, &slower);
    let text = common::stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        row(&text, "cheversi", "perft").contains("not limited"),
        "{text}"
    );
    assert!(row(&text, "cheversi", "perft-vs-hand-written").contains("ok (at least 15%"));

    let below = [
        line("cheversi", "perft", 65.0),
        reference_line("cheversi", "perft-vs-hand-written", 0.14),
    ];
    let output = compare("bench-cheversi-below", &base, &below);
    let text = common::stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(row(&text, "cheversi", "perft-vs-hand-written").contains("BELOW"));
}

#[test]
fn the_comparison_refuses_runs_of_different_work_or_with_errors() {
    let base = [line("chess", "perft", 100.0)];
    let other_work = [line("chess", "perft", 100.0).replace("\"work\":1000", "\"work\":999")];
    let output = compare("bench-work", &base, &other_work);
    let text = common::stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        row(&text, "chess", "perft").contains("DIFFERENT WORK"),
        "{text}"
    );

    let error = [
        r#"{"game":"chess","measure":"perft","error":"chess perft 4: counted 1, the table says 2"}"#
            .to_string(),
    ];
    let output = compare("bench-error", &base, &error);
    let text = common::stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("counted 1, the table says 2"), "{text}");

    let output = compare("bench-garbage", &base, &["not json".to_string()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(common::stderr(&output).contains("not JSON"));
}

fn compare_script(args: &[&str]) -> Output {
    Command::new("bash")
        .arg(root().join("scripts/bench-compare.sh"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("bash runs")
}

#[test]
fn the_compare_script_refuses_bad_input_before_building() {
    let output = compare_script(&[]);
    assert_eq!(output.status.code(), Some(2));
    assert!(common::stderr(&output).contains("usage: scripts/bench-compare.sh"));

    let output = compare_script(&["no-such-commit-anywhere"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = common::stderr(&output);
    assert!(
        stderr.contains("'no-such-commit-anywhere' is not a commit"),
        "{stderr}"
    );
    assert!(!stderr.contains("building"), "{stderr}");

    let output = compare_script(&["--rounds", "x", "HEAD"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(common::stderr(&output).contains("--rounds needs a positive number"));
}

/// `scripts/bench_instructions.py` (`bench-compare.sh --instructions`): the perft's and the
/// playouts' counts are read from the whole-function line of `callgrind_annotate
/// --inclusive=yes` (not from the lines of code inlined into them from other files), and a
/// measure is flagged when BASE's count over HEAD's falls below 0.95, Cheversi's perft excepted.
#[test]
fn the_instruction_comparison_reads_whole_functions_and_flags_beyond_five_percent() {
    let annotated = "\
2,352,132,358 (99.99%)  /w/benches/suite.rs:suite::main [/w/suite]
1,289,331,810 (54.81%)  /w/benches/suite.rs:suite::playouts [/w/suite]
1,059,910,445 (45.06%)  /w/benches/suite.rs:suite::engine_perft [/w/suite]
   78,760,345 ( 3.35%)  /rustc/x/library/core/src/slice/sort/unstable/mod.rs:suite::playouts
    2,170,509 ( 0.09%)  /w/benches/suite.rs:suite::open [/w/suite]";
    let script = r#"
import sys
sys.path.insert(0, "scripts")
import bench_instructions as b
counts = b.inclusive_counts(sys.argv[1])
print(counts["perft"], counts["playouts"])
for game, measure, base, head in [("chess", "perft", 100, 104), ("chess", "perft", 100, 106),
                                  ("chess", "playouts", 100, 90), ("cheversi", "perft", 100, 200)]:
    ratio, slower, text = b.verdict(game, measure, base, head)
    print(f"{ratio:.3f} {slower} {text}")
"#;
    let output = python(&["-c".as_ref(), script.as_ref(), annotated.as_ref()]);
    let text = common::stdout(&output);
    assert!(output.status.success(), "{text}{}", common::stderr(&output));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "1059910445 1289331810");
    assert_eq!(lines[1], "0.962 False ok");
    assert!(lines[2].starts_with("0.943 True SLOWER by 5.7%"), "{text}");
    assert_eq!(lines[3], "1.111 False ok");
    assert!(lines[4].starts_with("0.500 False not limited"), "{text}");
}
