//! Sides and teams: `side` statements (direction, FEN letter, numbered squares, own letters),
//! `team` statements and the `turns` order.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::{Span, Spanned};
use crate::suggestion;
use crate::validate::names::PieceName;
use crate::validate::validator::{duplicate, not_supported, Validator};
use std::collections::HashMap;

/// The most sides a game may have in this version: FEN letter case can name only two.
pub const MAX_SIDES: usize = 4;

impl Validator<'_> {
    pub(super) fn sides(
        &mut self,
        statements: &[&SideStatement],
        board: Option<&BoardDef>,
    ) -> Vec<Spanned<SideDef>> {
        let mut sides: Vec<Spanned<SideDef>> = Vec::new();
        let mut letter_spans: Vec<Span> = Vec::new();
        for (index, statement) in statements.iter().enumerate() {
            let name = &statement.name;
            if let Some(first) = sides.iter().find(|side| side.node.name == name.node) {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_SIDE_NAME,
                        format!("the side `{}` is declared twice", name.node),
                        name.span,
                        "declared again here",
                    )
                    .with_secondary(first.span, "first declared here"),
                );
                continue;
            }
            if index >= MAX_SIDES {
                self.error(Diagnostic::error(
                    code::NOT_SUPPORTED,
                    format!(
                        "a game has at most {MAX_SIDES} sides; `{}` is one more",
                        name.node
                    ),
                    name.span,
                    "one side too many",
                ));
                continue;
            }
            let (side, letter_span) = self.side(statement, sides.len(), board);
            if let Some(first) = sides
                .iter()
                .position(|other| other.node.fen_letter == side.fen_letter)
            {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_SIDE_LETTER,
                        format!(
                            "the sides `{}` and `{}` have the same FEN letter `{}`",
                            sides[first].node.name, side.name, side.fen_letter
                        ),
                        letter_span,
                        "same letter",
                    )
                    .with_secondary(letter_spans[first], "first used here")
                    .with_help("give one of them another letter with `fen-letter`"),
                );
            }
            letter_spans.push(letter_span);
            sides.push(Spanned::new(side, name.span));
        }
        sides
    }

    /// One side; its FEN letter defaults to the first letter of its name, its forward direction
    /// to `up` for the first side and `down` for the others.
    pub(super) fn side(
        &mut self,
        statement: &SideStatement,
        index: usize,
        board: Option<&BoardDef>,
    ) -> (SideDef, Span) {
        let name = &statement.name;
        let mut forward = if index == 0 {
            Forward::Up
        } else {
            Forward::Down
        };
        let mut fen_letter = name.node.chars().next().unwrap_or('?').to_ascii_lowercase();
        let mut letter_span = name.span;
        let mut numbers = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for item in &statement.items {
            let keyword = match &item.node {
                SideItem::Forward(_) => "forward",
                SideItem::FenLetter(_) => "fen-letter",
                SideItem::Letters(_) => "letters",
                SideItem::Numbers(_) => "numbers",
                SideItem::Future(future) => {
                    self.error(not_supported(future));
                    continue;
                }
            };
            if let Some(first) = seen.insert(keyword, item.span) {
                self.error(duplicate(keyword, item.span, first));
                continue;
            }
            match &item.node {
                SideItem::Forward(direction) => match direction.node.as_str() {
                    "up" => forward = Forward::Up,
                    "down" => forward = Forward::Down,
                    _ => self.error(
                        Diagnostic::error(
                            code::BAD_FORWARD,
                            format!("`{}` is not a forward direction", direction.node),
                            direction.span,
                            "expected `up` or `down`",
                        )
                        .with_help(
                            suggestion::did_you_mean(&direction.node, ["up", "down"])
                                .unwrap_or_else(|| forward_help(board)),
                        ),
                    ),
                },
                SideItem::FenLetter(letter) => {
                    fen_letter = letter.node;
                    letter_span = letter.span;
                }
                SideItem::Numbers(ranges) => {
                    if let Some(board) = board {
                        numbers = self.numbered_squares(ranges, board);
                    }
                }
                SideItem::Letters(_) | SideItem::Future(_) => {}
            }
        }
        (
            SideDef {
                name: name.node.clone(),
                fen_letter,
                forward,
                letters: Vec::new(),
                numbers,
            },
            letter_span,
        )
    }

    /// `numbers a7-h7 a8-h8`: the squares in order, each range along a rank or a file.
    fn numbered_squares(
        &mut self,
        ranges: &[(Spanned<String>, Spanned<String>)],
        board: &BoardDef,
    ) -> Vec<Square> {
        let mut squares: Vec<Square> = Vec::new();
        for (first, last) in ranges {
            let (Some(from), Some(to)) =
                (self.square_on(first, board), self.square_on(last, board))
            else {
                continue;
            };
            if from.file != to.file && from.rank != to.rank {
                self.error(Diagnostic::error(
                    code::BAD_SQUARE,
                    format!(
                        "`{}-{}` is neither along a rank nor along a file",
                        first.node, last.node
                    ),
                    first.span.to(last.span),
                    "not a line",
                ));
                continue;
            }
            let steps = (i32::from(to.file) - i32::from(from.file))
                .abs()
                .max((i32::from(to.rank) - i32::from(from.rank)).abs());
            let (df, dr) = (
                (i32::from(to.file) - i32::from(from.file)).signum(),
                (i32::from(to.rank) - i32::from(from.rank)).signum(),
            );
            for step in 0..=steps {
                let square = Square {
                    file: (i32::from(from.file) + df * step) as u8,
                    rank: (i32::from(from.rank) + dr * step) as u8,
                };
                if squares.contains(&square) {
                    self.error(Diagnostic::error(
                        code::BAD_SQUARE,
                        format!("{square} is numbered twice"),
                        first.span.to(last.span),
                        "numbered again here",
                    ));
                }
                squares.push(square);
            }
        }
        squares
    }

    /// Each side's `letters`, resolved once the pieces are known. A third or later side must
    /// name a letter for every piece (letter case can tell only two sides apart), and no two
    /// (side, piece) pairs may share a letter.
    pub(super) fn side_letters(
        &mut self,
        statements: &[&SideStatement],
        pieces: &[PieceName<'_>],
        sides: &mut [Spanned<SideDef>],
    ) {
        for statement in statements {
            let Some(index) = sides
                .iter()
                .position(|side| side.node.name == statement.name.node)
            else {
                continue;
            };
            let given = statement.items.iter().find_map(|item| match &item.node {
                SideItem::Letters(pairs) => Some((pairs, item.span)),
                _ => None,
            });
            let Some((pairs, span)) = given else {
                if index >= 2 && !pieces.is_empty() {
                    self.error(
                        Diagnostic::error(
                            code::MISSING_STATEMENT,
                            format!(
                                "the side `{}` needs its own piece letters",
                                statement.name.node
                            ),
                            statement.name.span,
                            "a third side",
                        )
                        .with_help(
                            "letter case tells only two sides apart: add `letters King x Queen z ...` inside the block",
                        ),
                    );
                }
                continue;
            };
            let mut letters = vec!['\0'; pieces.len()];
            for (name, letter) in pairs {
                let Some(piece) = self.piece_id(name, pieces, "`letters`") else {
                    continue;
                };
                letters[piece.0 as usize] = letter.node;
            }
            let missing: Vec<&str> = pieces
                .iter()
                .zip(&letters)
                .filter(|(_, &letter)| letter == '\0')
                .map(|(piece, _)| piece.statement.name.node.as_str())
                .collect();
            if !missing.is_empty() {
                self.error(Diagnostic::error(
                    code::MISSING_STATEMENT,
                    format!("`letters` gives no letter for {}", missing.join(", ")),
                    span,
                    "every piece type needs a letter",
                ));
                continue;
            }
            sides[index].node.letters = letters;
        }
        // A promoted form (`letter +P`) is written `+` and its letter: it collides only with
        // another promoted form.
        let mut seen: HashMap<(char, bool), (String, String)> = HashMap::new();
        for (index, side) in sides.iter().enumerate() {
            if index >= 2 && side.node.letters.is_empty() {
                continue; // reported above
            }
            for (piece, def) in pieces.iter().enumerate() {
                let letter = match side.node.letters.get(piece) {
                    Some(&letter) => letter,
                    None => {
                        if index == 0 {
                            def.letter.to_ascii_uppercase()
                        } else {
                            def.letter.to_ascii_lowercase()
                        }
                    }
                };
                let owner = (side.node.name.clone(), def.statement.name.node.clone());
                if let Some(first) = seen.insert((letter, def.promoted_form), owner.clone()) {
                    self.error(
                        Diagnostic::error(
                            code::DUPLICATE_SIDE_LETTER,
                            format!(
                                "`{}{letter}` would stand for both {}'s {} and {}'s {}",
                                if def.promoted_form { "+" } else { "" },
                                first.0,
                                first.1,
                                owner.0,
                                owner.1
                            ),
                            side.span,
                            "letters collide",
                        )
                        .with_help(
                            "give the side its own letters with `letters King x Queen z ...`",
                        ),
                    );
                }
            }
        }
    }

    /// `team white black`: each side in at most one team.
    pub(super) fn teams(
        &mut self,
        statements: &[&TeamStatement],
        sides: &[Spanned<SideDef>],
    ) -> Vec<Vec<SideId>> {
        let mut teams: Vec<Vec<SideId>> = Vec::new();
        for statement in statements {
            let mut team = Vec::new();
            for name in &statement.sides {
                let Some(side) = self.side_id(name, sides, "`team`") else {
                    continue;
                };
                if team.contains(&side) || teams.iter().any(|t| t.contains(&side)) {
                    self.error(Diagnostic::error(
                        code::DUPLICATE_SIDE_NAME,
                        format!("`{}` is already in a team", name.node),
                        name.span,
                        "a side belongs to one team",
                    ));
                    continue;
                }
                team.push(side);
            }
            if team.len() > 1 {
                teams.push(team);
            }
        }
        teams
    }

    pub(super) fn turn_order(
        &mut self,
        turns: Option<&TurnsStatement>,
        sides: &[Spanned<SideDef>],
    ) -> Vec<SideId> {
        let Some(turns) = turns else {
            return (0..sides.len()).map(|index| SideId(index as u8)).collect();
        };
        turns
            .sides
            .iter()
            .filter_map(|name| self.side_id(name, sides, "`turns`"))
            .collect()
    }

    pub(super) fn side_id(
        &mut self,
        name: &Spanned<String>,
        sides: &[Spanned<SideDef>],
        context: &str,
    ) -> Option<SideId> {
        if let Some(index) = sides.iter().position(|side| side.node.name == name.node) {
            return Some(SideId(index as u8));
        }
        let names = sides.iter().map(|side| side.node.name.as_str());
        self.error(
            Diagnostic::error(
                code::UNKNOWN_SIDE,
                format!("unknown side `{}` in {context}", name.node),
                name.span,
                "not a side of this game",
            )
            .with_optional_help(suggestion::did_you_mean(&name.node, names)),
        );
        None
    }
}

/// What `forward` may say, with the ranks of this board.
fn forward_help(board: Option<&BoardDef>) -> String {
    let last = board.map_or("the last rank".to_string(), |board| {
        format!("rank {}, the last rank of this board", board.ranks)
    });
    format!("a side moves forward `up` (towards {last}) or `down` (towards rank 1)")
}
