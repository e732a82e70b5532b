//! Legality without playing every move, where the rules let it be exact.
//!
//! Playing a move on a copy and asking whether the king is attacked settles any game, but costs
//! a copy and an attack test per move. Chess engines settle most moves from facts found once
//! per position instead; this module holds the generic forms of those facts that the plain
//! pin shortcut ([`crate::core::movegen`]) does not cover:
//!
//! - **Explosions** ([`explosion_shield`]): where every capture removes the capturer and every
//!   royal piece around the capture square (atomic chess's `remove capturer`, `remove around`
//!   sparing no royal type), a capture next to one's own royal piece destroys it, so a royal
//!   piece standing next to an enemy royal piece cannot be taken: it is never in check. With
//!   one royal piece per side, check is then "not touching the enemy royal piece, and
//!   attacked" ([`shielded_check`]), a non-capture of a piece that is neither royal nor pinned
//!   is legal exactly as in chess, and a royal step is legal where it touches the enemy royal
//!   piece or lands unattacked. Only captures (and every move in check) are still played.
//! - **Giving check** ([`CheckGivers`]): a move rule judged after the move that asks whether an
//!   opponent is in check (racing kings' `must not give check`) is answered from the squares
//!   each piece type attacks the enemy royal pieces from and the lines a move would open,
//!   instead of playing each move.
//!
//! - **Screens** ([`screens`]): where hoppers or lame leapers attack (no pin describes a
//!   cannon's screen or a horse's leg), a move of a piece that is not royal, while its one
//!   royal piece is not in check, can open an attack on it only through a square on the lines
//!   and legs that lead to that piece: the screen squares, found once per position. A move
//!   from elsewhere to elsewhere is legal at once; the rest are tested on the board they
//!   leave ([`crate::core::attack::opens_attack`]), as every move was before (xiangqi's and
//!   janggi's perft, issue 27).
//!
//! Each shortcut is decided at compile time from the rules (never from a game's name) and
//! checked again per position where it needs a count of royal pieces; anything outside its
//! preconditions goes the slow way.

use crate::bitboard::Bitboard;
use crate::core::index::{SideId, Sq};
use crate::core::position::Position;
use crate::core::tables::Tables;
use variant_dsl::MoveMode;

/// Whether captures are explosions that shield touching royal pieces, and nothing else in the
/// game keeps [`shielded_check`] from being exact: two sides without teams, neutral or
/// uncapturable pieces; check by one royal piece (not `when all royal pieces attacked`); no
/// attack a move could open but a rider's (no capturing lame leaps, hoppers or routes); no
/// piece barred from capturing a type; and royal pieces that attack only the squares around
/// them (a royal attacker is removed by its own capture, so it never gives check, and must not
/// reach the enemy royal piece from afar where the plain attack test would count it).
pub(crate) fn explosion_shield<B: Bitboard>(tables: &Tables<B>) -> bool {
    let definition = &tables.definition;
    let capture = &definition.capture;
    let spares_no_royal = capture
        .remove_around_except
        .as_ref()
        .is_some_and(|except| except.iter().all(|piece| !tables.royal.contains(piece)));
    let rules_fit = capture.remove_capturer
        && spares_no_royal
        && tables.sides == 2
        && tables.plain_sides
        && definition.end.check
        && !definition.end.check_all_royals;
    rules_fit
        && attacks_are_pins_and_leaps(tables)
        && tables
            .movement
            .iter()
            .all(|moves| moves.no_capture.is_empty())
        && royals_attack_around(tables)
}

/// No capturing lame leap, hopper or route: what the pin shortcut needs too.
fn attacks_are_pins_and_leaps<B: Bitboard>(tables: &Tables<B>) -> bool {
    tables.movement.iter().all(|moves| {
        moves
            .lame
            .iter()
            .flatten()
            .all(|leap| leap.mode == MoveMode::MoveOnly)
            && moves.hops.iter().all(|hop| hop.mode == MoveMode::MoveOnly)
            && !moves.route_attacks
    })
}

/// Whether every royal piece attacks only squares next to it: leaps to neighbours, no rides.
fn royals_attack_around<B: Bitboard>(tables: &Tables<B>) -> bool {
    tables.side_ids().all(|side| {
        let attacks = &tables.attacks[side];
        tables.royal.iter().all(|royal| {
            let rides = attacks.rides.iter().any(|ride| ride.pieces.contains(royal));
            let lame = attacks.lame.iter().any(|lame| lame.piece == *royal);
            let hops = attacks.hops.iter().any(|hop| hop.pieces.contains(royal));
            let far_leap = attacks
                .leaps
                .iter()
                .filter(|leap| leap.piece == *royal)
                .any(|leap| {
                    leap.sources
                        .pairs()
                        .any(|(square, sources)| (*sources & !tables.neighbours[square]).any())
                });
            !rides && !lame && !hops && !far_leap
        })
    })
}

/// The one royal piece of each side, where [`explosion_shield`] holds: `(ours, theirs)`.
#[inline]
pub(crate) fn lone_royals<B: Bitboard>(
    tables: &Tables<B>,
    position: &Position<B>,
    us: SideId,
) -> Option<(Sq, Sq)> {
    let ours = position.royals(tables, us);
    let them = tables.side_ids().find(|&side| side != us)?;
    let theirs = position.royals(tables, them);
    (ours.count() == 1 && theirs.count() == 1).then(|| (ours.lowest(), theirs.lowest()))
}

/// Whether `side` is in check where [`explosion_shield`] holds: its royal piece does not touch
/// the enemy one and is attacked. `None` where a side has no royal piece or several (the
/// caller then tests every attacker's capture).
#[inline]
pub(crate) fn shielded_check<B: Bitboard>(
    tables: &Tables<B>,
    position: &Position<B>,
    side: SideId,
) -> Option<bool> {
    let (ours, theirs) = lone_royals(tables, position, side)?;
    if tables.neighbours[ours].has(theirs) {
        return Some(false);
    }
    Some(position.attacked(tables, ours, side, position.occupied()))
}

/// The steps of the royal piece on `from` to `targets` (none a capture: a royal capturer is
/// removed by its own explosion) that leave it out of check where [`explosion_shield`] holds:
/// those touching the enemy royal piece on `theirs`, and those to an unattacked square.
pub(crate) fn shielded_royal_steps<B: Bitboard>(
    tables: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    (from, theirs): (Sq, Sq),
    targets: B,
) -> B {
    let occupied = position.occupied();
    let steps = targets & !occupied;
    let without = occupied & !B::single(from);
    let mut legal = steps & tables.neighbours[theirs];
    for to in (steps & !legal).squares() {
        if !position.attacked(tables, to, us, without | B::single(to)) {
            legal |= B::single(to);
        }
    }
    legal
}

/// The screens of the royal piece of `us` on `king` (not attacked): `(from, to)`, where a
/// move of a piece of `us` that is not royal, from a square not in `from` to a square not in
/// `to`, opens no attack on `king`. Rides open only when their one blocker of `us` leaves
/// (`from`: the pinned pieces); a lame leap only when the one piece on its path leaves
/// (`from`); a hop can open when a piece enters or leaves its line anywhere, and a hurdle's
/// type can change on it: every square of a line from `king` with an enemy hopper on it is
/// in both. A square outside these is on no line or leg an attack on `king` depends on (a
/// leaper's depends on nothing but its square), so a move that touches no other square
/// changes no attack; captures leave their square occupied. Exact for a game whose attacks
/// are ordinary moves ([`Tables::board_moves`]).
pub(crate) fn screens<B: Bitboard>(
    tables: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    king: Sq,
    occupied: B,
) -> (B, B) {
    let ours = position.side_pieces(us);
    let mut from = pinned(tables, position, us, king, occupied);
    let mut to = B::EMPTY;
    for them in tables.side_ids().filter(|&side| tables.is_enemy(us, side)) {
        let theirs = position.side_pieces(them);
        let attacks = &tables.attacks[them];
        for lame in &attacks.lame {
            let leapers = theirs & position.typed(lame.piece);
            if leapers.is_empty() {
                continue;
            }
            for &(source, path) in &lame.sources[king] {
                let blockers = path & occupied;
                if leapers.has(source) && blockers.count() == 1 {
                    from |= blockers & ours;
                }
            }
        }
        for hop in &attacks.hops {
            let ray = &tables.rays[hop.ray];
            let mut line = ray.beyond[king] & theirs & hop.zone;
            if let Some(reach) = &hop.reach {
                line &= reach[king];
            }
            let hoppers = hop
                .pieces
                .iter()
                .fold(B::EMPTY, |acc, &piece| acc | position.typed(piece))
                & line;
            if hoppers.any() {
                from |= ray.beyond[king] & ours;
                to |= ray.beyond[king];
            }
        }
    }
    (from, to)
}

/// Pieces of `us` standing alone between the king and an enemy rider that would attack it.
pub(crate) fn pinned<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    king: Sq,
    occupied: B,
) -> B {
    let own = position.side_pieces(us);
    let mut pinned = B::EMPTY;
    for attacker in rules.side_ids().filter(|&s| rules.is_enemy(us, s)) {
        let theirs = position.side_pieces(attacker);
        for ride in &rules.attacks[attacker].rides {
            let ray = &rules.rays[ride.ray];
            let reach = match &ride.reach {
                Some(reach) => reach[king],
                None => ray.beyond[king],
            };
            let riders = ride
                .pieces
                .iter()
                .fold(B::EMPTY, |acc, &p| acc | position.typed(p))
                & theirs;
            if (reach & riders).is_empty() {
                continue;
            }
            let Some(first) = ray.first_blocker(reach, occupied) else {
                continue;
            };
            if !own.has(first) {
                continue;
            }
            let beyond = reach & ray.beyond[first];
            if let Some(second) = ray.first_blocker(beyond, occupied) {
                if riders.has(second) {
                    pinned |= B::single(first);
                }
            }
        }
    }
    pinned
}

/// Which moves of `us` would put an opponent in check, found from the position before the
/// moves: the squares each piece type attacks an enemy royal piece from, and the lines through
/// one piece of `us` to a rider of `us` aimed at an enemy royal piece.
pub(crate) struct CheckGivers<B> {
    /// The enemy royal pieces.
    royals: B,
    /// Per line a move may open: the piece of `us` that alone blocks it, and the squares from
    /// the enemy royal piece to the rider (a move of the blocker to one of them keeps it shut).
    lines: Vec<(Sq, B)>,
}

impl<B: Bitboard> CheckGivers<B> {
    /// The check givers of `us`, where they are exact: a game whose attacks a move opens only
    /// along rides (pins suffice), without teams, capture effects, conversions or check by all
    /// royal pieces, and a position in which no enemy royal piece is attacked already.
    pub(crate) fn new(tables: &Tables<B>, position: &Position<B>, us: SideId) -> Option<Self> {
        let fits = tables.pins_suffice
            && tables.plain_sides
            && !tables.capture_effects
            && tables.converts_around == 0
            && !tables.definition.end.check_all_royals;
        if !fits {
            return None;
        }
        let occupied = position.occupied();
        let mut royals = B::EMPTY;
        let mut lines = Vec::new();
        for side in tables.side_ids().filter(|&side| side != us) {
            for royal in position.royals(tables, side).squares() {
                if position.attacked(tables, royal, side, occupied) {
                    return None;
                }
                royals |= B::single(royal);
                discovery_lines(tables, position, us, royal, &mut lines);
            }
        }
        Some(CheckGivers { royals, lines })
    }

    /// Of the moves of the piece of `us` on `from` to `targets` (plain moves, no promotion),
    /// those that give check, and those whose answer is not found here (captures of a royal
    /// piece: whether the others are attacked is left to the caller).
    pub(crate) fn giving(
        &self,
        tables: &Tables<B>,
        position: &Position<B>,
        us: SideId,
        from: Sq,
        targets: B,
    ) -> (B, B) {
        let Some(piece) = position.at(from).map(|occupant| occupant.piece) else {
            return (B::EMPTY, targets);
        };
        let unknown = targets & self.royals;
        let occupied = position.occupied() & !B::single(from);
        let attacks = &tables.attacks[us];
        let mut checking = B::EMPTY;
        for royal in self.royals.squares() {
            for leap in attacks.leaps.iter().filter(|leap| leap.piece == piece) {
                checking |= leap.sources[royal] & leap.zone;
            }
            for ride in attacks
                .rides
                .iter()
                .filter(|ride| ride.pieces.contains(&piece))
            {
                let ray = &tables.rays[ride.ray];
                let reach = match &ride.reach {
                    Some(reach) => reach[royal],
                    None => ray.beyond[royal],
                };
                checking |= ray.slide(reach, occupied);
            }
        }
        for &(blocker, line) in &self.lines {
            if blocker == from {
                checking |= !line;
            }
        }
        (targets & checking & !unknown, unknown)
    }
}

/// The lines from the enemy royal piece on `royal` to a rider of `us` that one piece of `us`
/// alone blocks.
fn discovery_lines<B: Bitboard>(
    tables: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    royal: Sq,
    lines: &mut Vec<(Sq, B)>,
) {
    let occupied = position.occupied();
    let ours = position.side_pieces(us);
    for ride in &tables.attacks[us].rides {
        let riders = ride
            .pieces
            .iter()
            .fold(B::EMPTY, |acc, &piece| acc | position.typed(piece))
            & ours;
        let ray = &tables.rays[ride.ray];
        let reach = match &ride.reach {
            Some(reach) => reach[royal],
            None => ray.beyond[royal],
        };
        if (reach & riders).is_empty() {
            continue;
        }
        let Some(first) = ray.first_blocker(reach, occupied) else {
            continue;
        };
        if !ours.has(first) {
            continue;
        }
        let opened = occupied & !B::single(first);
        if let Some(second) = ray.first_blocker(reach, opened) {
            if riders.has(second) {
                lines.push((first, ray.slide(reach, opened)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::bitboard::Bitboard;
    use crate::core::position::Position;
    use crate::legal::legal_moves;
    use crate::rules::{Options, Rules};
    use std::path::Path;

    /// The game's rules with the shortcuts and without (every move played).
    fn fast_and_slow<B: Bitboard>(game: &str) -> (Rules<B>, Rules<B>) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let path = root.join(format!("games/{game}.variant"));
        let options = variant_dsl::LoadOptions::with_search_path([root.join("games")]);
        let definition = variant_dsl::load_file_with(&path, &options)
            .expect("loads")
            .definition;
        let slow = Options {
            pins: false,
            ..Options::default()
        };
        (
            Rules::compile(&definition).expect("compiles"),
            Rules::compile_with(&definition, slow).expect("compiles"),
        )
    }

    fn fen<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> String {
        variant_dsl::fen::write_fen(&rules.definition, &position.to_setup(rules))
    }

    /// Along seeded random games, every position's legal moves and check are the same with
    /// the shortcuts as with every move played; returns how many positions were compared.
    fn same_moves_along_random_games<B: Bitboard>(game: &str) -> usize {
        let (fast, slow) = fast_and_slow::<B>(game);
        let mut compared = 0;
        for seed in 1..=12u64 {
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut position = Position::from_setup(&fast, &fast.definition.setup).expect("opens");
            for _ in 0..80 {
                let mut moves = legal_moves(&fast, &position);
                let mut expected = legal_moves(&slow, &position);
                moves.sort_by_key(|mv| mv.uci(&fast));
                expected.sort_by_key(|mv| mv.uci(&fast));
                assert_eq!(moves, expected, "{game}: {}", fen(&fast, &position));
                for side in fast.side_ids() {
                    assert_eq!(
                        position.in_check(&fast, side),
                        position.in_check(&slow, side),
                        "{game}: {}",
                        fen(&fast, &position)
                    );
                }
                compared += 1;
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                position.play_unchecked(&fast, moves[(state % moves.len() as u64) as usize]);
            }
        }
        compared
    }

    #[test]
    fn the_explosion_shield_is_decided_from_the_rules() {
        let (fast, slow) = fast_and_slow::<u64>("atomic");
        assert!(fast.explosion_shield && !slow.explosion_shield);
        // Chess's captures do not explode; antichess has no check.
        assert!(!fast_and_slow::<u64>("chess").0.explosion_shield);
        assert!(!fast_and_slow::<u64>("antichess").0.explosion_shield);
    }

    #[test]
    fn screens_agree_with_testing_every_move() {
        // Cannons, horses and elephants (lame leapers), grasshoppers: pins do not suffice.
        for game in ["xiangqi", "janggi", "minixiangqi", "shako", "grasshopper"] {
            let (fast, slow) = fast_and_slow::<u128>(game);
            assert!(
                !fast.pins_suffice && fast.board_moves && fast.screens,
                "{game}"
            );
            assert!(!slow.screens, "{game}");
            assert!(same_moves_along_random_games::<u128>(game) > 100, "{game}");
        }
    }

    #[test]
    fn shortcuts_agree_with_playing_every_move() {
        for game in [
            "atomic",
            "racingkings",
            "spartan",
            "horde",
            "duck",
            "extinction",
            "antichess",
            "chess",
            "kingofthehill",
        ] {
            assert!(same_moves_along_random_games::<u64>(game) > 100, "{game}");
        }
    }
}
