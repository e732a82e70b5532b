//! Random playouts of one game, for profiling: `valgrind --tool=callgrind
//! target/release/examples/playouts GAME [GAMES]` counts the instructions of the same loop as
//! `benches/playouts.rs` (legal actions, a random choice, the end test, the final score)
//! without the benchmark's timing and repetitions.

use std::hint::black_box;
use std::path::Path;
use variant_interpreter::outcome::status_into;
use variant_interpreter::score::scores;
use variant_interpreter::Game;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "cheversi".into());
    let games: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded = variant_dsl::load_file(&root.join(format!("games/{name}.variant")))
        .unwrap_or_else(|f| panic!("{}", f.render()));
    let game = Game::<u64>::new(&loaded.definition, None).expect("the game opens");
    let rules = game.rules();
    let mut seed: u64 = 2026;
    let mut next = move || {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut plies = 0usize;
    for _ in 0..games {
        let mut position = *game.position();
        let mut hashes = Vec::new();
        // One list of legal actions for the whole game, refilled at every ply.
        let mut moves = Vec::new();
        // The final scores as the end rule computed them (`by score`), else scored here.
        let outcome = loop {
            if let Some(outcome) = status_into(rules, &position, &hashes, &mut moves) {
                break outcome;
            }
            let chosen = moves[(next() % moves.len() as u64) as usize];
            hashes.push(position.hash());
            position.play_legal(rules, chosen);
            plies += 1;
        };
        black_box(outcome.scores.or_else(|| scores(rules, &position)));
    }
    println!("{games} games, {plies} plies");
}
