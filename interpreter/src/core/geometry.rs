//! Board geometry: square indices, the board mask, and precomputed rays.
//!
//! A square's index is `rank * files + file`. Holes are squares of the grid that are not on the
//! board; rays stop before them, and nothing lands on them. Because the index grows by a fixed
//! amount at every step of a direction, the first piece met along a ray is the lowest or the
//! highest set bit of `ray & occupied`: that is the whole trick of the ray tables. A hopper
//! (Betza `p`, `g`) asks the same question twice: the first piece is its hurdle, and the ray
//! beyond the hurdle says where it lands ([`Ray::hop`]) or, read backwards from an attacked
//! square, where the hopper stands ([`Ray::hopper_behind`]).

use crate::bitboard::Bitboard;
use crate::core::index::{BySquare, Sq};
use variant_dsl::{BoardDef, Forward, Hop, Square};

/// The 8 King steps (file, rank): the neighbours of a square.
pub const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The board's shape and its square-indexed tables.
#[derive(Clone, Debug)]
pub struct Geometry<B> {
    /// Number of files.
    pub files: usize,
    /// Number of ranks.
    pub ranks: usize,
    /// Squares on the board (holes excluded).
    pub board: B,
    /// Light squares on the board.
    pub light: B,
}

impl<B: Bitboard> Geometry<B> {
    /// Builds the geometry of a validated board.
    pub fn new(def: &BoardDef) -> Self {
        let files = def.files as usize;
        let ranks = def.ranks as usize;
        let mut board = B::EMPTY;
        let mut light = B::EMPTY;
        for rank in 0..ranks {
            for file in 0..files {
                let square = Square::new(file as u8, rank as u8);
                if def.contains(square) {
                    let bit = B::single(Sq::new(rank * files + file));
                    board |= bit;
                    if BoardDef::is_light(square) {
                        light |= bit;
                    }
                }
            }
        }
        Geometry {
            files,
            ranks,
            board,
            light,
        }
    }

    /// Number of grid squares (holes included).
    pub fn grid_size(&self) -> usize {
        self.files * self.ranks
    }

    /// The compiled square of a named square.
    pub fn index(&self, square: Square) -> Sq {
        Sq::new(square.rank as usize * self.files + square.file as usize)
    }

    /// The name of a compiled square.
    pub fn square(&self, square: Sq) -> Square {
        let index = square.index();
        Square::new((index % self.files) as u8, (index / self.files) as u8)
    }

    /// (file, rank) of a square, from 0.
    pub fn coords(&self, square: Sq) -> (usize, usize) {
        (square.index() % self.files, square.index() / self.files)
    }

    /// The board square at (file, rank) counted from 0, if there is one.
    pub fn index_of(&self, file: i32, rank: i32) -> Option<Sq> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            return None;
        }
        let target = Sq::new(rank as usize * self.files + file as usize);
        self.on_board(target).then_some(target)
    }

    /// Whether the square is a board square (not a hole).
    pub fn on_board(&self, square: Sq) -> bool {
        self.board.has(square)
    }

    /// The square one absolute step `(dx, dy)` away, if that is on the board.
    pub fn step(&self, square: Sq, dx: i32, dy: i32) -> Option<Sq> {
        let (file, rank) = self.coords(square);
        self.index_of(file as i32 + dx, rank as i32 + dy)
    }

    /// Every square of the grid (holes included), in index order.
    pub fn grid(&self) -> impl Iterator<Item = Sq> + Clone {
        (0..self.grid_size()).map(Sq::new)
    }

    /// The squares of a set of named squares.
    pub fn mask(&self, squares: &[Square]) -> B {
        squares
            .iter()
            .fold(B::EMPTY, |acc, &sq| acc | B::single(self.index(sq)))
            & self.board
    }
}

/// All squares reached by repeating one absolute step from each square, up to the first hole or
/// edge: the ray table of one direction.
#[derive(Clone, Debug)]
pub struct Ray<B> {
    /// The absolute step.
    pub dx: i32,
    /// The absolute step.
    pub dy: i32,
    /// Whether square indices grow along the ray (then the nearest blocker is the lowest bit).
    pub ascending: bool,
    /// Per square, every square strictly beyond it along the ray.
    pub beyond: BySquare<B>,
}

impl<B: Bitboard> Ray<B> {
    /// Precomputes the ray of step `(dx, dy)`.
    pub fn new(geometry: &Geometry<B>, dx: i32, dy: i32) -> Self {
        let beyond = BySquare::from_fn(geometry.grid_size(), |from| {
            limited_ray(geometry, from, dx, dy, usize::MAX)
        });
        Ray {
            dx,
            dy,
            ascending: dy * geometry.files as i32 + dx > 0,
            beyond,
        }
    }

    /// The squares a rider reaches along this ray from `from` within `reach` (the ray limited to
    /// its range), stopping at and including the first occupied square.
    #[inline]
    pub fn slide(&self, reach: B, occupied: B) -> B {
        let blockers = reach & occupied;
        if blockers.is_empty() {
            reach
        } else {
            let first = if self.ascending {
                blockers.lowest()
            } else {
                blockers.highest()
            };
            reach & !self.beyond[first]
        }
    }

    /// The first occupied square within `reach`, if any.
    #[inline]
    pub fn first_blocker(&self, reach: B, occupied: B) -> Option<Sq> {
        let blockers = reach & occupied;
        if blockers.is_empty() {
            None
        } else if self.ascending {
            Some(blockers.lowest())
        } else {
            Some(blockers.highest())
        }
    }
}

impl<B: Bitboard> Ray<B> {
    /// The squares a hopper on `from` lands on along this ray: beyond its hurdle (the first
    /// piece), every square up to and including the next piece for a cannon, the one square just
    /// beyond for a grasshopper. Own pieces are not yet removed.
    #[inline]
    pub fn hop(&self, hop: Hop, from: Sq, occupied: B) -> B {
        let Some(hurdle) = self.first_blocker(self.beyond[from], occupied) else {
            return B::EMPTY;
        };
        let beyond = self.beyond[hurdle];
        match hop {
            Hop::Cannon => self.slide(beyond, occupied),
            Hop::Grasshopper => self
                .first_blocker(beyond, beyond)
                .map_or(B::EMPTY, B::single),
            Hop::None => B::EMPTY,
        }
    }

    /// Where a hopper would stand to land on `square` coming against this ray (the ray points
    /// from `square` towards the hopper): the piece beyond the hurdle, the hurdle being the
    /// first piece for a cannon and the adjacent square, which must be occupied, for a
    /// grasshopper. None when the hurdle is one of `barred` (`may not hop over`).
    #[inline]
    pub fn hopper_behind(&self, hop: Hop, square: Sq, occupied: B, barred: B) -> Option<Sq> {
        let near = self.beyond[square];
        let hurdle = match hop {
            Hop::Cannon => self.first_blocker(near, occupied)?,
            Hop::Grasshopper => self
                .first_blocker(near, near)
                .filter(|&next| occupied.has(next))?,
            Hop::None => return None,
        };
        if barred.has(hurdle) {
            return None;
        }
        self.first_blocker(self.beyond[hurdle], occupied)
    }
}

/// The squares from `from` along `(dx, dy)`, at most `range` steps, stopping before holes.
pub fn limited_ray<B: Bitboard>(
    geometry: &Geometry<B>,
    from: Sq,
    dx: i32,
    dy: i32,
    range: usize,
) -> B {
    let mut ray = B::EMPTY;
    if !geometry.on_board(from) {
        return ray;
    }
    let mut current = from;
    for _ in 0..range {
        match geometry.step(current, dx, dy) {
            Some(next) => {
                ray |= B::single(next);
                current = next;
            }
            None => break,
        }
    }
    ray
}

/// The absolute step (files, ranks) of an offset relative to a side (`right`, `ahead`).
pub fn absolute(forward: Forward, right: i8, ahead: i8) -> (i32, i32) {
    match forward {
        Forward::Up => (right as i32, ahead as i32),
        Forward::Down => (right as i32, -(ahead as i32)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_squares_name_and_locate_as_the_raw_ones() {
        let hole = Square::new(1, 1);
        let geometry = Geometry::<u64>::new(&BoardDef {
            files: 3,
            ranks: 2,
            holes: vec![hole],
        });
        assert_eq!(geometry.grid().count(), 6);
        let c2 = Square::new(2, 1);
        assert_eq!(geometry.index(c2), Sq::new(5));
        assert_eq!(geometry.square(Sq::new(5)), c2);
        assert_eq!(geometry.coords(Sq::new(5)), (2, 1));
        assert_eq!(geometry.step(Sq::new(5), -1, -1), Some(Sq::new(1)));
        assert_eq!(
            geometry.step(Sq::new(5), 1, 0),
            None,
            "beyond the last file"
        );
        assert!(
            !geometry.on_board(geometry.index(hole)),
            "a hole is not on the board"
        );
        assert!(geometry.on_board(Sq::new(0)));
    }
}
