//! The compiled expression layer against a slower, direct evaluation of the same rules.
//!
//! The lookahead proof (`reply_certain`, judged over intervals once per position) never
//! changes a legal move list: Cheversi is generated with the proof on and off (every drop then
//! played and the reply searched) along random games, and perft agrees.

mod common;

use common::SplitMix;
use std::path::Path;
use variant_interpreter::movegen::legal_moves;
use variant_interpreter::outcome::outcome;
use variant_interpreter::perft::perft;
use variant_interpreter::rules::Options;
use variant_interpreter::{Position, Rules};

fn rules(name: &str, pruning: bool) -> (Rules<u64>, Position<u64>) {
    compiled(
        name,
        Options {
            lookahead_pruning: pruning,
            ..Options::default()
        },
    )
}

fn compiled(name: &str, options: Options) -> (Rules<u64>, Position<u64>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(format!("{name}.variant"));
    let definition = variant_dsl::load_file(&path)
        .unwrap_or_else(|failure| panic!("{}", failure.render()))
        .definition;
    let rules = Rules::<u64>::compile_with(&definition, options).expect("compiles");
    let position = Position::from_setup(&rules, &definition.setup).expect("opens");
    (rules, position)
}

#[test]
fn the_lookahead_proof_never_changes_the_legal_moves() {
    let (pruned, start) = rules("cheversi", true);
    let (plain, _) = rules("cheversi", false);
    let (unfiltered, _) = compiled(
        "cheversi",
        Options {
            lookahead_pruning: false,
            drop_lookahead: false,
            ..Options::default()
        },
    );
    assert_eq!(
        perft(&pruned, &start, 3, &[]),
        perft(&plain, &start, 3, &[])
    );
    let mut random = SplitMix(7);
    let mut refused_somewhere = 0;
    for _ in 0..150 {
        let mut position = start;
        let mut history = Vec::new();
        while outcome(&pruned, &position, &history).is_none() {
            let fast = legal_moves(&pruned, &position);
            let slow = legal_moves(&plain, &position);
            assert_eq!(fast, slow, "at {history:?}");
            // Count the positions where the lookahead refuses some drop the other rules allow.
            if legal_moves(&unfiltered, &position).len() > slow.len() {
                refused_somewhere += 1;
            }
            let chosen = fast[random.below(fast.len())];
            history.push(position.hash());
            position.play_legal(&pruned, chosen);
        }
    }
    assert!(
        refused_somewhere > 0,
        "the games never reached a position where the lookahead binds"
    );
}

/// Compiled masks make Cheversi's depth 5 cheap enough for every test run (it is over the node
/// budget of `tests/perft.rs`, which runs it only with `--ignored`). The figure agrees with the
/// hand-written reference of `benches/reference/cheversi.rs` and the earlier engine.
#[test]
fn cheversi_perft_5() {
    let (rules, start) = rules("cheversi", true);
    assert_eq!(perft(&rules, &start, 5, &[]), 75_786_032);
}
