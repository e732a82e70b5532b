//! Compiled expressions: the drop rules, scores and end conditions of a game file, turned into
//! bitboard operations when the game loads.
//!
//! The language's expressions ([`variant_dsl::expression`]) are compiled once into the
//! [`Set`], [`Num`], [`Fld`] and [`Cond`] trees below: zones become bitboards per side, piece
//! and side names become indices. A [`Judge`] evaluates them on one position for one side,
//! computing each control map at most once.
//!
//! A drop rule is judged for all squares at once: [`Judge::drop_mask`] gives, for one piece type,
//! the bitboard of squares where a condition holds, so a drop generation costs a few bitboard
//! operations per piece type in hand instead of one rule evaluation per (piece, square) pair.
//!
//! `leave an action` (a drop may not leave the next side without a legal action) would play
//! every candidate. [`reply_certain`] proves, once per position, that every candidate leaves a
//! reply, by judging the next side's drop rules over intervals: for each set, a lower and an
//! upper bound that hold whatever drop the mover makes. When two or more squares are certainly
//! open to the next side, no candidate can take them all, and the lookahead is skipped.
//!
//! Move generation judges these trees through [`crate::plan`], which folds the parts that read
//! no square once per scalar state and compiles the rest into register programs; the trees stay the
//! reference (explanations, end conditions, scores, and the plans' own tests).

use crate::bitboard::Bitboard;
use crate::core::index::{pieces, sides, ByPiece, BySide, PieceId, SideId, Sq};
use crate::domain::{Domain, Settles};
// The IR's types keep their paths (`crate::expression::Set`, ...): the files above name them so.
use crate::moves::{Move, MoveKind};
use crate::position::Position;
pub(crate) use crate::rules::ir::OTHER_PIECE;
pub use crate::rules::ir::{
    compile_set, AfterRule, AfterTest, Compiled, Cond, DropRule, EndCheck, Fld, Num, Set,
};
use crate::rules::Rules;
use variant_dsl::expression::{Comparison, SideRef};

/// The sides a reference names, judged for `side`, as a bit mask.
#[inline]
pub fn sides_of<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    side: SideId,
    reference: SideRef,
) -> u32 {
    let all = (1u32 << rules.sides()) - 1;
    match reference {
        SideRef::Own => 1 << side.0,
        SideRef::Opponents => all & !u32::from(rules.allies(side)),
        SideRef::Team => u32::from(rules.allies(side)),
        SideRef::Any => all,
        SideRef::Next => 1 << next_side(rules, position, side).0,
        SideRef::Side(id) => 1 << id.0,
    }
}

/// The side that moves after `side`: after the side to move, the next in the turn order; for
/// another side, the one after its first turn in the order.
pub fn next_side<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, side: SideId) -> SideId {
    let order = &rules.definition().turn_order;
    // In play the side to move's place in the turn order is known; in a placement phase (and for
    // other sides) `next` is the side after the judged one in `turns`.
    let at = if position.side_to_move(rules) == side && position.phase().is_none() {
        position.turn_index()
    } else {
        order.iter().position(|&s| s == side).unwrap_or(0)
    };
    order[(at + 1) % order.len()]
}

/// The sides of a mask (a bit per side), lowest first.
fn each_side(mask: u32) -> impl Iterator<Item = SideId> {
    each_bit(mask).map(SideId::new)
}

/// The piece types of a mask (a bit per type), lowest first.
fn each_piece(mask: u32) -> impl Iterator<Item = PieceId> {
    each_bit(mask).map(PieceId::new)
}

/// The bits set in a mask, lowest first.
fn each_bit(mask: u32) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bit
        })
    })
}

/// Evaluates compiled expressions on one position, for one side.
pub struct Judge<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    position: &'a Position<B>,
    side: SideId,
    /// The legal actions of the side to move, for end conditions.
    actions: Option<&'a [Move]>,
    /// The squares of the drops among them, where the generation gave them.
    drop_squares: Option<B>,
    /// Whether the side to move has a legal action, where the generation told.
    can_act: Option<bool>,
    control: BySide<Option<B>>,
}

impl<'a, B: Bitboard> Judge<'a, B> {
    /// A judge for `side` on `position`.
    pub fn new(rules: &'a Rules<B>, position: &'a Position<B>, side: SideId) -> Self {
        Judge {
            rules,
            position,
            side,
            actions: None,
            drop_squares: None,
            can_act: None,
            control: BySide::splat(None),
        }
    }

    /// The same, knowing the legal actions of the side to move.
    pub fn with_actions(mut self, actions: &'a [Move]) -> Self {
        self.actions = Some(actions);
        self
    }

    /// The same, knowing the squares of the drops among the legal actions (`legal drops`).
    pub fn with_drop_squares(mut self, squares: B) -> Self {
        self.drop_squares = Some(squares);
        self
    }

    /// The same, knowing whether the side to move has a legal action (`can act`).
    pub fn with_can_act(mut self, can_act: bool) -> Self {
        self.can_act = Some(can_act);
        self
    }

    /// The rules judged by.
    #[inline]
    pub fn rules(&self) -> &'a Rules<B> {
        self.rules
    }

    /// The position judged.
    #[inline]
    pub fn position(&self) -> &'a Position<B> {
        self.position
    }

    /// Judges for `side` from now on, on the same position: the control maps computed so far
    /// stay valid (they are per side, not per judged side).
    pub fn judge_for(&mut self, side: SideId) {
        self.side = side;
    }

    fn sides(&self, reference: SideRef) -> u32 {
        sides_of(self.rules, self.position, self.side, reference)
    }

    fn control_of(&mut self, side: SideId) -> B {
        if let Some(control) = self.control[side] {
            return control;
        }
        let control = crate::control::side_control(self.rules, self.position, side);
        self.control[side] = Some(control);
        control
    }

    /// The set of squares.
    #[inline]
    pub fn set(&mut self, set: &Set<B>) -> B {
        crate::domain::set(self, set)
    }

    /// The number.
    #[inline]
    pub fn number(&mut self, number: &Num<B>) -> i64 {
        crate::domain::number(self, number)
    }

    /// A field added up over `squares`. A sum is linear in its field, and the sum of a
    /// count of controlling pieces is, piece by piece, how many of the squares each controls:
    /// no field is built.
    fn field_sum(&mut self, field: &Fld, squares: B) -> i64 {
        match field {
            Fld::Constant(value) => value.saturating_mul(i64::from(squares.count())),
            Fld::Controllers(_) | Fld::ControlValue(_) => {
                let mut total = 0i64;
                self.each_control(field, |weight, control| {
                    total += weight * i64::from((control & squares).count());
                });
                total
            }
            Fld::PieceValue => (squares & self.position.occupied())
                .squares()
                .filter_map(|square| self.position.at(square))
                .map(|occupant| {
                    i64::from(self.rules.definition().pieces[occupant.piece.index()].value)
                })
                .sum(),
            Fld::Plus(a, b) => self
                .field_sum(a, squares)
                .saturating_add(self.field_sum(b, squares)),
            Fld::Minus(a, b) => self
                .field_sum(a, squares)
                .saturating_sub(self.field_sum(b, squares)),
        }
    }

    /// For a count of controlling pieces (`controllers of`, `control value of`), each
    /// controlling piece's weight (1, or its value) and the squares it controls.
    fn each_control(&self, field: &Fld, mut visit: impl FnMut(i64, B)) {
        let (Fld::Controllers(reference) | Fld::ControlValue(reference)) = field else {
            return;
        };
        let by_value = matches!(field, Fld::ControlValue(_));
        for side in each_side(self.sides(*reference)) {
            crate::control::each_control(self.rules, self.position, side, |_, piece, control| {
                let weight = if by_value {
                    self.rules.definition().pieces[piece.index()].value as i64
                } else {
                    1
                };
                visit(weight, control);
            });
        }
    }

    /// The field, one number per square of the grid.
    pub fn field(&mut self, field: &Fld) -> Vec<i64> {
        let size = self.rules.geometry().grid_size();
        match field {
            Fld::Constant(value) => vec![*value; size],
            Fld::Controllers(_) | Fld::ControlValue(_) => {
                let mut values = vec![0i64; size];
                self.each_control(field, |weight, control| {
                    for square in control.squares() {
                        values[square.index()] += weight;
                    }
                });
                values
            }
            Fld::PieceValue => (0..size)
                .map(Sq::new)
                .map(|square| {
                    self.position.at(square).map_or(0, |occupant| {
                        i64::from(self.rules.definition().pieces[occupant.piece.index()].value)
                    })
                })
                .collect(),
            Fld::Plus(a, b) | Fld::Minus(a, b) => {
                let plus = matches!(field, Fld::Plus(..));
                let (a, b) = (self.field(a), self.field(b));
                a.iter()
                    .zip(&b)
                    .map(|(x, y)| if plus { x + y } else { x - y })
                    .collect()
            }
        }
    }

    /// Whether the condition holds (a condition that does not speak of a drop).
    #[inline]
    pub fn holds(&mut self, condition: &Cond<B>) -> bool {
        crate::domain::holds(self, condition)
    }

    /// The squares where the condition holds for a drop of `piece` there.
    #[inline]
    pub fn drop_mask(&mut self, condition: &Cond<B>, piece: PieceId) -> B {
        crate::domain::drop_mask(self, condition, piece)
    }

    /// The squares from which a piece of type `piece` moving from there meets the condition.
    #[inline]
    pub fn move_mask(&mut self, condition: &Cond<B>, piece: PieceId) -> B {
        crate::domain::move_mask(self, condition, piece)
    }
}

/// The concrete domain: every term's value on the judged position, for the judged side.
impl<B: Bitboard> Domain<B> for Judge<'_, B> {
    type Squares = B;
    type Number = i64;
    type Truth = bool;

    #[inline]
    fn empty(&mut self) -> B {
        self.rules.geometry().board & !self.position.occupied()
    }
    #[inline]
    fn occupied(&mut self) -> B {
        self.position.occupied()
    }
    #[inline]
    fn fixed(&mut self, squares: B) -> B {
        squares
    }
    #[inline]
    fn zone(&mut self, per_side: &BySide<B>) -> B {
        per_side[self.side]
    }
    #[inline]
    fn pieces(&mut self, sides: SideRef, piece: Option<PieceId>) -> B {
        let mut squares = B::EMPTY;
        for side in each_side(self.sides(sides)) {
            squares |= self.position.side_pieces(side);
        }
        match piece {
            Some(piece) => squares & self.position.typed(piece),
            None => squares,
        }
    }
    fn controlled_by(&mut self, sides: SideRef) -> B {
        let mut squares = B::EMPTY;
        for side in each_side(self.sides(sides)) {
            squares |= self.control_of(side);
        }
        squares
    }
    fn attacked_among(&mut self, sides: SideRef, among: B) -> B {
        let sides = self.sides(sides);
        let occupied = self.position.occupied();
        let mut squares = B::EMPTY;
        for square in among.squares() {
            if each_side(sides).any(|side| {
                self.position
                    .attacked_by(self.rules, square, side, occupied)
            }) {
                squares |= B::single(square);
            }
        }
        squares
    }
    fn attacked_by(&mut self, sides: SideRef) -> B {
        let board = self.rules.geometry().board;
        self.attacked_among(sides, board)
    }
    #[inline]
    fn last_drop(&mut self, sides: SideRef) -> B {
        let mut squares = B::EMPTY;
        for side in each_side(self.sides(sides)) {
            if let Some((_, square)) = self.position.last_drop(side) {
                squares |= B::single(square);
            }
        }
        squares
    }
    fn legal_drops(&mut self) -> B {
        match (self.drop_squares, self.actions) {
            (Some(squares), _) => squares,
            (None, Some(actions)) => drop_targets(actions),
            (None, None) => {
                let actions = (self.rules.legal.moves)(self.rules, self.position);
                drop_targets(&actions)
            }
        }
    }
    #[inline]
    fn acted(&mut self) -> B {
        self.position.progress().acted
    }
    fn compare_fields(&mut self, a: &Fld, op: Comparison, b: &Fld) -> B {
        let (a, b) = (self.field(a), self.field(b));
        let mut squares = B::EMPTY;
        for square in self.rules.geometry().board.squares() {
            if op.holds(a[square.index()], b[square.index()]) {
                squares |= B::single(square);
            }
        }
        squares
    }
    fn reach(&mut self, from: &Set<B>, index: usize) -> B {
        let from = crate::domain::set(self, from);
        reach_squares(self.rules, index, self.side, from, self.position.occupied())
    }
    #[inline]
    fn adjacent(&mut self, inner: B) -> B {
        around(self.rules, inner)
    }
    #[inline]
    fn colour_of(&mut self, inner: B) -> B {
        colour_of(self.rules, inner)
    }
    #[inline]
    fn file_of(&mut self, inner: B) -> B {
        file_of(self.rules, inner)
    }
    #[inline]
    fn intersection(&mut self, a: B, b: B) -> B {
        a & b
    }
    #[inline]
    fn union(&mut self, a: B, b: B) -> B {
        a | b
    }
    #[inline]
    fn difference(&mut self, a: B, b: B) -> B {
        a & !b
    }
    #[inline]
    fn complement(&mut self, a: B) -> B {
        self.rules.geometry().board & !a
    }
    #[inline]
    fn nothing(&self, squares: B) -> bool {
        squares.is_empty()
    }
    #[inline]
    fn everything(&self, squares: B) -> bool {
        squares == self.rules.geometry().board
    }

    #[inline]
    fn constant(&mut self, value: i64) -> i64 {
        value
    }
    #[inline]
    fn placement(&mut self) -> i64 {
        i64::from(placement(self.rules, self.position, self.side))
    }
    #[inline]
    fn count(&mut self, squares: B) -> i64 {
        i64::from(squares.count())
    }
    #[inline]
    fn hand(&mut self, sides: SideRef, piece: Option<PieceId>) -> i64 {
        each_side(self.sides(sides))
            .map(|side| match piece {
                Some(piece) => i64::from(self.position.hand(side, piece)),
                None => i64::from(self.position.hand_total(side)),
            })
            .sum()
    }
    #[inline]
    fn counter(&mut self, sides: SideRef, counter: usize) -> i64 {
        each_side(self.sides(sides))
            .map(|side| i64::from(self.position.counter(counter, side)))
            .sum()
    }
    #[inline]
    fn actions_this_turn(&mut self) -> i64 {
        i64::from(self.position.progress().actions)
    }
    #[inline]
    fn drops_this_turn(&mut self) -> i64 {
        i64::from(self.position.progress().drops)
    }
    fn sum(&mut self, field: &Fld, squares: B) -> i64 {
        self.field_sum(field, squares)
    }
    #[inline]
    fn plus(&mut self, a: i64, b: i64) -> i64 {
        a.saturating_add(b)
    }
    #[inline]
    fn minus(&mut self, a: i64, b: i64) -> i64 {
        a.saturating_sub(b)
    }

    #[inline]
    fn truth(&mut self, holds: bool) -> bool {
        holds
    }
    #[inline]
    fn leave_action(&mut self) -> bool {
        true
    }
    #[inline]
    fn at_turn_start(&mut self, index: usize) -> bool {
        self.position.progress().start >> index & 1 != 0
    }
    fn can_act(&mut self) -> bool {
        match (self.can_act, self.actions) {
            (Some(can_act), _) => can_act,
            (None, Some(actions)) => !actions.is_empty(),
            (None, None) => (self.rules.legal.any)(self.rules, self.position),
        }
    }
    fn can_act_without_promoting(&mut self) -> bool {
        let not_promoting = |mv: &Move| !matches!(mv.kind, MoveKind::Promote(_));
        match self.actions {
            Some(actions) => actions.iter().any(not_promoting),
            // Known to act, or not told: the actions are generated (the condition's other terms,
            // judged first, keep this rare).
            None if self.can_act == Some(false) => false,
            None => (self.rules.legal.moves)(self.rules, self.position)
                .iter()
                .any(not_promoting),
        }
    }
    #[inline]
    fn compare(&mut self, a: i64, op: Comparison, b: i64) -> bool {
        op.holds(a, b)
    }
    #[inline]
    fn some(&mut self, squares: B) -> bool {
        squares.any()
    }
    #[inline]
    fn hands_empty(&mut self) -> bool {
        sides(self.rules.sides()).all(|side| self.position.hand_total(side) == 0)
    }
    #[inline]
    fn passed(&mut self, sides: SideRef) -> bool {
        each_side(self.sides(sides)).any(|side| self.position.passed(side))
    }
    fn placed(&mut self, sides: SideRef, piece: PieceId) -> bool {
        each_side(self.sides(sides)).any(|side| {
            self.position
                .last_drop(side)
                .is_some_and(|(p, _)| p == piece)
        })
    }
    #[inline]
    fn both(&mut self, a: bool, b: bool) -> bool {
        a && b
    }
    #[inline]
    fn either(&mut self, a: bool, b: bool) -> bool {
        a || b
    }
    #[inline]
    fn negation(&mut self, a: bool) -> bool {
        !a
    }
    #[inline]
    fn never(&self, truth: bool) -> bool {
        !truth
    }
    #[inline]
    fn always(&self, truth: bool) -> bool {
        truth
    }
    #[inline]
    fn everywhere(&mut self, truth: bool) -> B {
        if truth {
            self.rules.geometry().board
        } else {
            B::EMPTY
        }
    }
}

/// Concrete values are settled.
impl<B: Bitboard> Settles<B> for Judge<'_, B> {
    #[inline]
    fn settled_squares(squares: B) -> Option<B> {
        Some(squares)
    }
    #[inline]
    fn settled_number(number: i64) -> Option<i64> {
        Some(number)
    }
    #[inline]
    fn settled_truth(truth: bool) -> Option<bool> {
        Some(truth)
    }
}

/// Per piece type, the squares from which the side to move may move a piece of that type
/// under the move rules; every square when the game has none.
pub fn movable_squares<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
) -> crate::core::index::ByPiece<B> {
    let board = rules.geometry().board;
    let mut movable = crate::core::index::ByPiece::splat(board);
    if rules.expressions.moves.is_empty() {
        return movable;
    }
    let side = position.side_to_move(rules);
    let mut judge = Judge::new(rules, position, side);
    for rule in &rules.expressions.moves {
        if rule.side.is_some_and(|s| s != side) {
            continue;
        }
        // The squares a piece of this type may move from under this rule: computed once for
        // the types the rule does not name, and once for each type it names.
        let mut allowed_for = |piece: PieceId| {
            let applies = judge.move_mask(&rule.condition, piece);
            if applies.is_empty() {
                board
            } else {
                !applies | judge.move_mask(&rule.requirement, piece)
            }
        };
        let others = allowed_for(OTHER_PIECE);
        for piece in pieces(rules.pieces()) {
            movable[piece] &= if rule.named.contains(&piece) {
                allowed_for(piece)
            } else {
                others
            };
        }
    }
    movable
}

/// The squares a piece of type `piece` may move from under the move rules `list` (a promotion
/// in place's block), for the judged side: where every rule that binds it and applies is met.
pub(crate) fn allowed_from<B: Bitboard>(
    judge: &mut Judge<'_, B>,
    list: &[DropRule<B>],
    piece: PieceId,
) -> B {
    let board = judge.rules.geometry().board;
    let mut allowed = board;
    for rule in list {
        if rule.side.is_some_and(|s| s != judge.side) {
            continue;
        }
        let named = if rule.named.contains(&piece) {
            piece
        } else {
            OTHER_PIECE
        };
        let applies = judge.move_mask(&rule.condition, named);
        if applies.any() {
            allowed &= !applies | judge.move_mask(&rule.requirement, named);
        }
    }
    allowed
}

/// The move rules that bind the side to move moving `piece` from `from`, in source order, each
/// with whether the move meets it (for explanations).
pub fn binding_move_rules<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    piece: PieceId,
    from: Sq,
) -> Vec<(usize, bool)> {
    let side = position.side_to_move(rules);
    let mut judge = Judge::new(rules, position, side);
    let mut binding = Vec::new();
    for (index, rule) in rules.expressions.moves.iter().enumerate() {
        if rule.side.is_some_and(|s| s != side) {
            continue;
        }
        if judge.move_mask(&rule.condition, piece).has(from) {
            binding.push((index, judge.move_mask(&rule.requirement, piece).has(from)));
        }
    }
    binding
}

/// The `at turn start` conditions for the side to move, one bit each.
pub fn turn_start_bits<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> u32 {
    let conditions = &rules.expressions.turn_start;
    if conditions.is_empty() {
        return 0;
    }
    let side = position.side_to_move(rules);
    let mut judge = Judge::new(rules, position, side);
    conditions
        .iter()
        .enumerate()
        .filter(|(_, condition)| judge.holds(condition))
        .fold(0, |bits, (index, _)| bits | 1 << index)
}

fn drop_targets<B: Bitboard>(actions: &[Move]) -> B {
    actions
        .iter()
        .filter(|mv| matches!(mv.kind, MoveKind::Drop(_)))
        .fold(B::EMPTY, |acc, mv| acc | B::single(mv.to))
}

/// The squares the reach rule `index` of `side` attacks from `from` on a board occupied as
/// `occupied` (`reach of (FROM) by "BETZA"`): every piece stops a line and may be captured,
/// nothing is the mover's own.
pub(crate) fn reach_squares<B: Bitboard>(
    rules: &Rules<B>,
    index: usize,
    side: SideId,
    from: B,
    occupied: B,
) -> B {
    let moves = &rules.reach[index][side];
    let mut squares = B::EMPTY;
    for square in from.squares() {
        squares |= crate::core::tables::targets(rules, moves, square, B::EMPTY, occupied, occupied);
    }
    squares & rules.geometry().board
}

/// The squares next to some square of `squares`.
#[inline(always)]
pub(crate) fn around<B: Bitboard>(rules: &Rules<B>, squares: B) -> B {
    if squares == rules.geometry().board {
        return rules.around_board();
    }
    // Two squares at most (`count` is slower than this on a CPU without `popcnt`).
    if squares.without_lowest().without_lowest().is_empty() {
        return squares
            .squares()
            .fold(B::EMPTY, |acc, square| acc | rules.neighbours()[square]);
    }
    // Many squares: the board shifted by each step (a square's index moves by the same amount
    // along a step, from the squares where the step stays on the board).
    let (up, down) = rules.neighbour_steps().split_at(4);
    let mut around = B::EMPTY;
    for &(from, distance) in up {
        around |= (squares & from).up(distance);
    }
    for &(from, distance) in down {
        around |= (squares & from).down(distance);
    }
    around
}

/// `file of S`: every board square of a file that one of these squares is on.
pub(crate) fn file_of<B: Bitboard>(rules: &Rules<B>, squares: B) -> B {
    let geometry = &rules.geometry();
    let mut files = 0u64;
    for square in squares.squares() {
        files |= 1 << geometry.coords(square).0;
    }
    let mut result = B::EMPTY;
    while files != 0 {
        let file = files.trailing_zeros() as usize;
        files &= files - 1;
        for rank in 0..geometry.ranks {
            result |= B::single(Sq::new(rank * geometry.files + file));
        }
    }
    result & geometry.board
}

pub(crate) fn colour_of<B: Bitboard>(rules: &Rules<B>, squares: B) -> B {
    let board = rules.geometry().board;
    let light = board & rules.geometry().light;
    let mut colours = B::EMPTY;
    if (squares & light).any() {
        colours |= light;
    }
    if (squares & !light).any() {
        colours |= board & !light;
    }
    colours
}

/// The number of `side`'s next drop, 1 for its first: drops made so far are counted against the
/// setup's hand.
#[inline]
pub fn placement<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, side: SideId) -> u32 {
    rules.setup_hand[side]
        .saturating_sub(position.hand_total(side))
        .saturating_add(1)
}

/// The squares where the side to move may drop `piece` under every drop rule except the
/// lookahead, and (separately) those where a lookahead rule binds; with `lookahead_wanted`
/// false the lookahead rules are not judged at all (the second set is then empty).
///
/// One type at a time, for generators that stop at the first move (the lookahead's reply
/// test); [`drop_squares_of`] judges every type at once. Written as a call of that one, this
/// cost Cheversi playouts 10% more instructions (measured), so both stay.
pub fn drop_squares<B: Bitboard>(
    judge: &mut Judge<'_, B>,
    piece: PieceId,
    lookahead_wanted: bool,
) -> (B, B) {
    let rules = judge.rules;
    let mut allowed = rules.geometry().board & !judge.position.occupied();
    let mut lookahead = B::EMPTY;
    for rule in rules.expressions.drop_rules(judge.position.phase()) {
        if rule.side.is_some_and(|side| side != judge.side) || (rule.lookahead && !lookahead_wanted)
        {
            continue;
        }
        let applies = judge.drop_mask(&rule.condition, piece) & allowed;
        if applies.is_empty() {
            continue;
        }
        if rule.lookahead {
            lookahead |= applies;
            continue;
        }
        allowed &= !applies | judge.drop_mask(&rule.requirement, piece);
        if allowed.is_empty() {
            break;
        }
    }
    (allowed, lookahead & allowed)
}

/// [`drop_squares`] for every piece type in `pieces` (a bit per type) at once, into `allowed`
/// and `lookahead` (indexed by type; other entries untouched).
///
/// Rules outside, piece types inside: a condition or requirement that names no piece type
/// (`placement = 1`, `touch occupied`) is judged once for all types, one that names a type
/// (`place King`) once per type.
pub fn drop_squares_of<B: Bitboard>(
    judge: &mut Judge<'_, B>,
    pieces: u32,
    lookahead_wanted: bool,
    allowed: &mut ByPiece<B>,
    lookahead: &mut ByPiece<B>,
) {
    let rules = judge.rules;
    let empty = rules.geometry().board & !judge.position.occupied();
    for piece in each_piece(pieces) {
        allowed[piece] = empty;
        lookahead[piece] = B::EMPTY;
    }
    let mut live = pieces;
    for rule in rules.expressions.drop_rules(judge.position.phase()) {
        if rule.side.is_some_and(|side| side != judge.side) || (rule.lookahead && !lookahead_wanted)
        {
            continue;
        }
        let shared_condition =
            (!rule.condition_named).then(|| judge.drop_mask(&rule.condition, OTHER_PIECE));
        if shared_condition.is_some_and(|applies| applies.is_empty()) {
            continue;
        }
        let mut shared_requirement = None;
        for piece in each_piece(live) {
            let applies = match shared_condition {
                Some(applies) => applies,
                None => judge.drop_mask(&rule.condition, piece),
            } & allowed[piece];
            if applies.is_empty() {
                continue;
            }
            if rule.lookahead {
                lookahead[piece] |= applies;
                continue;
            }
            let required = if rule.requirement_named {
                judge.drop_mask(&rule.requirement, piece)
            } else if let Some(required) = shared_requirement {
                required
            } else {
                let required = judge.drop_mask(&rule.requirement, OTHER_PIECE);
                shared_requirement = Some(required);
                required
            };
            allowed[piece] &= !applies | required;
            if allowed[piece].is_empty() {
                live &= !(1 << piece.0);
            }
        }
        if live == 0 {
            break;
        }
    }
    for piece in each_piece(pieces) {
        lookahead[piece] &= allowed[piece];
    }
}

/// The drop rules that bind the side to move dropping `piece` on `to`, in source order, each
/// with whether the drop satisfies it (for explanations; generation uses the same masks).
pub fn binding_rules<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    piece: PieceId,
    to: Sq,
) -> Vec<(usize, bool)> {
    let side = position.side_to_move(rules);
    let mut judge = Judge::new(rules, position, side);
    let mut binding = Vec::new();
    for (index, rule) in rules
        .expressions
        .drop_rules(position.phase())
        .iter()
        .enumerate()
    {
        if rule.side.is_some_and(|s| s != side) || rule.lookahead {
            continue;
        }
        if judge.drop_mask(&rule.condition, piece).has(to) {
            binding.push((index, judge.drop_mask(&rule.requirement, piece).has(to)));
        }
    }
    binding
}

// ---------------------------------------------------------------------------------------------
// Bounds: the lookahead proved unnecessary once per position
// ---------------------------------------------------------------------------------------------

/// Whether, whatever drop the side to move makes, the next side will have a legal drop.
///
/// The next side's drop rules are judged over bounds that hold for every possible drop of the
/// mover: one more piece of the mover on some empty square, its hand one piece smaller, its last
/// action that drop. A set's lower bound holds for every such drop; when the next side's
/// certainly allowed squares number two or more, the mover's drop can occupy one of them at
/// most, so a reply exists. `false` means "not proved", and the lookahead is tested drop by
/// drop. Never used with the `check` rule (a drop could then be refused for exposing a king).
pub fn reply_certain<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let drops = rules.geometry().board & !position.occupied();
    reply_certain_after(rules, position, drops)
}

/// Whether, whatever drop the side to move makes on one of the squares `drops`, the next side
/// will have a legal drop: [`reply_certain`] for drops known to be on those squares (on one
/// square: a proof for that square, whatever the type dropped).
pub fn reply_certain_after<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    drops: B,
) -> bool {
    reply_side(rules, position).is_some_and(|next| reply_certain_for(rules, position, next, drops))
}

/// Whether the next side's certainly allowed squares `open` leave it a square whatever drop
/// the mover makes on `drops`: that drop occupies one square of `drops` at most.
#[inline]
pub(crate) fn open_after<B: Bitboard>(open: B, drops: B) -> bool {
    open.without_lowest().any() || (open.any() && (open & drops).is_empty())
}

/// The next side, whose reply [`reply_certain`] proves, or `None` where the proof does not apply:
/// with the `check` rule, turns of several actions, placement phases, a side that moves
/// again, or pieces whose landing converts the pieces around (a drop then changes more than
/// its square).
pub(crate) fn reply_side<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<SideId> {
    if rules.definition().end.check
        || rules.multi_action()
        || rules.converts_around() != 0
        || position.phase().is_some()
    {
        return None;
    }
    let mover = position.side_to_move(rules);
    let next = next_side(rules, position, mover);
    (next != mover).then_some(next)
}

/// [`reply_certain_after`] for the next side `next` ([`reply_side`]).
fn reply_certain_for<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    next: SideId,
    drops: B,
) -> bool {
    let mut bounds = Bounds::after(rules, position, next, drops);
    let empty = rules.geometry().board & !position.occupied();
    let mut open = B::EMPTY;
    // A rule's bounds that name no piece type are the same for every type: judged once.
    let mut shared_possibly = [None; SHARED_RULES];
    let mut shared_certainly = [None; SHARED_RULES];
    for piece in pieces(rules.pieces()) {
        if position.hand(next, piece) == 0 {
            continue;
        }
        let mut allowed = empty;
        for (index, rule) in rules.expressions.drops.iter().enumerate() {
            if rule.lookahead || rule.side.is_some_and(|side| side != next) {
                continue;
            }
            let possibly = if rule.condition_named || index >= SHARED_RULES {
                bounds.drop_mask(&rule.condition, piece).1
            } else {
                *shared_possibly[index]
                    .get_or_insert_with(|| bounds.drop_mask(&rule.condition, OTHER_PIECE).1)
            };
            if (possibly & allowed).is_empty() {
                continue;
            }
            let certainly = if rule.requirement_named || index >= SHARED_RULES {
                bounds.drop_mask(&rule.requirement, piece).0
            } else {
                *shared_certainly[index]
                    .get_or_insert_with(|| bounds.drop_mask(&rule.requirement, OTHER_PIECE).0)
            };
            allowed &= !possibly | certainly;
            if allowed.is_empty() {
                break;
            }
        }
        open |= allowed;
        if open_after(open, drops) {
            return true;
        }
    }
    false
}

/// `squares` when it is one square, else empty.
#[inline]
pub(crate) fn known_square<B: Bitboard>(squares: B) -> B {
    if squares.any() && squares.without_lowest().is_empty() {
        squares
    } else {
        B::EMPTY
    }
}

/// How many drop rules [`reply_certain`] remembers the shared bounds of (later rules are judged
/// per piece type).
const SHARED_RULES: usize = 32;

/// Interval evaluation for [`reply_certain`]: every value is a pair (lower, upper) bounding it
/// over all drops the mover could make.
pub(crate) struct Bounds<'a, B: Bitboard> {
    rules: &'a Rules<B>,
    position: &'a Position<B>,
    /// The side judged for (the next side).
    side: SideId,
    /// The side whose unknown drop comes first.
    mover: SideId,
    /// The squares the unknown drop may be on (empty squares).
    drops: B,
    /// `drops` when it is one square (the drop's square is known), else empty.
    known: B,
}

impl<'a, B: Bitboard> Bounds<'a, B> {
    /// Bounds for `side`'s drops after the side to move's unknown drop.
    pub(crate) fn new(rules: &'a Rules<B>, position: &'a Position<B>, side: SideId) -> Self {
        let drops = rules.geometry().board & !position.occupied();
        Self::after(rules, position, side, drops)
    }

    /// Bounds for `side`'s drops after the side to move's drop on one of the empty squares
    /// `drops`.
    pub(crate) fn after(
        rules: &'a Rules<B>,
        position: &'a Position<B>,
        side: SideId,
        drops: B,
    ) -> Self {
        Bounds {
            rules,
            position,
            side,
            mover: position.side_to_move(rules),
            drops,
            known: known_square(drops),
        }
    }

    fn sides(&self, reference: SideRef) -> u32 {
        sides_of(self.rules, self.position, self.side, reference)
    }

    /// Whether a reference names the mover.
    pub(crate) fn includes_mover(&self, reference: SideRef) -> bool {
        self.sides(reference) & (1 << self.mover.0) != 0
    }

    /// (certainly, possibly) as squares, for a drop of `piece` by the judged side.
    pub(crate) fn drop_mask(&mut self, condition: &Cond<B>, piece: PieceId) -> (B, B) {
        crate::domain::drop_mask(self, condition, piece)
    }

    /// Bounds of what no bound is known of: anything.
    fn unknown(&self) -> (B, B) {
        (B::EMPTY, self.rules.geometry().board)
    }
}

/// The interval domain: each value is a pair (lower, upper) bounding it over every drop the
/// mover could make on one of `drops`; a truth is (certainly, possibly).
impl<B: Bitboard> Domain<B> for Bounds<'_, B> {
    type Squares = (B, B);
    type Number = (i64, i64);
    type Truth = (bool, bool);

    fn empty(&mut self) -> (B, B) {
        let empty = self.rules.geometry().board & !self.position.occupied();
        (empty & !self.drops, empty & !self.known)
    }
    fn occupied(&mut self) -> (B, B) {
        let occupied = self.position.occupied();
        (occupied | self.known, occupied | self.drops)
    }
    fn fixed(&mut self, squares: B) -> (B, B) {
        (squares, squares)
    }
    fn zone(&mut self, per_side: &BySide<B>) -> (B, B) {
        (per_side[self.side], per_side[self.side])
    }
    fn pieces(&mut self, reference: SideRef, piece: Option<PieceId>) -> (B, B) {
        let position = self.position;
        let mut squares = B::EMPTY;
        for side in each_side(self.sides(reference)) {
            squares |= position.side_pieces(side);
        }
        if let Some(piece) = piece {
            squares &= position.typed(piece);
        }
        let grows = self.includes_mover(reference)
            && piece.is_none_or(|p| position.hand(self.mover, p) > 0);
        (squares, if grows { squares | self.drops } else { squares })
    }
    // Control, attacks, legal drops, acted pieces, fields: unknown after the drop.
    fn controlled_by(&mut self, _: SideRef) -> (B, B) {
        self.unknown()
    }
    fn attacked_among(&mut self, sides: SideRef, among: (B, B)) -> (B, B) {
        let attacked = self.attacked_by(sides);
        self.intersection(among, attacked)
    }
    fn attacked_by(&mut self, _: SideRef) -> (B, B) {
        self.unknown()
    }
    // A line of sight opens or closes with the drop.
    fn reach(&mut self, _: &Set<B>, _: usize) -> (B, B) {
        self.unknown()
    }
    fn last_drop(&mut self, reference: SideRef) -> (B, B) {
        let mut squares = B::EMPTY;
        for side in each_side(self.sides(reference)) {
            if side == self.mover {
                continue;
            }
            if let Some((_, square)) = self.position.last_drop(side) {
                squares |= B::single(square);
            }
        }
        if self.includes_mover(reference) {
            (squares | self.known, squares | self.drops)
        } else {
            (squares, squares)
        }
    }
    fn legal_drops(&mut self) -> (B, B) {
        self.unknown()
    }
    fn acted(&mut self) -> (B, B) {
        self.unknown()
    }
    fn compare_fields(&mut self, _: &Fld, _: Comparison, _: &Fld) -> (B, B) {
        self.unknown()
    }
    fn adjacent(&mut self, (low, high): (B, B)) -> (B, B) {
        (around(self.rules, low), around(self.rules, high))
    }
    fn colour_of(&mut self, (low, high): (B, B)) -> (B, B) {
        (colour_of(self.rules, low), colour_of(self.rules, high))
    }
    fn file_of(&mut self, (low, high): (B, B)) -> (B, B) {
        (file_of(self.rules, low), file_of(self.rules, high))
    }
    fn intersection(&mut self, a: (B, B), b: (B, B)) -> (B, B) {
        (a.0 & b.0, a.1 & b.1)
    }
    fn union(&mut self, a: (B, B), b: (B, B)) -> (B, B) {
        (a.0 | b.0, a.1 | b.1)
    }
    fn difference(&mut self, a: (B, B), b: (B, B)) -> (B, B) {
        (a.0 & !b.1, a.1 & !b.0)
    }
    fn complement(&mut self, a: (B, B)) -> (B, B) {
        let board = self.rules.geometry().board;
        (board & !a.1, board & !a.0)
    }
    fn nothing(&self, (low, high): (B, B)) -> bool {
        low.is_empty() && high.is_empty()
    }
    fn everything(&self, _: (B, B)) -> bool {
        // Never claimed: a union is computed whole.
        false
    }

    fn constant(&mut self, value: i64) -> (i64, i64) {
        (value, value)
    }
    fn placement(&mut self) -> (i64, i64) {
        let value = i64::from(placement(self.rules, self.position, self.side));
        (value, value)
    }
    fn count(&mut self, (low, high): (B, B)) -> (i64, i64) {
        (i64::from(low.count()), i64::from(high.count()))
    }
    fn hand(&mut self, reference: SideRef, piece: Option<PieceId>) -> (i64, i64) {
        let mut total = 0i64;
        for side in each_side(self.sides(reference)) {
            total += match piece {
                Some(piece) => i64::from(self.position.hand(side, piece)),
                None => i64::from(self.position.hand_total(side)),
            };
        }
        let shrinks = self.includes_mover(reference)
            && piece.is_none_or(|p| self.position.hand(self.mover, p) > 0);
        let exact_total = piece.is_none() && self.includes_mover(reference);
        if exact_total {
            (total - 1, total - 1)
        } else if shrinks {
            (total - 1, total)
        } else {
            (total, total)
        }
    }
    fn counter(&mut self, _: SideRef, _: usize) -> (i64, i64) {
        // An action may change the counters: nothing is certain of them after it.
        UNKNOWN_NUMBER
    }
    fn actions_this_turn(&mut self) -> (i64, i64) {
        UNKNOWN_NUMBER
    }
    fn drops_this_turn(&mut self) -> (i64, i64) {
        UNKNOWN_NUMBER
    }
    fn sum(&mut self, _: &Fld, _: (B, B)) -> (i64, i64) {
        UNKNOWN_NUMBER
    }
    fn plus(&mut self, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
        (a.0.saturating_add(b.0), a.1.saturating_add(b.1))
    }
    fn minus(&mut self, a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
        (a.0.saturating_sub(b.1), a.1.saturating_sub(b.0))
    }

    fn truth(&mut self, holds: bool) -> (bool, bool) {
        (holds, holds)
    }
    fn leave_action(&mut self) -> (bool, bool) {
        (true, true)
    }
    fn at_turn_start(&mut self, _: usize) -> (bool, bool) {
        (false, true)
    }
    fn can_act(&mut self) -> (bool, bool) {
        (false, true)
    }
    fn can_act_without_promoting(&mut self) -> (bool, bool) {
        (false, true)
    }
    fn compare(&mut self, a: (i64, i64), op: Comparison, b: (i64, i64)) -> (bool, bool) {
        compare_bounds(a, op, b)
    }
    fn some(&mut self, (low, high): (B, B)) -> (bool, bool) {
        (low.any(), high.any())
    }
    fn hands_empty(&mut self) -> (bool, bool) {
        let empty = sides(self.rules.sides()).all(|side| {
            let held = self.position.hand_total(side);
            if side == self.mover {
                held <= 1
            } else {
                held == 0
            }
        });
        (empty, empty)
    }
    fn passed(&mut self, reference: SideRef) -> (bool, bool) {
        // After the mover's drop, the mover has not passed; the others are as they were.
        let others = each_side(self.sides(reference))
            .filter(|&side| side != self.mover)
            .any(|side| self.position.passed(side));
        (others, others)
    }
    fn placed(&mut self, reference: SideRef, piece: PieceId) -> (bool, bool) {
        let others = each_side(self.sides(reference))
            .filter(|&side| side != self.mover)
            .any(|side| {
                self.position
                    .last_drop(side)
                    .is_some_and(|(p, _)| p == piece)
            });
        if !self.includes_mover(reference) {
            return (others, others);
        }
        let held = self.position.hand(self.mover, piece);
        let only = held > 0 && u32::from(held) == self.position.hand_total(self.mover);
        (others || only, others || held > 0)
    }
    fn both(&mut self, a: (bool, bool), b: (bool, bool)) -> (bool, bool) {
        (a.0 && b.0, a.1 && b.1)
    }
    fn either(&mut self, a: (bool, bool), b: (bool, bool)) -> (bool, bool) {
        (a.0 || b.0, a.1 || b.1)
    }
    fn negation(&mut self, a: (bool, bool)) -> (bool, bool) {
        (!a.1, !a.0)
    }
    fn never(&self, truth: (bool, bool)) -> bool {
        truth == (false, false)
    }
    fn always(&self, truth: (bool, bool)) -> bool {
        truth == (true, true)
    }
    fn everywhere(&mut self, (certainly, possibly): (bool, bool)) -> (B, B) {
        let board = self.rules.geometry().board;
        let all = |holds: bool| if holds { board } else { B::EMPTY };
        (all(certainly), all(possibly))
    }
}

/// Bounds settle a value where the lower and upper bounds meet.
impl<B: Bitboard> Settles<B> for Bounds<'_, B> {
    fn settled_squares((low, high): (B, B)) -> Option<B> {
        (low == high).then_some(low)
    }
    fn settled_number((low, high): (i64, i64)) -> Option<i64> {
        (low == high).then_some(low)
    }
    fn settled_truth((certainly, possibly): (bool, bool)) -> Option<bool> {
        (certainly == possibly).then_some(certainly)
    }
}

/// The bounds of a number no bound is known of.
const UNKNOWN_NUMBER: (i64, i64) = (i64::MIN / 4, i64::MAX / 4);

/// (certainly, possibly) for `a OP b` with a and b within bounds.
fn compare_bounds(a: (i64, i64), op: Comparison, b: (i64, i64)) -> (bool, bool) {
    let ((a0, a1), (b0, b1)) = (a, b);
    match op {
        Comparison::Less => (a1 < b0, a0 < b1),
        Comparison::LessOrEqual => (a1 <= b0, a0 <= b1),
        Comparison::Greater => (a0 > b1, a1 > b0),
        Comparison::GreaterOrEqual => (a0 >= b1, a1 >= b0),
        Comparison::Equal => (a0 == a1 && b0 == b1 && a0 == b0, a0 <= b1 && b0 <= a1),
        Comparison::NotEqual => (a1 < b0 || b1 < a0, !(a0 == a1 && b0 == b1 && a0 == b0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `around` (by shifts for many squares) against the union of the per-square neighbour
    /// table, on random sets of boards of each width, one with holes.
    fn around_agrees_with_the_neighbour_table<B: Bitboard>(board: &str, placement: &str) {
        let loaded = variant_dsl::load_source("around", &around_source(board, placement))
            .unwrap_or_else(|failure| panic!("{}", failure.render()));
        let rules = Rules::<B>::compile(&loaded.definition).expect("compiles");
        let grid = rules.geometry().grid_size();
        let mut seed = 7u64;
        for _ in 0..300 {
            let mut squares = B::EMPTY;
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let how_many = (seed >> 40) as usize % 12;
            for _ in 0..how_many {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                squares |= B::single(Sq::new((seed >> 33) as usize % grid));
            }
            squares &= rules.geometry().board;
            let expected = squares
                .squares()
                .fold(B::EMPTY, |acc, square| acc | rules.neighbours()[square]);
            assert_eq!(around(&rules, squares), expected, "{board}: {squares:?}");
        }
    }

    fn around_source(board: &str, placement: &str) -> String {
        format!(
            "game \"Around\"\nboard {board}\nside white {{ forward up }}\nside black {{ forward down }}\n\
             turns white black\npiece King {{ letter K; moves \"K\" }}\n\
             setup \"{placement} w - - 0 1\"\n"
        )
    }

    #[test]
    fn neighbours_of_many_squares_are_the_table_s() {
        around_agrees_with_the_neighbour_table::<u64>("8x8", "8/8/8/8/8/8/8/8");
        around_agrees_with_the_neighbour_table::<u64>(
            "7x7 { holes a1 a2 g1 g2 a6 a7 g6 g7 }",
            "*5*/*5*/7/7/7/*5*/*5*",
        );
        around_agrees_with_the_neighbour_table::<u128>("11x10", &["11"; 10].join("/"));
        around_agrees_with_the_neighbour_table::<crate::bitboard::Wide256>(
            "16x15",
            &["16"; 15].join("/"),
        );
    }

    #[test]
    fn comparison_bounds_are_sound() {
        let ops = [
            Comparison::Equal,
            Comparison::NotEqual,
            Comparison::Less,
            Comparison::LessOrEqual,
            Comparison::Greater,
            Comparison::GreaterOrEqual,
        ];
        for op in ops {
            for a0 in 0..4 {
                for a1 in a0..4 {
                    for b0 in 0..4 {
                        for b1 in b0..4 {
                            let (certainly, possibly) = compare_bounds((a0, a1), op, (b0, b1));
                            let outcomes: Vec<bool> = (a0..=a1)
                                .flat_map(|a| (b0..=b1).map(move |b| op.holds(a, b)))
                                .collect();
                            assert_eq!(certainly, outcomes.iter().all(|&x| x), "{op:?}");
                            assert_eq!(possibly, outcomes.iter().any(|&x| x), "{op:?}");
                        }
                    }
                }
            }
        }
    }
}
