//! `variant analyze` and `variant merge`: what a designer asks of a new variant — is it
//! balanced, do games end, how long are they, how many choices are there, what is a piece worth
//! — measured by seeded self-play.
//!
//! Why two layers, a [`Tally`] and [`Figures`]: a tally holds only what adds up exactly (each
//! game's record, integer sums of legal actions and of the regression's products), so shards
//! played on many machines (`--shard K/N`) merge into the very tally of the unsharded run, and
//! the figures, computed from a tally in game order, are then the same to the last digit. The
//! figures are named after Ludii's metrics where one exists (Balance, AdvantageP1, Drawishness,
//! Completion, Timeouts) so that results compare.
//!
//! Game `g` is seeded as in `variant match` (from the run's seed and `g`), so a run with counted
//! budgets is reproducible whatever `--jobs` and however it is sharded.

use crate::play::{side_seed, MAX_PLIES};
use crate::tournament::{play_agent_move, wilson_interval};
use crate::{catalog, emit, plot, Failure};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;
use variant_dsl::Definition;
use variant_interpreter::{AgentOptions, Cell, Outcome, PlayerSpec, Session};

/// The players when none are given: a small counted budget, so runs are quick and reproducible.
const DEFAULT_PLAYERS: &str = "mcts:100";

/// What `variant analyze` was asked.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// A `.variant` file, or the name of a game in `games/`.
    pub game: String,
    /// The players, comma-separated: one plays every side, several take the sides in turn,
    /// rotated game by game (random, mcts[:PLAYOUTS|:SECONDSs], search[:DEPTH|:SECONDSs]).
    #[arg(long, value_name = "A,B,...", default_value = DEFAULT_PLAYERS)]
    pub players: String,
    /// Number of games of the whole run.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Games played at once, on that many threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub jobs: u16,
    /// Seed of the run (each game gets its own from it).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object: game, file, players, seed, figures, tally, seconds,
    /// games_per_second (the input of `variant merge`).
    #[arg(long)]
    pub json: bool,
    /// Write an SVG picture of the length distribution and the score over games.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Play only the K-th of N slices of the run's games (games g with g mod N = K-1).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Estimate a value for each piece type by regression over the played positions.
    #[arg(long)]
    pub piece_values: bool,
    /// Stop a game after this many plies; it counts as a timeout.
    #[arg(long, default_value_t = MAX_PLIES as u32, value_parser = clap::value_parser!(u32).range(1..=MAX_PLIES as i64))]
    pub max_plies: u32,
}

/// `--shard K/N`: the K-th (from 1) of N slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let malformed =
            || format!("`{text}` is not a shard: write K/N with 1 <= K <= N, e.g. `2/8`");
        let (index, count) = text.split_once('/').ok_or_else(malformed)?;
        let index: usize = index.trim().parse().map_err(|_| malformed())?;
        let count: usize = count.trim().parse().map_err(|_| malformed())?;
        if index == 0 || count == 0 || index > count || count > 1_000_000 {
            return Err(malformed());
        }
        Ok(Shard { index, count })
    }
}

/// One game, as it adds up: who scored what, why it ended, how long it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the run, from 0.
    pub index: usize,
    /// Half points per side, in the file's side order: 2 a win, 1 a draw (or a timeout), 0 a loss.
    pub points: Vec<u8>,
    /// The end rule that ended it (`checkmate`, `score`, ...), or `None` when stopped at the
    /// ply limit.
    pub reason: Option<String>,
    pub plies: usize,
    pub turns: usize,
}

/// Legal actions counted over positions: `[sum of legal actions, positions]`.
type Count = [u64; 2];

/// The branching sums: by stage (first, middle, last third of each game) and by phase.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Branching {
    pub stages: [Count; 3],
    pub phases: BTreeMap<String, Count>,
}

/// The sums of a least-squares fit of the first mover's result on the material difference:
/// `XᵀX` and `Xᵀy` over the played positions, integers so that they add up exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Regression {
    pub xtx: Vec<Vec<i64>>,
    pub xty: Vec<i64>,
    pub positions: u64,
}

/// Everything a run (or a shard of it) measured, in a form that adds up exactly.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// The game as it was named on the command line (a file or a name in `games/`).
    pub file: String,
    /// The game's display name.
    pub game: String,
    pub players: Vec<String>,
    pub seed: u64,
    /// The games of the whole run.
    pub games: usize,
    pub max_plies: usize,
    /// The number of shards the run was cut into (1 when unsharded), and those included here.
    pub shard_count: usize,
    pub shards: Vec<usize>,
    pub records: Vec<GameRecord>,
    pub branching: Branching,
    pub regression: Option<Regression>,
    pub seconds: f64,
}

pub fn run(args: AnalyzeArgs) -> Result<ExitCode, Failure> {
    let definition = catalog::load(&args.game)?.definition;
    let players = parse_players(&args.players)?;
    let probe = variant_interpreter::open(&definition, None)?;
    for spec in &players {
        probe
            .agent(*spec, AgentOptions::default())
            .map_err(|e| Failure::Message(format!("player {spec}: {e}")))?;
    }
    let shard = args.shard.unwrap_or(Shard { index: 1, count: 1 });
    let games = args.games as usize;
    let indices: Vec<usize> = (0..games)
        .filter(|g| g % shard.count == shard.index - 1)
        .collect();
    let setup = Setup {
        definition: &definition,
        players: &players,
        seed: args.seed,
        max_plies: args.max_plies as usize,
        features: args.piece_values.then(|| Features::of(&definition)),
    };
    let start = Instant::now();
    let (records, branching, regression) =
        play_all(&setup, &indices, args.jobs as usize, args.json)?;
    let tally = Tally {
        file: args.game.clone(),
        game: definition.name.clone(),
        players: players.iter().map(ToString::to_string).collect(),
        seed: args.seed,
        games,
        max_plies: args.max_plies as usize,
        shard_count: shard.count,
        shards: vec![shard.index],
        records,
        branching,
        regression,
        seconds: start.elapsed().as_secs_f64(),
    };
    report(&definition, tally, args.json, args.plot.as_deref())
}

fn parse_players(text: &str) -> Result<Vec<PlayerSpec>, Failure> {
    text.split(',')
        .map(|part| {
            let spec: PlayerSpec = part
                .trim()
                .parse()
                .map_err(|e| Failure::Message(format!("--players: {e}")))?;
            if spec.is_human() {
                return Err(Failure::Message(
                    "--players: an analysis is played by computer players (`human` plays with `variant play`)".into(),
                ));
            }
            Ok(spec)
        })
        .collect()
}

/// What every game of a run shares.
struct Setup<'a> {
    definition: &'a Definition,
    players: &'a [PlayerSpec],
    seed: u64,
    max_plies: usize,
    features: Option<Features>,
}

/// What one game adds to the tally.
struct Played {
    record: GameRecord,
    branching: Branching,
    regression: Option<Regression>,
}

/// Plays the games `indices` on `jobs` threads; returns their records in game order.
fn play_all(
    setup: &Setup,
    indices: &[usize],
    jobs: usize,
    json: bool,
) -> Result<(Vec<GameRecord>, Branching, Option<Regression>), Failure> {
    let progress = progress_bar(indices.len(), json);
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel();
    let mut played: Vec<Played> = Vec::new();
    let mut running = Running::default();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(indices.len().max(1)) {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || loop {
                let Some(&index) = indices.get(next.fetch_add(1, Ordering::Relaxed)) else {
                    return;
                };
                let result = play_one(setup, index);
                let failed = result.is_err();
                if sender.send(result).is_err() || failed {
                    return;
                }
            });
        }
        drop(sender);
        for result in receiver {
            match result {
                Ok(game) => {
                    running.add(setup.definition, &game.record);
                    played.push(game);
                    progress.inc(1);
                    progress.set_message(running.words());
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
    played.sort_by_key(|game| game.record.index);
    let mut branching = Branching::default();
    let mut regression = setup.features.as_ref().map(Features::empty);
    let mut records = Vec::new();
    for game in played {
        add_branching(&mut branching, &game.branching);
        if let (Some(total), Some(part)) = (&mut regression, &game.regression) {
            add_regression(total, part);
        }
        records.push(game.record);
    }
    Ok((records, branching, regression))
}

fn progress_bar(games: usize, json: bool) -> ProgressBar {
    if std::io::stderr().is_terminal() && !json {
        let bar = ProgressBar::new(games as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, {eta} left {msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::with_draw_target(Some(games as u64), ProgressDrawTarget::hidden())
    }
}

/// The running figures beside the progress bar: the first mover's score, draws, mean length;
/// kept as sums, so that a long run does not recount its games after each one.
#[derive(Default)]
struct Running {
    games: usize,
    first_points: usize,
    draws: usize,
    plies: usize,
}

impl Running {
    fn add(&mut self, definition: &Definition, record: &GameRecord) {
        let first = sides_in_turn_order(definition)[0];
        self.games += 1;
        self.first_points += record.points[first] as usize;
        self.draws += usize::from(record.reason.is_some() && record.points.iter().all(|&p| p == 1));
        self.plies += record.plies;
    }

    fn words(&self) -> String {
        let n = self.games.max(1) as f64;
        format!(
            "first mover {:.1}%, draws {:.1}%, {:.1} plies",
            self.first_points as f64 / 2.0 / n * 100.0,
            self.draws as f64 / n * 100.0,
            self.plies as f64 / n
        )
    }
}

/// Plays game number `index`: the players take the free sides (those without a policy in the
/// file) in turn, rotated by one each game.
fn play_one(setup: &Setup, index: usize) -> Result<Played, String> {
    let definition = setup.definition;
    let mut session = variant_interpreter::open(definition, None).map_err(|e| e.to_string())?;
    let game_seed = side_seed(setup.seed, index.wrapping_mul(31));
    let mut free = 0;
    let mut agents = Vec::new();
    for side in 0..definition.sides.len() {
        let scripted = definition
            .policies
            .iter()
            .any(|p| p.side.0 as usize == side);
        let spec = if scripted {
            PlayerSpec::Policy
        } else {
            free += 1;
            setup.players[(free - 1 + index) % setup.players.len()]
        };
        let options = AgentOptions {
            seed: side_seed(game_seed, side),
            threads: 1,
        };
        agents.push(session.agent(spec, options).map_err(|e| e.to_string())?);
    }
    let mut legal: Vec<u64> = Vec::new();
    let mut branching = Branching::default();
    let mut regression = setup.features.as_ref().map(Features::empty);
    let mut feature_sum = vec![0i64; definition.pieces.len() + 1];
    let mut movers: Vec<String> = Vec::new();
    while session.outcome().is_none() && session.history().len() < setup.max_plies {
        let actions = session.legal_moves().len() as u64;
        legal.push(actions);
        if !definition.phases.is_empty() {
            let phase = session.turn_report().phase.unwrap_or_else(|| "play".into());
            let count = branching.phases.entry(phase).or_default();
            count[0] += actions;
            count[1] += 1;
        }
        if let (Some(features), Some(sums)) = (&setup.features, &mut regression) {
            let x = features.difference(session.as_ref());
            features.add_outer(sums, &x);
            for (sum, value) in feature_sum.iter_mut().zip(&x) {
                *sum += value;
            }
        }
        movers.push(play_agent_move(definition, session.as_mut(), &mut agents)?);
    }
    let plies = legal.len();
    for (ply, &actions) in legal.iter().enumerate() {
        let stage = ply * 3 / plies;
        branching.stages[stage][0] += actions;
        branching.stages[stage][1] += 1;
    }
    let outcome = session.outcome();
    let points: Vec<u8> = definition
        .sides
        .iter()
        .map(|side| match &outcome {
            Some(o) if !o.is_draw() => 2 * o.winners.contains(&side.name) as u8,
            _ => 1,
        })
        .collect();
    if let Some(sums) = &mut regression {
        let first = sides_in_turn_order(definition)[0];
        let y = points[first] as i64 - 1;
        for (total, sum) in sums.xty.iter_mut().zip(&feature_sum) {
            *total += y * sum;
        }
    }
    let reason = outcome.map(|o| end_reason(definition, &o));
    let turns =
        movers.windows(2).filter(|w| w[0] != w[1]).count() + usize::from(!movers.is_empty());
    Ok(Played {
        record: GameRecord {
            index,
            points,
            reason,
            plies,
            turns,
        },
        branching,
        regression,
    })
}

/// The name of a game's end in the report: the reason (`checkmate`, `repetition`, ...), and for
/// an end condition of the file, which one, by its text and line, so that each end rule of the
/// file is counted on its own (`condition `loses when ...` (line 12)`).
fn end_reason(definition: &Definition, outcome: &Outcome) -> String {
    let kind = serde_json::to_value(outcome.reason)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_else(|| outcome.reason.words().to_string());
    match outcome
        .rule
        .and_then(|rule| definition.end.conditions.get(rule))
    {
        Some(written) => format!(
            "{kind} `{}` (line {})",
            written.origin.text, written.origin.line
        ),
        None => kind,
    }
}

/// The material difference of a position: per piece type, the pieces (on the board and in hand)
/// of the first mover's team minus those of the other sides.
struct Features {
    /// Per side, whether it is on the first mover's team.
    ours: Vec<bool>,
    /// Piece index by upper-case FEN letter.
    letters: BTreeMap<char, usize>,
    pieces: usize,
}

impl Features {
    fn of(definition: &Definition) -> Self {
        let first = sides_in_turn_order(definition)[0];
        let ours = (0..definition.sides.len())
            .map(|side| {
                side == first
                    || definition.teams.iter().any(|team| {
                        team.iter().any(|s| s.0 as usize == first)
                            && team.iter().any(|s| s.0 as usize == side)
                    })
            })
            .collect();
        let letters = definition
            .pieces
            .iter()
            .enumerate()
            .map(|(index, piece)| (piece.letter.to_ascii_uppercase(), index))
            .collect();
        Features {
            ours,
            letters,
            pieces: definition.pieces.len(),
        }
    }

    /// The sums of no position: one column per piece type, and a last one, always 1, for the
    /// first mover's advantage at equal material (the intercept).
    fn empty(&self) -> Regression {
        Regression {
            xtx: vec![vec![0; self.pieces + 1]; self.pieces + 1],
            xty: vec![0; self.pieces + 1],
            positions: 0,
        }
    }

    fn difference(&self, session: &dyn Session) -> Vec<i64> {
        let mut x = vec![0i64; self.pieces + 1];
        x[self.pieces] = 1;
        let sign = |side: usize| {
            if self.ours.get(side).copied().unwrap_or(false) {
                1
            } else {
                -1
            }
        };
        for cell in session.board().cells {
            if let Cell::Piece { side, letter, .. } = cell {
                if let Some(&piece) = self.letters.get(&letter.to_ascii_uppercase()) {
                    x[piece] += sign(side);
                }
            }
        }
        let names: Vec<String> = session
            .definition()
            .sides
            .iter()
            .map(|s| s.name.clone())
            .collect();
        for hand in session.hands() {
            let side = names.iter().position(|n| *n == hand.side).unwrap_or(0);
            for (letter, _, count) in hand.pieces {
                if let Some(&piece) = self.letters.get(&letter.to_ascii_uppercase()) {
                    x[piece] += sign(side) * count as i64;
                }
            }
        }
        x
    }

    fn add_outer(&self, sums: &mut Regression, x: &[i64]) {
        for (row, &a) in sums.xtx.iter_mut().zip(x) {
            for (cell, &b) in row.iter_mut().zip(x) {
                *cell += a * b;
            }
        }
        sums.positions += 1;
    }
}

fn add_branching(total: &mut Branching, part: &Branching) {
    for (t, p) in total.stages.iter_mut().zip(&part.stages) {
        t[0] += p[0];
        t[1] += p[1];
    }
    for (phase, count) in &part.phases {
        let t = total.phases.entry(phase.clone()).or_default();
        t[0] += count[0];
        t[1] += count[1];
    }
}

fn add_regression(total: &mut Regression, part: &Regression) {
    for (t, p) in total.xtx.iter_mut().zip(&part.xtx) {
        for (a, b) in t.iter_mut().zip(p) {
            *a += b;
        }
    }
    for (a, b) in total.xty.iter_mut().zip(&part.xty) {
        *a += b;
    }
    total.positions += part.positions;
}

/// The sides in the order they first move.
fn sides_in_turn_order(definition: &Definition) -> Vec<usize> {
    let mut order: Vec<usize> = Vec::new();
    for side in definition
        .turn_order
        .iter()
        .map(|s| s.0 as usize)
        .chain(0..definition.sides.len())
    {
        if !order.contains(&side) {
            order.push(side);
        }
    }
    order
}

/// A share with Wilson's 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    pub value: f64,
    pub low: f64,
    pub high: f64,
}

impl Share {
    fn of(count: usize, total: usize) -> Self {
        let (value, low, high) = wilson_interval(count, 0, total - count.min(total));
        Share { value, low, high }
    }

    fn words(&self) -> String {
        format!(
            "{:.1}% ({:.1}% to {:.1}%)",
            self.value * 100.0,
            self.low * 100.0,
            self.high * 100.0
        )
    }
}

/// Results of a seat (or a team): the score counts a draw or a timeout as half.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatFigures {
    pub name: String,
    /// 1 for the first mover.
    pub mover: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub score: Share,
}

/// Mean (with its 95% interval), median, standard deviation, shortest and longest.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub mean_low: f64,
    pub mean_high: f64,
    pub median: f64,
    pub sd: f64,
    pub min: usize,
    pub max: usize,
}

impl Spread {
    fn of(values: &[usize]) -> Self {
        if values.is_empty() {
            return Spread {
                mean: 0.0,
                mean_low: 0.0,
                mean_high: 0.0,
                median: 0.0,
                sd: 0.0,
                min: 0,
                max: 0,
            };
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<usize>() as f64 / n;
        let sd = if values.len() > 1 {
            (values
                .iter()
                .map(|&v| (v as f64 - mean).powi(2))
                .sum::<f64>()
                / (n - 1.0))
                .sqrt()
        } else {
            0.0
        };
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let middle = sorted.len() / 2;
        let median = if sorted.len() % 2 == 1 {
            sorted[middle] as f64
        } else {
            (sorted[middle - 1] + sorted[middle]) as f64 / 2.0
        };
        let half = 1.959_963_984_540_054 * sd / n.sqrt();
        Spread {
            mean,
            mean_low: mean - half,
            mean_high: mean + half,
            median,
            sd,
            min: sorted[0],
            max: sorted[sorted.len() - 1],
        }
    }

    fn words(&self) -> String {
        format!(
            "mean {:.1} ({:.1} to {:.1}), median {}, sd {:.1}, min {}, max {}",
            self.mean, self.mean_low, self.mean_high, self.median, self.sd, self.min, self.max
        )
    }
}

/// Legal actions per position: over the game, by stage, by phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BranchingFigures {
    pub mean: f64,
    pub positions: u64,
    /// The first, middle and last third of each game's plies.
    pub opening: f64,
    pub middle: f64,
    pub ending: f64,
    pub by_phase: BTreeMap<String, f64>,
}

/// A piece type's estimated value beside the file's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PieceValue {
    pub piece: String,
    pub file_value: i32,
    /// The first mover's expected score gained per extra piece of this type (0.5 = a win
    /// instead of a draw); `None` when its material difference never varied.
    pub score_per_piece: Option<f64>,
    /// The same in the file's units: scaled so that the estimated pieces' values add up to
    /// theirs in the file.
    pub estimate: Option<f64>,
}

/// The figures of a run, computed from its tally in game order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figures {
    pub games: usize,
    /// Each side's results, the first mover first.
    pub seats: Vec<SeatFigures>,
    /// Each team's results (games with teams).
    pub teams: Vec<SeatFigures>,
    /// Ludii's Balance: 1 minus the gap between the highest and the lowest seat win rate.
    pub balance: f64,
    /// Ludii's AdvantageP1: the first mover's score (a draw half).
    pub advantage_p1: Share,
    /// Games won by some side.
    pub decisiveness: Share,
    /// Ludii's Drawishness: games drawn by a rule of the game (timeouts excluded).
    pub drawishness: Share,
    /// Games ended by a rule of the game (not stopped at the ply limit).
    pub completion: Share,
    /// Ludii's Timeouts: games stopped at the ply limit.
    pub timeouts: Share,
    /// Games by the end rule that ended them; `timeout` for those stopped at the ply limit.
    pub ends: BTreeMap<String, usize>,
    pub plies: Spread,
    pub turns: Spread,
    pub branching: BranchingFigures,
    pub piece_values: Option<Vec<PieceValue>>,
}

impl Figures {
    pub fn of(definition: &Definition, tally: &Tally) -> Self {
        let records = &tally.records;
        let games = records.len();
        let order = sides_in_turn_order(definition);
        let seat = |name: String, mover: usize, side: usize| {
            let count = |p: u8| records.iter().filter(|r| r.points[side] == p).count();
            let (wins, draws, losses) = (count(2), count(1), count(0));
            let (value, low, high) = wilson_interval(wins, draws, losses);
            SeatFigures {
                name,
                mover,
                wins,
                draws,
                losses,
                score: Share { value, low, high },
            }
        };
        let seats: Vec<SeatFigures> = order
            .iter()
            .enumerate()
            .map(|(mover, &side)| seat(definition.sides[side].name.clone(), mover + 1, side))
            .collect();
        let mut teams: Vec<(usize, Vec<usize>)> = definition
            .teams
            .iter()
            .map(|team| {
                let members: Vec<usize> = team.iter().map(|s| s.0 as usize).collect();
                let mover = order.iter().position(|s| members.contains(s)).unwrap_or(0);
                (mover, members)
            })
            .collect();
        teams.sort();
        let teams = teams
            .into_iter()
            .map(|(mover, members)| {
                let name = members
                    .iter()
                    .map(|&s| definition.sides[s].name.as_str())
                    .collect::<Vec<_>>()
                    .join("+");
                seat(name, mover + 1, members[0])
            })
            .collect();
        let rate = |s: &SeatFigures| s.wins as f64 / games.max(1) as f64;
        let highest = seats.iter().map(rate).fold(0.0, f64::max);
        let lowest = seats.iter().map(rate).fold(1.0, f64::min);
        let timeouts = records.iter().filter(|r| r.reason.is_none()).count();
        let draws = records
            .iter()
            .filter(|r| r.reason.is_some() && r.points.iter().all(|&p| p == 1))
            .count();
        let decided = games - timeouts - draws;
        let mut ends = BTreeMap::new();
        for record in records {
            *ends
                .entry(record.reason.clone().unwrap_or_else(|| "timeout".into()))
                .or_insert(0) += 1;
        }
        let plies: Vec<usize> = records.iter().map(|r| r.plies).collect();
        let turns: Vec<usize> = records.iter().map(|r| r.turns).collect();
        Figures {
            games,
            advantage_p1: seats.first().map(|s| s.score).unwrap_or(Share::of(0, 0)),
            seats,
            teams,
            balance: if games == 0 {
                0.0
            } else {
                1.0 - (highest - lowest)
            },
            decisiveness: Share::of(decided, games),
            drawishness: Share::of(draws, games),
            completion: Share::of(games - timeouts, games),
            timeouts: Share::of(timeouts, games),
            ends,
            plies: Spread::of(&plies),
            turns: Spread::of(&turns),
            branching: branching_figures(&tally.branching),
            piece_values: tally
                .regression
                .as_ref()
                .map(|r| piece_values(definition, r)),
        }
    }
}

fn ratio(count: &Count) -> f64 {
    if count[1] == 0 {
        0.0
    } else {
        count[0] as f64 / count[1] as f64
    }
}

fn branching_figures(branching: &Branching) -> BranchingFigures {
    let total = branching
        .stages
        .iter()
        .fold([0, 0], |t, c| [t[0] + c[0], t[1] + c[1]]);
    BranchingFigures {
        mean: ratio(&total),
        positions: total[1],
        opening: ratio(&branching.stages[0]),
        middle: ratio(&branching.stages[1]),
        ending: ratio(&branching.stages[2]),
        by_phase: branching
            .phases
            .iter()
            .map(|(phase, count)| (phase.clone(), ratio(count)))
            .collect(),
    }
}

/// Solves `(XᵀX + I) β = Xᵀy` (a ridge of 1 keeps it solvable when pieces always trade together)
/// and scales β to the file's units.
fn piece_values(definition: &Definition, regression: &Regression) -> Vec<PieceValue> {
    let n = regression.xty.len();
    let mut matrix: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut row: Vec<f64> = regression.xtx[i].iter().map(|&v| v as f64).collect();
            row[i] += 1.0;
            row.push(regression.xty[i] as f64);
            row
        })
        .collect();
    let beta = solve(&mut matrix);
    let pieces = &definition.pieces;
    // A piece type whose count never differed has no column to speak of; one whose difference
    // never changed is the intercept in disguise.
    let estimable: Vec<bool> = (0..pieces.len()).map(|i| varies(regression, i)).collect();
    let n = pieces.len();
    let counted = |i: &usize| estimable[*i] && !pieces[*i].royal && pieces[*i].value > 0;
    let file_sum: f64 = (0..n).filter(counted).map(|i| pieces[i].value as f64).sum();
    let beta_sum: f64 = (0..n).filter(counted).map(|i| beta[i]).sum();
    let scale = (beta_sum > 0.0 && file_sum > 0.0).then(|| file_sum / beta_sum);
    (0..n)
        .map(|i| PieceValue {
            piece: pieces[i].name.clone(),
            file_value: pieces[i].value,
            score_per_piece: estimable[i].then(|| beta[i] / 2.0),
            estimate: estimable[i].then_some(()).and(scale).map(|s| beta[i] * s),
        })
        .collect()
}

/// Whether piece `i`'s material difference took more than one value over the positions: its
/// variance `Σx²/N - (Σx/N)²` is not zero (the last column of `XᵀX` holds `Σx`).
fn varies(regression: &Regression, i: usize) -> bool {
    let last = regression.xty.len() - 1;
    let positions = regression.positions as i128;
    let squares = regression.xtx[i][i] as i128;
    let sum = regression.xtx[i][last] as i128;
    positions * squares != sum * sum
}

/// Gaussian elimination with partial pivoting of an augmented matrix `[A | b]`.
fn solve(matrix: &mut [Vec<f64>]) -> Vec<f64> {
    let n = matrix.len();
    for column in 0..n {
        let pivot = (column..n)
            .max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))
            .unwrap_or(column);
        matrix.swap(column, pivot);
        let head = matrix[column][column];
        if head.abs() < 1e-12 {
            continue;
        }
        let pivot_row = matrix[column].clone();
        for (row, values) in matrix.iter_mut().enumerate() {
            if row != column {
                let factor = values[column] / head;
                for (value, pivot_value) in values.iter_mut().zip(&pivot_row).skip(column) {
                    *value -= factor * pivot_value;
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if matrix[i][i].abs() < 1e-12 {
                0.0
            } else {
                matrix[i][n] / matrix[i][i]
            }
        })
        .collect()
}

/// Prints the figures of a tally (and writes the picture).
fn report(
    definition: &Definition,
    tally: Tally,
    json: bool,
    plot: Option<&Path>,
) -> Result<ExitCode, Failure> {
    let figures = Figures::of(definition, &tally);
    if let Some(path) = plot {
        let first = sides_in_turn_order(definition)[0];
        let picture = plot::svg(
            &format!(
                "{}: {} games, players {}",
                tally.game,
                figures.games,
                tally.players.join(",")
            ),
            &tally.records.iter().map(|r| r.plies).collect::<Vec<_>>(),
            &tally
                .records
                .iter()
                .map(|r| r.points[first])
                .collect::<Vec<_>>(),
        );
        std::fs::write(path, picture).map_err(|e| {
            Failure::Message(format!(
                "cannot write the picture to {}: {e}",
                path.display()
            ))
        })?;
    }
    let per_second = figures.games as f64 / tally.seconds.max(1e-9);
    if json {
        let value = serde_json::json!({
            "game": tally.game,
            "file": tally.file,
            "players": tally.players,
            "seed": tally.seed,
            "figures": figures,
            "seconds": tally.seconds,
            "games_per_second": per_second,
            "tally": tally,
        });
        emit(&format!("{value}\n"))?;
    } else {
        let mut text = format!(
            "{}: {} games, players {} (seed {}{})\n",
            tally.game,
            figures.games,
            tally.players.join(","),
            tally.seed,
            if tally.shard_count > 1 {
                format!(", shards {:?} of {}", tally.shards, tally.shard_count)
            } else {
                String::new()
            }
        );
        text.push_str(&figures_words(&figures));
        text.push_str(&format!("{per_second:.2} games per second\n"));
        emit(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The figures in words.
fn figures_words(figures: &Figures) -> String {
    let mut text = format!(
        "Balance {:.3}; AdvantageP1 (the first mover's score) {}\n",
        figures.balance,
        figures.advantage_p1.words()
    );
    let seat_line = |s: &SeatFigures, what: &str| {
        format!(
            "  {} ({} {what}): {} wins, {} draws, {} losses, score {}\n",
            s.name,
            ordinal(s.mover),
            s.wins,
            s.draws,
            s.losses,
            s.score.words()
        )
    };
    for seat in &figures.seats {
        text.push_str(&seat_line(seat, "mover"));
    }
    if !figures.teams.is_empty() {
        text.push_str("Teams:\n");
        for team in &figures.teams {
            text.push_str(&seat_line(team, "moving team"));
        }
    }
    text.push_str(&format!(
        "Decisiveness {}; Drawishness {}\nCompletion {}; Timeouts {}\n",
        figures.decisiveness.words(),
        figures.drawishness.words(),
        figures.completion.words(),
        figures.timeouts.words()
    ));
    let ends: Vec<String> = figures
        .ends
        .iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    text.push_str(&format!("Ends: {}\n", ends.join(", ")));
    text.push_str(&format!("Length in plies: {}\n", figures.plies.words()));
    text.push_str(&format!("Length in turns: {}\n", figures.turns.words()));
    let b = &figures.branching;
    text.push_str(&format!(
        "Branching: {:.1} legal actions per position over {} positions; opening {:.1}, middle {:.1}, ending {:.1}\n",
        b.mean, b.positions, b.opening, b.middle, b.ending
    ));
    for (phase, mean) in &b.by_phase {
        text.push_str(&format!("  phase {phase}: {mean:.1}\n"));
    }
    if let Some(values) = &figures.piece_values {
        text.push_str("Piece values (regression of the first mover's result on the material difference over the played positions):\n");
        for value in values {
            let estimate = match (value.estimate, value.score_per_piece) {
                (Some(e), Some(s)) => format!("estimate {e:.2} ({:+.3} score per piece)", s),
                (None, Some(s)) => format!("{:+.3} score per piece", s),
                _ => "not estimated (its material difference never varied)".into(),
            };
            text.push_str(&format!(
                "  {}: file {}, {estimate}\n",
                value.piece, value.file_value
            ));
        }
    }
    text
}

fn ordinal(mover: usize) -> String {
    match mover {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        n => format!("{n}th"),
    }
}

/// `variant merge FILE...`: adds up the tallies of shards into the figures of the whole run.
pub fn merge(files: &[PathBuf], json: bool, plot: Option<&Path>) -> Result<ExitCode, Failure> {
    let mut tallies = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Failure::Message(format!("cannot read {}: {e}", file.display())))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            Failure::Message(format!(
                "{}: not the JSON of `variant analyze --json`: {e}",
                file.display()
            ))
        })?;
        let tally: Tally = serde_json::from_value(value["tally"].clone()).map_err(|e| {
            Failure::Message(format!(
                "{}: no tally of `variant analyze --json` in it: {e}",
                file.display()
            ))
        })?;
        tallies.push((file, tally));
    }
    let (_, first) = &tallies[0];
    let mut total = Tally {
        shards: Vec::new(),
        records: Vec::new(),
        branching: Branching::default(),
        regression: first.regression.as_ref().map(|r| Regression {
            xtx: vec![vec![0; r.xty.len()]; r.xty.len()],
            xty: vec![0; r.xty.len()],
            positions: 0,
        }),
        seconds: 0.0,
        ..first.clone()
    };
    for (file, tally) in &tallies {
        let same = tally.game == total.game
            && tally.players == total.players
            && tally.seed == total.seed
            && tally.games == total.games
            && tally.max_plies == total.max_plies
            && tally.shard_count == total.shard_count
            && tally.regression.is_some() == total.regression.is_some()
            && tally.regression.as_ref().map(|r| r.xty.len())
                == total.regression.as_ref().map(|r| r.xty.len());
        if !same {
            return Err(Failure::Message(format!(
                "{} is a shard of another run: game, players, seed, games, ply limit, shard count and --piece-values must all agree with {}",
                file.display(),
                tallies[0].0.display()
            )));
        }
        for shard in &tally.shards {
            if total.shards.contains(shard) {
                return Err(Failure::Message(format!(
                    "{}: shard {shard}/{} is given twice",
                    file.display(),
                    total.shard_count
                )));
            }
            total.shards.push(*shard);
        }
        total.records.extend(tally.records.iter().cloned());
        add_branching(&mut total.branching, &tally.branching);
        if let (Some(sum), Some(part)) = (&mut total.regression, &tally.regression) {
            add_regression(sum, part);
        }
        total.seconds += tally.seconds;
    }
    total.shards.sort_unstable();
    total.records.sort_by_key(|r| r.index);
    let missing: Vec<String> = (1..=total.shard_count)
        .filter(|k| !total.shards.contains(k))
        .map(|k| format!("{k}/{}", total.shard_count))
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "warning: shards {} are missing: the figures are of {} of the run's {} games",
            missing.join(", "),
            total.records.len(),
            total.games
        );
    }
    let definition = catalog::load(&total.file)?.definition;
    if definition.name != total.game {
        return Err(Failure::Message(format!(
            "{} is now the game `{}`, not `{}` that the shards played",
            total.file, definition.name, total.game
        )));
    }
    report(&definition, total, json, plot)
}

#[cfg(test)]
mod tests {
    use super::{solve, Shard, Spread};

    #[test]
    fn shards_parse_and_bad_ones_are_refused() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
        for text in ["0/8", "9/8", "2", "a/b", "1/0", "-1/2"] {
            assert!(text.parse::<Shard>().is_err(), "{text}");
        }
    }

    #[test]
    fn spread_of_lengths() {
        let spread = Spread::of(&[10, 20, 30, 40]);
        assert_eq!(spread.mean, 25.0);
        assert_eq!(spread.median, 25.0);
        assert_eq!((spread.min, spread.max), (10, 40));
        assert!((spread.sd - 12.909).abs() < 0.001);
    }

    #[test]
    fn solves_a_small_system() {
        let mut m = vec![vec![2.0, 1.0, 5.0], vec![1.0, 3.0, 10.0]];
        let x = solve(&mut m);
        assert!(
            (x[0] - 1.0).abs() < 1e-9 && (x[1] - 3.0).abs() < 1e-9,
            "{x:?}"
        );
    }
}
