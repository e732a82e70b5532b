//! Legal move generation, table-driven and flat.
//!
//! For each piece of the side to move, the generator ORs together the target sets of its leap
//! tables, lame leaps and rides into one bitboard and hands it to a [`Sink`] with its origin: a
//! counting sink just counts bits (perft's bulk counting), a collecting sink expands them into
//! [`Move`]s. Legality under the `check` rule is decided without playing the move whenever that
//! is exact: a piece that is not pinned, while the king is not in check, cannot expose it; a king
//! step is legal when its target is not attacked. Everything else (evasions, pinned pieces,
//! en passant, several royal pieces) is played on a copy and tested.

use crate::bitboard::Bitboard;
use crate::expression::{drop_squares, drop_squares_of, reply_certain_after, Judge};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::{PieceMoves, PromotionRule, Rules};
use variant_dsl::{MoveMode, PieceId};

/// Receives generated moves.
pub trait Sink<B: Bitboard> {
    /// Legal moves of one piece from `from` to each of `targets`, promoting where the rule says.
    fn batch(&mut self, from: usize, targets: B, promotion: Option<&PromotionRule<B>>);
    /// One legal special move.
    fn single(&mut self, mv: Move);
    /// Legal drops of `piece` on each of `targets`.
    fn drops(&mut self, piece: usize, targets: B) {
        for to in targets.squares() {
            self.single(Move::drop(piece, to));
        }
    }
    /// Whether the sink has seen enough: generation may stop early.
    fn satisfied(&self) -> bool {
        false
    }
    /// Whether one move is enough: drops are then judged one piece type at a time, stopping at
    /// the first that has a square, instead of every type at once.
    const ONE_IS_ENOUGH: bool = false;
    /// The plan of the position's scalar state, where the caller has looked it up already
    /// (`Some`, holding what [`crate::plan::plan`] gave): drop generation then takes it rather
    /// than look it up again. Given by [`WithPlan`]; taken once.
    fn known_plan(&mut self) -> KnownPlan<B> {
        None
    }
}

/// A plan looked up already, or not (see [`Sink::known_plan`]).
pub type KnownPlan<B> = Option<Option<std::rc::Rc<crate::plan::Plan<B>>>>;

/// A sink with the plan of the position to generate from (a separate type, so that the
/// generation of every other sink, a moving game's included, is compiled as it was).
struct WithPlan<'a, B: Bitboard, S> {
    sink: &'a mut S,
    plan: KnownPlan<B>,
}

impl<'a, B: Bitboard, S: Sink<B>> WithPlan<'a, B, S> {
    fn new(sink: &'a mut S, plan: KnownPlan<B>) -> Self {
        WithPlan { sink, plan }
    }
}

impl<B: Bitboard, S: Sink<B>> Sink<B> for WithPlan<'_, B, S> {
    #[inline]
    fn batch(&mut self, from: usize, targets: B, promotion: Option<&PromotionRule<B>>) {
        self.sink.batch(from, targets, promotion);
    }
    #[inline]
    fn single(&mut self, mv: Move) {
        self.sink.single(mv);
    }
    #[inline]
    fn drops(&mut self, piece: usize, targets: B) {
        self.sink.drops(piece, targets);
    }
    #[inline]
    fn satisfied(&self) -> bool {
        self.sink.satisfied()
    }
    const ONE_IS_ENOUGH: bool = S::ONE_IS_ENOUGH;
    #[inline]
    fn known_plan(&mut self) -> KnownPlan<B> {
        self.plan.take()
    }
}

/// Records whether any legal move exists, and stops generation at the first.
#[derive(Default)]
pub struct Exists(pub bool);

impl<B: Bitboard> Sink<B> for Exists {
    #[inline]
    fn batch(&mut self, _from: usize, targets: B, _promotion: Option<&PromotionRule<B>>) {
        self.0 |= targets.any();
    }
    #[inline]
    fn single(&mut self, _mv: Move) {
        self.0 = true;
    }
    #[inline]
    fn drops(&mut self, _piece: usize, targets: B) {
        self.0 |= targets.any();
    }
    #[inline]
    fn satisfied(&self) -> bool {
        self.0
    }
    const ONE_IS_ENOUGH: bool = true;
}

/// Counts moves without building them.
pub struct Counter<B> {
    /// The moves counted.
    pub count: u64,
    /// The last drop squares counted, and how many they were: types that share their squares
    /// (most, in a placement game) come one after the other, and are counted once.
    last_drops: (B, u64),
}

impl<B: Bitboard> Default for Counter<B> {
    fn default() -> Self {
        Counter {
            count: 0,
            last_drops: (B::EMPTY, 0),
        }
    }
}

impl<B: Bitboard> Sink<B> for Counter<B> {
    #[inline]
    fn batch(&mut self, _from: usize, targets: B, promotion: Option<&PromotionRule<B>>) {
        match promotion {
            None => self.count += targets.count() as u64,
            Some(rule) => {
                let promoting = targets & rule.zone;
                self.count += (targets ^ promoting).count() as u64
                    + promoting.count() as u64 * rule.choices.len() as u64;
            }
        }
    }
    #[inline]
    fn single(&mut self, _mv: Move) {
        self.count += 1;
    }
    #[inline]
    fn drops(&mut self, _piece: usize, targets: B) {
        if targets != self.last_drops.0 {
            self.last_drops = (targets, targets.count() as u64);
        }
        self.count += self.last_drops.1;
    }
}

/// Collects moves into a vector, and the squares of the drops among them (what an end rule
/// reading `legal drops` asks, without going through the list).
#[derive(Default)]
pub struct Collector<B> {
    /// The moves, in generation order.
    pub moves: Vec<Move>,
    /// The squares of the drops among them.
    pub drop_squares: B,
}

impl<B: Bitboard> Sink<B> for Collector<B> {
    fn batch(&mut self, from: usize, targets: B, promotion: Option<&PromotionRule<B>>) {
        let promoting = promotion.filter(|rule| (rule.zone & targets).any());
        let Some(rule) = promoting else {
            // No promotion: one move per target, written as the drops are.
            let mut rest = targets;
            self.moves.extend((0..targets.count()).map(|_| {
                let to = rest.lowest();
                rest = rest.without_lowest();
                Move::normal(from, to)
            }));
            return;
        };
        promotion_moves(from, targets, rule, |mv| self.moves.push(mv));
    }
    fn single(&mut self, mv: Move) {
        if matches!(mv.kind, MoveKind::Drop(_)) {
            self.drop_squares |= B::single(usize::from(mv.to));
        }
        self.moves.push(mv);
    }
    fn drops(&mut self, piece: usize, targets: B) {
        self.drop_squares |= targets;
        // A placement game's drops outnumber a typical move list: written through a range of
        // known length, the list grows once and checks no capacity per move.
        let mut rest = targets;
        self.moves.extend((0..targets.count()).map(|_| {
            let square = rest.lowest();
            rest = rest.without_lowest();
            Move::drop(piece, square)
        }));
    }
}

/// The moves of the piece on `from` to each of `targets` under a promotion rule, in order: a
/// move per choice where the rule's zone holds the target, a plain move elsewhere.
pub(crate) fn promotion_moves<B: Bitboard>(
    from: usize,
    targets: B,
    rule: &PromotionRule<B>,
    mut emit: impl FnMut(Move),
) {
    for to in targets.squares() {
        if rule.zone.has(to) {
            for &choice in &rule.choices {
                emit(Move {
                    from: from as u16,
                    to: to as u16,
                    kind: MoveKind::Promote(choice),
                    converts: None,
                });
            }
        } else {
            emit(Move::normal(from, to));
        }
    }
}

/// All legal moves.
pub fn legal_moves<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let mut moves = Vec::new();
    legal_moves_into(rules, position, &mut moves);
    moves
}

/// All legal moves, into `moves` (cleared first): a loop that generates at every ply can keep
/// one list instead of allocating one per ply. Returns the squares of the drops among them.
pub fn legal_moves_into<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    moves: &mut Vec<Move>,
) -> B {
    moves.clear();
    // Room for a typical position's moves at once, instead of growing the vector step by step,
    // within a kilobyte: allocators serve small blocks from a per-thread cache (glibc's up to
    // 1032 bytes), several times faster than larger ones.
    if moves.capacity() == 0 {
        moves.reserve_exact(1024 / std::mem::size_of::<Move>().max(1));
    }
    let mut collector = Collector {
        moves: std::mem::take(moves),
        drop_squares: B::EMPTY,
    };
    generate(rules, position, &mut collector);
    *moves = collector.moves;
    collector.drop_squares
}

/// The number of legal moves.
pub fn count_legal<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> u64 {
    let mut counter = Counter::default();
    generate(rules, position, &mut counter);
    counter.count
}

/// The number of legal moves, or zero where an end rule that reads no action has ended the
/// game ([`crate::outcome::ends_before_actions`]; `history`: the hashes of the positions
/// before, for repetition): perft's last ply. The plan of the position's scalar state, where
/// drops may be generated from one, is looked up once for both questions: it settles the end
/// conditions that read no square ([`crate::plan::Plan::ends`]).
#[inline]
pub fn count_legal_unless_ended<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
) -> u64 {
    count_legal_unless_ended_with(rules, position, history, None).0
}

/// [`count_legal_unless_ended`] given the plan of the position's scalar state where the caller
/// knows it (`known`: what an earlier call returned for a position of the same plan key, see
/// [`crate::plan::same_key_after`]); returns the count and the plan it used (for the next
/// such call).
#[inline(always)]
pub fn count_legal_unless_ended_with<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    history: &[u64],
    known: KnownPlan<B>,
) -> (u64, KnownPlan<B>) {
    let us = position.side_to_move(rules);
    let plan = known.or_else(|| {
        (rules.plan_key.active && position.hand_total(us) > 0)
            .then(|| crate::plan::plan(rules, position, us))
    });
    let settled = plan.as_ref().and_then(|plan| plan.as_ref()?.ends());
    if crate::outcome::ends_before_actions_settled(rules, position, history, settled) {
        return (0, plan);
    }
    if let Some(Some(found)) = &plan {
        if drops_alone(rules, position) {
            let mut judge = Judge::new(rules, position, us);
            let pieces = position.held_types(us);
            if let Some(count) = found.count_drops(&mut judge, pieces, rules.lookahead_pruning) {
                return (count, plan);
            }
        }
    }
    let mut counter = Counter::default();
    generate(
        rules,
        position,
        &mut WithPlan::new(&mut counter, plan.clone()),
    );
    (counter.count, plan)
}

/// Whether the legal actions of `position` are its drops alone, each judged by the drop rules
/// alone: a single action per turn, no pass, no move in this phase, no king to keep safe.
#[inline]
fn drops_alone<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let definition = &rules.definition;
    let moves_now = definition.actions.moves && position.phase().is_none();
    let other_actions = moves_now || rules.multi_action || definition.turn.pass;
    definition.actions.drops && !other_actions && !definition.end.check
}

/// What the legality test needs to know about the side to move.
struct Safety<B> {
    /// Legality matters at all (`check` rule).
    enforced: bool,
    /// The side to move is in check.
    in_check: bool,
    /// Pieces pinned against the king (only meaningful with a single king, not in check).
    pinned: B,
    /// Whether the fast path is exact.
    fast: bool,
}

/// Generates every legal move of the side to move into `sink`.
pub fn generate<B: Bitboard, S: Sink<B>>(rules: &Rules<B>, position: &Position<B>, sink: &mut S) {
    if rules.multi_action && position.phase().is_none() {
        for mv in crate::turn::legal_actions(rules, position) {
            sink.single(mv);
        }
        return;
    }
    if rules.definition.turn.pass {
        // Generated once: the actions, or `pass` when there is none and no end rule judges a
        // side without actions (`checkmate`, `stalemate`).
        let actions = single_actions(rules, position);
        if actions.is_empty() && crate::turn::passes(rules, position) {
            sink.single(Move::pass());
        }
        for mv in actions {
            sink.single(mv);
        }
        return;
    }
    generate_actions(rules, position, sink, true);
}

/// The actions each legal on its own (the turn's other rules, such as `maximal`, not applied):
/// what a turn of several actions is built from.
pub(crate) fn single_actions<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Move> {
    let mut collector = Collector {
        moves: Vec::with_capacity(64),
        drop_squares: B::EMPTY,
    };
    generate_actions(rules, position, &mut collector, true);
    collector.moves
}

/// Generates the legal actions; `lookahead` applies the drop rules' lookahead (off when the
/// lookahead itself asks whether a reply exists).
fn generate_actions<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    sink: &mut S,
    lookahead: bool,
) {
    let us = position.side_to_move(rules);
    let own = position.side_pieces(us);
    let occupied = position.occupied();
    let safety = safety(rules, position, us, occupied);
    let in_phase = position.phase().is_some();
    if rules.multi_action && position.progress().actions >= rules.definition.turn.actions {
        return;
    }
    if rules.definition.actions.moves && !in_phase {
        let movable = (!rules.expressions.moves.is_empty())
            .then(|| crate::expression::movable_squares(rules, position));
        let movable = Movable(movable.as_ref());
        piece_moves(rules, position, us, &safety, movable, sink);
        if sink.satisfied() {
            return;
        }
        en_passant(rules, position, us, own, &safety, movable, sink);
        castling(rules, position, us, occupied, &safety, movable, sink);
    }
    if rules.definition.actions.drops {
        // Whether each drop is tested for the king's safety: a drop cannot expose a king that
        // is not in check where pins decide legality. (A flag rather than the safety itself:
        // a reference to it kept the move loops' safety in memory, for chess too.)
        let king_to_keep = safety.enforced && !safety.fast;
        drops(rules, position, us, king_to_keep, sink, lookahead);
    }
}

/// Per piece type, the squares its pieces may move from under the move rules (`None`: all).
#[derive(Clone, Copy)]
struct Movable<'a, B>(Option<&'a [B; crate::rules::MAX_PIECE_TYPES]>);

impl<B: Bitboard> Movable<'_, B> {
    #[inline]
    fn restrict(&self, piece: usize, squares: B) -> B {
        match self.0 {
            Some(masks) => squares & masks[piece],
            None => squares,
        }
    }
}

fn piece_moves<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let mine = position.side_pieces(us);
    let occupied = position.occupied();
    let own = if rules.plain_sides {
        mine
    } else {
        blockers(rules, position, us)
    };
    let enemy = occupied & !own;
    for piece in 0..rules.pieces {
        let pieces = movable.restrict(piece, mine & position.typed(piece));
        if pieces.is_empty() {
            continue;
        }
        let moves = rules.moves_of(us, piece);
        let royal = rules.royal.contains(&PieceId(piece as u8));
        for from in pieces.squares() {
            let targets = targets(rules, moves, from, own, enemy, occupied);
            if targets.any() {
                let legal =
                    filter_legal(rules, position, safety, royal, from, targets, occupied, us);
                if legal.any() {
                    sink.batch(from, legal, moves.promotion.as_ref());
                }
            }
            if !moves.routes.is_empty() {
                route_moves(rules, position, us, from, safety, sink);
            }
        }
    }
}

/// The pieces a move of `us` may not land on: its team's, and uncapturable ones.
#[cold]
fn blockers<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, us: usize) -> B {
    let mut own = position.friends(rules, us);
    for &piece in &rules.uncapturable {
        own |= position.typed(piece);
    }
    own
}

/// The compound moves of the piece on `from`, each tested by playing it on a copy.
fn route_moves<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    from: usize,
    safety: &Safety<B>,
    sink: &mut S,
) {
    let Some(occupant) = position.at(from) else {
        return;
    };
    let mut found = Vec::new();
    crate::path::walk(
        rules,
        position,
        us,
        from,
        rules.moves_of(us, occupant.piece),
        &mut |mv| found.push(mv),
    );
    // Two routes may describe the same move; each is listed once.
    let mut seen = Vec::with_capacity(found.len());
    for mv in found {
        if seen.contains(&mv) {
            continue;
        }
        seen.push(mv);
        if !safety.enforced || leaves_king_safe(rules, position, mv, us) {
            sink.single(mv);
        }
    }
}

#[inline(always)]
fn safety<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    occupied: B,
) -> Safety<B> {
    if !rules.definition.end.check {
        return Safety {
            enforced: false,
            in_check: false,
            pinned: B::EMPTY,
            fast: true,
        };
    }
    checked_safety(rules, position, us, occupied)
}

/// [`safety`] in a game with the `check` rule.
fn checked_safety<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    occupied: B,
) -> Safety<B> {
    let royals = position.team_royals(rules, us);
    let king = (royals.count() == 1).then(|| royals.lowest());
    let in_check = position.in_check(rules, us);
    let pinned = match king {
        Some(king) if !in_check && rules.pins_suffice => {
            pinned(rules, position, us, king, occupied)
        }
        _ => B::EMPTY,
    };
    Safety {
        enforced: true,
        in_check,
        pinned,
        fast: rules.pins_suffice && king.is_some() && !in_check,
    }
}

/// Pieces of `us` standing alone between the king and an enemy rider that would attack it.
fn pinned<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    king: usize,
    occupied: B,
) -> B {
    let own = position.side_pieces(us);
    let mut pinned = B::EMPTY;
    for attacker in (0..rules.sides).filter(|&s| rules.is_enemy(us, s)) {
        let theirs = position.side_pieces(attacker);
        for ride in &rules.attacks[attacker].rides {
            let ray = &rules.rays[ride.ray];
            let reach = match &ride.reach {
                Some(reach) => reach[king],
                None => ray.beyond[king],
            };
            let riders = ride
                .pieces
                .iter()
                .fold(B::EMPTY, |acc, p| acc | position.typed(p.0 as usize))
                & theirs;
            if (reach & riders).is_empty() {
                continue;
            }
            let Some(first) = ray.first_blocker(reach, occupied) else {
                continue;
            };
            if !own.has(first) {
                continue;
            }
            let beyond = reach & ray.beyond[first];
            if let Some(second) = ray.first_blocker(beyond, occupied) {
                if riders.has(second) {
                    pinned |= B::single(first);
                }
            }
        }
    }
    pinned
}

/// Pseudo-legal targets of one piece.
#[inline]
pub(crate) fn targets<B: Bitboard>(
    rules: &Rules<B>,
    moves: &PieceMoves<B>,
    from: usize,
    own: B,
    enemy: B,
    occupied: B,
) -> B {
    if moves.simple {
        let mut targets = moves
            .leaps
            .first()
            .map_or(B::EMPTY, |table| table.targets[from]);
        for ride in &moves.rides {
            let ray = &rules.rays[ride.ray];
            targets |= ray.slide(ray.beyond[from], occupied);
        }
        return targets & !own;
    }
    let initial = moves.initial_zone.has(from);
    let allowed = |mode: MoveMode| match mode {
        MoveMode::Both => !own,
        MoveMode::MoveOnly => !occupied,
        MoveMode::CaptureOnly => enemy,
    };
    let mut targets = B::EMPTY;
    for table in &moves.leaps {
        if !table.initial_only || initial {
            targets |= table.targets[from] & allowed(table.mode);
        }
    }
    for leap in &moves.lame[from] {
        if (!leap.initial_only || initial)
            && (leap.path & occupied).is_empty()
            && allowed(leap.mode).has(leap.to)
        {
            targets |= B::single(leap.to);
        }
    }
    for ride in &moves.rides {
        if ride.initial_only && !initial {
            continue;
        }
        let ray = &rules.rays[ride.ray];
        let reach = match &ride.reach {
            Some(reach) => reach[from],
            None => ray.beyond[from],
        };
        targets |= ray.slide(reach, occupied) & allowed(ride.mode);
    }
    targets
}

/// Keeps the targets whose move leaves the mover's royal pieces safe.
#[allow(clippy::too_many_arguments)]
#[inline]
fn filter_legal<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    safety: &Safety<B>,
    royal: bool,
    from: usize,
    targets: B,
    occupied: B,
    us: usize,
) -> B {
    if !safety.enforced {
        return targets;
    }
    if safety.fast {
        if !royal && !safety.pinned.has(from) {
            return targets;
        }
        if royal {
            let without_king = occupied & !B::single(from);
            let mut legal = B::EMPTY;
            for to in targets.squares() {
                if !position.attacked(rules, to, us, without_king | B::single(to)) {
                    legal |= B::single(to);
                }
            }
            return legal;
        }
    }
    let mut legal = B::EMPTY;
    for to in targets.squares() {
        if leaves_king_safe(rules, position, Move::normal(from, to), us) {
            legal |= B::single(to);
        }
    }
    legal
}

/// Plays the move on a copy and tests the mover's royal pieces.
#[inline]
fn leaves_king_safe<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mv: Move,
    us: usize,
) -> bool {
    let mut next = *position;
    next.play_unchecked(rules, mv);
    if rules.capture_effects {
        // A move that destroys one's own royal piece is illegal; one that destroys every royal
        // piece of an opponent wins, whatever else it leaves.
        if next.royals(rules, us).count() < position.royals(rules, us).count() {
            return false;
        }
        let destroys_an_opponent = (0..rules.sides).any(|side| {
            rules.is_enemy(us, side)
                && position.royals(rules, side).any()
                && next.royals(rules, side).is_empty()
        });
        if destroys_an_opponent {
            return true;
        }
    }
    !next.in_check(rules, us)
}

fn en_passant<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    own: B,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let Some(ep) = position.en_passant() else {
        return;
    };
    let victim_ok = position
        .at(ep.victim as usize)
        .is_some_and(|o| rules.is_enemy(us, o.side));
    if !victim_ok || position.at(ep.target as usize).is_some() {
        return;
    }
    for piece in 0..rules.pieces {
        let moves = rules.moves_of(us, piece);
        for from in movable
            .restrict(piece, own & position.typed(piece))
            .squares()
        {
            if !moves.en_passant[from].has(ep.target as usize) {
                continue;
            }
            let mv = Move {
                from: from as u16,
                to: ep.target,
                kind: MoveKind::EnPassant,
                converts: None,
            };
            if !safety.enforced || leaves_king_safe(rules, position, mv, us) {
                sink.single(mv);
            }
        }
    }
}

fn castling<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    occupied: B,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let rights = position.castling_rights();
    if rights == 0 || safety.in_check {
        return;
    }
    for (index, castle) in rules.castles.iter().enumerate() {
        if rights >> index & 1 == 0 || castle.side.0 as usize != us {
            continue;
        }
        let king_ok = position.at(castle.king_from).is_some_and(|o| {
            o.side == us
                && rules.royal.contains(&PieceId(o.piece as u8))
                && movable.restrict(o.piece, B::single(castle.king_from)).any()
        });
        let rook_ok = position.at(castle.rook_from).is_some_and(|o| {
            o.side == us && movable.restrict(o.piece, B::single(castle.rook_from)).any()
        });
        if !king_ok || !rook_ok || (castle.empty & occupied).any() {
            continue;
        }
        let mv = Move {
            from: castle.king_from as u16,
            to: castle.king_to as u16,
            kind: MoveKind::Castle(index as u8),
            converts: None,
        };
        if safety.enforced {
            let passes_attack = castle
                .king_path
                .iter()
                .any(|&sq| position.attacked(rules, sq, us, occupied));
            if passes_attack || !leaves_king_safe(rules, position, mv, us) {
                continue;
            }
        }
        sink.single(mv);
    }
}

fn drops<B: Bitboard, S: Sink<B>>(
    rules: &Rules<B>,
    position: &Position<B>,
    us: usize,
    king_to_keep: bool,
    sink: &mut S,
    lookahead: bool,
) {
    if position.hand_total(us) == 0 {
        return;
    }
    let mut judge = Judge::new(rules, position, us);
    // The rules folded for this position's scalar state, where this thread keeps a plan.
    let plan = sink
        .known_plan()
        .unwrap_or_else(|| crate::plan::plan(rules, position, us));
    let in_hand = position.held_types(us);
    // Every type at once: from the plan, or from the rules (unless one drop is enough).
    let mut allowed_of = [B::EMPTY; crate::rules::MAX_PIECE_TYPES];
    let mut looked_ahead_of = [B::EMPTY; crate::rules::MAX_PIECE_TYPES];
    let prepared = match &plan {
        Some(plan) => {
            plan.drop_squares(
                &mut judge,
                in_hand,
                lookahead,
                &mut allowed_of,
                &mut looked_ahead_of,
            );
            true
        }
        None if !S::ONE_IS_ENOUGH => {
            drop_squares_of(
                &mut judge,
                in_hand,
                lookahead,
                &mut allowed_of,
                &mut looked_ahead_of,
            );
            true
        }
        None => false,
    };
    let proved_after = |drops: B| {
        rules.lookahead_pruning
            && match &plan {
                Some(plan) => plan.reply_certain(rules, position, drops),
                None => reply_certain_after(rules, position, drops),
            }
    };
    let empty = rules.geometry.board & !position.occupied();
    // Proved once per position, the lookahead then costs nothing per drop.
    let mut reply_proved = None;
    if prepared && !king_to_keep {
        // Every type's squares at hand and no king to keep safe: where the lookahead binds
        // no drop (or is proved for all at once), the squares go to the sink as they are.
        let mut ahead = B::EMPTY;
        let mut rest = in_hand;
        while rest != 0 {
            let piece = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            ahead |= looked_ahead_of[piece] & allowed_of[piece];
        }
        let proved = !lookahead || ahead.is_empty() || proved_after(empty);
        if proved {
            let mut rest = in_hand;
            while rest != 0 {
                let piece = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                sink.drops(piece, allowed_of[piece]);
                if sink.satisfied() {
                    return;
                }
            }
            return;
        }
        reply_proved = Some(false);
    }
    // Otherwise proved square by square (whatever the type dropped), or tested drop by drop.
    let (mut square_tried, mut square_proved) = (B::EMPTY, B::EMPTY);
    for piece in 0..rules.pieces {
        if in_hand >> piece & 1 == 0 {
            continue;
        }
        let (mut allowed, looked_ahead) = if prepared {
            (allowed_of[piece], looked_ahead_of[piece])
        } else {
            drop_squares(&mut judge, piece, lookahead)
        };
        if king_to_keep {
            for to in allowed.squares() {
                if !leaves_king_safe(rules, position, Move::drop(piece, to), us) {
                    allowed &= !B::single(to);
                }
            }
        }
        if lookahead && (looked_ahead & allowed).any() {
            let proved = *reply_proved.get_or_insert_with(|| proved_after(empty));
            if !proved {
                for to in (looked_ahead & allowed).squares() {
                    let square = B::single(to);
                    if (square_tried & square).is_empty() {
                        square_tried |= square;
                        if proved_after(square) {
                            square_proved |= square;
                        }
                    }
                    if (square_proved & square).is_empty()
                        && !leaves_a_reply(rules, position, Move::drop(piece, to))
                    {
                        allowed &= !square;
                    }
                }
            }
        }
        sink.drops(piece, allowed);
        if sink.satisfied() {
            return;
        }
    }
}

/// The drop rules that bind the side to move when it drops `piece` on `to`, in source order,
/// each with whether the drop meets it (for explanations; generation uses the same masks).
pub fn binding_drop_constraints<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
    piece: usize,
    to: usize,
) -> Vec<(&'r variant_dsl::DropConstraint, bool)> {
    let written = match position.phase() {
        Some(phase) => &rules.definition.phases[phase].drops.constraints,
        None => &rules.definition.drops.constraints,
    };
    crate::expression::binding_rules(rules, position, piece, to)
        .into_iter()
        .map(|(index, met)| (&written[index], met))
        .collect()
}

/// The move rules that bind the side to move when it moves `piece` from `from`, in source
/// order, each with whether the move meets it (for explanations).
pub fn binding_move_constraints<'r, B: Bitboard>(
    rules: &'r Rules<B>,
    position: &Position<B>,
    piece: usize,
    from: usize,
) -> Vec<(&'r variant_dsl::DropConstraint, bool)> {
    crate::expression::binding_move_rules(rules, position, piece, from)
        .into_iter()
        .map(|(index, met)| (&rules.definition.move_rules.constraints[index], met))
        .collect()
}

/// Whether, after `mv`, the next side has a legal action (its own lookahead not applied).
pub(crate) fn leaves_a_reply<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mv: Move,
) -> bool {
    let mut next = *position;
    next.play_unchecked(rules, mv);
    let mut exists = Exists::default();
    generate_actions(rules, &next, &mut exists, false);
    exists.0
}

/// Whether the side to move has a legal action; generation stops at the first.
pub fn any_legal<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> bool {
    let mut exists = Exists::default();
    generate(rules, position, &mut exists);
    exists.0
}
