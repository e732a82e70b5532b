//! The web page in a real browser: `scripts/browser.py` drives headless Chromium over WebDriver
//! (Python selenium) against our binary's server, through every scenario of issue 30 (chess
//! against `random` by clicks and by drag, Takeover Chess's 41 squares, Kingdrops' setup by
//! drops, Cooperative Chess's three colours and Red's rule and dice, a finished Cheversi game's
//! scores and result, a saved record loaded back, the search's and the Monte Carlo player's
//! progress and their stop, every game the server lists
//! opened on its own page and played by random players). The
//! screenshots are kept under the target folder, and their folder is printed.
//!
//! Chromium, chromedriver and selenium are installed by `.ci/run`; elsewhere, a machine without
//! them skips the test and says so (under `CI` a missing one fails it).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where the screenshots go: `browser-screenshots` beside the binary's profile folder.
fn screenshots() -> PathBuf {
    let binary = Path::new(env!("CARGO_BIN_EXE_variant"));
    binary
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("target"))
        .join("browser-screenshots")
}

/// Whether `program --version` runs; when it does not, the test `test` prints that it was
/// SKIPPED, which is allowed only outside CI.
fn program_or_skip(test: &str, program: &str, package: &str) -> bool {
    let runs = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success());
    if !runs {
        eprintln!(
            "SKIPPED {test}: `{program}` cannot be run (apt-get install {package}); the browser \
             tests did NOT run"
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set, so {package} must be installed (.ci/run installs it)"
        );
    }
    runs
}

#[test]
fn the_page_plays_every_scenario_in_chromium() {
    let test = "the_page_plays_every_scenario_in_chromium";
    if !(program_or_skip(test, "chromium", "chromium")
        && program_or_skip(test, "chromedriver", "chromium-driver")
        && common::python_module_or_skip(test, "selenium", "selenium"))
    {
        return;
    }
    let shots = screenshots();
    let _ = std::fs::remove_dir_all(&shots);
    let folder = shots.to_string_lossy().into_owned();
    let output = common::run_python_script("scripts/browser.py", &["--shots", &folder]);
    print!("{output}");
    assert!(output.contains("10 passed, 0 failed"), "{output}");
    for scenario in [
        "chess-against-random",
        "drag-to-move",
        "takeover-41-squares",
        "kingdrops-drops",
        "cooperative-chess",
        "cheversi-finished",
        "record-loads-back",
        "thinking-and-stop",
        "mcts-thinking-and-stop",
        "every-game-plays",
    ] {
        assert!(output.contains(&format!("ok {scenario}\n")), "{output}");
        let shot = shots.join(format!("{scenario}.png"));
        let bytes = std::fs::read(&shot).unwrap_or_else(|e| panic!("{}: {e}", shot.display()));
        assert!(bytes.starts_with(b"\x89PNG"), "{} is a PNG", shot.display());
    }
    eprintln!("browser screenshots: {}", shots.display());
}
