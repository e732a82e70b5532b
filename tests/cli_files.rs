//! The `variant` binary and the files users write: a variant in a scratch directory extends a
//! shipped game, and what is not a regular file is refused instead of read forever.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh empty directory outside the repository.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Runs `variant ARGS` in `dir` (without `VARIANT_GAMES`), killing it after `seconds`.
fn variant_in(dir: &Path, args: &[&str], seconds: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(args)
        .current_dir(dir)
        .env_remove("VARIANT_GAMES")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    while child.try_wait().expect("waiting works").is_none() {
        if started.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            panic!("`variant {}` did not finish in {seconds} s", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("the output")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const SQUIRE: &str = "// Squire chess\nextends \"chess\"\ngame \"Squire Chess\"\n\npiece Knight {\n    letter N\n    value 4\n    moves \"NW\"\n}\n";

#[test]
fn a_variant_in_a_scratch_directory_extends_chess() {
    let dir = scratch("tutorial");
    std::fs::write(dir.join("my.variant"), SQUIRE).unwrap();
    let output = variant_in(&dir, &["check", "my.variant"], 60);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout), "ok: my.variant\n");
    let output = variant_in(&dir, &["perft", "my.variant", "--depth", "3"], 60);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout).lines().last(),
        Some("Nodes searched: 9182")
    );
}

#[cfg(unix)]
#[test]
fn check_refuses_a_fifo_at_once() {
    let dir = scratch("fifo");
    let made = Command::new("mkfifo")
        .arg(dir.join("f.variant"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    for command in ["check", "show"] {
        let output = variant_in(&dir, &[command, "f.variant"], 20);
        assert_eq!(output.status.code(), Some(1));
        assert!(
            text(&output.stderr)
                .contains("cannot read `f.variant`: it is a named pipe (FIFO), not a regular file"),
            "{}",
            text(&output.stderr)
        );
    }
}
