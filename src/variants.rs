//! The games an engine protocol offers: UCI's `UCI_Variant` combo.
//!
//! Every game known by name (the games folders' files and the built-in games, as
//! [`crate::catalog`] finds them) is offered under its file name (`chess`, `takeover-chess`), as
//! Fairy-Stockfish offers its built-in variants; `VariantPath` adds the files of a `.variant`
//! file or of a folder, and a file of the same name replaces the one offered before, as
//! Fairy-Stockfish's `VariantPath` does with its `variants.ini` sections.
//!
//! Why some games are listed but refused: the protocols speak of two players who alternate
//! single moves. A game with more sides (Cooperative Chess) or several actions in a turn
//! (Kingdrops) does not fit them, so selecting it gets a message saying so instead of a game a
//! client would misplay.

use crate::catalog;
use std::collections::BTreeMap;
use std::path::Path;
use variant_dsl::{fen, Definition};

/// A game file as the protocol sees it.
enum Offer {
    /// Two sides, one action a turn: it can be played.
    Playable(Box<Definition>),
    /// Loaded, but it does not fit the protocol: why.
    Refused(String),
}

/// The games by name.
pub struct Library {
    games: BTreeMap<String, Offer>,
}

/// Why a game does not fit a two-player, one-move-a-turn protocol, if it does not.
fn misfit(definition: &Definition) -> Option<String> {
    let sides = definition.sides.len();
    if sides != 2 {
        return Some(format!(
            "it has {sides} sides, and the engine protocols have two players"
        ));
    }
    let actions = definition.turn.actions;
    if actions != 1 {
        return Some(format!(
            "a turn has up to {actions} actions, and the engine protocols have one move a turn"
        ));
    }
    None
}

impl Library {
    /// Every game known by name: the games folders' files, then the games built into the
    /// binary (as [`catalog::names`] finds them); a file that does not load is left out.
    pub fn from_games_folders() -> Library {
        let games = catalog::names()
            .into_iter()
            .filter_map(|(name, path)| Some((name.to_lowercase(), load(&path).ok()?)))
            .collect();
        Library { games }
    }

    /// Adds a `.variant` file or every `.variant` file of a folder, replacing games of the same
    /// names; returns the names added.
    pub fn add_path(&mut self, path: &Path) -> Result<Vec<String>, String> {
        let found = if path.is_dir() {
            load_folder(path)
        } else if path.is_file() {
            let name = game_name(path)
                .ok_or_else(|| format!("{} is not a .variant file", path.display()))?;
            vec![(name, load(path)?)]
        } else {
            return Err(format!("{} is neither a file nor a folder", path.display()));
        };
        if found.is_empty() {
            return Err(format!("{} holds no .variant file", path.display()));
        }
        let names = found.iter().map(|(name, _)| name.clone()).collect();
        self.games.extend(found);
        Ok(names)
    }

    /// The names of the playable games, sorted.
    pub fn playable(&self) -> impl Iterator<Item = &str> {
        self.games.iter().filter_map(|(name, offer)| match offer {
            Offer::Playable(_) => Some(name.as_str()),
            Offer::Refused(_) => None,
        })
    }

    /// The game offered under `name` (case-insensitive, as UCI option values are), with its
    /// name as offered; or why it cannot be selected.
    pub fn select(&self, name: &str) -> Result<(&str, &Definition), String> {
        let found = self
            .games
            .iter()
            .find(|(offered, _)| offered.eq_ignore_ascii_case(name));
        match found {
            Some((offered, Offer::Playable(definition))) => Ok((offered, definition)),
            Some((offered, Offer::Refused(why))) => Err(format!(
                "variant {offered} cannot be played over an engine protocol: {why} (play it with `variant play`)"
            )),
            None => Err(format!(
                "no variant `{name}`: the variants are {}",
                self.playable().collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

/// `chess` for `games/chess.variant`; `None` for a file that is not a game file.
fn game_name(path: &Path) -> Option<String> {
    (path.extension()? == "variant")
        .then(|| path.file_stem().map(|s| s.to_string_lossy().to_lowercase()))?
}

fn load(path: &Path) -> Result<Offer, String> {
    match variant_dsl::load_file_with(path, &catalog::load_options()) {
        Ok(loaded) => Ok(match misfit(&loaded.definition) {
            Some(why) => Offer::Refused(why),
            None => Offer::Playable(Box::new(loaded.definition)),
        }),
        Err(failure) => Err(format!(
            "{} does not load: {}",
            path.display(),
            failure
                .render()
                .lines()
                .next()
                .unwrap_or("invalid game file")
        )),
    }
}

/// The game files of a folder that load, by name (a file that does not load is left out).
fn load_folder(folder: &Path) -> Vec<(String, Offer)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut found: Vec<(String, Offer)> = entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = game_name(&path)?;
            Some((name, load(&path).ok()?))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Whether pieces are ever dropped from a hand: the game drops, and a hand can hold something
/// (captures go to hand or to a prison that sends them back, or the setup fills a hand).
fn has_hands(definition: &Definition) -> bool {
    let stored = definition.capture.stores.iter().any(Option::is_some);
    definition.actions.drops && (stored || !definition.setup.hands.is_empty())
}

/// The pocket (the number of piece types when the game drops pieces from hands, else 0) and
/// the template (`crazyhouse` when captures go to hand, else `fairy`), as Fairy-Stockfish
/// reports them over UCI and XBoard reads them as `setup`'s holdings size and parent variant.
pub fn pocket_and_template(definition: &Definition) -> (usize, &'static str) {
    let pocket = if has_hands(definition) {
        definition.pieces.len()
    } else {
        0
    };
    let to_hand = definition
        .capture
        .stores
        .contains(&Some(variant_dsl::Store::Hand));
    let template = if has_hands(definition) && to_hand {
        "crazyhouse"
    } else {
        "fairy"
    };
    (pocket, template)
}

/// Fairy-Stockfish's line on selecting a variant: `info string variant NAME files F ranks R
/// pocket P template T startpos FEN`. The pocket is the number of piece types when the game
/// drops pieces from hands (0 otherwise); the template is `crazyhouse` for a game whose
/// captures go to hand and `fairy` for any other.
pub fn selection_line(name: &str, definition: &Definition) -> String {
    let (pocket, template) = pocket_and_template(definition);
    format!(
        "info string variant {name} files {} ranks {} pocket {pocket} template {template} startpos {}",
        definition.board.files,
        definition.board.ranks,
        fen::write_fen(definition, &definition.setup)
    )
}
