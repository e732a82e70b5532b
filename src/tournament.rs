//! `variant match`: two players, many games, a verdict with its uncertainty.
//!
//! Why a confidence interval: ten games between two players prove little, and a strength claim
//! ("MCTS beats random") must say how sure it is. Each game scores 1, ½ or 0 for A; the
//! interval is Wilson's 95% score interval of the mean score, which stays inside 0–100% and
//! does not shrink to nothing after a sweep (the normal approximation says `100% ± 0%` after six
//! wins). Sides alternate game by game (A takes side `g mod sides`, B every other side), so
//! neither player keeps the first move, and A's results are also given per side it played:
//! the first mover's advantage shows there. Games run on `--jobs` threads, each with its own session; game `g` is seeded by the
//! match seed and `g`, so a match with counted budgets is reproducible whatever `--jobs` is.

use crate::play::{side_seed, MAX_PLIES};
use crate::sprt::{Pentanomial, Sprt, Verdict};
use crate::{catalog, emit, Failure};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;
use variant_dsl::Definition;
use variant_interpreter::{Agent, AgentOptions, PlayerSpec, Session};

/// What `variant match` was asked.
pub struct MatchArgs {
    pub game: String,
    pub a: String,
    pub b: String,
    pub games: usize,
    pub seed: u64,
    pub jobs: usize,
    pub threads: usize,
    pub json: bool,
    /// `--sprt`: stop when the test decides, `--games` being the limit.
    pub sprt: Option<Sprt>,
}

/// One game's result for A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
}

/// Plays game number `index`: A on side `index mod sides`, B on the others. Sides with a
/// policy in the game file keep it; A rotates through the others. Returns A's side and score.
fn one_game(
    definition: &Definition,
    a: PlayerSpec,
    b: PlayerSpec,
    index: usize,
    seed: u64,
    threads: usize,
) -> Result<(usize, Score), String> {
    let mut session = variant_interpreter::open(definition, None).map_err(|e| e.to_string())?;
    let sides = definition.sides.len();
    let scripted = |side: usize| {
        definition
            .policies
            .iter()
            .any(|policy| policy.side.0 as usize == side)
    };
    let free: Vec<usize> = (0..sides).filter(|&side| !scripted(side)).collect();
    if free.is_empty() {
        return Err("every side of this game is moved by its policy: no side for A".into());
    }
    let a_side = free[index % free.len()];
    let game_seed = side_seed(seed, index.wrapping_mul(31));
    let mut agents = Vec::new();
    for side in 0..sides {
        let spec = if scripted(side) {
            PlayerSpec::Policy
        } else if side == a_side {
            a
        } else {
            b
        };
        let options = AgentOptions {
            seed: side_seed(game_seed, side),
            threads,
        };
        agents.push(session.agent(spec, options).map_err(|e| e.to_string())?);
    }
    while session.outcome().is_none() && session.history().len() < MAX_PLIES {
        play_agent_move(definition, session.as_mut(), &mut agents)?;
    }
    let score = match session.outcome() {
        Some(outcome) if outcome.is_draw() => Score::Draw,
        Some(outcome) if outcome.winners.contains(&definition.sides[a_side].name) => Score::Win,
        Some(_) => Score::Loss,
        None => Score::Draw,
    };
    Ok((a_side, score))
}

fn parse_player(text: &str, which: &str) -> Result<PlayerSpec, Failure> {
    let spec: PlayerSpec = text
        .parse()
        .map_err(|e| Failure::Message(format!("player {which}: {e}")))?;
    if spec.is_human() {
        return Err(Failure::Message(format!(
            "player {which}: a match is between computer players (`human` plays with `variant play`)"
        )));
    }
    Ok(spec)
}

/// The normal distribution's 97.5% quantile: a two-sided 95% interval.
const Z: f64 = 1.959_963_984_540_054;

/// A's mean score (a win 1, a draw ½) and Wilson's 95% score interval around it, as fractions
/// (`(mean, low, high)`); all zero when no game was played.
pub fn wilson_interval(wins: usize, draws: usize, losses: usize) -> (f64, f64, f64) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = (wins as f64 + draws as f64 / 2.0) / n;
    let z2 = Z * Z;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt();
    (
        mean,
        (centre - half).clamp(0.0, 1.0),
        (centre + half).clamp(0.0, 1.0),
    )
}

/// A's results on one side: wins, draws, losses.
type Tally = [usize; 3];

/// `6 wins, 0 draws, 0 losses`.
fn tally_words([wins, draws, losses]: Tally) -> String {
    format!("{wins} wins, {draws} draws, {losses} losses")
}

/// The score and its interval in words: `100.0% (95% confidence interval 61.0% to 100.0%)`.
fn score_words([wins, draws, losses]: Tally) -> String {
    let (mean, low, high) = wilson_interval(wins, draws, losses);
    format!(
        "{:.1}% (95% confidence interval {:.1}% to {:.1}%)",
        mean * 100.0,
        low * 100.0,
        high * 100.0
    )
}

/// The sides in the order they first move (the turn order's first appearance of each).
fn sides_in_turn_order(definition: &Definition) -> Vec<usize> {
    let mut order: Vec<usize> = Vec::new();
    for side in &definition.turn_order {
        if !order.contains(&(side.0 as usize)) {
            order.push(side.0 as usize);
        }
    }
    for side in 0..definition.sides.len() {
        if !order.contains(&side) {
            order.push(side);
        }
    }
    order
}

/// `first`, `second`, `third`... mover.
fn ordinal(index: usize) -> String {
    match index {
        0 => "first".into(),
        1 => "second".into(),
        2 => "third".into(),
        3 => "fourth".into(),
        n => format!("{}th", n + 1),
    }
}

pub fn run(args: MatchArgs) -> Result<ExitCode, Failure> {
    let definition = catalog::load(&args.game)?.definition;
    let a = parse_player(&args.a, "A")?;
    let b = parse_player(&args.b, "B")?;
    // Fail early, with a clear message, if a player cannot play this game.
    let probe = variant_interpreter::open(&definition, None)?;
    for (spec, which) in [(a, "A"), (b, "B")] {
        probe
            .agent(spec, AgentOptions::default())
            .map_err(|e| Failure::Message(format!("player {which}: {e}")))?;
    }
    let progress = if std::io::stderr().is_terminal() && !args.json {
        let bar = ProgressBar::new(args.games as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, {eta} left {msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::hidden())
    };
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut by_side: Vec<Tally> = vec![[0; 3]; definition.sides.len()];
    let mut tally: Tally = [0; 3];
    let mut failure = None;
    let mut sprt_state = SprtState {
        test: args.sprt,
        pairs: [0; 5],
        first_of_pair: None,
        verdict: Verdict::Undecided,
    };
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1).min(args.games.max(1)) {
            let sender = sender.clone();
            let (definition, next) = (&definition, &next);
            let args = &args;
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= args.games {
                    return;
                }
                let result = one_game(definition, a, b, index, args.seed, args.threads);
                let failed = result.is_err();
                if sender.send((index, result)).is_err() || failed {
                    return;
                }
            });
        }
        drop(sender);
        // Games are counted in their order, whatever thread finished first, so that the SPRT
        // stops at the same pair with any --jobs.
        let mut waiting = BTreeMap::new();
        let mut counted = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&counted) {
                counted += 1;
                match result {
                    Ok((side, score)) if sprt_state.verdict == Verdict::Undecided => {
                        tally[score as usize] += 1;
                        by_side[side][score as usize] += 1;
                        progress.inc(1);
                        let decided = sprt_state.count(score);
                        let mut message = format!("A: +{} ={} -{}", tally[0], tally[1], tally[2]);
                        if let Some(test) = &args.sprt {
                            message.push_str(&format!(", LLR {:.2}", test.llr(&sprt_state.pairs)));
                        }
                        progress.set_message(message);
                        if decided {
                            next.store(usize::MAX / 2, Ordering::Relaxed);
                        }
                    }
                    Err(message) if sprt_state.verdict == Verdict::Undecided => {
                        failure.get_or_insert(message);
                        next.store(usize::MAX / 2, Ordering::Relaxed);
                    }
                    // Games still in play when the SPRT decided are not counted.
                    _ => {}
                }
            }
        }
    });
    progress.finish_and_clear();
    if let Some(message) = failure {
        return Err(Failure::Message(format!(
            "a game could not be played: {message}"
        )));
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    let [wins, draws, losses] = tally;
    let games = wins + draws + losses;
    let per_second = games as f64 / seconds;
    let (mean, low, high) = wilson_interval(wins, draws, losses);
    // A's results per side it played, in the order the sides first move.
    let sides: Vec<(usize, Tally)> = sides_in_turn_order(&definition)
        .into_iter()
        .map(|side| (side, by_side[side]))
        .filter(|(_, tally)| tally.iter().sum::<usize>() > 0)
        .collect();
    if args.json {
        let per_side: serde_json::Map<String, serde_json::Value> = sides
            .iter()
            .map(|&(side, [wins, draws, losses])| {
                let (score, low, high) = wilson_interval(wins, draws, losses);
                (
                    definition.sides[side].name.clone(),
                    serde_json::json!({
                        "games": wins + draws + losses,
                        "wins": wins,
                        "draws": draws,
                        "losses": losses,
                        "score": score,
                        "score_low": low,
                        "score_high": high,
                    }),
                )
            })
            .collect();
        let mut value = serde_json::json!({
                "games": games,
                "a": a.to_string(),
                "b": b.to_string(),
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "games_per_second": per_second,
                "score": mean,
                "score_low": low,
                "score_high": high,
                "by_side": per_side,
        });
        if let Some(sprt) = sprt_state.json() {
            value["sprt"] = sprt;
        }
        emit(&format!("{value}\n"))?;
    } else {
        let mut text = format!(
            "{}: A = {a}, B = {b}, {games} games (seed {})\n\
             A: {}\n\
             A's score: {}\n",
            definition.name,
            args.seed,
            tally_words(tally),
            score_words(tally),
        );
        let order = sides_in_turn_order(&definition);
        for &(side, side_tally) in &sides {
            let mover = order.iter().position(|&s| s == side).unwrap_or(side);
            let [w, d, l] = side_tally;
            let (mean, low, high) = wilson_interval(w, d, l);
            text.push_str(&format!(
                "A as {} ({} mover): {}, score {:.1}% ({:.1}% to {:.1}%)\n",
                definition.sides[side].name,
                ordinal(mover),
                tally_words(side_tally),
                mean * 100.0,
                low * 100.0,
                high * 100.0
            ));
        }
        if let Some(line) = sprt_state.words() {
            text.push_str(&line);
        }
        text.push_str(&format!("{per_second:.2} games per second\n"));
        emit(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The SPRT's count of game pairs while a match runs.
struct SprtState {
    test: Option<Sprt>,
    pairs: Pentanomial,
    /// A's half points in the first game of the pair under way.
    first_of_pair: Option<usize>,
    verdict: Verdict,
}

impl SprtState {
    /// Counts a game, in game order; true when the test has just decided.
    fn count(&mut self, score: Score) -> bool {
        let Some(test) = self.test else {
            return false;
        };
        let half_points = 2 - score as usize;
        match self.first_of_pair.take() {
            None => self.first_of_pair = Some(half_points),
            Some(first) => {
                self.pairs[first + half_points] += 1;
                self.verdict = test.verdict(&self.pairs);
            }
        }
        self.verdict != Verdict::Undecided
    }

    /// `SPRT (0, 10, α 0.05, β 0.05): LLR 3.02 (bounds -2.94, 2.94), 7 pairs [0, 0, 0, 1, 6]: H1 accepted`.
    fn words(&self) -> Option<String> {
        let test = self.test?;
        let (lower, upper) = test.bounds();
        let verdict = match self.verdict {
            Verdict::H0 => "H0 accepted (elo0)".to_string(),
            Verdict::H1 => "H1 accepted (elo1)".to_string(),
            Verdict::Undecided => "undecided at the game limit".to_string(),
        };
        Some(format!(
            "SPRT elo0 {}, elo1 {}, alpha {}, beta {}: LLR {:.2} (bounds {:.2}, {:.2}), {} pairs {:?}: {verdict}\n",
            test.elo0,
            test.elo1,
            test.alpha,
            test.beta,
            test.llr(&self.pairs),
            lower,
            upper,
            self.pairs.iter().sum::<u64>(),
            self.pairs,
        ))
    }

    fn json(&self) -> Option<serde_json::Value> {
        let test = self.test?;
        let (lower, upper) = test.bounds();
        Some(serde_json::json!({
            "elo0": test.elo0,
            "elo1": test.elo1,
            "alpha": test.alpha,
            "beta": test.beta,
            "llr": test.llr(&self.pairs),
            "lower": lower,
            "upper": upper,
            "pairs": self.pairs.iter().sum::<u64>(),
            "pentanomial": self.pairs,
            "result": self.verdict.to_string(),
        }))
    }
}

/// Plays the move that the agent of the side to move chooses (`agents` in the definition's side
/// order); the side that moved, by name.
pub(crate) fn play_agent_move(
    definition: &Definition,
    session: &mut dyn Session,
    agents: &mut [Box<dyn Agent>],
) -> Result<String, String> {
    let to_move = session.side_to_move();
    let side = definition
        .sides
        .iter()
        .position(|s| s.name == to_move)
        .unwrap_or(0);
    let choice = agents[side]
        .choose(session)
        .ok_or_else(|| format!("{} found no move", agents[side].spec()))?;
    session.play(&choice.mv).map_err(|e| e.to_string())?;
    Ok(to_move)
}

#[cfg(test)]
mod tests {
    use super::wilson_interval;

    #[test]
    fn a_sweep_of_six_games_is_not_certain() {
        let (mean, low, high) = wilson_interval(6, 0, 0);
        assert_eq!(mean, 1.0);
        assert!((low - 0.610).abs() < 0.001, "{low}");
        assert_eq!(high, 1.0);
    }

    #[test]
    fn a_split_is_wide_and_centred() {
        let (mean, low, high) = wilson_interval(50, 0, 50);
        assert!((mean - 0.5).abs() < 1e-12);
        assert!((low - 0.4038).abs() < 0.001, "{low}");
        assert!((high - 0.5962).abs() < 0.001, "{high}");
        assert_eq!(wilson_interval(0, 0, 0), (0.0, 0.0, 0.0));
    }

    #[test]
    fn draws_count_half() {
        let (mean, low, high) = wilson_interval(0, 10, 0);
        assert!((mean - 0.5).abs() < 1e-12);
        assert!(low > 0.2 && high < 0.8, "{low} {high}");
    }
}
