//! Castling: the `castling` statement, its rights and what each castle moves.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::Span;
use crate::validate::names::Context;
use crate::validate::validator::Validator;

/// The most castling rights a game may declare: a position keeps them in 32 bits.
pub const MAX_CASTLING_RIGHTS: usize = 32;

impl Validator<'_> {
    pub(super) fn castling(
        &mut self,
        castling: &CastlingStatement,
        context: &Context<'_>,
    ) -> Vec<CastlingDef> {
        let mut rights: Vec<(CastlingDef, Span)> = Vec::new();
        for castle in &castling.castles {
            let castle = &castle.node;
            let side = self.side_id(&castle.side, context.sides, "`castling`");
            let squares = [
                &castle.king_from,
                &castle.king_to,
                &castle.rook_from,
                &castle.rook_to,
            ]
            .map(|name| context.board.and_then(|board| self.square_on(name, board)));
            let Some(side) = side else { continue };
            let letter = castle.letter.node;
            let own_letters = &context.sides[side.0 as usize].node.letters;
            if !own_letters.is_empty() {
                if !own_letters.contains(&letter) {
                    let written: String = own_letters.iter().collect();
                    self.error(
                        Diagnostic::error(
                            code::CASTLING_LETTER,
                            format!(
                                "the castling right `{letter}` of `{}` is not one of its letters",
                                castle.side.node
                            ),
                            castle.letter.span,
                            "not one of the side's piece letters",
                        )
                        .with_help(format!(
                            "use one of `{written}` (usually its King's or Queen's)"
                        )),
                    );
                    continue;
                }
            } else if letter
                != if side.0 == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter.to_ascii_lowercase()
                }
            {
                let expected = if side.0 == 0 {
                    letter.to_ascii_uppercase()
                } else {
                    letter.to_ascii_lowercase()
                };
                let case = if side.0 == 0 { "upper" } else { "lower" };
                self.error(
                    Diagnostic::error(
                        code::CASTLING_LETTER,
                        format!(
                            "the castling right `{letter}` of `{}` must be {case} case",
                            castle.side.node
                        ),
                        castle.letter.span,
                        format!("{case} case like the side's pieces in FEN"),
                    )
                    .with_help(format!("write `{expected}`")),
                );
                continue;
            }
            if let Some((_, first)) = rights.iter().find(|(right, _)| right.fen_letter == letter) {
                self.error(
                    Diagnostic::error(
                        code::CASTLING_LETTER,
                        format!("the castling right `{letter}` is declared twice"),
                        castle.letter.span,
                        "declared again here",
                    )
                    .with_secondary(*first, "first declared here"),
                );
                continue;
            }
            // The pieces named (`king King e1-g1`): an unknown name is reported and the right
            // left out.
            let named = [&castle.king_piece, &castle.rook_piece].map(|name| {
                name.as_ref()
                    .map(|name| self.piece_id(name, context.pieces, "`castling`"))
            });
            if named.iter().any(|piece| matches!(piece, Some(None))) {
                continue;
            }
            let [king_piece, rook_piece] = named.map(Option::flatten);
            if let [Some(king_from), Some(king_to), Some(rook_from), Some(rook_to)] = squares {
                let right = CastlingDef {
                    side,
                    fen_letter: letter,
                    king_piece,
                    king_from,
                    king_to,
                    rook_piece,
                    rook_from,
                    rook_to,
                    when_placed: castle.when_placed.is_some(),
                };
                if self.castle_moves_both(&right, castle) {
                    rights.push((right, castle.letter.span));
                }
            }
        }
        if let Some((_, span)) = rights.get(MAX_CASTLING_RIGHTS) {
            self.error(
                Diagnostic::error(
                    code::CASTLING_LIMIT,
                    format!(
                        "a game has at most {MAX_CASTLING_RIGHTS} castling rights, this is number {}",
                        MAX_CASTLING_RIGHTS + 1
                    ),
                    *span,
                    format!("{} rights are declared", rights.len()),
                )
                .with_help("remove some castling moves"),
            );
        }
        rights.into_iter().map(|(right, _)| right).collect()
    }

    /// A castling move must move the king and the rook, and never put both on one square;
    /// reports the first way `right` fails that.
    fn castle_moves_both(&mut self, right: &CastlingDef, castle: &Castle) -> bool {
        let (message, label, span, king_span) = if right.king_from == right.king_to {
            let path = castle.king_from.span.to(castle.king_to.span);
            (
                "the king does not move",
                "from and to the same square",
                path,
                None,
            )
        } else if right.rook_from == right.rook_to {
            let path = castle.rook_from.span.to(castle.rook_to.span);
            (
                "the rook does not move",
                "from and to the same square",
                path,
                None,
            )
        } else if right.king_from == right.rook_from {
            let king = Some(castle.king_from.span);
            (
                "the king and the rook start on the same square",
                "the rook's",
                castle.rook_from.span,
                king,
            )
        } else if right.king_to == right.rook_to {
            let king = Some(castle.king_to.span);
            (
                "the king and the rook end on the same square",
                "the rook's",
                castle.rook_to.span,
                king,
            )
        } else {
            return true;
        };
        let mut diagnostic = Diagnostic::error(
            code::CASTLING_PATH,
            format!("castling right `{}`: {message}", right.fen_letter),
            span,
            label,
        )
        .with_help("in a castling move the king and the rook each go from one square to another");
        if let Some(king_span) = king_span {
            diagnostic = diagnostic.with_secondary(king_span, "the king's");
        }
        self.error(diagnostic);
        false
    }
}

impl Validator<'_> {
    /// `gating from ZONE`: the zone per side, each square named in a FEN by its file letter in
    /// the side's case (so two sides at most, one square per file, and no file letter that is
    /// also one of the side's castling letters); `None` after reporting a mistake.
    pub(super) fn gating(
        &mut self,
        gating: &GatingStatement,
        context: &Context<'_>,
        castling: &[CastlingDef],
    ) -> Option<GatingDef> {
        let squares = self.zone(&gating.zone, context)?;
        let mistake = |message: String, label: &str, help: &str| {
            Diagnostic::error(code::GATING, message, gating.zone.span, label.to_string())
                .with_help(help.to_string())
        };
        if context.sides.len() > 2 {
            self.error(
                Diagnostic::error(
                    code::GATING,
                    format!(
                        "gating needs a game of two sides, this one has {}",
                        context.sides.len()
                    ),
                    gating.keyword,
                    "the FEN names gating squares by file letters in a side's case",
                )
                .with_help("remove the `gating` statement"),
            );
            return None;
        }
        let mut ok = true;
        for (side, zone) in squares.iter().enumerate() {
            let name = &context.sides[side].node.name;
            let mut files: Vec<u8> = zone.iter().map(|square| square.file).collect();
            files.sort_unstable();
            if let Some(twice) = files.windows(2).find(|pair| pair[0] == pair[1]) {
                let file = (b'a' + twice[0]) as char;
                self.error(mistake(
                    format!("the gating squares of `{name}` hold two squares of the file {file}"),
                    "at most one square per file",
                    "the FEN names a gating square by its file letter: use one rank, such as `rank 1`",
                ));
                ok = false;
                continue;
            }
            for &file in &files {
                let letter = GatingDef::letter(SideId(side as u8), file);
                let clash = castling
                    .iter()
                    .any(|castle| castle.side.0 as usize == side && castle.fen_letter == letter);
                if clash {
                    self.error(mistake(
                        format!(
                            "the gating square on file {} of `{name}` would be written `{letter}`, \
                             a castling right's letter",
                            (b'a' + file) as char
                        ),
                        "a file letter that is also a castling letter",
                        "give the castling right another letter, or leave that file out of the gating squares",
                    ));
                    ok = false;
                }
            }
        }
        if squares.iter().all(Vec::is_empty) {
            self.error(mistake(
                "the gating squares are not on the board".to_string(),
                "no square of the board",
                "name squares of the board, such as `rank 1`",
            ));
            ok = false;
        }
        ok.then_some(GatingDef { squares })
    }
}
