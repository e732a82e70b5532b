//! A side's scripted controller (`policy red { ... }`): an ordered list of rules, each building
//! candidate actions step by step, with dice rolled on the way.
//!
//! The first rule left with candidates decides; the caller picks one of them at random (the
//! candidates are sorted by notation, so that a seeded pick is reproducible). Dice come from a
//! [`DiceSource`]: given from outside (a person at a real board) or drawn from the game's seeded
//! generator. A die is consumed only when a step reads it, in file order, so that the same dice
//! give the same decision.
//!
//! A policy is compiled when the game loads ([`Policies::compile`]). Its candidates are
//! [`Action`]s: the legal moves and captures its steps take from the move generator, and its
//! own actions made of board edits, which the game file states (`then King slides ...`,
//! `jump ... lands when ..., removed when ...`) and the core only applies.

mod compiled;

pub use compiled::{Policies, Policy};

use crate::action::{move_edits, Action, Edited, Written};
use crate::bitboard::Bitboard;
use crate::control::piece_control;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::tables::targets;
use crate::edit::{Edit, Edits};
use crate::expression::{Judge, Set};
use crate::legal::legal_moves;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;
use compiled::{Cond, Item, Num, Slot, Step};
use std::collections::BTreeMap;
use variant_dsl::{Dice, Grouping};

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
    pub candidates: Vec<Action>,
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
    /// The side to move has no policy: people or players move it.
    NoPolicy {
        /// The side's name.
        side: String,
    },
    /// The game is over: no side decides any more.
    GameOver {
        /// How it ended ([`crate::Outcome::description`]).
        outcome: String,
    },
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PolicyError::NoDice { rule } => write!(f, "rule {rule} needs another die"),
            PolicyError::BadDie { value, faces } => {
                write!(f, "{value} is not a face of a die with {faces} faces")
            }
            PolicyError::Nothing => write!(f, "no rule of the policy has a candidate action"),
            PolicyError::NoPolicy { side } => {
                write!(
                    f,
                    "{side} has no policy in this game: people or players move it"
                )
            }
            PolicyError::GameOver { outcome } => write!(f, "the game is over: {outcome}"),
        }
    }
}

impl std::error::Error for PolicyError {}

/// Runs a side's compiled policy for the side to move.
pub fn decide<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    policy: &Policy<B>,
    dice: &mut dyn DiceSource,
) -> Result<Decision, PolicyError> {
    let mut run = Run::new(rules, position, policy, dice);
    for item in &policy.items {
        match item {
            Item::Roll { dice, slot, owner } => {
                run.numbers[*slot] = run.roll(*dice, owner)?;
            }
            Item::Nearest {
                slot,
                to,
                except,
                lower_when_odd,
            } => {
                let number = run.nearest(run.numbers[*to], run.numbers[*except], *lower_when_odd);
                run.numbers[*slot] = number.map_or(-1, i64::from);
            }
            Item::Rule { label, steps } => {
                if let Some(mut candidates) = run.rule(label, steps)? {
                    candidates.sort_by_key(|action| action.notation(rules));
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
    side: SideId,
    /// The numbers rolled and chosen so far, by slot (0 until given).
    numbers: Vec<i64>,
    dice: &'a mut dyn DiceSource,
    rolled: Vec<u32>,
    legal: Option<Vec<Move>>,
}

impl<'a, B: Bitboard> Run<'a, B> {
    fn new(
        rules: &'a Rules<B>,
        position: &'a Position<B>,
        policy: &Policy<B>,
        dice: &'a mut dyn DiceSource,
    ) -> Self {
        Run {
            rules,
            position,
            side: position.side_to_move(rules),
            numbers: vec![0; policy.slots],
            dice,
            rolled: Vec::new(),
            legal: None,
        }
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
    fn numbered(&self, number: i64) -> Option<Sq> {
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
    fn rule(&mut self, label: &str, steps: &[Step<B>]) -> Result<Option<Vec<Action>>, PolicyError> {
        let mut set: Vec<Action> = Vec::new();
        // Until a step builds the candidates there is nothing to lose: dice are rolled.
        let mut built = false;
        for step in steps {
            if let Step::Roll { dice, slot } = step {
                self.numbers[*slot] = self.roll(*dice, label)?;
                continue;
            }
            set = self.step(step, set);
            built = true;
            if set.is_empty() {
                return Ok(None);
            }
        }
        Ok((built && !set.is_empty()).then_some(set))
    }

    /// The candidates after one step that builds or narrows them.
    fn step(&mut self, step: &Step<B>, mut set: Vec<Action>) -> Vec<Action> {
        match step {
            Step::Moves(number) => {
                let mut moves = self.legal();
                if let Some(number) = number {
                    match self.numbered(self.numbers[*number]) {
                        // Castling is the King's move (CC15): it starts on the King's square.
                        Some(square) => moves.retain(|mv| mv.from == square),
                        None => moves.clear(),
                    }
                }
                moves.into_iter().map(Action::Move).collect()
            }
            Step::Captures(number) => {
                // Known once, for `legal` conditions on these captures.
                let _ = self.legal();
                match self.numbered(self.numbers[*number]) {
                    Some(square) => self.captures_from(square),
                    None => Vec::new(),
                }
            }
            Step::Where(condition) => {
                let count = set.len() as i64;
                set.retain(|action| self.holds(condition, action, count));
                set
            }
            Step::Prefer(groups) => {
                let count = set.len() as i64;
                for group in groups {
                    let kept: Vec<Action> = set
                        .iter()
                        .copied()
                        .filter(|action| self.holds(group, action, count))
                        .collect();
                    if !kept.is_empty() {
                        return kept;
                    }
                }
                set
            }
            Step::Best {
                highest,
                measure,
                per,
            } => self.best(set, *highest, *measure, *per),
            Step::Roll { .. } => set,
            Step::Slide {
                piece,
                lines,
                until,
            } => set
                .into_iter()
                .flat_map(|action| self.slides(action, *piece, lines, until))
                .collect(),
            Step::Jump {
                number,
                file,
                rank,
                lands,
                removed,
            } => match self.numbered(self.numbers[*number]) {
                Some(from) => {
                    let file = self.numbers[*file] - 1;
                    let rank = self.numbers[*rank] - 1;
                    self.jumps(from, file, rank, lands.as_ref(), removed.as_ref())
                }
                None => Vec::new(),
            },
        }
    }

    /// The candidates with the highest (lowest) measure, within each group.
    fn best(
        &self,
        set: Vec<Action>,
        highest: bool,
        measure: Num,
        per: Option<Grouping>,
    ) -> Vec<Action> {
        let count = set.len() as i64;
        let scored: Vec<(Action, (i64, i64), i64)> = set
            .iter()
            .map(|action| {
                (
                    *action,
                    self.group(action, per),
                    self.number(measure, action, count),
                )
            })
            .collect();
        let mut best: BTreeMap<(i64, i64), i64> = BTreeMap::new();
        for &(_, group, value) in &scored {
            let entry = best.entry(group).or_insert(value);
            *entry = if highest {
                (*entry).max(value)
            } else {
                (*entry).min(value)
            };
        }
        scored
            .into_iter()
            .filter(|(_, group, value)| best[group] == *value)
            .map(|(action, _, _)| action)
            .collect()
    }

    /// The captures the movement of the piece on `from` allows, legal or not.
    fn captures_from(&self, from: Sq) -> Vec<Action> {
        let Some(occupant) = self.position.at(from) else {
            return Vec::new();
        };
        let own = self.position.friends(self.rules, self.side);
        let occupied = self.position.occupied();
        let mut enemy = occupied & !own;
        for &piece in self.rules.uncapturable() {
            enemy &= !self.position.typed(piece);
        }
        let moves = self.rules.moves_of(self.side, occupant.piece);
        let reach = targets(self.rules, moves, from, own, enemy, occupied) & enemy;
        let mut found: Vec<Action> = reach
            .squares()
            .map(|to| match &moves.promotion {
                Some(rule) if rule.zone.has(to) => Move {
                    kind: MoveKind::Promote(rule.choices[0]),
                    ..Move::normal(from, to)
                },
                _ => Move::normal(from, to),
            })
            .map(Action::Move)
            .collect();
        if let Some(ep) = self.position.en_passant() {
            let victim_ok = self
                .position
                .at(ep.victim)
                .is_some_and(|o| self.rules.is_enemy(self.side, o.side));
            if victim_ok && moves.en_passant[from].has(ep.target) {
                found.push(Action::Move(Move {
                    kind: MoveKind::EnPassant,
                    ..Move::normal(from, ep.target)
                }));
            }
        }
        found
    }

    /// `then PIECE slides LINES until on S`: the action as it is when the side's piece of that
    /// type stands on S after it; else the action followed by each slide of the piece along a
    /// line to the first square of S (judged after the slide). A slide cannot pass a piece: it
    /// stops at the edge, at the end of its range, at a piece of its team or one that cannot be
    /// taken (royal or `uncapturable`), or at an enemy piece it would not stand on S on; it may
    /// take the enemy piece where it ends. An action that cannot be written as edits (castling,
    /// a drop) is dropped.
    fn slides(
        &self,
        action: Action,
        piece: PieceId,
        lines: &[((i32, i32), Option<u8>)],
        until: &Set<B>,
    ) -> Vec<Action> {
        let after = action.after(self.rules, self.position);
        let sliders = after.side_pieces(self.side) & after.typed(piece);
        let mut found = Vec::new();
        for slider in sliders.squares() {
            if Judge::new(self.rules, &after, self.side)
                .set(until)
                .has(slider)
            {
                found.push(action);
                continue;
            }
            for &(line, range) in lines {
                if let Some(to) = self.slide_along(&after, slider, line, range, until) {
                    found.extend(self.then_slide(action, slider, to));
                }
            }
        }
        if sliders.is_empty() {
            found.push(action);
        }
        found
    }

    /// Where the piece on `from` stops on one line (see [`Run::slides`]), if it reaches S.
    fn slide_along(
        &self,
        after: &Position<B>,
        from: Sq,
        (df, dr): (i32, i32),
        range: Option<u8>,
        until: &Set<B>,
    ) -> Option<Sq> {
        let geometry = &self.rules.geometry();
        let (file, rank) = geometry.coords(from);
        let (mut f, mut r) = (file as i32, rank as i32);
        let mut steps = 0u32;
        loop {
            if range.is_some_and(|most| steps >= u32::from(most)) {
                return None;
            }
            steps += 1;
            f += df;
            r += dr;
            let square = geometry.index_of(f, r)?;
            let occupant = after.at(square);
            if let Some(o) = occupant {
                let untakable = self.rules.royal().contains(&o.piece)
                    || self.rules.uncapturable().contains(&o.piece);
                if !self.rules.is_enemy(self.side, o.side) || untakable {
                    return None;
                }
            }
            let mut slid = *after;
            slid.apply_edits(self.rules, &[Edit::Move { from, to: square }]);
            if Judge::new(self.rules, &slid, self.side)
                .set(until)
                .has(square)
            {
                return Some(square);
            }
            if occupant.is_some() {
                return None;
            }
        }
    }

    /// The action followed by the slide from `from` to `to`, as edits.
    fn then_slide(&self, action: Action, from: Sq, to: Sq) -> Option<Action> {
        let first = match action {
            Action::Move(mv) => move_edits(self.position, mv)?,
            Action::Edited(edited) => edited.edits,
        };
        let edits = first.then(Edit::Move { from, to })?;
        Some(Action::Edited(Edited {
            written: Written::Then {
                from: action.from().index() as u16,
                to: action.to().index() as u16,
                slide_from: u16::from(from.0),
                slide_to: u16::from(to.0),
            },
            edits,
        }))
    }

    /// `jump number N to file F rank R, lands when C, removed when C`: the jump of the piece on
    /// `from` to (file, rank), counted from 0. Onto its own square nothing happens; else it
    /// lands where `lands` holds (always without it) and is removed where `removed` holds
    /// (never without it), both being candidates when both hold; nothing happens when neither
    /// does. The conditions are judged on the jump as a move from its square to the target.
    fn jumps(
        &self,
        from: Sq,
        file: i64,
        rank: i64,
        lands: Option<&Cond<B>>,
        removed: Option<&Cond<B>>,
    ) -> Vec<Action> {
        let (Ok(file), Ok(rank)) = (i32::try_from(file), i32::try_from(rank)) else {
            return Vec::new();
        };
        let Some(to) = self.rules.geometry().index_of(file, rank) else {
            return Vec::new();
        };
        let jump = |edits: &[Edit]| {
            Action::Edited(Edited {
                written: Written::Jump {
                    from: u16::from(from.0),
                    to: u16::from(to.0),
                },
                edits: Edits::of(edits).expect("a jump is one edit"),
            })
        };
        if to == from {
            return vec![jump(&[])];
        }
        let probe = Action::Move(Move::normal(from, to));
        let lands = lands.is_none_or(|c| self.holds(c, &probe, 1));
        let removed = removed.is_some_and(|c| self.holds(c, &probe, 1));
        let mut found = Vec::new();
        if lands {
            found.push(jump(&[Edit::Move { from, to }]));
        }
        if removed {
            found.push(jump(&[Edit::Remove(from)]));
        }
        if found.is_empty() {
            found.push(jump(&[]));
        }
        found
    }

    /// The group an action is compared within.
    fn group(&self, action: &Action, per: Option<Grouping>) -> (i64, i64) {
        match per {
            None => (0, 0),
            Some(Grouping::Piece) => (action.from().index() as i64, 0),
            Some(Grouping::Direction) => {
                let (df, dr) = self.delta(action);
                let divisor = gcd(df.abs(), dr.abs()).max(1);
                (df / divisor, dr / divisor)
            }
        }
    }

    fn delta(&self, action: &Action) -> (i64, i64) {
        let (from_file, from_rank) = self.rules.geometry().coords(action.from());
        let (to_file, to_rank) = self.rules.geometry().coords(action.to());
        (
            to_file as i64 - from_file as i64,
            to_rank as i64 - from_rank as i64,
        )
    }

    fn victim(&self, action: &Action) -> Option<PieceId> {
        action
            .victim_square(self.rules, self.position)
            .and_then(|square| self.position.at(square))
            .map(|o| o.piece)
    }

    /// A compiled set of squares judged for the policy's side on `position`.
    fn squares(&self, set: &Set<B>, position: &Position<B>) -> B {
        Judge::new(self.rules, position, self.side).set(set)
    }

    fn holds(&self, condition: &Cond<B>, action: &Action, count: i64) -> bool {
        match condition {
            Cond::And(parts) => parts.iter().all(|c| self.holds(c, action, count)),
            Cond::Or(parts) => parts.iter().any(|c| self.holds(c, action, count)),
            Cond::Not(inner) => !self.holds(inner, action, count),
            Cond::Capture => self.victim(action).is_some(),
            Cond::CaptureOfChecker => {
                let Some(victim_square) = action.victim_square(self.rules, self.position) else {
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
            Cond::InCheck => self.position.in_check(self.rules, self.side),
            Cond::Legal => {
                let Some(mv) = action.as_move() else {
                    return false;
                };
                match &self.legal {
                    Some(legal) => legal.contains(&mv),
                    None => legal_moves(self.rules, self.position).contains(&mv),
                }
            }
            Cond::Moving(piece) => self
                .position
                .at(action.from())
                .is_some_and(|o| o.piece == *piece),
            Cond::From(set) => self.squares(set, self.position).has(action.from()),
            Cond::To(set) => self.squares(set, self.position).has(action.to()),
            Cond::LandsOn(set) => {
                let after = action.after(self.rules, self.position);
                self.squares(set, &after).has(action.to())
            }
            Cond::ThenAttacks(set) => {
                let after = action.after(self.rules, self.position);
                let Some(moved) = after.at(action.to()) else {
                    return false;
                };
                let attacked =
                    piece_control(self.rules, &after, moved.side, moved.piece, action.to());
                (attacked & self.squares(set, &after)).any()
            }
            Cond::Compare(left, comparison, right) => comparison.holds(
                self.number(*left, action, count),
                self.number(*right, action, count),
            ),
        }
    }

    fn number(&self, number: Num, action: &Action, count: i64) -> i64 {
        let value = |piece: PieceId| i64::from(self.rules.definition().pieces[piece.index()].value);
        match number {
            Num::Constant(n) => n,
            Num::Candidates => count,
            Num::MoverValue => self
                .position
                .at(action.from())
                .map_or(0, |o| value(o.piece)),
            Num::VictimValue => self.victim(action).map_or(0, value),
            Num::TargetValue => self.position.at(action.to()).map_or(0, |o| value(o.piece)),
            Num::Distance => {
                let (df, dr) = self.delta(action);
                df.abs().max(dr.abs())
            }
            Num::Attackers(reference) => {
                let after = action.after(self.rules, self.position);
                let sides = crate::expression::sides_of(self.rules, &after, self.side, reference);
                self.rules
                    .side_ids()
                    .filter(|&s| sides >> s.index() & 1 == 1)
                    .map(|s| attackers_by(self.rules, &after, action.to(), s))
                    .sum()
            }
            Num::Variable(slot) => self.numbers[slot],
        }
    }
}

/// The policy's own actions (made of edits, not moves) that it could take here with some dice:
/// every rule that slides or jumps is run with each value its numbers can take where they name
/// a piece, a file or a rank (a rolled number within its dice, a chosen one among the side's
/// numbers), its `where` conditions applied and its preferences left out. `play` and records
/// accept these; the ordinary moves are the legal moves.
pub fn possible_actions<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    policy: &Policy<B>,
) -> Vec<Action> {
    let mut dice = NoDice;
    let mut run = Run::new(rules, position, policy, &mut dice);
    let mut found = Vec::new();
    for item in &policy.items {
        let Item::Rule { steps, .. } = item else {
            continue;
        };
        let edits = steps
            .iter()
            .any(|step| matches!(step, Step::Slide { .. } | Step::Jump { .. }));
        if !edits {
            continue;
        }
        let choices = run.choices(policy, steps);
        let mut values: Vec<usize> = vec![0; choices.len()];
        'assignments: loop {
            for (&(slot, ref range), &index) in choices.iter().zip(&values) {
                run.numbers[slot] = range[index];
            }
            found.extend(run.possible(steps));
            // The next assignment, as an odometer.
            for (position, value) in values.iter_mut().enumerate() {
                *value += 1;
                if *value < choices[position].1.len() {
                    continue 'assignments;
                }
                *value = 0;
            }
            break;
        }
    }
    found.retain(|action| matches!(action, Action::Edited(_)));
    found.sort_by_key(|action| action.notation(rules));
    found.dedup();
    found
}

impl<B: Bitboard> Run<'_, B> {
    /// The numbers a rule's building steps read, each with the values worth trying: those of its
    /// dice (when rolled) within what its use allows (a piece's number, a file, a rank).
    fn choices(&self, policy: &Policy<B>, steps: &[Step<B>]) -> Vec<(Slot, Vec<i64>)> {
        let numbers: Vec<i64> = self
            .position
            .side_pieces(self.side)
            .squares()
            .filter_map(|square| self.position.number(self.rules, square))
            .map(i64::from)
            .collect();
        let files = 1..=self.rules.geometry().files as i64;
        let ranks = 1..=self.rules.geometry().ranks as i64;
        let mut uses: Vec<(Slot, Vec<i64>)> = Vec::new();
        let mut read = |slot: Slot, allowed: Vec<i64>| {
            let within: Vec<i64> = match policy.rolled[slot] {
                Some(dice) => {
                    let low = i64::from(dice.count) + i64::from(dice.offset);
                    let high =
                        i64::from(dice.count) * i64::from(dice.faces) + i64::from(dice.offset);
                    allowed
                        .into_iter()
                        .filter(|v| (low..=high).contains(v))
                        .collect()
                }
                None => allowed,
            };
            match uses.iter_mut().find(|(s, _)| *s == slot) {
                Some((_, values)) => values.retain(|v| within.contains(v)),
                None => uses.push((slot, within)),
            }
        };
        for step in steps {
            match step {
                Step::Moves(Some(slot)) | Step::Captures(slot) => read(*slot, numbers.clone()),
                Step::Jump {
                    number, file, rank, ..
                } => {
                    read(*number, numbers.clone());
                    read(*file, files.clone().collect());
                    read(*rank, ranks.clone().collect());
                }
                _ => {}
            }
        }
        uses
    }

    /// A rule's candidates with its numbers given: the building steps and the `where`
    /// conditions that read no number.
    fn possible(&mut self, steps: &[Step<B>]) -> Vec<Action> {
        let mut set = Vec::new();
        for step in steps {
            set = match step {
                Step::Roll { .. } | Step::Prefer(_) | Step::Best { .. } => continue,
                Step::Where(condition) if condition.reads_numbers() => continue,
                _ => self.step(step, set),
            };
            if set.is_empty() {
                break;
            }
        }
        set
    }
}

/// How many pieces of `side` attack `square`.
fn attackers_by<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    square: Sq,
    side: SideId,
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
