//! From a [`GameFile`] that may be wrong to a [`Definition`] that is known good.
//!
//! Validation never stops at the first problem: it reports every one, sorted in source order.
//! Names are resolved first (pieces, sides), then the board, then everything that refers to
//! them (zones, promotions, castling, the setup FEN). A check that depends on something already
//! reported as broken is skipped, so that one mistake gives one diagnostic. Warnings never
//! block: a game with warnings only still loads.
//!
//! The parts, one per concept, each adding methods to the one `Validator` (its state and the
//! reports every part makes are in `validator`):
//!
//! - `statements`: the statements sorted by kind (duplicates and unsupported ones reported),
//!   and the statements every game needs;
//! - `names`: what names resolve against (`PieceName`, `Context`) and the `Resolver` that the
//!   expression typing asks;
//! - `board` (board and zones), `sides` (sides, teams, turn order), `pieces` (pieces and
//!   paths), `castling`, `turns` (actions, drops, phases, the turn), `capture` (capture and
//!   control), `policy`, `end`, `setup`.
//!
//! [`validate`] runs them in that order (`Validator::run` below): the parts never call this
//! module, and they import from each other only downwards (`names` and `validator` are at the
//! bottom), so there is no import cycle.

mod board;
mod capture;
mod castling;
mod counters;
mod end;
mod names;
mod neutral;
mod pieces;
mod policy;
mod setup;
mod sides;
mod statements;
#[cfg(test)]
mod tests;
mod turns;
mod validator;

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::Diagnostics;
use crate::span::SourceMap;
use crate::typing::{self, Place};
use crate::validate::names::{Context, Resolver};
use crate::validate::setup::{empty_setup, fill_initial_zones};
use crate::validate::turns::RuleKind;
use crate::validate::validator::Validator;

pub use castling::MAX_CASTLING_RIGHTS;
pub use sides::MAX_SIDES;
pub use turns::MAX_TURN_ACTIONS;

/// Validates a (merged) game file.
///
/// Returns the definition and its warnings, or every diagnostic (errors and warnings) when
/// there is at least one error. Diagnostics are sorted in source order.
pub fn validate(
    game: &GameFile,
    sources: &SourceMap,
) -> Result<(Definition, Diagnostics), Diagnostics> {
    let mut validator = Validator::new(game, sources);
    let definition = validator.run(game);
    let mut diagnostics = validator.diagnostics;
    diagnostics.sort();
    match definition {
        Some(definition) if !diagnostics.has_errors() => Ok((definition, diagnostics)),
        _ => Err(diagnostics),
    }
}

impl Validator<'_> {
    fn run(&mut self, game: &GameFile) -> Option<Definition> {
        let statements = self.sort_statements(game);
        let errors_before_names = self.error_count();
        let board = statements.board.and_then(|board| self.board(board));
        let mut sides = self.sides(&statements.sides, board.as_ref());
        let piece_names = self.piece_names(&statements.pieces);
        self.side_letters(&statements.sides, &piece_names, &mut sides);
        let teams = self.teams(&statements.teams, &sides);
        self.report_removals(&statements.removals, &piece_names);
        let names_ok = self.error_count() == errors_before_names && !sides.is_empty();
        let turn_order = self.turn_order(statements.turns, &sides);
        let counter_names = self.counter_names(&statements.counters, &piece_names);
        let zones = self.named_zones(
            &statements.zones,
            &Context {
                board: board.as_ref(),
                sides: &sides,
                pieces: &piece_names,
                zones: &[],
                pieces_return: false,
                counters: &counter_names,
            },
        );
        let counters: Vec<Option<CounterDef>> = statements
            .counters
            .iter()
            .map(|counter| self.counter(counter))
            .collect();
        let mut context = Context {
            board: board.as_ref(),
            sides: &sides,
            pieces: &piece_names,
            zones: &zones,
            pieces_return: false,
            counters: &counter_names,
        };
        let mut pieces: Vec<PieceDef> = piece_names
            .iter()
            .map(|name| self.piece(name, &context))
            .collect();
        let errors_before_castling = self.error_count();
        let castling = statements
            .castling
            .map(|castling| self.castling(castling, &context))
            .unwrap_or_default();
        let gating = statements
            .gating
            .and_then(|gating| self.gating(gating, &context, &castling));
        let castling_ok = self.error_count() == errors_before_castling;
        let end = statements
            .end
            .map(|end| self.end_rules(end, &context))
            .unwrap_or_default();
        let actions = statements
            .actions
            .map(|actions| self.actions(actions))
            .unwrap_or_default();
        let capture = statements
            .capture
            .map(|capture| self.capture_rules(capture, &context))
            .unwrap_or_default();
        context.pieces_return = capture.stores.iter().any(Option::is_some);
        let drops = statements
            .drops
            .map(|drops| self.drop_rules(&drops.items, &context, RuleKind::Drop))
            .unwrap_or_default();
        let move_rules = statements
            .move_rules
            .map(|rules| self.drop_rules(&rules.items, &context, RuleKind::Move))
            .unwrap_or_default();
        let placing = Context {
            pieces_return: false,
            ..context
        };
        let phases: Vec<PhaseDef> = statements
            .phases
            .iter()
            .filter_map(|phase| self.phase(phase, &placing, actions))
            .collect();
        self.supplies_fit(&statements.pieces, actions, !phases.is_empty());
        let turn = statements
            .turn
            .map(|turn| self.turn_rules(turn, &context))
            .unwrap_or_default();
        self.neutral_fits(
            &statements.pieces,
            &neutral::Surroundings {
                board: board.as_ref(),
                sides: sides.len(),
                turn: &turn,
                phases: !phases.is_empty(),
                gating: gating.is_some(),
            },
        );
        let control = statements
            .control
            .map(|control| self.control_rules(control))
            .unwrap_or_default();
        let policies = self.policies(&statements.policies, &context);
        let score = statements.score.and_then(|score| {
            let mut names = Resolver {
                validator: self,
                context: &context,
            };
            typing::number(&mut names, &score.expression, Place::Score)
                .map(|expression| ScoreRule { expression })
        });
        self.require(&statements, board.as_ref(), &sides);
        let (Some(board), Some(game_name), Some(setup)) =
            (board, statements.game, statements.setup)
        else {
            return None;
        };
        let mut definition = Definition {
            name: game_name.text.node.value.clone(),
            description: statements.description.map(|s| s.text.node.value.clone()),
            credits: statements.credits.map(|s| s.text.node.value.clone()),
            board,
            sides: sides.iter().map(|side| side.node.clone()).collect(),
            turn_order,
            pieces: std::mem::take(&mut pieces),
            castling,
            end,
            setup: empty_setup(),
            actions,
            drops,
            move_rules,
            phases,
            turn,
            control,
            score,
            capture,
            teams,
            policies,
            counters: counters.into_iter().collect::<Option<Vec<_>>>()?,
            gating,
        };
        if !names_ok || !castling_ok {
            return None;
        }
        definition.setup = self.setup(&definition, &setup.text)?;
        self.check_turn_order(&definition, &setup.text, statements.turns)?;
        fill_initial_zones(&mut definition, &piece_names);
        self.warn_unused_pieces(&definition, &piece_names);
        self.warn_capturable_royals(&definition, &piece_names, statements.end);
        Some(definition)
    }
}
