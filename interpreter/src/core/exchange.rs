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
            let board = Remaining { position, occupied };
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

#[cfg(test)]
mod tests {
    use super::Exchanges;
    use crate::core::position::Position;
    use crate::legal::legal_moves;
    use crate::rules::Rules;
    use std::path::Path;

    fn rules(game: &str) -> Rules<u128> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let path = root.join(format!("games/{game}.variant"));
        let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
        let definition = variant_dsl::load_file_with(&path, &options)
            .expect("loads")
            .definition;
        Rules::compile(&definition).expect("compiles")
    }

    /// The static exchange of the legal move `uci` in `fen`, computed by hand in the callers.
    fn exchange(game: &str, fen: &str, uci: &str) -> i32 {
        let rules = rules(game);
        let setup = variant_dsl::fen::parse_fen(rules.definition(), fen).expect("a FEN");
        let position = Position::from_setup(&rules, &setup).expect("a position");
        let mv = legal_moves(&rules, &position)
            .into_iter()
            .find(|m| m.uci(&rules) == uci)
            .unwrap_or_else(|| panic!("{uci} is legal in {fen}"));
        Exchanges::of(&rules)
            .expect("plain captures")
            .evaluate(&rules, &position, mv)
            .expect("a move from one square to another")
    }

    #[test]
    fn a_queen_taking_a_defended_pawn_loses_the_queen_for_it() {
        // Qxe5 dxe5: +1 - 9.
        let fen = "4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1";
        assert_eq!(exchange("chess", fen, "e1e5"), -8);
    }

    #[test]
    fn an_undefended_piece_is_won() {
        assert_eq!(
            exchange("chess", "4k3/8/8/4n3/8/8/8/4QK2 w - - 0 1", "e1e5"),
            3
        );
        // A quiet move to a square nobody attacks: nothing changes hands.
        assert_eq!(
            exchange("chess", "4k3/8/8/4n3/8/8/8/4QK2 w - - 0 1", "e1a5"),
            0
        );
    }

    #[test]
    fn a_rider_behind_the_taker_joins_the_exchange() {
        // Rxe5 Rxe5 Rxe5: the rook on e1 is seen through the one that took: +1 - 5 + 5.
        let fen = "4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1";
        assert_eq!(exchange("chess", fen, "e2e5"), 1);
        // Without it, Rxe5 Rxe5 loses the rook for a pawn.
        let fen = "4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1";
        assert_eq!(exchange("chess", fen, "e2e5"), -4);
        // A queen behind a bishop: Bxe4 Nxe4 Qxe4, +3 - 3 + 3; without the queen, +3 - 3.
        let fen = "6k1/8/3n4/8/4b3/8/2B5/1Q4K1 w - - 0 1";
        assert_eq!(exchange("chess", fen, "c2e4"), 3);
        let fen = "6k1/8/3n4/8/4b3/8/2B5/6K1 w - - 0 1";
        assert_eq!(exchange("chess", fen, "c2e4"), 0);
    }

    #[test]
    fn a_king_takes_last_and_only_what_is_not_defended() {
        // Nxd5 Kxd5: the king takes the knight.
        let fen = "8/8/8/3pk3/8/2N5/8/4K3 w - - 0 1";
        assert_eq!(exchange("chess", fen, "c3d5"), 1 - 3);
        // The rook on d1 defends d5: the king may not take.
        let fen = "8/8/8/3pk3/8/2N5/8/3RK3 w - - 0 1";
        assert_eq!(exchange("chess", fen, "c3d5"), 1);
    }

    #[test]
    fn a_cannon_needs_its_hurdle_where_the_exchange_leaves_it() {
        // Xiangqi: Re4xe6 Re9xe6; the cannon on e2 had the chariot as its hurdle, gone once it
        // took, so it cannot take back: +1 - 9.
        let fen = "5k3/4r4/9/9/4p4/9/4R4/9/4C4/3K5 w - - 0 1";
        assert_eq!(exchange("xiangqi", fen, "e4e6"), -8);
        // With a horse on e3 as its hurdle, it takes back: +1 - 9 + 9.
        let fen = "5k3/4r4/9/9/4p4/9/4R4/4N4/4C4/3K5 w - - 0 1";
        assert_eq!(exchange("xiangqi", fen, "e4e6"), 1);
    }

    #[test]
    fn games_whose_captures_do_more_have_no_static_exchange() {
        assert!(Exchanges::of(&rules("chess")).is_some());
        assert!(Exchanges::of(&rules("atomic")).is_none());
        assert!(Exchanges::of(&rules("crazyhouse")).is_none());
        assert!(Exchanges::of(&rules("shogi")).is_none());
    }
}
