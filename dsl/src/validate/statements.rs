//! The statements of a file sorted by kind (a statement given twice, or not supported yet, is
//! reported while sorting), and the statements every game needs.

use crate::ast::*;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic};
use crate::fen;
use crate::span::{Span, Spanned};
use crate::validate::validator::{duplicate, not_supported, Validator};
use std::collections::HashMap;

/// The statements of a file, sorted by kind; duplicates are reported while sorting.
#[derive(Default)]
pub(super) struct Statements<'a> {
    pub(super) game: Option<&'a TextStatement>,
    pub(super) description: Option<&'a TextStatement>,
    pub(super) credits: Option<&'a TextStatement>,
    pub(super) board: Option<&'a BoardStatement>,
    pub(super) turns: Option<&'a TurnsStatement>,
    pub(super) castling: Option<&'a CastlingStatement>,
    pub(super) gating: Option<&'a GatingStatement>,
    pub(super) setup: Option<&'a TextStatement>,
    pub(super) end: Option<&'a EndStatement>,
    pub(super) actions: Option<&'a ActionsStatement>,
    pub(super) drops: Option<&'a DropsStatement>,
    pub(super) move_rules: Option<&'a DropsStatement>,
    pub(super) phases: Vec<&'a PhaseStatement>,
    pub(super) counters: Vec<&'a CounterStatement>,
    pub(super) turn: Option<&'a TurnStatement>,
    pub(super) control: Option<&'a ControlStatement>,
    pub(super) capture: Option<&'a CaptureStatement>,
    pub(super) score: Option<&'a ScoreStatement>,
    pub(super) sides: Vec<&'a SideStatement>,
    pub(super) teams: Vec<&'a TeamStatement>,
    pub(super) policies: Vec<&'a PolicyStatement>,
    pub(super) pieces: Vec<&'a PieceStatement>,
    pub(super) zones: Vec<&'a ZoneStatement>,
    /// `remove piece` statements that merging found no inherited piece for.
    pub(super) removals: Vec<&'a RemoveStatement>,
}

impl Validator<'_> {
    pub(super) fn sort_statements<'a>(&mut self, game: &'a GameFile) -> Statements<'a> {
        let mut statements = Statements::default();
        let mut first_seen: HashMap<String, Span> = HashMap::new();
        for statement in &game.statements {
            let keyword = statement.node.keyword();
            let once = !matches!(
                statement.node,
                Statement::Side(_)
                    | Statement::Team(_)
                    | Statement::Policy(_)
                    | Statement::Piece(_)
                    | Statement::Zone(_)
                    | Statement::Future(_)
                    | Statement::Remove(_)
                    | Statement::Phase(_)
                    | Statement::Counter(_)
            );
            if once {
                let name = statement.node.keyword_text().to_string();
                if let Some(first) = first_seen.get(&name) {
                    self.error(duplicate(&name, keyword, *first));
                    continue;
                }
                first_seen.insert(name, keyword);
            }
            match &statement.node {
                Statement::Game(s) => statements.game = Some(s),
                Statement::Description(s) => statements.description = Some(s),
                Statement::Credits(s) => statements.credits = Some(s),
                Statement::Setup(s) => statements.setup = Some(s),
                Statement::Board(s) => statements.board = Some(s),
                Statement::Turns(s) => statements.turns = Some(s),
                Statement::Castling(s) => statements.castling = Some(s),
                Statement::Gating(s) => statements.gating = Some(s),
                Statement::End(s) => statements.end = Some(s),
                Statement::Actions(s) => statements.actions = Some(s),
                Statement::Drops(s) => statements.drops = Some(s),
                Statement::MoveRules(s) => statements.move_rules = Some(s),
                Statement::Counter(s) => statements.counters.push(s),
                Statement::Phase(s) => statements.phases.push(s),
                Statement::Turn(s) => statements.turn = Some(s),
                Statement::Control(s) => statements.control = Some(s),
                Statement::Capture(s) => statements.capture = Some(s),
                Statement::Score(s) => statements.score = Some(s),
                Statement::Side(s) => statements.sides.push(s),
                Statement::Team(s) => statements.teams.push(s),
                Statement::Policy(s) => statements.policies.push(s),
                Statement::Piece(s) => statements.pieces.push(s),
                Statement::Zone(s) => statements.zones.push(s),
                Statement::Future(s) => self.error(not_supported(s)),
                Statement::Remove(s) => statements.removals.push(s),
                Statement::Extends(_) => {}
            }
        }
        statements
    }

    pub(super) fn require(
        &mut self,
        statements: &Statements<'_>,
        board: Option<&BoardDef>,
        sides: &[Spanned<SideDef>],
    ) {
        let nothing = statements.game.is_none()
            && statements.board.is_none()
            && statements.sides.is_empty()
            && statements.pieces.is_empty()
            && statements.setup.is_none();
        if nothing {
            self.error(
                Diagnostic::error(
                    code::MISSING_STATEMENT,
                    "this game is empty",
                    self.end_of_file,
                    "expected statements in this file",
                )
                .with_help("a game needs at least `game`, `board`, `side` and `setup` statements"),
            );
            return;
        }
        let setup_example = match board {
            Some(board) => {
                let side = sides.first().map_or('w', |side| side.node.fen_letter);
                let empty = fen::board_field(board, |_| None);
                format!("setup \"{empty} {side} - - 0 1\"")
            }
            None => "setup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"".to_string(),
        };
        let missing = [
            (statements.game.is_none(), "game", "game \"My variant\""),
            (statements.board.is_none(), "board", "board 8x8"),
            (
                statements.sides.is_empty(),
                "side",
                "side white { forward up }",
            ),
            (statements.setup.is_none(), "setup", setup_example.as_str()),
        ];
        for (is_missing, keyword, example) in missing {
            if is_missing {
                self.error(
                    Diagnostic::error(
                        code::MISSING_STATEMENT,
                        format!("this game has no `{keyword}` statement"),
                        self.end_of_file,
                        format!("expected a `{keyword}` statement in this file"),
                    )
                    .with_help(format!("add a statement such as `{example}`")),
                );
            }
        }
    }
}
