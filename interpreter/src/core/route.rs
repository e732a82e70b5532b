//! Walking a piece's routes: the compound moves of [`crate::core::path`], square by square.
//!
//! A route (a slide, a conversion of the pieces passed) is compiled with the piece's tables;
//! at generation time it is walked from the piece's square on the position, and each move it
//! makes is handed on pseudo-legal (the move generator tests the mover's royal pieces).

use crate::core::bitboard::Bitboard;
use crate::core::index::{SideId, Sq};
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
    from: usize,
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
    from: usize,
    route: &'a Route,
    emit: &'e mut dyn FnMut(Move),
    promotion: Option<&'a crate::core::tables::PromotionRule<B>>,
}

impl<B: Bitboard> Walker<'_, '_, B> {
    fn leg(&mut self, index: usize, at: usize, converted: Option<Sq>) {
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
                    LegEffect::Convert => Some(Sq::new(next)),
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
    fn is_free(&self, square: usize) -> bool {
        square == self.from || self.position.at(square).is_none()
    }

    /// Whether a square passed on the way holds what the leg allows.
    fn holds(&self, square: usize, test: SquareTest) -> bool {
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
        if test.undefended {
            let occupied = self.position.occupied();
            if self
                .position
                .attacked_by(self.rules, square, occupant.side, occupied)
            {
                return false;
            }
        }
        true
    }

    /// Whether the piece may land here: as [`Self::holds`], never on its own side's piece.
    fn may_land(&self, square: usize, test: SquareTest) -> bool {
        let own = self
            .position
            .at(square)
            .is_some_and(|o| o.side == self.us && square != self.from);
        !own && self.holds(square, test)
    }

    fn land(&mut self, to: usize, converted: Option<Sq>) {
        if to == self.from {
            return;
        }
        let base = Move {
            from: Sq::new(self.from),
            to: Sq::new(to),
            kind: MoveKind::Normal,
            converts: converted,
        };
        match self.promotion {
            Some(rule) if rule.zone.has(to) => {
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
