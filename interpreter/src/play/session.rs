//! A game in progress behind one object-safe trait, whatever the board's bitboard width.
//!
//! The engine is generic over [`Bitboard`] so that each width is compiled separately and fast;
//! [`open`] picks the width from the board's size and returns a `Box<dyn Session>`, so the CLI
//! and the tests never name a width. Moves cross this boundary as UCI text.

use crate::action::{Action, Edited, Written};
use crate::bitboard::{Bitboard, Wide256};
use crate::core::index::{PieceId, SideId, Sq};
use crate::explain::Explanation;
use crate::legal::legal_moves;
use crate::moves::{Move, MoveKind};
use crate::outcome::{outcome, Outcome};
use crate::perft;
use crate::policy::Policies;
use crate::position::Position;
use crate::rules::{CompileError, Rules};
use crate::san::{InputError, PlusMark};
use crate::view::{BoardView, Hand};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::sync::Arc;
use variant_dsl::{fen, Definition};

/// Why a session could not be opened or a move not played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionError {
    /// The engine cannot run this definition.
    Compile(CompileError),
    /// The FEN is malformed or does not fit the game.
    Fen(String),
    /// The text is not a move of this game.
    MalformedMove(String),
    /// The move is well formed but not legal here.
    IllegalMove {
        /// The move as typed.
        text: String,
        /// The position's FEN.
        fen: String,
        /// Why, in the game's words (see [`crate::explain`]).
        reason: String,
    },
    /// The game is already over.
    GameOver {
        /// The move as typed.
        text: String,
        /// The result in words.
        result: String,
    },
    /// The position is well formed but cannot arise in this game.
    Impossible(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Compile(e) => write!(f, "cannot compile the game: {e}"),
            SessionError::Fen(message) => write!(f, "invalid FEN: {message}"),
            SessionError::MalformedMove(text) => write!(
                f,
                "`{text}` is not a move: write moves in UCI notation (`e2e4`, `e7e8q`, `N@c3`)"
            ),
            SessionError::IllegalMove { text, fen, reason } => {
                write!(f, "`{text}` is not a legal move in {fen}: {reason}")
            }
            SessionError::GameOver { text, result } => {
                write!(f, "cannot play `{text}`: the game is over ({result})")
            }
            SessionError::Impossible(why) => write!(f, "impossible position: {why}"),
        }
    }
}

impl std::error::Error for SessionError {}

/// A game in progress.
pub trait Session {
    /// The game's definition.
    fn definition(&self) -> &Definition;
    /// The current position as a FEN.
    fn fen(&self) -> String;
    /// The name of the side to move.
    fn side_to_move(&self) -> String;
    /// The legal moves, in UCI notation, in generation order; none once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays one move given in UCI notation.
    fn play(&mut self, text: &str) -> Result<(), SessionError>;
    /// The result, if the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether the side to move has a royal piece attacked.
    fn in_check(&self) -> bool;
    /// The sides that have a royal piece attacked right now.
    fn checked_sides(&self) -> Vec<String>;
    /// Why `text` is or is not a legal move here, in the game's words.
    fn explain(&self, text: &str) -> Explanation;
    /// Perft of the current position: no move is counted below a finished position (see
    /// [`perft`](crate::perft)).
    fn perft(&self, depth: u32) -> u64;
    /// Perft per root move.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The board drawn in text, top rank first.
    fn diagram(&self) -> String;
    /// Checks the incremental hash against a fresh one.
    fn hash_is_consistent(&self) -> bool;
    /// Moves played so far, in UCI notation.
    fn history(&self) -> Vec<String>;
    /// What the last move did, if a move was played.
    fn last_move(&self) -> Option<MoveReport>;
    /// A readable description of the compiled game.
    fn describe(&self) -> String;
    /// Each side's score by name, when the game keeps one.
    fn scores(&self) -> Option<Vec<(String, i64)>>;
    /// The squares a side (by name) controls, in square order; empty for an unknown side.
    fn controlled_squares(&self, side: &str) -> Vec<String>;
    /// For each side, a drawing of the squares it controls (`x`), when the game keeps a score.
    fn control_diagrams(&self) -> Vec<(String, String)>;
    /// The session as [`Any`](std::any::Any): the AI reaches the typed game behind it.
    fn as_any(&self) -> &dyn std::any::Any;
    /// The position the game started from, as a FEN.
    fn start_fen(&self) -> String;
    /// Takes back the last move played; returns it in UCI, or `None` at the start.
    fn undo(&mut self) -> Option<String>;
    /// The board as data (for drawing), with the squares of the last move.
    fn board(&self) -> BoardView;
    /// Every side's hand, in side order.
    fn hands(&self) -> Vec<Hand>;
    /// The moves played so far, in short algebraic notation (see [`crate::san`]).
    fn history_san(&self) -> Vec<String>;
    /// A legal move given in UCI, written in short algebraic notation; `None` if not legal.
    fn san(&self, uci: &str) -> Option<String>;
    /// The one legal move meant by typed text (UCI or short algebraic), in UCI.
    fn resolve(&self, text: &str) -> Result<String, InputError> {
        self.resolve_with(text, PlusMark::Check)
    }
    /// [`Session::resolve`], with a `+` after a move that may promote read as `plus` says.
    fn resolve_with(&self, text: &str, plus: PlusMark) -> Result<String, InputError>;
    /// Where the side to move must pass (`pass when no action`, written `pass`), the pass as
    /// Fairy-Stockfish writes it: a move of one of the mover's pieces to its own square, its
    /// royal piece's, else its first piece's in square order (ataxx's `f5f5`). [`Session::play`]
    /// reads that form too. `None` where no such pass is legal or the mover has no piece.
    fn fairy_pass(&self) -> Option<String>;
    /// The state of the turn and the stores, for games that have them.
    fn turn_report(&self) -> TurnReport;
    /// For each move played: the index of the side that played it and the move number then.
    fn plies(&self) -> Vec<(usize, u32)>;
    /// The decision of the side to move's policy: with the dice given (consumed in order), or
    /// rolled from `seed`; with a seed (or a single candidate) also the action picked.
    fn policy(
        &self,
        dice: Option<&[u32]>,
        seed: Option<u64>,
    ) -> Result<PolicyReport, crate::policy::PolicyError>;
    /// Notes the dice a policy rolled for the last move (for [`Session::last_policy`]).
    fn note_dice(&mut self, dice: Vec<u32>);
    /// For a last move made by a side with a policy: the rule that produced it, with the dice
    /// noted for it (or none, for the rules that read no dice); `None` when no rule of the policy
    /// gives that move with those dice.
    fn last_policy(&self) -> Option<PolicyReport>;
}

/// The state beyond the board, for games that have it (`show --json`): each entry is `None`
/// when the game has no such thing.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TurnReport {
    /// The placement phase under way by name, or `play` (games with phases).
    pub phase: Option<String>,
    /// The actions taken so far in the current turn (games with turns of several actions).
    pub turn_actions: Option<Vec<String>>,
    /// Per side, the pieces in hand, as FEN letters in piece order (games with drops).
    pub reserves: Option<std::collections::BTreeMap<String, String>>,
    /// Per side, its pieces held prisoner, as FEN letters in piece order (games with prisons).
    pub prisoners: Option<std::collections::BTreeMap<String, String>>,
}

/// A policy's decision, by names (`variant policy`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PolicyReport {
    /// The side choosing.
    pub side: String,
    /// The rule that fired.
    pub rule: String,
    /// The dice read, in order.
    pub dice: Vec<u32>,
    /// The actions the rule chooses among, sorted.
    pub candidates: Vec<String>,
    /// The action picked, when seeded or when there is one candidate.
    pub chosen: Option<String>,
}

/// A piece on a square, by names: for reports.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PieceReport {
    /// The square.
    pub square: String,
    /// The owner's name (before the move, for pieces taken).
    pub side: String,
    /// The piece type's name.
    pub piece: String,
}

/// What one move did: the pieces it captured or otherwise removed (by capture effects, the
/// capturer included) and those it converted (took over), as they stood before the move.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MoveReport {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub notation: String,
    /// Pieces removed from the board.
    pub captured: Vec<PieceReport>,
    /// Pieces that changed owner where they stand, as they were before.
    pub converted: Vec<PieceReport>,
}

/// Opens a session on a definition, from its setup or from a FEN. A position the game's setup
/// cannot reach, but the rules can be played from, is accepted (see [`open_position`]).
pub fn open(
    definition: &Definition,
    fen_text: Option<&str>,
) -> Result<Box<dyn Session>, SessionError> {
    open_position(definition, fen_text, Reachability::Warn).map(|opened| opened.session)
}

/// How a position that the game's setup cannot reach is taken, when the rules can be played
/// from it (pieces where their type never stands, more pieces than the setup gives; see
/// [`crate::plausible`]). A position the rules cannot be played from is refused either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reachability {
    /// Accepted; what makes it unreachable is returned as warnings. Hand-made test positions
    /// and other engines' positions are of this kind.
    #[default]
    Warn,
    /// Refused ([`SessionError::Impossible`]), as `--strict` asks.
    Strict,
}

/// A session just opened, with what makes its start unreachable from the game's setup.
pub struct Opened {
    /// The session.
    pub session: Box<dyn Session>,
    /// One sentence per reason the setup cannot reach the start (a piece where its type never
    /// stands, a piece count beyond the setup's); empty for a reachable start.
    pub warnings: Vec<String>,
}

/// Opens a session on a definition, from its setup or from a FEN, taking a position the setup
/// cannot reach as `reachability` says.
pub fn open_position(
    definition: &Definition,
    fen_text: Option<&str>,
    reachability: Reachability,
) -> Result<Opened, SessionError> {
    fn boxed<B: Bitboard>(
        (game, warnings): (Game<B>, Vec<String>),
    ) -> Result<Opened, SessionError> {
        Ok(Opened {
            session: Box::new(game),
            warnings,
        })
    }
    let squares = definition.board.files as usize * definition.board.ranks as usize;
    if squares <= 64 {
        boxed(Game::<u64>::open(definition, fen_text, reachability)?)
    } else if squares <= 128 {
        boxed(Game::<u128>::open(definition, fen_text, reachability)?)
    } else {
        boxed(Game::<Wide256>::open(definition, fen_text, reachability)?)
    }
}

/// A game of one bitboard width: the compiled rules, the positions so far and the moves.
pub struct Game<B: Bitboard> {
    rules: Arc<Rules<B>>,
    /// The sides' policies, compiled with the rules.
    policies: Arc<Policies<B>>,
    positions: Vec<Position<B>>,
    /// The actions played: moves, and policies' actions made of edits.
    moves: Vec<Action>,
    /// Per move, the dice a policy rolled for it, when known.
    dice: Vec<Option<Vec<u32>>>,
}

impl<B: Bitboard> Game<B> {
    /// The action written `text`: a legal move, or an action of the side to move's policy that
    /// some dice give here; else why not.
    fn action_of(&self, text: &str) -> Result<Action, SessionError> {
        if !looks_like_move(text) && !Written::is_written_so(text) {
            return Err(SessionError::MalformedMove(text.to_string()));
        }
        if let Some(result) = self.outcome() {
            return Err(SessionError::GameOver {
                text: text.to_string(),
                result: result.description(),
            });
        }
        let moves = legal_moves(&self.rules, self.position());
        let legal = moves
            .iter()
            .copied()
            .find(|m| m.uci(&self.rules) == text)
            .or_else(|| {
                // Fairy-Stockfish's form of a forced pass, looked for only when nothing else matched.
                let pass = moves.iter().copied().find(|m| m.kind == MoveKind::Pass)?;
                (self.fairy_pass().as_deref() == Some(text)).then_some(pass)
            });
        legal
            .map(Action::Move)
            .or_else(|| self.policy_action(text))
            .ok_or_else(|| SessionError::IllegalMove {
                text: text.to_string(),
                fen: self.fen(),
                reason: self.explain(text).reason(),
            })
    }

    /// The policy's own action (made of edits) written `text` that the side to move's policy
    /// could take here with some dice, if any.
    fn policy_action(&self, text: &str) -> Option<Action> {
        let position = self.position();
        let policy = self.policies.of(position.side_to_move(&self.rules))?;
        crate::policy::possible_actions(&self.rules, position, policy)
            .into_iter()
            .find(|action| action.notation(&self.rules) == text)
    }

    /// A policy's own action (`e7g5&e8d8`, `c8~e4`): what it does, or why the policy cannot
    /// produce it here; `None` for text not written as one.
    fn explain_policy_action(&self, text: &str) -> Option<Explanation> {
        if !Written::is_written_so(text) {
            return None;
        }
        let position = self.position();
        let side = position.side_to_move(&self.rules);
        let name = &self.rules.definition().sides[side.index()].name;
        if self.policies.of(side).is_none() {
            return Some(Explanation {
                legal: false,
                lines: vec![format!(
                    "`{text}` is a policy's action, and {name}, to move, has no policy"
                )],
            });
        }
        let Some(Action::Edited(edited)) = self.policy_action(text) else {
            return Some(Explanation {
                legal: false,
                lines: vec![format!(
                    "`{text}` is no action {name}'s policy can take here, whatever the dice"
                )],
            });
        };
        Some(Explanation {
            legal: true,
            lines: vec![self.describe_edited(edited)],
        })
    }

    /// What a policy's action made of edits does, in words.
    fn describe_edited(&self, edited: Edited) -> String {
        let position = self.position();
        let name = &self.rules.definition().sides[position.side_to_move(&self.rules).index()].name;
        let square = |index: u16| {
            self.rules
                .geometry()
                .square(Sq::new(index.into()))
                .to_string()
        };
        let piece = |index: u16| {
            position
                .at(Sq::new(index.into()))
                .map_or("piece".to_string(), |o| {
                    self.rules.definition().pieces[o.piece.index()].name.clone()
                })
        };
        match edited.written {
            Written::Then {
                from,
                to,
                slide_from,
                slide_to,
            } => format!(
                "{name}'s policy may play it (`then ... slides`): the {} on {} captures on {}, then the {} slides from {} to {}",
                piece(from),
                square(from),
                square(to),
                piece(slide_from),
                square(slide_from),
                square(slide_to)
            ),
            Written::Jump { from, to } => format!(
                "{name}'s policy may play it (`jump`): the {} on {} jumps to {}{}",
                piece(from),
                square(from),
                square(to),
                match (edited.edits.as_slice().first(), position.at(Sq::new(to.into()))) {
                    (Some(crate::edit::Edit::Move { .. }), Some(_)) =>
                        format!(", removing the {} there", piece(to)),
                    (Some(crate::edit::Edit::Move { .. }), None) => String::new(),
                    (Some(_), _) => format!(" and is removed by the {} there", piece(to)),
                    (None, _) => ": nothing happens".to_string(),
                }
            ),
        }
    }

    /// Compiles the definition and sets up the start (or the FEN), accepting a start the setup
    /// cannot reach where the rules can be played from it ([`Reachability::Warn`]).
    pub fn new(definition: &Definition, fen_text: Option<&str>) -> Result<Self, SessionError> {
        Self::open(definition, fen_text, Reachability::Warn).map(|(game, _)| game)
    }

    /// Compiles the definition and sets up the start (or the FEN); returns the game and what
    /// makes its start unreachable from the setup (refused instead with
    /// [`Reachability::Strict`]).
    pub fn open(
        definition: &Definition,
        fen_text: Option<&str>,
        reachability: Reachability,
    ) -> Result<(Self, Vec<String>), SessionError> {
        let rules = Rules::<B>::compile(definition).map_err(SessionError::Compile)?;
        let setup = match fen_text {
            Some(text) => {
                fen::parse_fen(definition, text).map_err(|e| SessionError::Fen(e.to_string()))?
            }
            None => definition.setup.clone(),
        };
        let position =
            Position::from_setup(&rules, &setup).map_err(|e| SessionError::Fen(e.to_string()))?;
        if let Some(why) = crate::plausible::unplayable(&rules, &position) {
            return Err(SessionError::Impossible(why));
        }
        let warnings = crate::plausible::unreachable(&rules, &position);
        if reachability == Reachability::Strict && !warnings.is_empty() {
            return Err(SessionError::Impossible(warnings.join("; ")));
        }
        let game = Game {
            policies: Arc::new(Policies::compile(&rules)),
            rules: Arc::new(rules),
            positions: vec![position],
            moves: Vec::new(),
            dice: Vec::new(),
        };
        Ok((game, warnings))
    }

    /// The compiled rules.
    pub fn rules(&self) -> &Rules<B> {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position<B> {
        self.positions.last().expect("a game has a position")
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position<B>] {
        &self.positions
    }

    /// The actions played so far.
    pub fn moves(&self) -> &[Action] {
        &self.moves
    }

    /// The sides' compiled policies, shared (for players).
    pub fn shared_policies(&self) -> Arc<Policies<B>> {
        Arc::clone(&self.policies)
    }

    /// The compiled rules, shared (for players that think on other threads).
    pub fn shared_rules(&self) -> Arc<Rules<B>> {
        Arc::clone(&self.rules)
    }

    fn history_hashes(&self) -> Vec<u64> {
        self.positions[..self.positions.len() - 1]
            .iter()
            .map(|p| p.hash())
            .collect()
    }
}

impl<B: Bitboard> Session for Game<B> {
    fn definition(&self) -> &Definition {
        self.rules.definition()
    }

    fn fen(&self) -> String {
        fen::write_fen(
            self.rules.definition(),
            &self.position().to_setup(&self.rules),
        )
    }

    fn side_to_move(&self) -> String {
        self.rules.definition().sides[self.position().side_to_move(&self.rules).index()]
            .name
            .clone()
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        legal_moves(&self.rules, self.position())
            .iter()
            .map(|m| m.uci(&self.rules))
            .collect()
    }

    fn policy(
        &self,
        dice: Option<&[u32]>,
        seed: Option<u64>,
    ) -> Result<PolicyReport, crate::policy::PolicyError> {
        use crate::policy::{decide, GivenDice, PolicyError, SeededDice};
        let position = self.position();
        let side = position.side_to_move(&self.rules);
        let name = self.rules.definition().sides[side.index()].name.clone();
        let policy = self
            .policies
            .of(side)
            .ok_or_else(|| PolicyError::NoPolicy { side: name.clone() })?;
        if let Some(result) = self.outcome() {
            return Err(PolicyError::GameOver {
                outcome: result.description(),
            });
        }
        // The dice of a seeded decision: the seed's stream 7, as the players' generators are
        // made (`crate::ai::generator`).
        let mut rng = ChaCha8Rng::seed_from_u64(seed.unwrap_or(0));
        rng.set_stream(7);
        let decision = match dice {
            Some(dice) => decide(&self.rules, position, policy, &mut GivenDice::new(dice)),
            None if seed.is_some() => {
                decide(&self.rules, position, policy, &mut SeededDice(&mut rng))
            }
            None => decide(&self.rules, position, policy, &mut GivenDice::new(&[])),
        }?;
        let candidates: Vec<String> = decision
            .candidates
            .iter()
            .map(|action| action.notation(&self.rules))
            .collect();
        let chosen = if seed.is_some() {
            use rand::RngExt;
            Some(candidates[rng.random_range(0..candidates.len())].clone())
        } else if candidates.len() == 1 {
            Some(candidates[0].clone())
        } else {
            None
        };
        Ok(PolicyReport {
            side: name,
            rule: decision.rule,
            dice: decision.dice,
            candidates,
            chosen,
        })
    }

    fn note_dice(&mut self, dice: Vec<u32>) {
        if self.moves.is_empty() {
            return;
        }
        self.dice.resize(self.moves.len(), None);
        self.dice[self.moves.len() - 1] = Some(dice);
    }

    fn last_policy(&self) -> Option<PolicyReport> {
        use crate::policy::{decide, GivenDice};
        let mv = *self.moves.last()?;
        let before = &self.positions[self.positions.len() - 2];
        let side = before.side_to_move(&self.rules);
        let policy = self.policies.of(side)?;
        let dice = self
            .dice
            .get(self.moves.len() - 1)
            .cloned()
            .flatten()
            .unwrap_or_default();
        let decision = decide(&self.rules, before, policy, &mut GivenDice::new(&dice)).ok()?;
        if !decision.candidates.contains(&mv) {
            return None;
        }
        Some(PolicyReport {
            side: self.rules.definition().sides[side.index()].name.clone(),
            rule: decision.rule,
            dice: decision.dice,
            candidates: decision
                .candidates
                .iter()
                .map(|action| action.notation(&self.rules))
                .collect(),
            chosen: Some(mv.notation(&self.rules)),
        })
    }

    fn play(&mut self, text: &str) -> Result<(), SessionError> {
        let action = self.action_of(text)?;
        let mut next = *self.position();
        match action {
            Action::Move(mv) => next.play_unchecked(&self.rules, mv),
            Action::Edited(edited) => next.play_edits(&self.rules, edited.edits.as_slice()),
        }
        self.positions.push(next);
        self.moves.push(action);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        outcome(&self.rules, self.position(), &self.history_hashes())
    }

    fn in_check(&self) -> bool {
        let position = self.position();
        self.rules.definition().end.check
            && position.in_check(&self.rules, position.side_to_move(&self.rules))
    }

    fn checked_sides(&self) -> Vec<String> {
        let position = self.position();
        (0..self.rules.sides())
            .filter(|&side| position.in_check(&self.rules, SideId::new(side)))
            .map(|side| self.rules.definition().sides[side].name.clone())
            .collect()
    }

    fn explain(&self, text: &str) -> Explanation {
        if let Some(explanation) = self.explain_policy_action(text) {
            return explanation;
        }
        crate::explain::explain(&self.rules, self.position(), &self.history_hashes(), text)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(&self.rules, self.position(), depth, &self.history_hashes())
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(&self.rules, self.position(), depth, &self.history_hashes())
    }

    fn diagram(&self) -> String {
        diagram(&self.rules, self.position())
    }

    fn hash_is_consistent(&self) -> bool {
        self.position().hash() == self.position().fresh_hash(&self.rules)
    }

    fn history(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.notation(&self.rules)).collect()
    }

    fn last_move(&self) -> Option<MoveReport> {
        let mv = *self.moves.last()?;
        let before = &self.positions[self.positions.len() - 2];
        let rules = &self.rules;
        let report = |square: Sq| {
            before.at(square).map(|o| PieceReport {
                square: rules.geometry().square(square).to_string(),
                side: rules.definition().sides[o.side.index()].name.clone(),
                piece: rules.definition().pieces[o.piece.index()].name.clone(),
            })
        };
        // Read from the boards before and after, so that every effect is reported: the piece
        // taken by replacement or en passant and whatever capture effects removed, the capturer
        // included. Castling and drops remove nothing.
        let after = self.position();
        // Taken over on the way (a path's `convert`), or turned around the landing square
        // (`converts around`): the same piece, another owner, off the landing square.
        let taken_over = mv.as_move().and_then(|mv| mv.converts);
        let landing = mv.to();
        let converted: Vec<Sq> = before
            .occupied()
            .squares()
            .filter(|&square| {
                Some(square) == taken_over
                    || (square != landing
                        && matches!((before.at(square), after.at(square)),
                            (Some(was), Some(is)) if was.side != is.side && was.piece == is.piece))
            })
            .collect();
        let removed = |square: Sq| match (before.at(square), after.at(square)) {
            (Some(_), None) => true,
            (Some(was), Some(is)) => was.side != is.side && !converted.contains(&square),
            _ => false,
        };
        // The squares a moving piece left (its own, not a capture).
        let origins: Vec<Sq> = match mv {
            Action::Move(mv) => vec![mv.from],
            Action::Edited(edited) => edited
                .edits
                .as_slice()
                .iter()
                .filter_map(|edit| match *edit {
                    crate::edit::Edit::Move { from, .. } => Some(from),
                    _ => None,
                })
                .collect(),
        };
        let mut captured: Vec<PieceReport> = match mv.as_move().map(|mv| mv.kind) {
            Some(MoveKind::Castle(_) | MoveKind::Drop(_) | MoveKind::Pass) => Vec::new(),
            _ => before
                .occupied()
                .squares()
                .filter(|&square| !origins.contains(&square) && removed(square))
                .filter_map(report)
                .collect(),
        };
        if rules.capture_effects() && mv.as_move().is_some() && after.at(mv.to()).is_none() {
            captured.extend(report(mv.from()));
        }
        Some(MoveReport {
            notation: mv.notation(rules),
            captured,
            converted: converted.into_iter().filter_map(report).collect(),
        })
    }

    fn describe(&self) -> String {
        crate::describe::describe(&self.rules)
    }

    fn scores(&self) -> Option<Vec<(String, i64)>> {
        let scores = crate::score::scores(&self.rules, self.position())?;
        Some(
            self.rules
                .definition()
                .sides
                .iter()
                .map(|s| s.name.clone())
                .zip(scores)
                .collect(),
        )
    }

    fn controlled_squares(&self, side: &str) -> Vec<String> {
        let Some(index) = self
            .rules
            .definition()
            .sides
            .iter()
            .position(|s| s.name == side)
        else {
            return Vec::new();
        };
        crate::control::side_control(&self.rules, self.position(), SideId::new(index))
            .squares()
            .map(|square| self.rules.geometry().square(square).to_string())
            .collect()
    }

    fn control_diagrams(&self) -> Vec<(String, String)> {
        if self.rules.definition().score.is_none() {
            return Vec::new();
        }
        (0..self.rules.sides())
            .map(|side| {
                let control =
                    crate::control::side_control(&self.rules, self.position(), SideId::new(side));
                (
                    self.rules.definition().sides[side].name.clone(),
                    control_diagram(&self.rules, self.position(), control),
                )
            })
            .collect()
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn start_fen(&self) -> String {
        fen::write_fen(
            self.rules.definition(),
            &self.positions[0].to_setup(&self.rules),
        )
    }

    fn undo(&mut self) -> Option<String> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.dice.truncate(self.moves.len());
        Some(mv.notation(&self.rules))
    }

    fn board(&self) -> BoardView {
        // A policy's action made of edits shows its squares as a move's.
        let last = self.moves.last().map(|action| {
            action
                .as_move()
                .unwrap_or_else(|| Move::normal(action.from(), action.to()))
        });
        crate::view::board(&self.rules, self.position(), last)
    }

    fn hands(&self) -> Vec<Hand> {
        crate::view::hands(&self.rules, self.position())
    }

    fn plies(&self) -> Vec<(usize, u32)> {
        self.positions[..self.moves.len()]
            .iter()
            .map(|position| {
                (
                    position.side_to_move(&self.rules).index(),
                    position.fullmove_number(),
                )
            })
            .collect()
    }

    fn turn_report(&self) -> TurnReport {
        let rules = &self.rules;
        let definition = &rules.definition();
        let position = self.position();
        let letters = |side: usize, count: &dyn Fn(usize) -> u8| -> String {
            (0..rules.pieces())
                .flat_map(|piece| {
                    let letter = definition.piece_letter(
                        variant_dsl::SideId(side as u8),
                        variant_dsl::PieceId(piece as u8),
                    );
                    std::iter::repeat_n(letter, count(piece) as usize)
                })
                .collect()
        };
        let per_side = |count: &dyn Fn(usize, usize) -> u8| {
            definition
                .sides
                .iter()
                .enumerate()
                .map(|(side, def)| (def.name.clone(), letters(side, &|piece| count(side, piece))))
                .collect()
        };
        let taken = position.progress().actions as usize;
        TurnReport {
            phase: (!definition.phases.is_empty()).then(|| {
                position.phase().map_or("play".to_string(), |phase| {
                    definition.phases[phase].name.clone()
                })
            }),
            turn_actions: rules.multi_action().then(|| {
                self.moves[self.moves.len() - taken.min(self.moves.len())..]
                    .iter()
                    .map(|mv| mv.notation(rules))
                    .collect()
            }),
            reserves: definition.actions.drops.then(|| {
                per_side(&|side, piece| position.hand(SideId::new(side), PieceId::new(piece)))
            }),
            prisoners: rules
                .stores()
                .iter()
                .any(|store| *store == Some(variant_dsl::Store::Prison))
                .then(|| {
                    per_side(&|side, piece| position.prison(SideId::new(side), PieceId::new(piece)))
                }),
        }
    }

    fn history_san(&self) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(&action, position)| match action {
                Action::Move(mv) => {
                    let legal = legal_moves(&self.rules, position);
                    crate::san::san(&self.rules, position, mv, &legal)
                }
                // A policy's action made of edits has one notation only.
                Action::Edited(_) => action.notation(&self.rules),
            })
            .collect()
    }

    fn san(&self, uci: &str) -> Option<String> {
        if self.outcome().is_some() {
            return None;
        }
        let legal = legal_moves(&self.rules, self.position());
        let mv = legal.iter().find(|m| m.uci(&self.rules) == uci)?;
        Some(crate::san::san(&self.rules, self.position(), *mv, &legal))
    }

    fn resolve_with(&self, text: &str, plus: PlusMark) -> Result<String, InputError> {
        if self.outcome().is_some() {
            return Err(InputError::Illegal {
                text: text.to_string(),
                uci: None,
            });
        }
        if Written::is_written_so(text) {
            // A policy's own action (a capture then a slide, a jump) is written one way only.
            if let Some(action) = self.policy_action(text) {
                return Ok(action.notation(&self.rules));
            }
        }
        crate::san::resolve_with(&self.rules, self.position(), text, plus)
            .map(|mv| mv.uci(&self.rules))
    }

    fn fairy_pass(&self) -> Option<String> {
        let position = self.position();
        let legal = legal_moves(&self.rules, position);
        let pass = legal.iter().find(|m| m.kind == MoveKind::Pass)?;
        if pass.uci(&self.rules) != "pass" {
            return None;
        }
        let side = position.side_to_move(&self.rules);
        let royals = position.royals(&self.rules, side);
        let pieces = if royals.is_empty() {
            position.side_pieces(side)
        } else {
            royals
        };
        if pieces.is_empty() {
            return None;
        }
        let square = self.rules.geometry().square(pieces.lowest()).to_string();
        Some(format!("{square}{square}"))
    }
}

/// The board with a side's controlled squares: `x` on an empty controlled square, `#` on an
/// occupied one, `o` on an uncontrolled piece, `.` elsewhere.
fn control_diagram<B: Bitboard>(rules: &Rules<B>, position: &Position<B>, control: B) -> String {
    draw(rules, 2, |square| {
        match (control.has(square), position.at(square).is_some()) {
            (true, false) => "x",
            (true, true) => "#",
            (false, true) => "o",
            (false, false) => ".",
        }
        .to_string()
    })
}

/// A move in UCI shape: squares (letter + digits) with an optional promotion letter, or a drop;
/// then `^` and a square for each piece taken over; then, where it puts the neutral piece, `,`
/// and two squares.
fn looks_like_move(text: &str) -> bool {
    if text == "pass" {
        return true;
    }
    // A move that ends by putting the neutral piece (`neutral`): `e2e4,e4e5`.
    if let Some((head, placement)) = text.split_once(',') {
        return looks_like_move(head)
            && !placement.contains([',', '@'])
            && looks_like_move(placement);
    }
    let square = |s: &str| variant_dsl::Square::parse(s).is_some();
    let mut parts = text.split('^');
    let text = parts.next().unwrap_or_default();
    if !parts.all(square) {
        return false;
    }
    if let Some((piece, to)) = text.split_once('@') {
        return piece.len() == 1 && piece.chars().all(|c| c.is_ascii_alphabetic()) && square(to);
    }
    let bytes = text.as_bytes();
    // Split into two squares: the second square starts at the second lowercase letter.
    let Some(second) = bytes
        .iter()
        .skip(1)
        .position(|b| b.is_ascii_lowercase())
        .map(|i| i + 1)
    else {
        return false;
    };
    let (first, rest) = text.split_at(second);
    let digits_end = rest[1..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(rest.len(), |i| i + 1);
    let (to, promotion) = rest.split_at(digits_end);
    square(first)
        && square(to)
        && (promotion.is_empty()
            || (promotion.len() == 1
                && promotion
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || c == '+')))
}

/// The board in text: the first side's pieces in upper case, the second's in lower case, `.` for
/// an empty square and a blank for a hole, with file letters and rank numbers. A promoted form
/// is written as in a FEN (`+P`); in a game that has promoted forms every column is one
/// character wider, so that the board keeps its shape as pieces promote.
pub fn diagram<B: Bitboard>(rules: &Rules<B>, position: &Position<B>) -> String {
    let width = if rules.definition().pieces.iter().any(|p| p.promoted_form) {
        3
    } else {
        2
    };
    let mut out = draw(rules, width, |square| match position.at(square) {
        None => ".".to_string(),
        Some(o) => rules.definition().piece_symbol(
            variant_dsl::SideId(o.side.0),
            variant_dsl::PieceId(o.piece.0),
        ),
    });
    out.push_str("   ");
    for file in 0..rules.geometry().files {
        let letter = (b'a' + file as u8) as char;
        out.push_str(&format!("{letter:>width$}"));
    }
    out.push('\n');
    out
}

/// The board's ranks, top first, each cell drawn by `cell` right-aligned in `width` characters
/// (holes are blank), with rank numbers.
fn draw<B: Bitboard>(rules: &Rules<B>, width: usize, cell: impl Fn(Sq) -> String) -> String {
    let geometry = &rules.geometry();
    let mut out = String::new();
    for rank in (0..geometry.ranks).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..geometry.files {
            let square = Sq::new(rank * geometry.files + file);
            let symbol = if geometry.on_board(square) {
                cell(square)
            } else {
                String::new()
            };
            out.push_str(&format!("{symbol:>width$}"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::looks_like_move;

    #[test]
    fn move_shapes() {
        for good in [
            "e2e4", "e7e8q", "a10a11", "N@c3", "p16a1", "c1e3^d2", "b5d7m^c6",
        ] {
            assert!(looks_like_move(good), "{good}");
        }
        for bad in [
            "", "e2", "e2e", "e2e4qq", "x", "e0e4", "@c3", "NN@c3", "e2-e4", "c1e3^", "c1e3^x",
        ] {
            assert!(!looks_like_move(bad), "{bad}");
        }
    }
}
