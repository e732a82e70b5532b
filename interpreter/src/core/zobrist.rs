//! Zobrist hash keys, fixed per game shape so that hashes are reproducible across runs.
//!
//! The position's hash is kept up to date move by move; repetition detection compares hashes.
//! Keys come from a SplitMix64 stream with a fixed seed: no randomness, no dependency.

use crate::core::index::{PieceId, SideId, Sq};

/// The keys of one game.
#[derive(Clone, Debug)]
pub struct Zobrist {
    pieces: usize,
    squares: usize,
    piece_keys: Vec<u64>,
    side_keys: Vec<u64>,
    castle_keys: Vec<u64>,
    en_passant_keys: Vec<u64>,
    hand_keys: Vec<u64>,
    prison_keys: Vec<u64>,
    promoted_keys: Vec<u64>,
    acted_keys: Vec<u64>,
    /// Actions, drops and longest of a turn's progress, `PROGRESS_DEPTH` keys each.
    progress_keys: Vec<u64>,
    start_keys: Vec<u64>,
    phase_keys: Vec<u64>,
    last_drop_keys: Vec<u64>,
    /// Per place in a turn order that names a side more than once.
    slot_keys: Vec<u64>,
    /// Per counter, side and value (`counter`).
    counter_keys: Vec<u64>,
    /// Per square, its gating right (`gating`).
    gate_keys: Vec<u64>,
    /// Per square, the neutral piece standing there (`neutral`).
    neutral_keys: Vec<u64>,
    sides: usize,
}

/// The most counter values the hash distinguishes (every value a counter holds).
const COUNTER_DEPTH: usize = 256;

/// The most places of a turn order the hash distinguishes.
const SLOTS: usize = 32;

/// The largest action, drop and longest-turn counts the hash distinguishes.
const PROGRESS_DEPTH: usize = 16;
/// The most placement phases the hash distinguishes.
const PHASES: usize = 16;

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The most pieces of one type in one hand that the hash distinguishes.
const HAND_DEPTH: usize = 64;

impl Zobrist {
    /// Keys for a game of this shape.
    pub fn new(sides: usize, pieces: usize, squares: usize, castles: usize) -> Self {
        let mut stream = SplitMix(0x0005_EED0_F7A8_1A17);
        let mut take = |n: usize| (0..n).map(|_| stream.next()).collect::<Vec<u64>>();
        Zobrist {
            pieces,
            squares,
            piece_keys: take(sides * pieces * squares),
            side_keys: take(sides),
            castle_keys: take(castles),
            en_passant_keys: take(squares),
            hand_keys: take(sides * pieces * HAND_DEPTH),
            // Keys added later come after the first ones, so that earlier hashes stay the same.
            prison_keys: take(sides * pieces * HAND_DEPTH),
            promoted_keys: take(squares),
            acted_keys: take(squares),
            progress_keys: take(3 * PROGRESS_DEPTH),
            start_keys: take(32),
            phase_keys: take(PHASES),
            last_drop_keys: take(sides * pieces * squares),
            slot_keys: take(SLOTS),
            counter_keys: take(variant_dsl::MAX_COUNTERS * sides * COUNTER_DEPTH),
            gate_keys: take(squares),
            neutral_keys: take(squares),
            sides,
        }
    }

    /// Key of the place `index` in the turn order (games whose order names a side twice).
    #[inline]
    pub fn slot(&self, index: usize) -> u64 {
        self.slot_keys[index % SLOTS]
    }

    /// Key of holding `count` prisoners of a side's piece type.
    #[inline]
    pub fn prison(&self, side: SideId, piece: PieceId, count: u32) -> u64 {
        if count == 0 {
            0
        } else {
            self.prison_keys[(side.index() * self.pieces + piece.index()) * HAND_DEPTH
                + (count as usize).min(HAND_DEPTH)
                - 1]
        }
    }

    /// Key of a side's counter holding `value` (0 for the value 0, so that a game without
    /// counters hashes as before).
    #[inline]
    pub fn counter(&self, counter: usize, side: SideId, value: u8) -> u64 {
        if value == 0 {
            0
        } else {
            self.counter_keys
                [(counter * self.sides + side.index()) * COUNTER_DEPTH + value as usize]
        }
    }

    /// Key of a square's gating right (`gating`).
    #[inline]
    pub fn gate(&self, square: Sq) -> u64 {
        self.gate_keys[square.index()]
    }

    /// Key of the neutral piece (`neutral`) on a square.
    #[inline]
    pub fn neutral(&self, square: Sq) -> u64 {
        self.neutral_keys[square.index()]
    }

    /// Key of a promoted piece on a square (games whose captures go to the hand).
    #[inline]
    pub fn promoted(&self, square: Sq) -> u64 {
        self.promoted_keys[square.index()]
    }

    /// Key of a piece that acted this turn, on its square.
    #[inline]
    pub fn acted(&self, square: Sq) -> u64 {
        self.acted_keys[square.index()]
    }

    /// Key of a turn's progress: `kind` 0 for actions, 1 for drops, 2 for the longest turn.
    #[inline]
    pub fn progress(&self, kind: usize, count: u8) -> u64 {
        if count == 0 {
            0
        } else {
            self.progress_keys[kind * PROGRESS_DEPTH + (count as usize).min(PROGRESS_DEPTH) - 1]
        }
    }

    /// Combined key of the `at turn start` bits.
    #[inline]
    pub fn start(&self, bits: u32) -> u64 {
        let mut key = 0;
        let mut rest = bits;
        while rest != 0 {
            key ^= self.start_keys[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        key
    }

    /// Key of a side's last action being a drop of `piece` on `square`.
    #[inline]
    pub fn last_drop(&self, side: SideId, piece: PieceId, square: Sq) -> u64 {
        self.last_drop_keys
            [(side.index() * self.pieces + piece.index()) * self.squares + square.index()]
    }

    /// Key of a placement phase (`None` in play).
    #[inline]
    pub fn phase(&self, phase: Option<usize>) -> u64 {
        phase.map_or(0, |index| self.phase_keys[index.min(PHASES - 1)])
    }

    /// Key of a piece of a side on a square.
    #[inline]
    pub fn piece(&self, side: SideId, piece: PieceId, square: Sq) -> u64 {
        self.piece_keys
            [(side.index() * self.pieces + piece.index()) * self.squares + square.index()]
    }

    /// Key of the side to move.
    #[inline]
    pub fn side(&self, side: SideId) -> u64 {
        self.side_keys[side.index()]
    }

    /// Combined key of a set of castling rights.
    #[inline]
    pub fn castling(&self, rights: u32) -> u64 {
        let mut key = 0;
        let mut bits = rights;
        while bits != 0 {
            key ^= self.castle_keys[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        key
    }

    /// Key of an en-passant target square.
    #[inline]
    pub fn en_passant(&self, square: Sq) -> u64 {
        self.en_passant_keys[square.index()]
    }

    /// Key of holding `count` pieces of a type in hand.
    #[inline]
    pub fn hand(&self, side: SideId, piece: PieceId, count: u32) -> u64 {
        if count == 0 {
            0
        } else {
            self.hand_keys[(side.index() * self.pieces + piece.index()) * HAND_DEPTH
                + (count as usize).min(HAND_DEPTH)
                - 1]
        }
    }
}
