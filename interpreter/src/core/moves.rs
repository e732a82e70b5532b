//! Moves and their UCI notation.
//!
//! A [`Move`] is small and `Copy`: the squares it touches and what kind of move it is. What it
//! captures is read from the position when it is played. Notation follows UCI: `e2e4`,
//! promotion `e7e8q` (the lower-case letter of the new piece), castling as the king's move
//! `e1g1`, drops and placements `N@c3`; a piece taken over on the way is added as `^` and its
//! square (`c1e3^d2`). A move that gates a piece from the hand (`gating`) adds its lower-case
//! letter as Fairy-Stockfish writes it: `b1c3h`, castling `e1g1e` with the piece on the king's
//! square, and `h1e1e` (the rook's square, then the king's) with the piece on the rook's.
//! A move that ends by putting the neutral piece (`neutral`, kept in the gate's field) is the move, a comma, and the
//! neutral piece's placement written from the move's destination, as Fairy-Stockfish writes
//! duck chess: `e2e4,e4e5`, `e1g1,g1e1`, `b7a8q,a8b3`.

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
    /// A second placement as part of the move: a piece from the mover's hand on a square the
    /// move empties (`gating`), or the neutral piece moved (`neutral`).
    pub gate: Option<Gate>,
}

/// What a move places besides its own piece. One field for both, as a game has gating or a
/// neutral piece, never both (validation), and a move stays 8 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gate {
    /// `gating`: a piece of this type from the hand, on the square the move starts from (for
    /// castling, the king's start square).
    Hand(PieceId),
    /// `gating`, castling: a piece of this type from the hand on the rook's start square.
    HandOnRook(PieceId),
    /// `neutral`: the neutral piece, from wherever it stood (or off the board) to this square.
    Neutral(Sq),
}

impl Move {
    /// A plain move or capture.
    #[inline]
    pub fn normal(from: Sq, to: Sq) -> Self {
        Move {
            from,
            to,
            kind: MoveKind::Normal,
            converts: None,
            gate: None,
        }
    }

    /// A drop of `piece` from the hand on `to`.
    #[inline]
    pub fn drop(piece: PieceId, to: Sq) -> Self {
        Move {
            from: to,
            to,
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
    pub fn pass_at(square: Sq) -> Self {
        Move {
            from: square,
            to: square,
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
            gate: Some(if on_rook {
                Gate::HandOnRook(piece)
            } else {
                Gate::Hand(piece)
            }),
            ..self
        }
    }

    /// This move, ending by putting the neutral piece on `square`.
    #[inline]
    pub fn with_neutral(self, square: Sq) -> Self {
        Move {
            gate: Some(Gate::Neutral(square)),
            ..self
        }
    }

    /// Where the move puts the neutral piece (`neutral`), if it does.
    #[inline]
    pub fn neutral_square(&self) -> Option<Sq> {
        match self.gate {
            Some(Gate::Neutral(square)) => Some(square),
            _ => None,
        }
    }

    /// This move without the neutral piece's placement.
    #[inline]
    pub fn without_neutral(self) -> Self {
        match self.gate {
            Some(Gate::Neutral(_)) => Move { gate: None, ..self },
            _ => self,
        }
    }

    /// The piece a move gates from the hand, and whether on the rook's square (castling).
    #[inline]
    fn hand_gate(&self) -> Option<(PieceId, bool)> {
        match self.gate? {
            Gate::Hand(piece) => Some((piece, false)),
            Gate::HandOnRook(piece) => Some((piece, true)),
            Gate::Neutral(_) => None,
        }
    }

    /// The square a gated piece goes to, with its type.
    #[inline]
    pub fn gate_square<B: Bitboard>(&self, rules: &Tables<B>) -> Option<(PieceId, Sq)> {
        let (piece, on_rook) = self.hand_gate()?;
        let square = match self.kind {
            MoveKind::Castle(index) => {
                let castle = &rules.castles[index as usize];
                if on_rook {
                    castle.rook_from
                } else {
                    castle.king_from
                }
            }
            _ => self.from,
        };
        Some((piece, square))
    }

    /// The move in UCI notation, then `^` and the square of a piece taken over, if any
    /// (`c1e3^d2`, `b5d7m^c6`).
    pub fn uci<B: Bitboard>(&self, rules: &Tables<B>) -> String {
        let square = |square: Sq| rules.geometry.square(square).to_string();
        let mut text = match self.hand_gate() {
            None => self.plain_uci(rules),
            Some(gate) => self.gated_uci(rules, gate),
        };
        if let Some(converted) = self.converts {
            text.push('^');
            text.push_str(&square(converted));
        }
        if let Some(Gate::Neutral(neutral)) = self.gate {
            text.push(',');
            text.push_str(&square(self.to));
            text.push_str(&square(neutral));
        }
        text
    }

    /// A gating move as Fairy-Stockfish writes it: the move, then the gated piece's lower-case
    /// letter; castling that gates on the rook's square goes from the rook's square to the
    /// king's.
    fn gated_uci<B: Bitboard>(
        &self,
        rules: &Tables<B>,
        (piece, on_rook): (PieceId, bool),
    ) -> String {
        let square = |square: Sq| rules.geometry.square(square).to_string();
        let letter = rules.definition.pieces[piece.index()]
            .letter
            .to_ascii_lowercase();
        match self.kind {
            MoveKind::Castle(index) if on_rook => {
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
        let square = |square: Sq| rules.geometry.square(square).to_string();
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
        let gated = Move::normal(Sq(3), Sq(200)).gated(PieceId(19), true);
        assert_eq!(gated.from, Sq(3));
        assert_eq!(gated.to, Sq(200));
        assert_eq!(gated.gate, Some(Gate::HandOnRook(PieceId(19))));
        // A neutral piece's placement shares the field: still 8 bytes.
        let placed = Move::normal(Sq(12), Sq(28)).with_neutral(Sq(255));
        assert_eq!(placed.neutral_square(), Some(Sq(255)));
        assert_eq!(placed.without_neutral(), Move::normal(Sq(12), Sq(28)));
        assert_eq!(gated.neutral_square(), None);
    }
}
