//! Complete games with known final scores and winners, replayed through the engine.
//!
//! The games in `tests/games/*.games` were played and scored by `scripts/placement_oracle.py`,
//! an independent Python implementation of the rules texts and rulings: every placement must be
//! legal here too, the game must end exactly after the last one, with the same scores and result.

use std::path::Path;

struct Recorded {
    play: String,
    scores: (i64, i64),
    result: String,
}

fn read_games(game: &str) -> Vec<Recorded> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/games")
        .join(format!("{game}.games"));
    let text = std::fs::read_to_string(path).expect("games file");
    let mut games: Vec<Recorded> = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (keyword, rest) = line.split_once(' ').expect("`keyword value` lines");
        match keyword {
            "play" => games.push(Recorded {
                play: rest.to_string(),
                scores: (0, 0),
                result: String::new(),
            }),
            "scores" => {
                let (white, black) = rest.split_once(' ').expect("two scores");
                games.last_mut().expect("scores after play").scores =
                    (white.parse().unwrap(), black.parse().unwrap());
            }
            "result" => games.last_mut().expect("result after play").result = rest.to_string(),
            other => panic!("unknown keyword `{other}`"),
        }
    }
    games
}

fn replay(game: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(format!("{game}.variant"));
    let definition = variant_dsl::load_file(&path)
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition;
    let games = read_games(game);
    assert!(!games.is_empty());
    for recorded in games {
        let mut session = variant_interpreter::open(&definition, None).expect("opens");
        for placement in recorded.play.split_whitespace() {
            assert!(
                session.outcome().is_none(),
                "{game}: the game ended before {placement}"
            );
            session
                .play(placement)
                .unwrap_or_else(|e| panic!("{game}: {e}"));
        }
        let outcome = session
            .outcome()
            .unwrap_or_else(|| panic!("{game}: not over after {}", recorded.play));
        let scores = session.scores().expect("a score");
        assert_eq!(
            (scores[0].1, scores[1].1),
            recorded.scores,
            "{game}: {}",
            recorded.play
        );
        let winner = outcome
            .winners
            .first()
            .cloned()
            .unwrap_or_else(|| "draw".to_string());
        assert_eq!(winner, recorded.result, "{game}: {}", recorded.play);
    }
}

#[test]
fn coverage_games_end_with_the_recorded_scores() {
    replay("coverage");
}

#[test]
fn coverage_weighted_games_end_with_the_recorded_scores() {
    replay("coverage-weighted");
}

#[test]
fn cheversi_games_end_with_the_recorded_scores() {
    replay("cheversi");
}
