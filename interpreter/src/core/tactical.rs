//! The tactical moves: captures, promotions and en passant, the moves a quiescence search
//! follows past its horizon.
//!
//! Why a sink of its own: a quiescence node wants only these, and generating every legal move
//! to keep a few cost the search about as much as the rest of it together. The [`Tactical`]
//! sink keeps exactly the moves [`is_tactical`] selects, and says so to the generator
//! ([`Sink::TACTICAL`]), which then narrows each piece's targets to the squares of enemy
//! pieces and the promoting squares before it tests them for the king's safety, and leaves out
//! what is never tactical (castling, drops). Every move the generator still sends is judged by
//! [`is_tactical`] at the sink, so the list is the legal moves filtered by it, in the same
//! order, whatever the game: the narrowing only saves work.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::movegen::{promotion_moves, Sink};
use crate::core::tables::PromotionRule;
use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// Whether `mv`, a move of `us` on `position`, is tactical: it takes a piece of another side
/// standing on its target, promotes, or takes en passant. Drops, castling and passes never are.
#[inline]
pub fn is_tactical<B: Bitboard>(position: &Position<B>, us: SideId, mv: Move) -> bool {
    takes_or_promotes(mv, victims(position, us))
}

/// The squares of the pieces of sides other than `us`: a normal move to one takes it.
#[inline]
fn victims<B: Bitboard>(position: &Position<B>, us: SideId) -> B {
    position.occupied() & !position.side_pieces(us)
}

/// [`is_tactical`], the pieces a normal move may take being those on `victims`.
#[inline]
fn takes_or_promotes<B: Bitboard>(mv: Move, victims: B) -> bool {
    match mv.kind {
        MoveKind::Promote(_) | MoveKind::EnPassant => true,
        MoveKind::Drop(_) | MoveKind::Castle(_) | MoveKind::Pass => false,
        MoveKind::Normal => victims.has(mv.to),
    }
}

/// Collects the tactical legal moves of the side to move ([`is_tactical`]), in generation order.
pub struct Tactical<B> {
    /// The moves, in generation order.
    pub moves: Vec<Move>,
    /// The squares of the pieces of sides other than the mover's: a normal move to one takes it.
    victims: B,
}

impl<B: Bitboard> Tactical<B> {
    /// A sink for the moves of `us` on `position`, appended to `moves`.
    pub fn new(position: &Position<B>, us: SideId, moves: Vec<Move>) -> Self {
        Tactical {
            moves,
            victims: victims(position, us),
        }
    }

    /// [`is_tactical`] on the sink's position.
    #[inline]
    fn keeps(&self, mv: Move) -> bool {
        takes_or_promotes(mv, self.victims)
    }
}

impl<B: Bitboard> Sink<B> for Tactical<B> {
    #[inline]
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>) {
        let promoting = promotion.filter(|rule| rule.promoting(from, targets).any());
        let Some(rule) = promoting else {
            self.moves.extend(
                (targets & self.victims)
                    .squares()
                    .map(|to| Move::normal(from, to)),
            );
            return;
        };
        let victims = self.victims;
        promotion_moves(from, targets, rule, |mv| {
            if mv.kind != MoveKind::Normal || victims.has(mv.to) {
                self.moves.push(mv);
            }
        });
    }

    #[inline]
    fn single(&mut self, mv: Move) {
        if self.keeps(mv) {
            self.moves.push(mv);
        }
    }

    #[inline]
    fn drops(&mut self, _piece: PieceId, _targets: B) {}

    const TACTICAL: bool = true;
}
