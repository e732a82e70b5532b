//! Running the real `variant` binary from integration tests (golden runs of the CLI).
#![allow(dead_code)] // each test file uses its own part

use std::process::{Command, Output};

/// Runs `variant ARGS...` from the repository root.
pub fn variant(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `variant show ARGS... --json`, which must succeed, parsed.
pub fn show_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    all.push("--json");
    let output = variant(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}
