//! The speed suite: every game in `games/` and every test variant in `tests/variants/`, measured
//! the same way, so that a change to the interpreter is judged on all games rather than on one.
//!
//! Issue 26 set the rule this suite decides: no game more than 5% slower than at the commit
//! before the issue (`b1bc5d4`), except Cheversi's perft, which may fall as far as 15% of the
//! hand-written Cheversi's speed. For each game it reports:
//!
//! - **perft**: the leaf count at a fixed depth from the start position, through
//!   [`Session::perft`](variant_interpreter::Session::perft);
//! - **playouts**: seeded random games per second through the session's public moves
//!   ([`Session::legal_moves`](variant_interpreter::Session::legal_moves), sorted so that the
//!   games played do not depend on the order in which the generator lists moves, then
//!   [`Session::play`](variant_interpreter::Session::play)), a fixed number of games, each
//!   stopped after a fixed number of plies if it has not ended; the total of plies played is
//!   checked, so both commits of a comparison are known to play the same games;
//!
//! and, each as a ratio measured in the same run (the two alternated, best of each):
//!
//! - FIDE chess perft against shakmaty (start position depth 5 and Kiwipete depth 4);
//! - Cheversi perft and playouts against the hand-written reference (`benches/reference/`).
//!
//! The table of games (file, perft depth and node count, playouts, ply bound and plies played)
//! is data: `benches/suite-games.txt`, compiled in. Every count is checked on every run before
//! any time is printed; a wrong count is reported as an error for that measurement, the others
//! still run, and the suite exits non-zero. Each measurement is the best of several runs (the
//! least disturbed by the other work on the machine), timed by the thread's CPU time rather
//! than the wall clock (see [`cpu_time`]).
//!
//! The suite uses only the interpreter's most stable public API (`variant_dsl::load_file_with`,
//! `variant_interpreter::open` and the `Session` trait's `perft`, `legal_moves`, `play`, `undo`
//! and `outcome`), because `scripts/bench-compare.sh` copies this file and its data into a
//! checkout of an older commit and builds it there: the same instrument measures both commits.
//!
//! `scripts/bench-compare.sh BASE [HEAD]` (HEAD defaults to the working tree) is how the rule
//! is decided: it builds this suite at both commits, runs the two alternately several rounds
//! (`--json`), and `scripts/bench_compare.py` prints per game and measure the speed ratio
//! HEAD/BASE of the best figures with the spread of the rounds, flags a measure more than 5%
//! slower (Cheversi's perft: below 15% of the hand-written speed in HEAD's runs) and exits
//! non-zero if any is. Playouts go through the session's string moves rather than the
//! interpreter's internal loop (`benches/playouts.rs`), which the refactoring will change: they
//! include the session's own work (move text, the end checked before each move), the same at
//! both commits.
//!
//! Run with `cargo bench --bench suite`. Options, after `--`:
//!
//! - `--game NAME` (repeatable; a bare `NAME` too): only these games (a file's name without
//!   `.variant`);
//! - `--json`: one JSON object per line and measurement, for `scripts/bench-compare.sh`;
//! - `--runs N`: runs per measurement (default 5);
//! - `--skip-missing`: a listed game whose file is absent is reported as skipped, not as an
//!   error (an older commit may not have it);
//! - `--list`: the games and their workloads, without measuring;
//! - `--calibrate`: for each game (listed with any numbers), the perft depth and the number of
//!   playouts whose run takes about a quarter of a second of CPU time, with their counts, as lines
//!   for the table (the counts are then the engine's: check them against `tests/perft/`).

#![forbid(unsafe_code)]

#[path = "reference/cheversi.rs"]
mod cheversi;

use serde_json::json;
use shakmaty::{fen::Fen, CastlingMode, Chess};
use std::fmt;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
use variant_interpreter::Session;

/// The table of games, one per line.
const TABLE: &str = include_str!("suite-games.txt");
/// The table's name, for messages.
const TABLE_NAME: &str = "benches/suite-games.txt";
/// The seed of every run's playouts.
const SEED: u64 = 2026;
/// Runs per measurement when `--runs` is not given.
const DEFAULT_RUNS: usize = 5;
/// The most runs `--runs` accepts.
const MAX_RUNS: usize = 100;

/// FIDE chess positions timed against shakmaty: (name, FEN, depth, published leaf count).
const SHAKMATY_CASES: &[(&str, &str, u32, u64)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
        4_865_609,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
        4_085_603,
    ),
];
/// Cheversi perft against the hand-written reference: the depth and its leaf count
/// (`tests/perft/cheversi.perft`).
const CHEVERSI_DEPTH: u32 = 5;
const CHEVERSI_NODES: u64 = 75_786_032;
/// Cheversi playouts against the reference: the reference's games per run (the engine plays
/// the table's number), many more as it is much faster; every Cheversi game lasts 16 plies.
const CHEVERSI_REFERENCE_GAMES: u64 = 200_000;
const CHEVERSI_PLIES: u64 = 16;

/// Why the suite could not run or a measurement failed.
#[derive(Debug)]
enum SuiteError {
    /// The command line is not understood.
    Usage(String),
    /// A line of the table is malformed.
    Table { line: usize, message: String },
    /// A game file does not load or open.
    Load { path: PathBuf, message: String },
    /// A count differs from the table's.
    Count {
        what: String,
        expected: u64,
        found: u64,
    },
    /// The session refused a move it listed as legal.
    Play { game: String, message: String },
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuiteError::Usage(message) => write!(f, "{message}"),
            SuiteError::Table { line, message } => write!(f, "{TABLE_NAME}:{line}: {message}"),
            SuiteError::Load { path, message } => write!(f, "{}: {message}", path.display()),
            SuiteError::Count {
                what,
                expected,
                found,
            } => write!(f, "{what}: counted {found}, the table says {expected}"),
            SuiteError::Play { game, message } => write!(f, "{game}: a listed move: {message}"),
        }
    }
}

/// One line of the table: a game and its workloads.
#[derive(Clone, Debug)]
struct Entry {
    /// The file's name without `.variant`.
    name: String,
    /// The file, relative to the package root.
    path: String,
    perft_depth: u32,
    perft_nodes: u64,
    playouts: u64,
    max_plies: u64,
    /// Plies played by all the playouts of one run.
    plies: u64,
}

/// Reads the table: `PATH DEPTH NODES PLAYOUTS MAX_PLIES PLIES` per line, `#` comments.
fn parse_table(text: &str) -> Result<Vec<Entry>, SuiteError> {
    let mut entries: Vec<Entry> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let entry = parse_entry(line).map_err(|message| SuiteError::Table {
            line: index + 1,
            message,
        })?;
        if entries.iter().any(|e| e.name == entry.name) {
            return Err(SuiteError::Table {
                line: index + 1,
                message: format!("`{}` is listed twice", entry.name),
            });
        }
        entries.push(entry);
    }
    Ok(entries)
}

/// One non-empty line of the table.
fn parse_entry(line: &str) -> Result<Entry, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [path, depth, nodes, playouts, max_plies, plies] = fields[..] else {
        return Err(format!(
            "expected 6 fields (path, perft depth, nodes, playouts, max plies, plies), found {}",
            fields.len()
        ));
    };
    let number = |field: &str, what: &str| -> Result<u64, String> {
        field
            .replace('_', "")
            .parse()
            .map_err(|_| format!("{what} `{field}` is not a number"))
    };
    let name = Path::new(path)
        .file_stem()
        .filter(|_| path.ends_with(".variant"))
        .map(|s| s.to_string_lossy().into_owned())
        .ok_or_else(|| format!("`{path}` is not a .variant file"))?;
    let perft_depth = number(depth, "depth")?;
    if !(1..=12).contains(&perft_depth) {
        return Err(format!("depth {perft_depth} is not within 1-12"));
    }
    Ok(Entry {
        name,
        path: path.to_string(),
        perft_depth: perft_depth as u32,
        perft_nodes: number(nodes, "nodes")?,
        playouts: number(playouts, "playouts")?,
        max_plies: number(max_plies, "max plies")?,
        plies: number(plies, "plies")?,
    })
}

/// What the command line asks.
#[derive(Debug, Default)]
struct Options {
    games: Vec<String>,
    json: bool,
    runs: usize,
    skip_missing: bool,
    list: bool,
    calibrate: bool,
}

const USAGE: &str = "usage: cargo bench --bench suite -- [--game NAME]... [NAME]... [--json] \
[--runs N] [--skip-missing] [--list] [--calibrate]";

fn parse_options(args: impl IntoIterator<Item = String>) -> Result<Options, SuiteError> {
    let mut options = Options {
        runs: DEFAULT_RUNS,
        ..Options::default()
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // Cargo passes `--bench` to every benchmark it runs.
            "--bench" => {}
            "--json" => options.json = true,
            "--skip-missing" => options.skip_missing = true,
            "--list" => options.list = true,
            "--calibrate" => options.calibrate = true,
            "--game" => {
                let name = args
                    .next()
                    .ok_or_else(|| SuiteError::Usage("--game needs a game's name".into()))?;
                options.games.push(name);
            }
            "--runs" => {
                let value = args.next().unwrap_or_default();
                options.runs = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_RUNS).contains(n))
                    .ok_or_else(|| {
                        SuiteError::Usage(format!(
                            "--runs needs a number from 1 to {MAX_RUNS}, not `{value}`"
                        ))
                    })?;
            }
            flag if flag.starts_with('-') => {
                return Err(SuiteError::Usage(format!("unknown option `{flag}`")))
            }
            name => options.games.push(name.to_string()),
        }
    }
    Ok(options)
}

/// How measurements are printed: a Markdown table or JSON lines.
struct Report {
    json: bool,
    errors: usize,
}

impl Report {
    fn header(&self, runs: usize) {
        if !self.json {
            println!("Best of {runs} runs per measurement.");
            println!();
            println!("| game | measure | work | best CPU time | speed | compared |");
            println!("|---|---|---|---|---|---|");
        }
    }

    /// A measurement of one engine alone.
    fn rate(&self, entry: &Entry, measure: &str, work: Work, best: Duration, runs: usize) {
        let rate = work.amount as f64 / best.as_secs_f64();
        if self.json {
            let mut line = json!({
                "game": entry.name, "path": entry.path, "measure": measure,
                "work": work.amount, "unit": work.unit, "seconds": best.as_secs_f64(),
                "rate": rate, "runs": runs,
            });
            if let Some(depth) = work.depth {
                line["depth"] = json!(depth);
            }
            if let Some(plies) = work.plies {
                line["plies"] = json!(plies);
            }
            println!("{line}");
        } else {
            println!(
                "| {} | {measure}{} | {} {} | {} | {} {}/s | |",
                entry.name,
                work.depth.map(|d| format!(" {d}")).unwrap_or_default(),
                work.amount,
                work.unit,
                seconds(best),
                human_rate(rate),
                work.unit,
            );
        }
    }

    /// A measurement of the engine against a reference in the same run.
    fn ratio(&self, game: &str, measure: &str, work: Work, pair: Pair, runs: usize) {
        let engine = work.amount as f64 / pair.engine.as_secs_f64();
        let reference = pair.reference_work as f64 / pair.reference.as_secs_f64();
        let ratio = engine / reference;
        if self.json {
            println!(
                "{}",
                json!({
                    "game": game, "measure": measure, "work": work.amount, "unit": work.unit,
                    "seconds": pair.engine.as_secs_f64(), "rate": engine,
                    "reference_work": pair.reference_work,
                    "reference_seconds": pair.reference.as_secs_f64(),
                    "reference_rate": reference, "ratio": ratio, "runs": runs,
                })
            );
        } else {
            println!(
                "| {game} | {measure} | {} {} | {} (reference {}) | {} {}/s (reference {}) | {:.2}% of the reference's speed |",
                work.amount,
                work.unit,
                seconds(pair.engine),
                seconds(pair.reference),
                human_rate(engine),
                work.unit,
                human_rate(reference),
                100.0 * ratio,
            );
        }
    }

    fn skipped(&self, entry: &Entry, why: &str) {
        if self.json {
            println!(
                "{}",
                json!({"game": entry.name, "path": entry.path, "skipped": why})
            );
        } else {
            println!("| {} | skipped: {why} | | | | |", entry.name);
        }
    }

    fn error(&mut self, game: &str, measure: &str, error: &SuiteError) {
        self.errors += 1;
        if self.json {
            println!(
                "{}",
                json!({"game": game, "measure": measure, "error": error.to_string()})
            );
        }
        eprintln!("error: {game} {measure}: {error}");
    }
}

/// What one run does: an amount of `unit`s, at a perft depth or playing some plies.
#[derive(Clone, Copy)]
struct Work {
    amount: u64,
    unit: &'static str,
    depth: Option<u32>,
    plies: Option<u64>,
}

/// The best times of an engine and a reference timed alternately.
#[derive(Clone, Copy)]
struct Pair {
    engine: Duration,
    reference: Duration,
    reference_work: u64,
}

fn seconds(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn human_rate(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.2} k", rate / 1e3)
    } else {
        format!("{rate:.1}")
    }
}

/// The CPU time this thread has used so far. Every time in the suite is CPU time: on a
/// machine shared with other work the wall clock also counts the time the thread waits for a
/// core, which varied several-fold between runs here (2 cores, load average above 10), while
/// the CPU time varies with what the machine does only through caches and clock speed.
fn cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// One timed run of `run`, whose result must be `expected`.
fn timed(
    run: &mut impl FnMut() -> Result<u64, SuiteError>,
    what: &str,
    expected: u64,
) -> Result<Duration, SuiteError> {
    let start = cpu_time();
    let found = black_box(run()?);
    let elapsed = cpu_time().saturating_sub(start);
    if found != expected {
        return Err(SuiteError::Count {
            what: what.to_string(),
            expected,
            found,
        });
    }
    Ok(elapsed)
}

/// The best of `runs` timed runs, each checked.
fn best_of(
    runs: usize,
    what: &str,
    expected: u64,
    mut run: impl FnMut() -> Result<u64, SuiteError>,
) -> Result<Duration, SuiteError> {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        best = best.min(timed(&mut run, what, expected)?);
    }
    Ok(best)
}

/// The best of `runs` runs of each, the engine's and the reference's alternated (so that the
/// machine's drift affects both alike), each checked.
fn best_of_pair(
    runs: usize,
    what: &str,
    (expected, mut engine): (u64, impl FnMut() -> Result<u64, SuiteError>),
    (reference_expected, mut reference): (u64, impl FnMut() -> Result<u64, SuiteError>),
) -> Result<Pair, SuiteError> {
    let mut pair = Pair {
        engine: Duration::MAX,
        reference: Duration::MAX,
        reference_work: reference_expected,
    };
    let reference_what = format!("{what} (reference)");
    for _ in 0..runs {
        pair.engine = pair.engine.min(timed(&mut engine, what, expected)?);
        pair.reference =
            pair.reference
                .min(timed(&mut reference, &reference_what, reference_expected)?);
    }
    Ok(pair)
}

/// SplitMix64: every run plays the same games.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Plays `games` random games from the session's position, each to its end or `max_plies`,
/// taking the session back to its start after each; returns the plies played.
#[inline(never)]
fn playouts(
    session: &mut dyn Session,
    name: &str,
    games: u64,
    max_plies: u64,
) -> Result<u64, SuiteError> {
    let mut rng = SplitMix(SEED);
    let mut plies = 0;
    for _ in 0..games {
        let mut played = 0;
        while played < max_plies {
            // Empty once the game is over.
            let mut moves = session.legal_moves();
            if moves.is_empty() {
                break;
            }
            moves.sort_unstable();
            let chosen = &moves[rng.below(moves.len())];
            session.play(chosen).map_err(|e| SuiteError::Play {
                game: name.to_string(),
                message: format!("{chosen}: {e}"),
            })?;
            played += 1;
        }
        black_box(session.outcome());
        while session.undo().is_some() {}
        plies += played;
    }
    Ok(plies)
}

/// The engine's perft of one game: a function of its own, never inlined, so that a profile
/// (scripts/bench-compare.sh --instructions reads callgrind's inclusive counts) finds it.
#[inline(never)]
fn engine_perft(session: &dyn Session, depth: u32) -> u64 {
    session.perft(depth)
}

/// Loads a game of the table and opens it at its start.
fn open(root: &Path, entry: &Entry) -> Result<Box<dyn Session>, SuiteError> {
    let path = root.join(&entry.path);
    let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
    let loaded = variant_dsl::load_file_with(&path, &options).map_err(|f| SuiteError::Load {
        path: path.clone(),
        message: f.render(),
    })?;
    variant_interpreter::open(&loaded.definition, None).map_err(|e| SuiteError::Load {
        path,
        message: e.to_string(),
    })
}

/// Perft and playouts of one game.
fn measure_game(root: &Path, entry: &Entry, options: &Options, report: &mut Report) {
    let mut session = match open(root, entry) {
        Ok(session) => session,
        Err(error) => return report.error(&entry.name, "open", &error),
    };
    let what = format!("{} perft {}", entry.name, entry.perft_depth);
    match best_of(options.runs, &what, entry.perft_nodes, || {
        Ok(engine_perft(&*session, entry.perft_depth))
    }) {
        Ok(best) => {
            let work = Work {
                amount: entry.perft_nodes,
                unit: "nodes",
                depth: Some(entry.perft_depth),
                plies: None,
            };
            report.rate(entry, "perft", work, best, options.runs);
        }
        Err(error) => report.error(&entry.name, "perft", &error),
    }
    let what = format!(
        "{} plies of {} playouts (at most {} plies each)",
        entry.name, entry.playouts, entry.max_plies
    );
    match best_of(options.runs, &what, entry.plies, || {
        playouts(&mut *session, &entry.name, entry.playouts, entry.max_plies)
    }) {
        Ok(best) => {
            let work = Work {
                amount: entry.playouts,
                unit: "playouts",
                depth: None,
                plies: Some(entry.plies),
            };
            report.rate(entry, "playouts", work, best, options.runs);
        }
        Err(error) => report.error(&entry.name, "playouts", &error),
    }
}

/// FIDE chess perft against shakmaty, alternated.
fn measure_shakmaty(root: &Path, entry: &Entry, options: &Options, report: &mut Report) {
    let result = (|| {
        let chess =
            variant_dsl::load_file(&root.join(&entry.path)).map_err(|f| SuiteError::Load {
                path: root.join(&entry.path),
                message: f.render(),
            })?;
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for &(name, fen, depth, nodes) in SHAKMATY_CASES {
            let session = variant_interpreter::open(&chess.definition, Some(fen)).map_err(|e| {
                SuiteError::Load {
                    path: root.join(&entry.path),
                    message: format!("{name}: {e}"),
                }
            })?;
            ours.push((session, depth, nodes));
            let position: Chess = fen
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                .ok_or_else(|| SuiteError::Usage(format!("shakmaty refuses {name}")))?;
            theirs.push((position, depth));
        }
        let nodes: u64 = SHAKMATY_CASES.iter().map(|case| case.3).sum();
        let pair = best_of_pair(
            options.runs,
            "chess perft against shakmaty",
            (nodes, || {
                Ok(ours
                    .iter()
                    .map(|(session, depth, _)| session.perft(*depth))
                    .sum())
            }),
            (nodes, || {
                Ok(theirs
                    .iter()
                    .map(|(position, depth)| shakmaty::perft(position, *depth))
                    .sum())
            }),
        )?;
        Ok((nodes, pair))
    })();
    match result {
        Ok((nodes, pair)) => {
            let work = Work {
                amount: nodes,
                unit: "nodes",
                depth: None,
                plies: None,
            };
            report.ratio("chess", "perft-vs-shakmaty", work, pair, options.runs);
        }
        Err(error) => report.error("chess", "perft-vs-shakmaty", &error),
    }
}

/// Cheversi perft and playouts against the hand-written reference, alternated.
fn measure_cheversi(root: &Path, entry: &Entry, options: &Options, report: &mut Report) {
    let mut session = match open(root, entry) {
        Ok(session) => session,
        Err(error) => return report.error(&entry.name, "open", &error),
    };
    let perft = best_of_pair(
        options.runs,
        "cheversi perft against the hand-written reference",
        (CHEVERSI_NODES, || Ok(session.perft(CHEVERSI_DEPTH))),
        (CHEVERSI_NODES, || Ok(cheversi::perft(CHEVERSI_DEPTH))),
    );
    match perft {
        Ok(pair) => {
            let work = Work {
                amount: CHEVERSI_NODES,
                unit: "nodes",
                depth: Some(CHEVERSI_DEPTH),
                plies: None,
            };
            report.ratio(
                &entry.name,
                "perft-vs-hand-written",
                work,
                pair,
                options.runs,
            );
        }
        Err(error) => report.error(&entry.name, "perft-vs-hand-written", &error),
    }
    let games = best_of_pair(
        options.runs,
        "cheversi playout plies against the hand-written reference",
        (entry.plies, || {
            playouts(&mut *session, &entry.name, entry.playouts, entry.max_plies)
        }),
        (CHEVERSI_REFERENCE_GAMES * CHEVERSI_PLIES, || {
            let mut rng = cheversi::SplitMix(SEED);
            Ok((0..CHEVERSI_REFERENCE_GAMES)
                .map(|_| {
                    let (plies, white, black) = cheversi::playout(&mut rng);
                    black_box((white, black));
                    u64::from(plies)
                })
                .sum())
        }),
    );
    match games {
        Ok(mut pair) => {
            pair.reference_work = CHEVERSI_REFERENCE_GAMES;
            let work = Work {
                amount: entry.playouts,
                unit: "playouts",
                depth: None,
                plies: Some(entry.plies),
            };
            report.ratio(
                &entry.name,
                "playouts-vs-hand-written",
                work,
                pair,
                options.runs,
            );
        }
        Err(error) => report.error(&entry.name, "playouts-vs-hand-written", &error),
    }
}

/// The games of the table that the options select, in the table's order.
fn selected(table: &[Entry], options: &Options) -> Result<Vec<Entry>, SuiteError> {
    if let Some(unknown) = options
        .games
        .iter()
        .find(|name| !table.iter().any(|e| &e.name == *name))
    {
        let names: Vec<&str> = table.iter().map(|e| e.name.as_str()).collect();
        return Err(SuiteError::Usage(format!(
            "no game `{unknown}` in {TABLE_NAME}; the games are: {}",
            names.join(", ")
        )));
    }
    Ok(table
        .iter()
        .filter(|e| options.games.is_empty() || options.games.contains(&e.name))
        .cloned()
        .collect())
}

/// Game files of `games/` and `tests/variants/` that the table does not list.
fn unlisted(root: &Path, table: &[Entry]) -> Vec<String> {
    let mut missing = Vec::new();
    for dir in ["games", "tests/variants"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if let Some(name) = name.filter(|n| n.ends_with(".variant")) {
                let relative = format!("{dir}/{name}");
                if !table.iter().any(|e| e.path == relative) {
                    missing.push(relative);
                }
            }
        }
    }
    missing.sort();
    missing
}

/// The time one calibrated run aims at.
const CALIBRATION_TARGET: Duration = Duration::from_millis(250);
/// A perft depth whose run is estimated to take longer than this is not tried.
const CALIBRATION_LIMIT: Duration = Duration::from_secs(3);

/// Prints a table line per game whose runs take about [`CALIBRATION_TARGET`], with the counts
/// found (not checked) and the times.
fn calibrate(root: &Path, games: &[Entry]) -> Result<usize, SuiteError> {
    for entry in games {
        let mut session = open(root, entry)?;
        let (mut depth, mut nodes, mut time) = (0, 1u64, Duration::ZERO);
        while time < CALIBRATION_TARGET && depth < 12 {
            let start = cpu_time();
            let next = session.perft(depth + 1);
            let elapsed = cpu_time().saturating_sub(start);
            let growth = next as f64 / nodes.max(1) as f64;
            (depth, nodes, time) = (depth + 1, next, elapsed);
            if time.mul_f64(growth.max(1.0)) > CALIBRATION_LIMIT {
                break;
            }
        }
        let (mut games, mut plies, mut playout_time) = (1, 0, Duration::ZERO);
        while playout_time < CALIBRATION_TARGET {
            games *= 2;
            let start = cpu_time();
            plies = playouts(&mut *session, &entry.name, games, entry.max_plies)?;
            playout_time = cpu_time().saturating_sub(start);
        }
        println!(
            "{:<48} {depth:>2} {nodes:>12} {games:>6} {:>5} {plies:>8}  # {} perft, {} playouts",
            entry.path,
            entry.max_plies,
            seconds(time),
            seconds(playout_time),
        );
    }
    Ok(0)
}

fn run() -> Result<usize, SuiteError> {
    let options = parse_options(std::env::args().skip(1))?;
    let table = parse_table(TABLE)?;
    let games = selected(&table, &options)?;
    if options.list {
        println!("| game | perft depth | nodes | playouts | max plies | plies |");
        println!("|---|---|---|---|---|---|");
        for e in &games {
            println!(
                "| {} | {} | {} | {} | {} | {} |",
                e.path, e.perft_depth, e.perft_nodes, e.playouts, e.max_plies, e.plies
            );
        }
        return Ok(0);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if options.calibrate {
        return calibrate(root, &games);
    }
    for file in unlisted(root, &table) {
        eprintln!("warning: {file} is not measured: it has no line in {TABLE_NAME}");
    }
    let mut report = Report {
        json: options.json,
        errors: 0,
    };
    report.header(options.runs);
    for entry in &games {
        if !root.join(&entry.path).is_file() {
            if options.skip_missing {
                report.skipped(entry, "no such file at this commit");
            } else {
                let error = SuiteError::Load {
                    path: root.join(&entry.path),
                    message: "no such file (--skip-missing skips it)".into(),
                };
                report.error(&entry.name, "open", &error);
            }
            continue;
        }
        measure_game(root, entry, &options, &mut report);
        match entry.name.as_str() {
            "chess" => measure_shakmaty(root, entry, &options, &mut report),
            "cheversi" => measure_cheversi(root, entry, &options, &mut report),
            _ => {}
        }
    }
    Ok(report.errors)
}

fn main() -> ExitCode {
    match run() {
        Ok(0) => ExitCode::SUCCESS,
        Ok(errors) => {
            eprintln!("error: {errors} measurement(s) failed");
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("error: {error}");
            if matches!(error, SuiteError::Usage(_)) {
                eprintln!("{USAGE}");
            }
            ExitCode::from(2)
        }
    }
}
