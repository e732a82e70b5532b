//! Where a game's plans are kept and found: the key of a position's scalar state
//! ([`KeySpec`], worked out once per game from its drop rules) and the table of the plans made
//! so far ([`PlanCache`]), owned by the compiled game.
//!
//! Below the compiled game ([`crate::rules::Rules`], which holds both): a key reads the core's
//! position and tables, and the cache holds plans as data ([`crate::rules::plan_data`]); making a
//! plan, which reads the compiled game, is [`crate::plan`]'s, which hands it to
//! [`PlanCache::get_or_make`].

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId};
use crate::core::tables::Tables;
use crate::domain::{each_term, Term};
use crate::position::Position;
use crate::rules::ir::{Cond, Num};
use crate::rules::plan_data::Plan;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// What of a position the scalar parts of a game's drop rules can read, worked out once per
/// game: the key of a plan holds these and nothing else, so that positions that differ only in
/// what no rule reads share a plan.
#[derive(Clone, Debug, Default)]
pub struct KeySpec {
    /// Whether the game has drop rules at all (no plan is needed otherwise).
    pub active: bool,
    /// Each side's hand total (`placement`, `hand`, `hands empty`, `placed`).
    totals: bool,
    /// The piece types whose hand counts, per side, are read (a bit per type).
    hand_pieces: u32,
    /// The types a rule asks whether a side's last drop was (`placed`), a bit per type: the key
    /// tells those types apart, and any other type from none.
    placed_types: u32,
    /// The turn's progress (`actions this turn`, `drops this turn`, `at turn start`).
    pub(super) progress: bool,
    /// Which sides' last action was a pass (`passed`): scalar state that a plan settles like
    /// the rest (`by score when opponent passed and own passed` in a game with drops), though
    /// neither the position's hash nor its FEN holds it.
    passed: bool,
}

impl KeySpec {
    /// The key spec of a game's compiled drop rules.
    pub fn new<B: Bitboard>(expressions: &crate::rules::ir::Compiled<B>) -> Self {
        let mut spec = KeySpec::default();
        let all = expressions
            .drops
            .iter()
            .chain(expressions.phase_drops.iter().flatten());
        for rule in all {
            spec.active = true;
            spec.condition(&rule.condition);
            spec.condition(&rule.requirement);
        }
        // The end conditions a plan settles ([`crate::plan::Plan::ends`]) read the same scalar state.
        for end in expressions.end.iter().filter(|end| !end.needs_actions) {
            spec.condition(&end.condition);
        }
        spec
    }

    /// Notes what of the scalar state `condition` reads.
    fn condition<B>(&mut self, condition: &Cond<B>) {
        each_term(Term::Condition(condition), &mut |term| match term {
            Term::Condition(Cond::AtTurnStart(_))
            | Term::Number(Num::ActionsThisTurn | Num::DropsThisTurn) => self.progress = true,
            Term::Condition(Cond::HandsEmpty)
            | Term::Number(Num::Placement | Num::Hand(_, None)) => self.totals = true,
            Term::Condition(Cond::Placed(_, piece)) => {
                self.placed_types |= 1 << piece.0;
                self.totals = true;
                self.hand_pieces |= 1 << piece.0;
            }
            Term::Number(Num::Hand(_, Some(piece))) => self.hand_pieces |= 1 << piece.0,
            Term::Condition(Cond::Passed(_)) => self.passed = true,
            _ => {}
        });
    }

    /// The key of `position`'s scalar state, judged for `side`; `None` when it is longer than
    /// a key holds. Inlined where the key is looked up, so that its words stay in registers
    /// until compared (see [`Key`]).
    #[inline(always)]
    pub(super) fn key<B: Bitboard>(
        &self,
        rules: &Tables<B>,
        position: &Position<B>,
        side: SideId,
    ) -> Option<Key> {
        let mut key = KeyWriter::default();
        key.byte(side.0);
        key.byte(position.side_to_move(rules).0);
        key.byte(position.turn_index() as u8);
        key.byte(position.phase().map_or(0, |phase| phase as u8 + 1));
        let sides = || crate::core::index::sides(rules.sides());
        if self.totals {
            for side in sides() {
                let total = position.hand_total(side);
                key.byte(total as u8);
                key.byte((total >> 8) as u8);
            }
        }
        let mut pieces = self.hand_pieces;
        while pieces != 0 {
            let piece = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            for side in sides() {
                key.byte(position.hand(side, PieceId::new(piece)));
            }
        }
        if self.placed_types != 0 {
            for side in sides() {
                key.byte(match position.last_drop(side) {
                    Some((piece, _)) if self.placed_types >> piece.0 & 1 != 0 => piece.0,
                    Some(_) => u8::MAX - 1,
                    None => u8::MAX,
                });
            }
        }
        if self.passed {
            key.byte(
                sides()
                    .filter(|&side| position.passed(side))
                    .fold(0, |bits, side| bits | 1 << side.index()),
            );
        }
        if self.progress {
            let progress = position.progress();
            key.byte(progress.actions);
            key.byte(progress.drops);
            for byte in progress.start.to_le_bytes() {
                key.byte(byte);
            }
        }
        key.finish()
    }
}

/// The longest key a plan has: 4 bytes of sides and turn, 2 per side of hand totals, one per
/// side and type of hand counts the rules read, one per side of last drop types, one of passes,
/// 6 of progress
/// (Cheversi's is 12). A game whose scalar state takes more is judged without plans: keys are
/// made, copied and compared at every position, and a short one costs less.
const KEY_BYTES: usize = 64;

/// A scalar state, packed into bytes (unused bytes zero): the first [`SMALL_KEY_BYTES`] in two
/// words written in registers, the rest in an array. Every game's key so far fits in the
/// words. (Narrow values stored into memory and then read as a wider one, as a copy or a
/// vector comparison of the key reads them, stall the processor at every such read: a wide
/// load cannot take its value from narrow stores. Two words, rather than one 128-bit number,
/// are each written and read whole; the array holds nothing but zeros unless a key is long.)
#[derive(Clone, Copy)]
pub(super) struct Key {
    low: u64,
    high: u64,
    rest: [u8; KEY_BYTES - SMALL_KEY_BYTES],
    /// Bytes in use.
    len: u8,
}

/// The bytes of a key held in [`Key::low`] and [`Key::high`].
const SMALL_KEY_BYTES: usize = 16;

impl Key {
    /// The words of the array in use.
    #[inline(always)]
    fn rest_words(&self) -> impl Iterator<Item = u64> + '_ {
        let used = usize::from(self.len).saturating_sub(SMALL_KEY_BYTES);
        self.rest[..used.div_ceil(8) * 8]
            .chunks_exact(8)
            .map(|word| u64::from_le_bytes(word.try_into().expect("a word is 8 bytes")))
    }
}

impl PartialEq for Key {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len
            && self.low == other.low
            && self.high == other.high
            && (usize::from(self.len) <= SMALL_KEY_BYTES
                || self
                    .rest_words()
                    .zip(other.rest_words())
                    .all(|(a, b)| a == b))
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.low);
        state.write_u64(self.high);
        for word in self.rest_words() {
            state.write_u64(word);
        }
    }
}

/// Writes a key byte by byte. The words and the array are fields of their own, not a [`Key`]'s,
/// so that the words stay in registers while the array is written in memory.
struct KeyWriter {
    low: u64,
    high: u64,
    rest: [u8; KEY_BYTES - SMALL_KEY_BYTES],
    at: usize,
}

impl Default for KeyWriter {
    #[inline(always)]
    fn default() -> Self {
        KeyWriter {
            low: 0,
            high: 0,
            rest: [0; KEY_BYTES - SMALL_KEY_BYTES],
            at: 0,
        }
    }
}

impl KeyWriter {
    #[inline(always)]
    fn byte(&mut self, byte: u8) {
        if self.at < 8 {
            self.low |= u64::from(byte) << (8 * self.at);
        } else if self.at < SMALL_KEY_BYTES {
            self.high |= u64::from(byte) << (8 * (self.at - 8));
        } else if let Some(slot) = self.rest.get_mut(self.at - SMALL_KEY_BYTES) {
            *slot = byte;
        }
        self.at += 1;
    }

    /// The key written; `None` if more bytes were written than a key holds.
    #[inline(always)]
    fn finish(self) -> Option<Key> {
        (self.at <= KEY_BYTES).then_some(Key {
            low: self.low,
            high: self.high,
            rest: self.rest,
            len: self.at as u8,
        })
    }
}

/// A multiply-rotate hasher for keys that are a few words (the std hasher's DoS resistance
/// buys nothing for keys the program makes itself, and costs most of a lookup).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The plans of one compiled game, owned by its [`crate::rules::Rules`] and dropped with them: made on first
/// use, kept for the game's lifetime, and shared by every thread that plays it.
///
/// An open-addressed table of slots that are each filled once and never emptied or changed,
/// probed from the key's hash: a plan found is borrowed for as long as the rules are, with no
/// lock, no reference count and no per-thread copy (a look-up is a hash and a load). Threads
/// that make the same plan at once keep the first one written. Past [`MAX_PLANS`] plans, or
/// where a key's probes find no room, positions are judged from the full rules, with the
/// same answers.
pub struct PlanCache<B: Bitboard> {
    /// The slots, allocated on first use (a game without drop rules never needs them).
    table: OnceLock<Box<[Slot<B>]>>,
    /// How many slots are filled.
    filled: AtomicUsize,
}

/// A slot of a [`PlanCache`]: empty, or a kept plan for good.
type Slot<B> = OnceLock<Box<Kept<B>>>;

/// A plan as the cache keeps it, with its key: `None` where the rules need more than a plan
/// holds.
struct Kept<B: Bitboard> {
    key: Key,
    plan: Option<Plan<B>>,
}

/// How many plans a game keeps; further scalar states are judged unfolded.
const MAX_PLANS: usize = 1 << 13;
/// The slots of a cache's table: twice the plans it keeps, so that probes stay short.
const SLOTS: usize = 2 * MAX_PLANS;
/// How many slots a look-up probes before it gives up (and the position is judged unfolded).
const MAX_PROBES: usize = 64;

impl<B: Bitboard> Default for PlanCache<B> {
    fn default() -> Self {
        PlanCache {
            table: OnceLock::new(),
            filled: AtomicUsize::new(0),
        }
    }
}

/// A copy of the rules starts with no plans: its fields may be changed before it is used, and
/// then it must not read the original's plans.
impl<B: Bitboard> Clone for PlanCache<B> {
    fn clone(&self) -> Self {
        PlanCache::default()
    }
}

impl<B: Bitboard> std::fmt::Debug for PlanCache<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlanCache")
            .field("plans", &self.filled.load(Ordering::Relaxed))
            .finish()
    }
}

/// Where a look-up in a [`PlanCache`] ended.
enum Found<'a, B: Bitboard> {
    /// The key's plan, or `None` where the rules need more than a plan holds.
    Kept(Option<&'a Plan<B>>),
    /// The key has no plan yet: the first free slot of its probes.
    Free(usize),
    /// Every slot probed holds another key.
    Full,
}

impl<B: Bitboard> PlanCache<B> {
    /// The table's slots, allocated on first use.
    #[inline(always)]
    fn slots(&self) -> &[Slot<B>] {
        self.table
            .get_or_init(|| (0..SLOTS).map(|_| OnceLock::new()).collect())
    }

    /// The first slot a key probes.
    #[inline(always)]
    fn home(key: &Key) -> usize {
        let mut hasher = WordHasher::default();
        key.hash(&mut hasher);
        (hasher.finish() >> (64 - SLOTS.trailing_zeros())) as usize
    }

    /// Looks `key` up, from slot `from` on.
    #[inline(always)]
    fn find(&self, key: &Key, from: usize) -> Found<'_, B> {
        let slots = self.slots();
        for probe in 0..MAX_PROBES {
            let at = (from + probe) % SLOTS;
            match slots[at].get() {
                Some(kept) if kept.key == *key => return Found::Kept(kept.plan.as_ref()),
                Some(_) => {}
                None => return Found::Free(at),
            }
        }
        Found::Full
    }

    /// Keeps `plan` as `key`'s in the first free slot from `at` (another thread may have
    /// filled it meanwhile, with this key or another); what is kept for the key, or `None`
    /// where there is no room.
    fn keep(&self, key: Key, plan: Option<Plan<B>>, mut at: usize) -> Option<Option<&Plan<B>>> {
        let slots = self.slots();
        let mut kept = Box::new(Kept { key, plan });
        let last = at + MAX_PROBES;
        while at < last {
            let slot = &slots[at % SLOTS];
            match slot.set(kept) {
                Ok(()) => {
                    self.filled.fetch_add(1, Ordering::Relaxed);
                    return slot.get().map(|kept| kept.plan.as_ref());
                }
                Err(refused) => kept = refused,
            }
            if let Some(other) = slot.get().filter(|other| other.key == key) {
                return Some(other.plan.as_ref());
            }
            at += 1;
        }
        None
    }

    /// The plan kept for `key`, made by `make` on first use (and kept, where there is room):
    /// `None` where the rules need more than a plan holds, or the cache has no room for it.
    #[inline]
    pub(super) fn get_or_make(
        &self,
        key: Key,
        make: impl FnOnce() -> Option<Plan<B>>,
    ) -> Option<&Plan<B>> {
        match self.find(&key, Self::home(&key)) {
            Found::Kept(plan) => plan,
            Found::Free(at) => self.make_and_keep(key, at, make),
            Found::Full => None,
        }
    }

    /// [`PlanCache::get_or_make`] for a key with no plan yet: made, and kept from the free
    /// slot `at` on.
    #[inline(never)]
    fn make_and_keep(
        &self,
        key: Key,
        at: usize,
        make: impl FnOnce() -> Option<Plan<B>>,
    ) -> Option<&Plan<B>> {
        if self.filled.load(Ordering::Relaxed) >= MAX_PLANS {
            return None;
        }
        self.keep(key, make(), at).flatten()
    }

    /// How many plans are kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.filled.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key fits [`KEY_BYTES`] bytes or is refused (its game then judged without plans), and
    /// keys differing in one byte differ.
    #[test]
    fn keys_longer_than_a_key_holds_are_refused() {
        let written = |bytes: &[u8]| {
            let mut writer = KeyWriter::default();
            for &byte in bytes {
                writer.byte(byte);
            }
            writer.finish()
        };
        let full: Vec<u8> = (0..KEY_BYTES as u8).collect();
        let key = written(&full).expect("a full key fits");
        assert!(written(&[full.as_slice(), &[7]].concat()).is_none());
        let mut other = full.clone();
        other[KEY_BYTES - 1] ^= 1;
        assert!(written(&other).expect("fits") != key);
        assert!(written(&full[..9]).expect("fits") != written(&full[..10]).expect("fits"));
    }
}
