//! Primitive board edits: move a piece, remove one, place one.
//!
//! Why: a policy's own actions (a capture followed by a piece's slide, a jump and what happens
//! where it lands) are not moves of any piece's movement. They are written in the game file and
//! built by the policy as a short list of these edits, which [`Position::play_edits`] applies as
//! one ply. The core thus knows only what an edit does to the board and its state, never the
//! rule that produced it.
//!
//! [`Position::play_edits`]: crate::position::Position::play_edits

use crate::core::index::{PieceId, Sq};

/// The most edits in one action: a capture (en passant: remove, then move; promotion: move,
/// then place) followed by a slide.
pub const MAX_EDITS: usize = 4;

/// One change of the board, by the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edit {
    /// The piece on `from` goes to `to`, removing what stood there; its number goes with it.
    Move {
        /// Where it stands.
        from: Sq,
        /// Where it goes.
        to: Sq,
    },
    /// The piece on the square leaves the board.
    Remove(Sq),
    /// A piece of the side to move, of this type, is put on the square. A piece of that side
    /// standing there is replaced and keeps its number (a promotion).
    Place {
        /// The square.
        square: Sq,
        /// The piece type.
        piece: PieceId,
    },
}

/// Up to [`MAX_EDITS`] edits, applied in order; small and `Copy`, like a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edits {
    edits: [Edit; MAX_EDITS],
    len: u8,
}

impl Edits {
    /// No edit: an action that changes nothing on the board (the turn still passes).
    pub const NONE: Edits = Edits {
        edits: [Edit::Remove(Sq(0)); MAX_EDITS],
        len: 0,
    };

    /// These edits, in order; `None` when there are more than [`MAX_EDITS`].
    pub fn of(edits: &[Edit]) -> Option<Self> {
        let mut all = Edits::NONE;
        for &edit in edits {
            all = all.then(edit)?;
        }
        Some(all)
    }

    /// These edits and one more; `None` when full.
    pub fn then(mut self, edit: Edit) -> Option<Self> {
        let slot = self.edits.get_mut(self.len as usize)?;
        *slot = edit;
        self.len += 1;
        Some(self)
    }

    /// The edits, in order.
    pub fn as_slice(&self) -> &[Edit] {
        &self.edits[..self.len as usize]
    }
}
