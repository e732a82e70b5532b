//! What a front end draws: the board as cells, the last move's squares, and the hands.
//!
//! Why not the text diagram: a terminal front end colours squares and pieces and highlights the
//! last move, and a graphical one would place images; both need the board as data, by side and
//! piece, not as a string to pick apart.

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, SideId};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;

/// One square of the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Not part of the board.
    Hole,
    /// An empty square.
    Empty,
    /// The neutral piece (`neutral`), of no side: drawn `*`.
    Neutral,
    /// A piece.
    Piece {
        /// Its side's index in the definition.
        side: usize,
        /// Its letter as a FEN writes it (upper case for the first side).
        letter: char,
        /// Whether it is a promoted form (`letter +P`): written `+` and `letter`.
        promoted: bool,
    },
}

/// The board as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Number of files.
    pub files: usize,
    /// Number of ranks.
    pub ranks: usize,
    /// The cells, index `rank * files + file`, rank 0 at the bottom.
    pub cells: Vec<Cell>,
    /// Which cells are light squares.
    pub light: Vec<bool>,
    /// The cells the last move touched (origin and destination, or the square of a drop).
    pub last_move: Vec<usize>,
    /// Whether the game has promoted forms (`letter +P`), whose symbols take two characters: a
    /// text board then gives every cell the same wider column, whatever stands on it.
    pub promoted_forms: bool,
}

/// One side's hand: `(letter, piece name, count)` for every piece type it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    /// The side's name.
    pub side: String,
    /// The pieces held.
    pub pieces: Vec<(char, String, u32)>,
}

impl Cell {
    /// The piece as a FEN writes it (`P`, `+p`), or `None` for an empty square or a hole.
    pub fn symbol(&self) -> Option<String> {
        match *self {
            Cell::Piece {
                letter,
                promoted: true,
                ..
            } => Some(format!("+{letter}")),
            Cell::Piece { letter, .. } => Some(letter.to_string()),
            Cell::Neutral => Some("*".to_string()),
            _ => None,
        }
    }
}

/// The board of `position`, after `last` if a move was played.
pub fn board<B: Bitboard>(
    rules: &Rules<B>,
    position: &Position<B>,
    last: Option<Move>,
) -> BoardView {
    let geometry = &rules.geometry();
    let cells = geometry
        .grid()
        .map(|square| {
            if !geometry.on_board(square) {
                return Cell::Hole;
            }
            match position.at(square) {
                None if position.neutral_square(rules) == Some(square) => Cell::Neutral,
                None => Cell::Empty,
                Some(o) => Cell::Piece {
                    side: o.side.index(),
                    letter: rules.definition().piece_letter(o.side, o.piece),
                    promoted: rules.definition().pieces[o.piece.index()].promoted_form,
                },
            }
        })
        .collect();
    let last_move = match last {
        None => Vec::new(),
        Some(mv) if matches!(mv.kind, MoveKind::Drop(_)) => vec![mv.to.index()],
        Some(mv) => vec![mv.from.index(), mv.to.index()],
    };
    BoardView {
        files: geometry.files,
        ranks: geometry.ranks,
        cells,
        light: geometry
            .grid()
            .map(|square| geometry.light.has(square))
            .collect(),
        last_move,
        promoted_forms: rules.definition().pieces.iter().any(|p| p.promoted_form),
    }
}

/// Every side's hand, in side order (empty hands included).
pub fn hands<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> Vec<Hand> {
    (0..rules.sides())
        .map(|side| Hand {
            side: rules.definition().sides[side].name.clone(),
            pieces: (0..rules.pieces())
                .filter(|&piece| position.hand(SideId::new(side), PieceId::new(piece)) > 0)
                .map(|piece| {
                    let def = &rules.definition().pieces[piece];
                    (
                        def.letter,
                        def.name.clone(),
                        u32::from(position.hand(SideId::new(side), PieceId::new(piece))),
                    )
                })
                .collect(),
        })
        .collect()
}
