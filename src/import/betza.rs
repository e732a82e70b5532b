//! Fairy-Stockfish's Betza notation turned into the language's (docs/language.md §2.7).
//!
//! The two read the same letters differently: Fairy-Stockfish pairs direction letters its own
//! way (a lone `f` is "narrow forward", `fN` two leaps where the language's `fN` has four), it
//! turns the board round for Black where the language mirrors it, and it silently skips letters
//! it does not know. So a term is not copied: the exact set of steps Fairy-Stockfish gives it is
//! computed (as its `from_betza` does), and then written back as a union of the language's
//! direction selections that gives exactly that set, or refused with the reason. The hoppers
//! `p` (cannon) and `g` (grasshopper) mean the same in both, on unlimited riders.

use std::collections::BTreeSet;

/// A step (dx, dy): dx towards higher files, dy forward for the piece's owner.
type Step = (i32, i32);

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// Whether a direction selection keeps a step.
type Keeps = fn(Step) -> bool;

/// The language's direction selections, and which steps each keeps (§2.7.5).
const OUR_DIRECTIONS: [(&str, Keeps); 18] = [
    ("f", |(_, y)| y > 0),
    ("b", |(_, y)| y < 0),
    ("l", |(x, _)| x < 0),
    ("r", |(x, _)| x > 0),
    ("v", |(x, y)| y != 0 && y.abs() >= x.abs()),
    ("s", |(x, y)| x != 0 && x.abs() >= y.abs()),
    ("fl", |(x, y)| y > 0 && x < 0),
    ("fr", |(x, y)| y > 0 && x > 0),
    ("bl", |(x, y)| y < 0 && x < 0),
    ("br", |(x, y)| y < 0 && x > 0),
    ("ff", |(x, y)| y > 0 && y.abs() > x.abs()),
    ("bb", |(x, y)| y < 0 && y.abs() > x.abs()),
    ("ll", |(x, y)| x < 0 && x.abs() > y.abs()),
    ("rr", |(x, y)| x > 0 && x.abs() > y.abs()),
    ("fs", |(x, y)| y > 0 && x.abs() >= y.abs()),
    ("bs", |(x, y)| y < 0 && x.abs() >= y.abs()),
    ("lv", |(x, y)| x < 0 && y.abs() >= x.abs()),
    ("rv", |(x, y)| x > 0 && y.abs() >= x.abs()),
];

/// One atom of a Fairy-Stockfish term: its offset (forward, sideways) and whether it rides.
#[derive(Clone, Copy)]
struct Atom {
    offset: (i32, i32),
    rider: bool,
}

/// The atoms a Fairy-Stockfish letter stands for.
fn atoms(letter: char) -> Option<Vec<Atom>> {
    let leaper = |a, b| Atom {
        offset: (a, b),
        rider: false,
    };
    let rider = |a, b| Atom {
        offset: (a, b),
        rider: true,
    };
    Some(match letter {
        'W' => vec![leaper(1, 0)],
        'F' => vec![leaper(1, 1)],
        'D' => vec![leaper(2, 0)],
        'N' => vec![leaper(2, 1)],
        'A' => vec![leaper(2, 2)],
        'H' => vec![leaper(3, 0)],
        'L' | 'C' => vec![leaper(3, 1)],
        'J' | 'Z' => vec![leaper(3, 2)],
        'G' => vec![leaper(3, 3)],
        'K' => vec![leaper(1, 0), leaper(1, 1)],
        'R' => vec![rider(1, 0)],
        'B' => vec![rider(1, 1)],
        'Q' => vec![rider(1, 0), rider(1, 1)],
        _ => return None,
    })
}

/// The language's atom letter for an offset.
fn our_atom(offset: (i32, i32)) -> char {
    match offset {
        (1, 0) => 'W',
        (1, 1) => 'F',
        (2, 0) => 'D',
        (2, 1) => 'N',
        (2, 2) => 'A',
        (3, 0) => 'H',
        (3, 1) => 'C',
        (3, 2) => 'Z',
        _ => 'G',
    }
}

/// The steps Fairy-Stockfish gives an atom (a, b) under the direction pairs `directions` (its
/// eight slots, as `from_betza` fills them; no direction means all of them).
fn fsf_steps((a, b): (i32, i32), directions: &[String]) -> BTreeSet<Step> {
    let has = |names: &[&str]| {
        directions.is_empty() || names.iter().any(|n| directions.iter().any(|d| d == n))
    };
    let slots: [(Step, &[&str]); 8] = [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ];
    slots
        .iter()
        .filter(|(_, names)| has(names))
        .map(|(step, _)| *step)
        .collect()
}

/// Every step of the language's atom with this offset.
fn all_steps((a, b): (i32, i32)) -> BTreeSet<Step> {
    fsf_steps((a, b), &[])
}

/// The language's direction prefixes whose union is exactly `wanted` among the atom's steps.
fn cover(offset: (i32, i32), wanted: &BTreeSet<Step>) -> Option<Vec<&'static str>> {
    let all = all_steps(offset);
    if *wanted == all {
        return Some(vec![""]);
    }
    let mut chosen = Vec::new();
    let mut covered = BTreeSet::new();
    let mut candidates: Vec<(&str, BTreeSet<Step>)> = OUR_DIRECTIONS
        .iter()
        .map(|(name, keeps)| (*name, all.iter().copied().filter(|s| keeps(*s)).collect()))
        .filter(|(_, set): &(&str, BTreeSet<Step>)| !set.is_empty() && set.is_subset(wanted))
        .collect();
    candidates.sort_by_key(|(_, set)| std::cmp::Reverse(set.len()));
    for (name, set) in candidates {
        if !set.is_subset(&covered) {
            covered.extend(set);
            chosen.push(name);
        }
    }
    (covered == *wanted).then_some(chosen)
}

/// The state of one term while its letters are read.
#[derive(Default, Clone)]
struct Term {
    modalities: String,
    lame: bool,
    /// `p` or `g`, if the term hops.
    hop: Option<char>,
    directions: Vec<String>,
}

/// One atom of a term as Fairy-Stockfish reads it: the term's modifiers, the atom, whether it
/// rides and its range (`Some(0)`: unlimited).
type ReadAtom = (Term, Atom, bool, Option<u32>);

/// Converts a Fairy-Stockfish Betza string to the language's, or says why it cannot be.
pub fn convert(betza: &str) -> Result<String, String> {
    let mut out: Vec<String> = Vec::new();
    for (term, atom, rides, steps) in read(betza)? {
        out.extend(write_atom(&term, &atom, rides, steps)?);
    }
    Ok(out.join(" "))
}

/// The squares a piece moving as `betza` could step to first without capturing, on an empty
/// board, as (dx, dy) with dy forward: each non-capturing, non-hopping atom's leap or a
/// rider's first step (Fairy-Stockfish's test of a piece that could never move again).
pub fn quiet_first_steps(betza: &str) -> Result<BTreeSet<(i32, i32)>, String> {
    let mut found = BTreeSet::new();
    for (term, atom, _, _) in read(betza)? {
        let quiet = term.modalities.is_empty() || term.modalities.contains('m');
        if quiet && term.hop.is_none() {
            found.extend(fsf_steps(atom.offset, &term.directions));
        }
    }
    Ok(found)
}

/// Reads a Fairy-Stockfish Betza string into its atoms, or says why it cannot be read exactly.
fn read(betza: &str) -> Result<Vec<ReadAtom>, String> {
    let chars: Vec<char> = betza.chars().collect();
    let mut out: Vec<ReadAtom> = Vec::new();
    let mut term = Term::default();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' | 'c' => term.modalities.push(c),
            'n' => term.lame = true,
            'p' | 'g' => {
                if term.hop.is_some_and(|hop| hop != c) {
                    return Err(format!("`{betza}`: a term is one kind of hopper, `p` or `g`"));
                }
                term.hop = Some(c);
            }
            'i' => {
                return Err("the Betza modifier `i` (initial moves) is read differently: Fairy-Stockfish allows it in its own regions, the language in a piece's `initial` zone".into())
            }
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                let next = chars.get(i + 1).copied();
                let pairs = next.is_some_and(|c2| {
                    c2 == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                });
                if pairs {
                    term.directions.push(format!("{c}{}", chars[i + 1]));
                    i += 1;
                } else {
                    term.directions.push(format!("{c}{c}"));
                }
            }
            _ if c.is_ascii_uppercase() => {
                let Some(atoms) = atoms(c) else {
                    return Err(format!("the Betza atom `{c}` is not one Fairy-Stockfish reads"));
                };
                let mut range: Option<u32> = None;
                match chars.get(i + 1) {
                    Some(d) if d.is_ascii_digit() => {
                        range = d.to_digit(10);
                        i += 1;
                    }
                    Some(&d) if d == c => {
                        range = Some(0);
                        i += 1;
                    }
                    _ => {}
                }
                if chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                    return Err(format!(
                        "`{betza}`: Fairy-Stockfish reads one digit of a range and skips the rest"
                    ));
                }
                for atom in atoms {
                    let rides = atom.rider || range.is_some();
                    let steps = if atom.rider && range.is_none() { Some(0) } else { range };
                    out.push((term.clone(), atom, rides, steps));
                }
                term = Term::default();
            }
            _ => {
                return Err(format!(
                    "`{c}` in `{betza}` is not a Betza letter Fairy-Stockfish reads (it skips it silently)"
                ))
            }
        }
        i += 1;
    }
    if !term.modalities.is_empty() || term.lame || term.hop.is_some() || !term.directions.is_empty()
    {
        return Err(format!("`{betza}` ends with modifiers but no atom"));
    }
    Ok(out)
}

/// The language's terms for one atom of a term.
fn write_atom(
    term: &Term,
    atom: &Atom,
    rides: bool,
    range: Option<u32>,
) -> Result<Vec<String>, String> {
    let offset = atom.offset;
    let letter = our_atom(offset);
    if rides && !matches!(offset, (1, 0) | (1, 1) | (2, 1)) {
        return Err(format!(
            "a rider of `{letter}`: Fairy-Stockfish rides only along W, F and N lines"
        ));
    }
    if term.lame && (rides || !matches!(offset, (2, 0) | (2, 1) | (2, 2) | (3, 2))) {
        return Err(format!(
            "a lame (`n`) `{letter}`: Fairy-Stockfish makes only N, A, Z and D leaps lame"
        ));
    }
    if let Some(hop) = term.hop {
        if range != Some(0) || term.lame {
            return Err(format!(
                "a hopper (`{hop}`) `{letter}` that is not a plain unlimited rider: the language's hoppers ride without a range, and are not lame"
            ));
        }
    }
    let mut directions = term.directions.clone();
    if offset.1 == 0 {
        // Fairy-Stockfish splits mixed pairs on orthogonal atoms (`fsW` is forward and sideways).
        directions = directions
            .iter()
            .flat_map(|d| {
                let mut letters = d.chars();
                let (a, b) = (letters.next().unwrap(), letters.next().unwrap());
                if a == b {
                    vec![d.clone()]
                } else {
                    vec![format!("{a}{a}"), format!("{b}{b}")]
                }
            })
            .collect();
    }
    let steps = fsf_steps(offset, &directions);
    if steps.is_empty() {
        return Ok(Vec::new());
    }
    // Fairy-Stockfish turns the board round for Black; the language mirrors it (l and r stay).
    let mirrored: BTreeSet<Step> = steps.iter().map(|&(x, y)| (-x, y)).collect();
    if mirrored != steps {
        return Err(format!(
            "a `{letter}` that is not left-right symmetric: Fairy-Stockfish turns it round for Black, the language mirrors it"
        ));
    }
    let Some(prefixes) = cover(offset, &steps) else {
        return Err(format!(
            "no union of the language's direction letters gives these `{letter}` steps"
        ));
    };
    let modality = match (term.modalities.contains('m'), term.modalities.contains('c')) {
        (true, false) => "m",
        (false, true) => "c",
        _ => "",
    };
    let lame = if term.lame { "n" } else { "" };
    let hop = term.hop.map_or_else(String::new, String::from);
    let range = range.map_or_else(String::new, |r| r.to_string());
    Ok(prefixes
        .iter()
        .map(|p| format!("{modality}{hop}{lame}{p}{letter}{range}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::convert;

    #[test]
    fn plain_pieces_are_unchanged() {
        assert_eq!(convert("N").unwrap(), "N");
        assert_eq!(convert("Q").unwrap(), "W0 F0");
        assert_eq!(convert("K").unwrap(), "W F");
        assert_eq!(convert("mNcB").unwrap(), "mN cF0");
    }

    #[test]
    fn a_lone_direction_is_narrow_in_fairy_stockfish() {
        // fN: the two narrow forward leaps (the shogi knight), the language's ffN.
        assert_eq!(convert("fN").unwrap(), "ffN");
        assert_eq!(convert("fsW").unwrap(), "sW fW");
        assert_eq!(convert("FfW").unwrap(), "F fW");
    }

    #[test]
    fn hoppers_are_kept() {
        assert_eq!(convert("mRcpR").unwrap(), "mW0 cpW0");
        assert_eq!(convert("pR").unwrap(), "pW0");
        assert_eq!(convert("gQ").unwrap(), "gW0 gF0");
    }

    #[test]
    fn what_has_no_equivalent_is_refused() {
        assert!(convert("pW").unwrap_err().contains("hopper"));
        assert!(convert("pR3").unwrap_err().contains("hopper"));
        assert!(convert("pgR").unwrap_err().contains("hopper"));
        assert!(convert("lN").unwrap_err().contains("symmetric"));
        assert!(convert("DD").unwrap_err().contains("rider"));
        assert!(convert("Wx").is_err());
        assert!(convert("fm").is_err());
    }
}
