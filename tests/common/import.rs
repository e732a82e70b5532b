//! Shared by the tests of `variant import`: importing a configuration into a fresh folder,
//! naming an imported game, a refused configuration, and perft against pyffish loaded with the
//! same configuration.

use super::{run_python_script, stderr, stdout, temporary_dir, variant, TemporaryDir};
use std::path::Path;
use std::process::Output;

/// Imports `config` into a fresh folder named after `test`, returning the folder and the run.
pub fn import(test: &str, config: &str) -> (TemporaryDir, Output) {
    let dir = temporary_dir(test);
    let output = variant(&["import", config, "--out", dir.to_str().unwrap()]);
    (dir, output)
}

/// The path of the game `name` imported into `dir`.
pub fn game(dir: &Path, name: &str) -> String {
    dir.join(format!("{name}.variant"))
        .to_string_lossy()
        .into_owned()
}

/// Imports `text` written to a file, expecting failure with `expected` in standard error.
pub fn refused(test: &str, text: impl AsRef<[u8]>, expected: &str) {
    let dir = temporary_dir(test);
    let config = dir.join("v.ini");
    std::fs::write(&config, text.as_ref()).unwrap();
    let output = variant(&[
        "import",
        config.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    assert!(stderr(&output).contains(expected), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

/// Perft of the section `name` of `config`, imported into `dir`, equals pyffish's (loaded with
/// `config`), from its start or from `fen`.
pub fn perft_agrees(config: &str, dir: &Path, name: &str, depth: u32, fen: Option<&str>) {
    let depth = depth.to_string();
    let mut theirs_args = vec!["--config", config, "--variant", name, "--perft", &depth];
    let game = game(dir, name);
    let mut ours_args = vec!["perft", game.as_str(), "--depth", &depth];
    if let Some(fen) = fen {
        theirs_args.extend(["--fen", fen]);
        ours_args.extend(["--fen", fen]);
    }
    let theirs = run_python_script("scripts/crosscheck_fairy.py", &theirs_args);
    let nodes = theirs
        .lines()
        .last()
        .and_then(|line| line.split(": ").nth(1))
        .expect("crosscheck_fairy.py prints `Nodes searched: N` last")
        .trim()
        .to_string();
    let ours = variant(&ours_args);
    assert_eq!(
        stdout(&ours).lines().last(),
        Some(format!("Nodes searched: {nodes}").as_str()),
        "{name} depth {depth} {fen:?}: {}",
        stderr(&ours)
    );
}

/// Seeded random games of the section `name` of `config`, imported into `dir`, agree with
/// pyffish's (loaded with `config`) at every position: three games, with `options` of
/// `scripts/crosscheck_fairy.py` (`--plies`, `--seed`, `--sparse`).
pub fn plays_as_pyffish(config: &str, dir: &Path, name: &str, options: &[&str]) {
    let file = game(dir, name);
    let mut args = vec![
        "--config",
        config,
        "--variant",
        name,
        "--game",
        &file,
        "--games",
        "3",
    ];
    args.extend_from_slice(options);
    let text = run_python_script("scripts/crosscheck_fairy.py", &args);
    assert!(
        text.contains(&format!("random games agree with Fairy-Stockfish {name}")),
        "{text}"
    );
}
