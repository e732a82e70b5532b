//! Movements written leg by leg ([`PathDef`]): compiled once per side, walked at generation time.
//!
//! A path whose legs only pass squares (each leg one step, nothing happening on the way) is a
//! leap with conditions on its intermediate squares: "on the board" for `any`, "empty" for
//! `empty`. Those compile into the ordinary leap tables and lame leaps, so they keep the
//! bitboard fast path and count as attacks for check. Every other path — one that slides, or
//! converts the piece it passes — becomes a [`Route`], walked square by square by
//! [`crate::core::route::walk`]: a compound move, rare and checked for legality by playing it on
//! a copy.
//!
//! Compiling paths gives the leaps and the routes ([`CompiledPaths`]); the tables
//! ([`crate::core::tables`]) add them to a piece's movement, so this file knows nothing of them.
//!
//! A route that converts nothing on its way and may capture where it lands attacks its landing
//! square like any other capture: it gives check, and counts in control and `explain`
//! ([`Route::attacks`], walked by [`crate::core::route::captures_on`]). A route that converts
//! does not attack: its capture needs the takeover first (takeover chess: "takeovers never
//! attack").

use crate::bitboard::Bitboard;
use crate::geometry::{absolute, Geometry};
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

impl Route {
    /// Whether the route converts no piece on its way.
    pub fn converts_nothing(&self) -> bool {
        self.legs.iter().all(|leg| leg.effect == LegEffect::None)
    }

    /// Whether the route attacks its landing square: it converts nothing and its last leg is one
    /// step that may capture (a slide lands on empty squares only).
    pub fn attacks(&self) -> bool {
        self.converts_nothing()
            && self
                .legs
                .last()
                .is_some_and(|last| last.count == LegCount::One && last.holds.enemy)
    }
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

/// A leap that a path compiles into, for one side: from a square to another, the squares
/// between that must be empty (none for a plain leap).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathLeap<B> {
    /// Whether the leap moves, captures, or both.
    pub mode: MoveMode,
    /// The square it leaps from.
    pub from: usize,
    /// The square it lands on.
    pub to: usize,
    /// The squares on the way that must be empty: empty for a plain leap, else a lame one.
    pub path: B,
}

/// A piece's paths for one side, compiled: the leaps (for the leap tables and the lame leaps)
/// and the routes (walked at generation time).
#[derive(Clone, Debug)]
pub struct CompiledPaths<B> {
    /// The leaps, plain and lame.
    pub leaps: Vec<PathLeap<B>>,
    /// The compound paths.
    pub routes: Vec<Route>,
}

/// Compiles a piece's paths for one side: leaps where a path is one, the rest as routes.
pub fn compile_paths<B: Bitboard>(
    geometry: &Geometry<B>,
    paths: &[PathDef],
    forward: Forward,
) -> CompiledPaths<B> {
    let mut compiled = CompiledPaths {
        leaps: Vec::new(),
        routes: Vec::new(),
    };
    for path in paths {
        for legs in expand(path, forward) {
            if is_leap(&legs) {
                add_leap(geometry, &mut compiled.leaps, &legs);
            } else {
                compiled.routes.push(Route { legs });
            }
        }
    }
    compiled
}

/// A leap route: for each square, the landing square if every step stays on the board, as a
/// plain leap (no empty square required on the way) or a lame one.
fn add_leap<B: Bitboard>(geometry: &Geometry<B>, leaps: &mut Vec<PathLeap<B>>, legs: &[RouteLeg]) {
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
        if on_board {
            leaps.push(PathLeap {
                mode,
                from: from.index(),
                to: at.index(),
                path: must_be_empty,
            });
        }
    }
}
