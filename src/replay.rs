//! `variant replay`: a saved game, position by position.
//!
//! Non-interactive: it prints the start, then each move and the board after it, then the
//! result, so that a record can be read, checked or piped. The record is checked first, as
//! `play --load` checks it: the game file it names, its definition hash, every move.

use crate::play::{check_record, game_of_record, replay_record};
use crate::record::{self, Ending};
use crate::{board, catalog, emit, Failure};
use std::path::Path;
use std::process::ExitCode;

pub fn replay(file: &Path, game: Option<&str>, color: bool) -> Result<ExitCode, Failure> {
    let record = record::read(file).map_err(Failure::Message)?;
    let game = match game {
        Some(game) => game.to_string(),
        None => game_of_record(&record).ok_or_else(|| {
            Failure::Message(format!(
                "`{}` names no game file (no {} tag): give it with --game",
                file.display(),
                record::GAME_FILE_TAG
            ))
        })?,
    };
    let path = catalog::resolve(&game)?;
    let definition = catalog::load(&game)?.definition;
    let game_file = path
        .file_name()
        .map_or_else(|| game.clone(), |f| f.to_string_lossy().into_owned());
    check_record(&record, file, &definition, &game_file)?;
    let finished = replay_record(&record, file, &definition)?;
    let moves = finished.history();
    let sans = finished.history_san();
    let mut session = variant_interpreter::open(&definition, record.tag("FEN"))?;
    let players: Vec<String> = definition
        .sides
        .iter()
        .map(|side| {
            let player = record.tag(&record::side_tag(&side.name)).unwrap_or("?");
            format!("{} {player}", side.name)
        })
        .collect();
    emit(&format!(
        "{}: {} ({} moves)\n\nStart:\n{}",
        definition.name,
        players.join(" against "),
        moves.len(),
        board::picture(session.as_ref(), color)
    ))?;
    for (index, (uci, san)) in moves.iter().zip(&sans).enumerate() {
        let side = session.side_to_move();
        session.play(uci)?;
        emit(&format!(
            "\n{}. {side} {san} ({uci})\n{}",
            index + 1,
            board::picture(session.as_ref(), color)
        ))?;
    }
    let ending = match record.tag("Termination") {
        Some(text) if text.contains("resigns") => text.to_string(),
        _ => Ending::of(session.as_ref()).description(&definition),
    };
    emit(&format!("\nFEN: {}\nResult: {ending}\n", session.fen()))?;
    Ok(ExitCode::SUCCESS)
}
