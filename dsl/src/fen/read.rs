//! Reading a FEN: the fields in order (board and hands through [`crate::fen::board`], the `name:value`
//! fields through [`crate::fen::extensions`]), the side to move, castling rights, the en-passant
//! square and the move counters, including the short forms other engines write.

use crate::definition::{CastlingDef, Definition, PieceId, Placement, Setup, SideId, Square};
use crate::fen::board::parse_board_and_hands;
use crate::fen::error::{describe_square, error, side_name, FenError};
use crate::fen::extensions::{parse_extension, resolve_numbers, resolve_turn};
use crate::fen::fields::{fields, Field};

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
        // A running count (`counting`) stands where the en-passant square would.
        1 if !def.end.counting.is_empty() && rest[given..].len() >= 3 => (Some(rest[0]), None),
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
    let (board, hands, marks) = parse_board_and_hands(def, board_field)?;
    let side_to_move = parse_side_to_move(
        def,
        *fields.get(1).ok_or_else(|| missing("the side to move"))?,
    )?;
    let rest = &fields[2..];
    let (castling_field, en_passant_field, counters) = state_fields(def, rest, text)?;
    let (counter_values, counters) = parse_counter_fields(def, counters)?;
    let (counting_limit, counters) = parse_counting_limit(def, counters)?;
    let (castling, gates) = match castling_field {
        Some(field) => parse_castling(def, &board, &hands, field)?,
        None => (Vec::new(), Vec::new()),
    };
    let en_passant = match en_passant_field {
        Some(field) => parse_en_passant(def, &board, field)?,
        None => None,
    };
    let halfmove_field = counters
        .first()
        .map(|field| parse_counter(*field, "the halfmove clock", 0))
        .transpose()?
        .unwrap_or(0);
    // While a count runs, Fairy-Stockfish writes its plies where the halfmove clock stands, and
    // reads the clock as 0.
    let (halfmove_clock, counting) = match counting_limit {
        Some(limit) => (0, Some((limit, halfmove_field))),
        None => (halfmove_field, None),
    };
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
        promoted: marks.promoted,
        phase: None,
        progress: Default::default(),
        last_drops: Vec::new(),
        turn: None,
        numbers: Vec::new(),
        counters: counter_values,
        gates,
        neutral: marks.neutral,
        counting,
    };
    for field in extensions {
        parse_extension(def, field, &mut setup)?;
    }
    resolve_turn(def, &mut setup, text)?;
    resolve_numbers(def, &mut setup, text)?;
    Ok(setup)
}

/// In a game with `counting`, the running count's limit in plies: a number before the two move
/// counters, where Fairy-Stockfish writes it (in place of the en-passant square); `None`
/// without one, or where it is 0 (no count runs).
fn parse_counting_limit<'a, 'f>(
    def: &Definition,
    fields: &'f [Field<'a>],
) -> Result<(Option<u32>, &'f [Field<'a>]), FenError> {
    if def.end.counting.is_empty() || fields.len() < 3 {
        return Ok((None, fields));
    }
    let limit = parse_counter(fields[0], "the counting limit", 0)?;
    if limit > u32::from(u16::MAX) {
        return Err(error(
            fields[0].offset,
            fields[0].text.len(),
            format!(
                "the counting limit `{limit}` is too large (at most {})",
                u16::MAX
            ),
        ));
    }
    Ok(((limit > 0).then_some(limit), &fields[1..]))
}

/// The fields of the game's counters (`counter`), one per counter after the en-passant field,
/// each side's number joined by `+` (3check's `3+3`), and the fields after them. A FEN that
/// leaves them out (its next field has no `+`) gives every counter its start value.
type CounterFields<'a, 'f> = (Vec<Vec<u32>>, &'f [Field<'a>]);

fn parse_counter_fields<'a, 'f>(
    def: &Definition,
    fields: &'f [Field<'a>],
) -> Result<CounterFields<'a, 'f>, FenError> {
    let sides = def.sides.len();
    let given = fields.first().is_some_and(|field| field.text.contains('+'));
    if def.counters.is_empty() || !given {
        let starts = def
            .counters
            .iter()
            .map(|counter| vec![counter.start; sides])
            .collect();
        return Ok((starts, fields));
    }
    let mut values = Vec::with_capacity(def.counters.len());
    for (index, counter) in def.counters.iter().enumerate() {
        let Some(field) = fields.get(index) else {
            return Err(error(
                fields.last().map_or(0, |f| f.offset + f.text.len()),
                0,
                format!("the FEN ends here: expected the counter `{}`", counter.name),
            ));
        };
        let shown: Vec<Option<u32>> = field
            .text
            .split('+')
            .map(|part| part.parse::<i64>().ok().and_then(|n| counter.fen.value(n)))
            .collect();
        match shown.into_iter().collect::<Option<Vec<u32>>>() {
            Some(per_side) if per_side.len() == sides => values.push(per_side),
            _ => {
                return Err(error(
                    field.offset,
                    field.text.len(),
                    format!(
                        "`{}` is not the counter `{}`: expected {sides} numbers joined by `+`, one per side",
                        field.text, counter.name
                    ),
                ))
            }
        }
    }
    Ok((values, &fields[def.counters.len()..]))
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

/// The castling rights and the gating squares (`gating`) of the castling field.
type CastlingField = (Vec<usize>, Vec<(SideId, Square)>);

/// The castling field: castling rights by their letters and, in a game with `gating`, gating
/// squares by their file letters in the side's case (`KQBCDFGkqbcdfg`). A castling right also
/// gives the gating rights of its king's and rook's squares, where they are gating squares, as
/// Fairy-Stockfish reads `K` in Seirawan chess. A side with an empty hand that can never fill
/// again holds no gating right.
fn parse_castling(
    def: &Definition,
    board: &[Placement],
    hands: &[(SideId, PieceId, u32)],
    field: Field<'_>,
) -> Result<CastlingField, FenError> {
    if field.text == "-" {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut rights = Vec::new();
    let mut gates = Vec::new();
    for (index, letter) in field.text.char_indices() {
        let offset = field.offset + index;
        if let Some(gate) = gate_named(def, board, hands, letter, offset)? {
            if gates.contains(&gate) {
                return Err(error(
                    offset,
                    1,
                    format!("the gating right `{letter}` is given twice"),
                ));
            }
            gates.push(gate);
            continue;
        }
        let Some(right) = def
            .castling
            .iter()
            .position(|castle| castle.fen_letter == letter)
        else {
            let what = if def.gating.is_some() {
                "a castling right or a gating square"
            } else {
                "a castling right"
            };
            return Err(error(
                offset,
                letter.len_utf8(),
                format!("`{letter}` is not {what} of this game"),
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
    if let Some(gating) = &def.gating {
        for &right in &rights {
            let castle = &def.castling[right];
            let zone = &gating.squares[castle.side.index()];
            for square in [castle.king_from, castle.rook_from] {
                let gate = (castle.side, square);
                let holds = gate_holder(def, hands, castle.side);
                if zone.contains(&square) && holds && !gates.contains(&gate) {
                    gates.push(gate);
                }
            }
        }
    }
    gates.sort_unstable();
    Ok((rights, gates))
}

/// Whether `side` may hold gating rights: it has pieces in hand, or captures may fill it.
fn gate_holder(def: &Definition, hands: &[(SideId, PieceId, u32)], side: SideId) -> bool {
    crate::definition::GatingDef::kept_without_hand(def)
        || hands.iter().any(|&(s, _, count)| s == side && count > 0)
}

/// The gating square a letter of the castling field names, checked against the board and the
/// hands; `None` when the letter names none (it may be a castling right). A castling right's
/// letter is never a gating square's (`gating` refuses such a file).
fn gate_named(
    def: &Definition,
    board: &[Placement],
    hands: &[(SideId, PieceId, u32)],
    letter: char,
    offset: usize,
) -> Result<Option<(SideId, Square)>, FenError> {
    let Some(gating) = &def.gating else {
        return Ok(None);
    };
    let named = (0..gating.squares.len()).find_map(|side| {
        let side = SideId(side as u8);
        gating.square_of(side, letter).map(|square| (side, square))
    });
    let Some((side, square)) = named else {
        return Ok(None);
    };
    let name = side_name(def, side);
    let at = board.iter().find(|placement| placement.square == square);
    if at.is_none_or(|placement| placement.side != side) {
        return Err(error(
            offset,
            1,
            format!(
                "gating right `{letter}` needs a {name} piece on {square}, but {}",
                describe_square(def, square, at)
            ),
        ));
    }
    if !gate_holder(def, hands, side) {
        return Err(error(
            offset,
            1,
            format!(
                "gating right `{letter}`: {name} has no piece in hand to gate, and no capture \
                 fills a hand, so it holds no gating right"
            ),
        ));
    }
    Ok(Some((side, square)))
}

/// A castling right needs its side's king on the king's square (the piece the castling names,
/// else a royal piece) and its rook on the rook's square (the piece named, else any of the
/// side's pieces).
fn check_castling_pieces(
    def: &Definition,
    board: &[Placement],
    castle: &CastlingDef,
    offset: usize,
) -> Result<(), FenError> {
    let side = side_name(def, castle.side);
    let at = |square: Square| board.iter().find(|placement| placement.square == square);
    let name = |piece: PieceId| def.pieces[piece.0 as usize].name.as_str();
    let king = at(castle.king_from);
    let king_fits = |p: &Placement| {
        p.side == castle.side
            && match castle.king_piece {
                Some(piece) => p.piece == piece,
                None => def.pieces[p.piece.0 as usize].royal,
            }
    };
    if !king.is_some_and(king_fits) {
        let wanted = castle.king_piece.map_or("royal piece", name);
        // A side's own piece that is not royal, where the castling names none: the game
        // probably means that piece (extinction chess's King is not royal).
        let hint = match king {
            Some(p) if p.side == castle.side && castle.king_piece.is_none() => format!(
                " (a castling whose king is not royal names it: `king {} {}-{}`)",
                name(p.piece),
                castle.king_from,
                castle.king_to
            ),
            _ => String::new(),
        };
        return Err(error(
            offset,
            1,
            format!(
                "castling right `{}` needs a {side} {wanted} on {}, but {}{hint}",
                castle.fen_letter,
                castle.king_from,
                describe_square(def, castle.king_from, king)
            ),
        ));
    }
    let rook = at(castle.rook_from);
    let rook_fits = |p: &Placement| {
        p.side == castle.side && castle.rook_piece.is_none_or(|piece| p.piece == piece)
    };
    if !rook.is_some_and(rook_fits) {
        let wanted = castle
            .rook_piece
            .map_or("piece".to_string(), |piece| name(piece).to_string());
        return Err(error(
            offset,
            1,
            format!(
                "castling right `{}` needs a {side} {wanted} on {} to castle with, but {}",
                castle.fen_letter,
                castle.rook_from,
                describe_square(def, castle.rook_from, rook)
            ),
        ));
    }
    Ok(())
}

fn parse_en_passant(
    def: &Definition,
    board: &[Placement],
    field: Field<'_>,
) -> Result<Option<Square>, FenError> {
    if field.text == "-" {
        return Ok(None);
    }
    let target = match listed_squares(field.text).as_deref() {
        Some([square]) => Some(*square),
        // Fairy-Stockfish lists every square of a double step's en passant, in square order:
        // after a Berolina pawn's e2-c4, the square passed and the one landed on (`d3c4`). The
        // target is the square passed over, the one that is empty.
        Some(several) if several.iter().all(|s| def.board.contains(*s)) => several
            .iter()
            .copied()
            .find(|square| board.iter().all(|placement| placement.square != *square)),
        _ => None,
    };
    match target {
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

/// The squares of a text written as square names one after another (`d3`, `d3c4`), or `None`
/// if it is not such a list.
fn listed_squares(text: &str) -> Option<Vec<Square>> {
    let mut squares = Vec::new();
    let mut rest = text;
    while let Some(first) = rest.bytes().next() {
        if !first.is_ascii_lowercase() {
            return None;
        }
        let length = 1 + rest[1..].bytes().take_while(u8::is_ascii_digit).count();
        squares.push(Square::parse(&rest[..length])?);
        rest = &rest[length..];
    }
    Some(squares)
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
