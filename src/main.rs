//! `variant`: check, inspect and play games written in the variant language.
//!
//! A thin shell over the two library crates: `variant-dsl` loads and validates a game file,
//! `variant-interpreter` compiles and runs it. Every command goes `main → run → ExitCode`;
//! errors are printed once, here, and give exit code 1.

mod catalog;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use variant_interpreter::{Session, SessionError};

/// Board games as data: check, inspect and play chess variants written in the variant language.
#[derive(Debug, Parser)]
#[command(name = "variant", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate game files; prints `ok: FILE` for each valid one.
    Check {
        /// Game files to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Count the leaf nodes of the legal move tree (the last line is `Nodes searched: N`).
    Perft {
        /// A `.variant` file, or the name of a game in `games/` (e.g. `chess`).
        game: String,
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
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
        /// Space-separated UCI moves to play first.
        #[arg(long)]
        play: Option<String>,
    },
    /// Draw the position: board, side to move, FEN and result.
    Show {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Start from this position instead of the game's setup.
        #[arg(long)]
        fen: Option<String>,
        /// Space-separated UCI moves to play first.
        #[arg(long)]
        play: Option<String>,
        /// Print one JSON object instead of a drawing.
        #[arg(long)]
        json: bool,
    },
    /// Print the validated definition of a game as RON, or its compiled tables described.
    Dump {
        /// A `.variant` file, or the name of a game in `games/`.
        game: String,
        /// Describe the compiled move tables instead.
        #[arg(long)]
        compiled: bool,
    },
}

/// An error that ends the command.
#[derive(Debug)]
enum Failure {
    /// Already rendered diagnostics of a game file.
    Diagnostics(String),
    /// A plain message.
    Message(String),
}

impl From<SessionError> for Failure {
    fn from(error: SessionError) -> Self {
        Failure::Message(error.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(Failure::Diagnostics(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
        Err(Failure::Message(text)) => {
            eprintln!("error: {text}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        Command::Check { files } => Ok(check(&files)),
        Command::Perft {
            game,
            depth,
            fen,
            divide,
        } => {
            let session = open(&game, fen.as_deref(), None)?;
            perft(session.as_ref(), depth, divide);
            Ok(ExitCode::SUCCESS)
        }
        Command::Moves { game, fen, play } => {
            let session = open(&game, fen.as_deref(), play.as_deref())?;
            for mv in session.legal_moves() {
                println!("{mv}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Show {
            game,
            fen,
            play,
            json,
        } => {
            let session = open(&game, fen.as_deref(), play.as_deref())?;
            if json {
                println!("{}", show_json(session.as_ref()));
            } else {
                print!("{}", show_text(session.as_ref()));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Dump { game, compiled } => {
            let loaded = catalog::load(&game)?;
            if compiled {
                print!(
                    "{}",
                    variant_interpreter::open(&loaded.definition, None)?.describe()
                );
            } else {
                print!("{}", loaded.definition.to_ron());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn check(files: &[PathBuf]) -> ExitCode {
    let mut all_valid = true;
    for file in files {
        match variant_dsl::load_file_with(file, &catalog::load_options()) {
            Ok(loaded) => {
                if !loaded.warnings.is_empty() {
                    eprint!("{}", loaded.render());
                }
                println!("ok: {}", file.display());
            }
            Err(failure) => {
                all_valid = false;
                eprint!("{}", failure.render());
            }
        }
    }
    if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Loads a game, sets up the position and plays the given moves.
fn open(game: &str, fen: Option<&str>, play: Option<&str>) -> Result<Box<dyn Session>, Failure> {
    let loaded = catalog::load(game)?;
    let mut session = variant_interpreter::open(&loaded.definition, fen)?;
    for (index, mv) in play.unwrap_or("").split_whitespace().enumerate() {
        session
            .play(mv)
            .map_err(|e| Failure::Message(format!("move {} of --play: {e}", index + 1)))?;
    }
    Ok(session)
}

fn perft(session: &dyn Session, depth: u32, divide: bool) {
    let total = if divide {
        let mut total = 0;
        for (mv, count) in session.divide(depth) {
            println!("{mv}: {count}");
            total += count;
        }
        println!();
        total
    } else {
        session.perft(depth)
    };
    println!("Nodes searched: {total}");
}

fn show_text(session: &dyn Session) -> String {
    let mut out = session.diagram();
    out.push_str(&format!("\nSide to move: {}\n", session.side_to_move()));
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
    match session.outcome() {
        Some(outcome) if outcome.is_draw() => {
            out.push_str(&format!("Result: draw by {}\n", reason_words(&outcome)));
        }
        Some(outcome) => {
            out.push_str(&format!(
                "Result: {} wins by {}\n",
                outcome.winners.join(" and "),
                reason_words(&outcome)
            ));
        }
        None => {}
    }
    out
}

fn reason_words(outcome: &variant_interpreter::Outcome) -> String {
    serde_json::to_value(outcome.reason)
        .ok()
        .and_then(|v| v.as_str().map(|s| s.replace('-', " ")))
        .unwrap_or_default()
}

fn show_json(session: &dyn Session) -> String {
    let value = serde_json::json!({
        "game": session.definition().name,
        "fen": session.fen(),
        "side_to_move": session.side_to_move(),
        "in_check": session.in_check(),
        "legal_moves": session.legal_moves(),
        "history": session.history(),
        "result": session.outcome(),
        "control": control_json(session),
        "scores": session.scores().map(|scores| {
            scores
                .into_iter()
                .map(|(side, score)| (side, serde_json::Value::from(score)))
                .collect::<serde_json::Map<String, serde_json::Value>>()
        }),
    });
    value.to_string()
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
