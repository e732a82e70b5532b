//! Chases (`repetition ..., perpetual chase VERDICT`, §2.12): which enemy pieces an action
//! chased, read off the attack tables the way Fairy-Stockfish's AXF chasing rule
//! (`Position::chased`) reads them, in generic terms.
//!
//! An action of side M chases a piece of the side S to move next when one of M's pieces that
//! can chase (not royal, not `never chases`) newly attacks it (the piece that moved, on a line
//! other than the one it moved along if it rides or hops; any other piece, through a square the
//! action opened or filled), the piece can be chased there (not royal; `chased in`), and:
//! the attacker's `chase strength` is smaller than the piece's (a chase even when protected);
//! or, not being a piece of the attacker's type that attacks it back (mutual attacks are no
//! chase, unless the attacked piece is pinned), the piece has no protector: no piece of S that
//! is not pinned attacks its square once the attacker left its own. A pinned piece is one whose
//! removal would leave its side in check.
//!
//! Fairy-Stockfish also counts pieces whose protector became pinned by the action ("fake
//! roots"), captures a discovered check makes possible, and a piece protected by the general
//! alone where the flying general forbids the recapture; those are not judged here (the game
//! file states it).

use crate::bitboard::Bitboard;
use crate::core::attack::{attacked_by_moves, royals_attacked};
use crate::core::board::Board;
use crate::core::index::{PieceId, SideId};
use crate::core::moves::{Move, MoveKind};
use crate::core::position::Position;
use crate::core::tables::{ChaseTable, Tables};

/// A board seen with some pieces left out: `hidden`'s pieces are neither attackers nor
/// protectors (the occupancy an attack test reads is passed apart, so they may still block).
struct Without<'a, B: Bitboard> {
    board: &'a Position<B>,
    hidden: B,
}

impl<B: Bitboard> Board<B> for Without<'_, B> {
    fn side_pieces(&self, side: SideId) -> B {
        self.board.side_pieces(side) & !self.hidden
    }
    fn typed(&self, piece: PieceId) -> B {
        self.board.typed(piece) & !self.hidden
    }
    fn occupied(&self) -> B {
        self.board.occupied() & !self.hidden
    }
}

/// Whether the piece on `from` (of side `side`) attacks `target` with the board occupied as
/// `occupied`.
fn piece_attacks<B: Bitboard>(
    rules: &Tables<B>,
    board: &Position<B>,
    side: SideId,
    from: usize,
    target: usize,
    occupied: B,
) -> bool {
    let only = Without {
        board,
        hidden: board.side_pieces(side) & !B::single(from),
    };
    attacked_by_moves(&only, rules, target, side, occupied)
}

/// Whether `side`'s piece on `square` is pinned: without it, its side would be in check.
fn pinned<B: Bitboard>(
    rules: &Tables<B>,
    board: &Position<B>,
    side: SideId,
    square: usize,
) -> bool {
    let without = Without {
        board,
        hidden: B::single(square),
    };
    royals_attacked(&without, rules, side, |royal, occupied| {
        rules.side_ids().any(|other| {
            rules.is_enemy(side, other)
                && attacked_by_moves(&without, rules, royal, other, occupied)
        })
    })
}

/// Whether the piece type rides or hops (its attacks run along lines).
fn runs_along_lines<B: Bitboard>(rules: &Tables<B>, side: SideId, piece: PieceId) -> bool {
    let attacks = &rules.attacks[side];
    attacks
        .rides
        .iter()
        .any(|ride| ride.pieces.contains(&piece))
        || attacks.hops.iter().any(|hop| hop.pieces.contains(&piece))
}

/// Whether three squares lie on one rank, file or diagonal.
fn collinear<B: Bitboard>(rules: &Tables<B>, a: usize, b: usize, c: usize) -> bool {
    let (ax, ay) = rules.geometry.coords(a);
    let (bx, by) = rules.geometry.coords(b);
    let (cx, cy) = rules.geometry.coords(c);
    let (ax, ay, bx, by, cx, cy) = (
        ax as i64, ay as i64, bx as i64, by as i64, cx as i64, cy as i64,
    );
    let aligned = ax == bx || ay == by || (ax - bx).abs() == (ay - by).abs();
    aligned && (bx - ax) * (cy - ay) == (by - ay) * (cx - ax)
}

/// The squares of the enemy pieces that the action `mv` of the side to move in `before`
/// chased, `after` being the board it left (in a game of two sides: the enemy is the other
/// one). Only plain moves chase (a drop, a pass or castling chases nothing).
pub(crate) fn chased<B: Bitboard>(
    rules: &Tables<B>,
    before: &Position<B>,
    after: &Position<B>,
    mv: Move,
) -> Vec<usize> {
    let Some(table) = &rules.chase else {
        return Vec::new();
    };
    if !matches!(mv.kind, MoveKind::Normal | MoveKind::Promote(_)) {
        return Vec::new();
    }
    let mover = before.side_to_move(rules);
    let (from, to) = (mv.from.index(), mv.to.index());
    let Some(chased_side) = rules.side_ids().find(|&side| rules.is_enemy(mover, side)) else {
        return Vec::new();
    };
    let occupied = after.occupied();
    let occupied_before = before.occupied();
    let targets = after
        .side_pieces(chased_side)
        .squares()
        .filter(|&square| {
            after
                .at(square)
                .is_some_and(|occupant| table.chased_on[chased_side][occupant.piece].has(square))
        })
        .filter(|&square| attacked_by_moves(after, rules, square, mover, occupied))
        .collect::<Vec<_>>();
    if targets.is_empty() {
        return Vec::new();
    }
    let attackers: Vec<(usize, PieceId)> = after
        .side_pieces(mover)
        .squares()
        .filter_map(|square| after.at(square).map(|occupant| (square, occupant.piece)))
        .filter(|&(_, piece)| table.chases[piece])
        .collect();
    let mut pins: Option<B> = None;
    let mut pinned_at = |square: usize| {
        let pins = pins.get_or_insert_with(|| {
            after
                .side_pieces(chased_side)
                .squares()
                .filter(|&s| pinned(rules, after, chased_side, s))
                .fold(B::EMPTY, |acc, s| acc | B::single(s))
        });
        (*pins, pins.has(square))
    };
    let mut chased = Vec::new();
    for target in targets {
        let Some(victim) = after.at(target).map(|occupant| occupant.piece) else {
            continue;
        };
        let is_chased = attackers.iter().any(|&(square, piece)| {
            if !piece_attacks(rules, after, mover, square, target, occupied) {
                return false;
            }
            let new = if square == to {
                !(runs_along_lines(rules, mover, piece) && collinear(rules, from, to, target))
            } else {
                !piece_attacks(rules, after, mover, square, target, occupied_before)
            };
            new && chases(
                rules,
                table,
                after,
                chased_side,
                (square, piece),
                (target, victim),
                &mut pinned_at,
            )
        });
        if is_chased {
            chased.push(target);
        }
    }
    chased
}

/// Whether a new attack of the piece `attacker` (square, type) on the enemy `victim` is a
/// chase: a weaker attacker; else no mutual attack of two pieces of one type (unless the
/// victim is pinned) and no protector that is not pinned. `pinned_at` gives the pinned pieces
/// of the victim's side and whether the square holds one.
fn chases<B: Bitboard>(
    rules: &Tables<B>,
    table: &ChaseTable<B>,
    after: &Position<B>,
    chased_side: SideId,
    (square, piece): (usize, PieceId),
    (target, victim): (usize, PieceId),
    pinned_at: &mut impl FnMut(usize) -> (B, bool),
) -> bool {
    if let (Some(weaker), Some(stronger)) = (table.strength[piece], table.strength[victim]) {
        if weaker < stronger {
            return true;
        }
    }
    if victim == piece
        && !pinned_at(target).1
        && piece_attacks(rules, after, chased_side, target, square, after.occupied())
    {
        return false;
    }
    let (pins, _) = pinned_at(target);
    let protectors = Without {
        board: after,
        hidden: pins,
    };
    !attacked_by_moves(
        &protectors,
        rules,
        target,
        chased_side,
        after.occupied() & !B::single(square),
    )
}
