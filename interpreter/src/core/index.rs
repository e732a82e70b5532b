//! The indices of a compiled game and the tables they index: a square of the compiled board
//! ([`Sq`]), a side ([`SideId`]) and a piece type ([`PieceId`]); per-square ([`BySquare`]),
//! per-side ([`BySide`]) and per-piece ([`ByPiece`]) tables that only these indices open.
//!
//! Why these types:
//! - Sides and piece types reuse the dsl's [`SideId`] and [`PieceId`] rather than interpreter
//!   twins. A [`Definition`](variant_dsl::Definition), its setups and its expressions already
//!   name sides and pieces by them, and so do [`MoveKind`](crate::moves::MoveKind)'s promotions
//!   and drops: one type on both sides of the door between the stages means no conversion at the
//!   door, and no `From` between two types meaning the same thing. Both are one byte,
//!   `repr(transparent)`, with `index()` for the few places that do arithmetic on indices.
//! - A board square is the interpreter's own [`Sq`], distinct from the dsl's
//!   [`Square`](variant_dsl::Square): a `Square` is a name (file and rank) that means the same on
//!   any board, an `Sq` is a bit index on one compiled board (`rank * files + file`, the grid
//!   padded for the bitboard's width), meaningless without its
//!   [`Geometry`](crate::geometry::Geometry), which converts between the two.
//! - A per-side or per-piece table is a fixed array sized for the engine's limits
//!   ([`MAX_SIDES`], [`MAX_PIECE_TYPES`]), so a position stays one flat `Copy` block; indexing it
//!   by the wrong kind of index, or by a raw number, does not compile.
//! - A per-square table is sized by the board, not by the engine (a 64-square game should not
//!   carry 256 entries per table), so [`BySquare`] owns a boxed slice: built once when the game
//!   compiles, read by [`Sq`] at every node at the cost of a slice index.

use std::fmt;
use std::ops::{Index, IndexMut};

pub use variant_dsl::{PieceId, SideId};

/// The most sides a game may have.
pub const MAX_SIDES: usize = 4;
/// The most piece types a game may have.
pub const MAX_PIECE_TYPES: usize = 20;

/// A square of the compiled board: its bit index in the game's bitboards. One byte, as the
/// widest bitboard ([`Wide256`](crate::bitboard::Wide256)) has 256 squares: so a
/// [`Move`](crate::moves::Move) (two squares, its kind, its optional conversion and gate) stays
/// 8 bytes, and move lists and the search's tables copy it at every node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Sq(pub u8);

impl Sq {
    /// The square with this bit index (boards have at most 256 squares).
    #[inline(always)]
    pub const fn new(index: usize) -> Self {
        debug_assert!(index < 256, "a square index beyond the widest board");
        Sq(index as u8)
    }

    /// The bit index, for bitboards and per-square tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl From<Sq> for usize {
    #[inline(always)]
    fn from(square: Sq) -> usize {
        square.index()
    }
}

impl fmt::Display for Sq {
    /// The bit index (`#37`): without its geometry a square has no name; see
    /// [`Geometry::square`](crate::geometry::Geometry::square).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Declares a fixed-size table indexed by one kind of index only.
macro_rules! table_by {
    ($(#[$doc:meta])* $name:ident, $id:ident, $len:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(transparent)]
        pub struct $name<T>([T; $len]);

        impl<T: Copy> $name<T> {
            /// Every entry set to `value`.
            #[inline(always)]
            pub const fn splat(value: T) -> Self {
                $name([value; $len])
            }
        }

        impl<T> $name<T> {
            /// Each entry computed from its index.
            #[inline]
            pub fn from_fn(mut entry: impl FnMut($id) -> T) -> Self {
                $name(std::array::from_fn(|index| entry($id::new(index))))
            }

            /// The entries, in index order (all of them, as many as the engine allows: take
            /// the game's count).
            #[inline]
            pub fn iter(&self) -> std::slice::Iter<'_, T> {
                self.0.iter()
            }

            /// The entries, mutable, in index order.
            #[inline]
            pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
                self.0.iter_mut()
            }

            /// The entries with their indices, in index order.
            #[inline]
            pub fn pairs(&self) -> impl Iterator<Item = ($id, &T)> + '_ {
                self.0.iter().enumerate().map(|(index, entry)| ($id::new(index), entry))
            }
        }

        impl<T: Default> Default for $name<T> {
            #[inline]
            fn default() -> Self {
                Self::from_fn(|_| T::default())
            }
        }

        impl<T> Index<$id> for $name<T> {
            type Output = T;
            #[inline(always)]
            fn index(&self, id: $id) -> &T {
                &self.0[id.index()]
            }
        }

        impl<T> IndexMut<$id> for $name<T> {
            #[inline(always)]
            fn index_mut(&mut self, id: $id) -> &mut T {
                &mut self.0[id.index()]
            }
        }

        impl<'a, T> IntoIterator for &'a $name<T> {
            type Item = &'a T;
            type IntoIter = std::slice::Iter<'a, T>;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }
    };
}

table_by!(
    /// One `T` per side, indexed by [`SideId`] only; room for [`MAX_SIDES`].
    BySide,
    SideId,
    MAX_SIDES
);

table_by!(
    /// One `T` per piece type, indexed by [`PieceId`] only; room for [`MAX_PIECE_TYPES`].
    ByPiece,
    PieceId,
    MAX_PIECE_TYPES
);

/// One `T` per square of a compiled board, indexed by [`Sq`] only; as many entries as the board
/// has squares (its bitboard grid).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct BySquare<T>(Box<[T]>);

impl<T> BySquare<T> {
    /// A table of `len` squares, each entry computed from its square.
    #[inline]
    pub fn from_fn(len: usize, mut entry: impl FnMut(Sq) -> T) -> Self {
        BySquare((0..len).map(|index| entry(Sq::new(index))).collect())
    }

    /// How many squares the table holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the table holds no square (a board without squares).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The entry of `square`, or `None` beyond the board.
    #[inline]
    pub fn get(&self, square: Sq) -> Option<&T> {
        self.0.get(square.index())
    }

    /// The entries, in square order.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.0.iter()
    }

    /// The entries, mutable, in square order.
    #[inline]
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.0.iter_mut()
    }

    /// The entries with their squares, in square order.
    #[inline]
    pub fn pairs(&self) -> impl Iterator<Item = (Sq, &T)> + '_ {
        self.0
            .iter()
            .enumerate()
            .map(|(index, entry)| (Sq::new(index), entry))
    }
}

impl<T> From<Vec<T>> for BySquare<T> {
    /// The table whose entry for square `i` is the vector's `i`th.
    #[inline]
    fn from(entries: Vec<T>) -> Self {
        BySquare(entries.into_boxed_slice())
    }
}

impl<T> FromIterator<T> for BySquare<T> {
    /// The table whose entry for square `i` is the iterator's `i`th.
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(entries: I) -> Self {
        BySquare(entries.into_iter().collect())
    }
}

impl<T> Index<Sq> for BySquare<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, square: Sq) -> &T {
        &self.0[square.index()]
    }
}

impl<T> IndexMut<Sq> for BySquare<T> {
    #[inline(always)]
    fn index_mut(&mut self, square: Sq) -> &mut T {
        &mut self.0[square.index()]
    }
}

impl<'a, T> IntoIterator for &'a BySquare<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The sides of a game with `count` sides, in index order.
#[inline]
pub fn sides(count: usize) -> impl DoubleEndedIterator<Item = SideId> + Clone {
    (0..count).map(SideId::new)
}

/// The piece types of a game with `count` types, in index order.
#[inline]
pub fn pieces(count: usize) -> impl DoubleEndedIterator<Item = PieceId> + Clone {
    (0..count).map(PieceId::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_open_by_their_index() {
        let mut hands: BySide<ByPiece<u8>> = BySide::default();
        hands[SideId(1)][PieceId(3)] = 2;
        assert_eq!(hands[SideId(1)][PieceId(3)], 2);
        assert_eq!(hands[SideId(0)][PieceId(3)], 0);
        let copy = hands;
        assert_eq!(copy, hands);
        assert_eq!(
            hands
                .pairs()
                .map(|(side, hand)| (side, hand.iter().sum::<u8>()))
                .collect::<Vec<_>>(),
            vec![
                (SideId(0), 0),
                (SideId(1), 2),
                (SideId(2), 0),
                (SideId(3), 0)
            ]
        );
    }

    #[test]
    fn square_tables_open_by_square() {
        let mut distance = BySquare::from_fn(5, |square| square.index() * 10);
        assert_eq!(distance.len(), 5);
        assert_eq!(distance[Sq::new(3)], 30);
        distance[Sq::new(3)] = 7;
        assert_eq!(distance[Sq::new(3)], 7);
        assert_eq!(distance.get(Sq::new(5)), None, "beyond the board");
        assert_eq!(
            distance
                .pairs()
                .map(|(square, &d)| (square.index(), d))
                .last(),
            Some((4, 40))
        );
        assert_eq!(BySquare::from(vec![1u8, 2]).iter().sum::<u8>(), 3);
        assert!(BySquare::<u8>::default().is_empty());
    }

    #[test]
    fn indices_cost_their_integer() {
        assert_eq!(std::mem::size_of::<Sq>(), 1);
        assert_eq!(std::mem::size_of::<SideId>(), 1);
        assert_eq!(std::mem::size_of::<BySide<u32>>(), 4 * MAX_SIDES);
        assert_eq!(std::mem::size_of::<ByPiece<u8>>(), MAX_PIECE_TYPES);
        assert_eq!(Sq::new(37).index(), 37);
        assert_eq!(sides(3).last(), Some(SideId(2)));
        assert_eq!(pieces(2).collect::<Vec<_>>(), vec![PieceId(0), PieceId(1)]);
    }
}
