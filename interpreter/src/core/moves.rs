//! Moves and their UCI notation.
//!
//! A [`Move`] is small and `Copy`: the squares it touches and what kind of move it is. What it
//! captures is read from the position when it is played. Notation follows UCI: `e2e4`,
//! promotion `e7e8q` (the lower-case letter of the new piece), castling as the king's move
//! `e1g1`, drops and placements `N@c3`; a piece taken over on the way is added as `^` and its
//! square (`c1e3^d2`). A move that gates a piece from the hand (`gating`) adds its lower-case
//! letter as Fairy-Stockfish writes it: `b1c3h`, castling `e1g1e` with the piece on the king's
//! square, and `h1e1e` (the rook's square, then the king's) with the piece on the rook's.

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
    /// A piece from the mover's hand placed on a square the move empties (`gating`).
    pub gate: Option<Gate>,
}

/// A piece from the hand placed, as part of a move, on a square the move leaves (`gating`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gate {
    /// The type placed, from the mover's hand.
    pub piece: PieceId,
    /// For castling: on the rook's start square (else the king's). Any other move gates on the
    /// square it starts from.
    pub on_rook: bool,
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
            gate: None,
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
            gate: None,
        }
    }

    /// The pass.
    pub fn pass() -> Self {
        Move {
            from: Sq(0),
            to: Sq(0),
            kind: MoveKind::Pass,
            converts: None,
            gate: None,
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
            gate: None,
        }
    }

    /// This move, placing `piece` from the hand on the square it leaves (for castling, the
    /// rook's start square when `on_rook`, else the king's).
    #[inline]
    pub fn gated(self, piece: PieceId, on_rook: bool) -> Self {
        Move {
            gate: Some(Gate { piece, on_rook }),
            ..self
        }
    }

    /// The square a gated piece goes to, with its type.
    #[inline]
    pub fn gate_square<B: Bitboard>(&self, rules: &Tables<B>) -> Option<(PieceId, usize)> {
        let gate = self.gate?;
        let square = match self.kind {
            MoveKind::Castle(index) => {
                let castle = &rules.castles[index as usize];
                if gate.on_rook {
                    castle.rook_from
                } else {
                    castle.king_from
                }
            }
            _ => self.from.index(),
        };
        Some((gate.piece, square))
    }

    /// The move in UCI notation, then `^` and the square of a piece taken over, if any
    /// (`c1e3^d2`, `b5d7m^c6`).
    pub fn uci<B: Bitboard>(&self, rules: &Tables<B>) -> String {
        let square = |square: Sq| rules.geometry.square(square.index()).to_string();
        let mut text = match self.gate {
            None => self.plain_uci(rules),
            Some(gate) => self.gated_uci(rules, gate),
        };
        if let Some(converted) = self.converts {
            text.push('^');
            text.push_str(&square(converted));
        }
        text
    }

    /// A gating move as Fairy-Stockfish writes it: the move, then the gated piece's lower-case
    /// letter; castling that gates on the rook's square goes from the rook's square to the
    /// king's.
    fn gated_uci<B: Bitboard>(&self, rules: &Tables<B>, gate: Gate) -> String {
        let square = |square: usize| rules.geometry.square(square).to_string();
        let letter = rules.definition.pieces[gate.piece.index()]
            .letter
            .to_ascii_lowercase();
        match self.kind {
            MoveKind::Castle(index) if gate.on_rook => {
                let castle = &rules.castles[index as usize];
                format!(
                    "{}{}{letter}",
                    square(castle.rook_from),
                    square(castle.king_from)
                )
            }
            _ => format!("{}{letter}", self.plain_uci(rules)),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Move lists and the search's tables copy moves at every node: a move stays 8 bytes,
    /// its conversion and gate included (it grew to 12 with the gate, and perft paid for it).
    #[test]
    fn a_move_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<Move>(), 8);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 8);
        let gated = Move::normal(3, 200).gated(PieceId(19), true);
        assert_eq!(gated.from, Sq(3));
        assert_eq!(gated.to, Sq(200));
        assert_eq!(
            gated.gate,
            Some(Gate {
                piece: PieceId(19),
                on_rook: true
            })
        );
    }
}
