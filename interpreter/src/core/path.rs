//! Movements written leg by leg ([`PathDef`]): compiled once per side, walked at generation time.
//!
//! A path whose legs only pass squares (each leg one step, nothing happening on the way) is a
//! leap with conditions on its intermediate squares: "on the board" for `any`, "empty" for
//! `empty`. Those compile into the ordinary leap tables and lame leaps, so they keep the
//! bitboard fast path and count as attacks for check. Every other path — one that slides, or
//! converts the piece it passes — becomes a [`Route`], walked square by square by [`walk`]: a
//! compound move, rare and checked for legality by playing it on a copy.
//!
//! Attacks for check come from the ordinary moves and the leap paths only: a compound path that
//! lands with a capture must share its landing geometry with one of them (as the takeover knight
//! shares the plain knight's), which the designer writes anyway.

use crate::bitboard::Bitboard;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::{absolute, LameLeap, PieceMoves, Rules};
use variant_dsl::{Forward, LegCount, LegDirection, LegEffect, MoveMode, PathDef, SquareTest};

/// One leg of a route, in absolute steps for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RouteLeg {
    /// The step, in files.
    pub dx: i32,
    /// The step, in ranks.
    pub dy: i32,
    /// One step or a slide over empty squares.
    pub count: LegCount,
    /// What a one-step leg's square may hold.
    pub holds: SquareTest,
    /// What happens to the piece there.
    pub effect: LegEffect,
}

/// A compound path for one side with every direction chosen: its legs in absolute steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// The legs, first to last; the last leg's square is the landing square.
    pub legs: Vec<RouteLeg>,
}

/// Every choice of directions of a path for a side: one list of legs per way to walk it.
fn expand(path: &PathDef, forward: Forward) -> Vec<Vec<RouteLeg>> {
    let mut routes: Vec<Vec<RouteLeg>> = vec![Vec::new()];
    for leg in &path.legs {
        let mut next = Vec::new();
        for route in routes {
            let steps: Vec<(i32, i32)> = match (&leg.direction, route.last()) {
                (LegDirection::Steps(offsets), _) => offsets
                    .iter()
                    .map(|o| absolute(forward, o.right, o.forward))
                    .collect(),
                (LegDirection::Straight, Some(previous)) => vec![(previous.dx, previous.dy)],
                (LegDirection::Outward, Some(previous)) => outward(previous.dx, previous.dy),
                (_, None) => Vec::new(),
            };
            for (dx, dy) in steps {
                let mut longer = route.clone();
                longer.push(RouteLeg {
                    dx,
                    dy,
                    count: leg.count,
                    holds: leg.holds,
                    effect: leg.effect,
                });
                next.push(longer);
            }
        }
        routes = next;
    }
    routes
}

/// The one-square steps turned 45 degrees either way from a one-square step.
fn outward(dx: i32, dy: i32) -> Vec<(i32, i32)> {
    match (dx, dy) {
        (0, dy) => vec![(1, dy), (-1, dy)],
        (dx, 0) => vec![(dx, 1), (dx, -1)],
        (dx, dy) => vec![(dx, 0), (0, dy)],
    }
}

/// Whether a route is a leap: one step per leg, nothing happening on the way, the intermediate
/// squares either anything (`any`) or empty, the landing plain.
fn is_leap(legs: &[RouteLeg]) -> bool {
    let Some((last, before)) = legs.split_last() else {
        return false;
    };
    let plain_landing = !last.holds.friend && !last.holds.not_royal && !last.holds.undefended;
    legs.iter().all(|leg| leg.count == LegCount::One)
        && last.effect == LegEffect::None
        && plain_landing
        && (last.holds.empty || last.holds.enemy)
        && before.iter().all(|leg| {
            leg.effect == LegEffect::None
                && (leg.holds == SquareTest::ANY || is_empty_only(leg.holds))
        })
}

fn is_empty_only(test: SquareTest) -> bool {
    test.empty && !test.enemy && !test.friend
}

/// Adds a piece's paths for one side: leaps into its tables, the rest as routes.
pub fn compile_paths<B: Bitboard>(
    geometry: &Geometry<B>,
    moves: &mut PieceMoves<B>,
    paths: &[PathDef],
    forward: Forward,
) {
    for path in paths {
        for legs in expand(path, forward) {
            if is_leap(&legs) {
                add_leap(geometry, moves, &legs);
            } else {
                moves.routes.push(Route { legs });
            }
        }
    }
}

/// A leap route: for each square, the landing square if every step stays on the board, as a
/// plain leap (no empty square required on the way) or a lame one.
fn add_leap<B: Bitboard>(geometry: &Geometry<B>, moves: &mut PieceMoves<B>, legs: &[RouteLeg]) {
    let last = legs[legs.len() - 1];
    let mode = match (last.holds.empty, last.holds.enemy) {
        (true, true) => MoveMode::Both,
        (true, false) => MoveMode::MoveOnly,
        _ => MoveMode::CaptureOnly,
    };
    for from in geometry.board.squares() {
        let mut at = from;
        let mut must_be_empty = B::EMPTY;
        let mut on_board = true;
        for (index, leg) in legs.iter().enumerate() {
            match geometry.step(at, leg.dx, leg.dy) {
                Some(next) => at = next,
                None => {
                    on_board = false;
                    break;
                }
            }
            if index + 1 < legs.len() && is_empty_only(leg.holds) {
                must_be_empty |= B::single(at);
            }
        }
        if !on_board {
            continue;
        }
        if must_be_empty.is_empty() {
            let table = moves.leap_table(mode, false, geometry.grid_size());
            table.targets[from] |= B::single(at);
        } else {
            moves.lame[from].push(LameLeap {
                to: at,
                path: must_be_empty,
                mode,
                initial_only: false,
                passed: None,
            });
        }
    }
}

/// Walks the routes of the piece on `from` and hands each compound move to `emit` (pseudo-legal:
/// the caller tests the mover's royal pieces).
pub fn walk<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
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
    rules: &'a Rules<B>,
    position: &'a Position<B>,
    us: usize,
    from: usize,
    route: &'a Route,
    emit: &'e mut dyn FnMut(Move),
    promotion: Option<&'a crate::rules::PromotionRule<B>>,
}

impl<B: Bitboard> Walker<'_, '_, B> {
    fn leg(&mut self, index: usize, at: usize, converted: Option<u16>) {
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
                    LegEffect::Convert => Some(next as u16),
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
        let royal = self
            .rules
            .royal
            .iter()
            .any(|p| p.0 as usize == occupant.piece);
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

    fn land(&mut self, to: usize, converted: Option<u16>) {
        if to == self.from {
            return;
        }
        let base = Move {
            from: self.from as u16,
            to: to as u16,
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
