//! Positions that cannot arise in a game: refused when the rules cannot be played from them,
//! reported when only the game's setup cannot reach them.
//!
//! A FEN can describe a board that no sequence of legal moves reaches. Some such positions make
//! play meaningless, and are refused with a plain message ([`unplayable`]):
//!
//! - in a game with `check`, every side has a royal piece, and the side that just moved has none
//!   attacked (else the side to move could capture a king), unless it may have passed in check
//!   there (`may pass in check when C`, janggi's pass while the generals face each other);
//! - pieces in hand in a game where nothing ever fills a hand;
//! - more pieces than the engine counts: where captured pieces come back to a hand, at most
//!   [`MAX_RETURNING`] pieces in all, so that no hand outgrows its 255 pieces of a type.
//!
//! Others are only unreachable from the game's setup, and play from them is well defined:
//! players and other engines write such test positions (Fairy-Stockfish plays them). They are
//! accepted, and what makes them unreachable is said ([`unreachable`]; `--strict` refuses them):
//!
//! - a piece where its type can never stand ([`reachable_squares`]: the squares a piece type
//!   reaches from its setup squares by its own moves, ignoring every other piece, plus those
//!   where promotions put it; a piece never stays on a square where it must promote);
//! - a side with more pieces than the setup gave it, counting promotions: each piece beyond the
//!   setup's count of a promotion choice needs a promoting piece missing from the board; and
//!   more pieces in hand than the setup gave where no rule adds to a hand.
//!
//! Games that drop pieces from the hand put them on squares their constraints decide, so only
//! the piece counts apply to them.

use crate::bitboard::Bitboard;
use crate::core::index::{pieces, sides, ByPiece, BySide, PieceId, SideId, Sq};
use crate::core::tables::targets;
use crate::expression::Judge;
use crate::position::Position;
use crate::rules::Rules;

/// Per side and piece type, the squares that piece type of that side can ever stand on; `None`
/// when the setup has pieces in hand to drop (any square may then be reached).
pub fn reachable_squares<B: Bitboard>(rules: &Rules<B>) -> Option<BySide<ByPiece<B>>> {
    let definition = &rules.definition();
    if definition.actions.drops && !definition.setup.hands.is_empty() {
        return None;
    }
    let mut reach: BySide<ByPiece<B>> = BySide::splat(ByPiece::splat(B::EMPTY));
    for placement in &definition.setup.board {
        reach[placement.side][placement.piece] |=
            B::single(rules.geometry().index(placement.square));
    }
    for castle in rules.castles() {
        for (from, to) in [
            (castle.king_from, castle.king_to),
            (castle.rook_from, castle.rook_to),
        ] {
            for squares in reach
                .iter_mut()
                .flat_map(|per_piece| per_piece.iter_mut())
                .filter(|squares| squares.has(from))
            {
                *squares |= B::single(to);
            }
        }
    }
    // Flood fill: a square reached lets the piece move on from it. Each pass only grows the sets.
    let mut explored: BySide<ByPiece<B>> = BySide::splat(ByPiece::splat(B::EMPTY));
    loop {
        let mut grew = false;
        for side in sides(rules.sides()) {
            for piece in pieces(rules.pieces()) {
                let fresh = reach[side][piece] & !explored[side][piece];
                if fresh.is_empty() {
                    continue;
                }
                explored[side][piece] |= fresh;
                grew = true;
                let moves = rules.moves_of(side, piece);
                for from in fresh.squares() {
                    let next = targets(
                        rules,
                        moves,
                        from,
                        B::EMPTY,
                        rules.geometry().board,
                        B::single(from),
                    ) | hop_reach(rules, moves, from);
                    match &moves.promotion {
                        Some(promotion) => {
                            let promoting = promotion.promoting(from, next);
                            reach[side][piece] |=
                                (next & !promoting) | promotion.also_plain(promoting);
                            for &choice in &promotion.choices {
                                reach[side][choice] |= promoting;
                            }
                        }
                        None => reach[side][piece] |= next,
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    // A piece taken over changes sides where it stands: any side's squares are then possible.
    if converts(rules) {
        for piece in pieces(rules.pieces()) {
            let anywhere =
                sides(rules.sides()).fold(B::EMPTY, |acc, side| acc | reach[side][piece]);
            for side in sides(rules.sides()) {
                reach[side][piece] = anywhere;
            }
        }
    }
    Some(reach)
}

/// The squares a piece's hops could reach from `from` with hurdles wherever it needs them: its
/// lines beyond the first square (on an empty board a hopper has nothing to jump).
fn hop_reach<B: Bitboard>(
    rules: &Rules<B>,
    moves: &crate::core::tables::PieceMoves<B>,
    from: Sq,
) -> B {
    moves.hops.iter().fold(B::EMPTY, |acc, hop| {
        let ray = &rules.rays()[hop.ray];
        let beyond = ray.beyond[from];
        let first = ray.first_blocker(beyond, beyond);
        acc | first.map_or(B::EMPTY, |first| beyond & !B::single(first))
    })
}

/// Whether some move converts a piece to the mover's side.
fn converts<B: Bitboard>(rules: &Rules<B>) -> bool {
    rules.converts_around() != 0
        || rules.movements().iter().any(|moves| {
            moves.routes.iter().any(|route| {
                route
                    .legs
                    .iter()
                    .any(|leg| leg.effect == variant_dsl::LegEffect::Convert)
            })
        })
}

/// The most pieces (board, hands and prisons together) of a game where captured pieces come
/// back to a hand: all of them in one hand must still fit a hand's count of a type.
pub const MAX_RETURNING: u32 = 255;

/// Why `position` cannot arise in this game, or `None` when nothing says it cannot: why the
/// rules cannot be played from it ([`unplayable`]), else the first reason the setup cannot
/// reach it ([`unreachable`]).
pub fn impossibility<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    unplayable(rules, position).or_else(|| unreachable(rules, position).into_iter().next())
}

/// Why the rules cannot be played from `position`, or `None`: a side without the royal piece
/// `check` needs, the side that just moved with a royal piece attacked, pieces in hand in a
/// game where nothing fills a hand, more pieces than the engine counts.
pub fn unplayable<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    royal_problem(rules, position)
        .or_else(|| hand_without_hands(rules, position))
        .or_else(|| past_limits(rules, position))
}

/// What makes `position`, which the rules can be played from, unreachable from the game's
/// setup: the first piece on a square its type never reaches, and the first piece count beyond
/// what the setup and promotions give; empty when neither is found.
pub fn unreachable<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<String> {
    unreachable_piece(rules, position)
        .into_iter()
        .chain(too_many_pieces(rules, position))
        .collect()
}

/// Pieces in hand in a game where no setup hand and no capture ever fills one.
fn hand_without_hands<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    if rules.definition().uses_hands() {
        return None;
    }
    for side in sides(rules.sides()) {
        for piece in pieces(rules.pieces()) {
            let held = position.hand(side, piece);
            // A supplied type is always held, from no hand.
            if held > 0 && rules.supply() >> piece.0 & 1 == 0 {
                return Some(format!(
                    "{} holds {held} {} in hand, but nothing in this game puts pieces in a hand",
                    side_name(rules, side),
                    piece_name(rules, piece),
                ));
            }
        }
    }
    None
}

/// More pieces than [`MAX_RETURNING`] in a game where captured pieces come back to a hand.
fn past_limits<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    if !rules.pieces_return() {
        return None;
    }
    let have = total_pieces(rules, position);
    (have > MAX_RETURNING).then(|| {
        format!(
            "{have} pieces on the board, in hand and in prison: captured pieces come back to a \
             hand here, and the engine counts at most {MAX_RETURNING} of them"
        )
    })
}

/// The pieces on the board, in hand and in prison.
fn total_pieces<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> u32 {
    position.occupied().count()
        + sides(rules.sides())
            .flat_map(|side| {
                pieces(rules.pieces()).map(move |piece| {
                    u32::from(position.hand(side, piece)) + u32::from(position.prison(side, piece))
                })
            })
            .sum::<u32>()
}

/// `count name`, with the name in the plural when the count is not one.
fn counted(count: u32, name: &str) -> String {
    if count == 1 {
        format!("1 {name}")
    } else {
        format!("{count} {name}s")
    }
}

fn side_name<B: Bitboard>(rules: &Rules<B>, side: SideId) -> &str {
    &rules.definition().sides[side.index()].name
}

fn piece_name<B: Bitboard>(rules: &Rules<B>, piece: PieceId) -> &str {
    &rules.definition().pieces[piece.index()].name
}

/// In a game with `check`: a side without a royal piece (unless `royal captured` ends the game
/// then), or the side that just moved with one attacked.
fn royal_problem<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    let end = &rules.definition().end;
    if !end.check || rules.royal().is_empty() {
        return None;
    }
    // A game lost by its royal piece's capture (atomic chess) is over without it, not broken.
    let lost_is_an_end = end.royal_captured.is_some();
    // A side whose setup has no royal piece plays without one (Horde's White): royalty is per
    // side, and `check` binds the sides that have a royal piece.
    let royal_at_start = |side: SideId| {
        let setup = &rules.definition().setup;
        setup
            .board
            .iter()
            .any(|p| p.side == side && rules.royal().contains(&p.piece))
            || setup
                .hands
                .iter()
                .any(|(s, piece, n)| *s == side && *n > 0 && rules.royal().contains(piece))
    };
    for side in sides(rules.sides()).filter(|&side| !lost_is_an_end && royal_at_start(side)) {
        let in_hand = rules
            .royal()
            .iter()
            .any(|&royal| position.hand(side, royal) > 0);
        if position.royals(rules, side).is_empty() && !in_hand {
            let names: Vec<&str> = rules
                .royal()
                .iter()
                .map(|&royal| piece_name(rules, royal))
                .collect();
            return Some(format!(
                "{} has no {} on the board, and this game is played with `check`",
                side_name(rules, side),
                names.join(" or ")
            ));
        }
    }
    let mover = position.previous_side(rules);
    let to_move = position.side_to_move(rules);
    // While placing, a side may attack the other's King: only its own must be safe.
    if mover == to_move || position.phase().is_some() {
        return None;
    }
    // The move that captured (exploded) the last royal piece of the side to move won the game,
    // whatever it left attacked (atomic chess): the game is over, not broken.
    if lost_is_an_end && position.royals(rules, to_move).is_empty() {
        return None;
    }
    // Duple check (`check when all royal pieces attacked`): one royal piece may stay attacked.
    if rules.definition().end.check_all_royals && !position.in_check(rules, mover) {
        return None;
    }
    // A pass changes no square: where the mover may pass in check, it may have passed here.
    if passed_in_check(rules, position, mover) {
        return None;
    }
    for square in position.royals(rules, mover).squares() {
        let checkers = position.checkers(rules, square, mover);
        if let Some(attacker) = checkers.squares().next() {
            let royal = position.at(square)?;
            let by = position.at(attacker)?;
            return Some(format!(
                "{}'s {} on {} is attacked by {}'s {} on {}, with {} to move: {} cannot have \
                 made the last move",
                side_name(rules, mover),
                piece_name(rules, royal.piece),
                rules.geometry().square(square),
                side_name(rules, by.side),
                piece_name(rules, by.piece),
                rules.geometry().square(attacker),
                side_name(rules, to_move),
                side_name(rules, mover),
            ));
        }
    }
    None
}

/// Whether `may pass in check when C` let `mover` pass on this board while in check: C holds
/// for it here (a pass leaves the board as it was), as janggi's pass while the generals face
/// each other. Such a position, its royal piece attacked with the other side to move, ends a
/// game the rules played, so it is readable.
fn passed_in_check<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, mover: SideId) -> bool {
    rules
        .expressions
        .pass_in_check
        .as_ref()
        .is_some_and(|condition| Judge::new(rules, position, mover).holds(condition))
}

/// A piece on a square its type can never stand on.
fn unreachable_piece<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    let reachable = rules.reachable.as_ref()?;
    let mut stranded = position.occupied().squares().filter(|&square| {
        position
            .at(square)
            .is_some_and(|occupant| !reachable[occupant.side][occupant.piece].has(square))
    });
    let first = stranded.next()?;
    let occupant = position.at(first)?;
    let more = stranded.count();
    let (side, piece) = (
        side_name(rules, occupant.side),
        piece_name(rules, occupant.piece),
    );
    let mut text = format!(
        "{side}'s {piece} on {}: no {piece} of {side} can ever stand there in this game",
        rules.geometry().square(first),
    );
    if more > 0 {
        text.push_str(&format!(
            " (nor can {} more piece{} where {} stand{})",
            more,
            if more == 1 { "" } else { "s" },
            if more == 1 { "it" } else { "they" },
            if more == 1 { "s" } else { "" },
        ));
    }
    Some(text)
}

/// More pieces of a side (board and hand) than its setup and its promotions can give it. In a
/// game where pieces change sides (conversions), all sides are counted together.
fn too_many_pieces<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Option<String> {
    let setup = &rules.definition().setup;
    if rules.supply() != 0 {
        // Drops from an endless supply: no count is out of reach.
        return None;
    }
    if rules.pieces_return() {
        // Captured pieces come back, changing sides or types (a promoted piece returns as what
        // it promoted from): only the total is bounded.
        let given = setup.board.len() as u32
            + setup.hands.iter().map(|&(_, _, n)| n).sum::<u32>()
            + setup.prisons.iter().map(|&(_, _, n)| n).sum::<u32>();
        let have = total_pieces(rules, position);
        return (have > given).then(|| {
            format!("{have} pieces on the board, in hand and in prison, but the game has {given}")
        });
    }
    let pooled = converts(rules);
    let groups: Vec<Vec<SideId>> = if pooled {
        vec![sides(rules.sides()).collect()]
    } else {
        sides(rules.sides()).map(|side| vec![side]).collect()
    };
    for group in groups {
        let side = group[0];
        let owner = if pooled {
            "the board".to_string()
        } else {
            side_name(rules, side).to_string()
        };
        let mine = group
            .iter()
            .fold(B::EMPTY, |acc, &s| acc | position.side_pieces(s));
        let count = |piece: PieceId| {
            (mine & position.typed(piece)).count()
                + group
                    .iter()
                    .map(|&s| u32::from(position.hand(s, piece)))
                    .sum::<u32>()
        };
        let given = |piece: PieceId| {
            let on_board = setup
                .board
                .iter()
                .filter(|p| group.contains(&p.side) && p.piece == piece)
                .count() as u32;
            let in_hand: u32 = setup
                .hands
                .iter()
                .filter(|(s, p, _)| group.contains(s) && *p == piece)
                .map(|&(_, _, n)| n)
                .sum();
            on_board.saturating_add(in_hand)
        };
        let promoters: Vec<PieceId> = pieces(rules.pieces())
            .filter(|&piece| rules.moves_of(side, piece).promotion.is_some())
            .collect();
        let is_choice = |piece: PieceId| {
            promoters.iter().any(|&p| {
                rules
                    .moves_of(side, p)
                    .promotion
                    .as_ref()
                    .is_some_and(|rule| rule.choices.contains(&piece))
            })
        };
        for piece in pieces(rules.pieces()) {
            let held = u32::from(position.hand(side, piece));
            let setup_held: u32 = setup
                .hands
                .iter()
                .filter(|&&(s, p, _)| s == side && p == piece)
                .map(|&(_, _, n)| n)
                .sum();
            if held > setup_held {
                return Some(format!(
                    "{} holds {held} {} in hand, but the game gives it {setup_held} there and \
                     nothing adds to a hand",
                    side_name(rules, side),
                    piece_name(rules, piece),
                ));
            }
        }
        let mut promoted = 0u32;
        let mut promoted_names = Vec::new();
        for piece in pieces(rules.pieces()) {
            let (have, had) = (count(piece), given(piece));
            if have <= had {
                continue;
            }
            if !is_choice(piece) {
                return Some(format!(
                    "{owner} has {}, but the game gives it {had} and no move makes more",
                    counted(have, piece_name(rules, piece)),
                ));
            }
            promoted += have - had;
            promoted_names.push(format!("{} {}", have - had, piece_name(rules, piece)));
        }
        let missing: u32 = promoters
            .iter()
            .map(|&p| given(p).saturating_sub(count(p)))
            .sum();
        if promoted > missing {
            let promoter_names: Vec<&str> =
                promoters.iter().map(|&p| piece_name(rules, p)).collect();
            return Some(format!(
                "{owner} has {} more than the game gives it, which needs {promoted} promotions, \
                 but only {missing} of its {} are missing from the board",
                promoted_names.join(" and "),
                promoter_names.join(" and "),
            ));
        }
    }
    None
}
