//! The data of `cargo bench --bench fairy` (`benches/fairy-games.txt`), checked without timing
//! anything: the table names every library game that Fairy-Stockfish knows, once, and its counts
//! are Fairy-Stockfish's where that is cheap, and ours agree with Fairy-Stockfish's at a small
//! depth through the real binary. The engine is `FAIRY_STOCKFISH` (or where
//! `build-fairy-stockfish.sh` puts it); without it the test says it was skipped (outside CI only).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The table, as (name, depth, nodes).
fn table() -> Vec<(String, u32, u64)> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fairy-games.txt"),
    )
    .expect("benches/fairy-games.txt is readable");
    text.lines()
        .map(|line| line.split('#').next().unwrap_or("").trim())
        .filter(|line| !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "NAME DEPTH NODES: {line}");
            (
                fields[0].to_string(),
                fields[1].parse().expect("a depth"),
                fields[2].parse().expect("a node count"),
            )
        })
        .collect()
}

/// Fairy-Stockfish through UCI.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Option<Engine> {
        let Some(program) = common::fairy_stockfish() else {
            eprintln!("SKIPPED: Fairy-Stockfish is not built (FAIRY_STOCKFISH); nothing checked");
            assert!(std::env::var_os("CI").is_none(), "CI must have the engine");
            return None;
        };
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Some(Engine {
            child,
            input,
            output,
        })
    }

    /// Sends `command`, then returns the first line that `wanted` accepts.
    fn ask(&mut self, command: &str, wanted: impl Fn(&str) -> bool) -> String {
        writeln!(self.input, "{command}").expect("the engine reads");
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.output.read_line(&mut line).expect("readable") > 0,
                "engine quit"
            );
            if wanted(line.trim()) {
                return line.trim().to_string();
            }
        }
    }

    /// The names of the engine's `UCI_Variant` option.
    fn variants(&mut self) -> Vec<String> {
        let line = self.ask("uci", |l| l.starts_with("option name UCI_Variant "));
        self.ask("isready", |l| l == "readyok");
        let words: Vec<&str> = line.split_whitespace().collect();
        words
            .windows(2)
            .filter(|pair| pair[0] == "var")
            .map(|pair| pair[1].to_string())
            .collect()
    }

    /// `go perft DEPTH` from the start of `name`.
    fn perft(&mut self, name: &str, depth: u32) -> u64 {
        let select = format!("setoption name UCI_Variant value {name}\nposition startpos");
        writeln!(self.input, "{select}").expect("the engine reads");
        let line = self.ask(&format!("go perft {depth}"), |l| {
            l.starts_with("Nodes searched:")
        });
        line["Nodes searched:".len()..]
            .trim()
            .parse()
            .expect("a count")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn the_table_names_every_library_game_that_fairy_stockfish_knows_once() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    let known = engine.variants();
    assert!(known.contains(&"shogi".to_string()), "{known:?}");
    let names: Vec<String> = table().into_iter().map(|(name, _, _)| name).collect();
    for game in common::games() {
        let listed = names.iter().filter(|n| **n == game).count();
        if known.contains(&game) {
            assert_eq!(
                listed, 1,
                "games/{game}.variant is Fairy-Stockfish's `{game}`: benches/fairy-games.txt \
                 must list it once"
            );
        }
    }
    for name in &names {
        assert!(
            known.contains(name),
            "Fairy-Stockfish has no variant `{name}`"
        );
        assert!(
            common::games().contains(name),
            "benches/fairy-games.txt: no games/{name}.variant"
        );
    }
}

/// The table's counts up to this many nodes are asked of the engine (each well under a second).
const CHEAP_NODES: u64 = 1_200_000;

#[test]
fn the_tables_counts_are_fairy_stockfishs_and_ours_agree_at_depth_3() {
    let Some(mut engine) = Engine::start() else {
        return;
    };
    engine.variants();
    let mut checked = 0;
    for (name, depth, nodes) in table() {
        if nodes <= CHEAP_NODES {
            assert_eq!(engine.perft(&name, depth), nodes, "{name} perft {depth}");
            checked += 1;
        }
        let theirs = engine.perft(&name, 3);
        let output = common::variant(&["perft", &format!("games/{name}.variant"), "--depth", "3"]);
        assert!(output.status.success(), "{}", common::stderr(&output));
        let ours = common::stdout(&output);
        assert!(
            ours.trim_end()
                .ends_with(&format!("Nodes searched: {theirs}")),
            "{name} perft 3: Fairy-Stockfish {theirs}, ours {ours}"
        );
    }
    assert!(
        checked >= 8,
        "only {checked} counts were cheap enough to check"
    );
}
