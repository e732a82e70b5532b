//! `variant serve`: a local HTTP server with a JSON API over every game, for the web board and
//! for scripts.
//!
//! Why tiny_http and threads: the server answers one person or a few on their own machine, and
//! a game's work (a computer player thinking) is plain CPU work on a thread; a synchronous
//! server of four small crates does that without an async runtime to build and learn. A few
//! worker threads read requests and route them; each game lives on its own thread
//! ([`crate::table`]), which answers that game's requests, so two games are played at once.
//!
//! Routes: `GET /` (the game picker), `GET /play/GAME[?SIDE=PLAYER...]` (the page of a new
//! game), `GET /api/games`, `POST /api/sessions`, `GET /api/sessions/ID`,
//! `GET /api/sessions/ID/board.svg[?flip=1&control=1]`, `POST /api/sessions/ID/moves`,
//! `POST /api/sessions/ID/undo`, `GET /api/sessions/ID/record` (the PGN record `save` writes;
//! `POST /api/sessions` with `{"record": "..."}` loads one back). Every error is a 4xx or 5xx
//! with `{"error": "..."}`. A game made with `"stream": true` moves its computers only when
//! `GET /api/sessions/ID/events[?flip=1&control=1]` asks, which streams their moves and their search's progress
//! as server-sent events ([`crate::stream`]); `POST /api/sessions/ID/stop` makes the search
//! under way move now.

use crate::record::Record;
use crate::stream::{self, StopSlot};
use crate::table::{self, Ask, Letter, Reply, Setup};
use crate::{catalog, svg, Failure};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use variant_interpreter::PlayerSpec;

/// The pages, embedded in the binary: no file to install, no internet.
const INDEX_PAGE: &str = include_str!("web/index.html");
const PLAY_PAGE: &str = include_str!("web/play.html");

/// The largest request body read.
const MAX_BODY: u64 = 64 * 1024;
/// Threads that read and route requests.
const WORKERS: usize = 4;

/// How `serve` was asked to run.
pub struct ServeArgs {
    /// Address to bind.
    pub host: String,
    /// Port (0: one the system picks).
    pub port: u16,
    /// Folder of the games offered, instead of the usual games folders.
    pub games: Option<PathBuf>,
    /// Open the address in a browser.
    pub open: bool,
    /// Most games at once.
    pub max_sessions: usize,
    /// A game not asked anything for this long is forgotten.
    pub idle: Duration,
}

/// A game's thread and its mailbox.
struct Entry {
    mailbox: Sender<Letter>,
    thread: JoinHandle<()>,
    /// The control of its streamed search under way, reached without its busy thread.
    stop: StopSlot,
}

/// What the workers share.
struct Shared {
    sessions: Mutex<HashMap<String, Entry>>,
    /// `--games DIR`: only that folder's games; else every game known by name.
    folder: Option<PathBuf>,
    max_sessions: usize,
    idle: Duration,
}

pub fn serve(args: ServeArgs) -> Result<ExitCode, Failure> {
    let address = format!("{}:{}", args.host, args.port);
    let server = tiny_http::Server::http(&address)
        .map_err(|error| Failure::Message(format!("cannot listen on {address}: {error}")))?;
    let bound = server
        .server_addr()
        .to_ip()
        .map_or(address.clone(), |ip| ip.to_string());
    let url = format!("http://{bound}/");
    crate::emit(&format!("Listening on {url}\n"))?;
    if args.open {
        open_browser(&url);
    }
    let shared = Arc::new(Shared {
        sessions: Mutex::new(HashMap::new()),
        folder: args.games,
        max_sessions: args.max_sessions,
        idle: args.idle,
    });
    let server = Arc::new(server);
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let server = Arc::clone(&server);
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    route(&shared, request);
                }
            })
        })
        .collect();
    for worker in workers {
        let _ = worker.join();
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks the system's opener for the page; a machine without one only gets the address.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        eprintln!("cannot open a browser ({opener}): open {url} yourself");
    }
}

/// Sends each request where it belongs.
fn route(shared: &Shared, mut request: tiny_http::Request) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    let method = request.method().clone();
    use tiny_http::Method::{Get, Post};
    match (&method, segments.as_slice()) {
        (Get, [""]) => page(INDEX_PAGE).send(request),
        (Get, ["play", name]) => match load(shared, name) {
            Ok(_) => page(PLAY_PAGE).send(request),
            Err(reply) => reply.send(request),
        },
        (Get, ["api", "games"]) => Reply::json(200, &games(shared)).send(request),
        (Post, ["api", "sessions"]) => match body(&mut request) {
            Ok(body) => create(shared, request, &body),
            Err(reply) => reply.send(request),
        },
        (Get, ["api", "sessions", id]) => deliver(shared, id, Ask::State, request),
        (Get, ["api", "sessions", id, "board.svg"]) => {
            deliver(shared, id, Ask::Picture(picture_options(query)), request)
        }
        (Post, ["api", "sessions", id, "undo"]) => deliver(shared, id, Ask::Undo, request),
        (Get, ["api", "sessions", id, "record"]) => deliver(shared, id, Ask::Record, request),
        (Get, ["api", "sessions", id, "events"]) => {
            deliver(shared, id, Ask::Events(picture_options(query)), request)
        }
        (Post, ["api", "sessions", id, "stop"]) => stop_search(shared, id).send(request),
        (Post, ["api", "sessions", id, "moves"]) => {
            let id = id.to_string();
            match body(&mut request).and_then(|body| move_text(&body)) {
                Ok(text) => deliver(shared, &id, Ask::Move(text), request),
                Err(reply) => reply.send(request),
            }
        }
        (_, ["api", "games"] | ["api", "sessions", ..]) => {
            Reply::error(405, format!("{method} is not allowed on {path}")).send(request)
        }
        _ => Reply::error(404, format!("no such page: {path}")).send(request),
    }
}

/// An HTML page.
fn page(html: &str) -> Reply {
    Reply {
        status: 200,
        body: html.to_string(),
        media_type: "text/html; charset=utf-8",
    }
}

/// How the query asks the board to be drawn: `flip=1`, `control=1`.
fn picture_options(query: &str) -> svg::Options {
    svg::Options {
        flipped: flag(query, "flip"),
        control: flag(query, "control"),
    }
}

/// Whether `name=1` (or `name=true`, or a bare `name`) is in the query.
fn flag(query: &str, name: &str) -> bool {
    query.split('&').any(|pair| match pair.split_once('=') {
        Some((key, value)) => key == name && (value == "1" || value == "true"),
        None => pair == name,
    })
}

/// The request's body as JSON, at most [`MAX_BODY`] bytes.
fn body(request: &mut tiny_http::Request) -> Result<serde_json::Value, Reply> {
    let mut text = String::new();
    let read = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut text);
    if read.is_err() {
        return Err(Reply::error(400, "the body is not UTF-8 text"));
    }
    if text.len() as u64 > MAX_BODY {
        return Err(Reply::error(
            413,
            format!("the body is over {MAX_BODY} bytes"),
        ));
    }
    serde_json::from_str(&text).map_err(|error| Reply::error(400, format!("bad JSON: {error}")))
}

/// `{"move": "e2e4"}`'s move.
fn move_text(body: &serde_json::Value) -> Result<String, Reply> {
    body.get("move")
        .and_then(serde_json::Value::as_str)
        .map(String::from)
        .ok_or_else(|| Reply::error(400, r#"give the move as {"move": "e2e4"}"#))
}

/// Sends a request to its game's thread; an unknown or expired game gets 404.
fn deliver(shared: &Shared, id: &str, ask: Ask, request: tiny_http::Request) {
    let mailbox = lock(shared).get(id).map(|entry| entry.mailbox.clone());
    let Some(mailbox) = mailbox else {
        return Reply::error(404, format!("no session `{id}` (unknown, or expired)")).send(request);
    };
    if let Err(mpsc::SendError(letter)) = mailbox.send(Letter { ask, request }) {
        lock(shared).remove(id);
        Reply::error(404, format!("session `{id}` expired")).send(letter.request);
    }
}

/// `POST /api/sessions/ID/stop`: the streamed search under way moves now;
/// `{"stopped": false}` when none was under way.
fn stop_search(shared: &Shared, id: &str) -> Reply {
    let slot = lock(shared)
        .get(id)
        .filter(|entry| !entry.thread.is_finished())
        .map(|entry| StopSlot::clone(&entry.stop));
    match slot {
        Some(slot) => Reply::json(200, &serde_json::json!({ "stopped": stream::stop(&slot) })),
        None => Reply::error(404, format!("no session `{id}` (unknown, or expired)")),
    }
}

/// The sessions, whatever a panicking thread left (the map stays consistent: each change is
/// one insert or remove).
fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
    shared
        .sessions
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The games offered, by name, sorted, with their files.
fn known(shared: &Shared) -> Vec<(String, PathBuf)> {
    let Some(folder) = &shared.folder else {
        return catalog::names();
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut found: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "variant") && path.is_file())
        .filter_map(|path| Some((path.file_stem()?.to_string_lossy().into_owned(), path)))
        .collect();
    found.sort();
    found
}

/// `GET /api/games`: every game offered that loads, by name, with its description and board.
fn games(shared: &Shared) -> serde_json::Value {
    let options = catalog::load_options();
    let listed: Vec<serde_json::Value> = known(shared)
        .iter()
        .filter_map(|(name, path)| {
            let loaded = variant_dsl::load_file_with(path, &options).ok()?;
            let definition = &loaded.definition;
            let session = variant_interpreter::open(definition, None).ok()?;
            let board = session.board();
            let squares = board
                .cells
                .iter()
                .filter(|cell| **cell != variant_interpreter::Cell::Hole)
                .count();
            Some(serde_json::json!({
                "name": name,
                "title": definition.name,
                "description": definition.description,
                "board": { "files": board.files, "ranks": board.ranks, "squares": squares },
                "sides": definition.sides.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
            }))
        })
        .collect();
    serde_json::Value::Array(listed)
}

/// Loads a game by the name it is offered under (never a path).
fn load(shared: &Shared, name: &str) -> Result<variant_dsl::Loaded, Reply> {
    load_with_path(shared, name).map(|(_, loaded)| loaded)
}

/// [`load`], with the file the game was loaded from.
fn load_with_path(shared: &Shared, name: &str) -> Result<(PathBuf, variant_dsl::Loaded), Reply> {
    let (_, path) = known(shared)
        .into_iter()
        .find(|(known, _)| known == name)
        .ok_or_else(|| Reply::error(404, format!("no game `{name}`")))?;
    let loaded = variant_dsl::load_file_with(&path, &catalog::load_options())
        .map_err(|failure| Reply::error(422, failure.render()))?;
    Ok((path, loaded))
}

/// `POST /api/sessions`: a new game on its own thread, which answers `{"id": ...}` once the
/// computers have made their first moves.
fn create(shared: &Shared, request: tiny_http::Request, body: &serde_json::Value) {
    let setup = match setup(shared, body) {
        Ok(setup) => setup,
        Err(reply) => return reply.send(request),
    };
    let mut sessions = lock(shared);
    sessions.retain(|_, entry| !entry.thread.is_finished());
    if sessions.len() >= shared.max_sessions {
        drop(sessions);
        let message = format!(
            "{} games are under way, the most this server keeps: try again when one expires",
            shared.max_sessions
        );
        return Reply::error(503, message).send(request);
    }
    let id = new_id(sessions.len());
    let (mailbox, letters) = mpsc::channel();
    let idle = shared.idle;
    let created = serde_json::json!({ "id": id });
    let stop = StopSlot::clone(&setup.stop);
    let thread = std::thread::spawn(move || table::run(setup, created, request, letters, idle));
    sessions.insert(
        id,
        Entry {
            mailbox,
            thread,
            stop,
        },
    );
}

/// A session id no one guesses by counting.
fn new_id(salt: usize) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(crate::play::clock_seed());
    hasher.write_usize(salt);
    format!("{:016x}", hasher.finish())
}

/// Reads `{"game", "players", "seed", "fen", "stream"}`: the game by name, a player per side
/// (a side not named: its policy if it has one, else a person).
fn setup(shared: &Shared, body: &serde_json::Value) -> Result<Setup, Reply> {
    let record = record_of(body)?;
    let name = match (
        body.get("game").and_then(serde_json::Value::as_str),
        &record,
    ) {
        (Some(name), _) => name.to_string(),
        (None, Some(record)) => record_game(record)?,
        (None, None) => {
            return Err(Reply::error(400, r#"name the game: {"game": "chess"}"#));
        }
    };
    let name = name.as_str();
    let (path, loaded) = load_with_path(shared, name)?;
    let definition = loaded.definition;
    let game_file = crate::record::game_file_tag(name, &path);
    if let Some(record) = &record {
        if body.get("fen").is_some_and(|fen| !fen.is_null()) {
            return Err(Reply::error(
                400,
                "a record gives its own start: send no fen with it",
            ));
        }
        crate::play::check_record(record, Path::new("the record"), &definition, &game_file)
            .map_err(|failure| Reply::error(422, table::failure_text(failure)))?;
    }
    let named = match body.get("players") {
        None | Some(serde_json::Value::Null) => serde_json::Map::new(),
        Some(serde_json::Value::Object(map)) => map.clone(),
        Some(_) => {
            return Err(Reply::error(
                400,
                r#"players is an object: {"white": "human", "black": "random"}"#,
            ))
        }
    };
    for side in named.keys() {
        if !definition.sides.iter().any(|s| &s.name == side) {
            let sides: Vec<&str> = definition.sides.iter().map(|s| s.name.as_str()).collect();
            return Err(Reply::error(
                400,
                format!(
                    "no side `{side}` in {}: its sides are {}",
                    definition.name,
                    sides.join(", ")
                ),
            ));
        }
    }
    let players = definition
        .sides
        .iter()
        .enumerate()
        .map(|(index, side)| {
            let has_policy = definition
                .policies
                .iter()
                .any(|p| p.side.0 as usize == index);
            let recorded = record
                .as_ref()
                .and_then(|r| r.tag(&crate::record::side_tag(&side.name)))
                .and_then(|text| text.parse::<PlayerSpec>().ok())
                .filter(|spec| *spec != PlayerSpec::Policy || has_policy);
            let spec = match named.get(&side.name) {
                None if has_policy => recorded.unwrap_or(PlayerSpec::Policy),
                None => recorded.unwrap_or(PlayerSpec::Human),
                Some(serde_json::Value::String(text)) => text
                    .parse::<PlayerSpec>()
                    .map_err(|error| Reply::error(400, format!("{}: {error}", side.name)))?,
                Some(_) => {
                    return Err(Reply::error(
                        400,
                        format!("{}: a player is a string", side.name),
                    ))
                }
            };
            table::check_budget(spec).map_err(|error| Reply::error(400, error))?;
            Ok(spec)
        })
        .collect::<Result<Vec<_>, Reply>>()?;
    let recorded_seed = record
        .as_ref()
        .and_then(|r| r.tag("Seed"))
        .and_then(|seed| seed.parse().ok());
    let seed = match body.get("seed") {
        None | Some(serde_json::Value::Null) => {
            recorded_seed.unwrap_or_else(crate::play::clock_seed)
        }
        Some(value) => value
            .as_u64()
            .ok_or_else(|| Reply::error(400, "the seed is a whole number from 0"))?,
    };
    let fen = match body.get("fen") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(fen)) => Some(fen.clone()),
        Some(_) => return Err(Reply::error(400, "the fen is a string")),
    };
    let streamed = match body.get("stream") {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Bool(streamed)) => *streamed,
        Some(_) => return Err(Reply::error(400, "stream is true or false")),
    };
    Ok(Setup {
        definition,
        fen,
        players,
        seed,
        game_file,
        record,
        streamed,
        stop: StopSlot::default(),
    })
}

/// `{"record": "..."}`'s record, parsed, if the body has one.
fn record_of(body: &serde_json::Value) -> Result<Option<Record>, Reply> {
    match body.get("record") {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) => crate::record::parse(text)
            .map(Some)
            .map_err(|error| Reply::error(422, format!("not a valid game record: {error}"))),
        Some(_) => Err(Reply::error(
            400,
            "the record is a string: the text of a PGN record",
        )),
    }
}

/// The game a record names in its `GameFile` tag, by its file name: a record never makes the
/// server read a path it names.
fn record_game(record: &Record) -> Result<String, Reply> {
    let file = record.tag(crate::record::GAME_FILE_TAG).ok_or_else(|| {
        Reply::error(
            422,
            format!(
                "the record has no {} tag: name the game, {{\"game\": \"chess\", \"record\": ...}}",
                crate::record::GAME_FILE_TAG
            ),
        )
    })?;
    Path::new(file)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .ok_or_else(|| {
            Reply::error(
                422,
                format!("the record's game file `{file}` names no game"),
            )
        })
}
