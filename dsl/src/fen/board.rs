//! Reading the board field and the pieces in hand: ranks from the top down, counts of empty
//! squares, `*` holes, promoted pieces, and `[...]` hands of at most [`MAX_IN_HAND`] pieces of a
//! type. In a game with a neutral piece (`neutral`, duck chess's duck), `*` is that piece: such a
//! game has no holes.

use crate::definition::{Definition, PieceId, Placement, SideId, Square};
use crate::fen::error::{error, FenError};
use crate::fen::fields::Field;
use crate::fen::letters::piece_of_letter;

/// The most pieces of one type a hand may hold.
pub const MAX_IN_HAND: u32 = 255;

type Hands = Vec<(SideId, PieceId, u32)>;

/// What the board field marks besides the pieces of the sides.
#[derive(Default)]
pub(super) struct Marks {
    /// Squares of promoted pieces (`Q~`).
    pub(super) promoted: Vec<Square>,
    /// The square of the neutral piece (`*` in a game with one).
    pub(super) neutral: Option<Square>,
}

pub(super) fn parse_board_and_hands(
    def: &Definition,
    field: Field<'_>,
) -> Result<(Vec<Placement>, Hands, Marks), FenError> {
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
    let mut marks = Marks::default();
    let board = parse_board(
        def,
        Field {
            text: board_text,
            offset: field.offset,
        },
        &mut marks,
    )?;
    Ok((board, hands, marks))
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
    if !hands.is_empty() && !def.actions.drops && def.gating.is_none() {
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
    marks: &mut Marks,
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
            marks,
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
    marks: &mut Marks,
) -> Result<(), FenError> {
    let neutral = def.neutral_piece().is_some();
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
        if c == '*' && neutral {
            if marks.neutral.is_some() {
                return Err(error(
                    offset,
                    1,
                    "a second `*`: this game's neutral piece stands on one square",
                ));
            }
            if file < files {
                marks.neutral = Some(Square::new(file as u8, rank));
            }
        } else if c == '*' {
            if file < files && !is_hole(file) {
                return Err(error(
                    offset,
                    1,
                    format!("`*` marks a hole, but {} is not a hole", square_name(file)),
                ));
            }
        } else if c.is_ascii_alphabetic() || c == '+' {
            let (side, piece) = if c == '+' {
                // `+P`: a promoted form (`letter +P`); the `+` and the letter are one square.
                index += 1;
                let letter = field.text[index..].chars().next().unwrap_or(' ');
                def.promoted_letter_piece(letter).ok_or_else(|| {
                    error(
                        offset,
                        1 + letter.len_utf8(),
                        format!("`+{letter}` is not a promoted piece of this game"),
                    )
                })?
            } else {
                piece_of_letter(def, c, offset)?
            };
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
                    marks.promoted.push(Square::new(file as u8, rank));
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
