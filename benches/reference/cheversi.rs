//! Cheversi, hand-written on u64 bitboards: the speed reference for the generic engine.
//!
//! Written from `rules/cheversi.txt`, rulings CH1-CH8 and the readings stated in the comments of
//! `games/cheversi.variant`, without reading the engine. Squares are numbered a1 = 0, b1 = 1, ...,
//! h8 = 63 (rank * 8 + file). A placement is a piece type and a square; two pieces of one type
//! are the same placement (the engine lists `R@e5` once).
//!
//! The rules, as this file applies them (the mover places its `n`th piece):
//! - White's 1st placement is the King, anywhere (CH3); Black may not place his King before his
//!   8th placement (CH3, CH4).
//! - From the second piece on, every placement touches (one of the 8 neighbouring squares) a
//!   piece of either colour (CH1, CH2).
//! - A side's second Bishop stands on the other square colour than its first (CH5).
//! - If the opponent's last placement (the previous ply) was his Queen and the mover still holds
//!   his Queen, the mover must place it (CH6). Black must place his Queen at his 7th placement
//!   if he still holds it (CH6).
//! - Black's King (his 8th placement) touches White's last-placed piece (CH4).
//! - The lookahead: a placement is illegal if it leaves the opponent no legal placement (CH4).
//!   See [`Position::targets`] for why it can only bind on White's 8th placement.
//! - The game ends when both hands are empty (CH8); the score of a side is the number of pairs
//!   (own piece, empty square it attacks), lines blocked by any piece (CH7).
//!
//! Shared by `benches/cheversi.rs` and `tests/cheversi_reference.rs`, which use different parts.
#![allow(dead_code)]

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

pub const KING: usize = 0;
pub const QUEEN: usize = 1;
pub const ROOK: usize = 2;
pub const BISHOP: usize = 3;
pub const KNIGHT: usize = 4;
/// The letters of the piece types, in index order (the engine's drop notation: `K@e4`).
pub const LETTERS: [char; 5] = ['K', 'Q', 'R', 'B', 'N'];
/// Each side's hand at the start: 1 King, 1 Queen, 2 Rooks, 2 Bishops, 2 Knights.
const START_HAND: [u8; 5] = [1, 1, 2, 2, 2];

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// The dark squares (a1, c1, ..., b2, ...).
const DARK: u64 = 0xAA55_AA55_AA55_AA55;

/// The squares neighbouring some square of `b` (the 8-neighbourhood, `b` itself not included
/// unless a square of `b` neighbours another).
#[inline(always)]
const fn neighbours(b: u64) -> u64 {
    let sideways = ((b << 1) & !FILE_A) | ((b >> 1) & !FILE_H);
    let row = b | sideways;
    sideways | (row << 8) | (row >> 8)
}

const fn leaper_table(steps: [(i32, i32); 8]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < 8 {
            let (f, r) = (file + steps[i].0, rank + steps[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Directions: the first four increase the square index, the last four decrease it.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),   // north
    (1, 0),   // east
    (1, 1),   // north-east
    (-1, 1),  // north-west
    (0, -1),  // south
    (-1, 0),  // west
    (-1, -1), // south-west
    (1, -1),  // south-east
];

const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32, (sq / 8) as i32);
            loop {
                f += DIRECTIONS[d].0;
                r += DIRECTIONS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                table[d][sq] |= 1u64 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

static KING_ATTACKS: [u64; 64] = leaper_table([
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
]);
static KNIGHT_ATTACKS: [u64; 64] = leaper_table([
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static RAYS: [[u64; 64]; 8] = ray_table();

/// The squares a slider on `sq` attacks along direction `d`, up to and including the first
/// occupied square.
#[inline(always)]
fn ray(d: usize, sq: usize, occupied: u64) -> u64 {
    let full = RAYS[d][sq];
    let blockers = full & occupied;
    if blockers == 0 {
        return full;
    }
    let first = if d < 4 {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    full ^ RAYS[d][first as usize]
}

#[inline(always)]
fn rook_attacks(sq: usize, occupied: u64) -> u64 {
    ray(0, sq, occupied) | ray(1, sq, occupied) | ray(4, sq, occupied) | ray(5, sq, occupied)
}

#[inline(always)]
fn bishop_attacks(sq: usize, occupied: u64) -> u64 {
    ray(2, sq, occupied) | ray(3, sq, occupied) | ray(6, sq, occupied) | ray(7, sq, occupied)
}

/// One placement: a piece type (index into [`LETTERS`]) on a square (0..64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub piece: u8,
    pub square: u8,
}

impl Placement {
    /// The engine's notation: `K@e4` (the same letters for both sides).
    pub fn notation(self) -> String {
        let file = (b'a' + self.square % 8) as char;
        let rank = (b'1' + self.square / 8) as char;
        format!("{}@{file}{rank}", LETTERS[self.piece as usize])
    }
}

/// A Cheversi position: pieces by side and type, hands, placements made, each side's last
/// placement, side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub pieces: [[u64; 5]; 2],
    pub occupied: [u64; 2],
    pub hand: [[u8; 5]; 2],
    pub placed: [u8; 2],
    pub last: [Option<Placement>; 2],
    pub side: usize,
}

impl Default for Position {
    fn default() -> Self {
        Self::start()
    }
}

impl Position {
    /// The empty board, both hands full, White to place.
    pub fn start() -> Self {
        Position {
            pieces: [[0; 5]; 2],
            occupied: [0; 2],
            hand: [START_HAND; 2],
            placed: [0; 2],
            last: [None; 2],
            side: WHITE,
        }
    }

    /// The game is over when both hands are empty (CH8: 16 placements).
    #[inline(always)]
    pub fn is_over(&self) -> bool {
        self.placed[WHITE] + self.placed[BLACK] == 16
    }

    /// The legal placements of the side to move: for each piece type, the squares it may be
    /// placed on (empty where the type may not be placed). Empty everywhere once the game is
    /// over.
    ///
    /// The lookahead ("a placement is illegal if it leaves the opponent no legal placement") is
    /// applied only to White's placements while Black's next one is his King (White's 8th
    /// placement): the Black King must touch White's last piece, so White's piece must keep an
    /// empty neighbour. Everywhere else the opponent always has a legal placement, whatever the
    /// mover does, so the rule never removes anything:
    /// - After any placement the board holds 2 to 15 pieces and is connected, so an empty square
    ///   touches a piece: any unrestricted piece (or a called Queen, or Black's 7th-placement
    ///   Queen) has a square.
    /// - A Bishop of the required colour c always has a square: if no empty c-square touched
    ///   the pieces S, then every c-square diagonal to a c-square of S would be in S, and the
    ///   c-squares are diagonally connected, so S would hold all 32 c-squares, or none, and then
    ///   every square of S (colour not c) has an orthogonal neighbour of colour c, in S: absurd.
    /// - Black's only restricted piece is the King (8th placement); White's 8th placement is
    ///   the one it follows.
    /// - The lookahead cannot cascade: White's 8th placement always has a legal square, even
    ///   with the lookahead (so Black's 7th placement is never limited by it). With 14 pieces
    ///   S on the board, suppose no empty square touching S (of colour c for a Bishop) had an
    ///   empty neighbour. Plain case: the empty squares away from S would be closed under
    ///   neighbourhood, so there are none; all 50 empty squares would touch only pieces, at
    ///   least 150 empty-piece adjacencies against at most 14 * 8 = 112. Bishop case: the
    ///   empty c-squares away from S are closed under diagonal steps, so there are none; the
    ///   at least 18 empty c-squares see only pieces, so the c-squares of S cover the 49
    ///   diagonal c-c adjacencies (at least 13 squares, degree at most 4), leaving at most one
    ///   other piece to fill the at least 18 * 2 / 4 = 9 squares orthogonal to them: absurd.
    ///
    /// So every game lasts 16 placements (the playouts still stop if a side cannot place).
    #[inline(always)]
    pub fn targets(&self) -> [u64; 5] {
        let mut targets = [0u64; 5];
        if self.is_over() {
            return targets;
        }
        let us = self.side;
        let them = us ^ 1;
        let hand = &self.hand[us];
        let occupied = self.occupied[WHITE] | self.occupied[BLACK];
        let empty = !occupied;
        let number = self.placed[us] + 1; // the mover's placement number, 1..=8
                                          // CH3: White's first placement is the King, anywhere (touching, if the board has pieces).
        if us == WHITE && number == 1 {
            targets[KING] = if occupied == 0 {
                empty
            } else {
                neighbours(occupied) & empty
            };
            return targets;
        }
        // CH1, CH2: every placement after the first touches a piece of either colour.
        let mut squares = if occupied == 0 {
            empty
        } else {
            neighbours(occupied) & empty
        };
        // CH4 lookahead: Black's next placement is his King, touching this piece.
        if us == WHITE && self.placed[BLACK] == 7 && self.hand[BLACK][KING] > 0 {
            squares &= neighbours(empty);
        }
        if us == BLACK {
            if number == 8 {
                // CH4: Black's 8th placement is the King, touching White's last piece.
                if hand[KING] > 0 {
                    if let Some(last) = self.last[WHITE] {
                        targets[KING] = KING_ATTACKS[last.square as usize] & squares;
                    }
                }
                return targets;
            }
        } else if hand[KING] > 0 {
            targets[KING] = squares;
        }
        // CH6: the queen call (only while the mover holds his Queen), and Black's 7th.
        if hand[QUEEN] > 0 {
            let called = matches!(self.last[them], Some(p) if p.piece as usize == QUEEN);
            if called || (us == BLACK && number == 7) {
                return [0, squares, 0, 0, 0];
            }
            targets[QUEEN] = squares;
        }
        if hand[ROOK] > 0 {
            targets[ROOK] = squares;
        }
        if hand[KNIGHT] > 0 {
            targets[KNIGHT] = squares;
        }
        if hand[BISHOP] > 0 {
            // CH5: the second Bishop on the other colour.
            let own = self.pieces[us][BISHOP];
            targets[BISHOP] = if own == 0 {
                squares
            } else if own & DARK != 0 {
                squares & !DARK
            } else {
                squares & DARK
            };
        }
        targets
    }

    /// Places `piece` on `square` for the side to move, and passes the turn.
    #[inline(always)]
    pub fn play(&mut self, piece: usize, square: u32) {
        let us = self.side;
        let bit = 1u64 << square;
        self.pieces[us][piece] |= bit;
        self.occupied[us] |= bit;
        self.hand[us][piece] -= 1;
        self.placed[us] += 1;
        self.last[us] = Some(Placement {
            piece: piece as u8,
            square: square as u8,
        });
        self.side = us ^ 1;
    }

    /// The legal placements, piece type by piece type, squares in increasing order.
    pub fn legal(&self) -> Vec<Placement> {
        let targets = self.targets();
        let mut list = Vec::new();
        for (piece, &mask) in targets.iter().enumerate() {
            let mut mask = mask;
            while mask != 0 {
                list.push(Placement {
                    piece: piece as u8,
                    square: mask.trailing_zeros() as u8,
                });
                mask &= mask - 1;
            }
        }
        list
    }

    /// CH7: each side's points, White first: one per (own piece, empty square it attacks).
    pub fn scores(&self) -> [u32; 2] {
        let occupied = self.occupied[WHITE] | self.occupied[BLACK];
        let empty = !occupied;
        let mut scores = [0u32; 2];
        for (side, score) in scores.iter_mut().enumerate() {
            let pieces = &self.pieces[side];
            let mut total = 0;
            for (piece, &board) in pieces.iter().enumerate() {
                let mut board = board;
                while board != 0 {
                    let sq = board.trailing_zeros() as usize;
                    board &= board - 1;
                    let attacks = match piece {
                        KING => KING_ATTACKS[sq],
                        KNIGHT => KNIGHT_ATTACKS[sq],
                        ROOK => rook_attacks(sq, occupied),
                        BISHOP => bishop_attacks(sq, occupied),
                        _ => rook_attacks(sq, occupied) | bishop_attacks(sq, occupied),
                    };
                    total += (attacks & empty).count_ones();
                }
            }
            *score = total;
        }
        scores
    }
}

/// Leaf count of the legal placement tree below `position`, counted in bulk at the last ply.
pub fn perft_from(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let targets = position.targets();
    if depth == 1 {
        return targets.iter().map(|m| u64::from(m.count_ones())).sum();
    }
    let mut nodes = 0;
    for (piece, &mask) in targets.iter().enumerate() {
        let mut mask = mask;
        while mask != 0 {
            let square = mask.trailing_zeros();
            mask &= mask - 1;
            let mut child = *position;
            child.play(piece, square);
            nodes += perft_from(&child, depth - 1);
        }
    }
    nodes
}

/// Perft from the empty start.
pub fn perft(depth: u32) -> u64 {
    perft_from(&Position::start(), depth)
}

/// Perft from the empty start with every leaf placement played (no bulk counting), for a
/// comparison with engines that play their leaves.
pub fn perft_played(depth: u32) -> u64 {
    fn walk(position: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        for (piece, &mask) in position.targets().iter().enumerate() {
            let mut mask = mask;
            while mask != 0 {
                let square = mask.trailing_zeros();
                mask &= mask - 1;
                let mut child = *position;
                child.play(piece, square);
                nodes += walk(&child, depth - 1);
            }
        }
        nodes
    }
    walk(&Position::start(), depth)
}

/// SplitMix64: a tiny seeded generator (the one `benches/playouts.rs` uses).
pub struct SplitMix(pub u64);

impl SplitMix {
    #[inline(always)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    #[inline(always)]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays one uniformly random game from the start to its end; `visit` sees, at every ply, the
/// position, the number of legal placements and the one chosen. Returns the final position.
#[inline(always)]
pub fn random_game(
    rng: &mut SplitMix,
    mut visit: impl FnMut(&Position, u32, Placement),
) -> Position {
    let mut position = Position::start();
    loop {
        let targets = position.targets();
        let counts = targets.map(u64::count_ones);
        let total: u32 = counts.iter().sum();
        if total == 0 {
            // Over (both hands empty), or a side that cannot place (never, see `targets`).
            return position;
        }
        let mut index = rng.below(total as usize) as u32;
        let mut piece = 0;
        while index >= counts[piece] {
            index -= counts[piece];
            piece += 1;
        }
        let mut mask = targets[piece];
        for _ in 0..index {
            mask &= mask - 1;
        }
        let square = mask.trailing_zeros();
        visit(
            &position,
            total,
            Placement {
                piece: piece as u8,
                square: square as u8,
            },
        );
        position.play(piece, square);
    }
}

/// One random playout to the end: (plies, White's score, Black's score).
pub fn playout(rng: &mut SplitMix) -> (u32, u32, u32) {
    let position = random_game(rng, |_, _, _| {});
    let [white, black] = position.scores();
    (
        u32::from(position.placed[WHITE] + position.placed[BLACK]),
        white,
        black,
    )
}
