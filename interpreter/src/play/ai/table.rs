//! The transposition table: what the search learnt of a position (a bound on its value at a
//! depth, its best move), by Zobrist hash, shared by the threads of one search.
//!
//! Why lockless: with several threads ([`super::search::Limits::threads`], Lazy SMP) every node
//! reads and writes the one table, and a lock per probe would cost more than the probe. Each
//! slot is three atomic words written and read without ordering: the position's key mixed
//! (exclusive or) with the two words of data, then the data. A slot that two threads wrote at
//! once, or that was read half-written, no longer mixes back to its key, and reads as a miss
//! (Hyatt and Mann's lockless hashing). A move read from the table is still only a guess: the
//! search plays it only if it is among the position's legal moves.

use crate::core::index::{PieceId, Sq};
use crate::moves::{Gate, Move, MoveKind};
use std::sync::atomic::{AtomicU64, Ordering};

/// Entries of the players' transposition table (a power of two).
const TABLE_SIZE: usize = 1 << 18;
/// The largest table [`TranspositionTable::with_megabytes`] builds.
const MAX_TABLE_ENTRIES: usize = 1 << 26;

/// What a stored value is: exact, or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One position's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub key: u64,
    /// The depth searched (stored up to 255).
    pub depth: u32,
    pub value: i32,
    pub bound: Bound,
    pub best: Option<Move>,
}

/// Marks a slot in use: an empty slot (all zero) never reads as an entry, whatever the key.
const USED: u64 = 1 << 43;
const HAS_BEST: u64 = 1 << 42;

impl Entry {
    /// The data word: value, depth, bound and flags.
    fn data(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.value as u32)
            | u64::from(self.depth.min(255)) << 32
            | bound << 40
            | if self.best.is_some() { HAS_BEST } else { 0 }
            | USED
    }

    fn unpack(key: u64, data: u64, mv: u64) -> Entry {
        Entry {
            key,
            value: data as u32 as i32,
            depth: (data >> 32 & 0xff) as u32,
            bound: match data >> 40 & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (data & HAS_BEST != 0).then(|| unpack_move(mv)),
        }
    }
}

/// A move in one word: squares and payloads a byte each, the kinds in a few bits.
fn pack_move(mv: Move) -> u64 {
    let (kind, payload) = match mv.kind {
        MoveKind::Normal => (0, 0),
        MoveKind::Promote(piece) => (1, piece.0),
        MoveKind::EnPassant => (2, 0),
        MoveKind::Castle(index) => (3, index),
        MoveKind::Drop(piece) => (4, piece.0),
        MoveKind::Pass => (5, 0),
    };
    let converts = mv.converts.map_or(0, |sq| 1 | u64::from(sq.0) << 1);
    let gate = match mv.gate {
        None => 0,
        Some(Gate::Hand(piece)) => 1 | u64::from(piece.0) << 2,
        Some(Gate::HandOnRook(piece)) => 2 | u64::from(piece.0) << 2,
        Some(Gate::Neutral(sq)) => 3 | u64::from(sq.0) << 2,
    };
    u64::from(mv.from.0)
        | u64::from(mv.to.0) << 8
        | kind << 16
        | u64::from(payload) << 19
        | converts << 27
        | gate << 36
}

fn unpack_move(bits: u64) -> Move {
    let byte = |shift: u32| (bits >> shift & 0xff) as u8;
    let payload = byte(19);
    let kind = match bits >> 16 & 7 {
        1 => MoveKind::Promote(PieceId(payload)),
        2 => MoveKind::EnPassant,
        3 => MoveKind::Castle(payload),
        4 => MoveKind::Drop(PieceId(payload)),
        5 => MoveKind::Pass,
        _ => MoveKind::Normal,
    };
    let gate_payload = byte(38);
    Move {
        from: Sq(byte(0)),
        to: Sq(byte(8)),
        kind,
        converts: (bits >> 27 & 1 != 0).then(|| Sq(byte(28))),
        gate: match bits >> 36 & 3 {
            1 => Some(Gate::Hand(PieceId(gate_payload))),
            2 => Some(Gate::HandOnRook(PieceId(gate_payload))),
            3 => Some(Gate::Neutral(Sq(gate_payload))),
            _ => None,
        },
    }
}

/// One slot: the key mixed with the data, then the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
    mv: AtomicU64,
}

impl Slot {
    fn read(&self) -> Option<(u64, u64, u64)> {
        let data = self.data.load(Ordering::Relaxed);
        let mv = self.mv.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (data & USED != 0).then_some((check ^ data ^ mv, data, mv))
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.mv.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

/// The table: one entry per slot, the deeper search kept.
pub(super) struct Table {
    slots: Vec<Slot>,
}

impl Table {
    /// The players' table.
    pub fn new() -> Self {
        Table::at_most(TABLE_SIZE)
    }

    /// A table of at most `entries` slots (a power of two): half as many each time the memory
    /// cannot be had, rather than an abort.
    fn at_most(mut entries: usize) -> Self {
        debug_assert!(entries.is_power_of_two());
        loop {
            let mut slots = Vec::new();
            if entries == 1 || slots.try_reserve_exact(entries).is_ok() {
                slots.resize_with(entries, Slot::default);
                return Table { slots };
            }
            entries /= 2;
        }
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & (self.slots.len() - 1)]
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (stored, data, mv) = self.slot(key).read()?;
        (stored == key).then(|| Entry::unpack(key, data, mv))
    }

    pub fn store(&self, entry: Entry) {
        let slot = self.slot(entry.key);
        let keep = slot.read().is_some_and(|(stored, data, _)| {
            stored == entry.key && (data >> 32 & 0xff) as u32 > entry.depth.min(255)
        });
        if keep {
            return;
        }
        let data = entry.data();
        let mv = entry.best.map_or(0, pack_move);
        slot.data.store(data, Ordering::Relaxed);
        slot.mv.store(mv, Ordering::Relaxed);
        slot.check.store(entry.key ^ data ^ mv, Ordering::Relaxed);
    }

    fn clear(&mut self) {
        self.slots.iter().for_each(Slot::clear);
    }

    /// Per mille of the first thousand slots in use (UCI's `hashfull`).
    pub fn per_mille_full(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| s.data.load(Ordering::Relaxed) & USED != 0)
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
    /// The players' table (kept between their moves).
    pub(super) fn new() -> Self {
        TranspositionTable {
            table: Table::new(),
            side: None,
        }
    }

    /// About `megabytes` of table (at least one slot, at most 2^26; less when the memory cannot
    /// be had).
    pub fn with_megabytes(megabytes: usize) -> Self {
        let bytes = megabytes.saturating_mul(1 << 20);
        let fitting = (bytes / std::mem::size_of::<Slot>()).clamp(1, MAX_TABLE_ENTRIES);
        // The largest power of two that fits.
        let entries = 1usize << (usize::BITS - 1 - fitting.leading_zeros());
        TranspositionTable {
            table: Table::at_most(entries),
            side: None,
        }
    }

    /// Forgets every entry (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.side = None;
    }

    /// The table for a search by `side`, emptied if it was filled for another side.
    pub(super) fn for_side(&mut self, side: usize) -> &Table {
        if self.side != Some(side) {
            self.table.clear();
            self.side = Some(side);
        }
        &self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves() -> Vec<Move> {
        let sq = Sq;
        vec![
            Move::normal(sq(0), sq(255)),
            Move {
                kind: MoveKind::Promote(PieceId(200)),
                ..Move::normal(sq(12), sq(4))
            },
            Move {
                kind: MoveKind::EnPassant,
                ..Move::normal(sq(33), sq(40))
            },
            Move {
                kind: MoveKind::Castle(3),
                gate: Some(Gate::HandOnRook(PieceId(7))),
                ..Move::normal(sq(4), sq(6))
            },
            Move::drop(PieceId(9), sq(77)),
            Move {
                kind: MoveKind::Pass,
                ..Move::normal(sq(1), sq(1))
            },
            Move {
                converts: Some(sq(254)),
                gate: Some(Gate::Hand(PieceId(255))),
                ..Move::normal(sq(2), sq(3))
            },
            Move {
                gate: Some(Gate::Neutral(sq(129))),
                ..Move::normal(sq(9), sq(10))
            },
        ]
    }

    #[test]
    fn every_kind_of_move_comes_back_from_its_word() {
        for mv in moves() {
            assert_eq!(unpack_move(pack_move(mv)), mv);
        }
    }

    #[test]
    fn an_entry_comes_back_as_stored_and_only_under_its_key() {
        let table = Table::at_most(16);
        for (i, mv) in moves().into_iter().enumerate() {
            let entry = Entry {
                key: 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(i as u64 + 1),
                depth: 3 + i as u32,
                value: -32_000 + 1000 * i as i32,
                bound: [Bound::Exact, Bound::Lower, Bound::Upper][i % 3],
                best: (i % 4 != 0).then_some(mv),
            };
            table.store(entry);
            assert_eq!(table.probe(entry.key), Some(entry));
            assert_eq!(table.probe(entry.key ^ 1 << 40), None);
        }
    }

    #[test]
    fn an_empty_slot_is_a_miss_even_for_key_zero() {
        let table = Table::at_most(4);
        assert_eq!(table.probe(0), None);
        assert_eq!(table.per_mille_full(), 0);
    }

    #[test]
    fn a_shallower_search_of_the_same_position_does_not_replace_a_deeper_one() {
        let table = Table::at_most(4);
        let deep = Entry {
            key: 5,
            depth: 6,
            value: 10,
            bound: Bound::Exact,
            best: None,
        };
        table.store(deep);
        table.store(Entry { depth: 2, ..deep });
        assert_eq!(table.probe(5), Some(deep));
        // Another position in the slot replaces it whatever the depth.
        let other = Entry {
            key: 9,
            depth: 1,
            ..deep
        };
        table.store(other);
        assert_eq!(table.probe(9), Some(other));
        assert_eq!(table.probe(5), None);
    }

    #[test]
    fn a_half_written_slot_reads_as_a_miss() {
        let table = Table::at_most(1);
        let entry = Entry {
            key: 77,
            depth: 4,
            value: 1,
            bound: Bound::Lower,
            best: Some(Move::normal(Sq(1), Sq(2))),
        };
        table.store(entry);
        // Another thread's data landed, its key word not yet.
        table.slots[0]
            .data
            .store(Entry { value: 2, ..entry }.data(), Ordering::Relaxed);
        assert_eq!(table.probe(77), None);
    }

    /// Two threads write and read the same few slots at once, each entry's value and move
    /// made from its key: every entry read back is one that was written whole.
    #[test]
    fn entries_written_at_once_by_two_threads_are_read_whole_or_not_at_all() {
        let table = Table::at_most(4);
        let entry = |key: u64| Entry {
            key,
            depth: (key % 200) as u32,
            value: key as i32,
            bound: Bound::Lower,
            best: Some(Move::normal(Sq(key as u8), Sq((key >> 8) as u8))),
        };
        let hits = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for thread in 0..2u64 {
                let (table, hits) = (&table, &hits);
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i * 2 + thread).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                        table.store(entry(key));
                        let other = (i * 2 + 1 - thread).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                        for key in [key, other] {
                            if let Some(found) = table.probe(key) {
                                assert_eq!(found, entry(key));
                                hits.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                });
            }
        });
        assert!(hits.load(Ordering::Relaxed) > 0);
    }
}
