//! The indices that a [`Definition`](crate::Definition) and its expressions share: a side
//! ([`SideId`]), a piece type ([`PieceId`]) and a square ([`Square`]). They live apart from
//! [`crate::definition`] so that [`crate::expression`], which the definition holds, can name them
//! without importing the definition back; [`crate::definition`] re-exports them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Index of a side in [`Definition::sides`](crate::Definition::sides).
///
/// The interpreter indexes its per-side tables by it too: `repr(transparent)`, so a `SideId` costs
/// what its byte costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
pub struct SideId(pub u8);

impl SideId {
    /// The side at this index (a game has at most a few sides: the index fits a byte).
    #[inline(always)]
    pub const fn new(index: usize) -> Self {
        SideId(index as u8)
    }

    /// The index, for array arithmetic.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a piece type in [`Definition::pieces`](crate::Definition::pieces).
///
/// The interpreter indexes its per-piece tables by it too: `repr(transparent)`, so a `PieceId`
/// costs what its byte costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[repr(transparent)]
pub struct PieceId(pub u8);

impl PieceId {
    /// The piece type at this index (a game has at most a few dozen: the index fits a byte).
    #[inline(always)]
    pub const fn new(index: usize) -> Self {
        PieceId(index as u8)
    }

    /// The index, for array arithmetic.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A square named by its file and rank, both counted from 0 (`a1` is file 0, rank 0).
///
/// It serialises as its name (`"e4"`, `"p16"`), so RON dumps stay readable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// File, 0 = `a`.
    pub file: u8,
    /// Rank, 0 = `1`.
    pub rank: u8,
}

impl Square {
    /// Builds a square from zero-based file and rank.
    pub const fn new(file: u8, rank: u8) -> Self {
        Square { file, rank }
    }

    /// Parses a square name such as `e4` or `p16`; no board bounds are checked.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file_char = chars.next()?;
        if !file_char.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        Some(Square::new(file_char as u8 - b'a', rank - 1))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank as u32 + 1)
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Square::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("bad square `{text}`")))
    }
}
