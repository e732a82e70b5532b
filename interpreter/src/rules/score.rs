//! Scores: each side's score is the game file's `score` expression judged for that side (see
//! [`crate::expression`]), such as `count (controlled by own except controlled by opponent)` or
//! `sum controllers of own on empty`.

use crate::bitboard::Bitboard;
use crate::core::index::{sides, SideId};
use crate::expression::Judge;
use crate::position::Position;
use crate::rules::Rules;

/// The scores of every side, in side order, or `None` when the game keeps no score.
pub fn scores<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<Vec<i64>> {
    let score = rules.expressions.score.as_ref()?;
    // One judge for every side: each side's control map is computed once, not once per score.
    let mut judge = Judge::new(rules, position, SideId::new(0));
    Some(
        sides(rules.sides())
            .map(|side| {
                judge.judge_for(side);
                judge.number(score)
            })
            .collect(),
    )
}
