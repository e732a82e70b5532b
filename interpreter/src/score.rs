//! Scores: what each square is worth to each side, summed over the board.
//!
//! The measures are generic aggregates of control (see [`crate::control`]): squares controlled
//! by one side alone, attackers counted one by one, or squares won by the majority of
//! controlling pieces with their values as a tie-break.

use crate::bitboard::Bitboard;
use crate::control::controls;
use crate::position::Position;
use crate::rules::Rules;
use variant_dsl::{ScoreMeasure, ScoreRule};

/// Per side, the number of its pieces controlling each square and the sum of their values.
struct Tally {
    pieces: Vec<Vec<u32>>,
    values: Vec<Vec<i64>>,
}

fn tally<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Tally {
    let size = rules.geometry.grid_size();
    let mut tally = Tally {
        pieces: vec![vec![0; size]; rules.sides],
        values: vec![vec![0; size]; rules.sides],
    };
    for side in 0..rules.sides {
        for (_, piece, control) in controls(rules, position, side) {
            let value = rules.definition.pieces[piece].value as i64;
            for square in control.squares() {
                tally.pieces[side][square] += 1;
                tally.values[side][square] += value;
            }
        }
    }
    tally
}

/// The scores of every side, in side order, or `None` when the game keeps no score.
pub fn scores<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<Vec<i64>> {
    let rule: ScoreRule = rules.definition.score?;
    let tally = tally(rules, position);
    let counted = if rule.empty_only {
        rules.geometry.board & !position.occupied()
    } else {
        rules.geometry.board
    };
    let mut scores = vec![0i64; rules.sides];
    for square in counted.squares() {
        match rule.measure {
            ScoreMeasure::Attackers => {
                for (side, score) in scores.iter_mut().enumerate() {
                    *score += tally.pieces[side][square] as i64;
                }
            }
            ScoreMeasure::ControlledAlone => {
                let mut controllers = (0..rules.sides).filter(|&s| tally.pieces[s][square] > 0);
                if let (Some(only), None) = (controllers.next(), controllers.next()) {
                    scores[only] += 1;
                }
            }
            ScoreMeasure::MajorityThenValue => {
                let key = |s: usize| (tally.pieces[s][square], tally.values[s][square]);
                if let Some(winner) = unique_best(rules.sides, key) {
                    if tally.pieces[winner][square] > 0 {
                        scores[winner] += 1;
                    }
                }
            }
        }
    }
    Some(scores)
}

/// The side with the strictly greatest key, if exactly one has it.
fn unique_best<K: Ord + Copy>(sides: usize, key: impl Fn(usize) -> K) -> Option<usize> {
    let best = (0..sides).map(&key).max()?;
    let mut leaders = (0..sides).filter(|&s| key(s) == best);
    match (leaders.next(), leaders.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}
