//! A generic evaluation of a position, from the game file alone.
//!
//! Terms, each read from the definition rather than written for a game, in hundredths of a
//! unit of `value` (a chess pawn is 100):
//! - material: the `value` of every piece a side has, on the board or in hand;
//! - the game's score, for games that keep one (100 per point): it decides those games;
//! - mobility ([`super::mobility`]): per non-royal piece, the squares it controls (as `control`
//!   counts them) that hold no own piece and that no cheaper enemy piece attacks, each worth
//!   more for a piece that reaches few squares on an empty board (a knight) than for one that
//!   reaches many (a queen): freedom of movement without move generation;
//! - the end rules' goals ([`Goals`]), read from the form of each end rule: where a side
//!   without a legal action wins (`stalemate wins`: antichess, losers) and no rule makes losing
//!   a piece lose, material and mobility count against their owner; where a piece of a side standing on some squares decides the
//!   game (`wins when some (own King and squares ...)`: racing kings, king of the hill), the
//!   piece's distance to those squares counts against it; where a counter reaching a number
//!   decides it (`loses when opponent checks >= 3`), each step towards the number counts more
//!   than the last; where a side loses when its pieces (or its pieces of one type) are gone
//!   (`loses when no own pieces`: horde's White, extinction chess's every type), the fewer
//!   of them it has, the more each one counts (a term of `1 / count`): taking the last few
//!   brings the end nearer than the material says;
//! - tempo: [`TEMPO`] for the side to move, where having more is the goal: the evaluation is
//!   read at the leaves of a search, and the side to move there has a move in hand that the
//!   other has not (so that a symmetric position is not a dead draw to the side to move);
//! - positional terms ([`super::positional`]), where having more is the goal: a promoting
//!   piece's advance towards its promotion zone, and the danger to a side's royal pieces from
//!   the enemy pieces attacking the squares around them (counted in the same walk over every
//!   piece's control as mobility).
//!
//! A side's evaluation is its total minus the best total among its opponents, so that it works
//! for any number of sides.

use super::mobility::Tally;
use crate::bitboard::Bitboard;
use crate::control::each_control;
use crate::core::index::{BySide, PieceId, SideId};
use crate::position::Position;
use crate::rules::Rules;
use crate::score::scores;
use variant_dsl::expression::{Comparison, Condition, Number, SideRef, Squares};
use variant_dsl::Verdict;

/// A won game is worth this, less the plies to reach it (the search's scores): evaluations
/// stay within half of it, so that no evaluation reads as a mate.
pub const MATE: i32 = 1_000_000;

/// Hundredths per unit of piece value.
pub const VALUE_SCALE: i64 = 100;
/// Per point of the game's score.
pub const SCORE_WEIGHT: i64 = 100;
/// The side to move's bonus: the move it is about to make is worth something.
pub const TEMPO: i64 = 15;
/// Per step (king steps) between a goal piece and its goal squares.
pub const GOAL_STEP_WEIGHT: i64 = 60;
/// A counter one step short of its goal is worth this; `n` steps of `goal` are worth
/// `COUNTER_WEIGHT * n² / (goal - 1)²`, so that each step counts more than the last.
pub const COUNTER_WEIGHT: i64 = 400;
/// A side down to one of the pieces it must keep loses this much; down to `n` of them,
/// `EXTINCTION_WEIGHT / n`, so that the second-last is worth `EXTINCTION_WEIGHT / 2` more than
/// its material, and a side with many hardly feels the term.
pub const EXTINCTION_WEIGHT: i64 = 800;

/// What the end rules make worth having, read once from the definition's end rules.
#[derive(Clone, Debug)]
pub struct Goals<B> {
    /// `1`, or `-1` where a side without a legal action wins: material and mobility count for
    /// the side that has less of them.
    sign: i64,
    /// Pieces whose arrival on some squares decides the game for their side.
    regions: Vec<Region<B>>,
    /// Counters whose reaching a number decides the game for their side.
    counters: Vec<CounterGoal>,
    /// Pieces whose last one lost decides the game against their side.
    extinctions: Vec<Extinction>,
    /// The positional terms ([`super::positional`]), counted where having more is the goal.
    positional: super::positional::Positional<B>,
    /// The per-piece weights of safe mobility ([`super::mobility`]).
    mobility: super::mobility::Mobility,
}

/// `wins when some (own King and squares a8 ...)`, or `loses when some (opponent King and
/// squares d4 ...)`: a piece type and, per side, the king steps from each square to the
/// nearest goal square of that side's piece.
#[derive(Clone, Debug)]
struct Region<B> {
    piece: PieceId,
    /// Per side, the goal squares of its piece.
    goal: BySide<B>,
    /// Per side, per square index, the king steps to the nearest goal square.
    steps: BySide<Vec<u8>>,
}

/// `loses when no own pieces` (`None`: pieces of any type), `loses when no own Queen`, or
/// `wins when no opponent pieces`: a side that has none of them left has lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extinction {
    piece: Option<PieceId>,
}

/// `loses when opponent checks >= 3`: a side's counter reaching `goal` decides the game for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CounterGoal {
    counter: usize,
    goal: i64,
}

impl<B: Bitboard> Goals<B> {
    /// The goals the end rules of `rules` state.
    pub fn of(rules: &Rules<B>) -> Self {
        let end = &rules.definition().end;
        let sign = if losing_game(&rules.definition().end) {
            -1
        } else {
            1
        };
        let mut goals = Goals {
            sign,
            regions: Vec::new(),
            counters: Vec::new(),
            extinctions: Vec::new(),
            positional: super::positional::Positional::of(rules, VALUE_SCALE),
            mobility: super::mobility::Mobility::of(rules),
        };
        for condition in &end.conditions {
            let Some(verdict) = condition.verdict else {
                continue;
            };
            // Each disjunct is enough: `no own King or no own Queen ...` is one goal a type.
            for part in disjuncts(&condition.condition) {
                goals.read_extinction(verdict, part);
            }
            // Each conjunct is necessary: reaching any of them brings the end nearer.
            for part in conjuncts(&condition.condition) {
                goals.read(rules, verdict, part);
            }
        }
        goals
    }

    /// A necessary part of an end condition with `verdict` for the side judged.
    fn read(&mut self, rules: &Rules<B>, verdict: Verdict, part: &Condition) {
        match part {
            Condition::Some(squares) => {
                if let Some((owner, piece, zone)) = piece_on_squares(squares) {
                    if goal_of_owner(verdict, owner) {
                        self.add_region(rules, piece, zone);
                    }
                }
            }
            Condition::Compare(
                Number::Counter(owner, counter),
                comparison,
                Number::Constant(n),
            ) => {
                let goal = match comparison {
                    Comparison::GreaterOrEqual => *n,
                    Comparison::Greater => n + 1,
                    _ => return,
                };
                if goal >= 1 && goal_of_owner(verdict, *owner) {
                    let goal = CounterGoal {
                        counter: *counter,
                        goal,
                    };
                    if !self.counters.contains(&goal) {
                        self.counters.push(goal);
                    }
                }
            }
            _ => {}
        }
    }

    /// `no own pieces` ending the game against their owner: an extinction goal.
    fn read_extinction(&mut self, verdict: Verdict, part: &Condition) {
        let Condition::Not(inner) = part else {
            return;
        };
        let Condition::Some(Squares::Pieces(owner, piece)) = inner.as_ref() else {
            return;
        };
        let extinction = Extinction { piece: *piece };
        if loss_of_owner(verdict, *owner) && !self.extinctions.contains(&extinction) {
            self.extinctions.push(extinction);
        }
    }

    fn add_region(&mut self, rules: &Rules<B>, piece: PieceId, zone: &[Vec<variant_dsl::Square>]) {
        let geometry = rules.geometry();
        let goal = BySide::from_fn(|side: SideId| {
            zone.get(side.index())
                .map_or(B::EMPTY, |squares| geometry.mask(squares))
        });
        if self
            .regions
            .iter()
            .any(|r| r.piece == piece && r.goal == goal)
        {
            return;
        }
        let steps = BySide::from_fn(|side: SideId| {
            let targets: Vec<(usize, usize)> =
                goal[side].squares().map(|i| geometry.coords(i)).collect();
            (0..geometry.grid_size())
                .map(|index| {
                    let (file, rank) = geometry.coords(crate::core::index::Sq::new(index));
                    targets
                        .iter()
                        .map(|&(f, r)| file.abs_diff(f).max(rank.abs_diff(r)))
                        .min()
                        .unwrap_or(0)
                        .min(u8::MAX as usize) as u8
                })
                .collect()
        });
        self.regions.push(Region { piece, goal, steps });
    }

    /// The goal terms of `side`: minus the steps of its nearest goal piece, plus its counters.
    fn term(&self, position: &Position<B>, side: SideId) -> i64 {
        let mut total = 0;
        for region in &self.regions {
            let pieces = position.side_pieces(side) & position.typed(region.piece);
            let steps = &region.steps[side];
            if let Some(nearest) = pieces.squares().map(|i| steps[i.index()]).min() {
                total -= GOAL_STEP_WEIGHT * i64::from(nearest);
            }
        }
        for goal in &self.counters {
            let reached = i64::from(position.counter(goal.counter, side)).min(goal.goal);
            let span = (goal.goal - 1).max(1);
            total += COUNTER_WEIGHT * reached * reached / (span * span);
        }
        for extinction in &self.extinctions {
            let mut kept = position.side_pieces(side);
            if let Some(piece) = extinction.piece {
                kept &= position.typed(piece);
            }
            total -= EXTINCTION_WEIGHT / (kept.count() as i64).max(1);
        }
        total
    }
}

/// Whether having less is the goal: a side without a legal action wins (`stalemate wins`) and
/// no rule makes losing a piece lose (no `checkmate loses`, no `royal captured loses`, no
/// `loses when no own King`: duck chess's stalemate wins, but its King must be kept).
fn losing_game(end: &variant_dsl::EndRules) -> bool {
    let loses_by_absence = |c: &variant_dsl::EndCondition| {
        c.verdict == Some(Verdict::Loss)
            && matches!(&c.condition, Condition::Not(inner)
                if matches!(inner.as_ref(), Condition::Some(Squares::Pieces(SideRef::Own, _))))
    };
    end.stalemate == Some(Verdict::Win)
        && end.checkmate != Some(Verdict::Loss)
        && end.royal_captured != Some(Verdict::Loss)
        && !end.conditions.iter().any(loses_by_absence)
}

/// The conjuncts of a condition (the condition itself when it is no `and`).
fn conjuncts(condition: &Condition) -> Vec<&Condition> {
    match condition {
        Condition::And(a, b) => {
            let mut parts = conjuncts(a);
            parts.extend(conjuncts(b));
            parts
        }
        other => vec![other],
    }
}

/// The disjuncts of a condition (the condition itself when it is no `or`).
fn disjuncts(condition: &Condition) -> Vec<&Condition> {
    match condition {
        Condition::Or(a, b) => {
            let mut parts = disjuncts(a);
            parts.extend(disjuncts(b));
            parts
        }
        other => vec![other],
    }
}

/// `own King and squares ...` (either order): whose piece, of which type, on which squares.
fn piece_on_squares(squares: &Squares) -> Option<(SideRef, PieceId, &[Vec<variant_dsl::Square>])> {
    let Squares::And(a, b) = squares else {
        return None;
    };
    match (a.as_ref(), b.as_ref()) {
        (Squares::Pieces(owner, Some(piece)), Squares::Zone(zone))
        | (Squares::Zone(zone), Squares::Pieces(owner, Some(piece))) => {
            Some((*owner, *piece, zone.as_slice()))
        }
        _ => None,
    }
}

/// Whether the thing owned by `owner` reaching its goal is good for its owner: a win for the
/// side judged when it is its own, a loss for it when it is its opponents'.
fn goal_of_owner(verdict: Verdict, owner: SideRef) -> bool {
    matches!(
        (verdict, owner),
        (Verdict::Win, SideRef::Own) | (Verdict::Loss, SideRef::Opponents)
    )
}

/// Whether the thing owned by `owner` coming about is bad for its owner: a loss for the side
/// judged when it is its own, a win for it when it is its opponents'.
fn loss_of_owner(verdict: Verdict, owner: SideRef) -> bool {
    matches!(
        (verdict, owner),
        (Verdict::Loss, SideRef::Own) | (Verdict::Win, SideRef::Opponents)
    )
}

/// Each side's material: piece values on the board and in hand.
pub fn material<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> BySide<i64> {
    material_and_force(rules, None, position).0
}

/// Each side's material and, given the positional terms, its non-royal force
/// ([`super::positional::Positional::force`]): one count per side and piece type serves both.
fn material_and_force<B: Bitboard>(
    rules: &Rules<B>,
    positional: Option<&super::positional::Positional<B>>,
    position: &Position<B>,
) -> (BySide<i64>, BySide<i64>) {
    let mut material = BySide::splat(0i64);
    let mut force = BySide::splat(0i64);
    for side in rules.side_ids() {
        let own = position.side_pieces(side);
        for piece in rules.piece_ids() {
            let (board, hand) = (own & position.typed(piece), position.hand(side, piece));
            if board.is_empty() && hand == 0 {
                continue;
            }
            let count = board.count() as i64 + i64::from(hand);
            let value = rules.definition().pieces[piece.index()].value;
            material[side] += count * i64::from(value) * VALUE_SCALE;
            if let Some(positional) = positional {
                force[side] += count * positional.force_value(piece);
            }
        }
    }
    (material, force)
}

/// The position seen by `side`: its total minus its strongest opponent's.
pub fn evaluate<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, side: SideId) -> i32 {
    evaluate_with(rules, &Goals::of(rules), position, side)
}

/// [`evaluate`] with the game's goals read once.
pub fn evaluate_with<B: Bitboard>(
    rules: &Rules<B>,
    goals: &Goals<B>,
    position: &Position<B>,
    side: SideId,
) -> i32 {
    evaluate_in(rules, goals, &mut Tally::default(), position, side)
}

/// [`evaluate_with`] in the working room `tally`, kept between evaluations so that an
/// evaluation allocates nothing (a search's leaves).
pub fn evaluate_in<B: Bitboard>(
    rules: &Rules<B>,
    goals: &Goals<B>,
    tally: &mut Tally<B>,
    position: &Position<B>,
    side: SideId,
) -> i32 {
    let kings = goals.sign > 0 && goals.positional.has_kings();
    let (mut totals, force) =
        material_and_force(rules, kings.then_some(&goals.positional), position);
    // King danger where having more is the goal: each side's ring, and the attacks on it.
    let rings = BySide::from_fn(|s: SideId| {
        if kings && s.index() < rules.sides() {
            goals.positional.king_ring(position, s)
        } else {
            B::EMPTY
        }
    });
    let mut attacks = BySide::splat(0i64);
    // One walk over every piece's control serves mobility and king danger.
    tally.clear(rules.sides(), rules.pieces());
    for s in rules.side_ids() {
        // The enemies' rings together: most pieces attack none of them.
        let enemy_rings = rules
            .side_ids()
            .filter(|&o| rules.is_enemy(s, o))
            .fold(B::EMPTY, |all, o| all | rings[o]);
        each_control(rules, position, s, |_, piece, squares| {
            tally.add(&goals.mobility, s, piece, squares);
            if (squares & enemy_rings).any() {
                for o in rules.side_ids() {
                    if rules.is_enemy(s, o) {
                        attacks[o] += i64::from((squares & rings[o]).count());
                    }
                }
            }
        });
    }
    tally.add_to(rules, &goals.mobility, position, &mut totals);
    for s in rules.side_ids() {
        totals[s] *= goals.sign;
        if goals.sign > 0 {
            let enemy_force = kings.then(|| {
                rules
                    .side_ids()
                    .filter(|&o| rules.is_enemy(s, o))
                    .map(|o| force[o])
                    .max()
                    .unwrap_or(0)
            });
            totals[s] += goals.positional.term(position, s, enemy_force);
            if let Some(enemy_force) = enemy_force {
                totals[s] -= goals.positional.king_danger(attacks[s], enemy_force);
                totals[s] += goals.positional.king_place(position, s, enemy_force);
            }
        }
        totals[s] += goals.term(position, s);
    }
    if goals.sign > 0 {
        totals[position.side_to_move(rules)] += TEMPO;
    }
    if let Some(scores) = scores(rules, position) {
        for (s, score) in rules.side_ids().zip(scores) {
            totals[s] += SCORE_WEIGHT * score;
        }
    }
    let best_other = rules
        .side_ids()
        .filter(|&s| rules.is_enemy(side, s))
        .map(|s| totals[s])
        .max()
        .unwrap_or(0);
    (totals[side] - best_other).clamp(-(MATE as i64 / 2), MATE as i64 / 2) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use std::sync::Arc;

    fn game(name: &str, fen: Option<&str>) -> Box<dyn Session> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../games/{name}.variant"));
        let loaded = variant_dsl::load_file(&path).expect("the game loads");
        crate::session::open(&loaded.definition, fen).expect("a position")
    }

    /// The rules, the position and the side to move of a game of 64 squares at most.
    fn read(session: &dyn Session) -> (Arc<Rules<u64>>, Position<u64>, SideId) {
        let game = super::super::typed::<u64>(session).expect("64 squares at most");
        let rules = game.shared_rules();
        let position = *game.position();
        let side = position.side_to_move(&rules);
        (rules, position, side)
    }

    fn goals(name: &str) -> Goals<u64> {
        let session = game(name, None);
        Goals::of(&read(session.as_ref()).0)
    }

    #[test]
    fn the_goals_are_read_from_the_form_of_the_end_rules() {
        let chess = goals("chess");
        assert_eq!(chess.sign, 1);
        assert!(chess.regions.is_empty() && chess.counters.is_empty());
        // A side without a legal action wins: having less is having more.
        assert_eq!(goals("antichess").sign, -1);
        assert_eq!(goals("losers").sign, -1);
        assert_eq!(goals("horde").sign, 1);
        // Duck chess: a stalemated side wins, but losing the King loses.
        assert_eq!(goals("duck").sign, 1);
        // `wins when some (own King and squares ...)`; the draw when both arrive is no goal.
        let racing = goals("racingkings");
        assert_eq!(racing.regions.len(), 1);
        assert_eq!(racing.regions[0].goal[SideId::new(0)].count(), 8);
        // `loses when some (opponent King and squares d4 e4 d5 e5)`: the hill is each side's.
        let hill = goals("kingofthehill");
        assert_eq!(hill.regions.len(), 1);
        assert_eq!(hill.regions[0].goal[SideId::new(1)].count(), 4);
        // `loses when opponent checks >= 3`.
        assert_eq!(
            goals("3check").counters,
            [CounterGoal {
                counter: 0,
                goal: 3
            }]
        );
        // `loses when no own pieces`; `no own King or no own Queen or ...`, one a type.
        assert_eq!(goals("horde").extinctions, [Extinction { piece: None }]);
        assert!(chess.extinctions.is_empty());
        let extinction = goals("extinction").extinctions;
        assert_eq!(extinction.len(), 6);
        assert!(extinction.iter().all(|e| e.piece.is_some()));
    }

    #[test]
    fn a_side_that_must_keep_a_piece_values_its_last_ones_more() {
        // White (no King in horde) with two pawns or one; White to move.
        let value = |game: &str, fen: &str| {
            let session = self::game(game, Some(fen));
            let (rules, position, white) = read(session.as_ref());
            evaluate(&rules, &position, white)
        };
        let (two, one) = (
            "4k3/8/8/8/8/8/P1P5/8 w - - 0 1",
            "4k3/8/8/8/8/8/P7/8 w - - 0 1",
        );
        let horde = value("horde", two) - value("horde", one);
        // In chess (a White King added) the pawn is worth its material and its squares.
        let (two, one) = (
            "4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        );
        let chess = value("chess", two) - value("chess", one);
        assert!(
            horde >= chess + (EXTINCTION_WEIGHT / 2) as i32,
            "horde {horde}, chess {chess}"
        );
    }

    #[test]
    fn the_side_to_move_has_the_tempo() {
        let value = |fen: &str| {
            let session = game("chess", Some(fen));
            let (rules, position, _) = read(session.as_ref());
            evaluate(&rules, &position, SideId::new(0))
        };
        // The start position is symmetric: only the tempo tells the sides apart.
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        assert_eq!(value(&format!("{start} w KQkq - 0 1")), TEMPO as i32);
        assert_eq!(value(&format!("{start} b KQkq - 0 1")), -TEMPO as i32);
    }

    #[test]
    fn a_square_a_cheaper_enemy_piece_guards_is_no_square_for_a_piece() {
        let value = |fen: &str| {
            let session = game("chess", Some(fen));
            let (rules, position, white) = read(session.as_ref());
            evaluate(&rules, &position, white)
        };
        // White's knight on d4 reaches c6; Black's pawn on b7 guards it, on a7 not (the same
        // material, the same pawn moves, both pawns as far from promotion and from the king).
        let guarded = value("7k/1p6/8/8/3N4/8/8/4K3 w - - 0 1");
        let free = value("7k/p7/8/8/3N4/8/8/4K3 w - - 0 1");
        let session = game("chess", None);
        let rules = read(session.as_ref()).0;
        let knight = rules
            .piece_ids()
            .find(|p| rules.definition().pieces[p.index()].name == "Knight")
            .expect("a knight");
        let weight = super::super::mobility::Mobility::of(&rules).weight(knight);
        assert!(weight > 0);
        assert_eq!(free - guarded, weight as i32);
    }

    #[test]
    fn in_antichess_the_side_with_less_material_stands_better() {
        // White has a rook more; Black to move.
        let session = game("antichess", Some("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"));
        let (rules, position, black) = read(session.as_ref());
        assert!(evaluate(&rules, &position, black) > 0);
        let session = game("chess", Some("4k3/8/8/8/8/8/8/R3K3 b - - 0 1"));
        let (rules, position, black) = read(session.as_ref());
        assert!(evaluate(&rules, &position, black) < 0);
    }

    #[test]
    fn a_king_nearer_its_goal_stands_better() {
        // The same material, White's king four ranks further up the board.
        let near = game(
            "racingkings",
            Some("8/8/2K5/8/8/8/krbnNBR1/qrbnNBRQ b - - 0 1"),
        );
        let far = game(
            "racingkings",
            Some("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ b - - 0 1"),
        );
        let value = |session: &dyn Session| {
            let (rules, position, black) = read(session);
            evaluate(&rules, &position, black)
        };
        assert!(value(near.as_ref()) < value(far.as_ref()) - 3 * GOAL_STEP_WEIGHT as i32);
    }

    #[test]
    fn each_check_given_counts_more_than_the_last() {
        let value = |fen: &str| {
            let session = game("3check", Some(fen));
            let (rules, position, white) = read(session.as_ref());
            evaluate(&rules, &position, white)
        };
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1";
        let one = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1";
        let two = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+3 0 1";
        let (start, one, two) = (value(start), value(one), value(two));
        assert!(
            one > start && two - one > one - start,
            "{start} {one} {two}"
        );
    }
}
