//! `variant`: check, inspect and play games written in the variant language.
//!
//! A thin shell over the two library crates: `variant-dsl` loads and validates a game file,
//! `variant-interpreter` compiles and runs it. Every command goes `main → run → ExitCode`;
//! errors are printed once, here, and give exit code 1.

#![forbid(unsafe_code)]

mod analyse;
mod analysis;
mod board;
mod catalog;
mod import;
mod input;
mod play;
mod plot;
mod raster;
mod record;
mod replay;
mod server;
mod sides;
mod sprt;
mod stream;
mod svg;
mod table;
mod thinking;
mod tournament;
mod uci;
mod variants;
mod xboard;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use variant_interpreter::{Reachability, Session, SessionError};

/// Board games as data: check, inspect and play chess variants written in the variant language.
#[derive(Debug, Parser)]
#[command(name = "variant", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a game: people at the prompt against computer players, or computers alone.
    ///
    /// Each side is played by the player its flag names: `--white human --black mcts:2s`. The
    /// flags are the side names of the game file. By default the first side is a person and
    /// every other side `mcts:1s`. With no person, the game is played to its end and its moves
    /// and result are printed.
    #[command(after_help = sides::PLAY_AFTER_HELP)]
    Play {
        /// A `.variant` file, or the name of a game in `games/`; with --load, the record's game.
        game: Option<String>,
        /// Seed of the computer players' random choices (same seed and counted budgets, same
        /// game); by default from the clock.
        #[arg(long, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
        seed: Option<u64>,
        /// Resume the game saved in this record.
        #[arg(long, value_name = "FILE")]
        load: Option<PathBuf>,
        /// Keep the game's record in this file, written when the game starts and after every
        /// move. An existing file is replaced only if it is a record of the same game.
        #[arg(long, value_name = "FILE")]
        record: Option<PathBuf>,
        /// Let --record and `save` replace an existing file that is not a record of this game
        /// (never the game file itself).
        #[arg(long)]
        force: bool,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Draw without colour (also when NO_COLOR is set, or stdout is not a terminal).
        #[arg(long)]
        no_color: bool,
        /// Threads for each computer player (root-parallel MCTS).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// The player that answers `hint`.
        #[arg(long, value_name = "PLAYER", default_value = "mcts:1000")]
        hint: String,
    },
    /// Replay a game record: every position in turn, then the result.
    Replay {
        /// A record written by `variant play` (`--record`, or `save` at the prompt).
        file: PathBuf,
        /// The game file, when the record's `GameFile` tag is not found in `games/`.
        #[arg(long)]
        game: Option<String>,
        /// Draw without colour.
        #[arg(long)]
        no_color: bool,
        /// Step through the positions at the reader's pace (Enter, b, f, l, a move number, q).
        #[arg(long)]
        step: bool,
        /// Also write one SVG picture per position into DIR: `000.svg` (the start), `001.svg`
        /// (after the first move), ...
        #[arg(long, value_name = "DIR", conflicts_with = "step")]
        svg: Option<PathBuf>,
        /// Also write one PNG picture per position into DIR: `000.png`, `001.png`, ...
        #[arg(long, value_name = "DIR", conflicts_with_all = ["step", "svg"])]
        png: Option<PathBuf>,
    },
    /// Play many games between two computer players and report A's results.
    ///
    /// PLAYER is random, mcts[:PLAYOUTS|:SECONDSs] or search[:DEPTH|:SECONDSs]. Sides
    /// alternate game by game. Reports A's wins, draws and losses, its score with a 95%
    /// confidence interval (Wilson's), the same per side A played, and games per second.
    Match {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Player A (its results are reported).
        a: String,
        /// Player B.
        b: String,
        /// Number of games.
        #[arg(long, default_value_t = 10, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        games: u32,
        /// Seed of the match (each game gets its own from it).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
        seed: u64,
        /// Games played at once, on that many threads.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: u16,
        /// Threads for each computer player.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Print one JSON object: games, a, b, wins, draws, losses, games_per_second, score,
        /// score_low, score_high, by_side (and sprt with --sprt).
        #[arg(long)]
        json: bool,
        /// Stop when a sequential probability ratio test decides between ELO0 and ELO1 (A's Elo
        /// over B), counting game pairs; ALPHA and BETA default to 0.05. --games is the limit.
        #[arg(
            long,
            value_name = "ELO0,ELO1[,ALPHA,BETA]",
            allow_hyphen_values = true
        )]
        sprt: Option<sprt::Sprt>,
    },
    /// Analyse a game by self-play: balance, decisiveness, length, branching, piece values.
    ///
    /// Plays N seeded games and reports each side's score and the first mover's advantage,
    /// draws and decided games and how games ended, their length in plies and turns, the legal
    /// actions per position, and with --piece-values a value per piece type. The figures are
    /// named after Ludii's metrics (Balance, AdvantageP1, Drawishness, Completion, Timeouts).
    Analyze(analysis::AnalyzeArgs),
    /// Add up the --json results of `variant analyze --shard K/N` runs into the figures of the
    /// whole run.
    Merge {
        /// Files written by `variant analyze ... --shard K/N --json`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print one JSON object, as `variant analyze --json` does.
        #[arg(long)]
        json: bool,
        /// Write an SVG picture of the length distribution and the score over games.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
    },
    /// Validate game files; prints `ok: FILE` for each valid one.
    ///
    /// A file is valid when every other command can run it: it parses and validates, compiles,
    /// and its setup is a position the game can reach.
    Check {
        /// Game files to check: paths, or names of games in `games/` (e.g. `chess`).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Count the leaf nodes of the legal move tree (the last line is `Nodes searched: N`).
    ///
    /// The tree stops where the game does: a finished position (checkmate, stalemate,
    /// repetition, the move limit, a placement game's end) has no moves below it.
    Perft {
        /// A `.variant` file, or the name of a game in `games/` (e.g. `chess`).
        game: String,
        /// Depth in plies, at most 64.
        #[arg(long, short, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
        depth: u64,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Space-separated moves to play first, SAN or UCI (they count for repetition).
        #[arg(long)]
        play: Option<String>,
        /// Print the count below each root move first, as `MOVE: COUNT`.
        #[arg(long)]
        divide: bool,
    },
    /// List the legal moves, one per line, in UCI notation.
    Moves {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Space-separated moves to play first (SAN such as `Nf3`, or UCI such as `g1f3`).
        #[arg(long)]
        play: Option<String>,
    },
    /// The decision of the side to move's policy (its scripted controller, such as Red's
    /// priority list in Cooperative Chess): the rule that fired, the dice it read, the candidate
    /// actions and, when seeded or alone, the one chosen.
    Policy {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Space-separated moves to play first (SAN such as `Nf3`, or UCI such as `g1f3`).
        #[arg(long)]
        play: Option<String>,
        /// Dice already rolled, consumed in the order the rules read them: `3,5,2`.
        #[arg(long, allow_hyphen_values = true)]
        dice: Option<String>,
        /// Roll the dice (those not given) and pick the action with this seed.
        #[arg(long, allow_negative_numbers = true, value_parser = non_negative::<u64>)]
        seed: Option<u64>,
        /// Print one JSON object `{"side", "rule", "dice", "candidates", "chosen"}`.
        #[arg(long)]
        json: bool,
    },
    /// Draw the position: board, side to move, FEN and result.
    Show {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Space-separated moves to play first (SAN such as `Nf3`, or UCI such as `g1f3`).
        #[arg(long)]
        play: Option<String>,
        /// Print one JSON object instead of a drawing.
        #[arg(long)]
        json: bool,
        /// The dice a policy rolled for the last move of `--play` (`3,5,2`): the rule that
        /// produced that move is then reported (`policy` in `--json`, a `Policy:` line in the
        /// drawing); refused when no policy chose the last move.
        #[arg(long, allow_hyphen_values = true)]
        dice: Option<String>,
        /// Write the board as an SVG picture to FILE instead (squares, pieces, hands and
        /// prisons, the last move's arrow, the side to move or the result).
        #[arg(long, value_name = "FILE", group = "picture")]
        svg: Option<PathBuf>,
        /// Write the same picture as a PNG image to FILE instead (one pixel per SVG unit).
        #[arg(long, value_name = "FILE", group = "picture")]
        png: Option<PathBuf>,
        /// With --svg or --png: mark each side's controlled squares (games that keep a score).
        #[arg(long, requires = "picture")]
        control: bool,
        /// With --svg or --png: draw the board from the other side (top rank at the bottom).
        #[arg(long, requires = "picture")]
        flip: bool,
    },
    /// Say why a move is illegal here, or what a legal move does.
    Explain {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// The move, in SAN (`Nf3`, `O-O`, `e8=Q`) or the game's notation (`e2e4`, `e7e8q`, `N@c3`).
        #[arg(name = "MOVE")]
        mv: String,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Space-separated moves to play first (SAN such as `Nf3`, or UCI such as `g1f3`).
        #[arg(long)]
        play: Option<String>,
    },
    /// List the games known by name (in the games folders and built in), with their
    /// descriptions.
    List,
    /// Speak the Universal Chess Interface on standard input and output, as Fairy-Stockfish
    /// does, for every two-sided game of the library (the UCI_Variant option).
    Uci {
        /// Also offer this `.variant` file, or every one in this folder (as setting the
        /// VariantPath option before `uci`); may be repeated.
        #[arg(long, value_name = "PATH")]
        variant_path: Vec<PathBuf>,
    },
    /// Speak the Chess Engine Communication Protocol (CECP v2) of XBoard and WinBoard on
    /// standard input and output, for every two-sided game of the library.
    Xboard {
        /// Also offer this `.variant` file, or every one in this folder; may be repeated.
        #[arg(long, value_name = "PATH")]
        variant_path: Vec<PathBuf>,
    },
    /// The search's evaluation and best lines for a position, printed as it deepens, in short
    /// algebraic notation and in the game's notation.
    Analyse {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Refuse a --fen position the game's setup cannot reach (else played with a warning).
        #[arg(long)]
        strict: bool,
        /// Space-separated moves to play first.
        #[arg(long)]
        play: Option<String>,
        /// Search to this depth in plies.
        #[arg(long, conflicts_with = "time", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search for this many seconds (default 1 when no depth is given).
        #[arg(long)]
        time: Option<f64>,
        /// Report this many best lines.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=500))]
        multipv: u16,
        /// Search with this many threads (one leads, the others help it through the shared
        /// transposition table).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
        threads: u16,
        /// Print one JSON object per completed depth, then one for the best move.
        #[arg(long)]
        json: bool,
    },
    /// Turn a Fairy-Stockfish variant configuration (variants.ini) into `.variant` files.
    ///
    /// Each section `[name]` or `[name:parent]` becomes `DIR/name.variant` when every option it
    /// and its parents use has an exact equivalent in the language; any other section is refused
    /// with its file:line and the reason, and nothing is written for it. Exit 1 when a section
    /// was refused. docs/fairy-stockfish.md lists the options.
    Import {
        /// The configuration file (Fairy-Stockfish's variants.ini format).
        config: PathBuf,
        /// The folder the `.variant` files are written to (created if needed).
        #[arg(long, value_name = "DIR", default_value = ".")]
        out: PathBuf,
        /// Replace existing `.variant` files.
        #[arg(long)]
        force: bool,
    },
    /// Print the validated definition of a game as RON, or its compiled tables described.
    Dump {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Describe the compiled move tables instead.
        #[arg(long)]
        compiled: bool,
    },
    /// Serve the games on a local web server with a JSON API (prints the address).
    ///
    /// `GET /api/games`; `POST /api/sessions` with `{"game", "players", "seed", "fen"}`;
    /// `GET /api/sessions/ID` (the fields of `show --json`, and `players`);
    /// `GET /api/sessions/ID/board.svg`; `POST /api/sessions/ID/moves` with `{"move"}`;
    /// for a game made with `"stream": true`, `GET /api/sessions/ID/events` (the computers'
    /// moves and their search's progress as server-sent events) and `POST .../stop`.
    Serve {
        /// Port to listen on; 0 lets the system pick one.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to bind: only this machine by default.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Offer the games of this folder instead of the usual games folders.
        #[arg(long, value_name = "DIR")]
        games: Option<PathBuf>,
        /// Open the address in the system's browser.
        #[arg(long)]
        open: bool,
        /// Most games under way at once.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        max_sessions: u32,
        /// A game that no request touched for this many seconds is forgotten.
        #[arg(long, default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..=604_800))]
        idle_seconds: u64,
    },
}

/// An error that ends the command.
#[derive(Debug)]
enum Failure {
    /// Already rendered diagnostics of a game file.
    Diagnostics(String),
    /// A plain message.
    Message(String),
    /// Standard output was closed by its reader (`variant ... | head`): stop quietly.
    ClosedOutput,
}

/// Writes to standard output; a reader that went away ends the command quietly, any other
/// write error is reported.
fn emit(text: &str) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|error| match error.kind() {
            std::io::ErrorKind::BrokenPipe => Failure::ClosedOutput,
            _ => Failure::Message(format!("cannot write the output: {error}")),
        })
}

impl From<SessionError> for Failure {
    fn from(error: SessionError) -> Self {
        Failure::Message(error.to_string())
    }
}

fn main() -> ExitCode {
    match sides::parse_command_line().and_then(|(cli, side_players)| run(cli, side_players)) {
        Ok(code) => code,
        Err(Failure::Diagnostics(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
        Err(Failure::Message(text)) => {
            eprintln!("error: {text}");
            ExitCode::from(1)
        }
        Err(Failure::ClosedOutput) => ExitCode::SUCCESS,
    }
}

fn run(cli: Cli, side_players: Vec<(String, String)>) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Play {
            game,
            seed,
            load,
            record,
            fen,
            strict,
            no_color,
            threads,
            hint,
            force,
        } => play::play(play::PlayArgs {
            game,
            players: side_players,
            seed,
            load,
            record,
            fen,
            strict,
            color: board::use_color(no_color),
            threads: threads as usize,
            hint,
            force,
        }),
        Command::Replay {
            file,
            game,
            no_color,
            step,
            svg,
            png,
        } => {
            let pictures = match (&svg, &png) {
                (Some(dir), _) => Some((dir.as_path(), replay::Format::Svg)),
                (None, Some(dir)) => Some((dir.as_path(), replay::Format::Png)),
                (None, None) => None,
            };
            replay::replay(
                &file,
                game.as_deref(),
                board::use_color(no_color),
                step,
                pictures,
            )
        }
        Command::Match {
            game,
            a,
            b,
            games,
            seed,
            jobs,
            threads,
            json,
            sprt,
        } => tournament::run(tournament::MatchArgs {
            game,
            a,
            b,
            games: games as usize,
            seed,
            jobs: jobs as usize,
            threads: threads as usize,
            json,
            sprt,
        }),
        Command::Analyze(args) => analysis::run(args),
        Command::Merge { files, json, plot } => analysis::merge(&files, json, plot.as_deref()),
        Command::Check { files } => check(&files),
        Command::Perft {
            game,
            depth,
            fen,
            strict,
            play,
            divide,
        } => {
            let max = variant_interpreter::perft::MAX_DEPTH;
            let depth = u32::try_from(depth)
                .ok()
                .filter(|&d| d <= max)
                .ok_or_else(|| {
                    Failure::Message(format!(
                        "depth {depth} is too deep: perft counts at most {max} plies"
                    ))
                })?;
            let session = open(&game, fen.as_deref(), strict, play.as_deref())?;
            report_finished(session.as_ref());
            perft(session.as_ref(), depth, divide)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Moves {
            game,
            fen,
            strict,
            play,
        } => {
            let session = open(&game, fen.as_deref(), strict, play.as_deref())?;
            report_finished(session.as_ref());
            let mut listing = String::new();
            for mv in session.legal_moves() {
                listing.push_str(&mv);
                listing.push('\n');
            }
            emit(&listing)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Policy {
            game,
            fen,
            strict,
            play,
            dice,
            seed,
            json,
        } => {
            let session = open(&game, fen.as_deref(), strict, play.as_deref())?;
            let dice = dice.as_deref().map(parse_dice).transpose()?;
            let report = session
                .policy(dice.as_deref(), seed)
                .map_err(|e| Failure::Message(e.to_string()))?;
            if json {
                let text =
                    serde_json::to_string(&report).map_err(|e| Failure::Message(e.to_string()))?;
                emit(&format!("{text}\n"))?;
            } else {
                let mut text = format!("{} plays by rule {}", report.side, report.rule);
                if !report.dice.is_empty() {
                    let dice: Vec<String> = report.dice.iter().map(u32::to_string).collect();
                    text.push_str(&format!(" (dice {})", dice.join(", ")));
                }
                text.push_str(&format!("\ncandidates: {}\n", report.candidates.join(" ")));
                if let Some(chosen) = &report.chosen {
                    text.push_str(&format!("chosen: {chosen}\n"));
                }
                emit(&text)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Show {
            game,
            fen,
            strict,
            play,
            json,
            dice,
            svg,
            png,
            control,
            flip,
        } => {
            let mut session = open(&game, fen.as_deref(), strict, play.as_deref())?;
            let policy = match dice {
                Some(dice) => Some(policy_of_last_move(session.as_mut(), parse_dice(&dice)?)?),
                None => None,
            };
            let options = svg::Options {
                flipped: flip,
                control,
            };
            if let Some(file) = svg {
                svg::write(&file, &svg::render(session.as_ref(), options))?;
            } else if let Some(file) = png {
                let picture = svg::render(session.as_ref(), options);
                raster::Rasteriser::new().write(&file, &picture)?;
            } else if json {
                emit(&format!("{}\n", show_json(session.as_ref())))?;
            } else {
                let mut text = show_text(session.as_ref());
                text.push_str(&policy.map_or_else(String::new, |line| format!("{line}\n")));
                emit(&text)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain {
            game,
            mv,
            fen,
            strict,
            play,
        } => {
            let session = open(&game, fen.as_deref(), strict, play.as_deref())?;
            let lines = play::explain_typed(session.as_ref(), &mv);
            if is_malformed(session.as_ref(), &mv) {
                return Err(Failure::Message(lines.join("\n")));
            }
            emit(&format!("{}\n", lines.join("\n")))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::List => {
            emit(&catalog::list())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            port,
            host,
            games,
            open,
            max_sessions,
            idle_seconds,
        } => server::serve(server::ServeArgs {
            host,
            port,
            games,
            open,
            max_sessions: max_sessions as usize,
            idle: std::time::Duration::from_secs(idle_seconds),
        }),
        Command::Uci { variant_path } => uci::run(&variant_path),
        Command::Xboard { variant_path } => xboard::run(&variant_path),
        Command::Analyse {
            game,
            fen,
            strict,
            play,
            depth,
            time,
            multipv,
            threads,
            json,
        } => analyse::analyse(analyse::AnalyseArgs {
            game,
            fen,
            strict,
            play,
            depth,
            time,
            lines: multipv as usize,
            threads: threads as usize,
            json,
        }),
        Command::Import { config, out, force } => import::run(&config, &out, force),
        Command::Dump { game, compiled } => {
            let loaded = catalog::load(&game)?;
            if compiled {
                emit(&variant_interpreter::open(&loaded.definition, None)?.describe())?;
            } else {
                emit(&loaded.definition.to_ron())?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Says on standard error that the game is over, and how, when it is.
fn report_finished(session: &dyn Session) {
    if let Some(result) = session.outcome() {
        eprintln!("the game is over: {}", result.description());
    }
}

/// Checks each file as every other command would open it: load and validate, then compile and
/// set up the start position. Exit 1 if any fails; the others are still checked.
fn check(files: &[String]) -> Result<ExitCode, Failure> {
    let mut all_valid = true;
    for file in files {
        let opened = catalog::load(file).and_then(|loaded| {
            variant_interpreter::open(&loaded.definition, None)
                .map(|_| ())
                .map_err(|error| Failure::Message(format!("{file}: {error}")))
        });
        match opened {
            Ok(()) => emit(&format!("ok: {file}\n"))?,
            Err(Failure::Diagnostics(text)) => {
                all_valid = false;
                eprint!("{text}");
            }
            Err(Failure::Message(text)) => {
                all_valid = false;
                eprintln!("error: {text}");
            }
            Err(Failure::ClosedOutput) => return Err(Failure::ClosedOutput),
        }
    }
    Ok(if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Loads a game, sets up the position (`--fen`, refused if the setup cannot reach it and
/// `strict`) and plays the given moves.
fn open(
    game: &str,
    fen: Option<&str>,
    strict: bool,
    play: Option<&str>,
) -> Result<Box<dyn Session>, Failure> {
    let loaded = catalog::load(game)?;
    let mut session = open_start(&loaded.definition, fen, strict)?;
    for (index, mv) in play.unwrap_or("").split_whitespace().enumerate() {
        play_typed(session.as_mut(), mv)
            .map_err(|e| Failure::Message(format!("move {} of --play: {e}", index + 1)))?;
    }
    Ok(session)
}

/// Plays a move written as at the prompt: in short algebraic notation (`Nf3`, `O-O`) or in the
/// game's notation. A move that cannot be played gets the game's notation's error, or, for
/// algebraic text, the same reason its move in the game's notation gets.
pub(crate) fn play_typed(session: &mut dyn Session, text: &str) -> Result<(), String> {
    let error = match session.resolve(text) {
        Ok(uci) => return session.play(&uci).map_err(|e| e.to_string()),
        Err(error) => error,
    };
    match session.play(text) {
        Ok(()) => Ok(()),
        Err(SessionError::MalformedMove(_)) => match error {
            variant_interpreter::InputError::Illegal { .. } => Err(format!(
                "`{text}` is not a legal move in {}: {}",
                session.fen(),
                play::explain_typed(session, text).join("; ")
            )),
            other => Err(other.to_string()),
        },
        Err(other) => Err(other.to_string()),
    }
}

/// Sets up the start of a game, its setup or a `--fen`: a position the setup cannot reach is
/// refused with `strict`, else played from after one `warning:` line on standard error.
fn open_start(
    definition: &variant_dsl::Definition,
    fen: Option<&str>,
    strict: bool,
) -> Result<Box<dyn Session>, Failure> {
    let reachability = if strict {
        Reachability::Strict
    } else {
        Reachability::Warn
    };
    let opened = variant_interpreter::open_position(definition, fen, reachability)?;
    if !opened.warnings.is_empty() {
        eprintln!(
            "warning: the game's setup cannot reach this position, played from anyway (--strict \
             refuses it): {}",
            opened.warnings.join("; ")
        );
    }
    Ok(opened.session)
}

fn perft(session: &dyn Session, depth: u32, divide: bool) -> Result<(), Failure> {
    let total = if divide {
        let mut total = 0u64;
        for (mv, count) in session.divide(depth) {
            emit(&format!("{mv}: {count}\n"))?;
            total = total.saturating_add(count);
        }
        emit("\n")?;
        total
    } else {
        session.perft(depth)
    };
    emit(&format!("Nodes searched: {total}\n"))
}

fn show_text(session: &dyn Session) -> String {
    let mut out = session.diagram();
    out.push('\n');
    out.push_str(&board::hands(session));
    out.push_str(&board::prisons(session));
    let turn = session.turn_report();
    if let Some(phase) = turn.phase.filter(|phase| phase != "play") {
        out.push_str(&format!("Phase: {phase}\n"));
    }
    if let Some(actions) = turn.turn_actions.filter(|actions| !actions.is_empty()) {
        out.push_str(&format!("Turn so far: {}\n", actions.join(" ")));
    }
    out.push_str(&format!("Side to move: {}\n", session.side_to_move()));
    out.push_str(&format!("FEN: {}\n", session.fen()));
    if session.in_check() {
        out.push_str("Check!\n");
    }
    for (side, diagram) in session.control_diagrams() {
        out.push_str(&format!("\nControlled by {side} (x: empty square, #: occupied square, o: uncontrolled piece):\n{diagram}"));
    }
    if let Some(scores) = session.scores() {
        let listed: Vec<String> = scores
            .iter()
            .map(|(side, score)| format!("{side} {score}"))
            .collect();
        out.push_str(&format!("Scores: {}\n", listed.join(", ")));
    }
    if let Some(outcome) = session.outcome() {
        out.push_str(&format!("Result: {}\n", outcome.description()));
    }
    out
}

/// The result for tools: who won and who lost by name, whether it is a draw, why, and the
/// sentence `show` prints; null while the game goes on.
fn result_json(session: &dyn Session) -> serde_json::Value {
    let Some(outcome) = session.outcome() else {
        return serde_json::Value::Null;
    };
    let losers: Vec<String> = if outcome.is_draw() {
        Vec::new()
    } else {
        session
            .definition()
            .sides
            .iter()
            .map(|side| side.name.clone())
            .filter(|name| !outcome.winners.contains(name))
            .collect()
    };
    serde_json::json!({
        "winners": outcome.winners,
        "losers": losers,
        "draw": outcome.is_draw(),
        "reason": outcome.reason,
        "description": outcome.description(),
    })
}

/// `3,5,2`: dice, in the order they were rolled.
fn parse_dice(text: &str) -> Result<Vec<u32>, Failure> {
    text.split(',')
        .map(|die| {
            non_negative::<u32>(die.trim()).map_err(|why| {
                Failure::Message(format!(
                    "--dice: {why}; write the dice as numbers separated by commas (`3,5,2`)"
                ))
            })
        })
        .collect()
}

/// A whole number of 0 or more, for flags: `-1` is out of range, not a flag (clap is told to
/// let such values through with `allow_negative_numbers`, so that they reach this message).
fn non_negative<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    if let Some(magnitude) = text.strip_prefix('-') {
        if !magnitude.is_empty() && magnitude.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "`{text}` is out of range: the value must be 0 or more"
            ));
        }
    }
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("`{text}` is not a whole number"));
    }
    text.parse::<T>()
        .map_err(|_| format!("`{text}` is out of range: the value is too large"))
}

/// `show --dice`: gives the dice to the last move and returns the line that says which rule of
/// its side's policy chose it; an error when no policy chose the last move.
fn policy_of_last_move(session: &mut dyn Session, dice: Vec<u32>) -> Result<String, Failure> {
    session.note_dice(dice);
    let report = session.last_policy().ok_or_else(|| {
        Failure::Message(
            "--dice: the dice go with the last move of --play, and no side's policy chooses \
             that move with these dice (`variant policy GAME --play MOVES --dice D` before that \
             move says what the policy chooses)"
                .into(),
        )
    })?;
    let mut line = format!("Policy: {} played by rule {}", report.side, report.rule);
    if !report.dice.is_empty() {
        let dice: Vec<String> = report.dice.iter().map(u32::to_string).collect();
        line.push_str(&format!(" (dice {})", dice.join(", ")));
    }
    Ok(line)
}

/// Whether `text` is no move at all (neither the game's notation, nor algebraic, nor a policy's
/// action), as opposed to a move that is illegal here: the former is an error, the latter what
/// `explain` explains.
fn is_malformed(session: &dyn Session, text: &str) -> bool {
    let unreadable = session
        .explain(text)
        .lines
        .first()
        .is_some_and(|line| line.starts_with(&format!("`{text}` is not a move")));
    unreadable
        && matches!(
            session.resolve(text),
            Err(variant_interpreter::InputError::NotAMove(_))
        )
}

fn show_json(session: &dyn Session) -> String {
    show_value(session).to_string()
}

/// The object of `show --json` (also what the server's `GET /api/sessions/ID` answers).
pub(crate) fn show_value(session: &dyn Session) -> serde_json::Value {
    let mut value = serde_json::json!({
        "game": session.definition().name,
        "fen": session.fen(),
        "side_to_move": session.side_to_move(),
        "in_check": session.in_check(),
        "legal_moves": session.legal_moves(),
        "history": session.history(),
        "last_move": session.last_move(),
        "result": result_json(session),
        "control": control_json(session),
        "scores": session.scores().map(|scores| {
            scores
                .into_iter()
                .map(|(side, score)| (side, serde_json::Value::from(score)))
                .collect::<serde_json::Map<String, serde_json::Value>>()
        }),
    });
    // Phases, turns of several actions, reserves and prisons: only for games that have them.
    let turn = session.turn_report();
    let extra = [
        ("phase", serde_json::json!(turn.phase)),
        ("turn_actions", serde_json::json!(turn.turn_actions)),
        ("reserves", serde_json::json!(turn.reserves)),
        ("prisoners", serde_json::json!(turn.prisoners)),
        // The rule (and dice) of a policy that produced the last move.
        ("policy", serde_json::json!(session.last_policy())),
    ];
    for (key, entry) in extra {
        if !entry.is_null() {
            value[key] = entry;
        }
    }
    value
}

/// For games that keep a score: each side's controlled squares; else null.
fn control_json(session: &dyn Session) -> serde_json::Value {
    if session.scores().is_none() {
        return serde_json::Value::Null;
    }
    session
        .definition()
        .sides
        .iter()
        .map(|side| {
            (
                side.name.clone(),
                serde_json::json!(session.controlled_squares(&side.name)),
            )
        })
        .collect::<serde_json::Map<String, serde_json::Value>>()
        .into()
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
