//! XBetza written from a piece's decoded moves, for XBoard's `piece` command.
//!
//! Why a writer and not the game file's own Betza text: the text may use this project's
//! dialect (pairs such as `lv`, atoms in any order) and a piece may have moves that are not
//! Betza at all (`path` legs, takeovers). The decoded [`MoveAtom`]s say exactly which steps a
//! piece has, so the text is rebuilt from them in the subset of XBetza that XBoard reads the
//! same way, or refused with the reason ([`Inexpressible`]): XBoard then gets no `piece` line
//! for that piece rather than one that would make it reject legal moves or accept illegal ones.
//!
//! The subset: atoms `W F D N A H C Z G` and the shorthands `K Q R B`; a range digit (`0` for
//! unlimited); modifiers `i` (initial), `m`/`c`/`e` (mode), `n` (lame), `p`/`g` (hoppers) and
//! directions, written just before the atom. Orthogonal atoms take `f b l r` (one step each) and `v s`; diagonal
//! atoms `fl fr bl br` (one step each) and `f b l r` (a pair each); oblique atoms (`N C Z`) only
//! the pairs `ff bb` (narrow forward, backward) and `fs bs` (wide forward, backward), the
//! readings XBoard and Fairy-Stockfish share (a single oblique step has no agreed spelling).
//! Castling is `O` with the king's distance (`KO2`), for castling with the corner piece.

use std::collections::BTreeSet;
use std::fmt;
use variant_dsl::{CastlingDef, Definition, MoveAtom, MoveMode, Offset, PieceDef, PieceId, Square};

/// Why a piece has no exact XBetza equivalent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inexpressible {
    /// It moves by `path` legs (takeovers, bent paths with conditions).
    Paths,
    /// It cannot be captured.
    Uncapturable,
    /// A leap of no XBetza atom (longer than three squares).
    Leap(i8, i8),
    /// A set of oblique directions that is not a union of XBetza's pairs.
    ObliqueDirections(char),
    /// Initial moves from a zone that a piece may come back to, where XBoard's `i` means
    /// "has not moved yet".
    InitialZone,
    /// Castling that is not XBetza's `O`: the king's distance differs, or the partner does
    /// not start in the corner or land beside the king.
    Castling,
    /// The sides do not move in opposite directions, so one description cannot serve both.
    Orientation,
    /// It is confined to a zone or moves differently in one (`confined to`, `moves ... in`,
    /// `moves ... along`), or its hops and captures depend on piece types (`may not hop
    /// over`, `may not capture`), which XBetza cannot say.
    Regions,
}

impl fmt::Display for Inexpressible {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Inexpressible::Paths => write!(f, "it moves along paths (compound moves, conditions)"),
            Inexpressible::Uncapturable => write!(f, "it cannot be captured"),
            Inexpressible::Regions => write!(
                f,
                "its moves depend on zones of the board or on the pieces it meets"
            ),
            Inexpressible::Leap(right, forward) => {
                write!(f, "its leap ({right},{forward}) has no XBetza atom")
            }
            Inexpressible::ObliqueDirections(atom) => write!(
                f,
                "its {atom} directions are not a union of XBetza's ff/bb/fs/bs pairs"
            ),
            Inexpressible::InitialZone => write!(
                f,
                "its initial moves come from a zone it may return to (XBetza `i` means unmoved)"
            ),
            Inexpressible::Castling => write!(f, "its castling is not XBetza's corner castling"),
            Inexpressible::Orientation => {
                write!(f, "the sides do not move in opposite directions")
            }
        }
    }
}

/// One XBetza term before shorthands: modifiers (without directions), a direction, an atom
/// letter and a range suffix.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Term {
    modifiers: String,
    direction: &'static str,
    atom: char,
    range: String,
}

/// The XBetza of piece `id` of `definition`, or why there is none.
pub fn write(definition: &Definition, id: PieceId) -> Result<String, Inexpressible> {
    let piece = &definition.pieces[id.0 as usize];
    if !piece.paths.is_empty() {
        return Err(Inexpressible::Paths);
    }
    if piece.uncapturable {
        return Err(Inexpressible::Uncapturable);
    }
    if piece.confined.is_some()
        || !piece.zoned_moves.is_empty()
        || !piece.lined_moves.is_empty()
        || !piece.no_hurdle.is_empty()
        || !piece.no_capture.is_empty()
    {
        return Err(Inexpressible::Regions);
    }
    if !opposite_sides(definition) {
        return Err(Inexpressible::Orientation);
    }
    let everywhere = initial_zone_everywhere(definition, piece);
    if piece.moves.iter().any(|atom| atom.initial_only)
        && !everywhere
        && !initial_means_unmoved(piece)
    {
        return Err(Inexpressible::InitialZone);
    }
    let mut terms = Vec::new();
    for atom in &piece.moves {
        let atom = MoveAtom {
            initial_only: atom.initial_only && !everywhere,
            ..atom.clone()
        };
        terms.extend(atom_terms(&atom)?);
    }
    let mut text: String = shorten(terms).iter().map(Term::to_string).collect();
    if piece.royal {
        if let Some(distance) = castling_distance(definition)? {
            text.push_str(&format!("O{distance}"));
        }
    }
    Ok(text)
}

impl fmt::Display for Term {
    /// `i`, the direction, the mode and `n`, in Fairy-Stockfish's order (`ifmnD`, `fceF`),
    /// which XBoard reads as meant.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (initial, rest) = match self.modifiers.strip_prefix('i') {
            Some(rest) => ("i", rest),
            None => ("", self.modifiers.as_str()),
        };
        write!(
            f,
            "{initial}{}{rest}{}{}",
            self.direction, self.atom, self.range
        )
    }
}

/// Two sides, the first moving up and the second down: XBoard mirrors a `&` description for
/// the second side.
fn opposite_sides(definition: &Definition) -> bool {
    use variant_dsl::Forward;
    matches!(
        definition.sides.as_slice(),
        [first, second] if first.forward == Forward::Up && second.forward == Forward::Down
    )
}

/// Whether every side's initial zone is the whole board: its `i` moves are then moves from any
/// square, written without `i` (torpedo's pawn, whose double step is allowed from every rank).
fn initial_zone_everywhere(definition: &Definition, piece: &PieceDef) -> bool {
    let board = &definition.board;
    let squares = || {
        (0..board.ranks)
            .flat_map(move |rank| (0..board.files).map(move |file| Square { file, rank }))
            .filter(|&square| board.contains(square))
    };
    !piece.initial_zone.is_empty()
        && piece
            .initial_zone
            .iter()
            .all(|zone| squares().all(|square| zone.contains(&square)))
}

/// Whether a piece in its initial zone has never moved: the zone of each side is one rank and
/// every move of the piece goes forward, so a piece that moved is past that rank for good.
fn initial_means_unmoved(piece: &PieceDef) -> bool {
    let one_rank = piece.initial_zone.iter().all(|zone| {
        zone.first()
            .is_none_or(|first| zone.iter().all(|square| square.rank == first.rank))
    });
    let forward_only = piece
        .moves
        .iter()
        .flat_map(|atom| &atom.steps)
        .all(|step| step.forward > 0);
    one_rank && forward_only
}

/// The terms of one decoded atom: its steps grouped by leap, each group's directions named.
fn atom_terms(atom: &MoveAtom) -> Result<Vec<Term>, Inexpressible> {
    let mut leaps: Vec<((i8, i8), BTreeSet<Offset>)> = Vec::new();
    for &step in &atom.steps {
        let (x, y) = (step.right.abs(), step.forward.abs());
        let leap = (x.min(y), x.max(y));
        match leaps.iter_mut().find(|(l, _)| *l == leap) {
            Some((_, steps)) => {
                steps.insert(step);
            }
            None => leaps.push((leap, BTreeSet::from([step]))),
        }
    }
    let modifiers = modifiers(atom);
    let range = match atom.range {
        Some(1) => String::new(),
        Some(n) => n.to_string(),
        None => "0".to_string(),
    };
    let mut terms = Vec::new();
    for (leap, steps) in leaps {
        let letter = atom_letter(leap).ok_or(Inexpressible::Leap(leap.0, leap.1))?;
        for direction in directions(leap, &steps).ok_or(Inexpressible::ObliqueDirections(letter))? {
            terms.push(Term {
                modifiers: modifiers.clone(),
                direction,
                atom: letter,
                range: range.clone(),
            });
        }
    }
    Ok(terms)
}

/// `i`, the mode (`m`, `c`, `e`, `mce`, `ce`) and `n`, in that order (the direction goes after
/// the `i` when written).
fn modifiers(atom: &MoveAtom) -> String {
    let mut text = String::new();
    if atom.initial_only {
        text.push('i');
    }
    text.push_str(match (atom.mode, atom.en_passant) {
        (MoveMode::Both, false) => "",
        (MoveMode::Both, true) => "mce",
        (MoveMode::MoveOnly, _) => "m",
        (MoveMode::CaptureOnly, false) => "c",
        (MoveMode::CaptureOnly, true) => "ce",
    });
    if atom.lame {
        text.push('n');
    }
    match atom.hop {
        variant_dsl::Hop::Cannon => text.push('p'),
        variant_dsl::Hop::Grasshopper => text.push('g'),
        variant_dsl::Hop::None => {}
    }
    text
}

/// The atom of a leap `(short, long)`.
fn atom_letter(leap: (i8, i8)) -> Option<char> {
    Some(match leap {
        (0, 1) => 'W',
        (1, 1) => 'F',
        (0, 2) => 'D',
        (1, 2) => 'N',
        (2, 2) => 'A',
        (0, 3) => 'H',
        (1, 3) => 'C',
        (2, 3) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

/// The direction prefixes whose union is exactly `steps` (all of one leap), one term each;
/// `""` for all of them; `None` when the subset has no spelling XBoard shares.
fn directions(leap: (i8, i8), steps: &BTreeSet<Offset>) -> Option<Vec<&'static str>> {
    let (short, long) = leap;
    let at = |right: i8, forward: i8| Offset { right, forward };
    // Each candidate: a prefix and the steps it names, pairs before single steps.
    let named: Vec<(&'static str, Vec<Offset>)> = if short == 0 {
        let (f, b, l, r) = (at(0, long), at(0, -long), at(-long, 0), at(long, 0));
        vec![
            ("v", vec![f, b]),
            ("s", vec![l, r]),
            ("f", vec![f]),
            ("b", vec![b]),
            ("l", vec![l]),
            ("r", vec![r]),
        ]
    } else if short == long {
        let d = long;
        let (fl, fr, bl, br) = (at(-d, d), at(d, d), at(-d, -d), at(d, -d));
        vec![
            ("f", vec![fl, fr]),
            ("b", vec![bl, br]),
            ("l", vec![fl, bl]),
            ("r", vec![fr, br]),
            ("fl", vec![fl]),
            ("fr", vec![fr]),
            ("bl", vec![bl]),
            ("br", vec![br]),
        ]
    } else {
        vec![
            ("ff", vec![at(-short, long), at(short, long)]),
            ("bb", vec![at(-short, -long), at(short, -long)]),
            ("fs", vec![at(-long, short), at(long, short)]),
            ("bs", vec![at(-long, -short), at(long, -short)]),
        ]
    };
    let all: BTreeSet<Offset> = named.iter().flat_map(|(_, s)| s.iter().copied()).collect();
    if *steps == all {
        return Some(vec![""]);
    }
    let mut left = steps.clone();
    let mut chosen = Vec::new();
    for (prefix, named_steps) in &named {
        if named_steps.iter().all(|step| left.contains(step)) {
            chosen.push(*prefix);
            for step in named_steps {
                left.remove(step);
            }
        }
    }
    left.is_empty().then_some(chosen)
}

/// The shorthands: `W`+`F` as `K`, `W0`+`F0` as `Q`, `W0` as `R`, `F0` as `B`, for terms of
/// every direction with the same modifiers.
fn shorten(terms: Vec<Term>) -> Vec<Term> {
    let mut out: Vec<Term> = Vec::new();
    let find = |terms: &[Term], atom: char, like: &Term| {
        terms.iter().position(|t| {
            t.atom == atom
                && t.direction.is_empty()
                && t.modifiers == like.modifiers
                && t.range == like.range
        })
    };
    let mut rest = terms;
    while !rest.is_empty() {
        let term = rest.remove(0);
        let whole = term.direction.is_empty() && (term.range.is_empty() || term.range == "0");
        let partner = match term.atom {
            'W' => 'F',
            'F' => 'W',
            _ => '?',
        };
        if whole && partner != '?' {
            if let Some(index) = find(&rest, partner, &term) {
                rest.remove(index);
                let atom = if term.range.is_empty() { 'K' } else { 'Q' };
                out.push(Term {
                    atom,
                    range: String::new(),
                    ..term
                });
                continue;
            }
            if term.range == "0" {
                let atom = if term.atom == 'W' { 'R' } else { 'B' };
                out.push(Term {
                    atom,
                    range: String::new(),
                    ..term
                });
                continue;
            }
        }
        out.push(term);
    }
    out
}

/// XBetza's `O` distance for the game's castling: every castling moves the king the same number
/// of files, its partner from the corner of the king's rank to the square the king crossed.
/// `None` for a game without castling.
fn castling_distance(definition: &Definition) -> Result<Option<u8>, Inexpressible> {
    let files = definition.board.files;
    let distance = |castling: &CastlingDef| -> Option<u8> {
        let (king_from, king_to) = (castling.king_from, castling.king_to);
        let (rook_from, rook_to) = (castling.rook_from, castling.rook_to);
        let same_rank = [king_to.rank, rook_from.rank, rook_to.rank]
            .iter()
            .all(|&rank| rank == king_from.rank);
        let toward_right = king_to.file > king_from.file;
        let corner = if toward_right { files - 1 } else { 0 };
        let crossed = if toward_right {
            king_to.file.checked_sub(1)?
        } else {
            king_to.file + 1
        };
        (same_rank && rook_from.file == corner && rook_to.file == crossed)
            .then(|| king_to.file.abs_diff(king_from.file))
            .filter(|&d| d > 0)
    };
    let mut found = None;
    for castling in &definition.castling {
        let d = distance(castling).ok_or(Inexpressible::Castling)?;
        if found.is_some_and(|seen| seen != d) {
            return Err(Inexpressible::Castling);
        }
        found = Some(d);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-sided game on 8x8 with the given piece lines, and castling when asked.
    fn game(pieces: &str, castling: bool) -> Definition {
        let castling = if castling {
            "castling {\n white K king e1-g1 rook h1-f1\n white Q king e1-c1 rook a1-d1\n black k king e8-g8 rook h8-f8\n black q king e8-c8 rook a8-d8\n}"
        } else {
            ""
        };
        let source = format!(
            "game \"T\"\nboard 8x8\nside white {{ forward up }}\nside black {{ forward down }}\npiece King {{ letter K; royal; moves \"K\" }}\n{pieces}\n{castling}\nsetup \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\nend {{ check }}\n"
        );
        variant_dsl::load_source("t.variant", &source)
            .unwrap_or_else(|f| panic!("{}", f.render()))
            .definition
    }

    fn written(definition: &Definition, letter: char) -> Result<String, Inexpressible> {
        let index = definition
            .pieces
            .iter()
            .position(|p| p.letter == letter)
            .expect("the piece");
        write(definition, PieceId(index as u8))
    }

    /// The steps (with mode, range and flags) that a Betza text decodes to, as a set.
    fn meaning(betza: &str) -> BTreeSet<String> {
        variant_dsl::betza::decode(betza)
            .expect("XBetza our decoder reads")
            .iter()
            .flat_map(|atom| {
                atom.steps.iter().map(move |s| {
                    format!(
                        "{},{} {:?} {:?} i{} n{} e{}",
                        s.right,
                        s.forward,
                        atom.range,
                        atom.mode,
                        atom.initial_only,
                        atom.lame,
                        atom.en_passant
                    )
                })
            })
            .collect()
    }

    #[test]
    fn chess_pieces_are_written_as_fairy_stockfish_writes_them() {
        let definition = game(
            "piece Queen { letter Q; moves \"Q\" }\npiece Rook { letter R; moves \"R\" }\npiece Bishop { letter B; moves \"B\" }\npiece Knight { letter N; moves \"N\" }\npiece Pawn { letter P; moves \"mfW cfeF imfnD\"; initial rank 2 }",
            true,
        );
        for (letter, expected) in [
            ('K', "KO2"),
            ('Q', "Q"),
            ('R', "R"),
            ('B', "B"),
            ('N', "N"),
            ('P', "fmWfceFifmnD"),
        ] {
            assert_eq!(written(&definition, letter).as_deref(), Ok(expected));
        }
    }

    #[test]
    fn what_is_written_decodes_to_the_same_moves() {
        let betzas = [
            "fmW cfeF imfnD",
            "ffN bsN",
            "fsN fN",
            "WN",
            "fR bW",
            "mQ cK",
            "vR sW2",
            "flB brF",
            "lF fB",
            "nN nA nD",
            "C Z G H",
            "fF bbC",
            "R4 FF",
        ];
        for betza in betzas {
            let pieces = format!("piece Test {{ letter T; moves \"{betza}\" }}");
            let definition = game(&pieces, false);
            let text = written(&definition, 'T').unwrap_or_else(|e| panic!("{betza}: {e}"));
            assert_eq!(meaning(&text), meaning(betza), "{betza} written as {text}");
        }
    }

    #[test]
    fn pieces_without_an_exact_equivalent_are_refused_with_the_reason() {
        let definition = game(
            "piece Single { letter S; moves \"flN\" }\npiece Path { letter T; path W any, then outward }\npiece Back { letter U; moves \"imW\" }",
            false,
        );
        assert_eq!(
            written(&definition, 'S'),
            Err(Inexpressible::ObliqueDirections('N'))
        );
        assert_eq!(written(&definition, 'T'), Err(Inexpressible::Paths));
        assert_eq!(written(&definition, 'U'), Err(Inexpressible::InitialZone));
    }
}
