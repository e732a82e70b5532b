//! Perft speed of the generic engine on FIDE chess, against shakmaty (a hand-written chess move
//! generator) in the same run on the same machine.
//!
//! Each engine runs the same positions and depths; every count is checked against the other
//! engine and against the published figure before any time is reported. Each measurement is the
//! best of several runs (the least disturbed by other work on the machine). Run with
//! `cargo bench --bench perft`.
//!
//! A second table times games that only this engine plays (Takeover Chess, with its compound
//! takeover moves), each count checked against the independent oracle's
//! (`scripts/takeover_oracle.py`), next to FIDE chess measured in the same run.

use shakmaty::{fen::Fen, CastlingMode, Chess};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "start position",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        depth: 5,
        nodes: 4_865_609,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        depth: 4,
        nodes: 4_085_603,
    },
];

/// Games without a reference engine: (game file, depth, nodes counted by the oracle).
const OWN_CASES: &[(&str, u32, u64)] = &[
    ("chess", 5, 4_865_609),
    ("takeover-chess", 5, 1_120_610),
    ("takeover-chess-64", 5, 4_925_777),
];

const RUNS: usize = 5;

fn best_of(mut run: impl FnMut() -> u64, expected: u64) -> Duration {
    (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            let nodes = black_box(run());
            let elapsed = start.elapsed();
            assert_eq!(nodes, expected, "wrong perft count");
            elapsed
        })
        .min()
        .expect("at least one run")
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded = variant_dsl::load_file(&root.join("games/chess.variant")).expect("chess loads");
    println!("| position | depth | nodes | variant (Mnodes/s) | shakmaty (Mnodes/s) | ratio |");
    println!("|---|---|---|---|---|---|");
    for case in CASES {
        let ours = variant_interpreter::open(&loaded.definition, Some(case.fen)).expect("opens");
        let theirs: Chess = case
            .fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        let ours_time = best_of(|| ours.perft(case.depth), case.nodes);
        let theirs_time = best_of(|| shakmaty::perft(&theirs, case.depth), case.nodes);
        let rate = |d: Duration| case.nodes as f64 / d.as_secs_f64() / 1e6;
        println!(
            "| {} | {} | {} | {:.1} | {:.1} | {:.0}% |",
            case.name,
            case.depth,
            case.nodes,
            rate(ours_time),
            rate(theirs_time),
            100.0 * theirs_time.as_secs_f64() / ours_time.as_secs_f64()
        );
    }
    println!();
    println!("| game | depth | nodes | variant (Mnodes/s) |");
    println!("|---|---|---|---|");
    for &(game, depth, nodes) in OWN_CASES {
        let file = root.join("games").join(format!("{game}.variant"));
        let loaded = variant_dsl::load_file(&file).expect("the game loads");
        let session = variant_interpreter::open(&loaded.definition, None).expect("opens");
        let time = best_of(|| session.perft(depth), nodes);
        let rate = nodes as f64 / time.as_secs_f64() / 1e6;
        println!("| {game} | {depth} | {nodes} | {rate:.1} |");
    }
}
