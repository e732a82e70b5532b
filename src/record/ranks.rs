//! How a record numbers the ranks: from 1, as the game's notation does, or from 0, as XBoard
//! writes the PGN of a board of exactly ten ranks (CECP counts such a board's ranks from 0, and
//! XBoard's PGN keeps its move numbering: xiangqi's `Rxd0#`, shako's `b0c2`, and the rank that
//! tells two pieces apart too, `E5a7`).
//!
//! Why a decision for the whole record, not per move: a move read from 0 is often a legal move
//! read from 1 as well (shako's `e3` is a pawn's step to e4 or to e3), so reading each move both
//! ways would replay another game. A record is read from 0 when one of its moves names rank 0,
//! which no game's notation has; a ten-rank record that names no rank 0 is read from 1, and from
//! 0 only if it cannot be read to its end from 1 and can from 0.

/// Whether some move names rank 0: a `0` run of digits right after a letter (a file, `d0`, or a
/// piece, `R0`), which a notation counting from 1 never writes (`0-0` castling follows none).
pub fn names_rank_zero(moves: &[String]) -> bool {
    moves
        .iter()
        .any(|text| rank_runs(text).any(|(start, end)| &text[start..end] == "0"))
}

/// The moves with every rank one higher: a record counting from 0 in the game's numbering
/// (`b0c2` → `b1c3`, `E5a7` → `E6a8`, `P@e3` → `P@e4`); castling and marks as they are.
pub fn counted_from_one(moves: &[String]) -> Vec<String> {
    moves.iter().map(|text| shifted(text)).collect()
}

/// One move with its ranks one higher.
fn shifted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    let mut last = 0;
    for (start, end) in rank_runs(text) {
        out.push_str(&text[last..start]);
        match text[start..end].parse::<u32>() {
            Ok(rank) => out.push_str(&(rank + 1).to_string()),
            Err(_) => out.push_str(&text[start..end]),
        }
        last = end;
    }
    out.push_str(&text[last..]);
    out
}

/// The byte ranges of the ranks in a move: each run of ASCII digits right after a letter.
fn rank_runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut index = 0;
    std::iter::from_fn(move || {
        while index < bytes.len() {
            let start = index;
            if bytes[start].is_ascii_digit() && start > 0 && bytes[start - 1].is_ascii_alphabetic()
            {
                let end = start
                    + bytes[start..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                index = end;
                return Some((start, end));
            }
            index += 1;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::{counted_from_one, names_rank_zero};

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn a_rank_zero_marks_a_record_counted_from_zero() {
        assert!(names_rank_zero(&moves(&["e3", "Rxd0#"])));
        assert!(names_rank_zero(&moves(&["b0c2"])));
        assert!(names_rank_zero(&moves(&["R0a4"])));
        // Rank 10 and castling written with zeros are not rank 0.
        assert!(!names_rank_zero(&moves(&["a10a9", "Qe10", "0-0", "0-0-0"])));
    }

    #[test]
    fn every_rank_moves_up_one() {
        assert_eq!(
            counted_from_one(&moves(&[
                "b0c2", "Rxd0#", "E5a7", "P@e3", "e8e9q", "O-O", "0-0"
            ])),
            moves(&["b1c3", "Rxd1#", "E6a8", "P@e4", "e9e10q", "O-O", "0-0"])
        );
        assert_eq!(
            counted_from_one(&moves(&["e4e3,e3d2", "e4d2^e3", "@@@@"])),
            moves(&["e5e4,e4d3", "e5d3^e4", "@@@@"])
        );
    }
}
