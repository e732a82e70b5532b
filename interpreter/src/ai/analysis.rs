//! Searching a session's position apart from the session, for the engine protocols and
//! `variant analyse`.
//!
//! Why a detached [`Root`]: an engine protocol searches on its own thread while the reader keeps
//! answering the client, and a [`Session`] is neither `Send` nor cheap to rebuild; a `Root`
//! holds the shared compiled rules, the position and the hashes of the positions before it, so
//! it moves to the searching thread and leaves the session free. The search itself is
//! [`super::search::deepen`], the players' own.
//!
//! [`weaker_choice`] is the engine's `Skill Level`: a move picked among the best lines with
//! seeded noise, so that a person can beat it.

use super::search::{deepen, Control, Finished, Limits, Line, Report, TranspositionTable};
use super::{generator, typed, Snapshot};
use crate::bitboard::{Bitboard, Wide256};
use crate::position::Position;
use crate::rules::Rules;
use crate::session::Session;
use rand::RngExt;
use std::sync::Arc;

/// The position to search, detached from its session (see the module's documentation).
pub struct Root {
    inner: Box<dyn Searchable + Send>,
}

/// A search from a position of one bitboard width.
trait Searchable {
    fn search(
        &self,
        table: &mut TranspositionTable,
        limits: &Limits,
        control: &Control,
        report: Option<&mut dyn FnMut(&Report)>,
    ) -> Option<Finished>;
}

struct Typed<B: Bitboard> {
    rules: Arc<Rules<B>>,
    position: Position<B>,
    history: Vec<u64>,
}

impl<B: Bitboard> Searchable for Typed<B> {
    fn search(
        &self,
        table: &mut TranspositionTable,
        limits: &Limits,
        control: &Control,
        report: Option<&mut dyn FnMut(&Report)>,
    ) -> Option<Finished> {
        deepen(
            &self.rules,
            &self.position,
            &self.history,
            table,
            limits,
            control,
            report,
        )
    }
}

fn detach<B: Bitboard>(session: &dyn Session) -> Option<Box<dyn Searchable + Send>> {
    let snapshot = Snapshot::of(typed::<B>(session)?);
    Some(Box::new(Typed {
        rules: snapshot.rules,
        position: snapshot.position,
        history: snapshot.history,
    }))
}

impl Root {
    /// The session's current position, with its history for repetition.
    pub fn of(session: &dyn Session) -> Root {
        let inner = detach::<u64>(session)
            .or_else(|| detach::<u128>(session))
            .or_else(|| detach::<Wide256>(session))
            .expect("a session is a game of one of the three widths");
        Root { inner }
    }

    /// Searches for the side to move (see [`super::search::deepen`]); `None` when the game is
    /// over.
    pub fn search(
        &self,
        table: &mut TranspositionTable,
        limits: &Limits,
        control: &Control,
        report: Option<&mut dyn FnMut(&Report)>,
    ) -> Option<Finished> {
        self.inner.search(table, limits, control, report)
    }
}

/// The highest skill level: full strength.
pub const MAX_SKILL: u32 = 20;

/// The line a player of skill `level` (0 to 19; weaker when lower) picks among `lines` (best
/// first): each line's deficit to the best is mostly forgiven, the more the weaker the level,
/// and a random push, up to the spread of the lines (at most a pawn), decides among the rest.
pub fn weaker_choice(lines: &[Line], level: u32, seed: u64) -> usize {
    let Some(top) = lines.first().map(|l| l.score.rank()) else {
        return 0;
    };
    let mut rng = generator(seed, 11);
    let worst = lines.last().map_or(top, |l| l.score.rank());
    let spread = (top - worst).clamp(0, 100);
    let weakness = 120 - 2 * i64::from(level.min(MAX_SKILL - 1));
    let mut chosen = (0, i64::MIN);
    for (index, line) in lines.iter().enumerate() {
        let rank = line.score.rank();
        let push = (weakness * (top - rank) + spread * rng.random_range(0..weakness)) / 128;
        if rank + push >= chosen.1 {
            chosen = (index, rank + push);
        }
    }
    chosen.0
}
