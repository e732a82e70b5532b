//! Control: the squares a piece attacks, as placement games and scores count them.
//!
//! A piece controls every square it could move or capture to right now, ignoring check: lines
//! stop at the first piece (an enemy's square included, an own square excluded), leapers lose
//! own-occupied targets, move-only steps need an empty square, capture-only steps an enemy
//! piece. With `en-passant standing`, an `e` capture also controls the square passed by an enemy
//! piece standing where its initial lame move lands, if that square is empty. Hops control the
//! squares they land on; a piece's routes that convert nothing, theirs.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::tables::{targets_barred, Barred, PieceMoves, Tables};
use crate::position::Position;

/// The squares one piece of `side` on `from` controls.
pub fn piece_control<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    side: SideId,
    piece: PieceId,
    from: Sq,
) -> B {
    Board::of(rules, position, side).control_by(
        rules,
        position,
        side,
        rules.moves_of(side, piece),
        from,
    )
}

/// What every piece of one side sees of the board: computed once for all its pieces.
struct Board<B> {
    own: B,
    enemy: B,
    occupied: B,
}

impl<B: Bitboard> Board<B> {
    #[inline]
    fn of(rules: &Tables<B>, position: &Position<B>, side: SideId) -> Self {
        let own = position.friends(rules, side);
        let occupied = position.occupied();
        Board {
            own,
            enemy: occupied & !own,
            occupied,
        }
    }

    /// The squares one piece that moves by `moves` controls (the moves looked up once per
    /// piece type).
    #[inline]
    fn control_by(
        &self,
        rules: &Tables<B>,
        position: &Position<B>,
        side: SideId,
        moves: &PieceMoves<B>,
        from: Sq,
    ) -> B {
        let barred = Barred::of(moves, |piece| position.typed(piece));
        let mut control = targets_barred(
            rules,
            moves,
            from,
            self.own,
            self.enemy,
            self.occupied,
            barred,
        );
        if moves.route_attacks {
            control |= route_control(rules, position, side, moves, from);
        }
        if moves.takes_en_passant && rules.definition.control.en_passant_standing {
            control |= standing_en_passant(rules, position, side, moves, from, self.occupied);
        }
        control
    }
}

/// The landing squares of a piece's routes that convert nothing (compound moves that move or
/// capture like any other).
#[cold]
fn route_control<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    side: SideId,
    moves: &PieceMoves<B>,
    from: Sq,
) -> B {
    let mut control = B::EMPTY;
    crate::core::route::walk(rules, position, side, from, moves, &mut |mv| {
        if mv.converts.is_none() {
            control |= B::single(mv.to);
        }
    });
    control
}

/// The squares an `e` capture controls beside its ordinary ones (`en-passant standing`).
fn standing_en_passant<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    side: SideId,
    moves: &crate::core::tables::PieceMoves<B>,
    from: Sq,
    occupied: B,
) -> B {
    let mut control = B::EMPTY;
    for passed in (moves.en_passant[from] & !occupied).squares() {
        let standing = rules
            .side_ids()
            .filter(|&s| rules.is_enemy(side, s))
            .any(|victim_side| {
                rules.standing_en_passant[victim_side][passed]
                    .iter()
                    .any(|&(landing, piece)| {
                        position
                            .at(landing)
                            .is_some_and(|o| o.side == victim_side && o.piece == piece)
                    })
            });
        if standing {
            control |= B::single(passed);
        }
    }
    control
}

/// Per piece of `side` on the board: (square, piece type, controlled squares).
pub fn controls<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    side: SideId,
) -> Vec<(Sq, PieceId, B)> {
    let mut all = Vec::with_capacity(position.side_pieces(side).count() as usize);
    each_control(rules, position, side, |from, piece, control| {
        all.push((from, piece, control))
    });
    all
}

/// [`controls`] without the list: `visit(square, piece type, controlled squares)` per piece of
/// `side` on the board (a score sums them at every game's end).
#[inline]
pub fn each_control<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    side: SideId,
    mut visit: impl FnMut(Sq, PieceId, B),
) {
    let own = position.side_pieces(side);
    let board = Board::of(rules, position, side);
    for piece in rules.piece_ids() {
        let moves = rules.moves_of(side, piece);
        for from in (own & position.typed(piece)).squares() {
            visit(
                from,
                piece,
                board.control_by(rules, position, side, moves, from),
            );
        }
    }
}

/// Every square `side` controls.
pub fn side_control<B: Bitboard>(rules: &Tables<B>, position: &Position<B>, side: SideId) -> B {
    let mut all = B::EMPTY;
    each_control(rules, position, side, |_, _, control| all |= control);
    all
}

/// Every square controlled by some side other than `side`.
pub fn opponents_control<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    side: SideId,
) -> B {
    rules
        .side_ids()
        .filter(|&s| rules.is_enemy(side, s))
        .fold(B::EMPTY, |acc, s| acc | side_control(rules, position, s))
}
