//! `variant match`: two players, many games, a verdict with its uncertainty.
//!
//! Why a confidence interval: ten games between two players prove little, and a strength claim
//! ("MCTS beats random") must say how sure it is. Each game scores 1, ½ or 0 for A; the
//! interval is the normal approximation of the mean score's 95% interval. Sides alternate game
//! by game (A takes side `g mod sides`, B every other side), so neither player keeps the first
//! move. Games run on `--jobs` threads, each with its own session; game `g` is seeded by the
//! match seed and `g`, so a match with counted budgets is reproducible whatever `--jobs` is.

use crate::play::{side_seed, MAX_PLIES};
use crate::{catalog, emit, Failure};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;
use variant_dsl::Definition;
use variant_interpreter::{AgentOptions, PlayerSpec};

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
}

/// One game's result for A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
}

/// Plays game number `index`: A on side `index mod sides`, B on the others. Sides with a
/// policy in the game file keep it; A rotates through the others.
fn one_game(
    definition: &Definition,
    a: PlayerSpec,
    b: PlayerSpec,
    index: usize,
    seed: u64,
    threads: usize,
) -> Result<Score, String> {
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
        let to_move = session.side_to_move();
        let side = definition
            .sides
            .iter()
            .position(|s| s.name == to_move)
            .unwrap_or(0);
        let choice = agents[side]
            .choose(session.as_ref())
            .ok_or_else(|| format!("{} found no move", agents[side].spec()))?;
        session.play(&choice.mv).map_err(|e| e.to_string())?;
    }
    Ok(match session.outcome() {
        Some(outcome) if outcome.is_draw() => Score::Draw,
        Some(outcome) if outcome.winners.contains(&definition.sides[a_side].name) => Score::Win,
        Some(_) => Score::Loss,
        None => Score::Draw,
    })
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

/// The mean score and the half-width of its 95% confidence interval.
pub fn score_interval(wins: usize, draws: usize, losses: usize) -> (f64, f64) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mean = (wins as f64 + draws as f64 / 2.0) / n;
    let variance = (wins as f64 * (1.0 - mean).powi(2)
        + draws as f64 * (0.5 - mean).powi(2)
        + losses as f64 * mean.powi(2))
        / n;
    (mean, 1.96 * (variance / n).sqrt())
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
    let mut tally = [0usize; 3];
    let mut failure = None;
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
                if sender.send(result).is_err() || failed {
                    return;
                }
            });
        }
        drop(sender);
        for result in receiver {
            match result {
                Ok(score) => {
                    tally[score as usize] += 1;
                    progress.inc(1);
                    progress.set_message(format!("A: +{} ={} -{}", tally[0], tally[1], tally[2]));
                }
                Err(message) => {
                    failure.get_or_insert(message);
                    next.store(usize::MAX / 2, Ordering::Relaxed);
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
    if args.json {
        emit(&format!(
            "{}\n",
            serde_json::json!({
                "games": games,
                "a": a.to_string(),
                "b": b.to_string(),
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "games_per_second": per_second,
            })
        ))?;
    } else {
        let (mean, half) = score_interval(wins, draws, losses);
        emit(&format!(
            "{}: A = {a}, B = {b}, {games} games (seed {})\n\
             A: {wins} wins, {draws} draws, {losses} losses\n\
             A's score: {:.1}% ± {:.1}% (95% confidence interval)\n\
             {per_second:.2} games per second\n",
            definition.name,
            args.seed,
            mean * 100.0,
            half * 100.0,
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::score_interval;

    #[test]
    fn interval_of_a_sweep_is_zero_width_and_of_a_split_is_wide() {
        assert_eq!(score_interval(10, 0, 0), (1.0, 0.0));
        let (mean, half) = score_interval(50, 0, 50);
        assert!((mean - 0.5).abs() < 1e-12);
        assert!((half - 0.098).abs() < 0.001, "{half}");
        assert_eq!(score_interval(0, 0, 0), (0.0, 0.0));
    }
}
