//! The legal moves of a turn: the core's board moves, the drops the rules allow, turns of
//! several actions and passes.
//!
//! The core ([`crate::core::movegen`]) generates the moves of the pieces on the board and
//! tests them for the king's safety; this module adds what the game's rules decide: which
//! pieces the move rules let move, which drops the drop rules allow (through the folded plans
//! of [`crate::plan`] and the lookahead), the actions of a turn of several, and the pass. Its
//! sinks are the core's; a plan looked up already is passed down beside them ([`KnownPlan`]).
//!
//! # Turns of several actions
//!
//! A turn's state lives in the position ([`crate::position::Progress`]): the actions and drops
//! taken, the pieces that acted, and what the start of the turn computed. Each action is played
//! on its own ([`Position::apply_action`]); the turn then goes on, or ends
//! ([`Position::end_turn`]: end-of-turn effects, the next side, the next turn's start).
//!
//! With `maximal`, a turn must be as long as the longest possible one. That length is computed
//! once, when the turn starts ([`longest`]); an action is legal when the turn can still be
//! completed at that length after it, or when it ends the game, or when a game-ending action can
//! still follow it within the turn's limit. The searches stop as soon as the answer is known:
//! [`longest`] at the first sequence of the length asked, [`can_end`] at the first game-ending
//! action, and the legality of an action first asks the cheaper question.

use crate::core::bitboard::Bitboard;
use crate::core::index::{pieces, ByPiece, PieceId, SideId, Sq};
use crate::core::movegen::{
    castling, en_passant, gating_moves, leaves_king_safe, piece_moves, safety, Collector, Counter,
    Exists, Movable, Safety, Sink,
};
use crate::core::moves::{Move, MoveKind};
use crate::core::position::Position;
use crate::core::tables::PromotionRule;
use crate::core::tactical::Tactical;
use crate::expression::{drop_squares, drop_squares_of, reply_certain_after, Judge};
use crate::rules::after_move::AfterMoves;
use crate::rules::end::{ends_before_actions_settled, ends_by_action};
use crate::rules::Rules;
use variant_dsl::ObligationKind;

/// The plan of a position's scalar state where the caller has looked it up already (`Some`,
/// holding what [`crate::plan::plan`] gave, for drop generation to take rather than look it up
/// again), or not (`None`).
pub type KnownPlan<'r, B> = Option<Option<&'r crate::plan::Plan<B>>>;

/// All legal moves.
pub fn legal_moves<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let mut moves = Vec::new();
    legal_moves_into(rules, position, &mut moves);
    moves
}

/// All legal moves, into `moves` (cleared first): a loop that generates at every ply can keep
/// one list instead of allocating one per ply. Returns the squares of the drops among them.
pub fn legal_moves_into<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    moves: &mut Vec<Move>,
) -> B {
    moves.clear();
    // Room for a typical position's moves at once, instead of growing the vector step by step,
    // within a kilobyte: allocators serve small blocks from a per-thread cache (glibc's up to
    // 1032 bytes), several times faster than larger ones.
    if moves.capacity() == 0 {
        moves.reserve_exact(1024 / std::mem::size_of::<Move>().max(1));
    }
    let mut collector = Collector {
        moves: std::mem::take(moves),
        drop_squares: B::EMPTY,
    };
    generate(rules, position, &mut collector);
    *moves = collector.moves;
    collector.drop_squares
}

/// The tactical legal moves ([`crate::core::tactical::is_tactical`]: captures, promotions, en
/// passant), into `moves` (cleared first), in the order of [`legal_moves`]: exactly its moves
/// that are tactical, generated without the others where the generator can tell.
pub fn tactical_moves_into<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    moves: &mut Vec<Move>,
) {
    moves.clear();
    let us = position.side_to_move(rules);
    let mut sink = Tactical::new(position, us, std::mem::take(moves));
    generate(rules, position, &mut sink);
    *moves = sink.moves;
}

/// The tactical legal moves: [`tactical_moves_into`] into a new list.
pub fn tactical_moves<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let mut moves = Vec::new();
    tactical_moves_into(rules, position, &mut moves);
    moves
}

/// The number of legal moves.
pub fn count_legal<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> u64 {
    let mut counter = Counter::default();
    generate(rules, position, &mut counter);
    counter.count
}

/// The number of legal moves, or zero where an end rule that reads no action has ended the
/// game ([`crate::outcome::ends_before_actions`]; `history`: the hashes of the positions
/// before, for repetition): perft's last ply. The plan of the position's scalar state, where
/// drops may be generated from one, is looked up once for both questions: it settles the end
/// conditions that read no square ([`crate::plan::Plan::ends`]).
#[inline]
pub fn count_legal_unless_ended<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> u64 {
    count_legal_unless_ended_with(rules, position, history, None).0
}

/// [`count_legal_unless_ended`] given the plan of the position's scalar state where the caller
/// knows it (`known`: what an earlier call returned for a position of the same plan key, see
/// [`crate::plan::same_key_after`]); returns the count and the plan it used (for the next
/// such call).
#[inline(always)]
pub fn count_legal_unless_ended_with<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
    history: &[u64],
    known: KnownPlan<'r, B>,
) -> (u64, KnownPlan<'r, B>) {
    let us = position.side_to_move(rules);
    let plan = known.or_else(|| {
        (rules.plan_key.active && position.hand_total(us) > 0)
            .then(|| crate::plan::plan(rules, position, us))
    });
    let settled = plan.and_then(|plan| plan?.ends());
    if ends_before_actions_settled(rules, position, history, settled) {
        return (0, plan);
    }
    if let Some(Some(found)) = plan {
        if drops_alone(rules, position) {
            let mut judge = Judge::new(rules, position, us);
            let pieces = position.held_types(us);
            if let Some(count) =
                found.count_drops(&mut judge, pieces, rules.options.lookahead_pruning)
            {
                return (count, plan);
            }
        }
    }
    let mut counter = Counter::default();
    generate_with(rules, position, &mut counter, plan);
    (counter.count, plan)
}

/// Whether the legal actions of `position` are its drops alone, each judged by the drop rules
/// alone: a single action per turn, no pass, no move in this phase, no king to keep safe.
#[inline]
fn drops_alone<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let definition = &rules.definition();
    let moves_now = definition.actions.moves && position.phase().is_none();
    let other_actions =
        moves_now || rules.multi_action() || definition.turn.pass || definition.turn.may_pass;
    definition.actions.drops
        && !other_actions
        && !definition.end.check
        && rules.expressions.obligations.is_empty()
}

/// Generates every legal move of the side to move into `sink`.
pub fn generate<B: Bitboard, S: Sink<B>>(rules: &Rules<B>, position: &Position<B>, sink: &mut S) {
    generate_with(rules, position, sink, None);
}

/// [`generate`], given the plan of the position's scalar state where the caller knows it.
#[inline(always)]
fn generate_with<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    known: KnownPlan<'_, B>,
) {
    if rules.neutral().is_some() {
        return with_neutral(rules, position, sink, known);
    }
    generate_plain(rules, position, sink, known);
}

/// `neutral`: every legal move, once for each square the neutral piece may then go to: the
/// empty squares after the move, not the one it stands on (it stays there while the move is
/// judged), as Fairy-Stockfish places duck chess's duck. A function of its own, outside the
/// move loop of the games without a neutral piece.
#[cold]
#[inline(never)]
fn with_neutral<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    known: KnownPlan<'_, B>,
) {
    let base = if S::TACTICAL {
        // The neutral piece's square changes nothing of what a move takes or promotes.
        let us = position.side_to_move(rules);
        let mut tactical = Tactical::new(position, us, Vec::with_capacity(16));
        generate_plain(rules, position, &mut tactical, known);
        tactical.moves
    } else {
        let mut moves = Collector {
            moves: Vec::with_capacity(64),
            drop_squares: B::EMPTY,
        };
        generate_plain(rules, position, &mut moves, known);
        moves.moves
    };
    for mv in base {
        let mut after = *position;
        after.apply_action(rules, mv);
        let empty = rules.geometry().board & !after.occupied();
        for square in empty.squares() {
            sink.single(mv.with_neutral(square));
        }
        if sink.satisfied() {
            return;
        }
    }
}

/// [`generate_with`] for the moves themselves, without the neutral piece's placement.
#[inline(always)]
fn generate_plain<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    known: KnownPlan<'_, B>,
) {
    if rules.multi_action() && position.phase().is_none() {
        for mv in legal_actions(rules, position) {
            sink.single(mv);
        }
        return;
    }
    if rules.definition().turn.pass {
        // The actions, straight into the sink, or `pass` when there is none and no end rule
        // judges a side without actions (`checkmate`, `stalemate`). A tactical sink never
        // keeps a pass, and its narrowed targets cannot say whether there was an action.
        let mut noting = Noting {
            sink: &mut *sink,
            counter: Counter::default(),
        };
        generate_actions(rules, position, &mut noting, true, known);
        let none = noting.counter.count == 0;
        if !S::TACTICAL && none && passes(rules, position) {
            sink.single(Move::pass());
        }
        return;
    }
    generate_actions(rules, position, sink, true, known);
    if rules.definition().turn.may_pass {
        if let Some(pass) = optional_pass(rules, position) {
            sink.single(pass);
        }
    }
}

/// Passes every move on to `sink` and counts them as [`Counter`] does (a promotion once per
/// choice), so that `pass when no action` knows whether there was one without collecting them.
struct Noting<'s, B, S> {
    sink: &'s mut S,
    counter: Counter<B>,
}

impl<B: Bitboard, S: Sink<B>> Sink<B> for Noting<'_, B, S> {
    #[inline]
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>) {
        self.counter.batch(from, targets, promotion);
        self.sink.batch(from, targets, promotion);
    }
    #[inline]
    fn single(&mut self, mv: Move) {
        self.counter.single(mv);
        self.sink.single(mv);
    }
    #[inline]
    fn drops(&mut self, piece: PieceId, targets: B) {
        self.counter.drops(piece, targets);
        self.sink.drops(piece, targets);
    }
    #[inline]
    fn satisfied(&self) -> bool {
        self.sink.satisfied()
    }
    const ONE_IS_ENOUGH: bool = S::ONE_IS_ENOUGH;
    const TACTICAL: bool = S::TACTICAL;
}

/// The pass of `may pass`, where it is legal: always, except under `check` while a royal
/// piece of the side to move is attacked (a pass leaves it so), unless `in check when C` and C
/// holds. Written on the side's royal piece's square (its lowest, else its lowest piece's), as
/// Fairy-Stockfish writes it.
#[cold]
fn optional_pass<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<Move> {
    let us = position.side_to_move(rules);
    if rules.definition().end.check && position.in_check(rules, us) {
        let allowed = rules
            .expressions
            .pass_in_check
            .as_ref()
            .is_some_and(|condition| Judge::new(rules, position, us).holds(condition));
        if !allowed {
            return None;
        }
    }
    let royals = position.team_royals(rules, us) & position.side_pieces(us);
    let mine = position.side_pieces(us);
    let square = if royals.any() {
        royals.lowest()
    } else if mine.any() {
        mine.lowest()
    } else {
        Sq(0)
    };
    Some(Move::pass_at(square))
}

/// The actions each legal on its own (the turn's other rules, such as `maximal`, not applied):
/// what a turn of several actions is built from.
pub(crate) fn single_actions<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let mut collector = Collector {
        moves: Vec::with_capacity(64),
        drop_squares: B::EMPTY,
    };
    generate_actions(rules, position, &mut collector, true, None);
    collector.moves
}

/// Whether some action is legal on its own (as [`single_actions`] would list one); generation
/// stops at the first.
fn any_action<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let mut exists = Exists::default();
    generate_actions(rules, position, &mut exists, true, None);
    exists.0
}

/// Generates the legal actions; `lookahead` applies the drop rules' lookahead (off when the
/// lookahead itself asks whether a reply exists); `known`: the plan of the position's scalar
/// state, where the caller has looked it up. A game with obligations (`must capture`) collects
/// the actions first, to know which kinds are possible, and keeps those the obligations allow;
/// every other game sends them to the sink as they are found.
fn generate_actions<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    lookahead: bool,
    known: KnownPlan<'_, B>,
) {
    if rules.expressions.obligations.is_empty() {
        generate_unobliged(rules, position, sink, lookahead, known);
    } else {
        generate_obliged(rules, position, sink, lookahead, known);
    }
}

/// Whether `mv`, on `position`, captures: en passant, or a move onto an occupied square.
#[inline]
pub(crate) fn captures<B: Bitboard>(position: &Position<B>, mv: Move) -> bool {
    match mv.kind {
        MoveKind::EnPassant => true,
        // A promotion in place (`d5d5f`) stands on its own square: no capture.
        MoveKind::Normal | MoveKind::Promote(_) => {
            mv.from != mv.to && position.occupied().has(mv.to)
        }
        MoveKind::Castle(_) | MoveKind::Drop(_) | MoveKind::Pass => false,
    }
}

/// Whether `mv` is an action of this kind.
fn is_kind<B: Bitboard>(position: &Position<B>, mv: Move, kind: ObligationKind) -> bool {
    match kind {
        ObligationKind::Capture => captures(position, mv),
        ObligationKind::Drop => matches!(mv.kind, MoveKind::Drop(_)),
    }
}

/// The obligations that bind the side to move, given its actions before them (to know what
/// is possible): each one's index (source order) and the kind of action it asks for. An
/// action is legal when it is of every kind asked.
pub fn obliged_kinds<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    actions: &[Move],
) -> Vec<(usize, ObligationKind)> {
    let us = position.side_to_move(rules);
    let mut judge = None;
    let mut binding = Vec::new();
    for (index, obligation) in rules.expressions.obligations.iter().enumerate() {
        if obligation.side.is_some_and(|side| side != us) {
            continue;
        }
        let binds = match &obligation.when {
            Err(kind) => actions.iter().any(|&mv| is_kind(position, mv, *kind)),
            Ok(condition) => judge
                .get_or_insert_with(|| Judge::new(rules, position, us))
                .holds(condition),
        };
        if binds {
            binding.push((index, obligation.kind));
        }
    }
    binding
}

/// The legal actions before the obligations (`must capture`) are applied: what they choose
/// from (for explanations).
pub fn unobliged_actions<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let mut collector = Collector {
        moves: Vec::with_capacity(64),
        drop_squares: B::EMPTY,
    };
    generate_unobliged(rules, position, &mut collector, true, None);
    collector.moves
}

/// [`generate_actions`] in a game with obligations.
#[cold]
fn generate_obliged<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    lookahead: bool,
    known: KnownPlan<'_, B>,
) {
    // The tactical moves alone tell which obligations bind unless one binds while a drop is
    // possible: every capture is among them, and no drop.
    let tactical = S::TACTICAL
        && rules
            .expressions
            .obligations
            .iter()
            .all(|obligation| !matches!(obligation.when, Err(ObligationKind::Drop)));
    let candidates = if tactical {
        let us = position.side_to_move(rules);
        let mut tactical = Tactical::new(position, us, Vec::with_capacity(16));
        generate_unobliged(rules, position, &mut tactical, lookahead, known);
        tactical.moves
    } else {
        let mut collector = Collector {
            moves: Vec::with_capacity(64),
            drop_squares: B::EMPTY,
        };
        generate_unobliged(rules, position, &mut collector, lookahead, known);
        collector.moves
    };
    let binding = obliged_kinds(rules, position, &candidates);
    for mv in candidates {
        if binding.iter().all(|&(_, kind)| is_kind(position, mv, kind)) {
            sink.single(mv);
            if sink.satisfied() {
                return;
            }
        }
    }
}

/// The legal actions before any obligation. Not forced inline: its instance for a collector,
/// which the obligations' path also calls, then stays one function, and the move loops inlined
/// into it (issue 26).
fn generate_unobliged<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    lookahead: bool,
    known: KnownPlan<'_, B>,
) {
    let us = position.side_to_move(rules);
    let occupied = position.occupied();
    let safety = safety(rules, position, us, occupied);
    let in_phase = position.phase().is_some();
    if rules.multi_action() && position.progress().actions >= rules.definition().turn.actions {
        return;
    }
    if rules.definition().actions.moves && !in_phase {
        let movable = (!rules.expressions.moves.is_empty())
            .then(|| crate::expression::movable_squares(rules, position));
        let movable = Movable(movable.as_ref());
        if rules.expressions.after.is_empty() {
            board_moves(rules, position, &safety, movable, sink);
        } else {
            judged_board_moves(rules, position, &safety, movable, sink);
        }
        if sink.satisfied() {
            return;
        }
    }
    // A drop is never tactical.
    if rules.definition().actions.drops && !S::TACTICAL {
        // Whether each drop is tested for the king's safety: a drop cannot expose a king that
        // is not in check where pins decide legality, but a royal piece dropped may land
        // attacked. (A flag rather than the safety itself: a reference to it kept the move
        // loops' safety in memory, for chess too.)
        let royal_in_hand = || {
            rules
                .royal()
                .iter()
                .any(|&piece| position.hand(us, piece) > 0)
        };
        let king_to_keep = safety.enforced && (!safety.fast || royal_in_hand());
        drops(rules, position, us, king_to_keep, sink, (lookahead, known));
    }
}

/// [`board_moves`] in a game with rules that judge a move by the position after it: each move
/// goes through the test first. A function of its own, so that the move loops of the games
/// without such rules are not made larger by this second instance of them (issue 26).
#[inline(never)]
fn judged_board_moves<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let mut judged = AfterMoves::new(rules, position, sink);
    board_moves(rules, position, safety, movable, &mut judged);
}

/// The moves of the pieces on the board: their targets, en passant, castling.
#[inline(always)]
fn board_moves<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let us = position.side_to_move(rules);
    piece_moves(rules, position, us, safety, movable, sink);
    if sink.satisfied() {
        return;
    }
    let own = position.side_pieces(us);
    en_passant(rules, position, us, own, safety, movable, sink);
    if !S::TACTICAL {
        castling(
            rules,
            position,
            us,
            position.occupied(),
            safety,
            movable,
            sink,
        );
    }
    if rules.gating() {
        gating_moves(rules, position, us, safety, movable, sink);
    }
    if !rules.expressions.in_place.is_empty() {
        promotions_in_place(rules, position, us, safety, sink);
    }
}

/// The promotions that are moves of their own (`promotes in place`, sittuyin's pawn): a piece
/// of the type, on a square its block's rules judged before the move allow, turns into each
/// choice where it stands or after a step to an empty square; a move is kept where it leaves
/// the king safe and meets the block's rules judged after it.
#[cold]
fn promotions_in_place<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: SideId,
    safety: &Safety<B>,
    sink: &mut S,
) {
    let occupied = position.occupied();
    let empty = rules.geometry().board & !occupied;
    for (index, rule) in rules.expressions.in_place.iter().enumerate() {
        let pieces = position.side_pieces(us) & position.typed(rule.piece);
        if pieces.is_empty() {
            continue;
        }
        let mut judge = Judge::new(rules, position, us);
        let origins =
            pieces & crate::expression::allowed_from(&mut judge, &rule.before, rule.piece);
        let binding: Vec<_> = rule
            .after
            .iter()
            .filter(|after| after.side.is_none_or(|side| side == us))
            .collect();
        let step = &rules.in_place_steps[index][us];
        for from in origins.squares() {
            let steps =
                crate::core::tables::targets(rules, step, from, occupied, B::EMPTY, occupied);
            for to in (B::single(from) | (steps & empty)).squares() {
                for &choice in &rule.choices {
                    let mv = Move {
                        kind: MoveKind::Promote(choice),
                        ..Move::normal(from, to)
                    };
                    if safety.enforced && !leaves_king_safe(rules, position, mv, us) {
                        continue;
                    }
                    if crate::rules::after_move::allowed(
                        rules, position, &mut judge, &binding, us, mv,
                    ) {
                        sink.single(mv);
                        if sink.satisfied() {
                            return;
                        }
                    }
                }
            }
        }
    }
}

fn drops<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: SideId,
    king_to_keep: bool,
    sink: &mut S,
    (lookahead, known): (bool, KnownPlan<'_, B>),
) {
    if position.hand_total(us) == 0 {
        return;
    }
    let mut judge = Judge::new(rules, position, us);
    // The rules folded for this position's scalar state, where the game keeps a plan.
    let plan = known.unwrap_or_else(|| crate::plan::plan(rules, position, us));
    let in_hand = position.held_types(us);
    // Every type at once: from the plan, or from the rules (unless one drop is enough).
    let mut allowed_of = ByPiece::splat(B::EMPTY);
    let mut looked_ahead_of = ByPiece::splat(B::EMPTY);
    let prepared = match &plan {
        Some(plan) => {
            plan.drop_squares(
                &mut judge,
                in_hand,
                lookahead,
                &mut allowed_of,
                &mut looked_ahead_of,
            );
            true
        }
        None if !S::ONE_IS_ENOUGH => {
            drop_squares_of(
                &mut judge,
                in_hand,
                lookahead,
                &mut allowed_of,
                &mut looked_ahead_of,
            );
            true
        }
        None => false,
    };
    let proved_after = |drops: B| {
        rules.options.lookahead_pruning
            && match &plan {
                Some(plan) => plan.reply_certain(rules, position, drops),
                None => reply_certain_after(rules, position, drops),
            }
    };
    let empty = rules.geometry().board & !position.occupied();
    // Proved once per position, the lookahead then costs nothing per drop.
    let mut reply_proved = None;
    if prepared && !king_to_keep {
        // Every type's squares at hand and no king to keep safe: where the lookahead binds
        // no drop (or is proved for all at once), the squares go to the sink as they are.
        let mut ahead = B::EMPTY;
        let mut rest = in_hand;
        while rest != 0 {
            let piece = PieceId::new(rest.trailing_zeros() as usize);
            rest &= rest - 1;
            ahead |= looked_ahead_of[piece] & allowed_of[piece];
        }
        let proved = !lookahead || ahead.is_empty() || proved_after(empty);
        if proved {
            let mut rest = in_hand;
            while rest != 0 {
                let piece = PieceId::new(rest.trailing_zeros() as usize);
                rest &= rest - 1;
                sink.drops(piece, allowed_of[piece]);
                if sink.satisfied() {
                    return;
                }
            }
            return;
        }
        reply_proved = Some(false);
    }
    // Otherwise proved square by square (whatever the type dropped), or tested drop by drop.
    let (mut square_tried, mut square_proved) = (B::EMPTY, B::EMPTY);
    for piece in pieces(rules.pieces()) {
        if in_hand >> piece.0 & 1 == 0 {
            continue;
        }
        let (mut allowed, looked_ahead) = if prepared {
            (allowed_of[piece], looked_ahead_of[piece])
        } else {
            drop_squares(&mut judge, piece, lookahead)
        };
        if king_to_keep {
            for to in allowed.squares() {
                if !leaves_king_safe(rules, position, Move::drop(piece, to), us) {
                    allowed &= !B::single(to);
                }
            }
        }
        if lookahead && (looked_ahead & allowed).any() {
            let proved = *reply_proved.get_or_insert_with(|| proved_after(empty));
            if !proved {
                for to in (looked_ahead & allowed).squares() {
                    let square = B::single(to);
                    if (square_tried & square).is_empty() {
                        square_tried |= square;
                        if proved_after(square) {
                            square_proved |= square;
                        }
                    }
                    if (square_proved & square).is_empty()
                        && !leaves_a_reply(rules, position, Move::drop(piece, to))
                    {
                        allowed &= !square;
                    }
                }
            }
        }
        sink.drops(piece, allowed);
        if sink.satisfied() {
            return;
        }
    }
}

/// The drop rules that bind the side to move when it drops `piece` on `to`, in source order,
/// each with whether the drop meets it (for explanations; generation uses the same masks).
pub fn binding_drop_constraints<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
    piece: PieceId,
    to: Sq,
) -> Vec<(&'r variant_dsl::DropConstraint, bool)> {
    let written = match position.phase() {
        Some(phase) => &rules.definition().phases[phase].drops.constraints,
        None => &rules.definition().drops.constraints,
    };
    crate::expression::binding_rules(rules, position, piece, to)
        .into_iter()
        .map(|(index, met)| (&written[index], met))
        .collect()
}

/// The move rules that bind the side to move when it moves `piece` from `from`, in source
/// order, each with whether the move meets it (for explanations).
pub fn binding_move_constraints<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
    piece: PieceId,
    from: Sq,
) -> Vec<(&'r variant_dsl::DropConstraint, bool)> {
    crate::expression::binding_move_rules(rules, position, piece, from)
        .into_iter()
        .map(|(index, met)| (&rules.definition().move_rules.constraints[index], met))
        .collect()
}

/// Whether `mv` passes the drop rules' lookahead: after it, the next side has a legal action
/// (its own lookahead not applied), or, where the lookahead is `not give checkmate`, is not in
/// check.
pub(crate) fn leaves_a_reply<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mv: Move,
) -> bool {
    let mut next = *position;
    next.play_for_count(rules, mv);
    if rules.expressions.lookahead_mates_only && !next.in_check(rules, next.side_to_move(rules)) {
        return true;
    }
    let mut exists = Exists::default();
    generate_actions(rules, &next, &mut exists, false, None);
    exists.0
}

/// Whether the side to move has a legal action; generation stops at the first.
pub fn any_legal<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let mut exists = Exists::default();
    generate(rules, position, &mut exists);
    exists.0
}

/// Whether the turn goes on after the action just played on `position`: the game is over (the
/// mover keeps the move, nothing of the turn's end happens), or the turn has not reached its
/// length, or (with `maximal`) it has reached the longest length but a game-ending action may
/// still follow.
pub(crate) fn continues<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    if ends_by_action(rules, position) {
        return true;
    }
    let taken = position.progress().actions;
    let limit = rules.definition().turn.actions;
    if taken >= limit {
        return false;
    }
    if !rules.definition().turn.maximal {
        return any_action(rules, position);
    }
    taken < position.progress().longest || can_end(rules, position, limit - taken)
}

/// The legal next actions of a turn of several actions.
///
/// Without `maximal`, every action, and `pass` to end the turn once it has started. With
/// `maximal`, the actions after which the turn can be completed at its longest length, or that
/// end the game, or after which a game-ending action can follow within the turn. A side with no
/// legal action at the start of its turn passes when the game says so.
pub fn legal_actions<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let turn = &rules.definition().turn;
    let taken = position.progress().actions;
    let candidates = single_actions(rules, position);
    let mut legal = if turn.maximal {
        let longest = position.progress().longest;
        candidates
            .into_iter()
            .filter(|&mv| {
                let mut next = *position;
                next.apply_action(rules, mv);
                if ends_by_action(rules, &next) {
                    return true;
                }
                let taken = taken + 1;
                let completes = taken <= longest
                    && self::longest(rules, &next, longest - taken) >= longest - taken;
                completes || (taken < turn.actions && can_end(rules, &next, turn.actions - taken))
            })
            .collect()
    } else {
        let mut actions = candidates;
        if taken > 0 {
            actions.push(Move::pass());
        }
        actions
    };
    if legal.is_empty() && taken == 0 && passes(rules, position) {
        legal.push(Move::pass());
    }
    legal
}

/// Whether the side to move, without a legal action at the start of its turn, passes (`pass
/// when no action`). The end rules that judge a side without actions come first: in check
/// under `check`, a game with `checkmate` ends by it; otherwise a game with `stalemate` ends
/// by that. So `checkmate` and `stalemate` see the actions other than `pass`, and a
/// checkmated side never passes.
pub(crate) fn passes<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let definition = &rules.definition();
    if !definition.turn.pass {
        return false;
    }
    let end = &definition.end;
    let to_move = position.side_to_move(rules);
    if end.check && position.in_check(rules, to_move) {
        end.checkmate.is_none()
    } else {
        end.stalemate.is_none()
    }
}

/// Whether a side always has a legal action, `pass` at least: the game passes a side without
/// actions, and has neither `checkmate` nor `stalemate` to judge it first.
#[inline]
pub(crate) fn always_acts<B: Bitboard>(rules: &Rules<B>) -> bool {
    let definition = &rules.definition();
    definition.turn.pass && definition.end.checkmate.is_none() && definition.end.stalemate.is_none()
}

/// The most further actions (up to `limit`) the side to move can take this turn without ending
/// the game: a sequence stops at a game-ending action, which does not count.
pub fn longest<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, limit: u8) -> u8 {
    if limit == 0 {
        return 0;
    }
    let mut best = 0;
    for mv in single_actions(rules, position) {
        let mut next = *position;
        next.apply_action(rules, mv);
        if ends_by_action(rules, &next) {
            continue;
        }
        best = best.max(1 + longest(rules, &next, limit - 1));
        if best == limit {
            break;
        }
    }
    best
}

/// Whether the side to move can end the game within `limit` further actions of this turn.
pub fn can_end<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, limit: u8) -> bool {
    if limit == 0 {
        return false;
    }
    single_actions(rules, position).into_iter().any(|mv| {
        let mut next = *position;
        next.apply_action(rules, mv);
        ends_by_action(rules, &next) || (limit > 1 && can_end(rules, &next, limit - 1))
    })
}
