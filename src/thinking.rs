//! A search on its own thread, for the engine protocols.
//!
//! Why: a client may speak while the engine thinks (`isready`, `stop`, `?`, `ping`) and must be
//! answered at once, so the protocol's reader keeps reading while the search runs elsewhere.
//! The search gets a detached position ([`Root`]) and the transposition table, reports each
//! depth through a callback, and gives the table back when it is joined. A search may be held
//! (UCI's `go infinite` and `go ponder`): finished early, it waits to be released or stopped
//! before its end is reported, since the client expects no move before then.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use variant_interpreter::ai::analysis::Root;
use variant_interpreter::ai::search::{Control, Finished, Limits, Report, TranspositionTable};

/// Deadlines of a search, from its start: past the first no new depth begins, at the second it
/// stops.
pub type Deadlines = (Option<Duration>, Option<Duration>);

/// A search under way.
pub struct Thinking {
    control: Arc<Control>,
    hold: Arc<AtomicBool>,
    /// Set just before the end is reported: a client may send its next command as soon as it
    /// reads it.
    reported: Arc<AtomicBool>,
    thread: JoinHandle<Ended>,
}

/// What a search gives back when joined.
pub struct Ended {
    /// The transposition table, for the next search.
    pub table: TranspositionTable,
    /// The result (`None` when the game was over or the search failed).
    pub finished: Option<Finished>,
}

impl Thinking {
    /// Starts searching `root` within `limits` and `deadlines` (not started while `held`);
    /// `report` is called after each completed depth and `end` once, with the result (`None`
    /// when the game is over or the search failed).
    pub fn start(
        root: Root,
        mut table: TranspositionTable,
        limits: Limits,
        deadlines: Deadlines,
        held: bool,
        mut report: impl FnMut(&Report) + Send + 'static,
        end: impl FnOnce(Option<&Finished>) + Send + 'static,
    ) -> Thinking {
        let control = Arc::new(Control::new());
        if !held {
            control.set_deadlines(deadlines.0, deadlines.1);
        }
        let hold = Arc::new(AtomicBool::new(held));
        let reported = Arc::new(AtomicBool::new(false));
        let (thread_control, thread_hold, thread_reported) = (
            Arc::clone(&control),
            Arc::clone(&hold),
            Arc::clone(&reported),
        );
        let thread = std::thread::spawn(move || {
            // A failure of the search must still be reported: the client waits for a move.
            let searched = std::panic::catch_unwind(AssertUnwindSafe(|| {
                root.search(&mut table, &limits, &thread_control, Some(&mut report))
            }));
            while thread_hold.load(Ordering::Relaxed) && !thread_control.is_stopped() {
                std::thread::sleep(Duration::from_millis(2));
            }
            let finished = searched.ok().flatten();
            thread_reported.store(true, Ordering::Release);
            end(finished.as_ref());
            Ended { table, finished }
        });
        Thinking {
            control,
            hold,
            reported,
            thread,
        }
    }

    /// Whether the end has been (or is being) reported.
    pub fn has_reported(&self) -> bool {
        self.reported.load(Ordering::Acquire)
    }

    /// Releases a held search with deadlines counted from now (UCI's `ponderhit`).
    pub fn release(&self, deadlines: Deadlines) {
        let now = self.control.elapsed();
        self.control
            .set_deadlines(deadlines.0.map(|d| now + d), deadlines.1.map(|d| now + d));
        self.hold.store(false, Ordering::Relaxed);
    }

    /// Stops the search at once; its end is reported as usual.
    pub fn stop(&self) {
        self.control.stop();
        self.hold.store(false, Ordering::Relaxed);
    }

    /// Waits for the search to end and report (stopping it first when `stop`); the table and
    /// the result back, unless the thread failed.
    pub fn join(self, stop: bool) -> Option<Ended> {
        if stop {
            self.stop();
        }
        self.thread.join().ok()
    }
}
