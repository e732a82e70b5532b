//! `legal::tactical_moves`, the moves quiescence follows, generated alone (a target mask of
//! enemy pieces and promoting squares; no castling, no drops): along seeded random games of
//! every game file and test variant, they are exactly the full generator's legal moves that
//! take a piece, promote or take en passant, in the same order; and `outcome::end_unlisted`,
//! the end judged without listing the moves (asking the generator whether any exists, stopping
//! at the first), is the end `outcome::status` finds.

mod common;

use variant_interpreter::legal::{legal_moves, tactical_moves};
use variant_interpreter::outcome::{end_unlisted, status, Status};
use variant_interpreter::tactical::is_tactical;
use variant_interpreter::{Bitboard, Move, MoveKind, Position, Rules, Wide256};

/// What the moves seen exercised, over all games.
#[derive(Default, Debug)]
struct Seen {
    positions: u64,
    captures: u64,
    promotions: u64,
    en_passant: u64,
    ends: u64,
}

/// The tactical moves as the search defines them, written here from the move and the board
/// alone: a normal move onto a piece of another side, a promotion, en passant.
fn takes_or_promotes<B: Bitboard>(position: &Position<B>, us: usize, mv: &Move) -> bool {
    match mv.kind {
        MoveKind::Promote(_) | MoveKind::EnPassant => true,
        MoveKind::Normal => position
            .at(mv.to)
            .is_some_and(|occupant| occupant.side.index() != us),
        _ => false,
    }
}

/// Plays seeded random games of one game (its board fitting `B`), comparing at every ply;
/// `false` if the board does not fit.
fn check_game<B: Bitboard>(
    name: &str,
    definition: &variant_dsl::Definition,
    seen: &mut Seen,
) -> bool {
    let Ok(rules) = Rules::<B>::compile(definition) else {
        return false;
    };
    let Ok(start) = Position::from_setup(&rules, &definition.setup) else {
        return true;
    };
    let mut seed = 29u64;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) as usize
    };
    for game in 0..4 {
        let mut position = start;
        let mut history = Vec::new();
        for ply in 0..160 {
            let unlisted = end_unlisted(&rules, &position, &history, None);
            let moves = match status(&rules, &position, &history) {
                Status::Over(outcome) => {
                    assert_eq!(unlisted, Some(outcome), "{name}, game {game}, ply {ply}");
                    seen.ends += 1;
                    break;
                }
                Status::Moves(moves) => moves,
            };
            assert_eq!(unlisted, None, "{name}, game {game}, ply {ply}");
            let us = position.side_to_move(&rules);
            let expected: Vec<Move> = moves
                .iter()
                .filter(|mv| takes_or_promotes(&position, us.index(), mv))
                .copied()
                .collect();
            let generated = tactical_moves(&rules, &position);
            assert_eq!(
                generated,
                expected,
                "{name}, game {game}, ply {ply}: {}",
                variant_dsl::fen::write_fen(definition, &position.to_setup(&rules))
            );
            // The search's own predicate selects the same moves.
            for mv in &moves {
                assert_eq!(
                    is_tactical(&position, us, *mv),
                    expected.contains(mv),
                    "{name}: {mv:?}"
                );
            }
            assert_eq!(legal_moves(&rules, &position), moves, "{name}");
            // Told that a legal move exists, as quiescence is once it has generated one.
            assert_eq!(
                end_unlisted(&rules, &position, &history, Some(true)),
                None,
                "{name}"
            );
            seen.positions += 1;
            for mv in &generated {
                match mv.kind {
                    MoveKind::Promote(_) => seen.promotions += 1,
                    MoveKind::EnPassant => seen.en_passant += 1,
                    _ => seen.captures += 1,
                }
            }
            // Tactical moves half of the time where there are some, to reach exchanges,
            // promotions and the ends they make.
            let pool = if !generated.is_empty() && next() % 2 == 0 {
                &generated
            } else {
                &moves
            };
            let chosen = pool[next() % pool.len()];
            history.push(position.hash());
            position.play_legal(&rules, chosen);
        }
    }
    true
}

#[test]
fn tactical_moves_are_the_legal_moves_that_take_or_promote() {
    let mut seen = Seen::default();
    let mut games = 0;
    for (path, definition) in common::game_and_test_variant_files() {
        let name = path.display().to_string();
        let fits = check_game::<u64>(&name, &definition, &mut seen)
            || check_game::<u128>(&name, &definition, &mut seen)
            || check_game::<Wide256>(&name, &definition, &mut seen);
        assert!(fits, "{name}: no bitboard fits");
        games += 1;
    }
    eprintln!("{games} game files: {seen:?}");
    assert!(games >= 40, "only {games} game files played");
    assert!(seen.positions >= 10_000, "{seen:?}");
    assert!(seen.captures >= 10_000, "{seen:?}");
    assert!(seen.promotions >= 100, "{seen:?}");
    assert!(seen.en_passant >= 10, "{seen:?}");
    assert!(seen.ends >= 50, "{seen:?}");
}
