//! Positional terms of the evaluation, read from the game file: kept apart from the material
//! and the end rules' goals of [`super::eval`] because they are guesses about the play of a
//! game, not consequences of its rules, and each is judged by self-play (issue 29).
//!
//! - advance: a piece with a promotion rule is worth part of what its promotion would add
//!   (the best choice's value less its own), more the nearer it stands to its promotion zone:
//!   `gain * ADVANCE_PERCENT / 100 / 2^steps` for `steps` king steps to the nearest square of
//!   the zone (the square before the zone counts as one step). A chess pawn on the seventh rank
//!   is then worth 40 more, on the sixth 20 more; a shogi pawn next to the zone 25 more. The
//!   share was 20% until a fit of the evaluation against Stockfish's values (README, issue 29)
//!   showed it overrating pawns pushed in the middlegame.
//! - structure, for a promoting piece whose zone lies wholly on one side of the board's middle
//!   rank (that side is its forward): passed (no enemy piece of its type ahead of it on its file
//!   or the adjacent ones, so nothing of its kind can stop it by blocking or taking) it earns its
//!   advance bonus again ([`PASSED_PERCENT`]), and up to twice more as the enemy's force falls
//!   where the game has royal pieces ([`PASSED_ENDGAME_PERCENT`]), less [`BLOCKED_PERCENT`] of
//!   that share while an enemy piece stands on the square ahead of it on its file (it must
//!   leave before the piece can advance); two of a side on one file cost
//!   [`DOUBLED_PENALTY`] (the one behind is blocked by its own); one with none of its side on
//!   the adjacent files costs [`ISOLATED_PENALTY`] (no piece of its kind can guard it). A chess
//!   pawn's or a shogi pawn's structure; xiangqi's soldiers, which do not promote, have none.
//! - escort: where the game has royal pieces, a passed promoting piece within four steps of its
//!   zone gains per king step between it and the nearest enemy royal piece
//!   [`ESCORT_ENEMY`], and loses per step from its own nearest one [`ESCORT_OWN`] (each
//!   distance counted up to 5 steps), times `5 - steps` for `steps` to its zone, in proportion
//!   as the enemy's force falls (the king place's phase): in an endgame the kings decide
//!   whether a passed piece promotes, the enemy's by stopping it, its own by escorting it.
//! - king place: where a side has royal pieces, the enemy's non-royal force (its piece
//!   values, board and hand) decides where they belong: against a full force (four times the
//!   most valuable piece's value or more) each own piece on a royal piece's ring counts
//!   [`KING_SHELTER`] (it shields the king); against none, each king step from the board's centre
//!   costs [`KING_CENTER`] (with nothing to fear, the king is a fighting piece); in between,
//!   the two in proportion to the force.
//! - king danger: where a side has royal pieces, the squares a king step from them (their
//!   ring) attacked by enemy pieces, counted once per attacking piece (`units`), cost
//!   `KING_DANGER_WEIGHT * units²`, at most [`KING_DANGER_UNITS`] units: one piece eyeing the
//!   ring is little, several at once are an attack (the evaluation counts the attacks, as it
//!   walks every piece's control for mobility). The cost falls with the square of the enemy's
//!   force (its share of the full force, as the king place's phase): an attack needs pieces to
//!   follow it up, and without the strongest ones it is seldom more than checks. A chess
//!   attack costs 69% of its full price once the queens are off, 20% with two rooks and two
//!   minor pieces left. Fixed-node self-play measured it (README, issue 29).
//! - pair: a colour-bound piece type (every move of it, from every square of an empty board,
//!   keeps the square's colour: chess's bishop, an alfil, a ferz) that does not promote and is
//!   not royal earns [`PAIR_PERCENT`] of its value while its side has pieces of it on both
//!   colours: one alone leaves half the board out of its reach. A chess bishop pair is worth
//!   0.51 more. A fit against Stockfish's values (README, issue 29) gave the bishop pair about
//!   half a pawn beside this evaluation.
//!
//! All terms are in the hundredths of [`super::eval`] and are per side; they count only in
//! games where having more is the goal (not in antichess-like games).

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::position::Position;
use crate::rules::Rules;

/// The share, in percent, of a promotion's gain that a piece one step from its zone is worth;
/// each further step halves it.
pub const ADVANCE_PERCENT: i64 = 5;

/// The share, in percent, of a promoting piece's advance bonus that it earns again when it is
/// passed (no enemy piece of its type ahead of it on its file or the adjacent ones).
pub const PASSED_PERCENT: i64 = 100;
/// Where the game has royal pieces, the further share, in percent, that a passed piece earns as
/// the enemy's non-royal force falls: none against a full force, all of it against none, in
/// proportion between (the king place's phase). A chess pawn on the seventh rank, passed, is
/// then worth 80 more in the middlegame and 160 more against a bare king: with fewer pieces to
/// stop it, a passed pawn decides more endgames. Fixed-node self-play measured it (README,
/// issue 29).
pub const PASSED_ENDGAME_PERCENT: i64 = 200;
/// The share, in percent, of a passed piece's passed bonus that it loses while an enemy piece
/// stands on the square ahead of it on its file. Fixed-node self-play measured it (README,
/// issue 29).
pub const BLOCKED_PERCENT: i64 = 50;
/// Escort: per king step (up to [`ESCORT_REACH`]) between a passed piece and the nearest enemy
/// royal piece, per step of `5 - steps to the zone`, against no enemy force. A chess pawn on
/// the seventh rank with the enemy King five steps away and its own next to it gains
/// `4 × (5 × 10 - 1 × 4)` = 184 in a king and pawn endgame. Fixed-node self-play measured it
/// (README, issue 29).
pub const ESCORT_ENEMY: i64 = 10;
/// Escort: per king step (up to [`ESCORT_REACH`]) between a passed piece and its own nearest
/// royal piece, what it loses, as [`ESCORT_ENEMY`].
pub const ESCORT_OWN: i64 = 4;
/// Escort: the king steps counted at most, and one more than the steps to the zone within
/// which a passed piece counts.
pub const ESCORT_REACH: i64 = 5;
/// Two promoting pieces of one side and type on one file cost this (each pays half, rounded
/// down).
pub const DOUBLED_PENALTY: i64 = 15;
/// A promoting piece with none of its side and type on the adjacent files costs this.
pub const ISOLATED_PENALTY: i64 = 10;

/// King place: per own piece on a royal piece's ring, while the enemy keeps its full force.
pub const KING_SHELTER: i64 = 8;
/// King place: per king step between a royal piece and the centre, once the enemy has no force.
pub const KING_CENTER: i64 = 10;

/// King danger: per attack unit squared (an enemy piece attacking a square of the ring).
pub const KING_DANGER_WEIGHT: i64 = 4;
/// King danger counts at most this many attack units.
pub const KING_DANGER_UNITS: i64 = 16;

/// The share, in percent, of a colour-bound piece type's value that a side earns while it has
/// pieces of that type on both colours.
pub const PAIR_PERCENT: i64 = 17;

/// The positional terms of a game, with their per-square tables built once.
#[derive(Clone, Debug)]
pub struct Positional<B> {
    /// Per side, its promoting pieces.
    advances: Vec<Advance<B>>,
    /// The royal piece types (none: no king danger).
    royal: Vec<PieceId>,
    /// Per square index, the squares a king step away and the square itself.
    rings: Vec<B>,
    /// Per square index, the king steps to the board's centre.
    center: Vec<i64>,
    /// Per piece type (index), its value, 0 for a royal type: the force that threatens a king.
    force: Vec<i64>,
    /// The enemy force, in units of `value`, at and above which a king keeps to its shelter:
    /// four times the most valuable piece's value. Below it, centralisation takes over.
    full_force: i64,
    /// Per square index, its file and rank (the escort's king steps).
    coords: Vec<(i64, i64)>,
    /// The colour-bound piece types and what a side with pieces of one on both colours earns.
    pairs: Vec<(PieceId, i64)>,
    /// The board's light squares.
    light: B,
}

/// What a side's passed pieces are worth beyond their advance, where the game has royal
/// pieces: their share of it, and the royal pieces that escort or stop them.
#[derive(Clone, Copy, Debug)]
struct Passage<'a, B> {
    /// The share of its advance bonus, in percent, that a passed piece earns again.
    percent: i64,
    /// The royal pieces near and far, where the game has them and the enemy's force is known.
    kings: Option<Kings<B>>,
    /// Per square index, its file and rank.
    coords: &'a [(i64, i64)],
}

/// The royal pieces that escort a side's passed pieces or stop them, and how far the game is
/// from its endgame.
#[derive(Clone, Copy, Debug)]
struct Kings<B> {
    /// The side's own royal pieces.
    own: B,
    /// Its enemies' royal pieces.
    enemy: B,
    /// How much of the full force the enemy lacks: 0 against a full force, `full` against none.
    endgame: i64,
    /// The full force ([`Positional`]'s `full_force`, above 0).
    full: i64,
}

/// A side's promoting piece type: per square, its bonus for standing there.
#[derive(Clone, Debug)]
struct Advance<B> {
    side: SideId,
    piece: PieceId,
    /// Per square index, the bonus (0 far from the zone).
    bonus: Vec<i64>,
    /// Per square index, the king steps to the zone (at least 1).
    steps: Vec<i64>,
    /// Where the zone lies along the ranks (all of it ahead of the board's middle rank, or all
    /// of it behind): the structure of these pieces (passed, doubled, isolated).
    structure: Option<Structure<B>>,
}

/// The squares that make a promoting piece passed, doubled or isolated, per square index.
#[derive(Clone, Debug)]
struct Structure<B> {
    /// The squares ahead of it (towards its zone) on its file and the adjacent files.
    front: Vec<B>,
    /// Its file.
    file: Vec<B>,
    /// The adjacent files.
    adjacent: Vec<B>,
    /// The square one step ahead on its file (none on the last rank).
    ahead: Vec<B>,
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
        let (files, ranks) = (geometry.files as i64, geometry.ranks as i64);
        let center = (0..geometry.grid_size())
            .map(|index| {
                let (f, r) = geometry.coords(Sq::new(index));
                let (f, r) = (f as i64, r as i64);
                (2 * f - (files - 1)).abs().max((2 * r - (ranks - 1)).abs()) / 2
            })
            .collect();
        let royal = rules.royal().to_vec();
        let force: Vec<i64> = rules
            .piece_ids()
            .map(|p| {
                if royal.contains(&p) {
                    0
                } else {
                    i64::from(rules.definition().pieces[p.index()].value).max(0)
                }
            })
            .collect();
        let full_force = 4 * force.iter().copied().max().unwrap_or(0);
        let coords = (0..geometry.grid_size())
            .map(|index| {
                let (f, r) = geometry.coords(Sq::new(index));
                (f as i64, r as i64)
            })
            .collect();
        let pairs = rules
            .piece_ids()
            .filter(|p| !royal.contains(p) && !advances.iter().any(|a: &Advance<B>| a.piece == *p))
            .filter(|&p| colour_bound(rules, p))
            .map(|p| {
                let value = i64::from(rules.definition().pieces[p.index()].value).max(0);
                (p, value * scale * PAIR_PERCENT / 100)
            })
            .filter(|&(_, bonus)| bonus > 0)
            .collect();
        Positional {
            pairs,
            light: geometry.board & geometry.light,
            coords,
            advances,
            royal,
            rings,
            center,
            force,
            full_force,
        }
    }

    /// Whether the game has royal pieces, whose rings [`Positional::king_ring`] gives.
    pub fn has_kings(&self) -> bool {
        !self.royal.is_empty()
    }

    /// Every side's royal pieces on the board.
    fn royals(&self, position: &Position<B>) -> B {
        self.royal
            .iter()
            .fold(B::EMPTY, |all, &p| all | position.typed(p))
    }

    /// The squares a king step from `side`'s royal pieces on the board, and theirs.
    pub fn king_ring(&self, position: &Position<B>, side: SideId) -> B {
        let royals = self.royals(position) & position.side_pieces(side);
        royals
            .squares()
            .fold(B::EMPTY, |all, index| all | self.rings[index.index()])
    }

    /// The non-royal force of `side` (board and hand), in units of `value`.
    pub fn force(&self, position: &Position<B>, side: SideId) -> i64 {
        let own = position.side_pieces(side);
        (0..self.force.len())
            .map(PieceId::new)
            .map(|piece| {
                self.force_value(piece)
                    * (i64::from((own & position.typed(piece)).count())
                        + i64::from(position.hand(side, piece)))
            })
            .sum()
    }

    /// What one `piece` adds to its side's force: its value, 0 for a royal type.
    #[inline]
    pub fn force_value(&self, piece: PieceId) -> i64 {
        self.force[piece.index()]
    }

    /// Where `side`'s royal pieces stand, against an enemy `force` (units of `value`): own
    /// pieces on their ring count [`KING_SHELTER`] each while the enemy has its full force; the
    /// king steps to the centre cost [`KING_CENTER`] each when it has none; in between, the
    /// two in proportion.
    pub fn king_place(&self, position: &Position<B>, side: SideId, force: i64) -> i64 {
        if self.full_force <= 0 {
            return 0;
        }
        let own = position.side_pieces(side);
        let royals = self.royals(position) & own;
        let phase = force.clamp(0, self.full_force);
        royals
            .squares()
            .map(|index| {
                let shelter =
                    i64::from((self.rings[index.index()] & own & !royals).count()) * KING_SHELTER;
                let center = -self.center[index.index()] * KING_CENTER;
                (shelter * phase + center * (self.full_force - phase)) / self.full_force
            })
            .sum()
    }

    /// What `side`'s colour-bound pieces on both colours earn ([`PAIR_PERCENT`]).
    fn pair(&self, position: &Position<B>, side: SideId) -> i64 {
        let own = position.side_pieces(side);
        self.pairs
            .iter()
            .filter(|&&(piece, _)| {
                let on = position.typed(piece) & own;
                (on & self.light).any() && (on & !self.light).any()
            })
            .map(|&(_, bonus)| bonus)
            .sum()
    }

    /// What `units` attacks on a side's king ring cost it against an enemy non-royal `force`
    /// (units of `value`): the full price against the full force, in proportion to the square
    /// of the force's share below it.
    pub fn king_danger(&self, units: i64, force: i64) -> i64 {
        let units = units.min(KING_DANGER_UNITS);
        let price = KING_DANGER_WEIGHT * units * units;
        if self.full_force <= 0 {
            return price;
        }
        let phase = force.clamp(0, self.full_force);
        price * phase * phase / (self.full_force * self.full_force)
    }

    /// The positional total of `side`, against an enemy non-royal `force` where the game has
    /// royal pieces (None otherwise).
    pub fn term(&self, position: &Position<B>, side: SideId, enemy_force: Option<i64>) -> i64 {
        let mut passage = Passage {
            percent: PASSED_PERCENT,
            kings: None,
            coords: &self.coords,
        };
        if let Some(force) = enemy_force.filter(|_| self.full_force > 0) {
            let phase = force.clamp(0, self.full_force);
            let endgame = self.full_force - phase;
            passage.percent += PASSED_ENDGAME_PERCENT * endgame / self.full_force;
            let royals = self.royals(position);
            let own = position.side_pieces(side);
            let enemy = royals & !own;
            passage.kings = Some(Kings {
                own: royals & own,
                enemy,
                endgame,
                full: self.full_force,
            });
        }
        let advances: i64 = self
            .advances
            .iter()
            .filter(|advance| advance.side == side)
            .map(|advance| advance.term(position, &passage))
            .sum();
        advances + self.pair(position, side)
    }
}

/// Whether `piece` is colour-bound: it has a move, and every move of it, for every side, from
/// every square of an empty board (captures as if an enemy stood everywhere) lands on a square
/// of the colour it left.
fn colour_bound<B: Bitboard>(rules: &Rules<B>, piece: PieceId) -> bool {
    let geometry = rules.geometry();
    let light = geometry.board & geometry.light;
    let (mut moves_somewhere, mut keeps_colour) = (false, true);
    super::mobility::on_an_empty_board(rules, piece, |from, targets| {
        let colour = if light.has(from) {
            light
        } else {
            geometry.board & !light
        };
        keeps_colour &= (targets & !colour).is_empty();
        moves_somewhere |= targets.any();
    });
    moves_somewhere && keeps_colour
}

impl<B: Bitboard> Advance<B> {
    /// The advance and structure terms of the side's pieces of this type.
    fn term(&self, position: &Position<B>, passage: &Passage<'_, B>) -> i64 {
        let typed = position.typed(self.piece);
        let own = position.side_pieces(self.side) & typed;
        let Some(structure) = &self.structure else {
            return own.squares().map(|index| self.bonus[index.index()]).sum();
        };
        let enemies = position.occupied() & !position.side_pieces(self.side);
        let enemy = typed & enemies;
        own.squares()
            .map(|index| {
                let mut value = self.bonus[index.index()];
                if (structure.front[index.index()] & enemy).is_empty() {
                    let blocked = (structure.ahead[index.index()] & enemies).any();
                    let percent = if blocked {
                        passage.percent * (100 - BLOCKED_PERCENT) / 100
                    } else {
                        passage.percent
                    };
                    value += self.bonus[index.index()] * percent / 100;
                    value += self.escort(index, passage);
                }
                if (structure.file[index.index()] & own & !B::single(index)).any() {
                    // Each of two on a file pays half: one penalty per extra piece.
                    value -= DOUBLED_PENALTY / 2;
                }
                if (structure.adjacent[index.index()] & own).is_empty() {
                    value -= ISOLATED_PENALTY;
                }
                value
            })
            .sum()
    }

    /// What the royal pieces' distances to a passed piece on `index` make it worth
    /// ([`ESCORT_ENEMY`], [`ESCORT_OWN`]), in proportion as the enemy force falls.
    fn escort(&self, index: Sq, passage: &Passage<'_, B>) -> i64 {
        let steps = self.steps[index.index()];
        let Some(kings) = passage.kings else {
            return 0;
        };
        if steps >= ESCORT_REACH || kings.endgame == 0 {
            return 0;
        }
        let at = passage.coords[index.index()];
        let distance = |kings: B| -> i64 {
            kings
                .squares()
                .map(|k| {
                    let (f, r) = passage.coords[k.index()];
                    (f - at.0).abs().max((r - at.1).abs())
                })
                .min()
                .unwrap_or(ESCORT_REACH)
                .min(ESCORT_REACH)
        };
        let escort = ESCORT_ENEMY * distance(kings.enemy) - ESCORT_OWN * distance(kings.own);
        (ESCORT_REACH - steps) * escort * kings.endgame / kings.full
    }

    /// The advance table of `side`'s `piece`, if it promotes to something worth more.
    fn of(rules: &Rules<B>, side: SideId, piece: PieceId, scale: i64) -> Option<Self> {
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
        let steps: Vec<i64> = (0..geometry.grid_size())
            .map(|index| {
                let (file, rank) = geometry.coords(Sq::new(index));
                zone.iter()
                    .map(|&(f, r)| file.abs_diff(f).max(rank.abs_diff(r)))
                    .min()
                    .unwrap_or(usize::MAX)
                    .clamp(1, 64) as i64
            })
            .collect();
        let bonus = steps
            .iter()
            .map(|&steps| {
                if steps >= 16 {
                    0
                } else {
                    (gain * ADVANCE_PERCENT / 100) >> (steps - 1)
                }
            })
            .collect();
        let structure = Structure::of(rules, &zone);
        Some(Advance {
            side,
            piece,
            bonus,
            steps,
            structure,
        })
    }
}

impl<B: Bitboard> Structure<B> {
    /// The structure masks of a piece promoting on the squares `zone` (file, rank), if the
    /// zone lies wholly beyond the board's middle rank on one side: that side is forward.
    fn of(rules: &Rules<B>, zone: &[(usize, usize)]) -> Option<Self> {
        let geometry = rules.geometry();
        let ranks = geometry.ranks as i64;
        // Twice a rank, so that the middle of an even board is a whole number.
        let middle = ranks - 1;
        let forward: i64 = if zone.iter().all(|&(_, r)| 2 * r as i64 > middle) {
            1
        } else if zone.iter().all(|&(_, r)| (2 * r as i64) < middle) {
            -1
        } else {
            return None;
        };
        let squares = |keep: &dyn Fn(i64, i64) -> bool| -> B {
            (0..geometry.grid_size())
                .map(Sq::new)
                .filter(|&i| geometry.on_board(i))
                .filter(|&i| {
                    let (f, r) = geometry.coords(i);
                    keep(f as i64, r as i64)
                })
                .fold(B::EMPTY, |all, i| all | B::single(i))
        };
        let mut front = Vec::with_capacity(geometry.grid_size());
        let mut file = Vec::with_capacity(geometry.grid_size());
        let mut adjacent = Vec::with_capacity(geometry.grid_size());
        let mut ahead = Vec::with_capacity(geometry.grid_size());
        for index in 0..geometry.grid_size() {
            let (f0, r0) = geometry.coords(Sq::new(index));
            let (f0, r0) = (f0 as i64, r0 as i64);
            front.push(squares(&|f, r| {
                (f - f0).abs() <= 1 && (r - r0) * forward > 0
            }));
            file.push(squares(&|f, _| f == f0));
            adjacent.push(squares(&|f, _| (f - f0).abs() == 1));
            ahead.push(squares(&|f, r| f == f0 && r == r0 + forward));
        }
        Some(Structure {
            front,
            file,
            adjacent,
            ahead,
        })
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
        Positional::<B>::of(&rules, VALUE_SCALE).term(game.position(), SideId::new(0), None)
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
        // A pawn on the seventh rank is worth a fifth of the queen it would become, less a pawn;
        // alone, it is passed (that again) and isolated.
        let advance = 8 * VALUE_SCALE * ADVANCE_PERCENT / 100;
        assert_eq!(
            seventh,
            advance + advance * PASSED_PERCENT / 100 - ISOLATED_PENALTY
        );
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
        // Against the full force (four queens, 36; the start position's 39 is more) the full
        // price; against half of it a quarter; against none nothing.
        let cost = |units| positional.king_danger(units, 39);
        assert_eq!(cost(0), 0);
        assert!(cost(3) - cost(2) > cost(2) - cost(1));
        assert_eq!(cost(KING_DANGER_UNITS + 5), cost(KING_DANGER_UNITS));
        assert_eq!(cost(5), 25 * KING_DANGER_WEIGHT);
        assert_eq!(positional.king_danger(5, 18), 25 * KING_DANGER_WEIGHT / 4);
        assert_eq!(positional.king_danger(5, 0), 0);
    }

    #[test]
    fn bishops_on_both_colours_are_a_pair() {
        let on = |fen| first_side::<u64>("chess", fen);
        // c1 is dark, f1 light (counted by hand): a pair; c1 and e3 are both dark: none.
        let pair = on("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1");
        let same = on("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1");
        let one = on("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(same, one);
        assert_eq!(pair - one, 3 * VALUE_SCALE * PAIR_PERCENT / 100);
        // Of chess's pieces only the bishop is colour-bound (the pawn promotes and the king is
        // royal, but neither keeps its colour either).
        let session = game("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        let chess = super::super::typed::<u64>(session.as_ref()).expect("chess");
        let rules = chess.shared_rules();
        let bound: Vec<&str> = rules
            .piece_ids()
            .filter(|&p| colour_bound(&rules, p))
            .map(|p| rules.definition().pieces[p.index()].name.as_str())
            .collect();
        assert_eq!(bound, ["Bishop"]);
    }

    #[test]
    fn a_passed_pawn_is_worth_its_advance_again() {
        let on = |fen| first_side::<u64>("chess", fen);
        // White's e5 pawn, with Black's pawn on e7 in front of it, or on a7, far from it.
        let blocked = on("4k3/4p3/8/4P3/8/8/8/4K3 w - - 0 1");
        let passed = on("4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1");
        // Three steps from the eighth rank: a quarter of the bonus one step from it.
        let advance = (8 * VALUE_SCALE * ADVANCE_PERCENT / 100) >> 2;
        assert_eq!(passed - blocked, advance * PASSED_PERCENT / 100);
        // A pawn on the adjacent file ahead stops it as well; one behind it does not.
        assert_eq!(on("4k3/3p4/8/4P3/8/8/8/4K3 w - - 0 1"), blocked);
        assert_eq!(on("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1"), passed);
    }

    #[test]
    fn a_passed_pawn_is_worth_more_as_the_enemy_force_falls() {
        let session = game("chess", "4k3/p7/8/4P3/8/8/8/4K3 w - - 0 1");
        let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
        let rules = game.shared_rules();
        let positional = Positional::<u64>::of(&rules, VALUE_SCALE);
        let white = SideId::new(0);
        let against = |force| positional.term(game.position(), white, Some(force));
        // The full force is four queens; against it, the bonus without a phase.
        let full = 4 * 9;
        assert_eq!(against(full), positional.term(game.position(), white, None));
        assert_eq!(against(2 * full), against(full));
        // Against none, the passed e5 pawn earns PASSED_ENDGAME_PERCENT more of its advance,
        // and its escort (three steps from its zone; Black's King 3 steps away, White's 4);
        // halfway, half of each.
        let escort = (ESCORT_REACH - 3) * (ESCORT_ENEMY * 3 - ESCORT_OWN * 4);
        let advance = (8 * VALUE_SCALE * ADVANCE_PERCENT / 100) >> 2;
        assert_eq!(
            against(0) - against(full),
            advance * PASSED_ENDGAME_PERCENT / 100 + escort
        );
        assert_eq!(
            against(full / 2) - against(full),
            advance * PASSED_ENDGAME_PERCENT / 200 + escort / 2
        );
    }

    #[test]
    fn a_passed_pawn_blocked_by_an_enemy_piece_earns_less() {
        let on = |fen| first_side::<u64>("chess", fen);
        // A Black knight on e6, in front of White's passed e5 pawn, or beside it on d6.
        let blocked = on("4k3/8/4n3/4P3/8/8/8/4K3 w - - 0 1");
        let free = on("4k3/8/3n4/4P3/8/8/8/4K3 w - - 0 1");
        let advance = (8 * VALUE_SCALE * ADVANCE_PERCENT / 100) >> 2;
        let passed = advance * PASSED_PERCENT / 100;
        assert_eq!(
            free - blocked,
            passed - passed * (100 - BLOCKED_PERCENT) / 100
        );
        // Its own piece there is no block (its side moves it away when it wants).
        assert_eq!(on("4k3/8/4N3/4P3/8/8/8/4K3 w - - 0 1"), free);
    }

    #[test]
    fn in_the_endgame_the_kings_near_a_passed_pawn_count() {
        let against = |fen, force| {
            let session = game("chess", fen);
            let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
            let positional = Positional::<u64>::of(&game.shared_rules(), VALUE_SCALE);
            positional.term(game.position(), SideId::new(0), Some(force))
        };
        // White's e5 pawn, three steps from its zone (a weight of 5 - 3); its King on e1 (4
        // steps away) or on e4 (1 step); Black's King on a1 (4 steps away) or d5 (1 step).
        let far = "8/8/8/4P3/8/8/8/k3K3 w - - 0 1";
        let escorted = "8/8/8/4P3/4K3/8/8/k7 w - - 0 1";
        let stopped = "8/8/8/3kP3/8/8/8/4K3 w - - 0 1";
        assert_eq!(against(escorted, 0) - against(far, 0), 2 * ESCORT_OWN * 3);
        assert_eq!(against(far, 0) - against(stopped, 0), 2 * ESCORT_ENEMY * 3);
        // Against the full force (four queens) the kings do not count; at half of it, half.
        assert_eq!(against(escorted, 36), against(far, 36));
        assert_eq!(against(escorted, 18) - against(far, 18), ESCORT_OWN * 3);
        // A pawn five steps from its zone or more has no escort.
        let home = |king| format!("8/8/8/8/8/{king}/4P3/k7 w - - 0 1");
        assert_eq!(against(&home("4K3"), 0), against(&home("K7"), 0));
    }

    #[test]
    fn doubled_and_isolated_pawns_cost() {
        let on = |fen| first_side::<u64>("chess", fen);
        // e4 and e5: one file, no neighbour; d4 and e5: the same ranks, side by side.
        let doubled = on("4k3/8/8/4P3/4P3/8/8/4K3 w - - 0 1");
        let connected = on("4k3/8/8/4P3/3P4/8/8/4K3 w - - 0 1");
        // Each of the two pays half the doubled penalty (rounded down), and each is isolated.
        assert_eq!(
            connected - doubled,
            2 * (DOUBLED_PENALTY / 2) + 2 * ISOLATED_PENALTY
        );
    }

    #[test]
    fn a_king_keeps_its_shelter_against_a_full_force_and_centralises_against_none() {
        let place = |fen, force| {
            let session = game("chess", fen);
            let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
            let rules = game.shared_rules();
            Positional::<u64>::of(&rules, VALUE_SCALE).king_place(
                game.position(),
                SideId::new(0),
                force,
            )
        };
        // Chess's full force is four queens: 36.
        let sheltered = "4k3/8/8/8/8/8/5PPP/6K1 w - - 0 1";
        let bare = "4k3/8/8/8/8/8/PPP5/6K1 w - - 0 1";
        assert_eq!(place(sheltered, 36) - place(bare, 36), 3 * KING_SHELTER);
        // Against no force the same king on e4 (centre) stands better than on g1 (3 steps).
        let central = "4k3/8/8/8/4K3/8/PPP5/8 w - - 0 1";
        assert_eq!(place(central, 0) - place(bare, 0), 3 * KING_CENTER);
        // Half the force: half of each.
        assert_eq!(place(sheltered, 18) - place(bare, 18), 3 * KING_SHELTER / 2);
        // The force counts non-royal pieces only: the start position has 39 a side.
        let session = game(
            "chess",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        );
        let game = super::super::typed::<u64>(session.as_ref()).expect("chess");
        let positional = Positional::<u64>::of(&game.shared_rules(), VALUE_SCALE);
        assert_eq!(positional.force(game.position(), SideId::new(1)), 39);
    }

    #[test]
    fn a_shogi_pawn_is_worth_more_next_to_the_promotion_zone() {
        let on = |fen| first_side::<u128>("shogi", fen);
        let start = on("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1");
        let advanced = on("lnsgkgsnl/1r5b1/ppppppppp/P8/9/9/1PPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1");
        assert!(advanced > start, "{start} {advanced}");
    }
}
