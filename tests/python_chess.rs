//! Cross-check against python-chess, an independent implementation of FIDE chess, through
//! `scripts/crosscheck_python_chess.py`. Skipped (with a message) where python-chess is not
//! installed, except in CI (`CI` set), where `.ci/run` installs it and its absence fails.

use std::process::Command;

#[test]
fn random_games_agree_with_python_chess() {
    let has_chess = Command::new("python3")
        .args(["-c", "import chess"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_chess {
        assert!(
            std::env::var_os("CI").is_none(),
            "python-chess must be installed in CI"
        );
        eprintln!("skipped: python-chess is not installed (pip install chess)");
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
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
