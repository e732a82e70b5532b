//! A position: where every piece stands, whose turn it is, and the state the rules remember
//! (castling rights, gating rights, the en-passant target, the move-limit clock, hands,
//! counters).
//!
//! Positions are small fixed-size values, copied to make a move ("copy-make"): the search and
//! the legality test never need to undo anything. The Zobrist hash is updated incrementally by
//! every change and can be checked against [`Position::fresh_hash`].

use crate::bitboard::Bitboard;
use crate::core::index::{ByPiece, BySide, Sq};
use crate::core::setup::SetupError;
use crate::core::tables::Tables;
pub use crate::core::tables::MAX_NUMBERED;
use crate::core::tables::NEUTRAL_SLOT;
use crate::edit::Edit;
use crate::moves::{Move, MoveKind};
use variant_dsl::{MoveMode, PieceId, Placement, Setup, SideId};

/// The largest grid the mailbox holds (16 x 16).
pub const MAX_SQUARES: usize = 256;

/// The square of a numbered piece that is gone.
const NO_SQUARE: u8 = u8::MAX;

/// An en-passant opportunity: the square passed over and the piece that passed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The square a capturer lands on.
    pub target: Sq,
    /// The square of the piece removed.
    pub victim: Sq,
}

/// A position of a compiled game. Copied whole, as one block of memory (see its `Clone`).
#[derive(Copy, Debug, PartialEq, Eq)]
pub struct Position<B: Bitboard> {
    by_side: BySide<B>,
    by_piece: ByPiece<B>,
    /// Per square: 0 when empty, else `1 + side * 32 + piece`.
    mailbox: B::Mailbox,
    hands: BySide<ByPiece<u8>>,
    /// Per side, the pieces in its hand, all types together (kept with `hands`: drop rules and
    /// end rules read it at every position).
    hand_totals: BySide<u16>,
    /// Per side, the types it holds in hand, a bit per type (kept with `hands`: drop generation
    /// asks at every position, and reading the counts one by one waited for the copy of the
    /// position that had just written them).
    held: BySide<u32>,
    /// Prisoners per owner and type (pieces captured `to prison`).
    prisons: BySide<ByPiece<u8>>,
    /// Index into the turn order (in play).
    turn: u8,
    /// The side to move.
    side: SideId,
    /// The side that made the last action (not part of the hash: history, not state).
    mover: SideId,
    /// 0 in play; `i + 1` during the placement phase `i`.
    phase: u8,
    /// Squares of promoted pieces, kept only in games whose captures go to the hand.
    promoted: B,
    /// How far the current turn has gone (games with turns of several actions).
    progress: Progress<B>,
    castling: u32,
    /// The squares whose piece may still gate (`gating`): each holds the piece that stood
    /// there at the setup, so the side is the occupant's. Hashed.
    gates: B,
    en_passant: Option<EnPassant>,
    halfmove_clock: u32,
    fullmove_number: u32,
    hash: u64,
    /// Per side, its last action if that was a drop: (piece, square). Part of the hash and the
    /// FEN (`last:`) in games whose rules read it.
    last_drop: BySide<LastDrop>,
    /// Per numbered piece (`numbers`; side by side, from [`Rules::number_base`]), its square,
    /// [`NO_SQUARE`] when it is gone; kept only in games that number pieces, and not hashed (a
    /// number is a name, not state the rules compare). A table of squares rather than a number
    /// per square keeps positions small, and so copy-make fast.
    numbers: [u8; MAX_NUMBERED],
    /// Per side, the values of the game's counters (`counter`), in declaration order; hashed.
    counters: BySide<[u8; variant_dsl::MAX_COUNTERS]>,
    /// The sides whose last action was a pass, a bit per side, kept in games with `may pass`
    /// (`opponent passed`): history like [`Position::mover`], neither hashed nor in the FEN,
    /// as Fairy-Stockfish keeps it.
    passed: u8,
    /// Per side, how many of its last actions in a row left an opponent in check, kept in
    /// games with `perpetual check` (a repetition reads it): history like [`Position::passed`],
    /// neither hashed nor in the FEN (a position read from a FEN has no checks behind it).
    checks_in_a_row: BySide<u16>,
    /// The running count of `counting` (Fairy-Stockfish's ASEAN counting): its limit in plies,
    /// 0 while no count runs, and the plies counted. Neither hashed (a repetition ignores it,
    /// as Fairy-Stockfish's does) nor read by the move generation; the FEN carries it.
    counting_limit: u16,
    /// The plies counted since the running count started.
    counting_plies: u16,
    /// Per side, the checks its actions gave since the half-move clock's last reset (or the
    /// FEN), the resetting action's excluded; kept in games whose move limit grows with checks
    /// (`plus N per check beyond M`). History like [`Position::passed`]: neither hashed nor in
    /// the FEN.
    checks_since_clock: BySide<u16>,
    /// The side whose action reset the clock and gave check (or, in a position read from a FEN,
    /// the side that gave the check standing there), plus 1; 0 for none. Counted for that side
    /// while it is to move, as Fairy-Stockfish's window of `ceil(clock / 2)` moves per side does.
    clock_reset_check: u8,
    /// Per side, the enemy pieces it has chased with each of its last actions and for how many
    /// in a row, kept in games with `perpetual chase` (a repetition reads it): history like
    /// [`Position::checks_in_a_row`], neither hashed nor in the FEN.
    chases: BySide<ChaseRuns>,
}

/// The enemy pieces a side chased (`perpetual chase`) with each of its last actions: up to
/// [`ChaseRuns::KEPT`] pieces, each as its square (followed as the piece moves) and how many of
/// the side's actions in a row chased it, packed into one word each (`square << 16 | run`; 0
/// for none). More pieces chased at once than that keep the longest runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChaseRuns([u32; ChaseRuns::KEPT]);

impl ChaseRuns {
    /// How many chased pieces a side's runs follow.
    pub const KEPT: usize = 3;

    /// The chased pieces: (square, actions in a row that chased it).
    pub fn runs(&self) -> impl Iterator<Item = (Sq, u16)> + '_ {
        self.0
            .iter()
            .filter(|&&word| word != 0)
            .map(|&word| (Sq::new((word >> 16) as usize), word as u16))
    }

    /// The longest run.
    pub fn longest(&self) -> u16 {
        self.runs().map(|(_, run)| run).max().unwrap_or(0)
    }

    /// The runs after the side's action chased the pieces on `chased`: a piece chased again
    /// goes on with its run, a new one starts at 1, the others end.
    pub fn after_chase(&self, chased: impl Iterator<Item = Sq>) -> ChaseRuns {
        let mut next: Vec<(Sq, u16)> = chased
            .map(|square| {
                let run = self
                    .runs()
                    .find(|&(at, _)| at == square)
                    .map_or(0, |(_, run)| run);
                (square, run.saturating_add(1))
            })
            .collect();
        next.sort_by_key(|&(_, run)| std::cmp::Reverse(run));
        let mut runs = ChaseRuns::default();
        for (slot, (square, run)) in runs.0.iter_mut().zip(next) {
            *slot = u32::from(square.0) << 16 | u32::from(run);
        }
        runs
    }

    /// The runs after an enemy piece moved from `from` to `to`: a chased piece is followed.
    pub fn after_enemy_move(&self, from: Sq, to: Sq) -> ChaseRuns {
        let mut runs = *self;
        for slot in runs.0.iter_mut() {
            if *slot != 0 && (*slot >> 16) as usize == from.index() {
                *slot = u32::from(to.0) << 16 | (*slot & 0xffff);
            }
        }
        runs
    }
}

/// A side's last drop, `(piece, square)`, packed into one aligned word: read just after a
/// position is copied, a field of odd size and alignment straddled the copy's wide stores, and
/// its load waited for them to reach memory (perf showed the stall at every drop played).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct LastDrop(u32);

impl LastDrop {
    const NONE: LastDrop = LastDrop(0);

    #[inline(always)]
    fn of(drop: Option<(PieceId, Sq)>) -> Self {
        match drop {
            Some((piece, square)) => LastDrop((u32::from(piece.0) + 1) << 16 | u32::from(square.0)),
            None => LastDrop::NONE,
        }
    }

    #[inline(always)]
    fn get(self) -> Option<(PieceId, Sq)> {
        (self.0 != 0).then(|| (PieceId(((self.0 >> 16) - 1) as u8), Sq(self.0 as u8)))
    }
}

/// One copy of the whole position: the derived `Clone` of a generic type copies field by
/// field, which cost perft in a placement game (a copy at every counted position) a tenth of
/// its time.
impl<B: Bitboard> Clone for Position<B> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

/// How far a turn of several actions has gone; all zero at the start of a turn, except what
/// is computed then (`longest`, `start`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Progress<B> {
    /// Actions taken this turn.
    pub actions: u8,
    /// Drops among them.
    pub drops: u8,
    /// Squares of the pieces that acted this turn.
    pub acted: B,
    /// With `maximal`, the length of the longest turn, computed at its start.
    pub longest: u8,
    /// The `at turn start` conditions as they held at the start of the turn, one bit each.
    pub start: u32,
}

/// A piece on a square: its side and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Occupant {
    /// The owner.
    pub side: SideId,
    /// The type.
    pub piece: PieceId,
}

impl<B: Bitboard> Position<B> {
    fn empty() -> Self {
        Position {
            by_side: BySide::splat(B::EMPTY),
            by_piece: ByPiece::splat(B::EMPTY),
            mailbox: B::EMPTY_MAILBOX,
            hands: BySide::splat(ByPiece::splat(0)),
            hand_totals: BySide::splat(0),
            held: BySide::splat(0),
            prisons: BySide::splat(ByPiece::splat(0)),
            turn: 0,
            side: SideId(0),
            mover: SideId(0),
            phase: 0,
            promoted: B::EMPTY,
            progress: Progress {
                actions: 0,
                drops: 0,
                acted: B::EMPTY,
                longest: 0,
                start: 0,
            },
            castling: 0,
            gates: B::EMPTY,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
            last_drop: BySide::splat(LastDrop::NONE),
            numbers: [NO_SQUARE; MAX_NUMBERED],
            counters: BySide::splat([0; variant_dsl::MAX_COUNTERS]),
            passed: 0,
            checks_in_a_row: BySide::splat(0),
            counting_limit: 0,
            counting_plies: 0,
            checks_since_clock: BySide::splat(0),
            clock_reset_check: 0,
            chases: BySide::splat(ChaseRuns::default()),
        }
    }

    /// Builds a position from a validated setup, and whether its turn is still to begin (what
    /// the start of a turn computes is then the caller's: [`Position::set_turn_start`]). The
    /// rules layer's `Position::from_setup` does both.
    pub(crate) fn from_setup_unstarted(
        rules: &Tables<B>,
        setup: &Setup,
    ) -> Result<(Self, bool), SetupError> {
        let mut position = Self::empty();
        for placement in &setup.board {
            let square = rules.geometry.index(placement.square);
            if !rules.geometry.on_board(square) {
                return Err(SetupError::OffBoard {
                    square: placement.square,
                });
            }
            position.put(rules, placement.side, placement.piece, square);
        }
        if let (Some(square), Some(_)) = (setup.neutral, rules.neutral) {
            let square = rules.geometry.index(square);
            if !rules.geometry.on_board(square) || position.at(square).is_some() {
                return Err(SetupError::OffBoard {
                    square: rules.geometry.square(square),
                });
            }
            position.place_neutral(rules, square);
        }
        for &(side, piece, count) in &setup.hands {
            let count = u8::try_from(count).map_err(|_| SetupError::HandTooLarge)?;
            position.set_hand(rules, side, piece, count);
        }
        // An endless supply is one piece of each supplied type always in every hand.
        for side in rules.side_ids() {
            for piece in rules.piece_ids() {
                if rules.supply >> piece.0 & 1 != 0 {
                    position.set_hand(rules, side, piece, 1);
                }
            }
        }
        for &(side, piece, count) in &setup.prisons {
            let count = u8::try_from(count).map_err(|_| SetupError::PrisonTooLarge)?;
            position.set_prison(rules, side, piece, count);
        }
        for &(side, piece, square) in &setup.last_drops {
            let index = rules.geometry.index(square);
            let placed = position.at(index) == Some(Occupant { side, piece });
            if !placed {
                return Err(SetupError::LastDropMissing { square });
            }
            position.set_last_drop(rules, side, Some((piece, index)));
        }
        for &square in &setup.promoted {
            let square = rules.geometry.index(square);
            if position.at(square).is_some() {
                position.promoted |= B::single(square);
                position.hash ^= rules.zobrist.promoted(square);
            }
        }
        let order = &rules.definition.turn_order;
        match setup.phase {
            Some(phase) => {
                let phase_def = rules
                    .definition
                    .phases
                    .get(phase)
                    .ok_or(SetupError::NoSuchPhase)?;
                if !phase_def.order.contains(&setup.side_to_move) {
                    return Err(SetupError::NotInPhase {
                        side: rules.definition.sides[setup.side_to_move.index()]
                            .name
                            .clone(),
                        phase: phase_def.name.clone(),
                    });
                }
                position.phase = phase as u8 + 1;
                position.hash ^= rules.zobrist.phase(Some(phase));
            }
            None => {
                let first = order
                    .iter()
                    .position(|&s| s == setup.side_to_move)
                    .ok_or(SetupError::NeverMoves)?;
                position.turn = setup.turn.unwrap_or(first) as u8;
                if order.get(position.turn as usize) != Some(&setup.side_to_move) {
                    return Err(SetupError::NotItsTurn);
                }
                if rules.cycle_repeats {
                    position.hash ^= rules.zobrist.slot(position.turn as usize);
                }
            }
        }
        for &(square, number) in &setup.numbers {
            let square = rules.geometry.index(square);
            if let Some(occupant) = position.at(square) {
                if let Some(slot) = rules.number_slot(occupant.side, number) {
                    position.numbers[slot] = square.0;
                }
            }
        }
        position.side = setup.side_to_move;
        position.mover = position.turn_order_previous(rules);
        position.hash ^= rules.zobrist.side(setup.side_to_move);
        for &index in &setup.castling {
            position.castling |= 1 << index;
        }
        position.hash ^= rules.zobrist.castling(position.castling);
        for &(side, square) in &setup.gates {
            let index = rules.geometry.index(square);
            if position.at(index).is_none_or(|o| o.side != side) {
                return Err(SetupError::GateWithoutPiece { square });
            }
            position.gates |= B::single(index);
            position.hash ^= rules.zobrist.gate(index);
        }
        if let Some(target) = setup.en_passant {
            let target = rules.geometry.index(target);
            let victim = en_passant_victim(rules, &position, target).ok_or_else(|| {
                SetupError::NoEnPassantVictim {
                    square: rules.geometry.square(target),
                }
            })?;
            position.set_en_passant(rules, Some(EnPassant { target, victim }));
        }
        for (counter, values) in setup.counters.iter().enumerate() {
            for (side, &value) in rules.side_ids().zip(values) {
                // The FEN reader keeps values within a counter's range.
                position.set_counter(rules, counter, side, value.min(255) as u8);
            }
        }
        position.halfmove_clock = setup.halfmove_clock;
        if let Some((limit, plies)) = setup.counting {
            // The FEN reader keeps the limit within 16 bits.
            position.set_counting(
                limit.min(u32::from(u16::MAX)) as u16,
                plies.min(u32::from(u16::MAX)) as u16,
            );
        }
        position.fullmove_number = setup.fullmove_number.max(1);
        let unstarted = position.restore_progress(rules, &setup.progress)?;
        Ok((position, unstarted))
    }

    /// Sets the turn's progress from a FEN: what the start of a turn computes must be given in
    /// the middle of one, and is left to compute (`true`) at the start of a turn.
    fn restore_progress(
        &mut self,
        rules: &Tables<B>,
        progress: &variant_dsl::TurnProgress,
    ) -> Result<bool, SetupError> {
        let multi = rules.multi_action && self.phase == 0;
        if !multi && (progress.actions > 0 || progress.drops > 0 || !progress.acted.is_empty()) {
            return Err(SetupError::ProgressInSingleActions);
        }
        if progress.actions > rules.definition.turn.actions
            || progress.drops > progress.actions
            || progress.acted.len() > progress.actions as usize * 2
        {
            return Err(SetupError::ImpossibleProgress {
                actions: progress.actions,
                drops: progress.drops,
                acted: progress.acted.len(),
                limit: rules.definition.turn.actions,
            });
        }
        let mut acted = B::EMPTY;
        for &square in &progress.acted {
            let index = rules.geometry.index(square);
            if self.at(index).is_none_or(|o| o.side != self.side) {
                return Err(SetupError::ActedWithoutPiece { square });
            }
            acted |= B::single(index);
        }
        if progress.actions == 0 {
            return Ok(true);
        } else {
            let maximal = rules.definition.turn.maximal;
            let Some(longest) = progress.longest.or((!maximal).then_some(0)) else {
                return Err(SetupError::LongestMissing);
            };
            // `start:` is written only when some bit is set.
            let start = progress.start.unwrap_or(0);
            if rules.definition.turn.maximal && longest > rules.definition.turn.actions {
                return Err(SetupError::LongestTooLarge { longest });
            }
            self.set_progress(
                rules,
                Progress {
                    actions: progress.actions,
                    drops: progress.drops,
                    acted,
                    longest,
                    start,
                },
            );
        }
        Ok(false)
    }

    /// The setup describing this position (for FEN output).
    pub fn to_setup(&self, rules: &Tables<B>) -> Setup {
        let mut board = Vec::new();
        for square in rules.geometry.board.squares() {
            if let Some(occupant) = self.at(square) {
                board.push(Placement {
                    square: rules.geometry.square(square),
                    side: occupant.side,
                    piece: occupant.piece,
                });
            }
        }
        let mut hands = Vec::new();
        for side in rules.side_ids() {
            for piece in rules.piece_ids() {
                let count = self.hands[side][piece];
                let supplied = rules.supply >> piece.0 & 1 != 0;
                if count > 0 && !supplied {
                    hands.push((side, piece, count as u32));
                }
            }
        }
        Setup {
            board,
            hands,
            side_to_move: self.side_to_move(rules),
            castling: (0..rules.castles.len())
                .filter(|i| self.castling >> i & 1 != 0)
                .collect(),
            neutral: self
                .neutral_square(rules)
                .map(|square| rules.geometry.square(square)),
            gates: self
                .gates
                .squares()
                .filter_map(|square| {
                    let side = self.at(square)?.side;
                    Some((side, rules.geometry.square(square)))
                })
                .collect(),
            en_passant: self.en_passant.map(|ep| rules.geometry.square(ep.target)),
            halfmove_clock: self.halfmove_clock,
            fullmove_number: self.fullmove_number,
            counting: self
                .counting()
                .map(|(limit, plies)| (u32::from(limit), u32::from(plies))),
            prisons: rules
                .side_ids()
                .flat_map(|side| {
                    rules
                        .piece_ids()
                        .filter(move |&piece| self.prisons[side][piece] > 0)
                        .map(move |piece| (side, piece, self.prisons[side][piece] as u32))
                })
                .collect(),
            promoted: self
                .promoted
                .squares()
                .map(|square| rules.geometry.square(square))
                .collect(),
            phase: self.phase(),
            last_drops: rules
                .side_ids()
                .filter_map(|side| {
                    self.last_drop[side]
                        .get()
                        .map(|(piece, square)| (side, piece, rules.geometry.square(square)))
                })
                .collect(),
            turn: (self.phase == 0).then_some(self.turn as usize),
            numbers: {
                let mut numbers: Vec<(variant_dsl::Square, u8)> = rules
                    .geometry
                    .board
                    .squares()
                    .filter_map(|square| {
                        self.number(rules, square)
                            .map(|number| (rules.geometry.square(square), number))
                    })
                    .collect();
                numbers.sort_by_key(|&(square, number)| (number, square));
                numbers
            },
            progress: variant_dsl::TurnProgress {
                actions: self.progress.actions,
                drops: self.progress.drops,
                acted: self
                    .progress
                    .acted
                    .squares()
                    .map(|square| rules.geometry.square(square))
                    .collect(),
                longest: Some(self.progress.longest),
                start: Some(self.progress.start),
            },
            counters: (0..rules.definition.counters.len())
                .map(|counter| {
                    rules
                        .side_ids()
                        .map(|side| u32::from(self.counters[side][counter]))
                        .collect()
                })
                .collect(),
        }
    }

    /// The value of a side's counter (`counter`, by declaration order).
    #[inline]
    pub fn counter(&self, counter: usize, side: SideId) -> u8 {
        self.counters[side][counter]
    }

    /// Sets a side's counter, keeping the hash.
    pub(crate) fn set_counter(
        &mut self,
        rules: &Tables<B>,
        counter: usize,
        side: SideId,
        value: u8,
    ) {
        let z = &rules.zobrist;
        self.hash ^= z.counter(counter, side, self.counters[side][counter])
            ^ z.counter(counter, side, value);
        self.counters[side][counter] = value;
    }

    /// The piece on a square.
    #[inline]
    pub fn at(&self, square: Sq) -> Option<Occupant> {
        match self.mailbox.as_ref()[square.index()] {
            0 => None,
            code => Some(Occupant {
                side: SideId((code - 1) / 32),
                piece: PieceId((code - 1) % 32),
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
    pub fn side_pieces(&self, side: SideId) -> B {
        self.by_side[side]
    }

    /// Squares occupied by a piece type (all sides).
    #[inline]
    pub fn typed(&self, piece: PieceId) -> B {
        self.by_piece[piece]
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self, _rules: &Tables<B>) -> SideId {
        self.side
    }

    /// The placement phase under way, by index into the definition's phases; `None` in play.
    #[inline]
    pub fn phase(&self) -> Option<usize> {
        (self.phase > 0).then(|| self.phase as usize - 1)
    }

    /// How far the current turn has gone.
    #[inline]
    pub fn progress(&self) -> &Progress<B> {
        &self.progress
    }

    /// Whether this is the start of a turn (no action taken in it yet).
    #[inline]
    pub fn at_turn_start(&self) -> bool {
        self.progress.actions == 0
    }

    /// Prisoners of a side's piece type.
    #[inline]
    pub fn prison(&self, side: SideId, piece: PieceId) -> u8 {
        self.prisons[side][piece]
    }

    /// Squares of promoted pieces (games whose captures go to the hand).
    #[inline]
    pub fn promoted(&self) -> B {
        self.promoted
    }

    /// The en-passant opportunity, if any.
    #[inline]
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.en_passant
    }

    /// The squares whose piece may still gate a piece from the hand (`gating`).
    #[inline]
    pub fn gates(&self) -> B {
        self.gates
    }

    /// Castling rights held, one bit per castling move.
    #[inline]
    pub fn castling_rights(&self) -> u32 {
        self.castling
    }

    /// The move number (FEN's last field).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Plies since the last capture or irreversible move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// Whether the side's last action was a pass, in a game with `may pass` (else `false`).
    #[inline]
    pub fn passed(&self, side: SideId) -> bool {
        self.passed >> side.index() & 1 == 1
    }

    /// How many of the side's last actions in a row left an opponent in check, in a game with
    /// `perpetual check` (else 0).
    #[inline]
    pub fn checks_in_a_row(&self, side: SideId) -> u16 {
        self.checks_in_a_row[side]
    }

    /// The running count of `counting`, as (limit in plies, plies counted); `None` while no
    /// count runs.
    #[inline]
    pub fn counting(&self) -> Option<(u16, u16)> {
        (self.counting_limit != 0).then_some((self.counting_limit, self.counting_plies))
    }

    /// Sets the running count of `counting` (a limit of 0: no count runs).
    pub(crate) fn set_counting(&mut self, limit: u16, plies: u16) {
        self.counting_limit = limit;
        self.counting_plies = if limit == 0 { 0 } else { plies };
    }

    /// The checks `side` gave since the half-move clock's last reset, for a move limit that
    /// grows with checks: those of its actions after the reset, and the resetting action's own
    /// check while `side` made it and is to move (Fairy-Stockfish's count of each side's last
    /// `ceil(clock / 2)` moves).
    pub fn checks_since_clock(&self, side: SideId, to_move: SideId) -> u16 {
        let reset = self.clock_reset_check == side.0 + 1 && side == to_move;
        self.checks_since_clock[side].saturating_add(u16::from(reset))
    }

    /// After an action of `mover` (`gave`: it left an opponent in check), for a move limit that
    /// grows with checks: a reset clock starts the counts again.
    pub(crate) fn count_check_since_clock(&mut self, mover: SideId, gave: bool) {
        if self.halfmove_clock == 0 {
            self.checks_since_clock = BySide::splat(0);
            self.clock_reset_check = if gave { mover.0 + 1 } else { 0 };
        } else if gave {
            self.checks_since_clock[mover] = self.checks_since_clock[mover].saturating_add(1);
        }
    }

    /// In a position read from a FEN, for a move limit that grows with checks: the check
    /// standing there was given by `checker`, counted as a resetting action's.
    pub(crate) fn set_standing_check(&mut self, checker: SideId) {
        self.clock_reset_check = checker.0 + 1;
    }

    /// Records whether the side's last action left an opponent in check (`perpetual check`).
    pub(crate) fn set_gave_check(&mut self, side: SideId, gave: bool) {
        self.checks_in_a_row[side] = if gave {
            self.checks_in_a_row[side].saturating_add(1)
        } else {
            0
        };
    }

    /// The enemy pieces the side chased with each of its last actions, in a game with
    /// `perpetual chase` (else none).
    #[inline]
    pub fn chases(&self, side: SideId) -> ChaseRuns {
        self.chases[side]
    }

    /// Sets the side's chase runs (`perpetual chase`).
    pub(crate) fn set_chases(&mut self, side: SideId, runs: ChaseRuns) {
        self.chases[side] = runs;
    }

    /// The side's last drop, as (piece, square), if its last action was one.
    pub fn last_drop(&self, side: SideId) -> Option<(PieceId, Sq)> {
        self.last_drop[side].get()
    }

    /// Pieces in a side's hand, all types together.
    #[inline]
    pub fn hand_total(&self, side: SideId) -> u32 {
        u32::from(self.hand_totals[side])
    }

    /// The types in a side's hand, a bit per type.
    #[inline]
    pub fn held_types(&self, side: SideId) -> u32 {
        self.held[side]
    }

    /// The index of the side to move in the turn order.
    #[inline]
    pub fn turn_index(&self) -> usize {
        self.turn as usize
    }

    /// The side that moved last, in the turn order.
    #[inline]
    pub fn previous_side(&self, _rules: &Tables<B>) -> SideId {
        self.mover
    }

    /// The side before the side to move in the turn order (for a position from a FEN).
    fn turn_order_previous(&self, rules: &Tables<B>) -> SideId {
        if self.progress.actions > 0 {
            return self.side;
        }
        let order = &rules.definition.turn_order;
        let at = if self.phase == 0 {
            self.turn as usize
        } else {
            order
                .iter()
                .position(|&side| side == self.side)
                .unwrap_or(0)
        };
        order[(at + order.len() - 1) % order.len()]
    }

    /// The incrementally maintained hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The number of the piece on `square` (games that number pieces), if it has one.
    pub fn number(&self, rules: &Tables<B>, square: Sq) -> Option<u8> {
        let side = self.at(square)?.side;
        let base = rules.number_base[side] as usize;
        let count = rules.definition.sides[side.index()].numbers.len();
        (0..count)
            .find(|&i| Sq(self.numbers[base + i]) == square)
            .map(|i| i as u8 + 1)
    }

    /// The square of a side's piece with this number, if it is on the board.
    pub fn numbered(&self, rules: &Tables<B>, side: SideId, number: u8) -> Option<Sq> {
        let slot = rules.number_slot(side, number)?;
        let square = self.numbers[slot];
        (square != NO_SQUARE).then_some(Sq(square))
    }

    /// Pieces of a type in a side's hand.
    #[inline]
    pub fn hand(&self, side: SideId, piece: PieceId) -> u8 {
        self.hands[side][piece]
    }

    /// The hash computed from scratch, to check the incremental one.
    pub fn fresh_hash(&self, rules: &Tables<B>) -> u64 {
        let z = &rules.zobrist;
        let mut hash = z.side(self.side_to_move(rules)) ^ z.castling(self.castling);
        for square in self.occupied().squares() {
            hash ^= match self.at(square) {
                Some(o) => z.piece(o.side, o.piece, square),
                // Not a side's: the neutral piece (`neutral`).
                None => z.neutral(square),
            };
        }
        for side in rules.side_ids() {
            for piece in rules.piece_ids() {
                hash ^= z.hand(side, piece, self.hands[side][piece] as u32);
            }
        }
        if let Some(ep) = self.en_passant {
            hash ^= z.en_passant(ep.target);
        }
        for square in self.gates.squares() {
            hash ^= z.gate(square);
        }
        for side in rules.side_ids() {
            for piece in rules.piece_ids() {
                hash ^= z.prison(side, piece, self.prisons[side][piece] as u32);
            }
        }
        for square in self.promoted.squares() {
            hash ^= z.promoted(square);
        }
        for side in rules.side_ids() {
            hash ^= last_drop_key(rules, side, self.last_drop[side].get());
        }
        if rules.cycle_repeats && self.phase == 0 {
            hash ^= z.slot(self.turn as usize);
        }
        for counter in 0..rules.definition.counters.len() {
            for side in rules.side_ids() {
                hash ^= z.counter(counter, side, self.counters[side][counter]);
            }
        }
        hash ^ z.phase(self.phase()) ^ progress_key(rules, &self.progress)
    }

    fn set_progress(&mut self, rules: &Tables<B>, progress: Progress<B>) {
        self.hash ^= progress_key(rules, &self.progress) ^ progress_key(rules, &progress);
        self.progress = progress;
    }

    #[inline(always)]
    fn set_last_drop(&mut self, rules: &Tables<B>, side: SideId, drop: Option<(PieceId, Sq)>) {
        if rules.reads_last_drop {
            self.hash ^= last_drop_key(rules, side, self.last_drop[side].get())
                ^ last_drop_key(rules, side, drop);
        }
        self.last_drop[side] = LastDrop::of(drop);
    }

    fn set_prison(&mut self, rules: &Tables<B>, side: SideId, piece: PieceId, count: u8) {
        let z = &rules.zobrist;
        self.hash ^= z.prison(side, piece, self.prisons[side][piece] as u32);
        self.prisons[side][piece] = count;
        self.hash ^= z.prison(side, piece, count as u32);
    }

    /// The position with the pieces on `lifted` taken off and, with `landing`, the piece that
    /// stood on its first square set down on its second (a hypothetical board for a question
    /// such as "may this piece leave?", never played on: the turn and counters stay).
    pub(crate) fn rearranged(
        &self,
        rules: &Tables<B>,
        lifted: &[Sq],
        landing: Option<(Sq, Sq)>,
    ) -> Position<B> {
        let mut board = *self;
        let moving = landing.and_then(|(from, _)| self.at(from));
        for &square in lifted {
            board.remove(rules, square);
        }
        if let (Some(occupant), Some((from, to))) = (moving, landing) {
            board.remove(rules, from);
            board.remove(rules, to);
            board.put(rules, occupant.side, occupant.piece, to);
        }
        board
    }

    #[inline(always)]
    fn put(&mut self, rules: &Tables<B>, side: SideId, piece: PieceId, square: Sq) {
        let bit = B::single(square);
        self.by_side[side] |= bit;
        self.by_piece[piece] |= bit;
        self.mailbox.as_mut()[square.index()] = 1 + side.0 * 32 + piece.0;
        self.hash ^= rules.zobrist.piece(side, piece, square);
    }

    #[inline(always)]
    fn remove(&mut self, rules: &Tables<B>, square: Sq) -> Option<Occupant> {
        let occupant = self.at(square)?;
        let bit = B::single(square);
        self.by_side[occupant.side] ^= bit;
        self.by_piece[occupant.piece] ^= bit;
        self.mailbox.as_mut()[square.index()] = 0;
        self.hash ^= rules.zobrist.piece(occupant.side, occupant.piece, square);
        if ((self.promoted | self.progress.acted) & bit).any() {
            self.clear_marks(rules, square);
        }
        Some(occupant)
    }

    /// The promoted and acted marks of a square whose piece leaves it.
    #[cold]
    fn clear_marks(&mut self, rules: &Tables<B>, square: Sq) {
        let bit = B::single(square);
        if (self.promoted & bit).any() {
            self.promoted ^= bit;
            self.hash ^= rules.zobrist.promoted(square);
        }
        if (self.progress.acted & bit).any() {
            self.progress.acted ^= bit;
            self.hash ^= rules.zobrist.acted(square);
        }
    }

    /// Marks the piece on `square` as promoted.
    fn mark_promoted(&mut self, rules: &Tables<B>, square: Sq) {
        let bit = B::single(square);
        if (self.promoted & bit).is_empty() {
            self.promoted |= bit;
            self.hash ^= rules.zobrist.promoted(square);
        }
    }

    /// Marks the piece on `square` as having acted this turn.
    fn mark_acted(&mut self, rules: &Tables<B>, square: Sq) {
        let bit = B::single(square);
        if (self.progress.acted & bit).is_empty() {
            self.progress.acted |= bit;
            self.hash ^= rules.zobrist.acted(square);
        }
    }

    /// A captured piece goes where the `capture` rules send its type: the capturer's hand (as
    /// the piece it promoted from, if promoted), its owner's prison, or out of the game.
    fn store_captured(
        &mut self,
        rules: &Tables<B>,
        captor: SideId,
        victim: Occupant,
        promoted: bool,
    ) {
        match rules.stores[victim.piece] {
            None => {}
            Some(variant_dsl::Store::Hand) => {
                let piece = if promoted || rules.promoted_form[victim.piece] {
                    rules.unpromoted[victim.piece]
                } else {
                    victim.piece
                };
                let count = self.hands[captor][piece].saturating_add(1);
                self.set_hand(rules, captor, piece, count);
            }
            Some(variant_dsl::Store::Prison) => {
                let count = self.prisons[victim.side][victim.piece].saturating_add(1);
                self.set_prison(rules, victim.side, victim.piece, count);
            }
        }
    }

    #[inline(always)]
    fn set_hand(&mut self, rules: &Tables<B>, side: SideId, piece: PieceId, count: u8) {
        self.hash ^= rules
            .zobrist
            .hand(side, piece, self.hands[side][piece] as u32);
        self.hand_totals[side] =
            self.hand_totals[side] - u16::from(self.hands[side][piece]) + u16::from(count);
        self.hands[side][piece] = count;
        let bit = 1 << piece.0;
        self.held[side] = if count > 0 {
            self.held[side] | bit
        } else {
            self.held[side] & !bit
        };
        self.hash ^= rules.zobrist.hand(side, piece, count as u32);
    }

    fn set_en_passant(&mut self, rules: &Tables<B>, value: Option<EnPassant>) {
        if let Some(old) = self.en_passant {
            self.hash ^= rules.zobrist.en_passant(old.target);
        }
        if let Some(new) = value {
            self.hash ^= rules.zobrist.en_passant(new.target);
        }
        self.en_passant = value;
    }

    /// Plays one action or a pass on the board, the hands and the turn's progress, without
    /// ending the turn; whether it was an action (not a pass). The rules layer decides whether
    /// the turn goes on (`Position::play_unchecked`, in [`crate::rules`]).
    #[inline(always)]
    pub(crate) fn act(&mut self, rules: &Tables<B>, mv: Move) -> bool {
        self.mover = self.side;
        if rules.tracks_passes {
            let bit = 1u8 << self.side.index();
            if mv.kind == MoveKind::Pass {
                self.passed |= bit;
            } else {
                self.passed &= !bit;
            }
        }
        if mv.kind == MoveKind::Pass {
            // A pass is a ply: the clock runs, an en-passant chance lapses.
            self.halfmove_clock = self.halfmove_clock.saturating_add(1);
            self.set_en_passant(rules, None);
            false
        } else {
            self.apply_action(rules, mv);
            true
        }
    }

    /// Ends the turn: end-of-turn effects and the next side (or phase). Returns whether the
    /// position keeps a turn's progress: what the start of the next turn computes is then the
    /// caller's to set ([`Position::set_turn_start`]).
    #[inline(always)]
    #[must_use]
    pub(crate) fn end_turn(&mut self, rules: &Tables<B>) -> bool {
        if rules.exchanges_prisoners {
            self.exchange_prisoners(rules);
        }
        // Games of single actions without `at turn start` keep no turn progress.
        let tracked = rules.tracks_turns;
        if tracked {
            let cleared = Progress {
                actions: 0,
                drops: 0,
                acted: B::EMPTY,
                longest: 0,
                start: 0,
            };
            self.set_progress(rules, cleared);
        }
        self.hash ^= rules.zobrist.side(self.side);
        if self.phase > 0 {
            // The move number goes up after the last side of the turn order, placing or moving.
            if rules.definition.turn_order.last() == Some(&self.side) {
                self.fullmove_number = self.fullmove_number.saturating_add(1);
            }
            self.next_placer(rules);
        } else {
            let order = &rules.definition.turn_order;
            let next = self.turn as usize + 1;
            if rules.cycle_repeats {
                self.hash ^= rules.zobrist.slot(self.turn as usize);
            }
            self.turn = if next == order.len() { 0 } else { next as u8 };
            if rules.cycle_repeats {
                self.hash ^= rules.zobrist.slot(self.turn as usize);
            }
            if self.turn == 0 {
                self.fullmove_number = self.fullmove_number.saturating_add(1);
            }
            self.side = order[self.turn as usize];
        }
        self.hash ^= rules.zobrist.side(self.side);
        tracked
    }

    /// In a placement phase: the first side of the phase's order that still holds pieces, or
    /// the next phase, or play.
    fn next_placer(&mut self, rules: &Tables<B>) {
        let phases = &rules.definition.phases;
        self.hash ^= rules.zobrist.phase(self.phase());
        let mut phase = self.phase as usize - 1;
        loop {
            if let Some(side) = phases[phase]
                .order
                .iter()
                .find(|&&side| self.hand_total(side) > 0)
            {
                self.side = *side;
                self.phase = phase as u8 + 1;
                break;
            }
            phase += 1;
            if phase == phases.len() {
                self.phase = 0;
                self.turn = 0;
                self.side = rules.definition.turn_order[0];
                break;
            }
        }
        self.hash ^= rules.zobrist.phase(self.phase());
    }

    /// Sets what the start of a turn computed: the `at turn start` condition bits.
    pub(crate) fn set_turn_start(&mut self, rules: &Tables<B>, start: u32) {
        let mut progress = self.progress;
        progress.start = start;
        self.set_progress(rules, progress);
    }

    /// Sets the length of the longest turn (`maximal`), computed at its start.
    pub(crate) fn set_longest_turn(&mut self, rules: &Tables<B>, longest: u8) {
        let mut progress = self.progress;
        progress.longest = longest;
        self.set_progress(rules, progress);
    }

    /// `exchange prisoners`: for each type held in every side's prison, as many as every side
    /// holds go back to their owners' hands.
    fn exchange_prisoners(&mut self, rules: &Tables<B>) {
        for piece in rules.piece_ids() {
            let pairs = rules
                .side_ids()
                .map(|side| self.prisons[side][piece])
                .min()
                .unwrap_or(0);
            if pairs == 0 {
                continue;
            }
            for side in rules.side_ids() {
                self.set_prison(rules, side, piece, self.prisons[side][piece] - pairs);
                let count = self.hands[side][piece].saturating_add(pairs);
                self.set_hand(rules, side, piece, count);
            }
        }
    }

    /// Plays one action on the board, hands and the turn's progress, without ending the turn.
    #[inline(always)]
    pub(crate) fn apply_action(&mut self, rules: &Tables<B>, mv: Move) {
        let us = self.side_to_move(rules);
        let from = mv.from;
        let to = mv.to;
        let mut irreversible = false;
        let mut next_en_passant = None;
        let last_drop = match mv.kind {
            MoveKind::Drop(piece) => Some((piece, mv.to)),
            _ => None,
        };
        self.set_last_drop(rules, us, last_drop);
        let mut captured = false;
        let mut dropped = false;
        match mv.kind {
            MoveKind::Normal | MoveKind::Promote(_) => {
                let tracked = rules.tracks_promotion;
                let victim_promoted = tracked && self.promoted.has(to);
                let mover_promoted = tracked && self.promoted.has(from);
                // A promotion in place (`d5d5f`) lands on its own square: nothing is taken.
                let victim = if from == to {
                    None
                } else {
                    self.remove(rules, to)
                };
                if let Some(victim) = victim {
                    captured = true;
                    if rules.pieces_return {
                        self.store_captured(rules, us, victim, victim_promoted);
                    }
                }
                irreversible |= captured;
                let mover = self.remove(rules, from).expect("a move starts on a piece");
                // A promotion cannot be undone: it resets the clock, whatever the piece.
                irreversible |=
                    rules.irreversible[mover.piece] || matches!(mv.kind, MoveKind::Promote(_));
                let piece = match mv.kind {
                    MoveKind::Promote(new) => new,
                    _ => mover.piece,
                };
                self.put(rules, us, piece, to);
                if rules.tracks_promotion
                    && (mover_promoted || matches!(mv.kind, MoveKind::Promote(_)))
                    && !rules.promoted_form[piece]
                {
                    self.mark_promoted(rules, to);
                }
                next_en_passant = created_en_passant(rules, us, mover.piece, from, to);
            }
            MoveKind::EnPassant => {
                let victim_square = self.en_passant.expect("en passant needs a target").victim;
                let victim_promoted = self.promoted.has(victim_square);
                if let Some(victim) = self.remove(rules, victim_square) {
                    if rules.pieces_return {
                        self.store_captured(rules, us, victim, victim_promoted);
                    }
                }
                let mover_promoted = self.promoted.has(from);
                let mover = self.remove(rules, from).expect("a move starts on a piece");
                self.put(rules, us, mover.piece, to);
                if mover_promoted {
                    self.mark_promoted(rules, to);
                }
                irreversible = true;
                captured = true;
            }
            MoveKind::Castle(index) => {
                let castle = &rules.castles[index as usize];
                let king = (self.remove(rules, castle.king_from)).expect("castling king");
                let rook = (self.remove(rules, castle.rook_from)).expect("castling rook");
                self.put(rules, us, king.piece, castle.king_to);
                self.put(rules, us, rook.piece, castle.rook_to);
                if rules.multi_action {
                    self.mark_acted(rules, castle.rook_to);
                }
            }
            MoveKind::Drop(piece) => {
                if rules.supply >> piece.0 & 1 == 0 {
                    let count = self.hands[us][piece].saturating_sub(1);
                    self.set_hand(rules, us, piece, count);
                }
                self.put(rules, us, piece, to);
                // A drop of an irreversible piece (a pawn) resets the move-limit clock, and
                // every drop does where the `drops` block says `irreversible`.
                irreversible |= rules.drop_irreversible[piece];
                dropped = true;
            }
            MoveKind::Pass => {}
        }
        if rules.multi_action && self.phase == 0 {
            // The marks of pieces removed on the way are gone already.
            let mut progress = self.progress;
            progress.actions = progress.actions.saturating_add(1);
            progress.drops = progress.drops.saturating_add(u8::from(dropped));
            self.set_progress(rules, progress);
            self.mark_acted(rules, to);
        }
        if rules.gating {
            self.gate(rules, us, mv);
        }
        if let Some(square) = mv.neutral_square() {
            self.place_neutral(rules, square);
        }
        if let Some(converted) = mv.converts {
            if let Some(taken) = self.remove(rules, converted) {
                self.put(rules, us, taken.piece, converted);
                irreversible = true;
            }
        }
        let mut lost = rules.castle_loss[from] | rules.castle_loss[to];
        if captured && rules.capture_effects {
            lost |= self.capture_effects(rules, to);
        }
        if rules.converts_around != 0 {
            lost |= self.convert_around(rules, us, to);
        }
        if let Some(converted) = mv.converts {
            lost |= rules.castle_loss[converted];
        }
        if self.castling & lost != 0 {
            self.hash ^= rules.zobrist.castling(self.castling & lost);
            self.castling &= !lost;
        }
        if dropped && rules.castle_gain[to] != 0 {
            self.gain_castling(rules, us, to);
        }
        if rules.numbered {
            self.carry_numbers(rules, mv);
        }
        self.set_en_passant(rules, next_en_passant);
        // Clocks come from user FENs: they saturate rather than wrap.
        self.halfmove_clock = if irreversible {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
    }

    /// `gating`: the piece a move gates goes from the hand to its square; every square the
    /// move starts or ends on (both pieces' squares for castling) loses its gating right; and a
    /// side whose hand is empty for good loses them all.
    #[cold]
    fn gate(&mut self, rules: &Tables<B>, us: SideId, mv: Move) {
        let mut touched = B::single(mv.from) | B::single(mv.to);
        if let MoveKind::Castle(index) = mv.kind {
            let castle = &rules.castles[index as usize];
            touched |= B::single(castle.rook_from) | B::single(castle.king_to);
            touched |= B::single(castle.rook_to);
        }
        if let Some((piece, square)) = mv.gate_square(rules) {
            let count = self.hands[us][piece].saturating_sub(1);
            self.set_hand(rules, us, piece, count);
            self.put(rules, us, piece, square);
        }
        let mut lost = self.gates & touched;
        if self.hand_total(us) == 0 && !rules.gates_kept_without_hand {
            lost |= self.gates & self.by_side[us];
        }
        for square in lost.squares() {
            self.hash ^= rules.zobrist.gate(square);
        }
        self.gates ^= lost;
    }

    /// `neutral`: the neutral piece leaves its square, if it stands on one, for `square`.
    #[cold]
    fn place_neutral(&mut self, rules: &Tables<B>, square: Sq) {
        for old in self.by_side[NEUTRAL_SLOT].squares() {
            self.hash ^= rules.zobrist.neutral(old);
        }
        self.by_side[NEUTRAL_SLOT] = B::single(square);
        self.hash ^= rules.zobrist.neutral(square);
    }

    /// The square of the neutral piece (`neutral`), if it stands on the board.
    #[inline]
    pub fn neutral_square(&self, rules: &Tables<B>) -> Option<Sq> {
        rules.neutral?;
        let slot = self.by_side[NEUTRAL_SLOT];
        slot.any().then(|| slot.lowest())
    }

    /// A drop on `square` gains the `when placed` castling rights of `us` whose king and rook
    /// now both stand on their start squares.
    fn gain_castling(&mut self, rules: &Tables<B>, us: SideId, square: Sq) {
        let mut gained = 0;
        for (index, castle) in rules.castles.iter().enumerate() {
            let fits = |at: Sq, is: &dyn Fn(PieceId) -> bool| {
                self.at(at).is_some_and(|o| o.side == us && is(o.piece))
            };
            if rules.castle_gain[square] >> index & 1 != 0
                && castle.side == us
                && fits(castle.king_from, &|p| castle.king_is(p, &rules.royal))
                && fits(castle.rook_from, &|p| castle.rook_is(p))
            {
                gained |= 1 << index;
            }
        }
        let new = gained & !self.castling;
        if new != 0 {
            self.hash ^= rules.zobrist.castling(new);
            self.castling |= new;
        }
    }

    /// The edits on the board, without ending the turn (to judge what they leave). A piece
    /// that is removed or replaced resets the move-limit clock, and so does the move of an
    /// `irreversible` piece; a square emptied or entered loses its castling rights; the
    /// en-passant chance lapses. Edits of an empty square do nothing.
    pub(crate) fn apply_edits(&mut self, rules: &Tables<B>, edits: &[Edit]) {
        self.mover = self.side;
        let us = self.side_to_move(rules);
        self.set_last_drop(rules, us, None);
        let mut irreversible = false;
        let mut lost = 0;
        // Squares emptied or entered lose their gating rights (`gating`).
        let mut touched = B::EMPTY;
        for &edit in edits {
            match edit {
                Edit::Move { from, to } => {
                    let Some(mover) = self.remove(rules, from) else {
                        continue;
                    };
                    irreversible |= rules.irreversible[mover.piece];
                    irreversible |= self.remove(rules, to).is_some();
                    self.put(rules, mover.side, mover.piece, to);
                    if rules.numbered {
                        self.carry_number(from, to);
                    }
                    lost |= rules.castle_loss[from] | rules.castle_loss[to];
                    touched |= B::single(from) | B::single(to);
                }
                Edit::Remove(square) => {
                    irreversible |= self.remove(rules, square).is_some();
                    lost |= rules.castle_loss[square];
                    touched |= B::single(square);
                }
                Edit::Place { square, piece } => {
                    self.remove(rules, square);
                    self.put(rules, us, piece, square);
                    irreversible = true;
                    lost |= rules.castle_loss[square];
                    touched |= B::single(square);
                }
            }
        }
        if self.castling & lost != 0 {
            self.hash ^= rules.zobrist.castling(self.castling & lost);
            self.castling &= !lost;
        }
        let gates_lost = self.gates & touched;
        if gates_lost.any() {
            for square in gates_lost.squares() {
                self.hash ^= rules.zobrist.gate(square);
            }
            self.gates ^= gates_lost;
        }
        if rules.numbered {
            self.drop_lost_numbers();
        }
        self.set_en_passant(rules, None);
        self.halfmove_clock = if irreversible {
            0
        } else {
            self.halfmove_clock.saturating_add(1)
        };
    }

    /// The number of the piece on `from` goes to `to`; the number of a piece taken there is
    /// dropped.
    fn carry_number(&mut self, from: Sq, to: Sq) {
        let slot = self.numbers.iter().position(|&sq| Sq(sq) == from);
        for square in self.numbers.iter_mut() {
            if Sq(*square) == to {
                *square = NO_SQUARE;
            }
        }
        if let Some(slot) = slot {
            self.numbers[slot] = to.0;
        }
    }

    /// Pieces no longer on the board lose their numbers.
    fn drop_lost_numbers(&mut self) {
        for index in 0..MAX_NUMBERED {
            let square = self.numbers[index];
            if square != NO_SQUARE && self.at(Sq(square)).is_none() {
                self.numbers[index] = NO_SQUARE;
            }
        }
    }

    /// Numbers follow their pieces: the mover's to its destination (the castling rook's too),
    /// and the squares left empty lose theirs.
    #[cold]
    fn carry_numbers(&mut self, rules: &Tables<B>, mv: Move) {
        let (from, to) = (mv.from.0, mv.to.0);
        let moved: [Option<(u8, u8)>; 2] = match mv.kind {
            MoveKind::Normal | MoveKind::Promote(_) | MoveKind::EnPassant => {
                [Some((from, to)), None]
            }
            MoveKind::Castle(index) => {
                let castle = &rules.castles[index as usize];
                [
                    Some((castle.king_from.0, castle.king_to.0)),
                    Some((castle.rook_from.0, castle.rook_to.0)),
                ]
            }
            MoveKind::Drop(_) | MoveKind::Pass => [None, None],
        };
        // The movers' slots, found before anything changes; then the pieces taken where they
        // land lose their numbers, and the movers take their new squares.
        let slots = moved
            .map(|pair| pair.and_then(|(from, _)| self.numbers.iter().position(|&sq| sq == from)));
        for (_, to) in moved.iter().flatten() {
            for (index, square) in self.numbers.iter_mut().enumerate() {
                if *square == *to && slots.iter().all(|&s| s != Some(index)) {
                    *square = NO_SQUARE;
                }
            }
        }
        for (pair, slot) in moved.iter().zip(slots) {
            if let (Some((_, to)), Some(slot)) = (pair, slot) {
                self.numbers[slot] = *to;
            }
        }
        // Pieces removed otherwise (en passant, capture effects).
        self.drop_lost_numbers();
    }

    /// The game's capture effects around a capture that landed on `square`: the capturer and
    /// the pieces around removed as the `capture` rules say. Returns the castling rights lost
    /// with the squares emptied.
    fn capture_effects(&mut self, rules: &Tables<B>, square: Sq) -> u32 {
        let effects = &rules.definition.capture;
        let mut lost = 0;
        if effects.remove_capturer {
            self.remove(rules, square);
        }
        if let Some(except) = &effects.remove_around_except {
            for around in rules.neighbours[square].squares() {
                let spared = self.at(around).is_none_or(|o| except.contains(&o.piece));
                if !spared {
                    self.remove(rules, around);
                    lost |= rules.castle_loss[around];
                }
            }
        }
        lost
    }

    /// `converts around`: where a piece of such a type of `us` has landed on `square` (moved or
    /// dropped), every enemy piece on the 8 squares around becomes `us`'s, as a piece of the
    /// same type. Returns the castling rights lost with the squares converted. A conversion
    /// does not reset the move-limit clock (as Fairy-Stockfish's ataxx counts), which only
    /// makes repetition compare more positions.
    fn convert_around(&mut self, rules: &Tables<B>, us: SideId, square: Sq) -> u32 {
        let lands = self
            .at(square)
            .is_some_and(|o| o.side == us && rules.converts_around >> o.piece.0 & 1 != 0);
        if !lands {
            return 0;
        }
        let team = self.team_pieces(rules, us);
        let enemies = rules.neighbours[square] & self.occupied() & !team;
        let mut lost = 0;
        for around in enemies.squares() {
            if let Some(taken) = self.remove(rules, around) {
                self.put(rules, us, taken.piece, around);
                lost |= rules.castle_loss[around];
            }
        }
        lost
    }

    /// The pieces of a side and its allies.
    #[inline(always)]
    pub fn friends(&self, rules: &Tables<B>, side: SideId) -> B {
        if !rules.teams {
            return self.by_side[side];
        }
        self.team_pieces(rules, side)
    }

    #[cold]
    fn team_pieces(&self, rules: &Tables<B>, side: SideId) -> B {
        rules
            .side_ids()
            .filter(|&other| !rules.is_enemy(side, other))
            .fold(B::EMPTY, |acc, other| acc | self.by_side[other])
    }

    /// Whether the piece on `attacker`, capturing on `target`, would remove a royal piece of its
    /// own side by the capture effects.
    pub(crate) fn capture_hurts_own_royal(
        &self,
        rules: &Tables<B>,
        attacker: Sq,
        target: Sq,
    ) -> bool {
        let Some(owner) = self.at(attacker).map(|o| o.side) else {
            return false;
        };
        let mut after = *self;
        after.remove(rules, target);
        let mover = after.remove(rules, attacker);
        if let Some(mover) = mover {
            after.put(rules, owner, mover.piece, target);
        }
        after.capture_effects(rules, target);
        after.royals(rules, owner).count() < self.royals(rules, owner).count()
    }
}

/// The hash key of a side's last drop, in games whose rules read it.
fn last_drop_key<B: Bitboard>(rules: &Tables<B>, side: SideId, drop: Option<(PieceId, Sq)>) -> u64 {
    match drop {
        Some((piece, square)) if rules.reads_last_drop => {
            rules.zobrist.last_drop(side, piece, square)
        }
        _ => 0,
    }
}

/// The hash key of a turn's progress.
fn progress_key<B: Bitboard>(rules: &Tables<B>, progress: &Progress<B>) -> u64 {
    let z = &rules.zobrist;
    let mut key = z.progress(0, progress.actions)
        ^ z.progress(1, progress.drops)
        ^ z.progress(2, progress.longest)
        ^ z.start(progress.start);
    for square in progress.acted.squares() {
        key ^= z.acted(square);
    }
    key
}

/// The en-passant opportunity a move creates: an initial lame move that passed over a square.
fn created_en_passant<B: Bitboard>(
    rules: &Tables<B>,
    side: SideId,
    piece: PieceId,
    from: Sq,
    to: Sq,
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
            target: passed,
            victim: to,
        })
}

/// For a FEN's en-passant square: the piece of the side that moved last standing just beyond it,
/// where an initial lame move of its type could have passed the square from an empty start.
/// The piece may be one its type promotes to there: a double step that ends in the promotion
/// zone (a Torpedo pawn's d3-d1) promotes and still leaves its target behind.
fn en_passant_victim<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    target: Sq,
) -> Option<Sq> {
    let previous = position.previous_side(rules);
    rules.piece_ids().find_map(|piece| {
        let moves = rules.moves_of(previous, piece);
        let stands_as = |square: Sq| match position.at(square) {
            Some(o) if o.side == previous => {
                o.piece == piece
                    || moves.promotion.as_ref().is_some_and(|promotion| {
                        promotion.zone.has(square) && promotion.choices.contains(&o.piece)
                    })
            }
            _ => false,
        };
        rules
            .geometry
            .grid()
            .zip(&moves.lame)
            .find_map(|(from, leaps)| {
                leaps
                    .iter()
                    .find(|leap| leap.passed == Some(target) && leap.initial_only)
                    .filter(|leap| stands_as(leap.to) && position.at(from).is_none())
                    .map(|leap| leap.to)
            })
    })
}
