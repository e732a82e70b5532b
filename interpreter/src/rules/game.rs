//! Playing a turn: the position's primitive edits, then the rules' decisions.
//!
//! The core's [`Position`] knows how to play one action (or a pass) on its board, hands and
//! turn progress, and how to hand the move to the next side; it does not know when a turn of
//! several actions goes on ([`crate::legal::continues`]), what the `at turn start` conditions
//! say ([`crate::expression::turn_start_bits`]), or how long the longest turn is
//! ([`crate::legal::longest`]). [`Rules`] does: the methods here are the position's methods
//! that need those answers, written in the rules layer (an `impl Position` outside the core,
//! so that the core imports nothing from above), with the names they always had.
//!
//! [`Position::play`] is the checked door: it plays a move only if the generator makes it here.
//! [`Position::play_legal`] is the fast door for a move taken from the generator's list, as
//! playouts and the benchmarks play (a debug build checks it); [`Position::play_unchecked`],
//! which trusts its caller, is the crate's own (search, perft).

use crate::core::bitboard::Bitboard;
use crate::core::index::{PieceId, Sq};
use crate::core::moves::Move;
use crate::core::position::Position;
use crate::core::setup::SetupError;
use crate::rules::Rules;
use std::fmt;
use variant_dsl::Setup;

/// A move that is not among the legal moves of the position it was played on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move, in UCI.
    pub uci: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a legal move here", self.uci)
    }
}

impl std::error::Error for IllegalMove {}

/// Whether the game's move limit grows with checks (`plus N per check beyond M`).
#[inline(always)]
fn checks_extend_limit<B: Bitboard>(rules: &Rules<B>) -> bool {
    rules
        .definition()
        .end
        .move_limit
        .is_some_and(|limit| limit.checks.is_some())
}

impl<B: Bitboard> Position<B> {
    /// Builds a position from a validated setup; at the start of a turn, computes what the start
    /// of a turn computes.
    pub fn from_setup(rules: &Rules<B>, setup: &Setup) -> Result<Self, SetupError> {
        let (mut position, unstarted) = Position::from_setup_unstarted(rules, setup)?;
        if checks_extend_limit(rules) {
            // The check standing in the FEN was given by the side that moved last.
            let to_move = position.side_to_move(rules);
            if position.in_check(rules, to_move) {
                position.set_standing_check(position.previous_side(rules));
            }
        }
        if unstarted {
            position.begin_turn(rules);
        }
        Ok(position)
    }

    /// Plays `mv` if the move generator makes it in this position, else leaves the position
    /// as it was. (Ends that need the game's history, such as repetition, are the session's to
    /// judge: a position alone does not know them.)
    pub fn play(&mut self, rules: &Rules<B>, mv: Move) -> Result<(), IllegalMove> {
        if !crate::legal::legal_moves(rules, self).contains(&mv) {
            return Err(IllegalMove { uci: mv.uci(rules) });
        }
        self.play_unchecked(rules, mv);
        Ok(())
    }

    /// Plays a move taken from the legal moves of this very position (the generator's list,
    /// [`crate::outcome::status_into`]'s, an [`crate::action_set::ActionSet`]'s): the fast
    /// door of playouts and search. A debug build checks that the move is legal, and panics
    /// if not; a release build trusts the caller, as [`Position::play_unchecked`] does.
    #[inline]
    pub fn play_legal(&mut self, rules: &Rules<B>, mv: Move) {
        debug_assert!(
            crate::legal::legal_moves(rules, self).contains(&mv),
            "`{}` is not a legal move here",
            mv.uci(rules)
        );
        self.play_inlined(rules, mv);
    }

    /// Plays the drop of `piece` on `square` without judging it by the drop rules or the
    /// king's safety: what the drop rules' lookahead asks (after this drop, has the next side
    /// a reply?), and what a test of it plays. Checked: the game has drops, the side to move
    /// holds the piece, and the square is an empty square of the board; otherwise the
    /// position is left as it was.
    pub fn play_drop_unjudged(
        &mut self,
        rules: &Rules<B>,
        piece: PieceId,
        square: Sq,
    ) -> Result<(), IllegalMove> {
        let mv = Move::drop(piece, square);
        let us = self.side_to_move(rules);
        let open = square.index() < rules.geometry().grid_size()
            && rules.geometry().board.has(square)
            && !self.occupied().has(square);
        let held = piece.index() < rules.pieces() && self.hand(us, piece) > 0;
        if !(rules.definition().actions.drops && open && held) {
            return Err(IllegalMove { uci: mv.uci(rules) });
        }
        self.play_inlined(rules, mv);
        Ok(())
    }

    /// Plays a move that the move generator produced. Nothing is checked. The turn passes to
    /// the next side unless it goes on (a turn of several actions, see [`crate::legal`]).
    /// Crate-private: outside, [`Position::play`] checks, and [`Position::play_legal`] is the
    /// fast door for a move from the legal list.
    #[inline]
    pub(crate) fn play_unchecked(&mut self, rules: &Rules<B>, mv: Move) {
        self.play_inlined(rules, mv);
    }

    /// [`Position::play_unchecked`], inlined where it is called: after a copy of a position,
    /// the compiler can then read what the move reads from the original rather than from the
    /// copy just written (a load that waits for the copy's stores).
    #[inline(always)]
    pub(crate) fn play_inlined(&mut self, rules: &Rules<B>, mv: Move) {
        self.play_keeping::<true>(rules, mv);
    }

    /// Plays a move on a position that is only looked at for its moves and for whether the game
    /// ended there, never for who won it: perft's tree, the drop rules' lookahead. The history
    /// that only the verdict of a repetition reads (perpetual check's checks in a row, perpetual
    /// chase's chased pieces: [`crate::core::chase`], judged at every action, the costliest) is
    /// not kept; whether a repetition ended the game reads the hashes alone. A position played
    /// so then gives no repetition the verdicts of perpetual check or chase.
    #[inline(always)]
    pub(crate) fn play_for_count(&mut self, rules: &Rules<B>, mv: Move) {
        self.play_keeping::<false>(rules, mv);
    }

    /// [`Position::play_inlined`] (`VERDICTS`: the history of the repetition's verdicts kept)
    /// or [`Position::play_for_count`].
    #[inline(always)]
    fn play_keeping<const VERDICTS: bool>(&mut self, rules: &Rules<B>, mv: Move) {
        let counting = !rules.expressions.counting.is_empty();
        let captures = (rules.counts() || counting) && crate::legal::captures(self, mv);
        let before = (VERDICTS && rules.follows_chases()).then_some(*self);
        let acted = self.act(rules, mv);
        if acted && rules.counts() {
            self.count_events(rules, captures);
        }
        if VERDICTS && rules.tracks_checks() {
            self.count_checks(rules);
        }
        if acted && checks_extend_limit(rules) {
            self.count_checks_since_clock(rules);
        }
        if let Some(before) = &before {
            self.follow_chases(rules, before, mv);
        }
        if acted
            && rules.multi_action()
            && self.phase().is_none()
            && crate::legal::continues(rules, self)
        {
            return;
        }
        self.finish_turn(rules);
        if counting {
            let promotes = matches!(mv.kind, crate::core::moves::MoveKind::Promote(_));
            self.count_plies(rules, captures || promotes);
        }
    }

    /// After a turn, in a game with `counting`: the first line whose condition holds for the
    /// side now to move gives a limit; a count starts with it if none runs or if the turn's
    /// last action captured or promoted (`restart`), else a running count goes up by a ply.
    #[cold]
    fn count_plies(&mut self, rules: &Rules<B>, restart: bool) {
        let us = self.side_to_move(rules);
        let limit = rules
            .expressions
            .counting
            .iter()
            .zip(&rules.definition().end.counting)
            .find(|(condition, _)| crate::expression::Judge::new(rules, self, us).holds(condition))
            .map(|(_, line)| (line.moves * 2).min(u32::from(u16::MAX)) as u16);
        match (self.counting(), limit) {
            (None, Some(limit)) => self.set_counting(limit, 0),
            (Some(_), Some(limit)) if restart => self.set_counting(limit, 0),
            (Some((limit, plies)), _) => self.set_counting(limit, plies.saturating_add(1)),
            (None, None) => {}
        }
    }

    /// After an action of the side to move (`captured`: whether it captured), each counter
    /// (`counter`) of that side goes up by the amounts of the events that happened: `check`,
    /// an opponent's royal piece attacked; `capture`. A counter stops at its largest value.
    #[cold]
    fn count_events(&mut self, rules: &Rules<B>, captured: bool) {
        let mover = self.side_to_move(rules);
        let mut checks = None;
        for (index, counter) in rules.definition().counters.iter().enumerate() {
            let mut value = u32::from(self.counter(index, mover));
            for &(event, amount) in &counter.events {
                let happened = match event {
                    variant_dsl::CounterEvent::Capture => captured,
                    variant_dsl::CounterEvent::Check => *checks.get_or_insert_with(|| {
                        rules
                            .side_ids()
                            .any(|side| side != mover && self.in_check(rules, side))
                    }),
                };
                if happened {
                    value += amount;
                }
            }
            let value = value.min(variant_dsl::MAX_COUNTER_VALUE) as u8;
            if value != self.counter(index, mover) {
                self.set_counter(rules, index, mover, value);
            }
        }
    }

    /// After an action (or a pass) of the side to move, in a game with `perpetual check`: its
    /// checks in a row go up by one if an opponent's royal piece is now attacked, else start
    /// again from 0.
    #[cold]
    fn count_checks(&mut self, rules: &Rules<B>) {
        let mover = self.side_to_move(rules);
        let gave = rules
            .side_ids()
            .any(|side| side != mover && self.in_check(rules, side));
        self.set_gave_check(mover, gave);
    }

    /// After an action, in a game whose move limit grows with checks: the mover's checks since
    /// the clock's reset.
    #[cold]
    fn count_checks_since_clock(&mut self, rules: &Rules<B>) {
        let mover = self.side_to_move(rules);
        let gave = rules
            .side_ids()
            .any(|side| side != mover && self.in_check(rules, side));
        self.count_check_since_clock(mover, gave);
    }

    /// After an action of the side to move, in a game with `perpetual chase`: the enemy's
    /// chased pieces are followed where the action moved one, and the side's own runs go on
    /// for the pieces it chased again ([`crate::core::chase::chased`]).
    #[cold]
    fn follow_chases(&mut self, rules: &Rules<B>, before: &Position<B>, mv: Move) {
        let mover = before.side_to_move(rules);
        let forbids =
            |board: &Position<B>, side| crate::rules::after_move::forbidden(rules, board, side);
        let chased = crate::core::chase::chased(rules, before, self, mv, &forbids);
        for side in rules.side_ids() {
            let runs = self.chases(side);
            let runs = if side == mover {
                runs.after_chase(chased.squares())
            } else {
                runs.after_enemy_move(mv.from, mv.to)
            };
            self.set_chases(side, runs);
        }
    }

    /// Plays an action made of primitive edits (a policy's own action, see [`crate::edit`]) as
    /// one whole turn: the edits in order, then the turn passes.
    pub fn play_edits(&mut self, rules: &Rules<B>, edits: &[crate::edit::Edit]) {
        self.apply_edits(rules, edits);
        self.finish_turn(rules);
    }

    /// Ends the turn: end-of-turn effects, the next side (or phase), and what the start of its
    /// turn computes.
    #[inline(always)]
    pub(crate) fn finish_turn(&mut self, rules: &Rules<B>) {
        if self.end_turn(rules) {
            self.begin_turn(rules);
        }
    }

    /// What the start of a turn computes: the `at turn start` conditions, and with `maximal`
    /// the length of the longest turn.
    pub(crate) fn begin_turn(&mut self, rules: &Rules<B>) {
        let start = crate::expression::turn_start_bits(rules, self);
        self.set_turn_start(rules, start);
        if rules.multi_action() && self.phase().is_none() && rules.definition().turn.maximal {
            let longest = crate::legal::longest(rules, self, rules.definition().turn.actions);
            self.set_longest_turn(rules, longest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn chess() -> (Rules<u64>, Position<u64>) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chess.variant");
        let definition = variant_dsl::load_file(&path).expect("loads").definition;
        let rules = Rules::compile(&definition).expect("compiles");
        let position = Position::from_setup(&rules, &definition.setup).expect("opens");
        (rules, position)
    }

    fn square(rules: &Rules<u64>, name: &str) -> Sq {
        rules
            .geometry()
            .index(variant_dsl::Square::parse(name).expect("a square"))
    }

    #[test]
    fn play_takes_a_legal_move_and_refuses_another_leaving_the_position() {
        let (rules, start) = chess();
        let e2 = square(&rules, "e2");
        let e4 = square(&rules, "e4");
        let e5 = square(&rules, "e5");
        let mut position = start;
        let refused = position.play(&rules, Move::normal(e2, e5));
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("`e2e5` is not a legal move here".into())
        );
        assert_eq!(position.hash(), start.hash());
        position.play(&rules, Move::normal(e2, e4)).expect("legal");
        let mut unchecked = start;
        unchecked.play_unchecked(&rules, Move::normal(e2, e4));
        assert_eq!(position.hash(), unchecked.hash());
        assert_ne!(position.hash(), start.hash());
    }

    #[test]
    fn a_setup_that_cannot_open_says_why_with_the_square() {
        let (rules, _) = chess();
        let fen = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
        let setup = variant_dsl::fen::parse_fen(rules.definition(), fen).expect("a FEN");
        let refused = Position::from_setup(&rules, &setup).map(|_| ());
        let e6 = variant_dsl::Square::parse("e6").expect("a square");
        assert_eq!(refused, Err(SetupError::NoEnPassantVictim { square: e6 }));
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("no piece can be captured en passant on e6".into())
        );
    }

    #[test]
    fn a_board_wider_than_the_bitboard_is_a_typed_compile_error() {
        let source = r#"
game "Wide"
board 9x9
side white { forward up }
side black { forward down }
piece King { letter K; royal; moves "K" }
setup "k8/9/9/9/9/9/9/9/8K w - - 0 1"
end { check; checkmate loses; stalemate draws }
"#;
        let definition = variant_dsl::load_source("wide.variant", source)
            .expect("valid")
            .definition;
        let refused = Rules::<u64>::compile(&definition).map(|_| ());
        assert_eq!(
            refused,
            Err(crate::rules::CompileError::BoardTooLarge {
                squares: 81,
                capacity: 64
            })
        );
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("board too large for this bitboard width".into())
        );
    }

    #[test]
    fn a_side_without_a_policy_is_a_typed_policy_error() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chess.variant");
        let definition = variant_dsl::load_file(&path).expect("loads").definition;
        let session = crate::open(&definition, None).expect("opens");
        let refused = session.policy(None, None).map(|_| ());
        assert_eq!(
            refused,
            Err(crate::policy::PolicyError::NoPolicy {
                side: "white".into()
            })
        );
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err("white has no policy in this game: people or players move it".into())
        );
    }
}
