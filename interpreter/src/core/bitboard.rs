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
    /// The set holding only `square`.
    fn single(square: Sq) -> Self;
    /// Whether `square` is in the set.
    fn has(self, square: Sq) -> bool;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// The lowest square; the set must not be empty.
    fn lowest(self) -> Sq;
    /// The highest square; the set must not be empty.
    fn highest(self) -> Sq;
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
}

/// Iterator over the squares of a bitboard, lowest first.
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Sq;
    #[inline]
    fn next(&mut self) -> Option<Sq> {
        if self.0.is_empty() {
            None
        } else {
            let square = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(square)
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
            fn single(square: Sq) -> Self {
                1 << square.index()
            }
            #[inline]
            fn has(self, square: Sq) -> bool {
                self >> square.index() & 1 != 0
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
            fn lowest(self) -> Sq {
                Sq::new(self.trailing_zeros() as usize)
            }
            #[inline]
            fn highest(self) -> Sq {
                Sq::new(($bits - 1 - self.leading_zeros()) as usize)
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
    fn single(square: Sq) -> Self {
        let index = square.index();
        let mut words = [0; 4];
        words[index / 64] = 1 << (index % 64);
        Wide256(words)
    }
    #[inline]
    fn has(self, square: Sq) -> bool {
        let index = square.index();
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
    fn lowest(self) -> Sq {
        let word = self.0.iter().position(|&w| w != 0).unwrap_or(3);
        Sq::new(word * 64 + self.0[word].trailing_zeros() as usize)
    }
    #[inline]
    fn highest(self) -> Sq {
        let word = self.0.iter().rposition(|&w| w != 0).unwrap_or(0);
        Sq::new(word * 64 + 63 - self.0[word].leading_zeros() as usize)
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

    fn sq(index: usize) -> Sq {
        Sq::new(index)
    }

    fn exercise<B: Bitboard>() {
        let last = sq(B::CAPACITY - 1);
        let set = B::single(sq(3)) | B::single(last) | B::single(sq(70 % B::CAPACITY));
        assert_eq!(set.count(), 3);
        assert_eq!(set.lowest(), sq(3));
        assert_eq!(set.highest(), last);
        assert!(set.has(last) && !set.has(sq(4)));
        let listed: Vec<Sq> = set.squares().collect();
        assert_eq!(listed.len(), 3);
        assert!(listed.windows(2).all(|w| w[0] < w[1]));
        assert!((set & !set).is_empty());
        assert_eq!(B::EMPTY.squares().next(), None);
    }

    /// `shifted` moves every square by the same distance, square by square.
    fn shifts<B: Bitboard>() {
        let squares = [0, 1, 7, 8, 9, 55, 63, 64, 65, 100, 127, 128, 191, 200, 255];
        let set = squares
            .iter()
            .filter(|&&index| index < B::CAPACITY)
            .fold(B::EMPTY, |acc, &index| acc | B::single(sq(index)));
        for by in [
            -130, -70, -64, -17, -9, -8, -1, 0, 1, 7, 8, 9, 16, 63, 64, 65, 129,
        ] {
            let expected = set
                .squares()
                .filter_map(|square| {
                    let to = square.index() as i32 + by;
                    (0..B::CAPACITY as i32)
                        .contains(&to)
                        .then(|| B::single(sq(to as usize)))
                })
                .fold(B::EMPTY, |acc, square| acc | square);
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
        let set = Wide256::single(sq(63)) | Wide256::single(sq(64)) | Wide256::single(sq(200));
        assert_eq!(
            set.squares().collect::<Vec<_>>(),
            vec![sq(63), sq(64), sq(200)]
        );
        assert_eq!(set.without_lowest().lowest(), sq(64));
    }
}
