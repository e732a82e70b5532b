//! Turns of several actions (`turn { up to 3 actions; maximal }`).
//!
//! A turn's state lives in the position ([`crate::position::Progress`]): the actions and drops
//! taken, the pieces that acted, and what the start of the turn computed. Each action is played
//! on its own ([`Position::apply_action`]); the turn then goes on, or ends
//! ([`Position::end_turn`]: end-of-turn effects, the next side, the next turn's start).
//!
//! With `maximal`, a turn must be as long as the longest possible one. That length is computed
//! once, when the turn starts ([`longest`]); an action is legal when the turn can still be
//! completed at that length after it, or when it ends the game, or when a game-ending action can
//! still follow it within the turn's limit. The searches stop as soon as the answer is known:
//! [`longest`] at the first sequence of the length asked, [`can_end`] at the first game-ending
//! action, and the legality of an action first asks the cheaper question.

use crate::bitboard::Bitboard;
use crate::legal::single_actions;
use crate::moves::Move;
use crate::outcome::ends_by_action;
use crate::position::Position;
use crate::rules::Rules;

/// Whether the turn goes on after the action just played on `position`: the game is over (the
/// mover keeps the move, nothing of the turn's end happens), or the turn has not reached its
/// length, or (with `maximal`) it has reached the longest length but a game-ending action may
/// still follow.
pub(crate) fn continues<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    if ends_by_action(rules, position) {
        return true;
    }
    let taken = position.progress().actions;
    let limit = rules.definition.turn.actions;
    if taken >= limit {
        return false;
    }
    if !rules.definition.turn.maximal {
        return !single_actions(rules, position).is_empty();
    }
    taken < position.progress().longest || can_end(rules, position, limit - taken)
}

/// The legal next actions of a turn of several actions.
///
/// Without `maximal`, every action, and `pass` to end the turn once it has started. With
/// `maximal`, the actions after which the turn can be completed at its longest length, or that
/// end the game, or after which a game-ending action can follow within the turn. A side with no
/// legal action at the start of its turn passes when the game says so.
pub fn legal_actions<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let turn = &rules.definition.turn;
    let taken = position.progress().actions;
    let candidates = single_actions(rules, position);
    let mut legal = if turn.maximal {
        let longest = position.progress().longest;
        candidates
            .into_iter()
            .filter(|&mv| {
                let mut next = *position;
                next.apply_action(rules, mv);
                if ends_by_action(rules, &next) {
                    return true;
                }
                let taken = taken + 1;
                let completes = taken <= longest
                    && self::longest(rules, &next, longest - taken) >= longest - taken;
                completes || (taken < turn.actions && can_end(rules, &next, turn.actions - taken))
            })
            .collect()
    } else {
        let mut actions = candidates;
        if taken > 0 {
            actions.push(Move::pass());
        }
        actions
    };
    if legal.is_empty() && taken == 0 && passes(rules, position) {
        legal.push(Move::pass());
    }
    legal
}

/// Whether the side to move, without a legal action at the start of its turn, passes (`pass
/// when no action`). The end rules that judge a side without actions come first: in check
/// under `check`, a game with `checkmate` ends by it; otherwise a game with `stalemate` ends
/// by that. So `checkmate` and `stalemate` see the actions other than `pass`, and a
/// checkmated side never passes.
pub(crate) fn passes<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let definition = &rules.definition;
    if !definition.turn.pass {
        return false;
    }
    let end = &definition.end;
    let to_move = position.side_to_move(rules);
    if end.check && position.in_check(rules, to_move) {
        end.checkmate.is_none()
    } else {
        end.stalemate.is_none()
    }
}

/// Whether a side always has a legal action, `pass` at least: the game passes a side without
/// actions, and has neither `checkmate` nor `stalemate` to judge it first.
#[inline]
pub(crate) fn always_acts<B: Bitboard>(rules: &Rules<B>) -> bool {
    let definition = &rules.definition;
    definition.turn.pass && definition.end.checkmate.is_none() && definition.end.stalemate.is_none()
}

/// The most further actions (up to `limit`) the side to move can take this turn without ending
/// the game: a sequence stops at a game-ending action, which does not count.
pub fn longest<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, limit: u8) -> u8 {
    if limit == 0 {
        return 0;
    }
    let mut best = 0;
    for mv in single_actions(rules, position) {
        let mut next = *position;
        next.apply_action(rules, mv);
        if ends_by_action(rules, &next) {
            continue;
        }
        best = best.max(1 + longest(rules, &next, limit - 1));
        if best == limit {
            break;
        }
    }
    best
}

/// Whether the side to move can end the game within `limit` further actions of this turn.
pub fn can_end<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, limit: u8) -> bool {
    if limit == 0 {
        return false;
    }
    single_actions(rules, position).into_iter().any(|mv| {
        let mut next = *position;
        next.apply_action(rules, mv);
        ends_by_action(rules, &next) || (limit > 1 && can_end(rules, &next, limit - 1))
    })
}
