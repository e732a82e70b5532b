//! UCT Monte Carlo tree search with random playouts.
//!
//! Why this player: it needs nothing but the rules. A playout plays random legal moves to the
//! end of the game and reports who won, so the same code plays chess, a placement game scored
//! on control, or a game written tomorrow. The tree grows one node per playout; children are
//! chosen by UCB1 (mean reward plus an exploration bonus), each node's reward counted for the
//! side that moved into it, so it works for any number of sides. The tree is kept between moves:
//! the next call descends along the moves played since and keeps that subtree. `threads > 1`
//! grows independent trees in parallel (root parallelism) and adds their root visits.
//!
//! Playouts that have not ended after [`PLAYOUT_PLIES`] plies are scored by the generic
//! evaluation ([`super::eval`]) turned into an expected reward: in chess, random games almost
//! never end by checkmate before the move limit, so pure playouts would see nothing but draws,
//! while the placement games end well within the cut-off and are scored by their own rules.
//! Rewards are measured from the root's evaluation ([`Baseline`]), so that a side already far
//! ahead still tells a mate or more material from standing still.

use super::tree::{rewards, status, Rewards, Status};
use super::{typed, Agent, AgentOptions, Budget, Choice, PlayerSpec, Progress, Snapshot, Watch};
use crate::action::Action;
use crate::action_set::ActionSet;
use crate::bitboard::Bitboard;
use crate::core::index::{BySide, SideId, Sq};
use crate::moves::Move;
use crate::outcome::status_into_set;
use crate::policy::Policies;
use crate::position::Position;
use crate::rules::Rules;
use crate::session::Session;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The exploration constant of UCB1 (rewards lie in [0, 1]).
const EXPLORATION: f64 = 1.2;
/// A playout stops after this many plies if the game has not ended, and the position is judged
/// by the generic evaluation instead (see [`Baseline`]): random moves played much
/// longer only add noise, and a game file whose end rules never fire must not hang the player.
pub const PLAYOUT_PLIES: usize = 40;
/// How many hundredths of value make the evaluation's expected reward e/(1+e): a side a pawn
/// (100) ahead expects about 0.56, a queen (900) ahead about 0.9.
const EVALUATION_SCALE: f64 = 400.0;
/// No node is added past this many: a long time budget keeps running playouts from the leaves.
const MAX_NODES: usize = 8_000_000;

/// One node: the move that led to it, and the rewards seen below it.
#[derive(Clone, Debug)]
struct Node {
    /// A legal move, or a policy's action (a side moved by its policy is chance).
    mv: Action,
    /// The side that played `mv`: rewards are counted for it.
    mover: SideId,
    children: Vec<u32>,
    expanded: bool,
    visits: u32,
    reward: f64,
    /// The rewards when the game is over here.
    terminal: Option<BySide<f32>>,
}

impl Node {
    fn new(mv: Action, mover: SideId) -> Self {
        Node {
            mv,
            mover,
            children: Vec::new(),
            expanded: false,
            visits: 0,
            reward: 0.0,
            terminal: None,
        }
    }
}

/// One search tree, rooted after the game moves in `line`.
struct Tree {
    nodes: Vec<Node>,
    line: Vec<Action>,
    rng: ChaCha8Rng,
    /// Per side, the evaluation of the root: rewards measure progress from it (see
    /// [`Baseline`]).
    baseline: Baseline,
}

impl Tree {
    fn new(rng: ChaCha8Rng) -> Self {
        Tree {
            nodes: vec![Node::new(
                Action::Move(Move::normal(Sq(0), Sq(0))),
                SideId::new(0),
            )],
            line: Vec::new(),
            rng,
            baseline: Baseline::default(),
        }
    }

    /// Moves the root to the position after the game moves `line`: keeps the subtree when the
    /// tree's root lies on that line and the moves since are in the tree, else starts afresh.
    fn advance(&mut self, line: &[Action]) {
        let mut node = Some(0usize);
        if line.len() >= self.line.len() && line[..self.line.len()] == self.line[..] {
            for mv in &line[self.line.len()..] {
                node = node.and_then(|n| {
                    self.nodes[n]
                        .children
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| self.nodes[c].mv == *mv)
                });
            }
        } else {
            node = None;
        }
        match node {
            Some(0) => {}
            Some(root) => self.reroot(root),
            None => {
                self.nodes = vec![Node::new(
                    Action::Move(Move::normal(Sq(0), Sq(0))),
                    SideId::new(0),
                )]
            }
        }
        self.line = line.to_vec();
    }

    /// Keeps only the subtree below `root`, renumbered breadth first.
    fn reroot(&mut self, root: usize) {
        let mut order = vec![root];
        let mut next = 0;
        while next < order.len() {
            let children = self.nodes[order[next]].children.clone();
            order.extend(children.iter().map(|&c| c as usize));
            next += 1;
        }
        let mut renumber = vec![u32::MAX; self.nodes.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old] = new as u32;
        }
        let mut nodes = Vec::with_capacity(order.len());
        for &old in &order {
            let mut node = std::mem::replace(
                &mut self.nodes[old],
                Node::new(Action::Move(Move::normal(Sq(0), Sq(0))), SideId::new(0)),
            );
            for child in &mut node.children {
                *child = renumber[*child as usize];
            }
            nodes.push(node);
        }
        self.nodes = nodes;
    }

    /// Runs playouts from the root until the budget is spent; returns how many.
    fn run<B: Bitboard>(
        &mut self,
        rules: &Rules<B>,
        policies: &Policies<B>,
        root: &Position<B>,
        history: &[u64],
        playouts: Option<u64>,
        deadline: Option<Instant>,
    ) -> u64 {
        let mut path = history.to_vec();
        let mut done = 0;
        self.baseline = Baseline::of(rules, root);
        loop {
            if playouts.is_some_and(|n| done >= n) || deadline.is_some_and(|d| Instant::now() >= d)
            {
                return done;
            }
            self.iterate(rules, policies, root, &mut path);
            path.truncate(history.len());
            done += 1;
        }
    }

    /// One playout: select down the tree, expand a leaf, play randomly to the end, back up.
    /// A side moved by a policy in the game file (other than the searching side) is part of
    /// the game's chance: its action is drawn from its policy, with random dice.
    fn iterate<B: Bitboard>(
        &mut self,
        rules: &Rules<B>,
        policies: &Policies<B>,
        root: &Position<B>,
        path: &mut Vec<u64>,
    ) {
        let root_side = root.side_to_move(rules);
        let mut position = *root;
        let mut visited = vec![0usize];
        let mut node = 0usize;
        let result: Rewards = loop {
            if let Some(terminal) = self.nodes[node].terminal {
                break self
                    .baseline
                    .finished(BySide::from_fn(|side| f64::from(terminal[side])));
            }
            if !self.nodes[node].expanded {
                match status(rules, &position, path) {
                    Status::Over(result) => {
                        let result = rewards(rules, &result);
                        self.nodes[node].terminal =
                            Some(BySide::from_fn(|side| result[side] as f32));
                        break self.baseline.finished(result);
                    }
                    Status::Moves(_) if scripted(rules, policies, &position, root_side) => {
                        self.nodes[node].expanded = true;
                    }
                    Status::Moves(moves) => {
                        if self.nodes.len() < MAX_NODES {
                            self.expand(node, moves, position.side_to_move(rules));
                        } else {
                            break self.playout(rules, policies, &mut position, path, Some(moves));
                        }
                    }
                }
            }
            node = if scripted(rules, policies, &position, root_side) {
                let side = position.side_to_move(rules);
                let mv = policy_move(rules, policies, &position, &mut self.rng);
                match self.nodes[node]
                    .children
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| self.nodes[c].mv == mv)
                {
                    Some(child) => child,
                    None if self.nodes.len() < MAX_NODES => {
                        self.nodes.push(Node::new(mv, side));
                        let child = self.nodes.len() - 1;
                        self.nodes[node].children.push(child as u32);
                        child
                    }
                    None => break self.playout(rules, policies, &mut position, path, None),
                }
            } else {
                self.select(node)
            };
            visited.push(node);
            path.push(position.hash());
            self.nodes[node].mv.play(rules, &mut position);
            if self.nodes[node].visits == 0 {
                break self.playout(rules, policies, &mut position, path, None);
            }
        };
        for &n in &visited {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += result[node.mover];
        }
    }

    /// A random playout from `position` (see [`playout`]) with this tree's generator and
    /// baseline.
    fn playout<B: Bitboard>(
        &mut self,
        rules: &Rules<B>,
        policies: &Policies<B>,
        position: &mut Position<B>,
        path: &mut Vec<u64>,
        first: Option<Vec<Move>>,
    ) -> Rewards {
        playout(
            rules,
            policies,
            position,
            path,
            &mut self.rng,
            &self.baseline,
            first,
        )
    }

    /// Adds a child per legal move, in random order (so that unvisited children are tried in
    /// random order).
    fn expand(&mut self, node: usize, mut moves: Vec<Move>, mover: SideId) {
        for i in (1..moves.len()).rev() {
            let j = self.rng.random_range(0..=i);
            moves.swap(i, j);
        }
        let first = self.nodes.len() as u32;
        self.nodes.extend(
            moves
                .into_iter()
                .map(|mv| Node::new(Action::Move(mv), mover)),
        );
        self.nodes[node].children = (first..self.nodes.len() as u32).collect();
        self.nodes[node].expanded = true;
    }

    /// The child with the best UCB1 value; an unvisited child first.
    fn select(&self, node: usize) -> usize {
        let parent = &self.nodes[node];
        let log_visits = f64::from(parent.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, parent.children[0] as usize);
        for &child in &parent.children {
            let child = child as usize;
            let c = &self.nodes[child];
            if c.visits == 0 {
                return child;
            }
            let visits = f64::from(c.visits);
            let value = c.reward / visits + EXPLORATION * (log_visits / visits).sqrt();
            if value > best.0 {
                best = (value, child);
            }
        }
        best.1
    }

    /// Per root move: visits and total reward for the side to move.
    fn root_statistics(&self) -> Vec<(Action, u32, f64)> {
        self.nodes[0]
            .children
            .iter()
            .map(|&c| {
                let c = &self.nodes[c as usize];
                (c.mv, c.visits, c.reward)
            })
            .collect()
    }
}

/// Plays random moves from `position` to the end of the game (`first` are its legal moves, when
/// already known), or for [`PLAYOUT_PLIES`] plies and then evaluates.
fn playout<B: Bitboard>(
    rules: &Rules<B>,
    policies: &Policies<B>,
    position: &mut Position<B>,
    path: &mut Vec<u64>,
    rng: &mut ChaCha8Rng,
    baseline: &Baseline,
    first: Option<Vec<Move>>,
) -> Rewards {
    let mut known = first;
    // The legal actions of the plies after the first, as a set kept for the whole playout:
    // counted, and one taken by its index, without a list per ply.
    let mut actions = ActionSet::new();
    for _ in 0..PLAYOUT_PLIES {
        let listed = known.take();
        let count = match &listed {
            Some(moves) => moves.len(),
            None => match status_into_set(rules, position, path, &mut actions) {
                Some(result) => return baseline.finished(rewards(rules, &result)),
                None => actions.len(),
            },
        };
        path.push(position.hash());
        if policies.of(position.side_to_move(rules)).is_some() {
            policy_move(rules, policies, position, rng).play(rules, position);
        } else {
            let index = rng.random_range(0..count);
            let mv = match &listed {
                Some(moves) => moves[index],
                None => actions.get(index).expect("an index below the count"),
            };
            position.play_unchecked(rules, mv);
        }
    }
    baseline.unfinished(rules, position)
}

/// Whether the side to move is moved by its policy, as chance (it is not the searching side).
fn scripted<B: Bitboard>(
    rules: &Rules<B>,
    policies: &Policies<B>,
    position: &Position<B>,
    root_side: SideId,
) -> bool {
    let side = position.side_to_move(rules);
    side != root_side && policies.of(side).is_some()
}

/// An action of the side to move's policy with random dice (a random legal move if the policy
/// has none to offer).
fn policy_move<B: Bitboard>(
    rules: &Rules<B>,
    policies: &Policies<B>,
    position: &Position<B>,
    rng: &mut ChaCha8Rng,
) -> Action {
    use crate::policy::{decide, SeededDice};
    let side = position.side_to_move(rules);
    let decision = policies
        .of(side)
        .and_then(|policy| decide(rules, position, policy, &mut SeededDice(&mut *rng)).ok());
    match decision {
        Some(decision) => decision.candidates[rng.random_range(0..decision.candidates.len())],
        None => {
            let moves = crate::legal::legal_moves(rules, position);
            Action::Move(moves[rng.random_range(0..moves.len())])
        }
    }
}

/// What the evaluation said of the search's root, per side: rewards are measured from there.
///
/// Why: an absolute reward saturates. A side a queen and a rook ahead expects 0.99 whatever it
/// plays, so checkmate (1.0) stands out from keeping the material by less than the noise of
/// the playouts, and MCTS shuffles pieces for a hundred moves before it stumbles on the mate.
/// Measured from the root, keeping the advantage is worth ½, winning more is worth more, and
/// the end of the game counts as the evaluation of its result: a win 1, a loss 0, a draw as an
/// advantage of 0 (worth little to the side ahead, much to the side behind). A subtree kept
/// from the last move carries rewards measured from the root before it: close to the new
/// root's, and outweighed as new playouts accumulate.
#[derive(Clone, Copy, Debug, Default)]
struct Baseline(BySide<f64>);

impl Baseline {
    /// The evaluation of `root` for each side.
    fn of<B: Bitboard>(rules: &Rules<B>, root: &Position<B>) -> Self {
        Baseline(BySide::from_fn(|side| {
            if side.index() < rules.sides() {
                f64::from(super::eval::evaluate(rules, root, side))
            } else {
                0.0
            }
        }))
    }

    /// The expected reward of an advantage, seen from the root's.
    fn reward(&self, side: SideId, advantage: f64) -> f64 {
        1.0 / (1.0 + (-(advantage - self.0[side]) / EVALUATION_SCALE).exp())
    }

    /// A reward measured from the root, read back as an absolute expectation (the logistic of
    /// the advantage it stands for), for reports.
    fn absolute(&self, side: SideId, reward: f64) -> f64 {
        if reward <= 0.0 || reward >= 1.0 {
            return reward.clamp(0.0, 1.0);
        }
        let logit = (reward / (1.0 - reward)).ln();
        1.0 / (1.0 + (-(self.0[side] / EVALUATION_SCALE + logit)).exp())
    }

    /// The rewards of a finished game (1 a win, 0 a loss, ½ a draw), a draw valued as an
    /// advantage of 0.
    fn finished(&self, result: Rewards) -> Rewards {
        BySide::from_fn(|side| {
            if result[side] == 0.5 {
                self.reward(side, 0.0)
            } else {
                result[side]
            }
        })
    }

    /// The expected reward of each side in an unfinished position, from the generic
    /// evaluation: the logistic of the side's advantage over its strongest opponent, less
    /// the root's.
    fn unfinished<B: Bitboard>(&self, rules: &Rules<B>, position: &Position<B>) -> Rewards {
        let goals = super::eval::Goals::of(rules);
        BySide::from_fn(|side| {
            if side.index() < rules.sides() {
                let advantage =
                    f64::from(super::eval::evaluate_with(rules, &goals, position, side));
                self.reward(side, advantage)
            } else {
                0.5
            }
        })
    }
}

/// How long a watched search grows its trees between two reports (and at most until it
/// notices a stop).
const SLICE: Duration = Duration::from_millis(100);

/// The Monte Carlo tree search player.
pub struct MctsAgent<B> {
    budget: Budget,
    trees: Vec<Tree>,
    width: PhantomData<fn() -> B>,
}

impl<B: Bitboard> MctsAgent<B> {
    /// A player with a budget per move, seeded, growing `options.threads` trees.
    pub fn new(budget: Budget, options: AgentOptions) -> Self {
        let trees = (0..options.threads.max(1))
            .map(|i| Tree::new(super::generator(options.seed, 1 + i as u64)))
            .collect();
        MctsAgent {
            budget,
            trees,
            width: PhantomData,
        }
    }

    /// Playouts already below the roots, kept from earlier moves.
    fn kept(&self) -> u64 {
        self.trees
            .iter()
            .map(|tree| u64::from(tree.nodes[0].visits))
            .sum()
    }

    /// Grows every tree within the budget; returns the playouts run. Watched, it grows them
    /// in slices of [`SLICE`], reporting after each and ending when the watcher stops it; the
    /// trees grow as they would unwatched (each keeps its own generator and playout count).
    fn think(
        &mut self,
        snapshot: &Snapshot<B>,
        line: &[Action],
        moves: &[Move],
        watch: Option<&mut Watch<'_>>,
    ) -> u64 {
        let threads = self.trees.len() as u64;
        let (quota, deadline) = match self.budget {
            Budget::Count(n) => (Some(n.div_ceil(threads)), None),
            Budget::Time(t) => (None, Some(Instant::now() + t)),
        };
        for tree in &mut self.trees {
            tree.advance(line);
        }
        let Some(watch) = watch else {
            let quotas = vec![quota; self.trees.len()];
            return self.grow(snapshot, &quotas, deadline).iter().sum();
        };
        let start = Instant::now();
        let mut done = vec![0u64; self.trees.len()];
        loop {
            let left: Vec<Option<u64>> = done.iter().map(|&d| quota.map(|q| q - d)).collect();
            let finished =
                left.iter().all(|l| *l == Some(0)) || deadline.is_some_and(|d| Instant::now() >= d);
            if finished || watch.control.is_stopped() {
                break;
            }
            let slice = Instant::now() + SLICE;
            let until = deadline.map_or(slice, |d| d.min(slice));
            for (total, grown) in done.iter_mut().zip(self.grow(snapshot, &left, Some(until))) {
                *total += grown;
            }
            let best = self.best(moves);
            let side = snapshot.position.side_to_move(&snapshot.rules);
            (watch.report)(&Progress {
                best: best.map(|b| b.0.uci(&snapshot.rules)),
                work: done.iter().sum(),
                time: start.elapsed(),
                expected: best.map(|b| self.expected(side, b)),
            });
        }
        done.iter().sum()
    }

    /// Grows tree `i` by at most `quotas[i]` playouts (no limit: `None`) until `deadline`, the
    /// trees on threads of their own when there are several; the playouts each ran.
    fn grow(
        &mut self,
        snapshot: &Snapshot<B>,
        quotas: &[Option<u64>],
        deadline: Option<Instant>,
    ) -> Vec<u64> {
        let rules: &Rules<B> = &snapshot.rules;
        let policies: &Policies<B> = &snapshot.policies;
        if self.trees.len() == 1 {
            let tree = &mut self.trees[0];
            let position = &snapshot.position;
            return vec![tree.run(
                rules,
                policies,
                position,
                &snapshot.history,
                quotas[0],
                deadline,
            )];
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = self
                .trees
                .iter_mut()
                .zip(quotas)
                .map(|(tree, &quota)| {
                    scope.spawn(move || {
                        tree.run(
                            rules,
                            policies,
                            &snapshot.position,
                            &snapshot.history,
                            quota,
                            deadline,
                        )
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).collect()
        })
    }

    /// The root move with the most visits over all trees, with its visits and summed reward;
    /// ties go to the first in generation order (reproducible).
    fn best(&self, moves: &[Move]) -> Option<(Move, u64, f64)> {
        let mut totals: Vec<(Move, u64, f64)> = moves.iter().map(|&mv| (mv, 0, 0.0)).collect();
        for tree in &self.trees {
            for (mv, visits, reward) in tree.root_statistics() {
                if let Some(total) = totals.iter_mut().find(|t| Action::Move(t.0) == mv) {
                    total.1 += u64::from(visits);
                    total.2 += reward;
                }
            }
        }
        totals.into_iter().fold(None, |best, t| match best {
            Some(b) if b.1 >= t.1 => Some(b),
            _ => Some(t),
        })
    }

    /// The expected result of a root move for `side`, from its visits and summed reward.
    fn expected(&self, side: SideId, (_, visits, reward): (Move, u64, f64)) -> f64 {
        if visits > 0 {
            self.trees[0]
                .baseline
                .absolute(side, reward / visits as f64)
        } else {
            0.5
        }
    }

    /// [`Agent::choose`], watched or not.
    fn choose_with(
        &mut self,
        session: &dyn Session,
        watch: Option<&mut Watch<'_>>,
    ) -> Option<Choice> {
        let game = typed::<B>(session)?;
        let snapshot = Snapshot::of(game);
        let Status::Moves(moves) = status(&snapshot.rules, &snapshot.position, &snapshot.history)
        else {
            return None;
        };
        if moves.len() == 1 {
            return Some(Choice {
                mv: moves[0].uci(&snapshot.rules),
                summary: "the only legal move".into(),
                work: 0,
                dice: None,
            });
        }
        for tree in &mut self.trees {
            tree.advance(game.moves());
        }
        let kept = self.kept();
        let playouts = self.think(&snapshot, game.moves(), &moves, watch);
        let best = self.best(&moves)?;
        let side = snapshot.position.side_to_move(&snapshot.rules);
        let expected = self.expected(side, best);
        Some(Choice {
            mv: best.0.uci(&snapshot.rules),
            summary: if kept > 0 {
                format!(
                    "{playouts} playouts (+{kept} kept from the last move), {:.0}% expected",
                    expected * 100.0
                )
            } else {
                format!("{playouts} playouts, {:.0}% expected", expected * 100.0)
            },
            work: playouts,
            dice: None,
        })
    }
}

impl<B: Bitboard> Agent for MctsAgent<B> {
    fn choose(&mut self, session: &dyn Session) -> Option<Choice> {
        self.choose_with(session, None)
    }

    fn choose_watched(&mut self, session: &dyn Session, watch: &mut Watch<'_>) -> Option<Choice> {
        self.choose_with(session, Some(watch))
    }

    fn spec(&self) -> PlayerSpec {
        PlayerSpec::Mcts(self.budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root where side 0 is 900 ahead (a queen), side 1 as far behind.
    fn queen_ahead() -> Baseline {
        let mut advantage = BySide::splat(0.0);
        advantage[SideId::new(0)] = 900.0;
        advantage[SideId::new(1)] = -900.0;
        Baseline(advantage)
    }

    #[test]
    fn keeping_the_root_advantage_is_worth_a_half_and_more_is_worth_more() {
        let baseline = queen_ahead();
        assert!((baseline.reward(SideId::new(0), 900.0) - 0.5).abs() < 1e-12);
        assert!(baseline.reward(SideId::new(0), 1800.0) > 0.85);
        assert!(baseline.reward(SideId::new(0), 0.0) < 0.15);
    }

    #[test]
    fn a_draw_is_an_advantage_of_nothing_and_wins_stay_whole() {
        let baseline = queen_ahead();
        let drawn = BySide::splat(0.5);
        let drawn = baseline.finished(drawn);
        assert!(
            drawn[SideId::new(0)] < 0.15,
            "the side ahead loses by a draw: {}",
            drawn[SideId::new(0)]
        );
        assert!(
            drawn[SideId::new(1)] > 0.85,
            "the side behind gains by a draw: {}",
            drawn[SideId::new(1)]
        );
        let mut won = BySide::splat(0.0);
        won[SideId::new(0)] = 1.0;
        let won = baseline.finished(won);
        assert_eq!([won[SideId::new(0)], won[SideId::new(1)]], [1.0, 0.0]);
    }

    #[test]
    fn a_reward_reads_back_as_the_absolute_expectation_of_its_advantage() {
        let baseline = queen_ahead();
        for advantage in [-1200.0, -300.0, 0.0, 450.0, 900.0, 2000.0] {
            let relative = baseline.reward(SideId::new(0), advantage);
            let absolute = 1.0 / (1.0 + (-advantage / EVALUATION_SCALE).exp());
            assert!((baseline.absolute(SideId::new(0), relative) - absolute).abs() < 1e-9);
        }
        assert_eq!(baseline.absolute(SideId::new(0), 1.0), 1.0);
        assert_eq!(baseline.absolute(SideId::new(0), 0.0), 0.0);
    }
}
