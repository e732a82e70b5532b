//! Chases (`repetition ..., perpetual chase VERDICT`, §2.12): which enemy pieces an action
//! chased, read off the attack tables the way Fairy-Stockfish's AXF chasing rule
//! (`Position::chased`) reads them, in generic terms.
//!
//! An action of side M chases a piece of the side S to move next when one of M's pieces that
//! can chase (not royal, not `never chases`) newly attacks it (the piece that moved, on a line
//! other than the one it moved along if it rides or hops; any other piece, through a square the
//! action opened or filled), the piece can be chased there (not royal; `chased in`), and:
//! the attacker's `chase strength` is smaller than the piece's (a chase even when protected);
//! or it is not a mutual attack (a piece of the attacker's type attacking it back: no chase,
//! unless the attacked piece is pinned and the attacker's attacks are symmetric where it
//! stands; a horse with a piece on a leg by which a horse could attack it back makes the
//! mutual attack no chase even on a pinned piece, as Fairy-Stockfish judges it) and the piece
//! has no protector: no piece of S that is not pinned attacks its square once the attacker
//! left its own, or S's royal piece alone does and its recapture would leave a board S's own
//! `must not after` rules forbid (the general facing the other across the file).
//!
//! Pinned: the piece's removal would let an enemy piece attack S's royal piece that does not
//! attack it now (Fairy-Stockfish's blockers), or would leave a board S's own `must not after`
//! rules forbid (the piece alone between the generals under the flying general).
//!
//! Where the action changed who blocks an attack on S's royal piece, two more kinds of chase
//! count, as in Fairy-Stockfish: "fake roots", S's pieces protected by a piece the action
//! pinned and attacked by a piece of M that is not pinned itself (whatever its type or
//! strength); and captures a discovered check makes possible, every piece of S attacked by a
//! piece of M that the action made able to give discovered check, unless S's royal piece
//! attacks it and no other piece of M does then (it could take back).
//!
//! Remaining differences with Fairy-Stockfish (which writes them for its own pieces): it counts
//! S's piece as pinned by the flying general whenever it is S's only piece on the file of M's
//! general with S's general, even with a piece of M between the generals or the piece behind its
//! own general; its attacks ignore the palace and the river (an advisor or the general protects,
//! an elephant attacks, beyond them), ours respect `confined to`; and in its fake roots a
//! soldier that has not crossed the river protects sideways. A discovered capture chases any
//! piece of S, soldiers on their own half included, here as there.
//!
//! The judgement runs after every action a game or a search plays (a repetition's verdict
//! reads the runs it leaves, [`Position::chases`]), not in perft, which counts without the
//! verdicts' history. It tests only what an action can have changed: the enemy pieces the
//! moved piece attacks or that are attacked along a line or through a leg the action touched,
//! and the blockers on the touched lines and legs into the enemy's royal piece.

use crate::bitboard::Bitboard;
use crate::core::attack::{attacked_by_moves, newly_attacked_by, royals};
use crate::core::board::Board;
use crate::core::index::{PieceId, SideId, Sq};
use crate::core::moves::{Move, MoveKind};
use crate::core::position::Position;
use crate::core::tables::{ChaseTable, Tables};

/// A board seen with some pieces left out: `hidden`'s pieces are neither attackers nor
/// protectors (the occupancy an attack test reads is passed apart, so they may still block).
struct Without<'a, B: Bitboard> {
    board: &'a Position<B>,
    hidden: B,
}

impl<B: Bitboard> Board<B> for Without<'_, B> {
    fn side_pieces(&self, side: SideId) -> B {
        self.board.side_pieces(side) & !self.hidden
    }
    fn typed(&self, piece: PieceId) -> B {
        self.board.typed(piece) & !self.hidden
    }
    fn occupied(&self) -> B {
        self.board.occupied() & !self.hidden
    }
}

/// Whether the piece on `from` (of side `side`) attacks `target` with the board occupied as
/// `occupied`.
fn piece_attacks<B: Bitboard>(
    rules: &Tables<B>,
    board: &Position<B>,
    side: SideId,
    from: Sq,
    target: Sq,
    occupied: B,
) -> bool {
    let only = Without {
        board,
        hidden: board.side_pieces(side) & !B::single(from),
    };
    attacked_by_moves(&only, rules, target, side, occupied)
}

/// Whether the piece type rides or hops (its attacks run along lines).
fn runs_along_lines<B: Bitboard>(rules: &Tables<B>, side: SideId, piece: PieceId) -> bool {
    let attacks = &rules.attacks[side];
    attacks
        .rides
        .iter()
        .any(|ride| ride.pieces.contains(&piece))
        || attacks.hops.iter().any(|hop| hop.pieces.contains(&piece))
}

/// Whether three squares lie on one rank, file or diagonal.
fn collinear<B: Bitboard>(rules: &Tables<B>, a: Sq, b: Sq, c: Sq) -> bool {
    let (ax, ay) = rules.geometry.coords(a);
    let (bx, by) = rules.geometry.coords(b);
    let (cx, cy) = rules.geometry.coords(c);
    let (ax, ay, bx, by, cx, cy) = (
        ax as i64, ay as i64, bx as i64, by as i64, cx as i64, cy as i64,
    );
    let aligned = ax == bx || ay == by || (ax - bx).abs() == (ay - by).abs();
    aligned && (bx - ax) * (cy - ay) == (by - ay) * (cx - ax)
}

/// The squares of the enemy pieces that the action `mv` of the side to move in `before`
/// chased, `after` being the board it left (in a game of two sides: the enemy is the other
/// one). Only plain moves chase (a drop, a pass or castling chases nothing). `forbids(board,
/// side)` says whether `side`'s own move rules judged after a move (`must not after`: the
/// flying general) forbid `board`, a board the rules layer can judge and this one cannot.
pub(crate) fn chased<B: Bitboard>(
    rules: &Tables<B>,
    before: &Position<B>,
    after: &Position<B>,
    mv: Move,
    forbids: &dyn Fn(&Position<B>, SideId) -> bool,
) -> B {
    let Some(table) = &rules.chase else {
        return B::EMPTY;
    };
    if !matches!(mv.kind, MoveKind::Normal | MoveKind::Promote(_)) {
        return B::EMPTY;
    }
    let mover = before.side_to_move(rules);
    let Some(chased_side) = rules.side_ids().find(|&side| rules.is_enemy(mover, side)) else {
        return B::EMPTY;
    };
    let mut judge = Judge {
        rules,
        table,
        after,
        mover,
        chased_side,
        forbids,
        pins: None,
    };
    let chased = judge.attacks(before, mv);
    chased | judge.changed_roots(before, mv)
}

/// One action's judgement: the board it left, who moved, who may be chased, and the chased
/// side's pinned pieces once asked for.
struct Judge<'a, B: Bitboard> {
    rules: &'a Tables<B>,
    table: &'a ChaseTable<B>,
    after: &'a Position<B>,
    mover: SideId,
    chased_side: SideId,
    forbids: &'a dyn Fn(&Position<B>, SideId) -> bool,
    pins: Option<B>,
}

impl<B: Bitboard> Judge<'_, B> {
    /// The pieces chased by a new attack: of the moved piece, or one the action unblocked or
    /// gave a screen.
    fn attacks(&mut self, before: &Position<B>, mv: Move) -> B {
        let (rules, after, mover) = (self.rules, self.after, self.mover);
        let (from, to) = (mv.from, mv.to);
        let occupied = after.occupied();
        let occupied_before = before.occupied();
        // A new attack is the moved piece's, or another piece's along a line or through a leg
        // the action touched (its origin and target): only such targets are judged further.
        let touched = B::single(from) | B::single(to);
        let moved_chases = after.at(to).is_some_and(|o| self.table.chases[o.piece]);
        let targets = after
            .side_pieces(self.chased_side)
            .squares()
            .filter(|&square| {
                after.at(square).is_some_and(|occupant| {
                    self.table.chased_on[self.chased_side][occupant.piece].has(square)
                })
            })
            .filter(|&square| {
                (moved_chases && piece_attacks(rules, after, mover, to, square, occupied))
                    || newly_attacked_by(after, rules, square, mover, touched)
            })
            .fold(B::EMPTY, |acc, square| acc | B::single(square));
        if targets.is_empty() {
            return B::EMPTY;
        }
        let attackers: Vec<(Sq, PieceId)> = after
            .side_pieces(mover)
            .squares()
            .filter_map(|square| after.at(square).map(|occupant| (square, occupant.piece)))
            .filter(|&(_, piece)| self.table.chases[piece])
            .collect();
        let mut chased = B::EMPTY;
        for target in targets.squares() {
            let Some(victim) = after.at(target).map(|occupant| occupant.piece) else {
                continue;
            };
            let is_chased = attackers.iter().any(|&(square, piece)| {
                if !piece_attacks(rules, after, mover, square, target, occupied) {
                    return false;
                }
                let new = if square == to {
                    !(runs_along_lines(rules, mover, piece) && collinear(rules, from, to, target))
                } else {
                    !piece_attacks(rules, after, mover, square, target, occupied_before)
                };
                new && self.chases((square, piece), (target, victim))
            });
            if is_chased {
                chased |= B::single(target);
            }
        }
        chased
    }

    /// The chased side's pieces whose removal would let an enemy piece attack its royal piece
    /// ([`blockers`]).
    fn blockers(&mut self) -> B {
        let (rules, after, side) = (self.rules, self.after, self.chased_side);
        *self
            .pins
            .get_or_insert_with(|| blockers(rules, after, side, after.side_pieces(side)))
    }

    /// Whether the chased side's piece on `square` is pinned: a blocker, or a piece whose
    /// removal would leave a board its own move rules forbid (alone between the generals under
    /// the flying general).
    fn pinned(&mut self, square: Sq) -> bool {
        let (rules, after, side) = (self.rules, self.after, self.chased_side);
        self.blockers().has(square)
            || (!royals(after, rules, side).has(square)
                && (self.forbids)(&after.rearranged(rules, &[square], None), side)
                && !(self.forbids)(after, side))
    }

    /// Whether a new attack of the piece `attacker` (square, type) on the enemy `victim` is a
    /// chase: a weaker attacker; else no mutual attack of two pieces of one type (unless the
    /// victim is pinned and the attacker's attacks are symmetric where it stands) and no
    /// protector that is not pinned, nor a royal one whose recapture the move rules forbid.
    fn chases(&mut self, (square, piece): (Sq, PieceId), (target, victim): (Sq, PieceId)) -> bool {
        let (rules, after, side) = (self.rules, self.after, self.chased_side);
        if let (Some(weaker), Some(stronger)) =
            (self.table.strength[piece], self.table.strength[victim])
        {
            if weaker < stronger {
                return true;
            }
        }
        if victim == piece
            && piece_attacks(rules, after, side, target, square, after.occupied())
            && (impaired(rules, after, side, self.mover, square, piece) || !self.pinned(target))
        {
            return false;
        }
        let without_attacker = after.occupied() & !B::single(square);
        let protected_without = |hidden: B| {
            let protectors = Without {
                board: after,
                hidden,
            };
            attacked_by_moves(&protectors, rules, target, side, without_attacker)
        };
        if !protected_without(B::EMPTY) {
            return true;
        }
        let royal = royals(after, rules, side);
        let mut pins = self.blockers();
        if !protected_without(pins) {
            return true;
        }
        let protectors = (after.side_pieces(side) & !pins & !royal)
            .squares()
            .filter(|&root| root != target)
            .filter(|&root| piece_attacks(rules, after, side, root, target, without_attacker))
            .collect::<Vec<_>>();
        for root in protectors {
            if self.pinned(root) {
                pins |= B::single(root);
            }
        }
        if !protected_without(pins) {
            return true;
        }
        // Protected by royal pieces alone: the recapture, after the attacker took, may be one
        // the side's move rules forbid (the general facing the other across the file).
        let royal = royals(after, rules, side);
        if royal.is_empty() || protected_without(pins | royal) {
            return false;
        }
        royal
            .squares()
            .filter(|&r| piece_attacks(rules, after, side, r, target, without_attacker))
            .all(|r| {
                let exchange = after.rearranged(rules, &[square], Some((r, target)));
                (self.forbids)(&exchange, side)
            })
    }

    /// The pieces chased through a change of protection or a discovered check: "fake roots",
    /// pieces protected by a piece the action pinned and attacked by an enemy piece that is not
    /// pinned; and the pieces a piece of the mover that the action made able to give
    /// discovered check attacks, where the chased side's royal piece cannot take it back. Only
    /// on a line or leg into a royal piece that the action touched can a blocker change (a
    /// checker the action made attacks along such a line or leg too), so only the pieces there
    /// are tested.
    fn changed_roots(&mut self, before: &Position<B>, mv: Move) -> B {
        let (rules, after) = (self.rules, self.after);
        let (mover, side) = (self.mover, self.chased_side);
        let touched = B::single(mv.from) | B::single(mv.to);
        let lines = royals(after, rules, side)
            .squares()
            .fold(B::EMPTY, |acc, royal| {
                acc | lines_into(rules, mover, royal, touched)
            });
        if lines.is_empty() {
            return B::EMPTY;
        }
        let candidates = |board: &Position<B>| board.occupied() & lines;
        let now = blockers(rules, after, side, candidates(after));
        if now.is_empty() {
            return B::EMPTY;
        }
        let then = blockers(rules, before, side, candidates(before) & now);
        let new = now & !then;
        if new.is_empty() {
            return B::EMPTY;
        }
        self.fake_roots(new & after.side_pieces(side))
            | self.discovered(new & after.side_pieces(mover))
    }

    /// Pieces protected by one of `pinned` (pinned by the action) and attacked by an enemy
    /// piece that is not itself pinned.
    fn fake_roots(&self, pinned: B) -> B {
        let (rules, after) = (self.rules, self.after);
        let (mover, side) = (self.mover, self.chased_side);
        if pinned.is_empty() {
            return B::EMPTY;
        }
        let occupied = after.occupied();
        let free = Without {
            board: after,
            hidden: blockers(rules, after, mover, after.side_pieces(mover)),
        };
        let mut chased = B::EMPTY;
        for root in pinned.squares() {
            for target in after.side_pieces(side).squares() {
                let chaseable = after
                    .at(target)
                    .is_some_and(|o| self.table.chased_on[side][o.piece].has(target));
                if chaseable
                    && piece_attacks(rules, after, side, root, target, occupied)
                    && attacked_by_moves(&free, rules, target, mover, occupied)
                {
                    chased |= B::single(target);
                }
            }
        }
        chased
    }

    /// What the mover's pieces on `discoverers` (each now able to give discovered check)
    /// attack: every such piece, unless the royal piece could take the capturer back (it
    /// attacks the square and no other piece of the mover attacks it then).
    fn discovered(&self, discoverers: B) -> B {
        let (rules, after) = (self.rules, self.after);
        let (mover, side) = (self.mover, self.chased_side);
        let occupied = after.occupied();
        let royal = royals(after, rules, side);
        let mut chased = B::EMPTY;
        for discoverer in discoverers.squares() {
            for target in after.side_pieces(side).squares() {
                if !piece_attacks(rules, after, mover, discoverer, target, occupied) {
                    continue;
                }
                let recapturers = royal
                    .squares()
                    .filter(|&r| piece_attacks(rules, after, side, r, target, occupied))
                    .fold(B::EMPTY, |acc, r| acc | B::single(r));
                let others = Without {
                    board: after,
                    hidden: B::single(discoverer),
                };
                if recapturers.is_empty()
                    || attacked_by_moves(
                        &others,
                        rules,
                        target,
                        mover,
                        occupied & !B::single(discoverer) & !recapturers,
                    )
                {
                    chased |= B::single(target);
                }
            }
        }
        chased
    }
}

/// Among `candidates` (pieces of any side), those whose removal would let an enemy of `side`
/// attack one of `side`'s royal pieces that it does not attack now: the pieces that block an
/// attack on it (a pinned piece of `side`, or an enemy piece that can give discovered check).
fn blockers<B: Bitboard>(rules: &Tables<B>, board: &Position<B>, side: SideId, candidates: B) -> B {
    let royal = royals(board, rules, side);
    if royal.is_empty() || candidates.is_empty() {
        return B::EMPTY;
    }
    let occupied = board.occupied();
    let enemies = || {
        rules
            .side_ids()
            .filter(move |&other| rules.is_enemy(side, other))
    };
    let attacked = royal
        .squares()
        .any(|r| enemies().any(|other| attacked_by_moves(board, rules, r, other, occupied)));
    let attacking = if attacked {
        attackers_of_royal(rules, board, side, royal)
    } else {
        B::EMPTY
    };
    (candidates & !royal)
        .squares()
        .filter(|&square| {
            let without = Without {
                board,
                hidden: B::single(square) | attacking,
            };
            let open = occupied & !B::single(square);
            royal
                .squares()
                .any(|r| enemies().any(|other| attacked_by_moves(&without, rules, r, other, open)))
        })
        .fold(B::EMPTY, |acc, square| acc | B::single(square))
}

/// The enemy pieces that attack one of `side`'s royal pieces on `royal` (it is in check).
#[cold]
fn attackers_of_royal<B: Bitboard>(
    rules: &Tables<B>,
    board: &Position<B>,
    side: SideId,
    royal: B,
) -> B {
    let occupied = board.occupied();
    rules
        .side_ids()
        .filter(|&other| rules.is_enemy(side, other))
        .flat_map(|other| board.side_pieces(other).squares().map(move |s| (other, s)))
        .filter(|&(other, s)| {
            royal
                .squares()
                .any(|r| piece_attacks(rules, board, other, s, r, occupied))
        })
        .fold(B::EMPTY, |acc, (_, s)| acc | B::single(s))
}

/// The squares where a change could make or unmake a blocker of an attack of `attacker` on
/// `royal`, among the lines and legs that hold a square of `touched`: the lines its riders and
/// hoppers would come along, its lame leaps' squares and legs.
fn lines_into<B: Bitboard>(rules: &Tables<B>, attacker: SideId, royal: Sq, touched: B) -> B {
    let attacks = &rules.attacks[attacker];
    let rays = attacks
        .rides
        .iter()
        .map(|ride| ride.ray)
        .chain(attacks.hops.iter().map(|hop| hop.ray))
        .map(|ray| rules.rays[ray].beyond[royal])
        .filter(|&line| (line & touched).any())
        .fold(B::EMPTY, |acc, line| acc | line);
    attacks
        .lame
        .iter()
        .flat_map(|lame| lame.sources[royal].iter())
        .map(|&(from, path)| path | B::single(from))
        .filter(|&leap| (leap & touched).any())
        .fold(rays, |acc, leap| acc | leap)
}

/// Whether the attack of `attacker`'s piece of type `piece` on `square` can be one-sided
/// there: the type's lame attacks are not symmetric (the way back has another leg, as the
/// horse's) and a piece stands on a leg by which a piece of its type could attack it back.
/// Fairy-Stockfish then counts a mutual attack as no chase even on a pinned piece.
fn impaired<B: Bitboard>(
    rules: &Tables<B>,
    board: &Position<B>,
    side: SideId,
    attacker: SideId,
    square: Sq,
    piece: PieceId,
) -> bool {
    let (Some(back), Some(forth)) = (
        rules.attacks[side].lame.iter().find(|l| l.piece == piece),
        rules.attacks[attacker]
            .lame
            .iter()
            .find(|l| l.piece == piece),
    ) else {
        return false;
    };
    let asymmetric = back.sources[square].iter().any(|&(from, path)| {
        forth.sources[from]
            .iter()
            .any(|&(to, forward)| to == square && forward != path)
    });
    asymmetric
        && back.sources[square]
            .iter()
            .any(|&(_, path)| (path & board.occupied()).any())
}
