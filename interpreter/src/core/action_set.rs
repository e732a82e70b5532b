//! The legal actions of a position as the generator gives them, without a list: the target
//! squares of each moving piece and of each type dropped, as sets, and the other actions one
//! by one.
//!
//! A random playout needs how many legal actions there are and one of them. Listing them all
//! to take one costs more than generating them in a placement game (hundreds of drops per ply,
//! each written out as a move); the set counts each group once, with a population count, and
//! finds the n-th action by walking its groups. The order is the generator's, the order of the
//! list [`crate::movegen::legal_moves`] gives, so the n-th action of the set is the n-th of the
//! list.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, Sq};
use crate::core::tables::PromotionRule;
use crate::movegen::{promotion_moves, Sink};
use crate::moves::Move;

/// Actions of one kind, with their targets.
#[derive(Clone, Copy, Debug)]
enum Group<B> {
    /// Moves of the piece on `from` to each target, none promoting.
    Moves { from: Sq, targets: B },
    /// Drops of a piece type on each target.
    Drops { piece: PieceId, targets: B },
    /// One action.
    Single(Move),
}

/// The legal actions of a position, in generation order, grouped as generated. A loop that
/// visits many positions keeps one set and refills it (see
/// [`crate::outcome::status_into_set`]).
#[derive(Clone, Debug, Default)]
pub struct ActionSet<B> {
    /// The groups, each with how many actions it holds.
    groups: Vec<(Group<B>, u32)>,
    len: usize,
    /// The squares of the drops among the actions.
    drop_squares: B,
}

impl<B: Bitboard> ActionSet<B> {
    /// An empty set.
    pub fn new() -> Self {
        ActionSet {
            groups: Vec::new(),
            len: 0,
            drop_squares: B::EMPTY,
        }
    }

    /// Empties the set, keeping its room.
    pub fn clear(&mut self) {
        self.groups.clear();
        self.len = 0;
        self.drop_squares = B::EMPTY;
    }

    /// How many actions the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set holds no action.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The squares of the drops among the actions.
    #[inline]
    pub fn drop_squares(&self) -> B {
        self.drop_squares
    }

    /// The action at `index` in generation order; `None` past the end.
    pub fn get(&self, index: usize) -> Option<Move> {
        let mut index = index;
        for &(group, count) in &self.groups {
            let count = count as usize;
            if index >= count {
                index -= count;
                continue;
            }
            return Some(match group {
                Group::Moves { from, targets } => Move::normal(from, nth_square(targets, index)),
                Group::Drops { piece, targets } => Move::drop(piece, nth_square(targets, index)),
                Group::Single(mv) => mv,
            });
        }
        None
    }

    /// The actions in generation order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.groups.iter().flat_map(|&(group, count)| {
            (0..count as usize).map(move |n| match group {
                Group::Moves { from, targets } => Move::normal(from, nth_square(targets, n)),
                Group::Drops { piece, targets } => Move::drop(piece, nth_square(targets, n)),
                Group::Single(mv) => mv,
            })
        })
    }

    #[inline]
    fn push(&mut self, group: Group<B>, count: u32) {
        self.groups.push((group, count));
        self.len += count as usize;
    }
}

/// The `n`-th lowest square of `squares` (which holds more than `n`).
#[inline]
fn nth_square<B: Bitboard>(squares: B, n: usize) -> Sq {
    let mut rest = squares;
    for _ in 0..n {
        rest = rest.without_lowest();
    }
    rest.lowest()
}

impl<B: Bitboard> Sink<B> for ActionSet<B> {
    #[inline]
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>) {
        if targets.is_empty() {
            return;
        }
        match promotion.filter(|rule| rule.promoting(from, targets).any()) {
            None => self.push(Group::Moves { from, targets }, targets.count()),
            // Promotions are few: one by one, as the list has them.
            Some(rule) => promotion_moves(from, targets, rule, |mv| self.single(mv)),
        }
    }

    #[inline]
    fn single(&mut self, mv: Move) {
        if matches!(mv.kind, crate::moves::MoveKind::Drop(_)) {
            self.drop_squares |= B::single(mv.to);
        }
        self.push(Group::Single(mv), 1);
    }

    #[inline]
    fn drops(&mut self, piece: PieceId, targets: B) {
        if targets.is_empty() {
            return;
        }
        self.drop_squares |= targets;
        self.push(Group::Drops { piece, targets }, targets.count());
    }
}
