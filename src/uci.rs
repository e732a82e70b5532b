//! `variant uci`: the Universal Chess Interface, as Fairy-Stockfish speaks it, for every
//! two-sided game of the library.
//!
//! Why two threads: a client may ask `isready` or send `stop` while the engine thinks, and must
//! get an answer at once. The reader (this module's loop) owns the game and the options; `go`
//! starts a search on its own thread ([`Thinking`]), which prints `info` lines as it deepens and
//! the `bestmove` when it ends; the reader stops it (`stop`, `quit`, or a new command that needs
//! the position) and takes the transposition table back.
//!
//! Moves and FENs are the game's own notation, which is Fairy-Stockfish's for the games it
//! knows (`e1g1` castling, `P@e4` drops). Bad input never ends the engine: it is answered by an
//! `info string error: ...` line.

use crate::thinking::{Deadlines, Thinking};
use crate::variants::{self, Library};
use crate::Failure;
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use variant_dsl::Definition;
use variant_interpreter::ai::analysis::{weaker_choice, Root, MAX_SKILL};
use variant_interpreter::ai::search::{
    Finished, Limits, Report, Score, TranspositionTable, MAX_DEPTH, MAX_THREADS,
};
use variant_interpreter::Session;

/// The longest command line read; the rest of a longer line is skipped.
const MAX_LINE: u64 = 1 << 20;
/// The variant selected at start.
const DEFAULT_VARIANT: &str = "chess";
/// The largest `Hash`, in megabytes.
const MAX_HASH_MB: i64 = 4096;

/// Prints one line to the client at once (the search thread prints too: a line is never split).
pub(crate) fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // A client that went away is noticed by the reader, at the end of its input.
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

fn error(message: &str) {
    say(&format!("info string error: {message}"));
}

/// The options a client may set, with their values.
struct Options {
    hash_mb: usize,
    /// Accepted for the clients that set it; the search uses one thread.
    threads: usize,
    multipv: usize,
    move_overhead: Duration,
    skill: u32,
    ponder: bool,
    analyse_mode: bool,
    variant_path: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(10),
            skill: MAX_SKILL,
            ponder: false,
            analyse_mode: false,
            variant_path: "<empty>".into(),
        }
    }
}

/// The position as the client last set it: the start (a FEN, or none for the game's setup)
/// and the moves played from it, so that the next `position` with more moves plays only those.
struct Game {
    session: Box<dyn Session>,
    start: Option<String>,
    moves: Vec<String>,
}

/// The engine: what the reader owns.
struct Engine {
    library: Library,
    variant: String,
    definition: Definition,
    game: Game,
    options: Options,
    /// `None` while lent to a search.
    table: Option<TranspositionTable>,
    running: Option<Thinking>,
    /// The deadlines a `go ponder` starts at `ponderhit`.
    on_ponderhit: Deadlines,
}

/// Runs the protocol on standard input and output until `quit` or the end of the input;
/// `variant_paths` are loaded first, as if set with `setoption name VariantPath` before `uci`.
pub fn run(variant_paths: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut library = Library::from_games_folders();
    for path in variant_paths {
        library.add_path(path).map_err(Failure::Message)?;
    }
    // Chess, or the first game when the games folders have no chess.
    let first = library
        .playable()
        .next()
        .unwrap_or(DEFAULT_VARIANT)
        .to_string();
    let (variant, definition) = library
        .select(DEFAULT_VARIANT)
        .or_else(|_| library.select(&first))
        .map(|(name, definition)| (name.to_string(), definition.clone()))
        .map_err(Failure::Message)?;
    let session = variant_interpreter::open(&definition, None)?;
    let mut engine = Engine {
        library,
        variant,
        definition,
        game: Game {
            session,
            start: None,
            moves: Vec::new(),
        },
        options: Options::default(),
        table: None,
        running: None,
        on_ponderhit: (None, None),
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    while let Some(line) = read_line(&mut input) {
        if !engine.command(&line) {
            break;
        }
    }
    engine.finish_search();
    Ok(ExitCode::SUCCESS)
}

/// The next line, without its end; `None` at the end of the input.
pub(crate) fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    let read = Read::take(&mut *input, MAX_LINE)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() != Some(&b'\n') && read as u64 == MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        while Read::take(&mut *input, MAX_LINE)
            .read_until(b'\n', &mut rest)
            .ok()? as u64
            == MAX_LINE
            && rest.last() != Some(&b'\n')
        {
            rest.clear();
        }
        error(&format!("a line longer than {MAX_LINE} bytes was skipped"));
        return Some(String::new());
    }
    Some(String::from_utf8_lossy(&bytes).trim().to_string())
}

impl Engine {
    /// Answers one command; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => self.identify(),
            "isready" => say("readyok"),
            "debug" => {}
            "quit" => return false,
            "stop" => self.finish_search(),
            "ponderhit" => self.ponderhit(),
            "setoption" => {
                if self.searching() {
                    error("options cannot change during a search: send `stop` first");
                } else {
                    self.set_option(&rest);
                }
            }
            "ucinewgame" => {
                self.finish_search();
                if let Some(table) = self.table.as_mut() {
                    table.clear();
                }
            }
            "position" => {
                self.finish_search();
                self.position(&rest);
            }
            "go" => {
                if self.searching() {
                    error("a search is under way: send `stop` first");
                } else {
                    self.go(&rest);
                }
            }
            _ => error(&format!(
                "unknown command `{command}`: the commands are uci, isready, setoption, ucinewgame, position, go, stop, ponderhit and quit"
            )),
        }
        true
    }

    fn identify(&self) {
        say(&format!("id name variant {}", env!("CARGO_PKG_VERSION")));
        say("id author the variant developers");
        say(&format!(
            "option name Hash type spin default 16 min 1 max {MAX_HASH_MB}"
        ));
        say("option name Clear Hash type button");
        say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        say("option name Ponder type check default false");
        say("option name MultiPV type spin default 1 min 1 max 500");
        say("option name Skill Level type spin default 20 min -20 max 20");
        say("option name Move Overhead type spin default 10 min 0 max 5000");
        say("option name UCI_AnalyseMode type check default false");
        let names: Vec<String> = self
            .library
            .playable()
            .map(|name| format!(" var {name}"))
            .collect();
        say(&format!(
            "option name UCI_Variant type combo default {}{}",
            self.variant,
            names.concat()
        ));
        say(&format!(
            "option name VariantPath type string default {}",
            self.options.variant_path
        ));
        say("uciok");
    }

    /// Whether a search is under way (one that has printed its `bestmove` is reaped here).
    fn searching(&mut self) -> bool {
        if self.running.as_ref().is_some_and(Thinking::has_reported) {
            self.finish_search();
        }
        self.running.is_some()
    }

    /// Stops the search, if one runs, and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(running) = self.running.take() {
            self.table = running.join(true).map(|ended| ended.table);
        }
    }

    fn ponderhit(&mut self) {
        match &self.running {
            Some(running) => running.release(self.on_ponderhit),
            None => error("`ponderhit` without a search under way"),
        }
    }

    /// `setoption name NAME [value VALUE]`: both may have spaces.
    fn set_option(&mut self, words: &[&str]) {
        let Some(("name", words)) = words.split_first().map(|(w, r)| (*w, r)) else {
            return error("write `setoption name NAME value VALUE`");
        };
        let split = words.iter().position(|w| *w == "value");
        let (name, value) = match split {
            Some(at) => (words[..at].join(" "), Some(words[at + 1..].join(" "))),
            None => (words.join(" "), None),
        };
        let number = |value: &Option<String>, min: i64, max: i64| -> Option<i64> {
            let parsed = value.as_deref().and_then(|v| v.parse::<i64>().ok());
            match parsed {
                Some(n) if (min..=max).contains(&n) => Some(n),
                _ => {
                    error(&format!(
                        "option {name} takes a whole number from {min} to {max}, not `{}`",
                        value.as_deref().unwrap_or("")
                    ));
                    None
                }
            }
        };
        let check = |value: &Option<String>| -> Option<bool> {
            match value.as_deref() {
                Some("true") => Some(true),
                Some("false") => Some(false),
                other => {
                    error(&format!(
                        "option {name} is true or false, not `{}`",
                        other.unwrap_or("")
                    ));
                    None
                }
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                if let Some(mb) = number(&value, 1, MAX_HASH_MB) {
                    self.options.hash_mb = mb as usize;
                    self.table = None;
                }
            }
            "clear hash" => {
                if let Some(table) = self.table.as_mut() {
                    table.clear();
                }
            }
            "threads" => {
                if let Some(n) = number(&value, 1, MAX_THREADS as i64) {
                    self.options.threads = n as usize;
                }
            }
            "ponder" => {
                if let Some(on) = check(&value) {
                    self.options.ponder = on;
                }
            }
            "multipv" => {
                if let Some(n) = number(&value, 1, 500) {
                    self.options.multipv = n as usize;
                }
            }
            "skill level" => {
                if let Some(n) = number(&value, -20, 20) {
                    self.options.skill = n.max(0) as u32;
                }
            }
            "move overhead" => {
                if let Some(ms) = number(&value, 0, 5000) {
                    self.options.move_overhead = Duration::from_millis(ms as u64);
                }
            }
            "uci_analysemode" => {
                if let Some(on) = check(&value) {
                    self.options.analyse_mode = on;
                }
            }
            "uci_variant" => self.select_variant(value.as_deref().unwrap_or("")),
            "variantpath" => self.variant_path(value.as_deref().unwrap_or("")),
            _ => error(&format!(
                "unknown option `{name}`: the options are Hash, Clear Hash, Threads, Ponder, MultiPV, Skill Level, Move Overhead, UCI_AnalyseMode, UCI_Variant and VariantPath"
            )),
        }
    }

    fn select_variant(&mut self, name: &str) {
        let (offered, definition) = match self.library.select(name) {
            Ok(found) => found,
            Err(why) => return error(&why),
        };
        let (offered, definition) = (offered.to_string(), definition.clone());
        match variant_interpreter::open(&definition, None) {
            Ok(session) => {
                say(&variants::selection_line(&offered, &definition));
                self.variant = offered;
                self.definition = definition;
                self.game = Game {
                    session,
                    start: None,
                    moves: Vec::new(),
                };
                self.table = None;
            }
            Err(e) => error(&format!("variant {offered}: {e}")),
        }
    }

    /// `VariantPath`: files or folders separated by the platform's path separator, as
    /// Fairy-Stockfish reads it. The variant combo is rebuilt; a client sees it at its next `uci`.
    fn variant_path(&mut self, value: &str) {
        if value.is_empty() || value == "<empty>" {
            return;
        }
        for path in std::env::split_paths(value) {
            match self.library.add_path(&path) {
                Ok(names) => say(&format!(
                    "info string loaded {} from {}",
                    names.join(" "),
                    path.display()
                )),
                Err(why) => error(&why),
            }
        }
        self.options.variant_path = value.to_string();
    }

    /// `position startpos|fen FEN [moves M...]`.
    fn position(&mut self, words: &[&str]) {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(at) => (&words[..at], &words[at + 1..]),
            None => (words, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => None,
            Some((&"fen", fields)) if !fields.is_empty() => Some(fields.join(" ")),
            _ => {
                return error(
                    "write `position startpos [moves ...]` or `position fen FEN [moves ...]`",
                )
            }
        };
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let continues = self.game.start == start && moves.starts_with(&self.game.moves);
        if !continues {
            match variant_interpreter::open(&self.definition, start.as_deref()) {
                Ok(session) => {
                    self.game = Game {
                        session,
                        start,
                        moves: Vec::new(),
                    }
                }
                Err(e) => {
                    return error(&format!(
                        "{e}; the position is still {}",
                        self.game.session.fen()
                    ))
                }
            }
        }
        for (index, mv) in moves.iter().enumerate().skip(self.game.moves.len()) {
            if let Err(e) = self.game.session.play(mv) {
                return error(&format!(
                    "move {} of the position: {e}; the position is the one before it",
                    index + 1
                ));
            }
            self.game.moves.push(mv.clone());
        }
    }

    /// `go [wtime T] [btime T] [winc T] [binc T] [movestogo N] [movetime T] [depth D]
    /// [nodes N] [mate N] [infinite] [ponder]`: starts the search thread.
    fn go(&mut self, words: &[&str]) {
        let go = Go::parse(words);
        let session = self.game.session.as_ref();
        if let Some(result) = session.outcome() {
            say(&format!(
                "info string the game is over: {}",
                result.description()
            ));
            let mover_lost =
                !result.winners.is_empty() && !result.winners.contains(&session.side_to_move());
            say(if mover_lost {
                "info depth 0 score mate 0"
            } else {
                "info depth 0 score cp 0"
            });
            say("bestmove (none)");
            return;
        }
        let mover = self
            .definition
            .sides
            .iter()
            .position(|side| side.name == session.side_to_move())
            .unwrap_or(0);
        let mut limits = Limits {
            depth: go.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH)),
            nodes: go.nodes,
            lines: self.options.multipv,
            stop_at_mate: !(self.options.analyse_mode || go.infinite),
            threads: self.options.threads,
        };
        if let Some(mate) = go.mate {
            limits.depth = limits.depth.min(mate.saturating_mul(2).clamp(1, MAX_DEPTH));
            limits.stop_at_mate = true;
        }
        let skill = self.options.skill;
        if skill < MAX_SKILL {
            limits.depth = limits.depth.min(1 + skill / 4);
            limits.lines = limits.lines.max(4);
        }
        let deadlines = go.deadlines(mover, self.options.move_overhead);
        let table = self
            .table
            .take()
            .unwrap_or_else(|| TranspositionTable::with_megabytes(self.options.hash_mb));
        let seed = session.history().len() as u64 ^ u64::from(std::process::id());
        let shown = self.options.multipv;
        let passes = Passes {
            definition: self.definition.clone(),
            start: self.game.start.clone(),
            moves: self.game.moves.clone(),
        };
        let for_bestmove = passes.clone();
        self.on_ponderhit = deadlines;
        self.running = Some(Thinking::start(
            Root::of(session),
            table,
            limits,
            deadlines,
            go.infinite || go.ponder,
            move |report| print_report(report, shown, &passes),
            move |finished| {
                if finished.is_none() {
                    error("the search failed in this position");
                }
                say(&bestmove(finished, skill, seed, &for_bestmove));
            },
        ));
    }
}

/// The position a search starts from, to write the passes of its lines as Fairy-Stockfish
/// writes them: a forced pass (`pass when no action`), which the game's notation writes `pass`,
/// is a move of one of the mover's pieces to its own square there (ataxx's `f5f5`, see
/// [`variant_interpreter::Session::fairy_pass`]), and which piece depends on the position the
/// pass is played in.
#[derive(Clone)]
struct Passes {
    definition: Definition,
    start: Option<String>,
    moves: Vec<String>,
}

impl Passes {
    /// `line`, played from the search's position, with every `pass` written as
    /// Fairy-Stockfish writes it there.
    fn written(&self, line: &[String]) -> Vec<String> {
        if !line.iter().any(|m| m == "pass") {
            return line.to_vec();
        }
        let Ok(mut session) = variant_interpreter::open(&self.definition, self.start.as_deref())
        else {
            return line.to_vec();
        };
        if self.moves.iter().any(|m| session.play(m).is_err()) {
            return line.to_vec();
        }
        line.iter()
            .map(|m| {
                let text = match m.as_str() {
                    "pass" => session.fairy_pass().unwrap_or_else(|| m.clone()),
                    _ => m.clone(),
                };
                // A move the search found is legal; should one not be, the rest is unchanged.
                let _ = session.play(m);
                text
            })
            .collect()
    }
}

/// The `info` lines of a completed depth, one per line of play shown.
fn print_report(report: &Report, shown: usize, passes: &Passes) {
    for (index, line) in report.lines.iter().take(shown).enumerate() {
        let score = match line.score {
            Score::Centipawns(cp) => format!("cp {cp}"),
            Score::Mate(moves) => format!("mate {moves}"),
        };
        say(&format!(
            "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {} pv {}",
            report.depth,
            report.seldepth,
            index + 1,
            report.nodes,
            report.nps(),
            report.hashfull,
            report.time.as_millis(),
            passes.written(&line.moves).join(" ")
        ));
    }
}

/// `bestmove M [ponder P]`: the best move, or at a skill level below the top one a move picked
/// among the best lines.
fn bestmove(finished: Option<&Finished>, skill: u32, seed: u64, passes: &Passes) -> String {
    let Some(finished) = finished else {
        return "bestmove (none)".into();
    };
    let (best, ponder) = match finished.report.as_ref() {
        Some(report) if skill < MAX_SKILL && !report.lines.is_empty() => {
            let line = &report.lines[weaker_choice(&report.lines, skill, seed)];
            (line.moves[0].clone(), line.moves.get(1).cloned())
        }
        _ => (finished.best.clone(), finished.ponder.clone()),
    };
    let line: Vec<String> = std::iter::once(best).chain(ponder).collect();
    let mut written = passes.written(&line).into_iter();
    let (best, ponder) = (written.next().unwrap_or_default(), written.next());
    match ponder {
        Some(ponder) => format!("bestmove {best} ponder {ponder}"),
        None => format!("bestmove {best}"),
    }
}

/// The parameters of `go`.
#[derive(Debug, Default)]
struct Go {
    /// Per side (white, black), the time left and the increment.
    time: [Option<Duration>; 2],
    increment: [Option<Duration>; 2],
    moves_to_go: Option<u32>,
    move_time: Option<Duration>,
    depth: Option<u32>,
    nodes: Option<u64>,
    mate: Option<u32>,
    infinite: bool,
    ponder: bool,
}

impl Go {
    /// Reads the parameters; a bad one is reported and left out, so that a `go` always ends in
    /// a `bestmove`.
    fn parse(words: &[&str]) -> Go {
        let mut go = Go::default();
        let mut words = words.iter();
        while let Some(&word) = words.next() {
            let mut number = || -> Option<u64> {
                let value = words.next();
                let parsed = value.and_then(|v| v.parse::<i64>().ok());
                if parsed.is_none() {
                    error(&format!(
                        "`go {word}` takes a whole number, not `{}`; it is left out",
                        value.unwrap_or(&"")
                    ));
                }
                parsed.map(|n| n.max(0) as u64)
            };
            let millis = |n: Option<u64>| n.map(Duration::from_millis);
            match word {
                "wtime" => go.time[0] = millis(number()),
                "btime" => go.time[1] = millis(number()),
                "winc" => go.increment[0] = millis(number()),
                "binc" => go.increment[1] = millis(number()),
                "movestogo" => go.moves_to_go = number().map(|n| n.min(1000) as u32),
                "movetime" => go.move_time = millis(number()),
                "depth" => go.depth = number().map(|n| n.min(u64::from(MAX_DEPTH)) as u32),
                "nodes" => go.nodes = number(),
                "mate" => go.mate = number().map(|n| n.min(1000) as u32),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    error("`go searchmoves` is not supported: every move is searched");
                    break;
                }
                other => error(&format!("`go {other}` is not a parameter of go; left out")),
            }
        }
        go
    }

    /// When to stop deepening and when to stop, for the side to move (index 0 reads the white
    /// clock, any other the black one): all of `movetime`; else a share of the clock, the
    /// remaining time over the moves to go (30 if not given) plus most of the increment,
    /// deepening until half of it is spent and stopping at twice it, never past half the clock
    /// (most of it when one move is left).
    fn deadlines(&self, mover: usize, overhead: Duration) -> Deadlines {
        let floor = Duration::from_millis(1);
        if let Some(time) = self.move_time {
            let time = time.saturating_sub(overhead).max(floor);
            return (Some(time), Some(time));
        }
        let side = mover.min(1);
        let Some(clock) = self.time[side] else {
            return (None, None);
        };
        let left = clock.saturating_sub(overhead).max(floor);
        let to_go = self.moves_to_go.unwrap_or(30).clamp(1, 50);
        let increment = self.increment[side].unwrap_or_default();
        let share = left / to_go + increment * 3 / 4;
        let cap = if to_go == 1 { left * 4 / 5 } else { left / 2 };
        let hard = (share * 2).min(cap).max(floor);
        let soft = (share / 2).min(hard);
        (Some(soft), Some(hard))
    }
}

#[cfg(test)]
mod tests {
    use super::Go;
    use std::time::Duration;

    #[test]
    fn a_clock_gives_a_share_of_the_time_left() {
        let go = Go::parse(&["wtime", "60000", "btime", "1000", "winc", "0", "binc", "0"]);
        let (soft, hard) = go.deadlines(0, Duration::ZERO);
        assert_eq!(hard, Some(Duration::from_millis(4000)));
        assert_eq!(soft, Some(Duration::from_millis(1000)));
        let (_, hard) = go.deadlines(1, Duration::ZERO);
        assert!(hard.unwrap() <= Duration::from_millis(500));
    }

    #[test]
    fn movetime_is_spent_less_the_overhead() {
        let go = Go::parse(&["movetime", "500"]);
        let deadlines = go.deadlines(0, Duration::from_millis(10));
        let expected = Some(Duration::from_millis(490));
        assert_eq!(deadlines, (expected, expected));
    }

    #[test]
    fn no_clock_no_deadline() {
        let go = Go::parse(&["depth", "3"]);
        assert_eq!(go.depth, Some(3));
        assert_eq!(go.deadlines(0, Duration::ZERO), (None, None));
    }
}
