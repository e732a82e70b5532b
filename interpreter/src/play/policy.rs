//! A side's scripted controller (`policy red { ... }`): an ordered list of rules, each building
//! candidate actions step by step, with dice rolled on the way.
//!
//! The first rule left with candidates decides; the caller picks one of them at random (the
//! candidates are sorted by notation, so that a seeded pick is reproducible). Dice come from a
//! [`DiceSource`]: given from outside (a person at a real board) or drawn from the game's seeded
//! generator. A die is consumed only when a step reads it, in file order, so that the same dice
//! give the same decision.

use crate::bitboard::Bitboard;
use crate::control::piece_control;
use crate::core::tables::targets;
use crate::expression::{compile_set, Judge};
use crate::legal::legal_moves;
use crate::moves::{JumpOutcome, Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;
use std::collections::BTreeMap;
use variant_dsl::{
    ActionCondition, ActionNumber, Dice, Grouping, PolicyDef, PolicyItem, PolicyStep,
};

/// Where dice come from.
pub trait DiceSource {
    /// The next die of `faces` faces, or `None` when none is left.
    fn roll(&mut self, faces: u8) -> Option<u32>;
}

/// Dice given in advance, consumed in order.
pub struct GivenDice<'a> {
    dice: &'a [u32],
    next: usize,
}

impl<'a> GivenDice<'a> {
    /// These dice, the first rolled first.
    pub fn new(dice: &'a [u32]) -> Self {
        GivenDice { dice, next: 0 }
    }
}

impl DiceSource for GivenDice<'_> {
    fn roll(&mut self, _faces: u8) -> Option<u32> {
        let die = self.dice.get(self.next).copied()?;
        self.next += 1;
        Some(die)
    }
}

/// What a policy decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The rule that fired.
    pub rule: String,
    /// The dice read, in order.
    pub dice: Vec<u32>,
    /// The actions the rule chooses among, sorted by notation.
    pub candidates: Vec<Move>,
}

/// Why a policy could not decide.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyError {
    /// A rule needed a die and none was left.
    NoDice {
        /// The rule (or roll) that needed it.
        rule: String,
    },
    /// A die given from outside is not a face of the die rolled.
    BadDie {
        /// The value given.
        value: u32,
        /// The faces of the die.
        faces: u8,
    },
    /// No rule had a candidate.
    Nothing,
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolicyError::NoDice { rule } => write!(f, "rule {rule} needs another die"),
            PolicyError::BadDie { value, faces } => {
                write!(f, "{value} is not a face of a die with {faces} faces")
            }
            PolicyError::Nothing => write!(f, "no rule of the policy has a candidate action"),
        }
    }
}

/// The policy of the side to move, if it has one.
pub fn policy_of<B: Bitboard>(rules: &Rules<B>, side: usize) -> Option<&PolicyDef> {
    rules
        .definition
        .policies
        .iter()
        .find(|policy| policy.side.0 as usize == side)
}

/// Runs a policy for the side to move.
pub fn decide<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    policy: &PolicyDef,
    dice: &mut dyn DiceSource,
) -> Result<Decision, PolicyError> {
    let mut run = Run {
        rules,
        position,
        side: position.side_to_move(rules),
        variables: BTreeMap::new(),
        dice,
        rolled: Vec::new(),
        legal: None,
        compiled: std::cell::RefCell::new(Vec::new()),
    };
    for item in &policy.items {
        match item {
            PolicyItem::Roll { dice, name, rule } => {
                let owner = rule.clone().unwrap_or_else(|| format!("rolling `{name}`"));
                let total = run.roll(*dice, &owner)?;
                run.variables.insert(name.clone(), total);
            }
            PolicyItem::Nearest {
                name,
                to,
                except,
                lower_when_odd,
            } => {
                let target = run.variable(to);
                let left_out = run.variable(except);
                let number = run.nearest(target, left_out, *lower_when_odd);
                run.variables
                    .insert(name.clone(), number.map_or(-1, i64::from));
            }
            PolicyItem::Rule { label, steps } => {
                if let Some(mut candidates) = run.rule(label, steps)? {
                    candidates.sort_by_key(|mv| mv.uci(rules));
                    candidates.dedup();
                    return Ok(Decision {
                        rule: label.clone(),
                        dice: run.rolled,
                        candidates,
                    });
                }
            }
        }
    }
    Err(PolicyError::Nothing)
}

/// One decision under way.
struct Run<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    position: &'a Position<B>,
    side: usize,
    variables: BTreeMap<String, i64>,
    dice: &'a mut dyn DiceSource,
    rolled: Vec<u32>,
    legal: Option<Vec<Move>>,
    /// The sets of squares compiled so far, by their address in the policy.
    compiled: std::cell::RefCell<Vec<(usize, crate::expression::Set<B>)>>,
}

impl<B: Bitboard> Run<'_, B> {
    fn variable(&self, name: &str) -> i64 {
        self.variables.get(name).copied().unwrap_or(0)
    }

    fn roll(&mut self, dice: Dice, rule: &str) -> Result<i64, PolicyError> {
        let mut total = i64::from(dice.offset);
        for _ in 0..dice.count {
            let die = self
                .dice
                .roll(dice.faces)
                .ok_or_else(|| PolicyError::NoDice {
                    rule: rule.to_string(),
                })?;
            if die == 0 || die > u32::from(dice.faces) {
                return Err(PolicyError::BadDie {
                    value: die,
                    faces: dice.faces,
                });
            }
            self.rolled.push(die);
            total += i64::from(die);
        }
        Ok(total)
    }

    fn legal(&mut self) -> Vec<Move> {
        if self.legal.is_none() {
            self.legal = Some(legal_moves(self.rules, self.position));
        }
        self.legal.clone().unwrap_or_default()
    }

    /// The square of the side's piece with this number.
    fn numbered(&self, number: i64) -> Option<usize> {
        u8::try_from(number)
            .ok()
            .filter(|&n| n > 0)
            .and_then(|n| self.position.numbered(self.rules, self.side, n))
    }

    /// The number nearest `target` among the side's pieces on the board, `except` left out.
    fn nearest(&self, target: i64, except: i64, lower_when_odd: bool) -> Option<u8> {
        let numbers = self
            .position
            .side_pieces(self.side)
            .squares()
            .filter_map(|square| self.position.number(self.rules, square))
            .filter(|&n| i64::from(n) != except);
        let odd = target.rem_euclid(2) == 1;
        let prefer_lower = odd == lower_when_odd;
        numbers.min_by_key(|&n| {
            let distance = (i64::from(n) - target).abs();
            let tie = if prefer_lower {
                i64::from(n)
            } else {
                -i64::from(n)
            };
            (distance, tie)
        })
    }

    /// A rule's candidates, or `None` when it has none.
    fn rule(
        &mut self,
        label: &str,
        steps: &[PolicyStep],
    ) -> Result<Option<Vec<Move>>, PolicyError> {
        let mut set: Vec<Move> = Vec::new();
        // Until a step builds the candidates there is nothing to lose: dice are rolled.
        let mut built = false;
        for step in steps {
            match step {
                PolicyStep::Moves(number) => {
                    set = self.legal();
                    if let Some(number) = number {
                        match self.numbered(self.variable(number)) {
                            // Castling is the King's move (CC15): it starts on the King's square.
                            Some(square) => set.retain(|mv| mv.from as usize == square),
                            None => set.clear(),
                        }
                    }
                }
                PolicyStep::Captures(number) => {
                    // Known once, for `legal` conditions on these captures.
                    let _ = self.legal();
                    set = match self.numbered(self.variable(number)) {
                        Some(square) => self.captures_from(square),
                        None => Vec::new(),
                    };
                }
                PolicyStep::Where(condition) => {
                    let count = set.len() as i64;
                    set.retain(|&mv| self.holds(condition, mv, count));
                }
                PolicyStep::Prefer(groups) => {
                    let count = set.len() as i64;
                    for group in groups {
                        let kept: Vec<Move> = set
                            .iter()
                            .copied()
                            .filter(|&mv| self.holds(group, mv, count))
                            .collect();
                        if !kept.is_empty() {
                            set = kept;
                            break;
                        }
                    }
                }
                PolicyStep::Best {
                    highest,
                    measure,
                    per,
                } => {
                    let count = set.len() as i64;
                    let scored: Vec<(Move, (i64, i64), i64)> = set
                        .iter()
                        .map(|&mv| (mv, self.group(mv, *per), self.number(measure, mv, count)))
                        .collect();
                    let mut best: BTreeMap<(i64, i64), i64> = BTreeMap::new();
                    for &(_, group, value) in &scored {
                        let entry = best.entry(group).or_insert(value);
                        *entry = if *highest {
                            (*entry).max(value)
                        } else {
                            (*entry).min(value)
                        };
                    }
                    set = scored
                        .into_iter()
                        .filter(|(_, group, value)| best[group] == *value)
                        .map(|(mv, _, _)| mv)
                        .collect();
                }
                PolicyStep::Roll { dice, name } => {
                    let total = self.roll(*dice, label)?;
                    self.variables.insert(name.clone(), total);
                    continue;
                }
                PolicyStep::Escape(royal) => {
                    set = set
                        .into_iter()
                        .flat_map(|mv| self.escapes(mv, royal.0 as usize))
                        .collect();
                }
                PolicyStep::Jump { number, file, rank } => {
                    set = match self.numbered(self.variable(number)) {
                        Some(from) => {
                            let file = self.variable(file) - 1;
                            let rank = self.variable(rank) - 1;
                            self.jumps(from, file, rank)
                        }
                        None => Vec::new(),
                    };
                }
            }
            built = true;
            if set.is_empty() {
                return Ok(None);
            }
        }
        Ok((built && !set.is_empty()).then_some(set))
    }

    /// The captures the movement of the piece on `from` allows, legal or not.
    fn captures_from(&self, from: usize) -> Vec<Move> {
        let Some(occupant) = self.position.at(from) else {
            return Vec::new();
        };
        let own = self.position.friends(self.rules, self.side);
        let occupied = self.position.occupied();
        let mut enemy = occupied & !own;
        for &piece in &self.rules.uncapturable {
            enemy &= !self.position.typed(piece);
        }
        let moves = self.rules.moves_of(self.side, occupant.piece);
        let reach = targets(self.rules, moves, from, own, enemy, occupied) & enemy;
        let mut found: Vec<Move> = reach
            .squares()
            .map(|to| match &moves.promotion {
                Some(rule) if rule.zone.has(to) => Move {
                    from: from as u16,
                    to: to as u16,
                    kind: MoveKind::Promote(rule.choices[0]),
                    converts: None,
                },
                _ => Move::normal(from, to),
            })
            .collect();
        if let Some(ep) = self.position.en_passant() {
            let victim_ok = self
                .position
                .at(ep.victim as usize)
                .is_some_and(|o| self.rules.is_enemy(self.side, o.side));
            if victim_ok && moves.en_passant[from].has(ep.target as usize) {
                found.push(Move {
                    from: from as u16,
                    to: ep.target,
                    kind: MoveKind::EnPassant,
                    converts: None,
                });
            }
        }
        found
    }

    /// The capture as it is when it leaves the royal piece safe; else the capture followed by
    /// each slide of the royal piece to the first square, in one of the 8 directions, where it
    /// is not attacked (a slide stops at the edge, at a piece of its side or an enemy royal
    /// piece, or at an enemy piece it would stay attacked on).
    fn escapes(&self, mv: Move, royal: usize) -> Vec<Move> {
        let mut after = *self.position;
        after.apply_action(self.rules, mv);
        if !after.in_check(self.rules, self.side) {
            return vec![mv];
        }
        let kings = after.side_pieces(self.side) & after.typed(royal);
        let Some(king) = kings.squares().next() else {
            return Vec::new();
        };
        let geometry = &self.rules.geometry;
        let (file, rank) = geometry.coords(king);
        let mut found = Vec::new();
        for (df, dr) in crate::geometry::KING_STEPS {
            let (mut f, mut r) = (file as i32, rank as i32);
            loop {
                f += df;
                r += dr;
                let Some(square) = geometry.index_of(f, r) else {
                    break;
                };
                let occupant = after.at(square);
                if let Some(o) = occupant {
                    let royal_piece = self.rules.royal.iter().any(|p| p.0 as usize == o.piece);
                    if !self.rules.is_enemy(self.side, o.side) || royal_piece {
                        break;
                    }
                }
                let mut slid = after;
                let slide = Move::normal(king, square);
                slid.apply_action(self.rules, slide);
                if !slid.in_check(self.rules, self.side) {
                    found.push(Move {
                        kind: MoveKind::Escape {
                            king_from: king as u8,
                            king_to: square as u8,
                        },
                        ..mv
                    });
                    break;
                }
                if occupant.is_some() {
                    break;
                }
            }
        }
        found
    }

    /// The jump of the piece on `from` to (file, rank), counted from 0: what it does there.
    fn jumps(&self, from: usize, file: i64, rank: i64) -> Vec<Move> {
        let geometry = &self.rules.geometry;
        let (Ok(file), Ok(rank)) = (i32::try_from(file), i32::try_from(rank)) else {
            return Vec::new();
        };
        let Some(to) = geometry.index_of(file, rank) else {
            return Vec::new();
        };
        let jump = |outcome| Move {
            from: from as u16,
            to: to as u16,
            kind: MoveKind::Jump(outcome),
            converts: None,
        };
        let mover = self
            .position
            .at(from)
            .expect("a numbered piece stands there");
        let is_royal = |piece: usize| self.rules.royal.iter().any(|p| p.0 as usize == piece);
        let value = |piece: usize| {
            if is_royal(piece) {
                i64::MAX
            } else {
                i64::from(self.rules.definition.pieces[piece].value)
            }
        };
        if to == from {
            return vec![jump(JumpOutcome::Nothing)];
        }
        match self.position.at(to) {
            None => vec![jump(JumpOutcome::Lands)],
            Some(there) if self.rules.is_enemy(self.side, there.side) => {
                if !is_royal(there.piece) {
                    vec![jump(JumpOutcome::Lands)]
                } else if is_royal(mover.piece) {
                    vec![jump(JumpOutcome::Nothing)]
                } else {
                    vec![jump(JumpOutcome::Removed)]
                }
            }
            Some(there) => match value(mover.piece).cmp(&value(there.piece)) {
                std::cmp::Ordering::Greater => vec![jump(JumpOutcome::Lands)],
                std::cmp::Ordering::Less => vec![jump(JumpOutcome::Removed)],
                std::cmp::Ordering::Equal => {
                    vec![jump(JumpOutcome::Lands), jump(JumpOutcome::Removed)]
                }
            },
        }
    }

    /// The group an action is compared within.
    fn group(&self, mv: Move, per: Option<Grouping>) -> (i64, i64) {
        match per {
            None => (0, 0),
            Some(Grouping::Piece) => (i64::from(mv.from), 0),
            Some(Grouping::Direction) => {
                let (df, dr) = self.delta(mv);
                let divisor = gcd(df.abs(), dr.abs()).max(1);
                (df / divisor, dr / divisor)
            }
        }
    }

    fn delta(&self, mv: Move) -> (i64, i64) {
        let (from_file, from_rank) = self.rules.geometry.coords(mv.from as usize);
        let (to_file, to_rank) = self.rules.geometry.coords(mv.to as usize);
        (
            to_file as i64 - from_file as i64,
            to_rank as i64 - from_rank as i64,
        )
    }

    fn after(&self, mv: Move) -> Position<B> {
        let mut after = *self.position;
        after.apply_action(self.rules, mv);
        after
    }

    fn victim(&self, mv: Move) -> Option<usize> {
        match mv.kind {
            MoveKind::EnPassant => self
                .position
                .en_passant()
                .and_then(|ep| self.position.at(ep.victim as usize))
                .map(|o| o.piece),
            MoveKind::Castle(_) | MoveKind::Drop(_) | MoveKind::Pass => None,
            _ => self
                .position
                .at(mv.to as usize)
                .filter(|o| self.rules.is_enemy(self.side, o.side))
                .map(|o| o.piece),
        }
    }

    /// A set of squares judged for the policy's side on `position`; each set is compiled once
    /// per decision.
    fn squares(&self, set: &variant_dsl::Squares, position: &Position<B>) -> B {
        let key = set as *const variant_dsl::Squares as usize;
        let mut compiled = self.compiled.borrow_mut();
        let index = match compiled.iter().position(|(k, _)| *k == key) {
            Some(index) => index,
            None => {
                compiled.push((key, compile_set(&self.rules.geometry, set)));
                compiled.len() - 1
            }
        };
        Judge::new(self.rules, position, self.side).set(&compiled[index].1)
    }

    fn holds(&self, condition: &ActionCondition, mv: Move, count: i64) -> bool {
        match condition {
            ActionCondition::And(parts) => parts.iter().all(|c| self.holds(c, mv, count)),
            ActionCondition::Or(parts) => parts.iter().any(|c| self.holds(c, mv, count)),
            ActionCondition::Not(inner) => !self.holds(inner, mv, count),
            ActionCondition::Capture => self.victim(mv).is_some(),
            ActionCondition::CaptureOfChecker => {
                let victim_square = match mv.kind {
                    MoveKind::EnPassant => self.position.en_passant().map(|ep| ep.victim as usize),
                    _ => Some(mv.to as usize),
                };
                let Some(victim_square) = victim_square.filter(|_| self.victim(mv).is_some())
                else {
                    return false;
                };
                self.position
                    .team_royals(self.rules, self.side)
                    .squares()
                    .any(|royal| {
                        self.position
                            .checkers(self.rules, royal, self.side)
                            .has(victim_square)
                    })
            }
            ActionCondition::InCheck => self.position.in_check(self.rules, self.side),
            ActionCondition::Legal => match &self.legal {
                Some(legal) => legal.contains(&mv),
                None => legal_moves(self.rules, self.position).contains(&mv),
            },
            ActionCondition::Moving(piece) => self
                .position
                .at(mv.from as usize)
                .is_some_and(|o| o.piece == piece.0 as usize),
            ActionCondition::From(set) => self.squares(set, self.position).has(mv.from as usize),
            ActionCondition::To(set) => self.squares(set, self.position).has(mv.to as usize),
            ActionCondition::LandsOn(set) => {
                let after = self.after(mv);
                self.squares(set, &after).has(mv.to as usize)
            }
            ActionCondition::ThenAttacks(set) => {
                let after = self.after(mv);
                let Some(moved) = after.at(mv.to as usize) else {
                    return false;
                };
                let attacked =
                    piece_control(self.rules, &after, moved.side, moved.piece, mv.to as usize);
                (attacked & self.squares(set, &after)).any()
            }
            ActionCondition::Compare(left, comparison, right) => {
                comparison.holds(self.number(left, mv, count), self.number(right, mv, count))
            }
        }
    }

    fn number(&self, number: &ActionNumber, mv: Move, count: i64) -> i64 {
        let value = |piece: usize| i64::from(self.rules.definition.pieces[piece].value);
        match number {
            ActionNumber::Constant(n) => *n,
            ActionNumber::Candidates => count,
            ActionNumber::MoverValue => self
                .position
                .at(mv.from as usize)
                .map_or(0, |o| value(o.piece)),
            ActionNumber::VictimValue => self.victim(mv).map_or(0, value),
            ActionNumber::Distance => {
                let (df, dr) = self.delta(mv);
                df.abs().max(dr.abs())
            }
            ActionNumber::Attackers(reference) => {
                let after = self.after(mv);
                let sides = crate::expression::sides_of(self.rules, &after, self.side, *reference);
                (0..self.rules.sides)
                    .filter(|&s| sides >> s & 1 == 1)
                    .map(|s| attackers_by(self.rules, &after, mv.to as usize, s))
                    .sum()
            }
            ActionNumber::Variable(name) => self.variable(name),
        }
    }
}

/// How many pieces of `side` attack `square`.
fn attackers_by<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    square: usize,
    side: usize,
) -> i64 {
    position
        .side_pieces(side)
        .squares()
        .filter(|&from| {
            position
                .at(from)
                .is_some_and(|o| piece_control(rules, position, side, o.piece, from).has(square))
        })
        .count() as i64
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The actions other than legal moves that the policy could produce with some dice: the
/// escapes of every capture its pieces' movement allows (a royal piece's only when legal) and
/// the jumps of every piece to every square its dice can name. `--play` and records accept them.
pub fn possible_actions<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    policy: &PolicyDef,
) -> Vec<Move> {
    let mut dice = NoDice;
    let run = Run {
        rules,
        position,
        side: position.side_to_move(rules),
        variables: BTreeMap::new(),
        dice: &mut dice,
        rolled: Vec::new(),
        legal: None,
        compiled: std::cell::RefCell::new(Vec::new()),
    };
    let mut ranges: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    let note = |ranges: &mut BTreeMap<String, (i64, i64)>, dice: &Dice, name: &str| {
        let low = i64::from(dice.count) + i64::from(dice.offset);
        let high = i64::from(dice.count) * i64::from(dice.faces) + i64::from(dice.offset);
        ranges.insert(name.to_string(), (low, high));
    };
    let mut escapes = Vec::new();
    let mut jumps = Vec::new();
    for item in &policy.items {
        match item {
            PolicyItem::Roll { dice, name, .. } => note(&mut ranges, dice, name),
            PolicyItem::Nearest { .. } => {}
            PolicyItem::Rule { steps, .. } => {
                for step in steps {
                    match step {
                        PolicyStep::Roll { dice, name } => note(&mut ranges, dice, name),
                        PolicyStep::Escape(royal) => escapes.push(royal.0 as usize),
                        PolicyStep::Jump { file, rank, .. } => {
                            jumps.push((ranges.get(file).copied(), ranges.get(rank).copied()))
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    let legal = legal_moves(rules, position);
    let mut found = Vec::new();
    for from in position.side_pieces(run.side).squares() {
        let is_royal = position
            .at(from)
            .is_some_and(|o| rules.royal.iter().any(|p| p.0 as usize == o.piece));
        for &royal in &escapes {
            for capture in run.captures_from(from) {
                if is_royal && !legal.contains(&capture) {
                    continue;
                }
                found.extend(run.escapes(capture, royal));
            }
        }
        for &(files, ranks) in &jumps {
            let (Some((file_low, file_high)), Some((rank_low, rank_high))) = (files, ranks) else {
                continue;
            };
            for file in file_low..=file_high {
                for rank in rank_low..=rank_high {
                    found.extend(run.jumps(from, file - 1, rank - 1));
                }
            }
        }
    }
    found.retain(|mv| !legal.contains(mv));
    found
}

/// Dice drawn from a seeded generator.
pub struct SeededDice<'a, R: rand::Rng>(pub &'a mut R);

impl<R: rand::Rng> DiceSource for SeededDice<'_, R> {
    fn roll(&mut self, faces: u8) -> Option<u32> {
        use rand::RngExt;
        Some(self.0.random_range(1..=u32::from(faces)))
    }
}

/// A source with no dice, for what needs none.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self, _faces: u8) -> Option<u32> {
        None
    }
}
