//! Moves and their UCI notation.
//!
//! A [`Move`] is small and `Copy`: the squares it touches and what kind of move it is. What it
//! captures is read from the position when it is played. Notation follows UCI: `e2e4`,
//! promotion `e7e8q` (the lower-case letter of the new piece), castling as the king's move
//! `e1g1`, drops and placements `N@c3`; a piece taken over on the way is added as `^` and its
//! square (`c1e3^d2`).

use crate::bitboard::Bitboard;
use crate::core::index::{PieceId, Sq};
use crate::core::tables::Tables;

/// What kind of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move or a capture by replacement.
    Normal,
    /// A move or capture that promotes to the given piece type.
    Promote(PieceId),
    /// An en-passant capture.
    EnPassant,
    /// Castling, by index into [`Rules::castles`].
    Castle(u8),
    /// A piece from the hand put on an empty square.
    Drop(PieceId),
    /// No action: a side without a legal action passes (`pass when no action`), written `pass`.
    Pass,
}

/// One move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin square (equal to `to` for drops).
    pub from: Sq,
    /// Destination square.
    pub to: Sq,
    /// Kind.
    pub kind: MoveKind,
    /// A piece taken over on the way (a compound move's conversion): it changes owner to the
    /// mover's side where it stands.
    pub converts: Option<Sq>,
}

impl Move {
    /// A plain move or capture.
    #[inline]
    pub fn normal(from: usize, to: usize) -> Self {
        Move {
            from: Sq::new(from),
            to: Sq::new(to),
            kind: MoveKind::Normal,
            converts: None,
        }
    }

    /// A drop of `piece` from the hand on `to`.
    #[inline]
    pub fn drop(piece: PieceId, to: usize) -> Self {
        Move {
            from: Sq::new(to),
            to: Sq::new(to),
            kind: MoveKind::Drop(piece),
            converts: None,
        }
    }

    /// The pass.
    pub fn pass() -> Self {
        Move {
            from: Sq(0),
            to: Sq(0),
            kind: MoveKind::Pass,
            converts: None,
        }
    }

    /// A pass written, in a game with `may pass`, as `square` twice (`e2e2`): the passing side's
    /// royal piece's square, as Fairy-Stockfish writes janggi's pass.
    pub fn pass_at(square: usize) -> Self {
        Move {
            from: Sq::new(square),
            to: Sq::new(square),
            kind: MoveKind::Pass,
            converts: None,
        }
    }

    /// The move in UCI notation, then `^` and the square of a piece taken over, if any
    /// (`c1e3^d2`, `b5d7m^c6`).
    pub fn uci<B: Bitboard>(&self, rules: &Tables<B>) -> String {
        let square = |square: Sq| rules.geometry.square(square.index()).to_string();
        let mut text = self.plain_uci(rules);
        if let Some(converted) = self.converts {
            text.push('^');
            text.push_str(&square(converted));
        }
        text
    }

    fn plain_uci<B: Bitboard>(&self, rules: &Tables<B>) -> String {
        let square = |square: Sq| rules.geometry.square(square.index()).to_string();
        match self.kind {
            MoveKind::Pass if rules.definition.turn.may_pass => {
                format!("{}{}", square(self.from), square(self.to))
            }
            MoveKind::Pass => "pass".to_string(),
            MoveKind::Normal | MoveKind::EnPassant | MoveKind::Castle(_) => {
                format!("{}{}", square(self.from), square(self.to))
            }
            MoveKind::Promote(piece) => {
                // A promoted form (`letter +P`) is written `+`, as Fairy-Stockfish writes
                // shogi's promotions (`h8c3+`); any other choice by its lower-case letter.
                let chosen = &rules.definition.pieces[piece.index()];
                let mark = if chosen.promoted_form {
                    '+'
                } else {
                    chosen.letter.to_ascii_lowercase()
                };
                format!("{}{}{mark}", square(self.from), square(self.to))
            }
            MoveKind::Drop(piece) => format!(
                "{}@{}",
                rules.definition.pieces[piece.index()]
                    .letter
                    .to_ascii_uppercase(),
                square(self.to)
            ),
        }
    }
}
