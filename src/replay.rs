//! `variant replay`: a saved game, position by position.
//!
//! By default it prints the start, then each move and the board after it, then the result, so
//! that a record can be read, checked or piped. With `--step` it waits for a command after each
//! position: Enter (or `n`) for the next move, `b` for the one before, `f` and `l` for the first
//! and the last, a number to go to the position after that move, `q` to stop. The record is
//! checked first, as `play --load` checks it: the game file it names, its definition hash, every
//! move.

use crate::input::{self, Line};
use crate::play::{check_record, game_of_record, replay_record};
use crate::raster::Rasteriser;
use crate::record::{self, Ending};
use crate::{board, catalog, emit, svg, Failure};
use std::path::Path;
use std::process::ExitCode;

pub fn replay(
    file: &Path,
    game: Option<&str>,
    color: bool,
    step: bool,
    pictures: Option<(&Path, Format)>,
) -> Result<ExitCode, Failure> {
    let record = record::read(file).map_err(Failure::Message)?;
    let game = match game {
        Some(game) => game.to_string(),
        None => game_of_record(&record, file).ok_or_else(|| {
            Failure::Message(format!(
                "`{}` names no game file (no {} tag): give it with --game",
                file.display(),
                record::GAME_FILE_TAG
            ))
        })?,
    };
    let path = catalog::resolve(&game)?;
    let definition = catalog::load(&game)?.definition;
    let game_file = record::game_file_tag(&game, &path);
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
        "{}: {} ({} moves)\n",
        definition.name,
        players.join(" against "),
        moves.len(),
    ))?;
    if step {
        let start = record.tag("FEN");
        let stepper = Stepper {
            definition: &definition,
            start,
            moves: &moves,
            sans: &sans,
            color,
        };
        stepper.run(&mut std::io::stdin().lock())?;
        let ending = match record.tag("Termination") {
            Some(text) if text.contains("resigns") => text.to_string(),
            _ => Ending::of(finished.as_ref()).description(&definition),
        };
        emit(&format!("Result: {ending}\n"))?;
        return Ok(ExitCode::SUCCESS);
    }
    let pictures = pictures
        .map(|(dir, format)| Pictures::new(dir, format))
        .transpose()?;
    let picture = |session: &dyn variant_interpreter::Session, ply: usize| {
        pictures
            .as_ref()
            .map_or(Ok(()), |pictures| pictures.write(session, ply))
    };
    emit(&format!(
        "\nStart:\n{}",
        board::picture(session.as_ref(), color)
    ))?;
    picture(session.as_ref(), 0)?;
    for (index, (uci, san)) in moves.iter().zip(&sans).enumerate() {
        let side = session.side_to_move();
        session.play(uci)?;
        picture(session.as_ref(), index + 1)?;
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
    if let Some(pictures) = &pictures {
        emit(&format!(
            "Pictures: {} {} files in {}\n",
            moves.len() + 1,
            if pictures.raster.is_some() {
                "PNG"
            } else {
                "SVG"
            },
            pictures.dir.display()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The kind of picture `replay` writes per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `--svg DIR`: `000.svg`, ...
    Svg,
    /// `--png DIR`: `000.png`, ...
    Png,
}

/// `replay --svg DIR` or `--png DIR`: one picture per position, named by its ply (`000.svg`
/// is the start).
struct Pictures {
    dir: std::path::PathBuf,
    /// For PNG pictures: the rasteriser, its fonts read once for every position.
    raster: Option<Rasteriser>,
}

impl Pictures {
    /// Creates the folder if needed.
    fn new(dir: &Path, format: Format) -> Result<Self, Failure> {
        std::fs::create_dir_all(dir).map_err(|error| {
            Failure::Message(format!("cannot create `{}`: {error}", dir.display()))
        })?;
        Ok(Pictures {
            dir: dir.to_path_buf(),
            raster: (format == Format::Png).then(Rasteriser::new),
        })
    }

    fn write(&self, session: &dyn variant_interpreter::Session, ply: usize) -> Result<(), Failure> {
        let picture = svg::render(session, svg::Options::default());
        match &self.raster {
            Some(raster) => raster.write(&self.dir.join(format!("{ply:03}.png")), &picture),
            None => svg::write(&self.dir.join(format!("{ply:03}.svg")), &picture),
        }
    }
}

/// `replay --step`: one position at a time, moving as the reader asks.
struct Stepper<'a> {
    definition: &'a variant_dsl::Definition,
    start: Option<&'a str>,
    moves: &'a [String],
    sans: &'a [String],
    color: bool,
}

impl Stepper<'_> {
    /// Shows the position after `ply` moves (0: the start).
    fn show(&self, ply: usize) -> Result<(), Failure> {
        let mut session = variant_interpreter::open(self.definition, self.start)?;
        let mut mover = String::new();
        for uci in &self.moves[..ply] {
            mover = session.side_to_move();
            session.play(uci)?;
        }
        let heading = match ply {
            0 => format!("Start (0 of {} moves)", self.moves.len()),
            _ => format!(
                "{ply} of {}: {mover} {} ({})",
                self.moves.len(),
                self.sans[ply - 1],
                self.moves[ply - 1]
            ),
        };
        emit(&format!(
            "\n{heading}\n{}",
            board::picture(session.as_ref(), self.color)
        ))?;
        Ok(())
    }

    fn run(&self, input: &mut impl std::io::BufRead) -> Result<(), Failure> {
        let last = self.moves.len();
        let mut ply = 0;
        self.show(ply)?;
        loop {
            emit("[Enter] next, b back, f first, l last, N go to move N, q quit> ")?;
            let line = match input::read_line(input) {
                Ok(Line::Text(line)) => line,
                Ok(Line::TooLong) => {
                    emit(&input::too_long_message())?;
                    continue;
                }
                Ok(Line::End) | Err(_) => {
                    emit("\n")?;
                    return Ok(());
                }
            };
            let wanted = match line.as_str() {
                "" | "n" | "next" => (ply < last).then_some(ply + 1),
                "b" | "back" => ply.checked_sub(1),
                "f" | "first" => Some(0),
                "l" | "last" => Some(last),
                "q" | "quit" => return Ok(()),
                other => match other.parse::<usize>() {
                    Ok(n) if n <= last => Some(n),
                    _ => {
                        emit(&format!(
                            "`{other}`: type Enter, b, f, l, q or a move number from 0 to {last}\n"
                        ))?;
                        continue;
                    }
                },
            };
            match wanted {
                Some(next) => {
                    ply = next;
                    self.show(ply)?;
                }
                None if ply == last => emit("that was the last move\n")?,
                None => emit("this is the start\n")?,
            }
        }
    }
}
