//! Per-piece safe mobility: how free each piece is to move, weighted by how much one more square
//! means to a piece of its kind (issue 29).
//!
//! A flat count of the squares a side controls says little about its pieces: a knight with two
//! squares is nearly trapped, a queen with two squares is merely hemmed in for a move. So each
//! non-royal piece counts the squares it controls that are neither occupied by its own side nor
//! attacked by an enemy piece worth less than it (a square a pawn guards is no square for a
//! knight: it would be lost there), and each square is worth [`MOBILITY_SCALE`] `/ √reach`
//! hundredths, `reach` being the average number of squares the piece type controls on an empty
//! board (read from its compiled movement). The tenth square of a knight (reach 5¼ in chess)
//! then counts about twice as much as the tenth of a queen (reach 22¾).
//!
//! Royal pieces count no mobility (their safety is [`super::positional`]'s king danger) and
//! do not make squares unsafe for others (a king's guard is no threat to a piece that is itself
//! guarded). Drops are not counted: a piece in hand is worth its material.
//!
//! The term is read at every leaf of a search, so it reuses the evaluation's one walk over every
//! piece's control and allocates nothing: a [`Tally`], kept by the caller between evaluations,
//! collects each counted piece's control and, per side and value rank, the union of its pieces'
//! control; the squares a cheaper enemy attacks are prefix unions of those ranks.

use crate::bitboard::Bitboard;
use crate::core::index::{BySide, PieceId, SideId, MAX_PIECE_TYPES};
use crate::core::tables::{targets_barred, Barred};
use crate::position::Position;
use crate::rules::Rules;

/// A piece that controls one square on average on an empty board earns this per safe square;
/// a piece of average reach `r`, `MOBILITY_SCALE / √r`.
pub const MOBILITY_SCALE: f64 = 24.0;

/// The per-square weights of a game's piece types, and their order by value.
#[derive(Clone, Debug)]
pub struct Mobility {
    /// Per piece type (index), the hundredths a safe square is worth (0: royal, or no reach).
    weight: Vec<i64>,
    /// Per piece type (index), how many non-royal piece types are worth less than it: its
    /// threshold in [`Mobility::order`].
    below: Vec<usize>,
    /// The non-royal piece types, by increasing value.
    order: Vec<PieceId>,
    /// Per piece type (index), its place in [`Mobility::order`] (none: royal).
    rank: Vec<Option<usize>>,
}

impl Mobility {
    /// The weights of the game of `rules`, from each piece type's reach on an empty board.
    pub fn of<B: Bitboard>(rules: &Rules<B>) -> Self {
        let pieces = &rules.definition().pieces;
        let royal = rules.royal();
        let value = |p: PieceId| pieces[p.index()].value;
        let weight = rules
            .piece_ids()
            .map(|piece| {
                if royal.contains(&piece) {
                    return 0;
                }
                let reach = reach(rules, piece);
                if reach <= 0.0 {
                    0
                } else {
                    (MOBILITY_SCALE / reach.sqrt()).round() as i64
                }
            })
            .collect();
        let mut order: Vec<PieceId> = rules.piece_ids().filter(|p| !royal.contains(p)).collect();
        order.sort_by_key(|&p| value(p));
        let below = rules
            .piece_ids()
            .map(|piece| order.iter().filter(|&&q| value(q) < value(piece)).count())
            .collect();
        let rank = rules
            .piece_ids()
            .map(|piece| order.iter().position(|&q| q == piece))
            .collect();
        Mobility {
            weight,
            below,
            order,
            rank,
        }
    }

    /// Whether any piece type counts mobility.
    pub fn counts(&self) -> bool {
        self.weight.iter().any(|&w| w > 0)
    }

    /// The hundredths one safe square of `piece` is worth.
    pub fn weight(&self, piece: PieceId) -> i64 {
        self.weight[piece.index()]
    }

    /// The non-royal piece types by increasing value.
    pub fn order(&self) -> &[PieceId] {
        &self.order
    }

    /// How many entries of [`Mobility::order`] are worth less than `piece`.
    pub fn below(&self, piece: PieceId) -> usize {
        self.below[piece.index()]
    }
}

/// The average number of squares a piece of type `piece` controls alone on an empty board,
/// over the board's squares and the sides (captures counted as if an enemy stood on every
/// square, so that a pawn's diagonal steps count).
pub fn reach<B: Bitboard>(rules: &Rules<B>, piece: PieceId) -> f64 {
    let geometry = rules.geometry();
    let squares: Vec<usize> = (0..geometry.grid_size())
        .filter(|&i| geometry.on_board(i))
        .collect();
    let everywhere = squares.iter().fold(B::EMPTY, |all, &i| all | B::single(i));
    let mut total = 0u64;
    let mut samples = 0u64;
    for side in rules.side_ids() {
        let moves = rules.moves_of(side, piece);
        for &from in &squares {
            let enemy = everywhere & !B::single(from);
            let targets =
                targets_barred(rules, moves, from, B::EMPTY, enemy, B::EMPTY, Barred::NONE);
            total += u64::from((targets & everywhere).count());
            samples += 1;
        }
    }
    if samples == 0 {
        0.0
    } else {
        total as f64 / samples as f64
    }
}

/// One evaluation's working room for safe mobility: filled during the evaluation's walk over
/// every piece's control ([`Tally::add`]), read once at its end ([`Tally::add_to`]). Kept by
/// the caller between evaluations, so that its piece list is allocated once.
#[derive(Clone, Debug)]
pub struct Tally<B> {
    /// The control of every piece that counts mobility, with its side and type, in the order
    /// of the walk.
    pieces: Vec<(SideId, PieceId, B)>,
    /// Per side and place in [`Mobility::order`], the union of its pieces' control.
    by_rank: BySide<[B; MAX_PIECE_TYPES]>,
}

impl<B: Bitboard> Default for Tally<B> {
    fn default() -> Self {
        Tally {
            pieces: Vec::new(),
            by_rank: BySide::splat([B::EMPTY; MAX_PIECE_TYPES]),
        }
    }
}

impl<B: Bitboard> Tally<B> {
    /// Empties the tally for a new evaluation of a game of `sides` sides.
    pub fn clear(&mut self, sides: usize) {
        self.pieces.clear();
        for s in crate::core::index::sides(sides) {
            self.by_rank[s] = [B::EMPTY; MAX_PIECE_TYPES];
        }
    }

    /// Records that `side`'s `piece` controls `squares`.
    #[inline]
    pub fn add(&mut self, mobility: &Mobility, side: SideId, piece: PieceId, squares: B) {
        if let Some(rank) = mobility.rank[piece.index()] {
            self.by_rank[side][rank] |= squares;
        }
        if mobility.weight[piece.index()] > 0 {
            self.pieces.push((side, piece, squares));
        }
    }

    /// Adds each side's safe mobility to `totals`: per counted piece, its weight per square it
    /// controls that holds no own piece and that no enemy piece worth less than it attacks.
    pub fn add_to(
        &self,
        rules: &Rules<B>,
        mobility: &Mobility,
        position: &Position<B>,
        totals: &mut BySide<i64>,
    ) {
        let ranks = mobility.order.len();
        let mut lower = BySide::splat([B::EMPTY; MAX_PIECE_TYPES + 1]);
        for s in rules.side_ids() {
            // `lower[s][k]`: the squares the `k` cheapest non-royal types of s's enemies attack.
            let mut acc = B::EMPTY;
            for rank in 0..ranks {
                for o in rules.side_ids().filter(|&o| rules.is_enemy(s, o)) {
                    acc |= self.by_rank[o][rank];
                }
                lower[s][rank + 1] = acc;
            }
        }
        for &(side, piece, squares) in &self.pieces {
            let safe = squares & !position.side_pieces(side) & !lower[side][mobility.below(piece)];
            totals[side] += mobility.weight(piece) * i64::from(safe.count());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(name: &str) -> std::sync::Arc<Rules<u64>> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../games/{name}.variant"));
        let loaded = variant_dsl::load_file(&path).expect("the game loads");
        let session = crate::session::open(&loaded.definition, None).expect("a position");
        super::super::typed::<u64>(session.as_ref())
            .expect("64 squares")
            .shared_rules()
    }

    fn piece(rules: &Rules<u64>, name: &str) -> PieceId {
        rules
            .piece_ids()
            .find(|p| rules.definition().pieces[p.index()].name == name)
            .expect("the piece exists")
    }

    #[test]
    fn reach_on_an_empty_board_is_read_from_the_movement() {
        let chess = rules("chess");
        // Independent: a knight on an empty 8x8 board has 336 moves over 64 squares, a rook 14
        // everywhere, a bishop 560 / 64, a queen 1456 / 64.
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(close(reach(&chess, piece(&chess, "Knight")), 336.0 / 64.0));
        assert!(close(reach(&chess, piece(&chess, "Rook")), 14.0));
        assert!(close(reach(&chess, piece(&chess, "Bishop")), 560.0 / 64.0));
        assert!(close(reach(&chess, piece(&chess, "Queen")), 1456.0 / 64.0));
        let mobility = Mobility::of(&chess);
        // The knight's square is worth more than the queen's; the royal king counts none.
        assert!(
            mobility.weight(piece(&chess, "Knight"))
                > 2 * mobility.weight(piece(&chess, "Queen")) - 2
        );
        assert!(mobility.weight(piece(&chess, "Knight")) > mobility.weight(piece(&chess, "Rook")));
        assert_eq!(mobility.weight(piece(&chess, "King")), 0);
        // Pawns are worth less than knights; bishops and knights are of one value.
        assert_eq!(mobility.below(piece(&chess, "Pawn")), 0);
        assert_eq!(mobility.below(piece(&chess, "Knight")), 1);
        assert_eq!(mobility.below(piece(&chess, "Bishop")), 1);
        assert_eq!(mobility.below(piece(&chess, "Queen")), 4);
    }
}
