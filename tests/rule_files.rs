//! Rule files that used to crash or mislead, run through the real binary (issue 25, "rule-file
//! robustness"): expressions nested or chained past the documented limits get a diagnostic at
//! the first token past the limit (never a stack overflow); `check` ok means every command runs;
//! an `end` block without `check` is warned about; a misspelt keyword and an error inside an
//! extended file are pointed at plainly.

mod common;

use common::{stderr, stdout, variant};
use std::path::{Path, PathBuf};

/// Writes `text` as `NAME.variant` in a fresh directory of this test; returns its path.
fn game_file(name: &str, text: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("variant-rule-files-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(format!("{name}.variant"));
    std::fs::write(&path, text).expect("writes");
    path
}

/// Chess, with one more end condition.
fn chess_ending_when(condition: &str) -> String {
    let chess = std::fs::read_to_string(common::games_dir().join("chess.variant")).expect("chess");
    chess.replace(
        "    stalemate draws\n",
        &format!("    stalemate draws\n    draws when {condition}\n"),
    )
}

fn run(args: &[&str], path: &Path) -> std::process::Output {
    let mut all: Vec<&str> = args.to_vec();
    let path = path.to_str().expect("a UTF-8 path");
    all.insert(1, path);
    variant(&all)
}

/// `check` fails with exactly one error of this code, pointing at `token` (line 1-based,
/// column 1-based), and every other command fails the same way: exit code 1, no panic.
fn refused_everywhere(path: &Path, code: &str, token: &str) {
    let output = run(&["check"], path);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.starts_with(&format!("error[{code}]")), "{text}");
    assert!(
        !text.contains("panicked") && !text.contains("overflow"),
        "{text}"
    );
    let caret_line = text
        .lines()
        .find(|line| line.contains('^'))
        .expect("a caret line");
    let carets = caret_line.matches('^').count();
    assert_eq!(carets, token.len(), "the label marks `{token}`: {text}");
    for command in [
        &["dump"][..],
        &["show"],
        &["perft", "--depth", "1"],
        &["moves"],
    ] {
        let output = run(command, path);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{command:?}: {}",
            stderr(&output)
        );
        assert!(stderr(&output).contains(&format!("error[{code}]")));
    }
}

#[test]
fn seven_hundred_parentheses_are_refused_at_the_first_past_the_limit() {
    let deep = format!("some {}occupied{}", "(".repeat(700), ")".repeat(700));
    let path = game_file("parentheses", &chess_ending_when(&deep));
    refused_everywhere(&path, "E0004", "(");
    let text = stderr(&run(&["check"], &path));
    assert!(
        text.contains("this expression is nested more than 64 deep"),
        "{text}"
    );
    assert!(text.contains("this `(` is at depth 65"), "{text}");
}

#[test]
fn four_thousand_nots_are_refused() {
    let deep = format!("some {}occupied", "not ".repeat(4_000));
    let path = game_file("nots", &chess_ending_when(&deep));
    refused_everywhere(&path, "E0004", "not");
}

#[test]
fn long_chains_of_plus_one_are_refused_at_the_limit() {
    for terms in [291, 3_500] {
        let chain = format!("count occupied{} < 0", " + 1".repeat(terms));
        let path = game_file(&format!("chain-{terms}"), &chess_ending_when(&chain));
        refused_everywhere(&path, "E0010", "+");
        let text = stderr(&run(&["check"], &path));
        assert!(
            text.contains("this expression is more than 256 levels deep"),
            "{text}"
        );
    }
}

/// The longest chain accepted: `check` says ok, and then every command works with it, `play`
/// to the end of a game included (a chain of 291 terms used to pass `check`, then make `dump`
/// and `play` panic in the RON serialiser).
#[test]
fn a_chain_that_check_accepts_works_in_every_command() {
    let chain = format!("count occupied{} < 0", " + 1".repeat(250));
    let path = game_file("chain-accepted", &chess_ending_when(&chain));
    let output = run(&["check"], &path);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("ok: "));
    let dump = run(&["dump"], &path);
    assert!(dump.status.success(), "{}", stderr(&dump));
    assert!(stdout(&dump).contains("Plus("));
    for command in [
        &["dump", "--compiled"][..],
        &["show"],
        &["moves"],
        &["perft", "--depth", "2"],
    ] {
        let output = run(command, &path);
        assert!(output.status.success(), "{command:?}: {}", stderr(&output));
    }
    let perft = run(&["perft", "--depth", "2"], &path);
    assert_eq!(stdout(&perft).lines().last(), Some("Nodes searched: 400"));
    let played = run(
        &[
            "play", "--white", "random", "--black", "random", "--seed", "3",
        ],
        &path,
    );
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(!stderr(&played).contains("panicked"));
}

/// `end { checkmate loses ... }` written without `check` (as when an inherited `end` block is
/// overridden): `check` still says ok, with two warnings.
#[test]
fn checkmate_without_check_is_warned_about() {
    let text = "game \"No check\"\nextends \"chess\"\nend { checkmate loses; stalemate draws }\n";
    let path = game_file("no-check", text);
    let output = run(&["check"], &path);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("ok: "));
    let warnings = stderr(&output);
    assert!(
        warnings
            .contains("warning[W0002]: `checkmate` without `check`: no side is ever checkmated"),
        "{warnings}"
    );
    assert!(
        warnings.contains(
            "warning[W0003]: the royal piece `King` can be captured, and no end rule says what \
             happens then"
        ),
        "{warnings}"
    );
    // With `check` back, or an end rule for the King, there is nothing to warn about.
    for end in ["check; checkmate loses", "royal captured loses"] {
        let text = format!("game \"x\"\nextends \"chess\"\nend {{ {end} }}\n");
        let path = game_file("with-check", &text);
        let output = run(&["check"], &path);
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            !stderr(&output).contains("warning"),
            "{end}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_misspelt_keyword_is_pointed_at_with_a_suggestion() {
    let text = chess_ending_when("some (controled by opponent)");
    let path = game_file("misspelt", &text);
    let output = run(&["check"], &path);
    let rendered = stderr(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        rendered.contains("help: did you mean `controlled`?"),
        "{rendered}"
    );
    assert!(
        rendered.contains("is this `controlled` misspelt?"),
        "{rendered}"
    );
    let column = text
        .lines()
        .find_map(|line| line.find("controled"))
        .expect("the line")
        + 1;
    assert!(rendered.contains(&format!(":{column}\n")), "{rendered}");
}

/// A file that extends chess on a smaller board, without replacing chess's `castling` block:
/// the errors are in chess.variant, and each one points back at the `extends` that brought it.
#[test]
fn errors_inside_an_extended_file_point_at_the_extends() {
    let text = "game \"Small\"\nextends \"chess\"\nboard 6x6\n\
                setup \"rnbqkr/pppppp/6/6/PPPPPP/RNBQKR w - - 0 1\"\n";
    let path = game_file("small", text);
    let output = run(&["check"], &path);
    let rendered = stderr(&output);
    assert_eq!(output.status.code(), Some(1));
    let errors = rendered.matches("error[").count();
    assert!(errors >= 4, "{rendered}");
    let in_chess = rendered
        .lines()
        .filter(|line| line.contains("--> ") && line.contains("chess.variant:"))
        .count();
    assert_eq!(in_chess, errors, "{rendered}");
    assert_eq!(
        rendered
            .matches("the problem is in the file extended here")
            .count(),
        errors,
        "{rendered}"
    );
    assert_eq!(rendered.matches("small.variant:2:9").count(), errors);
}
