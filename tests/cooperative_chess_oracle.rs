//! Cooperative Chess (`games/cooperative-chess.variant`) against `scripts/coop_oracle.py`, an
//! independent implementation written from the rules text and rulings CC1-CC28 without reading
//! the engine. Everything goes through the real `variant` binary, as a user would run it:
//!
//! - perft from the start against ruling CC26 (10 / 200 / 2040 / 45411), and the oracle's;
//! - perft with `--divide` after positions of the oracle's seeded random games;
//! - along seeded random games of the oracle, at every ply: the side to move's ordinary legal
//!   moves (`variant moves`), and on Red's plies Red's policy (`variant policy --json`, fed the
//!   oracle's dice): the rule that fired, the dice read, the candidate actions;
//! - complete games replayed with `variant show --json`: the same winners, or the same draw.
//!
//! The seeds were chosen by scanning seeds 1-3000 of `coop_oracle.py random-games` for what the
//! games reach (listed with each seed). Random games never reached rule 5 nor a rule 7a capture
//! that needs the Red King's slide (`CAPTURE&KINGMOVE`), so those are not covered here.

mod common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

const GAME: &str = "cooperative-chess";

/// Oracle games compared ply by ply (all end before 120 plies; 397 plies in all).
const GAMES: [u64; 10] = [
    100,  // 90 plies: rules 2-4, 6a (a pawn promotes), 6b, 6c, 7b; Red takes en passant; stalemate
    549,  // 38 plies: rule 7a with two captures, an equal 7b contest (FROM~TO and FROM~TOx)
    297,  // 40 plies: a 7b jump with no effect (e8~c2-), en passant open to Red
    78,   // 28 plies: an equal 7b contest, the jumper removed (f7~g4x); White castles d1b1
    1312, // 46 plies: Red castles e8c8; rule 4
    590,  // 16 plies: Black castles e1g1
    40,   // 62 plies: en passant open to Black, an equal 7b contest
    13,   // 26 plies: rule 1, the Red King moves out of check, twice
    119,  // 26 plies: rule 1, three ways to capture the checking piece
    859,  // 25 plies: rule 1, a 7b jump removing the jumper (d8~e3x); the team checkmates Red
];

/// Complete oracle games replayed to their end, each kind of result.
const FINISHED: [u64; 6] = [
    1,    // Red wins by checkmate
    2,    // Red wins: both team Kings attacked
    549,  // Red wins: both team Kings attacked
    100,  // a draw by stalemate
    1422, // the team wins by checkmate
    859,  // the team wins by checkmate
];

/// Positions for perft with `--divide`: (seed, plies of that oracle game played first).
const PERFT_POSITIONS: [(u64, usize); 13] = [
    (100, 6),  // after a 7b jump into the team's camp (b8~g2)
    (100, 13), // Red to move
    (100, 20),
    (100, 25),  // Red to move, en passant available (and taken)
    (100, 89),  // Red's pawn on f2, about to promote (rule 6a)
    (87, 8),    // en passant available to White
    (40, 30),   // en passant available to Black
    (70, 5),    // Red to move, rule 7a (e4f2)
    (549, 11),  // Red to move, rule 7a with two captures
    (549, 19),  // Red to move, a 7b contest of equal values
    (78, 12),   // White can castle d1b1
    (590, 14),  // Black can castle e1g1
    (1312, 27), // Red can castle e8c8
];

/// Perft from the start, ruling CC26.
const CC26: [(u32, u64); 4] = [(1, 10), (2, 200), (3, 2040), (4, 45411)];

// ---------------------------------------------------------------------------------------------
// The oracle
// ---------------------------------------------------------------------------------------------

fn skip_without_python(test: &str) -> bool {
    if let Some(reason) = common::python_missing() {
        eprintln!(
            "SKIPPED {test}: {reason}; the comparison with scripts/coop_oracle.py did NOT run"
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs python3: {reason}"
        );
        return true;
    }
    false
}

/// `python3 scripts/coop_oracle.py ARGS...`, which must succeed: its standard output.
fn oracle(args: &[&str]) -> String {
    let output = Command::new("python3")
        .arg("scripts/coop_oracle.py")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "coop_oracle.py {args:?} failed: {}",
        common::stderr(&output)
    );
    common::stdout(&output)
}

/// One seeded random game of the oracle.
struct Game {
    seed: u64,
    /// Each `{"side", "legal", "policy", "played", "state"}`.
    plies: Vec<Value>,
    /// `{"winners", "reason"}`, or null when the game was stopped unfinished.
    result: Value,
}

impl Game {
    /// `coop_oracle.py random-games --games 1 --seed SEED --max-plies MAX_PLIES`.
    fn new(seed: u64, max_plies: u32) -> Game {
        let seed_text = seed.to_string();
        let max_text = max_plies.to_string();
        let output = oracle(&[
            "random-games",
            "--games",
            "1",
            "--seed",
            &seed_text,
            "--max-plies",
            &max_text,
        ]);
        let game: Value = serde_json::from_str(output.trim()).expect("one JSON object");
        assert_eq!(
            game["seed"].as_u64(),
            Some(seed),
            "the oracle's game is seed {seed}"
        );
        let plies = game["plies"].as_array().expect("plies").clone();
        assert!(
            !plies.is_empty(),
            "seed {seed}: the oracle's game has no plies"
        );
        Game {
            seed,
            plies,
            result: game["result"].clone(),
        }
    }

    /// The actions played before ply `ply`, as `--play` takes them.
    fn prefix(&self, ply: usize) -> String {
        self.plies[..ply]
            .iter()
            .map(|p| p["played"].as_str().expect("played"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn strings(value: &Value, what: &str) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("{what} is not a list: {value}"))
        .iter()
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| panic!("{what} holds a non-string: {v}"))
                .to_string()
        })
        .collect()
}

fn sorted(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list
}

/// What two sorted move lists disagree on, for a message.
fn list_diff(engine: &[String], oracle: &[String]) -> String {
    let ours: BTreeSet<&String> = engine.iter().collect();
    let theirs: BTreeSet<&String> = oracle.iter().collect();
    let only_engine: Vec<&&String> = ours.difference(&theirs).collect();
    let only_oracle: Vec<&&String> = theirs.difference(&ours).collect();
    format!(
        "only the engine: {only_engine:?}; only the oracle: {only_oracle:?} \
         (engine {} moves {engine:?}, oracle {} moves {oracle:?})",
        engine.len(),
        oracle.len()
    )
}

// ---------------------------------------------------------------------------------------------
// The engine
// ---------------------------------------------------------------------------------------------

/// `variant COMMAND cooperative-chess [--play PREFIX] EXTRA...`: its standard output, or why it
/// failed. No `--play` when the prefix is empty.
fn engine(command: &str, prefix: &str, extra: &[&str]) -> Result<String, String> {
    let mut args = vec![command, GAME];
    if !prefix.is_empty() {
        args.extend(["--play", prefix]);
    }
    args.extend_from_slice(extra);
    let output = common::variant(&args);
    if output.status.success() {
        Ok(common::stdout(&output))
    } else {
        Err(format!(
            "`variant {}` failed ({}): {}{}",
            args.join(" "),
            output.status,
            common::stderr(&output).trim_end(),
            common::stdout(&output).trim_end()
        ))
    }
}

/// The moves of `variant moves` (one per line), sorted.
fn engine_moves(prefix: &str) -> Result<Vec<String>, String> {
    let text = engine("moves", prefix, &[])?;
    Ok(sorted(
        text.split_whitespace().map(str::to_string).collect(),
    ))
}

/// The total and the `MOVE: COUNT` lines of a perft output (ours and the oracle's agree on it).
fn parse_perft(text: &str) -> (u64, BTreeMap<String, u64>) {
    let mut total = None;
    let mut divide = BTreeMap::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(n) = line.strip_prefix("Nodes searched:") {
            total = Some(
                n.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("count in {line:?}")),
            );
        } else if let Some((mv, n)) = line.rsplit_once(':') {
            let n = n
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("count in {line:?}"));
            divide.insert(mv.trim().to_string(), n);
        }
    }
    (
        total.unwrap_or_else(|| panic!("no `Nodes searched:` line in {text:?}")),
        divide,
    )
}

fn engine_perft(prefix: &str, depth: u32, divide: bool) -> (u64, BTreeMap<String, u64>) {
    let depth = depth.to_string();
    let mut extra = vec!["--depth", depth.as_str()];
    if divide {
        extra.push("--divide");
    }
    parse_perft(&engine("perft", prefix, &extra).unwrap_or_else(|e| panic!("{e}")))
}

fn oracle_perft(prefix: &str, depth: u32, divide: bool) -> (u64, BTreeMap<String, u64>) {
    let depth = depth.to_string();
    let mut args = vec!["perft", "--depth", depth.as_str()];
    if divide {
        args.push("--divide");
    }
    if !prefix.is_empty() {
        args.extend(["--play", prefix]);
    }
    parse_perft(&oracle(&args))
}

/// Runs `check` on every game, one thread per game (each ply is one run of the binary), and
/// fails with all the disagreements found. `check` returns its disagreements and how many
/// comparisons it made.
fn across_games(
    games: &[Game],
    minimum: usize,
    check: impl Fn(&Game) -> (Vec<String>, usize) + Sync,
) {
    let check = &check;
    let outcomes: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .iter()
            .map(|game| scope.spawn(move || check(game)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a game's check panicked"))
            .collect()
    });
    let failures: Vec<String> = outcomes.iter().flat_map(|(f, _)| f.clone()).collect();
    let compared: usize = outcomes.iter().map(|(_, n)| n).sum();
    assert!(
        failures.is_empty(),
        "{} disagreement(s) with scripts/coop_oracle.py:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{compared} positions compared with the oracle");
    assert!(
        compared >= minimum,
        "only {compared} positions compared, expected at least {minimum}"
    );
}

/// At most this many disagreements reported per game (later plies are still compared).
const REPORTED_PER_GAME: usize = 4;

fn games() -> Vec<Game> {
    GAMES.iter().map(|&seed| Game::new(seed, 120)).collect()
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn perft_matches_ruling_cc26() {
    for (depth, expected) in CC26 {
        let (nodes, _) = engine_perft("", depth, false);
        assert_eq!(
            nodes, expected,
            "`variant perft {GAME} --depth {depth}` from the start: ruling CC26 says {expected}"
        );
    }
    // The moves at depth 1 themselves, against the oracle below and this list.
    let start = engine_moves("").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        start,
        ["a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4"],
        "White's first moves (only White's pieces: R N B K on a1-d1, pawns a2-d2)"
    );
    if skip_without_python("perft_matches_ruling_cc26") {
        return;
    }
    for (depth, expected) in CC26 {
        let (nodes, _) = oracle_perft("", depth, false);
        assert_eq!(
            nodes, expected,
            "`coop_oracle.py perft --depth {depth}` from the start: ruling CC26 says {expected}"
        );
    }
}

#[test]
fn perft_divide_matches_oracle_after_some_plies() {
    if skip_without_python("perft_divide_matches_oracle_after_some_plies") {
        return;
    }
    let mut failures = Vec::new();
    for (seed, plies) in PERFT_POSITIONS {
        let game = Game::new(seed, 120);
        assert!(
            plies < game.plies.len(),
            "seed {seed} has fewer than {plies} plies"
        );
        let prefix = game.prefix(plies);
        let side = game.plies[plies]["side"].as_str().unwrap_or("?");
        let (theirs, their_divide) = oracle_perft(&prefix, 3, true);
        let (ours, our_divide) = match engine("perft", &prefix, &["--depth", "3", "--divide"]) {
            Ok(text) => parse_perft(&text),
            Err(e) => {
                failures.push(format!("seed {seed} after {plies} plies: {e}"));
                continue;
            }
        };
        if ours != theirs || our_divide != their_divide {
            let moves: BTreeSet<&String> = our_divide.keys().chain(their_divide.keys()).collect();
            let differing: Vec<String> = moves
                .into_iter()
                .filter(|m| our_divide.get(*m) != their_divide.get(*m))
                .map(|m| {
                    format!(
                        "{m}: engine {:?}, oracle {:?}",
                        our_divide.get(m),
                        their_divide.get(m)
                    )
                })
                .collect();
            failures.push(format!(
                "seed {seed} after {plies} plies ({side} to move), perft --depth 3: engine {ours}, \
                 oracle {theirs}; differing root moves: {differing:?}\n  --play \"{prefix}\""
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft --divide disagrees with scripts/coop_oracle.py:\n{}",
        failures.join("\n")
    );
}

#[test]
fn legal_moves_match_oracle_along_random_games() {
    if skip_without_python("legal_moves_match_oracle_along_random_games") {
        return;
    }
    let games = games();
    across_games(&games, 390, |game| {
        let mut failures = Vec::new();
        let mut compared = 0;
        for (ply, step) in game.plies.iter().enumerate() {
            let prefix = game.prefix(ply);
            let side = step["side"].as_str().unwrap_or("?");
            let context = format!(
                "seed {}, ply {ply} ({side} to move), --play \"{prefix}\"",
                game.seed
            );
            let expected = sorted(strings(&step["legal"], "legal"));
            compared += 1;
            match engine_moves(&prefix) {
                Ok(ours) if ours == expected => {}
                Ok(ours) => failures.push(format!(
                    "legal moves differ at {context}:\n  {}",
                    list_diff(&ours, &expected)
                )),
                Err(e) => failures.push(format!("at {context}:\n  {e}")),
            }
            if failures.len() >= REPORTED_PER_GAME {
                failures.push(format!("seed {}: further plies not compared", game.seed));
                break;
            }
        }
        (failures, compared)
    });
}

#[test]
fn red_policy_matches_oracle_along_random_games() {
    if skip_without_python("red_policy_matches_oracle_along_random_games") {
        return;
    }
    let games = games();
    // Red moves on every other ply: about half of the 397 plies.
    across_games(&games, 190, |game| {
        let mut failures = Vec::new();
        let mut compared = 0;
        for (ply, step) in game.plies.iter().enumerate() {
            if step["side"] != "red" {
                assert!(
                    step["policy"].is_null(),
                    "seed {}: a team ply with a policy",
                    game.seed
                );
                continue;
            }
            let policy = &step["policy"];
            let played = step["played"].as_str().expect("played");
            let prefix = game.prefix(ply);
            let rule = policy["rule"].as_str().expect("rule");
            let dice: Vec<u64> = policy["dice"]
                .as_array()
                .expect("dice")
                .iter()
                .map(|d| d.as_u64().expect("a die"))
                .collect();
            let candidates = sorted(strings(&policy["candidates"], "the oracle's candidates"));
            assert!(
                candidates.iter().any(|c| c == played),
                "seed {} ply {ply}: the oracle played {played}, not one of its candidates \
                 {candidates:?}",
                game.seed
            );
            let dice_text = dice
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(",");
            let mut extra = Vec::new();
            if !dice.is_empty() {
                extra.extend(["--dice", dice_text.as_str()]);
            }
            extra.push("--json");
            let context = format!(
                "seed {}, ply {ply}, the oracle's rule {rule}, dice [{dice_text}], \
                 candidates {candidates:?}, played {played}\n  `variant policy {GAME} --play \
                 \"{prefix}\" {}`",
                game.seed,
                extra.join(" ")
            );
            compared += 1;
            let ours: Value = match engine("policy", &prefix, &extra) {
                Ok(text) => match serde_json::from_str(text.trim()) {
                    Ok(value) => value,
                    Err(e) => {
                        failures.push(format!("not one JSON object ({e}): {text:?} at {context}"));
                        continue;
                    }
                },
                Err(e) => {
                    failures.push(format!("at {context}:\n  {e}"));
                    continue;
                }
            };
            let mut wrong = Vec::new();
            if ours["side"] != "red" {
                wrong.push(format!("side {} (expected \"red\")", ours["side"]));
            }
            if ours["rule"].as_str() != Some(rule) {
                wrong.push(format!("rule {} (expected \"{rule}\")", ours["rule"]));
            }
            let our_dice: Option<Vec<u64>> = ours["dice"]
                .as_array()
                .and_then(|list| list.iter().map(Value::as_u64).collect());
            if our_dice.as_ref() != Some(&dice) {
                wrong.push(format!("dice {} (expected {dice:?})", ours["dice"]));
            }
            let our_candidates = ours["candidates"].as_array().map(|list| {
                sorted(
                    list.iter()
                        .map(|c| c.as_str().map_or_else(|| c.to_string(), str::to_string))
                        .collect(),
                )
            });
            match &our_candidates {
                Some(list) if *list == candidates => {}
                Some(list) => wrong.push(format!("candidates: {}", list_diff(list, &candidates))),
                None => wrong.push(format!("candidates {} (not a list)", ours["candidates"])),
            }
            let our_list = our_candidates.unwrap_or_default();
            if !our_list.iter().any(|c| c == played) {
                wrong.push(format!(
                    "the oracle's played {played} is not among the engine's candidates"
                ));
            }
            if let Some(chosen) = ours["chosen"].as_str() {
                if !our_list.iter().any(|c| c == chosen) {
                    wrong.push(format!(
                        "chosen {chosen} is not among the engine's candidates"
                    ));
                }
            }
            if !wrong.is_empty() {
                failures.push(format!(
                    "Red's policy differs: {}\n  at {context}\n  engine printed {ours}",
                    wrong.join("; ")
                ));
            }
            if failures.len() >= REPORTED_PER_GAME {
                failures.push(format!("seed {}: further plies not compared", game.seed));
                break;
            }
        }
        (failures, compared)
    });
}

#[test]
fn a_seeded_oracle_game_replays_to_the_same_result() {
    if skip_without_python("a_seeded_oracle_game_replays_to_the_same_result") {
        return;
    }
    for seed in FINISHED {
        let game = Game::new(seed, 20000);
        let result = &game.result;
        assert!(
            !result.is_null(),
            "seed {seed}: the oracle's game did not finish"
        );
        let winners = sorted(strings(&result["winners"], "the oracle's winners"));
        let reason = result["reason"].as_str().unwrap_or("?");
        let n = game.plies.len();
        let all = game.prefix(n);
        let context = format!(
            "seed {seed} (the oracle: winners {winners:?}, {reason}) after {n} plies\n  \
             --play \"{all}\""
        );

        // One ply before the end the game is still on.
        let before = common::variant(&["show", GAME, "--play", &game.prefix(n - 1), "--json"]);
        assert!(
            before.status.success(),
            "{}\n{context}",
            common::stderr(&before)
        );
        let before: Value = serde_json::from_slice(&before.stdout).expect("one JSON object");
        assert!(
            before["result"].is_null(),
            "the game ended one ply early: {}\n{context}",
            before["result"]
        );

        let shown = common::variant(&["show", GAME, "--play", &all, "--json"]);
        assert!(
            shown.status.success(),
            "{}\n{context}",
            common::stderr(&shown)
        );
        let shown: Value = serde_json::from_slice(&shown.stdout).expect("one JSON object");
        let ours = &shown["result"];
        assert!(!ours.is_null(), "no result after the whole game\n{context}");
        let our_winners = sorted(strings(&ours["winners"], "the engine's winners"));
        assert_eq!(
            our_winners, winners,
            "winners differ (engine result {ours})\n{context}"
        );
        assert_eq!(
            ours["draw"].as_bool(),
            Some(winners.is_empty()),
            "draw or not (engine result {ours})\n{context}"
        );
        let final_state = &game.plies[n - 1]["state"];
        assert_eq!(
            shown["side_to_move"], final_state["side_to_move"],
            "side to move at the end\n{context}"
        );
    }
}
