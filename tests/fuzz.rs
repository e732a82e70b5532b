//! Fuzzing through the public API and the real binary: nothing may panic, hang or print a
//! panic, whatever FEN, move or game file comes in.
//!
//! In-process (proptest, seeded): mutated FENs (from the setup of every game in `games/` and
//! the FENs of `tests/perft/*.perft`: characters replaced, inserted and deleted, numbers made
//! huge, fields dropped, duplicated, swapped and replaced), random and mutated move strings,
//! random games of every game, and mutated game files that still load. Whatever is accepted
//! must behave: its FEN round-trips (printed, read again, printed the same), every legal move
//! is accepted by `play`, and `play` accepts (and `explain` calls legal) exactly the listed
//! moves.
//!
//! Through the binary (`variant moves|show|perft|explain|check|dump` on mutated input): each run must end
//! within a few seconds (else it hangs, and it is killed), with exit code 0 or 1 and no
//! "panicked" on stderr.
//!
//! Deep and long expressions (parentheses, runs of `not`, `except` and `+ 1` chains, in every kind
//! of place an expression goes) are refused with a diagnostic or accepted and then work in every
//! command; `--ignored` adds a longer mutation fuzz of game files, each run of the binary bounded
//! in time and memory.
//!
//! `--ignored` also runs the longer fuzz through the binary of what else comes from outside, each
//! run bounded the same way: mutated FENs in every command that takes one (`show`, `moves`,
//! `perft`, `explain`, `play` between random players; with `--strict` and without), where a FEN
//! `show` accepts must work everywhere; mutated records of real random games (bytes, lines, tags,
//! moves) given to `replay`, `replay --step` and `play --load`; and random prompt input (moves
//! legal and not, commands, garbage, very long lines, bytes that are not UTF-8) typed against a
//! random player, which must end with exit code 0 when the input does.
//!
//! A modest number of cases by default; `PROPTEST_CASES=N` runs N of every in-process property
//! and N/8 binary runs, `PROPTEST_RNG_SEED=S` explores other inputs (`scripts/fuzz.sh` does
//! both).

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use variant_dsl::Definition;
use variant_interpreter::Session;

// ---------------------------------------------------------------------------------------------
// The corpus: every game and the FENs to start from
// ---------------------------------------------------------------------------------------------

struct Corpus {
    /// (name, source text, definition) of every game in `games/`, sorted by name.
    games: Vec<(String, String, Definition)>,
    /// (index into `games`, FEN): every game's setup and the perft suites' positions.
    fens: Vec<(usize, String)>,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("games"))
            .expect("games/")
            .map(|entry| entry.expect("an entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "variant"))
            .collect();
        paths.sort();
        let mut games = Vec::new();
        let mut fens = Vec::new();
        for path in paths {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("a name")
                .to_string();
            let source = std::fs::read_to_string(&path).expect("readable");
            let definition = variant_dsl::load_file(&path)
                .unwrap_or_else(|f| panic!("{}", f.render()))
                .definition;
            let index = games.len();
            let setup = variant_interpreter::open(&definition, None)
                .expect("a shipped game opens")
                .fen();
            fens.push((index, setup));
            let suite = root().join("tests/perft").join(format!("{name}.perft"));
            if let Ok(text) = std::fs::read_to_string(suite) {
                for fen in text.lines().filter_map(|l| l.strip_prefix("fen ")) {
                    fens.push((index, fen.to_string()));
                }
            }
            games.push((name, source, definition));
        }
        assert!(games.len() >= 4 && fens.len() >= 10, "the corpus is there");
        Corpus { games, fens }
    })
}

/// Seeded unless `PROPTEST_RNG_SEED` is set; `PROPTEST_CASES` overrides `cases`, divided by
/// `divisor` (the binary runs are costlier).
fn config(cases: u32, divisor: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse::<u32>().ok())
            .map_or(cases, |n| (n / divisor).max(1)),
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            default.rng_seed
        } else {
            RngSeed::Fixed(0xf022)
        },
        // Failures are reported with their input; no regression files in the tree.
        failure_persistence: None,
        ..default
    }
}

// ---------------------------------------------------------------------------------------------
// Mutations of text
// ---------------------------------------------------------------------------------------------

/// Numbers at the edges of the integer types, and other awkward text.
const NASTY: &[&str] = &[
    "4294967295",
    "4294967296",
    "2147483647",
    "2147483648",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999",
    "65535",
    "65536",
    "255",
    "256",
    "0",
    "00",
    "-1",
    "+1",
    "1.5",
    "9",
    "10",
    "65",
    "-",
    "/",
    "//",
    " ",
    "*",
    "[",
    "]",
    "[]",
    "[-]",
    "[KQ]",
    "[pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp]",
    "KQkq",
    "KKQQ",
    "w",
    "b",
    "x",
    "a9",
    "i1",
    "e3",
    "e6",
    "h8",
    "a0",
    "z99",
    "é",
    "\u{200b}",
    "𝄞",
    "\t",
];

const NASTY_CHARS: &str = "0123456789/ -[]*@KQRBNPkqrbnpwbxz~é";

#[derive(Clone, Debug)]
enum Edit {
    Replace {
        at: usize,
        with: char,
    },
    Insert {
        at: usize,
        text: String,
    },
    Delete {
        at: usize,
        len: usize,
    },
    /// Replaces the `nth` run of digits.
    Number {
        nth: usize,
        value: String,
    },
    DropField {
        nth: usize,
    },
    DuplicateField {
        nth: usize,
    },
    SwapFields {
        a: usize,
        b: usize,
    },
    /// Replaces a whole whitespace-separated field.
    Field {
        nth: usize,
        value: String,
    },
    Truncate {
        at: usize,
    },
    /// Sets one square of the board field (counts of empty squares expanded) to a piece or to
    /// empty (`.`).
    Square {
        rank: usize,
        file: usize,
        with: char,
    },
}

fn nasty() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(NASTY).prop_map(str::to_string),
        "\\PC{0,6}",
        (0u64..=u64::MAX).prop_map(|n| n.to_string()),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    let nasty_char = prop_oneof![
        prop::sample::select(NASTY_CHARS.chars().collect::<Vec<_>>()),
        any::<char>(),
    ];
    let plausible_field = prop::sample::select(vec![
        "w",
        "b",
        "-",
        "KQkq",
        "K",
        "Qk",
        "kq",
        "q",
        "a3",
        "e3",
        "h3",
        "a6",
        "d6",
        "h6",
        "e4",
        "e5",
        "a1",
        "h8",
        "0",
        "1",
        "2",
        "99",
        "100",
        "101",
        "150",
        "4294967295",
    ])
    .prop_map(str::to_string);
    let square = prop::sample::select("PNBRQKpnbrqk.....".chars().collect::<Vec<_>>());
    prop_oneof![
        // Plausible edits, which often give a FEN that is accepted:
        4 => (at, at, square).prop_map(|(rank, file, with)| Edit::Square { rank, file, with }),
        3 => (at, plausible_field).prop_map(|(nth, value)| Edit::Field { nth, value }),
        // and damage:
        1 => (at, nasty_char).prop_map(|(at, with)| Edit::Replace { at, with }),
        1 => (at, nasty()).prop_map(|(at, text)| Edit::Insert { at, text }),
        1 => (at, 1..12usize).prop_map(|(at, len)| Edit::Delete { at, len }),
        1 => (at, nasty()).prop_map(|(nth, value)| Edit::Number { nth, value }),
        1 => at.prop_map(|nth| Edit::DropField { nth }),
        1 => at.prop_map(|nth| Edit::DuplicateField { nth }),
        1 => (at, at).prop_map(|(a, b)| Edit::SwapFields { a, b }),
        1 => (at, nasty()).prop_map(|(nth, value)| Edit::Field { nth, value }),
        1 => at.prop_map(|at| Edit::Truncate { at }),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let position = |at: usize, len: usize| if len == 0 { 0 } else { at % (len + 1) };
    let mut fields: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    match edit {
        Edit::Replace { at, with } => {
            if !chars.is_empty() {
                let at = at % chars.len();
                chars[at] = *with;
            }
            chars.into_iter().collect()
        }
        Edit::Insert { at, text } => {
            let at = position(*at, chars.len());
            chars.splice(at..at, text.chars());
            chars.into_iter().collect()
        }
        Edit::Delete { at, len } => {
            let at = position(*at, chars.len());
            let end = (at + len).min(chars.len());
            chars.drain(at..end);
            chars.into_iter().collect()
        }
        Edit::Number { nth, value } => {
            // The digit runs, as char ranges.
            let mut runs = Vec::new();
            let mut start = None;
            for (i, c) in chars.iter().chain(std::iter::once(&' ')).enumerate() {
                match (c.is_ascii_digit(), start) {
                    (true, None) => start = Some(i),
                    (false, Some(s)) => {
                        runs.push((s, i));
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some(&(s, e)) = runs.get(nth % runs.len().max(1)) {
                chars.splice(s..e, value.chars());
            }
            chars.into_iter().collect()
        }
        Edit::DropField { nth } => {
            if !fields.is_empty() {
                let n = nth % fields.len();
                fields.remove(n);
            }
            fields.join(" ")
        }
        Edit::DuplicateField { nth } => {
            if !fields.is_empty() {
                let n = nth % fields.len();
                fields.insert(n, fields[n].clone());
            }
            fields.join(" ")
        }
        Edit::SwapFields { a, b } => {
            if !fields.is_empty() {
                let len = fields.len();
                fields.swap(a % len, b % len);
            }
            fields.join(" ")
        }
        Edit::Field { nth, value } => {
            if !fields.is_empty() {
                let n = nth % fields.len();
                fields[n] = value.clone();
            }
            fields.join(" ")
        }
        Edit::Truncate { at } => {
            let at = position(*at, chars.len());
            chars.truncate(at);
            chars.into_iter().collect()
        }
        Edit::Square { rank, file, with } => {
            let Some(board) = fields.first_mut() else {
                return text.to_string();
            };
            let (squares, hands) = board.split_at(board.find('[').unwrap_or(board.len()));
            let mut ranks: Vec<Vec<char>> = squares.split('/').map(expand).collect();
            let r = rank % ranks.len();
            if !ranks[r].is_empty() {
                let f = file % ranks[r].len();
                ranks[r][f] = *with;
            }
            let squares: Vec<String> = ranks.iter().map(|cells| compress(cells)).collect();
            *board = squares.join("/") + hands;
            fields.join(" ")
        }
    }
}

/// A rank with its counts of empty squares written as that many `.` (counts above 64 kept as
/// digits).
fn expand(rank: &str) -> Vec<char> {
    let mut cells = Vec::new();
    let mut digits = String::new();
    for c in rank.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        match digits.parse::<usize>() {
            Ok(n) if n <= 64 => cells.extend(std::iter::repeat_n('.', n)),
            _ => cells.extend(digits.chars()),
        }
        digits.clear();
        if c != '\0' {
            cells.push(c);
        }
    }
    cells
}

/// The inverse of [`expand`]: runs of `.` written as counts.
fn compress(cells: &[char]) -> String {
    let mut text = String::new();
    let mut empty = 0;
    for &c in cells {
        if c == '.' {
            empty += 1;
            continue;
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
            empty = 0;
        }
        text.push(c);
    }
    if empty > 0 {
        text.push_str(&empty.to_string());
    }
    text
}

fn mutated(text: &str, edits: &[Edit]) -> String {
    edits.iter().fold(text.to_string(), |t, e| apply(&t, e))
}

/// A mutated corpus FEN: (game index, FEN).
fn mutated_fen() -> impl Strategy<Value = (usize, String)> {
    let count = corpus().fens.len();
    (0..count, prop::collection::vec(edit(), 1..3)).prop_map(|(i, edits)| {
        let (game, fen) = &corpus().fens[i];
        (*game, mutated(fen, &edits))
    })
}

/// A move string: random text, a mutated legal move (chosen at run time by `choice`), or
/// awkward text.
#[derive(Clone, Debug)]
enum MoveText {
    Literal(String),
    MutatedLegal { choice: usize, edits: Vec<Edit> },
}

fn move_text() -> impl Strategy<Value = MoveText> {
    prop_oneof![
        "\\PC{0,12}".prop_map(MoveText::Literal),
        "[a-zA-Z@0-9]{0,8}".prop_map(MoveText::Literal),
        "[a-p][0-9]{1,3}[a-p][0-9]{1,3}[a-z]?".prop_map(MoveText::Literal),
        "[A-Za-z]@[a-z][0-9]{1,20}".prop_map(MoveText::Literal),
        nasty().prop_map(MoveText::Literal),
        (any::<usize>(), prop::collection::vec(edit(), 0..3))
            .prop_map(|(choice, edits)| MoveText::MutatedLegal { choice, edits }),
    ]
}

fn resolve(text: &MoveText, legal: &[String]) -> String {
    match text {
        MoveText::Literal(s) => s.clone(),
        MoveText::MutatedLegal { choice, edits } => {
            let base = if legal.is_empty() {
                "e2e4"
            } else {
                &legal[choice % legal.len()]
            };
            mutated(base, edits)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What an accepted position must do
// ---------------------------------------------------------------------------------------------

/// Exercises every read-only query of a session (none may panic) and checks that its FEN
/// round-trips.
fn query_everything(definition: &Definition, session: &dyn Session) -> Result<(), TestCaseError> {
    let fen = session.fen();
    let again = variant_interpreter::open(definition, Some(&fen));
    prop_assert!(
        again.is_ok(),
        "the printed FEN `{}` is rejected: {:?}",
        fen,
        again.err()
    );
    let again = again.expect("checked");
    prop_assert_eq!(again.fen(), fen.clone(), "the FEN does not round-trip");
    let _ = session.side_to_move();
    let moves = session.legal_moves();
    let _ = session.outcome();
    let _ = session.in_check();
    let _ = session.checked_sides();
    let _ = session.diagram();
    let _ = session.scores();
    let _ = session.control_diagrams();
    let _ = session.history();
    let _ = session.hash_is_consistent();
    for side in &definition.sides {
        let _ = session.controlled_squares(&side.name);
    }
    let _ = session.controlled_squares("nobody");
    let _ = session.perft(1);
    prop_assert!(moves.len() < 10_000, "{} moves at {}", moves.len(), fen);
    Ok(())
}

/// Opens `fen` (any text); if accepted, checks the position and that every legal move is
/// accepted by `play` (each on a fresh session from the same text), then plays a few of them.
fn check_fen(game: usize, fen: &str, choices: &[usize]) -> Result<(), TestCaseError> {
    let definition = &corpus().games[game].2;
    let Ok(mut session) = variant_interpreter::open(definition, Some(fen)) else {
        return Ok(());
    };
    query_everything(definition, session.as_ref())?;
    let moves = session.legal_moves();
    for mv in moves.iter().take(80) {
        let mut fresh = variant_interpreter::open(definition, Some(fen)).expect("opened before");
        let played = fresh.play(mv);
        prop_assert!(
            played.is_ok() || session.outcome().is_some(),
            "the listed move {} is refused in {}: {:?}",
            mv,
            fen,
            played
        );
    }
    for &choice in choices {
        let moves = session.legal_moves();
        if moves.is_empty() || session.outcome().is_some() {
            break;
        }
        let mv = &moves[choice % moves.len()];
        let played = session.play(mv);
        prop_assert!(played.is_ok(), "{} refused: {:?}", mv, played);
        query_everything(definition, session.as_ref())?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(256, 1))]

    #[test]
    fn mutated_fens_never_panic_and_accepted_ones_behave(
        (game, fen) in mutated_fen(),
        choices in prop::collection::vec(any::<usize>(), 0..6),
    ) {
        check_fen(game, &fen, &choices)?;
    }

    /// The corpus FENs themselves, unmutated, with longer random games.
    #[test]
    fn corpus_fens_behave_along_random_games(
        index in 0..corpus().fens.len(),
        choices in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        let (game, fen) = &corpus().fens[index];
        check_fen(*game, fen, &choices)?;
    }

    /// `play` accepts exactly the listed moves (when the game goes on), whatever the text, and
    /// `explain` calls exactly those legal.
    #[test]
    fn play_accepts_exactly_the_legal_moves(
        index in 0..corpus().fens.len(),
        walk in prop::collection::vec(any::<usize>(), 0..30),
        attempts in prop::collection::vec(move_text(), 1..8),
    ) {
        let (game, fen) = &corpus().fens[index];
        let definition = &corpus().games[*game].2;
        let mut session = variant_interpreter::open(definition, Some(fen)).expect("corpus FEN");
        for choice in walk {
            let moves = session.legal_moves();
            if moves.is_empty() || session.outcome().is_some() {
                break;
            }
            session.play(&moves[choice % moves.len()]).expect("a listed move");
        }
        for attempt in &attempts {
            let legal = session.legal_moves();
            let text = resolve(attempt, &legal);
            let over = session.outcome().is_some();
            let before = session.history().len();
            let expected = !over && legal.contains(&text);
            let explanation = session.explain(&text);
            prop_assert_eq!(explanation.legal, expected, "explain({:?}) at {}: {}", text, session.fen(), explanation);
            prop_assert!(!explanation.lines.is_empty(), "explain({:?}) says nothing", text);
            let played = session.play(&text);
            prop_assert_eq!(played.is_ok(), expected, "play({:?}) gave {:?} at {} (legal: {:?})", text, played, session.fen(), legal);
            let after = session.history().len();
            prop_assert_eq!(after, before + usize::from(expected), "history after {:?}", text);
            let _ = played.map_err(|e| e.to_string());
        }
    }

    /// Whole random games of every game, to their end or 400 plies.
    #[test]
    fn random_games_of_every_game_behave(
        game in 0..corpus().games.len(),
        choices in prop::collection::vec(any::<usize>(), 400),
    ) {
        let definition = &corpus().games[game].2;
        let mut session = variant_interpreter::open(definition, None).expect("opens");
        for (ply, choice) in choices.into_iter().enumerate() {
            if ply % 16 == 0 {
                query_everything(definition, session.as_ref())?;
            }
            let moves = session.legal_moves();
            if session.outcome().is_some() {
                break;
            }
            prop_assert!(!moves.is_empty(), "no move and no result at {}", session.fen());
            let mv = &moves[choice % moves.len()];
            let played = session.play(mv);
            prop_assert!(played.is_ok(), "{} refused: {:?}", mv, played);
        }
        query_everything(definition, session.as_ref())?;
    }
}

// ---------------------------------------------------------------------------------------------
// Mutated game files that still load
// ---------------------------------------------------------------------------------------------

/// An edit of a game file that keeps it plausible: a number, a Betza string, a line.
#[derive(Clone, Debug)]
enum GameEdit {
    /// Replaces the `nth` run of digits.
    Number {
        nth: usize,
        value: String,
    },
    /// Replaces the `nth` double-quoted string that follows `moves`.
    Betza {
        nth: usize,
        value: String,
    },
    DeleteLine {
        nth: usize,
    },
    DuplicateLine {
        nth: usize,
    },
    Text(Edit),
}

fn game_edit() -> impl Strategy<Value = GameEdit> {
    let numbers = prop_oneof![
        prop::sample::select(vec![
            "0",
            "1",
            "2",
            "3",
            "4",
            "7",
            "8",
            "9",
            "10",
            "11",
            "12",
            "15",
            "16",
            "17",
            "20",
            "26",
            "27",
            "32",
            "64",
            "255",
            "256",
            "65535",
            "4294967295"
        ])
        .prop_map(str::to_string),
        (0u32..40).prop_map(|n| n.to_string()),
    ];
    let betza = prop_oneof![
        "([mcfbrlvsheinj]{0,3}[WFDNAHCZGKQRBXY][0-9]?){1,3}",
        prop::sample::select(vec![
            "", "K", "Q", "R0", "W0", "NN", "mfW cfF", "imfnD", "RN", "B2", "AAA", "W99", "fK",
            "nD", "jB", "mcW", "O", "X"
        ])
        .prop_map(str::to_string),
    ];
    prop_oneof![
        (any::<usize>(), numbers).prop_map(|(nth, value)| GameEdit::Number { nth, value }),
        (any::<usize>(), betza).prop_map(|(nth, value)| GameEdit::Betza { nth, value }),
        any::<usize>().prop_map(|nth| GameEdit::DeleteLine { nth }),
        any::<usize>().prop_map(|nth| GameEdit::DuplicateLine { nth }),
        edit().prop_map(GameEdit::Text),
    ]
}

fn apply_game_edit(text: &str, edit: &GameEdit) -> String {
    match edit {
        GameEdit::Number { nth, value } => apply(
            text,
            &Edit::Number {
                nth: *nth,
                value: value.clone(),
            },
        ),
        GameEdit::Betza { nth, value } => {
            let starts: Vec<usize> = text
                .match_indices("moves \"")
                .map(|(i, m)| i + m.len())
                .collect();
            let Some(&start) = starts.get(nth % starts.len().max(1)) else {
                return text.to_string();
            };
            let Some(len) = text[start..].find('"') else {
                return text.to_string();
            };
            format!("{}{}{}", &text[..start], value, &text[start + len..])
        }
        GameEdit::DeleteLine { nth } | GameEdit::DuplicateLine { nth } => {
            let mut lines: Vec<&str> = text.lines().collect();
            if !lines.is_empty() {
                let n = nth % lines.len();
                if matches!(edit, GameEdit::DeleteLine { .. }) {
                    lines.remove(n);
                } else {
                    lines.insert(n, lines[n]);
                }
            }
            lines.join("\n")
        }
        GameEdit::Text(edit) => apply(text, edit),
    }
}

proptest! {
    #![proptest_config(config(128, 2))]

    /// A mutated game file either fails to load (with diagnostics) or opens and plays.
    #[test]
    fn mutated_game_files_that_load_also_play(
        game in 0..corpus().games.len(),
        edits in prop::collection::vec(game_edit(), 1..4),
        choices in prop::collection::vec(any::<usize>(), 0..24),
    ) {
        let (name, source, _) = &corpus().games[game];
        let text = edits.iter().fold(source.clone(), |t, e| apply_game_edit(&t, e));
        // `extends "coverage"` resolves next to the named file.
        let path = root().join("games").join(format!("{name}-fuzz.variant"));
        let loaded = match variant_dsl::load_source(&path.to_string_lossy(), &text) {
            Ok(loaded) => loaded,
            Err(failure) => {
                prop_assert!(failure.diagnostics.has_errors());
                let _ = failure.render();
                return Ok(());
            }
        };
        let definition = loaded.definition;
        let Ok(mut session) = variant_interpreter::open(&definition, None) else {
            return Ok(());
        };
        let _ = session.describe();
        query_everything(&definition, session.as_ref())?;
        for choice in choices {
            let moves = session.legal_moves();
            if moves.is_empty() || session.outcome().is_some() {
                break;
            }
            let mv = &moves[choice % moves.len()];
            let played = session.play(mv);
            prop_assert!(played.is_ok(), "{} refused: {:?}", mv, played);
        }
        query_everything(&definition, session.as_ref())?;
    }
}

// ---------------------------------------------------------------------------------------------
// Overflows found or foreseen, each fixed and kept as a regression test
// ---------------------------------------------------------------------------------------------

/// A FEN whose clocks are at the top of their range is accepted; playing a move must not
/// overflow them.
#[test]
fn fen_clocks_near_u32_max_survive_a_move() {
    let chess = &corpus().games[corpus()
        .games
        .iter()
        .position(|g| g.0 == "chess")
        .expect("chess")]
    .2;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967295 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 4294967295",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 4294967295 4294967295",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2147483648 2147483648",
    ] {
        let mut session = variant_interpreter::open(chess, Some(fen)).expect("clocks in range");
        let _ = session.outcome();
        let mv = session.legal_moves().first().cloned();
        if let Some(mv) = mv {
            let _ = session.play(&mv);
            let _ = session.fen();
            let _ = session.outcome();
        }
        let _ = session.perft(2);
    }
    // Generating the moves alone overflows where legality is tested by playing them (found
    // through `variant moves` on Kiwipete).
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 4294967295 1";
    let session = variant_interpreter::open(chess, Some(kiwipete)).expect("clocks in range");
    let _ = session.legal_moves();
    let args = vec![
        "moves".to_string(),
        "chess".to_string(),
        format!("--fen={kiwipete}"),
    ];
    let run = run_binary(&args, false);
    assert_clean(&args, &run);
}

/// Found by this fuzzer: a count of empty squares near usize::MAX followed by a piece.
#[test]
fn fen_with_a_huge_empty_count_before_a_piece_is_rejected() {
    let chess = &corpus().games[corpus()
        .games
        .iter()
        .position(|g| g.0 == "chess")
        .expect("chess")]
    .2;
    for fen in [
        "18446744073709551615r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "99999999999999999999p7/8/8/8/8/8/8/8 w - - 0 1",
        "9223372036854775808*9223372036854775808k/8/8/8/8/8/8/K7 w - - 0 1",
    ] {
        assert!(
            variant_interpreter::open(chess, Some(fen)).is_err(),
            "{fen}"
        );
        let args = vec![
            "moves".to_string(),
            "chess".to_string(),
            format!("--fen={fen}"),
        ];
        let run = run_binary(&args, false);
        assert_clean(&args, &run);
    }
}

/// Found by this fuzzer: `move-limit N` with N above u32::MAX / 2.
#[test]
fn a_huge_move_limit_does_not_overflow() {
    let source = &corpus().games[corpus()
        .games
        .iter()
        .position(|g| g.0 == "chess")
        .expect("chess")]
    .1;
    assert!(source.contains("move-limit 50 draws"));
    for limit in ["2147483648", "4294967295"] {
        let text = source.replace("move-limit 50 draws", &format!("move-limit {limit} draws"));
        let Ok(loaded) = variant_dsl::load_source("huge-limit.variant", &text) else {
            continue; // rejecting the limit is fine too
        };
        if let Ok(mut session) = variant_interpreter::open(&loaded.definition, None) {
            assert_eq!(session.outcome(), None);
            session.play("e2e4").expect("legal");
            assert_eq!(session.outcome(), None);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The binary
// ---------------------------------------------------------------------------------------------

/// How a run of the binary ended.
struct Run {
    code: Option<i32>,
    /// The signal that ended it, if one did.
    signal: Option<i32>,
    stdout: String,
    stderr: String,
}

const BINARY_TIMEOUT: Duration = Duration::from_secs(20);

/// Runs `variant ARGS`, killing it after [`BINARY_TIMEOUT`] (a hang is a failure).
fn run_binary(args: &[String], close_stdout: bool) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_variant"));
    command.args(args);
    run_command(command, args, close_stdout)
}

/// The address space a run of [`run_limited`] may use, in KiB (`ulimit -v`): far more than any
/// shipped game needs, far less than an unbounded allocation would take.
const MEMORY_LIMIT_KIB: u64 = 4 << 20;

/// Runs `variant ARGS` like [`run_binary`], with its memory bounded by [`MEMORY_LIMIT_KIB`]
/// (through `sh -c 'ulimit -v ...; exec ...'`): an allocation past it fails the run.
fn run_limited(args: &[String]) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_LIMIT_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_variant"))
        .args(args);
    run_command(command, args, false)
}

/// Runs `command` (a run of the binary with `args`), killing it after [`BINARY_TIMEOUT`].
fn run_command(mut command: Command, args: &[String], close_stdout: bool) -> Run {
    command.current_dir(root());
    run_command_with(command, args, close_stdout, None)
}

/// Runs `variant ARGS` in `dir` like [`run_limited`] (bounded in time and memory), with `input`
/// on its standard input and the games found by name in `games/`.
fn run_limited_in(dir: &Path, args: &[String], input: &[u8]) -> Run {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!(
            "ulimit -v {MEMORY_LIMIT_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_variant"))
        .args(args)
        .current_dir(dir)
        .env("VARIANT_GAMES", root().join("games"))
        .env("NO_COLOR", "1");
    run_command_with(command, args, false, Some(input.to_vec()))
}

/// Runs `command` (its folder set), with `input` on its standard input (else none), killing it
/// after [`BINARY_TIMEOUT`].
fn run_command_with(
    mut command: Command,
    args: &[String],
    close_stdout: bool,
    input: Option<Vec<u8>>,
) -> Run {
    let mut child = command
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Written from a thread, so that a binary busy writing its output cannot block us; it may
    // stop reading early (end of game, `quit`): a closed pipe is no error here.
    let writer = child.stdin.take().zip(input).map(|(mut stdin, bytes)| {
        std::thread::spawn(move || {
            let _ = std::io::Write::write_all(&mut stdin, &bytes);
        })
    });
    let stdout = child.stdout.take().expect("piped");
    let out_reader = if close_stdout {
        drop(stdout);
        None
    } else {
        Some(std::thread::spawn(move || {
            let mut text = String::new();
            let mut stdout = stdout;
            let _ = stdout.read_to_string(&mut text);
            text
        }))
    };
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > BINARY_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`variant {}` hangs: killed after {BINARY_TIMEOUT:?}",
                quoted(args)
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    Run {
        code: status.code(),
        signal: std::os::unix::process::ExitStatusExt::signal(&status),
        stdout: out_reader
            .map(|r| r.join().expect("reader"))
            .unwrap_or_default(),
        stderr: err_reader.join().expect("reader"),
    }
}

fn quoted(args: &[String]) -> String {
    args.iter()
        .map(|a| format!("{a:?}"))
        .collect::<Vec<_>>()
        .join(" ")
}

const SIGPIPE: i32 = 13;

/// Exit code 0 or 1 (not a signal, not clap's 2) and no panic message.
fn assert_clean(args: &[String], run: &Run) {
    assert!(
        matches!(run.code, Some(0 | 1)),
        "`variant {}` ended with code {:?}, signal {:?}\nstderr: {}",
        quoted(args),
        run.code,
        run.signal,
        run.stderr
    );
    assert!(
        !run.stderr.contains("panicked"),
        "`variant {}` panicked: {}",
        quoted(args),
        run.stderr
    );
    if run.code == Some(1) {
        assert!(
            !run.stderr.trim().is_empty(),
            "`variant {}` failed without saying why",
            quoted(args)
        );
    }
}

/// Command-line text cannot hold NUL.
fn arg(text: &str) -> String {
    text.replace('\0', "?")
}

#[derive(Clone, Debug)]
enum Invocation {
    Moves,
    Show,
    ShowJson,
    Perft {
        depth: u32,
        divide: bool,
    },
    /// `explain GAME MOVE`, the move chosen like a played one.
    Explain(MoveText),
}

fn invocation() -> impl Strategy<Value = Invocation> {
    prop_oneof![
        Just(Invocation::Moves),
        Just(Invocation::Show),
        Just(Invocation::ShowJson),
        (0u32..=2, any::<bool>()).prop_map(|(depth, divide)| Invocation::Perft { depth, divide }),
        move_text().prop_map(Invocation::Explain),
    ]
}

proptest! {
    #![proptest_config(config(32, 8))]

    /// The binary on a mutated FEN and mutated moves.
    #[test]
    fn the_binary_survives_mutated_input(
        how in invocation(),
        (game, fen) in mutated_fen(),
        plays in prop::collection::vec(move_text(), 0..3),
    ) {
        let name = corpus().games[game].0.clone();
        let mut args = match &how {
            Invocation::Moves => vec!["moves".to_string(), name],
            Invocation::Show => vec!["show".to_string(), name],
            Invocation::ShowJson => vec!["show".to_string(), name, "--json".to_string()],
            Invocation::Perft { depth, divide } => {
                let mut a = vec!["perft".to_string(), name, format!("--depth={depth}")];
                if *divide {
                    a.push("--divide".to_string());
                }
                a
            }
            Invocation::Explain(_) => vec!["explain".to_string(), name],
        };
        args.push(format!("--fen={}", arg(&fen)));
        let legal = variant_interpreter::open(&corpus().games[game].2, Some(&fen))
            .map(|s| s.legal_moves())
            .unwrap_or_default();
        if !plays.is_empty() {
            let texts: Vec<String> = plays.iter().map(|p| arg(&resolve(p, &legal))).collect();
            args.push(format!("--play={}", texts.join(" ")));
        }
        if let Invocation::Explain(text) = &how {
            // After `--`, a move starting with `-` is still the move.
            args.push("--".to_string());
            args.push(arg(&resolve(text, &legal)));
        }
        let run = run_binary(&args, false);
        assert_clean(&args, &run);
    }

    /// `variant check` on a mutated game file.
    #[test]
    fn the_binary_checks_mutated_game_files(
        game in 0..corpus().games.len(),
        edits in prop::collection::vec(game_edit(), 1..4),
    ) {
        let (name, source, _) = &corpus().games[game];
        let text = edits.iter().fold(source.clone(), |t, e| apply_game_edit(&t, e));
        let dir = std::env::temp_dir().join(format!("variant-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        // A sibling of the file it may extend.
        std::fs::copy(root().join("games/coverage.variant"), dir.join("coverage.variant")).expect("copies");
        let file = dir.join(format!("{name}.variant"));
        std::fs::write(&file, &text).expect("writes");
        let path = file.to_string_lossy().to_string();
        for args in [
            vec!["check".to_string(), path.clone()],
            vec!["moves".to_string(), path.clone()],
            vec!["dump".to_string(), path.clone(), "--compiled".to_string()],
        ] {
            let run = run_binary(&args, false);
            assert_clean(&args, &run);
            if args[0] == "check" && run.code == Some(0) {
                prop_assert!(run.stdout.contains("ok: "), "{}", run.stdout);
            }
        }
    }
}

/// Hand-picked awkward command lines.
#[test]
fn the_binary_survives_awkward_command_lines() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let cases: Vec<Vec<String>> = [
        vec!["moves", "chess", "--fen="],
        vec!["moves", "chess", "--fen= "],
        vec!["moves", "chess", "--fen=8/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["show", "chess", "--fen=8/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["moves", "chess", "--fen=k7/8/8/8/8/8/8/7K w - - 0 1"],
        vec!["moves", "chess", "--fen=K7/8/8/8/8/8/8/7K w - - 0 1"],
        vec!["moves", "chess", "--fen=KKKKKKKK/8/8/8/8/8/8/kkkkkkkk w - - 0 1"],
        vec!["perft", "chess", "--depth=2", "--fen=kq6/8/8/8/8/8/8/KQ6 w - - 0 1"],
        vec!["moves", "chess", "--fen=4k3/8/8/8/8/8/8/4K2R w K e3 0 1"],
        vec!["moves", "chess", "--fen=4k3/8/8/8/8/8/8/4K2R w K e6 0 1"],
        vec!["moves", "chess", "--fen=4k3/P7/8/8/8/8/p7/4K3 w - - 0 1"],
        vec!["moves", "chess", "--fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4294967296 1"],
        vec!["moves", "chess", "--fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0"],
        vec!["moves", "chess", "--fen=99999999999999999999/8/8/8/8/8/8/8 w - - 0 1"],
        vec!["moves", "chess", "--fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pp] w KQkq - 0 1"],
        vec!["moves", "coverage", "--fen=8/8/8/8/8/8/8/8[] w - - 0 1"],
        vec!["moves", "coverage", "--fen=8/8/8/8/8/8/8/8[-] w - - 0 1"],
        vec!["show", "coverage", "--fen=pppppppp/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP[] b - - 0 1"],
        vec!["show", "cheversi", "--fen=8/8/8/8/8/8/8/8[KQRRBBNNkqrrbbnn] b - - 0 1"],
        vec!["moves", "cheversi", "--play=K@a1 K@a2"],
        vec!["moves", "chess", "--play=e2e4 e2e4"],
        vec!["moves", "chess", "--play=e2e9999999999999999999"],
        vec!["moves", "chess", "--play=a4294967295a1"],
        vec!["moves", "chess", "--play=K@e4"],
        vec!["moves", "chess", "--play=é"],
        vec!["moves", "chess", "--play=g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3"],
        vec!["show", "chess", "--json", "--play=f2f3 e7e5 g2g4 d8h4"],
        vec!["show", "chess", "--play=f2f3 e7e5 g2g4 d8h4 a2a3"],
        vec!["perft", "chess", "--depth=0"],
        vec!["perft", "chess", "--depth=3", "--divide"],
        vec!["perft", "cheversi", "--depth=2"],
        vec!["dump", "chess"],
        vec!["dump", "cheversi", "--compiled"],
        vec!["show", "no-such-game"],
        vec!["show", "games/"],
        vec!["show", "/dev/null"],
        vec!["check", "/dev/null"],
        vec!["check", "README.md"],
        vec!["check", "target"],
        vec!["check", "no/such/file.variant"],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_string).collect())
    .chain([vec![
        "moves".to_string(),
        "chess".to_string(),
        format!("--fen={start}"),
        format!("--play={}", "e2e4 ".repeat(2000)),
    ]])
    .collect();
    for args in &cases {
        let run = run_binary(args, false);
        assert_clean(args, &run);
    }
}

/// A depth the recursion could not reach is refused or bounded, not a stack overflow.
#[test]
fn the_binary_survives_a_huge_perft_depth() {
    for depth in ["100000", "4294967295"] {
        let args: Vec<String> = ["perft", "chess", "--depth", depth]
            .map(str::to_string)
            .to_vec();
        let run = run_binary(&args, false);
        assert_clean(&args, &run);
    }
}

/// `variant show --json | head -c 10`: the reader goes away before the output is written.
#[test]
fn the_binary_survives_a_closed_stdout() {
    for args in [
        vec!["show", "chess", "--json"],
        vec!["show", "chess"],
        vec!["moves", "chess"],
        vec!["perft", "chess", "--depth", "2", "--divide"],
        vec!["dump", "chess"],
    ] {
        let args: Vec<String> = args.into_iter().map(str::to_string).collect();
        let run = run_binary(&args, true);
        // Dying of SIGPIPE, as `cat` does, is a clean end too.
        if run.signal != Some(SIGPIPE) {
            assert_clean(&args, &run);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Deep and long expressions
// ---------------------------------------------------------------------------------------------

/// Places where an expression goes in a shipped game, as (game, text there): a drop rule, the
/// score, end conditions and a policy's action condition; sets of squares, then numbers.
const EXPRESSION_PLACES: &[(&str, &str)] = &[
    ("coverage", "not controlled by opponent"),
    (
        "coverage",
        "controlled by own except controlled by opponent",
    ),
    ("coverage", "legal drops except controlled by own"),
    ("cooperative-chess", "team King and attacked by opponent"),
    ("cooperative-chess", "(attacked by next)"),
    (
        "coverage",
        "count (controlled by own except controlled by opponent)",
    ),
    (
        "cooperative-chess",
        "count (team King and attacked by opponent)",
    ),
];

/// How an expression is made deep or long: `n` parentheses around it, `n` `not`s before it,
/// or a chain of `n` more terms after it (`except empty`, `+ 1`).
#[derive(Clone, Copy, Debug)]
enum Deepen {
    Parentheses,
    Nots,
    ExceptChain,
    PlusChain,
}

impl Deepen {
    const ALL: [Deepen; 4] = [
        Deepen::Parentheses,
        Deepen::Nots,
        Deepen::ExceptChain,
        Deepen::PlusChain,
    ];

    fn apply(self, expression: &str, n: usize) -> String {
        match self {
            Deepen::Parentheses => format!("{}{expression}{}", "(".repeat(n), ")".repeat(n)),
            Deepen::Nots => format!("{}({expression})", "not ".repeat(n)),
            Deepen::ExceptChain => format!("({expression}{})", " except empty".repeat(n)),
            Deepen::PlusChain => format!("({expression}{})", " + 1".repeat(n)),
        }
    }
}

/// The game's text with the first `place` made deeper by `how`.
fn deepened(game: &str, place: &str, how: Deepen, n: usize) -> String {
    let source = std::fs::read_to_string(root().join("games").join(format!("{game}.variant")))
        .expect("a shipped game");
    deepened_text(&source, place, how, n).unwrap_or_else(|| panic!("`{place}` is in {game}"))
}

/// `text` with the first `place` outside a comment made deeper by `how`, if there is one.
fn deepened_text(text: &str, place: &str, how: Deepen, n: usize) -> Option<String> {
    let start = text.match_indices(place).map(|(i, _)| i).find(|&i| {
        let line_start = text[..i].rfind('\n').map_or(0, |newline| newline + 1);
        !text[line_start..i].contains("//")
    })?;
    let end = start + place.len();
    Some(format!(
        "{}{}{}",
        &text[..start],
        how.apply(place, n),
        &text[end..]
    ))
}

/// `check` on a rule file either refuses it (exit 1, an error) or accepts it, and then `dump`,
/// `show` and `perft --depth 1` work too; never a panic, an abort or a hang. Returns whether it
/// was accepted, and the stderr of `check`.
fn checked_then_used(dir: &Path, name: &str, text: &str, limited: bool) -> (bool, String) {
    let file = dir.join(format!("{name}.variant"));
    std::fs::write(&file, text).expect("writes");
    let path = file.to_string_lossy().to_string();
    let run = |args: &[String]| {
        if limited {
            run_limited(args)
        } else {
            run_binary(args, false)
        }
    };
    let check = vec!["check".to_string(), path.clone()];
    let checked = run(&check);
    assert_clean(&check, &checked);
    if checked.code != Some(0) {
        assert!(checked.stderr.contains("error["), "{}", checked.stderr);
        return (false, checked.stderr);
    }
    assert!(checked.stdout.contains("ok: "), "{}", checked.stdout);
    for command in [
        vec!["dump", path.as_str()],
        vec!["dump", path.as_str(), "--compiled"],
        vec!["show", path.as_str()],
        vec!["show", path.as_str(), "--json"],
        vec!["perft", path.as_str(), "--depth", "1"],
        vec!["moves", path.as_str()],
    ] {
        let args: Vec<String> = command.into_iter().map(str::to_string).collect();
        let used = run(&args);
        assert_clean(&args, &used);
        assert_eq!(
            used.code,
            Some(0),
            "`check` accepted the file, then `variant {}` failed: {}",
            quoted(&args),
            used.stderr
        );
    }
    (true, checked.stderr)
}

/// A scratch folder for one test, with the games a mutated file may extend.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-fuzz-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    for game in ["coverage", "chess"] {
        let file = format!("{game}.variant");
        std::fs::copy(root().join("games").join(&file), dir.join(&file)).expect("copies");
    }
    dir
}

/// Deep parentheses, long runs of `not`, long `except` and `+ 1` chains, in every place of
/// [`EXPRESSION_PLACES`]: each gives a diagnostic, or is accepted and then works in every
/// command. Modest depths are accepted where the types allow; thousands are refused with the
/// nesting or depth error.
#[test]
fn deep_and_long_expressions_are_refused_or_work() {
    let dir = scratch("deep");
    for (place_index, (game, place)) in EXPRESSION_PLACES.iter().enumerate() {
        for how in Deepen::ALL {
            for n in [40, 65, 250, 257, 700, 4_000] {
                let text = deepened(game, place, how, n);
                let name = format!("{game}-{place_index}-{how:?}-{n}");
                let (accepted, stderr) = checked_then_used(&dir, &name, &text, false);
                if n >= 700 {
                    assert!(!accepted, "{name} is accepted");
                    assert!(
                        stderr.contains("error[E0004]") || stderr.contains("error[E0010]"),
                        "{name}: {stderr}"
                    );
                }
                let sets = place_index < 5;
                let well_typed = match how {
                    Deepen::PlusChain => !sets,
                    Deepen::Parentheses => true,
                    Deepen::Nots | Deepen::ExceptChain => sets,
                };
                if n == 40 && well_typed {
                    assert!(accepted, "{name} is refused: {stderr}");
                }
            }
        }
    }
}

/// A game file mutated like in [`the_binary_checks_mutated_game_files`], and maybe one of its
/// expressions made deep or long.
fn long_mutation() -> impl Strategy<Value = (usize, Vec<GameEdit>, Option<(usize, usize, usize)>)> {
    (
        0..corpus().games.len(),
        prop::collection::vec(game_edit(), 0..6),
        prop::option::of((
            0..EXPRESSION_PLACES.len(),
            0..Deepen::ALL.len(),
            0usize..5_000,
        )),
    )
}

proptest! {
    #![proptest_config(config(256, 1))]

    /// The longer mutation fuzz of game files (`cargo test --test fuzz -- --ignored`; scale with
    /// `PROPTEST_CASES`): every run of the binary is bounded in time ([`BINARY_TIMEOUT`]) and
    /// memory ([`MEMORY_LIMIT_KIB`]); no panic, abort or hang, and a file `check` accepts works in
    /// every command.
    #[test]
    #[ignore = "minutes: the longer fuzz of rule files"]
    fn mutated_rule_files_are_refused_or_work_everywhere(
        (game, edits, deepen) in long_mutation(),
    ) {
        let (name, source, _) = &corpus().games[game];
        let mut text = edits.iter().fold(source.clone(), |t, e| apply_game_edit(&t, e));
        if let Some((place, how, n)) = deepen {
            let (place_game, place_text) = EXPRESSION_PLACES[place];
            if place_game == name {
                text = deepened_text(&text, place_text, Deepen::ALL[how], n).unwrap_or(text);
            }
        }
        let dir = scratch("long");
        checked_then_used(&dir, name, &text, true);
    }
}

// ---------------------------------------------------------------------------------------------
// The longer fuzz through the binary: FENs, records and prompt input (ignored)
// ---------------------------------------------------------------------------------------------

/// The index in the corpus of the game called `name`.
fn game_index(name: &str) -> usize {
    corpus()
        .games
        .iter()
        .position(|g| g.0 == name)
        .unwrap_or_else(|| panic!("{name} is in games/"))
}

/// `--SIDE PLAYER` flags: the first side `first`, every other side `rest` (a side with a policy
/// keeps it when `rest` is `None`).
fn side_flags(game: usize, first: &str, rest: Option<&str>) -> Vec<String> {
    let definition = &corpus().games[game].2;
    let mut flags = Vec::new();
    for (i, side) in definition.sides.iter().enumerate() {
        let player = match (i, rest) {
            (0, _) => first,
            (_, Some(rest)) => rest,
            (_, None) if i == 1 => "random",
            (_, None) => continue,
        };
        flags.push(format!("--{}", side.name));
        flags.push(player.to_string());
    }
    flags
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// Runs `args` bounded (see [`run_limited_in`]) and checks it ended cleanly.
fn clean_run(dir: &Path, args: &[String], input: &[u8]) -> Run {
    let run = run_limited_in(dir, args, input);
    assert_clean(args, &run);
    run
}

/// A mutated FEN through every command that takes one, with or without `--strict`: no panic,
/// abort or hang; `moves` and `perft` accept exactly what `show` accepts, and a FEN `show`
/// accepts also works in `explain` (of a listed move) and `play` between random players.
/// Returns whether `show` accepted it.
fn fen_everywhere(
    dir: &Path,
    game: usize,
    fen: &str,
    strict: bool,
    attempt: &MoveText,
    seed: u64,
) -> bool {
    let name = corpus().games[game].0.clone();
    let with = |command: &[&str]| {
        let mut args = strings(command);
        args.push(format!("--fen={}", arg(fen)));
        if strict {
            args.push("--strict".to_string());
        }
        args
    };
    let show = clean_run(dir, &with(&["show", &name]), b"");
    let accepted = show.code == Some(0);
    let agrees = |args: &[String], run: &Run| {
        assert_eq!(
            run.code == Some(0),
            accepted,
            "`show` {} the FEN, `variant {}` did not: {}{}",
            if accepted { "accepted" } else { "refused" },
            quoted(args),
            run.stderr,
            show.stderr
        );
    };
    let moves_args = with(&["moves", &name]);
    let moves = clean_run(dir, &moves_args, b"");
    agrees(&moves_args, &moves);
    let perft_args = with(&["perft", &name, "--depth", "2"]);
    let perft = clean_run(dir, &perft_args, b"");
    agrees(&perft_args, &perft);
    let legal: Vec<String> = moves.stdout.lines().map(str::to_string).collect();
    // A listed move must be explained; any other text must not crash `explain`.
    let (text, listed) = match legal.first() {
        Some(first) if seed.is_multiple_of(2) => (first.clone(), true),
        _ => {
            let text = arg(&resolve(attempt, &legal));
            let listed = legal.contains(&text);
            (text, listed)
        }
    };
    let mut explain_args = with(&["explain", &name]);
    explain_args.extend(["--".to_string(), text]);
    let explained = clean_run(dir, &explain_args, b"");
    if accepted && listed {
        assert_eq!(explained.code, Some(0), "{}", explained.stderr);
    }
    let mut play_args = with(&["play", &name, "--seed", &seed.to_string()]);
    play_args.extend(side_flags(game, "random", Some("random")));
    let played = clean_run(dir, &play_args, b"");
    if accepted {
        assert_eq!(
            played.code,
            Some(0),
            "`show` accepted the FEN, `variant {}` failed: {}",
            quoted(&play_args),
            played.stderr
        );
    }
    accepted
}

proptest! {
    #![proptest_config(config(256, 1))]

    /// The longer fuzz of FENs through the binary (`--ignored`; scale with `PROPTEST_CASES`):
    /// [`fen_everywhere`] without `--strict`, then with it (which accepts no more than without).
    #[test]
    #[ignore = "minutes: the longer fuzz of FENs through the binary"]
    fn mutated_fens_are_refused_or_work_in_every_command(
        (game, fen) in mutated_fen(),
        attempt in move_text(),
        seed in 0u64..1_000,
    ) {
        let dir = scratch("fens");
        let loose = fen_everywhere(&dir, game, &fen, false, &attempt, seed);
        let strict = fen_everywhere(&dir, game, &fen, true, &attempt, seed + 1);
        prop_assert!(loose || !strict, "{fen} is accepted with --strict only");
    }
}

/// The games whose records are mutated, and the seeds they are played with.
const RECORDED: &[(&str, u64)] = &[
    ("chess", 3),
    ("chess", 11),
    ("kingdrops", 4),
    ("cheversi", 5),
    ("coverage", 6),
    ("cooperative-chess", 7),
    ("takeover-chess", 8),
];

/// Real records of random games (see [`RECORDED`]): (game index, the record's text).
fn records() -> &'static [(usize, String)] {
    static RECORDS: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    RECORDS.get_or_init(|| {
        let dir = scratch("records-made");
        RECORDED
            .iter()
            .map(|&(name, seed)| {
                let game = game_index(name);
                let file = format!("{name}-{seed}.pgn");
                let mut args = strings(&["play", name, "--seed", &seed.to_string()]);
                args.extend(side_flags(game, "random", Some("random")));
                args.extend(["--record".to_string(), file.clone()]);
                let run = clean_run(&dir, &args, b"");
                assert_eq!(run.code, Some(0), "{}", run.stderr);
                let text = std::fs::read_to_string(dir.join(&file)).expect("the record");
                (game, text)
            })
            .collect()
    })
}

/// An edit of a record: of its text, its lines, a tag's value, a move, or a raw byte.
#[derive(Clone, Debug)]
enum RecordEdit {
    /// Text edits, numbers, lines deleted and duplicated.
    Game(GameEdit),
    /// Replaces the value of the `nth` tag.
    Tag { nth: usize, value: String },
    /// Replaces the `nth` word of the moves (move numbers and the result included).
    Word { nth: usize, value: MoveText },
    /// Swaps two words of the moves.
    SwapWords { a: usize, b: usize },
    /// Sets one byte (after every other edit): not UTF-8, or a NUL.
    Byte { at: usize, value: u8 },
}

fn tag_value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "",
            "chess.variant",
            "kingdrops.variant",
            "cheversi.variant",
            "games/chess.variant",
            "../chess.variant",
            "/dev/null",
            "/dev/zero",
            "/",
            "games",
            "human",
            "random",
            "mcts:1s",
            "search:99",
            "1-0",
            "0-1",
            "1/2-1/2",
            "*",
            "0000000000000000",
            "ffffffffffffffff",
            "?",
            "\\\"",
            "\"",
        ])
        .prop_map(str::to_string),
        nasty(),
        "[a-z0-9:./-]{0,20}",
        (1usize..100_000).prop_map(|n| "x".repeat(n)),
    ]
}

fn record_edit() -> impl Strategy<Value = RecordEdit> {
    prop_oneof![
        3 => game_edit().prop_map(RecordEdit::Game),
        2 => (any::<usize>(), tag_value()).prop_map(|(nth, value)| RecordEdit::Tag { nth, value }),
        2 => (any::<usize>(), move_text()).prop_map(|(nth, value)| RecordEdit::Word { nth, value }),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| RecordEdit::SwapWords { a, b }),
        1 => (any::<usize>(), prop::sample::select(vec![0xFFu8, 0xC3, 0x80, 0, b'\r', b'[', b'"']))
            .prop_map(|(at, value)| RecordEdit::Byte { at, value }),
    ]
}

/// `record` edited by `edit` (a [`RecordEdit::Byte`] is applied later, by [`mutated_record`]).
fn apply_record_edit(record: &str, edit: &RecordEdit) -> String {
    let split = record.find("\n\n").map_or(record.len(), |i| i + 2);
    let (tags, moves) = record.split_at(split);
    match edit {
        RecordEdit::Game(edit) => apply_game_edit(record, edit),
        RecordEdit::Tag { nth, value } => {
            let quotes: Vec<usize> = tags.match_indices(" \"").map(|(i, _)| i + 2).collect();
            let Some(&start) = quotes.get(nth % quotes.len().max(1)) else {
                return record.to_string();
            };
            let end = tags[start..].find("\"]").map_or(start, |len| start + len);
            format!("{}{value}{}", &tags[..start], &record[end..])
        }
        RecordEdit::Word { .. } | RecordEdit::SwapWords { .. } => {
            let mut words: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
            if words.is_empty() {
                return record.to_string();
            }
            let len = words.len();
            match edit {
                RecordEdit::Word { nth, value } => {
                    let legal: Vec<String> = words.clone();
                    words[nth % len] = resolve(value, &legal);
                }
                RecordEdit::SwapWords { a, b } => words.swap(a % len, b % len),
                _ => {}
            }
            format!("{tags}{}\n", words.join(" "))
        }
        RecordEdit::Byte { .. } => record.to_string(),
    }
}

/// A mutated record: (game index, the record's bytes).
fn mutated_record() -> impl Strategy<Value = (usize, Vec<u8>)> {
    (
        0..RECORDED.len(),
        prop::collection::vec(record_edit(), 1..4),
    )
        .prop_map(|(which, edits)| {
            let (game, record) = &records()[which];
            let text = edits
                .iter()
                .fold(record.clone(), |t, e| apply_record_edit(&t, e));
            let mut bytes = text.into_bytes();
            for edit in &edits {
                if let RecordEdit::Byte { at, value } = edit {
                    if !bytes.is_empty() {
                        let at = at % bytes.len();
                        bytes[at] = *value;
                    }
                }
            }
            (*game, bytes)
        })
}

/// What a reader types at `replay --step`.
fn step_input() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            prop::sample::select(vec![
                "",
                "b",
                "f",
                "l",
                "q",
                "0",
                "1",
                "3",
                "-1",
                "999999999999999999999",
                "back",
                " ",
            ])
            .prop_map(str::to_string),
            "\\PC{0,12}",
        ],
        0..12,
    )
    .prop_map(|lines| lines.join("\n"))
}

proptest! {
    #![proptest_config(config(256, 1))]

    /// The longer fuzz of saved records (`--ignored`; scale with `PROPTEST_CASES`): a mutated
    /// record given to `replay`, `replay --step` and `play --load` (random players) is refused
    /// with a message or played, never a panic, an abort or a hang; a record `replay` accepts is
    /// also stepped through and loaded.
    #[test]
    #[ignore = "minutes: the longer fuzz of records through the binary"]
    fn mutated_records_are_refused_or_replayed(
        (game, bytes) in mutated_record(),
        steps in step_input(),
        seed in 0u64..1_000,
    ) {
        let dir = scratch("records");
        std::fs::write(dir.join("r.pgn"), &bytes).expect("writes");
        let replay = clean_run(&dir, &strings(&["replay", "r.pgn"]), b"");
        let step = clean_run(&dir, &strings(&["replay", "r.pgn", "--step"]), steps.as_bytes());
        let mut load = strings(&["play", "--load", "r.pgn", "--seed", &seed.to_string()]);
        load.extend(side_flags(game, "random", Some("random")));
        let loaded = run_limited_in(&dir, &load, b"");
        // A record edited to name another game may lack a side the flags name: a usage error.
        let other_sides = loaded.code == Some(2)
            && replay.code == Some(1)
            && loaded.stderr.starts_with("error: unexpected argument '--");
        if !other_sides {
            assert_clean(&load, &loaded);
        }
        if replay.code == Some(0) {
            prop_assert_eq!(step.code, Some(0), "replayed, not stepped: {}", step.stderr);
            prop_assert_eq!(loaded.code, Some(0), "replayed, not loaded: {}", loaded.stderr);
        } else {
            prop_assert_eq!(step.code, Some(1), "refused by replay, stepped: {}", replay.stderr);
        }
    }
}

/// The games whose prompt is fuzzed.
const PROMPTED: &[&str] = &[
    "chess",
    "kingdrops",
    "cooperative-chess",
    "cheversi",
    "takeover-chess",
];

/// A line typed at the prompt, as bytes (it may not be UTF-8).
#[derive(Clone, Debug)]
enum PromptLine {
    Text(String),
    /// A legal move of the start position, in UCI or (`san`) short algebraic notation.
    Legal {
        choice: usize,
        san: bool,
    },
    Bytes(Vec<u8>),
}

fn prompt_line() -> impl Strategy<Value = PromptLine> {
    let command = prop::sample::select(vec![
        "help",
        "moves",
        "hint",
        "undo",
        "undo",
        "board",
        "control",
        "rules",
        "resign",
        "explain",
        "save",
        "save s.pgn",
        "save --force s.pgn",
        "save /dev/full",
        "save no/such/dir/x.pgn",
        "save r.pgn",
        "",
        " ",
        "\t",
        "quit",
    ])
    .prop_map(str::to_string);
    let moves = prop_oneof![
        "[KQRBNP]?[a-i]?[0-9]?x?[a-i][0-9]{1,2}(=[QRBN])?[+#]?",
        "[KQRBNPGSA]@[a-i][0-9]",
        "[a-h][1-8][a-h][1-8][qrbn]?",
        "(O-O|0-0|O-O-O)",
    ];
    prop_oneof![
        4 => command.prop_map(PromptLine::Text),
        4 => (any::<usize>(), any::<bool>()).prop_map(|(choice, san)| PromptLine::Legal { choice, san }),
        3 => moves.prop_map(PromptLine::Text),
        2 => "explain [A-Za-z0-9@=+#x-]{0,8}".prop_map(PromptLine::Text),
        1 => "\\PC{0,40}".prop_map(PromptLine::Text),
        1 => prop::collection::vec(any::<u8>(), 1..16).prop_map(|mut b| { b.retain(|&c| c != b'\n'); PromptLine::Bytes(b) }),
        1 => (1usize..100_000, "[a-z0-9 ]").prop_map(|(n, s)| PromptLine::Text(s.repeat(n))),
    ]
}

/// The legal moves of `game`'s start position: (UCI, short algebraic).
fn start_moves(game: usize) -> Vec<(String, String)> {
    let session =
        variant_interpreter::open(&corpus().games[game].2, None).expect("a shipped game opens");
    session
        .legal_moves()
        .into_iter()
        .map(|uci| {
            let san = session.san(&uci).unwrap_or_else(|| uci.clone());
            (uci, san)
        })
        .collect()
}

fn prompt_bytes(line: &PromptLine, legal: &[(String, String)]) -> Vec<u8> {
    match line {
        PromptLine::Text(text) => text.clone().into_bytes(),
        PromptLine::Legal { choice, san } => match legal.get(choice % legal.len().max(1)) {
            Some((uci, written)) => if *san { written } else { uci }.clone().into_bytes(),
            None => b"e4".to_vec(),
        },
        PromptLine::Bytes(bytes) => bytes.clone(),
    }
}

proptest! {
    #![proptest_config(config(256, 1))]

    /// The longer fuzz of prompt input (`--ignored`; scale with `PROPTEST_CASES`): random lines
    /// (moves legal and not, commands, garbage, very long lines, bytes that are not UTF-8) typed
    /// to a person's side against a random player: no panic, abort or hang, and exit code 0 when
    /// the input ends.
    #[test]
    #[ignore = "minutes: the longer fuzz of prompt input"]
    fn random_prompt_input_never_crashes_a_game(
        which in 0..PROMPTED.len(),
        lines in prop::collection::vec(prompt_line(), 0..30),
        final_newline in any::<bool>(),
        hint in prop::sample::select(vec!["random", "mcts:50", "search:1"]),
        seed in 0u64..1_000,
    ) {
        let name = PROMPTED[which];
        let game = game_index(name);
        let legal = start_moves(game);
        let mut input = lines
            .iter()
            .map(|line| prompt_bytes(line, &legal))
            .collect::<Vec<_>>()
            .join(&b'\n');
        if final_newline {
            input.push(b'\n');
        }
        let dir = scratch("prompt");
        let mut args = strings(&["play", name, "--seed", &seed.to_string(), "--hint", hint]);
        args.extend(side_flags(game, "human", None));
        let run = clean_run(&dir, &args, &input);
        prop_assert_eq!(run.code, Some(0), "{}", run.stderr);
    }
}

/// Found by the longer fuzz of records: side flags given with a record that cannot be read were
/// refused as unexpected arguments (clap's usage error, exit 2), hiding what is wrong with the
/// record.
#[test]
fn side_flags_with_an_unreadable_record_get_the_records_error() {
    let dir = scratch("unreadable-record");
    std::fs::write(dir.join("empty.pgn"), "").expect("writes");
    std::fs::write(dir.join("binary.pgn"), [b'[', 0xFF, 0xFE, b']']).expect("writes");
    for (file, expected) in [
        ("empty.pgn", "has no tags"),
        ("binary.pgn", "not UTF-8"),
        ("missing.pgn", "cannot read the record `missing.pgn`"),
    ] {
        let args = strings(&["play", "--load", file, "--white", "random"]);
        let run = run_limited_in(&dir, &args, b"");
        assert_clean(&args, &run);
        assert_eq!(run.code, Some(1), "{file}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{file}: {}", run.stderr);
    }
}
