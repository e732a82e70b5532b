//! The `name:value` fields after the move number, read and written: the state of games with
//! prisons, phases, turns of several actions, a turn order that names a side more than once
//! (`turn:`) and numbered pieces (`numbers:`).

use crate::definition::{Definition, Setup, Square};
use crate::fen::board::MAX_IN_HAND;
use crate::fen::error::{error, side_name, FenError};
use crate::fen::fields::Field;
use crate::fen::letters::{letter_for, piece_of_letter};

/// Where the side to move stands in a turn order that names it more than once (`turn:`, 1 for
/// the first place); elsewhere the place follows from the side.
pub(super) fn resolve_turn(
    def: &Definition,
    setup: &mut Setup,
    text: &str,
) -> Result<(), FenError> {
    let places: Vec<usize> = (0..def.turn_order.len())
        .filter(|&i| def.turn_order[i] == setup.side_to_move)
        .collect();
    match setup.turn {
        Some(place) if def.turn_order.get(place) != Some(&setup.side_to_move) => Err(error(
            0,
            text.len(),
            format!(
                "`turn:{}` is not a turn of {}",
                place + 1,
                side_name(def, setup.side_to_move)
            ),
        )),
        None if places.len() > 1 && setup.phase.is_none() => {
            let listed: Vec<String> = places.iter().map(|p| format!("turn:{}", p + 1)).collect();
            Err(error(
                0,
                text.len(),
                format!(
                    "{} moves more than once in the turn order: say which turn with {}",
                    side_name(def, setup.side_to_move),
                    listed.join(" or ")
                ),
            ))
        }
        _ => Ok(()),
    }
}

/// The numbers of numbered pieces (`numbers`): those given in `numbers:`, and every other piece
/// of a numbered side on a numbered starting square keeps that square's number.
pub(super) fn resolve_numbers(
    def: &Definition,
    setup: &mut Setup,
    text: &str,
) -> Result<(), FenError> {
    for &(square, number) in &setup.numbers {
        let side = setup
            .board
            .iter()
            .find(|p| p.square == square)
            .map(|p| p.side);
        let numbered =
            side.is_some_and(|side| def.sides[side.0 as usize].numbers.len() >= number as usize);
        if !numbered {
            return Err(error(
                0,
                text.len(),
                format!("`numbers:` gives {square} the number {number}, but no piece of a side with that number stands there"),
            ));
        }
    }
    for (side_index, side) in def.sides.iter().enumerate() {
        for (index, &home) in side.numbers.iter().enumerate() {
            let number = index as u8 + 1;
            let taken = setup.numbers.iter().any(|&(sq, n)| {
                sq == home
                    || (n == number
                        && setup
                            .board
                            .iter()
                            .any(|p| p.square == sq && p.side.0 as usize == side_index))
            });
            let here = setup
                .board
                .iter()
                .any(|p| p.square == home && p.side.0 as usize == side_index);
            if here && !taken {
                setup.numbers.push((home, number));
            }
        }
    }
    setup
        .numbers
        .sort_by_key(|&(square, number)| (number, square));
    Ok(())
}

/// One `name:value` field after the move number: the state of games with prisons, phases and
/// turns of several actions.
pub(super) fn parse_extension(
    def: &Definition,
    field: Field<'_>,
    setup: &mut Setup,
) -> Result<(), FenError> {
    let (name, value) = field.text.split_once(':').unwrap_or((field.text, ""));
    let value_offset = field.offset + name.len() + 1;
    let whole = || error(field.offset, field.text.len(), "");
    let small = |what: &str| -> Result<u8, FenError> {
        value.parse::<u8>().map_err(|_| FenError {
            message: format!("`{value}` is not a number of {what} (0 to 255)"),
            ..whole()
        })
    };
    match name {
        "phase" => {
            let index = def
                .phases
                .iter()
                .position(|phase| phase.name == value)
                .ok_or_else(|| FenError {
                    message: format!("this game has no phase `{value}`"),
                    ..whole()
                })?;
            setup.phase = Some(index);
        }
        "prison" => {
            for (index, letter) in value.char_indices() {
                let offset = value_offset + index;
                if !letter.is_ascii_alphabetic() {
                    return Err(error(offset, letter.len_utf8(), format!("`{letter}` is not a piece letter")));
                }
                let (side, piece) = piece_of_letter(def, letter, offset)?;
                match setup.prisons.iter_mut().find(|(s, p, _)| *s == side && *p == piece) {
                    Some((_, _, count)) if *count >= MAX_IN_HAND => {
                        return Err(error(offset, 1, format!("more than {MAX_IN_HAND} `{letter}` in prison")));
                    }
                    Some((_, _, count)) => *count += 1,
                    None => setup.prisons.push((side, piece, 1)),
                }
            }
            setup.prisons.sort();
        }
        "turn" => {
            let slot = value.parse::<usize>().ok().filter(|&n| n >= 1 && n <= def.turn_order.len());
            let slot = slot.ok_or_else(|| FenError {
                message: format!(
                    "`{value}` is not a place in the turn order (1 to {})",
                    def.turn_order.len()
                ),
                ..whole()
            })?;
            setup.turn = Some(slot - 1);
        }
        "numbers" => {
            let mut offset = value_offset;
            for entry in value.split(',') {
                let parsed = entry.split_once('=').and_then(|(square, number)| {
                    let square = Square::parse(square).filter(|&sq| def.board.contains(sq))?;
                    Some((square, number.parse::<u8>().ok().filter(|&n| n > 0)?))
                });
                let Some(numbered) = parsed else {
                    return Err(error(
                        offset,
                        entry.len(),
                        format!("`{entry}` is not a numbered piece: write a square, `=` and a number (`e4=5`)"),
                    ));
                };
                if setup.numbers.iter().any(|&(sq, n)| sq == numbered.0 || n == numbered.1) {
                    return Err(error(offset, entry.len(), "a square or a number given twice"));
                }
                setup.numbers.push(numbered);
                offset += entry.len() + 1;
            }
        }
        "actions" => setup.progress.actions = small("actions")?,
        "drops" => setup.progress.drops = small("drops")?,
        "longest" => setup.progress.longest = Some(small("actions")?),
        "start" => {
            setup.progress.start = Some(value.parse::<u32>().map_err(|_| FenError {
                message: format!("`{value}` is not a number"),
                ..whole()
            })?)
        }
        "acted" => {
            let mut offset = value_offset;
            for name in value.split(',') {
                let square = Square::parse(name)
                    .filter(|&square| def.board.contains(square))
                    .ok_or_else(|| error(offset, name.len(), format!("`{name}` is not a square of the board")))?;
                setup.progress.acted.push(square);
                offset += name.len() + 1;
            }
        }
        "last" => {
            let mut offset = value_offset;
            for drop in value.split(',') {
                let parsed = drop.split_once('@').and_then(|(letter, square)| {
                    let mut letters = letter.chars();
                    let (Some(letter), None) = (letters.next(), letters.next()) else {
                        return None;
                    };
                    let square = Square::parse(square).filter(|&sq| def.board.contains(sq))?;
                    Some((letter, square))
                });
                let Some((letter, square)) = parsed else {
                    return Err(error(
                        offset,
                        drop.len(),
                        format!("`{drop}` is not a last drop: write the piece's letter in its side's case, `@` and a square (`Q@d4`)"),
                    ));
                };
                let (side, piece) = piece_of_letter(def, letter, offset)?;
                if setup.last_drops.iter().any(|&(s, _, _)| s == side) {
                    return Err(error(offset, drop.len(), "two last drops of the same side"));
                }
                setup.last_drops.push((side, piece, square));
                offset += drop.len() + 1;
            }
            setup.last_drops.sort();
        }
        _ => {
            return Err(error(
                field.offset,
                name.len(),
                format!("unknown FEN field `{name}`: expected phase, turn, numbers, prison, actions, drops, acted, longest, start or last"),
            ))
        }
    }
    Ok(())
}

/// The `name:value` fields after the move number, in a fixed order; none for games without
/// prisons, phases or turns of several actions.
pub(super) fn extensions(def: &Definition, setup: &Setup) -> Vec<String> {
    let mut fields = Vec::new();
    if let Some(phase) = setup.phase.and_then(|index| def.phases.get(index)) {
        fields.push(format!("phase:{}", phase.name));
    }
    let repeated = def
        .turn_order
        .iter()
        .filter(|&&side| side == setup.side_to_move)
        .count()
        > 1;
    if let Some(turn) = setup.turn.filter(|_| repeated && setup.phase.is_none()) {
        fields.push(format!("turn:{}", turn + 1));
    }
    let moved: Vec<String> = setup
        .numbers
        .iter()
        .filter(|&&(square, number)| {
            let side = setup
                .board
                .iter()
                .find(|p| p.square == square)
                .map(|p| p.side);
            side.and_then(|side| def.sides[side.0 as usize].numbers.get(number as usize - 1))
                != Some(&square)
        })
        .map(|(square, number)| format!("{square}={number}"))
        .collect();
    if !moved.is_empty() {
        fields.push(format!("numbers:{}", moved.join(",")));
    }
    if !setup.prisons.is_empty() {
        let letters: String = setup
            .prisons
            .iter()
            .flat_map(|&(side, piece, count)| {
                std::iter::repeat_n(letter_for(def, side, piece), count as usize)
            })
            .collect();
        fields.push(format!("prison:{letters}"));
    }
    if !setup.last_drops.is_empty() && def.reads_last_drop() {
        let drops: Vec<String> = setup
            .last_drops
            .iter()
            .map(|&(side, piece, square)| format!("{}@{square}", letter_for(def, side, piece)))
            .collect();
        fields.push(format!("last:{}", drops.join(",")));
    }
    let progress = &setup.progress;
    if progress.actions > 0 {
        fields.push(format!("actions:{}", progress.actions));
    }
    if progress.drops > 0 {
        fields.push(format!("drops:{}", progress.drops));
    }
    if !progress.acted.is_empty() {
        let squares: Vec<String> = progress.acted.iter().map(Square::to_string).collect();
        fields.push(format!("acted:{}", squares.join(",")));
    }
    if progress.actions > 0 {
        if let Some(longest) = progress.longest.filter(|_| def.turn.maximal) {
            fields.push(format!("longest:{longest}"));
        }
        if let Some(start) = progress.start.filter(|&bits| bits != 0) {
            fields.push(format!("start:{start}"));
        }
    }
    fields
}
