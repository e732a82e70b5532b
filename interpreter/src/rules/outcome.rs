//! The end of a game: who won and why.
//!
//! The end rules of a definition are checked in a fixed order after every move: no legal move
//! (checkmate or stalemate), then repetition, then the move limit.

use crate::action_set::ActionSet;
use crate::bitboard::Bitboard;
use crate::core::index::{sides, SideId};
use crate::expression::{EndCheck, Judge};
use crate::legal::{any_legal, legal_moves, legal_moves_into};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use crate::score::scores;
// The end rules judged without the legal actions keep their paths here.
pub(crate) use super::end::fired_end_condition;
use super::end::{
    counting_reached, fired_end_condition_by, material_rule, move_limit_reached, perpetual_chaser,
    perpetual_checker, repetition_span, royal_lost,
};
pub use super::end::{ends_before_actions, occurred_before};
use serde::Serialize;
use variant_dsl::{Tiebreak, Verdict};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// No legal move with a royal piece attacked.
    Checkmate,
    /// No legal move otherwise.
    Stalemate,
    /// A position occurred the set number of times.
    Repetition,
    /// Too many moves without a capture or an irreversible move.
    MoveLimit,
    /// An end condition decided by score held (`by score when hands empty`), and the scores,
    /// or their tie-breaks, decided.
    Score,
    /// An end condition with a verdict held (`loses when ...`).
    Condition,
    /// The material left matches a `material` rule (a dead position in chess).
    Material,
    /// A side was left without a royal piece (`royal captured`).
    RoyalCaptured,
    /// A position occurred the set number of times, and one side had given check with every
    /// move since its first occurrence (`repetition ..., perpetual check VERDICT`).
    PerpetualCheck,
    /// The running count of `counting` passed its limit (ASEAN chess's counting).
    Counting,
    /// A position occurred the set number of times, and one side had chased an enemy piece
    /// with every move since its first occurrence (`repetition ..., perpetual chase VERDICT`).
    PerpetualChase,
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winning sides by name; empty for a draw.
    pub winners: Vec<String>,
    /// Why.
    pub reason: Reason,
    /// The scores, in side order, where they decided the game ([`Reason::Score`]): what a
    /// player shows at the end, without scoring the position again. Not serialised: saved games
    /// and JSON give the scores where they give positions.
    #[serde(skip)]
    pub scores: Option<Vec<i64>>,
    /// The end condition that decided ([`Reason::Condition`], or [`Reason::Score`] where a
    /// `by score` condition held): its index in the definition's `end.conditions`, so that a
    /// report can tell a file's end rules apart. Not serialised: the JSON result names the reason.
    #[serde(skip)]
    pub rule: Option<usize>,
}

impl Outcome {
    /// Whether nobody won.
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty()
    }

    /// The result in words: `white wins by checkmate`, `draw by stalemate`.
    pub fn description(&self) -> String {
        match self.winners.as_slice() {
            [] => format!("draw by {}", self.reason.words()),
            [one] => format!("{one} wins by {}", self.reason.words()),
            many => format!("{} win by {}", many.join(" and "), self.reason.words()),
        }
    }
}

impl Reason {
    /// The reason in words, as in "draw by ...".
    pub fn words(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "the move limit",
            Reason::Score => "score",
            Reason::Condition => "an end condition",
            Reason::Material => "dead position",
            Reason::RoyalCaptured => "capture of the royal piece",
            Reason::PerpetualCheck => "perpetual check",
            Reason::Counting => "counting",
            Reason::PerpetualChase => "perpetual chase",
        }
    }
}

fn verdict_outcome<B: Bitboard>(
    rules: &Rules<B>,
    side: SideId,
    verdict: Verdict,
    reason: Reason,
) -> Outcome {
    let names = |keep: &dyn Fn(SideId) -> bool| {
        sides(rules.sides())
            .filter(|&s| keep(s))
            .map(|s| side_name(rules, s))
            .collect()
    };
    let winners = match verdict {
        Verdict::Draw => Vec::new(),
        Verdict::Win => names(&|s| !rules.is_enemy(side, s)),
        Verdict::Loss => names(&|s| rules.is_enemy(side, s)),
    };
    Outcome {
        winners,
        reason,
        scores: None,
        rule: None,
    }
}

/// The result of the game at `position`, reached after the positions whose hashes are in
/// `history` (oldest first, the current one excluded), or `None` if it goes on.
///
/// The rules are tried in this order, the first that applies decides: a royal piece captured;
/// the end conditions, in source order; no legal action (checkmate or stalemate); a `material`
/// rule; repetition; the move limit.
pub fn outcome<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> Option<Outcome> {
    outcome_given(rules, position, history, None)
}

/// [`outcome`], with the legal actions when they are already known (`known`).
fn outcome_given<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    known: Option<&[Move]>,
) -> Option<Outcome> {
    let end = &rules.definition().end;
    let to_move = position.side_to_move(rules);
    if let (Some(verdict), Some(side)) = (end.royal_captured, royal_lost(rules, position)) {
        return Some(verdict_outcome(rules, side, verdict, Reason::RoyalCaptured));
    }
    // The legal actions are generated once, and only when an end condition reads them;
    // otherwise "is there any legal action" stops at the first.
    let needs_actions = rules.expressions.end.iter().any(|end| end.needs_actions);
    let generated = (needs_actions && known.is_none()).then(|| legal_moves(rules, position));
    let actions = known.or(generated.as_deref());
    if let Some(outcome) = end_condition(rules, position, actions, |_| true) {
        return Some(outcome);
    }
    let legal = match actions {
        Some(actions) => !actions.is_empty(),
        // With `pass when no action`, and no `checkmate` or `stalemate` judged before a pass,
        // there is always an action (a turn's later actions exist whenever the turn goes on).
        None => crate::legal::always_acts(rules) || any_legal(rules, position),
    };
    if !legal {
        let checked = end.check && position.in_check(rules, to_move);
        let (verdict, reason) = if checked {
            (end.checkmate, Reason::Checkmate)
        } else {
            (end.stalemate, Reason::Stalemate)
        };
        return Some(verdict_outcome(
            rules,
            to_move,
            verdict.unwrap_or(Verdict::Draw),
            reason,
        ));
    }
    if let Some(rule) = material_rule(rules, position) {
        return Some(verdict_outcome(
            rules,
            to_move,
            rule.verdict,
            Reason::Material,
        ));
    }
    if let Some(repetition) = end.repetition {
        if let Some(span) = repetition_span(rules, position, history) {
            if let Some((checker, verdict)) = perpetual_checker(rules, position, span) {
                return Some(verdict_outcome(
                    rules,
                    checker,
                    verdict,
                    Reason::PerpetualCheck,
                ));
            }
            if let Some((chaser, verdict)) = perpetual_chaser(rules, position, span, history.len())
            {
                return Some(verdict_outcome(
                    rules,
                    chaser,
                    verdict,
                    Reason::PerpetualChase,
                ));
            }
            if repetition.by_score {
                return Some(scored(rules, position, Reason::Repetition));
            }
            // `for SIDE`: the verdict is that side's, whoever repeated.
            let side = repetition
                .for_side
                .unwrap_or_else(|| position.previous_side(rules));
            return Some(verdict_outcome(
                rules,
                side,
                repetition.verdict,
                Reason::Repetition,
            ));
        }
    }
    if let Some(limit) = end.move_limit {
        if move_limit_reached(rules, position) {
            if limit.by_score {
                return Some(scored(rules, position, Reason::MoveLimit));
            }
            return Some(verdict_outcome(
                rules,
                to_move,
                limit.verdict,
                Reason::MoveLimit,
            ));
        }
    }
    // After the move limit, as Fairy-Stockfish judges its optional ends.
    if let Some(line) = end.counting.first() {
        if counting_reached(position) {
            return Some(verdict_outcome(
                rules,
                to_move,
                line.verdict,
                Reason::Counting,
            ));
        }
    }
    None
}

/// A game that a rule with `by score` ended (`repetition 3 by score`, `move-limit 50 by
/// score`): the scores decide as [`by_score`] does, and the reason stays the rule's.
fn scored<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, reason: Reason) -> Outcome {
    Outcome {
        reason,
        ..by_score(rules, position)
    }
}

/// A position of a game: finished, or going on with these legal actions.
pub enum Status {
    /// The game is over: how it ended.
    Over(Outcome),
    /// The game goes on: the legal actions of the side to move.
    Moves(Vec<Move>),
}

/// The status of `position`, reached after the positions whose hashes are in `history`: one
/// move generation answers both "is the game over" and "what may be played", where
/// [`outcome`] followed by [`legal_moves`] would generate the actions twice when an end
/// condition reads them. The result itself is computed only at the end.
pub fn status<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, history: &[u64]) -> Status {
    let mut moves = Vec::new();
    match status_into(rules, position, history, &mut moves) {
        Some(outcome) => Status::Over(outcome),
        None => Status::Moves(moves),
    }
}

/// [`status`] into a list the caller keeps: `moves` is cleared, and holds the legal actions
/// while the game goes on (`None`); a finished game gives its outcome. A loop that plays many
/// plies (a playout, a search) keeps one list instead of allocating one per ply.
pub fn status_into<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    moves: &mut Vec<Move>,
) -> Option<Outcome> {
    moves.clear();
    if ends_before_actions(rules, position, history) {
        return Some(ended(rules, position, history, None));
    }
    status_listed_into(rules, position, history, moves)
}

/// The rest of [`status_into`], once [`ends_before_actions`] has found the game going on: the
/// legal actions listed into `moves` (cleared first), and the ends that read them. A search
/// asks the cheap ends first, then its table, and lists the actions only where it must.
pub fn status_listed_into<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    moves: &mut Vec<Move>,
) -> Option<Outcome> {
    let finished = |known: Option<&[Move]>| ended(rules, position, history, known);
    moves.clear();
    let drop_squares = legal_moves_into(rules, position, moves);
    let judge = Judge::new(rules, position, position.side_to_move(rules))
        .with_actions(moves)
        .with_drop_squares(drop_squares);
    if moves.is_empty()
        || fired_end_condition_by(rules, position, judge, |end| end.needs_actions).is_some()
    {
        let outcome = finished(Some(moves));
        moves.clear();
        return Some(outcome);
    }
    None
}

/// The end [`status`] finds at `position`, judged without listing the legal actions where no
/// end condition reads them ([`end_reads_actions`]): an end rule that reads no action, or no
/// legal action at all. `can_act`: whether the side to move has a legal action, where the
/// caller knows it (it generated one); else the generator is asked, stopping at the first.
/// `None` while the game goes on. For a search that lists only some of the actions
/// (quiescence's, [`crate::legal::tactical_moves`]); where an end condition reads the
/// actions, they are listed.
pub fn end_unlisted<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    can_act: Option<bool>,
) -> Option<Outcome> {
    if end_reads_actions(rules) {
        return status_into(rules, position, history, &mut Vec::new());
    }
    if ends_before_actions(rules, position, history) {
        return Some(ended(rules, position, history, None));
    }
    if !can_act.unwrap_or_else(|| any_legal(rules, position)) {
        return Some(ended(rules, position, history, Some(&[])));
    }
    None
}

/// The outcome of a game the end rules said is over (`known`: its legal actions, where listed).
/// `outcome` says how; a draw if, against the rules' word, it finds the game going on.
fn ended<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    known: Option<&[Move]>,
) -> Outcome {
    outcome_given(rules, position, history, known).unwrap_or(Outcome {
        winners: Vec::new(),
        reason: Reason::Stalemate,
        scores: None,
        rule: None,
    })
}

/// [`status_into`] into a set of actions instead of a list ([`ActionSet`]): the same end, and
/// while the game goes on the same actions in the same order, without writing each one out. A
/// random playout counts the actions and takes one, as a hand-written engine does.
pub fn status_into_set<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    actions: &mut ActionSet<B>,
) -> Option<Outcome> {
    let finished = |known: Option<&[Move]>| ended(rules, position, history, known);
    actions.clear();
    if ends_before_actions(rules, position, history) {
        return Some(finished(None));
    }
    crate::legal::generate(rules, position, actions);
    if actions.is_empty() {
        return Some(finished(Some(&[])));
    }
    let judge = Judge::new(rules, position, position.side_to_move(rules))
        .with_can_act(true)
        .with_drop_squares(actions.drop_squares());
    if fired_end_condition_by(rules, position, judge, |end| end.needs_actions).is_some() {
        // The end is judged again with the list of actions, once per game.
        actions.clear();
        return Some(finished(None));
    }
    None
}

/// Whether the end rules that look at the legal actions `moves` end the game: none at all, or
/// an end condition that reads them (`can act`, `legal drops`).
#[inline]
pub fn ends_with_actions<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    moves: &[Move],
) -> bool {
    moves.is_empty()
        || fired_end_condition(rules, position, Some(moves), |end| end.needs_actions).is_some()
}

/// Whether some end condition reads the legal actions (then perft cannot count the last ply
/// without generating it).
pub fn end_reads_actions<B: Bitboard>(rules: &Rules<B>) -> bool {
    rules.expressions.end.iter().any(|end| end.needs_actions)
}

/// The first end condition (among those `select` keeps) that holds, as a result: its verdict
/// for the side it holds for, or the scores.
fn end_condition<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    actions: Option<&[Move]>,
    select: impl Fn(&EndCheck<B>) -> bool,
) -> Option<Outcome> {
    let (rule, side, verdict) = fired_end_condition(rules, position, actions, select)?;
    let outcome = match verdict {
        Some(verdict) => verdict_outcome(rules, side, verdict, Reason::Condition),
        None => by_score(rules, position),
    };
    Some(Outcome {
        rule: Some(rule),
        ..outcome
    })
}

/// The result decided by the scores: the unique highest score wins; equal leaders are separated
/// by the tie-breaks in order; else a draw.
fn by_score<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Outcome {
    let scores = scores(rules, position).unwrap_or_else(|| vec![0; rules.sides()]);
    let best = scores.iter().copied().max().unwrap_or(0);
    let mut leaders: Vec<SideId> = sides(rules.sides())
        .filter(|&s| scores[s.index()] == best)
        .collect();
    for tiebreak in &rules.definition().end.tiebreaks {
        if leaders.len() <= 1 {
            break;
        }
        match tiebreak {
            Tiebreak::FewestInHand => {
                let fewest = leaders
                    .iter()
                    .map(|&s| position.hand_total(s))
                    .min()
                    .unwrap_or(0);
                leaders.retain(|&s| position.hand_total(s) == fewest);
            }
        }
    }
    let winners = if leaders.len() == 1 {
        vec![side_name(rules, leaders[0])]
    } else {
        Vec::new()
    };
    Outcome {
        winners,
        reason: Reason::Score,
        scores: Some(scores),
        rule: None,
    }
}

/// A side's name, as the outcome lists it.
fn side_name<B: Bitboard>(rules: &Rules<B>, side: SideId) -> String {
    rules.definition().sides[side.index()].name.clone()
}
