//! Bitboards of three widths, behind one trait.
//!
//! A board of up to 64 squares uses a `u64`, up to 128 a `u128`, up to 256 (16x16) a
//! [`Wide256`]. The engine is generic over [`Bitboard`] and monomorphised per width, so FIDE
//! chess runs on plain `u64` arithmetic while the same code serves a 16x16 board. Bit `i` is the
//! square with index `i` (`rank * files + file`).

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::core::index::Sq;

/// A set of squares as bits.
pub trait Bitboard:
    Copy
    + Clone
    + Debug
    + Default
    + Eq
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares this width can hold.
    const CAPACITY: usize;
    /// One byte per square of this width: a position's mailbox, sized to the board's width so
    /// that positions stay small (they are copied to make every move).
    type Mailbox: Copy + Debug + Eq + Hash + Send + Sync + 'static + AsRef<[u8]> + AsMut<[u8]>;
    /// The mailbox of an empty board.
    const EMPTY_MAILBOX: Self::Mailbox;
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only square `index`.
    fn single(index: usize) -> Self;
    /// Whether square `index` is in the set.
    fn has(self, index: usize) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Lowest square index; the set must not be empty.
    fn lowest(self) -> usize;
    /// Highest square index; the set must not be empty.
    fn highest(self) -> usize;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// Every square index moved up by `by` (down when negative); squares moved past either end
    /// are lost.
    #[inline]
    fn shifted(self, by: i32) -> Self {
        let distance = by.unsigned_abs() as usize;
        if distance >= Self::CAPACITY {
            Self::EMPTY
        } else if by >= 0 {
            self.up(distance as u32)
        } else {
            self.down(distance as u32)
        }
    }
    /// Every square index moved up by `distance`, less than [`Bitboard::CAPACITY`].
    fn up(self, distance: u32) -> Self;
    /// Every square index moved down by `distance`, less than [`Bitboard::CAPACITY`].
    fn down(self, distance: u32) -> Self;

    /// Whether the set has at least one square.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Iterates the squares, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }

    /// The set holding only `square`: [`Bitboard::single`] for a typed square.
    #[inline(always)]
    fn of(square: Sq) -> Self {
        Self::single(square.index())
    }

    /// Whether `square` is in the set: [`Bitboard::has`] for a typed square.
    #[inline(always)]
    fn contains(self, square: Sq) -> bool {
        self.has(square.index())
    }

    /// The lowest square; the set must not be empty: [`Bitboard::lowest`] as a typed square.
    #[inline(always)]
    fn first(self) -> Sq {
        Sq::new(self.lowest())
    }

    /// Iterates the squares as [`Sq`], lowest first: [`Bitboard::squares`] typed.
    #[inline]
    fn iter(self) -> Sqs<Self> {
        Sqs(self)
    }
}

/// Iterator over the squares of a bitboard as [`Sq`], lowest first.
pub struct Sqs<B>(B);

impl<B: Bitboard> Iterator for Sqs<B> {
    type Item = Sq;
    #[inline]
    fn next(&mut self) -> Option<Sq> {
        if self.0.is_empty() {
            None
        } else {
            let square = self.0.first();
            self.0 = self.0.without_lowest();
            Some(square)
        }
    }
}

/// Iterator over the squares of a bitboard, lowest first.
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            let index = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(index)
        }
    }
}

macro_rules! primitive_bitboard {
    ($t:ty, $bits:expr) => {
        impl Bitboard for $t {
            const CAPACITY: usize = $bits;
            type Mailbox = [u8; $bits];
            const EMPTY_MAILBOX: [u8; $bits] = [0; $bits];
            const EMPTY: Self = 0;
            #[inline]
            fn single(index: usize) -> Self {
                1 << index
            }
            #[inline]
            fn has(self, index: usize) -> bool {
                self >> index & 1 != 0
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn highest(self) -> usize {
                ($bits - 1 - self.leading_zeros()) as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn up(self, distance: u32) -> Self {
                self << distance
            }
            #[inline]
            fn down(self, distance: u32) -> Self {
                self >> distance
            }
        }
    };
}

primitive_bitboard!(u64, 64);
primitive_bitboard!(u128, 128);

/// A 256-square bitboard, for boards larger than 128 squares (up to 16x16).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wide256([u64; 4]);

impl BitAnd for Wide256 {
    type Output = Self;
    #[inline]
    fn bitand(self, rhs: Self) -> Self {
        Wide256(std::array::from_fn(|i| self.0[i] & rhs.0[i]))
    }
}
impl BitOr for Wide256 {
    type Output = Self;
    #[inline]
    fn bitor(self, rhs: Self) -> Self {
        Wide256(std::array::from_fn(|i| self.0[i] | rhs.0[i]))
    }
}
impl BitXor for Wide256 {
    type Output = Self;
    #[inline]
    fn bitxor(self, rhs: Self) -> Self {
        Wide256(std::array::from_fn(|i| self.0[i] ^ rhs.0[i]))
    }
}
impl Not for Wide256 {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Wide256(self.0.map(|w| !w))
    }
}
impl BitAndAssign for Wide256 {
    #[inline]
    fn bitand_assign(&mut self, rhs: Self) {
        *self = *self & rhs;
    }
}
impl BitOrAssign for Wide256 {
    #[inline]
    fn bitor_assign(&mut self, rhs: Self) {
        *self = *self | rhs;
    }
}
impl BitXorAssign for Wide256 {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Self) {
        *self = *self ^ rhs;
    }
}

impl Bitboard for Wide256 {
    const CAPACITY: usize = 256;
    type Mailbox = [u8; 256];
    const EMPTY_MAILBOX: [u8; 256] = [0; 256];
    const EMPTY: Self = Wide256([0; 4]);
    #[inline]
    fn single(index: usize) -> Self {
        let mut words = [0; 4];
        words[index / 64] = 1 << (index % 64);
        Wide256(words)
    }
    #[inline]
    fn has(self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 != 0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        let word = self.0.iter().position(|&w| w != 0).unwrap_or(3);
        word * 64 + self.0[word].trailing_zeros() as usize
    }
    #[inline]
    fn highest(self) -> usize {
        let word = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        word * 64 + 63 - self.0[word].leading_zeros() as usize
    }
    #[inline]
    fn without_lowest(self) -> Self {
        let mut words = self.0;
        if let Some(word) = words.iter().position(|&w| w != 0) {
            words[word] &= words[word] - 1;
        }
        Wide256(words)
    }
    #[inline]
    fn up(self, distance: u32) -> Self {
        let (whole, bits) = ((distance / 64) as usize, distance % 64);
        Wide256(std::array::from_fn(|i| {
            let main = i.checked_sub(whole).map_or(0, |w| self.0[w]);
            let carry = i.checked_sub(whole + 1).map_or(0, |w| self.0[w]);
            if bits == 0 {
                main
            } else {
                main << bits | carry >> (64 - bits)
            }
        }))
    }
    #[inline]
    fn down(self, distance: u32) -> Self {
        let (whole, bits) = ((distance / 64) as usize, distance % 64);
        let word = |w: usize| if w < 4 { self.0[w] } else { 0 };
        Wide256(std::array::from_fn(|i| {
            let (main, carry) = (word(i + whole), word(i + whole + 1));
            if bits == 0 {
                main
            } else {
                main >> bits | carry << (64 - bits)
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bitboard>() {
        let last = B::CAPACITY - 1;
        let set = B::single(3) | B::single(last) | B::single(70 % B::CAPACITY);
        assert_eq!(set.count(), 3);
        assert_eq!(set.lowest(), 3);
        assert_eq!(set.highest(), last);
        assert!(set.has(last) && !set.has(4));
        let listed: Vec<usize> = set.squares().collect();
        assert_eq!(listed.len(), 3);
        assert!(listed.windows(2).all(|w| w[0] < w[1]));
        assert!((set & !set).is_empty());
        typed(set, last);
    }

    /// The typed forms agree with the raw ones they stand beside.
    fn typed<B: Bitboard>(set: B, last: usize) {
        let top = Sq::new(last);
        assert_eq!(B::of(top), B::single(last));
        assert!(set.contains(top) && !set.contains(Sq::new(4)));
        assert_eq!(set.first(), Sq::new(3));
        let listed: Vec<Sq> = set.iter().collect();
        assert_eq!(
            listed,
            set.squares().map(Sq::new).collect::<Vec<_>>(),
            "typed squares, lowest first"
        );
        assert_eq!(B::EMPTY.iter().next(), None);
    }

    /// `shifted` moves every square by the same distance, square by square.
    fn shifts<B: Bitboard>() {
        let squares = [0, 1, 7, 8, 9, 55, 63, 64, 65, 100, 127, 128, 191, 200, 255];
        let set = squares
            .iter()
            .filter(|&&sq| sq < B::CAPACITY)
            .fold(B::EMPTY, |acc, &sq| acc | B::single(sq));
        for by in [
            -130, -70, -64, -17, -9, -8, -1, 0, 1, 7, 8, 9, 16, 63, 64, 65, 129,
        ] {
            let expected = set
                .squares()
                .filter_map(|sq| {
                    let to = sq as i32 + by;
                    (0..B::CAPACITY as i32)
                        .contains(&to)
                        .then(|| B::single(to as usize))
                })
                .fold(B::EMPTY, |acc, sq| acc | sq);
            assert_eq!(set.shifted(by), expected, "shifted by {by}");
        }
    }

    #[test]
    fn all_widths_shift_square_by_square() {
        shifts::<u64>();
        shifts::<u128>();
        shifts::<Wide256>();
    }

    #[test]
    fn all_widths_agree_on_set_operations() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<Wide256>();
    }

    #[test]
    fn wide_crosses_word_boundaries() {
        let set = Wide256::single(63) | Wide256::single(64) | Wide256::single(200);
        assert_eq!(set.squares().collect::<Vec<_>>(), vec![63, 64, 200]);
        assert_eq!(set.without_lowest().lowest(), 64);
    }
}
