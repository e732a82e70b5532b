//! Board and zones: the `board` statement, squares and ranks on it, and zones (seen from each
//! side).

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::Spanned;
use crate::validate::names::Context;
use crate::validate::validator::{not_supported, Validator};

impl Validator<'_> {
    pub(super) fn board(&mut self, board: &BoardStatement) -> Option<BoardDef> {
        let files = self.board_edge(&board.files, "files");
        let ranks = self.board_edge(&board.ranks, "ranks");
        let mut holes = Vec::new();
        for item in &board.items {
            match &item.node {
                BoardItem::Future(future) => self.error(not_supported(future)),
                BoardItem::Holes(squares) => {
                    let (Some(files), Some(ranks)) = (files, ranks) else {
                        continue;
                    };
                    let grid = BoardDef {
                        files,
                        ranks,
                        holes: Vec::new(),
                    };
                    for square in squares {
                        if let Some(hole) = self.square_on(square, &grid) {
                            if !holes.contains(&hole) {
                                holes.push(hole);
                            }
                        }
                    }
                }
            }
        }
        holes.sort_by_key(|square: &Square| (square.rank, square.file));
        Some(BoardDef {
            files: files?,
            ranks: ranks?,
            holes,
        })
    }

    fn board_edge(&mut self, digits: &Spanned<String>, what: &str) -> Option<u8> {
        let edge = MAX_BOARD_EDGE as u64;
        let value = self.number(digits, 0, i64::MAX)?;
        if (1..=edge as i64).contains(&value) {
            return Some(value as u8);
        }
        self.error(Diagnostic::error(
            code::BOARD_SIZE,
            format!("a board has 1 to {edge} {what}, not {value}"),
            digits.span,
            format!("{value} {what}"),
        ));
        None
    }

    /// Reads a number written as digits (maybe with a `-`), reporting one out of `min..=max`.
    pub(super) fn number(&mut self, digits: &Spanned<String>, min: i64, max: i64) -> Option<i64> {
        match digits.node.parse::<i64>() {
            Ok(value) if (min..=max).contains(&value) => Some(value),
            _ => {
                self.error(Diagnostic::error(
                    code::NUMBER_OUT_OF_RANGE,
                    format!("the number `{}` is too large", digits.node),
                    digits.span,
                    format!("at most {max}"),
                ));
                None
            }
        }
    }

    /// A square name checked against the board (holes are off the board).
    pub(super) fn square_on(&mut self, name: &Spanned<String>, board: &BoardDef) -> Option<Square> {
        let Some(square) = Square::parse(&name.node) else {
            self.error(
                Diagnostic::error(
                    code::BAD_SQUARE,
                    format!("`{}` is not a square", name.node),
                    name.span,
                    "not a square",
                )
                .with_help("squares are a file letter and a rank from 1, such as `e4`"),
            );
            return None;
        };
        if board.contains(square) {
            return Some(square);
        }
        let message = if square.file < board.files && square.rank < board.ranks {
            format!("`{square}` is a hole of the board")
        } else {
            format!(
                "`{square}` is off the {}x{} board",
                board.files, board.ranks
            )
        };
        self.error(Diagnostic::error(
            code::OFF_BOARD,
            message,
            name.span,
            "not on the board",
        ));
        None
    }

    /// Resolves a zone for every side; `None` if it is faulty or the board is unknown.
    pub(super) fn zone(
        &mut self,
        zone: &Spanned<Zone>,
        context: &Context<'_>,
    ) -> Option<Vec<Vec<Square>>> {
        let board = context.board?;
        match &zone.node {
            Zone::Squares(names) => {
                let squares: Vec<Square> = names
                    .iter()
                    .filter_map(|name| self.square_on(name, board))
                    .collect();
                (squares.len() == names.len()).then(|| vec![squares; context.sides.len()])
            }
            Zone::LastRank => Some(self.ranks_per_side(board.ranks, board.ranks, context)),
            Zone::Rank(rank) => {
                let rank = self.rank(rank, board)?;
                Some(self.ranks_per_side(rank, rank, context))
            }
            Zone::Ranks { first, last } => {
                let (first_rank, last_rank) = (self.rank(first, board), self.rank(last, board));
                let (first_rank, last_rank) = (first_rank?, last_rank?);
                if first_rank > last_rank {
                    self.error(Diagnostic::error(
                        code::BAD_RANK,
                        format!("the ranks `{first_rank}-{last_rank}` are backwards"),
                        first.span.to(last.span),
                        format!("write `{last_rank}-{first_rank}`"),
                    ));
                    return None;
                }
                Some(self.ranks_per_side(first_rank, last_rank, context))
            }
        }
    }

    /// A rank number counted from the owner's first rank, checked against the board.
    pub(super) fn rank(&mut self, digits: &Spanned<String>, board: &BoardDef) -> Option<u8> {
        let rank = self.number(digits, 0, i64::MAX)?;
        if (1..=board.ranks as i64).contains(&rank) {
            return Some(rank as u8);
        }
        self.error(Diagnostic::error(
            code::BAD_RANK,
            format!("rank {rank} is off the board: it has {} ranks", board.ranks),
            digits.span,
            "no such rank",
        ));
        None
    }

    /// The squares of ranks `first..=last` counted from each side's first rank, holes left out.
    fn ranks_per_side(&self, first: u8, last: u8, context: &Context<'_>) -> Vec<Vec<Square>> {
        let Some(board) = context.board else {
            return Vec::new();
        };
        context
            .sides
            .iter()
            .map(|side| {
                let mut squares: Vec<Square> = (first..=last)
                    .map(|relative| match side.node.forward {
                        Forward::Up => relative - 1,
                        Forward::Down => board.ranks - relative,
                    })
                    .flat_map(|rank| (0..board.files).map(move |file| Square::new(file, rank)))
                    .filter(|square| board.contains(*square))
                    .collect();
                squares.sort_by_key(|square| (square.rank, square.file));
                squares
            })
            .collect()
    }
}
