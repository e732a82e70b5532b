//! Betza notation: the chess-variant community's language for how pieces move.
//!
//! `moves "mfW cfeF imfnD"` is decoded here into [`MoveAtom`]s. An atom is an upper-case letter
//! naming a leap — W (0,1), F (1,1), D (0,2), N (1,2), A (2,2), H (0,3), C (1,3), Z (2,3),
//! G (3,3) — expanded to its symmetric steps, or a shorthand: K = WF, Q = W0F0, R = W0, B = F0.
//! A count after the atom limits a rider (`R3`), `0` or a doubled letter (`WW`) makes it
//! unlimited. Lower-case modifiers before an atom apply to that atom only: `m` move only, `c`
//! capture only, `i` initial only, `n` lame, `e` en passant, the hoppers `p` (cannon: jumps one
//! piece, then rides on) and `g` (grasshopper: lands just beyond the first piece), and directions
//! `f b l r v s`, alone or in pairs (`fl`, `ff`, `fs`, `lv`), in the mover's frame. The hoppers
//! are Fairy-Stockfish's reading: the xiangqi cannon is `mRcpR`, the janggi-like cannon `pR`, the
//! grasshopper `gQ`.
//!
//! Errors carry a byte range inside the Betza text, so that a diagnostic can point at the very
//! letter.

use crate::definition::{Hop, MoveAtom, MoveMode, Offset};
use crate::diagnostic::code;
use std::collections::BTreeSet;
use std::ops::Range;

/// A mistake in a Betza string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The bytes of the Betza text in error.
    pub range: Range<usize>,
    /// The diagnostic code.
    pub code: &'static str,
    /// The headline.
    pub message: String,
    /// The text shown under the carets.
    pub label: String,
    /// A suggestion, if any.
    pub help: Option<String>,
}

/// Decodes a whole Betza string; spaces may separate atoms.
///
/// Returns every atom, or every mistake found (one per faulty atom).
pub fn decode(text: &str) -> Result<Vec<MoveAtom>, Vec<BetzaError>> {
    let mut atoms = Vec::new();
    let mut errors = Vec::new();
    let mut index = 0;
    while index < text.len() {
        let rest = &text[index..];
        let trimmed = rest.trim_start();
        if trimmed.is_empty() {
            break;
        }
        index += rest.len() - trimmed.len();
        let (term_len, decoded) = decode_term(text, index);
        match decoded {
            Ok(atom) => atoms.push(atom),
            Err(error) => errors.push(error),
        }
        index += term_len.max(1);
    }
    if errors.is_empty() {
        Ok(atoms)
    } else {
        Err(errors)
    }
}

/// A leap or shorthand: its name, the leaps it is made of, and its range when written alone.
struct Atom {
    name: &'static str,
    leaps: &'static [(i8, i8)],
    range: Option<u8>,
}

fn atom(letter: char) -> Option<Atom> {
    let (name, leaps, range): (_, &'static [(i8, i8)], _) = match letter {
        'W' => ("wazir", &[(0, 1)], Some(1)),
        'F' => ("ferz", &[(1, 1)], Some(1)),
        'D' => ("dabbaba", &[(0, 2)], Some(1)),
        'N' => ("knight", &[(1, 2)], Some(1)),
        'A' => ("alfil", &[(2, 2)], Some(1)),
        'H' => ("threeleaper", &[(0, 3)], Some(1)),
        'C' => ("camel", &[(1, 3)], Some(1)),
        'Z' => ("zebra", &[(2, 3)], Some(1)),
        'G' => ("tripper", &[(3, 3)], Some(1)),
        'K' => ("king", &[(0, 1), (1, 1)], Some(1)),
        'Q' => ("queen", &[(0, 1), (1, 1)], None),
        'R' => ("rook", &[(0, 1)], None),
        'B' => ("bishop", &[(1, 1)], None),
        _ => return None,
    };
    Some(Atom { name, leaps, range })
}

/// One direction term: a single letter or a two-letter pair, in the mover's frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
    Left,
    Right,
    Vertical,
    Sideways,
    /// `fl`, `fr`, `bl`, `br` (or `lf`, ...): the intersection of a vertical and a horizontal.
    Quadrant {
        forward: bool,
        right: bool,
    },
    /// `ff`, `bb`: mostly vertical, `|dy| > |dx|`.
    NarrowVertical {
        forward: bool,
    },
    /// `ll`, `rr`: mostly horizontal, `|dx| > |dy|`.
    NarrowHorizontal {
        right: bool,
    },
    /// `fs`, `bs`: one vertical way, at least as sideways as vertical.
    WideVertical {
        forward: bool,
    },
    /// `lv`, `rv`: one horizontal way, at least as vertical as sideways.
    TallHorizontal {
        right: bool,
    },
}

impl Direction {
    fn selects(self, step: Offset) -> bool {
        let (dx, dy) = (step.right, step.forward);
        let (width, height) = (dx.abs(), dy.abs());
        let towards = |forward: bool| if forward { dy > 0 } else { dy < 0 };
        let sideways = |right: bool| if right { dx > 0 } else { dx < 0 };
        match self {
            Direction::Forward => dy > 0,
            Direction::Backward => dy < 0,
            Direction::Left => dx < 0,
            Direction::Right => dx > 0,
            Direction::Vertical => dy != 0 && height >= width,
            Direction::Sideways => dx != 0 && width >= height,
            Direction::Quadrant { forward, right } => towards(forward) && sideways(right),
            Direction::NarrowVertical { forward } => towards(forward) && height > width,
            Direction::NarrowHorizontal { right } => sideways(right) && width > height,
            Direction::WideVertical { forward } => towards(forward) && width >= height,
            Direction::TallHorizontal { right } => sideways(right) && height >= width,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Backward => "backward",
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Vertical => "vertical",
            Direction::Sideways => "sideways",
            Direction::Quadrant {
                forward: true,
                right: false,
            } => "forward-left",
            Direction::Quadrant {
                forward: true,
                right: true,
            } => "forward-right",
            Direction::Quadrant {
                forward: false,
                right: false,
            } => "backward-left",
            Direction::Quadrant {
                forward: false,
                right: true,
            } => "backward-right",
            Direction::NarrowVertical { forward: true } => "narrow forward",
            Direction::NarrowVertical { forward: false } => "narrow backward",
            Direction::NarrowHorizontal { right: false } => "narrow left",
            Direction::NarrowHorizontal { right: true } => "narrow right",
            Direction::WideVertical { forward: true } => "wide forward",
            Direction::WideVertical { forward: false } => "wide backward",
            Direction::TallHorizontal { right: false } => "tall left",
            Direction::TallHorizontal { right: true } => "tall right",
        }
    }
}

/// The modifiers written before one atom.
#[derive(Default)]
struct Modifiers {
    move_only: bool,
    capture_only: bool,
    initial_only: bool,
    lame: bool,
    en_passant: bool,
    cannon: bool,
    grasshopper: bool,
    directions: Vec<Direction>,
}

impl Modifiers {
    fn mode(&self) -> MoveMode {
        let may_capture = self.capture_only || self.en_passant || !self.move_only;
        let may_move = self.move_only || (!self.capture_only && !self.en_passant);
        match (may_move, may_capture) {
            (true, false) => MoveMode::MoveOnly,
            (false, true) => MoveMode::CaptureOnly,
            _ => MoveMode::Both,
        }
    }

    fn hop(&self) -> Hop {
        match (self.cannon, self.grasshopper) {
            (true, _) => Hop::Cannon,
            (false, true) => Hop::Grasshopper,
            (false, false) => Hop::None,
        }
    }
}

const MODIFIER_HELP: &str =
    "modifiers are `m` `c` `i` `n` `e`, the hoppers `p` `g` and the directions `f` `b` `l` `r` `v` `s`";

/// Decodes the term starting at byte `start` of `text`; returns its length and the atom.
fn decode_term(text: &str, start: usize) -> (usize, Result<MoveAtom, BetzaError>) {
    let bytes = text.as_bytes();
    let mut index = start;
    while index < bytes.len() && bytes[index].is_ascii_lowercase() {
        index += 1;
    }
    let modifiers_end = index;
    let Some(letter) = text[index..].chars().next().filter(|c| !c.is_whitespace()) else {
        return (index - start, Err(missing_atom(text, start..modifiers_end)));
    };
    let letter_len = letter.len_utf8();
    let Some(atom) = atom(letter) else {
        let term_end = term_end(text, index + letter_len);
        return (
            term_end - start,
            Err(unknown_letter(letter, index..index + letter_len)),
        );
    };
    index += letter_len;
    let (range_len, range) = decode_range(text, index, letter, atom.range);
    let term_end = index + range_len;
    let decoded = decode_modifiers(text, start, modifiers_end)
        .and_then(|modifiers| range.map(|range| (modifiers, range)))
        .and_then(|(modifiers, range)| build_atom(text, start..term_end, &atom, &modifiers, range));
    (term_end - start, decoded)
}

/// The end of a faulty term: the next space, or the next upper-case letter's modifiers.
fn term_end(text: &str, from: usize) -> usize {
    text[from..]
        .find(|c: char| c.is_whitespace() || c.is_ascii_alphabetic())
        .map_or(text.len(), |offset| from + offset)
}

fn missing_atom(text: &str, range: Range<usize>) -> BetzaError {
    let modifiers = &text[range.clone()];
    BetzaError {
        range,
        code: code::BETZA_MISSING_ATOM,
        message: format!("the modifiers `{modifiers}` have no atom after them"),
        label: "expected an atom such as `W` or `N` after these".to_string(),
        help: Some(
            "modifiers are written just before the atom they change, as in `mfW`".to_string(),
        ),
    }
}

fn unknown_letter(letter: char, range: Range<usize>) -> BetzaError {
    let atoms = "atoms are `W` `F` `D` `N` `A` `H` `C` `Z` `G` and the shorthands `K` `Q` `R` `B`";
    BetzaError {
        range,
        code: code::BETZA_ATOM,
        message: format!("`{letter}` is not a Betza atom"),
        label: "not an atom".to_string(),
        help: Some(atoms.to_string()),
    }
}

/// Reads the range after the atom letter at `from`: digits, or the atom letter doubled.
fn decode_range(
    text: &str,
    from: usize,
    letter: char,
    default: Option<u8>,
) -> (usize, Result<Option<u8>, BetzaError>) {
    let rest = &text[from..];
    if rest.starts_with(letter) {
        return (letter.len_utf8(), Ok(None));
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return (0, Ok(default));
    }
    let range = match rest[..digits].parse::<u8>() {
        Ok(0) => Ok(None),
        Ok(count) => Ok(Some(count)),
        Err(_) => Err(BetzaError {
            range: from..from + digits,
            code: code::BETZA_RANGE,
            message: format!("the range `{}` is too large", &rest[..digits]),
            label: "at most 255".to_string(),
            help: Some("write `0` or double the atom (`RR`) for an unlimited rider".to_string()),
        }),
    };
    (digits, range)
}

/// Reads the modifier letters in `start..end`, pairing direction letters as described in the
/// module documentation.
fn decode_modifiers(text: &str, start: usize, end: usize) -> Result<Modifiers, BetzaError> {
    let letters = &text.as_bytes()[start..end];
    let mut modifiers = Modifiers::default();
    let mut index = 0;
    while index < letters.len() {
        let next = letters.get(index + 1).copied();
        let (direction, len) = match (letters[index], next) {
            (b'm', _) => (None, set(&mut modifiers.move_only)),
            (b'c', _) => (None, set(&mut modifiers.capture_only)),
            (b'i', _) => (None, set(&mut modifiers.initial_only)),
            (b'n', _) => (None, set(&mut modifiers.lame)),
            (b'e', _) => (None, set(&mut modifiers.en_passant)),
            (b'p', _) => (None, set(&mut modifiers.cannon)),
            (b'g', _) => (None, set(&mut modifiers.grasshopper)),
            (vertical @ (b'f' | b'b'), next) => vertical_term(vertical == b'f', next),
            (horizontal @ (b'l' | b'r'), next) => horizontal_term(horizontal == b'r', next),
            (b'v', _) => (Some(Direction::Vertical), 1),
            (b's', _) => (Some(Direction::Sideways), 1),
            (other, _) => {
                let at = start + index;
                return Err(BetzaError {
                    range: at..at + 1,
                    code: code::BETZA_MODIFIER,
                    message: format!("`{}` is not a Betza modifier", other as char),
                    label: "unknown modifier".to_string(),
                    help: Some(MODIFIER_HELP.to_string()),
                });
            }
        };
        modifiers.directions.extend(direction);
        index += len;
    }
    Ok(modifiers)
}

fn set(flag: &mut bool) -> usize {
    *flag = true;
    1
}

/// The term starting with `f` (`forward`) or `b`, given the letter after it.
fn vertical_term(forward: bool, next: Option<u8>) -> (Option<Direction>, usize) {
    let same = if forward { b'f' } else { b'b' };
    match next {
        Some(letter) if letter == same => (Some(Direction::NarrowVertical { forward }), 2),
        Some(b'l') => (
            Some(Direction::Quadrant {
                forward,
                right: false,
            }),
            2,
        ),
        Some(b'r') => (
            Some(Direction::Quadrant {
                forward,
                right: true,
            }),
            2,
        ),
        Some(b's') => (Some(Direction::WideVertical { forward }), 2),
        _ => (
            Some(if forward {
                Direction::Forward
            } else {
                Direction::Backward
            }),
            1,
        ),
    }
}

/// The term starting with `r` (`right`) or `l`, given the letter after it.
fn horizontal_term(right: bool, next: Option<u8>) -> (Option<Direction>, usize) {
    let same = if right { b'r' } else { b'l' };
    match next {
        Some(letter) if letter == same => (Some(Direction::NarrowHorizontal { right }), 2),
        Some(b'f') => (
            Some(Direction::Quadrant {
                forward: true,
                right,
            }),
            2,
        ),
        Some(b'b') => (
            Some(Direction::Quadrant {
                forward: false,
                right,
            }),
            2,
        ),
        Some(b'v') => (Some(Direction::TallHorizontal { right }), 2),
        _ => (
            Some(if right {
                Direction::Right
            } else {
                Direction::Left
            }),
            1,
        ),
    }
}

/// Every step of `leap` = (a, b): the eight (or four) sign and order variants, sorted.
pub fn symmetric_steps(leap: (i8, i8)) -> Vec<Offset> {
    let (a, b) = leap;
    let mut steps = BTreeSet::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            steps.insert(Offset {
                right: x * sx,
                forward: y * sy,
            });
        }
    }
    steps.into_iter().collect()
}

fn build_atom(
    text: &str,
    term: Range<usize>,
    atom: &Atom,
    modifiers: &Modifiers,
    range: Option<u8>,
) -> Result<MoveAtom, BetzaError> {
    let all_steps: BTreeSet<Offset> = atom
        .leaps
        .iter()
        .flat_map(|leap| symmetric_steps(*leap))
        .collect();
    let steps: Vec<Offset> = all_steps
        .into_iter()
        .filter(|step| {
            modifiers.directions.is_empty()
                || modifiers
                    .directions
                    .iter()
                    .any(|direction| direction.selects(*step))
        })
        .collect();
    if steps.is_empty() {
        let written = &text[term.clone()];
        let directions: Vec<&str> = modifiers.directions.iter().map(|d| d.words()).collect();
        return Err(BetzaError {
            range: term,
            code: code::BETZA_NO_DIRECTION,
            message: format!(
                "`{written}` selects no direction: a {} has no {} step",
                atom.name,
                directions.join(" or ")
            ),
            label: "selects no step".to_string(),
            help: None,
        });
    }
    if modifiers.cannon || modifiers.grasshopper {
        check_hop(text, term.clone(), modifiers, range)?;
    }
    Ok(MoveAtom {
        steps,
        range,
        mode: modifiers.mode(),
        initial_only: modifiers.initial_only,
        lame: modifiers.lame,
        en_passant: modifiers.en_passant,
        hop: modifiers.hop(),
    })
}

/// A hopper is an unlimited rider that is neither lame nor en passant, and one kind of hopper.
fn check_hop(
    text: &str,
    term: Range<usize>,
    modifiers: &Modifiers,
    range: Option<u8>,
) -> Result<(), BetzaError> {
    let written = &text[term.clone()];
    let problem = if modifiers.cannon && modifiers.grasshopper {
        Some("`p` and `g` are two kinds of hopper: a term is one of them")
    } else if range.is_some() {
        Some("a hopper rides: its atom must be an unlimited rider (`pR`, `gQ`, `pNN`)")
    } else if modifiers.lame || modifiers.en_passant {
        Some("a hopper is neither lame (`n`) nor en passant (`e`)")
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(help) => Err(BetzaError {
            range: term,
            code: code::BETZA_HOP,
            message: format!("`{written}` cannot hop"),
            label: "not a hopper".to_string(),
            help: Some(help.to_string()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offset(right: i8, forward: i8) -> Offset {
        Offset { right, forward }
    }

    fn one(text: &str) -> MoveAtom {
        let mut atoms = decode(text).unwrap_or_else(|errors| panic!("{text}: {errors:?}"));
        assert_eq!(atoms.len(), 1, "{text}");
        atoms.remove(0)
    }

    fn steps(text: &str) -> Vec<(i8, i8)> {
        one(text)
            .steps
            .iter()
            .map(|step| (step.right, step.forward))
            .collect()
    }

    fn first_error(text: &str) -> BetzaError {
        decode(text).expect_err(text).remove(0)
    }

    #[test]
    fn knight_has_eight_steps() {
        let knight = one("N");
        assert_eq!(knight.steps.len(), 8);
        assert_eq!(knight.range, Some(1));
        assert_eq!(knight.mode, MoveMode::Both);
        assert!(knight.steps.contains(&offset(1, 2)));
        assert!(knight.steps.contains(&offset(-2, -1)));
    }

    #[test]
    fn orthogonal_and_diagonal_atoms_have_four_steps() {
        assert_eq!(steps("W"), [(-1, 0), (0, -1), (0, 1), (1, 0)]);
        assert_eq!(steps("F"), [(-1, -1), (-1, 1), (1, -1), (1, 1)]);
        assert_eq!(one("G").steps.len(), 4);
        assert_eq!(one("Z").steps.len(), 8);
    }

    #[test]
    fn shogi_knight_is_narrow_forward() {
        assert_eq!(steps("ffN"), [(-1, 2), (1, 2)]);
    }

    #[test]
    fn forward_knight_has_four_steps() {
        assert_eq!(steps("fN"), [(-2, 1), (-1, 2), (1, 2), (2, 1)]);
    }

    #[test]
    fn sideways_knight_is_wide() {
        assert_eq!(steps("sN"), [(-2, -1), (-2, 1), (2, -1), (2, 1)]);
        assert_eq!(steps("fsN"), [(-2, 1), (2, 1)]);
        assert_eq!(steps("lvN"), [(-1, -2), (-1, 2)]);
    }

    #[test]
    fn quadrants_in_either_order() {
        assert_eq!(steps("flF"), [(-1, 1)]);
        assert_eq!(steps("lfF"), [(-1, 1)]);
        assert_eq!(steps("frN"), [(1, 2), (2, 1)]);
    }

    #[test]
    fn terms_union() {
        assert_eq!(steps("fbW"), [(0, -1), (0, 1)]);
        assert_eq!(steps("vW"), [(0, -1), (0, 1)]);
        assert_eq!(steps("sW"), [(-1, 0), (1, 0)]);
        assert_eq!(steps("rrN"), [(2, -1), (2, 1)]);
    }

    #[test]
    fn riders_and_ranges() {
        let rook = one("R");
        assert_eq!(rook.range, None);
        assert_eq!(rook.steps.len(), 4);
        assert_eq!(one("R3").range, Some(3));
        assert_eq!(one("WW").range, None);
        assert_eq!(one("NN").range, None);
        assert_eq!(one("N0").range, None);
        assert_eq!(one("W3").range, Some(3));
        assert_eq!(one("B").steps, one("F0").steps);
        let queen = one("Q");
        assert_eq!((queen.steps.len(), queen.range), (8, None));
        let king2 = one("K2");
        assert_eq!((king2.steps.len(), king2.range), (8, Some(2)));
        assert_eq!(one("K").range, Some(1));
    }

    #[test]
    fn pawn() {
        let atoms = decode("mfW cfeF imfnD").unwrap();
        assert_eq!(atoms.len(), 3);
        assert_eq!(atoms[0].steps, [offset(0, 1)]);
        assert_eq!(atoms[0].mode, MoveMode::MoveOnly);
        assert_eq!(atoms[1].steps, [offset(-1, 1), offset(1, 1)]);
        assert_eq!(atoms[1].mode, MoveMode::CaptureOnly);
        assert!(atoms[1].en_passant);
        assert_eq!(atoms[2].steps, [offset(0, 2)]);
        assert_eq!(atoms[2].mode, MoveMode::MoveOnly);
        assert!(atoms[2].initial_only && atoms[2].lame && !atoms[2].en_passant);
        assert_eq!(atoms[2].range, Some(1));
    }

    #[test]
    fn move_and_capture_is_both() {
        assert_eq!(one("mcW").mode, MoveMode::Both);
    }

    #[test]
    fn atoms_may_be_written_without_spaces() {
        assert_eq!(decode("mfWcfF").unwrap().len(), 2);
        assert_eq!(decode("  WF ").unwrap().len(), 2);
        assert_eq!(decode("").unwrap().len(), 0);
    }

    #[test]
    fn unknown_modifier() {
        let error = first_error("mxW");
        assert_eq!(error.message, "`x` is not a Betza modifier");
        assert_eq!(error.range, 1..2);
    }

    #[test]
    fn unknown_atom() {
        let error = first_error("W mY");
        assert_eq!(error.message, "`Y` is not a Betza atom");
        assert_eq!(error.range, 3..4);
    }

    #[test]
    fn modifiers_without_atom() {
        let error = first_error("W mf");
        assert_eq!(error.code, code::BETZA_MISSING_ATOM);
        assert_eq!(error.range, 2..4);
        assert_eq!(first_error("mf W").range, 0..2);
    }

    #[test]
    fn selection_of_nothing() {
        let error = first_error("K flW");
        assert_eq!(
            error.message,
            "`flW` selects no direction: a wazir has no forward-left step"
        );
        assert_eq!(error.range, 2..5);
    }

    #[test]
    fn range_too_large() {
        assert_eq!(first_error("R300").range, 1..4);
    }

    #[test]
    fn every_error_is_reported() {
        assert_eq!(decode("Y xW flW").unwrap_err().len(), 3);
    }

    #[test]
    fn hoppers() {
        let cannon = decode("mRcpR").unwrap();
        assert_eq!(cannon.len(), 2);
        assert_eq!(
            (cannon[0].hop, cannon[0].mode),
            (Hop::None, MoveMode::MoveOnly)
        );
        assert_eq!(
            (cannon[1].hop, cannon[1].mode),
            (Hop::Cannon, MoveMode::CaptureOnly)
        );
        assert_eq!(one("pR").mode, MoveMode::Both);
        let grasshopper = one("gQ");
        assert_eq!(
            (grasshopper.hop, grasshopper.steps.len()),
            (Hop::Grasshopper, 8)
        );
        assert_eq!(one("pNN").hop, Hop::Cannon);
        assert_eq!(one("fpR").steps, [offset(0, 1)]);
    }

    #[test]
    fn what_cannot_hop() {
        for text in ["pW", "pR3", "gK", "pgR", "npR", "epR"] {
            let error = first_error(text);
            assert_eq!(error.code, code::BETZA_HOP, "{text}");
            assert_eq!(error.range, 0..text.len(), "{text}");
        }
    }

    #[test]
    fn non_ascii_does_not_panic() {
        assert!(decode("é").is_err());
        assert!(decode("mé").is_err());
        assert!(decode("W€3").is_err());
    }
}
