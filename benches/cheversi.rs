//! Cheversi speed: the generic engine on `games/cheversi.variant` against a hand-written
//! bitboard Cheversi (`benches/reference/cheversi.rs`), in the same run on the same machine.
//!
//! Two measures, each the best of 5 runs, the engine's and the reference's alternated (this
//! machine's speed drifts, and two series of runs one after the other can drift apart): perft
//! from the empty start, and random playouts to the end (every ply generates the legal
//! placements, counts them and takes one at random by its index, without listing them, as
//! both implementations do; the final position is scored). Every node count is checked against the other
//! implementation and against the known counts before any time is reported.
//!
//! Run with `cargo bench --bench cheversi`. The engine's perft depth is `CHEVERSI_BENCH_DEPTH`
//! (default 5, under a second for the engine); an engine perft slower than 10 s is run once, not
//! five times. The hand-written perft is also timed at depth 5 whatever the engine's depth, and
//! at the engine's depth with every leaf placement played (no bulk counting at the last ply).

#[path = "reference/cheversi.rs"]
mod cheversi;

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use variant_interpreter::action_set::ActionSet;
use variant_interpreter::outcome::status_into_set;
use variant_interpreter::score::scores;
use variant_interpreter::Game;

/// Perft from the start at depths 1 to 5 (`tests/perft/cheversi.perft`; depth 5 as counted by
/// the engine and by the hand-written reference).
const KNOWN: [u64; 5] = [64, 1_680, 50_232, 1_805_208, 75_786_032];

const RUNS: usize = 5;
/// An engine measurement slower than this is not repeated.
const SLOW: Duration = Duration::from_secs(10);
/// Playouts per run: the engine's (as in `benches/playouts.rs`) and the reference's, more, so
/// that each run lasts long enough to time (about 0.1 s each).
const ENGINE_GAMES: usize = 20_000;
const REFERENCE_GAMES: usize = 200_000;

/// Times `run` up to [`RUNS`] times (once if `once_if_slow` and the first run is slower than
/// [`SLOW`]), checking its result each time; returns the best time and the number of runs.
fn best_of(mut run: impl FnMut() -> u64, expected: u64, once_if_slow: bool) -> (Duration, usize) {
    let mut best = Duration::MAX;
    for runs in 1..=RUNS {
        let start = Instant::now();
        let result = black_box(run());
        let elapsed = start.elapsed();
        assert_eq!(result, expected, "wrong count");
        best = best.min(elapsed);
        if once_if_slow && elapsed > SLOW {
            return (best, runs);
        }
    }
    (best, RUNS)
}

/// Times `engine` and `reference` alternately, up to [`RUNS`] times each (once each if
/// `once_if_slow` and the engine's first run is slower than [`SLOW`]), checking every result;
/// returns the best time of each and the number of runs. Alternating keeps the ratio of the
/// two from following the machine's drift between two series of runs.
fn best_of_pair(
    mut engine: impl FnMut() -> u64,
    engine_expected: u64,
    mut reference: impl FnMut() -> u64,
    reference_expected: u64,
    once_if_slow: bool,
) -> (Duration, Duration, usize) {
    let (mut engine_best, mut reference_best) = (Duration::MAX, Duration::MAX);
    for runs in 1..=RUNS {
        let (engine_time, slow) = {
            let (time, _) = best_of_once(&mut engine, engine_expected);
            (time, time > SLOW)
        };
        let (reference_time, _) = best_of_once(&mut reference, reference_expected);
        engine_best = engine_best.min(engine_time);
        reference_best = reference_best.min(reference_time);
        if once_if_slow && slow {
            return (engine_best, reference_best, runs);
        }
    }
    (engine_best, reference_best, RUNS)
}

/// One timed run of `run`, its result checked.
fn best_of_once(run: &mut impl FnMut() -> u64, expected: u64) -> (Duration, u64) {
    let start = Instant::now();
    let result = black_box(run());
    let elapsed = start.elapsed();
    assert_eq!(result, expected, "wrong count");
    (elapsed, result)
}

/// One random game to its end; returns the number of plies. The loop of `benches/playouts.rs`,
/// but with the legal actions as a set ([`ActionSet`]) rather than a list: the hand-written
/// playout it is measured against lists none either.
fn engine_playout(game: &Game<u64>, rng: &mut cheversi::SplitMix) -> usize {
    let rules = game.rules();
    let mut position = *game.position();
    let mut hashes = Vec::new();
    let mut plies = 0;
    // One set of legal actions for the whole game, refilled at every ply: counted, and one
    // taken by its index, as the hand-written playout does, without a list of every action.
    let mut actions = ActionSet::new();
    // The final scores as the end rule computed them (`by score`), else scored here.
    let outcome = loop {
        if let Some(outcome) = status_into_set(rules, &position, &hashes, &mut actions) {
            break outcome;
        }
        let chosen = actions
            .get(rng.below(actions.len()))
            .expect("an index below the count");
        hashes.push(position.hash());
        position.play_legal(rules, chosen);
        plies += 1;
    };
    black_box(outcome.scores.or_else(|| scores(rules, &position)));
    plies
}

fn seconds(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{:.2} ms", d.as_secs_f64() * 1e3)
    } else {
        format!("{:.2} s", d.as_secs_f64())
    }
}

fn main() {
    let depth: u32 = std::env::var("CHEVERSI_BENCH_DEPTH")
        .ok()
        .map(|v| v.parse().expect("CHEVERSI_BENCH_DEPTH is a depth 1-5"))
        .unwrap_or(5);
    assert!(
        (1..=5).contains(&depth),
        "CHEVERSI_BENCH_DEPTH is a depth 1-5"
    );
    let nodes = KNOWN[depth as usize - 1];

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded = variant_dsl::load_file(&root.join("games/cheversi.variant"))
        .unwrap_or_else(|f| panic!("{}", f.render()));
    let session = variant_interpreter::open(&loaded.definition, None).expect("cheversi opens");
    let game = Game::<u64>::new(&loaded.definition, None).expect("cheversi opens");

    // The counts first: the reference against the known figures at every depth to 5, the
    // engine against both at its depth (checked again on every timed run).
    for (d, &known) in (1..=5).zip(&KNOWN) {
        assert_eq!(cheversi::perft(d), known, "hand-written perft {d}");
    }

    // (a) Perft, the engine and the reference alternately.
    let (engine_time, reference_time, perft_runs) = best_of_pair(
        || session.perft(depth),
        nodes,
        || cheversi::perft(depth),
        nodes,
        true,
    );
    let (engine_runs, reference_runs) = (perft_runs, perft_runs);
    let (played_time, played_runs) = best_of(|| cheversi::perft_played(depth), nodes, false);
    let deep = (depth != 5).then(|| best_of(|| cheversi::perft(5), KNOWN[4], false));

    // (b) Playouts, alternately too.
    let (engine_playouts, reference_playouts, _) = best_of_pair(
        || {
            let mut rng = cheversi::SplitMix(2026);
            (0..ENGINE_GAMES)
                .map(|_| engine_playout(&game, &mut rng) as u64)
                .sum()
        },
        16 * ENGINE_GAMES as u64,
        || {
            let mut rng = cheversi::SplitMix(2026);
            (0..REFERENCE_GAMES)
                .map(|_| {
                    let (plies, white, black) = cheversi::playout(&mut rng);
                    black_box((white, black));
                    u64::from(plies)
                })
                .sum()
        },
        16 * REFERENCE_GAMES as u64,
        false,
    );

    let mrate = |n: u64, d: Duration| n as f64 / d.as_secs_f64() / 1e6;
    let rate = |n: usize, d: Duration| n as f64 / d.as_secs_f64();
    let engine_perft_rate = mrate(nodes, engine_time);
    let reference_perft_rate = mrate(nodes, reference_time);
    let engine_playout_rate = rate(ENGINE_GAMES, engine_playouts);
    let reference_playout_rate = rate(REFERENCE_GAMES, reference_playouts);
    let percent = |ours: f64, theirs: f64| 100.0 * ours / theirs;

    println!("| measure | engine | hand-written | engine / hand-written speed |");
    println!("|---|---|---|---|");
    println!(
        "| perft {depth} ({nodes} leaves) | {} ({engine_perft_rate:.2} Mleaves/s, best of {engine_runs}) | {} ({reference_perft_rate:.1} Mleaves/s, best of {reference_runs}) | {:.2}% |",
        seconds(engine_time),
        seconds(reference_time),
        percent(engine_perft_rate, reference_perft_rate),
    );
    println!(
        "| random playouts to the end (16 plies) | {engine_playout_rate:.0}/s ({ENGINE_GAMES} games, best of {RUNS}) | {reference_playout_rate:.0}/s ({REFERENCE_GAMES} games, best of {RUNS}) | {:.2}% |",
        percent(engine_playout_rate, reference_playout_rate),
    );
    let played_rate = mrate(nodes, played_time);
    println!(
        "| perft {depth}, hand-written with every leaf played (no bulk count) | | {} ({played_rate:.1} Mleaves/s, best of {played_runs}) | {:.2}% |",
        seconds(played_time),
        percent(engine_perft_rate, played_rate),
    );
    if let Some((time, runs)) = deep {
        println!(
            "| perft 5 ({} leaves), hand-written only | | {} ({:.1} Mleaves/s, best of {runs}) | |",
            KNOWN[4],
            seconds(time),
            mrate(KNOWN[4], time),
        );
    }
    println!();
    println!(
        "Perft: engine at {:.2}% of the hand-written speed; playouts: engine at {:.2}% of the hand-written speed.",
        percent(engine_perft_rate, reference_perft_rate),
        percent(engine_playout_rate, reference_playout_rate),
    );
}
