//! Board and zones: the `board` statement, squares and ranks on it, and zones (seen from each
//! side).

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::Spanned;
use crate::validate::names::{Context, NamedZone};
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
            Zone::Files { first, last } => {
                let (first_file, last_file) = (self.file(first, board), self.file(last, board));
                let (first_file, last_file) = (first_file?, last_file?);
                if first_file > last_file {
                    self.error(Diagnostic::error(
                        code::BAD_SQUARE,
                        format!("the files `{}-{}` are backwards", first.node, last.node),
                        first.span.to(last.span),
                        format!("write `{}-{}`", last.node, first.node),
                    ));
                    return None;
                }
                let mut squares: Vec<Square> = (0..board.ranks)
                    .flat_map(|rank| {
                        (first_file..=last_file).map(move |file| Square::new(file, rank))
                    })
                    .filter(|square| board.contains(*square))
                    .collect();
                squares.sort_by_key(|square| (square.rank, square.file));
                Some(vec![squares; context.sides.len()])
            }
            Zone::Named(name) => self.named_zone(name, context),
            Zone::Combined {
                operator,
                left,
                right,
            } => {
                let (left, right) = (self.zone(left, context), self.zone(right, context));
                let (left, right) = (left?, right?);
                Some(
                    left.into_iter()
                        .zip(right)
                        .map(|(left, right)| combine(*operator, left, right))
                        .collect(),
                )
            }
        }
    }

    /// A file letter, checked against the board.
    fn file(&mut self, letter: &Spanned<String>, board: &BoardDef) -> Option<u8> {
        let file = letter
            .node
            .bytes()
            .next()
            .map_or(u8::MAX, |b| b.wrapping_sub(b'a'));
        if file < board.files {
            return Some(file);
        }
        self.error(Diagnostic::error(
            code::BAD_SQUARE,
            format!(
                "file `{}` is off the board: it has {} files",
                letter.node, board.files
            ),
            letter.span,
            "no such file",
        ));
        None
    }

    /// `zone NAME`: a zone declared by an earlier `zone` statement.
    fn named_zone(
        &mut self,
        name: &Spanned<String>,
        context: &Context<'_>,
    ) -> Option<Vec<Vec<Square>>> {
        if let Some(zone) = context.zones.iter().find(|zone| zone.name == name.node) {
            return zone.squares.clone();
        }
        let help = crate::suggestion::did_you_mean(
            &name.node,
            context.zones.iter().map(|zone| zone.name.as_str()),
        )
        .unwrap_or_else(|| {
            "declare it with a `zone` statement such as `zone palace = ranks 1-3 and files d-f`; \
             a `zone` statement may use the zones declared before it"
                .to_string()
        });
        self.error(
            Diagnostic::error(
                code::UNKNOWN_ZONE,
                format!("unknown zone `{}`", name.node),
                name.span,
                "no `zone` statement declares it here",
            )
            .with_help(help),
        );
        None
    }

    /// The `zone` statements, in source order, each resolved against the ones before it.
    pub(super) fn named_zones(
        &mut self,
        statements: &[&ZoneStatement],
        context: &Context<'_>,
    ) -> Vec<NamedZone> {
        let mut zones: Vec<NamedZone> = Vec::new();
        for statement in statements {
            if let Some(first) = zones.iter().find(|zone| zone.name == statement.name.node) {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_ZONE,
                        format!("the zone `{}` is declared twice", statement.name.node),
                        statement.name.span,
                        "declared again here",
                    )
                    .with_secondary(first.span, "first declared here"),
                );
                continue;
            }
            let squares = self.zone(
                &statement.zone,
                &Context {
                    zones: &zones,
                    ..*context
                },
            );
            zones.push(NamedZone {
                name: statement.name.node.clone(),
                span: statement.name.span,
                squares,
            });
        }
        zones
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

/// Two zones of one side combined, in square order.
fn combine(operator: ZoneOperator, left: Vec<Square>, right: Vec<Square>) -> Vec<Square> {
    let mut squares: Vec<Square> = match operator {
        ZoneOperator::And => left.into_iter().filter(|s| right.contains(s)).collect(),
        ZoneOperator::Except => left.into_iter().filter(|s| !right.contains(s)).collect(),
        ZoneOperator::Or => {
            let mut all = left;
            all.extend(
                right
                    .into_iter()
                    .filter(|s| !all.contains(s))
                    .collect::<Vec<_>>(),
            );
            all
        }
    };
    squares.sort_by_key(|square| (square.rank, square.file));
    squares
}
