//! The evaluation's goals, read from the end rules (interpreter/src/play/ai/eval.rs `Goals`),
//! seen through the real binary: `search` beats `random` as each side of a game whose end
//! rule gives the evaluation its term. Horde: White has no King and loses when it has no
//! pieces (`loses when no own pieces`, an extinction goal), Black must be checkmated; the two
//! sides play for different ends, so each colour is checked on its own.

mod common;

/// `variant match GAME search:2 random --json`: per side that `search:2` played, its (wins,
/// games).
fn search_against_random(game: &str, games: usize) -> Vec<(String, u64, u64)> {
    let output = common::variant(&[
        "match",
        game,
        "search:2",
        "random",
        "--games",
        &games.to_string(),
        "--seed",
        "1",
        "--jobs",
        "1",
        "--json",
    ]);
    assert!(output.status.success(), "{}", common::stderr(&output));
    let value: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("match prints JSON");
    let by_side = value["by_side"].as_object().expect("by_side");
    by_side
        .iter()
        .map(|(side, counts)| {
            let count = |key: &str| counts[key].as_u64().expect("a count");
            (side.clone(), count("wins"), count("games"))
        })
        .collect()
}

#[test]
fn search_beats_random_at_horde_as_both_colours() {
    let sides = search_against_random("horde", 10);
    assert_eq!(sides.len(), 2, "{sides:?}");
    for (side, wins, games) in sides {
        assert_eq!(games, 5, "{side}");
        assert!(
            2 * wins > games,
            "search:2 as {side} won {wins} of {games} horde games against random"
        );
    }
}
