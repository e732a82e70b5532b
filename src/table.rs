//! A game being played in the server: its session, the player of each side, and the thread
//! that owns them.
//!
//! Why a thread per game: a session is not `Send` (it may keep caches of its own), and a
//! computer player may think for seconds; a game that lives on its own thread and answers the
//! requests sent to it lets two browsers play two games at once, one game's thinking never
//! holding up the other's requests. The thread ends when no request came for the idle time,
//! which is how sessions expire.

use crate::play::side_seed;
use crate::record::{self, Ending, Meta, Record};
use crate::stream::{self, Events, StopSlot};
use crate::{play_typed, show_value, svg, Failure};
use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;
use variant_dsl::Definition;
use variant_interpreter::{Agent, AgentOptions, Budget, PlayerSpec, Session};

/// The most computer moves played in answer to one request: a game between computers alone
/// is played on in steps, never in one endless request.
const MAX_COMPUTER_PLIES: usize = 400;
/// The longest a computer player may think per move in the server, and the largest counted
/// budgets: a request is answered in seconds.
const MAX_SECONDS: f64 = 10.0;
const MAX_PLAYOUTS: u64 = 200_000;
const MAX_DEPTH: u64 = 8;

/// What a request asks of a game.
pub enum Ask {
    /// The state, as `show --json` gives it, with the players.
    State,
    /// Play a person's move (game notation or SAN), then the computers' replies.
    Move(String),
    /// The board as SVG.
    Picture(svg::Options),
    /// Take back the last person's move and the computers' replies after it.
    Undo,
    /// The game's record, as the CLI's `save` writes it.
    Record,
    /// The computers' moves, played now and streamed as server-sent events ([`stream`]), each
    /// with the board drawn so.
    Events(svg::Options),
}

/// A reply: HTTP status, body and its media type.
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// The body.
    pub body: String,
    /// Its `Content-Type`.
    pub media_type: &'static str,
}

impl Reply {
    /// A JSON reply.
    pub fn json(status: u16, value: &serde_json::Value) -> Self {
        Reply {
            status,
            body: value.to_string(),
            media_type: "application/json",
        }
    }

    /// `{"error": message}` with a status.
    pub fn error(status: u16, message: impl Into<String>) -> Self {
        Reply::json(status, &serde_json::json!({ "error": message.into() }))
    }
}

impl Reply {
    /// Sends the reply; a client that went away is no error.
    pub fn send(self, request: tiny_http::Request) {
        let kind = self.media_type.as_bytes();
        let mut response =
            tiny_http::Response::from_string(self.body).with_status_code(self.status);
        if let Ok(header) = tiny_http::Header::from_bytes(&b"Content-Type"[..], kind) {
            response = response.with_header(header);
        }
        let _ = request.respond(response);
    }
}

/// One request for a game, answered by the game's thread.
pub struct Letter {
    /// What is asked.
    pub ask: Ask,
    /// The request to answer.
    pub request: tiny_http::Request,
}

/// How a new game is set up.
pub struct Setup {
    /// The validated game.
    pub definition: Definition,
    /// The start position, if not the game's setup.
    pub fen: Option<String>,
    /// The player of each side, in side order.
    pub players: Vec<PlayerSpec>,
    /// Seed of the computer players.
    pub seed: u64,
    /// What a record's `GameFile` tag holds for this game (`chess.variant`).
    pub game_file: String,
    /// A record whose moves are played from the start (already checked against the game).
    pub record: Option<Record>,
    /// Whether the computers move only when asked for their moves' event stream
    /// ([`Ask::Events`]), instead of at once in answer to each request.
    pub streamed: bool,
    /// Where a streamed search leaves its control, for the server's stop.
    pub stop: StopSlot,
}

/// A failure's message, for a reply.
pub fn failure_text(failure: Failure) -> String {
    match failure {
        Failure::Message(text) | Failure::Diagnostics(text) => text,
        Failure::ClosedOutput => "the output was closed".into(),
    }
}

/// Checks that a player's budget fits a request's time.
pub fn check_budget(spec: PlayerSpec) -> Result<(), String> {
    let within = match spec {
        PlayerSpec::Mcts(Budget::Count(n)) => n <= MAX_PLAYOUTS,
        PlayerSpec::Search(Budget::Count(n)) => n <= MAX_DEPTH,
        PlayerSpec::Mcts(Budget::Time(t)) | PlayerSpec::Search(Budget::Time(t)) => {
            t.as_secs_f64() <= MAX_SECONDS
        }
        _ => true,
    };
    if within {
        Ok(())
    } else {
        Err(format!(
            "`{spec}` thinks too long for the server: at most {MAX_SECONDS}s a move, \
             {MAX_PLAYOUTS} playouts or depth {MAX_DEPTH}"
        ))
    }
}

/// A game and its players, owned by one thread.
struct Table {
    session: Box<dyn Session>,
    players: Vec<PlayerSpec>,
    agents: Vec<Option<Box<dyn Agent>>>,
    seed: u64,
    game_file: String,
    streamed: bool,
    stop: StopSlot,
}

/// Opens the game; on success, the computer players make their first moves. The error is the
/// reply to the request that asked for the game.
fn open(setup: Setup) -> Result<Table, Reply> {
    let session = match &setup.record {
        Some(record) => {
            crate::play::replay_record(record, Path::new("the record"), &setup.definition)
                .map_err(|failure| Reply::error(422, failure_text(failure)))?
        }
        None => variant_interpreter::open(&setup.definition, setup.fen.as_deref())
            .map_err(|error| Reply::error(422, error.to_string()))?,
    };
    let agents = setup
        .players
        .iter()
        .enumerate()
        .map(|(index, spec)| {
            if spec.is_human() {
                return Ok(None);
            }
            let options = AgentOptions {
                seed: side_seed(setup.seed, index),
                threads: 1,
            };
            session.agent(*spec, options).map(Some).map_err(|error| {
                let side = &setup.definition.sides[index].name;
                Reply::error(422, format!("{side}: {error}"))
            })
        })
        .collect::<Result<Vec<_>, Reply>>()?;
    let mut table = Table {
        session,
        players: setup.players,
        agents,
        seed: setup.seed,
        game_file: setup.game_file,
        streamed: setup.streamed,
        stop: setup.stop,
    };
    table.computers_play();
    Ok(table)
}

/// Runs a game: opens it, answers `first` (the request that created it) with `created`'s
/// JSON, then every request sent until none came for `idle`.
pub fn run(
    setup: Setup,
    created: serde_json::Value,
    first: tiny_http::Request,
    letters: Receiver<Letter>,
    idle: Duration,
) {
    let mut table = match open(setup) {
        Ok(table) => {
            Reply::json(201, &created).send(first);
            table
        }
        Err(reply) => {
            reply.send(first);
            return;
        }
    };
    loop {
        match letters.recv_timeout(idle) {
            Ok(Letter {
                ask: Ask::Events(options),
                request,
            }) => table.stream_computers(request, options),
            Ok(letter) => table.answer(letter.ask).send(letter.request),
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return,
        }
    }
}

impl Table {
    fn answer(&mut self, ask: Ask) -> Reply {
        // A game between computers that stopped at a request's limit goes on.
        self.computers_play();
        match ask {
            Ask::State => Reply::json(200, &self.state()),
            Ask::Picture(options) => Reply {
                status: 200,
                body: svg::render(self.session.as_ref(), options),
                media_type: "image/svg+xml",
            },
            Ask::Move(text) => self.person_moves(&text),
            Ask::Undo => self.undo(),
            Ask::Record => Reply {
                status: 200,
                body: self.record_text(),
                media_type: "application/x-chess-pgn; charset=utf-8",
            },
            // Answered by `run` with a stream, never by one reply.
            Ask::Events(_) => Reply::error(500, "an event stream is not a reply"),
        }
    }

    /// The record `save` would write: the same tags and moves.
    fn record_text(&self) -> String {
        let players: Vec<String> = self.players.iter().map(ToString::to_string).collect();
        record::write(
            self.session.as_ref(),
            &Meta {
                game_file: &self.game_file,
                players: &players,
                seed: self.seed,
                ending: &Ending::of(self.session.as_ref()),
                sans: &self.session.history_san(),
            },
        )
    }

    /// Takes back the last move a person made and the computers' moves after it, as the
    /// CLI's `undo` does: moves are taken back until a person is to move. A game no person
    /// plays, or one with no move yet, has nothing to take back.
    fn undo(&mut self) -> Reply {
        if !self.players.iter().any(PlayerSpec::is_human) {
            return Reply::error(409, "no side is played by a person: nothing to take back");
        }
        let mut taken = 0;
        while self.session.undo().is_some() {
            taken += 1;
            if self.players[self.side_index()].is_human() {
                break;
            }
        }
        if taken == 0 {
            return Reply::error(409, "nothing to take back: no move has been played");
        }
        // Back at the start with a computer to move: it moves again.
        self.computers_play();
        Reply::json(200, &self.state())
    }

    /// `show --json`'s fields, `players` (each side's player) and `san` (the moves in SAN).
    fn state(&self) -> serde_json::Value {
        let mut value = show_value(self.session.as_ref());
        let players: serde_json::Map<String, serde_json::Value> = self
            .session
            .definition()
            .sides
            .iter()
            .zip(&self.players)
            .map(|(side, spec)| (side.name.clone(), spec.to_string().into()))
            .collect();
        value["players"] = players.into();
        value["san"] = self.session.history_san().into();
        value
    }

    fn side_index(&self) -> usize {
        let side = self.session.side_to_move();
        let sides = &self.session.definition().sides;
        sides.iter().position(|s| s.name == side).unwrap_or(0)
    }

    /// A person's move: refused when the game is over or a computer is to move, or when it is
    /// not legal (with the reason); else played, then the computers reply.
    fn person_moves(&mut self, text: &str) -> Reply {
        if let Some(outcome) = self.session.outcome() {
            return Reply::error(409, format!("the game is over: {}", outcome.description()));
        }
        let side = self.side_index();
        if !self.players[side].is_human() {
            return Reply::error(
                409,
                format!(
                    "{} is played by {}",
                    self.session.side_to_move(),
                    self.players[side]
                ),
            );
        }
        if let Err(message) = play_typed(self.session.as_mut(), text) {
            return Reply::error(422, message);
        }
        self.computers_play();
        Reply::json(200, &self.state())
    }

    /// The computer players move until a person is to move or the game is over (in a
    /// streamed game, only when their events are asked for).
    fn computers_play(&mut self) {
        if self.streamed {
            return;
        }
        for _ in 0..MAX_COMPUTER_PLIES {
            if self.session.outcome().is_some() {
                return;
            }
            let side = self.side_index();
            let Some(agent) = self.agents[side].as_mut() else {
                return;
            };
            let Some(choice) = agent.choose(self.session.as_ref()) else {
                return;
            };
            if self.session.play(&choice.mv).is_err() {
                return;
            }
            if let Some(dice) = choice.dice {
                self.session.note_dice(dice);
            }
        }
    }
}

/// A computer's move with what it said of it and the dice it read.
struct Chosen {
    mv: String,
    summary: String,
    dice: Option<Vec<u32>>,
}

impl Table {
    /// Answers an event stream: the computers move until a person is to move, the game is
    /// over or the client hangs up, each move announced (`thinking`), its search's progress
    /// sent (`progress`, for `search:` players) and the move sent with the state after it
    /// (`move`, with the board drawn with `options`, since the game's thread is busy with the
    /// stream until it ends); `done` ends the stream with the state.
    fn stream_computers(&mut self, request: tiny_http::Request, options: svg::Options) {
        let mut events = Events::start(request);
        for _ in 0..MAX_COMPUTER_PLIES {
            if self.session.outcome().is_some() {
                break;
            }
            let index = self.side_index();
            let spec = self.players[index];
            if spec.is_human() {
                break;
            }
            let side = self.session.side_to_move();
            let thinking = serde_json::json!({ "side": side, "player": spec.to_string() });
            if !events.send("thinking", &thinking) {
                return;
            }
            let Some(chosen) = self.choose_streamed(index, spec, &mut events) else {
                break;
            };
            let san = self.session.san(&chosen.mv);
            if self.session.play(&chosen.mv).is_err() {
                break;
            }
            if let Some(dice) = chosen.dice {
                self.session.note_dice(dice);
            }
            let moved = serde_json::json!({
                "side": side,
                "move": chosen.mv,
                "san": san,
                "summary": chosen.summary,
                "state": self.state(),
                "svg": svg::render(self.session.as_ref(), options),
            });
            if !events.send("move", &moved) {
                return;
            }
        }
        events.send("done", &self.state());
    }

    /// The move of the computer playing side `index`: a `search:` player searches on its
    /// own thread, reporting each depth, an `mcts:` player reports its playouts as it grows
    /// its tree, both stoppable; the others choose as usual.
    fn choose_streamed(
        &mut self,
        index: usize,
        spec: PlayerSpec,
        events: &mut Events,
    ) -> Option<Chosen> {
        if let PlayerSpec::Search(budget) = spec {
            let finished = stream::search(self.session.as_mut(), budget, &self.stop, events)?;
            return Some(Chosen {
                summary: format!(
                    "depth {}, {}, {} nodes",
                    finished.depth, finished.score, finished.nodes
                ),
                mv: finished.best,
                dice: None,
            });
        }
        let agent = self.agents[index].as_mut()?;
        let choice = if let PlayerSpec::Mcts(_) = spec {
            stream::watched(agent.as_mut(), self.session.as_ref(), &self.stop, events)?
        } else {
            agent.choose(self.session.as_ref())?
        };
        Some(Chosen {
            mv: choice.mv,
            summary: choice.summary,
            dice: choice.dice,
        })
    }
}
