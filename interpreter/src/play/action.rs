//! What a side plays: an ordinary [`Move`], or a policy's own action made of primitive board
//! edits.
//!
//! Why: a policy (§2.15 of the language) can build actions that no piece's movement makes, a
//! capture followed by a slide (`e7g5&e8d8`) or a jump (`c8~e4`). They are lists of
//! [`Edit`]s, played by [`Position::play_edits`], with what is needed to write them; the game
//! file says which edits, the core only applies them. A session keeps its history as actions
//! and dispatches on their type.

use crate::bitboard::Bitboard;
use crate::core::index::Sq;
use crate::edit::{Edit, Edits};
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::rules::Rules;

/// One action of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A move of the move generator (legal or, for a policy's candidates, allowed by the
    /// piece's movement).
    Move(Move),
    /// A policy's action made of edits.
    Edited(Edited),
}

/// A policy's action made of primitive edits, with how it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Edited {
    /// How it is written.
    pub written: Written,
    /// What it does, in order.
    pub edits: Edits,
}

/// How an action made of edits is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Written {
    /// A move followed by a slide (a policy's `then ... slides`): the move's squares, `&`,
    /// the slide's, `e7g5&e8d8`.
    Then {
        /// The move's start.
        from: u16,
        /// The move's end.
        to: u16,
        /// Where the sliding piece stood.
        slide_from: u16,
        /// Where it slid to.
        slide_to: u16,
    },
    /// A jump (a policy's `jump`): `c8~e4` when the jumper lands, `c8~e4x` when it is removed,
    /// `c8~e4-` when nothing happens (read from the edits).
    Jump {
        /// The jumper's square.
        from: u16,
        /// The square jumped to.
        to: u16,
    },
}

impl Action {
    /// The square the action starts from (the moving piece's).
    pub fn from(&self) -> Sq {
        match self {
            Action::Move(mv) => mv.from,
            Action::Edited(edited) => match edited.written {
                Written::Then { from, .. } | Written::Jump { from, .. } => Sq::new(from.into()),
            },
        }
    }

    /// The square the action is aimed at (the moving piece's destination).
    pub fn to(&self) -> Sq {
        match self {
            Action::Move(mv) => mv.to,
            Action::Edited(edited) => match edited.written {
                Written::Then { to, .. } | Written::Jump { to, .. } => Sq::new(to.into()),
            },
        }
    }

    /// The ordinary move, if it is one.
    pub fn as_move(&self) -> Option<Move> {
        match self {
            Action::Move(mv) => Some(*mv),
            Action::Edited(_) => None,
        }
    }

    /// The action in the game's notation: UCI for moves, the policy's marks for the rest.
    pub fn notation<B: Bitboard>(&self, rules: &Rules<B>) -> String {
        let square = |index: u16| rules.geometry().square(Sq::new(index.into())).to_string();
        match self {
            Action::Move(mv) => mv.uci(rules),
            Action::Edited(edited) => match edited.written {
                Written::Then {
                    from,
                    to,
                    slide_from,
                    slide_to,
                } => format!(
                    "{}{}&{}{}",
                    square(from),
                    square(to),
                    square(slide_from),
                    square(slide_to)
                ),
                Written::Jump { from, to } => {
                    let mark = match edited.edits.as_slice().first() {
                        None => "-",
                        Some(Edit::Remove(_)) => "x",
                        Some(_) => "",
                    };
                    format!("{}~{}{}", square(from), square(to), mark)
                }
            },
        }
    }

    /// Plays the action as the side to move's whole action.
    pub fn play<B: Bitboard>(&self, rules: &Rules<B>, position: &mut Position<B>) {
        match self {
            Action::Move(mv) => position.play_unchecked(rules, *mv),
            Action::Edited(edited) => position.play_edits(rules, edited.edits.as_slice()),
        }
    }

    /// The board after the action, before the turn passes (to judge what it leaves).
    pub fn after<B: Bitboard>(&self, rules: &Rules<B>, position: &Position<B>) -> Position<B> {
        let mut after = *position;
        match self {
            Action::Move(mv) => after.apply_action(rules, *mv),
            Action::Edited(edited) => after.apply_edits(rules, edited.edits.as_slice()),
        }
        after
    }

    /// The square of the enemy piece the action takes, if any: for a move its victim (en
    /// passant too), for edits the first enemy piece they remove or move onto.
    pub fn victim_square<B: Bitboard>(
        &self,
        rules: &Rules<B>,
        position: &Position<B>,
    ) -> Option<Sq> {
        let side = position.side_to_move(rules);
        let enemy = |square: Sq| {
            position
                .at(square)
                .is_some_and(|o| rules.is_enemy(side, o.side))
                .then_some(square)
        };
        match self {
            Action::Move(mv) => match mv.kind {
                MoveKind::EnPassant => position.en_passant().and_then(|ep| enemy(ep.victim)),
                MoveKind::Castle(_) | MoveKind::Drop(_) | MoveKind::Pass => None,
                _ => enemy(mv.to),
            },
            Action::Edited(edited) => edited.edits.as_slice().iter().find_map(|edit| match *edit {
                Edit::Move { to, .. } => enemy(to),
                Edit::Remove(square) => enemy(square),
                Edit::Place { .. } => None,
            }),
        }
    }
}

/// A move of the generator as edits: a capture by replacement or en passant, with its
/// promotion; `None` for castling, drops and passes, which are not edits of one piece.
pub fn move_edits<B: Bitboard>(position: &Position<B>, mv: Move) -> Option<Edits> {
    let step = Edit::Move {
        from: mv.from,
        to: mv.to,
    };
    let edits = match mv.kind {
        MoveKind::Normal if mv.converts.is_none() => Edits::of(&[step]),
        MoveKind::Promote(piece) => Edits::of(&[
            step,
            Edit::Place {
                square: mv.to,
                piece,
            },
        ]),
        MoveKind::EnPassant => {
            let victim = position.en_passant()?.victim;
            Edits::of(&[Edit::Remove(victim), step])
        }
        _ => None,
    }?;
    Some(edits)
}

impl Written {
    /// Whether `text` is written as an action made of edits: two squares, `&` and two squares
    /// (`e7g5&e8d8`), or a square, `~`, a square and an optional `x` or `-` (`c8~e4x`).
    pub fn is_written_so(text: &str) -> bool {
        let square = |s: &str| variant_dsl::Square::parse(s).is_some();
        let two_squares = |s: &str| {
            s.char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_lowercase())
                .is_some_and(|(at, _)| square(&s[..at]) && square(&s[at..]))
        };
        if let Some((first, slide)) = text.split_once('&') {
            return two_squares(first) && two_squares(slide);
        }
        if let Some((from, to)) = text.split_once('~') {
            let to = to.strip_suffix(['x', '-']).unwrap_or(to);
            return square(from) && square(to);
        }
        false
    }
}
