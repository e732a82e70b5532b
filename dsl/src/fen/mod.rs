//! FEN: positions as one line of text, extended the way Fairy-Stockfish extends it.
//!
//! `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`: ranks from the top down,
//! separated by `/`; a count of empty squares (several digits on wide boards: `10`); `*` for a
//! hole (holes are always written `*`, never counted); upper-case letters for the first side,
//! lower-case for the second; pieces in hand in `[...]` right after the board; then the side
//! to move ([`SideDef::fen_letter`]), castling rights ([`CastlingDef::fen_letter`] or `-`), the
//! en-passant square or `-`, and the optional halfmove clock and move number (default `0 1`).
//! Other engines' forms are read too: Fairy-Stockfish leaves out the castling field of a game
//! without castling and the en-passant field of a game without en passant (shogi's `... w 0
//! 1`), and writes an empty hand `[-]`. Positions are always written in the full form.
//!
//! The same parser serves the `setup` statement (its [`FenError`] becomes a diagnostic inside
//! the string) and the command line's `--fen`. It also refuses what the game could not play
//! from: more than [`MAX_IN_HAND`] pieces of one type in a hand, pieces in hand in a game
//! without drops, and (for `--fen`) a side to move that the turn order never names. The move
//! counters are read as any `u32` and never computed with here.

use crate::definition::{
    BoardDef, CastlingDef, Definition, PieceId, Placement, Setup, SideDef, SideId, Square,
};
use std::fmt;

/// The most pieces of one type a hand may hold.
pub const MAX_IN_HAND: u32 = 255;

/// A FEN that does not fit a game: where, and why in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// Byte offset of the faulty text in the FEN.
    pub offset: usize,
    /// Length in bytes of the faulty text (0 when something is missing at `offset`).
    pub len: usize,
    /// What is wrong ("unknown piece letter `X`").
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for FenError {}

fn error(offset: usize, len: usize, message: impl Into<String>) -> FenError {
    FenError {
        offset,
        len,
        message: message.into(),
    }
}

/// A whitespace-separated field of the FEN, with its byte offset.
#[derive(Clone, Copy)]
struct Field<'a> {
    text: &'a str,
    offset: usize,
}

fn fields(text: &str) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    let mut start = None;
    for (index, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(begin)) => {
                fields.push(Field {
                    text: &text[begin..index],
                    offset: begin,
                });
                start = None;
            }
            (false, None) => start = Some(index),
            _ => {}
        }
    }
    fields
}

/// Parses a FEN for the game `def`.
pub fn parse_fen(def: &Definition, text: &str) -> Result<Setup, FenError> {
    let setup = parse_position(def, text)?;
    if !def.turn_order.contains(&setup.side_to_move) {
        let field = fields(text)
            .get(1)
            .copied()
            .unwrap_or(Field { text, offset: 0 });
        let side = side_name(def, setup.side_to_move);
        let order: Vec<&str> = def
            .turn_order
            .iter()
            .map(|&turn| side_name(def, turn))
            .collect();
        return Err(error(
            field.offset,
            field.text.len(),
            format!(
                "{side} is to move, but the turn order (`turns {}`) never gives {side} a turn",
                order.join(" ")
            ),
        ));
    }
    Ok(setup)
}

/// The castling and en-passant fields among the fields after the side to move, and the move
/// counters after them. Fairy-Stockfish leaves out the fields a game lacks (shogi's `...[-] w 0
/// 1`): a game without castling may leave out the castling field, one without en passant
/// ([`Definition::has_en_passant`]) the en-passant field. Neither field is ever a number, so
/// the fields before the first number say which were left out.
type StateFields<'a, 'f> = (Option<Field<'a>>, Option<Field<'a>>, &'f [Field<'a>]);

fn state_fields<'a, 'f>(
    def: &Definition,
    rest: &'f [Field<'a>],
    text: &str,
) -> Result<StateFields<'a, 'f>, FenError> {
    let is_counter = |field: &Field<'_>| field.text.bytes().all(|b| b.is_ascii_digit());
    let given = rest.iter().take(2).take_while(|f| !is_counter(f)).count();
    let castles = !def.castling.is_empty();
    let passes = def.has_en_passant();
    let expected = |what: &str| match rest.get(given) {
        Some(found) => error(
            found.offset,
            found.text.len(),
            format!(
                "expected {what} before the move counters, found `{}`",
                found.text
            ),
        ),
        None => error(
            text.trim_end().len(),
            0,
            format!("the FEN ends here: expected {what}"),
        ),
    };
    let (castling, en_passant) = match given {
        2 => (Some(rest[0]), Some(rest[1])),
        1 if !castles => (None, Some(rest[0])),
        1 if !passes => (Some(rest[0]), None),
        1 => return Err(expected("the en-passant square or `-`")),
        _ if !castles && !passes => (None, None),
        _ if castles => return Err(expected("the castling rights or `-`")),
        _ => return Err(expected("the en-passant square or `-`")),
    };
    Ok((castling, en_passant, &rest[given..]))
}

/// The byte range of the side-to-move field of a FEN, if it has one.
pub(crate) fn side_to_move_range(text: &str) -> Option<std::ops::Range<usize>> {
    fields(text)
        .get(1)
        .map(|field| field.offset..field.offset + field.text.len())
}

/// Parses a FEN for the game `def`, without checking that its side to move has a turn: the
/// `setup` statement reports that against the `turns` statement.
pub(crate) fn parse_position(def: &Definition, text: &str) -> Result<Setup, FenError> {
    let mut positional = Vec::new();
    let mut extensions = Vec::new();
    for (index, field) in fields(text).into_iter().enumerate() {
        if index >= 2 && field.text.contains(':') {
            extensions.push(field);
        } else {
            positional.push(field);
        }
    }
    let fields = positional;
    let missing = |what: &str| {
        error(
            text.trim_end().len(),
            0,
            format!("the FEN ends here: expected {what}"),
        )
    };
    let Some(board_field) = fields.first().copied() else {
        return Err(error(0, text.len(), "the FEN is empty"));
    };
    let (board, hands, promoted) = parse_board_and_hands(def, board_field)?;
    let side_to_move = parse_side_to_move(
        def,
        *fields.get(1).ok_or_else(|| missing("the side to move"))?,
    )?;
    let rest = &fields[2..];
    let (castling_field, en_passant_field, counters) = state_fields(def, rest, text)?;
    let castling = match castling_field {
        Some(field) => parse_castling(def, &board, field)?,
        None => Vec::new(),
    };
    let en_passant = match en_passant_field {
        Some(field) => parse_en_passant(def, field)?,
        None => None,
    };
    let halfmove_clock = counters
        .first()
        .map(|field| parse_counter(*field, "the halfmove clock", 0))
        .transpose()?
        .unwrap_or(0);
    let fullmove_number = counters
        .get(1)
        .map(|field| parse_counter(*field, "the move number", 1))
        .transpose()?
        .unwrap_or(1);
    if let Some(extra) = counters.get(2) {
        return Err(error(
            extra.offset,
            text.len() - extra.offset,
            "unexpected text after the move number (extra fields are written `name:value`)",
        ));
    }
    let mut setup = Setup {
        board,
        hands,
        side_to_move,
        castling,
        en_passant,
        halfmove_clock,
        fullmove_number,
        prisons: Vec::new(),
        promoted,
        phase: None,
        progress: Default::default(),
        last_drops: Vec::new(),
        turn: None,
        numbers: Vec::new(),
    };
    for field in extensions {
        parse_extension(def, field, &mut setup)?;
    }
    resolve_turn(def, &mut setup, text)?;
    resolve_numbers(def, &mut setup, text)?;
    Ok(setup)
}

/// Where the side to move stands in a turn order that names it more than once (`turn:`, 1 for
/// the first place); elsewhere the place follows from the side.
fn resolve_turn(def: &Definition, setup: &mut Setup, text: &str) -> Result<(), FenError> {
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
fn resolve_numbers(def: &Definition, setup: &mut Setup, text: &str) -> Result<(), FenError> {
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
fn parse_extension(def: &Definition, field: Field<'_>, setup: &mut Setup) -> Result<(), FenError> {
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

/// The side and piece a letter stands for: the sides' own `letters`, else the piece letter in
/// upper case for the first side and lower case for the second.
fn piece_of_letter(
    def: &Definition,
    letter: char,
    offset: usize,
) -> Result<(SideId, PieceId), FenError> {
    if let Some(found) = def.letter_piece(letter) {
        return Ok(found);
    }
    let known_upper = def.letter_piece(letter.to_ascii_uppercase()).is_some();
    if letter.is_ascii_lowercase() && def.sides.len() < 2 && known_upper {
        return Err(error(
            offset,
            1,
            format!("`{letter}` is lower case, but this game has only one side"),
        ));
    }
    Err(error(
        offset,
        letter.len_utf8(),
        format!("unknown piece letter `{letter}`"),
    ))
}

type Hands = Vec<(SideId, PieceId, u32)>;

fn parse_board_and_hands(
    def: &Definition,
    field: Field<'_>,
) -> Result<(Vec<Placement>, Hands, Vec<Square>), FenError> {
    let (board_text, hands) = match field.text.find('[') {
        Some(open) => {
            let hand_field = Field {
                text: &field.text[open..],
                offset: field.offset + open,
            };
            (&field.text[..open], parse_hands(def, hand_field)?)
        }
        None => (field.text, Vec::new()),
    };
    let mut promoted = Vec::new();
    let board = parse_board(
        def,
        Field {
            text: board_text,
            offset: field.offset,
        },
        &mut promoted,
    )?;
    Ok((board, hands, promoted))
}

fn parse_hands(def: &Definition, field: Field<'_>) -> Result<Hands, FenError> {
    let Some(inner) = field
        .text
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    else {
        return Err(error(
            field.offset,
            field.text.len(),
            "pieces in hand must be written `[...]` right after the board",
        ));
    };
    let mut hands: Hands = Vec::new();
    if inner == "-" {
        return Ok(hands);
    }
    for (index, letter) in inner.char_indices() {
        let offset = field.offset + 1 + index;
        if !letter.is_ascii_alphabetic() {
            return Err(error(
                offset,
                letter.len_utf8(),
                format!("`{letter}` is not a piece letter"),
            ));
        }
        let (side, piece) = piece_of_letter(def, letter, offset)?;
        match hands.iter_mut().find(|(s, p, _)| *s == side && *p == piece) {
            Some((_, _, count)) if *count >= MAX_IN_HAND => {
                return Err(error(
                    offset,
                    1,
                    format!("more than {MAX_IN_HAND} `{letter}` in hand: a hand holds at most {MAX_IN_HAND} pieces of a type"),
                ));
            }
            Some((_, _, count)) => *count += 1,
            None => hands.push((side, piece, 1)),
        }
    }
    if !hands.is_empty() && !def.actions.drops {
        return Err(error(
            field.offset,
            field.text.len(),
            "pieces in hand, but this game has no drops (`actions` does not list `drops`): they could never be played",
        ));
    }
    hands.sort();
    Ok(hands)
}

fn parse_board(
    def: &Definition,
    field: Field<'_>,
    promoted: &mut Vec<Square>,
) -> Result<Vec<Placement>, FenError> {
    let mut placements = Vec::new();
    let mut rank_offset = field.offset;
    let ranks: Vec<&str> = field.text.split('/').collect();
    for (index, rank_text) in ranks.iter().enumerate() {
        if index >= def.board.ranks as usize {
            let rest = field.offset + field.text.len() - rank_offset;
            return Err(error(
                rank_offset,
                rest,
                format!("too many ranks: the board has {}", def.board.ranks),
            ));
        }
        let rank = def.board.ranks - 1 - index as u8;
        parse_rank(
            def,
            rank,
            Field {
                text: rank_text,
                offset: rank_offset,
            },
            &mut placements,
            promoted,
        )?;
        rank_offset += rank_text.len() + 1;
    }
    if ranks.len() < def.board.ranks as usize {
        return Err(error(
            field.offset,
            field.text.len(),
            format!(
                "the FEN gives {} ranks, the board has {}",
                ranks.len(),
                def.board.ranks
            ),
        ));
    }
    Ok(placements)
}

fn parse_rank(
    def: &Definition,
    rank: u8,
    field: Field<'_>,
    placements: &mut Vec<Placement>,
    promoted: &mut Vec<Square>,
) -> Result<(), FenError> {
    let files = def.board.files as usize;
    let is_hole =
        |file: usize| file < files && def.board.holes.contains(&Square::new(file as u8, rank));
    let square_name = |file: usize| Square::new(file as u8, rank).to_string();
    let mut file = 0usize;
    let bytes = field.text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let offset = field.offset + index;
        let c = field.text[index..].chars().next().unwrap_or('?');
        if c.is_ascii_digit() {
            let digits = bytes[index..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            let count: usize = field.text[index..index + digits]
                .parse()
                .unwrap_or(usize::MAX);
            if count == 0 {
                return Err(error(
                    offset,
                    digits,
                    "a count of empty squares must be at least 1",
                ));
            }
            if let Some(hole) = (file..file.saturating_add(count).min(files)).find(|f| is_hole(*f))
            {
                return Err(error(
                    offset,
                    digits,
                    format!("{} is a hole: write `*` for it", square_name(hole)),
                ));
            }
            file = file.saturating_add(count);
            index += digits;
            continue;
        }
        if c == '*' {
            if file < files && !is_hole(file) {
                return Err(error(
                    offset,
                    1,
                    format!("`*` marks a hole, but {} is not a hole", square_name(file)),
                ));
            }
        } else if c.is_ascii_alphabetic() {
            let (side, piece) = piece_of_letter(def, c, offset)?;
            if is_hole(file) {
                return Err(error(
                    offset,
                    1,
                    format!("{} is a hole: no piece can stand there", square_name(file)),
                ));
            }
            if file < files {
                placements.push(Placement {
                    square: Square::new(file as u8, rank),
                    side,
                    piece,
                });
            }
            if bytes.get(index + 1) == Some(&b'~') {
                if !def
                    .capture
                    .stores
                    .contains(&Some(crate::definition::Store::Hand))
                {
                    return Err(error(
                        offset + 1,
                        1,
                        "`~` marks a promoted piece, which only matters when captures go to the hand",
                    ));
                }
                if file < files {
                    promoted.push(Square::new(file as u8, rank));
                }
                index += 1;
            }
        } else {
            return Err(error(
                offset,
                c.len_utf8(),
                format!("`{c}` is not a piece letter, a count or `*`"),
            ));
        }
        file = file.saturating_add(1);
        index += c.len_utf8();
    }
    if file != files {
        return Err(error(
            field.offset,
            field.text.len(),
            format!(
                "rank {} has {file} squares, the board has {files} files",
                rank + 1
            ),
        ));
    }
    Ok(())
}

fn parse_side_to_move(def: &Definition, field: Field<'_>) -> Result<SideId, FenError> {
    let mut chars = field.text.chars();
    let side = match (chars.next(), chars.next()) {
        (Some(letter), None) => def.sides.iter().position(|side| side.fen_letter == letter),
        _ => None,
    };
    side.map(|index| SideId(index as u8)).ok_or_else(|| {
        let letters: Vec<String> = def
            .sides
            .iter()
            .map(|side| format!("`{}`", side.fen_letter))
            .collect();
        error(
            field.offset,
            field.text.len(),
            format!(
                "`{}` is not a side to move: expected {}",
                field.text,
                letters.join(" or ")
            ),
        )
    })
}

fn parse_castling(
    def: &Definition,
    board: &[Placement],
    field: Field<'_>,
) -> Result<Vec<usize>, FenError> {
    if field.text == "-" {
        return Ok(Vec::new());
    }
    let mut rights = Vec::new();
    for (index, letter) in field.text.char_indices() {
        let offset = field.offset + index;
        let Some(right) = def
            .castling
            .iter()
            .position(|castle| castle.fen_letter == letter)
        else {
            return Err(error(
                offset,
                letter.len_utf8(),
                format!("`{letter}` is not a castling right of this game"),
            ));
        };
        if rights.contains(&right) {
            return Err(error(
                offset,
                1,
                format!("the castling right `{letter}` is given twice"),
            ));
        }
        check_castling_pieces(def, board, &def.castling[right], offset)?;
        rights.push(right);
    }
    rights.sort_unstable();
    Ok(rights)
}

/// A castling right needs its side's royal piece on the king's square and one of its pieces on
/// the rook's square.
fn check_castling_pieces(
    def: &Definition,
    board: &[Placement],
    castle: &CastlingDef,
    offset: usize,
) -> Result<(), FenError> {
    let side = side_name(def, castle.side);
    let at = |square: Square| board.iter().find(|placement| placement.square == square);
    let king = at(castle.king_from);
    if !king.is_some_and(|p| p.side == castle.side && def.pieces[p.piece.0 as usize].royal) {
        return Err(error(
            offset,
            1,
            format!(
                "castling right `{}` needs a {side} royal piece on {}, but {}",
                castle.fen_letter,
                castle.king_from,
                describe_square(def, castle.king_from, king)
            ),
        ));
    }
    let rook = at(castle.rook_from);
    if rook.is_none_or(|p| p.side != castle.side) {
        return Err(error(
            offset,
            1,
            format!(
                "castling right `{}` needs a {side} piece on {} to castle with, but {}",
                castle.fen_letter,
                castle.rook_from,
                describe_square(def, castle.rook_from, rook)
            ),
        ));
    }
    Ok(())
}

fn side_name(def: &Definition, side: SideId) -> &str {
    def.sides
        .get(side.0 as usize)
        .map_or("?", |side: &SideDef| side.name.as_str())
}

fn describe_square(def: &Definition, square: Square, placement: Option<&Placement>) -> String {
    match placement {
        None => format!("{square} is empty"),
        Some(p) => format!(
            "{square} holds a {} {}",
            side_name(def, p.side),
            def.pieces[p.piece.0 as usize].name
        ),
    }
}

fn parse_en_passant(def: &Definition, field: Field<'_>) -> Result<Option<Square>, FenError> {
    if field.text == "-" {
        return Ok(None);
    }
    match Square::parse(field.text) {
        Some(square) if def.board.contains(square) => Ok(Some(square)),
        _ => Err(error(
            field.offset,
            field.text.len(),
            format!(
                "`{}` is not a square of the board: expected the en-passant square or `-`",
                field.text
            ),
        )),
    }
}

fn parse_counter(field: Field<'_>, what: &str, minimum: u32) -> Result<u32, FenError> {
    match field.text.parse::<u32>() {
        Ok(value) if value >= minimum => Ok(value),
        Ok(_) => Err(error(
            field.offset,
            field.text.len(),
            format!("{what} starts at {minimum}"),
        )),
        Err(_) => Err(error(
            field.offset,
            field.text.len(),
            format!("{what} must be a whole number, not `{}`", field.text),
        )),
    }
}

/// Writes a position as a FEN; `parse_fen(def, &write_fen(def, setup))` gives `setup` back.
pub fn write_fen(def: &Definition, setup: &Setup) -> String {
    let mut fen = write_board(def, &setup.board, &setup.promoted);
    // As Fairy-Stockfish writes it: a game played with hands always shows them, `[]` when empty.
    if !setup.hands.is_empty() || def.uses_hands() {
        fen.push('[');
        for &(side, piece, count) in &setup.hands {
            let letter = letter_for(def, side, piece);
            fen.extend(std::iter::repeat_n(letter, count as usize));
        }
        fen.push(']');
    }
    let side_letter = def
        .sides
        .get(setup.side_to_move.0 as usize)
        .map_or('?', |side| side.fen_letter);
    let castling: String = setup
        .castling
        .iter()
        .filter_map(|&right| def.castling.get(right))
        .map(|castle| castle.fen_letter)
        .collect();
    let castling = if castling.is_empty() {
        "-".to_string()
    } else {
        castling
    };
    let en_passant = setup
        .en_passant
        .map_or("-".to_string(), |square| square.to_string());
    let mut text = format!(
        "{fen} {side_letter} {castling} {en_passant} {} {}",
        setup.halfmove_clock, setup.fullmove_number
    );
    for extension in extensions(def, setup) {
        text.push(' ');
        text.push_str(&extension);
    }
    text
}

/// The `name:value` fields after the move number, in a fixed order; none for games without
/// prisons, phases or turns of several actions.
fn extensions(def: &Definition, setup: &Setup) -> Vec<String> {
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

fn letter_for(def: &Definition, side: SideId, piece: PieceId) -> char {
    def.piece_letter(side, piece)
}

fn write_board(def: &Definition, board: &[Placement], promoted: &[Square]) -> String {
    board_field(&def.board, |square| {
        board.iter().find(|p| p.square == square).map(|p| {
            let letter = letter_for(def, p.side, p.piece).to_string();
            if promoted.contains(&square) {
                letter + "~"
            } else {
                letter
            }
        })
    })
}

/// The board field of a FEN: `piece_at` gives the letter on a square (holes are always `*`).
pub(crate) fn board_field(board: &BoardDef, piece_at: impl Fn(Square) -> Option<String>) -> String {
    let mut ranks = Vec::with_capacity(board.ranks as usize);
    for rank in (0..board.ranks).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for file in 0..board.files {
            let square = Square::new(file, rank);
            let symbol = if board.holes.contains(&square) {
                Some("*".to_string())
            } else {
                piece_at(square)
            };
            match symbol {
                Some(symbol) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(&symbol);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Definition {
        crate::load_source(
            "chess.variant",
            include_str!("../../../games/chess.variant"),
        )
        .unwrap_or_else(|failure| panic!("{}", failure.render()))
        .definition
    }

    fn round_trip(def: &Definition, fen: &str) {
        let setup = parse_fen(def, fen).unwrap_or_else(|error| panic!("{fen}: {error}"));
        assert_eq!(write_fen(def, &setup), fen);
        assert_eq!(parse_fen(def, &write_fen(def, &setup)).unwrap(), setup);
    }

    #[test]
    fn standard_fens_round_trip() {
        let def = chess();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 12 40",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            round_trip(&def, fen);
        }
    }

    #[test]
    fn counters_are_optional() {
        let def = chess();
        let setup = parse_fen(&def, "4k3/8/8/8/8/8/8/4K3 b - -").unwrap();
        assert_eq!((setup.halfmove_clock, setup.fullmove_number), (0, 1));
        assert_eq!(setup.side_to_move, SideId(1));
    }

    #[test]
    fn wide_boards_holes_and_hands() {
        let mut def = chess();
        def.board = BoardDef {
            files: 10,
            ranks: 3,
            holes: vec![Square::new(0, 0), Square::new(9, 2)],
        };
        def.castling.clear();
        round_trip(&def, "k8*/10/*8K w - - 0 1");
        round_trip(&def, "k8*/10/*8K[QQRr] w - - 0 1");
        let setup = parse_fen(&def, "k8*/10/*8K[QRQr] b - - 3 7").unwrap();
        assert_eq!(
            setup.hands,
            [
                (SideId(0), PieceId(1), 2),
                (SideId(0), PieceId(2), 1),
                (SideId(1), PieceId(2), 1)
            ]
        );
    }

    fn fen_error(def: &Definition, fen: &str) -> (String, &'static str) {
        let error = parse_fen(def, fen).expect_err(fen);
        let faulty = &fen[error.offset..error.offset + error.len];
        (
            error.message,
            Box::leak(faulty.to_string().into_boxed_str()),
        )
    }

    #[test]
    fn errors_point_at_the_fault() {
        let def = chess();
        assert_eq!(
            fen_error(
                &def,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1"
            ),
            ("unknown piece letter `X`".into(), "X")
        );
        assert_eq!(
            fen_error(
                &def,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w - - 0 1"
            ),
            (
                "rank 1 has 9 squares, the board has 8 files".into(),
                "RNBQKBNRR"
            )
        );
        assert_eq!(
            fen_error(&def, "8/8/8/8/8/8/8 w - -").0,
            "the FEN gives 7 ranks, the board has 8"
        );
        assert_eq!(
            fen_error(&def, "8/8/8/8/8/8/8/8/8 w - -"),
            ("too many ranks: the board has 8".into(), "8")
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 x - -"),
            ("`x` is not a side to move: expected `w` or `b`".into(), "x")
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w K -").0,
            "castling right `K` needs a white piece on h1 to castle with, but h1 is empty"
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/3K3R w K -").0,
            "castling right `K` needs a white royal piece on e1, but e1 is empty"
        );
        assert_eq!(fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - e9").1, "e9");
        assert_eq!(fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - - x").1, "x");
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - - 0 0").0,
            "the move number starts at 1"
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w").0,
            "the FEN ends here: expected the castling rights or `-`"
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra").1,
            "extra"
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4*3 w - -").0,
            "`*` marks a hole, but e1 is not a hole"
        );
        assert_eq!(
            fen_error(&def, "0k3/8/8/8/8/8/8/4K3 w - -").0,
            "a count of empty squares must be at least 1"
        );
        assert_eq!(fen_error(&def, "").0, "the FEN is empty");
        assert!(parse_fen(&def, "99999999999999999999999/8/8/8/8/8/8/8 w - -").is_err());
        assert!(parse_fen(&def, "é/8/8/8/8/8/8/8 w - -").is_err());
    }

    #[test]
    fn a_hand_holds_at_most_255_of_a_type() {
        let def = chess();
        let full = format!("4k3/8/8/8/8/8/8/4K3[{}q] w - - 0 1", "Q".repeat(255));
        let setup = parse_fen(&def, &full).expect("255 queens fit");
        assert_eq!(
            setup.hands,
            [(SideId(0), PieceId(1), 255), (SideId(1), PieceId(1), 1)]
        );
        let over = format!("4k3/8/8/8/8/8/8/4K3[{}] w - - 0 1", "Q".repeat(256));
        let error = parse_fen(&def, &over).expect_err("256 queens do not");
        assert_eq!(
            error.message,
            "more than 255 `Q` in hand: a hand holds at most 255 pieces of a type"
        );
        assert_eq!((error.offset, error.len), (20 + 255, 1));
    }

    #[test]
    fn pieces_in_hand_need_drops() {
        let mut def = chess();
        def.actions.drops = false;
        let (message, faulty) = fen_error(&def, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1");
        assert!(
            message.starts_with("pieces in hand, but this game has no drops"),
            "{message}"
        );
        assert_eq!(faulty, "[Q]");
        assert!(parse_fen(&def, "4k3/8/8/8/8/8/8/4K3[] w - - 0 1").is_ok());
    }

    #[test]
    fn the_side_to_move_must_have_a_turn() {
        let mut def = chess();
        def.turn_order = vec![SideId(1)];
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            (
                "white is to move, but the turn order (`turns black`) never gives white a turn"
                    .into(),
                "w"
            )
        );
        assert!(parse_fen(&def, "4k3/8/8/8/8/8/8/4K3 b - - 0 1").is_ok());
    }

    #[test]
    fn move_counters_take_any_u32() {
        let def = chess();
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295";
        let setup = parse_fen(&def, fen).expect("the largest counters");
        assert_eq!(
            (setup.halfmove_clock, setup.fullmove_number),
            (u32::MAX, u32::MAX)
        );
        assert_eq!(write_fen(&def, &setup), fen);
        assert!(parse_fen(&def, "4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1").is_err());
    }

    #[test]
    fn fields_a_game_lacks_may_be_left_out() {
        let mut def = chess();
        // Chess has castling and en passant: neither field may be left out.
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w 0 1"),
            (
                "expected the castling rights or `-` before the move counters, found `0`".into(),
                "0"
            )
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - 0 1"),
            (
                "expected the en-passant square or `-` before the move counters, found `0`".into(),
                "0"
            )
        );
        // Without castling, the en-passant field may stand alone.
        def.castling.clear();
        let setup = parse_fen(&def, "4k3/8/8/8/4P3/8/8/4K3 b e3 0 1").expect("no castling field");
        assert_eq!(setup.en_passant, Square::parse("e3"));
        assert_eq!(write_fen(&def, &setup), "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
        // Without en passant either, both may be left out, with or without the counters.
        assert!(def.has_en_passant());
        for piece in &mut def.pieces {
            for atom in &mut piece.moves {
                atom.en_passant = false;
                atom.initial_only = false;
            }
        }
        assert!(!def.has_en_passant());
        let setup = parse_fen(&def, "4k3/8/8/8/8/8/8/4K3[-] w 3 9").expect("shogi's form");
        assert_eq!((setup.halfmove_clock, setup.fullmove_number), (3, 9));
        assert_eq!(write_fen(&def, &setup), "4k3/8/8/8/8/8/8/4K3 w - - 3 9");
        assert!(parse_fen(&def, "4k3/8/8/8/8/8/8/4K3 b").is_ok());
        assert!(parse_fen(&def, "4k3/8/8/8/8/8/8/4K3 w -").is_ok());
        assert_eq!(fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w 3 9 9").1, "9");
        assert_eq!(fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w K 0 1").1, "K");
    }

    #[test]
    fn holes_must_be_written_as_stars() {
        let mut def = chess();
        def.board.holes = vec![Square::new(0, 0)];
        def.castling.clear();
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/4K3 w - -").0,
            "a1 is a hole: write `*` for it"
        );
        assert_eq!(
            fen_error(&def, "4k3/8/8/8/8/8/8/R3K3 w - -").0,
            "a1 is a hole: no piece can stand there"
        );
        assert!(parse_fen(&def, "4k3/8/8/8/8/8/8/*3K3 w - -").is_ok());
    }
}
