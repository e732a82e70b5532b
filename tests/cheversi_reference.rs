//! The hand-written bitboard Cheversi of the benchmarks (`benches/reference/cheversi.rs`)
//! agrees with the engine on `games/cheversi.variant`: perft from the start, and random games
//! played by the reference and replayed through the engine (same number of legal placements at
//! every ply, every placement accepted, same perft 2 below every ply, same end and same
//! scores).

#[path = "../benches/reference/cheversi.rs"]
mod cheversi;

use std::path::Path;
use variant_interpreter::Session;

/// Perft from the start, by the independent oracle (`tests/perft/cheversi.perft`).
const KNOWN: [u64; 4] = [64, 1_680, 50_232, 1_805_208];

fn definition() -> variant_dsl::Definition {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    variant_dsl::load_file(&root.join("games/cheversi.variant"))
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition
}

fn engine(definition: &variant_dsl::Definition) -> Box<dyn Session> {
    variant_interpreter::open(definition, None).expect("cheversi opens")
}

#[test]
fn perft_agrees_with_the_engine() {
    let session = engine(&definition());
    for (depth, &known) in (1..=4).zip(&KNOWN) {
        let reference = cheversi::perft(depth);
        assert_eq!(reference, known, "reference perft {depth}");
        assert_eq!(session.perft(depth), reference, "engine perft {depth}");
    }
}

/// Empty squares that touch a piece but have no empty neighbour: where White's 8th piece may not
/// go (the lookahead, CH4), counted square by square.
fn enclosed_touching_squares(position: &cheversi::Position) -> usize {
    let occupied = position.occupied[0] | position.occupied[1];
    let neighbours = |sq: i32| {
        let (file, rank) = (sq % 8, sq / 8);
        (-1..=1)
            .flat_map(move |df| (-1..=1).map(move |dr| (file + df, rank + dr)))
            .filter(move |&(f, r)| {
                (f, r) != (file, rank) && (0..8).contains(&f) && (0..8).contains(&r)
            })
            .map(|(f, r)| f + 8 * r)
    };
    (0..64)
        .filter(|&sq| occupied >> sq & 1 == 0)
        .filter(|&sq| neighbours(sq).any(|n| occupied >> n & 1 == 1))
        .filter(|&sq| neighbours(sq).all(|n| occupied >> n & 1 == 1))
        .count()
}

#[test]
fn random_games_replay_through_the_engine() {
    const GAMES: usize = 200;
    let definition = definition();
    let mut rng = cheversi::SplitMix(2026);
    // Plies where a limiting rule came into play, to show that the games reach them: White's 8th
    // placement with an empty touching square the Black King could not touch (the lookahead),
    // and the queen call.
    let (mut lookahead, mut queen_calls) = (0, 0);
    for game in 0..GAMES {
        let mut session = engine(&definition);
        let mut played: Vec<String> = Vec::new();
        let end = cheversi::random_game(&mut rng, |position, count, placement| {
            let moves = session.legal_moves();
            let notation = placement.notation();
            assert_eq!(
                moves.len(),
                count as usize,
                "game {game} after {played:?}: engine {moves:?}"
            );
            assert!(
                moves.contains(&notation),
                "game {game}: {notation} not listed"
            );
            // Perft's last plies (bulk counting, plans shared by sibling drops) at every stage
            // of the game, the lookahead's included.
            assert_eq!(
                session.perft(2),
                cheversi::perft_from(position, 2),
                "game {game} after {played:?}: perft 2"
            );
            if played.len() == 14 && enclosed_touching_squares(position) > 0 {
                lookahead += 1;
            }
            if played.last().is_some_and(|m| m.starts_with("Q@"))
                && position.hand[position.side][cheversi::QUEEN] > 0
            {
                assert!(moves.iter().all(|m| m.starts_with("Q@")), "{moves:?}");
                queen_calls += 1;
            }
            session
                .play(&notation)
                .unwrap_or_else(|e| panic!("game {game}: {notation}: {e}"));
            played.push(notation);
        });
        // Every game lasts 16 placements (see `Position::targets`), and the engine ends it there.
        assert_eq!(played.len(), 16, "game {game}: {played:?}");
        assert!(end.targets().iter().all(|&m| m == 0));
        assert!(session.legal_moves().is_empty(), "game {game}: not over");
        let outcome = session.outcome().expect("a result");
        let [white, black] = end.scores();
        // The result carries the scores that decided it.
        assert_eq!(
            outcome.scores,
            Some(vec![i64::from(white), i64::from(black)]),
            "game {game}"
        );
        let scores = session.scores().expect("cheversi keeps a score");
        assert_eq!(
            scores,
            vec![
                ("white".to_string(), i64::from(white)),
                ("black".to_string(), i64::from(black))
            ],
            "game {game}: {played:?}"
        );
    }
    eprintln!(
        "{lookahead} White 8th placements beside an enclosed square, {queen_calls} queen calls"
    );
    assert!(lookahead > 0 && queen_calls > 0);
}
