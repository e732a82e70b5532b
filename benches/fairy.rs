//! Perft of every library game that Fairy-Stockfish knows, against Fairy-Stockfish's own `go
//! perft`, in one run on the same machine (issues 27 and 28, "Speed": each shipped game at least
//! as fast as Fairy-Stockfish at the same depth).
//!
//! For each line of `benches/fairy-games.txt` (a game `games/NAME.variant` whose NAME is a
//! Fairy-Stockfish variant, a depth and the node count) both engines count the perft from the
//! start position: ours through [`Session::perft`](variant_interpreter::Session::perft), the
//! engine through UCI (`setoption name UCI_Variant value NAME`, `position startpos`, `go perft
//! DEPTH`, answered by `Nodes searched: N`). Both counts must equal the table's before any time
//! is printed. The two are alternated, each the best of several runs (the least disturbed by the
//! other work on the shared machine), and both are timed by CPU time rather than the wall clock:
//! ours by the thread's CPU time, the engine's by the CPU time of its process's threads read
//! from `/proc/PID/task/*/schedstat` (nanoseconds) before and after the command, so that time
//! spent waiting for a core counts for neither. The ratio printed is our speed over the
//! engine's: above 1 we are faster.
//!
//! The engine is the program named by the environment variable `FAIRY_STOCKFISH` (the one
//! `../shared/tools/build-fairy-stockfish.sh` builds from the pyffish sdist); without it the
//! bench says that it skips and exits 0. The engine must list the game among its
//! `UCI_Variant` values, since it silently keeps its previous variant for a name it does not know.
//!
//! The table of results (markdown) is also written to `target/fairy-bench.md`. Run with `cargo
//! bench --bench fairy`; options after `--`: `--game NAME` (repeatable) and `--runs N` (default 3).

#![forbid(unsafe_code)]

use std::fmt;
use std::hint::black_box;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use variant_interpreter::Session;

/// The table of games, one per line.
const TABLE: &str = include_str!("fairy-games.txt");
/// Runs per engine and game when `--runs` is not given.
const DEFAULT_RUNS: usize = 3;
/// Where the table of results is written, under the package root.
const RESULTS: &str = "target/fairy-bench.md";

/// Why the bench could not run, or a game could not be measured.
#[derive(Debug)]
enum BenchError {
    /// The command line or a line of the table is not understood.
    Usage(String),
    /// A game file does not load or open.
    Load { path: PathBuf, message: String },
    /// The engine could not be started, or did not answer as UCI says.
    Engine(String),
    /// The engine does not know the game's name.
    Unknown(String),
    /// A node count differs from the table's.
    Count {
        who: &'static str,
        expected: u64,
        found: u64,
    },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Usage(message) => write!(f, "{message}"),
            BenchError::Load { path, message } => write!(f, "{}: {message}", path.display()),
            BenchError::Engine(message) => write!(f, "Fairy-Stockfish: {message}"),
            BenchError::Unknown(name) => write!(f, "Fairy-Stockfish has no variant `{name}`"),
            BenchError::Count {
                who,
                expected,
                found,
            } => write!(f, "{who} counted {found}, the table says {expected}"),
        }
    }
}

/// One line of the table.
#[derive(Clone, Debug)]
struct Entry {
    name: String,
    depth: u32,
    nodes: u64,
}

/// The table's lines, in order; `#` starts a comment.
fn parse_table(text: &str) -> Result<Vec<Entry>, BenchError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |what: &str| {
            BenchError::Usage(format!("benches/fairy-games.txt:{}: {what}", index + 1))
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, depth, nodes] = fields[..] else {
            return Err(bad("expected NAME DEPTH NODES"));
        };
        entries.push(Entry {
            name: name.to_string(),
            depth: depth
                .parse()
                .map_err(|_| bad("the depth is not a number"))?,
            nodes: nodes
                .parse()
                .map_err(|_| bad("the nodes are not a number"))?,
        });
    }
    Ok(entries)
}

/// The command line's options.
struct Options {
    games: Vec<String>,
    runs: usize,
}

fn parse_options(args: impl IntoIterator<Item = String>) -> Result<Options, BenchError> {
    let mut options = Options {
        games: Vec::new(),
        runs: DEFAULT_RUNS,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => {}
            "--game" => options.games.extend(args.next()),
            "--runs" => {
                options.runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|n| (1..=100).contains(n))
                    .ok_or_else(|| BenchError::Usage("--runs takes 1 to 100".into()))?;
            }
            other if !other.starts_with('-') => options.games.push(other.to_string()),
            other => return Err(BenchError::Usage(format!("unknown option {other}"))),
        }
    }
    Ok(options)
}

/// The CPU time of this thread (ours is single-threaded).
fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Fairy-Stockfish, driven through UCI.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The names of its `UCI_Variant` option.
    variants: Vec<String>,
}

impl Engine {
    /// Starts the engine and reads its options up to `uciok`.
    fn start(program: &Path) -> Result<Engine, BenchError> {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| BenchError::Engine(format!("{}: {e}", program.display())))?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut engine = Engine {
            child,
            input,
            output,
            variants: Vec::new(),
        };
        engine.send("uci")?;
        let mut variants = Vec::new();
        engine.read_until(|line| {
            if line.starts_with("option name UCI_Variant ") {
                let words: Vec<&str> = line.split_whitespace().collect();
                variants = words
                    .windows(2)
                    .filter(|pair| pair[0] == "var")
                    .map(|pair| pair[1].to_string())
                    .collect();
            }
            line == "uciok"
        })?;
        engine.variants = variants;
        Ok(engine)
    }

    fn send(&mut self, command: &str) -> Result<(), BenchError> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|e| BenchError::Engine(format!("writing `{command}`: {e}")))
    }

    /// Reads lines until `done` accepts one; the engine closing its output is an error.
    fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> Result<(), BenchError> {
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| BenchError::Engine(e.to_string()))?;
            if read == 0 {
                return Err(BenchError::Engine("the engine closed its output".into()));
            }
            if done(line.trim()) {
                return Ok(());
            }
        }
    }

    /// Selects the game and its start position, and waits until the engine is ready.
    fn select(&mut self, name: &str) -> Result<(), BenchError> {
        if !self.variants.iter().any(|v| v == name) {
            return Err(BenchError::Unknown(name.to_string()));
        }
        self.send(&format!("setoption name UCI_Variant value {name}"))?;
        self.send("position startpos")?;
        self.send("isready")?;
        self.read_until(|line| line == "readyok")
    }

    /// The CPU time of the engine's process, all threads; the wall clock's reading where
    /// `/proc` cannot be read (then every figure of the engine is wall time).
    fn cpu_time(&self) -> Duration {
        let tasks = format!("/proc/{}/task", self.child.id());
        let Ok(dir) = std::fs::read_dir(tasks) else {
            return wall_clock();
        };
        let nanos: u64 = dir
            .filter_map(|task| {
                let text = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
                text.split_whitespace().next()?.parse::<u64>().ok()
            })
            .sum();
        Duration::from_nanos(nanos)
    }

    /// `go perft DEPTH` in the selected game: the count and the CPU time it took.
    fn perft(&mut self, depth: u32) -> Result<(u64, Duration), BenchError> {
        let start = self.cpu_time();
        self.send(&format!("go perft {depth}"))?;
        let mut nodes = None;
        self.read_until(|line| {
            nodes = line
                .strip_prefix("Nodes searched:")
                .and_then(|n| n.trim().parse::<u64>().ok());
            nodes.is_some()
        })?;
        let elapsed = self.cpu_time().saturating_sub(start);
        Ok((nodes.expect("read until a count"), elapsed))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// The wall clock since the first call, the engine's clock where `/proc` is missing.
fn wall_clock() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// Loads `games/NAME.variant` and opens it at its start.
fn open(root: &Path, name: &str) -> Result<Box<dyn Session>, BenchError> {
    let games = root.join("games");
    let path = games.join(format!("{name}.variant"));
    let options = variant_dsl::LoadOptions::with_search_path([games]);
    let loaded = variant_dsl::load_file_with(&path, &options).map_err(|f| BenchError::Load {
        path: path.clone(),
        message: f.render(),
    })?;
    variant_interpreter::open(&loaded.definition, None).map_err(|e| BenchError::Load {
        path,
        message: e.to_string(),
    })
}

/// The best times of both engines on one game.
struct Measured {
    ours: Duration,
    theirs: Duration,
}

impl Measured {
    /// Our speed over the engine's (above 1: we are faster).
    fn ratio(&self) -> f64 {
        self.theirs.as_secs_f64() / self.ours.as_secs_f64().max(1e-9)
    }
}

/// Both engines on one game, alternated `runs` times, every count checked.
fn measure(
    root: &Path,
    engine: &mut Engine,
    entry: &Entry,
    runs: usize,
) -> Result<Measured, BenchError> {
    let session = open(root, &entry.name)?;
    engine.select(&entry.name)?;
    let check = |who, found| match found == entry.nodes {
        true => Ok(()),
        false => Err(BenchError::Count {
            who,
            expected: entry.nodes,
            found,
        }),
    };
    let mut best = Measured {
        ours: Duration::MAX,
        theirs: Duration::MAX,
    };
    for _ in 0..runs {
        let start = thread_cpu_time();
        let nodes = black_box(session.perft(entry.depth));
        let ours = thread_cpu_time().saturating_sub(start);
        check("variant", nodes)?;
        let (nodes, theirs) = engine.perft(entry.depth)?;
        check("Fairy-Stockfish", nodes)?;
        best.ours = best.ours.min(ours);
        best.theirs = best.theirs.min(theirs);
    }
    Ok(best)
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode, BenchError> {
    let options = parse_options(std::env::args().skip(1))?;
    let Some(program) = std::env::var_os("FAIRY_STOCKFISH") else {
        println!("fairy: skipped, FAIRY_STOCKFISH does not name a Fairy-Stockfish engine");
        return Ok(ExitCode::SUCCESS);
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let entries: Vec<Entry> = parse_table(TABLE)?
        .into_iter()
        .filter(|e| options.games.is_empty() || options.games.contains(&e.name))
        .collect();
    let mut engine = Engine::start(Path::new(&program))?;
    let header = "| game | depth | nodes | variant (s) | Fairy-Stockfish (s) | ratio |\n\
                  |---|---|---|---|---|---|";
    println!(
        "perft from the start, best of {} runs each, CPU time; ratio = our speed / Fairy-Stockfish's",
        options.runs
    );
    println!("{header}");
    let mut rows = Vec::new();
    let mut failed = false;
    for entry in &entries {
        let row = match measure(root, &mut engine, entry, options.runs) {
            Ok(m) => format!(
                "| {} | {} | {} | {:.3} | {:.3} | {:.2} |",
                entry.name,
                entry.depth,
                entry.nodes,
                m.ours.as_secs_f64(),
                m.theirs.as_secs_f64(),
                m.ratio()
            ),
            Err(error) => {
                failed = true;
                format!(
                    "| {} | {} | {} | error: {error} | | |",
                    entry.name, entry.depth, entry.nodes
                )
            }
        };
        println!("{row}");
        rows.push(row);
    }
    let results = root.join(RESULTS);
    let text = format!("{header}\n{}\n", rows.join("\n"));
    if let Err(e) = std::fs::write(&results, text) {
        eprintln!("fairy: could not write {}: {e}", results.display());
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
