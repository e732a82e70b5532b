//! Walking a piece's routes: the compound moves of [`crate::core::path`], square by square.
//!
//! A route (a slide, a conversion of the pieces passed) is compiled with the piece's tables;
//! at generation time it is walked from the piece's square on the position, and each move it
//! makes is handed on pseudo-legal (the move generator tests the mover's royal pieces).
//!
//! Routes that attack ([`Route::attacks`]) are also walked backwards from nothing: "does this
//! piece capture on that square?" ([`captures_on`]), with the board occupied as the caller says,
//! as the attack tables answer it for the ordinary moves.

use crate::core::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::moves::{Move, MoveKind};
use crate::core::path::Route;
use crate::core::position::Position;
use crate::core::tables::{PieceMoves, Tables};
use variant_dsl::{LegCount, LegEffect, SquareTest};

/// Walks the routes of the piece on `from` and hands each compound move to `emit` (pseudo-legal:
/// the caller tests the mover's royal pieces).
pub fn walk<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    from: Sq,
    moves: &PieceMoves<B>,
    emit: &mut dyn FnMut(Move),
) {
    for route in &moves.routes {
        let mut walker = Walker {
            rules,
            position,
            us,
            from,
            route,
            emit: &mut *emit,
            promotion: moves.promotion.as_ref(),
        };
        walker.leg(0, from, None);
    }
}

struct Walker<'a, 'e, B: Bitboard> {
    rules: &'a Tables<B>,
    position: &'a Position<B>,
    us: SideId,
    from: Sq,
    route: &'a Route,
    emit: &'e mut dyn FnMut(Move),
    promotion: Option<&'a crate::core::tables::PromotionRule<B>>,
}

impl<B: Bitboard> Walker<'_, '_, B> {
    fn leg(&mut self, index: usize, at: Sq, converted: Option<Sq>) {
        let leg = self.route.legs[index];
        let last = index + 1 == self.route.legs.len();
        let geometry = &self.rules.geometry;
        match leg.count {
            LegCount::One => {
                let Some(next) = geometry.step(at, leg.dx, leg.dy) else {
                    return;
                };
                if last {
                    if self.may_land(next, leg.holds) {
                        self.land(next, converted);
                    }
                    return;
                }
                if !self.holds(next, leg.holds) {
                    return;
                }
                let converted = match leg.effect {
                    LegEffect::Convert => Some(next),
                    LegEffect::None => converted,
                };
                self.leg(index + 1, next, converted);
            }
            LegCount::AnyEmpty | LegCount::SomeEmpty => {
                let mut current = at;
                let mut steps = 0;
                loop {
                    if steps > 0 || leg.count == LegCount::AnyEmpty {
                        if last {
                            if steps > 0 {
                                self.land(current, converted);
                            }
                        } else {
                            self.leg(index + 1, current, converted);
                        }
                    }
                    match geometry.step(current, leg.dx, leg.dy) {
                        Some(next) if self.is_free(next) => {
                            current = next;
                            steps += 1;
                        }
                        _ => break,
                    }
                }
            }
        }
    }

    /// Empty, or the mover's own square (which it has left).
    fn is_free(&self, square: Sq) -> bool {
        square == self.from || self.position.at(square).is_none()
    }

    /// Whether a square passed on the way holds what the leg allows.
    fn holds(&self, square: Sq, test: SquareTest) -> bool {
        let Some(occupant) = self.position.at(square).filter(|_| square != self.from) else {
            return test.empty;
        };
        let friendly = occupant.side == self.us;
        if (friendly && !test.friend) || (!friendly && !test.enemy) {
            return false;
        }
        let royal = self.rules.royal.contains(&occupant.piece);
        if test.not_royal && royal {
            return false;
        }
        !test.undefended || !defended(self.rules, self.position, square, occupant.side)
    }

    /// Whether the piece may land here: as [`Self::holds`], never on its own side's piece.
    fn may_land(&self, square: Sq, test: SquareTest) -> bool {
        let own = self
            .position
            .at(square)
            .is_some_and(|o| o.side == self.us && square != self.from);
        !own && self.holds(square, test)
    }

    fn land(&mut self, to: Sq, converted: Option<Sq>) {
        if to == self.from {
            return;
        }
        let base = Move {
            from: self.from,
            to,
            kind: MoveKind::Normal,
            converts: converted,
            gate: None,
        };
        match self.promotion {
            Some(rule) if rule.promoting(self.from, B::single(to)).any() => {
                if rule.also_plain(B::single(to)).any() {
                    (self.emit)(base);
                }
                for &choice in &rule.choices {
                    (self.emit)(Move {
                        kind: MoveKind::Promote(choice),
                        ..base
                    });
                }
            }
            _ => (self.emit)(base),
        }
    }
}

/// Whether a piece of `owner` on `square` is defended: another piece of its owner could capture
/// there by an ordinary capture (the attack tables, not the routes: a route's test never walks
/// another route).
fn defended<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    square: Sq,
    owner: SideId,
) -> bool {
    position.attacked_by_moves(rules, square, owner, position.occupied())
}

/// Whether the piece of `us` on `from` captures on `target` along one of its attacking routes
/// ([`Route::attacks`]), with the board occupied as `occupied` (a square outside it is empty).
pub fn captures_on<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    from: Sq,
    moves: &PieceMoves<B>,
    target: Sq,
    occupied: B,
) -> bool {
    let reach = Reach {
        rules,
        position,
        us,
        from,
        target,
        occupied,
    };
    moves
        .routes
        .iter()
        .filter(|route| route.attacks())
        .any(|route| reach.leg(route, 0, from))
}

/// One question of [`captures_on`].
struct Reach<'a, B: Bitboard> {
    rules: &'a Tables<B>,
    position: &'a Position<B>,
    us: SideId,
    from: Sq,
    target: Sq,
    occupied: B,
}

impl<B: Bitboard> Reach<'_, B> {
    /// Whether the route's legs from `index` on, starting on `at`, land on the target.
    fn leg(&self, route: &Route, index: usize, at: Sq) -> bool {
        let leg = route.legs[index];
        let last = index + 1 == route.legs.len();
        let geometry = &self.rules.geometry;
        match leg.count {
            LegCount::One => {
                let Some(next) = geometry.step(at, leg.dx, leg.dy) else {
                    return false;
                };
                if last {
                    return next == self.target && self.may_take(next, leg.holds);
                }
                self.holds(next, leg.holds) && self.leg(route, index + 1, next)
            }
            LegCount::AnyEmpty | LegCount::SomeEmpty => {
                // A slide as the last leg lands on empty squares: no capture (see `attacks`).
                if last {
                    return false;
                }
                let mut current = at;
                let mut steps = 0;
                loop {
                    if (steps > 0 || leg.count == LegCount::AnyEmpty)
                        && self.leg(route, index + 1, current)
                    {
                        return true;
                    }
                    match geometry.step(current, leg.dx, leg.dy) {
                        Some(next) if next == self.from || !self.occupied.has(next) => {
                            current = next;
                            steps += 1;
                        }
                        _ => return false,
                    }
                }
            }
        }
    }

    /// The occupant of a square as `occupied` sees it (the mover's own square is empty).
    fn occupant(&self, square: Sq) -> Option<crate::core::position::Occupant> {
        if square == self.from || !self.occupied.has(square) {
            return None;
        }
        self.position.at(square)
    }

    /// As [`Walker::holds`], on the board as `occupied` sees it.
    fn holds(&self, square: Sq, test: SquareTest) -> bool {
        let Some(occupant) = self.occupant(square) else {
            return test.empty;
        };
        let friendly = occupant.side == self.us;
        if (friendly && !test.friend) || (!friendly && !test.enemy) {
            return false;
        }
        if test.not_royal && self.is_royal(occupant.piece) {
            return false;
        }
        !test.undefended || !defended(self.rules, self.position, square, occupant.side)
    }

    /// Whether the landing square's piece, if the position has one there, may be taken.
    fn may_take(&self, square: Sq, test: SquareTest) -> bool {
        let Some(occupant) = self.position.at(square) else {
            return true;
        };
        if test.not_royal && self.is_royal(occupant.piece) {
            return false;
        }
        !test.undefended || !defended(self.rules, self.position, square, occupant.side)
    }

    fn is_royal(&self, piece: PieceId) -> bool {
        self.rules.royal.contains(&piece)
    }
}
