//! Attacks and check on any [`Board`]: a position's, or the board a move leaves
//! ([`crate::core::board::AfterMove`]), so that a legality test need not play the move on a copy.
//!
//! The tests read the attack tables inverted at load time ([`crate::core::tables::Attacks`]):
//! for an attacked square, the squares a leaper would stand on, the rays a rider or a hopper
//! would come along, the (square, leg) pairs of a lame leaper; each is a few bitboard operations
//! on the squares the board gives for the attacker's side and types.
//!
//! The position's attack questions live here too, in an `impl Position` block: those that also
//! ask the attacking routes ([`crate::core::route`], which walks routes on a position) sit above
//! both files, so that the position does not import the routes that read it.

use crate::bitboard::Bitboard;
use crate::core::board::Board;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::position::Position;
use crate::core::tables::Tables;

/// The squares of the pieces of `side` of any of `pieces`' types.
#[inline(always)]
fn of_types<B: Bitboard, V: Board<B>>(board: &V, pieces: &[PieceId]) -> B {
    pieces
        .iter()
        .fold(B::EMPTY, |acc, &piece| acc | board.typed(piece))
}

/// Whether `square` is attacked by `attacker`'s ordinary moves (Betza atoms and leap paths,
/// the attack tables) with the board occupied as `occupied`; not by attacking routes, which
/// need the whole position ([`crate::position::Position::attacked_by`]).
#[inline]
pub(crate) fn attacked_by_moves<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    square: Sq,
    attacker: SideId,
    occupied: B,
) -> bool {
    attacks_on::<B, V, false>(board, rules, square, attacker, occupied, !B::EMPTY)
}

/// Whether a move that changed the board on the squares `touched` alone (its origin and
/// target), made by a piece that is not on `square`, lets `attacker` attack `square` where it
/// did not before: a leaper's attack depends on nothing but its square, so none is new; a
/// rider's, a hopper's or a lame leaper's is new only along a line or through a leg the move
/// touched, and only those are tested. Exact where `square` was not attacked before the move.
#[inline]
pub(crate) fn newly_attacked_by<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    square: Sq,
    attacker: SideId,
    touched: B,
) -> bool {
    attacks_on::<B, V, true>(board, rules, square, attacker, board.occupied(), touched)
}

/// [`attacked_by_moves`], or with `NEW_ONLY` [`newly_attacked_by`]: the attack groups whose
/// squares miss `touched` are skipped.
#[inline(always)]
fn attacks_on<B: Bitboard, V: Board<B>, const NEW_ONLY: bool>(
    board: &V,
    rules: &Tables<B>,
    square: Sq,
    attacker: SideId,
    occupied: B,
    touched: B,
) -> bool {
    let theirs = board.side_pieces(attacker);
    let attacks = &rules.attacks[attacker];
    if !NEW_ONLY {
        for leap in &attacks.leaps {
            if (leap.sources[square] & leap.zone & theirs & board.typed(leap.piece)).any() {
                return true;
            }
        }
    }
    for ride in &attacks.rides {
        let ray = &rules.rays[ride.ray];
        let reach = match &ride.reach {
            Some(reach) => reach[square],
            None => ray.beyond[square],
        };
        if (reach & theirs).is_empty() || (NEW_ONLY && (reach & touched).is_empty()) {
            continue;
        }
        let riders = of_types(board, &ride.pieces) & theirs;
        if (reach & riders).is_empty() {
            continue;
        }
        if let Some(first) = ray.first_blocker(reach, occupied) {
            if riders.has(first) {
                return true;
            }
        }
    }
    for hop in &attacks.hops {
        let ray = &rules.rays[hop.ray];
        let mut line = ray.beyond[square] & theirs & hop.zone;
        if let Some(reach) = &hop.reach {
            line &= reach[square];
        }
        if line.is_empty() || (NEW_ONLY && (ray.beyond[square] & touched).is_empty()) {
            continue;
        }
        let hoppers = of_types(board, &hop.pieces) & line;
        if hoppers.is_empty() {
            continue;
        }
        let barred = of_types(board, &hop.no_hurdle);
        if ray
            .hopper_behind(hop.hop, square, occupied, barred)
            .is_some_and(|from| hoppers.has(from))
        {
            return true;
        }
    }
    for lame in &attacks.lame {
        let pieces = theirs & board.typed(lame.piece);
        if pieces.is_empty() {
            continue;
        }
        for &(from, path) in &lame.sources[square] {
            if pieces.has(from) && (path & occupied).is_empty() {
                return true;
            }
        }
    }
    false
}

/// The squares of `attacker`'s pieces that attack `square` by their ordinary moves (the attack
/// tables), with the board occupied as `occupied`: every attacker, where [`attacked_by_moves`]
/// stops at the first. A static exchange ([`crate::core::exchange`]) takes them one by one, the
/// pieces it removed left out of `board` and `occupied`, so that a rider behind a removed piece
/// (an x-ray) and a hopper whose hurdle changed are found as they are then.
pub(crate) fn attackers<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    square: Sq,
    attacker: SideId,
    occupied: B,
) -> B {
    let theirs = board.side_pieces(attacker);
    let attacks = &rules.attacks[attacker];
    let mut found = B::EMPTY;
    for leap in &attacks.leaps {
        found |= leap.sources[square] & leap.zone & theirs & board.typed(leap.piece);
    }
    for ride in &attacks.rides {
        let ray = &rules.rays[ride.ray];
        let reach = match &ride.reach {
            Some(reach) => reach[square],
            None => ray.beyond[square],
        };
        if (reach & theirs).is_empty() {
            continue;
        }
        if let Some(first) = ray.first_blocker(reach, occupied) {
            if (of_types(board, &ride.pieces) & theirs).has(first) {
                found |= B::single(first);
            }
        }
    }
    for hop in &attacks.hops {
        let ray = &rules.rays[hop.ray];
        let mut line = ray.beyond[square] & theirs & hop.zone;
        if let Some(reach) = &hop.reach {
            line &= reach[square];
        }
        let hoppers = of_types(board, &hop.pieces) & line;
        if hoppers.is_empty() {
            continue;
        }
        let barred = of_types(board, &hop.no_hurdle);
        if let Some(from) = ray.hopper_behind(hop.hop, square, occupied, barred) {
            if hoppers.has(from) {
                found |= B::single(from);
            }
        }
    }
    for lame in &attacks.lame {
        let pieces = theirs & board.typed(lame.piece);
        if pieces.is_empty() {
            continue;
        }
        for &(from, path) in &lame.sources[square] {
            if pieces.has(from) && (path & occupied).is_empty() {
                found |= B::single(from);
            }
        }
    }
    found
}

/// The royal pieces of a side.
#[inline]
pub(crate) fn royals<B: Bitboard, V: Board<B>>(board: &V, rules: &Tables<B>, side: SideId) -> B {
    of_types(board, &rules.royal) & board.side_pieces(side)
}

/// The royal pieces of a side's team (the side's own where it has no ally).
#[inline(always)]
pub(crate) fn team_royals<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    side: SideId,
) -> B {
    if !rules.teams {
        return royals(board, rules, side);
    }
    rules
        .side_ids()
        .filter(|&other| !rules.is_enemy(side, other))
        .fold(B::EMPTY, |acc, other| acc | royals(board, rules, other))
}

/// Whether `side`'s team's royal pieces are in check, where `attacked(square, occupied)` says
/// whether an opponent attacks a square: one of them attacked, or every one under `check when
/// all royal pieces attacked` (duple check). Capture effects are the caller's.
#[inline]
pub(crate) fn royals_attacked<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    side: SideId,
    mut attacked: impl FnMut(Sq, B) -> bool,
) -> bool {
    let occupied = board.occupied();
    let royals = team_royals(board, rules, side);
    if rules.definition.end.check_all_royals {
        return royals.any() && royals.squares().all(|sq| attacked(sq, occupied));
    }
    royals.squares().any(|sq| attacked(sq, occupied))
}

/// Whether `side` is in check on `board`, in a game whose attacks are all ordinary moves and
/// whose captures have no effects ([`Tables::board_moves`]).
#[inline]
pub(crate) fn in_check<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    side: SideId,
) -> bool {
    debug_assert!(rules.board_moves);
    royals_attacked(board, rules, side, |square, occupied| {
        rules.side_ids().any(|other| {
            rules.is_enemy(side, other) && attacked_by_moves(board, rules, square, other, occupied)
        })
    })
}

/// Whether the move `mv` of `us`, of a piece that is not royal, leaves `king` (the one royal
/// piece of `us`'s team, not attacked before the move) attacked, on the board the move leaves:
/// only the attacks the move could have opened are tested ([`newly_attacked_by`]).
#[inline]
pub(crate) fn opens_attack<B: Bitboard, V: Board<B>>(
    board: &V,
    rules: &Tables<B>,
    us: SideId,
    king: Sq,
    touched: B,
) -> bool {
    debug_assert!(rules.board_moves);
    rules.side_ids().any(|other| {
        rules.is_enemy(us, other) && newly_attacked_by(board, rules, king, other, touched)
    })
}

/// The position's attack and check questions, answered here on its board: the position does
/// not import the attack code, which reads it through [`Board`].
impl<B: Bitboard> Position<B> {
    /// Whether `square` is attacked by `attacker`'s ordinary moves (Betza atoms and leap paths,
    /// the attack tables) with the board occupied as `occupied` ([`attacked_by_moves`]).
    #[inline]
    pub fn attacked_by_moves(
        &self,
        rules: &Tables<B>,
        square: Sq,
        attacker: SideId,
        occupied: B,
    ) -> bool {
        attacked_by_moves(self, rules, square, attacker, occupied)
    }

    /// The royal pieces of a side.
    #[inline]
    pub fn royals(&self, rules: &Tables<B>, side: SideId) -> B {
        royals(self, rules, side)
    }

    /// The royal pieces of a side's team (the side's own where it has no ally).
    #[inline(always)]
    pub fn team_royals(&self, rules: &Tables<B>, side: SideId) -> B {
        team_royals(self, rules, side)
    }

    /// Whether any royal piece of `side` is attacked. Where captures have effects (`capture`
    /// rules), an attack counts only if the capture would not remove one of the attacker's own
    /// royal pieces: a capture that destroys its own King is no threat.
    pub fn in_check(&self, rules: &Tables<B>, side: SideId) -> bool {
        if rules.capture_effects {
            if rules.explosion_shield {
                if let Some(check) = crate::core::legality::shielded_check(rules, self, side) {
                    return check;
                }
            }
            return self
                .royals(rules, side)
                .squares()
                .any(|square| self.checkers(rules, square, side).any());
        }
        royals_attacked(self, rules, side, |square, occupied| {
            self.attacked(rules, square, side, occupied)
        })
    }

    /// Whether `square` is attacked by `attacker` with the board occupied as `occupied`: by
    /// its ordinary moves ([`Position::attacked_by_moves`]) or its attacking routes.
    #[inline]
    pub fn attacked_by(
        &self,
        rules: &Tables<B>,
        square: Sq,
        attacker: SideId,
        occupied: B,
    ) -> bool {
        self.attacked_by_moves(rules, square, attacker, occupied)
            || (!rules.route_attackers[attacker].is_empty()
                && self.attacked_by_routes(rules, square, attacker, occupied))
    }

    /// Whether a piece of `attacker` captures on `square` along an attacking route
    /// ([`crate::core::path::Route::attacks`]).
    #[cold]
    fn attacked_by_routes(
        &self,
        rules: &Tables<B>,
        square: Sq,
        attacker: SideId,
        occupied: B,
    ) -> bool {
        rules.route_attackers[attacker].iter().any(|&piece| {
            let moves = rules.moves_of(attacker, piece);
            (self.side_pieces(attacker) & self.typed(piece) & occupied)
                .squares()
                .any(|from| {
                    crate::core::route::captures_on(
                        rules, self, attacker, from, moves, square, occupied,
                    )
                })
        })
    }

    /// The squares of the pieces of every opponent of `side` that could capture on `square`, with
    /// the board occupied as `occupied` (for messages; [`Position::attacked`] is the fast test).
    pub fn attackers(&self, rules: &Tables<B>, square: Sq, side: SideId, occupied: B) -> B {
        let mut found = B::EMPTY;
        for other in rules
            .side_ids()
            .filter(|&other| rules.is_enemy(side, other))
        {
            let theirs = self.side_pieces(other) & occupied;
            for from in theirs.squares() {
                let Some(occupant) = self.at(from) else {
                    continue;
                };
                let moves = rules.moves_of(other, occupant.piece);
                let barred = crate::core::tables::Barred::of(moves, |p| self.typed(p));
                let reach = crate::core::tables::targets_barred(
                    rules,
                    moves,
                    from,
                    theirs,
                    B::single(square),
                    occupied | B::single(square),
                    barred,
                );
                let by_route = || {
                    moves.route_attacks
                        && crate::core::route::captures_on(
                            rules,
                            self,
                            other,
                            from,
                            moves,
                            square,
                            occupied | B::single(square),
                        )
                };
                if reach.has(square) || by_route() {
                    found |= B::single(from);
                }
            }
        }
        found
    }

    /// Whether any opponent of `side` attacks `square`.
    #[inline]
    pub fn attacked(&self, rules: &Tables<B>, square: Sq, side: SideId, occupied: B) -> bool {
        rules.side_ids().any(|other| {
            rules.is_enemy(side, other) && self.attacked_by(rules, square, other, occupied)
        })
    }

    /// The pieces that give check to `side`'s piece on `square`: the attackers whose capture
    /// there would not remove one of their own royal pieces (all attackers in a game without
    /// capture effects). For messages and for check under capture effects.
    pub fn checkers(&self, rules: &Tables<B>, square: Sq, side: SideId) -> B {
        let attackers = self.attackers(rules, square, side, self.occupied());
        if !rules.capture_effects {
            return attackers;
        }
        attackers
            .squares()
            .filter(|&attacker| !self.capture_hurts_own_royal(rules, attacker, square))
            .fold(B::EMPTY, |acc, attacker| acc | B::single(attacker))
    }
}
