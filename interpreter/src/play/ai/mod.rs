//! Generic AI players: every game written in the language can be played by the computer.
//!
//! Nothing here knows a game. The players work on the compiled [`Rules`] and [`Position`] (so
//! they run at the speed of the move generator, monomorphised per bitboard width) and judge
//! positions only through what the game file says: the end rules, the pieces' `value`s, the
//! game's score and the squares each side controls.
//!
//! - [`random`]: a uniformly random legal move.
//! - [`mcts`]: UCT Monte Carlo tree search with random playouts; the tree is kept between moves.
//! - [`search`]: alpha-beta with iterative deepening and a transposition table, on the
//!   evaluation of [`eval`].
//! - [`analysis`]: the same search from a position detached from its session, reporting as it
//!   deepens (the engine protocols, `variant analyse`), and the weaker play of a skill level.
//!
//! A [`PlayerSpec`] (`mcts:2s`, `search:4`, ...) names a player; [`Session::agent`] builds an
//! [`Agent`] for a game, seeded so that a game with counted budgets is reproducible: all
//! randomness comes from one seeded ChaCha generator per agent.

pub mod analysis;
pub mod eval;
pub mod mcts;
pub mod mobility;
pub mod policy;
pub mod positional;
pub mod random;
pub mod search;
mod table;
mod tree;

use crate::bitboard::{Bitboard, Wide256};
use crate::position::Position;
use crate::rules::Rules;
use crate::session::{Game, Session};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// How much a player may think per move: a count (playouts, or plies of depth) or a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Playouts for `mcts`, plies of depth for `search`.
    Count(u64),
    /// Wall-clock time per move.
    Time(Duration),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Count(n) => write!(f, "{n}"),
            Budget::Time(t) => write!(f, "{}s", t.as_secs_f64()),
        }
    }
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlayerSpec {
    /// A person at the keyboard.
    Human,
    /// A uniformly random legal move.
    Random,
    /// Monte Carlo tree search.
    Mcts(Budget),
    /// Alpha-beta search.
    Search(Budget),
    /// The game file's own scripted controller for that side.
    Policy,
}

/// The default budgets when a spec names none.
const DEFAULT_MCTS: Budget = Budget::Time(Duration::from_secs(1));
const DEFAULT_SEARCH: Budget = Budget::Time(Duration::from_secs(1));
/// The longest time a spec may ask for per move, and the largest count.
const MAX_SECONDS: f64 = 3600.0;
const MAX_COUNT: u64 = 1_000_000_000;

impl PlayerSpec {
    /// The accepted forms, for messages.
    pub const FORMS: &'static str =
        "human, random, mcts[:PLAYOUTS|:SECONDSs], search[:DEPTH|:SECONDSs] or policy";

    /// Whether a person plays.
    pub fn is_human(&self) -> bool {
        matches!(self, PlayerSpec::Human)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Human => write!(f, "human"),
            PlayerSpec::Random => write!(f, "random"),
            PlayerSpec::Mcts(b) => write!(f, "mcts:{b}"),
            PlayerSpec::Search(b) => write!(f, "search:{b}"),
            PlayerSpec::Policy => write!(f, "policy"),
        }
    }
}

/// A budget: a time (`2s`), or a count from 1 to `max_count` of `what` (`playouts`, `plies of
/// depth`), named in the message when out of range.
fn parse_budget(text: &str, default: Budget, what: &str, max_count: u64) -> Result<Budget, String> {
    if text.is_empty() {
        return Ok(default);
    }
    if let Some(seconds) = text.strip_suffix('s') {
        let value: f64 = seconds
            .parse()
            .map_err(|_| format!("`{text}` is not a time: write seconds as `2s` or `0.5s`"))?;
        if !(value > 0.0 && value <= MAX_SECONDS) {
            return Err(format!(
                "`{text}`: the time must be more than 0 and at most {MAX_SECONDS}s"
            ));
        }
        return Ok(Budget::Time(Duration::from_secs_f64(value)));
    }
    let count: u64 = text
        .parse()
        .map_err(|_| format!("`{text}` is neither a count (`500`) nor a time (`2s`)"))?;
    if count == 0 || count > max_count {
        return Err(format!(
            "`{text}`: the {what} must be between 1 and {max_count}"
        ));
    }
    Ok(Budget::Count(count))
}

impl FromStr for PlayerSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (kind, budget) = match text.split_once(':') {
            Some((kind, budget)) => (kind, Some(budget)),
            None => (text, None),
        };
        if budget == Some("") {
            return Err(format!(
                "`{text}`: write a budget after the colon (`{kind}:500`, `{kind}:2s`) or none"
            ));
        }
        let no_budget = |spec: PlayerSpec| match budget {
            None => Ok(spec),
            Some(_) => Err(format!("`{kind}` takes no budget (`{text}`)")),
        };
        match kind {
            "human" => no_budget(PlayerSpec::Human),
            "random" => no_budget(PlayerSpec::Random),
            "policy" => no_budget(PlayerSpec::Policy),
            "mcts" => Ok(PlayerSpec::Mcts(parse_budget(
                budget.unwrap_or(""),
                DEFAULT_MCTS,
                "number of playouts",
                MAX_COUNT,
            )?)),
            "search" => Ok(PlayerSpec::Search(parse_budget(
                budget.unwrap_or(""),
                DEFAULT_SEARCH,
                "search depth",
                u64::from(search::MAX_DEPTH),
            )?)),
            _ => Err(format!(
                "`{text}` is not a player: write {}",
                PlayerSpec::FORMS
            )),
        }
    }
}

/// How an agent is built besides its spec.
#[derive(Clone, Copy, Debug)]
pub struct AgentOptions {
    /// Seeds the agent's random generator.
    pub seed: u64,
    /// Threads a search may use (root-parallel MCTS); at least 1.
    pub threads: usize,
}

impl Default for AgentOptions {
    fn default() -> Self {
        AgentOptions {
            seed: 0,
            threads: 1,
        }
    }
}

/// A move chosen by an agent, with a short account of the thinking behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The move in the game's notation (UCI).
    pub mv: String,
    /// E.g. `1234 playouts, 56% expected` or `depth 5, +1.20`.
    pub summary: String,
    /// The work done: playouts for MCTS, nodes for search, 0 for random.
    pub work: u64,
    /// The dice a policy rolled for it.
    pub dice: Option<Vec<u32>>,
}

/// How a thinking agent is far: what it would play now and the work behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The move it would play now, in the game's notation (UCI); `None` before any.
    pub best: Option<String>,
    /// The work done so far: playouts for MCTS.
    pub work: u64,
    /// The time spent so far.
    pub time: Duration,
    /// The expected result of `best` for the side to move, from 0 (a loss) to 1 (a win).
    pub expected: Option<f64>,
}

/// Who watches an agent think: the control that can stop it (a stopped agent plays the best
/// move it has) and where its progress goes, a few times a second.
pub struct Watch<'a> {
    /// Stopped by the watcher (another thread may hold it too).
    pub control: &'a search::Control,
    /// Called with each report.
    pub report: &'a mut dyn FnMut(&Progress),
}

/// A computer player. It is given the whole game each time, so it may keep what it learnt
/// (MCTS keeps its tree) and find out which moves were played since.
pub trait Agent: Send {
    /// A move for the side to move, or `None` when the game is over (or the session is of
    /// another game than the one the agent was built for).
    fn choose(&mut self, session: &dyn Session) -> Option<Choice>;
    /// The spec it was built from.
    fn spec(&self) -> PlayerSpec;
    /// Like [`Agent::choose`], watched: the agent reports its progress to `watch` as it thinks
    /// and moves at once when `watch`'s control is stopped. An agent with nothing to report
    /// (a random or policy player) just chooses.
    fn choose_watched(&mut self, session: &dyn Session, watch: &mut Watch<'_>) -> Option<Choice> {
        let _ = watch;
        self.choose(session)
    }
}

/// Why no agent could be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentError(pub String);

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AgentError {}

/// A generator for one agent: the seed mixed with the agent's stream number.
pub fn generator(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

impl dyn Session + '_ {
    /// A computer player for this game (see [`crate::ai`]). Written here rather than in the
    /// [`Session`] trait, so that the session knows nothing of its players.
    pub fn agent(
        &self,
        spec: PlayerSpec,
        options: AgentOptions,
    ) -> Result<Box<dyn Agent>, AgentError> {
        if spec == PlayerSpec::Policy && self.definition().policies.is_empty() {
            return Err(AgentError(
                "`policy`: this game file defines no scripted policy for any side".into(),
            ));
        }
        // The widths `crate::session::open` chooses from.
        if typed::<u64>(self).is_some() {
            agent::<u64>(spec, options)
        } else if typed::<u128>(self).is_some() {
            agent::<u128>(spec, options)
        } else {
            agent::<Wide256>(spec, options)
        }
    }
}

/// Builds an agent for a game of width `B` (called by [`Session::agent`]).
pub(crate) fn agent<B: Bitboard>(
    spec: PlayerSpec,
    options: AgentOptions,
) -> Result<Box<dyn Agent>, AgentError> {
    match spec {
        PlayerSpec::Human => Err(AgentError(
            "`human` is a person at the keyboard, not a computer player".into(),
        )),
        PlayerSpec::Policy => Ok(Box::new(policy::PolicyAgent::<B>::new(options))),
        PlayerSpec::Random => Ok(Box::new(random::RandomAgent::<B>::new(options))),
        PlayerSpec::Mcts(budget) => Ok(Box::new(mcts::MctsAgent::<B>::new(budget, options))),
        PlayerSpec::Search(budget) => Ok(Box::new(search::SearchAgent::<B>::new(budget))),
    }
}

/// The typed game behind a session, when it is of width `B`.
pub(crate) fn typed<B: Bitboard>(session: &dyn Session) -> Option<&Game<B>> {
    session.as_any().downcast_ref::<Game<B>>()
}

/// What an agent needs from a typed game: the rules, the current position and the hashes of
/// the positions before it (for repetition).
pub(crate) struct Snapshot<B: Bitboard> {
    pub rules: Arc<Rules<B>>,
    /// The sides' compiled policies.
    pub policies: Arc<crate::policy::Policies<B>>,
    pub position: Position<B>,
    pub history: Vec<u64>,
}

impl<B: Bitboard> Snapshot<B> {
    pub fn of(game: &Game<B>) -> Self {
        let positions = game.positions();
        Snapshot {
            rules: game.shared_rules(),
            policies: game.shared_policies(),
            position: *game.position(),
            history: positions[..positions.len() - 1]
                .iter()
                .map(|p| p.hash())
                .collect(),
        }
    }
}

/// How many playouts a second MCTS runs from the session's position: one move's thinking
/// with a one-second budget, its playouts over the time it took (the "playouts/s" of the
/// README's strength table; `None` when the game is over there).
pub fn mcts_playouts_per_second(session: &dyn Session) -> Option<u64> {
    let mut agent = session
        .agent(
            PlayerSpec::Mcts(Budget::Time(Duration::from_secs(1))),
            AgentOptions::default(),
        )
        .ok()?;
    let start = std::time::Instant::now();
    let choice = agent.choose(session)?;
    Some((choice.work as f64 / start.elapsed().as_secs_f64()) as u64)
}
