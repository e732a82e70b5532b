//! Positional terms of the evaluation, read from the game file: kept apart from the material
//! and the end rules' goals of [`super::eval`] because they are guesses about the play of a
//! game, not consequences of its rules, and each is judged by self-play (issue 29).
//!
//! - advance: a piece with a promotion rule is worth part of what its promotion would add
//!   (the best choice's value less its own), more the nearer it stands to its promotion zone:
//!   `gain * ADVANCE_PERCENT / 100 / 2^steps` for `steps` king steps to the nearest square of
//!   the zone (the square before the zone counts as one step). A chess pawn on the seventh rank
//!   is then worth 80 more, on the sixth 40 more; a shogi pawn next to the zone 25 more.
//! - king danger: where a side has royal pieces, the squares a king step from them (their
//!   ring) attacked by enemy pieces, counted once per attacking piece (`units`), cost
//!   `KING_DANGER_WEIGHT * units²`, at most [`KING_DANGER_UNITS`] units: one piece eyeing the
//!   ring is little, several at once are an attack (the evaluation counts the attacks, as it
//!   walks every piece's control for mobility).
//!
//! All terms are in the hundredths of [`super::eval`] and are per side; they count only in
//! games where having more is the goal (not in antichess-like games).

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::position::Position;
use crate::rules::Rules;

/// The share, in percent, of a promotion's gain that a piece one step from its zone is worth;
/// each further step halves it.
pub const ADVANCE_PERCENT: i64 = 20;

/// King danger: per attack unit squared (an enemy piece attacking a square of the ring).
pub const KING_DANGER_WEIGHT: i64 = 2;
/// King danger counts at most this many attack units.
pub const KING_DANGER_UNITS: i64 = 16;

/// The positional terms of a game, with their per-square tables built once.
#[derive(Clone, Debug)]
pub struct Positional<B> {
    /// Per side, its promoting pieces.
    advances: Vec<Advance>,
    /// The royal piece types (none: no king danger).
    royal: Vec<PieceId>,
    /// Per square index, the squares a king step away and the square itself.
    rings: Vec<B>,
}

/// A side's promoting piece type: per square, its bonus for standing there.
#[derive(Clone, Debug)]
struct Advance {
    side: SideId,
    piece: PieceId,
    /// Per square index, the bonus (0 far from the zone).
    bonus: Vec<i64>,
}

impl<B: Bitboard> Positional<B> {
    /// The terms of the game of `rules`, in `scale` per unit of a piece's `value` (the
    /// evaluation's hundredths: it passes its `VALUE_SCALE`, so that this module does not
    /// import the evaluation it serves).
    pub fn of(rules: &Rules<B>, scale: i64) -> Self {
        let mut advances = Vec::new();
        for side in rules.side_ids() {
            for piece in rules.piece_ids() {
                if let Some(advance) = Advance::of(rules, side, piece, scale) {
                    advances.push(advance);
                }
            }
        }
        let geometry = rules.geometry();
        let rings = (0..geometry.grid_size())
            .map(|index| {
                let mut ring = B::EMPTY;
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        if let Some(to) = geometry.step(Sq::new(index), dx, dy) {
                            ring |= B::single(to);
                        }
                    }
                }
                ring
            })
            .collect();
        Positional {
            advances,
            royal: rules.royal().to_vec(),
            rings,
        }
    }

    /// Whether the game has royal pieces, whose rings [`Positional::king_ring`] gives.
    pub fn has_kings(&self) -> bool {
        !self.royal.is_empty()
    }

    /// The squares a king step from `side`'s royal pieces on the board, and theirs.
    pub fn king_ring(&self, position: &Position<B>, side: SideId) -> B {
        let own = position.side_pieces(side);
        let royals = self
            .royal
            .iter()
            .fold(B::EMPTY, |all, &p| all | (own & position.typed(p)));
        royals
            .squares()
            .fold(B::EMPTY, |all, index| all | self.rings[index.index()])
    }

    /// What `units` attacks on a side's king ring cost it.
    pub fn king_danger(units: i64) -> i64 {
        let units = units.min(KING_DANGER_UNITS);
        KING_DANGER_WEIGHT * units * units
    }

    /// The positional total of `side`.
    pub fn term(&self, position: &Position<B>, side: SideId) -> i64 {
        self.advances
            .iter()
            .filter(|advance| advance.side == side)
            .map(|advance| {
                (position.side_pieces(side) & position.typed(advance.piece))
                    .squares()
                    .map(|index| advance.bonus[index.index()])
                    .sum::<i64>()
            })
            .sum()
    }
}

impl Advance {
    /// The advance table of `side`'s `piece`, if it promotes to something worth more.
    fn of<B: Bitboard>(rules: &Rules<B>, side: SideId, piece: PieceId, scale: i64) -> Option<Self> {
        let pieces = &rules.definition().pieces;
        let movement = rules.moves_of(side, piece);
        let promotion = movement.promotion.as_ref()?;
        let best = promotion
            .choices
            .iter()
            .map(|choice| i64::from(pieces[choice.index()].value))
            .max()?;
        let gain = (best - i64::from(pieces[piece.index()].value)) * scale;
        if gain <= 0 || promotion.zone.is_empty() {
            return None;
        }
        let geometry = rules.geometry();
        let zone: Vec<(usize, usize)> = promotion
            .zone
            .squares()
            .map(|i| geometry.coords(i))
            .collect();
        let bonus = (0..geometry.grid_size())
            .map(|index| {
                let (file, rank) = geometry.coords(Sq::new(index));
                let steps = zone
                    .iter()
                    .map(|&(f, r)| file.abs_diff(f).max(rank.abs_diff(r)))
                    .min()
                    .unwrap_or(usize::MAX)
                    .max(1);
                if steps >= 16 {
                    0
                } else {
                    (gain * ADVANCE_PERCENT / 100) >> (steps - 1)
                }
            })
            .collect();
        Some(Advance { side, piece, bonus })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::ai::eval::VALUE_SCALE;
    use crate::session::Session;

    fn game(name: &str, fen: &str) -> Box<dyn Session> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../games/{name}.variant"));
        let loaded = variant_dsl::load_file(&path).expect("the game loads");
        crate::session::open(&loaded.definition, Some(fen)).expect("a position")
    }

    /// The positional total of the first side in `fen`.
    fn first_side<B: Bitboard>(name: &str, fen: &str) -> i64 {
        let session = game(name, fen);
        let game = super::super::typed::<B>(session.as_ref()).expect("the board fits");
        let rules = game.shared_rules();
        Positional::<B>::of(&rules, VALUE_SCALE).term(game.position(), SideId::new(0))
    }

    #[test]
    fn a_chess_pawn_is_worth_more_the_nearer_it_stands_to_promotion() {
        let on = |fen| first_side::<u64>("chess", fen);
        let second = on("4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let sixth = on("4k3/8/P7/8/8/8/8/4K3 w - - 0 1");
        let seventh = on("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(
            seventh > sixth && sixth > second,
            "{second} {sixth} {seventh}"
        );
        // A pawn on the seventh rank is worth a fifth of the queen it would become, less a pawn.
        assert_eq!(seventh, 8 * VALUE_SCALE * ADVANCE_PERCENT / 100);
        // No promoting piece, no term.
        assert_eq!(on("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
    }

    #[test]
    fn the_king_ring_is_the_kings_square_and_its_king_steps() {
        let session = game("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
        let rules = game.shared_rules();
        let positional = Positional::<u64>::of(&rules, VALUE_SCALE);
        assert!(positional.has_kings());
        let geometry = rules.geometry();
        let named = |names: &[&str]| -> u64 {
            let squares: Vec<variant_dsl::Square> = names
                .iter()
                .map(|n| variant_dsl::Square::parse(n).expect("a square"))
                .collect();
            geometry.mask(&squares)
        };
        // White's king on e1 (the edge cuts its ring); Black's on e8; the rook has none.
        let white = positional.king_ring(game.position(), SideId::new(0));
        assert_eq!(white, named(&["d1", "e1", "f1", "d2", "e2", "f2"]));
        let black = positional.king_ring(game.position(), SideId::new(1));
        assert_eq!(black, named(&["d8", "e8", "f8", "d7", "e7", "f7"]));
        // No attack costs nothing; each further attack costs more than the last, up to a cap.
        let cost = Positional::<u64>::king_danger;
        assert_eq!(cost(0), 0);
        assert!(cost(3) - cost(2) > cost(2) - cost(1));
        assert_eq!(cost(KING_DANGER_UNITS + 5), cost(KING_DANGER_UNITS));
    }

    #[test]
    fn a_shogi_pawn_is_worth_more_next_to_the_promotion_zone() {
        let on = |fen| first_side::<u128>("shogi", fen);
        let start = on("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1");
        let advanced = on("lnsgkgsnl/1r5b1/ppppppppp/P8/9/9/1PPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1");
        assert!(advanced > start, "{start} {advanced}");
    }
}
