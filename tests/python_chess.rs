//! Cross-check against python-chess, an independent implementation of FIDE chess, through
//! `scripts/crosscheck_python_chess.py`: random games, and at every position the legal moves,
//! the FEN and the result compared.
//!
//! Without python3 or python-chess the test prints a `SKIPPED` line on stderr and passes, except
//! in CI (the `CI` environment variable set), where `.ci/run` installs python-chess and its
//! absence fails the test.

use std::process::Command;

/// Why the cross-check cannot run here, if it cannot.
fn missing_prerequisite() -> Option<String> {
    let python = Command::new("python3")
        .args(["-c", "import chess; print(chess.__version__)"])
        .output();
    match python {
        Err(e) => Some(format!("python3 cannot be run ({e})")),
        Ok(output) if !output.status.success() => Some(format!(
            "python-chess is not installed (pip install chess): {}",
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or_default()
        )),
        Ok(_) => None,
    }
}

#[test]
fn random_games_agree_with_python_chess() {
    if let Some(reason) = missing_prerequisite() {
        eprintln!(
            "SKIPPED random_games_agree_with_python_chess: {reason}; the cross-check with python-chess did NOT run"
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set, so python-chess must be installed (.ci/run installs it): {reason}"
        );
        return;
    }
    let output = Command::new("python3")
        .args([
            "scripts/crosscheck_python_chess.py",
            "--games",
            "6",
            "--binary",
            env!("CARGO_BIN_EXE_variant"),
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The script's summary line: it really compared positions.
    assert!(
        stdout.contains("positions in 6 random games agree"),
        "{stdout}"
    );
}
