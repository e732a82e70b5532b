//! MCTS playouts per second from each game's start position (`mcts:1s`, best of 3), the
//! "playouts/s" column of the README's strength table: `cargo run --release --example
//! mcts_rate [GAME ...]` (default: every game in `games/`). The same measure as
//! `tests/strength.rs`, without the matches.

use variant_interpreter::ai::mcts_playouts_per_second;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut games: Vec<String> = std::env::args().skip(1).collect();
    if games.is_empty() {
        let mut names: Vec<String> = std::fs::read_dir(root.join("games"))
            .expect("games/")
            .filter_map(|entry| {
                let path = entry.ok()?.path();
                (path.extension()? == "variant")
                    .then(|| path.file_stem()?.to_str().map(String::from))?
            })
            .collect();
        names.sort();
        games = names;
    }
    println!("| game | MCTS playouts/s (best of 3) |");
    println!("|---|---|");
    for game in games {
        let loaded = variant_dsl::load_file(&root.join(format!("games/{game}.variant")))
            .unwrap_or_else(|f| panic!("{}", f.render()));
        let session = variant_interpreter::open(&loaded.definition, None).expect("opens");
        let best = (0..3)
            .filter_map(|_| mcts_playouts_per_second(session.as_ref()))
            .max()
            .unwrap_or(0);
        println!("| {game} | {best} |");
    }
}
