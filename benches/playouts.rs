//! Random playouts per second of the placement games and Kingdrops: every ply generates the legal actions
//! under all drop constraints and checks the end rules, and the final position is scored.
//!
//! Each run plays the same seeded games, and checks that every game ended with a result. The
//! number of games per run is the game's own (a run of the faster games lasting well over a
//! millisecond: shorter runs are timed mostly by the machine's noise), best of 3 runs.
//! Run with `cargo bench --bench playouts`.

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;
use variant_interpreter::outcome::status_into;
use variant_interpreter::score::scores;
use variant_interpreter::Game;

/// SplitMix64: a tiny seeded generator, so that every run plays the same games.
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

/// Plays one random game to its end; returns the number of plies.
fn playout(game: &Game<u64>, rng: &mut SplitMix) -> usize {
    let rules = game.rules();
    let mut position = *game.position();
    let mut hashes = Vec::new();
    let mut plies = 0;
    // One list of legal actions for the whole game, refilled at every ply.
    let mut moves = Vec::new();
    // The final scores as the end rule computed them (`by score`), else scored here.
    let outcome = loop {
        if let Some(outcome) = status_into(rules, &position, &hashes, &mut moves) {
            break outcome;
        }
        let chosen = moves[rng.below(moves.len())];
        hashes.push(position.hash());
        position.play_legal(rules, chosen);
        plies += 1;
    };
    black_box(outcome.scores.or_else(|| scores(rules, &position)));
    plies
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("| game | playouts | plies | playouts/s |");
    println!("|---|---|---|---|");
    let only = std::env::var("PLAYOUTS_GAME").ok();
    for (name, games) in [
        ("coverage", 2_000),
        ("coverage-weighted", 2_000),
        ("cheversi", 20_000),
        ("kingdrops", 200),
    ] {
        if only.as_deref().is_some_and(|game| game != name) {
            continue;
        }
        let loaded = variant_dsl::load_file(&root.join("games").join(format!("{name}.variant")))
            .expect("game loads");
        let game = Game::<u64>::new(&loaded.definition, None).expect("game opens");
        let best = (0..3)
            .map(|_| {
                let mut rng = SplitMix(2026);
                let start = Instant::now();
                let plies: usize = (0..games).map(|_| playout(&game, &mut rng)).sum();
                (start.elapsed(), plies)
            })
            .min()
            .expect("three runs");
        println!(
            "| {name} | {games} | {} | {:.0} |",
            best.1,
            games as f64 / best.0.as_secs_f64()
        );
    }
}
