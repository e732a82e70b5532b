//! The setup: the `setup` FEN read against the validated game (through [`crate::fen`]), the
//! side to move against the turn order, the pieces' default initial zones, and the warning
//! about pieces the game never uses.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::fen;
use crate::span::Spanned;
use crate::validate::names::PieceName;
use crate::validate::validator::Validator;

impl Validator<'_> {
    /// The setup's side to move must have a turn: the `turns` statement (the only way it could
    /// lack one) is reported, pointing at the FEN's side too.
    pub(super) fn check_turn_order(
        &mut self,
        definition: &Definition,
        fen_text: &Spanned<StringLit>,
        turns: Option<&TurnsStatement>,
    ) -> Option<()> {
        let side = definition.setup.side_to_move;
        if definition.turn_order.contains(&side) {
            return Some(());
        }
        let name = definition
            .sides
            .get(side.0 as usize)
            .map_or("?", |side| side.name.as_str());
        let turns_span = turns.map_or(self.end_of_file, |turns| {
            turns
                .sides
                .iter()
                .fold(turns.keyword, |span, side| span.to(side.span))
        });
        let mut diagnostic = Diagnostic::error(
            code::TURN_ORDER,
            format!("the setup has {name} to move, but the turn order never gives {name} a turn"),
            turns_span,
            format!("{name} is missing here"),
        )
        .with_help(format!(
            "add `{name}` to `turns`, or start the setup with another side"
        ));
        if let Some(range) = fen::side_to_move_range(&fen_text.node.value) {
            diagnostic =
                diagnostic.with_secondary(fen_text.span_of(range), format!("{name} is to move"));
        }
        self.error(diagnostic);
        None
    }

    pub(super) fn setup(
        &mut self,
        definition: &Definition,
        fen_text: &Spanned<StringLit>,
    ) -> Option<Setup> {
        match fen::parse_position(definition, &fen_text.node.value) {
            Ok(setup) => Some(setup),
            Err(error) => {
                let span = fen_text.span_of(error.offset..error.offset + error.len);
                self.error(Diagnostic::error(
                    code::FEN,
                    format!("invalid setup: {}", error.message),
                    span,
                    "here",
                ));
                None
            }
        }
    }

    /// Warns about the pieces declared in the file loaded (not inherited: a variant may leave a
    /// parent's piece out of play) that never appear.
    pub(super) fn warn_unused_pieces(&mut self, definition: &Definition, names: &[PieceName<'_>]) {
        let own_file = self.end_of_file.file;
        for (index, name) in names.iter().enumerate() {
            if name.statement.name.span.file != own_file {
                continue;
            }
            let id = PieceId(index as u8);
            if definition.pieces[index].neutral {
                // Placed by the `neutral` rule, not by the setup.
                continue;
            }
            let on_board = definition
                .setup
                .board
                .iter()
                .any(|placement| placement.piece == id);
            let in_hand = definition
                .setup
                .hands
                .iter()
                .any(|(_, piece, _)| *piece == id);
            let promoted_to = definition.pieces.iter().any(|piece| {
                piece
                    .promotion
                    .as_ref()
                    .is_some_and(|promotion| promotion.may_become(id))
                    || piece
                        .in_place
                        .as_ref()
                        .is_some_and(|promotion| promotion.choices.contains(&id))
            });
            if !on_board && !in_hand && !promoted_to {
                self.diagnostics.push(
                    Diagnostic::warning(
                        code::UNUSED_PIECE,
                        format!("the piece `{}` never appears", name.statement.name.node),
                        name.statement.name.span,
                        "not in the setup, not in hand, not a promotion choice",
                    )
                    .with_help(format!(
                        "put a `{}` in the setup FEN, or remove the piece",
                        name.letter
                    )),
                );
            }
        }
    }
}

/// The default initial zone of a piece: the squares where pieces of its type and side stand in
/// the setup.
pub(super) fn fill_initial_zones(definition: &mut Definition, names: &[PieceName<'_>]) {
    let side_count = definition.sides.len();
    for (index, name) in names.iter().enumerate() {
        let explicit = name
            .statement
            .items
            .iter()
            .any(|item| matches!(item.node, PieceItem::Initial(_)));
        if explicit {
            continue;
        }
        let id = PieceId(index as u8);
        definition.pieces[index].initial_zone = (0..side_count)
            .map(|side| {
                let mut squares: Vec<Square> = definition
                    .setup
                    .board
                    .iter()
                    .filter(|placement| {
                        placement.piece == id && placement.side == SideId(side as u8)
                    })
                    .map(|placement| placement.square)
                    .collect();
                squares.sort_by_key(|square| (square.rank, square.file));
                squares
            })
            .collect();
    }
}

pub(super) fn empty_setup() -> Setup {
    Setup {
        board: Vec::new(),
        hands: Vec::new(),
        side_to_move: SideId(0),
        castling: Vec::new(),
        en_passant: None,
        halfmove_clock: 0,
        fullmove_number: 1,
        prisons: Vec::new(),
        promoted: Vec::new(),
        phase: None,
        progress: TurnProgress::default(),
        last_drops: Vec::new(),
        turn: None,
        numbers: Vec::new(),
        counters: Vec::new(),
        gates: Vec::new(),
        neutral: None,
        counting: None,
    }
}
