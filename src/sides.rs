//! One command-line flag per side, named from the game file: `variant play chess --white human
//! --black mcts:2s`, `--red random` in a game with a side called red.
//!
//! Why at run time: the sides are data, so the flags cannot be written in the `Cli` struct.
//! Before parsing, the arguments of `play` are scanned for the game (or the record given with
//! `--load`); its side names become flags added to the command with clap's builder API, so that
//! they parse, check and show in `variant play GAME --help` like any other flag.

use crate::{catalog, play, record, Cli, Failure};
use clap::{Arg, ArgMatches, CommandFactory, FromArgMatches};

pub const PLAY_AFTER_HELP: &str = "\
Sides: one flag per side of the game, named from its game file, taking a PLAYER:
  --SIDE PLAYER   e.g. --white human --black mcts:2s (chess); `variant play GAME --help`
                  lists the flags of that game's sides.
PLAYER: human, random, mcts[:PLAYOUTS|:SECONDSs], search[:DEPTH|:SECONDSs], or policy (the
game file's own controller for a side that has one).";

/// Flags of `play` itself: no side may take their names.
const RESERVED: [&str; 12] = [
    "seed", "load", "record", "fen", "threads", "hint", "no-color", "help", "game", "version",
    "strict", "force",
];

/// Flags of `play` that take no value.
const SWITCHES: [&str; 4] = ["--no-color", "--help", "--force", "--strict"];

/// The game `play`'s arguments name: the first argument that is not a flag or a flag's value,
/// else the game of the record given with `--load`.
fn scan_game(args: &[String]) -> Option<String> {
    let (positional, load) = scan(args);
    positional.or_else(|| {
        let load = load?;
        let path = std::path::Path::new(&load);
        play::game_of_record(&record::read(path).ok()?, path)
    })
}

/// `play`'s arguments scanned: the first argument that is not a flag or a flag's value, and the
/// record given with `--load`.
fn scan(args: &[String]) -> (Option<String>, Option<String>) {
    let mut load = None;
    let mut positional = None;
    let mut index = 0;
    while index < args.len() {
        let arg = &args[index];
        if arg == "--load" {
            load = args.get(index + 1).cloned();
        } else if let Some(value) = arg.strip_prefix("--load=") {
            load = Some(value.to_string());
        }
        if arg.starts_with("--") && !arg.contains('=') && !SWITCHES.contains(&arg.as_str()) {
            // Every other flag of play, the side flags included, takes a value.
            index += 2;
            continue;
        }
        if !arg.starts_with('-') && positional.is_none() {
            positional = Some(arg.clone());
        }
        index += 1;
    }
    (positional, load)
}

/// Why side flags found no game when the game was to come from the record given with `--load`
/// (it cannot be read, or names no game file), as `play` itself would say it; `None` without
/// `--load` or with a GAME.
fn unloadable_record(args: &[String]) -> Option<Failure> {
    let (None, Some(load)) = scan(args) else {
        return None;
    };
    Some(Failure::Message(
        match record::read(std::path::Path::new(&load)) {
            Err(why) => why,
            Ok(_) => "give a GAME (or --load a record that names its game file)".into(),
        },
    ))
}

/// Parses the command line, with a flag per side for `play`; returns the side players given.
/// A side flag given for a game that does not load is not "unexpected": the game's own error
/// is the failure.
pub fn parse_command_line() -> Result<(Cli, Vec<(String, String)>), Failure> {
    // Lossy: an argument that is not Unicode cannot name a game here; clap reports it below.
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let play_at = args.iter().skip(1).position(|a| a == "play").map(|i| i + 1);
    let play_args: &[String] = match play_at {
        Some(at) if args[1..at].iter().all(|a| a.starts_with('-')) => &args[at + 1..],
        _ => &[],
    };
    let game = scan_game(play_args);
    let definition = game.as_deref().and_then(catalog::definition_quietly);
    let sides: Vec<String> = definition
        .map(|definition| definition.sides.into_iter().map(|s| s.name).collect())
        .unwrap_or_default();
    let usable: Vec<&'static str> = sides
        .iter()
        .filter(|name| {
            !RESERVED.contains(&name.as_str())
                && !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
        // Flag names live as long as the program: leaked once, a few bytes.
        .map(|name| &*Box::leak(name.clone().into_boxed_str()))
        .collect();
    let command = Cli::command().mut_subcommand("play", |play| {
        usable.iter().fold(play, |play, &name| {
            play.arg(Arg::new(name).long(name).value_name("PLAYER").help(format!(
                "Who plays {name}: human, random, mcts[:N|:Ts], search[:D|:Ts], policy"
            )))
        })
    });
    let matches = match command.try_get_matches() {
        Ok(matches) => matches,
        Err(error) => match (&game, error.kind()) {
            (Some(game), clap::error::ErrorKind::UnknownArgument) if sides.is_empty() => {
                return Err(catalog::load(game).err().unwrap_or_else(|| error.exit()));
            }
            // `play --load broken.pgn --white random`: the record is the failure.
            (None, clap::error::ErrorKind::UnknownArgument) => {
                return Err(unloadable_record(play_args).unwrap_or_else(|| error.exit()));
            }
            _ => error.exit(),
        },
    };
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let players = side_players(&matches, &usable);
    Ok((cli, players))
}

fn side_players(matches: &ArgMatches, sides: &[&'static str]) -> Vec<(String, String)> {
    let Some(("play", play)) = matches.subcommand() else {
        return Vec::new();
    };
    sides
        .iter()
        .filter_map(|&side| {
            play.get_one::<String>(side)
                .map(|player| (side.to_string(), player.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::scan_game;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_game_is_found_among_flags_and_their_values() {
        assert_eq!(
            scan_game(&args("chess --white human")).as_deref(),
            Some("chess")
        );
        assert_eq!(
            scan_game(&args("--white human chess")).as_deref(),
            Some("chess")
        );
        assert_eq!(
            scan_game(&args("--seed 3 --no-color my-variant")).as_deref(),
            Some("my-variant")
        );
        assert_eq!(
            scan_game(&args("--strict my-variant --fen x")).as_deref(),
            Some("my-variant")
        );
        assert_eq!(
            scan_game(&args("--seed=3 shogi.variant")).as_deref(),
            Some("shogi.variant")
        );
        assert_eq!(
            scan_game(&args("--force chess --record x.pgn")).as_deref(),
            Some("chess")
        );
        assert_eq!(scan_game(&args("--black random")), None);
    }
}
