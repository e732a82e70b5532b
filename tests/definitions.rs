//! Every game in `games/` loads without warnings, and its validated definition, dumped as RON,
//! matches a snapshot and reads back to the same definition.

use std::path::{Path, PathBuf};

/// The `.variant` files of `games/`, relative to the package root, sorted.
fn games() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut games: Vec<PathBuf> = std::fs::read_dir(root.join("games"))
        .expect("games/ exists")
        .map(|entry| entry.expect("a readable directory entry").file_name())
        .filter(|name| name.to_string_lossy().ends_with(".variant"))
        .map(|name| Path::new("games").join(name))
        .collect();
    games.sort();
    games
}

#[test]
fn every_game_loads_and_dumps() {
    let games = games();
    assert!(!games.is_empty(), "no game in games/");
    for game in games {
        let name = game
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let loaded =
            variant_dsl::load_file(&game).unwrap_or_else(|failure| panic!("{}", failure.render()));
        assert!(loaded.warnings.is_empty(), "{}", loaded.render());
        let ron = loaded.definition.to_ron();
        let read_back = variant_dsl::Definition::from_ron(&ron).expect("the RON dump reads back");
        assert_eq!(read_back, loaded.definition, "{name}: RON round trip");
        insta::with_settings!({ snapshot_suffix => name, input_file => &game, prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!("definition", ron);
        });
    }
}
