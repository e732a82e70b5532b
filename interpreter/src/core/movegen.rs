//! Move generation on the board, table-driven and flat.
//!
//! For each piece of the side to move, the generator ORs together the target sets of its leap
//! tables, lame leaps and rides into one bitboard and hands it to a [`Sink`] with its origin: a
//! counting sink just counts bits (perft's bulk counting), a collecting sink expands them into
//! [`Move`]s. Legality under the `check` rule is decided without playing the move whenever that
//! is exact: a piece that is not pinned, while the king is not in check, cannot expose it; a king
//! step is legal when its target is not attacked. Several royal pieces none of which is
//! attacked, and games whose captures explode ([`crate::core::legality`]), take the same path
//! with their own tests for royal moves and captures. Everything else (evasions, pinned pieces,
//! en passant, the moves of one of several royal pieces) is played on a copy and tested.
//!
//! This is the core's part: the moves of the pieces standing on the board (their targets,
//! en passant, castling) and whether they leave the mover's king safe, given the squares the
//! rules let move ([`Movable`]). The legal moves of a turn (drops under the drop rules, turns of
//! several actions, passes) are the rules layer's: [`crate::rules::legal`], which calls these.

use crate::bitboard::Bitboard;
use crate::core::board::AfterMove;
use crate::core::index::{ByPiece, PieceId, SideId, Sq};
use crate::core::legality::{lone_royals, pinned, screens, shielded_royal_steps};
pub(crate) use crate::core::tables::targets;
use crate::core::tables::{targets_barred, Barred, PieceMoves, PromotionRule, Tables};
use crate::moves::{Move, MoveKind};
use crate::position::Position;

/// Receives generated moves.
pub trait Sink<B: Bitboard> {
    /// Legal moves of one piece from `from` to each of `targets`, promoting where the rule says.
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>);
    /// One legal special move.
    fn single(&mut self, mv: Move);
    /// Legal drops of `piece` on each of `targets`.
    fn drops(&mut self, piece: PieceId, targets: B) {
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
    /// Whether the sink keeps only the tactical moves ([`crate::core::tactical`]): the
    /// generator may then leave out the targets and the kinds of moves that cannot be (a piece's
    /// targets narrowed to the enemy pieces and the promoting squares; no castling, no drops).
    const TACTICAL: bool = false;
}

/// Records whether any legal move exists, and stops generation at the first.
#[derive(Default)]
pub struct Exists(pub bool);

impl<B: Bitboard> Sink<B> for Exists {
    #[inline]
    fn batch(&mut self, _from: Sq, targets: B, _promotion: Option<&PromotionRule<B>>) {
        self.0 |= targets.any();
    }
    #[inline]
    fn single(&mut self, _mv: Move) {
        self.0 = true;
    }
    #[inline]
    fn drops(&mut self, _piece: PieceId, targets: B) {
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
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>) {
        self.count += targets.count() as u64;
        // A promoting target counts once per choice, and once more where it may stay plain:
        // worked out only where a target promotes, rare among a promoting piece's moves.
        let Some(rule) = promotion else {
            return;
        };
        let promoting = rule.promoting(from, targets);
        if promoting.any() {
            let promotions = promoting.count() as u64;
            self.count = self.count - promotions
                + promotions * rule.choices.len() as u64
                + rule.also_plain(promoting).count() as u64;
        }
    }
    #[inline]
    fn single(&mut self, _mv: Move) {
        self.count += 1;
    }
    #[inline]
    fn drops(&mut self, _piece: PieceId, targets: B) {
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
    fn batch(&mut self, from: Sq, targets: B, promotion: Option<&PromotionRule<B>>) {
        let promoting = promotion.filter(|rule| rule.promoting(from, targets).any());
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
            self.drop_squares |= B::single(mv.to);
        }
        self.moves.push(mv);
    }
    fn drops(&mut self, piece: PieceId, targets: B) {
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
/// move per choice where the move promotes (and a plain one too where promotion is optional),
/// a plain move elsewhere.
pub(crate) fn promotion_moves<B: Bitboard>(
    from: Sq,
    targets: B,
    rule: &PromotionRule<B>,
    mut emit: impl FnMut(Move),
) {
    let promoting = rule.promoting(from, targets);
    let also_plain = rule.also_plain(promoting);
    for to in targets.squares() {
        if promoting.has(to) {
            if also_plain.has(to) {
                emit(Move::normal(from, to));
            }
            for &choice in &rule.choices {
                emit(Move {
                    from,
                    to,
                    kind: MoveKind::Promote(choice),
                    converts: None,
                    gate: None,
                });
            }
        } else {
            emit(Move::normal(from, to));
        }
    }
}

/// What the legality test needs to know about the side to move.
pub(crate) struct Safety<B> {
    /// Legality matters at all (`check` rule).
    pub(crate) enforced: bool,
    /// The side to move is in check.
    pub(crate) in_check: bool,
    /// Pieces whose moves go through [`filter_tested`] even where `fast`: those pinned against
    /// a royal piece, and every piece where some captures are played (`played`).
    pinned: B,
    /// Pieces pinned against the royal piece where `played` has squares (`pinned` then holds
    /// every piece, so that the move loops' inlined test stays chess's).
    pins: B,
    /// Whether the fast path is exact: a move of a piece neither royal nor pinned, to a square
    /// not in `played`, is legal.
    pub(crate) fast: bool,
    /// Squares a move to which is played and tested even where `fast` settles its piece: the
    /// enemy pieces where captures explode ([`crate::core::legality`]); none elsewhere.
    played: B,
    /// How the moves of a royal piece are judged where `fast`.
    royal: RoyalTest,
    /// Whether `pins` and `played` are the screens of the one royal piece
    /// ([`crate::core::legality::screens`]), where pins do not decide legality: a move of a
    /// piece that is not royal, from a square not in `pins` to one not in `played`, is legal;
    /// the others are tested on the board they leave.
    screened: bool,
}

/// How the moves of a royal piece are judged where [`Safety::fast`] holds.
#[derive(Clone, Copy)]
enum RoyalTest {
    /// Played on a copy and tested (several royal pieces: one's move may expose another).
    Played,
    /// Legal where the target is not attacked with the royal piece gone from its square.
    Attacked,
    /// Captures explode and shield touching royal pieces: legal where the target touches the
    /// enemy royal piece on this square, or is not attacked ([`shielded_royal_steps`]).
    Shielded(Sq),
}

/// Per piece type, the squares its pieces may move from under the move rules (`None`: all).
#[derive(Clone, Copy)]
pub(crate) struct Movable<'a, B>(pub(crate) Option<&'a ByPiece<B>>);

impl<B: Bitboard> Movable<'_, B> {
    #[inline]
    fn restrict(&self, piece: PieceId, squares: B) -> B {
        match self.0 {
            Some(masks) => squares & masks[piece],
            None => squares,
        }
    }
}

/// The moves of the pieces of `us` on the board (not en passant, castling): their targets'
/// squares, legal ones only, to the sink per piece.
pub(crate) fn piece_moves<B: Bitboard, S: Sink<B>>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
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
    for piece in rules.piece_ids() {
        let pieces = movable.restrict(piece, mine & position.typed(piece));
        if pieces.is_empty() {
            continue;
        }
        let moves = rules.moves_of(us, piece);
        let royal = rules.royal.contains(&piece);
        let to_royal = royal_promotion(moves, safety);
        let barred = Barred::of(moves, |p| position.typed(p));
        for from in pieces.squares() {
            let mut targets = targets_barred(rules, moves, from, own, enemy, occupied, barred);
            if S::TACTICAL {
                // Only a capture (a target holds a piece it may take) or a promotion can be.
                let promoting = moves
                    .promotion
                    .as_ref()
                    .map_or(B::EMPTY, |rule| rule.promoting(from, targets));
                targets &= occupied | promoting;
            }
            if let Some(rule) = to_royal {
                royal_promotion_moves(
                    rules,
                    position,
                    us,
                    (from, targets, royal),
                    rule,
                    safety,
                    sink,
                );
            } else if targets.any() {
                let legal =
                    filter_legal(rules, position, safety, royal, from, targets, occupied, us);
                if legal.any() {
                    sink.batch(from, legal, moves.promotion.as_ref());
                    // "Is there a legal move" is answered by the first piece that has one.
                    if S::ONE_IS_ENOUGH && sink.satisfied() {
                        return;
                    }
                }
            }
            if !moves.routes.is_empty() {
                route_moves(rules, position, us, from, safety, sink);
            }
        }
    }
}

/// The promotion rule of a piece that may promote to a royal piece, where legality is enforced:
/// such a promotion adds a royal piece to keep safe (or, under `check when all royal pieces
/// attacked`, one that may be the safe one), so each promotion is tested as itself.
#[inline]
fn royal_promotion<'r, B: Bitboard>(
    moves: &'r PieceMoves<B>,
    safety: &Safety<B>,
) -> Option<&'r PromotionRule<B>> {
    if !safety.enforced {
        return None;
    }
    moves.promotion.as_ref().filter(|rule| rule.to_royal)
}

/// The moves of a piece that may promote to a royal piece: its plain moves as any piece's, its
/// promotions each played on a copy and tested.
#[cold]
fn royal_promotion_moves<B: Bitboard, S: Sink<B>>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    (from, targets, royal): (Sq, B, bool),
    rule: &PromotionRule<B>,
    safety: &Safety<B>,
    sink: &mut S,
) {
    let occupied = position.occupied();
    let promoting = rule.promoting(from, targets);
    let plain = targets & !promoting;
    if plain.any() {
        let legal = filter_legal(rules, position, safety, royal, from, plain, occupied, us);
        if legal.any() {
            sink.batch(from, legal, Some(rule));
        }
    }
    promotion_moves(from, promoting, rule, |mv| {
        if leaves_king_safe(rules, position, mv, us) {
            sink.single(mv);
        }
    });
}

/// The pieces a move of `us` may not land on: its team's, uncapturable ones and the neutral
/// piece.
#[cold]
fn blockers<B: Bitboard>(rules: &Tables<B>, position: &Position<B>, us: SideId) -> B {
    let mut own = position.friends(rules, us);
    for &piece in &rules.uncapturable {
        own |= position.typed(piece);
    }
    if rules.neutral.is_some() {
        own |= position.side_pieces(crate::core::tables::NEUTRAL_SLOT);
    }
    own
}

/// The compound moves of the piece on `from`, each tested by playing it on a copy.
fn route_moves<B: Bitboard, S: Sink<B>>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    from: Sq,
    safety: &Safety<B>,
    sink: &mut S,
) {
    let Some(occupant) = position.at(from) else {
        return;
    };
    let mut found = Vec::new();
    crate::core::route::walk(
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

/// What the legality of a move of `us` needs to know, found once per position.
#[inline(always)]
pub(crate) fn safety<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    occupied: B,
) -> Safety<B> {
    if !rules.definition.end.check {
        return Safety {
            enforced: false,
            in_check: false,
            pinned: B::EMPTY,
            pins: B::EMPTY,
            fast: true,
            played: B::EMPTY,
            royal: RoyalTest::Played,
            screened: false,
        };
    }
    checked_safety(rules, position, us, occupied)
}

/// [`safety`] in a game with the `check` rule: the fast path where pins decide legality (one
/// royal piece not in check, several none of which is attacked, or none), or where captures
/// explode and each side has one royal piece; every move played otherwise.
fn checked_safety<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    occupied: B,
) -> Safety<B> {
    let in_check = position.in_check(rules, us);
    let slow = Safety {
        enforced: true,
        in_check,
        pinned: B::EMPTY,
        pins: B::EMPTY,
        fast: false,
        played: B::EMPTY,
        royal: RoyalTest::Played,
        screened: false,
    };
    if in_check {
        return slow;
    }
    if rules.pins_suffice {
        let royals = position.team_royals(rules, us);
        if royals.count() == 1 {
            return Safety {
                pinned: pinned(rules, position, us, royals.lowest(), occupied),
                fast: true,
                royal: RoyalTest::Attacked,
                ..slow
            };
        }
        return several_royals_safety(rules, position, us, royals, occupied, slow);
    }
    if rules.explosion_shield {
        if let Some((ours, theirs)) = lone_royals(rules, position, us) {
            return Safety {
                pinned: position.side_pieces(us),
                pins: pinned(rules, position, us, ours, occupied),
                fast: true,
                played: occupied & !position.side_pieces(us),
                royal: RoyalTest::Shielded(theirs),
                ..slow
            };
        }
    }
    if rules.board_moves && rules.screens {
        let royals = position.team_royals(rules, us);
        if royals.count() == 1 {
            let (from, to) = screens(rules, position, us, royals.lowest(), occupied);
            return Safety {
                pins: from,
                played: to,
                screened: true,
                ..slow
            };
        }
    }
    slow
}

/// [`checked_safety`] for a side with no royal piece (nothing to expose) or several, where
/// pins decide legality: the fast path when none is attacked (a move that is not royal and not
/// pinned against any of them attacks none), royal moves played.
#[cold]
fn several_royals_safety<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    royals: B,
    occupied: B,
    slow: Safety<B>,
) -> Safety<B> {
    let mut pins = B::EMPTY;
    for royal in royals.squares() {
        if position.attacked(rules, royal, us, occupied) {
            return slow;
        }
        pins |= pinned(rules, position, us, royal, occupied);
    }
    Safety {
        pinned: pins,
        fast: true,
        ..slow
    }
}

/// Keeps the targets whose move leaves the mover's royal pieces safe. The tests that settle
/// most pieces (no `check` rule; neither royal nor pinned) are inlined into every move loop;
/// the rest is [`filter_tested`]. (Left to the compiler, the whole filter stopped being inlined
/// once the loops had more instances, and chess paid a call per piece: issue 26.)
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn filter_legal<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    safety: &Safety<B>,
    royal: bool,
    from: Sq,
    targets: B,
    occupied: B,
    us: SideId,
) -> B {
    if !safety.enforced || (safety.fast && !royal && !safety.pinned.has(from)) {
        return targets;
    }
    filter_tested(rules, position, safety, royal, from, targets, occupied, us)
}

/// [`filter_legal`] for a royal piece, a pinned one, or any piece where pins do not settle
/// legality: each target tested.
#[allow(clippy::too_many_arguments)]
fn filter_tested<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    safety: &Safety<B>,
    royal: bool,
    from: Sq,
    targets: B,
    occupied: B,
    us: SideId,
) -> B {
    if !safety.in_check && !royal {
        // Where the screens are known, only the moves through them are tested.
        let (settled, tested) = if safety.screened && !safety.pins.has(from) {
            (targets & !safety.played, targets & safety.played)
        } else {
            (B::EMPTY, targets)
        };
        if tested.is_empty() {
            return settled;
        }
        if let Some(legal) = filter_opened(rules, position, from, tested, us) {
            return settled | legal;
        }
    }
    let mut legal = B::EMPTY;
    let mut played = targets;
    if safety.fast && !royal && safety.played.any() && !safety.pins.has(from) {
        // Only the captures whose effects may reach a royal piece are played.
        played = targets & safety.played;
        legal = targets & !played;
    } else if safety.fast && royal {
        match safety.royal {
            RoyalTest::Attacked => {
                let without_king = occupied & !B::single(from);
                for to in targets.squares() {
                    if !position.attacked(rules, to, us, without_king | B::single(to)) {
                        legal |= B::single(to);
                    }
                }
                return legal;
            }
            RoyalTest::Shielded(theirs) => {
                return shielded_royal_steps(rules, position, us, (from, theirs), targets);
            }
            RoyalTest::Played => {}
        }
    }
    for to in played.squares() {
        if leaves_king_safe(rules, position, Move::normal(from, to), us) {
            legal |= B::single(to);
        }
    }
    legal
}

/// [`filter_tested`] for a piece that is not royal while the one royal piece of `us`'s team is
/// not in check, in a game whose moves change nothing but their two squares
/// ([`Tables::board_moves`]): each move is legal unless it opens an attack on that piece, and
/// only the attacks along a line or through a leg the move touches are tested, on the board it
/// leaves ([`crate::core::attack::opens_attack`]). `None` where that does not apply.
fn filter_opened<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    from: Sq,
    targets: B,
    us: SideId,
) -> Option<B> {
    if !rules.board_moves {
        return None;
    }
    let royals = position.team_royals(rules, us);
    if royals.count() != 1 {
        return None;
    }
    let king = royals.lowest();
    let mut legal = B::EMPTY;
    for to in targets.squares() {
        let board = AfterMove::of(rules, position, Move::normal(from, to))?;
        let touched = B::single(from) | B::single(to);
        if !crate::core::attack::opens_attack(&board, rules, us, king, touched) {
            legal |= B::single(to);
        }
    }
    Some(legal)
}

/// Plays the move on a copy and tests the mover's royal pieces (the board alone decides: the
/// turn is not ended on the copy); a move that only moves a piece is not played: the test reads
/// the board it leaves ([`AfterMove`]).
#[inline]
pub(crate) fn leaves_king_safe<B: Bitboard>(
    rules: &Tables<B>,
    position: &Position<B>,
    mv: Move,
    us: SideId,
) -> bool {
    if let Some(board) = AfterMove::of(rules, position, mv) {
        return !crate::core::attack::in_check(&board, rules, us);
    }
    let mut next = *position;
    next.act(rules, mv);
    if rules.capture_effects {
        // A move that destroys one's own royal piece is illegal; one that destroys every royal
        // piece of an opponent wins, whatever else it leaves.
        if next.royals(rules, us).count() < position.royals(rules, us).count() {
            return false;
        }
        let destroys_an_opponent = rules.side_ids().any(|side| {
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

/// The en-passant captures of `us`.
pub(crate) fn en_passant<B: Bitboard, S: Sink<B>>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    own: B,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let Some(ep) = position.en_passant() else {
        return;
    };
    let victim_ok = position
        .at(ep.victim)
        .is_some_and(|o| rules.is_enemy(us, o.side));
    // The target is empty, unless the neutral piece (`neutral`) was put there.
    if !victim_ok || position.occupied().has(ep.target) {
        return;
    }
    for piece in rules.piece_ids() {
        let moves = rules.moves_of(us, piece);
        for from in movable
            .restrict(piece, own & position.typed(piece))
            .squares()
        {
            if !moves.en_passant[from].has(ep.target) {
                continue;
            }
            let mv = Move {
                from,
                to: ep.target,
                kind: MoveKind::EnPassant,
                converts: None,
                gate: None,
            };
            if !safety.enforced || leaves_king_safe(rules, position, mv, us) {
                sink.single(mv);
            }
        }
    }
}

/// The castling moves of `us`.
pub(crate) fn castling<B: Bitboard, S: Sink<B>>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
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
        if rights >> index & 1 == 0 || castle.side != us {
            continue;
        }
        let king_ok = position.at(castle.king_from).is_some_and(|o| {
            o.side == us
                && castle.king_is(o.piece, &rules.royal)
                && movable.restrict(o.piece, B::single(castle.king_from)).any()
        });
        let rook_ok = position.at(castle.rook_from).is_some_and(|o| {
            o.side == us
                && castle.rook_is(o.piece)
                && movable.restrict(o.piece, B::single(castle.rook_from)).any()
        });
        if !king_ok || !rook_ok || (castle.empty & occupied).any() {
            continue;
        }
        let mv = Move {
            from: castle.king_from,
            to: castle.king_to,
            kind: MoveKind::Castle(index as u8),
            converts: None,
            gate: None,
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

/// The gating moves of `us` (`gating`): every move of a piece standing on one of its gating
/// squares (not a promotion, en passant or a compound move), and every legal castling whose
/// king's or rook's square is one (where neither lands on it), once per type in the hand, with a
/// piece of that type placed on the square left. A move gates only where it is legal on its own
/// (as Fairy-Stockfish judges: the piece placed never unpins the piece that leaves); standing
/// where the moving piece stood, it can expose nothing, so the legal moves are the gating ones.
#[cold]
pub(crate) fn gating_moves<B: Bitboard, S: Sink<B>>(
    rules: &Tables<B>,
    position: &Position<B>,
    us: SideId,
    safety: &Safety<B>,
    movable: Movable<'_, B>,
    sink: &mut S,
) {
    let held = position.held_types(us);
    let gates = position.gates() & position.side_pieces(us);
    if held == 0 || gates.is_empty() {
        return;
    }
    let emit = |mv: Move, on_rook: bool, sink: &mut S| {
        let mut rest = held;
        while rest != 0 {
            let piece = PieceId::new(rest.trailing_zeros() as usize);
            rest &= rest - 1;
            sink.single(mv.gated(piece, on_rook));
        }
    };
    let occupied = position.occupied();
    let own = if rules.plain_sides {
        position.side_pieces(us)
    } else {
        blockers(rules, position, us)
    };
    for from in gates.squares() {
        let Some(occupant) = position.at(from) else {
            continue;
        };
        if movable.restrict(occupant.piece, B::single(from)).is_empty() {
            continue;
        }
        let moves = rules.moves_of(us, occupant.piece);
        let reached = targets(rules, moves, from, own, occupied & !own, occupied);
        let royal = rules.royal.contains(&occupant.piece);
        let mut plain = filter_legal(rules, position, safety, royal, from, reached, occupied, us);
        if let Some(rule) = moves.promotion.as_ref() {
            let promoting = rule.promoting(from, plain);
            plain &= !(promoting & !rule.also_plain(promoting));
        }
        for to in plain.squares() {
            emit(Move::normal(from, to), false, sink);
        }
    }
    let mut castles = Collector::default();
    castling(rules, position, us, occupied, safety, movable, &mut castles);
    for mv in castles.moves {
        let MoveKind::Castle(index) = mv.kind else {
            continue;
        };
        let castle = &rules.castles[index as usize];
        for (square, on_rook) in [(castle.king_from, false), (castle.rook_from, true)] {
            let landed = square == castle.king_to || square == castle.rook_to;
            if gates.has(square) && !landed {
                emit(mv, on_rook, sink);
            }
        }
    }
}
