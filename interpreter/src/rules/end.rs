//! The end rules judged without the legal actions: a royal piece lost, the end conditions that
//! read no action, `material`, repetition and the move limit.
//!
//! These are what the move generation itself asks (a game that has ended has no legal move,
//! [`crate::legal`]; a turn of several actions stops at a game-ending action; a plan settles
//! the conditions that read no square), so they sit below it. The end rules that judge the
//! legal actions (checkmate, stalemate, `can act`) and the outcome they make are
//! [`crate::outcome`]'s, above the legal moves.

use crate::bitboard::Bitboard;
use crate::core::index::{pieces, sides, SideId};
use crate::expression::{EndCheck, Judge};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;
use variant_dsl::{MaterialRule, Verdict};

/// Whether the action just played ended the game by a rule judged after every action: a royal
/// piece captured, an end condition that does not read the legal actions, a `material` rule.
/// (No legal action, repetition and the move limit are judged at the turn's end.)
pub(crate) fn ends_by_action<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    (rules.definition().end.royal_captured.is_some() && royal_lost(rules, position).is_some())
        || fired_end_condition(rules, position, None, |end| !end.needs_actions).is_some()
        || material_rule(rules, position).is_some()
}

/// Whether an end rule that does not look at the legal actions has ended the game: every hand
/// empty, a `material` rule, repetition, the move limit. (No legal action and only self-controlled drops are judged
/// on the actions, by [`crate::outcome::ends_with_actions`].)
#[inline]
pub fn ends_before_actions<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> bool {
    ends_before_actions_settled(rules, position, history, None)
}

/// [`ends_before_actions`], with whether an end condition holds given where a plan settled
/// it ([`crate::plan::Plan::ends`]).
#[inline(always)]
pub(crate) fn ends_before_actions_settled<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    conditions: Option<bool>,
) -> bool {
    let end = &rules.definition().end;
    // Each rule's own test runs only where the game has the rule (most have few).
    (end.royal_captured.is_some() && royal_lost(rules, position).is_some())
        || conditions.unwrap_or_else(|| {
            fired_end_condition(rules, position, None, |end| !end.needs_actions).is_some()
        })
        || (!end.material.is_empty() && material_rule(rules, position).is_some())
        || (end.repetition.is_some() && repeated(rules, position, history))
        || move_limit_reached(rules, position)
        || counting_reached(position)
}

/// The first end condition (among those `select` keeps) that holds: its index, the side it
/// holds for (the side to move, or with `each side` the first such side from the one that
/// acted last) and its verdict (`None`: by score). Nothing is scored here, so that "is the game over" costs
/// no more than the conditions.
pub(crate) fn fired_end_condition<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    actions: Option<&[Move]>,
    select: impl Fn(&EndCheck<B>) -> bool,
) -> Option<(usize, SideId, Option<Verdict>)> {
    let mut judge = Judge::new(rules, position, position.side_to_move(rules));
    if let Some(actions) = actions {
        judge = judge.with_actions(actions);
    }
    fired_end_condition_by(rules, position, judge, select)
}

/// [`fired_end_condition`] with the judge given (knowing what the generation of the actions
/// gave besides them).
pub(crate) fn fired_end_condition_by<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mut judge: Judge<'_, B>,
    select: impl Fn(&EndCheck<B>) -> bool,
) -> Option<(usize, SideId, Option<Verdict>)> {
    let to_move = position.side_to_move(rules);
    for (rule, (check, written)) in rules
        .expressions
        .end
        .iter()
        .zip(&rules.definition().end.conditions)
        .enumerate()
    {
        if !select(check) {
            continue;
        }
        let side = if written.each_side {
            // Every side, starting with the one that acted last.
            let first = position.previous_side(rules);
            (0..rules.sides())
                .map(|offset| SideId::new((first.index() + offset) % rules.sides()))
                .find(|&side| {
                    judge.judge_for(side);
                    judge.holds(&check.condition)
                })
        } else {
            judge.judge_for(to_move);
            judge.holds(&check.condition).then_some(to_move)
        };
        if let Some(side) = side {
            return Some((rule, side, written.verdict));
        }
    }
    None
}

/// The first `material` rule the position matches: hands empty, every piece type's count (all
/// sides together) within the rule's bounds, and with `on one colour` every non-royal piece on
/// squares of one colour.
#[inline]
pub(crate) fn material_rule<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
) -> Option<&'r MaterialRule> {
    let material = &rules.definition().end.material;
    if material.is_empty()
        || rules
            .material_excluded
            .iter()
            .any(|&piece| position.typed(piece).any())
        || sides(rules.sides()).any(|side| position.hand_total(side) > 0)
    {
        return None;
    }
    material.iter().find(|rule| {
        let counts_fit = pieces(rules.pieces()).all(|piece| {
            let count = position.typed(piece).count();
            match rule.counts.iter().find(|c| c.piece == piece) {
                Some(bounds) => count >= bounds.min && bounds.max.is_none_or(|max| count <= max),
                None => count == 0,
            }
        });
        counts_fit && (!rule.one_colour || non_royals_on_one_colour(rules, position))
    })
}

fn non_royals_on_one_colour<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let royal = rules
        .royal()
        .iter()
        .fold(B::EMPTY, |acc, p| acc | position.typed(*p));
    let others = position.occupied() & !royal;
    (others & rules.geometry().light).is_empty() || (others & !rules.geometry().light).is_empty()
}

/// The first side with no royal piece on the board nor in hand, in a game with royal pieces.
pub(crate) fn royal_lost<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<SideId> {
    if rules.royal().is_empty() {
        return None;
    }
    sides(rules.sides()).find(|&side| {
        position.royals(rules, side).is_empty()
            && rules
                .royal()
                .iter()
                .all(|&royal| position.hand(side, royal) == 0)
    })
}

/// `repetition N`: the position occurs for the N-th time. Only positions since the last
/// irreversible move can repeat it, so the look-back is bounded by the move-limit clock.
#[inline]
pub(crate) fn repeated<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> bool {
    repetition_span(rules, position, history).is_some()
}

/// Whether the position, where the game has a repetition rule, stood before within the
/// plies that could repeat it (those since the last irreversible move): its value then depends
/// on the way to it (one more occurrence may end the game), which a search's table, keyed by
/// the position alone, does not know.
pub fn occurred_before<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> bool {
    if rules.definition().end.repetition.is_none() || !position.at_turn_start() {
        return false;
    }
    repeatable(rules, position, history)
        .iter()
        .any(|&hash| hash == position.hash())
}

/// The positions of `history` that `position` could repeat: those since the last irreversible
/// move (all of them where captured pieces can come back, from a hand or a prison, which makes
/// a capture reversible).
fn repeatable<'h, B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &'h [u64],
) -> &'h [u64] {
    let clock = if rules.pieces_return() {
        history.len()
    } else {
        position.halfmove_clock() as usize
    };
    &history[history.len().saturating_sub(clock)..]
}

/// `repetition N`: if the position occurs for the N-th time, how many plies back the first of
/// those N occurrences stood (the cycle that `perpetual check` judges).
pub(crate) fn repetition_span<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> Option<usize> {
    let repetition = rules.definition().end.repetition?;
    // Positions are compared at turn boundaries only.
    if !position.at_turn_start() {
        return None;
    }
    let recent = repeatable(rules, position, history);
    let earlier = repetition.count.saturating_sub(1) as usize;
    if earlier == 0 {
        return Some(0);
    }
    recent
        .iter()
        .rev()
        .enumerate()
        .filter(|&(_, &hash)| hash == position.hash())
        .nth(earlier - 1)
        .map(|(back, _)| back + 1)
}

/// `repetition ..., perpetual check VERDICT`: the side that gave check with each of its moves
/// over the last `span` plies (the repetition's cycle), and its verdict, when exactly one side
/// did. Sides take turns of one action each, so each side moved `span / sides` times in the
/// cycle; a side whose checks in a row reach that many checked perpetually. When both did, or
/// neither, the repetition's own verdict stands.
pub(crate) fn perpetual_checker<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    span: usize,
) -> Option<(SideId, Verdict)> {
    let verdict = rules.definition().end.repetition?.perpetual_check?;
    let mut checkers = perpetual_checkers(rules, position, span);
    match (checkers.next(), checkers.next()) {
        (Some(checker), None) => Some((checker, verdict)),
        _ => None,
    }
}

/// `counting`: the running count has passed its limit.
#[inline]
pub(crate) fn counting_reached<B: Bitboard>(position: &Position<B>) -> bool {
    position
        .counting()
        .is_some_and(|(limit, plies)| plies > limit)
}

/// The sides that gave check with each of their moves over the last `span` plies.
fn perpetual_checkers<'a, B: Bitboard>(
    rules: &'a Rules<B>,
    position: &'a Position<B>,
    span: usize,
) -> impl Iterator<Item = SideId> + 'a {
    let moves = span / rules.sides().max(1);
    rules
        .side_ids()
        .filter(move |&side| moves > 0 && usize::from(position.checks_in_a_row(side)) >= moves)
}

/// `repetition ..., perpetual chase VERDICT`: the side that chased one enemy piece with each of
/// its moves of the repetition's cycle (`span` plies; [`crate::core::chase`]), and its verdict,
/// when exactly one side did and no side checked perpetually (perpetual check comes first; both
/// sides chasing, or neither, leave the repetition's own verdict). As in Fairy-Stockfish, the
/// side that made the repetition must also have chased the piece with the move that reached
/// the cycle's first occurrence, unless that occurrence began the game (`played`: the plies
/// played since the game began).
pub(crate) fn perpetual_chaser<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    span: usize,
    played: usize,
) -> Option<(SideId, Verdict)> {
    let verdict = rules.definition().end.repetition?.perpetual_chase?;
    let moves = span / rules.sides().max(1);
    if moves == 0 || perpetual_checkers(rules, position, span).next().is_some() {
        return None;
    }
    let last = position.previous_side(rules);
    let mut chasers = rules.side_ids().filter(|&side| {
        let needed = if side == last && played > span {
            moves + 1
        } else {
            moves
        };
        usize::from(position.chases(side).longest()) >= needed
    });
    match (chasers.next(), chasers.next()) {
        (Some(chaser), None) => Some((chaser, verdict)),
        _ => None,
    }
}

/// `move-limit N`: N moves by each side without a capture or an irreversible move.
#[inline]
pub(crate) fn move_limit_reached<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    rules.definition().end.move_limit.is_some_and(|limit| {
        let unit = if limit.plies { 1 } else { 2 };
        let plies = u64::from(limit.moves) * unit;
        // `plus N per check beyond M`: the side with the most checks since the clock's reset.
        let extra = limit.checks.map_or(0, |checks| {
            let to_move = position.side_to_move(rules);
            let most = rules
                .side_ids()
                .map(|side| u64::from(position.checks_since_clock(side, to_move)))
                .max()
                .unwrap_or(0);
            most.saturating_sub(u64::from(checks.beyond)) * u64::from(checks.per_check) * unit
        });
        u64::from(position.halfmove_clock()) >= plies + extra
    })
}
