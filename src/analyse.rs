//! `variant analyse`: the search's evaluation and best lines for a position, printed as the
//! search deepens, in short algebraic notation and in the game's own.
//!
//! The search is the one the `search` player and `variant uci` use
//! ([`variant_interpreter::ai::analysis::Root`]), so what it prints is what they think. The
//! lines' moves are written in SAN by playing them on the session and taking them back.

use crate::{emit, Failure};
use std::process::ExitCode;
use std::time::Duration;
use variant_interpreter::ai::analysis::Root;
use variant_interpreter::ai::search::{Control, Limits, Report, Score, TranspositionTable};
use variant_interpreter::Session;

/// The search's time when neither a depth nor a time is given.
const DEFAULT_TIME: Duration = Duration::from_secs(1);
/// The transposition table's size, in megabytes.
const TABLE_MB: usize = 64;

/// What `variant analyse` was asked.
pub struct AnalyseArgs {
    pub game: String,
    pub fen: Option<String>,
    pub strict: bool,
    pub play: Option<String>,
    pub depth: Option<u32>,
    pub time: Option<f64>,
    pub lines: usize,
    /// Threads that search (Lazy SMP, as UCI's `Threads`).
    pub threads: usize,
    pub json: bool,
}

/// Runs the search and prints a report per completed depth, then the best move.
pub fn analyse(args: AnalyseArgs) -> Result<ExitCode, Failure> {
    let mut session = crate::open(
        &args.game,
        args.fen.as_deref(),
        args.strict,
        args.play.as_deref(),
    )?;
    if let Some(result) = session.outcome() {
        return Err(Failure::Message(format!(
            "the game is over ({}): there is nothing to analyse",
            result.description()
        )));
    }
    let time = match (args.depth, args.time) {
        (Some(_), None) => None,
        (_, Some(seconds)) if seconds > 0.0 && seconds <= 3600.0 => {
            Some(Duration::from_secs_f64(seconds))
        }
        (_, Some(seconds)) => {
            return Err(Failure::Message(format!(
                "--time {seconds}: the time must be more than 0 and at most 3600 seconds"
            )))
        }
        (None, None) => Some(DEFAULT_TIME),
    };
    let limits = Limits {
        depth: args.depth.unwrap_or(u32::MAX),
        lines: args.lines,
        stop_at_mate: false,
        threads: args.threads,
        ..Limits::default()
    };
    let root = Root::of(session.as_ref());
    let mut table = TranspositionTable::with_megabytes(TABLE_MB);
    let control = Control::new();
    control.set_deadlines(time, time);
    let mut printed = Ok(());
    let mut print = |report: &Report| {
        if printed.is_ok() {
            let text = if args.json {
                report_json(session.as_mut(), report)
            } else {
                report_text(session.as_mut(), report)
            };
            printed = emit(&text);
        }
    };
    let finished = root.search(&mut table, &limits, &control, Some(&mut print));
    printed?;
    let finished = finished.expect("the game is not over");
    let san = session.san(&finished.best).unwrap_or(finished.best.clone());
    if args.json {
        let value = serde_json::json!({
            "bestmove": finished.best,
            "san": san,
            "ponder": finished.ponder,
            "depth": finished.depth,
            "score": score_json(finished.score),
            "nodes": finished.nodes,
        });
        emit(&format!("{value}\n"))?;
    } else {
        emit(&format!(
            "best move: {san} ({}), {} at depth {}\n",
            finished.best,
            describe(finished.score, session.as_ref()),
            finished.depth
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The moves of a line in SAN, played from the session's position and taken back.
pub(crate) fn san_line(session: &mut dyn Session, moves: &[String]) -> Vec<String> {
    let mut san = Vec::with_capacity(moves.len());
    for mv in moves {
        let Some(text) = session.san(mv) else { break };
        if session.play(mv).is_err() {
            break;
        }
        san.push(text);
    }
    for _ in 0..san.len() {
        session.undo();
    }
    san
}

/// `+0.35 for white`, `white mates in 3`.
fn describe(score: Score, session: &dyn Session) -> String {
    let side = session.side_to_move();
    match score {
        Score::Centipawns(_) => format!("{score} for {side}"),
        Score::Mate(moves) if moves > 0 => format!("{side} mates in {moves}"),
        Score::Mate(moves) => format!("{side} is mated in {}", -moves),
    }
}

fn report_text(session: &mut dyn Session, report: &Report) -> String {
    let mut text = format!(
        "depth {} (selective {}), {} nodes, {:.2} s, {} nodes/s\n",
        report.depth,
        report.seldepth,
        report.nodes,
        report.time.as_secs_f64(),
        report.nps()
    );
    for (index, line) in report.lines.iter().enumerate() {
        let san = san_line(session, &line.moves);
        let label = match line.score {
            Score::Centipawns(_) => line.score.to_string(),
            Score::Mate(_) => format!("({})", line.score),
        };
        text.push_str(&format!(
            "  {}. {label}  {}  [{}]\n",
            index + 1,
            san.join(" "),
            line.moves.join(" ")
        ));
    }
    text
}

pub(crate) fn score_json(score: Score) -> serde_json::Value {
    match score {
        Score::Centipawns(cp) => serde_json::json!({ "cp": cp }),
        Score::Mate(moves) => serde_json::json!({ "mate": moves }),
    }
}

fn report_json(session: &mut dyn Session, report: &Report) -> String {
    let lines: Vec<serde_json::Value> = report
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            serde_json::json!({
                "multipv": index + 1,
                "score": score_json(line.score),
                "pv": line.moves,
                "san": san_line(session, &line.moves),
            })
        })
        .collect();
    let value = serde_json::json!({
        "depth": report.depth,
        "seldepth": report.seldepth,
        "nodes": report.nodes,
        "nps": report.nps(),
        "time_ms": report.time.as_millis() as u64,
        "lines": lines,
    });
    format!("{value}\n")
}
