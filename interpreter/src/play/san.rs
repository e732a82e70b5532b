//! Short algebraic notation (SAN), as players write and read moves: `Nf3`, `exd5`, `O-O`,
//! `e8=Q`, `Nbd7`, `Qh4#`, and drops `N@c3`.
//!
//! Why here and generic: a person types moves this way, and chess software reads PGN in it.
//! Nothing is chess-specific: a piece is written by its `letter`; a piece that promotes is
//! written without one, as pawns are; castling is `O-O` for a side's castling with the rook
//! nearest the king and `O-O-O` for the others; a move is disambiguated by file, then rank,
//! then square, when another piece of the same type can reach the same square (a letterless
//! piece by its file, then square: `ab3` and `cb3` for two Berolina pawns); a piece taken
//! over on the way is added as in the game's notation (`Ng5^f4`); a piece gated from the hand
//! (`gating`) as Fairy-Stockfish writes it, `/` and its letter (`Nc3/H`), with its square after
//! castling (`O-O/Eh1`, `O-O/Ee1`); `+` marks a move that leaves
//! the next side's royal piece attacked, `#` one that also leaves it no move.
//!
//! Reading is forgiving: the game's own notation (UCI) is accepted, `0-0`, a missing `=` or
//! `x`, and check marks are optional, and a move is accepted whenever exactly one legal move
//! fits what was written.
//!
//! Other programs' PGN (XBoard's, read by `replay`), where what was written fits no move:
//! - a move without a piece letter is a move of the piece lettered `P`, as SAN writes pawns
//!   (XBoard's shogi: `c4`, `dxd3`, where the game's own notation keeps the pawn's letter since
//!   its promotion is optional);
//! - a castling is also the castling piece's move to its square (XBoard's knightmate, whose
//!   castling piece is no `King` to XBoard: `Kg8` for `O-O`).
//!
//! And a `+` after a move that gives no check, where the same move may also promote, is that
//! promotion; an `=` after it, the move without one (XBoard's shogi: `Bxh8+`, `g3=`; XBoard
//! writes no check marks there). Where the move gives check, its `+` is read as a check mark
//! ([`PlusMark::Check`]) unless the reader says a `+` is always a promotion
//! ([`PlusMark::Promotion`]): `replay` tries that reading when a record fails the first, as an
//! XBoard record of shogi does when a promotion also gives check (`Ra1+`, then `+Rxa2`).

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId, Sq};
use crate::legal::legal_moves;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// Why typed text is not one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Neither the game's notation nor algebraic notation.
    NotAMove(String),
    /// Several legal moves fit.
    Ambiguous {
        /// As typed.
        text: String,
        /// The fitting moves, in SAN.
        candidates: Vec<String>,
    },
    /// Well formed, but no legal move fits. `uci` is the move it most likely means, written in
    /// the game's notation (for an explanation), when one piece could be meant.
    Illegal {
        /// As typed.
        text: String,
        /// The move meant, in UCI, when it can be told.
        uci: Option<String>,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::NotAMove(text) => write!(
                f,
                "`{text}` is not a move: write it as `Nf3`, `exd5`, `O-O`, `e8=Q`, `N@c3` or `e2e4`"
            ),
            InputError::Ambiguous { text, candidates } => {
                write!(
                    f,
                    "`{text}` is ambiguous: it could be {}",
                    candidates.join(" or ")
                )
            }
            InputError::Illegal { text, .. } => write!(f, "`{text}` is not a legal move here"),
        }
    }
}

/// A piece whose promotion is forced is written without its letter (as pawns are); one that
/// promotes optionally (shogi's) keeps it, or a shogi rook's move would read as a pawn's.
fn letterless<B: Bitboard>(rules: &Rules<B>, side: SideId, piece: PieceId) -> bool {
    rules
        .moves_of(side, piece)
        .promotion
        .as_ref()
        .is_some_and(|rule| !rule.optional)
}

fn square_name<B: Bitboard>(rules: &Rules<B>, square: Sq) -> String {
    rules.geometry().square(square).to_string()
}

/// The file letter and rank number of a square.
fn file_and_rank<B: Bitboard>(rules: &Rules<B>, square: Sq) -> (String, String) {
    let name = square_name(rules, square);
    let split = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    (name[..split].to_string(), name[split..].to_string())
}

/// SAN of `mv`, a legal move of `position` among `legal`, without the check mark.
fn bare<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, mv: Move, legal: &[Move]) -> String {
    if let Some(neutral) = mv.neutral_square() {
        // The move, then where it puts the neutral piece (`neutral`): `e4,e5`.
        let alone = mv.without_neutral();
        let square = square_name(rules, neutral);
        return format!("{},{square}", bare(rules, position, alone, legal));
    }
    let us = position.side_to_move(rules);
    let to = square_name(rules, mv.to);
    let letter = |piece: PieceId| {
        rules.definition().pieces[piece.index()]
            .letter
            .to_ascii_uppercase()
    };
    // A promoted form is written `+` and its letter (`+Pb3`, `d7=+P`).
    let symbol = |piece: PieceId| {
        let plus = if rules.definition().pieces[piece.index()].promoted_form {
            "+"
        } else {
            ""
        };
        format!("{plus}{}", letter(piece))
    };
    match mv.kind {
        MoveKind::Drop(piece) => return format!("{}@{to}", letter(piece)),
        MoveKind::Castle(index) => {
            return castle_name(rules, index as usize) + &gate_suffix(rules, mv, true)
        }
        MoveKind::Pass => return "pass".to_string(),
        _ => {}
    }
    let Some(mover) = position.at(mv.from) else {
        return mv.uci(rules);
    };
    let capture =
        mv.kind == MoveKind::EnPassant || position.at(mv.to).is_some_and(|o| o.side != us);
    let mut text = String::new();
    if letterless(rules, us, mover.piece) {
        text.push_str(&letterless_origin(rules, position, mv, capture, legal));
    } else {
        text.push_str(&symbol(mover.piece));
        text.push_str(&disambiguation(rules, position, mv, mover.piece, legal));
    }
    if capture {
        text.push('x');
    }
    text.push_str(&to);
    if let MoveKind::Promote(piece) = mv.kind {
        text.push('=');
        text.push_str(&symbol(piece));
    }
    // A piece taken over on the way, as in the game's notation: `Ng5^f4` and `Ng5` are two
    // different moves.
    if let Some(converted) = mv.converts {
        text.push('^');
        text.push_str(&square_name(rules, converted));
    }
    text.push_str(&gate_suffix(rules, mv, false));
    text
}

/// The gated piece of a move, as Fairy-Stockfish writes it: `/H`, and its square after
/// castling (`/Eh1`); empty for a move that gates nothing.
fn gate_suffix<B: Bitboard>(rules: &Rules<B>, mv: Move, with_square: bool) -> String {
    let Some((piece, square)) = mv.gate_square(rules) else {
        return String::new();
    };
    let letter = rules.definition().pieces[piece.index()]
        .letter
        .to_ascii_uppercase();
    if with_square {
        format!("/{letter}{}", square_name(rules, square))
    } else {
        format!("/{letter}")
    }
}

/// The castling XBoard writes `O-O/H`: the one legal castling that gates that piece on the
/// king's square, which this crate writes with the square (`O-O/He1`). XBoard's SAN names the
/// gated piece of a castling without its square, and means the king's (its move is the king's,
/// `e1g1h` in UCI); a castling gating on the rook's square is another move there.
fn castling_gating_on_the_king_s_square<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    wanted: &str,
    legal: &[Move],
) -> Option<Move> {
    if !wanted.starts_with("O-O") || !wanted.contains('/') {
        return None;
    }
    let fitting: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| {
            let MoveKind::Castle(index) = m.kind else {
                return false;
            };
            let king = rules.castles()[index as usize].king_from;
            m.gate_square(rules)
                .is_some_and(|(_, square)| square == king)
                && normalise(&bare(rules, position, m, legal))
                    == format!("{wanted}{}", square_name(rules, king))
        })
        .collect();
    match fitting[..] {
        [mv] => Some(mv),
        _ => None,
    }
}

/// `O-O` for the castling whose rook starts nearest the king, `O-O-O` for the others.
fn castle_name<B: Bitboard>(rules: &Rules<B>, index: usize) -> String {
    let castle = &rules.castles()[index];
    let files = rules.geometry().files;
    let distance = |c: &crate::rules::Castle<B>| {
        (c.rook_from.index() % files).abs_diff(c.king_from.index() % files)
    };
    let nearer = rules
        .castles()
        .iter()
        .filter(|c| c.side == castle.side && c.king_from == castle.king_from)
        .any(|c| distance(c) < distance(castle));
    if nearer { "O-O-O" } else { "O-O" }.to_string()
}

/// The origin written before a letterless piece's move: its file for a capture (`exd5`), and
/// when another piece of the type makes the same kind of move (capture or not) to the same
/// square, its file, or its square if the file is shared: Berolina's pawns step diagonally, so
/// a2-b3 and c2-b3 are `ab3` and `cb3`, never both `b3`.
fn letterless_origin<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mv: Move,
    capture: bool,
    legal: &[Move],
) -> String {
    let Some(mover) = position.at(mv.from) else {
        return String::new();
    };
    let us = position.side_to_move(rules);
    let captures =
        |m: &Move| m.kind == MoveKind::EnPassant || position.at(m.to).is_some_and(|o| o.side != us);
    let rivals: Vec<Sq> = legal
        .iter()
        .filter(|m| {
            m.to == mv.to
                && m.from != mv.from
                && matches!(
                    m.kind,
                    MoveKind::Normal | MoveKind::Promote(_) | MoveKind::EnPassant
                )
                && captures(m) == capture
                && position.at(m.from).map(|o| o.piece) == Some(mover.piece)
        })
        .map(|m| m.from)
        .collect();
    let (file, rank) = file_and_rank(rules, mv.from);
    if rivals.iter().any(|&r| file_and_rank(rules, r).0 == file) {
        file + &rank
    } else if capture || !rivals.is_empty() {
        file
    } else {
        String::new()
    }
}

/// The origin's file, rank or square when another piece of the type can reach the same square.
fn disambiguation<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mv: Move,
    piece: PieceId,
    legal: &[Move],
) -> String {
    let rivals: Vec<Sq> = legal
        .iter()
        .filter(|m| {
            m.to == mv.to
                && m.from != mv.from
                && matches!(m.kind, MoveKind::Normal | MoveKind::Promote(_))
                && position.at(m.from).is_some_and(|o| o.piece == piece)
        })
        .map(|m| m.from)
        .collect();
    if rivals.is_empty() {
        return String::new();
    }
    let (file, rank) = file_and_rank(rules, mv.from);
    if rivals.iter().all(|&r| file_and_rank(rules, r).0 != file) {
        file
    } else if rivals.iter().all(|&r| file_and_rank(rules, r).1 != rank) {
        rank
    } else {
        file + &rank
    }
}

/// SAN of a legal move, with `+` or `#`.
pub fn san<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    mv: Move,
    legal: &[Move],
) -> String {
    let mut text = bare(rules, position, mv, legal);
    if rules.definition().end.check {
        let mut next = *position;
        next.play_unchecked(rules, mv);
        let them = next.side_to_move(rules);
        if next.in_check(rules, them) {
            text.push(if legal_moves(rules, &next).is_empty() {
                '#'
            } else {
                '+'
            });
        }
    }
    text
}

/// The text with what SAN leaves optional removed: check marks, annotations, `=`, and zeros
/// for castling's letter O.
fn normalise(text: &str) -> String {
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let castling = trimmed.replace('0', "O");
    if castling.chars().all(|c| c == 'O' || c == '-') {
        return castling;
    }
    trimmed.replace('=', "")
}

/// The parts of an algebraic move: `[Piece][file][rank][x]square[=Promotion]`, where a piece
/// may be a promoted form, `+` and its letter (`+Pc8`, `c7=+P`).
#[derive(Clone, Debug, Default)]
struct Written {
    piece: Option<char>,
    /// The piece was written `+P`: the promoted form of the piece lettered `P`.
    promoted_piece: bool,
    from_file: Option<String>,
    from_rank: Option<String>,
    to: String,
    promotion: Option<char>,
    /// The promotion was written `=+P`: to a promoted form.
    promotion_to_promoted: bool,
}

/// Splits a normalised algebraic move into its parts.
fn parse(text: &str) -> Option<Written> {
    if !text.is_ascii() {
        return None;
    }
    let mut rest = text;
    let mut written = Written::default();
    if let Some(promoted) = rest.strip_prefix('+') {
        written.promoted_piece = true;
        rest = promoted;
    }
    let first = rest.chars().next()?;
    if first.is_ascii_uppercase() {
        written.piece = Some(first);
        rest = &rest[1..];
    } else if written.promoted_piece {
        return None;
    }
    // The promotion: a trailing letter after the last digit, `+` before it for a promoted form.
    let last = rest.chars().last()?;
    if last.is_ascii_alphabetic() && rest.len() > 2 {
        written.promotion = Some(last.to_ascii_uppercase());
        rest = &rest[..rest.len() - 1];
        if let Some(plain) = rest.strip_suffix('+') {
            written.promotion_to_promoted = true;
            rest = plain;
        }
    }
    let digits_end = rest.len();
    let digits_start = rest.rfind(|c: char| !c.is_ascii_digit())? + 1;
    // Files are single letters (boards are at most 16 files wide).
    let to_file_start = digits_start.checked_sub(1)?;
    if digits_start == digits_end || !rest.as_bytes()[to_file_start].is_ascii_lowercase() {
        return None;
    }
    written.to = rest[to_file_start..digits_end].to_string();
    let mut origin = rest[..to_file_start].trim_end_matches(['x', ':', '-']);
    let file_end = origin
        .find(|c: char| !c.is_ascii_lowercase())
        .unwrap_or(origin.len());
    if file_end > 0 {
        written.from_file = Some(origin[..file_end].to_string());
    }
    origin = &origin[file_end..];
    if !origin.is_empty() {
        if !origin.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        written.from_rank = Some(origin.to_string());
    }
    Some(written)
}

/// What a single `+` after a move that may promote means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PlusMark {
    /// A check mark where the move without promotion gives check, else the promotion (SAN as
    /// this crate writes it, where a promotion ends with the piece it makes).
    #[default]
    Check,
    /// Always the promotion (XBoard's shogi, which marks no check).
    Promotion,
}

impl PlusMark {
    /// Whether the text ends with a single `+` (a check mark, or XBoard's shogi promotion):
    /// the mark this type says how to read. A mate mark or annotation after it does not hide it
    /// (XBoard's shogi writes a mating promotion `R1xb2+#`).
    pub fn ends(text: &str) -> bool {
        let text = without_mate_mark(text);
        text.ends_with('+') && !text.ends_with("++")
    }

    /// Whether the `+` is followed by a mate mark (`R1xb2+#`): then it cannot be a check mark,
    /// which `#` replaces, and is a promotion however `+` is read.
    fn before_mate_mark(text: &str) -> bool {
        let text = text.trim_end().trim_end_matches(['!', '?']);
        text.ends_with("+#") && Self::ends(text)
    }
}

/// The text without its annotations and one mate mark after them.
fn without_mate_mark(text: &str) -> &str {
    let text = text.trim_end().trim_end_matches(['!', '?']);
    text.strip_suffix('#').unwrap_or(text)
}

/// Resolves typed text to one legal move of `position`: the game's notation first, then SAN.
pub fn resolve<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    text: &str,
) -> Result<Move, InputError> {
    resolve_with(rules, position, text, PlusMark::Check)
}

/// [`resolve`], with a `+` read as `plus` says.
pub fn resolve_with<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    text: &str,
    plus: PlusMark,
) -> Result<Move, InputError> {
    let text = text.trim();
    let legal = legal_moves(rules, position);
    if let Some(&mv) = legal.iter().find(|m| m.uci(rules) == text) {
        return Ok(mv);
    }
    let wanted = normalise(text);
    let exact: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&m| normalise(&bare(rules, position, m, &legal)) == wanted)
        .collect();
    if let [mv] = exact[..] {
        return Ok(promotion_marked(rules, position, text, mv, &legal, plus));
    }
    if wanted.contains('@') {
        return Err(InputError::Illegal {
            text: text.to_string(),
            uci: Some(wanted),
        });
    }
    if let Some(mv) = castling_gating_on_the_king_s_square(rules, position, &wanted, &legal) {
        return Ok(mv);
    }
    if wanted.starts_with("O-O") {
        return Err(InputError::Illegal {
            text: text.to_string(),
            uci: castling_meant(rules, position, &wanted),
        });
    }
    let Some(written) = parse(&wanted) else {
        return Err(InputError::NotAMove(text.to_string()));
    };
    let fitting = |written: &Written| -> Vec<Move> {
        legal
            .iter()
            .copied()
            .filter(|&m| fits(rules, position, written, m))
            .collect()
    };
    let mut candidates = fitting(&written);
    if candidates.is_empty() && written.piece.is_none() {
        candidates = fitting(&Written {
            piece: Some('P'),
            ..written.clone()
        });
    }
    if candidates.is_empty() {
        candidates = legal
            .iter()
            .copied()
            .filter(|&m| castling_fits(rules, position, &written, m))
            .collect();
    }
    if candidates.len() > 1 {
        candidates = by_promotion_mark(text, candidates);
    }
    match candidates.len() {
        1 => Ok(promotion_marked(
            rules,
            position,
            text,
            candidates[0],
            &legal,
            plus,
        )),
        0 => Err(InputError::Illegal {
            text: text.to_string(),
            uci: meant(rules, position, &written),
        }),
        _ => Err(InputError::Ambiguous {
            text: text.to_string(),
            candidates: candidates
                .iter()
                .map(|&m| bare(rules, position, m, &legal))
                .collect(),
        }),
    }
}

/// Of several fitting moves, the promotions when the text ends with one `+`, the moves without
/// promotion when it ends with `=` (XBoard's shogi), if that leaves one; else all of them.
fn by_promotion_mark(text: &str, candidates: Vec<Move>) -> Vec<Move> {
    let promotes = |m: &Move| matches!(m.kind, MoveKind::Promote(_));
    let kept: Vec<Move> = if PlusMark::ends(text) {
        candidates.iter().copied().filter(promotes).collect()
    } else if text.trim_end().ends_with('=') {
        candidates
            .iter()
            .copied()
            .filter(|m| !promotes(m))
            .collect()
    } else {
        return candidates;
    };
    if kept.len() == 1 {
        kept
    } else {
        candidates
    }
}

/// `mv`, or the one promotion of the same piece between the same squares when the text ends
/// with a `+` that `mv` does not earn as a check (`Bxh8+` in XBoard's shogi), with a `+` before
/// a mate mark (`R1xb2+#`), or with any `+` when `plus` says it is a promotion.
fn promotion_marked<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    text: &str,
    mv: Move,
    legal: &[Move],
    plus: PlusMark,
) -> Move {
    if !PlusMark::ends(text) || matches!(mv.kind, MoveKind::Promote(_)) {
        return mv;
    }
    if plus == PlusMark::Check && !PlusMark::before_mate_mark(text) && rules.definition().end.check
    {
        let mut next = *position;
        next.play_unchecked(rules, mv);
        if next.in_check(rules, next.side_to_move(rules)) {
            return mv;
        }
    }
    let promotions: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from == mv.from && m.to == mv.to && matches!(m.kind, MoveKind::Promote(_)))
        .collect();
    match promotions[..] {
        [promotion] => promotion,
        _ => mv,
    }
}

/// Whether a castling fits a move written as its castling piece's: the piece's letter, the
/// square it castles to, and its square if written (`Kg8` for black's `O-O` in XBoard's
/// knightmate).
fn castling_fits<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    written: &Written,
    mv: Move,
) -> bool {
    let MoveKind::Castle(index) = mv.kind else {
        return false;
    };
    let castle = &rules.castles()[index as usize];
    let Some(king) = position.at(castle.king_from) else {
        return false;
    };
    let letter = rules.definition().pieces[king.piece.index()]
        .letter
        .to_ascii_uppercase();
    let (file, rank) = file_and_rank(rules, castle.king_from);
    written.piece == Some(letter)
        && !written.promoted_piece
        && written.promotion.is_none()
        && square_name(rules, castle.king_to) == written.to
        && written.from_file.as_ref().is_none_or(|f| *f == file)
        && written.from_rank.as_ref().is_none_or(|r| *r == rank)
}

/// Whether a legal move fits the written parts.
fn fits<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    written: &Written,
    mv: Move,
) -> bool {
    if matches!(mv.kind, MoveKind::Drop(_) | MoveKind::Castle(_)) {
        return false;
    }
    let Some(mover) = position.at(mv.from) else {
        return false;
    };
    let us = position.side_to_move(rules);
    let letter = rules.definition().pieces[mover.piece.index()]
        .letter
        .to_ascii_uppercase();
    let promoted_form = |piece: PieceId| rules.definition().pieces[piece.index()].promoted_form;
    let piece_ok = match written.piece {
        Some(p) => p == letter && written.promoted_piece == promoted_form(mover.piece),
        None => letterless(rules, us, mover.piece),
    };
    let (file, rank) = file_and_rank(rules, mv.from);
    let promotion_ok = match (written.promotion, mv.kind) {
        (Some(p), MoveKind::Promote(piece)) => {
            rules.definition().pieces[piece.index()]
                .letter
                .to_ascii_uppercase()
                == p
                && written.promotion_to_promoted == promoted_form(piece)
        }
        (Some(_), _) => false,
        (None, _) => true,
    };
    piece_ok
        && promotion_ok
        && square_name(rules, mv.to) == written.to
        && written.from_file.as_ref().is_none_or(|f| *f == file)
        && written.from_rank.as_ref().is_none_or(|r| *r == rank)
}

/// The move most likely meant by an illegal written move, in UCI: when exactly one piece of the
/// side to move fits the written piece and origin.
fn meant<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    written: &Written,
) -> Option<String> {
    let us = position.side_to_move(rules);
    let origins: Vec<Sq> = position
        .side_pieces(us)
        .squares()
        .filter(|&square| {
            let Some(o) = position.at(square) else {
                return false;
            };
            let letter = rules.definition().pieces[o.piece.index()]
                .letter
                .to_ascii_uppercase();
            let (file, rank) = file_and_rank(rules, square);
            let piece_ok = match written.piece {
                Some(p) => p == letter,
                None => letterless(rules, us, o.piece),
            };
            piece_ok
                && written.from_file.as_ref().is_none_or(|f| *f == file)
                && written.from_rank.as_ref().is_none_or(|r| *r == rank)
        })
        .collect();
    // Of several pieces that fit, the one whose movement reaches the square (the others'
    // cannot be meant), ignoring what makes the move illegal: that is for the explanation.
    let reaching = |blocked_too: bool| -> Vec<Sq> {
        match board_square(rules, &written.to) {
            Some(to) => origins
                .iter()
                .copied()
                .filter(|&from| reaches(rules, position, from, to, blocked_too))
                .collect(),
            None => Vec::new(),
        }
    };
    let from = match (&origins[..], &reaching(false)[..], &reaching(true)[..]) {
        ([from], _, _) | (_, [from], _) | (_, [], [from]) => *from,
        _ => return None,
    };
    let promotion = written
        .promotion
        .map(|p| p.to_ascii_lowercase().to_string())
        .unwrap_or_default();
    Some(format!(
        "{}{}{promotion}",
        square_name(rules, from),
        written.to
    ))
}

/// The square written as text, if it is on the board.
fn board_square<B: Bitboard>(rules: &Rules<B>, text: &str) -> Option<Sq> {
    let square = variant_dsl::Square::parse(text)?;
    let geometry = &rules.geometry();
    if usize::from(square.file) >= geometry.files || usize::from(square.rank) >= geometry.ranks {
        return None;
    }
    let square = geometry.index(square);
    geometry.on_board(square).then_some(square)
}

/// Whether the piece on `from` moves to `to` by its movement alone (as if every piece in its
/// way could be captured, en passant included; its movement includes `may not hop over` and
/// `may not capture`, so a janggi cannon does not reach over a cannon), whatever the rules
/// that may forbid it; with `blocked_too`, also a move that pieces in the way block (as if the
/// board were empty).
fn reaches<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    from: Sq,
    to: Sq,
    blocked_too: bool,
) -> bool {
    let Some(mover) = position.at(from) else {
        return false;
    };
    let moves = rules.moves_of(mover.side, mover.piece);
    let occupied = position.occupied();
    let everywhere = !B::EMPTY;
    let barred = crate::core::tables::Barred::of(moves, |piece| position.typed(piece));
    crate::core::tables::targets_barred(rules, moves, from, B::EMPTY, occupied, occupied, barred)
        .has(to)
        || (blocked_too
            && crate::core::tables::targets(rules, moves, from, B::EMPTY, everywhere, B::EMPTY)
                .has(to))
        || position
            .en_passant()
            .is_some_and(|ep| ep.target == to && moves.en_passant[from].has(to))
}

/// The castling `O-O` or `O-O-O` names for the side to move, as the king's move in the game's
/// notation, when the king stands where that castling starts (legal or not).
fn castling_meant<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    wanted: &str,
) -> Option<String> {
    let us = position.side_to_move(rules);
    let named: Vec<&crate::rules::Castle<B>> = rules
        .castles()
        .iter()
        .enumerate()
        .filter(|(index, castle)| {
            castle.side == us
                && castle_name(rules, *index) == wanted
                && position
                    .at(castle.king_from)
                    .is_some_and(|o| o.side == us && castle.king_is(o.piece, rules.royal()))
        })
        .map(|(_, castle)| castle)
        .collect();
    let [castle] = named[..] else {
        return None;
    };
    Some(format!(
        "{}{}",
        square_name(rules, castle.king_from),
        square_name(rules, castle.king_to)
    ))
}

#[cfg(test)]
mod tests {
    use super::{normalise, parse, PlusMark};

    #[test]
    fn written_moves_split_into_parts() {
        let w = parse("Nbd2").expect("parses");
        assert_eq!(
            (w.piece, w.from_file.as_deref(), w.to.as_str()),
            (Some('N'), Some("b"), "d2")
        );
        let w = parse("exd5").expect("parses");
        assert_eq!(
            (w.piece, w.from_file.as_deref(), w.to.as_str()),
            (None, Some("e"), "d5")
        );
        let w = parse(&normalise("e8=Q+")).expect("parses");
        assert_eq!((w.to.as_str(), w.promotion), ("e8", Some('Q')));
        let w = parse("R1a3").expect("parses");
        assert_eq!((w.from_rank.as_deref(), w.to.as_str()), (Some("1"), "a3"));
        let w = parse("a10").expect("parses");
        assert_eq!(w.to, "a10");
        for bad in ["", "x", "N", "Nf", "hello", "e2-", "12"] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn castling_accepts_zeros() {
        assert_eq!(normalise("0-0-0+"), "O-O-O");
        assert_eq!(normalise("e8=Q#"), "e8Q");
    }

    #[test]
    fn a_plus_is_seen_behind_a_mate_mark_and_annotations() {
        for marked in ["Rb2+", "Rb2+#", "Rb2+!", "Rb2+#?!", "Rb2+ "] {
            assert!(PlusMark::ends(marked), "{marked}");
        }
        for unmarked in ["Rb2", "Rb2#", "Rb2++", "Rb2++#", "Rb2!"] {
            assert!(!PlusMark::ends(unmarked), "{unmarked}");
        }
        assert!(PlusMark::before_mate_mark("Rb2+#"));
        assert!(PlusMark::before_mate_mark("Rb2+#!"));
        assert!(!PlusMark::before_mate_mark("Rb2+"));
        assert!(!PlusMark::before_mate_mark("Rb2#"));
        assert!(!PlusMark::before_mate_mark("Rb2++#"));
    }
}
