//! The game file's own controller of a side (`policy red { ... }`) as a player: its dice and its
//! pick among the candidates come from the agent's seeded generator, so a game replays exactly
//! from its seed.

use super::{typed, Agent, AgentOptions, Choice, PlayerSpec};
use crate::bitboard::Bitboard;
use crate::policy::{decide, SeededDice};
use crate::session::Session;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::marker::PhantomData;

/// Plays the policy of the side to move.
pub struct PolicyAgent<B> {
    rng: ChaCha8Rng,
    width: PhantomData<fn() -> B>,
}

impl<B: Bitboard> PolicyAgent<B> {
    /// A policy player seeded by `options.seed`.
    pub fn new(options: AgentOptions) -> Self {
        PolicyAgent {
            rng: super::generator(options.seed, 3),
            width: PhantomData,
        }
    }
}

impl<B: Bitboard> Agent for PolicyAgent<B> {
    fn choose(&mut self, session: &dyn Session) -> Option<Choice> {
        let game = typed::<B>(session)?;
        let snapshot = super::Snapshot::of(game);
        if !matches!(
            super::tree::status(&snapshot.rules, &snapshot.position, &snapshot.history),
            super::tree::Status::Moves(_)
        ) {
            return None;
        }
        let side = snapshot.position.side_to_move(&snapshot.rules);
        let policy = snapshot.policies.of(side)?;
        let decision = decide(
            &snapshot.rules,
            &snapshot.position,
            policy,
            &mut SeededDice(&mut self.rng),
        )
        .ok()?;
        let mv = decision.candidates[self.rng.random_range(0..decision.candidates.len())];
        let dice: Vec<String> = decision.dice.iter().map(u32::to_string).collect();
        let mut summary = format!("rule {}", decision.rule);
        if !dice.is_empty() {
            summary.push_str(&format!(", dice {}", dice.join(" ")));
        }
        summary.push_str(&format!(
            ", one of {} candidates",
            decision.candidates.len()
        ));
        Some(Choice {
            mv: mv.notation(&snapshot.rules),
            summary,
            work: 0,
            dice: Some(decision.dice),
        })
    }

    fn spec(&self) -> PlayerSpec {
        PlayerSpec::Policy
    }
}
