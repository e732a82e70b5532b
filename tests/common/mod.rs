//! Running the real `variant` binary from integration tests (golden runs of the CLI).
#![allow(dead_code)] // each test file uses its own part

pub mod engine;
pub mod import;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

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

/// Runs the binary in `dir` with `input` on standard input, finding games by name in `games/`.
pub fn run_in(dir: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_variant"))
        .args(args)
        .current_dir(dir)
        .env("VARIANT_GAMES", games_dir())
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    // The binary may stop reading early (quit): a closed pipe is not an error here.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

/// The repository's `games/` folder.
pub fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Every game in `games/`, by name, sorted: each game that lands is covered by the tests that
/// use this without being listed anywhere.
pub fn games() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(games_dir())
        .expect("games folder")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            (path.extension()? == "variant")
                .then(|| path.file_stem().map(|s| s.to_string_lossy().into_owned()))?
        })
        .collect();
    names.sort();
    names
}

/// Every game file and test variant (`games/*.variant`, `tests/variants/*.variant`), sorted
/// within each folder, with its definition loaded (a test variant may extend a game file).
pub fn game_and_test_variant_files() -> Vec<(PathBuf, variant_dsl::Definition)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let options = variant_dsl::LoadOptions::with_search_path([games_dir()]);
    let mut files = Vec::new();
    for dir in ["games", "tests/variants"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("readable")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "variant"))
            .collect();
        paths.sort();
        for path in paths {
            let loaded = variant_dsl::load_file_with(&path, &options)
                .unwrap_or_else(|failure| panic!("{}", failure.render()));
            files.push((path, loaded.definition));
        }
    }
    files
}

/// The side names of a game in `games/`, from its file.
pub fn sides(game: &str) -> Vec<String> {
    let loaded =
        variant_dsl::load_file(&games_dir().join(format!("{game}.variant"))).expect("loads");
    loaded
        .definition
        .sides
        .iter()
        .map(|s| s.name.clone())
        .collect()
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty folder for one test (its name and the process id keep test runs apart),
/// removed with what it holds when the test is done with it (some hold copies of the binary,
/// which would otherwise pile up in the system's temporary folder run after run).
pub fn temporary_dir(name: &str) -> TemporaryDir {
    let dir = std::env::temp_dir().join(format!("variant-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    TemporaryDir(dir)
}

/// A folder of [`temporary_dir`], removed when dropped; it reads as its path.
#[derive(Debug)]
pub struct TemporaryDir(PathBuf);

impl std::ops::Deref for TemporaryDir {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for TemporaryDir {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TemporaryDir {
    /// Removes the folder, unless `VARIANT_KEEP_TEMP` is set (to read a failed test's files).
    fn drop(&mut self) {
        if std::env::var_os("VARIANT_KEEP_TEMP").is_some() {
            return;
        }
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A small deterministic generator (SplitMix64), so that random games are the same on every run.
pub struct SplitMix(pub u64);

impl SplitMix {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Runs `scripts/crosscheck_fairy.py --variant VARIANT --game GAME EXTRA...` against our binary
/// and returns its output, after checking that it succeeded and reported agreement. `None` when
/// pyffish is not installed: the test `test` then prints that it was SKIPPED, which is allowed
/// only outside CI (`.ci/run` installs pyffish).
pub fn crosscheck_fairy(
    test: &str,
    fairy_variant: &str,
    game: &str,
    extra: &[&str],
) -> Option<String> {
    let available = Command::new("python3")
        .args(["-c", "import pyffish"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !available {
        eprintln!(
            "SKIPPED {test}: pyffish is not installed (pip install pyffish); the cross-check \
             with Fairy-Stockfish did NOT run"
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set, so pyffish must be installed (.ci/run installs it)"
        );
        return None;
    }
    let output = Command::new("python3")
        .args(["scripts/crosscheck_fairy.py", "--variant", fairy_variant])
        .args(["--game", game, "--binary", env!("CARGO_BIN_EXE_variant")])
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    assert!(
        text.contains(&format!(
            "random games agree with Fairy-Stockfish {fairy_variant}"
        )),
        "{text}"
    );
    Some(text)
}

/// Why python3 cannot run here, if it cannot (the independent oracles are Python scripts).
pub fn python_missing() -> Option<String> {
    match Command::new("python3").arg("--version").output() {
        Ok(output) if output.status.success() => None,
        Ok(output) => Some(String::from_utf8_lossy(&output.stderr).into_owned()),
        Err(e) => Some(format!("python3 cannot be run ({e})")),
    }
}

/// Whether python3 can import `module` (`chess.engine`, `pyffish`); when it cannot, the test
/// `test` prints that it was SKIPPED with the reason, which is allowed only outside CI
/// (`.ci/run` installs the oracles), and gets `false`.
pub fn python_module_or_skip(test: &str, module: &str, package: &str) -> bool {
    let output = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output();
    let reason = match output {
        Err(e) => format!("python3 cannot be run ({e})"),
        Ok(output) if !output.status.success() => format!(
            "{package} is not installed (pip install {package}): {}",
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or_default()
        ),
        Ok(_) => return true,
    };
    eprintln!("SKIPPED {test}: {reason}; the check with {package} did NOT run");
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set, so {package} must be installed (.ci/run installs it): {reason}"
    );
    false
}

/// Runs `python3 SCRIPT ARGS... --binary <our binary>` from the repository root, requires it to
/// succeed (its output shown otherwise), and returns its standard output.
pub fn run_python_script(script: &str, args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg(script)
        .args(args)
        .args(["--binary", env!("CARGO_BIN_EXE_variant")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let text = stdout(&output);
    assert!(output.status.success(), "{text}{}", stderr(&output));
    text
}

/// Fairy-Stockfish's binary: `FAIRY_STOCKFISH`, else where `build-fairy-stockfish.sh` puts it,
/// else `fairy-stockfish` on the path.
pub fn fairy_stockfish() -> Option<String> {
    if let Some(path) = std::env::var_os("FAIRY_STOCKFISH") {
        return Some(path.to_string_lossy().into_owned());
    }
    let built = "/tmp/fairy-stockfish/fairy-stockfish";
    if std::path::Path::new(built).is_file() {
        return Some(built.into());
    }
    let on_path = Command::new("fairy-stockfish")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .map(|mut child| child.kill());
    on_path.is_ok().then(|| "fairy-stockfish".into())
}

/// `fnv1a64:...` of `variant dump GAME`: the `DefinitionHash` a record of the game carries.
pub fn definition_hash(game: &str) -> String {
    let output = variant(&["dump", game]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in output.stdout {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("fnv1a64:{hash:016x}")
}

/// `win`, `loss`, `draw` or `-` for the side to move, and the result's reason, from the JSON of
/// `show --json`.
pub fn verdict_and_reason(value: &serde_json::Value) -> (String, String) {
    let result = &value["result"];
    if result.is_null() {
        return ("-".to_string(), String::new());
    }
    let side = value["side_to_move"].as_str().expect("a side to move");
    let winners: Vec<&str> = result["winners"]
        .as_array()
        .expect("winners")
        .iter()
        .filter_map(|w| w.as_str())
        .collect();
    let verdict = if winners.is_empty() {
        "draw"
    } else if winners.contains(&side) {
        "win"
    } else {
        "loss"
    };
    let reason = result["reason"].as_str().unwrap_or_default().to_string();
    (verdict.to_string(), reason)
}
