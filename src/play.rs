//! `variant play`: a game between people and computer players, at the terminal.
//!
//! The loop is generic: sides come from the game file, each played by a person or an
//! [`Agent`]; a person's line is a command or a move (SAN or the game's notation), and nothing
//! typed can end the game by accident: a wrong move gets the reason from `explain` and the
//! prompt again; the end of input stops cleanly and says how to resume. With no person at the
//! board the game is played to its end and its moves and result printed.

use crate::board;
use crate::input::{self, Line};
use crate::record::{self, Ending, Meta, Record};
use crate::{catalog, emit, Failure};
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use variant_dsl::Definition;
use variant_interpreter::{Agent, AgentOptions, InputError, PlayerSpec, PlusMark, Session};

/// A game that goes on this long without its rules ending it is stopped (no person plays).
pub const MAX_PLIES: usize = 20_000;

/// What `variant play` was asked.
pub struct PlayArgs {
    /// The game, or `None` to take it from the loaded record.
    pub game: Option<String>,
    /// `--SIDE PLAYER` flags, by side name.
    pub players: Vec<(String, String)>,
    pub seed: Option<u64>,
    pub load: Option<PathBuf>,
    pub record: Option<PathBuf>,
    pub fen: Option<String>,
    /// `--strict`: refuse a `--fen` position the game's setup cannot reach.
    pub strict: bool,
    pub color: bool,
    pub threads: usize,
    pub hint: String,
    /// Replace an existing file that is not a record of this game (`--record`, `save`).
    pub force: bool,
}

/// A fresh seed from the clock, when none is given.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// A side's own seed: distinct sides, distinct streams of the same game seed.
pub fn side_seed(seed: u64, side: usize) -> u64 {
    seed ^ (side as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The game a record (read from `path`) names in its `GameFile` tag, as the catalog finds it.
/// A path that leads nowhere from here (`games/chess.variant`, recorded in another directory)
/// falls back to the game of that name, if there is one: the definition hash still decides.
pub fn game_of_record(record: &Record, path: &Path) -> Option<String> {
    let game = record::game_of(record, path)?;
    if catalog::resolve(&game).is_ok() {
        return Some(game);
    }
    let stem = Path::new(&game).file_stem()?.to_string_lossy().into_owned();
    Some(if catalog::resolve(&stem).is_ok() {
        stem
    } else {
        game
    })
}

/// Refuses a record made for another game file, or another version of it.
pub fn check_record(
    record: &Record,
    path: &Path,
    definition: &Definition,
    game_file: &str,
) -> Result<(), Failure> {
    let shown = path.display();
    if let Some(file) = record.tag(record::GAME_FILE_TAG) {
        // The same file may be reached by other paths: the names must agree, the hash decides.
        if Path::new(file).file_name() != Path::new(game_file).file_name() {
            return Err(Failure::Message(format!(
                "`{shown}` is a record of `{file}`, not of `{game_file}`"
            )));
        }
    }
    let expected = record::definition_hash(definition);
    // A game by name is dumped by its name; a game from a path, by that path.
    let name = Path::new(game_file)
        .file_name()
        .map_or(game_file.into(), |name| name.to_string_lossy());
    let dump = match name.strip_suffix(".variant") {
        Some(stem) if name == game_file => stem,
        _ => game_file,
    };
    match record.tag(record::HASH_TAG) {
        Some(hash) if hash == expected => Ok(()),
        Some(hash) => Err(Failure::Message(format!(
            "`{shown}` was recorded with a different version of `{name}`: its definition \
             hash is {hash}, the file's is now {expected} (the rules changed since the game was \
             played; `variant dump {dump}` shows the rules as they are now)"
        ))),
        None => Err(Failure::Message(format!(
            "`{shown}` has no {} tag: it was not recorded by `variant play`, so it cannot be \
             checked against `{game_file}`",
            record::HASH_TAG
        ))),
    }
}

/// Opens the session a record describes: its start position, then its moves, each checked.
/// The moves are read with the ranks counted as the whole record counts them
/// ([`record::ranks`]): from 0 when a move names rank 0 (XBoard's PGN of a ten-rank board), or
/// when a ten-rank record can be read to its end only so; from 1 otherwise. A record that
/// cannot be read to its end with `+` as a check mark where a move gives check is read again
/// with every `+` after a move that may promote as its promotion ([`PlusMark::Promotion`]):
/// XBoard's shogi marks promotions so and checks not at all. The first reading's failure is
/// the one reported.
pub fn replay_record(
    record: &Record,
    path: &Path,
    definition: &Definition,
) -> Result<Box<dyn Session>, Failure> {
    let read_with = |moves: &[String], plus: PlusMark| {
        let session = play_moves(record, path, definition, moves, plus)?;
        check_ending(record, path, session.as_ref())?;
        Ok(session)
    };
    let read = |moves: &[String]| {
        read_with(moves, PlusMark::Check).or_else(|failure| {
            if moves.iter().any(|m| PlusMark::ends(m)) {
                read_with(moves, PlusMark::Promotion).map_err(|_| failure)
            } else {
                Err(failure)
            }
        })
    };
    let from_zero = || record::ranks::counted_from_one(&record.moves);
    if record::ranks::names_rank_zero(&record.moves) {
        return read(&from_zero());
    }
    match read(&record.moves) {
        Err(failure) if definition.board.ranks == 10 => read(&from_zero()).map_err(|_| failure),
        read => read,
    }
}

/// Refuses a record that claims a result its moves do not reach (a resignation aside).
fn check_ending(record: &Record, path: &Path, session: &dyn Session) -> Result<(), Failure> {
    let claimed = record.tag("Result").unwrap_or("*");
    let resigned = record
        .tag("Termination")
        .is_some_and(|t| t.contains("resigns"));
    if claimed != "*" && Ending::of(session) == Ending::Unfinished && !resigned {
        return Err(Failure::Message(format!(
            "`{}` says the game ended {claimed}, but its {} moves stop before the end: the \
             record is truncated or altered",
            path.display(),
            record.moves.len()
        )));
    }
    Ok(())
}

/// The session after `moves` (the record's, its ranks as counted), from the record's start.
fn play_moves(
    record: &Record,
    path: &Path,
    definition: &Definition,
    moves: &[String],
    plus: PlusMark,
) -> Result<Box<dyn Session>, Failure> {
    let shown = path.display();
    let mut session = variant_interpreter::open(definition, record.tag("FEN"))
        .map_err(|e| Failure::Message(format!("`{shown}`: its start position: {e}")))?;
    for (index, (text, written)) in moves.iter().zip(&record.moves).enumerate() {
        let refused = |why: String| {
            Failure::Message(format!(
                "`{shown}`: move {} (`{written}`) cannot be played: {why}",
                index + 1
            ))
        };
        let uci = session
            .resolve_with(text, plus)
            .map_err(|e| refused(input_reason(session.as_ref(), text, &e)))?;
        session.play(&uci).map_err(|e| refused(e.to_string()))?;
    }
    Ok(session)
}

/// What a move typed as at the prompt (SAN or the game's notation) does, or why it is not
/// legal: the explanation of the move it names, so that an illegal SAN move gets the same
/// reason as its UCI form. Lines, the verdict first.
pub fn explain_typed(session: &dyn Session, text: &str) -> Vec<String> {
    match session.resolve(text) {
        Ok(uci) | Err(InputError::Illegal { uci: Some(uci), .. }) => session.explain(&uci).lines,
        Err(error) => input_explanation(session, text, &error),
    }
}

/// Why typed text is not a legal move, in the game's words, one sentence.
pub fn input_reason(session: &dyn Session, text: &str, error: &InputError) -> String {
    input_explanation(session, text, error).join("; ")
}

/// Why typed text is not a legal move, in the game's words: the verdict, then the details.
pub fn input_explanation(session: &dyn Session, text: &str, error: &InputError) -> Vec<String> {
    match error {
        InputError::Illegal { uci: Some(uci), .. } => session.explain(uci).lines,
        _ => {
            // The game's own explanation (`b7b8`: the Pawn must promote), unless it only says the
            // text is not in its notation (it may still be algebraic that fits no legal move, or
            // several).
            let explanation = session.explain(text);
            let unreadable = explanation
                .lines
                .first()
                .is_some_and(|l| l.starts_with(&format!("`{text}` is not a move")));
            if unreadable {
                vec![other_reason(text, error)]
            } else {
                explanation.lines
            }
        }
    }
}

fn other_reason(text: &str, error: &InputError) -> String {
    match error {
        InputError::Illegal { uci: None, .. } => format!(
            "no legal move fits `{text}` (`moves` lists them, `explain MOVE` says why one is illegal)"
        ),
        other => other.to_string(),
    }
}

/// Who plays each side: the flag, else the loaded record's tag (when it names a player), else a
/// person for the first side and `mcts:1s` for the others.
fn players(
    definition: &Definition,
    flags: &[(String, String)],
    record: Option<&Record>,
) -> Result<Vec<PlayerSpec>, Failure> {
    // A side with a policy in the file plays it; the first other side is a person.
    let has_policy = |index: usize| {
        definition
            .policies
            .iter()
            .any(|policy| policy.side.0 as usize == index)
    };
    let first_free = (0..definition.sides.len()).find(|&index| !has_policy(index));
    let default = |index: usize| {
        if has_policy(index) {
            PlayerSpec::Policy
        } else if Some(index) == first_free {
            PlayerSpec::Human
        } else {
            PlayerSpec::Mcts(variant_interpreter::Budget::Time(
                std::time::Duration::from_secs(1),
            ))
        }
    };
    definition
        .sides
        .iter()
        .enumerate()
        .map(
            |(index, side)| match flags.iter().find(|(name, _)| *name == side.name) {
                Some((_, text)) => {
                    let spec = text
                        .parse::<PlayerSpec>()
                        .map_err(|e| Failure::Message(format!("--{}: {e}", side.name)))?;
                    if spec == PlayerSpec::Policy && !has_policy(index) {
                        return Err(Failure::Message(format!(
                            "--{}: this game file gives {} no policy; choose human, random, mcts or search",
                            side.name, side.name
                        )));
                    }
                    Ok(spec)
                }
                None => Ok(record
                    .and_then(|r| r.tag(&record::side_tag(&side.name)))
                    .and_then(|text| text.parse().ok())
                    .filter(|spec| *spec != PlayerSpec::Policy || has_policy(index))
                    .unwrap_or_else(|| default(index))),
            },
        )
        .collect()
}

/// The running game: the session, its players and where it is recorded.
struct Table {
    session: Box<dyn Session>,
    specs: Vec<PlayerSpec>,
    agents: Vec<Option<Box<dyn Agent>>>,
    hint: Box<dyn Agent>,
    hint_spec: PlayerSpec,
    game_file: String,
    game_name: String,
    seed: u64,
    record: Option<PathBuf>,
    /// The last file saved to, and the number of moves it holds.
    saved: Option<(PathBuf, usize)>,
    /// When the `--record` file was last written (a game between computers writes it at most
    /// once a second, and at the end).
    written: Option<std::time::Instant>,
    /// The moves played, in SAN.
    sans: Vec<String>,
    /// Why the `--record` file could not be written the last time, if it could not.
    record_failure: Option<String>,
    color: bool,
    /// The side that resigned, once one has.
    resigned: Option<String>,
    /// The game files played, the top one first (a record never replaces them), and whether
    /// `--force` was given.
    game_paths: Vec<PathBuf>,
    force: bool,
}

/// What a person's turn came to.
enum Turn {
    Played,
    Undo,
    Resign,
    Quit,
    EndOfInput,
}

/// The game a `play` command is about: its definition, file name, name, and the session set up
/// (from the setup, a FEN, or a record's moves).
struct Opened {
    definition: Definition,
    /// Every file the game was loaded from, the game file first.
    game_paths: Vec<PathBuf>,
    game_file: String,
    game: String,
    session: Box<dyn Session>,
}

fn open_game(args: &PlayArgs, loaded_record: Option<&Record>) -> Result<Opened, Failure> {
    if args.load.is_some() && args.fen.is_some() {
        return Err(Failure::Message(
            "--fen and --load both give the start: use one".into(),
        ));
    }
    let game = args
        .game
        .clone()
        .or_else(|| {
            let record = loaded_record?;
            game_of_record(record, args.load.as_deref()?)
        })
        .ok_or_else(|| {
            Failure::Message("give a GAME (or --load a record that names its game file)".into())
        })?;
    let path = catalog::resolve(&game)?;
    let loaded = catalog::load(&game)?;
    let game_paths = loaded
        .sources
        .files()
        .map(|(_, file)| PathBuf::from(&file.name))
        .collect();
    let definition = loaded.definition;
    let game_file = record::game_file_tag(&game, &path);
    let session = match (loaded_record, &args.load) {
        (Some(record), Some(file)) => {
            check_record(record, file, &definition, &game_file)?;
            replay_record(record, file, &definition)?
        }
        _ => crate::open_start(&definition, args.fen.as_deref(), args.strict)?,
    };
    for (side, _) in &args.players {
        if !definition.sides.iter().any(|s| s.name == *side) {
            return Err(Failure::Message(format!("this game has no side `{side}`")));
        }
    }
    Ok(Opened {
        definition,
        game_paths,
        game_file,
        game,
        session,
    })
}

/// A computer player for every side that is not played by a person, each with its own seed.
fn agents(
    opened: &Opened,
    specs: &[PlayerSpec],
    seed: u64,
    threads: usize,
) -> Result<Vec<Option<Box<dyn Agent>>>, Failure> {
    specs
        .iter()
        .enumerate()
        .map(|(index, spec)| {
            if spec.is_human() {
                return Ok(None);
            }
            let options = AgentOptions {
                seed: side_seed(seed, index),
                threads,
            };
            opened.session.agent(*spec, options).map(Some).map_err(|e| {
                Failure::Message(format!("--{}: {e}", opened.definition.sides[index].name))
            })
        })
        .collect()
}

/// The player that answers `hint`, built before the game starts so that a player that cannot
/// give hints here (`human`; `policy` where no side a person plays has one) is refused at once,
/// not when `hint` is typed.
fn hint_agent(
    opened: &Opened,
    specs: &[PlayerSpec],
    spec: PlayerSpec,
    seed: u64,
    threads: usize,
) -> Result<Box<dyn Agent>, Failure> {
    let definition = &opened.definition;
    if spec == PlayerSpec::Policy {
        let person_with_policy = specs.iter().enumerate().any(|(index, player)| {
            player.is_human()
                && definition
                    .policies
                    .iter()
                    .any(|policy| policy.side.0 as usize == index)
        });
        if !person_with_policy {
            return Err(Failure::Message(
                "--hint policy: no side played by a person has a policy in this game file; \
                 choose random, mcts or search"
                    .into(),
            ));
        }
    }
    let options = AgentOptions {
        seed: side_seed(seed, usize::MAX / 2),
        threads,
    };
    opened
        .session
        .agent(spec, options)
        .map_err(|e| Failure::Message(format!("--hint: {e}")))
}

pub fn play(args: PlayArgs) -> Result<ExitCode, Failure> {
    let loaded_record = match &args.load {
        Some(path) => Some(record::read(path).map_err(Failure::Message)?),
        None => None,
    };
    let opened = open_game(&args, loaded_record.as_ref())?;
    if let Some(target) = &args.record {
        record::may_write(target, &opened.game_paths, &opened.definition, args.force)
            .map_err(|why| Failure::Message(format!("--record: {why}")))?;
    }
    let specs = players(&opened.definition, &args.players, loaded_record.as_ref())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let hint_spec: PlayerSpec = args
        .hint
        .parse()
        .map_err(|e| Failure::Message(format!("--hint: {e}")))?;
    let agents = agents(&opened, &specs, seed, args.threads)?;
    let hint = hint_agent(&opened, &specs, hint_spec, seed, args.threads)?;
    let sans = opened.session.history_san();
    let mut table = Table {
        session: opened.session,
        specs,
        agents,
        hint,
        hint_spec,
        game_file: opened.game_file,
        game_name: opened.game,
        seed,
        record: args.record.clone(),
        saved: args.load.clone().map(|p| (p, usize::MAX)),
        written: None,
        sans,
        record_failure: None,
        color: args.color,
        resigned: None,
        game_paths: opened.game_paths,
        force: args.force,
    };
    // Written at once: a game interrupted during the first move still leaves its record.
    table.persist(&Ending::of(table.session.as_ref()))?;
    if table.specs.iter().any(PlayerSpec::is_human) {
        table.interactive()
    } else {
        table.automatic()
    }
}

impl Table {
    fn side_index(&self) -> usize {
        let to_move = self.session.side_to_move();
        self.session
            .definition()
            .sides
            .iter()
            .position(|s| s.name == to_move)
            .unwrap_or(0)
    }

    fn players_text(&self) -> Vec<String> {
        self.specs.iter().map(ToString::to_string).collect()
    }

    fn record_text(&self, ending: &Ending) -> String {
        record::write(
            self.session.as_ref(),
            &Meta {
                game_file: &self.game_file,
                players: &self.players_text(),
                seed: self.seed,
                ending,
                sans: &self.sans,
            },
        )
    }

    /// Writes the `--record` file, if any. A failure does not stop the game: it is said once
    /// on standard error (the game goes on, and `save FILE` can put it elsewhere), and makes a
    /// game between computers end with exit code 1.
    fn persist(&mut self, ending: &Ending) -> Result<(), Failure> {
        let Some(path) = self.record.clone() else {
            return Ok(());
        };
        match record::save(&path, &self.record_text(ending)) {
            Ok(()) => {
                self.saved = Some((path, self.session.history().len()));
                self.record_failure = None;
            }
            Err(message) => {
                if self.record_failure.is_none() {
                    eprintln!("warning: {message}; the game goes on unrecorded (`save FILE` saves it elsewhere)");
                }
                self.record_failure = Some(message);
            }
        }
        self.written = Some(std::time::Instant::now());
        Ok(())
    }

    /// Writes the `--record` file if a second has passed since it was last written.
    fn persist_now_and_then(&mut self) -> Result<(), Failure> {
        let due = self
            .written
            .is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(1));
        if due {
            self.persist(&Ending::of(self.session.as_ref()))?;
        }
        Ok(())
    }

    /// Plays a legal move given in UCI, keeping its SAN.
    fn play_move(&mut self, uci: &str) -> Result<String, Failure> {
        let san = self.session.san(uci).unwrap_or_else(|| uci.to_string());
        self.session.play(uci)?;
        self.sans.push(san.clone());
        Ok(san)
    }

    /// The computer's move for the side to move, played; its SAN and the agent's account.
    fn computer_move(&mut self) -> Result<(String, String), Failure> {
        let side = self.side_index();
        let spec = self.specs[side];
        let agent = self.agents[side]
            .as_mut()
            .ok_or_else(|| Failure::Message("no computer player for this side".into()))?;
        let choice = agent
            .choose(self.session.as_ref())
            .ok_or_else(|| Failure::Message(format!("the {spec} player found no move")))?;
        let san = self.play_move(&choice.mv)?;
        if let Some(dice) = choice.dice {
            self.session.note_dice(dice);
        }
        Ok((san, format!("{spec}: {}", choice.summary)))
    }

    /// No person plays: the game to its end, one line per move, then the result.
    fn automatic(&mut self) -> Result<ExitCode, Failure> {
        emit(&format!(
            "{}: {} (seed {})\n",
            self.session.definition().name,
            self.players_line(),
            self.seed
        ))?;
        while self.session.outcome().is_none() && self.session.history().len() < MAX_PLIES {
            let side = self.session.side_to_move();
            let ply = self.session.history().len() + 1;
            let (san, _) = self.computer_move()?;
            emit(&format!("{ply}. {side} {san}\n"))?;
            self.persist_now_and_then()?;
        }
        let ending = Ending::of(self.session.as_ref());
        emit(&format!(
            "\n{}",
            board::picture(self.session.as_ref(), self.color)
        ))?;
        emit(&format!("FEN: {}\n", self.session.fen()))?;
        emit(&format!(
            "Moves:\n{}",
            self.record_text(&ending)
                .split_once("\n\n")
                .map_or("", |(_, moves)| moves)
        ))?;
        match self.session.outcome() {
            Some(outcome) => emit(&format!("Result: {}\n", outcome.description()))?,
            None => emit(&format!(
                "Result: none: stopped after {MAX_PLIES} plies without an end\n"
            ))?,
        }
        self.persist(&ending)?;
        match &self.record_failure {
            Some(message) => Err(Failure::Message(message.clone())),
            None => Ok(ExitCode::SUCCESS),
        }
    }

    fn players_line(&self) -> String {
        self.session
            .definition()
            .sides
            .iter()
            .zip(&self.specs)
            .map(|(side, spec)| format!("{} {spec}", side.name))
            .collect::<Vec<_>>()
            .join(" against ")
    }

    /// At least one person plays: the prompt loop. When the game ends (by its rules or a
    /// resignation) the board, moves, FEN and result are shown and the prompt stays, for `save`,
    /// `undo`, `moves`, `board`, `rules` and `quit`.
    fn interactive(&mut self) -> Result<ExitCode, Failure> {
        emit(&format!(
            "{}{}: {} (seed {}). Type `help` for commands.\n",
            board::rules_text(self.session.definition()),
            self.session.definition().name,
            self.players_line(),
            self.seed,
        ))?;
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        loop {
            if self.ending() != Ending::Unfinished {
                emit(&self.final_text())?;
                self.persist(&self.ending())?;
                match self.finished_turn(&mut input)? {
                    Turn::Undo => {
                        if self.resigned.take().is_some() {
                            emit("The resignation is withdrawn.\n")?;
                        } else {
                            self.undo()?;
                        }
                    }
                    Turn::EndOfInput => {
                        emit("\n")?;
                        return Ok(ExitCode::SUCCESS);
                    }
                    _ => return Ok(ExitCode::SUCCESS),
                }
            } else if self.specs[self.side_index()].is_human() {
                match self.human_turn(&mut input)? {
                    Turn::Played => {}
                    Turn::Undo => self.undo()?,
                    Turn::Resign => {
                        self.resigned = Some(self.session.side_to_move());
                        continue;
                    }
                    Turn::Quit => return self.leave("you quit"),
                    Turn::EndOfInput => return self.leave("end of input"),
                }
            } else {
                let mover = self.session.side_to_move();
                let (san, summary) = self.computer_move()?;
                emit(&format!("{mover} plays {san}   [{summary}]\n"))?;
            }
            self.persist(&self.ending())?;
        }
    }

    /// How the game stands: a resignation, else what the rules say.
    fn ending(&self) -> Ending {
        match &self.resigned {
            Some(side) => Ending::Resigned { side: side.clone() },
            None => Ending::of(self.session.as_ref()),
        }
    }

    /// The moves played, numbered, in SAN (the record's movetext).
    fn moves_played(&self) -> String {
        self.record_text(&self.ending())
            .split_once("\n\n")
            .map_or(String::new(), |(_, moves)| moves.to_string())
    }

    /// The end of a game: the board, the moves, the FEN and the result.
    fn final_text(&self) -> String {
        format!(
            "\n{}Moves:\n{}FEN: {}\nResult: {}\n",
            board::picture(self.session.as_ref(), self.color),
            self.moves_played(),
            self.session.fen(),
            self.ending().description(self.session.definition())
        )
    }

    /// The prompt after the end: the game can be saved, looked at, or taken back.
    fn finished_turn(&mut self, input: &mut impl BufRead) -> Result<Turn, Failure> {
        emit("The game is over: `save FILE` saves it, `undo` takes the last move back, `quit` leaves.\n")?;
        loop {
            let Some(line) = read_line(input, "game over> ")? else {
                return Ok(Turn::EndOfInput);
            };
            let (command, rest) = split_command(&line);
            match command {
                "" => {}
                "help" | "?" => emit(HELP_AFTER_END)?,
                "moves" => emit(&format!(
                    "no legal moves: the game is over ({}). The moves played:\n{}",
                    self.ending().description(self.session.definition()),
                    self.moves_played()
                ))?,
                "board" => emit(&board::picture(self.session.as_ref(), self.color))?,
                "rules" => emit(&board::rules_text(self.session.definition()))?,
                "save" if rest.is_empty() => emit("save where? e.g. `save game.pgn`\n")?,
                "save" => emit(&self.save(rest))?,
                "undo" => return Ok(Turn::Undo),
                "quit" | "exit" => return Ok(Turn::Quit),
                _ => emit(&format!(
                    "the game is over ({}): type `save FILE`, `undo`, `moves`, `board`, `rules` or `quit`\n",
                    self.ending().description(self.session.definition())
                ))?,
            }
        }
    }

    /// Stops an unfinished game, saying how to take it up again.
    fn leave(&mut self, why: &str) -> Result<ExitCode, Failure> {
        let moves = self.session.history().len();
        let mut text = format!(
            "\n{why}: the game stops here, unfinished, after {}.\nFEN: {}\n",
            count_of(moves, "move"),
            self.session.fen()
        );
        match &self.saved {
            Some((path, saved)) if *saved == moves || self.record.is_some() => {
                text.push_str(&format!(
                    "Resume it with: variant play {} --load {}\n",
                    self.game_name,
                    path.display()
                ));
            }
            Some((path, _)) => text.push_str(&format!(
                "`{}` holds the game as it was when saved, not its last moves; nothing else was saved.\n",
                path.display()
            )),
            None => text.push_str(
                "It was not saved (type `save FILE` before `quit`, or play with --record FILE).\n",
            ),
        }
        emit(&text)?;
        Ok(ExitCode::SUCCESS)
    }

    /// Takes back the last move, and the computer's moves before it, back to a person's turn.
    fn undo(&mut self) -> Result<(), Failure> {
        let mut taken = Vec::new();
        while let Some(mv) = self.session.undo() {
            taken.push(mv);
            self.sans.pop();
            if self.specs[self.side_index()].is_human() {
                break;
            }
        }
        if taken.is_empty() {
            emit("Nothing to undo: no move has been played.\n")?;
        } else {
            taken.reverse();
            emit(&format!("Taken back: {}\n", taken.join(" ")))?;
        }
        Ok(())
    }

    fn human_turn(&mut self, input: &mut impl BufRead) -> Result<Turn, Failure> {
        let side = self.session.side_to_move();
        emit(&format!(
            "\n{}",
            board::picture(self.session.as_ref(), self.color)
        ))?;
        let check = if self.session.in_check() {
            " Check!"
        } else {
            ""
        };
        emit(&format!(
            "{side} to move: {}.{check}\n",
            board::turn_kind(self.session.as_ref())
        ))?;
        loop {
            let Some(line) = read_line(input, &format!("{side}> "))? else {
                return Ok(Turn::EndOfInput);
            };
            if line.is_empty() {
                continue;
            }
            let (command, rest) = split_command(&line);
            match command {
                "help" | "?" => emit(HELP)?,
                "moves" => emit(&self.moves_text())?,
                "board" => emit(&board::picture(self.session.as_ref(), self.color))?,
                "control" => emit(&control_text(self.session.as_ref()))?,
                "rules" => emit(&board::rules_text(self.session.definition()))?,
                "undo" => return Ok(Turn::Undo),
                "hint" => emit(&self.hint())?,
                "explain" if rest.is_empty() => emit("explain what? e.g. `explain Nf3`\n")?,
                "explain" => emit(&self.explain(rest))?,
                "save" if rest.is_empty() => emit("save where? e.g. `save game.pgn`\n")?,
                "save" => emit(&self.save(rest))?,
                "resign" => return Ok(Turn::Resign),
                "quit" | "exit" => return Ok(Turn::Quit),
                _ => match self.session.resolve(&line) {
                    Ok(uci) => {
                        self.play_move(&uci)?;
                        return Ok(Turn::Played);
                    }
                    Err(error) => {
                        let why = input_explanation(self.session.as_ref(), &line, &error);
                        emit(&format!("{}: {}\n", refusal(&line, &error), why.join("\n")))?;
                    }
                },
            }
        }
    }

    fn moves_text(&self) -> String {
        let listed: Vec<String> = self
            .session
            .legal_moves()
            .iter()
            .map(|uci| match self.session.san(uci) {
                Some(san) if san != *uci => format!("{san} ({uci})"),
                _ => uci.clone(),
            })
            .collect();
        let mut out = format!("{} legal moves:\n", listed.len());
        let mut line = String::new();
        for item in listed {
            if line.len() + item.len() + 2 > 78 {
                out.push_str(&format!(" {line}\n"));
                line.clear();
            }
            line.push(' ');
            line.push_str(&item);
        }
        if !line.is_empty() {
            out.push_str(&format!(" {line}\n"));
        }
        out
    }

    fn hint(&mut self) -> String {
        match self.hint.choose(self.session.as_ref()) {
            Some(choice) => {
                let san = self
                    .session
                    .san(&choice.mv)
                    .unwrap_or_else(|| choice.mv.clone());
                let uci = if san == choice.mv {
                    String::new()
                } else {
                    format!("{}; ", choice.mv)
                };
                format!(
                    "hint: {san} ({uci}{}: {})\n",
                    self.hint_spec, choice.summary
                )
            }
            None => format!(
                "no hint: the {} player has no move to suggest here\n",
                self.hint_spec
            ),
        }
    }

    fn explain(&self, text: &str) -> String {
        format!(
            "{}\n",
            explain_typed(self.session.as_ref(), text).join("\n")
        )
    }

    fn save(&mut self, file: &str) -> String {
        let (force, file) = match file.strip_prefix("--force") {
            Some(rest) if rest.starts_with(char::is_whitespace) => (true, rest.trim()),
            _ => (self.force, file),
        };
        let path = PathBuf::from(file);
        let definition = self.session.definition();
        if let Err(why) = record::may_write(&path, &self.game_paths, definition, force) {
            return format!("not saved: {why}\n");
        }
        let text = self.record_text(&self.ending());
        match record::save(&path, &text) {
            Ok(()) => {
                let moves = self.session.history().len();
                self.saved = Some((path.clone(), moves));
                format!(
                    "saved {} to {} (resume with: variant play {} --load {})\n",
                    count_of(moves, "move"),
                    path.display(),
                    self.game_name,
                    path.display()
                )
            }
            Err(message) => format!("{message}\n"),
        }
    }
}

/// Shows the prompt and reads one line, trimmed (echoed when the input is not a terminal, so
/// that a transcript reads like a session); `None` at the end of the input.
fn read_line(input: &mut impl BufRead, prompt: &str) -> Result<Option<String>, Failure> {
    let line = loop {
        emit(prompt)?;
        match input::read_line(input) {
            Ok(Line::Text(line)) => break line,
            Ok(Line::TooLong) => emit(&input::too_long_message())?,
            Ok(Line::End) => return Ok(None),
            Err(error) => {
                emit(&format!("\ncannot read the input ({error})\n"))?;
                return Ok(None);
            }
        }
    };
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        emit(&format!("{line}\n"))?;
    }
    Ok(Some(line))
}

/// `save game.pgn` as (`save`, `game.pgn`).
fn split_command(line: &str) -> (&str, &str) {
    match line.split_once(char::is_whitespace) {
        Some((command, rest)) => (command, rest.trim()),
        None => (line, ""),
    }
}

/// Each side's controlled squares drawn, for games that keep a score.
fn control_text(session: &dyn Session) -> String {
    let diagrams = session.control_diagrams();
    if diagrams.is_empty() {
        return "this game keeps no score: there is no control to show\n".into();
    }
    diagrams
        .into_iter()
        .map(|(side, diagram)| {
            format!("Controlled by {side} (x: empty square, #: occupied square, o: uncontrolled piece):\n{diagram}")
        })
        .collect()
}

/// The first words of a refusal.
fn refusal(text: &str, error: &InputError) -> String {
    match error {
        InputError::Ambiguous { .. } | InputError::NotAMove(_) => "not played".to_string(),
        InputError::Illegal { .. } => format!("`{text}` is not legal"),
    }
}

const HELP: &str = "\
Type a move in short algebraic notation (Nf3, exd5, O-O, e8=Q, N@c3) or in the game's
notation (g1f3, e7e8q, N@c3), or a command:
  moves          the legal moves
  explain MOVE   why a move is illegal here, or what it does
  hint           the computer's suggestion (the player given by --hint)
  undo           take back your last move (and the computer's reply)
  board          draw the board again
  control        each side's controlled squares (games that keep a score)
  rules          the game's description and each side's piece letters
  save FILE      save the game as a record (resume with: variant play --load FILE)
  resign         give up the game
  quit           stop here (the game stays unfinished)
";

const HELP_AFTER_END: &str = "\
The game is over. Commands:
  moves          the moves played
  board          draw the final board again
  rules          the game's description and each side's piece letters
  save FILE      save the game as a record
  undo           take back the last move (and the computer's before it), and play on
  quit           leave (so does the end of the input)
";

/// `1 move`, `2 moves`.
fn count_of(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
