//! The random player: a uniformly random legal move. The baseline every other player must
//! beat, and the fastest opponent for tests.

use super::{typed, Agent, AgentOptions, Choice, PlayerSpec};
use crate::bitboard::Bitboard;
use crate::session::Session;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::marker::PhantomData;

/// Plays a uniformly random legal move.
pub struct RandomAgent<B> {
    rng: ChaCha8Rng,
    width: PhantomData<fn() -> B>,
}

impl<B: Bitboard> RandomAgent<B> {
    /// A random player seeded by `options.seed`.
    pub fn new(options: AgentOptions) -> Self {
        RandomAgent {
            rng: super::generator(options.seed, 0),
            width: PhantomData,
        }
    }
}

impl<B: Bitboard> Agent for RandomAgent<B> {
    fn choose(&mut self, session: &dyn Session) -> Option<Choice> {
        let game = typed::<B>(session)?;
        let snapshot = super::Snapshot::of(game);
        let super::tree::Status::Moves(moves) =
            super::tree::status(&snapshot.rules, &snapshot.position, &snapshot.history)
        else {
            return None;
        };
        let mv = moves[self.rng.random_range(0..moves.len())];
        Some(Choice {
            mv: mv.uci(&snapshot.rules),
            summary: format!("one of {} legal moves at random", moves.len()),
            work: 0,
            dice: None,
        })
    }

    fn spec(&self) -> PlayerSpec {
        PlayerSpec::Random
    }
}
