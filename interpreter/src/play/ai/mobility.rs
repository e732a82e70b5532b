//! Per-piece safe mobility: how free each piece is to move, weighted by how much one more square
//! means to a piece of its kind (issue 29).
//!
//! A flat count of the squares a side controls says little about its pieces: a knight with two
//! squares is nearly trapped, a queen with two squares is merely hemmed in for a move. So each
//! non-royal piece counts the squares it controls that are neither occupied by its own side nor
//! controlled by an enemy piece worth less than it (a square a cheaper piece takes on is no
//! square for a knight: it would be lost there), and each square is worth [`MOBILITY_SCALE`] `/ √reach`
//! hundredths, `reach` being the average number of squares the piece type controls on an empty
//! board (read from its compiled movement). The tenth square of a knight (reach 5¼ in chess)
//! then counts about twice as much as the tenth of a queen (reach 22¾). Control is
//! [`crate::core::control`]'s, as placement games count it: a chess pawn controls the square
//! it may push to and the enemy pieces it may take, not the empty squares diagonally ahead of
//! it, so an empty square a pawn guards counts as safe here. Counting a pawn's threats instead
//! was measured and not kept (README, issue 29).
//!
//! A piece with at most one safe square is trapped: it costs [`TRAPPED_PENALTY`] besides its
//! few squares (unless it promotes: a pawn's control is its push and its captures, a square or
//! two by nature). Where every move but one loses it, the piece is often lost a few moves later,
//! further than the search's quiescence sees; a linear count of squares cannot say that the
//! first two squares matter most. A fit against Stockfish's values (README, issue 29) gave a
//! chess piece with one safe square or none -0.15 pawn of Stockfish's beside this evaluation.
//!
//! Royal pieces count no mobility (their safety is [`super::positional`]'s king danger) and
//! do not make squares unsafe for others (a king's guard is no threat to a piece that is itself
//! guarded). Drops are not counted: a piece in hand is worth its material.
//!
//! The term is read at every leaf of a search, so it reuses the evaluation's one walk over every
//! piece's control and allocates nothing: a [`Tally`], kept by the caller between evaluations,
//! counts per side and piece type how many of its pieces control each square; the squares a
//! cheaper enemy attacks are prefix unions of the enemy types' control, by value.

use crate::bitboard::Bitboard;
use crate::core::index::{BySide, PieceId, SideId, Sq, MAX_PIECE_TYPES};
use crate::core::tables::{targets_barred, Barred};
use crate::position::Position;
use crate::rules::Rules;

/// A piece that controls one square on average on an empty board earns this per safe square;
/// a piece of average reach `r`, `MOBILITY_SCALE / √r`.
pub const MOBILITY_SCALE: f64 = 24.0;

/// What a counted piece that does not promote costs with at most one safe square (hundredths
/// of a unit of value).
pub const TRAPPED_PENALTY: i64 = 20;

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
    /// Per piece type (index), whether a piece of it may be trapped: it counts mobility and
    /// promotes for no side.
    trappable: Vec<bool>,
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
            .collect::<Vec<i64>>();
        let trappable = rules
            .piece_ids()
            .map(|piece| {
                weight[piece.index()] > 0
                    && rules
                        .side_ids()
                        .all(|side| rules.moves_of(side, piece).promotion.is_none())
            })
            .collect();
        let mut order: Vec<PieceId> = rules.piece_ids().filter(|p| !royal.contains(p)).collect();
        order.sort_by_key(|&p| value(p));
        let below = rules
            .piece_ids()
            .map(|piece| order.iter().filter(|&&q| value(q) < value(piece)).count())
            .collect();
        Mobility {
            weight,
            below,
            order,
            trappable,
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

    /// Whether a piece of type `piece` may be trapped ([`TRAPPED_PENALTY`]).
    pub fn trappable(&self, piece: PieceId) -> bool {
        self.trappable[piece.index()]
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
    let mut total = 0u64;
    let mut samples = 0u64;
    on_an_empty_board(rules, piece, |_, targets| {
        total += u64::from(targets.count());
        samples += 1;
    });
    if samples == 0 {
        0.0
    } else {
        total as f64 / samples as f64
    }
}

/// `visit(from, targets)` for each side and each square of the board: the squares a piece of
/// type `piece` alone on an empty board reaches from there (captures counted as if an enemy
/// stood on every other square). What [`reach`] averages, and what tells a colour-bound piece.
pub fn on_an_empty_board<B: Bitboard>(
    rules: &Rules<B>,
    piece: PieceId,
    mut visit: impl FnMut(Sq, B),
) {
    let geometry = rules.geometry();
    let board = geometry.board;
    for side in rules.side_ids() {
        let moves = rules.moves_of(side, piece);
        for from in board.squares() {
            let enemy = board & !B::single(from);
            let targets =
                targets_barred(rules, moves, from, B::EMPTY, enemy, B::EMPTY, Barred::NONE);
            visit(from, targets & board);
        }
    }
}

/// How many bit planes count, per square, the pieces of one side and type that control it:
/// up to 255, more than the widest board has other squares.
const PLANES: usize = 8;

/// One evaluation's working room for safe mobility: filled during the evaluation's walk over
/// every piece's control ([`Tally::add`]), read once at its end ([`Tally::add_to`]).
///
/// A piece's safe squares are its control less a set that depends only on its side and type,
/// so the pieces of one side and type need not be kept apart: per side and type, bit planes
/// count how many of them control each square (plane `k` holds bit `k` of the count, added
/// as a ripple-carry counter), and the sum over those pieces of their safe squares is
/// `Σ 2^k · |plane k ∩ safe|`. The union of their control is the union of the planes. Nothing
/// is allocated per evaluation, and a side's eight pawns cost two or three counts, not eight.
/// The pieces that may be trapped are kept one by one besides (their control, in a vector
/// that keeps its room between evaluations): whether one is trapped needs its own squares.
#[derive(Clone, Debug)]
pub struct Tally<B> {
    /// Per side and piece type (index), the planes of its control's count.
    planes: BySide<[[B; PLANES]; MAX_PIECE_TYPES]>,
    /// Each piece that may be trapped: its side, type and control.
    trappable: Vec<(SideId, PieceId, B)>,
}

impl<B: Bitboard> Default for Tally<B> {
    fn default() -> Self {
        Tally {
            planes: BySide::splat([[B::EMPTY; PLANES]; MAX_PIECE_TYPES]),
            trappable: Vec::new(),
        }
    }
}

impl<B: Bitboard> Tally<B> {
    /// Empties the tally for a new evaluation of a game of `sides` sides and `types` piece types.
    pub fn clear(&mut self, sides: usize, types: usize) {
        self.trappable.clear();
        for s in crate::core::index::sides(sides) {
            for planes in &mut self.planes[s][..types] {
                *planes = [B::EMPTY; PLANES];
            }
        }
    }

    /// Records that one of `side`'s `piece`s controls `squares`.
    #[inline]
    pub fn add(&mut self, mobility: &Mobility, side: SideId, piece: PieceId, squares: B) {
        if mobility.trappable(piece) {
            self.trappable.push((side, piece, squares));
        }
        let mut carry = squares;
        for plane in &mut self.planes[side][piece.index()] {
            let next = *plane & carry;
            *plane ^= carry;
            carry = next;
            if carry.is_empty() {
                break;
            }
        }
    }

    /// The squares some piece of `side`'s type `piece` controls.
    fn union(&self, side: SideId, piece: PieceId) -> B {
        self.planes[side][piece.index()]
            .iter()
            .fold(B::EMPTY, |all, &plane| all | plane)
    }

    /// Adds each side's safe mobility to `totals`: per counted piece, its weight per square it
    /// controls that holds no own piece and that no enemy piece worth less than it attacks,
    /// less [`TRAPPED_PENALTY`] for each that may be trapped and has one such square or none.
    pub fn add_to(
        &self,
        rules: &Rules<B>,
        mobility: &Mobility,
        position: &Position<B>,
        totals: &mut BySide<i64>,
    ) {
        let ranks = mobility.order.len();
        // Per side and place in `order`, the union of its pieces' control.
        let mut by_rank = BySide::splat([B::EMPTY; MAX_PIECE_TYPES]);
        for s in rules.side_ids() {
            for (rank, &piece) in mobility.order.iter().enumerate() {
                by_rank[s][rank] = self.union(s, piece);
            }
        }
        for s in rules.side_ids() {
            // `lower[k]`: the squares the `k` cheapest non-royal types of s's enemies attack.
            let mut lower = [B::EMPTY; MAX_PIECE_TYPES + 1];
            let mut acc = B::EMPTY;
            for rank in 0..ranks {
                for o in rules.side_ids().filter(|&o| rules.is_enemy(s, o)) {
                    acc |= by_rank[o][rank];
                }
                lower[rank + 1] = acc;
            }
            let own = position.side_pieces(s);
            for &piece in &mobility.order {
                let weight = mobility.weight(piece);
                if weight == 0 {
                    continue;
                }
                let unsafe_ = own | lower[mobility.below(piece)];
                let mut squares = 0i64;
                for (k, &plane) in self.planes[s][piece.index()].iter().enumerate() {
                    if plane.is_empty() {
                        // Two equal controls leave plane 0 empty and plane 1 full.
                        continue;
                    }
                    squares += i64::from((plane & !unsafe_).count()) << k;
                }
                totals[s] += weight * squares;
            }
            for &(side, piece, control) in &self.trappable {
                if side == s && (control & !(own | lower[mobility.below(piece)])).count() <= 1 {
                    totals[s] -= TRAPPED_PENALTY;
                }
            }
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

    /// White's mobility total in `fen` (chess), counted as the evaluation counts it.
    fn white_mobility(fen: &str) -> i64 {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chess.variant");
        let loaded = variant_dsl::load_file(&path).expect("the game loads");
        let session = crate::session::open(&loaded.definition, Some(fen)).expect("a position");
        let game = super::super::typed::<u64>(session.as_ref()).expect("64 squares");
        let rules = game.shared_rules();
        let mobility = Mobility::of(&rules);
        let mut tally = Tally::default();
        tally.clear(rules.sides(), rules.pieces());
        for side in rules.side_ids() {
            crate::core::control::each_control(
                &rules,
                game.position(),
                side,
                |_, piece, squares| tally.add(&mobility, side, piece, squares),
            );
        }
        let mut totals = BySide::splat(0);
        tally.add_to(&rules, &mobility, game.position(), &mut totals);
        totals[SideId::new(0)]
    }

    #[test]
    fn a_piece_with_one_safe_square_or_none_is_trapped() {
        let chess = rules("chess");
        let mobility = Mobility::of(&chess);
        let knight = mobility.weight(piece(&chess, "Knight"));
        let pawn = mobility.weight(piece(&chess, "Pawn"));
        // The knight on a1 reaches b3 and c2 (counted by hand). Both free: not trapped.
        assert_eq!(white_mobility("4k3/8/8/8/8/8/8/N3K3 w - - 0 1"), 2 * knight);
        // A white rook on b3 takes one: the knight is left c2 and is trapped. The rook has
        // 7 squares on its file and 7 on its rank.
        let rook = mobility.weight(piece(&chess, "Rook"));
        assert_eq!(
            white_mobility("4k3/8/8/8/8/1R6/8/N3K3 w - - 0 1"),
            knight - TRAPPED_PENALTY + 14 * rook
        );
        // Another on c2 (7 and 7 as well) takes the last one.
        assert_eq!(
            white_mobility("4k3/8/8/8/8/1R6/2R5/N3K3 w - - 0 1"),
            -TRAPPED_PENALTY + 28 * rook
        );
        // A pawn with one square (its push from a3) is not trapped: it promotes.
        assert_eq!(white_mobility("4k3/8/8/8/8/P7/8/4K3 w - - 0 1"), pawn);
        assert!(!mobility.trappable(piece(&chess, "Pawn")));
        assert!(!mobility.trappable(piece(&chess, "King")));
        assert!(mobility.trappable(piece(&chess, "Queen")));
    }
}
