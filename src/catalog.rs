//! Finding a game by name or path.
//!
//! `GAME` on the command line is a path to a `.variant` file, or the name of a game: a file in a
//! games folder (`$VARIANT_GAMES` if set, then `./games`), else one of the shipped game files
//! built into the binary (by `build.rs`), so that an installed binary finds `chess` wherever it
//! runs. The same places, in the same order, are where `extends "chess"` looks when the parent
//! is not beside the extending file, so that a variant written in any directory can extend a
//! shipped game. A name found nowhere gets the closest known name as a suggestion.

use crate::Failure;
use std::path::PathBuf;
use variant_dsl::{LoadOptions, Loaded};

include!(concat!(env!("OUT_DIR"), "/builtin_games.rs"));

/// The folders searched for games by name, in order (the built-in files come after them).
fn game_folders() -> Vec<PathBuf> {
    let mut folders = Vec::new();
    if let Some(dir) = std::env::var_os("VARIANT_GAMES") {
        folders.push(PathBuf::from(dir));
    }
    folders.push(PathBuf::from("games"));
    folders
}

/// How game files are loaded: parents named by `extends` are also looked for in the games
/// folders, then among the built-in files.
pub fn load_options() -> LoadOptions {
    LoadOptions::with_search_path(game_folders()).with_builtin(
        BUILTIN_GAMES
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string())),
    )
}

/// Resolves `game` to a file (a built-in one is `<built-in>/NAME.variant`).
pub fn resolve(game: &str) -> Result<PathBuf, Failure> {
    let as_path = PathBuf::from(game);
    // Anything else that exists under that path (a FIFO, a device) goes to the loader, which
    // says what it is instead of "no game".
    let exists_as_non_directory = std::fs::metadata(&as_path).is_ok_and(|found| !found.is_dir());
    if exists_as_non_directory {
        return Ok(as_path);
    }
    if is_plain_name(game) {
        for folder in game_folders() {
            let candidate = folder.join(format!("{game}.variant"));
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
        if let Some(builtin) = load_options().builtin_path(&format!("{game}.variant")) {
            return Ok(builtin);
        }
    }
    let names: Vec<String> = names().into_iter().map(|(name, _)| name).collect();
    let suggestion = variant_dsl::did_you_mean(game, names.iter().map(String::as_str))
        .map_or_else(String::new, |hint| format!(" ({hint})"));
    Err(Failure::Message(format!(
        "no game `{game}`{suggestion}: give a path to a .variant file or the name of a game \
         (`variant list` lists them)"
    )))
}

/// A name, not a path: no folder in it and no `.variant` ending.
fn is_plain_name(game: &str) -> bool {
    !game.contains(['/', '\\']) && !game.ends_with(".variant")
}

/// Every game known by name, sorted, with the file it resolves to: the games folders' files
/// first, then the built-in ones not shadowed by a file of the same name.
pub fn names() -> Vec<(String, PathBuf)> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    let mut add = |name: String, path: PathBuf| {
        if !found.iter().any(|(known, _)| *known == name) {
            found.push((name, path));
        }
    };
    for folder in game_folders() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "variant") && path.is_file())
            .collect();
        paths.sort();
        for path in paths {
            if let Some(stem) = path.file_stem() {
                add(stem.to_string_lossy().into_owned(), path.clone());
            }
        }
    }
    let options = load_options();
    for (file_name, _) in BUILTIN_GAMES {
        let name = file_name.strip_suffix(".variant").unwrap_or(file_name);
        if let Some(path) = options.builtin_path(file_name) {
            add(name.to_string(), path);
        }
    }
    found.sort();
    found
}

/// `variant list`: one line per game known by name, with its name and description as its
/// file gives them, or why it does not load.
pub fn list() -> String {
    let games = names();
    let width = games.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    let options = load_options();
    let mut out = String::new();
    for (name, path) in games {
        let about = match variant_dsl::load_file_with(&path, &options) {
            Ok(loaded) => match loaded.definition.description {
                Some(description) => format!("{}: {description}", loaded.definition.name),
                None => loaded.definition.name,
            },
            Err(_) => format!("(does not load: `variant check {name}` says why)"),
        };
        out.push_str(&format!("{name:<width$}  {about}\n"));
    }
    out
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

/// Loads a game for a look at its definition only (the side names): no warnings printed, and
/// `None` if it does not load (the command that runs it then says why).
pub fn definition_quietly(game: &str) -> Option<variant_dsl::Definition> {
    let path = resolve(game).ok()?;
    variant_dsl::load_file_with(&path, &load_options())
        .ok()
        .map(|loaded| loaded.definition)
}
