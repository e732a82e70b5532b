//! From a [`GameFile`] that may be wrong to a [`Definition`] that is known good.
//!
//! Validation never stops at the first problem: it reports every one, sorted in source order.
//! Names are resolved first (pieces, sides), then the board, then everything that refers to
//! them (zones, promotions, castling, the setup FEN). A check that depends on something already
//! reported as broken is skipped, so that one mistake gives one diagnostic. Warnings never
//! block: a game with warnings only still loads.

use crate::ast::*;
use crate::betza;
use crate::definition::*;
use crate::diagnostic::{code, Diagnostic, Diagnostics};
use crate::expression::Condition;
use crate::fen;
use crate::span::{SourceMap, Span, Spanned};
use crate::suggestion;
use crate::typing::{self, Place};
use std::collections::{HashMap, HashSet};

/// The most sides a game may have in this version: FEN letter case can name only two.
pub const MAX_SIDES: usize = 4;

/// The most actions one turn may have (`up to N actions`).
pub const MAX_TURN_ACTIONS: u8 = 8;

/// The most castling rights a game may declare: a position keeps them in 32 bits.
pub const MAX_CASTLING_RIGHTS: usize = 32;

/// Validates a (merged) game file.
///
/// Returns the definition and its warnings, or every diagnostic (errors and warnings) when
/// there is at least one error. Diagnostics are sorted in source order.
pub fn validate(
    game: &GameFile,
    sources: &SourceMap,
) -> Result<(Definition, Diagnostics), Diagnostics> {
    let mut validator = Validator::new(game, sources);
    let definition = validator.run(game);
    let mut diagnostics = validator.diagnostics;
    diagnostics.sort();
    match definition {
        Some(definition) if !diagnostics.has_errors() => Ok((definition, diagnostics)),
        _ => Err(diagnostics),
    }
}

/// The statements of a file, sorted by kind; duplicates are reported while sorting.
#[derive(Default)]
struct Statements<'a> {
    game: Option<&'a TextStatement>,
    description: Option<&'a TextStatement>,
    credits: Option<&'a TextStatement>,
    board: Option<&'a BoardStatement>,
    turns: Option<&'a TurnsStatement>,
    castling: Option<&'a CastlingStatement>,
    setup: Option<&'a TextStatement>,
    end: Option<&'a EndStatement>,
    actions: Option<&'a ActionsStatement>,
    drops: Option<&'a DropsStatement>,
    move_rules: Option<&'a DropsStatement>,
    phases: Vec<&'a PhaseStatement>,
    turn: Option<&'a TurnStatement>,
    control: Option<&'a ControlStatement>,
    capture: Option<&'a CaptureStatement>,
    score: Option<&'a ScoreStatement>,
    sides: Vec<&'a SideStatement>,
    teams: Vec<&'a TeamStatement>,
    policies: Vec<&'a PolicyStatement>,
    pieces: Vec<&'a PieceStatement>,
    /// `remove piece` statements that merging found no inherited piece for.
    removals: Vec<&'a RemoveStatement>,
}

struct Validator<'s> {
    /// The files of the game, for the origins of statements the engine may quote.
    sources: &'s SourceMap,
    /// Where "missing statement" diagnostics point: the end of the top-level file.
    end_of_file: Span,
    diagnostics: Diagnostics,
    /// The number of errors in `diagnostics`, kept so that asking costs nothing: checks ask
    /// before and after each statement, and a file may have thousands of statements.
    errors: usize,
    /// Pieces left out because their letter is taken (already reported): names that refer to
    /// them are not reported again as unknown.
    left_out_pieces: HashSet<String>,
}

/// A piece's name and letter, resolved before anything refers to pieces.
struct PieceName<'a> {
    statement: &'a PieceStatement,
    letter: char,
}

impl<'s> Validator<'s> {
    fn new(game: &GameFile, sources: &'s SourceMap) -> Self {
        let end = sources.text(game.file).trim_end().len();
        Validator {
            sources,
            end_of_file: Span::point(game.file, end),
            diagnostics: Diagnostics::new(),
            errors: 0,
            left_out_pieces: HashSet::new(),
        }
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        self.errors += usize::from(diagnostic.is_error());
        self.diagnostics.push(diagnostic);
    }

    fn run(&mut self, game: &GameFile) -> Option<Definition> {
        let statements = self.sort_statements(game);
        let errors_before_names = self.error_count();
        let board = statements.board.and_then(|board| self.board(board));
        let mut sides = self.sides(&statements.sides, board.as_ref());
        let piece_names = self.piece_names(&statements.pieces);
        self.side_letters(&statements.sides, &piece_names, &mut sides);
        let teams = self.teams(&statements.teams, &sides);
        self.report_removals(&statements.removals, &piece_names);
        let names_ok = self.error_count() == errors_before_names && !sides.is_empty();
        let turn_order = self.turn_order(statements.turns, &sides);
        let mut context = Context {
            board: board.as_ref(),
            sides: &sides,
            pieces: &piece_names,
            pieces_return: false,
        };
        let mut pieces: Vec<PieceDef> = piece_names
            .iter()
            .map(|name| self.piece(name, &context))
            .collect();
        let errors_before_castling = self.error_count();
        let castling = statements
            .castling
            .map(|castling| self.castling(castling, &context))
            .unwrap_or_default();
        let castling_ok = self.error_count() == errors_before_castling;
        let end = statements
            .end
            .map(|end| self.end_rules(end, &context))
            .unwrap_or_default();
        let actions = statements
            .actions
            .map(|actions| self.actions(actions))
            .unwrap_or_default();
        let capture = statements
            .capture
            .map(|capture| self.capture_rules(capture, &context))
            .unwrap_or_default();
        context.pieces_return = capture.stores.iter().any(Option::is_some);
        let drops = statements
            .drops
            .map(|drops| self.drop_rules(&drops.items, &context, RuleKind::Drop))
            .unwrap_or_default();
        let move_rules = statements
            .move_rules
            .map(|rules| self.drop_rules(&rules.items, &context, RuleKind::Move))
            .unwrap_or_default();
        let placing = Context {
            pieces_return: false,
            ..context
        };
        let phases: Vec<PhaseDef> = statements
            .phases
            .iter()
            .filter_map(|phase| self.phase(phase, &placing, actions))
            .collect();
        let turn = statements
            .turn
            .map(|turn| self.turn_rules(turn))
            .unwrap_or_default();
        let control = statements
            .control
            .map(|control| self.control_rules(control))
            .unwrap_or_default();
        let policies = self.policies(&statements.policies, &context);
        let score = statements.score.and_then(|score| {
            let mut names = Resolver {
                validator: self,
                context: &context,
            };
            typing::number(&mut names, &score.expression, Place::Score)
                .map(|expression| ScoreRule { expression })
        });
        self.require(&statements, board.as_ref(), &sides);
        let (Some(board), Some(game_name), Some(setup)) =
            (board, statements.game, statements.setup)
        else {
            return None;
        };
        let mut definition = Definition {
            name: game_name.text.node.value.clone(),
            description: statements.description.map(|s| s.text.node.value.clone()),
            credits: statements.credits.map(|s| s.text.node.value.clone()),
            board,
            sides: sides.iter().map(|side| side.node.clone()).collect(),
            turn_order,
            pieces: std::mem::take(&mut pieces),
            castling,
            end,
            setup: empty_setup(),
            actions,
            drops,
            move_rules,
            phases,
            turn,
            control,
            score,
            capture,
            teams,
            policies,
        };
        if !names_ok || !castling_ok {
            return None;
        }
        definition.setup = self.setup(&definition, &setup.text)?;
        self.check_turn_order(&definition, &setup.text, statements.turns)?;
        fill_initial_zones(&mut definition, &piece_names);
        self.warn_unused_pieces(&definition, &piece_names);
        self.warn_capturable_royals(&definition, &piece_names, statements.end);
        Some(definition)
    }

    // -----------------------------------------------------------------------------------------
    // Statements
    // -----------------------------------------------------------------------------------------

    fn sort_statements<'a>(&mut self, game: &'a GameFile) -> Statements<'a> {
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
                    | Statement::Future(_)
                    | Statement::Remove(_)
                    | Statement::Phase(_)
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
                Statement::End(s) => statements.end = Some(s),
                Statement::Actions(s) => statements.actions = Some(s),
                Statement::Drops(s) => statements.drops = Some(s),
                Statement::MoveRules(s) => statements.move_rules = Some(s),
                Statement::Phase(s) => statements.phases.push(s),
                Statement::Turn(s) => statements.turn = Some(s),
                Statement::Control(s) => statements.control = Some(s),
                Statement::Capture(s) => statements.capture = Some(s),
                Statement::Score(s) => statements.score = Some(s),
                Statement::Side(s) => statements.sides.push(s),
                Statement::Team(s) => statements.teams.push(s),
                Statement::Policy(s) => statements.policies.push(s),
                Statement::Piece(s) => statements.pieces.push(s),
                Statement::Future(s) => self.error(not_supported(s)),
                Statement::Remove(s) => statements.removals.push(s),
                Statement::Extends(_) => {}
            }
        }
        statements
    }

    fn require(
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

    // -----------------------------------------------------------------------------------------
    // Sides and turns
    // -----------------------------------------------------------------------------------------

    fn sides(
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
    fn side(
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
    fn side_letters(
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
        let mut seen: HashMap<char, (String, String)> = HashMap::new();
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
                if let Some(first) = seen.insert(letter, owner.clone()) {
                    self.error(
                        Diagnostic::error(
                            code::DUPLICATE_SIDE_LETTER,
                            format!(
                                "`{letter}` would stand for both {}'s {} and {}'s {}",
                                first.0, first.1, owner.0, owner.1
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

    /// `policy red { ... }`: one per side; names are defined (by `roll` and `let`) before use.
    fn policies(
        &mut self,
        statements: &[&PolicyStatement],
        context: &Context<'_>,
    ) -> Vec<PolicyDef> {
        let mut policies: Vec<PolicyDef> = Vec::new();
        for statement in statements {
            let Some(side) = self.side_id(&statement.side, context.sides, "`policy`") else {
                continue;
            };
            if policies.iter().any(|p| p.side == side) {
                self.error(duplicate("policy", statement.keyword, statement.keyword));
                continue;
            }
            let mut names: Vec<String> = Vec::new();
            let mut items = Vec::new();
            for item in &statement.items {
                let resolved = match &item.node {
                    PolicyItemSyntax::Rule(label, steps) => {
                        let steps = steps
                            .iter()
                            .filter_map(|step| self.policy_step(step, context, &mut names))
                            .collect();
                        PolicyItem::Rule {
                            label: label.node.clone(),
                            steps,
                        }
                    }
                    PolicyItemSyntax::Roll(dice, name, label) => {
                        let Some(dice) = self.dice(dice) else {
                            continue;
                        };
                        names.push(name.node.clone());
                        PolicyItem::Roll {
                            dice,
                            name: name.node.clone(),
                            rule: label.as_ref().map(|label| label.node.clone()),
                        }
                    }
                    PolicyItemSyntax::Nearest {
                        name,
                        to,
                        except,
                        lower_when_odd,
                    } => {
                        self.defined(to, &names);
                        self.defined(except, &names);
                        names.push(name.node.clone());
                        PolicyItem::Nearest {
                            name: name.node.clone(),
                            to: to.node.clone(),
                            except: except.node.clone(),
                            lower_when_odd: *lower_when_odd,
                        }
                    }
                };
                items.push(resolved);
            }
            policies.push(PolicyDef { side, items });
        }
        policies
    }

    fn dice(&mut self, dice: &DiceSyntax) -> Option<Dice> {
        let count = self.number(&dice.count, 1, 16)? as u8;
        let faces = self.number(&dice.faces, 1, 100)? as u8;
        Some(Dice {
            count,
            faces,
            offset: dice.offset.clamp(-1000, 1000) as i32,
        })
    }

    /// Reports a name used before a `roll` or `let` defines it.
    fn defined(&mut self, name: &Spanned<String>, names: &[String]) -> Option<()> {
        if names.contains(&name.node) {
            return Some(());
        }
        let mut diagnostic = Diagnostic::error(
            code::POLICY,
            format!("`{}` is not defined here", name.node),
            name.span,
            "no `roll` or `let` before this names it",
        );
        if let Some(help) = suggestion::did_you_mean(&name.node, names.iter().map(String::as_str)) {
            diagnostic = diagnostic.with_help(help);
        }
        self.error(diagnostic);
        None
    }

    fn policy_step(
        &mut self,
        step: &Spanned<PolicyStepSyntax>,
        context: &Context<'_>,
        names: &mut Vec<String>,
    ) -> Option<PolicyStep> {
        Some(match &step.node {
            PolicyStepSyntax::Moves(number) => {
                if let Some(number) = number {
                    self.defined(number, names)?;
                }
                PolicyStep::Moves(number.as_ref().map(|n| n.node.clone()))
            }
            PolicyStepSyntax::Captures(number) => {
                self.defined(number, names)?;
                PolicyStep::Captures(number.node.clone())
            }
            PolicyStepSyntax::Where(condition) => {
                PolicyStep::Where(self.action_condition(condition, context, names)?)
            }
            PolicyStepSyntax::Prefer(groups) => PolicyStep::Prefer(
                groups
                    .iter()
                    .map(|group| self.action_condition(group, context, names))
                    .collect::<Option<Vec<_>>>()?,
            ),
            PolicyStepSyntax::Best {
                highest,
                measure,
                per,
            } => PolicyStep::Best {
                highest: *highest,
                measure: self.action_number(measure, context, names)?,
                per: per.as_deref().map(|per| {
                    if per == "piece" {
                        Grouping::Piece
                    } else {
                        Grouping::Direction
                    }
                }),
            },
            PolicyStepSyntax::Roll(dice, name) => {
                let dice = self.dice(dice)?;
                names.push(name.node.clone());
                PolicyStep::Roll {
                    dice,
                    name: name.node.clone(),
                }
            }
            PolicyStepSyntax::Escape(piece) => {
                PolicyStep::Escape(self.piece_id(piece, context.pieces, "`escape with`")?)
            }
            PolicyStepSyntax::Jump(number, file, rank) => {
                self.defined(number, names)?;
                self.defined(file, names)?;
                self.defined(rank, names)?;
                PolicyStep::Jump {
                    number: number.node.clone(),
                    file: file.node.clone(),
                    rank: rank.node.clone(),
                }
            }
        })
    }

    fn action_condition(
        &mut self,
        condition: &Spanned<ActionConditionSyntax>,
        context: &Context<'_>,
        names: &[String],
    ) -> Option<ActionCondition> {
        let squares = |validator: &mut Self, expression: &Spanned<Expression>| {
            let mut resolver = Resolver { validator, context };
            typing::squares(&mut resolver, expression, Place::Policy)
        };
        Some(match &condition.node {
            ActionConditionSyntax::Or(parts) | ActionConditionSyntax::And(parts) => {
                let parts = parts
                    .iter()
                    .map(|part| self.action_condition(part, context, names))
                    .collect::<Option<Vec<_>>>()?;
                if matches!(condition.node, ActionConditionSyntax::Or(_)) {
                    ActionCondition::Or(parts)
                } else {
                    ActionCondition::And(parts)
                }
            }
            ActionConditionSyntax::Not(inner) => {
                ActionCondition::Not(Box::new(self.action_condition(inner, context, names)?))
            }
            ActionConditionSyntax::CaptureOfChecker => ActionCondition::CaptureOfChecker,
            ActionConditionSyntax::InCheck => ActionCondition::InCheck,
            ActionConditionSyntax::Legal => ActionCondition::Legal,
            ActionConditionSyntax::Capture => ActionCondition::Capture,
            ActionConditionSyntax::Moving(piece) => {
                ActionCondition::Moving(self.piece_id(piece, context.pieces, "`moving`")?)
            }
            ActionConditionSyntax::From(set) => ActionCondition::From(squares(self, set)?),
            ActionConditionSyntax::To(set) => ActionCondition::To(squares(self, set)?),
            ActionConditionSyntax::LandsOn(set) => ActionCondition::LandsOn(squares(self, set)?),
            ActionConditionSyntax::ThenAttacks(set) => {
                ActionCondition::ThenAttacks(squares(self, set)?)
            }
            ActionConditionSyntax::Compare(left, comparison, right) => ActionCondition::Compare(
                self.action_number(left, context, names)?,
                *comparison,
                self.action_number(right, context, names)?,
            ),
        })
    }

    fn action_number(
        &mut self,
        number: &Spanned<ActionNumberSyntax>,
        context: &Context<'_>,
        names: &[String],
    ) -> Option<ActionNumber> {
        Some(match &number.node {
            ActionNumberSyntax::Integer(text) => ActionNumber::Constant(self.number(
                &Spanned::new(text.clone(), number.span),
                0,
                1_000_000,
            )?),
            ActionNumberSyntax::Candidates => ActionNumber::Candidates,
            ActionNumberSyntax::MoverValue => ActionNumber::MoverValue,
            ActionNumberSyntax::VictimValue => ActionNumber::VictimValue,
            ActionNumberSyntax::Distance => ActionNumber::Distance,
            ActionNumberSyntax::Attackers(side) => {
                let side = match &side.node {
                    SideReference::Own => crate::expression::SideRef::Own,
                    SideReference::Team => crate::expression::SideRef::Team,
                    SideReference::Opponent => crate::expression::SideRef::Opponents,
                    SideReference::Any => crate::expression::SideRef::Any,
                    SideReference::Next => crate::expression::SideRef::Next,
                    SideReference::Named(name) => crate::expression::SideRef::Side(self.side_id(
                        &Spanned::new(name.clone(), side.span),
                        context.sides,
                        "`attackers`",
                    )?),
                };
                ActionNumber::Attackers(side)
            }
            ActionNumberSyntax::Variable(name) => {
                self.defined(&Spanned::new(name.clone(), number.span), names)?;
                ActionNumber::Variable(name.clone())
            }
        })
    }

    /// `team white black`: each side in at most one team.
    fn teams(
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

    fn turn_order(
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

    fn side_id(
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

    // -----------------------------------------------------------------------------------------
    // Pieces
    // -----------------------------------------------------------------------------------------

    /// Names and letters of all pieces; a piece's letter defaults to the first letter of its
    /// name. Duplicated pieces are reported and left out.
    fn piece_names<'a>(&mut self, statements: &[&'a PieceStatement]) -> Vec<PieceName<'a>> {
        let mut pieces: Vec<PieceName<'a>> = Vec::new();
        for statement in statements {
            let name = &statement.name;
            if let Some(first) = pieces
                .iter()
                .find(|piece| piece.statement.name.node == name.node)
            {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_PIECE_NAME,
                        format!("the piece `{}` is declared twice", name.node),
                        name.span,
                        "declared again here",
                    )
                    .with_secondary(first.statement.name.span, "first declared here"),
                );
                continue;
            }
            let (letter, letter_span) = piece_letter(statement);
            if let Some(first) = pieces.iter().find(|piece| piece.letter == letter) {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_PIECE_LETTER,
                        format!(
                            "the pieces `{}` and `{}` have the same letter `{letter}`",
                            first.statement.name.node, name.node
                        ),
                        letter_span,
                        "same letter",
                    )
                    .with_secondary(
                        piece_letter(first.statement).1,
                        format!("`{}` uses it here", first.statement.name.node),
                    )
                    .with_help("every piece needs its own letter for FEN"),
                );
                self.left_out_pieces.insert(name.node.clone());
                continue;
            }
            pieces.push(PieceName { statement, letter });
        }
        pieces
    }

    /// `remove piece` statements still here removed nothing: merging applies the others.
    fn report_removals(&mut self, removals: &[&RemoveStatement], pieces: &[PieceName<'_>]) {
        for removal in removals {
            let names = pieces
                .iter()
                .filter(|piece| piece.statement.name.span.file != removal.keyword.file)
                .map(|piece| piece.statement.name.node.as_str());
            let help = suggestion::did_you_mean(&removal.piece.node, names).unwrap_or_else(|| {
                "`remove piece` takes out a piece declared by the game named by `extends`"
                    .to_string()
            });
            self.error(
                Diagnostic::error(
                    code::UNKNOWN_PIECE,
                    format!(
                        "there is no inherited piece `{}` to remove",
                        removal.piece.node
                    ),
                    removal.piece.span,
                    "not a piece of the parent game",
                )
                .with_help(help),
            );
        }
    }

    fn piece(&mut self, name: &PieceName<'_>, context: &Context<'_>) -> PieceDef {
        let statement = name.statement;
        let mut piece = PieceDef {
            name: statement.name.node.clone(),
            letter: name.letter,
            value: 0,
            royal: false,
            betza: String::new(),
            moves: Vec::new(),
            promotion: None,
            initial_zone: Vec::new(),
            irreversible: false,
            uncapturable: false,
            paths: Vec::new(),
        };
        let mut seen: HashMap<String, Span> = HashMap::new();
        // Sides whose promotion zone a `SIDE promotes` statement set: the general statement
        // does not override them.
        let mut side_zones: Vec<usize> = Vec::new();
        for item in &statement.items {
            if let PieceItem::Future(future) = &item.node {
                self.error(not_supported(future));
                continue;
            }
            let keyword = match &item.node {
                PieceItem::Promotes {
                    side: Some(side), ..
                } => format!("{} promotes", side.node),
                other => other.keyword_text().to_string(),
            };
            let repeatable = matches!(item.node, PieceItem::Path(_));
            if let Some(first) = seen
                .insert(keyword.clone(), item.span)
                .filter(|_| !repeatable)
            {
                self.error(duplicate(&keyword, item.span, first));
                continue;
            }
            match &item.node {
                PieceItem::Letter(_) | PieceItem::Future(_) => {}
                PieceItem::Value(value) => {
                    piece.value = self
                        .number(value, i32::MIN as i64, i32::MAX as i64)
                        .unwrap_or(0) as i32
                }
                PieceItem::Royal => piece.royal = true,
                PieceItem::Irreversible => piece.irreversible = true,
                PieceItem::Uncapturable => piece.uncapturable = true,
                PieceItem::Moves(text) => {
                    piece.betza = text.node.value.clone();
                    piece.moves = self.moves(text);
                }
                PieceItem::Path(legs) => {
                    if let Some(path) = self.path(legs) {
                        piece.paths.push(path);
                    }
                }
                PieceItem::Initial(zone) => {
                    piece.initial_zone = self.zone(zone, context).unwrap_or_default()
                }
                PieceItem::Promotes {
                    side: None,
                    zone,
                    choices,
                } => {
                    let mut zone = self.zone(zone, context).unwrap_or_default();
                    let choices = choices
                        .iter()
                        .filter_map(|choice| self.piece_id(choice, context.pieces, "`promotes`"))
                        .collect();
                    let earlier = piece.promotion.take();
                    if let Some(earlier) = &earlier {
                        for &index in &side_zones {
                            if let (Some(kept), Some(slot)) =
                                (earlier.zone.get(index), zone.get_mut(index))
                            {
                                *slot = kept.clone();
                            }
                        }
                    }
                    let side_choices = earlier.map(|p| p.side_choices).unwrap_or_default();
                    piece.promotion = Some(Promotion {
                        zone,
                        choices,
                        side_choices,
                    });
                }
                PieceItem::Promotes {
                    side: Some(side),
                    zone,
                    choices,
                } => {
                    let Some(side) = self.side_id(side, context.sides, "`promotes`") else {
                        continue;
                    };
                    let zone = self.zone(zone, context).unwrap_or_default();
                    let choices: Vec<PieceId> = choices
                        .iter()
                        .filter_map(|choice| self.piece_id(choice, context.pieces, "`promotes`"))
                        .collect();
                    let promotion = piece.promotion.get_or_insert_with(|| Promotion {
                        zone: vec![Vec::new(); context.sides.len()],
                        choices: Vec::new(),
                        side_choices: Vec::new(),
                    });
                    let index = side.0 as usize;
                    promotion
                        .side_choices
                        .resize(context.sides.len(), Vec::new());
                    promotion.side_choices[index] = choices;
                    promotion.zone.resize(context.sides.len(), Vec::new());
                    promotion.zone[index] = zone.get(index).cloned().unwrap_or_default();
                    side_zones.push(index);
                }
            }
        }
        piece
    }

    /// A `path` statement: each leg checked, `None` after an error.
    fn path(&mut self, legs: &[Spanned<LegSyntax>]) -> Option<PathDef> {
        let mut result = Vec::new();
        let mut unit_steps = true;
        let mut failed = false;
        for (index, leg) in legs.iter().enumerate() {
            let last = index + 1 == legs.len();
            match self.leg(&leg.node, leg.span, index == 0, last, unit_steps) {
                Some((leg, unit)) => {
                    unit_steps = unit;
                    result.push(leg);
                }
                None => failed = true,
            }
        }
        let text: Vec<String> = legs.iter().map(|leg| leg_text(&leg.node)).collect();
        (!failed).then(|| PathDef {
            text: text.join(", then "),
            legs: result,
        })
    }

    /// One leg; with it, whether its steps are one square (so that `outward` may follow).
    fn leg(
        &mut self,
        leg: &LegSyntax,
        span: Span,
        first: bool,
        last: bool,
        previous_unit: bool,
    ) -> Option<(Leg, bool)> {
        let path_error = |message: String, label: &str, help: &str| {
            Diagnostic::error(code::PATH, message, span, label).with_help(help)
        };
        let word = leg.direction.node.as_str();
        let (direction, unit) = match (word, first) {
            ("straight" | "outward", true) => {
                self.error(path_error(
                    format!("a path cannot start `{word}`"),
                    "the first leg has nothing to go on from",
                    "start with a Betza leaper atom such as `W`, `F` or `fF`",
                ));
                return None;
            }
            ("straight", false) => (LegDirection::Straight, previous_unit),
            ("outward", false) if !previous_unit => {
                self.error(path_error(
                    "`outward` follows a one-square step only".to_string(),
                    "the previous leg's step is longer than one square",
                    "use `W`, `F` or `K` steps before `outward`",
                ));
                return None;
            }
            ("outward", false) => (LegDirection::Outward, true),
            (_, false) => {
                self.error(path_error(
                    format!("a later leg goes `straight` or `outward`, not `{word}`"),
                    "a new direction",
                    "only the first leg names its directions with a Betza atom",
                ));
                return None;
            }
            (atom, true) => {
                let steps = self.leg_steps(atom, leg.direction.span)?;
                let unit = steps
                    .iter()
                    .all(|s| s.right.abs() <= 1 && s.forward.abs() <= 1);
                (LegDirection::Steps(steps), unit)
            }
        };
        let count = match leg.count {
            Some('*') => LegCount::AnyEmpty,
            Some('+') => LegCount::SomeEmpty,
            _ => LegCount::One,
        };
        let has_test = !leg.holds.is_empty() || leg.not_royal || leg.undefended;
        if count != LegCount::One && (has_test || leg.convert) {
            self.error(path_error(
                "a sliding leg passes empty squares only".to_string(),
                "this leg slides (`*` or `+`)",
                "put what a square may hold on a one-step leg",
            ));
            return None;
        }
        let mut holds = SquareTest {
            empty: false,
            enemy: false,
            friend: false,
            not_royal: leg.not_royal,
            undefended: leg.undefended,
        };
        for kind in &leg.holds {
            match kind.node.as_str() {
                "empty" => holds.empty = true,
                "enemy" => holds.enemy = true,
                "friend" => holds.friend = true,
                _ => {
                    holds = SquareTest {
                        not_royal: holds.not_royal,
                        undefended: holds.undefended,
                        ..SquareTest::ANY
                    }
                }
            }
        }
        if leg.holds.is_empty() {
            if count == LegCount::One && !last {
                self.error(path_error(
                    "say what this leg's square may hold".to_string(),
                    "a step on the way",
                    "add `any`, `empty`, `enemy` or `friend` (`enemy or friend` ...)",
                ));
                return None;
            }
            holds = SquareTest {
                not_royal: holds.not_royal,
                undefended: holds.undefended,
                ..SquareTest::LANDING
            };
        }
        if last && (holds.friend || leg.convert) {
            self.error(path_error(
                "the last leg lands: it cannot hold a friend or convert".to_string(),
                "the landing square",
                "a move lands on an empty square or captures an enemy piece there",
            ));
            return None;
        }
        let only_enemy = holds.enemy && !holds.empty && !holds.friend;
        if leg.convert && !only_enemy {
            self.error(path_error(
                "`convert` takes over an enemy piece: the square must hold `enemy`".to_string(),
                "this square may hold something else",
                "write `enemy convert` (or `enemy not royal convert`)",
            ));
            return None;
        }
        if leg.undefended && !holds.enemy {
            self.error(path_error(
                "`undefended` speaks of an enemy piece".to_string(),
                "this square holds no enemy",
                "write `enemy undefended`",
            ));
            return None;
        }
        let effect = if leg.convert {
            LegEffect::Convert
        } else {
            LegEffect::None
        };
        Some((
            Leg {
                direction,
                count,
                holds,
                effect,
            },
            unit,
        ))
    }

    /// The steps of a leg's Betza atom: one leaper atom, modifiers for direction only.
    fn leg_steps(&mut self, atom: &str, span: Span) -> Option<Vec<Offset>> {
        let decoded = match betza::decode(atom) {
            Ok(decoded) => decoded,
            Err(errors) => {
                for error in errors {
                    self.error(Diagnostic::error(
                        error.code,
                        error.message,
                        span,
                        error.label,
                    ));
                }
                return None;
            }
        };
        let leaper = decoded
            .iter()
            .all(|a| a.range == Some(1) && !a.lame && !a.en_passant && !a.initial_only);
        if !leaper {
            self.error(
                Diagnostic::error(
                    code::PATH,
                    format!("`{atom}` is not a plain leaper"),
                    span,
                    "a leg steps once per direction",
                )
                .with_help("use a leaper such as `W`, `F`, `K` or `fF`; slide with `*` or `+`"),
            );
            return None;
        }
        Some(decoded.into_iter().flat_map(|a| a.steps).collect())
    }

    fn moves(&mut self, text: &Spanned<StringLit>) -> Vec<MoveAtom> {
        match betza::decode(&text.node.value) {
            Ok(atoms) => atoms,
            Err(errors) => {
                let spans = text.spans_of(errors.iter().map(|error| error.range.clone()));
                for (error, span) in errors.into_iter().zip(spans) {
                    self.error(
                        Diagnostic::error(error.code, error.message, span, error.label)
                            .with_optional_help(error.help),
                    );
                }
                Vec::new()
            }
        }
    }

    fn piece_id(
        &mut self,
        name: &Spanned<String>,
        pieces: &[PieceName<'_>],
        context: &str,
    ) -> Option<PieceId> {
        if let Some(index) = pieces
            .iter()
            .position(|piece| piece.statement.name.node == name.node)
        {
            return Some(PieceId(index as u8));
        }
        if self.left_out_pieces.contains(&name.node) {
            return None;
        }
        let names = pieces
            .iter()
            .map(|piece| piece.statement.name.node.as_str());
        self.error(
            Diagnostic::error(
                code::UNKNOWN_PIECE,
                format!("unknown piece `{}` in {context}", name.node),
                name.span,
                "not a piece of this game",
            )
            .with_optional_help(suggestion::did_you_mean(&name.node, names)),
        );
        None
    }

    // -----------------------------------------------------------------------------------------
    // Board, squares and zones
    // -----------------------------------------------------------------------------------------

    fn board(&mut self, board: &BoardStatement) -> Option<BoardDef> {
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
    fn number(&mut self, digits: &Spanned<String>, min: i64, max: i64) -> Option<i64> {
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
    fn square_on(&mut self, name: &Spanned<String>, board: &BoardDef) -> Option<Square> {
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
    fn zone(&mut self, zone: &Spanned<Zone>, context: &Context<'_>) -> Option<Vec<Vec<Square>>> {
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
    fn rank(&mut self, digits: &Spanned<String>, board: &BoardDef) -> Option<u8> {
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

    // -----------------------------------------------------------------------------------------
    // Actions, drops, control
    // -----------------------------------------------------------------------------------------

    fn actions(&mut self, statement: &ActionsStatement) -> Actions {
        let mut actions = Actions {
            moves: false,
            drops: false,
        };
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for kind in &statement.kinds {
            let word = kind.node.keyword_text();
            if let Some(first) = seen.insert(word, kind.span) {
                self.error(duplicate(word, kind.span, first));
                continue;
            }
            match kind.node {
                ActionKind::Moves => actions.moves = true,
                ActionKind::Drops => actions.drops = true,
            }
        }
        actions
    }

    fn drop_rules(
        &mut self,
        items: &[Spanned<DropsItem>],
        context: &Context<'_>,
        kind: RuleKind,
    ) -> DropRules {
        let mut rules = DropRules::default();
        for item in items {
            match &item.node {
                DropsItem::Future(future) => self.error(not_supported(future)),
                DropsItem::Must(must) => {
                    if let Some(constraint) = self.drop_constraint(must, item.span, context, kind) {
                        rules.constraints.push(constraint);
                    }
                }
            }
        }
        rules
    }

    /// One `must` statement; `None` if any of its names or types is wrong (each is reported).
    fn drop_constraint(
        &mut self,
        must: &MustStatement,
        span: Span,
        context: &Context<'_>,
        kind: RuleKind,
    ) -> Option<DropConstraint> {
        let (block, requirement_place, condition_place) = match kind {
            RuleKind::Drop => ("`drops`", Place::DropRequirement, Place::DropCondition),
            RuleKind::Move => ("`moves`", Place::Move, Place::Move),
        };
        let side = must
            .side
            .as_ref()
            .map(|name| self.side_id(name, context.sides, block));
        let mut names = Resolver {
            validator: self,
            context,
        };
        let requirement = typing::condition(&mut names, &must.requirement, requirement_place);
        let condition = match &must.condition {
            Some(condition) => typing::condition(&mut names, condition, condition_place),
            None => Some(Condition::True),
        };
        let side = match side {
            Some(found) => Some(found?),
            None => None,
        };
        Some(DropConstraint {
            side,
            requirement: requirement?,
            condition: condition?,
            origin: self.origin(span),
        })
    }

    /// `phase NAME { order ...; must ... }`; `None` after reporting a mistake.
    fn phase(
        &mut self,
        phase: &PhaseStatement,
        context: &Context<'_>,
        actions: Actions,
    ) -> Option<PhaseDef> {
        if !actions.drops {
            self.error(
                Diagnostic::error(
                    code::TURN_ORDER,
                    "a placement phase needs drops",
                    phase.keyword,
                    "sides place pieces from their hands in this phase",
                )
                .with_help("add `actions moves drops` (or `actions drops`)"),
            );
            return None;
        }
        let Some(order) = &phase.order else {
            self.error(
                Diagnostic::error(
                    code::MISSING_STATEMENT,
                    format!("the phase `{}` has no `order`", phase.name.node),
                    phase.keyword,
                    "which sides place, in which order?",
                )
                .with_help("add `order white black` inside the block"),
            );
            return None;
        };
        let sides: Vec<Option<SideId>> = order
            .node
            .iter()
            .map(|name| self.side_id(name, context.sides, "`order`"))
            .collect();
        let drops = self.drop_rules(&phase.rules, context, RuleKind::Drop);
        Some(PhaseDef {
            name: phase.name.node.clone(),
            order: sides.into_iter().collect::<Option<Vec<_>>>()?,
            drops,
        })
    }

    /// `turn { ... }`
    fn turn_rules(&mut self, statement: &TurnStatement) -> TurnRules {
        let mut rules = TurnRules::default();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for item in &statement.items {
            let name = match &item.node {
                TurnItem::Future(future) => {
                    self.error(not_supported(future));
                    continue;
                }
                TurnItem::Length(_) => "up to",
                TurnItem::Maximal => "maximal",
                TurnItem::Pass => "pass",
                TurnItem::ExchangePrisoners => "exchange prisoners",
            };
            if let Some(first) = seen.insert(name, item.span) {
                self.error(duplicate(name, item.span, first));
                continue;
            }
            match &item.node {
                TurnItem::Length(digits) => {
                    if let Some(count) = self.number(digits, 1, i64::from(MAX_TURN_ACTIONS)) {
                        rules.actions = count as u8;
                    }
                }
                TurnItem::Maximal => rules.maximal = true,
                TurnItem::Pass => rules.pass = true,
                TurnItem::ExchangePrisoners => rules.exchange_prisoners = true,
                TurnItem::Future(_) => {}
            }
        }
        rules
    }

    /// Where the statement at `span` is written: its file's name, line and text.
    fn origin(&self, span: Span) -> Origin {
        let name = self.sources.name(span.file);
        let file = std::path::Path::new(name).file_name().map_or_else(
            || name.to_string(),
            |file| file.to_string_lossy().into_owned(),
        );
        let line = self.sources.line_of(span.file, span.start);
        Origin {
            file,
            line: u32::try_from(line).unwrap_or(u32::MAX),
            text: statement_text(self.sources.snippet(span)),
        }
    }

    fn capture_rules(
        &mut self,
        statement: &CaptureStatement,
        context: &Context<'_>,
    ) -> CaptureRules {
        let mut rules = CaptureRules::default();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for item in &statement.items {
            let name = match &item.node {
                CaptureItem::Future(future) => {
                    self.error(not_supported(future));
                    continue;
                }
                CaptureItem::RemoveCapturer => "remove capturer",
                CaptureItem::RemoveAround(_) => "remove around",
                CaptureItem::Store(..) => {
                    self.capture_store(item, context, &mut rules);
                    continue;
                }
            };
            if let Some(first) = seen.insert(name, item.span) {
                self.error(duplicate(name, item.span, first));
                continue;
            }
            match &item.node {
                CaptureItem::RemoveCapturer => rules.remove_capturer = true,
                CaptureItem::RemoveAround(except) => {
                    let pieces = except
                        .iter()
                        .filter_map(|name| self.piece_id(name, context.pieces, "`remove around`"))
                        .collect();
                    rules.remove_around_except = Some(pieces);
                }
                CaptureItem::Future(_) | CaptureItem::Store(..) => {}
            }
        }
        rules
    }

    /// `PIECES to hand|prison`: each piece type named once across the block.
    fn capture_store(
        &mut self,
        item: &Spanned<CaptureItem>,
        context: &Context<'_>,
        rules: &mut CaptureRules,
    ) {
        let CaptureItem::Store(names, store) = &item.node else {
            return;
        };
        let count = context.pieces.len();
        rules.stores.resize(count, None);
        let pieces: Vec<PieceId> = if names.is_empty() {
            (0..count).map(|p| PieceId(p as u8)).collect()
        } else {
            names
                .iter()
                .filter_map(|name| self.piece_id(name, context.pieces, "the `capture` block"))
                .collect()
        };
        for piece in pieces {
            let entry = &mut rules.stores[piece.0 as usize];
            if entry.is_some() {
                self.error(
                    Diagnostic::error(
                        code::DUPLICATE_STATEMENT,
                        format!(
                            "captured {} already go somewhere",
                            context.pieces[piece.0 as usize].statement.name.node
                        ),
                        item.span,
                        "a second destination for the same piece",
                    )
                    .with_help("name each piece type in one `to hand` or `to prison` rule"),
                );
                return;
            }
            *entry = Some(*store);
        }
    }

    fn control_rules(&mut self, statement: &ControlStatement) -> ControlRules {
        let mut rules = ControlRules::default();
        let mut seen: Option<Span> = None;
        for item in &statement.items {
            match &item.node {
                ControlItem::Future(future) => self.error(not_supported(future)),
                ControlItem::EnPassantStanding => match seen {
                    Some(first) => self.error(duplicate("en-passant standing", item.span, first)),
                    None => {
                        seen = Some(item.span);
                        rules.en_passant_standing = true;
                    }
                },
            }
        }
        rules
    }

    // -----------------------------------------------------------------------------------------
    // Castling, end, setup
    // -----------------------------------------------------------------------------------------

    fn castling(
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
            if let [Some(king_from), Some(king_to), Some(rook_from), Some(rook_to)] = squares {
                let right = CastlingDef {
                    side,
                    fen_letter: letter,
                    king_from,
                    king_to,
                    rook_from,
                    rook_to,
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

    fn end_rules(&mut self, end: &EndStatement, context: &Context<'_>) -> EndRules {
        let mut rules = EndRules::default();
        let mut seen: HashMap<String, Span> = HashMap::new();
        let mut materials: HashMap<(Vec<PieceCount>, bool), Span> = HashMap::new();
        for rule in &end.rules {
            if let EndRule::Future(future) = &rule.node {
                self.error(not_supported(future));
                continue;
            }
            if let EndRule::Material(material) = &rule.node {
                let Some(resolved) = self.material(material, context) else {
                    continue;
                };
                let key = (resolved.counts.clone(), resolved.one_colour);
                if let Some(first) = materials.insert(key, rule.span) {
                    self.error(
                        Diagnostic::error(
                            code::DUPLICATE_STATEMENT,
                            "two `material` rules list the same pieces",
                            rule.span,
                            "the same pieces again",
                        )
                        .with_secondary(first, "first listed here")
                        .with_help("keep one of them"),
                    );
                    continue;
                }
                rules.material.push(resolved);
                continue;
            }
            if let EndRule::Condition {
                each_side,
                verdict,
                condition,
            } = &rule.node
            {
                let mut names = Resolver {
                    validator: self,
                    context,
                };
                if let Some(condition) = typing::condition(&mut names, condition, Place::End) {
                    rules.conditions.push(EndCondition {
                        each_side: *each_side,
                        verdict: verdict.as_ref().map(|verdict| verdict.node),
                        condition,
                        origin: self.origin(rule.span),
                    });
                }
                continue;
            }
            let keyword = rule.node.keyword_text().to_string();
            if let Some(first) = seen.insert(keyword.clone(), rule.span) {
                self.error(duplicate(&keyword, rule.span, first));
                continue;
            }
            match &rule.node {
                EndRule::Check => rules.check = true,
                EndRule::Checkmate(verdict) => rules.checkmate = Some(verdict.node),
                EndRule::Stalemate(verdict) => rules.stalemate = Some(verdict.node),
                EndRule::RoyalCaptured(verdict) => rules.royal_captured = Some(verdict.node),
                EndRule::Repetition { count, verdict } => {
                    rules.repetition = self
                        .count(count, 2, "a position repeats at least twice")
                        .map(|count| Repetition {
                            count,
                            verdict: verdict.node,
                        });
                }
                EndRule::MoveLimit {
                    moves,
                    plies,
                    verdict,
                } => {
                    rules.move_limit =
                        self.count(moves, 1, "the move limit is at least 1")
                            .map(|moves| MoveLimit {
                                moves,
                                plies: *plies,
                                verdict: verdict.node,
                            });
                }
                EndRule::Tiebreak(tiebreak) => rules.tiebreaks.push(tiebreak.node),
                EndRule::Material(_) | EndRule::Condition { .. } | EndRule::Future(_) => {}
            }
        }
        self.warn_checkmate_without_check(end, &rules);
        rules
    }

    /// `checkmate` needs `check`: without it a move may leave the royal piece attacked, so a
    /// side always has moves and is never checkmated (easy to miss when an `end` block replaces
    /// an inherited one whole).
    fn warn_checkmate_without_check(&mut self, end: &EndStatement, rules: &EndRules) {
        if rules.check {
            return;
        }
        let Some(checkmate) = end
            .rules
            .iter()
            .find(|rule| matches!(rule.node, EndRule::Checkmate(_)))
        else {
            return;
        };
        self.diagnostics.push(
            Diagnostic::warning(
                code::CHECKMATE_WITHOUT_CHECK,
                "`checkmate` without `check`: no side is ever checkmated",
                checkmate.span,
                "never happens in this `end` block",
            )
            .with_secondary(end.keyword, "this block has no `check`")
            .with_help(
                "add `check` to the `end` block (an `end` block replaces an inherited one \
                 whole): without it a move may leave the royal piece attacked, and it may be \
                 captured",
            ),
        );
    }

    /// A `material` rule with its names resolved and its terms added up per piece; `None` if a
    /// name is unknown (reported).
    fn material(
        &mut self,
        material: &MaterialStatement,
        context: &Context<'_>,
    ) -> Option<MaterialRule> {
        let mut counts: Vec<PieceCount> = Vec::new();
        let mut known = true;
        for term in &material.pieces {
            let Some(piece) = self.piece_id(&term.node.piece, context.pieces, "`material`") else {
                known = false;
                continue;
            };
            let (min, max) = match term.node.quantifier {
                Quantifier::One => (1, Some(1)),
                Quantifier::AnyNumber => (0, None),
                Quantifier::OneOrMore => (1, None),
            };
            match counts.iter_mut().find(|count| count.piece == piece) {
                Some(count) => {
                    count.min = count.min.saturating_add(min);
                    count.max = count.max.zip(max).map(|(a, b)| a.saturating_add(b));
                }
                None => counts.push(PieceCount { piece, min, max }),
            }
        }
        counts.sort_by_key(|count| count.piece);
        known.then_some(MaterialRule {
            counts,
            one_colour: material.one_colour.is_some(),
            verdict: material.verdict.node,
        })
    }

    fn count(&mut self, digits: &Spanned<String>, minimum: u32, why: &str) -> Option<u32> {
        self.count_with(code::END_RULE, digits, minimum, why)
    }

    /// Reads a count of at least `minimum`, reporting a smaller one under `code`.
    fn count_with(
        &mut self,
        code: &'static str,
        digits: &Spanned<String>,
        minimum: u32,
        why: &str,
    ) -> Option<u32> {
        let value = self.number(digits, 0, u32::MAX as i64)? as u32;
        if value < minimum {
            self.error(Diagnostic::error(
                code,
                format!("`{value}` is too small: {why}"),
                digits.span,
                format!("at least {minimum}"),
            ));
            return None;
        }
        Some(value)
    }

    /// The setup's side to move must have a turn: the `turns` statement (the only way it could
    /// lack one) is reported, pointing at the FEN's side too.
    fn check_turn_order(
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

    fn setup(&mut self, definition: &Definition, fen_text: &Spanned<StringLit>) -> Option<Setup> {
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
    fn warn_unused_pieces(&mut self, definition: &Definition, names: &[PieceName<'_>]) {
        let own_file = self.end_of_file.file;
        for (index, name) in names.iter().enumerate() {
            if name.statement.name.span.file != own_file {
                continue;
            }
            let id = PieceId(index as u8);
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

    /// A royal piece that can be captured (no `check` keeps it safe) with no end rule that
    /// notices (`royal captured`, or a condition reading where it stands): play would go on
    /// without it. Only for a file without errors.
    fn warn_capturable_royals(
        &mut self,
        definition: &Definition,
        names: &[PieceName<'_>],
        end: Option<&EndStatement>,
    ) {
        let rules = &definition.end;
        // A file with errors is told about them first: the warning would be noise there.
        if self.error_count() > 0 || rules.check || rules.royal_captured.is_some() {
            return;
        }
        for (index, (piece, name)) in definition.pieces.iter().zip(names).enumerate() {
            let id = PieceId(index as u8);
            let noticed = rules
                .conditions
                .iter()
                .any(|rule| rule.condition.reads_pieces_of(id));
            if !piece.royal || piece.uncapturable || noticed {
                continue;
            }
            let royal = name
                .statement
                .items
                .iter()
                .find(|item| matches!(item.node, PieceItem::Royal))
                .map_or(name.statement.name.span, |item| item.span);
            let message = format!(
                "the royal piece `{}` can be captured, and no end rule says what happens then",
                piece.name
            );
            let help = format!(
                "add `check` to the `end` block (no move may leave it attacked), or \
                 `royal captured loses`, or a rule such as `loses when no own {}`",
                piece.name
            );
            let diagnostic = match end {
                Some(end) => Diagnostic::warning(
                    code::CAPTURABLE_ROYAL,
                    message,
                    end.keyword,
                    "no `check` nor `royal captured` in this block",
                )
                .with_secondary(royal, "royal here"),
                None => Diagnostic::warning(
                    code::CAPTURABLE_ROYAL,
                    message,
                    royal,
                    "royal, and there is no `end` block",
                ),
            };
            self.diagnostics.push(diagnostic.with_help(help));
        }
    }

    fn error_count(&self) -> usize {
        self.errors
    }
}

/// The text of a statement without strings (a `must` statement) as one line: comments
/// removed, line continuations and runs of whitespace written as one space, trimmed.
fn statement_text(source: &str) -> String {
    let mut text = String::with_capacity(source.len());
    let mut rest = source;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |newline| &after[newline..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |end| &after[end + 2..]);
            text.push(' ');
        } else if let Some(after) = rest.strip_prefix('\\') {
            rest = after;
            text.push(' ');
        } else {
            let next = rest.chars().next().unwrap_or(' ');
            text.push(next);
            rest = &rest[next.len_utf8()..];
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What zones and names are resolved against.
#[derive(Clone, Copy)]
struct Context<'a> {
    board: Option<&'a BoardDef>,
    sides: &'a [Spanned<SideDef>],
    pieces: &'a [PieceName<'a>],
    /// Captured pieces come back to a hand (directly or by prisoner exchange) while these rules
    /// apply: never during a placement phase, where nothing is captured.
    pieces_return: bool,
}

/// Resolves the names of an expression for [`typing`], reporting through the validator.
struct Resolver<'v, 's, 'c> {
    validator: &'v mut Validator<'s>,
    context: &'c Context<'c>,
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

    fn pieces_return(&self) -> bool {
        self.context.pieces_return
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        self.validator.error(diagnostic);
    }
}

fn piece_letter(statement: &PieceStatement) -> (char, Span) {
    for item in &statement.items {
        if let PieceItem::Letter(letter) = &item.node {
            return (letter.node.to_ascii_uppercase(), letter.span);
        }
    }
    let name = &statement.name;
    (
        name.node.chars().next().unwrap_or('?').to_ascii_uppercase(),
        name.span,
    )
}

/// The default initial zone of a piece: the squares where pieces of its type and side stand in
/// the setup.
fn fill_initial_zones(definition: &mut Definition, names: &[PieceName<'_>]) {
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

/// What `forward` may say, with the ranks of this board.
fn forward_help(board: Option<&BoardDef>) -> String {
    let last = board.map_or("the last rank".to_string(), |board| {
        format!("rank {}, the last rank of this board", board.ranks)
    });
    format!("a side moves forward `up` (towards {last}) or `down` (towards rank 1)")
}

fn empty_setup() -> Setup {
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
    }
}

/// Whether a `must` rule binds drops or moves.
#[derive(Clone, Copy)]
enum RuleKind {
    Drop,
    Move,
}

/// A leg written back in its canonical form: `straight enemy not royal convert`.
fn leg_text(leg: &LegSyntax) -> String {
    let mut words = vec![format!(
        "{}{}",
        leg.direction.node,
        leg.count.map(String::from).unwrap_or_default()
    )];
    let holds: Vec<&str> = leg.holds.iter().map(|h| h.node.as_str()).collect();
    if !holds.is_empty() {
        words.push(holds.join(" or "));
    }
    if leg.not_royal {
        words.push("not royal".to_string());
    }
    if leg.undefended {
        words.push("undefended".to_string());
    }
    if leg.convert {
        words.push("convert".to_string());
    }
    words.join(" ")
}

fn duplicate(keyword: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        code::DUPLICATE_STATEMENT,
        format!("`{keyword}` is given twice"),
        span,
        "given again here",
    )
    .with_secondary(first, "first given here")
    .with_help("remove one of them")
}

fn not_supported(future: &FutureStatement) -> Diagnostic {
    Diagnostic::error(
        code::NOT_SUPPORTED,
        format!("`{}` is not supported yet", future.keyword.node),
        future.keyword.span,
        "part of the language reference, not implemented in this version",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    const CHESS: &str = include_str!("../../../games/chess.variant");

    fn check(text: &str) -> Result<(Definition, Diagnostics), Diagnostics> {
        let mut sources = SourceMap::new();
        let file = sources.add("x.variant", text);
        let game = parse::parse(file, text).expect("parses");
        validate(&game, &sources)
    }

    fn messages(text: &str) -> Vec<String> {
        let diagnostics = check(text).expect_err("should fail");
        diagnostics.iter().map(|d| d.message.clone()).collect()
    }

    fn squares(names: &[&str]) -> Vec<Square> {
        names
            .iter()
            .map(|name| Square::parse(name).unwrap())
            .collect()
    }

    #[test]
    fn chess_validates() {
        let (definition, warnings) = check(CHESS).expect("chess is valid");
        assert!(warnings.is_empty());
        assert_eq!(definition.turn_order, [SideId(0), SideId(1)]);
        assert_eq!(definition.castling.len(), 4);
        assert_eq!(definition.setup.castling, [0, 1, 2, 3]);
        let pawn = &definition.pieces[5];
        assert_eq!(
            pawn.initial_zone[0],
            squares(&["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"])
        );
        assert_eq!(
            pawn.initial_zone[1],
            squares(&["a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7"])
        );
        let promotion = pawn.promotion.as_ref().expect("pawns promote");
        assert_eq!(promotion.zone[0][0], Square::parse("a8").unwrap());
        assert_eq!(promotion.zone[1][0], Square::parse("a1").unwrap());
        assert_eq!(
            promotion.choices,
            [PieceId(1), PieceId(2), PieceId(3), PieceId(4)]
        );
        assert_eq!(definition.pieces[4].initial_zone[0], squares(&["b1", "g1"]));
        assert_eq!(
            definition.end.repetition,
            Some(Repetition {
                count: 3,
                verdict: Verdict::Draw
            })
        );
    }

    #[test]
    fn ron_round_trips() {
        let (definition, _) = check(CHESS).unwrap();
        assert_eq!(
            Definition::from_ron(&definition.to_ron()).unwrap(),
            definition
        );
    }

    const SMALL: &str = "game \"g\"\nboard 5x6 { holes a1 e6 }\nside north { forward down; fen-letter n }\nside south { forward up; fen-letter s }\npiece King { royal; moves \"K\" }\npiece Pawn { moves \"mfW\"; initial ranks 1-2; promotes on squares c3 to King }\nsetup \"1k2*/5/5/5/5/*K2P[p] s - - 4 9\"\nend { check }\n";

    #[test]
    fn zones_count_from_each_side() {
        let (definition, warnings) = check(SMALL).expect("valid");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(definition.board.holes, squares(&["a1", "e6"]));
        assert_eq!(definition.sides[0].fen_letter, 'n');
        let pawn = &definition.pieces[1];
        assert_eq!(pawn.letter, 'P');
        assert_eq!(
            pawn.initial_zone[0],
            squares(&["a5", "b5", "c5", "d5", "e5", "a6", "b6", "c6", "d6"])
        );
        assert_eq!(
            pawn.initial_zone[1],
            squares(&["b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"])
        );
        assert_eq!(
            pawn.promotion.as_ref().unwrap().zone,
            [squares(&["c3"]), squares(&["c3"])]
        );
        assert_eq!(definition.setup.side_to_move, SideId(1));
        assert_eq!(definition.setup.hands, [(SideId(1), PieceId(1), 1)]);
        assert_eq!(definition.setup.fullmove_number, 9);
    }

    #[test]
    fn defaults() {
        let text = "game \"g\"\nboard 3x3\nside white {}\nside black {}\npiece King { moves \"K\" }\nsetup \"k2/3/2K w - -\"";
        let (definition, _) = check(text).expect("valid");
        assert_eq!(definition.sides[0].forward, Forward::Up);
        assert_eq!(definition.sides[1].forward, Forward::Down);
        assert_eq!(definition.sides[1].fen_letter, 'b');
        assert_eq!(definition.turn_order, [SideId(0), SideId(1)]);
        assert_eq!(definition.pieces[0].letter, 'K');
        assert_eq!(definition.pieces[0].value, 0);
        assert_eq!(definition.end, EndRules::default());
    }

    #[test]
    fn every_problem_is_reported_in_source_order() {
        let text = CHESS
            .replace("moves \"N\"", "moves \"Y\"")
            .replace("to Queen Rook", "to Quen Rook")
            .replace("turns white black", "turns white blak")
            .replace("rook h8-f8", "rook h9-f8");
        assert_eq!(
            messages(&text),
            [
                "unknown side `blak` in `turns`",
                "`Y` is not a Betza atom",
                "unknown piece `Quen` in `promotes`",
                "`h9` is off the 8x8 board",
            ]
        );
    }

    #[test]
    fn future_statements_are_rejected_everywhere() {
        let text = CHESS
            .replace("board 8x8", "board 8x8 { zone centre d4 e4 d5 e5 }")
            .replace(
                "side white { forward up }",
                "side white { forward up; controller human }",
            )
            .replace("    royal\n", "    royal\n    prison keeps\n")
            .replace("    check  ", "    draw agreed\n    check  ")
            + "effect red { }\n";
        assert_eq!(
            messages(&text),
            [
                "`zone` is not supported yet",
                "`controller` is not supported yet",
                "`prison` is not supported yet",
                "`draw` is not supported yet",
                "`effect` is not supported yet",
            ]
        );
    }

    #[test]
    fn duplicates_inside_blocks() {
        let text = CHESS
            .replace("    value 9\n", "    value 9\n    value 8\n")
            .replace(
                "    checkmate loses\n",
                "    checkmate loses\n    checkmate wins\n",
            );
        assert_eq!(
            messages(&text),
            ["`value` is given twice", "`checkmate` is given twice"]
        );
    }

    #[test]
    fn ranks_backwards_and_repetition_once() {
        let text = CHESS
            .replace("initial rank 2", "initial ranks 3-2")
            .replace("repetition 3", "repetition 1");
        assert_eq!(
            messages(&text),
            [
                "the ranks `3-2` are backwards",
                "`1` is too small: a position repeats at least twice"
            ]
        );
    }

    /// Chess with `count` castling rights, all the king-side move of White or Black.
    fn chess_with_rights(count: usize) -> String {
        let letters = ('A'..='Z').chain('a'..='z');
        let lines: Vec<String> = letters
            .take(count)
            .map(|letter| match letter.is_ascii_uppercase() {
                true => format!("    white {letter} king e1-g1 rook h1-f1"),
                false => format!("    black {letter} king e8-g8 rook h8-f8"),
            })
            .collect();
        let start = CHESS.find("castling {").unwrap();
        let end = start + CHESS[start..].find('}').unwrap() + 1;
        format!(
            "{}castling {{\n{}\n}}{}",
            &CHESS[..start],
            lines.join("\n"),
            &CHESS[end..]
        )
        .replace(" KQkq ", " - ")
    }

    #[test]
    fn thirty_two_castling_rights_and_no_more() {
        let (definition, _) = check(&chess_with_rights(32)).expect("32 rights fit");
        assert_eq!(definition.castling.len(), 32);
        assert_eq!(
            messages(&chess_with_rights(33)),
            ["a game has at most 32 castling rights, this is number 33"]
        );
    }

    #[test]
    fn the_setup_side_must_be_in_the_turn_order() {
        let text = CHESS.replace("turns white black", "turns black");
        let diagnostics = check(&text).expect_err("white never moves");
        let error = diagnostics.iter().next().unwrap();
        assert_eq!(error.code, code::TURN_ORDER);
        let fen_span = error.secondary[0].span;
        assert_eq!(&text[fen_span.start..fen_span.end], "w");
        let turns_span = error.primary.span;
        assert_eq!(&text[turns_span.start..turns_span.end], "turns black");
        let black_to_move = text.replace(" w KQkq ", " b KQkq ");
        assert!(check(&black_to_move).is_ok());
    }

    #[test]
    fn a_piece_left_out_for_its_letter_is_not_unknown_elsewhere() {
        let text = CHESS
            .replace(
                "piece Pawn {",
                "piece Rhino { letter R; moves \"N\" }\npiece Pawn {",
            )
            .replace("to Queen Rook", "to Queen Rhino Rook")
            + "drops { must place Rhino when hand Rhino > 0 }\n";
        assert_eq!(
            messages(&text),
            ["the pieces `Rook` and `Rhino` have the same letter `R`"]
        );
        let misspelt = text.replace("must place Rhino", "must place Rhno");
        assert_eq!(
            messages(&misspelt).len(),
            2,
            "a real unknown piece is still reported"
        );
    }

    #[test]
    fn a_definition_written_before_material_rules_reads_back() {
        let (definition, _) = check(CHESS).unwrap();
        let ron = definition.to_ron();
        let start = ron.find("        material: [").expect("a material field");
        let end = start + ron[start..].find("\n        ],\n").unwrap() + "\n        ],\n".len();
        let older = format!("{}{}", &ron[..start], &ron[end..]);
        let read = Definition::from_ron(&older).expect("the field defaults");
        assert!(read.end.material.is_empty());
        assert_eq!(read.end.check, definition.end.check);
    }

    #[test]
    fn chess_material_rules_are_the_dead_positions() {
        let (definition, _) = check(CHESS).unwrap();
        let [king, bishop, knight] = [PieceId(0), PieceId(3), PieceId(4)];
        let exactly = |piece, n| PieceCount {
            piece,
            min: n,
            max: Some(n),
        };
        assert_eq!(
            definition.end.material,
            [
                MaterialRule {
                    counts: vec![exactly(king, 2), exactly(knight, 1)],
                    one_colour: false,
                    verdict: Verdict::Draw,
                },
                MaterialRule {
                    counts: vec![
                        exactly(king, 2),
                        PieceCount {
                            piece: bishop,
                            min: 0,
                            max: None
                        }
                    ],
                    one_colour: true,
                    verdict: Verdict::Draw,
                },
            ]
        );
    }

    #[test]
    fn material_terms_add_up_per_piece() {
        let text = CHESS.replace(
            "material King King Knight draws",
            "material Pawn+ King Pawn* King Pawn loses",
        );
        let (definition, _) = check(&text).expect("valid");
        assert_eq!(
            definition.end.material[0].counts,
            [
                PieceCount {
                    piece: PieceId(0),
                    min: 2,
                    max: Some(2)
                },
                PieceCount {
                    piece: PieceId(5),
                    min: 2,
                    max: None
                },
            ]
        );
        assert_eq!(definition.end.material[0].verdict, Verdict::Loss);
    }

    #[test]
    fn material_rules_are_checked() {
        let misspelt = CHESS.replace("King King Knight", "King King Knigt");
        let diagnostics = check(&misspelt).expect_err("unknown piece");
        let error = diagnostics.iter().next().unwrap();
        assert_eq!(error.message, "unknown piece `Knigt` in `material`");
        assert_eq!(error.help.as_deref(), Some("did you mean `Knight`?"));
        let twice = CHESS.replace(
            "material King King Knight draws",
            "material King Knight King draws\n    material King King Knight wins",
        );
        assert_eq!(
            messages(&twice),
            ["two `material` rules list the same pieces"]
        );
    }

    #[test]
    fn drop_constraints_carry_their_origin() {
        let text = CHESS.replace(
            "setup ",
            "drops {\n    black   must touch /* CH1 */ any piece \\\n        when some occupied  // CH2\n}\nsetup ",
        );
        let (definition, _) = check(&text).expect("valid");
        let origin = &definition.drops.constraints[0].origin;
        let line = text[..text.find("black   must").unwrap()]
            .matches('\n')
            .count()
            + 1;
        assert_eq!(
            origin,
            &Origin {
                file: "x.variant".to_string(),
                line: line as u32,
                text: "black must touch any piece when some occupied".to_string(),
            }
        );
        assert_eq!(
            origin.to_string(),
            format!("x.variant:{line}: black must touch any piece when some occupied")
        );
        // A definition dumped before constraints had origins still reads.
        let ron = definition.to_ron();
        let start = ron.find("origin: (").expect("an origin");
        let end = start + ron[start..].find("),").unwrap() + 2;
        let older = format!("{}{}", &ron[..start], &ron[end..]);
        let read = Definition::from_ron(&older).expect("the origin defaults");
        assert_eq!(read.drops.constraints[0].origin, Origin::default());
    }

    #[test]
    fn checkmate_without_check_is_a_warning() {
        let text = CHESS.replace("    check                   //", "    //");
        let (definition, warnings) = check(&text).expect("warnings do not block");
        assert!(!definition.end.check);
        let codes: Vec<&str> = warnings.iter().map(|w| w.code).collect();
        assert_eq!(
            codes,
            [code::CAPTURABLE_ROYAL, code::CHECKMATE_WITHOUT_CHECK],
            "{warnings:?}"
        );
        let checkmate = warnings.iter().nth(1).unwrap().primary.span;
        assert_eq!(&text[checkmate.start..checkmate.end], "checkmate loses");
    }

    #[test]
    fn a_capturable_royal_needs_an_end_rule_that_notices() {
        let without_check = CHESS.replace("    check                   //", "    //");
        let royal_warnings = |text: &str| {
            let (_, warnings) = check(text).expect("valid");
            warnings
                .iter()
                .filter(|w| w.code == code::CAPTURABLE_ROYAL)
                .count()
        };
        assert_eq!(royal_warnings(&without_check), 1);
        for noticing in [
            "royal captured loses",
            "loses when no own King",
            "loses when count (own pieces) < 2",
        ] {
            let text = without_check.replace("end {", &format!("end {{\n    {noticing}"));
            assert_eq!(royal_warnings(&text), 0, "{noticing}");
        }
        let uncapturable = without_check.replace("    royal\n", "    royal\n    uncapturable\n");
        assert_eq!(royal_warnings(&uncapturable), 0);
        let unrelated = without_check.replace("end {", "end {\n    loses when no own Queen");
        assert_eq!(royal_warnings(&unrelated), 1);
    }

    #[test]
    fn unused_piece_is_a_warning_only() {
        let text = CHESS.replace(
            "piece Pawn {",
            "piece Camel { letter C; moves \"C\" }\npiece Pawn {",
        );
        let (_, warnings) = check(&text).expect("warnings do not block");
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings.iter().next().unwrap().code, code::UNUSED_PIECE);
    }
}
