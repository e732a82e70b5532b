//! Folded plans (`interpreter/src/rules/plan.rs`) against the unfolded drop rules.
//!
//! A plan evaluates once the parts of the drop rules that read no square, for one scalar state
//! (hands, turn, last drop types), and compiles the rest into closures; the unfolded rules
//! judge every part at every position. Along random games of every game file and test variant
//! with drop rules, both must give the same legal actions, the same "is there any", and perft
//! must agree.

mod common;

use common::SplitMix;
use std::path::{Path, PathBuf};
use variant_interpreter::expression::{drop_squares, reply_certain, reply_certain_after, Judge};
use variant_interpreter::movegen::{any_legal, legal_moves};
use variant_interpreter::outcome::outcome;
use variant_interpreter::perft::perft;
use variant_interpreter::plan::plan;
use variant_interpreter::rules::Options;
use variant_interpreter::{Bitboard, Position, Rules};
use variant_interpreter::{ByPiece, PieceId};

/// The game files and test variants whose drop rules a plan folds (their board fits 64 bits).
fn files_with_drop_rules() -> Vec<(PathBuf, Rules<u64>, Position<u64>)> {
    let mut files = Vec::new();
    for (path, definition) in common::game_and_test_variant_files() {
        // A board wider than 64 squares needs a wider bitboard: not this test's concern.
        let Ok(rules) = Rules::<u64>::compile(&definition) else {
            continue;
        };
        if !rules.folds_drop_rules() {
            continue;
        }
        let position = Position::from_setup(&rules, &definition.setup).expect("the setup opens");
        files.push((path, rules, position));
    }
    files
}

/// The same rules judged without plans.
fn unfolded(rules: &Rules<u64>) -> Rules<u64> {
    let options = Options {
        plans: false,
        ..Options::default()
    };
    Rules::compile_with(rules.definition(), options).expect("compiles as before")
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
            let mut position = *start;
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
                    variant_dsl::fen::write_fen(folded.definition(), &position.to_setup(folded))
                );
                assert_eq!(any_legal(folded, &position), any_legal(&plain, &position));
                planned += usize::from(same_masks_and_proof(folded, &position, path));
                positions += 1;
                if fast.is_empty() {
                    break;
                }
                history.push(position.hash());
                position.play_legal(folded, fast[random.below(fast.len())]);
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

/// Per piece type, a plan's drop squares (and lookahead squares) are the unfolded rules'; its
/// proof that a reply exists holds wherever the unfolded proof does, square by square it is the
/// unfolded proof, and wherever it holds every drop does leave a reply.
/// Returns whether the position had a plan (a game whose rules need more slots than a plan
/// holds is judged unfolded).
fn same_masks_and_proof(rules: &Rules<u64>, position: &Position<u64>, path: &Path) -> bool {
    let side = position.side_to_move(rules);
    let Some(plan) = plan(rules, position, side) else {
        return false;
    };
    // Every type at once, and each type alone (a group's squares do not depend on the others).
    let (mut all, mut all_ahead) = (ByPiece::splat(0), ByPiece::splat(0));
    let every = (1u32 << rules.pieces()) - 1;
    let mut judge = Judge::new(rules, position, side);
    plan.drop_squares(&mut judge, every, true, &mut all, &mut all_ahead);
    for piece in (0..rules.pieces()).map(PieceId::new) {
        let mut judge = Judge::new(rules, position, side);
        let unfolded = drop_squares(&mut judge, piece, true);
        let (mut alone, mut alone_ahead) = (ByPiece::splat(0), ByPiece::splat(0));
        plan.drop_squares(&mut judge, 1 << piece.0, true, &mut alone, &mut alone_ahead);
        let at = path.display();
        assert_eq!(
            (all[piece], all_ahead[piece]),
            unfolded,
            "{at} piece {piece:?}"
        );
        assert_eq!(
            (alone[piece], alone_ahead[piece]),
            unfolded,
            "{at} piece {piece:?} alone"
        );
    }
    let empty = rules.geometry().board & !position.occupied();
    // The plan's proof keeps what moves with the unknown drop (the squares around it), which
    // the unfolded proof bounds away: it proves whatever that one proves, and more.
    let proved = plan.reply_certain(rules, position, empty);
    assert!(
        proved || !reply_certain(rules, position),
        "{}: the unfolded proof holds, the plan's does not",
        path.display()
    );
    // Where either proof holds, every legal drop does leave the next side a drop.
    if proved {
        for mv in legal_moves(rules, position) {
            if let variant_interpreter::MoveKind::Drop(piece) = mv.kind {
                let (piece, square) = (usize::from(piece.0), mv.to);
                assert!(
                    leaves_a_drop(rules, position, piece, square),
                    "{}: the proof holds but {} leaves no reply",
                    path.display(),
                    mv.uci(rules)
                );
            }
        }
    }
    // Square by square: the plan's proof is the unfolded one, and where it holds, every drop
    // there does leave the next side a drop.
    for square in empty.squares() {
        let proved = plan.reply_certain(rules, position, u64::single(square));
        assert_eq!(
            proved,
            reply_certain_after(rules, position, u64::single(square)),
            "{} square {square}",
            path.display()
        );
        if proved {
            for piece in (0..rules.pieces()).filter(|&p| position.hand(side, PieceId::new(p)) > 0) {
                assert!(
                    leaves_a_drop(rules, position, piece, square),
                    "{}: the proof holds on square {square} but dropping piece {piece} there \
                     leaves no reply",
                    path.display()
                );
            }
        }
    }
    true
}

/// Whether the side to move's drop of `piece` on `square` leaves the next side a drop, its own
/// lookahead not applied (what the lookahead asks).
fn leaves_a_drop(
    rules: &Rules<u64>,
    position: &Position<u64>,
    piece: usize,
    square: variant_interpreter::Sq,
) -> bool {
    let mut next = *position;
    next.play_drop_unjudged(rules, PieceId::new(piece), square)
        .expect("a held piece dropped on an empty square");
    let side = next.side_to_move(rules);
    (0..rules.pieces())
        .map(PieceId::new)
        .filter(|&p| next.hand(side, p) > 0)
        .any(|p| drop_squares(&mut Judge::new(rules, &next, side), p, false).0 != 0)
}

/// At Cheversi's start, where White's King may go anywhere and Black must touch it, no square
/// is certainly touchable whatever White does: the unfolded proof fails there, and the plan's,
/// which keeps "the squares around the drop" as such, holds (and is sound, as checked along
/// random games above).
#[test]
fn the_plan_proves_a_reply_around_a_drop_anywhere() {
    let (path, rules, start) = files_with_drop_rules()
        .into_iter()
        .find(|(path, ..)| path.ends_with("games/cheversi.variant"))
        .expect("cheversi has drop rules");
    let side = start.side_to_move(&rules);
    let plan = plan(&rules, &start, side).expect("a plan");
    let empty = rules.geometry().board & !start.occupied();
    assert!(!reply_certain(&rules, &start), "{}", path.display());
    assert!(plan.reply_certain(&rules, &start, empty));
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
