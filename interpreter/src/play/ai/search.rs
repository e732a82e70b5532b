//! Alpha-beta search with iterative deepening, a transposition table and a quiescence search,
//! on the generic evaluation of [`super::eval`].
//!
//! Why minimax from one side's point of view rather than negamax: the searching side maximises
//! its evaluation and every other side is assumed to minimise it ("paranoid" search), which is
//! exact for two sides and still sound for more, whatever the turn order. The transposition
//! table is keyed by the Zobrist hash ([`Position::hash`]) and kept between moves while the
//! agent plays the same side. Moves are ordered: the table's best move, then captures of the
//! most valuable piece, then promotions, then the rest. Quiescence follows captures and
//! promotions only, so that no evaluation is taken in the middle of an exchange.
//!
//! The same iterative deepening ([`deepen`]) serves the players, `variant analyse` and the engine
//! protocols: it is bounded by [`Limits`] (depth, nodes, several best lines) and by a shared
//! [`Control`] that another thread may stop or give a deadline, and it hands a [`Report`] (depth,
//! score, nodes, principal variations) to a callback after every completed depth.

use super::eval::evaluate;
use super::tree::{status, wins, Status};
use super::{typed, Agent, Budget, Choice, PlayerSpec, Snapshot};
use crate::bitboard::Bitboard;
use crate::core::index::SideId;
use crate::moves::{Move, MoveKind};
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
/// Entries of the players' transposition table (a power of two).
const TABLE_SIZE: usize = 1 << 18;
/// The largest table [`TranspositionTable::with_megabytes`] builds.
const MAX_TABLE_ENTRIES: usize = 1 << 26;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    depth: u32,
    value: i32,
    bound: Bound,
    best: Option<Move>,
}

/// The transposition table: one entry per slot, the deeper search kept.
struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    fn new() -> Self {
        Table::with_entries(TABLE_SIZE)
    }

    /// A table of `entries` slots (a power of two).
    fn with_entries(entries: usize) -> Self {
        debug_assert!(entries.is_power_of_two());
        Table {
            entries: vec![None; entries],
        }
    }

    /// A table of at most `entries` slots (a power of two): half as many each time the memory
    /// cannot be had, rather than an abort.
    fn at_most(mut entries: usize) -> Self {
        loop {
            let mut slots = Vec::new();
            if entries == 1 || slots.try_reserve_exact(entries).is_ok() {
                slots.resize(entries, None);
                return Table { entries: slots };
            }
            entries /= 2;
        }
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & (self.entries.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, entry: Entry) {
        let slot = self.slot(entry.key);
        let slot = &mut self.entries[slot];
        if slot.is_none_or(|old| old.key != entry.key || old.depth <= entry.depth) {
            *slot = Some(entry);
        }
    }

    /// Per mille of the first thousand slots in use (UCI's `hashfull`).
    fn per_mille_full(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.is_some())
            .count();
        (used * 1000 / sample) as u32
    }
}

/// A transposition table kept between searches (by an engine protocol, between moves).
///
/// Its values are seen from the side that searched, so it forgets everything when asked to
/// search for another side.
pub struct TranspositionTable {
    table: Table,
    side: Option<usize>,
}

impl TranspositionTable {
    /// About `megabytes` of table (at least one slot, at most 2^26; less when the memory cannot
    /// be had).
    pub fn with_megabytes(megabytes: usize) -> Self {
        let bytes = megabytes.saturating_mul(1 << 20);
        let fitting = (bytes / std::mem::size_of::<Option<Entry>>()).clamp(1, MAX_TABLE_ENTRIES);
        // The largest power of two that fits.
        let entries = 1usize << (usize::BITS - 1 - fitting.leading_zeros());
        TranspositionTable {
            table: Table::at_most(entries),
            side: None,
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.table.entries.fill(None);
        self.side = None;
    }

    /// The table for a search by `side`, emptied if it was filled for another side.
    fn for_side(&mut self, side: usize) -> &mut Table {
        if self.side != Some(side) {
            self.table.entries.fill(None);
            self.side = Some(side);
        }
        &mut self.table
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
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: MAX_DEPTH,
            nodes: None,
            lines: 1,
            stop_at_mate: true,
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
struct Searcher<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    table: &'a mut Table,
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
}

impl<B: Bitboard> Searcher<'_, B> {
    fn out_of_time(&mut self) -> bool {
        if !self.stopped && (self.nodes >= self.node_limit || self.nodes & 1023 == 0) {
            self.stopped = self.nodes >= self.node_limit || self.control.must_stop();
        }
        self.stopped
    }

    fn terminal(&self, result: &crate::outcome::Outcome, ply: u32) -> i32 {
        if result.winners.is_empty() {
            0
        } else if wins(self.rules, result, self.root) {
            MATE - ply as i32
        } else {
            -(MATE - ply as i32)
        }
    }

    /// How promising a move looks, for ordering: captures of valuable pieces first.
    fn order_key(&self, position: &Position<B>, mv: Move, best: Option<Move>) -> i64 {
        if Some(mv) == best {
            return i64::MAX;
        }
        let value = |piece: usize| i64::from(self.rules.definition.pieces[piece].value);
        let mut key = 0;
        if let Some(victim) = position.at(mv.to.index()) {
            let attacker = position
                .at(mv.from.index())
                .map_or(0, |o| value(o.piece.index()));
            key += 1000 + 100 * value(victim.piece.index()) - attacker;
        }
        if let MoveKind::Promote(piece) = mv.kind {
            key += 500 + 100 * value(piece.0 as usize);
        }
        if mv.kind == MoveKind::EnPassant {
            key += 1000;
        }
        key
    }

    fn ordered(
        &self,
        position: &Position<B>,
        mut moves: Vec<Move>,
        best: Option<Move>,
    ) -> Vec<Move> {
        moves.sort_by_cached_key(|&mv| std::cmp::Reverse(self.order_key(position, mv, best)));
        moves
    }

    fn tactical(position: &Position<B>, mv: Move) -> bool {
        position.at(mv.to.index()).is_some() && !matches!(mv.kind, MoveKind::Drop(_))
            || matches!(mv.kind, MoveKind::Promote(_) | MoveKind::EnPassant)
    }

    fn child(&mut self, position: &Position<B>, mv: Move) -> Position<B> {
        let mut next = *position;
        next.play_unchecked(self.rules, mv);
        self.path.push(position.hash());
        next
    }

    fn alpha_beta(
        &mut self,
        position: &Position<B>,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.out_of_time() {
            return 0;
        }
        let moves = match status(self.rules, position, &self.path) {
            Status::Over(result) => return self.terminal(&result, ply),
            Status::Moves(moves) => moves,
        };
        if depth == 0 {
            return self.quiescence(position, moves, ply, alpha, beta, QUIESCENCE_DEPTH);
        }
        let key = position.hash();
        let entry = self.table.probe(key);
        if let Some(e) = entry.filter(|e| e.depth >= depth) {
            let value = from_table(e.value, ply);
            match e.bound {
                Bound::Exact => return value,
                Bound::Lower if value >= beta => return value,
                Bound::Upper if value <= alpha => return value,
                _ => {}
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let maximizing = position.side_to_move(self.rules) == self.root;
        let mut best = if maximizing { -INFINITY } else { INFINITY };
        let mut best_move = None;
        for mv in self.ordered(position, moves, entry.and_then(|e| e.best)) {
            let next = self.child(position, mv);
            let value = self.alpha_beta(&next, depth - 1, ply + 1, alpha, beta);
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if (maximizing && value > best) || (!maximizing && value < best) {
                best = value;
                best_move = Some(mv);
            }
            if maximizing {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
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

    fn quiescence(
        &mut self,
        position: &Position<B>,
        moves: Vec<Move>,
        ply: u32,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
    ) -> i32 {
        let stand = evaluate(self.rules, position, self.root);
        let maximizing = position.side_to_move(self.rules) == self.root;
        if depth == 0 {
            return stand;
        }
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut best = stand;
        let tactical: Vec<Move> = moves
            .into_iter()
            .filter(|&mv| Self::tactical(position, mv))
            .collect();
        for mv in self.ordered(position, tactical, None) {
            self.nodes += 1;
            self.seldepth = self.seldepth.max(ply + 1);
            if self.out_of_time() {
                return 0;
            }
            let next = self.child(position, mv);
            let value = match status(self.rules, &next, &self.path) {
                Status::Over(result) => self.terminal(&result, ply + 1),
                Status::Moves(replies) => {
                    self.quiescence(&next, replies, ply + 1, alpha, beta, depth - 1)
                }
            };
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if maximizing {
                best = best.max(value);
                alpha = alpha.max(value);
            } else {
                best = best.min(value);
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// Searches every root move to `depth`, the previous best first; `None` if time ran out.
    /// Returns the best `lines` moves with their values, best first (a move found later
    /// replaces an earlier one only when strictly better): below the `lines`-th best value a
    /// move is only shown to be worse, which is all the ranking needs.
    fn root(
        &mut self,
        position: &Position<B>,
        moves: &[Move],
        depth: u32,
        lines: usize,
    ) -> Option<Vec<(Move, i32)>> {
        let mut best: Vec<(Move, i32)> = Vec::with_capacity(lines + 1);
        for &mv in moves {
            let alpha = if best.len() >= lines {
                best[lines - 1].1
            } else {
                -INFINITY
            };
            let next = self.child(position, mv);
            let value = self.alpha_beta(&next, depth - 1, 1, alpha, INFINITY);
            self.path.pop();
            if self.stopped {
                return None;
            }
            if best.len() < lines || value > alpha {
                let at = best.partition_point(|&(_, b)| b >= value);
                best.insert(at, (mv, value));
                best.truncate(lines);
            }
        }
        Some(best)
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
pub(crate) fn deepen<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    table: &mut TranspositionTable,
    limits: &Limits,
    control: &Control,
    mut report: Option<&mut dyn FnMut(&Report)>,
) -> Option<Finished> {
    let Status::Moves(moves) = status(rules, position, history) else {
        return None;
    };
    let root = position.side_to_move(rules);
    let lines = limits.lines.clamp(1, moves.len());
    let mut searcher = Searcher {
        rules,
        table: table.for_side(root.index()),
        root,
        path: history.to_vec(),
        nodes: 0,
        node_limit: limits.nodes.unwrap_or(u64::MAX),
        seldepth: 0,
        control,
        stopped: false,
    };
    let mut ordered = searcher.ordered(position, moves, None);
    let mut best = (ordered[0], 0, 0);
    let mut last_report = None;
    for depth in 1..=limits.depth.clamp(1, MAX_DEPTH) {
        if control.is_stopped() {
            break;
        }
        let Some(found) = searcher.root(position, &ordered, depth, lines) else {
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
            let line = |&(mv, value): &(Move, i32)| Line {
                score: Score::of(value),
                moves: searcher
                    .principal_variation(position, mv, depth)
                    .iter()
                    .map(|m| m.uci(rules))
                    .collect(),
            };
            let made = Report {
                depth,
                seldepth: searcher.seldepth.max(depth),
                nodes: searcher.nodes,
                time: control.elapsed(),
                hashfull: searcher.table.per_mille_full(),
                lines: found.iter().map(line).collect(),
            };
            report(&made);
            last_report = Some(made);
        }
        if (limits.stop_at_mate && value.abs() > MATE / 2) || !control.may_deepen() {
            break;
        }
    }
    let ponder = searcher
        .principal_variation(position, best.0, 2)
        .get(1)
        .map(|m| m.uci(rules));
    Some(Finished {
        best: best.0.uci(rules),
        ponder,
        depth: best.2,
        score: Score::of(best.1),
        nodes: searcher.nodes,
        report: last_report,
        value: best.1,
    })
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
        let table = self.table.get_or_insert_with(|| TranspositionTable {
            table: Table::new(),
            side: None,
        });
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
