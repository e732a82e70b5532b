//! Cross-check against python-chess, an independent implementation of FIDE chess, through
//! `scripts/crosscheck_python_chess.py`: random games, and at every position the legal moves,
//! the FEN and the result compared.
//!
//! Without python3 or python-chess the test prints a `SKIPPED` line on stderr and passes, except
//! in CI (the `CI` environment variable set), where `.ci/run` installs python-chess and its
//! absence fails the test.

mod common;

#[test]
fn random_games_agree_with_python_chess() {
    if !common::python_module_or_skip(
        "random_games_agree_with_python_chess",
        "chess.engine",
        "chess",
    ) {
        return;
    }
    let stdout = common::run_python_script("scripts/crosscheck_python_chess.py", &["--games", "6"]);
    // The script's summary line: it really compared positions.
    assert!(
        stdout.contains("positions in 6 random games agree"),
        "{stdout}"
    );
}
