//! `variant analyze`, `variant merge` and `variant match --sprt`, run as the real binary: the
//! invariants of real runs (Cheversi is always 16 placements, the counts add up, merged shards
//! are the single run), the SPRT stopping where it must, and clear errors for bad arguments.

mod common;

use common::{games, stderr, stdout, temporary_dir, variant};
use serde_json::Value;

/// `variant ARGS... --json`, which must succeed, parsed.
fn json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let output = variant(&all);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

fn count(value: &Value) -> u64 {
    value.as_u64().expect("a count")
}

/// Fails with the command's error output unless it fails cleanly (exit 1, or clap's 2 for a
/// flag's bad value) with a message containing `expected`.
fn refused(args: &[&str], expected: &str) {
    let output = variant(args);
    let error = stderr(&output);
    assert!(
        matches!(output.status.code(), Some(1 | 2)),
        "{args:?}: {error}"
    );
    assert!(error.contains(expected), "{args:?}: {error}");
    assert!(!error.contains("panicked"), "{args:?}: {error}");
}

#[test]
fn cheversi_games_are_always_sixteen_placements() {
    let run = json(&[
        "analyze",
        "cheversi",
        "--players",
        "random",
        "--games",
        "12",
    ]);
    let plies = &run["figures"]["plies"];
    assert_eq!(plies["mean"], 16.0);
    assert_eq!(plies["median"], 16.0);
    assert_eq!(count(&plies["min"]), 16);
    assert_eq!(count(&plies["max"]), 16);
    assert_eq!(plies["sd"], 0.0);
    // One side places at a time: as many turns as plies.
    assert_eq!(count(&run["figures"]["turns"]["max"]), 16);
    // Every game ends by the score, none at the ply limit: by the file's one end rule, named by
    // its text and line.
    assert_eq!(
        count(&run["figures"]["ends"]["score `by score when hands empty` (line 64)"]),
        12,
        "{}",
        run["figures"]["ends"]
    );
    assert_eq!(run["figures"]["completion"]["value"], 1.0);
    assert_eq!(run["figures"]["timeouts"]["value"], 0.0);
}

/// The counts of a run add up to its games in every breakdown.
fn assert_counts_add_up(run: &Value, games: u64) {
    let figures = &run["figures"];
    assert_eq!(count(&figures["games"]), games);
    let seats = figures["seats"].as_array().expect("seats");
    for seat in seats {
        let total = count(&seat["wins"]) + count(&seat["draws"]) + count(&seat["losses"]);
        assert_eq!(total, games, "{seat}");
    }
    assert_eq!(seats[0]["mover"], 1);
    let ends: u64 = figures["ends"]
        .as_object()
        .expect("ends")
        .values()
        .map(count)
        .sum();
    assert_eq!(ends, games, "{}", figures["ends"]);
    let share = |name: &str| figures[name]["value"].as_f64().expect("share");
    let outcomes = share("decisiveness") + share("drawishness") + share("timeouts");
    assert!((outcomes - 1.0).abs() < 1e-9, "{figures}");
    assert!((share("completion") + share("timeouts") - 1.0).abs() < 1e-9);
    assert_eq!(figures["advantage_p1"], seats[0]["score"]);
    assert_eq!(
        run["tally"]["records"].as_array().expect("records").len() as u64,
        games
    );
    let branching = &figures["branching"];
    let positions: u64 = run["tally"]["records"]
        .as_array()
        .expect("records")
        .iter()
        .map(|r| count(&r["plies"]))
        .sum();
    assert_eq!(count(&branching["positions"]), positions);
}

#[test]
fn counts_add_up_to_the_games_played() {
    let run = json(&[
        "analyze",
        "coverage",
        "--players",
        "random",
        "--games",
        "10",
        "--seed",
        "3",
    ]);
    assert_counts_add_up(&run, 10);
    // Two sides: one's wins are the other's losses.
    let seats = &run["figures"]["seats"];
    assert_eq!(seats[0]["wins"], seats[1]["losses"]);
    // A ply limit that random games reach: they are timeouts, not draws.
    let run = json(&[
        "analyze",
        "takeover-chess",
        "--players",
        "random",
        "--games",
        "4",
        "--max-plies",
        "6",
    ]);
    assert_counts_add_up(&run, 4);
    assert_eq!(count(&run["figures"]["ends"]["timeout"]), 4);
    assert_eq!(run["figures"]["drawishness"]["value"], 0.0);
    assert_eq!(run["figures"]["completion"]["value"], 0.0);
}

#[test]
fn teams_are_reported_where_the_game_has_them() {
    let run = json(&[
        "analyze",
        "cooperative-chess",
        "--players",
        "random",
        "--games",
        "3",
        "--max-plies",
        "60",
    ]);
    assert_counts_add_up(&run, 3);
    let teams = run["figures"]["teams"].as_array().expect("teams");
    assert_eq!(teams.len(), 1, "{teams:?}");
    assert_eq!(teams[0]["name"], "white+black");
    let white = &run["figures"]["seats"][0];
    assert_eq!(white["name"], "white");
    assert_eq!(teams[0]["wins"], white["wins"]);
}

#[test]
fn every_game_in_the_library_is_analysed() {
    for game in games() {
        let run = json(&[
            "analyze",
            &game,
            "--players",
            "random",
            "--games",
            "2",
            "--max-plies",
            "150",
        ]);
        assert_counts_add_up(&run, 2);
        assert!(
            run["figures"]["branching"]["mean"].as_f64().expect("mean") > 0.0,
            "{game}"
        );
    }
}

#[test]
fn merged_shards_equal_the_single_run() {
    let dir = temporary_dir("analyze-shards");
    let common = [
        "analyze",
        "takeover-chess",
        "--players",
        "random,mcts:5",
        "--games",
        "7",
        "--seed",
        "11",
        "--max-plies",
        "80",
        "--piece-values",
    ];
    let whole = json(&common);
    assert!(whole["figures"]["piece_values"].is_array());
    let mut files = Vec::new();
    for (shard, jobs) in [("1/3", "1"), ("2/3", "2"), ("3/3", "1")] {
        let mut args = common.to_vec();
        args.extend(["--shard", shard, "--jobs", jobs]);
        let part = json(&args);
        let file = dir.join(format!("shard-{}.json", &shard[..1]));
        std::fs::write(&file, part.to_string()).expect("written");
        files.push(file.to_string_lossy().into_owned());
    }
    // In any order.
    files.reverse();
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&args);
    assert_eq!(merged["figures"], whole["figures"]);
    assert_eq!(merged["tally"]["records"], whole["tally"]["records"]);
    assert_eq!(merged["tally"]["regression"], whole["tally"]["regression"]);
    // The text of the merge is the text of the figures too.
    let text = stdout(&variant(&args));
    assert!(
        text.contains("7 games, players random,mcts:5 (seed 11, shards [1, 2, 3] of 3)"),
        "{text}"
    );
    // A missing shard is said, and the figures are of the games there are.
    let output = variant(&["merge", &files[0], &files[1]]);
    assert!(output.status.success());
    assert!(
        stderr(&output).contains("shards 1/3 are missing"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_plot_is_an_svg_of_lengths_and_scores() {
    let dir = temporary_dir("analyze-plot");
    let file = dir.join("cheversi.svg");
    let output = variant(&[
        "analyze",
        "cheversi",
        "--players",
        "random",
        "--games",
        "5",
        "--plot",
        file.to_str().expect("path"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let picture = std::fs::read_to_string(&file).expect("the picture is written");
    assert!(picture.starts_with("<svg"), "{picture}");
    // Every game is 16 plies long: one bar, of 5 games.
    assert_eq!(picture.matches("class=\"bar\"").count(), 1, "{picture}");
    assert!(picture.contains("16 plies: 5 games"), "{picture}");
    assert_eq!(picture.matches("<polyline").count(), 1);
}

#[test]
fn piece_values_stand_beside_the_files() {
    let run = json(&[
        "analyze",
        "takeover-chess",
        "--players",
        "random",
        "--games",
        "4",
        "--max-plies",
        "120",
        "--piece-values",
    ]);
    let values = run["figures"]["piece_values"].as_array().expect("values");
    let queen = values
        .iter()
        .find(|v| v["piece"] == "Queen")
        .expect("a queen");
    assert_eq!(queen["file_value"], 9);
    assert!(count(&run["tally"]["regression"]["positions"]) > 0);
}

#[test]
fn the_sprt_stops_on_a_large_gap() {
    let run = json(&[
        "match", "cheversi", "mcts:50", "random", "--games", "40", "--sprt", "0,50",
    ]);
    let sprt = &run["sprt"];
    assert_eq!(sprt["result"], "H1", "{run}");
    let games = count(&run["games"]);
    assert!(games < 40, "{run}");
    assert_eq!(count(&sprt["pairs"]) * 2, games);
    assert!(sprt["llr"].as_f64().expect("llr") >= sprt["upper"].as_f64().expect("upper"));
    // The match's own fields are still there.
    assert_eq!(
        count(&run["wins"]) + count(&run["draws"]) + count(&run["losses"]),
        games
    );
    // The same with two jobs: pairs are counted in game order.
    let again = json(&[
        "match", "cheversi", "mcts:50", "random", "--games", "40", "--sprt", "0,50", "--jobs", "2",
    ]);
    assert_eq!(again["sprt"]["pentanomial"], sprt["pentanomial"]);
    let text = stdout(&variant(&[
        "match", "cheversi", "mcts:50", "random", "--games", "40", "--sprt", "0,50",
    ]));
    assert!(text.contains("(bounds -2.94, 2.94)"), "{text}");
    assert!(text.contains("H1 accepted"), "{text}");
}

#[test]
fn the_sprt_runs_to_its_limit_on_equal_players() {
    let run = json(&[
        "match", "coverage", "random", "random", "--games", "20", "--sprt", "-20,20",
    ]);
    assert_eq!(count(&run["games"]), 20);
    assert_eq!(run["sprt"]["result"], "undecided");
    assert_eq!(count(&run["sprt"]["pairs"]), 10);
    let pentanomial: u64 = run["sprt"]["pentanomial"]
        .as_array()
        .expect("bins")
        .iter()
        .map(count)
        .sum();
    assert_eq!(pentanomial, 10);
}

#[test]
fn bad_arguments_get_clear_errors() {
    refused(&["analyze", "cheversi", "--shard", "0/2"], "is not a shard");
    refused(&["analyze", "cheversi", "--shard", "3/2"], "is not a shard");
    refused(
        &["analyze", "cheversi", "--players", "human"],
        "computer players",
    );
    refused(
        &["analyze", "cheversi", "--players", "random,bogus"],
        "--players",
    );
    refused(&["analyze", "cheversi", "--games", "0"], "--games");
    refused(&["analyze", "no-such-game"], "no-such-game");
    refused(
        &["match", "cheversi", "random", "random", "--sprt", "10,0"],
        "must be less than",
    );
    refused(
        &[
            "match",
            "cheversi",
            "random",
            "random",
            "--sprt",
            "0,10,0.7,0.05",
        ],
        "ALPHA",
    );
    refused(
        &["match", "cheversi", "random", "random", "--sprt", "zero,10"],
        "is not a number",
    );
    let dir = temporary_dir("analyze-bad-merge");
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "not json").expect("written");
    refused(&["merge", junk.to_str().expect("path")], "not the JSON of");
    let shard = |args: &[&str], name: &str| {
        let file = dir.join(name);
        std::fs::write(&file, json(args).to_string()).expect("written");
        file.to_string_lossy().into_owned()
    };
    let base = ["analyze", "cheversi", "--players", "random", "--games", "4"];
    let one = shard(&[&base[..], &["--shard", "1/2"]].concat(), "one.json");
    let other_seed = shard(
        &[&base[..], &["--shard", "2/2", "--seed", "9"]].concat(),
        "seed.json",
    );
    refused(&["merge", &one, &other_seed], "is a shard of another run");
    refused(&["merge", &one, &one], "is given twice");
}
