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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::search::{Score, MATE};

    fn chess(fen: Option<&str>) -> Box<dyn Session> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/chess.variant");
        let loaded = variant_dsl::load_file(&path).expect("chess loads");
        crate::session::open(&loaded.definition, fen).expect("a position")
    }

    fn search(session: &dyn Session, limits: Limits, control: &Control) -> Finished {
        let mut table = TranspositionTable::with_megabytes(1);
        let mut reports = Vec::new();
        let mut keep = |report: &Report| reports.push(report.clone());
        let finished = Root::of(session)
            .search(&mut table, &limits, control, Some(&mut keep))
            .expect("the game goes on");
        assert_eq!(reports.len() as u32, finished.depth);
        finished
    }

    #[test]
    fn a_node_limit_is_kept_and_a_stopped_search_still_moves() {
        let session = chess(None);
        let limits = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let finished = search(session.as_ref(), limits, &Control::new());
        assert!(finished.nodes <= 1000, "{}", finished.nodes);
        assert!(finished.depth >= 1);
        let stopped = Control::new();
        stopped.stop();
        let finished = search(session.as_ref(), Limits::default(), &stopped);
        assert_eq!(finished.depth, 0);
        assert!(session.legal_moves().contains(&finished.best));
    }

    #[test]
    fn several_lines_are_ranked_and_the_first_is_the_single_best() {
        let session = chess(Some(
            "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        ));
        let depth = |lines| Limits {
            depth: 3,
            lines,
            ..Limits::default()
        };
        let one = search(session.as_ref(), depth(1), &Control::new());
        let three = search(session.as_ref(), depth(3), &Control::new());
        let lines = three.report.expect("a report").lines;
        assert_eq!(lines.len(), 3);
        assert!(lines
            .windows(2)
            .all(|w| w[0].score.rank() >= w[1].score.rank()));
        assert_eq!(lines[0].score, one.score);
        // Qxf7 is mate: the best line, scored as a mate in one.
        assert_eq!(one.best, "f3f7");
        assert_eq!(one.score, Score::Mate(1));
    }

    #[test]
    fn mates_are_counted_in_moves_of_the_side_to_move() {
        let of = Score::of;
        assert_eq!(of(MATE - 1), Score::Mate(1));
        assert_eq!(of(MATE - 3), Score::Mate(2));
        assert_eq!(of(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(of(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(of(35), Score::Centipawns(35));
        assert!(Score::Mate(1).rank() > Score::Mate(2).rank());
        assert!(Score::Mate(2).rank() > Score::Centipawns(MATE / 2).rank());
        assert!(Score::Mate(-1).rank() < Score::Mate(-2).rank());
        assert!(Score::Mate(-2).rank() < Score::Centipawns(-MATE / 2).rank());
    }

    #[test]
    fn a_weaker_level_picks_among_close_lines_by_its_seed() {
        let line = |cp| Line {
            score: Score::Centipawns(cp),
            moves: vec![format!("{cp}")],
        };
        let lines = [line(50), line(40), line(30), line(-900)];
        let picks = |level| -> Vec<usize> {
            (0..64)
                .map(|seed| weaker_choice(&lines, level, seed))
                .collect()
        };
        let weakest = picks(0);
        assert!(
            weakest.iter().any(|&i| i != 0),
            "not always the best: {weakest:?}"
        );
        let strongest = picks(MAX_SKILL - 1);
        assert!(
            strongest.iter().all(|&i| i < 3),
            "never the blunder: {strongest:?}"
        );
        assert_eq!(weaker_choice(&lines, 0, 7), weaker_choice(&lines, 0, 7));
    }
}
