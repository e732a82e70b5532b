//! A position: where every piece stands, whose turn it is, and the state the rules remember
//! (castling rights, the en-passant target, the move-limit clock, hands).
//!
//! Positions are small fixed-size values, copied to make a move ("copy-make"): the search and
//! the legality test never need to undo anything. The Zobrist hash is updated incrementally by
//! every change and can be checked against [`Position::fresh_hash`].

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind};
use crate::rules::{Rules, MAX_PIECE_TYPES, MAX_SIDES};
use variant_dsl::{MoveMode, PieceId, Placement, Setup, SideId};

/// The largest grid the mailbox holds (16 x 16).
pub const MAX_SQUARES: usize = 256;

/// An en-passant opportunity: the square passed over and the piece that passed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The square a capturer lands on.
    pub target: u16,
    /// The square of the piece removed.
    pub victim: u16,
}

/// A position of a compiled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position<B> {
    by_side: [B; MAX_SIDES],
    by_piece: [B; MAX_PIECE_TYPES],
    /// Per square: 0 when empty, else `1 + side * 32 + piece`.
    mailbox: [u8; MAX_SQUARES],
    hands: [[u8; MAX_PIECE_TYPES]; MAX_SIDES],
    /// Index into the turn order.
    turn: u8,
    castling: u32,
    en_passant: Option<EnPassant>,
    halfmove_clock: u32,
    fullmove_number: u32,
    hash: u64,
    /// Per side, its last action if that was a drop: (piece, square). Not part of a FEN.
    last_drop: [Option<(u8, u16)>; MAX_SIDES],
}

/// A piece on a square: its side and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Occupant {
    /// The owner.
    pub side: usize,
    /// The type.
    pub piece: usize,
}

impl<B: Bitboard> Position<B> {
    fn empty() -> Self {
        Position {
            by_side: [B::EMPTY; MAX_SIDES],
            by_piece: [B::EMPTY; MAX_PIECE_TYPES],
            mailbox: [0; MAX_SQUARES],
            hands: [[0; MAX_PIECE_TYPES]; MAX_SIDES],
            turn: 0,
            castling: 0,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
            last_drop: [None; MAX_SIDES],
        }
    }

    /// Builds a position from a validated setup.
    pub fn from_setup(rules: &Rules<B>, setup: &Setup) -> Result<Self, String> {
        let mut position = Self::empty();
        for placement in &setup.board {
            let square = rules.geometry.index(placement.square);
            if !rules.geometry.on_board(square) {
                return Err(format!("{} is not on the board", placement.square));
            }
            position.put(
                rules,
                placement.side.0 as usize,
                placement.piece.0 as usize,
                square,
            );
        }
        for &(side, piece, count) in &setup.hands {
            let count =
                u8::try_from(count).map_err(|_| "more than 255 pieces in a hand".to_string())?;
            position.set_hand(rules, side.0 as usize, piece.0 as usize, count);
        }
        let order = &rules.definition.turn_order;
        position.turn = order
            .iter()
            .position(|&s| s == setup.side_to_move)
            .ok_or_else(|| "the side to move never moves".to_string())?
            as u8;
        position.hash ^= rules.zobrist.side(setup.side_to_move.0 as usize);
        for &index in &setup.castling {
            position.castling |= 1 << index;
        }
        position.hash ^= rules.zobrist.castling(position.castling);
        if let Some(target) = setup.en_passant {
            let target = rules.geometry.index(target);
            let victim = en_passant_victim(rules, &position, target).ok_or_else(|| {
                format!(
                    "no piece can be captured en passant on {}",
                    rules.geometry.square(target)
                )
            })?;
            position.set_en_passant(
                rules,
                Some(EnPassant {
                    target: target as u16,
                    victim: victim as u16,
                }),
            );
        }
        position.halfmove_clock = setup.halfmove_clock;
        position.fullmove_number = setup.fullmove_number.max(1);
        Ok(position)
    }

    /// The setup describing this position (for FEN output).
    pub fn to_setup(&self, rules: &Rules<B>) -> Setup {
        let mut board = Vec::new();
        for square in rules.geometry.board.squares() {
            if let Some(occupant) = self.at(square) {
                board.push(Placement {
                    square: rules.geometry.square(square),
                    side: SideId(occupant.side as u8),
                    piece: PieceId(occupant.piece as u8),
                });
            }
        }
        let mut hands = Vec::new();
        for side in 0..rules.sides {
            for piece in 0..rules.pieces {
                let count = self.hands[side][piece];
                if count > 0 {
                    hands.push((SideId(side as u8), PieceId(piece as u8), count as u32));
                }
            }
        }
        Setup {
            board,
            hands,
            side_to_move: SideId(self.side_to_move(rules) as u8),
            castling: (0..rules.castles.len())
                .filter(|i| self.castling >> i & 1 != 0)
                .collect(),
            en_passant: self
                .en_passant
                .map(|ep| rules.geometry.square(ep.target as usize)),
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
        }
    }

    /// The piece on a square.
    #[inline]
    pub fn at(&self, square: usize) -> Option<Occupant> {
        match self.mailbox[square] {
            0 => None,
            code => Some(Occupant {
                side: (code as usize - 1) / 32,
                piece: (code as usize - 1) % 32,
            }),
        }
    }

    /// Squares occupied by anyone.
    #[inline]
    pub fn occupied(&self) -> B {
        self.by_side.iter().fold(B::EMPTY, |acc, &b| acc | b)
    }

    /// Squares occupied by a side.
    #[inline]
    pub fn side_pieces(&self, side: usize) -> B {
        self.by_side[side]
    }

    /// Squares occupied by a piece type (all sides).
    #[inline]
    pub fn typed(&self, piece: usize) -> B {
        self.by_piece[piece]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self, rules: &Rules<B>) -> usize {
        rules.definition.turn_order[self.turn as usize].0 as usize
    }

    /// The en-passant opportunity, if any.
    #[inline]
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.en_passant
    }

    /// Castling rights held, one bit per castling move.
    #[inline]
    pub fn castling_rights(&self) -> u32 {
        self.castling
    }

    /// Plies since the last capture or irreversible move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// A side's last action, if it was a drop: (piece, square).
    #[inline]
    pub fn last_drop(&self, side: usize) -> Option<(usize, usize)> {
        self.last_drop[side].map(|(piece, square)| (piece as usize, square as usize))
    }

    /// Pieces in a side's hand, all types together.
    pub fn hand_total(&self, side: usize) -> u32 {
        self.hands[side].iter().map(|&c| c as u32).sum()
    }

    /// The index of the side to move in the turn order.
    #[inline]
    pub fn turn_index(&self) -> usize {
        self.turn as usize
    }

    /// The side that moved last, in the turn order.
    #[inline]
    pub fn previous_side(&self, rules: &Rules<B>) -> usize {
        let order = &rules.definition.turn_order;
        order[(self.turn as usize + order.len() - 1) % order.len()].0 as usize
    }

    /// The incrementally maintained hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces of a type in a side's hand.
    #[inline]
    pub fn hand(&self, side: usize, piece: usize) -> u8 {
        self.hands[side][piece]
    }

    /// The hash computed from scratch, to check the incremental one.
    pub fn fresh_hash(&self, rules: &Rules<B>) -> u64 {
        let z = &rules.zobrist;
        let mut hash = z.side(self.side_to_move(rules)) ^ z.castling(self.castling);
        for square in self.occupied().squares() {
            let o = self.at(square).expect("occupied square has a piece");
            hash ^= z.piece(o.side, o.piece, square);
        }
        for side in 0..rules.sides {
            for piece in 0..rules.pieces {
                hash ^= z.hand(side, piece, self.hands[side][piece] as u32);
            }
        }
        if let Some(ep) = self.en_passant {
            hash ^= z.en_passant(ep.target as usize);
        }
        hash
    }

    #[inline]
    fn put(&mut self, rules: &Rules<B>, side: usize, piece: usize, square: usize) {
        let bit = B::single(square);
        self.by_side[side] |= bit;
        self.by_piece[piece] |= bit;
        self.mailbox[square] = (1 + side * 32 + piece) as u8;
        self.hash ^= rules.zobrist.piece(side, piece, square);
    }

    #[inline]
    fn remove(&mut self, rules: &Rules<B>, square: usize) -> Option<Occupant> {
        let occupant = self.at(square)?;
        let bit = B::single(square);
        self.by_side[occupant.side] ^= bit;
        self.by_piece[occupant.piece] ^= bit;
        self.mailbox[square] = 0;
        self.hash ^= rules.zobrist.piece(occupant.side, occupant.piece, square);
        Some(occupant)
    }

    fn set_hand(&mut self, rules: &Rules<B>, side: usize, piece: usize, count: u8) {
        self.hash ^= rules
            .zobrist
            .hand(side, piece, self.hands[side][piece] as u32);
        self.hands[side][piece] = count;
        self.hash ^= rules.zobrist.hand(side, piece, count as u32);
    }

    fn set_en_passant(&mut self, rules: &Rules<B>, value: Option<EnPassant>) {
        if let Some(old) = self.en_passant {
            self.hash ^= rules.zobrist.en_passant(old.target as usize);
        }
        if let Some(new) = value {
            self.hash ^= rules.zobrist.en_passant(new.target as usize);
        }
        self.en_passant = value;
    }

    /// Plays a move that the move generator produced. Nothing is checked.
    pub fn play_unchecked(&mut self, rules: &Rules<B>, mv: Move) {
        let us = self.side_to_move(rules);
        let from = mv.from as usize;
        let to = mv.to as usize;
        let mut irreversible = false;
        let mut next_en_passant = None;
        self.last_drop[us] = match mv.kind {
            MoveKind::Drop(piece) => Some((piece.0, mv.to)),
            _ => None,
        };
        let mut captured = false;
        match mv.kind {
            MoveKind::Normal | MoveKind::Promote(_) => {
                captured = self.remove(rules, to).is_some();
                irreversible |= captured;
                let mover = self.remove(rules, from).expect("a move starts on a piece");
                irreversible |= rules.irreversible[mover.piece];
                let piece = match mv.kind {
                    MoveKind::Promote(new) => new.0 as usize,
                    _ => mover.piece,
                };
                self.put(rules, us, piece, to);
                next_en_passant = created_en_passant(rules, us, mover.piece, from, to);
            }
            MoveKind::EnPassant => {
                let victim = self.en_passant.expect("en passant needs a target").victim;
                self.remove(rules, victim as usize);
                let mover = self.remove(rules, from).expect("a move starts on a piece");
                self.put(rules, us, mover.piece, to);
                irreversible = true;
                captured = true;
            }
            MoveKind::Castle(index) => {
                let castle = &rules.castles[index as usize];
                let king = self.remove(rules, castle.king_from).expect("castling king");
                let rook = self.remove(rules, castle.rook_from).expect("castling rook");
                self.put(rules, us, king.piece, castle.king_to);
                self.put(rules, us, rook.piece, castle.rook_to);
            }
            MoveKind::Drop(piece) => {
                let piece = piece.0 as usize;
                let count = self.hands[us][piece].saturating_sub(1);
                self.set_hand(rules, us, piece, count);
                self.put(rules, us, piece, to);
            }
        }
        if let Some(converted) = mv.converts {
            let converted = converted as usize;
            if let Some(taken) = self.remove(rules, converted) {
                self.put(rules, us, taken.piece, converted);
                irreversible = true;
            }
        }
        let mut lost = rules.castle_loss[from] | rules.castle_loss[to];
        if captured && rules.capture_effects {
            lost |= self.capture_effects(rules, to);
        }
        if let Some(converted) = mv.converts {
            lost |= rules.castle_loss[converted as usize];
        }
        if self.castling & lost != 0 {
            self.hash ^= rules.zobrist.castling(self.castling & lost);
            self.castling &= !lost;
        }
        self.set_en_passant(rules, next_en_passant);
        // Clocks come from user FENs: they saturate rather than wrap.
        self.halfmove_clock = if irreversible {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
        self.hash ^= rules.zobrist.side(us);
        self.turn = ((self.turn as usize + 1) % rules.definition.turn_order.len()) as u8;
        if self.turn == 0 {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.hash ^= rules.zobrist.side(self.side_to_move(rules));
    }

    /// The game's capture effects around a capture that landed on `square`: the capturer and
    /// the pieces around removed as the `capture` rules say. Returns the castling rights lost
    /// with the squares emptied.
    fn capture_effects(&mut self, rules: &Rules<B>, square: usize) -> u32 {
        let effects = &rules.definition.capture;
        let mut lost = 0;
        if effects.remove_capturer {
            self.remove(rules, square);
        }
        if let Some(except) = &effects.remove_around_except {
            for around in rules.neighbours[square].squares() {
                let spared = self
                    .at(around)
                    .is_none_or(|o| except.iter().any(|p| p.0 as usize == o.piece));
                if !spared {
                    self.remove(rules, around);
                    lost |= rules.castle_loss[around];
                }
            }
        }
        lost
    }

    /// Whether `square` is attacked by `attacker` with the board occupied as `occupied`.
    pub fn attacked_by(
        &self,
        rules: &Rules<B>,
        square: usize,
        attacker: usize,
        occupied: B,
    ) -> bool {
        let theirs = self.by_side[attacker];
        let attacks = &rules.attacks[attacker];
        for leap in &attacks.leaps {
            if (leap.sources[square] & leap.zone & theirs & self.by_piece[leap.piece.0 as usize])
                .any()
            {
                return true;
            }
        }
        for ride in &attacks.rides {
            let ray = &rules.rays[ride.ray];
            let riders = ride
                .pieces
                .iter()
                .fold(B::EMPTY, |acc, p| acc | self.by_piece[p.0 as usize])
                & theirs;
            let reach = match &ride.reach {
                Some(reach) => reach[square],
                None => ray.beyond[square],
            };
            if (reach & riders).is_empty() {
                continue;
            }
            if let Some(first) = ray.first_blocker(reach, occupied) {
                if riders.has(first) {
                    return true;
                }
            }
        }
        for lame in &attacks.lame {
            let pieces = theirs & self.by_piece[lame.piece.0 as usize];
            for &(from, path) in &lame.sources[square] {
                if pieces.has(from) && (path & occupied).is_empty() {
                    return true;
                }
            }
        }
        false
    }

    /// The squares of the pieces of every opponent of `side` that could capture on `square`, with
    /// the board occupied as `occupied` (for messages; [`Position::attacked`] is the fast test).
    pub fn attackers(&self, rules: &Rules<B>, square: usize, side: usize, occupied: B) -> B {
        let mut found = B::EMPTY;
        for other in (0..rules.sides).filter(|&other| other != side) {
            let theirs = self.by_side[other] & occupied;
            for from in theirs.squares() {
                let Some(occupant) = self.at(from) else {
                    continue;
                };
                let moves = rules.moves_of(other, occupant.piece);
                let reach = crate::movegen::targets(
                    rules,
                    moves,
                    from,
                    theirs,
                    B::single(square),
                    occupied | B::single(square),
                );
                if reach.has(square) {
                    found |= B::single(from);
                }
            }
        }
        found
    }

    /// Whether any opponent of `side` attacks `square`.
    #[inline]
    pub fn attacked(&self, rules: &Rules<B>, square: usize, side: usize, occupied: B) -> bool {
        (0..rules.sides)
            .any(|other| other != side && self.attacked_by(rules, square, other, occupied))
    }

    /// The royal pieces of a side.
    #[inline]
    pub fn royals(&self, rules: &Rules<B>, side: usize) -> B {
        rules
            .royal
            .iter()
            .fold(B::EMPTY, |acc, p| acc | self.by_piece[p.0 as usize])
            & self.by_side[side]
    }

    /// Whether any royal piece of `side` is attacked. Where captures have effects (`capture`
    /// rules), an attack counts only if the capture would not remove one of the attacker's own
    /// royal pieces: a capture that destroys its own King is no threat.
    pub fn in_check(&self, rules: &Rules<B>, side: usize) -> bool {
        let occupied = self.occupied();
        if rules.capture_effects {
            return self
                .royals(rules, side)
                .squares()
                .any(|square| self.checkers(rules, square, side).any());
        }
        self.royals(rules, side)
            .squares()
            .any(|sq| self.attacked(rules, sq, side, occupied))
    }

    /// The pieces that give check to `side`'s piece on `square`: the attackers whose capture
    /// there would not remove one of their own royal pieces (all attackers in a game without
    /// capture effects). For messages and for check under capture effects.
    pub fn checkers(&self, rules: &Rules<B>, square: usize, side: usize) -> B {
        let attackers = self.attackers(rules, square, side, self.occupied());
        if !rules.capture_effects {
            return attackers;
        }
        attackers
            .squares()
            .filter(|&attacker| !self.capture_hurts_own_royal(rules, attacker, square))
            .fold(B::EMPTY, |acc, attacker| acc | B::single(attacker))
    }

    /// Whether the piece on `attacker`, capturing on `target`, would remove a royal piece of its
    /// own side by the capture effects.
    fn capture_hurts_own_royal(&self, rules: &Rules<B>, attacker: usize, target: usize) -> bool {
        let Some(owner) = self.at(attacker).map(|o| o.side) else {
            return false;
        };
        let mut after = self.clone();
        after.remove(rules, target);
        let mover = after.remove(rules, attacker);
        if let Some(mover) = mover {
            after.put(rules, owner, mover.piece, target);
        }
        after.capture_effects(rules, target);
        after.royals(rules, owner).count() < self.royals(rules, owner).count()
    }
}

/// The en-passant opportunity a move creates: an initial lame move that passed over a square.
fn created_en_passant<B: Bitboard>(
    rules: &Rules<B>,
    side: usize,
    piece: usize,
    from: usize,
    to: usize,
) -> Option<EnPassant> {
    let moves = rules.moves_of(side, piece);
    if !moves.initial_zone.has(from) {
        return None;
    }
    moves.lame[from]
        .iter()
        .find(|leap| leap.to == to && leap.initial_only && leap.mode != MoveMode::CaptureOnly)
        .and_then(|leap| leap.passed)
        .map(|passed| EnPassant {
            target: passed as u16,
            victim: to as u16,
        })
}

/// For a FEN's en-passant square: the piece of the side that moved last standing just beyond it.
fn en_passant_victim<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    target: usize,
) -> Option<usize> {
    let previous = position.previous_side(rules);
    (0..rules.pieces).find_map(|piece| {
        rules
            .moves_of(previous, piece)
            .lame
            .iter()
            .enumerate()
            .find_map(|(from, leaps)| {
                leaps
                    .iter()
                    .find(|leap| leap.passed == Some(target) && leap.initial_only)
                    .filter(|leap| {
                        position.at(leap.to)
                            == Some(Occupant {
                                side: previous,
                                piece,
                            })
                            && position.at(from).is_none()
                    })
                    .map(|leap| leap.to)
            })
    })
}
