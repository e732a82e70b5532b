//! Talking to `variant uci` and `variant xboard` line by line, with timeouts.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running engine (`variant uci`, `variant xboard`) and the lines it has printed.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    /// The lines printed, as they come.
    pub lines: Receiver<String>,
}

/// How long a test waits for an answer that should come at once.
pub const PATIENCE: Duration = Duration::from_secs(20);

impl Engine {
    /// Starts `variant ARGS...` from the repository root.
    pub fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_variant"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().expect("flush");
    }

    /// The lines printed up to and including the first for which `done` holds; panics with
    /// what was printed if none comes within `within`.
    pub fn until(&mut self, within: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no awaited line within {within:?}; the engine printed {seen:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine ended; it printed {seen:#?}")
                }
            }
        }
    }

    /// Sends `isready` and waits for `readyok`; returns the lines before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(PATIENCE, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends CECP's `ping` and waits for its `pong`; returns the lines before it.
    pub fn ping(&mut self) -> Vec<String> {
        self.send("ping 29");
        let mut lines = self.until(PATIENCE, |l| l == "pong 29");
        lines.pop();
        lines
    }

    /// Sends `quit` and checks that the engine ends with success.
    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "{status}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
