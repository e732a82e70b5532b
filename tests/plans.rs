//! Folded plans (`interpreter/src/plan.rs`) against the unfolded drop rules.
//!
//! A plan evaluates once the parts of the drop rules that read no square, for one scalar state
//! (hands, turn, last drop types), and compiles the rest into closures; the unfolded rules
//! judge every part at every position. Along random games of every game file and test variant
//! with drop rules, both must give the same legal actions, the same "is there any", and perft
//! must agree.

mod common;

use common::SplitMix;
use std::path::{Path, PathBuf};
use variant_interpreter::expression::{drop_squares, reply_certain, Judge};
use variant_interpreter::movegen::{any_legal, legal_moves};
use variant_interpreter::outcome::outcome;
use variant_interpreter::perft::perft;
use variant_interpreter::plan::{plan, KeySpec, Memo};
use variant_interpreter::{Position, Rules};

/// The game files and test variants whose drop rules a plan folds (their board fits 64 bits).
fn files_with_drop_rules() -> Vec<(PathBuf, Rules<u64>, Position<u64>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["games", "tests/variants"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("readable")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "variant"))
            .collect();
        paths.sort();
        for path in paths {
            let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
            let loaded = variant_dsl::load_file_with(&path, &options)
                .unwrap_or_else(|failure| panic!("{}", failure.render()));
            // A board wider than 64 squares needs a wider bitboard: not this test's concern.
            let Ok(rules) = Rules::<u64>::compile(&loaded.definition) else {
                continue;
            };
            if !rules.plan_key.active {
                continue;
            }
            let position =
                Position::from_setup(&rules, &loaded.definition.setup).expect("the setup opens");
            files.push((path, rules, position));
        }
    }
    files
}

/// The same rules judged without plans.
fn unfolded(rules: &Rules<u64>) -> Rules<u64> {
    let mut plain = rules.clone();
    plain.plan_key = KeySpec::default();
    plain
}

#[test]
fn plans_give_the_legal_actions_of_the_unfolded_rules() {
    let files = files_with_drop_rules();
    let names: Vec<String> = files
        .iter()
        .map(|(path, ..)| path.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    for expected in [
        "cheversi",
        "coverage",
        "kingdrops",
        "crazyhouse",
        "drop-terms",
        "takeover-chess-free-setup",
    ] {
        assert!(names.iter().any(|n| n == expected), "{expected} not tested");
    }
    let mut random = SplitMix(2026);
    for (path, folded, start) in &files {
        let plain = unfolded(folded);
        let mut positions = 0;
        let mut planned = 0;
        for _ in 0..12 {
            let mut position = start.clone();
            let mut history = Vec::new();
            for _ in 0..120 {
                if outcome(folded, &position, &history).is_some() {
                    break;
                }
                let fast = legal_moves(folded, &position);
                let slow = legal_moves(&plain, &position);
                assert_eq!(
                    fast,
                    slow,
                    "{} at {}",
                    path.display(),
                    variant_dsl::fen::write_fen(&folded.definition, &position.to_setup(folded))
                );
                assert_eq!(any_legal(folded, &position), any_legal(&plain, &position));
                planned += usize::from(same_masks_and_proof(folded, &position, path));
                positions += 1;
                if fast.is_empty() {
                    break;
                }
                history.push(position.hash());
                position.play_unchecked(folded, fast[random.below(fast.len())]);
            }
        }
        assert!(positions > 12, "{}: too few positions", path.display());
        // Every game and test variant here fits in a plan.
        assert_eq!(
            planned,
            positions,
            "{}: positions without a plan",
            path.display()
        );
    }
}

/// Per piece type, a plan's drop squares (and lookahead squares) are the unfolded rules', and
/// its proof that a reply exists is the unfolded proof: the bounds are folded, not changed.
/// Returns whether the position had a plan (a game whose rules need more slots than a plan
/// holds is judged unfolded).
fn same_masks_and_proof(rules: &Rules<u64>, position: &Position<u64>, path: &Path) -> bool {
    let side = position.side_to_move(rules);
    let Some(plan) = plan(rules, position, side) else {
        return false;
    };
    let mut memo = Memo::default();
    for piece in 0..rules.pieces {
        let mut judge = Judge::new(rules, position, side);
        let unfolded = drop_squares(&mut judge, piece, true);
        let folded = plan.drop_squares(&mut judge, &mut memo, piece, true);
        assert_eq!(folded, unfolded, "{} piece {piece}", path.display());
    }
    assert_eq!(
        plan.reply_certain(rules, position),
        reply_certain(rules, position),
        "{}",
        path.display()
    );
    true
}

#[test]
fn plans_give_the_perft_of_the_unfolded_rules() {
    for (path, folded, start) in files_with_drop_rules() {
        let plain = unfolded(&folded);
        assert_eq!(
            perft(&folded, &start, 3, &[]),
            perft(&plain, &start, 3, &[]),
            "{}",
            path.display()
        );
    }
}
