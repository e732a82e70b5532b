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

use super::eval::evaluate;
use super::tree::{status, wins, Status};
use super::{typed, Agent, Budget, Choice, PlayerSpec, Snapshot};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;
use crate::session::Session;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

/// The deepest search a spec may ask for.
pub const MAX_DEPTH: u32 = 64;
/// A won game is worth this, less the plies to reach it.
pub const MATE: i32 = 1_000_000;
const INFINITY: i32 = MATE + 1;
/// Quiescence looks at most this many captures deep.
const QUIESCENCE_DEPTH: u32 = 6;
/// Entries of the transposition table (a power of two).
const TABLE_SIZE: usize = 1 << 18;

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
        Table {
            entries: vec![None; TABLE_SIZE],
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & (TABLE_SIZE - 1)].filter(|e| e.key == key)
    }

    fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & (TABLE_SIZE - 1)];
        if slot.is_none_or(|old| old.key != entry.key || old.depth <= entry.depth) {
            *slot = Some(entry);
        }
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
    root: usize,
    /// Hashes of the positions before the current node (for repetition).
    path: Vec<u64>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl<B: Bitboard> Searcher<'_, B> {
    fn out_of_time(&mut self) -> bool {
        if !self.stopped && self.nodes & 1023 == 0 {
            self.stopped = self.deadline.is_some_and(|d| Instant::now() >= d);
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
        if let Some(victim) = position.at(mv.to as usize) {
            let attacker = position.at(mv.from as usize).map_or(0, |o| value(o.piece));
            key += 1000 + 100 * value(victim.piece) - attacker;
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
        position.at(mv.to as usize).is_some() && !matches!(mv.kind, MoveKind::Drop(_))
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
    fn root(&mut self, position: &Position<B>, moves: &[Move], depth: u32) -> Option<(Move, i32)> {
        let mut alpha = -INFINITY;
        let mut best: Option<(Move, i32)> = None;
        for &mv in moves {
            let next = self.child(position, mv);
            let value = self.alpha_beta(&next, depth - 1, 1, alpha, INFINITY);
            self.path.pop();
            if self.stopped {
                return None;
            }
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((mv, value));
                alpha = alpha.max(value);
            }
        }
        best
    }
}

/// The alpha-beta player.
pub struct SearchAgent<B> {
    budget: Budget,
    table: Option<Table>,
    /// The side the table's values were computed for.
    side: Option<usize>,
    width: PhantomData<fn() -> B>,
}

impl<B: Bitboard> SearchAgent<B> {
    /// A player searching to a depth, or for a time, per move.
    pub fn new(budget: Budget) -> Self {
        SearchAgent {
            budget,
            table: None,
            side: None,
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
        let root = snapshot.position.side_to_move(rules);
        if self.side != Some(root) {
            self.table = None;
            self.side = Some(root);
        }
        let table = self.table.get_or_insert_with(Table::new);
        let start = Instant::now();
        let (max_depth, time) = match self.budget {
            Budget::Count(depth) => (depth.min(MAX_DEPTH as u64) as u32, None),
            Budget::Time(t) => (MAX_DEPTH, Some(t)),
        };
        let mut searcher = Searcher {
            rules,
            table,
            root,
            path: snapshot.history.clone(),
            nodes: 0,
            deadline: time.map(|t| start + t),
            stopped: false,
        };
        let mut ordered = searcher.ordered(&snapshot.position, moves, None);
        let mut best = (ordered[0], 0, 0);
        for depth in 1..=max_depth {
            let Some((mv, value)) = searcher.root(&snapshot.position, &ordered, depth) else {
                break;
            };
            best = (mv, value, depth);
            if let Some(i) = ordered.iter().position(|&m| m == mv) {
                let chosen = ordered.remove(i);
                ordered.insert(0, chosen);
            }
            let half_spent = time.is_some_and(|t| start.elapsed() > t / 2);
            if value.abs() > MATE / 2 || half_spent {
                break;
            }
        }
        let elapsed = start.elapsed().max(Duration::from_micros(1));
        Some(Choice {
            mv: best.0.uci(rules),
            summary: format!(
                "depth {}, {}, {} nodes ({:.0}k nodes/s)",
                best.2,
                describe_value(best.1),
                searcher.nodes,
                searcher.nodes as f64 / elapsed.as_secs_f64() / 1000.0
            ),
            work: searcher.nodes,
            dice: None,
        })
    }

    fn spec(&self) -> PlayerSpec {
        PlayerSpec::Search(self.budget)
    }
}
