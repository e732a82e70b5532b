//! Playing a turn: the position's primitive edits, then the rules' decisions.
//!
//! The core's [`Position`] knows how to play one action (or a pass) on its board, hands and
//! turn progress, and how to hand the move to the next side; it does not know when a turn of
//! several actions goes on ([`crate::turn::continues`]), what the `at turn start` conditions
//! say ([`crate::expression::turn_start_bits`]), or how long the longest turn is
//! ([`crate::turn::longest`]). [`Rules`] does: the methods here are the position's methods
//! that need those answers, written in the rules layer (an `impl Position` outside the core,
//! so that the core imports nothing from above), with the names they always had.

use crate::core::bitboard::Bitboard;
use crate::core::moves::Move;
use crate::core::position::Position;
use crate::rules::Rules;
use variant_dsl::Setup;

impl<B: Bitboard> Position<B> {
    /// Builds a position from a validated setup; at the start of a turn, computes what the start
    /// of a turn computes.
    pub fn from_setup(rules: &Rules<B>, setup: &Setup) -> Result<Self, String> {
        let (mut position, unstarted) = Position::from_setup_unstarted(rules, setup)?;
        if unstarted {
            position.begin_turn(rules);
        }
        Ok(position)
    }

    /// Plays a move that the move generator produced. Nothing is checked. The turn passes to
    /// the next side unless it goes on (a turn of several actions, see [`crate::turn`]).
    #[inline]
    pub fn play_unchecked(&mut self, rules: &Rules<B>, mv: Move) {
        self.play_inlined(rules, mv);
    }

    /// [`Position::play_unchecked`], inlined where it is called: after a copy of a position,
    /// the compiler can then read what the move reads from the original rather than from the
    /// copy just written (a load that waits for the copy's stores).
    #[inline(always)]
    pub(crate) fn play_inlined(&mut self, rules: &Rules<B>, mv: Move) {
        let acted = self.act(rules, mv);
        if acted
            && rules.multi_action
            && self.phase().is_none()
            && crate::turn::continues(rules, self)
        {
            return;
        }
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
        if rules.multi_action && self.phase().is_none() && rules.definition.turn.maximal {
            let longest = crate::turn::longest(rules, self, rules.definition.turn.actions);
            self.set_longest_turn(rules, longest);
        }
    }
}
