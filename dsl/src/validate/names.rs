//! What names are resolved against: the pieces' names and letters ([`PieceName`], resolved
//! before anything refers to pieces), the board and sides ([`Context`]), and the [`Resolver`]
//! that the expression typing ([`crate::typing`]) asks for pieces, sides and zones.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::span::Spanned;
use crate::suggestion;
use crate::typing::{self};
use crate::validate::validator::Validator;

/// A piece's name and letter, resolved before anything refers to pieces.
pub(super) struct PieceName<'a> {
    pub(super) statement: &'a PieceStatement,
    pub(super) letter: char,
    /// `letter +P`: written `+` and the letter.
    pub(super) promoted_form: bool,
}

/// What zones and names are resolved against.
#[derive(Clone, Copy)]
pub(super) struct Context<'a> {
    pub(super) board: Option<&'a BoardDef>,
    pub(super) sides: &'a [Spanned<SideDef>],
    pub(super) pieces: &'a [PieceName<'a>],
    /// The `zone` statements resolved so far, in source order.
    pub(super) zones: &'a [NamedZone],
    /// Captured pieces come back to a hand (directly or by prisoner exchange) while these rules
    /// apply: never during a placement phase, where nothing is captured.
    pub(super) pieces_return: bool,
    /// The counters' names (`counter checks`), by index.
    pub(super) counters: &'a [String],
}

/// A `zone` statement, resolved: its squares for every side (`None` if it is faulty, already
/// reported).
pub(super) struct NamedZone {
    pub(super) name: String,
    pub(super) span: crate::span::Span,
    pub(super) squares: Option<Vec<Vec<Square>>>,
}

/// Resolves the names of an expression for [`typing`], reporting through the validator.
pub(super) struct Resolver<'v, 's, 'c> {
    pub(super) validator: &'v mut Validator<'s>,
    pub(super) context: &'c Context<'c>,
}

impl typing::Names for Resolver<'_, '_, '_> {
    fn piece(&mut self, name: &Spanned<String>, context: &str) -> Option<PieceId> {
        self.validator.piece_id(name, self.context.pieces, context)
    }

    fn side(&mut self, name: &Spanned<String>, context: &str) -> Option<SideId> {
        let sides = self.context.sides;
        if let Some(index) = sides.iter().position(|side| side.node.name == name.node) {
            return Some(SideId(index as u8));
        }
        // In an expression a misspelt word (`opponnent`, `controled`) reads as a side's name:
        // suggest the words of expressions too.
        let words = sides
            .iter()
            .map(|side| side.node.name.as_str())
            .chain(crate::parse::EXPRESSION_WORDS.iter().copied());
        let help = suggestion::did_you_mean(&name.node, words);
        self.validator.error(
            Diagnostic::error(
                code::UNKNOWN_SIDE,
                format!("unknown side `{}` in {context}", name.node),
                name.span,
                "not a side of this game, nor a word of expressions",
            )
            .with_optional_help(help),
        );
        None
    }

    fn zone(&mut self, zone: &Spanned<Zone>) -> Option<Vec<Vec<Square>>> {
        self.validator.zone(zone, self.context)
    }

    fn moves(&mut self, text: &Spanned<StringLit>) -> Option<Vec<MoveAtom>> {
        let before = self.validator.error_count();
        let moves = self.validator.moves(text);
        (self.validator.error_count() == before).then_some(moves)
    }

    fn pieces_return(&self) -> bool {
        self.context.pieces_return
    }

    fn counter(&self, name: &str) -> Option<usize> {
        self.context.counters.iter().position(|c| c == name)
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        self.validator.error(diagnostic);
    }
}
