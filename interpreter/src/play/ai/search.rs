//! Alpha-beta search with iterative deepening, a transposition table and a quiescence search,
//! on the generic evaluation of [`super::eval`].
//!
//! Why "paranoid" negamax: the searching side maximises its evaluation and every other side is
//! assumed to minimise it, which is exact for two sides and still sound for more, whatever the
//! turn order. Values are kept from the point of view of the camp to move (the root's side, or
//! its opponents), so that a child of the other camp is negated and one of the same camp (a turn
//! of several actions) is not. The transposition table is keyed by the Zobrist hash
//! ([`Position::hash`]) and kept between moves while the agent plays the same side.
//!
//! What makes it search deep on a node budget, each the textbook technique, each judged by
//! fixed-node self-play (`scripts/search_sprt.py`) and each gated by what the game file says:
//! - principal variation search (null windows after the first move) and aspiration windows
//!   around the previous iteration's value;
//! - move ordering: the table's move, captures of the most valuable piece by the cheapest,
//!   promotions, two killer moves per ply, then a history score per origin and target plus a
//!   continuation history (per pair of this move and the move one or two plies before); last,
//!   where the game's captures are plain, the captures that lose their static exchange
//!   ([`crate::core::exchange`]);
//! - late move reductions for quiet moves late in that order, a ply less for a move whose
//!   history is good and a ply more for one whose history is bad;
//! - frontier pruning of quiet moves, at three plies or less from the horizon, outside the
//!   principal variation and out of check, unless the move gives check: the quiet moves after
//!   the first `3 + depth²` (late move pruning), and those that a static evaluation short of
//!   alpha by a margin per ply says cannot reach it (futility pruning); only in games where
//!   null moves are tried and no end condition (`wins when ...`) can make a quiet move decide
//!   the game;
//! - null-move pruning, only in games where passing is harmless ([`GameTraits`]: two sides,
//!   single actions, no pass rule, no compulsory action, no winning stalemate) and only while
//!   the side to move has a piece that is neither royal nor promoting (zugzwang is otherwise
//!   likely);
//! - reverse futility pruning: at three plies or less from the horizon, outside the principal
//!   variation and out of check, a static evaluation above beta by a margin per ply stands;
//! - exchange pruning, where the game has a static exchange and frontier pruning: at three plies
//!   or less, outside the principal variation and out of check, a move (after the first) whose
//!   exchange loses more than a unit of value a ply of depth is not searched;
//! - a check extension, in games with check;
//! - quiescence on captures and promotions, so that no evaluation is taken in the middle of an
//!   exchange, with delta pruning where a capture only removes its victim, and there captures
//!   that lose their static exchange skipped (elsewhere, where the game has no static
//!   exchange but plain captures, captures of a cheaper piece on a square an enemy controls);
//!   its moves are generated alone ([`crate::legal::tactical_moves`]) and the end judged by
//!   whether any legal move exists, unless an end condition reads the legal actions (listing
//!   every legal move to keep a few cost as much as the rest of the search);
//! - an iteration cut short by the clock or the node budget still counts where it proved a
//!   root move better than the last iteration's (one line only).
//! - threads ([`Limits::threads`]): helpers search the same root on the shared, lockless
//!   table ([`super::table`]), each at depths of its own (Lazy SMP), and the leading thread
//!   finds their bounds and best moves there.
//!
//! What makes a node cheap: the ends that need no move list, then the table, then (where
//! passing is harmless and only "no legal move" reads the list) the pruning, and only then the
//! move list; the table's move is searched before the other moves are sorted ([`Picker`]); an
//! evaluation cache ([`EvalCache`]) answers for the leaves that iterative deepening and
//! transpositions bring back. The tables are laid out for the cache: the continuation history
//! in one block per move before ([`Continuation`]), the evaluation cache's key beside its
//! value, and the transposition table read first at a node, so that the rest of the node's
//! first work hides the wait.
//!
//! The same iterative deepening ([`deepen`]) serves the players, `variant analyse` and the engine
//! protocols: it is bounded by [`Limits`] (depth, nodes, several best lines) and by a shared
//! [`Control`] that another thread may stop or give a deadline, and it hands a [`Report`] (depth,
//! score, nodes, principal variations) to a callback after every completed depth.

use super::eval::{evaluate_in, Goals, VALUE_SCALE};
use super::mobility::Tally;
pub use super::table::TranspositionTable;
use super::table::{Bound, Entry, Table};
use super::tree::{status, wins, Status};
use super::{typed, Agent, Budget, Choice, PlayerSpec, Snapshot};
use crate::bitboard::Bitboard;
use crate::core::exchange::Exchanges;
use crate::core::index::SideId;
use crate::core::tactical::is_tactical;
use crate::legal::{any_legal, tactical_moves};
use crate::moves::{Gate, Move, MoveKind};
use crate::outcome::{
    end_reads_actions, end_unlisted, ends_before_actions, occurred_before, status_listed_into,
};
use crate::position::Position;
use crate::rules::Rules;
use crate::session::Session;
use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The deepest search a spec may ask for.
pub const MAX_DEPTH: u32 = 64;
pub use super::eval::MATE;
const INFINITY: i32 = MATE + 1;
/// Quiescence looks at most this many captures deep.
const QUIESCENCE_DEPTH: u32 = 6;
/// Quiescence skips a capture whose victim, plus this, cannot bring the evaluation to alpha.
const DELTA_MARGIN: i64 = 200;
/// The half-width of the first aspiration window, in hundredths.
const ASPIRATION_WINDOW: i32 = 30;
/// Reverse futility pruning: at this depth or less, a node whose static evaluation beats beta
/// by [`FUTILITY_MARGIN`] a ply is taken to hold beta.
const FUTILITY_DEPTH: u32 = 3;
/// Reverse futility pruning's margin per ply of depth (hundredths of a unit of value).
const FUTILITY_MARGIN: i32 = 120;
/// Frontier pruning of quiet moves ([`late_move_count`], [`FRONTIER_MARGIN`]) at this depth or
/// less from the horizon.
const FRONTIER_DEPTH: u32 = 3;
/// Futility pruning at the frontier: a quiet move is not searched where the static evaluation
/// plus this margin per ply of depth stays at or below alpha.
const FRONTIER_MARGIN: i32 = 150;
/// Slots of the [`EvalCache`].
const EVAL_CACHE_SIZE: usize = 1 << 18;

/// The static evaluations of positions met before, by hash: iterative deepening and
/// transpositions bring the search back to the same leaves, and the evaluation (mobility, the
/// pawns, the goals) is the dearest part of a node. The root's side is fixed for a search, so a
/// position's hash is its key; one entry per slot, the latest kept.
struct EvalCache {
    /// Per slot, the hash of the position evaluated (0: none) and its value, side by side so
    /// that a probe reads one cache line.
    entries: Vec<(u64, i32)>,
}

impl EvalCache {
    fn new() -> Self {
        // Zeroed vectors are had from the allocator untouched: a short search pays only for
        // the slots it uses.
        EvalCache {
            entries: vec![(0, 0); EVAL_CACHE_SIZE],
        }
    }

    fn probe(&self, key: u64) -> Option<i32> {
        let (stored, value) = self.entries[key as usize & (EVAL_CACHE_SIZE - 1)];
        // A position hashed to 0 is evaluated each time.
        (stored == key && key != 0).then_some(value)
    }

    fn store(&mut self, key: u64, value: i32) {
        self.entries[key as usize & (EVAL_CACHE_SIZE - 1)] = (key, value);
    }
}

/// When a search must end, shared with the thread that may end it: a stop flag, and deadlines
/// counted from the search's start that may be set while it runs (UCI's `ponderhit`).
#[derive(Debug)]
pub struct Control {
    start: Instant,
    stop: AtomicBool,
    /// Milliseconds after the start at which the search stops (`u64::MAX`: never).
    hard_ms: AtomicU64,
    /// Milliseconds after the start after which no new depth is begun (`u64::MAX`: never).
    soft_ms: AtomicU64,
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

impl Control {
    /// A search without a deadline, starting now.
    pub fn new() -> Self {
        Control {
            start: Instant::now(),
            stop: AtomicBool::new(false),
            hard_ms: AtomicU64::new(u64::MAX),
            soft_ms: AtomicU64::new(u64::MAX),
        }
    }

    /// Stops the search: it returns the best move of the last completed depth.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`Control::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Sets the deadlines, counted from the start: past `soft` no new depth is begun, at `hard`
    /// the search stops. `None` removes a deadline.
    pub fn set_deadlines(&self, soft: Option<Duration>, hard: Option<Duration>) {
        let ms = |d: Option<Duration>| d.map_or(u64::MAX, |d| d.as_millis() as u64);
        self.soft_ms.store(ms(soft), Ordering::Relaxed);
        self.hard_ms.store(ms(hard), Ordering::Relaxed);
    }

    /// The time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Whether the search must stop now.
    fn must_stop(&self) -> bool {
        self.is_stopped() || self.elapsed_ms() >= self.hard_ms.load(Ordering::Relaxed)
    }

    /// Whether a new depth may begin.
    fn may_deepen(&self) -> bool {
        !self.is_stopped() && self.elapsed_ms() < self.soft_ms.load(Ordering::Relaxed)
    }
}

/// What bounds one search besides its [`Control`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (at most [`MAX_DEPTH`]).
    pub depth: u32,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// How many best lines to report (1: only the best).
    pub lines: usize,
    /// Whether to stop at the first depth that finds a forced win or loss (the players do).
    pub stop_at_mate: bool,
    /// Threads searching (at most [`MAX_THREADS`]): one leads, the others help it through the
    /// shared table ([`deepen`]).
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: MAX_DEPTH,
            nodes: None,
            lines: 1,
            stop_at_mate: true,
            threads: 1,
        }
    }
}

/// A line's value for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// In hundredths of a unit of piece value (a chess pawn is 100).
    Centipawns(i32),
    /// A forced win in so many moves of the side to move (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// The score of a searched value.
    pub(crate) fn of(value: i32) -> Score {
        if value > MATE / 2 {
            Score::Mate((MATE - value + 1) / 2)
        } else if value < -MATE / 2 {
            Score::Mate(-((MATE + value + 1) / 2))
        } else {
            Score::Centipawns(value)
        }
    }

    /// A number that orders scores (mates beyond every evaluation).
    pub fn rank(&self) -> i64 {
        match *self {
            Score::Centipawns(cp) => i64::from(cp),
            Score::Mate(moves) if moves > 0 => i64::from(MATE) - i64::from(moves),
            Score::Mate(moves) => -i64::from(MATE) - i64::from(moves),
        }
    }
}

impl fmt::Display for Score {
    /// `+0.35` in units of piece value, `mate in 3` or `mated in 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Centipawns(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            Score::Mate(moves) if moves > 0 => write!(f, "mate in {moves}"),
            Score::Mate(moves) => write!(f, "mated in {}", -moves),
        }
    }
}

/// One of the best lines found: its value and its moves in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The value of the line for the side to move.
    pub score: Score,
    /// The principal variation, its first move the root move (read from the table, so it
    /// may be shorter than the depth).
    pub moves: Vec<String>,
}

/// What a search knows after a completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The depth completed, in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub time: Duration,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    /// The best lines, best first (as many as [`Limits::lines`] asks, fewer if there are fewer
    /// legal moves).
    pub lines: Vec<Line>,
}

impl Report {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Mate scores are stored relative to the node, so that they stay true wherever it is met.
fn to_table(value: i32, ply: u32) -> i32 {
    if value > MATE / 2 {
        value + ply as i32
    } else if value < -MATE / 2 {
        value - ply as i32
    } else {
        value
    }
}

fn from_table(value: i32, ply: u32) -> i32 {
    if value > MATE / 2 {
        value - ply as i32
    } else if value < -MATE / 2 {
        value + ply as i32
    } else {
        value
    }
}

/// One search from one root.
///
/// Values are negamax values: seen from the node's camp, the root's side (`+`) or its opponents
/// (`-`); a child of the same camp (a turn of several actions) keeps the parent's view.
struct Searcher<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    table: &'a Table,
    /// The side whose evaluation is maximised.
    root: SideId,
    /// Hashes of the positions before the current node (for repetition).
    path: Vec<u64>,
    nodes: u64,
    /// The node count at which the search stops.
    node_limit: u64,
    /// The deepest ply reached.
    seldepth: u32,
    control: &'a Control,
    stopped: bool,
    /// What the game's rules allow the search to assume.
    game: GameTraits,
    /// The static exchanges, where the game's captures are plain (else `None`).
    exchanges: Option<Exchanges>,
    /// Move ordering learnt while searching.
    history: History,
    /// The depth of the current iteration (bounds the check extensions).
    iteration: u32,
    /// What the end rules make worth having, for the evaluation.
    goals: Goals<B>,
    /// The evaluation's working room, kept between evaluations ([`Tally`]).
    tally: Tally<B>,
    /// The best root move of an iteration cut short, proven better than the window's bottom
    /// (one line only): the next iteration's best so far, played if the search stops there.
    partial: Option<(Move, i32)>,
    /// The evaluations of positions met before in this search.
    evaluations: EvalCache,
    /// Per ply from the root, the piece and target square of the move played there
    /// ([`piece_to`]), for the continuation history.
    line: Vec<u32>,
    /// A helper thread's node count, published as it goes (`None`: the leading thread).
    published: Option<&'a AtomicU64>,
    /// The helper threads' published node counts (the leading thread's, for its reports).
    helpers: &'a [AtomicU64],
}

impl<B: Bitboard> Searcher<'_, B> {
    fn out_of_time(&mut self) -> bool {
        if !self.stopped && (self.nodes >= self.node_limit || self.nodes & 1023 == 0) {
            self.stopped = self.nodes >= self.node_limit || self.control.must_stop();
            if let Some(count) = self.published {
                count.store(self.nodes, Ordering::Relaxed);
            }
        }
        self.stopped
    }

    /// The nodes searched by this thread and the helpers.
    fn all_nodes(&self) -> u64 {
        let helpers: u64 = self.helpers.iter().map(|c| c.load(Ordering::Relaxed)).sum();
        self.nodes + helpers
    }

    /// `1` where the root's side moves, `-1` where an opponent does.
    fn camp(&self, position: &Position<B>) -> i32 {
        if position.side_to_move(self.rules) == self.root {
            1
        } else {
            -1
        }
    }

    /// A finished game's value for the camp to move at `position`.
    fn terminal(&self, result: &crate::outcome::Outcome, ply: u32, position: &Position<B>) -> i32 {
        let value = if result.winners.is_empty() {
            0
        } else if wins(self.rules, result, self.root) {
            MATE - ply as i32
        } else {
            -(MATE - ply as i32)
        };
        value * self.camp(position)
    }

    /// The value of a position that [`end_unlisted`] finds ended (`can_act`: whether the side
    /// to move has a legal action, where known): quiescence's end of the game.
    fn ended(&mut self, position: &Position<B>, ply: u32, can_act: Option<bool>) -> i32 {
        match end_unlisted(self.rules, position, &self.path, can_act) {
            Some(result) => self.terminal(&result, ply, position),
            // Not reached: the caller saw the end.
            None => self.static_eval(position),
        }
    }

    /// The evaluation for the camp to move.
    fn static_eval(&mut self, position: &Position<B>) -> i32 {
        let key = position.hash();
        let value = match self.evaluations.probe(key) {
            Some(value) => value,
            None => {
                let value = evaluate_in(
                    self.rules,
                    &self.goals,
                    &mut self.tally,
                    position,
                    self.root,
                );
                self.evaluations.store(key, value);
                value
            }
        };
        value * self.camp(position)
    }

    fn value(&self, piece: usize) -> i64 {
        i64::from(self.rules.definition().pieces[piece].value)
    }

    /// The piece a move captures on its target square (an enemy's; en passant excluded).
    fn victim(&self, position: &Position<B>, mv: Move) -> Option<usize> {
        if matches!(
            mv.kind,
            MoveKind::Drop(_) | MoveKind::Castle(_) | MoveKind::Pass
        ) {
            return None;
        }
        let victim = position.at(mv.to)?;
        (victim.side != position.side_to_move(self.rules)).then_some(victim.piece.index())
    }

    /// How promising a move looks, for ordering (after the table's move, which [`Picker`]
    /// puts first): captures of valuable pieces by cheap ones, promotions, the killers of this
    /// ply, then the history of quiet moves.
    fn order_key(&self, position: &Position<B>, mv: Move, ply: u32) -> i64 {
        let mut key = 0;
        if let Some(victim) = self.victim(position, mv) {
            let attacker = position
                .at(mv.from)
                .map_or(0, |o| self.value(o.piece.index()));
            let mvv_lva = 100 * self.value(victim) - attacker;
            // A capture that loses the exchange on its square comes after the quiet moves.
            if self.exchange_below(position, mv, 0) {
                return LOSING_CAPTURES + mvv_lva;
            }
            key += 10_000_000 + mvv_lva;
        }
        if let MoveKind::Promote(piece) = mv.kind {
            key += 5_000_000 + 100 * self.value(piece.0 as usize);
        }
        if mv.kind == MoveKind::EnPassant {
            key += 10_000_100;
        }
        if key > 0 {
            return key;
        }
        match self.history.killer_rank(ply, mv) {
            Some(rank) => 9_000_000 - rank as i64,
            None => i64::from(self.quiet_score(position, mv)),
        }
    }

    fn ordered(&self, position: &Position<B>, mut moves: Vec<Move>, ply: u32) -> Vec<Move> {
        moves.sort_by_cached_key(|&mv| std::cmp::Reverse(self.order_key(position, mv, ply)));
        moves
    }

    /// Captures and promotions: what quiescence follows and reductions spare.
    fn tactical(&self, position: &Position<B>, mv: Move) -> bool {
        is_tactical(position, position.side_to_move(self.rules), mv)
    }

    fn child(&mut self, position: &Position<B>, mv: Move) -> Position<B> {
        let mut next = *position;
        next.play_unchecked(self.rules, mv);
        self.path.push(position.hash());
        let key = self.key(position, mv);
        self.line.push(key);
        next
    }

    /// Undoes [`Searcher::child`]'s bookkeeping.
    fn leave(&mut self) {
        self.path.pop();
        self.line.pop();
    }

    /// The keys of the moves one and two plies before the current node.
    fn previous(&self) -> [u32; 2] {
        let n = self.line.len();
        let at = |back: usize| {
            if n >= back {
                self.line[n - back]
            } else {
                NO_MOVE
            }
        };
        [at(1), at(2)]
    }

    /// A move's continuation history key ([`piece_to`]).
    fn key(&self, position: &Position<B>, mv: Move) -> u32 {
        piece_to(position, self.rules.geometry().grid_size(), mv)
    }

    /// A quiet move's history score: by its squares, and after the moves one and two plies
    /// before it.
    fn quiet_score(&self, position: &Position<B>, mv: Move) -> i32 {
        self.history.score(mv)
            + self
                .history
                .continuation(self.previous(), self.key(position, mv))
    }

    /// A child's value seen from its parent's camp, searched in the window `alpha..beta` of
    /// the parent.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        parent: i32,
        next: &Position<B>,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        if self.camp(next) == parent {
            self.negamax(next, depth, ply, alpha, beta, null_ok)
        } else {
            -self.negamax(next, depth, ply, -beta, -alpha, null_ok)
        }
    }

    /// Whether `mv` leaves a side to move in check (where the game has check).
    fn gives_check(&self, position: &Position<B>, mv: Move) -> bool {
        if !self.rules.definition().end.check {
            return false;
        }
        let mut next = *position;
        next.play_unchecked(self.rules, mv);
        self.in_check(&next)
    }

    fn in_check(&self, position: &Position<B>) -> bool {
        self.rules.definition().end.check
            && position.in_check(self.rules, position.side_to_move(self.rules))
    }

    /// Null-move pruning: if passing still holds `beta`, a real move will (the null-move
    /// observation), unless the position is a zugzwang; the game decides where it may be tried.
    fn null_move_cuts(&mut self, position: &Position<B>, depth: u32, ply: u32, beta: i32) -> bool {
        let reduction = 2 + depth / 4;
        let next = self.child(position, Move::pass());
        let value = if self.camp(&next) == self.camp(position) {
            beta - 1
        } else {
            let reduced = depth.saturating_sub(1 + reduction);
            -self.negamax(&next, reduced, ply + 1, -beta, -beta + 1, false)
        };
        self.leave();
        !self.stopped && value >= beta && value < MATE / 2
    }

    /// Whether `mv` loses more than `loss` units of value (pawns, in chess) in the exchange on
    /// its target square ([static exchange evaluation](crate::core::exchange)): with `loss` 0,
    /// a capture that loses material (ordered late, skipped in quiescence); with the depth,
    /// a move not searched at the frontier. Never for a promotion, nor where the game's
    /// captures are not plain or the move is not one piece going to a square. A capture by a
    /// piece worth no more than its victim never loses (whatever follows, the capturer may
    /// stop after one more capture), so the exchange is evaluated only for the others.
    fn exchange_below(&self, position: &Position<B>, mv: Move, loss: u32) -> bool {
        let Some(exchanges) = self.exchanges.as_ref() else {
            return false;
        };
        if matches!(mv.kind, MoveKind::Promote(_)) {
            return false;
        }
        if let (Some(victim), Some(mover)) = (self.victim(position, mv), position.at(mv.from)) {
            if self.value(mover.piece.index()) <= self.value(victim) {
                return false;
            }
        }
        exchanges
            .evaluate(self.rules, position, mv)
            .is_some_and(|exchange| exchange < -(loss as i32))
    }

    /// Whether quiescence skips the capture `mv` as losing material: by the static exchange
    /// where the game has one ([`Searcher::exchange_below`]), else by [`Searcher::losing_capture`].
    fn skipped_in_quiescence(
        &self,
        position: &Position<B>,
        mv: Move,
        guarded: &mut Option<B>,
    ) -> bool {
        if self.exchanges.is_some() {
            return self.exchange_below(position, mv, 0);
        }
        self.losing_capture(position, mv, guarded)
    }

    /// Whether a capture loses material at once, as a cheap stand-in for a static exchange
    /// evaluation (where a capture only removes its victim): the capturer is worth more than
    /// its victim and an enemy controls the square, so that it is taken back. `guarded` caches
    /// the squares the mover's enemies control.
    fn losing_capture(&self, position: &Position<B>, mv: Move, guarded: &mut Option<B>) -> bool {
        if !self.game.plain_captures || matches!(mv.kind, MoveKind::Promote(_)) {
            return false;
        }
        let Some(victim) = self.victim(position, mv) else {
            return false;
        };
        let attacker = position
            .at(mv.from)
            .map_or(0, |o| self.value(o.piece.index()));
        if attacker <= self.value(victim) {
            return false;
        }
        let guarded = *guarded.get_or_insert_with(|| {
            let mover = position.side_to_move(self.rules);
            self.rules
                .side_ids()
                .filter(|&s| self.rules.is_enemy(mover, s))
                .fold(B::EMPTY, |all, s| {
                    all | crate::control::side_control(self.rules, position, s)
                })
        });
        guarded.has(mv.to)
    }

    fn negamax(
        &mut self,
        position: &Position<B>,
        mut depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        null_ok: bool,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_time() {
            return 0;
        }
        // The table is read first, though its answer is wanted only below: the read most
        // often misses the cache, and the work in between hides the wait. A node of depth 0
        // is quiescence's (which reads no table) unless a check extends it: it reads the
        // table only then.
        let key = position.hash();
        let early_read = depth > 0;
        let mut entry = early_read.then(|| self.table.probe(key)).flatten();
        let in_check = self.in_check(position);
        // Check extension: a check is searched a ply deeper, within twice the iteration's depth.
        if in_check && ply < 2 * self.iteration {
            depth += 1;
        }
        if depth == 0 {
            // Quiescence judges the end itself, and lists only the moves it follows.
            return self.quiescence(position, ply, alpha, beta, QUIESCENCE_DEPTH);
        }
        if !early_read {
            entry = self.table.probe(key);
        }
        // The ends that need no move list (repetition, material, the move limit, ...) first;
        // then the table, whose cut-offs spare the move generation; then the moves, and the
        // ends that read them (no legal move, `can act`). A finished position is never stored,
        // so the table cannot answer for one.
        if ends_before_actions(self.rules, position, &self.path) {
            return self.ended(position, ply, None);
        }
        let pv = beta - alpha > 1;
        // A position that stood before since the last irreversible move may end the game by
        // repetition one or two plies on: its value depends on the way here, which the table
        // (keyed by the position) and the static evaluation do not see, so neither cuts it
        // short. A game against Stockfish was drawn so: a stored win for a checking move made
        // the engine miss that the reply repeated a position the third time.
        let cyclic = occurred_before(self.rules, position, &self.path);
        if let Some(e) = entry.filter(|e| e.depth >= depth && !cyclic) {
            let value = from_table(e.value, ply);
            match e.bound {
                Bound::Exact => return value,
                Bound::Lower if value >= beta && !pv => return value,
                Bound::Upper if value <= alpha && !pv => return value,
                _ => {}
            }
        }
        // Where only "no legal move" among the ends reads the moves and passing is harmless
        // (`prune_unlisted`), the pruning below, which stands only out of check, comes before
        // the move list: what it risks is a stalemate judged by the evaluation.
        let mut moves = Vec::new();
        let early = self.game.prune_unlisted;
        if !early {
            if let Some(result) = status_listed_into(self.rules, position, &self.path, &mut moves) {
                return self.terminal(&result, ply, position);
            }
        }
        // The static evaluation, once per node, where the pruning below may read it.
        let prunable = depth <= FUTILITY_DEPTH.max(FRONTIER_DEPTH)
            || (self.game.null_move && null_ok && depth >= 3);
        let stand = (!pv && !cyclic && !in_check && prunable && position.phase().is_none())
            .then(|| self.static_eval(position));
        if let Some(stand) = stand {
            if depth <= FUTILITY_DEPTH
                && beta.abs() < MATE / 2
                && stand - FUTILITY_MARGIN * depth as i32 >= beta
            {
                return stand;
            }
        }
        let camp = self.camp(position);
        if let Some(stand) = stand {
            if null_ok
                && depth >= 3
                && beta.abs() < MATE / 2
                && self.game.null_move
                && stand >= beta
                && self.game.has_officers(self.rules, position)
                && self.null_move_cuts(position, depth, ply, beta)
            {
                return beta;
            }
        }
        if self.stopped {
            return 0;
        }
        if early {
            if let Some(result) = status_listed_into(self.rules, position, &self.path, &mut moves) {
                return self.terminal(&result, ply, position);
            }
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets: Vec<Move> = Vec::new();
        let mut picker = Picker::new(moves, entry.and_then(|e| e.best));
        // Frontier pruning of quiet moves: near the horizon, outside the principal variation and
        // out of check, late quiet moves and quiet moves that cannot lift the evaluation to
        // alpha are not searched, unless they give check.
        let frontier = stand.filter(|_| self.game.quiet_pruning && depth <= FRONTIER_DEPTH);
        let mut count = 0;
        while let Some(mv) = picker.next(|rest| self.ordered(position, rest, ply)) {
            let i = count;
            count += 1;
            let quiet = !self.tactical(position, mv);
            if let Some(stand) = frontier.filter(|_| quiet && i > 0 && best > -MATE / 2) {
                let late = quiets.len() >= late_move_count(depth);
                let futile = stand + FRONTIER_MARGIN * depth as i32 <= alpha;
                if (late || futile) && !self.gives_check(position, mv) {
                    continue;
                }
            }
            if frontier.is_some()
                && i > 0
                && best > -MATE / 2
                && self.exchange_below(position, mv, depth)
            {
                continue;
            }
            let next = self.child(position, mv);
            let value = if i == 0 {
                self.child_value(camp, &next, depth - 1, ply + 1, alpha, beta, true)
            } else {
                let reduction = if quiet && !in_check && depth >= 3 && i >= 3 {
                    let killer = self.history.killer_rank(ply, mv).is_some();
                    let reduction = late_move_reduction(depth, i, pv || killer);
                    let reduction = if killer {
                        reduction
                    } else {
                        by_history(reduction, self.quiet_score(position, mv))
                    };
                    reduction.min(depth - 2)
                } else {
                    0
                };
                let mut value = self.child_value(
                    camp,
                    &next,
                    depth - 1 - reduction,
                    ply + 1,
                    alpha,
                    alpha + 1,
                    true,
                );
                if value > alpha && reduction > 0 && !self.stopped {
                    value =
                        self.child_value(camp, &next, depth - 1, ply + 1, alpha, alpha + 1, true);
                }
                if value > alpha && value < beta && !self.stopped {
                    value = self.child_value(camp, &next, depth - 1, ply + 1, alpha, beta, true);
                }
                value
            };
            self.leave();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        if quiet {
                            self.history.reward(ply, depth, mv, &quiets);
                            let previous = self.previous();
                            let keys: Vec<u32> =
                                quiets.iter().map(|&q| self.key(position, q)).collect();
                            self.history.reward_continuation(
                                previous,
                                depth,
                                self.key(position, mv),
                                &keys,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets.push(mv);
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry {
            key,
            depth,
            value: to_table(best, ply),
            bound,
            best: best_move,
        });
        best
    }

    /// The quiescence search at `position`: the end of the game judged as [`status`] judges it,
    /// then the evaluation standing pat, then the tactical moves only. Where no end condition
    /// reads the legal actions, the end needs only whether one exists (known once a tactical
    /// move is generated, else asked of the generator, which stops at the first), and the
    /// tactical moves are generated alone ([`tactical_moves`]); elsewhere every legal move is
    /// listed for the end and the tactical ones kept.
    fn quiescence(
        &mut self,
        position: &Position<B>,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        let unlisted = !self.game.ends_read_actions;
        let listed = if unlisted {
            if ends_before_actions(self.rules, position, &self.path) {
                return self.ended(position, ply, None);
            }
            None
        } else {
            match status(self.rules, position, &self.path) {
                Status::Over(result) => return self.terminal(&result, ply, position),
                Status::Moves(moves) => Some(moves),
            }
        };
        let stand = self.static_eval(position);
        if depth == 0 || stand >= beta {
            if unlisted && !any_legal(self.rules, position) {
                return self.ended(position, ply, Some(false));
            }
            return stand;
        }
        let tactical: Vec<Move> = match listed {
            Some(moves) => moves
                .into_iter()
                .filter(|&mv| self.tactical(position, mv))
                .collect(),
            None => tactical_moves(self.rules, position),
        };
        if unlisted && tactical.is_empty() && !any_legal(self.rules, position) {
            return self.ended(position, ply, Some(false));
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let camp = self.camp(position);
        // The squares the mover's enemies control, found when first needed.
        let mut guarded: Option<B> = None;
        // The moves already tried, without their neutral placements.
        let mut placed: Vec<Move> = Vec::new();
        for mv in self.ordered(position, tactical, ply) {
            if another_placement(&mut placed, mv)
                || self.skipped_in_quiescence(position, mv, &mut guarded)
            {
                continue;
            }
            // Delta pruning: a capture that cannot lift the evaluation to alpha even with a
            // margin is not tried (where a capture only removes its victim).
            if self.game.plain_captures && !matches!(mv.kind, MoveKind::Promote(_)) {
                if let Some(victim) = self.victim(position, mv) {
                    let gain = self.value(victim) * VALUE_SCALE + DELTA_MARGIN;
                    if i64::from(stand) + gain <= i64::from(alpha) {
                        continue;
                    }
                }
            }
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply + 1);
            if self.out_of_time() {
                return 0;
            }
            let next = self.child(position, mv);
            let value = if self.camp(&next) == camp {
                self.quiescence(&next, ply + 1, alpha, beta, depth - 1)
            } else {
                -self.quiescence(&next, ply + 1, -beta, -alpha, depth - 1)
            };
            self.leave();
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Searches every root move to `depth` within `window`, the previous best first; `None`
    /// if time ran out. Returns the best `lines` moves with their values, best first (a move
    /// found later replaces an earlier one only when strictly better): below the `lines`-th
    /// best value a move is only shown to be worse, which is all the ranking needs. With one
    /// line, the moves after the first are searched with a null window first (principal
    /// variation search), and the search stops at a move that reaches the window's top.
    fn root(
        &mut self,
        position: &Position<B>,
        moves: &[Move],
        depth: u32,
        lines: usize,
        window: (i32, i32),
    ) -> Option<Vec<(Move, i32)>> {
        let (low, high) = window;
        let mut best: Vec<(Move, i32)> = Vec::with_capacity(lines + 1);
        for (i, &mv) in moves.iter().enumerate() {
            let alpha = if best.len() >= lines {
                best[lines - 1].1.max(low)
            } else {
                low
            };
            let next = self.child(position, mv);
            let value = if i == 0 || lines > 1 {
                self.child_value(1, &next, depth - 1, 1, alpha, high, true)
            } else {
                let value = self.child_value(1, &next, depth - 1, 1, alpha, alpha + 1, true);
                if value > alpha && value < high && !self.stopped {
                    self.child_value(1, &next, depth - 1, 1, alpha, high, true)
                } else {
                    value
                }
            };
            self.leave();
            if self.stopped {
                self.partial = best
                    .first()
                    .filter(|&&(_, value)| lines == 1 && value > low)
                    .copied();
                return None;
            }
            if best.len() < lines || value > alpha {
                let at = best.partition_point(|&(_, b)| b >= value);
                best.insert(at, (mv, value));
                best.truncate(lines);
            }
            if lines == 1 && value >= high {
                break;
            }
        }
        Some(best)
    }

    /// The root moves searched to `depth` in an aspiration window around the previous
    /// iteration's value, widened on each side it fails on until the value falls inside.
    fn aspirated(
        &mut self,
        position: &Position<B>,
        moves: &[Move],
        depth: u32,
        lines: usize,
        previous: i32,
    ) -> Option<Vec<(Move, i32)>> {
        let mut delta = ASPIRATION_WINDOW;
        let aspire = lines == 1 && depth >= 4 && previous.abs() < MATE / 2;
        let (mut low, mut high) = if aspire {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let found = self.root(position, moves, depth, lines, (low, high))?;
            let value = found[0].1;
            delta = delta.saturating_mul(4);
            if value <= low && low > -INFINITY {
                low = if delta > MATE / 4 {
                    -INFINITY
                } else {
                    value - delta
                };
            } else if value >= high && high < INFINITY {
                high = if delta > MATE / 4 {
                    INFINITY
                } else {
                    value + delta
                };
            } else {
                return Some(found);
            }
        }
    }

    /// The line the table remembers after `first`: each position's best move while it is legal
    /// there, at most `length` moves, and no position twice.
    fn principal_variation(&self, position: &Position<B>, first: Move, length: u32) -> Vec<Move> {
        let mut line = vec![first];
        let mut seen = vec![position.hash()];
        let mut current = *position;
        current.play_unchecked(self.rules, first);
        while (line.len() as u32) < length.max(1) && !seen.contains(&current.hash()) {
            let Some(mv) = self.table.probe(current.hash()).and_then(|e| e.best) else {
                break;
            };
            if !crate::legal::legal_moves(self.rules, &current).contains(&mv) {
                break;
            }
            seen.push(current.hash());
            current.play_unchecked(self.rules, mv);
            line.push(mv);
        }
        line
    }
}

/// Quiescence tries one placement of a neutral piece per move (the first in the order): it
/// settles the material a line wins or loses, and where the neutral piece goes is a
/// positional choice, one of dozens (duck chess's duck: every capture with each empty square).
/// Trying each would multiply the captures by the empty squares at every quiescence ply, so
/// that the search never finished its first iteration. Whether `mv` is another placement
/// of a move in `placed`; if not, and it places a neutral piece, it is added there.
fn another_placement(placed: &mut Vec<Move>, mv: Move) -> bool {
    if !matches!(mv.gate, Some(Gate::Neutral(_))) {
        return false;
    }
    let base = Move { gate: None, ..mv };
    if placed.contains(&base) {
        return true;
    }
    placed.push(base);
    false
}

/// Late move reductions: how many plies less a quiet move late in the order is searched with
/// a null window first (re-searched at full depth if it beats alpha); less in principal
/// variation nodes and for killers.
fn late_move_reduction(depth: u32, index: usize, gentle: bool) -> u32 {
    let r = 0.75 + (f64::from(depth).ln() * (index as f64).ln()) / 2.25;
    let r = r as u32;
    if gentle {
        r.saturating_sub(1)
    } else {
        r
    }
}

/// A late move's reduction by its history: a ply less where its history is good (it refuted
/// lines), a ply more where it is bad (it was tried in vain before moves that did).
fn by_history(reduction: u32, history: i32) -> u32 {
    match history.signum() {
        1 => reduction.saturating_sub(1),
        -1 => reduction + 1,
        _ => reduction,
    }
}

/// Late move pruning: at the frontier, the quiet moves after this many quiet ones are not
/// searched (their order says they are unlikely to matter there).
fn late_move_count(depth: u32) -> usize {
    3 + (depth * depth) as usize
}

/// What the game's rules allow the search to assume, read once from the definition.
#[derive(Clone, Debug)]
struct GameTraits {
    /// Whether null-move pruning is sound enough here: two opposed sides taking single-action
    /// turns, no pass in the rules (where passing is a move, or passes are counted, a null
    /// move would change the game), no obligation on the action (compulsory captures or drops
    /// make zugzwang the rule), and no stalemate that wins (losing games).
    null_move: bool,
    /// Whether a capture only removes its victim (no explosion, hand, prison or conversion):
    /// then a capture gains at most its victim's value, which delta pruning assumes.
    plain_captures: bool,
    /// Whether quiet moves may be pruned at the frontier: where null moves are sound and no end
    /// condition (`wins when ...`, `loses when ...`) might make a quiet move decide the game.
    quiet_pruning: bool,
    /// Whether an end condition reads the legal actions (`can act`, `legal drops`): then the
    /// end of a quiescence node is judged on all of them, listed, and its tactical moves are
    /// kept from that list rather than generated alone.
    ends_read_actions: bool,
    /// Whether reverse futility and null-move pruning may come before the move list: where
    /// null moves are sound and no end condition reads the legal actions, so that the only end
    /// the list could show, out of check, is a stalemate.
    prune_unlisted: bool,
    /// The piece types whose presence makes zugzwang unlikely: neither royal nor promoting
    /// (pawn-like), and worth something.
    officers: Vec<crate::core::index::PieceId>,
}

impl GameTraits {
    fn of<B: Bitboard>(rules: &Rules<B>) -> Self {
        let d = &rules.definition();
        let two_sides = rules.sides() == 2
            && d.turn_order.len() == 2
            && rules.is_enemy(SideId::new(0), SideId::new(1));
        let null_move = two_sides
            && d.turn.actions == 1
            && !d.turn.pass
            && !d.turn.may_pass
            && d.drops.obligations.is_empty()
            && d.move_rules.obligations.is_empty()
            && d.policies.is_empty()
            && d.end.stalemate != Some(variant_dsl::Verdict::Win);
        let plain_captures = !d.capture.any()
            && d.capture.stores.iter().all(Option::is_none)
            && !d.pieces.iter().any(|p| p.converts_around);
        let officers = rules
            .piece_ids()
            .filter(|&p| {
                let piece = &d.pieces[p.index()];
                !piece.royal && piece.promotion.is_none() && piece.value > 0
            })
            .collect();
        GameTraits {
            null_move,
            plain_captures,
            quiet_pruning: null_move && d.end.conditions.is_empty(),
            ends_read_actions: end_reads_actions(rules),
            prune_unlisted: null_move && !end_reads_actions(rules),
            officers,
        }
    }

    /// Whether the side to move has an officer on the board or in hand.
    fn has_officers<B: Bitboard>(&self, rules: &Rules<B>, position: &Position<B>) -> bool {
        let side = position.side_to_move(rules);
        let own = position.side_pieces(side);
        self.officers
            .iter()
            .any(|&p| (own & position.typed(p)).any() || position.hand(side, p) > 0)
    }
}

/// Plies the killer table covers.
const KILLER_PLIES: usize = 2 * MAX_DEPTH as usize + 2 * QUIESCENCE_DEPTH as usize;

/// Move ordering learnt while searching: two killers per ply (quiet moves that refuted a
/// sibling line), a history score per origin and target square (quiet moves that caused
/// cut-offs, deeper ones counting more; those tried before them counting against), and the
/// same score per pair of moves (a continuation history: this piece to this square, after
/// that piece to that square one or two plies before), which knows what answers what.
struct History {
    killers: Vec<[Option<Move>; 2]>,
    scores: Vec<i32>,
    /// Per pair (the move one or two plies before, this move), both as [`piece_to`] keys: how
    /// often this move refuted a line after that one.
    continuation: Continuation,
}

/// No move (the root, or a pass): its continuation entries are not kept.
const NO_MOVE: u32 = u32::MAX;

/// The continuation history's table holds at most this many entries.
const CONTINUATION_LIMIT: usize = 1 << 22;

/// A move's key for the continuation history: the piece type moved (or dropped) and its
/// target square, `piece * grid + square` for a board of `grid` square indices; [`NO_MOVE`]
/// for a pass.
fn piece_to<B: Bitboard>(position: &Position<B>, grid: usize, mv: Move) -> u32 {
    let piece = match mv.kind {
        MoveKind::Pass => return NO_MOVE,
        MoveKind::Drop(piece) => piece.index(),
        _ => match position.at(mv.from) {
            Some(occupant) => occupant.piece.index(),
            None => return NO_MOVE,
        },
    };
    (piece * grid + mv.to.index()) as u32
}

/// The continuation history's entries, a block of one entry per key for each key of the move
/// before and each distance back (one or two plies).
///
/// Why blocks: the quiet moves of a node are all scored after the same moves before, so they
/// read one block (a few kilobytes) rather than entries scattered over megabytes, which
/// missed the cache on nearly every read. Where a game has so many keys that a block per
/// previous key would pass [`CONTINUATION_LIMIT`], the previous keys share the blocks there
/// are, by a hash.
#[derive(Clone, Debug)]
struct Continuation {
    /// Keys a block holds: piece types times square indices.
    keys: usize,
    /// The number of blocks: two per key when they fit.
    blocks: usize,
    entries: Vec<i32>,
}

impl Continuation {
    fn new(keys: usize) -> Self {
        let keys = keys.max(1);
        let blocks = (2 * keys).min((CONTINUATION_LIMIT / keys).max(1));
        Continuation {
            keys,
            blocks,
            entries: vec![0; blocks * keys],
        }
    }

    /// The entry of `key` after `previous`, `back` (1 or 2) plies before.
    fn slot(&self, previous: u32, back: usize, key: u32) -> usize {
        let dense = (back - 1) * self.keys + previous as usize % self.keys;
        let block = if self.blocks == 2 * self.keys {
            dense
        } else {
            let mixed = (dense as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            ((mixed >> 32) % self.blocks as u64) as usize
        };
        block * self.keys + key as usize % self.keys
    }
}

impl History {
    /// A history for moves whose [`piece_to`] keys are below `keys`.
    fn new(keys: usize) -> Self {
        History {
            killers: vec![[None; 2]; KILLER_PLIES],
            scores: vec![0; 256 * 256],
            continuation: Continuation::new(keys),
        }
    }

    /// The continuation score of `key` after the moves `previous` (one and two plies back).
    fn continuation(&self, previous: [u32; 2], key: u32) -> i32 {
        if key == NO_MOVE {
            return 0;
        }
        previous
            .iter()
            .zip(1usize..)
            .filter(|&(&p, _)| p != NO_MOVE)
            .map(|(&p, back)| self.continuation.entries[self.continuation.slot(p, back, key)])
            .sum()
    }

    /// The move `key` refuted the line after `previous`; `tried` were searched before it.
    fn reward_continuation(&mut self, previous: [u32; 2], depth: u32, key: u32, tried: &[u32]) {
        let bonus = (depth * depth) as i32;
        for (&p, back) in previous.iter().zip(1usize..) {
            if p == NO_MOVE {
                continue;
            }
            let updates = std::iter::once((key, bonus)).chain(tried.iter().map(|&k| (k, -bonus)));
            for (k, delta) in updates {
                if k == NO_MOVE {
                    continue;
                }
                let at = self.continuation.slot(p, back, k);
                let slot = &mut self.continuation.entries[at];
                // Gravity: each update pulls the entry towards the limit it moves to.
                let pull = i64::from(*slot) * i64::from(delta.abs()) / i64::from(HISTORY_LIMIT);
                *slot += delta - pull as i32;
            }
        }
    }

    fn index(mv: Move) -> usize {
        ((mv.from.index() & 255) << 8) | (mv.to.index() & 255)
    }

    fn score(&self, mv: Move) -> i32 {
        self.scores[Self::index(mv)]
    }

    fn killer_rank(&self, ply: u32, mv: Move) -> Option<usize> {
        self.killers
            .get(ply as usize)?
            .iter()
            .position(|&k| k == Some(mv))
    }

    /// A quiet move `mv` refuted the line at `ply`; `tried` were searched before it in vain.
    fn reward(&mut self, ply: u32, depth: u32, mv: Move, tried: &[Move]) {
        if let Some(killers) = self.killers.get_mut(ply as usize) {
            if killers[0] != Some(mv) {
                killers[1] = killers[0];
                killers[0] = Some(mv);
            }
        }
        let bonus = (depth * depth) as i32;
        self.scores[Self::index(mv)] += bonus;
        for &other in tried {
            self.scores[Self::index(other)] -= bonus;
        }
        if self.scores[Self::index(mv)] > HISTORY_LIMIT {
            self.scores.iter_mut().for_each(|s| *s /= 2);
        }
        if tried
            .iter()
            .any(|&other| self.scores[Self::index(other)] < -HISTORY_LIMIT)
        {
            self.scores.iter_mut().for_each(|s| *s /= 2);
        }
    }
}

/// A node's moves in the order they are searched: the table's move first, then the rest as
/// [`Searcher::ordered`] sorts them, sorted only once the table's move has not cut the node
/// off (where it does, the other moves' keys were never worth computing).
struct Picker {
    first: Option<Move>,
    rest: Vec<Move>,
    sorted: bool,
    at: usize,
}

impl Picker {
    fn new(mut moves: Vec<Move>, best: Option<Move>) -> Self {
        let first = best
            .and_then(|best| moves.iter().position(|&mv| mv == best))
            .map(|at| moves.remove(at));
        Picker {
            first,
            rest: moves,
            sorted: false,
            at: 0,
        }
    }

    /// The next move, sorting the rest with `order` the first time one of them is asked for.
    fn next(&mut self, order: impl FnOnce(Vec<Move>) -> Vec<Move>) -> Option<Move> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        if !self.sorted {
            self.sorted = true;
            self.rest = order(std::mem::take(&mut self.rest));
        }
        let mv = self.rest.get(self.at).copied();
        self.at += 1;
        mv
    }
}

/// History scores are halved past this, staying below the killers' keys.
const HISTORY_LIMIT: i32 = 1 << 20;

/// The ordering key of captures that lose their exchange (plus their victim's and capturer's
/// order): below every quiet move's history score.
const LOSING_CAPTURES: i64 = -(10 * HISTORY_LIMIT as i64);

/// The end of a search: the best move and what was known of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The best move in the game's notation.
    pub best: String,
    /// The reply expected, when the table knows one.
    pub ponder: Option<String>,
    /// The deepest depth completed (0 if none was).
    pub depth: u32,
    /// The best move's value (0 if no depth was completed).
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
    /// The last report, if a depth was completed.
    pub report: Option<Report>,
    /// The best move's value as searched (for the players' summaries).
    value: i32,
}

/// Iterative deepening from `position` (the positions before it hashed in `history`) for the
/// side to move, within `limits` and `control`; `report` is called after each completed depth
/// when given. `None` when the game is over there.
///
/// With [`Limits::threads`] above one, helper threads search the same root on the same table
/// (Lazy SMP): each its own iterative deepening, skipping some depths so that they run ahead of
/// this thread's, and what they store (bounds, best moves) cuts this thread's search short.
/// This thread's iterations alone decide the move, report and count towards the node limit;
/// the helpers stop when it ends.
pub(crate) fn deepen<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    table: &mut TranspositionTable,
    limits: &Limits,
    control: &Control,
    report: Option<&mut dyn FnMut(&Report)>,
) -> Option<Finished> {
    let Status::Moves(moves) = status(rules, position, history) else {
        return None;
    };
    let root = position.side_to_move(rules);
    let table = table.for_side(root.index());
    let helpers = limits.threads.clamp(1, MAX_THREADS) - 1;
    if helpers == 0 {
        let searcher = Searcher::new(rules, position, history, table, limits, control);
        return Some(lead(searcher, position, moves, limits, report));
    }
    let done = Control::new();
    let counts: Vec<AtomicU64> = (0..helpers).map(|_| AtomicU64::new(0)).collect();
    Some(std::thread::scope(|scope| {
        let mut started = Vec::new();
        for (index, count) in counts.iter().enumerate() {
            let (moves, done) = (moves.clone(), &done);
            let helper = std::thread::Builder::new()
                .name(format!("search helper {}", index + 1))
                .spawn_scoped(scope, move || {
                    // A helper counts no nodes towards the limit: the leader's end stops it.
                    let unbounded = Limits {
                        nodes: None,
                        ..*limits
                    };
                    let mut searcher =
                        Searcher::new(rules, position, history, table, &unbounded, done);
                    searcher.published = Some(count);
                    help(searcher, position, moves, index, limits.depth)
                });
            // A thread the system refuses is a helper less.
            started.extend(helper.ok());
        }
        let mut searcher = Searcher::new(rules, position, history, table, limits, control);
        searcher.helpers = &counts;
        let mut finished = lead(searcher, position, moves, limits, report);
        done.stop();
        for helper in started {
            finished.nodes += helper.join().unwrap_or(0);
        }
        finished
    }))
}

/// The most threads a search uses.
pub const MAX_THREADS: usize = 64;

/// Which depths a helper skips (Lazy SMP as Stockfish 9 spread it): helper `index` skips depth
/// `d` where `(d + phase) / size` is odd, the size and phase taken in turn from these rows, so
/// that half of the helpers search the odd depths and half the even, a quarter ... .
fn skips(index: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let row = index % SIZE.len();
    (depth + PHASE[row]) / SIZE[row] % 2 == 1
}

/// A helper thread's iterative deepening (helper `index`, from 0) to `max_depth`, until its
/// searcher's control stops it: the nodes it searched.
fn help<B: Bitboard>(
    mut searcher: Searcher<'_, B>,
    position: &Position<B>,
    moves: Vec<Move>,
    index: usize,
    max_depth: u32,
) -> u64 {
    let mut ordered = searcher.ordered(position, moves, 0);
    let mut previous = 0;
    for depth in 1..=max_depth.clamp(1, MAX_DEPTH) {
        if searcher.control.is_stopped() {
            break;
        }
        if depth > 1 && skips(index, depth) {
            continue;
        }
        searcher.iteration = depth;
        let Some(found) = searcher.aspirated(position, &ordered, depth, 1, previous) else {
            break;
        };
        previous = found[0].1;
        if let Some(at) = ordered.iter().position(|&m| m == found[0].0) {
            let chosen = ordered.remove(at);
            ordered.insert(0, chosen);
        }
    }
    searcher.nodes
}

impl<'a, B: Bitboard> Searcher<'a, B> {
    /// A searcher for the side to move at `position`, on `table`.
    fn new(
        rules: &'a Rules<B>,
        position: &Position<B>,
        history: &[u64],
        table: &'a Table,
        limits: &Limits,
        control: &'a Control,
    ) -> Self {
        let game = GameTraits::of(rules);
        Searcher {
            rules,
            table,
            root: position.side_to_move(rules),
            path: history.to_vec(),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            seldepth: 0,
            control,
            stopped: false,
            exchanges: game.plain_captures.then(|| Exchanges::of(rules)).flatten(),
            game,
            history: History::new(rules.pieces() * rules.geometry().grid_size()),
            line: Vec::new(),
            iteration: 1,
            goals: Goals::of(rules),
            tally: Tally::default(),
            partial: None,
            evaluations: EvalCache::new(),
            published: None,
            helpers: &[],
        }
    }
}

/// The iterative deepening whose iterations decide the move, by `searcher` (which reports the
/// helper threads' nodes beside its own).
fn lead<B: Bitboard>(
    mut searcher: Searcher<'_, B>,
    position: &Position<B>,
    moves: Vec<Move>,
    limits: &Limits,
    mut report: Option<&mut dyn FnMut(&Report)>,
) -> Finished {
    let lines = limits.lines.clamp(1, moves.len());
    let (rules, control) = (searcher.rules, searcher.control);
    let mut ordered = searcher.ordered(position, moves, 0);
    let mut best = (ordered[0], 0, 0);
    let mut last_report = None;
    for depth in 1..=limits.depth.clamp(1, MAX_DEPTH) {
        if control.is_stopped() {
            break;
        }
        searcher.iteration = depth;
        searcher.partial = None;
        let Some(found) = searcher.aspirated(position, &ordered, depth, lines, best.1) else {
            // An iteration cut short still knows a better move than the last one's, if it
            // proved one.
            if let Some((mv, value)) = searcher.partial {
                if mv != best.0 && depth > 1 {
                    best = (mv, value, best.2);
                    if let Some(report) = report.as_mut() {
                        let made = report_of(&searcher, position, &[(mv, value)], depth, control);
                        report(&made);
                        last_report = Some(made);
                    }
                }
            }
            break;
        };
        let (mv, value) = found[0];
        best = (mv, value, depth);
        // The best lines first, in their order; the other moves keep theirs.
        for (i, &(line_move, _)) in found.iter().enumerate() {
            if let Some(at) = ordered.iter().position(|&m| m == line_move) {
                let chosen = ordered.remove(at);
                ordered.insert(i, chosen);
            }
        }
        if let Some(report) = report.as_mut() {
            let made = report_of(&searcher, position, &found, depth, control);
            report(&made);
            last_report = Some(made);
        }
        if (limits.stop_at_mate && mate_settled(value, depth)) || !control.may_deepen() {
            break;
        }
    }
    let ponder = searcher
        .principal_variation(position, best.0, 2)
        .get(1)
        .map(|m| m.uci(rules));
    Finished {
        best: best.0.uci(rules),
        ponder,
        depth: best.2,
        score: Score::of(best.1),
        nodes: searcher.nodes,
        report: last_report,
        value: best.1,
    }
}

/// Whether `value`, the best found by a full iteration of `depth` plies, is a mate no shorter
/// line can beat: the iteration saw every line as long as the mate. A mate the table carried
/// over from a deeper search (a check at the horizon reads it) can be longer than the
/// iteration: stopping there plays its first move while a shorter mate goes unseen, and such a
/// mate can lead round in circles (a knight giving the same checks until the position repeats,
/// a won game drawn).
fn mate_settled(value: i32, depth: u32) -> bool {
    value.abs() > MATE / 2 && MATE - value.abs() <= depth as i32
}

/// What the search knows of `found` (the best lines, best first) at `depth`.
fn report_of<B: Bitboard>(
    searcher: &Searcher<'_, B>,
    position: &Position<B>,
    found: &[(Move, i32)],
    depth: u32,
    control: &Control,
) -> Report {
    let line = |&(mv, value): &(Move, i32)| Line {
        score: Score::of(value),
        moves: searcher
            .principal_variation(position, mv, depth)
            .iter()
            .map(|m| m.uci(searcher.rules))
            .collect(),
    };
    Report {
        depth,
        seldepth: searcher.seldepth.max(depth),
        nodes: searcher.all_nodes(),
        time: control.elapsed(),
        hashfull: searcher.table.per_mille_full(),
        lines: found.iter().map(line).collect(),
    }
}

/// The alpha-beta player.
pub struct SearchAgent<B> {
    budget: Budget,
    table: Option<TranspositionTable>,
    width: PhantomData<fn() -> B>,
}

impl<B: Bitboard> SearchAgent<B> {
    /// A player searching to a depth, or for a time, per move.
    pub fn new(budget: Budget) -> Self {
        SearchAgent {
            budget,
            table: None,
            width: PhantomData,
        }
    }
}

/// The evaluation in units of piece value, signed: `+1.25`, or a mate in so many plies.
fn describe_value(value: i32) -> String {
    if value > MATE / 2 {
        format!("wins in {} plies", MATE - value)
    } else if value < -MATE / 2 {
        format!("loses in {} plies", MATE + value)
    } else {
        format!("{:+.2}", f64::from(value) / 100.0)
    }
}

impl<B: Bitboard> Agent for SearchAgent<B> {
    fn choose(&mut self, session: &dyn Session) -> Option<Choice> {
        let game = typed::<B>(session)?;
        let snapshot = Snapshot::of(game);
        let rules: &Rules<B> = &snapshot.rules;
        let Status::Moves(moves) = status(rules, &snapshot.position, &snapshot.history) else {
            return None;
        };
        if moves.len() == 1 {
            return Some(Choice {
                mv: moves[0].uci(rules),
                summary: "the only legal move".into(),
                work: 0,
                dice: None,
            });
        }
        let table = self.table.get_or_insert_with(TranspositionTable::new);
        let control = Control::new();
        let mut limits = Limits::default();
        match self.budget {
            Budget::Count(depth) => limits.depth = depth.min(MAX_DEPTH as u64) as u32,
            // Past half the time, the next depth would not end in time.
            Budget::Time(t) => control.set_deadlines(Some(t / 2), Some(t)),
        }
        let finished = deepen(
            rules,
            &snapshot.position,
            &snapshot.history,
            table,
            &limits,
            &control,
            None,
        )?;
        let elapsed = control.elapsed().max(Duration::from_micros(1));
        Some(Choice {
            mv: finished.best,
            summary: format!(
                "depth {}, {}, {} nodes ({:.0}k nodes/s)",
                finished.depth,
                describe_value(finished.value),
                finished.nodes,
                finished.nodes as f64 / elapsed.as_secs_f64() / 1000.0
            ),
            work: finished.nodes,
            dice: None,
        })
    }

    fn spec(&self) -> PlayerSpec {
        PlayerSpec::Search(self.budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sq;

    fn session(game: &str, fen: Option<&str>) -> Box<dyn Session> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../games/{game}.variant"));
        let loaded = variant_dsl::load_file(&path).expect("the game loads");
        crate::session::open(&loaded.definition, fen).expect("a position")
    }

    fn traits(game: &str) -> GameTraits {
        let session = session(game, None);
        match super::super::typed::<u64>(session.as_ref()) {
            Some(game) => GameTraits::of(&game.shared_rules()),
            None => GameTraits::of(
                &super::super::typed::<u128>(session.as_ref())
                    .expect("a game of 128 squares at most")
                    .shared_rules(),
            ),
        }
    }

    fn search(session: &dyn Session, depth: u32) -> Finished {
        let limits = Limits {
            depth,
            ..Limits::default()
        };
        search_within(session, &limits)
    }

    fn search_within(session: &dyn Session, limits: &Limits) -> Finished {
        let game = super::super::typed::<u64>(session).expect("64 squares at most");
        let snapshot = Snapshot::of(game);
        deepen(
            &snapshot.rules,
            &snapshot.position,
            &snapshot.history,
            &mut TranspositionTable::with_megabytes(1),
            limits,
            &Control::new(),
            None,
        )
        .expect("the game goes on")
    }

    #[test]
    fn null_moves_are_tried_only_where_the_rules_make_passing_harmless() {
        assert!(traits("chess").null_move);
        assert!(traits("crazyhouse").null_move);
        // Compulsory captures and a winning stalemate: zugzwang is the game.
        assert!(!traits("antichess").null_move);
        assert!(!traits("losers").null_move);
        // A pass is a move of its own there (and two passes end the game).
        assert!(!traits("ataxx").null_move);
        assert!(!traits("janggi").null_move);
    }

    #[test]
    fn quiescence_tries_one_placement_of_the_neutral_piece_per_move() {
        let e4 = Sq::new(28);
        let mv = |to: usize, duck: Option<usize>| Move {
            from: Sq::new(to - 8),
            to: Sq::new(to),
            kind: MoveKind::Normal,
            converts: None,
            gate: duck.map(|d| Gate::Neutral(Sq::new(d))),
        };
        let mut placed = Vec::new();
        assert!(!another_placement(&mut placed, mv(28, Some(40))));
        assert!(another_placement(&mut placed, mv(28, Some(41))));
        // Another move's first placement, and moves without one, are tried.
        assert!(!another_placement(&mut placed, mv(29, Some(41))));
        assert!(!another_placement(&mut placed, mv(28, None)));
        assert!(!another_placement(&mut placed, mv(28, None)));
        assert_eq!(placed.len(), 2);
        assert_eq!(placed[0].to, e4);
    }

    #[test]
    fn in_duck_chess_the_search_blocks_a_king_capture_within_a_small_budget() {
        // Black to move; White's queen on h5 takes the King on e8 through g6 and f7 unless
        // something stands between. Every capture in quiescence with each of the ~40 duck
        // squares made the first iteration alone cost over a million nodes.
        let fen = "rnbqkbnr/pppp*3/7p/4pppQ/2PP4/1P2P3/P4PPP/RNB1KBNR b KQkq - 0 5";
        let mut session = session("duck", Some(fen));
        let limits = Limits {
            depth: MAX_DEPTH,
            nodes: Some(150_000),
            ..Limits::default()
        };
        let finished = search_within(session.as_ref(), &limits);
        assert!(finished.depth >= 3, "depth {}", finished.depth);
        session.play(&finished.best).expect("a legal move");
        // No reply of White's leaves Black without its King (`k` in the FEN's board).
        for reply in session.legal_moves() {
            session.play(&reply).expect("a legal reply");
            let board = session.fen();
            assert!(
                board.split(' ').next().is_some_and(|b| b.contains('k')),
                "{} then {reply} takes the King",
                finished.best
            );
            session.undo();
        }
    }

    #[test]
    fn delta_pruning_only_where_a_capture_only_removes_its_victim() {
        assert!(traits("chess").plain_captures);
        assert!(!traits("atomic").plain_captures);
        assert!(!traits("crazyhouse").plain_captures);
    }

    #[test]
    fn a_lone_king_and_pawns_have_no_officers() {
        let traits = traits("chess");
        let with = |fen: &str| {
            let session = session("chess", Some(fen));
            let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
            traits.has_officers(&game.shared_rules(), game.position())
        };
        assert!(!with("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"));
        assert!(with("4k3/4p3/8/8/8/8/4P3/4KN2 w - - 0 1"));
        // Black's knight is not White's.
        assert!(!with("4kn2/4p3/8/8/8/8/4P3/4K3 w - - 0 1"));
    }

    #[test]
    fn mate_in_two_is_found_and_scored_exactly_for_both_sides() {
        let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
        for depth in [4, 6] {
            let finished = search(session("chess", Some(fen)).as_ref(), depth);
            assert_eq!(finished.best, "d5f6", "at depth {depth}");
            assert_eq!(finished.score, Score::Mate(2), "at depth {depth}");
        }
        let after = "r2qkb1r/pp2nppp/3p1N2/2p1N1B1/2BnP3/3P4/PPP2PPP/R2bK2R b KQkq - 2 1";
        let finished = search(session("chess", Some(after)).as_ref(), 5);
        assert_eq!(finished.score, Score::Mate(-1));
    }

    #[test]
    fn with_helper_threads_the_mate_in_two_is_still_found_and_scored_exactly() {
        let fen = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
        for threads in [2, 3] {
            let limits = Limits {
                depth: 6,
                threads,
                ..Limits::default()
            };
            let finished = search_within(session("chess", Some(fen)).as_ref(), &limits);
            assert_eq!(finished.best, "d5f6", "{threads} threads");
            assert_eq!(finished.score, Score::Mate(2), "{threads} threads");
        }
    }

    #[test]
    fn the_first_two_helpers_search_the_even_and_the_odd_depths() {
        for depth in 2..20 {
            assert_eq!(skips(0, depth), depth % 2 == 1, "{depth}");
            assert_eq!(skips(1, depth), depth % 2 == 0, "{depth}");
        }
        // The third and fourth skip pairs of depths, out of step.
        let third: Vec<bool> = (2..10).map(|d| skips(2, d)).collect();
        assert_eq!(third, [true, true, false, false, true, true, false, false]);
        let fourth: Vec<bool> = (2..10).map(|d| skips(3, d)).collect();
        assert_eq!(fourth, [true, false, false, true, true, false, false, true]);
    }

    /// A helper alone (its lead not started): it searches, publishes its nodes and leaves its
    /// findings in the shared table.
    #[test]
    fn a_helper_fills_the_shared_table_with_the_roots_best_move() {
        let session = session(
            "chess",
            Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
        );
        let snapshot = Snapshot::of(super::super::typed::<u64>(session.as_ref()).expect("chess"));
        let (rules, position) = (&snapshot.rules, &snapshot.position);
        let legal = crate::legal::legal_moves(rules, position);
        let mut table = TranspositionTable::with_megabytes(1);
        let shared = table.for_side(position.side_to_move(rules).index());
        let count = AtomicU64::new(0);
        let limits = Limits {
            depth: 5,
            ..Limits::default()
        };
        let helper = |done: &Control| {
            let mut searcher =
                Searcher::new(rules, position, &snapshot.history, shared, &limits, done);
            searcher.published = Some(&count);
            help(searcher, position, legal.clone(), 0, limits.depth)
        };
        let done = Control::new();
        let nodes = helper(&done);
        assert!(nodes > 100, "{nodes}");
        assert!(count.load(Ordering::Relaxed) <= nodes);
        // Its last depth was 4 (helper 0 searches the even depths): the root's children were
        // searched 3 deep, and what it found there is in the shared table, with legal moves.
        let mut deepest = 0;
        for &mv in &legal {
            let mut child = *position;
            child.play_unchecked(rules, mv);
            if let Some(entry) = shared.probe(child.hash()) {
                deepest = deepest.max(entry.depth);
                if let Some(best) = entry.best {
                    assert!(crate::legal::legal_moves(rules, &child).contains(&best));
                }
            }
        }
        assert_eq!(deepest, 3);
        // A helper told to stop before it starts searches nothing but its first depth's root.
        done.stop();
        let stopped = helper(&done);
        assert_eq!(stopped, 0);
    }

    #[test]
    fn the_quiet_search_still_sees_a_free_queen_and_keeps_its_own() {
        // White's queen on d4 is attacked by the pawn on e5: it must move; no capture is free.
        let finished = search(
            session(
                "chess",
                Some("rnbqkbnr/pppp1ppp/8/4p3/3Q4/8/PPP1PPPP/RNB1KBNR w KQkq - 0 3"),
            )
            .as_ref(),
            5,
        );
        assert!(finished.best.starts_with("d4"), "{}", finished.best);
        assert!(matches!(finished.score, Score::Centipawns(cp) if cp > -100));
    }

    /// Searches the session's position (if it is a game of width `B`) with a table whose
    /// entries for the position and each of its children name `foreign`, moves of another
    /// position (as a hash collision, or a table kept from another game, would): the best move,
    /// the ponder move and every move of every reported line must be legal where played.
    fn poisoned<B: Bitboard>(session: &dyn Session, foreign: &[Move]) -> Option<Finished> {
        let snapshot = Snapshot::of(super::super::typed::<B>(session)?);
        let (rules, position) = (&snapshot.rules, snapshot.position);
        let legal = crate::legal::legal_moves(rules, &position);
        let mut table = TranspositionTable::with_megabytes(1);
        let side = position.side_to_move(rules).index();
        let slots = table.for_side(side);
        let mut keys = vec![position.hash()];
        for &mv in &legal {
            let mut child = position;
            child.play_unchecked(rules, mv);
            keys.push(child.hash());
        }
        for (i, key) in keys.into_iter().enumerate() {
            slots.store(Entry {
                key,
                depth: 0,
                value: 0,
                bound: Bound::Upper,
                best: Some(foreign[i % foreign.len()]),
            });
        }
        let mut lines = Vec::new();
        let mut keep = |report: &Report| lines.extend(report.lines.iter().map(|l| l.moves.clone()));
        let limits = Limits {
            nodes: Some(3000),
            depth: 4,
            ..Limits::default()
        };
        let finished = deepen(
            rules,
            &position,
            &snapshot.history,
            &mut table,
            &limits,
            &Control::new(),
            Some(&mut keep),
        )?;
        let best_and_ponder: Vec<String> = std::iter::once(finished.best.clone())
            .chain(finished.ponder.clone())
            .collect();
        for line in lines.iter().chain(std::iter::once(&best_and_ponder)) {
            let mut current = position;
            for text in line {
                let moves = crate::legal::legal_moves(rules, &current);
                let played = moves.iter().find(|m| &m.uci(rules) == text);
                let Some(&played) = played else {
                    panic!("{text} of {line:?} is illegal (the table named {foreign:?})");
                };
                current.play_unchecked(rules, played);
            }
        }
        Some(finished)
    }

    /// The legal moves of a session's position, as moves of width `B`.
    fn moves_of<B: Bitboard>(session: &dyn Session) -> Option<Vec<Move>> {
        let snapshot = Snapshot::of(super::super::typed::<B>(session)?);
        Some(crate::legal::legal_moves(
            &snapshot.rules,
            &snapshot.position,
        ))
    }

    #[test]
    fn a_mate_the_table_carries_over_does_not_end_the_search_before_a_shorter_one() {
        // White mates in 2 by Bxe5 (axb2 Rc7#); Ne7+ mates in 4 (a game against Stockfish
        // went round Ne7+ Kb8 Nc6+ Kc8 until the position repeated). The table knows, from an
        // earlier search, that after Ne7+ Black is mated in 6 plies.
        let session = session(
            "chess",
            Some("2k5/R5B1/2N5/4p3/4P1b1/p7/PPP2P2/4K3 w - - 0 40"),
        );
        let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
        let snapshot = Snapshot::of(game);
        let (rules, position) = (&snapshot.rules, snapshot.position);
        let check = crate::legal::legal_moves(rules, &position)
            .into_iter()
            .find(|m| m.uci(rules) == "c6e7")
            .expect("Ne7+ is legal");
        let mut child = position;
        child.play_unchecked(rules, check);
        let mut table = TranspositionTable::with_megabytes(1);
        table.for_side(0).store(Entry {
            key: child.hash(),
            depth: 8,
            value: to_table(-(MATE - 7), 1),
            bound: Bound::Exact,
            best: None,
        });
        let limits = Limits::default();
        assert!(limits.stop_at_mate);
        let finished = deepen(
            rules,
            &position,
            &snapshot.history,
            &mut table,
            &limits,
            &Control::new(),
            None,
        )
        .expect("the game goes on");
        assert_eq!(finished.best, "g7e5");
        assert_eq!(finished.score, Score::Mate(2));
        assert_eq!(finished.depth, 3);
    }

    #[test]
    fn a_stored_value_does_not_hide_a_repetition_one_ply_on() {
        // A game against Stockfish (docs/strength/stockfish-2000-c9fecfe-42.pgn, game 2):
        // Black, winning, played Rc3+ where the reply Kb5 made a position stand the third
        // time. The table held, from the first time the position after Rc3+ was searched, a
        // win for Black; read there, it hid the draw a ply further on.
        let session = session("chess", Some("8/1kb3R1/8/2K1p3/3r4/1r6/8/R7 b - - 8 63"));
        let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
        let snapshot = Snapshot::of(game);
        let (rules, position) = (&snapshot.rules, snapshot.position);
        let play = |position: &Position<u64>, uci: &str| {
            let mv = crate::legal::legal_moves(rules, position)
                .into_iter()
                .find(|m| m.uci(rules) == uci)
                .expect("a legal move");
            let mut next = *position;
            next.play_unchecked(rules, mv);
            next
        };
        let check = play(&position, "b3c3");
        let repeated = play(&check, "c5b5");
        // Since the last pawn move: the position after Kb5 twice, the one after Rc3+ once.
        let history = vec![
            1,
            2,
            3,
            repeated.hash(),
            5,
            check.hash(),
            repeated.hash(),
            8,
        ];
        let mut table = TranspositionTable::with_megabytes(1);
        // Black's table (the side to move), valued for White after Rc3+: lost by 20 pawns.
        table.for_side(1).store(Entry {
            key: check.hash(),
            depth: 30,
            value: to_table(-20 * VALUE_SCALE as i32, 1),
            bound: Bound::Exact,
            best: None,
        });
        let limits = Limits {
            depth: 4,
            ..Limits::default()
        };
        let finished = deepen(
            rules,
            &position,
            &history,
            &mut table,
            &limits,
            &Control::new(),
            None,
        )
        .expect("the game goes on");
        assert_ne!(finished.best, "b3c3", "{finished:?}");
        assert!(
            matches!(finished.score, Score::Centipawns(cp) if cp > 0),
            "{finished:?}"
        );
    }

    #[test]
    fn a_mate_ends_the_search_once_the_iteration_is_as_deep_as_the_mate() {
        assert!(mate_settled(MATE - 1, 1));
        assert!(mate_settled(-(MATE - 2), 2));
        assert!(!mate_settled(MATE - 7, 1));
        assert!(mate_settled(MATE - 7, 7));
        assert!(!mate_settled(250, 30));
    }

    #[test]
    fn moves_the_table_keeps_from_other_positions_are_never_played() {
        use rand::RngExt;
        let mut rng = super::super::generator(29, 0);
        let mut searched = 0;
        for game in [
            "chess",
            "crazyhouse",
            "shogi",
            "antichess",
            "3check",
            "racingkings",
        ] {
            let mut session = session(game, None);
            let mut foreign: Vec<Move> = Vec::new();
            for ply in 0..40 {
                let legal = session.legal_moves();
                if legal.is_empty() || session.outcome().is_some() {
                    break;
                }
                let mine = moves_of::<u64>(session.as_ref())
                    .or_else(|| moves_of::<u128>(session.as_ref()))
                    .expect("a game of 128 squares at most");
                let strangers: Vec<Move> = foreign
                    .iter()
                    .filter(|m| !mine.contains(m))
                    .copied()
                    .collect();
                if ply % 4 == 3 && !strangers.is_empty() {
                    let finished = poisoned::<u64>(session.as_ref(), &strangers)
                        .or_else(|| poisoned::<u128>(session.as_ref(), &strangers))
                        .expect("the game goes on");
                    assert!(legal.contains(&finished.best), "{game}: {}", finished.best);
                    searched += 1;
                }
                foreign = mine;
                let pick = legal[rng.random_range(0..legal.len())].clone();
                session.play(&pick).expect("a legal move plays");
            }
        }
        assert!(searched >= 40, "{searched} searches");
    }

    #[test]
    fn a_continuation_counts_only_after_the_move_it_answered() {
        // Keys of 4 piece types on a board of 64 square indices.
        let mut history = History::new(4 * 64);
        let (before, other, answer, tried) = (64 + 12, 2 * 64 + 20, 3 * 64 + 28, 4);
        history.reward_continuation([before, NO_MOVE], 5, answer, &[tried]);
        assert_eq!(history.continuation([before, NO_MOVE], answer), 25);
        assert_eq!(history.continuation([before, NO_MOVE], tried), -25);
        // Two plies back is another table than one ply back, and another move another entry.
        assert_eq!(history.continuation([NO_MOVE, before], answer), 0);
        assert_eq!(history.continuation([other, NO_MOVE], answer), 0);
        // A pass has no entries; an entry stays within the history's limit however often it is
        // rewarded.
        history.reward_continuation([NO_MOVE, NO_MOVE], 5, answer, &[]);
        assert_eq!(history.continuation([before, NO_MOVE], NO_MOVE), 0);
        for _ in 0..100_000 {
            history.reward_continuation([before, other], 64, answer, &[]);
        }
        let one = history.continuation([before, NO_MOVE], answer);
        assert!(one > HISTORY_LIMIT / 2 && one <= HISTORY_LIMIT, "{one}");
    }

    #[test]
    fn every_pair_of_keys_has_its_own_continuation_entry_where_they_fit() {
        let keys = 6 * 64;
        let table = Continuation::new(keys);
        let mut seen = vec![false; table.entries.len()];
        for back in 1..=2 {
            for previous in 0..keys as u32 {
                for key in 0..keys as u32 {
                    let slot = table.slot(previous, back, key);
                    assert!(!seen[slot], "{previous} {back} {key}");
                    seen[slot] = true;
                }
            }
        }
        // A game with more keys than fit shares blocks, within the limit.
        let many = Continuation::new(40_000);
        assert!(many.entries.len() <= CONTINUATION_LIMIT);
        assert!(many.slot(39_999, 2, 39_999) < many.entries.len());
    }

    #[test]
    fn the_table_move_comes_first_and_the_rest_are_sorted_only_when_asked_for() {
        let a = Move::normal(Sq(1), Sq(2));
        let b = Move::normal(Sq(3), Sq(4));
        let c = Move::normal(Sq(5), Sq(6));
        let mut picker = Picker::new(vec![a, b, c], Some(c));
        let mut sorted = 0;
        let mut order = |mut rest: Vec<Move>| {
            sorted += 1;
            rest.reverse();
            rest
        };
        assert_eq!(picker.next(&mut order), Some(c));
        assert_eq!(picker.next(&mut order), Some(b));
        assert_eq!(picker.next(&mut order), Some(a));
        assert_eq!(picker.next(&mut order), None);
        assert_eq!(sorted, 1);
        // A table move that is not legal here is not played.
        let mut picker = Picker::new(vec![a, b], Some(c));
        assert_eq!(picker.next(|rest| rest), Some(a));
    }

    #[test]
    fn a_good_history_reduces_a_late_move_less_and_a_bad_one_more() {
        assert_eq!(by_history(2, 40), 1);
        assert_eq!(by_history(0, 40), 0);
        assert_eq!(by_history(2, 0), 2);
        assert_eq!(by_history(2, -1), 3);
    }

    #[test]
    fn late_moves_are_reduced_more_the_later_and_deeper_they_are() {
        assert_eq!(late_move_reduction(3, 3, false), 1);
        assert!(late_move_reduction(10, 30, false) > late_move_reduction(4, 4, false));
        assert_eq!(
            late_move_reduction(10, 30, true) + 1,
            late_move_reduction(10, 30, false)
        );
    }
}
