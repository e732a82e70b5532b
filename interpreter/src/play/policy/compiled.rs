//! A policy compiled when the game loads: names of rolled and chosen numbers become slots,
//! sets of squares are compiled once to bitboard expressions, slide lines become board steps
//! for the policy's side.
//!
//! Why: a decision used to walk the raw definition, look numbers up by name and compile each
//! set again; now [`decide`](super::decide) runs over these tables only.

use crate::bitboard::Bitboard;
use crate::core::index::{BySide, PieceId, SideId};
use crate::expression::{compile_set, Set};
use crate::rules::Rules;
use variant_dsl::{
    ActionCondition, ActionNumber, Comparison, Dice, Forward, Grouping, PolicyDef, PolicyItem,
    PolicyStep, SideRef,
};

/// The slot of a number rolled or chosen (its name in the file, compiled).
pub(super) type Slot = usize;

/// Every side's compiled policy, by side.
#[derive(Clone, Debug)]
pub struct Policies<B: Bitboard> {
    by_side: BySide<Option<Policy<B>>>,
}

impl<B: Bitboard> Policies<B> {
    /// Compiles the policies of the game's definition.
    pub fn compile(rules: &Rules<B>) -> Self {
        let mut by_side: BySide<Option<Policy<B>>> = BySide::default();
        for def in &rules.definition().policies {
            if def.side.index() < rules.sides() {
                by_side[def.side] = Some(Policy::compile(rules, def));
            }
        }
        Policies { by_side }
    }

    /// The policy of a side, if it has one.
    pub fn of(&self, side: SideId) -> Option<&Policy<B>> {
        self.by_side[side].as_ref()
    }

    /// Whether any side has a policy.
    pub fn any(&self) -> bool {
        self.by_side.iter().any(Option::is_some)
    }
}

/// One side's policy.
#[derive(Clone, Debug)]
pub struct Policy<B: Bitboard> {
    /// The items, in order.
    pub(super) items: Vec<Item<B>>,
    /// How many slots the numbers take.
    pub(super) slots: usize,
    /// Per slot, the dice it is rolled with, if it is rolled.
    pub(super) rolled: Vec<Option<Dice>>,
}

/// A policy item.
#[derive(Clone, Debug)]
pub(super) enum Item<B: Bitboard> {
    Roll {
        dice: Dice,
        slot: Slot,
        /// Who needs the die, for messages.
        owner: String,
    },
    Nearest {
        slot: Slot,
        to: Slot,
        except: Slot,
        lower_when_odd: bool,
    },
    Rule {
        label: String,
        steps: Vec<Step<B>>,
    },
}

/// A rule's step.
#[derive(Clone, Debug)]
pub(super) enum Step<B: Bitboard> {
    Moves(Option<Slot>),
    Captures(Slot),
    Where(Cond<B>),
    Prefer(Vec<Cond<B>>),
    Best {
        highest: bool,
        measure: Num,
        per: Option<Grouping>,
    },
    Roll {
        dice: Dice,
        slot: Slot,
    },
    Slide {
        piece: PieceId,
        /// Board steps (files, ranks) for the policy's side, each with its most steps.
        lines: Vec<((i32, i32), Option<u8>)>,
        until: Set<B>,
    },
    Jump {
        number: Slot,
        file: Slot,
        rank: Slot,
        lands: Option<Cond<B>>,
        removed: Option<Cond<B>>,
    },
}

/// A condition on a candidate action.
#[derive(Clone, Debug)]
pub(super) enum Cond<B: Bitboard> {
    And(Vec<Cond<B>>),
    Or(Vec<Cond<B>>),
    Not(Box<Cond<B>>),
    Capture,
    CaptureOfChecker,
    InCheck,
    Legal,
    Moving(PieceId),
    From(Set<B>),
    To(Set<B>),
    LandsOn(Set<B>),
    ThenAttacks(Set<B>),
    Compare(Num, Comparison, Num),
}

/// A number about a candidate action.
#[derive(Clone, Copy, Debug)]
pub(super) enum Num {
    Constant(i64),
    Candidates,
    MoverValue,
    VictimValue,
    TargetValue,
    Distance,
    Attackers(SideRef),
    Variable(Slot),
}

impl<B: Bitboard> Cond<B> {
    /// Whether the condition reads a rolled or chosen number.
    pub(super) fn reads_numbers(&self) -> bool {
        match self {
            Cond::And(parts) | Cond::Or(parts) => parts.iter().any(Cond::reads_numbers),
            Cond::Not(inner) => inner.reads_numbers(),
            Cond::Compare(left, _, right) => {
                matches!(left, Num::Variable(_)) || matches!(right, Num::Variable(_))
            }
            _ => false,
        }
    }
}

impl<B: Bitboard> Policy<B> {
    fn compile(rules: &Rules<B>, def: &PolicyDef) -> Self {
        let mut compiler = Compiler {
            rules,
            side: def.side,
            names: Vec::new(),
            rolled: Vec::new(),
        };
        let items = def.items.iter().map(|item| compiler.item(item)).collect();
        Policy {
            items,
            slots: compiler.names.len(),
            rolled: compiler.rolled,
        }
    }
}

/// Names to slots, and what the compiler needs of the game.
struct Compiler<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    side: SideId,
    names: Vec<String>,
    rolled: Vec<Option<Dice>>,
}

impl<B: Bitboard> Compiler<'_, B> {
    /// The slot of a name; a name never given reads 0.
    fn slot(&mut self, name: &str) -> Slot {
        match self.names.iter().position(|n| n == name) {
            Some(slot) => slot,
            None => {
                self.names.push(name.to_string());
                self.rolled.push(None);
                self.names.len() - 1
            }
        }
    }

    fn rolled_slot(&mut self, name: &str, dice: Dice) -> Slot {
        let slot = self.slot(name);
        self.rolled[slot] = Some(dice);
        slot
    }

    fn item(&mut self, item: &PolicyItem) -> Item<B> {
        match item {
            PolicyItem::Roll { dice, name, rule } => Item::Roll {
                dice: *dice,
                slot: self.rolled_slot(name, *dice),
                owner: rule.clone().unwrap_or_else(|| format!("rolling `{name}`")),
            },
            PolicyItem::Nearest {
                name,
                to,
                except,
                lower_when_odd,
            } => Item::Nearest {
                to: self.slot(to),
                except: self.slot(except),
                slot: self.slot(name),
                lower_when_odd: *lower_when_odd,
            },
            PolicyItem::Rule { label, steps } => Item::Rule {
                label: label.clone(),
                steps: steps.iter().map(|step| self.step(step)).collect(),
            },
        }
    }

    fn step(&mut self, step: &PolicyStep) -> Step<B> {
        match step {
            PolicyStep::Moves(number) => Step::Moves(number.as_deref().map(|n| self.slot(n))),
            PolicyStep::Captures(number) => Step::Captures(self.slot(number)),
            PolicyStep::Where(condition) => Step::Where(self.cond(condition)),
            PolicyStep::Prefer(groups) => {
                Step::Prefer(groups.iter().map(|group| self.cond(group)).collect())
            }
            PolicyStep::Best {
                highest,
                measure,
                per,
            } => Step::Best {
                highest: *highest,
                measure: self.num(measure),
                per: *per,
            },
            PolicyStep::Roll { dice, name } => Step::Roll {
                dice: *dice,
                slot: self.rolled_slot(name, *dice),
            },
            PolicyStep::Slide {
                piece,
                lines,
                until,
            } => {
                let down =
                    self.rules.definition().sides[self.side.index()].forward == Forward::Down;
                Step::Slide {
                    piece: *piece,
                    lines: lines
                        .iter()
                        .map(|line| {
                            let (right, ahead) =
                                (i32::from(line.step.right), i32::from(line.step.forward));
                            ((right, if down { -ahead } else { ahead }), line.range)
                        })
                        .collect(),
                    until: compile_set(self.rules.geometry(), until),
                }
            }
            PolicyStep::Jump {
                number,
                file,
                rank,
                lands,
                removed,
            } => Step::Jump {
                number: self.slot(number),
                file: self.slot(file),
                rank: self.slot(rank),
                lands: lands.as_ref().map(|c| self.cond(c)),
                removed: removed.as_ref().map(|c| self.cond(c)),
            },
        }
    }

    fn cond(&mut self, condition: &ActionCondition) -> Cond<B> {
        let rules = self.rules;
        let set = |set| compile_set(rules.geometry(), set);
        match condition {
            ActionCondition::And(parts) => Cond::And(parts.iter().map(|c| self.cond(c)).collect()),
            ActionCondition::Or(parts) => Cond::Or(parts.iter().map(|c| self.cond(c)).collect()),
            ActionCondition::Not(inner) => Cond::Not(Box::new(self.cond(inner))),
            ActionCondition::Capture => Cond::Capture,
            ActionCondition::CaptureOfChecker => Cond::CaptureOfChecker,
            ActionCondition::InCheck => Cond::InCheck,
            ActionCondition::Legal => Cond::Legal,
            ActionCondition::Moving(piece) => Cond::Moving(*piece),
            ActionCondition::From(squares) => Cond::From(set(squares)),
            ActionCondition::To(squares) => Cond::To(set(squares)),
            ActionCondition::LandsOn(squares) => Cond::LandsOn(set(squares)),
            ActionCondition::ThenAttacks(squares) => Cond::ThenAttacks(set(squares)),
            ActionCondition::Compare(left, comparison, right) => {
                Cond::Compare(self.num(left), *comparison, self.num(right))
            }
        }
    }

    fn num(&mut self, number: &ActionNumber) -> Num {
        match number {
            ActionNumber::Constant(n) => Num::Constant(*n),
            ActionNumber::Candidates => Num::Candidates,
            ActionNumber::MoverValue => Num::MoverValue,
            ActionNumber::VictimValue => Num::VictimValue,
            ActionNumber::TargetValue => Num::TargetValue,
            ActionNumber::Distance => Num::Distance,
            ActionNumber::Attackers(side) => Num::Attackers(*side),
            ActionNumber::Variable(name) => Num::Variable(self.slot(name)),
        }
    }
}
