//! Neutral pieces (`neutral`, §2.6): a piece of no side that every move ends by putting on an
//! empty square (duck chess's duck). The interpreter keeps it in the side slot that no playing
//! side uses and writes it `*` in FEN, so a game with one has at most one neutral type, fewer
//! sides than the most, no holes, no gating (a move stores one more placement at most), and
//! single-action turns without passes; and the piece itself
//! has no movement, no royalty, no promotion and no supply of its own. Each misuse is `E0605`.

use crate::ast::{PieceItem, PieceStatement};
use crate::definition::{BoardDef, TurnRules};
use crate::diagnostic::{code, Diagnostic};
use crate::span::Span;
use crate::validate::sides::MAX_SIDES;
use crate::validate::validator::Validator;

/// What the rest of the game says, that a neutral piece must fit.
pub(super) struct Surroundings<'a> {
    pub(super) board: Option<&'a BoardDef>,
    pub(super) sides: usize,
    pub(super) turn: &'a TurnRules,
    pub(super) phases: bool,
    /// Whether the game has `gating`, whose placement a move shares with the neutral piece's.
    pub(super) gating: bool,
}

impl Validator<'_> {
    /// Reports every way the game's neutral pieces misfit (`E0605`), in source order.
    pub(super) fn neutral_fits(&mut self, pieces: &[&PieceStatement], around: &Surroundings<'_>) {
        let neutral: Vec<(&PieceStatement, Span)> = pieces
            .iter()
            .filter_map(|piece| {
                let item = piece.items.iter().find(|i| i.node == PieceItem::Neutral)?;
                Some((*piece, item.span))
            })
            .collect();
        let Some(&(first, first_span)) = neutral.first() else {
            return;
        };
        for &(piece, span) in &neutral[1..] {
            self.neutral_error(
                format!(
                    "a second neutral piece, `{}` (`{}` is one)",
                    piece.name.node, first.name.node
                ),
                span,
                "a game has at most one neutral piece type",
                "remove `neutral` here",
            );
        }
        for &(piece, _) in &neutral {
            self.neutral_piece_items(piece);
        }
        for (message, label, help) in game_problems(around) {
            self.neutral_error(message, first_span, label, help);
        }
    }

    /// A neutral piece moves by the `neutral` rule only: no movement, royalty, promotion or
    /// supply of its own.
    fn neutral_piece_items(&mut self, piece: &PieceStatement) {
        for item in &piece.items {
            let what = match &item.node {
                PieceItem::Moves(_) | PieceItem::MovesIn { .. } | PieceItem::MovesAlong { .. } => {
                    "`moves`"
                }
                PieceItem::Path(_) => "`path`",
                PieceItem::Royal => "`royal`",
                PieceItem::Promotes { .. } | PieceItem::PromotesInPlace { .. } => "`promotes`",
                PieceItem::Supply => "`supply`",
                PieceItem::ConvertsAround => "`converts around`",
                _ => continue,
            };
            self.neutral_error(
                format!("{what} on the neutral piece `{}`", piece.name.node),
                item.span,
                "a neutral piece belongs to no side and moves by the `neutral` rule only",
                "remove it: every move ends by putting the neutral piece on an empty square",
            );
        }
    }

    fn neutral_error(&mut self, message: String, span: Span, label: &str, help: &str) {
        self.error(Diagnostic::error(code::NEUTRAL, message, span, label).with_help(help));
    }
}

/// The game's constructs that a neutral piece cannot go with: (message, label, help).
fn game_problems(around: &Surroundings<'_>) -> Vec<(String, &'static str, &'static str)> {
    let mut problems = Vec::new();
    if around.sides >= MAX_SIDES {
        problems.push((
            format!(
                "a neutral piece in a game of {} sides, the most a game may have",
                around.sides
            ),
            "the neutral piece takes the place of a side",
            "a game with a neutral piece has at most three sides",
        ));
    }
    if around.board.is_some_and(|board| !board.holes.is_empty()) {
        problems.push((
            "a neutral piece on a board with holes".to_string(),
            "the FEN writes both as `*`",
            "remove the holes, or `neutral`",
        ));
    }
    if around.gating {
        problems.push((
            "a neutral piece in a game with `gating`".to_string(),
            "a move places one more piece at most: a gated one or the neutral piece",
            "remove `gating`, or `neutral`",
        ));
    }
    let turn = around.turn;
    if turn.actions > 1 || turn.pass || turn.may_pass || around.phases {
        problems.push((
            "a neutral piece in a game with turns of several actions, passes or placement phases"
                .to_string(),
            "every move ends by putting the neutral piece: a turn is one move",
            "remove the `turn` rules or the phases, or `neutral`",
        ));
    }
    problems
}
