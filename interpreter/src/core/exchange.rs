//! Static exchange evaluation: what a move to a square wins or loses in material once both camps
//! have taken on that square in turn, each with its cheapest attacker first, each free to stop.
//!
//! Why: a search orders captures that win or hold material before the quiet moves and those
//! that lose it after them, and its quiescence skips the losing ones. Judging a capture by its
//! victim and its capturer alone mistakes a queen taking a defended pawn for a good capture and
//! a rook taking a pawn that only a bishop behind the rook defends for a bad one.
//!
//! Generic over the game's attack tables ([`crate::core::attack::attackers`]): leapers, riders,
//! hoppers and lame leapers. The attackers are found again after each capture, on the board
//! without the pieces that took: a rider behind one that took (an x-ray) then attacks, a
//! cannon whose hurdle took no longer does, and one whose hurdle is now the taker does. A royal
//! piece takes last, and only where the other camp has no attacker left.
//!
//! What it leaves out, as every static exchange does: pins, promotions on the way, checks.
//! It is the exchange the rules play only where a capture removes its victim and nothing else
//! and every attack is an ordinary move's ([`Exchanges::of`] is `None` elsewhere: explosions,
//! captures to a hand or a prison, conversions, attacking routes).

use crate::bitboard::Bitboard;
use crate::core::attack::attackers;
use crate::core::board::Board;
use crate::core::index::{ByPiece, PieceId, SideId, Sq};
use crate::core::moves::{Move, MoveKind};
use crate::core::position::Position;
use crate::core::tables::Tables;

/// The longest exchange followed (more captures on one square than any board holds pieces
/// for in practice; past it the exchange is taken to stop).
const LONGEST: usize = 32;

/// A game's pieces as an exchange sees them, read once from its tables.
#[derive(Clone, Debug)]
pub struct Exchanges {
    /// The piece types, cheapest first, royal ones last.
    order: Vec<PieceId>,
    /// Per piece type, its value (`value` of the game file).
    value: ByPiece<i32>,
    /// Per piece type, whether it is royal.
    royal: ByPiece<bool>,
    /// Per piece type, whether no action captures it (`uncapturable`).
    uncapturable: ByPiece<bool>,
}

/// The board during an exchange: the position's pieces still on `occupied` (the pieces that
/// took are gone from their squares; the victim's square keeps its bit, which no attack reads).
struct Remaining<'a, B: Bitboard> {
    position: &'a Position<B>,
    occupied: B,
}

impl<B: Bitboard> Board<B> for Remaining<'_, B> {
    fn side_pieces(&self, side: SideId) -> B {
        self.position.side_pieces(side) & self.occupied
    }
    fn typed(&self, piece: PieceId) -> B {
        self.position.typed(piece) & self.occupied
    }
    fn occupied(&self) -> B {
        self.occupied
    }
}

impl Exchanges {
    /// The exchanges of a game where captures only remove their victim and every attack is in
    /// the attack tables; `None` elsewhere.
    pub fn of<B: Bitboard>(rules: &Tables<B>) -> Option<Self> {
        if !rules.board_moves || rules.stores.iter().any(Option::is_some) {
            return None;
        }
        let pieces = &rules.definition.pieces;
        let value = ByPiece::from_fn(|p: PieceId| pieces.get(p.index()).map_or(0, |d| d.value));
        let royal = ByPiece::from_fn(|p: PieceId| pieces.get(p.index()).is_some_and(|d| d.royal));
        let uncapturable = ByPiece::from_fn(|p: PieceId| rules.uncapturable.contains(&p));
        let mut order: Vec<PieceId> = rules.piece_ids().collect();
        order.sort_by_key(|&p| (royal[p], value[p]));
        Some(Exchanges {
            order,
            value,
            royal,
            uncapturable,
        })
    }

    /// The material `mv`, a move of the side to move, wins (its victim, a promotion's gain)
    /// less what the exchange on its target then costs, in the game's piece values; `None` for
    /// a move that is not one piece going from one square to another (drops, castling, en
    /// passant, passes, gating, conversions).
    pub fn evaluate<B: Bitboard>(
        &self,
        rules: &Tables<B>,
        position: &Position<B>,
        mv: Move,
    ) -> Option<i32> {
        if mv.converts.is_some() || mv.gate.is_some() || mv.from == mv.to {
            return None;
        }
        let mover = position.at(mv.from)?;
        let us = mover.side;
        let mut gain = [0i32; LONGEST];
        let mut on_square = match mv.kind {
            MoveKind::Normal => mover.piece,
            MoveKind::Promote(piece) => {
                gain[0] = self.value[piece] - self.value[mover.piece];
                piece
            }
            _ => return None,
        };
        if let Some(victim) = position.at(mv.to) {
            if !rules.is_enemy(us, victim.side) {
                return None;
            }
            gain[0] += self.value[victim.piece];
        }
        let mut occupied = position.occupied() & !B::single(mv.from);
        let mut enemies_take = true;
        let mut depth = 0;
        while depth + 1 < LONGEST && !self.uncapturable[on_square] {
            let board = Remaining {
                position,
                occupied,
            };
            let takers = camp_attackers(rules, &board, mv.to, us, enemies_take);
            let Some((from, piece)) = self.cheapest(position, takers) else {
                break;
            };
            if self.royal[piece] {
                let left = Remaining {
                    position,
                    occupied: occupied & !B::single(from),
                };
                if camp_attackers(rules, &left, mv.to, us, !enemies_take).any() {
                    break;
                }
            }
            depth += 1;
            gain[depth] = self.value[on_square] - gain[depth - 1];
            occupied &= !B::single(from);
            on_square = piece;
            enemies_take = !enemies_take;
        }
        // Each taker may also stop: from the last capture back to the move.
        while depth > 0 {
            gain[depth - 1] = gain[depth - 1].min(-gain[depth]);
            depth -= 1;
        }
        Some(gain[0])
    }

    /// The cheapest piece on `takers` (a royal one last): its square and type.
    fn cheapest<B: Bitboard>(&self, position: &Position<B>, takers: B) -> Option<(Sq, PieceId)> {
        if takers.is_empty() {
            return None;
        }
        self.order.iter().find_map(|&piece| {
            let of_type = takers & position.typed(piece);
            of_type.any().then(|| (of_type.lowest(), piece))
        })
    }
}

/// The pieces attacking `square` on `board` of the enemies of `us` (`enemies`) or of `us` and
/// its allies.
fn camp_attackers<B: Bitboard>(
    rules: &Tables<B>,
    board: &Remaining<'_, B>,
    square: Sq,
    us: SideId,
    enemies: bool,
) -> B {
    rules
        .side_ids()
        .filter(|&side| rules.is_enemy(us, side) == enemies)
        .fold(B::EMPTY, |all, side| {
            all | attackers(board, rules, square, side, board.occupied)
        })
}
