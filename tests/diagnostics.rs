//! Every broken game in `tests/inputs/invalid/` fails to load, and its rendered diagnostics
//! (plain text, no colour, paths relative to the package) match a snapshot.
//!
//! Files in `tests/inputs/invalid/support/` are helpers reached through `extends`; only the
//! numbered files at the top level are snapshotted.

use std::path::{Path, PathBuf};

/// The `.variant` files of `tests/inputs/invalid/`, relative to the package root, sorted.
fn invalid_games() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let directory = Path::new("tests/inputs/invalid");
    let mut games: Vec<PathBuf> = std::fs::read_dir(root.join(directory))
        .expect("tests/inputs/invalid exists")
        .map(|entry| entry.expect("a readable directory entry").file_name())
        .filter(|name| name.to_string_lossy().ends_with(".variant"))
        .map(|name| directory.join(name))
        .collect();
    games.sort();
    games
}

#[test]
fn invalid_games_fail_with_diagnostics() {
    let games = invalid_games();
    assert!(games.len() >= 32, "only {} broken games", games.len());
    for game in games {
        let name = game
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let failure = match variant_dsl::load_file(&game) {
            Ok(_) => panic!("{} loaded, but it is broken", game.display()),
            Err(failure) => failure,
        };
        assert!(
            failure.diagnostics.has_errors(),
            "{name}: a failure without errors"
        );
        insta::with_settings!({ snapshot_suffix => name, input_file => &game, prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!("invalid", failure.render());
        });
    }
}
