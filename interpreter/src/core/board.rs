//! Where the pieces stand, as the attack tests read it ([`Board`]): a position's board, or the
//! board a move leaves, seen through the position before the move ([`AfterMove`]).
//!
//! Why: whether a move leaves the mover's royal piece attacked, and a move rule judged after the
//! move (xiangqi's flying general), read the board alone. Playing the move on a copy of the
//! whole position to ask them copied hands, counters, the mailbox and every per-type bitboard
//! (about 900 bytes with 128-bit bitboards) per legality test: in xiangqi's perft the copies
//! cost more than the tests. A move that only moves a piece (and takes what stands on its
//! target) changes two squares: its board is the position's with those two squares corrected,
//! computed where a test asks for a side's or a type's squares, and nothing is copied.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId};
use crate::core::position::Position;
use crate::core::tables::Tables;
use crate::moves::{Move, MoveKind};

/// The squares of each side's and each type's pieces: what attacks and check read.
pub trait Board<B: Bitboard> {
    /// The squares of a side's pieces.
    fn side_pieces(&self, side: SideId) -> B;
    /// The squares of a type's pieces, of every side.
    fn typed(&self, piece: PieceId) -> B;
    /// The squares with a piece.
    fn occupied(&self) -> B;
}

impl<B: Bitboard> Board<B> for Position<B> {
    #[inline(always)]
    fn side_pieces(&self, side: SideId) -> B {
        Position::side_pieces(self, side)
    }
    #[inline(always)]
    fn typed(&self, piece: PieceId) -> B {
        Position::typed(self, piece)
    }
    #[inline(always)]
    fn occupied(&self) -> B {
        Position::occupied(self)
    }
}

/// The board after a move that only moves one piece from its square to another (promoting or
/// not) and removes what stood there, read through the position before the move.
#[derive(Clone, Copy)]
pub struct AfterMove<'a, B: Bitboard> {
    before: &'a Position<B>,
    /// Every square but the two the move touches.
    untouched: B,
    /// The move's target.
    landed: B,
    /// The mover's side.
    side: SideId,
    /// The type of the piece on the target after the move.
    piece: PieceId,
    occupied: B,
}

impl<'a, B: Bitboard> AfterMove<'a, B> {
    /// The board after `mv` of the side to move of `before`, where the game's moves on the
    /// board change nothing but their two squares ([`Tables::board_moves`]) and `mv` is a plain
    /// move or a promotion from one square to another; `None` for any other move (castling,
    /// en passant, drops, gating, conversions), which is played on a copy.
    #[inline(always)]
    pub fn of(rules: &Tables<B>, before: &'a Position<B>, mv: Move) -> Option<Self> {
        if !rules.board_moves || mv.converts.is_some() || mv.gate.is_some() || mv.from == mv.to {
            return None;
        }
        let mover = before.at(mv.from)?;
        let piece = match mv.kind {
            MoveKind::Normal => mover.piece,
            MoveKind::Promote(new) => new,
            _ => return None,
        };
        let landed = B::single(mv.to);
        let untouched = !(B::single(mv.from) | landed);
        Some(AfterMove {
            before,
            untouched,
            landed,
            // The piece lands as the side to move's, as a played move puts it.
            side: before.side_to_move(rules),
            piece,
            occupied: (before.occupied() & untouched) | landed,
        })
    }
}

impl<B: Bitboard> Board<B> for AfterMove<'_, B> {
    #[inline(always)]
    fn side_pieces(&self, side: SideId) -> B {
        let kept = self.before.side_pieces(side) & self.untouched;
        if side == self.side {
            kept | self.landed
        } else {
            kept
        }
    }
    #[inline(always)]
    fn typed(&self, piece: PieceId) -> B {
        let kept = self.before.typed(piece) & self.untouched;
        if piece == self.piece {
            kept | self.landed
        } else {
            kept
        }
    }
    #[inline(always)]
    fn occupied(&self) -> B {
        self.occupied
    }
}
