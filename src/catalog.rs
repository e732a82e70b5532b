//! Finding a game by name or path.
//!
//! `GAME` on the command line is a path to a `.variant` file, or the name of a file in a games
//! folder: `$VARIANT_GAMES` if set, then `./games`, then the `games/` folder this binary was
//! built from. The same folders are where `extends "chess"` looks when the parent is not beside
//! the extending file, so that a variant written in any directory can extend a shipped game.

use crate::Failure;
use std::path::{Path, PathBuf};
use variant_dsl::{LoadOptions, Loaded};

/// The folders searched for games by name, in order.
fn game_folders() -> Vec<PathBuf> {
    let mut folders = Vec::new();
    if let Some(dir) = std::env::var_os("VARIANT_GAMES") {
        folders.push(PathBuf::from(dir));
    }
    folders.push(PathBuf::from("games"));
    folders.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("games"));
    folders
}

/// How game files are loaded: parents named by `extends` are also looked for in the games
/// folders.
pub fn load_options() -> LoadOptions {
    LoadOptions::with_search_path(game_folders())
}

/// Resolves `game` to a file.
pub fn resolve(game: &str) -> Result<PathBuf, Failure> {
    let as_path = PathBuf::from(game);
    // Anything else that exists under that path (a FIFO, a device) goes to the loader, which
    // says what it is instead of "no game".
    let exists_as_non_directory = std::fs::metadata(&as_path).is_ok_and(|found| !found.is_dir());
    if exists_as_non_directory {
        return Ok(as_path);
    }
    if !game.contains(['/', '\\']) && !game.ends_with(".variant") {
        for folder in game_folders() {
            let candidate = folder.join(format!("{game}.variant"));
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(Failure::Message(format!(
        "no game `{game}`: give a path to a .variant file or the name of a file in games/"
    )))
}

/// Resolves and loads a game, turning diagnostics into a failure.
pub fn load(game: &str) -> Result<Loaded, Failure> {
    let path = resolve(game)?;
    match variant_dsl::load_file_with(&path, &load_options()) {
        Ok(loaded) => {
            if !loaded.warnings.is_empty() {
                eprint!("{}", loaded.render());
            }
            Ok(loaded)
        }
        Err(failure) => Err(Failure::Diagnostics(failure.render())),
    }
}
