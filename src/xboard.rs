//! `variant xboard`: the Chess Engine Communication Protocol (CECP, version 2) that XBoard,
//! WinBoard and python-chess's `chess.engine` speak, for every two-sided game of the library.
//!
//! Like `variant uci`, the reader owns the game and a search runs on its own thread
//! ([`Thinking`]), so that `?` (move now), `force`, `exit` and `ping` are read while the engine
//! thinks. The engine's move is printed by the search thread (`move e2e4`) and played on the
//! reader's game when the reader next looks (at its next command), before that command. A search
//! that the client cancels (`force`, `new`, `setboard`, `exit`, `undo`) prints nothing.
//!
//! For a game XBoard does not know by name, the answer to `variant` tells it the game: a
//! `setup` line (piece-to-char table, board size with holdings, parent `fairy` or
//! `crazyhouse`, the start FEN with holes as `*`) and a `piece` line in XBetza for each piece
//! that has an exact equivalent ([`xbetza`]); a piece without one gets a `#` comment saying
//! why, and XBoard keeps its slot's own moves for it, so such a game is played in XBoard with
//! its legality testing off.
//!
//! Moves cross the protocol as XBoard writes them ([`Ranks`]): the ranks of a ten-rank board
//! counted from 0, a pass as the null move `@@@@`.
//!
//! XBoard 4.9 cannot show a takeover (a move that converts a piece it passes over: its board
//! creates a piece of the mover's only on a move's from- or to-square), so it plays Takeover
//! Chess on a board that parts from the engines' at the first takeover; the engines stay in
//! step ([`meant`], [`conveyed`]).
//!
//! Not done yet (issue 29): node limits (`nps`) are declined.

mod xbetza;

use crate::input::{Line, MAX_LINE_BYTES};
use crate::thinking::{Deadlines, Thinking};
use crate::variants::Library;
use crate::Failure;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use variant_dsl::{Definition, PieceId, SideId};
use variant_interpreter::ai::analysis::Root;
use variant_interpreter::ai::search::{
    Limits, Report, Score, TranspositionTable, MAX_DEPTH, MAX_THREADS,
};
use variant_interpreter::Session;

/// XBoard's name for chess.
const NORMAL: &str = "normal";
/// The library's name for it.
const CHESS: &str = "chess";
/// The time per move when the client gave no time control and no depth.
const DEFAULT_MOVE_TIME: Deadlines = (
    Some(Duration::from_millis(500)),
    Some(Duration::from_secs(1)),
);
/// XBoard's piece types in the order of its piece-to-char table (22 a side, the king last).
const SLOTS: &[u8; 22] = b"PNBRQFEACWMOHIJGDVLSUK";
/// The slots whose pieces XBoard 4.9 judges by shogi's own rules under the parent `shogi`,
/// whatever their `piece` lines say: the Knight's (shogi's knight: no drop on the last two
/// ranks, promotion there forced) and the Queen's (shogi's lance: the same on the last rank)
/// (XBoard's moves.c, `LegalDrop` and the shogi promotion zone). A Silver in the Knight's slot
/// had XBoard forfeit Fairy-Stockfish's legal drop `S@c2` in minishogi.
const SHOGI_RULED_SLOTS: [usize; 2] = [1, 4];
/// Under the parent `shogi`, XBoard promotes only the pieces in the slots before its Wazir's.
const SHOGI_PROMOTABLE: usize = 9;
/// The variants XBoard knows by name and plays by the same rules: it gets no `setup` for them,
/// as from Fairy-Stockfish. Not in the list though XBoard knows the name: `berolina` (XBoard
/// 4.9's own rules for it forfeit the pawns' diagonal steps, "might work if TestLegality is off"
/// in its source): it gets a `setup` and `piece` lines, so that XBoard plays it by ours.
/// `courier` is in the list although XBoard starts it from another position (see
/// [`XBOARD_STARTS`]).
const KNOWN_TO_XBOARD: &[&str] = &[
    "courier",
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "xiangqi",
    "shogi",
    "capablanca",
    "gothic",
    "janus",
    "caparandom",
    "knightmate",
    "cylinder",
    "falcon",
    "superchess",
    "great",
    "makruk",
    "spartan",
    "seirawan",
    "asean",
    "lion",
    "chu",
    "fairy",
    "grand",
];
/// Games XBoard knows by name but starts from a position of its own, with the library's
/// rules: the engine starts there too, until a `setboard` says otherwise. XBoard 4.9 ignores an
/// engine's `setup` for a variant it knows on its usual board while it tests legality
/// (backend.c), so it cannot be told the library's start; with legality testing off it would
/// take it, and the two would then disagree again: a game XBoard knows is always played from
/// XBoard's start. Courier: XBoard's has no move played (backend.c `CourierArray`, "initial
/// forced moves not implemented"); Fairy-Stockfish's and the library's have the a-, g- and
/// l-pawns and the ferz advanced. To play from the library's start, load its FEN in XBoard.
const XBOARD_STARTS: &[(&str, &str)] = &[(
    "courier",
    "rnebmkfwbenr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNEBMKFWBENR w - - 0 1",
)];
/// The longest clock `time` sets, in centiseconds: a year.
const MAX_CLOCK_CS: i64 = 365 * 24 * 3600 * 100;
/// The transposition table's size, in megabytes (until `memory` says otherwise).
const DEFAULT_HASH_MB: usize = 16;

fn say(line: &str) {
    crate::uci::say(line);
}

/// The time control: `level`, `st`, `sd` and the clocks from `time`/`otim`.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// Moves per session (0: the whole game).
    moves_per_session: u32,
    increment: Duration,
    /// `st`: exactly this long per move.
    per_move: Option<Duration>,
    /// `sd`: at most this depth.
    depth: Option<u32>,
    /// `time`: the engine's clock.
    own: Option<Duration>,
}

impl Clock {
    /// The deadlines of the engine's next move, `moves_played` full moves into the game.
    fn deadlines(&self, moves_played: u32) -> Deadlines {
        if let Some(time) = self.per_move {
            return (Some(time), Some(time));
        }
        let Some(left) = self.own else {
            return (None, None);
        };
        let to_go = if self.moves_per_session > 0 {
            self.moves_per_session - moves_played % self.moves_per_session
        } else {
            30
        }
        .clamp(1, 50);
        let share = left / to_go + self.increment * 3 / 4;
        let cap = if to_go == 1 { left * 4 / 5 } else { left / 2 };
        let hard = (share * 2).min(cap).max(Duration::from_millis(1));
        (Some((share / 2).min(hard)), Some(hard))
    }
}

/// What the engine is doing with its search thread.
struct Search {
    thinking: Thinking,
    /// Set to keep a cancelled search from printing its move.
    cancelled: Arc<AtomicBool>,
    /// Whether it searches for a move to play (else it analyses).
    plays: bool,
}

struct Engine {
    library: Library,
    definition: Definition,
    session: Box<dyn Session>,
    /// The side the engine plays (by index); `None` in force mode.
    engine_side: Option<usize>,
    post: bool,
    analysing: bool,
    clock: Clock,
    hash_mb: usize,
    /// Threads a search uses (`cores`).
    threads: usize,
    table: Option<TranspositionTable>,
    search: Option<Search>,
}

/// Runs the protocol on standard input and output until `quit` or the end of the input.
pub fn run(variant_paths: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut library = Library::from_games_folders();
    for path in variant_paths {
        library.add_path(path).map_err(Failure::Message)?;
    }
    let definition = library
        .select(CHESS)
        .map(|(_, definition)| definition.clone())
        .map_err(Failure::Message)?;
    let session = variant_interpreter::open(&definition, None)?;
    let mut engine = Engine {
        library,
        definition,
        session,
        engine_side: Some(1),
        post: false,
        analysing: false,
        clock: Clock::default(),
        hash_mb: DEFAULT_HASH_MB,
        threads: 1,
        table: None,
        search: None,
    };
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        match crate::input::read_line(&mut input) {
            Ok(Line::Text(line)) => {
                if !engine.command(&line) {
                    break;
                }
            }
            Ok(Line::TooLong) => say(&format!(
                "Error (longer than {MAX_LINE_BYTES} bytes: skipped): a line"
            )),
            Ok(Line::End) | Err(_) => break,
        }
    }
    engine.cancel();
    Ok(ExitCode::SUCCESS)
}

/// `Error (WHY): COMMAND`, as CECP writes errors.
fn error(why: &str, command: &str) {
    say(&format!("Error ({why}): {command}"));
}

impl Engine {
    /// Answers one command; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        self.reap();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match command {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "easy" | "hard" | "draw" | "bk" | "white" | "black" | "otim" | "."
            | "nps" => {}
            "protover" => self.features(),
            "quit" => return false,
            "new" => self.new_game(),
            "variant" => self.variant(rest, line),
            "force" => {
                self.cancel();
                self.engine_side = None;
            }
            "go" => {
                self.cancel();
                self.engine_side = Some(self.mover());
                self.think();
            }
            "playother" => {
                self.cancel();
                self.engine_side = Some(1 - self.mover().min(1));
            }
            "usermove" => self.user_move(rest),
            "setboard" => self.set_board(rest, line),
            // A clock past its flag comes negative: no time left. More than a year is a year.
            "time" => match rest.parse::<i64>() {
                Ok(cs) => {
                    let cs = cs.clamp(0, MAX_CLOCK_CS) as u64;
                    self.clock.own = Some(Duration::from_millis(cs * 10));
                }
                Err(_) => error("time takes centiseconds", line),
            },
            "level" => self.level(rest, line),
            "st" => match rest.parse::<f64>() {
                Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => {
                    self.clock.per_move = Some(Duration::from_secs_f64(seconds))
                }
                _ => error("st takes seconds", line),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(depth) if depth >= 1 => self.clock.depth = Some(depth.min(MAX_DEPTH)),
                _ => error("sd takes a depth", line),
            },
            "cores" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => self.threads = n.min(MAX_THREADS),
                _ => error("cores takes a number of threads", line),
            },
            "memory" => match rest.parse::<usize>() {
                Ok(mb) if mb >= 1 => {
                    self.hash_mb = mb.min(4096);
                    self.table = None;
                }
                _ => error("memory takes megabytes", line),
            },
            "lift" => {
                let square = self.ranks().read(rest);
                say(&format!("highlight {}", self.highlight(&square)));
            }
            "put" | "hover" => {}
            "?" => {
                if let Some(search) = self.search.as_ref().filter(|s| s.plays) {
                    search.thinking.stop();
                }
            }
            "ping" => say(&format!("pong {rest}")),
            "result" => {
                self.cancel();
                self.engine_side = None;
            }
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "hint" => self.hint(),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.cancel();
                self.analysing = true;
                self.engine_side = None;
                self.think();
            }
            "exit" => {
                self.cancel();
                self.analysing = false;
            }
            _ => error("unknown command", line),
        }
        true
    }

    /// The targets of the piece on `square`, as XBoard's `highlight` board: a FEN-like board
    /// with `Y` on a quiet move's target, `R` on a capture's and `M` on a promotion's, as
    /// Fairy-Stockfish marks them.
    fn highlight(&self, square: &str) -> String {
        let mut marks = std::collections::HashMap::new();
        for mv in self.session.legal_moves() {
            let Some((from, to, rest)) = split_move(&mv) else {
                continue;
            };
            if from != square {
                continue;
            }
            let san = self.session.san(&mv).unwrap_or_default();
            let mark = if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphabetic()) {
                'M'
            } else if san.contains('x') {
                'R'
            } else {
                'Y'
            };
            let strongest = marks.get(to).map_or(mark, |&old: &char| {
                if old == 'M' || mark == 'M' {
                    'M'
                } else if old == 'R' || mark == 'R' {
                    'R'
                } else {
                    'Y'
                }
            });
            marks.insert(to.to_string(), strongest);
        }
        let board = &self.definition.board;
        let mut ranks = Vec::new();
        for rank in (0..board.ranks).rev() {
            let (mut text, mut empty) = (String::new(), 0);
            for file in 0..board.files {
                let name = format!("{}{}", (b'a' + file) as char, rank + 1);
                match marks.get(&name) {
                    Some(mark) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(*mark);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            ranks.push(text);
        }
        ranks.join("/")
    }

    fn features(&self) {
        let variants: Vec<&str> = self
            .library
            .playable()
            .map(|name| if name == CHESS { NORMAL } else { name })
            .collect();
        say(&format!(
            "feature myname=\"variant {}\" variants=\"{}\" setboard=1 usermove=1 san=0 ping=1 memory=1 smp=1 sigint=0 colors=0 highlight=1 analyze=1 reuse=1 nps=0 done=1",
            env!("CARGO_PKG_VERSION"),
            variants.join(",")
        ));
    }

    /// The index of the side to move.
    fn mover(&self) -> usize {
        let name = self.session.side_to_move();
        self.definition
            .sides
            .iter()
            .position(|side| side.name == name)
            .unwrap_or(0)
    }

    /// How XBoard numbers the ranks of the game's board.
    fn ranks(&self) -> Ranks {
        Ranks {
            from_zero: self.definition.board.ranks == 10,
        }
    }

    /// Plays the move of a search that has printed it (before the command that follows it).
    fn reap(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|search| search.thinking.has_reported())
        {
            self.finish(false);
        }
    }

    /// Stops a search without its move being printed or played.
    fn cancel(&mut self) {
        if let Some(search) = &self.search {
            search.cancelled.store(true, Ordering::Relaxed);
        }
        self.finish(true);
    }

    /// Waits for the search (stopped first when `stop`) and plays the move it printed.
    fn finish(&mut self, stop: bool) {
        let Some(search) = self.search.take() else {
            return;
        };
        let cancelled = search.cancelled.load(Ordering::Relaxed);
        let Some(ended) = search.thinking.join(stop) else {
            return;
        };
        self.table = Some(ended.table);
        if let (true, false, Some(finished)) = (search.plays, cancelled, ended.finished) {
            let played = conveyed(&self.session.legal_moves(), &finished.best);
            if self.session.play(&played).is_ok() {
                self.announce_result();
            }
        }
    }

    /// `1-0 {white wins by checkmate}` when the game is over.
    fn announce_result(&self) {
        let Some(outcome) = self.session.outcome() else {
            return;
        };
        let first = &self.definition.sides[0].name;
        let score = if outcome.is_draw() {
            "1/2-1/2"
        } else if outcome.winners.contains(first) {
            "1-0"
        } else {
            "0-1"
        };
        say(&format!("{score} {{{}}}", outcome.description()));
    }

    fn new_game(&mut self) {
        self.cancel();
        if let Ok((_, definition)) = self.library.select(CHESS) {
            self.definition = definition.clone();
        }
        self.reset(None);
        self.engine_side = Some(1);
        self.clock.depth = None;
        self.clock.per_move = None;
        if let Some(table) = self.table.as_mut() {
            table.clear();
        }
    }

    /// The game's setup, or a FEN; `false` (and the game unchanged) if the FEN does not fit.
    fn reset(&mut self, fen: Option<&str>) -> bool {
        match variant_interpreter::open(&self.definition, fen) {
            Ok(session) => {
                self.session = session;
                true
            }
            Err(e) => {
                say(&format!("tellusererror Illegal position: {e}"));
                false
            }
        }
    }

    fn variant(&mut self, name: &str, line: &str) {
        self.cancel();
        let name = if name == NORMAL { CHESS } else { name };
        match self.library.select(name) {
            Ok((offered, definition)) => {
                if !KNOWN_TO_XBOARD.contains(&offered) && offered != CHESS {
                    for line in describe_for_gui(offered, definition) {
                        say(&line);
                    }
                }
                self.definition = definition.clone();
                let start = XBOARD_STARTS
                    .iter()
                    .find(|(game, _)| *game == offered)
                    .map(|(_, fen)| *fen);
                self.reset(start);
                self.table = None;
            }
            Err(why) => error(&why, line),
        }
    }

    fn user_move(&mut self, sent: &str) {
        if self.search.as_ref().is_some_and(|s| s.plays) {
            // A move while the engine thinks: it was not the engine's turn after all.
            self.cancel();
        }
        let mv = &self.gui_move(&self.ranks().read(sent));
        let played = match self.session.resolve(mv) {
            Ok(uci) => self.session.play(&uci).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = played {
            say(&format!("Illegal move ({e}): {sent}"));
            return;
        }
        self.announce_result();
        self.after_change();
    }

    /// The legal move XBoard means by `mv` (see [`meant`]).
    fn gui_move(&self, mv: &str) -> String {
        meant(&self.session.legal_moves(), mv)
    }

    /// After the position changed: the engine moves if it is its turn, an analysis restarts.
    fn after_change(&mut self) {
        if self.analysing {
            self.cancel();
            self.think();
        } else if self.engine_side == Some(self.mover()) {
            self.think();
        }
    }

    /// `setboard FEN`. XBoard relays a pass of the other side as the board after it (it sends
    /// `@@@@` only in its chu variants): when the side to move's pass leads to the board, the pass
    /// is played, keeping the game's history (repetitions, passes in a row), and the engine moves
    /// if it is its turn, as Fairy-Stockfish's xboard mode does.
    fn set_board(&mut self, fen: &str, line: &str) {
        self.cancel();
        if self.pass_leads_to(fen) {
            self.announce_result();
            return self.after_change();
        }
        if !self.reset(Some(fen)) {
            return error("illegal position", line);
        }
        self.after_change();
    }

    /// Plays the side to move's pass if it leads to the board and side to move of `fen`.
    fn pass_leads_to(&mut self, fen: &str) -> bool {
        let Some(pass) = self.session.legal_moves().into_iter().find(|m| is_pass(m)) else {
            return false;
        };
        if self.session.play(&pass).is_err() {
            return false;
        }
        let placement = |fen: &str| fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        if placement(&self.session.fen()) == placement(fen) {
            return true;
        }
        self.session.undo();
        false
    }

    fn take_back(&mut self, moves: usize) {
        self.cancel();
        for _ in 0..moves {
            self.session.undo();
        }
        if self.analysing {
            self.think();
        }
    }

    /// `level MPS BASE INC`: BASE in minutes or `minutes:seconds`, INC in seconds.
    fn level(&mut self, rest: &str, line: &str) {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let parsed = match words[..] {
            [moves, _base, increment] => moves.parse::<u32>().ok().zip(
                increment
                    .parse::<f64>()
                    .ok()
                    .filter(|i| *i >= 0.0 && *i < 86_400.0),
            ),
            _ => None,
        };
        match parsed {
            Some((moves, increment)) => {
                self.clock.moves_per_session = moves;
                self.clock.increment = Duration::from_secs_f64(increment);
                self.clock.per_move = None;
            }
            None => error("write level MOVES MINUTES[:SECONDS] INCREMENT", line),
        }
    }

    /// `Hint: MOVE`: the best move of a short search.
    fn hint(&mut self) {
        if self.session.outcome().is_some() || self.search.is_some() {
            return;
        }
        let mut table = TranspositionTable::with_megabytes(1);
        let control = variant_interpreter::ai::search::Control::new();
        control.set_deadlines(
            Some(Duration::from_millis(200)),
            Some(Duration::from_secs(1)),
        );
        let limits = Limits {
            depth: 4,
            ..Limits::default()
        };
        if let Some(finished) =
            Root::of(self.session.as_ref()).search(&mut table, &limits, &control, None)
        {
            say(&format!("Hint: {}", self.ranks().write(&finished.best)));
        }
    }

    /// Starts a search: for a move (the engine's turn) or an analysis.
    fn think(&mut self) {
        if self.session.outcome().is_some() {
            return;
        }
        let plays = !self.analysing;
        let moves_played = (self.session.history().len() / 2) as u32;
        let deadlines = match (plays, self.clock.deadlines(moves_played)) {
            (false, _) => (None, None),
            // Neither a clock nor a depth: a second a move rather than a search without end.
            (true, (None, None)) if self.clock.depth.is_none() => DEFAULT_MOVE_TIME,
            (true, deadlines) => deadlines,
        };
        let limits = Limits {
            depth: if plays {
                self.clock.depth.unwrap_or(MAX_DEPTH)
            } else {
                MAX_DEPTH
            },
            stop_at_mate: plays,
            threads: self.threads,
            ..Limits::default()
        };
        let table = self
            .table
            .take()
            .unwrap_or_else(|| TranspositionTable::with_megabytes(self.hash_mb));
        let cancelled = Arc::new(AtomicBool::new(false));
        let silent = Arc::clone(&cancelled);
        let post = self.post || !plays;
        let legal = self.session.legal_moves();
        let ranks = self.ranks();
        let thinking = Thinking::start(
            Root::of(self.session.as_ref()),
            table,
            limits,
            deadlines,
            !plays,
            move |report| {
                if post {
                    print_thinking(report, ranks);
                }
            },
            move |finished| {
                if let (true, Some(finished)) = (plays, finished) {
                    if !silent.load(Ordering::Relaxed) {
                        let mv = conveyed(&legal, &finished.best);
                        say(&format!("move {}", ranks.write(&mv)));
                    }
                }
            },
        );
        self.search = Some(Search {
            thinking,
            cancelled,
            plays,
        });
    }
}

/// XBoard's rank numbers: from 0 on a board of exactly ten ranks (CECP: "on boards with exactly
/// 10 ranks, counting of the ranks starts at 0"; Fairy-Stockfish's xboard mode writes xiangqi's
/// first move `b0c2`), from 1 otherwise, as the game's notation. Moves and squares are
/// translated where they cross the protocol; FENs are not (their en-passant square is written
/// from 1 by XBoard too), nor `highlight` boards, which name no square.
#[derive(Clone, Copy, Debug)]
struct Ranks {
    from_zero: bool,
}

impl Ranks {
    /// A move or square as XBoard wrote it, in the game's notation.
    fn read(self, text: &str) -> String {
        if self.from_zero {
            shift_ranks(text, 1)
        } else {
            text.to_string()
        }
    }

    /// A move in the game's notation, as XBoard reads it: a pass as CECP's null move `@@@@`.
    fn write(self, text: &str) -> String {
        if is_pass(text) {
            NULL_MOVE.to_string()
        } else if self.from_zero {
            shift_ranks(text, -1)
        } else {
            text.to_string()
        }
    }
}

/// CECP's null move, a pass.
const NULL_MOVE: &str = "@@@@";

/// Whether a move of the game's notation is a pass: `pass` (ataxx's forced pass) or a piece's
/// move to its own square (janggi's `e2e2`), which XBoard refuses as a move ("invalid move") but
/// takes as `@@@@`, as Fairy-Stockfish's xboard mode writes every pass.
fn is_pass(mv: &str) -> bool {
    mv == "pass" || split_move(mv).is_some_and(|(from, to, rest)| from == to && rest.is_empty())
}

/// `text` with the rank of every square (a run of lowercase letters, then digits: `e2`, `a10`)
/// moved by `by`; the rest (pieces, `@`, `^`, `,`, promotion letters) as it is. A rank that
/// would fall below 0 stays as it was.
fn shift_ranks(text: &str, by: i64) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let letters = rest
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(rest.len());
        let digits = rest[letters..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - letters);
        if letters > 0 && digits > 0 {
            let (file, number) = (&rest[..letters], &rest[letters..letters + digits]);
            out.push_str(file);
            match number.parse::<i64>().ok().map(|rank| rank + by) {
                Some(rank) if rank >= 0 => out.push_str(&rank.to_string()),
                _ => out.push_str(number),
            }
            rest = &rest[letters + digits..];
        } else {
            let skip = if letters > 0 { letters } else { c.len_utf8() };
            out.push_str(&rest[..skip]);
            rest = &rest[skip..];
        }
    }
    out
}

/// The legal move XBoard means by `mv`, one of `legal`. XBoard passes a move on as far as it
/// reads it: a takeover `e5g3^f4` comes as `e5g3`, which stands for the one legal move that adds
/// a `^` mark to it, unless `e5g3` is itself legal. The null move `@@@@` stands for the one legal
/// pass.
fn meant(legal: &[String], mv: &str) -> String {
    if legal.iter().any(|m| m == mv) {
        return mv.to_string();
    }
    // XBoard's shogi writes a move that declines a promotion with `=` (`b3b1=`).
    if let Some(plain) = mv
        .strip_suffix('=')
        .filter(|m| legal.iter().any(|l| l == m))
    {
        return plain.to_string();
    }
    let marked: Vec<&String> = if mv == NULL_MOVE {
        legal.iter().filter(|m| is_pass(m)).collect()
    } else {
        legal
            .iter()
            .filter(|m| m.strip_prefix(mv).is_some_and(|rest| rest.starts_with('^')))
            .collect()
    };
    match marked[..] {
        [only] => only.clone(),
        _ => mv.to_string(),
    }
}

/// The move the engine plays and sends when the search chose `best`: the one XBoard conveys.
/// XBoard drops a takeover's `^` marks (`e4d2^e3` reaches the other side as `e4d2`), which
/// [`meant`] reads back as `best` unless the plain `e4d2` is legal too (or several takeovers
/// share the squares): then the other side would play another move than ours, so the engine
/// plays the move the text stands for, and both sides stay on the same position.
fn conveyed(legal: &[String], best: &str) -> String {
    let Some((sent, _)) = best.split_once('^') else {
        return best.to_string();
    };
    let read = meant(legal, sent);
    if legal.contains(&read) {
        read
    } else {
        best.to_string()
    }
}

/// A game XBoard has rules of its own for that XBetza cannot tell it (janggi's palace moves),
/// laid out as XBoard lays it out: a game of the same name and board is sent with this parent,
/// and each of its pieces in the slot of the piece that starts on its square in `start`
/// (Fairy-Stockfish sends janggi so). XBoard then plays the pieces by its own rules for the
/// slots, under the game's letters.
struct XboardLayout {
    name: &'static str,
    parent: &'static str,
    /// The piece-to-char table of XBoard's slots, white's half.
    table: &'static str,
    /// XBoard's start position, white upper case.
    start: &'static str,
}

/// The games XBoard 4.9 lays out itself (see [`XboardLayout`]).
const XBOARD_LAYOUTS: &[XboardLayout] = &[XboardLayout {
    name: "janggi",
    parent: "janggi",
    table: "PH.R.AE..K.C.",
    start: "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR",
}];

/// The lines that tell XBoard a game it does not know: `setup (PIECETOCHAR) WxH+S_PARENT
/// FEN`, then per piece a `piece L& XBETZA` line or a `#` comment saying why there is none.
fn describe_for_gui(name: &str, definition: &Definition) -> Vec<String> {
    let layout = XBOARD_LAYOUTS
        .iter()
        .find(|layout| layout.name == name)
        .and_then(|layout| Some((layout.parent, laid_out_slots(definition, layout)?)));
    let (slots, parent) = match layout {
        Some((parent, slots)) => (slots, Some(parent)),
        None => match assign_slots(definition, holdings_and_parent(definition).1) {
            Ok(slots) => (slots, None),
            Err(why) => return vec![format!("# no setup for XBoard: {why}")],
        },
    };
    let table = piece_to_char(definition, &slots);
    let (pocket, template) = holdings_and_parent(definition);
    let parent = parent.unwrap_or(template);
    let mut lines = vec![format!(
        "setup ({table}) {}x{}+{pocket}_{parent} {}",
        definition.board.files,
        definition.board.ranks,
        variant_dsl::write_fen(definition, &definition.setup)
    )];
    for (index, piece) in definition.pieces.iter().enumerate() {
        let id = PieceId(index as u8);
        let white = definition.piece_letter(SideId(0), id);
        let black = definition.piece_letter(SideId(1), id);
        if white.to_ascii_lowercase() != black || !white.is_ascii_uppercase() {
            lines.push(format!(
                "# piece {white}: no piece line (the sides' letters are not one letter in two cases)"
            ));
            continue;
        }
        let written = if piece.promoted_form {
            format!("+{white}")
        } else {
            white.to_string()
        };
        lines.push(match xbetza::write(definition, id) {
            Ok(betza) => format!("piece {written}& {betza}"),
            Err(why) => format!(
                "# piece {written} ({}): no exact XBetza equivalent: {why}",
                piece.name
            ),
        });
    }
    lines
}

/// XBoard's holdings size and parent variant for a game it is told with `setup`: `shogi` when
/// captures go to hand and promoted pieces are types of their own (`letter +P`: XBoard's shogi
/// demotes them into the hand and reads a `+` promotion), with a holding per type a hand can
/// hold (neither royal nor a promoted form), as Fairy-Stockfish sends minishogi; `giveaway`,
/// XBoard's parent without check and with compulsory captures, when no piece is royal and every
/// side must capture when it can (antichess, as Fairy-Stockfish sends it: under `fairy` XBoard
/// 4.9 forfeits a move that leaves the `K` attacked); else the UCI template (`crazyhouse` or
/// `fairy`) and pocket. Extinction and horde stay `fairy`: XBoard's `giveaway` forfeits their
/// quiet moves when a capture is possible, and under `fairy` XBoard 4.9 forfeits every move of
/// horde's White (which has no king; Fairy-Stockfish's too) and a move of extinction's king
/// onto an attacked square.
fn holdings_and_parent(definition: &Definition) -> (usize, &'static str) {
    let (pocket, template) = crate::variants::pocket_and_template(definition);
    let pieces = &definition.pieces;
    if template == "crazyhouse" && pieces.iter().any(|p| p.promoted_form) {
        let in_hand = pieces
            .iter()
            .filter(|p| !p.promoted_form && !p.royal)
            .count();
        return (in_hand, "shogi");
    }
    let must_capture = definition.move_rules.obligations.iter().any(|obligation| {
        obligation.side.is_none() && obligation.kind == variant_dsl::ObligationKind::Capture
    });
    if template == "fairy" && must_capture && !pieces.iter().any(|p| p.royal) {
        return (pocket, "giveaway");
    }
    (pocket, template)
}

/// Each piece's slot in `layout`: the slot of XBoard's piece on a square where the piece starts
/// (white's), or `None` if the board differs or a piece starts nowhere or on a square XBoard's
/// start leaves empty.
fn laid_out_slots(definition: &Definition, layout: &XboardLayout) -> Option<Vec<usize>> {
    let ranks: Vec<&str> = layout.start.split('/').collect();
    let board = &definition.board;
    if ranks.len() != usize::from(board.ranks) {
        return None;
    }
    // XBoard's letter on (file, rank), ranks counted from the bottom.
    let letter_at = |file: u8, rank: u8| -> Option<char> {
        let row = ranks.get(usize::from(board.ranks - 1 - rank))?;
        let mut at = 0u32;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(empty) => at += empty,
                None if at == u32::from(file) => return Some(c),
                None => at += 1,
            }
        }
        None
    };
    (0..definition.pieces.len())
        .map(|index| {
            let placed = definition
                .setup
                .board
                .iter()
                .find(|p| p.side == SideId(0) && usize::from(p.piece.0) == index)?;
            let letter = letter_at(placed.square.file, placed.square.rank)?;
            layout.table.chars().position(|c| c == letter)
        })
        .collect()
}

/// XBoard's slot (an index into [`SLOTS`]) for each piece type: the first royal piece in the
/// king's, the first promoting piece in the pawn's, a piece whose letter names a free slot in
/// it, the others in the first free slots between, and a promoted form (`letter +P`) in the slot
/// XBoard keeps for the promoted form of its base piece's (eleven on, written `+` in the
/// table), when its base has one of the first eleven; or why the table cannot hold the game.
/// Under the parent `shogi`, the slots XBoard judges by shogi's own rules stay empty (see
/// [`SHOGI_RULED_SLOTS`]) and a piece with a promoted form goes before [`SHOGI_PROMOTABLE`].
fn assign_slots(definition: &Definition, parent: &str) -> Result<Vec<usize>, String> {
    let king = SLOTS.len() - 1;
    let promoted_offset = SLOTS.len() / 2;
    let mut taken = [false; 22];
    let shogi = parent == "shogi";
    if shogi {
        for slot in SHOGI_RULED_SLOTS {
            taken[slot] = true;
        }
    }
    let promotable = if shogi {
        SHOGI_PROMOTABLE
    } else {
        promoted_offset
    };
    let places = (1..king).filter(|&slot| !taken[slot]).count();
    let mut slots: Vec<Option<usize>> = vec![None; definition.pieces.len()];
    let place = |index: usize, slot: usize, taken: &mut [bool; 22], slots: &mut [Option<usize>]| {
        if !taken[slot] && slots[index].is_none() {
            taken[slot] = true;
            slots[index] = Some(slot);
        }
    };
    let promoted = |index: usize| definition.pieces[index].promoted_form;
    if let Some(royal) = definition.pieces.iter().position(|p| p.royal) {
        place(royal, king, &mut taken, &mut slots);
    }
    if let Some(pawn) = definition.pieces.iter().position(|p| p.promotion.is_some()) {
        place(pawn, 0, &mut taken, &mut slots);
    }
    // A piece with a promoted form needs a slot in the first half, where its form's slot is.
    let has_form = |index: usize| {
        (0..definition.pieces.len())
            .any(|form| definition.base_of(PieceId(form as u8)) == Some(PieceId(index as u8)))
    };
    for (index, piece) in definition.pieces.iter().enumerate() {
        if promoted(index) {
            continue;
        }
        if let Some(slot) = SLOTS.iter().position(|&s| char::from(s) == piece.letter) {
            if slot < promotable || !has_form(index) {
                place(index, slot, &mut taken, &mut slots);
            }
        }
    }
    // The pieces that are no promoted form in the first free slots, those with a promoted
    // form first, so that they get the slots XBoard promotes.
    let bases = (0..definition.pieces.len()).filter(|&index| !promoted(index));
    let (with_form, without_form): (Vec<usize>, Vec<usize>) = bases.partition(|&i| has_form(i));
    for index in with_form.into_iter().chain(without_form) {
        if let Some(slot) = (1..king).find(|&slot| !taken[slot]) {
            place(index, slot, &mut taken, &mut slots);
        }
    }
    for index in (0..definition.pieces.len()).filter(|&index| promoted(index)) {
        let base = definition
            .base_of(PieceId(index as u8))
            .and_then(|base| slots[usize::from(base.0)]);
        if let Some(slot) = base.map(|base| base + promoted_offset) {
            if base.is_some_and(|base| base < promotable) && slot < king {
                place(index, slot, &mut taken, &mut slots);
            }
        }
        if let Some(slot) = (1..king).find(|&slot| !taken[slot]) {
            place(index, slot, &mut taken, &mut slots);
        }
    }
    slots
        .into_iter()
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| {
            format!(
                "{} piece types, and XBoard's table has {} places besides the pawn's and the king's",
                definition.pieces.len(),
                places
            )
        })
}

/// The piece-to-char table: the first side's letters in XBoard's slot order, then the
/// second's, `.` for an unused slot and `+` for a promoted form in its base's promoted slot.
fn piece_to_char(definition: &Definition, slots: &[usize]) -> String {
    let promoted_offset = SLOTS.len() / 2;
    let mut table = String::new();
    for side in [SideId(0), SideId(1)] {
        for slot in 0..SLOTS.len() {
            match slots.iter().position(|&s| s == slot) {
                Some(piece) => {
                    let id = PieceId(piece as u8);
                    let in_base_slot = definition
                        .base_of(id)
                        .is_some_and(|base| slots[usize::from(base.0)] + promoted_offset == slot);
                    if in_base_slot {
                        table.push('+');
                    } else {
                        table.push(definition.piece_letter(side, id));
                    }
                }
                None => table.push('.'),
            }
        }
    }
    table
}

/// A move's from-square, to-square and the rest (`e7e8q` → `e7`, `e8`, `q`); `None` for a
/// move that starts from no square (a drop, `N@c3`).
fn split_move(mv: &str) -> Option<(&str, &str, &str)> {
    let square_end = |text: &str| -> Option<usize> {
        let letters = text.find(|c: char| !c.is_ascii_lowercase())?;
        let digits = text[letters..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len() - letters);
        (letters > 0 && digits > 0).then_some(letters + digits)
    };
    let from = square_end(mv)?;
    let to = square_end(&mv[from..])? + from;
    Some((&mv[..from], &mv[from..to], &mv[to..]))
}

/// A thinking line: `depth score time nodes seldepth nps pv`, the time in centiseconds and a
/// mate as 100000 plus the moves to it (negative when mated), as XBoard reads them.
fn print_thinking(report: &Report, ranks: Ranks) {
    let Some(line) = report.lines.first() else {
        return;
    };
    let score = match line.score {
        Score::Centipawns(cp) => i64::from(cp),
        Score::Mate(moves) if moves > 0 => 100_000 + i64::from(moves),
        Score::Mate(moves) => -100_000 + i64::from(moves),
    };
    say(&format!(
        "{} {score} {} {} {} {} {}",
        report.depth,
        report.time.as_millis() / 10,
        report.nodes,
        report.seldepth,
        report.nps(),
        line.moves
            .iter()
            .map(|mv| ranks.write(mv))
            .collect::<Vec<_>>()
            .join(" ")
    ));
}

#[cfg(test)]
mod ranks_tests {
    use super::{shift_ranks, Ranks};

    #[test]
    fn ten_rank_boards_count_from_zero_across_the_protocol() {
        let ten = Ranks { from_zero: true };
        // Xiangqi's `b1c3` is XBoard's `b0c2`; the tenth rank is `9`.
        assert_eq!(ten.write("b1c3"), "b0c2");
        assert_eq!(ten.write("a10a9"), "a9a8");
        assert_eq!(ten.read("b0c2"), "b1c3");
        assert_eq!(ten.read("a9a8"), "a10a9");
        // Drops, promotions, takeovers and legs keep their marks.
        assert_eq!(ten.write("P@e4"), "P@e3");
        assert_eq!(ten.write("e9e10q"), "e8e9q");
        assert_eq!(ten.write("e5g3^f4"), "e4g2^f3");
        assert_eq!(ten.read("e4e3,e3d2"), "e5e4,e4d3");
        assert_eq!(ten.read("@@@@"), "@@@@");
        // Other boards are untouched.
        let eight = Ranks { from_zero: false };
        assert_eq!(eight.write("b1c3"), "b1c3");
        assert_eq!(eight.read("e2e4"), "e2e4");
        // Nothing below rank 0.
        assert_eq!(shift_ranks("a0", -1), "a0");
    }
}

#[cfg(test)]
mod conveyed_tests {
    use super::{conveyed, meant, Ranks};

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn a_converting_move_is_played_as_xboard_will_pass_it_on() {
        // Only the converting move (`^`: the piece passed over changes sides) has these
        // squares: XBoard's `e4d2` reads back as it.
        let legal = moves(&["e4d2^e3", "a1a2"]);
        assert_eq!(meant(&legal, "e4d2"), "e4d2^e3");
        assert_eq!(conveyed(&legal, "e4d2^e3"), "e4d2^e3");
        // The plain move is legal too: `e4d2` would be read as it, so the engine plays it.
        let legal = moves(&["e4d2^e3", "e4d2", "a1a2"]);
        assert_eq!(meant(&legal, "e4d2"), "e4d2");
        assert_eq!(conveyed(&legal, "e4d2^e3"), "e4d2");
        // Two converting moves on the same squares and no plain move: nothing better to send.
        let legal = moves(&["e4d2^e3", "e4d2^d3"]);
        assert_eq!(conveyed(&legal, "e4d2^d3"), "e4d2^d3");
        // Moves without a mark go as they are.
        assert_eq!(conveyed(&legal, "a1a2"), "a1a2");
    }

    #[test]
    fn the_null_move_is_the_one_legal_pass() {
        assert_eq!(meant(&moves(&["pass"]), "@@@@"), "pass");
        assert_eq!(meant(&moves(&["e2e2", "e2e3", "a1a2"]), "@@@@"), "e2e2");
        // A declined promotion, as XBoard's shogi writes it, is the plain move.
        assert_eq!(meant(&moves(&["b3b1", "b3b1+"]), "b3b1="), "b3b1");
        // No pass to mean: left as it came, to be refused.
        assert_eq!(meant(&moves(&["e2e3"]), "@@@@"), "@@@@");
        let eight = Ranks { from_zero: false };
        assert_eq!(eight.write("pass"), "@@@@");
        assert_eq!(eight.write("e2e2"), "@@@@");
        // A promotion on the spot is no pass.
        assert_eq!(eight.write("e8e8q"), "e8e8q");
    }
}
