//! The compiled drop masks against a naive, square-by-square reading of the drop rules.
//!
//! The engine compiles every drop rule into one bitboard per piece type
//! (`variant_interpreter::expression::{drop_squares, Judge::drop_mask}`) and move generation
//! lists the drops those masks allow. This file holds a second evaluator of the checked
//! expression IR (`variant_dsl::expression`), written from its documentation and
//! `docs/language.md` §2.11.1 without the engine's evaluation code: it judges ONE candidate drop
//! (piece type, square) at a time, over sets of named squares, with its own square arithmetic
//! (board and holes, neighbours, colours, zones, pieces, hands, last drops), reading the position
//! through its public accessors only. The few terms that need the engine's control or attack
//! maps (`controlled by`, `attacked by`, `controllers of`, `control value of`) call
//! `variant_interpreter::control` and `Position::attacked_by`.
//!
//! The property: along random games of Cheversi, Coverage, weighted Coverage, Kingdrops (its
//! setup phase and play) and the test variants `tests/variants/drop-terms.variant` and
//! `tests/variants/drop-turn-terms.variant`, at every position, for every piece type in the hand
//! of the side to move and every empty square, the naive verdict (every binding rule met) equals
//! whether the engine lists that drop among the legal moves.
//!
//! Lookaheads:
//! - `must leave an action` (Cheversi's last rule) is computed by a search of this file: the drop
//!   is played (`Position::play_drop_unjudged`) and the naive evaluator looks for one drop of the
//!   next side that its rules allow, its own lookahead not applied. This is done only in games
//!   whose actions are drops alone and whose turns are single actions (a reply could otherwise
//!   be a move, which this file does not generate); elsewhere a candidate bound by the rule is
//!   left out of the comparison and counted as skipped (no game here needs that).
//! - `maximal` turns (Kingdrops' play) are a turn rule, not a drop rule: an action is legal only
//!   if the turn can still be completed at its longest length. The comparison in Kingdrops' play
//!   is therefore made against the same game compiled without `maximal`, whose legal actions are
//!   the actions each legal on its own, and the real legal drops are checked to be a subset of
//!   the naive ones.
//! - `can act` and `legal drops` read the legal moves and cannot appear in drop rules.
//!
//! No game here has the `check` rule (it would remove drops that expose a king); the test
//! refuses a game that has it.
//!
//! `placement` ("this drop's number for its side, 1 for the first") is counted here from the
//! game's history (the drops each side has made), not from the position. The engine derives it
//! from the setup's hand minus the hand; the two agree as long as no piece returns to a hand,
//! which is why the test variants use `placement` only in their setup phase (see
//! `placement_counts_the_drops_made_even_when_captured_pieces_return_to_the_hand`).
//!
//! A failing case prints the game, the position's FEN, the piece, the square and both verdicts.
//! `PROPTEST_CASES` sets the number of games per game file; `PROPTEST_RNG_SEED` other games.

mod common;

use common::SplitMix;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;
use variant_dsl::expression::{Condition, Field, Number, SideRef, SquareConstant, Squares};
use variant_dsl::{Comparison, Definition, DropConstraint, Square};
use variant_interpreter::bitboard::Bitboard;
use variant_interpreter::movegen::legal_moves;
use variant_interpreter::outcome::outcome;
use variant_interpreter::{Move, MoveKind, Position, Rules};
use variant_interpreter::{PieceId, SideId};

/// A set of squares of the board, by name.
type Set = BTreeSet<Square>;

/// The engine's control of each piece of a side: (square, piece type, controlled squares).
type Controls = Vec<(usize, usize, u64)>;

/// A game under test: its definition and compiled rules.
struct Game {
    name: String,
    definition: Definition,
    rules: Rules<u64>,
    /// With `maximal` turns: the same game without `maximal`, whose legal actions are those
    /// legal on their own (the drop rules applied, the turn's lookahead not).
    unmaximal: Option<Rules<u64>>,
}

impl Game {
    fn load(path: &Path) -> Game {
        let definition = variant_dsl::load_file(path)
            .unwrap_or_else(|failure| panic!("{}", failure.render()))
            .definition;
        assert!(
            !definition.end.check,
            "{}: the check rule also removes drops; this test does not model it",
            definition.name
        );
        let rules = Rules::<u64>::compile(&definition).expect("compiles");
        let unmaximal = definition.turn.maximal.then(|| {
            let mut plain = definition.clone();
            plain.turn.maximal = false;
            Rules::<u64>::compile(&plain).expect("compiles without maximal")
        });
        Game {
            name: path
                .file_stem()
                .expect("a file name")
                .to_string_lossy()
                .into_owned(),
            definition,
            rules,
            unmaximal,
        }
    }

    fn named(game: &str) -> Game {
        Game::load(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("games")
                .join(format!("{game}.variant")),
        )
    }

    fn test_variant(name: &str) -> Game {
        Game::load(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/variants")
                .join(format!("{name}.variant")),
        )
    }

    fn fen(&self, position: &Position<u64>) -> String {
        variant_dsl::write_fen(&self.definition, &position.to_setup(&self.rules))
    }

    /// The squares of the board: the grid without its holes.
    fn board(&self) -> impl Iterator<Item = Square> + '_ {
        let board = &self.definition.board;
        (0..board.ranks).flat_map(move |rank| {
            (0..board.files)
                .map(move |file| Square::new(file, rank))
                .filter(move |square| !board.holes.contains(square))
        })
    }

    fn on_board(&self, file: i32, rank: i32) -> bool {
        let board = &self.definition.board;
        (0..board.files as i32).contains(&file)
            && (0..board.ranks as i32).contains(&rank)
            && !board.holes.contains(&Square::new(file as u8, rank as u8))
    }

    /// The engine's index of a square (the bit of its bitboards).
    fn index(&self, square: Square) -> variant_interpreter::Sq {
        self.rules.geometry().index(square)
    }

    /// The drop rules in force: the phase's during a placement phase.
    fn constraints(&self, position: &Position<u64>) -> &[DropConstraint] {
        match position.phase() {
            Some(phase) => &self.definition.phases[phase].drops.constraints,
            None => &self.definition.drops.constraints,
        }
    }
}

/// What the rules read that is history rather than position.
#[derive(Clone)]
struct History {
    /// Per side, the drops it has made so far (for `placement`).
    drops_made: Vec<u32>,
    /// The position at the start of the current turn (for `at turn start`).
    turn_start: Position<u64>,
}

/// A light-square test of this file's own: a1 is dark (§2.3).
fn is_light(square: Square) -> bool {
    (square.file as u32 + square.rank as u32) % 2 == 1
}

fn compare(left: i64, operator: Comparison, right: i64) -> bool {
    match operator {
        Comparison::Equal => left == right,
        Comparison::NotEqual => left != right,
        Comparison::Less => left < right,
        Comparison::LessOrEqual => left <= right,
        Comparison::Greater => left > right,
        Comparison::GreaterOrEqual => left >= right,
    }
}

/// The naive evaluator: expressions judged for one side on one position, for one candidate drop
/// at a time.
struct Naive<'a> {
    game: &'a Game,
    position: &'a Position<u64>,
    history: &'a History,
    /// The side judged for (`own`).
    side: usize,
    /// Per side, the engine's control of each of its pieces: (square, piece type, squares).
    controls: RefCell<Vec<Option<Controls>>>,
}

/// A candidate drop: piece type and square.
type Drop = (usize, Square);

impl<'a> Naive<'a> {
    fn new(game: &'a Game, position: &'a Position<u64>, history: &'a History, side: usize) -> Self {
        Naive {
            game,
            position,
            history,
            side,
            controls: RefCell::new(vec![None; game.definition.sides.len()]),
        }
    }

    fn sides_count(&self) -> usize {
        self.game.definition.sides.len()
    }

    /// The side after the judged one in the turn order: for the side to move in play, after its
    /// place in the cycle; otherwise after its first place in the order. (No rule of these games
    /// reads `next` during a placement phase, where the docs leave it open whether it means the
    /// side placing next or the side after in `turns`; the engine then reads the turn index,
    /// which stays 0 during phases, and names the side after the first of `turns` whoever
    /// places.)
    fn next_side(&self) -> usize {
        let order = &self.game.definition.turn_order;
        let at = if self.position.phase().is_none()
            && self.position.side_to_move(&self.game.rules) == SideId::new(self.side)
        {
            self.position.turn_index()
        } else {
            order
                .iter()
                .position(|side| side.0 as usize == self.side)
                .expect("the side is in the turn order")
        };
        order[(at + 1) % order.len()].0 as usize
    }

    fn sides(&self, reference: SideRef) -> Vec<usize> {
        match reference {
            SideRef::Own => vec![self.side],
            SideRef::Opponents => (0..self.sides_count())
                .filter(|&s| {
                    !self.game.definition.allied(
                        variant_dsl::SideId(s as u8),
                        variant_dsl::SideId(self.side as u8),
                    )
                })
                .collect(),
            SideRef::Team => (0..self.sides_count())
                .filter(|&s| {
                    self.game.definition.allied(
                        variant_dsl::SideId(s as u8),
                        variant_dsl::SideId(self.side as u8),
                    )
                })
                .collect(),
            SideRef::Any => (0..self.sides_count()).collect(),
            SideRef::Next => vec![self.next_side()],
            SideRef::Side(side) => vec![side.0 as usize],
        }
    }

    fn occupant(&self, square: Square) -> Option<(usize, usize)> {
        self.position
            .at(self.game.index(square))
            .map(|occupant| (occupant.side.index(), occupant.piece.index()))
    }

    /// The board squares whose bit is set in an engine bitboard.
    fn squares_of(&self, bits: u64) -> Set {
        self.game
            .board()
            .filter(|&square| bits.has(self.game.index(square)))
            .collect()
    }

    /// The engine's control of each piece of `side`.
    fn controls(&self, side: usize) -> Controls {
        let mut cache = self.controls.borrow_mut();
        cache[side]
            .get_or_insert_with(|| {
                variant_interpreter::control::controls(
                    &self.game.rules,
                    self.position,
                    SideId::new(side),
                )
                .into_iter()
                .map(|(square, piece, control)| (square.index(), piece.index(), control))
                .collect()
            })
            .clone()
    }

    fn set(&self, squares: &Squares) -> Set {
        let game = self.game;
        match squares {
            Squares::Constant(constant) => game
                .board()
                .filter(|&square| match constant {
                    SquareConstant::Empty => self.occupant(square).is_none(),
                    SquareConstant::Occupied => self.occupant(square).is_some(),
                    SquareConstant::Light => is_light(square),
                    SquareConstant::Dark => !is_light(square),
                    SquareConstant::Board => true,
                })
                .collect(),
            // Each side its own list; holes are never part of a zone.
            Squares::Zone(per_side) => per_side[self.side]
                .iter()
                .copied()
                .filter(|s| game.on_board(s.file as i32, s.rank as i32))
                .collect(),
            Squares::Pieces(reference, piece) => {
                let sides = self.sides(*reference);
                game.board()
                    .filter(|&square| {
                        self.occupant(square).is_some_and(|(side, kind)| {
                            sides.contains(&side) && piece.is_none_or(|p| p.0 as usize == kind)
                        })
                    })
                    .collect()
            }
            // The engine's control maps (§2.12).
            Squares::ControlledBy(reference) => {
                let mut set = Set::new();
                for side in self.sides(*reference) {
                    for (_, _, control) in self.controls(side) {
                        set.extend(self.squares_of(control));
                    }
                }
                set
            }
            // The engine's attack test, as check sees it.
            Squares::AttackedBy(reference) => {
                let sides = self.sides(*reference);
                let occupied = self.position.occupied();
                game.board()
                    .filter(|&square| {
                        sides.iter().any(|&side| {
                            self.position.attacked_by(
                                &game.rules,
                                game.rules.geometry().index(square),
                                SideId::new(side),
                                occupied,
                            )
                        })
                    })
                    .collect()
            }
            Squares::LastDrop(reference) => self
                .sides(*reference)
                .into_iter()
                .filter_map(|side| self.position.last_drop(SideId::new(side)))
                .map(|(_, index)| game.rules.geometry().square(index))
                .collect(),
            Squares::LegalDrops => panic!("`legal drops` cannot be used in a drop rule"),
            // No game with drop rules reads a line of sight (tests/after_move.rs covers it).
            Squares::Reach { .. } => panic!("`reach` is not used by the drop-rule games"),
            Squares::Acted => self.squares_of(self.position.progress().acted),
            Squares::Adjacent(inner) => {
                let mut set = Set::new();
                for square in self.set(inner) {
                    for df in -1..=1 {
                        for dr in -1..=1 {
                            let (file, rank) = (square.file as i32 + df, square.rank as i32 + dr);
                            if (df, dr) != (0, 0) && game.on_board(file, rank) {
                                set.insert(Square::new(file as u8, rank as u8));
                            }
                        }
                    }
                }
                set
            }
            Squares::ColourOf(inner) => {
                let inner = self.set(inner);
                let light = inner.iter().any(|&s| is_light(s));
                let dark = inner.iter().any(|&s| !is_light(s));
                game.board()
                    .filter(|&s| if is_light(s) { light } else { dark })
                    .collect()
            }
            Squares::FileOf(inner) => {
                let files: Vec<u8> = self.set(inner).iter().map(|s| s.file).collect();
                game.board().filter(|s| files.contains(&s.file)).collect()
            }
            Squares::And(a, b) => self.set(a).intersection(&self.set(b)).copied().collect(),
            Squares::Or(a, b) => self.set(a).union(&self.set(b)).copied().collect(),
            Squares::Except(a, b) => self.set(a).difference(&self.set(b)).copied().collect(),
            Squares::Not(a) => {
                let a = self.set(a);
                game.board().filter(|s| !a.contains(s)).collect()
            }
            Squares::Compare(a, operator, b) => game
                .board()
                .filter(|&s| compare(self.field(a, s), *operator, self.field(b, s)))
                .collect(),
        }
    }

    /// A field's value on one square.
    fn field(&self, field: &Field, square: Square) -> i64 {
        match field {
            Field::Constant(value) => *value,
            Field::Controllers(reference) | Field::ControlValue(reference) => {
                let index = self.game.index(square);
                let mut total = 0;
                for side in self.sides(*reference) {
                    for (_, piece, control) in self.controls(side) {
                        if control.has(index) {
                            total += match field {
                                Field::ControlValue(_) => {
                                    i64::from(self.game.definition.pieces[piece].value)
                                }
                                _ => 1,
                            };
                        }
                    }
                }
                total
            }
            Field::PieceValue => self
                .position
                .at(self.game.index(square))
                .map_or(0, |occupant| {
                    i64::from(self.game.definition.pieces[occupant.piece.index()].value)
                }),
            Field::Plus(a, b) => self.field(a, square) + self.field(b, square),
            Field::Minus(a, b) => self.field(a, square) - self.field(b, square),
        }
    }

    fn number(&self, number: &Number) -> i64 {
        match number {
            Number::Constant(value) => *value,
            Number::Placement => i64::from(self.history.drops_made[self.side]) + 1,
            Number::Count(set) => self.set(set).len() as i64,
            Number::ActionsThisTurn => i64::from(self.position.progress().actions),
            Number::DropsThisTurn => i64::from(self.position.progress().drops),
            Number::Hand(reference, piece) => self
                .sides(*reference)
                .into_iter()
                .map(|side| match piece {
                    Some(piece) => i64::from(
                        self.position
                            .hand(SideId::new(side), PieceId::new(piece.0 as usize)),
                    ),
                    None => i64::from(self.position.hand_total(SideId::new(side))),
                })
                .sum(),
            Number::Sum(field, set) => self
                .set(set)
                .into_iter()
                .map(|square| self.field(field, square))
                .sum(),
            Number::Counter(reference, counter) => self
                .sides(*reference)
                .into_iter()
                .map(|side| i64::from(self.position.counter(*counter, SideId::new(side))))
                .sum(),
            Number::Plus(a, b) => self.number(a) + self.number(b),
            Number::Minus(a, b) => self.number(a) - self.number(b),
        }
    }

    /// Whether the condition holds for the candidate drop (`None`: a condition that does not
    /// speak of a drop).
    fn holds(&self, condition: &Condition, drop: Option<Drop>) -> bool {
        let dropped = || drop.expect("a drop term outside a drop rule");
        match condition {
            Condition::True => true,
            Condition::Place(piece) => dropped().0 == piece.0 as usize,
            Condition::PlaceOn(set) => self.set(set).contains(&dropped().1),
            Condition::LeaveAction => panic!("`leave an action` is judged by the caller"),
            Condition::NoCheckmate => panic!("`not give checkmate` is judged by the caller"),
            Condition::PlaceStranded => {
                let (piece, square) = dropped();
                self.game
                    .definition
                    .stranded_squares(
                        variant_dsl::SideId(self.side as u8),
                        variant_dsl::PieceId(piece as u8),
                    )
                    .contains(&square)
            }
            Condition::Move(_) | Condition::MoveFrom(_) => {
                panic!("a move term in a drop rule")
            }
            Condition::CanAct | Condition::CanActWithoutPromoting => {
                panic!("`can act` cannot be used in a drop rule")
            }
            // Judged on the position where the turn began, for the side whose turn it is.
            Condition::AtTurnStart(inner) => {
                let start = &self.history.turn_start;
                let side = start.side_to_move(&self.game.rules);
                Naive::new(self.game, start, self.history, side.index()).holds(inner, None)
            }
            Condition::Compare(a, operator, b) => {
                compare(self.number(a), *operator, self.number(b))
            }
            Condition::Some(set) => !self.set(set).is_empty(),
            Condition::HandsEmpty => {
                (0..self.sides_count()).all(|side| self.position.hand_total(SideId::new(side)) == 0)
            }
            Condition::Placed(reference, piece) => self.sides(*reference).into_iter().any(|side| {
                self.position
                    .last_drop(SideId::new(side))
                    .is_some_and(|(kind, _)| kind == PieceId::new(piece.0 as usize))
            }),
            Condition::Passed(reference) => self
                .sides(*reference)
                .into_iter()
                .any(|side| self.position.passed(SideId::new(side))),
            Condition::And(a, b) => self.holds(a, drop) && self.holds(b, drop),
            Condition::Or(a, b) => self.holds(a, drop) || self.holds(b, drop),
            Condition::Not(a) => !self.holds(a, drop),
        }
    }
}

/// The naive verdict on one drop, with the rules that refused it.
struct Verdict {
    /// `None` when the verdict depends on a lookahead this file does not compute.
    legal: Option<bool>,
    /// Indices (in the rules in force) of the rules whose condition held and requirement did not.
    refused_by: Vec<usize>,
}

/// Judges a drop of `piece` on `square` by the side to move. `lookahead`: whether to search for
/// the next side's reply when `leave an action` binds (off inside that search, as the engine's
/// lookahead does not apply its own lookahead).
fn judge(
    game: &Game,
    position: &Position<u64>,
    history: &History,
    drop: Drop,
    lookahead: bool,
) -> Verdict {
    let side = position.side_to_move(&game.rules);
    let naive = Naive::new(game, position, history, side.index());
    let (piece, square) = drop;
    let mut verdict = Verdict {
        legal: Some(true),
        refused_by: Vec::new(),
    };
    if naive.occupant(square).is_some() || position.hand(side, PieceId::new(piece)) == 0 {
        verdict.legal = Some(false);
        return verdict;
    }
    let mut needs_reply = false;
    for (index, rule) in game.constraints(position).iter().enumerate() {
        if rule.side.is_some_and(|s| s != side) {
            continue;
        }
        if !naive.holds(&rule.condition, Some(drop)) {
            continue;
        }
        if rule.requirement == Condition::LeaveAction {
            needs_reply = true;
        } else if !naive.holds(&rule.requirement, Some(drop)) {
            verdict.refused_by.push(index);
        }
    }
    if !verdict.refused_by.is_empty() {
        verdict.legal = Some(false);
    } else if needs_reply && lookahead {
        verdict.legal = leaves_a_reply(game, position, history, drop);
    }
    verdict
}

/// `leave an action`, by a search of this file: after the drop, the next side has a drop its
/// rules allow (its own lookahead not applied). Only where every action is a drop and a turn is
/// one action; `None` elsewhere.
fn leaves_a_reply(
    game: &Game,
    position: &Position<u64>,
    history: &History,
    drop: Drop,
) -> Option<bool> {
    let definition = &game.definition;
    if definition.actions.moves || definition.turn.actions > 1 || definition.turn.pass {
        return None;
    }
    let (piece, square) = drop;
    let side = position.side_to_move(&game.rules);
    let mut next = *position;
    next.play_drop_unjudged(&game.rules, PieceId::new(piece), game.index(square))
        .expect("a held piece dropped on an empty square");
    let mut after = history.clone();
    after.drops_made[side.index()] += 1;
    after.turn_start = next;
    let replier = next.side_to_move(&game.rules);
    let reply = (0..definition.pieces.len())
        .filter(|&p| next.hand(replier, PieceId::new(p)) > 0)
        .any(|p| {
            game.board()
                .any(|s| judge(game, &next, &after, (p, s), false).legal == Some(true))
        });
    Some(reply)
}

/// Counts over a run.
#[derive(Default, Debug)]
struct Stats {
    positions: u64,
    /// Candidate drops compared with the engine.
    compared: u64,
    /// Among them, the legal ones.
    legal: u64,
    /// Candidates left out (a lookahead not computed here).
    skipped: u64,
    /// Candidates that only the lookahead (`leave an action`) refused.
    refused_by_lookahead: u64,
    /// Drops that rules allow and a `maximal` turn refuses.
    refused_by_maximal: u64,
    /// Per (phase or play, rule index): refusals.
    refusals: std::collections::BTreeMap<(Option<usize>, usize), u64>,
    /// Per (phase or play, rule index): refusals of drops that every other rule allows.
    alone: std::collections::BTreeMap<(Option<usize>, usize), u64>,
}

/// Compares the naive verdicts with the engine's legal drops at one position.
fn compare_position(
    game: &Game,
    position: &Position<u64>,
    history: &History,
    stats: &mut Stats,
) -> Result<(), String> {
    let rules = &game.rules;
    let side = position.side_to_move(rules);
    let drops_of = |moves: Vec<Move>| -> BTreeSet<(usize, usize)> {
        moves
            .into_iter()
            .filter_map(|mv| match mv.kind {
                MoveKind::Drop(piece) => Some((piece.0 as usize, mv.to.index())),
                _ => None,
            })
            .collect()
    };
    let legal = drops_of(legal_moves(rules, position));
    let engine = match (&game.unmaximal, position.phase()) {
        (Some(unmaximal), None) => {
            let single = drops_of(legal_moves(unmaximal, position));
            if let Some(extra) = legal.difference(&single).next() {
                return Err(format!(
                    "{}: at {}: the legal drop {} is not legal on its own",
                    game.name,
                    game.fen(position),
                    Move::drop(PieceId::new(extra.0), variant_interpreter::Sq::new(extra.1))
                        .uci(rules)
                ));
            }
            stats.refused_by_maximal += (single.len() - legal.len()) as u64;
            single
        }
        _ => legal,
    };
    stats.positions += 1;
    let mut seen = BTreeSet::new();
    for piece in 0..game.definition.pieces.len() {
        if position.hand(side, PieceId::new(piece)) == 0 {
            continue;
        }
        for square in game.board() {
            let index = game.index(square);
            if position.at(index).is_some() {
                continue;
            }
            seen.insert((piece, index.index()));
            let verdict = judge(game, position, history, (piece, square), true);
            for &rule in &verdict.refused_by {
                *stats.refusals.entry((position.phase(), rule)).or_default() += 1;
            }
            if let [rule] = verdict.refused_by[..] {
                *stats.alone.entry((position.phase(), rule)).or_default() += 1;
            }
            let Some(naive) = verdict.legal else {
                stats.skipped += 1;
                continue;
            };
            let listed = engine.contains(&(piece, index.index()));
            if naive != listed {
                let refused: Vec<&str> = verdict
                    .refused_by
                    .iter()
                    .map(|&i| game.constraints(position)[i].origin.text.as_str())
                    .collect();
                return Err(format!(
                    "{}: at {}\n  drop of {} ({}) on {}: naive verdict {}, engine lists it: {}\n  \
                     rules refusing it (naive): {:?}",
                    game.name,
                    game.fen(position),
                    game.definition.pieces[piece].name,
                    game.definition.pieces[piece].letter,
                    square,
                    if naive { "legal" } else { "illegal" },
                    listed,
                    refused
                ));
            }
            stats.compared += 1;
            stats.legal += u64::from(naive);
            if !naive && verdict.refused_by.is_empty() {
                stats.refused_by_lookahead += 1;
            }
        }
    }
    if let Some(&(piece, index)) = engine.iter().find(|drop| !seen.contains(drop)) {
        return Err(format!(
            "{}: at {}: the engine lists {}, not a piece in hand on an empty square",
            game.name,
            game.fen(position),
            Move::drop(PieceId::new(piece), variant_interpreter::Sq::new(index)).uci(rules)
        ));
    }
    Ok(())
}

/// Plays a random game of at most `max_actions` actions, comparing at every position. Drops are
/// chosen more often than other actions, so that hands empty and refill along the game.
fn play(game: &Game, seed: u64, max_actions: usize, stats: &mut Stats) -> Result<(), String> {
    let rules = &game.rules;
    // The game's name in the seed: games with the same drop rules (Coverage and its weighted
    // scoring) are played differently.
    let salt = game
        .name
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
        });
    let mut random = SplitMix(seed ^ salt);
    let mut position =
        Position::from_setup(rules, &game.definition.setup).expect("the setup opens");
    let mut history = History {
        drops_made: vec![0; game.definition.sides.len()],
        turn_start: position,
    };
    let mut hashes = Vec::new();
    // In one game of two, the side to move always drops when it can and keeps its most valuable
    // piece type in hand while it holds another: rules about late drops (Cheversi's Queen at
    // Black's 7th placement) and about several drops in a turn bind more often.
    let patient = random.below(2) == 0;
    for _ in 0..=max_actions {
        // A finished game has no legal move to compare (a turn of several actions that ended
        // the game mid-turn keeps the mover, with nothing left to play).
        if outcome(rules, &position, &hashes).is_some() {
            break;
        }
        if position.at_turn_start() {
            history.turn_start = position;
        }
        compare_position(game, &position, &history, stats)?;
        let moves = legal_moves(rules, &position);
        if moves.is_empty() {
            break;
        }
        let mut drops: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| matches!(mv.kind, MoveKind::Drop(_)))
            .collect();
        if patient {
            let value = |mv: &Move| match mv.kind {
                MoveKind::Drop(piece) => game.definition.pieces[piece.0 as usize].value,
                _ => 0,
            };
            let highest = drops.iter().map(value).max().unwrap_or(0);
            if drops.iter().any(|mv| value(mv) < highest) {
                drops.retain(|mv| value(mv) < highest);
            }
        }
        let chosen = if !drops.is_empty() && (patient || random.below(3) == 0) {
            drops[random.below(drops.len())]
        } else {
            moves[random.below(moves.len())]
        };
        if matches!(chosen.kind, MoveKind::Drop(_)) {
            history.drops_made[position.side_to_move(rules).index()] += 1;
        }
        hashes.push(position.hash());
        position.play_legal(rules, chosen);
    }
    Ok(())
}

/// Seeded unless `PROPTEST_RNG_SEED` is set; `PROPTEST_CASES` overrides the number of games.
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            default.rng_seed
        } else {
            RngSeed::Fixed(0xd809)
        },
        // A failure is a position, printed in full; shrinking the seed finds nothing smaller.
        max_shrink_iters: 0,
        failure_persistence: None,
        ..default
    }
}

fn check_games(game: &Game, seed: u64, max_actions: usize) -> Result<(), TestCaseError> {
    let mut stats = Stats::default();
    play(game, seed, max_actions, &mut stats).map_err(TestCaseError::fail)
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn cheversi_drops_match_the_naive_rules(seed in any::<u64>()) {
        check_games(&Game::named("cheversi"), seed, 16)?;
    }

    #[test]
    fn coverage_drops_match_the_naive_rules(seed in any::<u64>()) {
        check_games(&Game::named("coverage"), seed, 32)?;
    }

    #[test]
    fn weighted_coverage_drops_match_the_naive_rules(seed in any::<u64>()) {
        check_games(&Game::named("coverage-weighted"), seed, 32)?;
    }

    #[test]
    fn kingdrops_drops_match_the_naive_rules(seed in any::<u64>()) {
        check_games(&Game::named("kingdrops"), seed, 160)?;
    }

    #[test]
    fn drop_terms_match_the_naive_rules(seed in any::<u64>()) {
        check_games(&Game::test_variant("drop-terms"), seed, 160)?;
    }

    #[test]
    fn drop_turn_terms_match_the_naive_rules(seed in any::<u64>()) {
        check_games(&Game::test_variant("drop-turn-terms"), seed, 120)?;
    }
}

/// The comparison reaches every rule of the games and test variants: along a fixed batch of
/// games, each rule refuses some drop (a rule that never refuses anything would be compared for
/// nothing), `leave an action` included; each rule of the test variants also refuses some drop
/// that every other rule allows, so that each is compared on its own. (In Cheversi, the Queen
/// due at Black's 7th placement is never the only rule refusing: Black then holds only its
/// Queen and its King, which the King rule refuses too.) The counts are printed
/// (`--nocapture`): refusals, refusals by that rule alone, the rule.
#[test]
fn the_comparison_reaches_every_rule() {
    // (game, actions per game, games, whether every rule must refuse some drop alone)
    let games = [
        (Game::named("cheversi"), 16, 24, false),
        (Game::named("coverage"), 32, 8, true),
        (Game::named("coverage-weighted"), 32, 8, true),
        (Game::named("kingdrops"), 160, 32, false),
        (Game::test_variant("drop-terms"), 160, 12, true),
        (Game::test_variant("drop-turn-terms"), 120, 12, true),
    ];
    for (game, max_actions, count, each_alone) in &games {
        let mut stats = Stats::default();
        for seed in 0..*count {
            play(game, seed, *max_actions, &mut stats)
                .unwrap_or_else(|failure| panic!("{failure}"));
        }
        eprintln!(
            "{}: {} games, {} positions, {} drops compared ({} legal), {} refused by the \
             lookahead only, {} allowed by the drop rules but not by a maximal turn",
            game.name,
            count,
            stats.positions,
            stats.compared,
            stats.legal,
            stats.refused_by_lookahead,
            stats.refused_by_maximal
        );
        assert_eq!(
            stats.skipped, 0,
            "{}: every candidate is compared",
            game.name
        );
        let phases = game
            .definition
            .phases
            .iter()
            .map(|phase| &phase.drops.constraints);
        let blocks = std::iter::once((None, &game.definition.drops.constraints))
            .chain(phases.enumerate().map(|(i, rules)| (Some(i), rules)));
        for (phase, rules) in blocks {
            for (index, rule) in rules.iter().enumerate() {
                let count = |map: &std::collections::BTreeMap<_, u64>| {
                    map.get(&(phase, index)).copied().unwrap_or(0)
                };
                let (refused, alone) = if rule.requirement == Condition::LeaveAction {
                    (stats.refused_by_lookahead, stats.refused_by_lookahead)
                } else {
                    (count(&stats.refusals), count(&stats.alone))
                };
                eprintln!("    {refused:>6} {alone:>6}  {}", rule.origin.text);
                assert!(
                    refused > 0,
                    "{}: `{}` never refused a drop",
                    game.name,
                    rule.origin.text
                );
                assert!(
                    alone > 0 || !each_alone,
                    "{}: `{}` never refused a drop alone",
                    game.name,
                    rule.origin.text
                );
            }
        }
    }
}

/// `placement` is "this drop's number for its side, 1 for the first" (docs/language.md §2.11.1).
/// The engine computes it from the position, as the setup's hand minus the hand plus one
/// (`variant_interpreter::expression::placement`), which is the same only while no piece comes
/// back to a hand. In a game whose captures go to a hand (here White's drop N@b3 and a capture
/// of a Knight into the hand would make its second drop count as its first), the checker
/// refuses `placement` rather than count wrong.
#[test]
fn placement_is_refused_where_captured_pieces_return_to_the_hand() {
    let source = r#"
        game "Placement with captures to hand"
        board 5x5
        side white { forward up }
        side black { forward down }
        turns white black
        piece King { letter K; value 0; royal; moves "K" }
        piece Rook { letter R; value 5; moves "R" }
        piece Knight { letter N; value 3; moves "N" }
        setup "rnk2/5/5/5/2KNR[Nn] w - - 0 1"
        actions moves drops
        capture { to hand }
        drops { must place on not rank 5 when placement < 2 }
        end { royal captured loses }
    "#;
    let failure = variant_dsl::load_source("placement.variant", source)
        .expect_err("`placement` is refused with captures to the hand");
    let rendered = failure.render();
    assert!(
        rendered.contains(
            "`placement` cannot be used in a game whose captured pieces come back to a hand"
        ),
        "{rendered}"
    );
}
