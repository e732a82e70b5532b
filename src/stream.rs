//! The computers' moves of a served game as server-sent events, with the search's progress, and
//! the stop that makes a search move now.
//!
//! Why server-sent events: the stream is one-way (the server reports, the page listens), every
//! browser reads it with `EventSource` and a script reads it line by line, and it is a plain HTTP
//! response, which tiny_http lets us write straight to the connection (`into_writer`), flushed
//! after each event so that each depth is seen when it completes. It is sent in chunks, one per
//! event, and ends with the last chunk, so a client knows where it ends (`curl` returns) and
//! the connection may serve the next request. A WebSocket would need a
//! framing crate for nothing the page sends back: the stop is an ordinary request.
//!
//! Why a search thread and a [`StopSlot`]: a `search:` player's search runs on its own thread
//! from a detached [`Root`] and reports each depth; the game's thread writes the reports out as
//! they come. The search's [`Control`] is left in the slot the server shares with the game, so
//! that `POST /api/sessions/ID/stop` reaches it while the game's thread is busy streaming.
//! An `mcts:` player thinks on the game's thread, watched ([`watched`]): it reports its
//! playouts and its best move so far a few times a second, each report written out at once,
//! and the same slot's [`Control`] stops it. The other players (`random`, `policy`) have no
//! progress to report and no stop: they choose as usual and their move is streamed.

use crate::analyse::{san_line, score_json};
use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use variant_interpreter::ai::analysis::Root;
use variant_interpreter::ai::search::{Control, Finished, Limits, Report, TranspositionTable};
use variant_interpreter::ai::{Agent, Choice, Progress, Watch};
use variant_interpreter::{Budget, Session};

/// Megabytes of the transposition table of one streamed search (dropped after the move).
const TABLE_MB: usize = 16;

/// Where a game leaves the control of the search under way, if any.
pub type StopSlot = Arc<Mutex<Option<Arc<Control>>>>;

/// Stops the search under way in `slot`; whether there was one.
pub fn stop(slot: &StopSlot) -> bool {
    let held = slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    match held.as_ref() {
        Some(control) => {
            control.stop();
            true
        }
        None => false,
    }
}

/// An open event stream: the connection of the request that asked for it. Dropping it ends
/// the stream.
pub struct Events {
    out: Box<dyn Write + Send>,
    /// False once a write failed (the client went away).
    open: bool,
}

impl Events {
    /// Answers `request` with the head of an event stream, sent in chunks.
    pub fn start(request: tiny_http::Request) -> Events {
        let mut out = request.into_writer();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                    Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n";
        let open = out.write_all(head.as_bytes()).is_ok() && out.flush().is_ok();
        Events { out, open }
    }

    /// Sends one event (`event: NAME`, `data: JSON`) as one chunk; whether the client still
    /// listens.
    pub fn send(&mut self, name: &str, data: &serde_json::Value) -> bool {
        let text = format!("event: {name}\ndata: {data}\n\n");
        self.chunk(text.as_bytes())
    }

    /// Writes one chunk (the empty one ends the response) and flushes it.
    fn chunk(&mut self, bytes: &[u8]) -> bool {
        if self.open {
            let head = format!("{:x}\r\n", bytes.len());
            self.open = self.out.write_all(head.as_bytes()).is_ok()
                && self.out.write_all(bytes).is_ok()
                && self.out.write_all(b"\r\n").is_ok()
                && self.out.flush().is_ok();
        }
        self.open
    }
}

impl Drop for Events {
    /// Ends the stream with the last, empty chunk.
    fn drop(&mut self) {
        self.chunk(b"");
    }
}

/// The limits of a `search:` player's move, as the player itself sets them: a depth, or a
/// time (no new depth past its half).
fn limits(budget: Budget, control: &Control) -> Limits {
    let mut limits = Limits::default();
    match budget {
        Budget::Count(depth) => {
            limits.depth = depth.min(u64::from(variant_interpreter::ai::search::MAX_DEPTH)) as u32
        }
        Budget::Time(t) => control.set_deadlines(Some(t / 2), Some(t)),
    }
    limits
}

/// Searches the side to move's move within `budget` on its own thread, sending a `progress`
/// event after each depth; [`stop`] on `slot` (or the client leaving) makes it move now.
/// `None` when the game is over or the search failed.
pub fn search(
    session: &mut dyn Session,
    budget: Budget,
    slot: &StopSlot,
    events: &mut Events,
) -> Option<Finished> {
    let root = Root::of(session);
    let control = Arc::new(Control::new());
    let limits = limits(budget, &control);
    *slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::clone(&control));
    let (reports, received) = mpsc::channel::<Report>();
    let searching = Arc::clone(&control);
    let thread = std::thread::spawn(move || {
        let mut table = TranspositionTable::with_megabytes(TABLE_MB);
        let mut report = |report: &Report| {
            let _ = reports.send(report.clone());
        };
        root.search(&mut table, &limits, &searching, Some(&mut report))
    });
    let side = session.side_to_move();
    for report in received {
        if !events.send("progress", &progress(session, &side, &report)) {
            control.stop();
        }
    }
    let finished = thread.join().ok().flatten();
    *slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    finished
}

/// A `progress` event's data: the side, the depth, the evaluation, the nodes and the best line
/// (in the game's notation and in SAN).
fn progress(session: &mut dyn Session, side: &str, report: &Report) -> serde_json::Value {
    let best = report.lines.first();
    let pv: Vec<String> = best.map(|line| line.moves.clone()).unwrap_or_default();
    serde_json::json!({
        "side": side,
        "depth": report.depth,
        "nodes": report.nodes,
        "time_ms": report.time.as_millis() as u64,
        "score": best.map(|line| score_json(line.score)),
        "eval": best.map(|line| line.score.to_string()),
        "san": san_line(session, &pv),
        "pv": pv,
    })
}

/// Lets `agent` choose the side to move's move, watched: a `progress` event after each of its
/// reports; [`stop`] on `slot` (or the client leaving) makes it move now.
pub fn watched(
    agent: &mut dyn Agent,
    session: &dyn Session,
    slot: &StopSlot,
    events: &mut Events,
) -> Option<Choice> {
    let control = Arc::new(Control::new());
    *slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::clone(&control));
    let side = session.side_to_move();
    let mut report = |progress: &Progress| {
        if !events.send("progress", &watched_progress(session, &side, progress)) {
            control.stop();
        }
    };
    let choice = agent.choose_watched(
        session,
        &mut Watch {
            control: &control,
            report: &mut report,
        },
    );
    *slot
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    choice
}

/// A watched player's `progress` event's data: the side, the playouts and time so far, the
/// move it would play now (in the game's notation and in SAN) and its expected result for the
/// side (0 to 1).
fn watched_progress(session: &dyn Session, side: &str, progress: &Progress) -> serde_json::Value {
    serde_json::json!({
        "side": side,
        "playouts": progress.work,
        "time_ms": progress.time.as_millis() as u64,
        "best": progress.best,
        "san": progress.best.as_deref().and_then(|mv| session.san(mv)),
        "expected": progress.expected,
    })
}
