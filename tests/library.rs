//! The library of Fairy-Stockfish's variants (issue 28): each game `games/NAME.variant` that has
//! a data file `tests/fsf/NAME.txt` agrees with Fairy-Stockfish's `NAME` at every position of it.
//!
//! The data files are pyffish's own answers, written by `scripts/fsf_oracle_data.py` (every file
//! at once, with the options used: `scripts/fsf_library_data.sh`) and committed, so this test
//! needs no pyffish. A game that lands with its data file is covered without being named here:
//! the files are found in `tests/fsf/`. For every position of the seeded random games, read from
//! pyffish's FEN:
//!
//! - our legal moves, in UCI as Fairy-Stockfish writes them, are pyffish's, as sorted sets;
//! - our FEN of the position read is pyffish's, and so is our FEN after the move played (the
//!   next position), so move making is checked, not only the FEN reader;
//! - our result for the side to move is pyffish's (`-`, `win`, `loss`, `draw`);
//!
//! and every `perft` line (from the start and from middle positions) counts what pyffish counted.
//!
//! The games run in-process on the interpreter's library API (compiled once per game, positions
//! read from FEN without history, as pyffish's answers are), so the whole library takes seconds.
//!
//! **Normalisation**, in one place (`Ours::same_fen`), where the two engines legitimately write
//! a position differently:
//! - en passant: Fairy-Stockfish writes the target square only when an enemy piece could take
//!   there, we write it after every double step (standard FEN, docs/language.md §3). Where
//!   pyffish writes `-` and we write a square, no legal move of ours may capture en passant.
//!   Fairy-Stockfish may list several squares (`d3c4` after a Berolina pawn's e2-c4: the square
//!   passed and the one landed on, in square order); ours, the square passed, must be one of them.
//! - a setup without castling and en passant: Fairy-Stockfish leaves both fields out of its start
//!   FEN (Breakthrough's `w 0 1`) but writes them (`- -`) after every move; we always write them.
//!   Its start FEN writes empty hands `[-]` (shogi), its others `[]`; we write `[]`.
//! - the order of the pieces in hand: a hand is a set, which Fairy-Stockfish writes in its start
//!   FEN's order there (Seirawan's `[HEhe]`, sittuyin's `[KFRRSSNN...]`) and by piece type elsewhere (`[EHeh]`), and we in
//!   declaration order; the letters are compared sorted.
//! - the half-move clock is compared everywhere: Fairy-Stockfish resets it on every drop, and so
//!   do the library's games with drops (`drops { irreversible }`).
//! - a pass: Fairy-Stockfish writes it as a move of a piece to its own square (ataxx's `a5a5`,
//!   its first piece), we write `pass`; pyffish's moves from a square to itself read as `pass`,
//!   except in games with `may pass`, which write it as Fairy-Stockfish does (janggi's `e2e2`).
//! - perft in games with `may pass` (janggi): pyffish counts each position read again from its
//!   FEN, without the history that ends a janggi game after a pass (bikjang, two passes), so
//!   there we count the same way (`Ours::perft_through_fens`); tests/janggi.rs checks those
//!   ends on move sequences.

mod common;

use std::path::{Path, PathBuf};
use variant_dsl::{Definition, LoadOptions};
use variant_interpreter::bitboard::Bitboard;
use variant_interpreter::movegen::legal_moves;
use variant_interpreter::moves::MoveKind;
use variant_interpreter::outcome::outcome;
use variant_interpreter::{perft, Position, Rules, Wide256};

/// The games of `games/` that Fairy-Stockfish knows by the same name: each must have its data
/// file (issue 28's library, as the games land).
const FAIRY_STOCKFISH_GAMES: &[&str] = &[
    "crazyhouse",
    "atomic",
    "kingofthehill",
    "knightmate",
    "extinction",
    "gothic",
    "amazon",
    "berolina",
    "courier",
    "chaturanga",
    "breakthrough",
    "newzealand",
    "hoppelpoppel",
    "torpedo",
    "3check",
    "antichess",
    "losers",
    "horde",
    "racingkings",
    "seirawan",
    "placement",
    "ataxx",
    "spartan",
    "duck",
    "grasshopper",
    "shogi",
    "minishogi",
    "xiangqi",
    "minixiangqi",
    "janggi",
    "dobutsu",
    "sittuyin",
    "shako",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every data file `tests/fsf/NAME.txt`, as (NAME, path), sorted.
fn data_files() -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("tests/fsf"))
        .expect("tests/fsf exists")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_stem()?.to_string_lossy().into_owned();
            (path.extension()? == "txt").then_some((name, path))
        })
        .collect();
    files.sort();
    files
}

/// `games/NAME.variant`, loaded (a game may extend another of `games/`).
fn load(name: &str) -> Result<Definition, String> {
    let games = root().join("games");
    let options = LoadOptions::with_search_path([games.clone()]);
    variant_dsl::load_file_with(&games.join(format!("{name}.variant")), &options)
        .map(|loaded| loaded.definition)
        .map_err(|failure| failure.render())
}

/// One record of a data file (see `scripts/fsf_oracle_data.py`).
enum Record<'a> {
    /// A game begins.
    Game,
    /// A position: its FEN, pyffish's sorted legal moves, its result, the move played from it
    /// (`None` at a game's last position, or in a file written before the field existed).
    Position {
        fen: &'a str,
        moves: Vec<&'a str>,
        result: &'a str,
        played: Option<&'a str>,
    },
    /// A perft count.
    Perft {
        fen: &'a str,
        depth: u32,
        nodes: u64,
    },
}

fn parse(line: &str) -> Option<Record<'_>> {
    let fields: Vec<&str> = line.split('\t').collect();
    match fields.as_slice() {
        ["game", _] => Some(Record::Game),
        ["position", fen, moves, result, rest @ ..] => Some(Record::Position {
            fen,
            moves: moves.split_whitespace().collect(),
            result,
            played: rest.first().copied().filter(|&played| played != "-"),
        }),
        ["perft", fen, depth, nodes] => Some(Record::Perft {
            fen,
            depth: depth.parse().ok()?,
            nodes: nodes.parse().ok()?,
        }),
        _ => None,
    }
}

/// Our side of the comparison: the game's compiled rules.
struct Ours<B: Bitboard> {
    definition: Definition,
    rules: Rules<B>,
}

impl<B: Bitboard> Ours<B> {
    fn new(definition: Definition) -> Self {
        let rules = Rules::<B>::compile(&definition).expect("the game compiles");
        Ours { definition, rules }
    }

    fn read(&self, fen: &str) -> Result<Position<B>, String> {
        let setup =
            variant_dsl::fen::parse_fen(&self.definition, fen).map_err(|e| e.to_string())?;
        Position::from_setup(&self.rules, &setup).map_err(|e| e.to_string())
    }

    fn fen(&self, position: &Position<B>) -> String {
        variant_dsl::fen::write_fen(&self.definition, &position.to_setup(&self.rules))
    }

    /// Our sorted legal moves, none where the game has ended (as pyffish lists none).
    fn moves(&self, position: &Position<B>) -> Vec<String> {
        if outcome(&self.rules, position, &[]).is_some() {
            return Vec::new();
        }
        let mut moves: Vec<String> = legal_moves(&self.rules, position)
            .iter()
            .map(|m| m.uci(&self.rules))
            .collect();
        moves.sort();
        moves
    }

    /// `-` while the game goes on, else `win`, `loss` or `draw` for the side to move.
    fn result(&self, position: &Position<B>) -> &'static str {
        let Some(outcome) = outcome(&self.rules, position, &[]) else {
            return "-";
        };
        let side = &self.definition.sides[position.side_to_move(&self.rules).index()].name;
        if outcome.winners.is_empty() {
            "draw"
        } else if outcome.winners.contains(side) {
            "win"
        } else {
            "loss"
        }
    }

    /// Perft counted as pyffish counts it: each position read again from its FEN, so without
    /// the history that a game with passes reads (janggi's ends after a pass).
    fn perft_through_fens(&self, position: &Position<B>, depth: u32) -> u64 {
        if outcome(&self.rules, position, &[]).is_some() {
            return 0;
        }
        let moves = legal_moves(&self.rules, position);
        if depth <= 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&mv| {
                let mut after = *position;
                after.play_legal(&self.rules, mv);
                let again = self.read(&self.fen(&after)).expect("our FEN reads back");
                self.perft_through_fens(&again, depth - 1)
            })
            .sum()
    }

    /// Whether our FEN of `position` says what pyffish's `theirs` says (see the module doc).
    fn same_fen(&self, position: &Position<B>, theirs: &str) -> bool {
        let ours = self.fen(position);
        let (mine, mut their): (Vec<&str>, Vec<&str>) =
            (ours.split(' ').collect(), theirs.split(' ').collect());
        if their.len() == 4 {
            // A setup written without castling and en-passant fields (Breakthrough's `w 0 1`).
            their.splice(2..2, ["-", "-"]);
        }
        // Empty hands written `[-]` (shogi's start FEN), as we write `[]`.
        let their_board = sorted_hands(&their[0].replace("[-]", "[]"));
        their[0] = &their_board;
        let my_board = sorted_hands(mine[0]);
        let mut mine = mine;
        mine[0] = &my_board;
        if mine.len() != their.len() || mine.len() < 6 {
            return ours == theirs;
        }
        let fields_agree = (0..mine.len()).all(|i| match i {
            3 => {
                mine[3] == their[3]
                    || (their[3].len() > 3 && listed_squares(their[3]).contains(&mine[3]))
                    || (their[3] == "-"
                        && !legal_moves(&self.rules, position)
                            .iter()
                            .any(|m| m.kind == MoveKind::EnPassant))
            }
            _ => mine[i] == their[i],
        });
        fields_agree
    }

    /// Every disagreement with the data file's text, one line each (at most a few per game).
    fn disagreements(&self, text: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut expected_next: Option<(String, Position<B>)> = None;
        let records = text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'));
        for line in records {
            if found.len() >= 5 {
                break;
            }
            match parse(line) {
                Some(Record::Game) => expected_next = None,
                Some(Record::Position {
                    fen,
                    mut moves,
                    result,
                    played,
                }) => {
                    // A game with `may pass` writes its passes as Fairy-Stockfish does.
                    let native = self.definition.turn.may_pass;
                    let ours = |uci| if native { uci } else { as_pass(uci) };
                    moves = moves.into_iter().map(ours).collect();
                    moves.sort_unstable();
                    let played = played.map(ours);
                    if let Some((before, after)) = expected_next.take() {
                        if !self.same_fen(&after, fen) {
                            found.push(format!(
                                "after {before}: ours {}, pyffish {fen}",
                                self.fen(&after)
                            ));
                        }
                    }
                    match self.position_disagreement(fen, &moves, result, played) {
                        Ok(next) => expected_next = next,
                        Err(why) => found.push(why),
                    }
                }
                Some(Record::Perft { fen, depth, nodes }) => {
                    let ours = self.read(fen).map(|position| {
                        if self.definition.turn.may_pass {
                            self.perft_through_fens(&position, depth)
                        } else {
                            perft::perft(&self.rules, &position, depth, &[])
                        }
                    });
                    if ours != Ok(nodes) {
                        found.push(format!(
                            "perft {depth} at {fen}: ours {ours:?}, pyffish {nodes}"
                        ));
                    }
                }
                // `variant` and `start` lines say what the file is; nothing to compare.
                None if line.starts_with("variant\t") || line.starts_with("start\t") => {}
                None => found.push(format!("unreadable line: {line}")),
            }
        }
        found
    }

    /// Compares one position; on agreement, returns the move played from it (in UCI) and the
    /// position after it, for the next line's FEN.
    fn position_disagreement(
        &self,
        fen: &str,
        theirs: &[&str],
        result: &str,
        played: Option<&str>,
    ) -> Result<Option<(String, Position<B>)>, String> {
        let position = self
            .read(fen)
            .map_err(|e| format!("{fen}: we refuse pyffish's FEN: {e}"))?;
        if !self.same_fen(&position, fen) {
            return Err(format!("{fen}: read back as {}", self.fen(&position)));
        }
        let ours = self.moves(&position);
        if ours != theirs {
            let only_ours: Vec<&String> = ours
                .iter()
                .filter(|m| !theirs.contains(&m.as_str()))
                .collect();
            let only_theirs: Vec<&&str> = theirs
                .iter()
                .filter(|m| !ours.iter().any(|o| o == *m))
                .collect();
            return Err(format!(
                "{fen}: moves differ, only ours {only_ours:?}, only pyffish's {only_theirs:?}"
            ));
        }
        if self.result(&position) != result {
            return Err(format!(
                "{fen}: result ours {}, pyffish {result}",
                self.result(&position)
            ));
        }
        let Some(played) = played else {
            return Ok(None);
        };
        let mv = legal_moves(&self.rules, &position)
            .into_iter()
            .find(|m| m.uci(&self.rules) == played)
            .ok_or_else(|| format!("{fen}: the move played, {played}, is not ours"))?;
        let mut after = position;
        after.play_legal(&self.rules, mv);
        Ok(Some((format!("{played} from {fen}"), after)))
    }
}

/// Pyffish's move in our notation where they differ: a move from a square to itself is
/// Fairy-Stockfish's pass (`a5a5`), our `pass`.
fn as_pass(uci: &str) -> &str {
    let half = uci.len() / 2;
    let same = uci.len() >= 4
        && uci.is_ascii()
        && uci.len().is_multiple_of(2)
        && uci[..half] == uci[half..];
    if !same {
        return uci;
    }
    let square = uci[..half].starts_with(|c: char| c.is_ascii_lowercase())
        && uci[1..half].chars().all(|c| c.is_ascii_digit());
    if square {
        "pass"
    } else {
        uci
    }
}

/// The board field with the letters in hand (between `[` and `]`) sorted.
fn sorted_hands(board: &str) -> String {
    match (board.find('['), board.rfind(']')) {
        (Some(open), Some(close)) if open < close => {
            let mut hand: Vec<char> = board[open + 1..close].chars().collect();
            hand.sort_unstable();
            let hand: String = hand.into_iter().collect();
            format!("{}[{hand}]{}", &board[..open], &board[close + 1..])
        }
        _ => board.to_string(),
    }
}

/// The square names written one after another in Fairy-Stockfish's en-passant field (`d3c4`).
fn listed_squares(field: &str) -> Vec<&str> {
    let starts: Vec<usize> = field
        .char_indices()
        .filter(|(_, c)| c.is_ascii_lowercase())
        .map(|(i, _)| i)
        .chain([field.len()])
        .collect();
    starts.windows(2).map(|w| &field[w[0]..w[1]]).collect()
}

/// The disagreements of game `name` with its data file, and how many records were compared.
fn check(name: &str, text: &str) -> (Vec<String>, usize) {
    let definition = match load(name) {
        Ok(definition) => definition,
        Err(why) => {
            return (
                vec![format!("games/{name}.variant does not load:\n{why}")],
                0,
            )
        }
    };
    let squares = definition.board.files as usize * definition.board.ranks as usize;
    let found = if squares <= 64 {
        Ours::<u64>::new(definition).disagreements(text)
    } else if squares <= 128 {
        Ours::<u128>::new(definition).disagreements(text)
    } else {
        Ours::<Wide256>::new(definition).disagreements(text)
    };
    let compared = text
        .lines()
        .filter(|l| l.starts_with("position\t") || l.starts_with("perft\t"))
        .count();
    (found, compared)
}

#[test]
fn every_library_game_agrees_with_its_fairy_stockfish_data() {
    let files = data_files();
    assert!(!files.is_empty(), "no data file in tests/fsf");
    let mut failures = Vec::new();
    for (name, path) in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        assert!(
            text.contains(&format!("\nvariant\t{name}\n")),
            "{}: the data is not for Fairy-Stockfish's `{name}`",
            path.display()
        );
        let (found, compared) = check(name, &text);
        if found.is_empty() && compared < 20 {
            failures.push(format!(
                "{name}: only {compared} positions and perft counts"
            ));
        }
        failures.extend(found.into_iter().map(|why| format!("{name}: {why}")));
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_fairy_stockfish_game_of_the_library_has_its_data() {
    for name in common::games() {
        if FAIRY_STOCKFISH_GAMES.contains(&name.as_str()) {
            let data = root().join(format!("tests/fsf/{name}.txt"));
            assert!(
                data.is_file(),
                "games/{name}.variant is Fairy-Stockfish's `{name}`: it needs {} \
                 (scripts/fsf_library_data.sh)",
                data.display()
            );
        }
    }
    // And every data file is for a game of the library.
    for (name, _) in data_files() {
        assert!(
            root().join(format!("games/{name}.variant")).is_file(),
            "tests/fsf/{name}.txt has no games/{name}.variant"
        );
    }
}

/// Issue 27's games of the shogi, xiangqi and janggi families: `variant show --fen F` writes
/// back `F` itself for every position pyffish wrote in their data files, not only an equivalent
/// FEN (the comparison above normalises hands and fields). The start FENs, which
/// Fairy-Stockfish writes in a short form (`[-] w 0 1` without castling and en-passant fields),
/// read back in the full form (`[] w - - 0 1`), as every FEN is written (README, Usage).
#[test]
fn issue_27_games_write_back_every_fen_pyffish_wrote() {
    const ISSUE_27: [&str; 9] = [
        "shogi",
        "minishogi",
        "dobutsu",
        "xiangqi",
        "minixiangqi",
        "janggi",
        "sittuyin",
        "shako",
        "grasshopper",
    ];
    let mut differ = Vec::new();
    let mut compared = 0;
    for name in ISSUE_27 {
        let text = std::fs::read_to_string(root().join(format!("tests/fsf/{name}.txt")))
            .expect("the data file");
        let definition = load(name).expect("the game loads");
        let ours = Ours::<u128>::new(definition);
        let start = text
            .lines()
            .find_map(|line| line.strip_prefix("start\t"))
            .expect("a start line");
        for fen in text
            .lines()
            .filter_map(|line| line.strip_prefix("position\t"))
            .filter_map(|rest| rest.split('\t').next())
        {
            let written = ours.fen(&ours.read(fen).expect("pyffish's FEN reads"));
            let expected = if fen == start {
                fen.replace("[-]", "[]").replace(" w 0 1", " w - - 0 1")
            } else {
                fen.to_string()
            };
            compared += 1;
            // A hand is a set (see the module doc): its letters are compared sorted.
            if sorted_hand(&written) != sorted_hand(&expected) {
                differ.push(format!("{name}: {fen} written back as {written}"));
            }
        }
    }
    assert!(compared > 1000, "{compared}");
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// `fen` with the letters of its hand (`[...]`) sorted.
fn sorted_hand(fen: &str) -> String {
    match (fen.find('['), fen.find(']')) {
        (Some(open), Some(close)) if open < close => {
            let mut hand: Vec<char> = fen[open + 1..close].chars().collect();
            hand.sort_unstable();
            let hand: String = hand.into_iter().collect();
            format!("{}[{hand}]{}", &fen[..open], &fen[close + 1..])
        }
        _ => fen.to_string(),
    }
}

#[test]
fn a_disagreement_is_reported() {
    // The comparison can fail: a wrong FEN after a move, a wrong result, a missing legal move
    // and a wrong perft count are each reported (atomic's first moves are chess's).
    let white = "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g1f3 \
                 g1h3 g2g3 g2g4 h2h3 h2h4";
    let black = "a7a5 a7a6 b7b5 b7b6 b8a6 b8c6 c7c5 c7c6 d7d5 d7d6 e7e5 e7e6 f7f5 f7f6 g7g5 \
                 g7g6 g8f6 g8h6 h7h5 h7h6";
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // The half-move clock after a pawn move is 0, not 1.
    let after = "rnbqkbnr/pppppppp/8/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq - 1 1";
    let text = format!(
        "variant\tatomic\n\
         game\t0\n\
         position\t{start}\t{white}\t-\ta2a3\n\
         position\t{after}\t{black}\twin\t-\n\
         game\t1\n\
         position\t{start}\ta2a3\t-\t-\n\
         perft\t{start}\t1\t21\n"
    );
    let (found, compared) = check("atomic", &text);
    assert_eq!(compared, 4);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found[0].starts_with("after a2a3"), "{found:#?}");
    assert!(
        found[1].contains("result ours -, pyffish win"),
        "{found:#?}"
    );
    assert!(found[2].contains("only pyffish's []"), "{found:#?}");
    assert!(found[3].starts_with("perft 1"), "{found:#?}");
}

/// Extinction's rulings that the seeded games need not meet, as pyffish answers them: a King
/// that is not royal castles through an attacked square (f1, by the Bishop on c4) and out of
/// attack (the Rook on e4), and a move that leaves both sides without a type (the last pawn
/// promotes by taking the last Knight of the other side) loses for the mover, judged first.
#[test]
fn extinction_rulings_agree_with_fairy_stockfish() {
    let attacked_path = "rnbqk1nr/pppp1ppp/8/8/2b5/8/PPPP1PPP/RNBQK2R w KQkq - 0 1";
    let attacked_path_moves = "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 d1e2 d1f3 d1g4 d1h5 d2d3 \
        d2d4 e1e2 e1f1 e1g1 f2f3 f2f4 g2g3 g2g4 h1f1 h1g1 h2h3 h2h4";
    let attacked_king = "rnbqk1n1/pppp1ppp/8/8/4r3/8/PPPP1PPP/RNBQK2R w KQq - 0 1";
    let attacked_king_moves = "a2a3 a2a4 b1a3 b1c3 b2b3 b2b4 c2c3 c2c4 d1e2 d1f3 d1g4 d1h5 \
        d2d3 d2d4 e1e2 e1f1 e1g1 f2f3 f2f4 g2g3 g2g4 h1f1 h1g1 h2h3 h2h4";
    let last_pawn = "rn1qkbnr/P1pppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1";
    let last_pawn_moves = "a1a2 a1a3 a1a4 a1a5 a1a6 a7b8b a7b8k a7b8n a7b8q a7b8r b1a3 b1c3 \
        b1d2 c1a3 c1b2 c1d2 c1e3 c1f4 c1g5 c1h6 d1a4 d1b3 d1c2 d1d2 d1d3 d1d4 d1d5 d1d6 d1d7 \
        d1e2 d1f3 d1g4 d1h5 e1d2 e1e2 e1f2 f1a6 f1b5 f1c4 f1d3 f1e2 f1g2 f1h3 g1e2 g1f3 g1h3 \
        h1h2 h1h3 h1h4 h1h5 h1h6 h1h7";
    let both_extinct = "rQ1qkbnr/2pppppp/8/8/8/8/8/RNBQKBNR b KQkq - 0 1";
    let text = format!(
        "variant\textinction\n\
         game\t0\n\
         position\t{attacked_path}\t{attacked_path_moves}\t-\t-\n\
         game\t1\n\
         position\t{attacked_king}\t{attacked_king_moves}\t-\t-\n\
         game\t2\n\
         position\t{last_pawn}\t{last_pawn_moves}\t-\ta7b8q\n\
         position\t{both_extinct}\t\twin\t-\n"
    );
    let (found, compared) = check("extinction", &text);
    assert_eq!(compared, 4);
    assert!(found.is_empty(), "{found:#?}");
}

/// Placement's castling rights (`when placed`), as pyffish answers them: a right is gained by
/// the drop that leaves the King and that Rook on their chess squares, whichever comes last,
/// and never by another piece on the rook's square or a King elsewhere.
#[test]
fn placement_gains_castling_rights_as_fairy_stockfish_does() {
    let definition = load("placement").expect("placement loads");
    for (drops, rights) in [
        ("K@e1 K@e8 R@h1", "K"),
        ("R@h1 K@e8 K@e1", "K"),
        ("K@e1 K@e8 Q@h1", "-"),
        ("K@f1 K@e8 R@h1", "-"),
        ("K@e1 K@e8 R@h1 R@a8", "Kq"),
        ("K@e1 R@h8 R@h1 K@e8", "Kk"),
    ] {
        let mut session = variant_interpreter::open(&definition, None).expect("opens");
        for drop in drops.split(' ') {
            session.play(drop).expect("a legal drop");
        }
        let fen = session.fen();
        assert_eq!(fen.split(' ').nth(2), Some(rights), "{drops}: {fen}");
        assert!(session.hash_is_consistent(), "{drops}");
    }
}

/// Dobutsu's try, as pyffish answers it: a lion on its far rank wins only where no enemy piece
/// attacks it, judged for both sides on every position (the side to move wins with its own
/// lion there, loses with the other's), and both lions safe there is a draw. An attacked lion
/// there ends nothing (White's on b4, attacked by the giraffe on a4; Black's on c1, by the
/// elephant on b2).
#[test]
fn dobutsu_try_agrees_with_fairy_stockfish() {
    let text = "variant\tdobutsu\n\
         game\t0\n\
         position\tgL1/3/2l/E1C[] b - - 0 1\ta4a3 a4b4 c2b1 c2b2 c2b3 c2c1 c2c3\t-\t-\n\
         position\tgL1/3/2l/E1C[] w - - 0 1\ta1b2 b4a3 b4a4 b4b3 b4c3 b4c4 c1c2\t-\t-\n\
         position\t1L1/g2/2l/E1C[] b - - 0 1\t\tloss\t-\n\
         position\t1L1/g2/2l/E1C[] w - - 0 1\t\twin\t-\n\
         position\t1L1/3/1C1/El1[g] w - - 0 1\t\tdraw\t-\n\
         position\t1L1/3/1C1/El1[g] b - - 0 1\t\tdraw\t-\n\
         position\t1L1/3/1E1/2l[g] b - - 0 1\t\tloss\t-\n";
    let (found, compared) = check("dobutsu", text);
    assert_eq!(compared, 7);
    assert!(found.is_empty(), "{found:#?}");
}

/// Sittuyin's promotion, a move of its own (`promotes in place or by "mF" to Ferz`), as pyffish
/// answers it: on a promotion square (d5 for White, d4 for Black), in place or by a diagonal
/// step, backwards too; not while the side has a general (f1); not where the new general would
/// attack an enemy piece (the rooks on c6 and d7); and the last pawn from anywhere (e2).
#[test]
fn sittuyin_promotion_agrees_with_fairy_stockfish() {
    let text = "variant\tsittuyin\n\
        game\t0\n\
        position\t4k3/8/8/3P4/8/8/4P3/4K3[] w - - 0 1\t\
            d5c4f d5c6f d5d5f d5d6 d5e4f d5e6f e1d1 e1d2 e1f1 e1f2 e2e3\t-\td5e6f\n\
        position\t4k3/8/4F3/8/8/8/4P3/4K3[] b - - 0 1\te8d8 e8e7 e8f8\t-\t-\n\
        game\t1\n\
        position\t4k3/8/8/3P4/8/8/8/4KF2[] w - - 0 1\t\
            d5d6 e1d1 e1d2 e1e2 e1f2 f1e2 f1g2\t-\t-\n\
        position\t4k3/8/2r5/3P4/8/8/4P3/4K3[] w - - 0 1\t\
            d5c4f d5c6 d5d6 d5e4f d5e6f e1d1 e1d2 e1f1 e1f2 e2e3\t-\t-\n\
        position\t4k3/3r4/8/3P4/8/8/4P3/4K3[] w - - 0 1\t\
            d5c4f d5d5f d5d6 d5e4f e1d1 e1d2 e1f1 e1f2 e2e3\t-\t-\n\
        position\t4k3/8/8/4p3/3p4/8/8/4K3[] b - - 0 1\t\
            d4c3f d4c5f d4d3 d4d4f d4e3f e5e4 e8d7 e8d8 e8e7 e8f7 e8f8\t-\t-\n\
        game\t2\n\
        position\t8/8/8/8/8/8/4P3/1k2K3[] w - - 0 1\t\
            e1d1 e1d2 e1f1 e1f2 e2d1f e2d3f e2e2f e2e3 e2f1f e2f3f\t-\te2e2f\n\
        position\t8/8/8/8/8/8/4F3/1k2K3[] b - - 0 1\tb1a1 b1a2 b1b2 b1c1 b1c2\t-\t-\n";
    let (found, compared) = check("sittuyin", text);
    assert_eq!(compared, 8);
    assert!(found.is_empty(), "{found:#?}");
}

/// Sittuyin's draw of a side whose only moves are promotions (Fairy-Stockfish's "stalemate due
/// to optional promotion", an optional end there, at once here), as pyffish answers it
/// (`scripts/sittuyin_promotion_draw_cases.py` prints these records): a king and one pawn, not
/// in check, every legal move a promotion, for White and for Black, is a draw; a pawn step that
/// does not promote, a third piece, a check, or a second pawn keeps the game going.
#[test]
fn sittuyin_draw_when_only_promotions_agrees_with_fairy_stockfish() {
    let text = "variant\tsittuyin\n\
        game\t0\n\
        position\t4k1r1/8/8/8/8/7n/7P/7K[] w - - 0 1\t\tdraw\t-\n\
        game\t1\n\
        position\t7k/7p/7N/8/8/8/8/4K1R1[] b - - 0 1\t\tdraw\t-\n\
        game\t2\n\
        position\t4k1r1/8/8/8/8/8/7P/7K[] w - - 0 1\th2g1f h2g3f h2h2f h2h3\t-\t-\n\
        game\t3\n\
        position\t4k1r1/8/8/8/8/7n/7P/6NK[] w - - 0 1\tg1e2 g1f3 g1h3 h2g3f h2h2f\t-\t-\n\
        game\t4\n\
        position\t4k1r1/8/8/8/8/7n/7P/r6K[] w - - 0 1\th2g1f\t-\t-\n\
        game\t5\n\
        position\t4k1r1/8/3s4/3P4/8/7n/7P/7K[] w - - 0 1\td5c4f d5c6f d5d5f d5e4f d5e6f\t-\t-\n";
    let (found, compared) = check("sittuyin", text);
    assert_eq!(compared, 6);
    assert!(found.is_empty(), "{found:#?}");
}

/// Shako's rulings that the seeded games need not meet, as pyffish answers them: a pawn on the
/// ninth rank promotes, by a step or a capture, to queen, rook, bishop, knight, cannon or
/// elephant; a pawn's double step from its third rank may be taken en passant; the king may not
/// castle across a square a cannon attacks over a hurdle (f2-h2 over g2), and castles long from
/// f2 to d2 with the rook from b2 to e2; the elephant leaps two squares diagonally.
#[test]
fn shako_rulings_agree_with_fairy_stockfish() {
    let text = "variant\tshako\n\
        game\t0\n\
        position\tc3k4c/1P8/10/10/10/10/10/10/5K4/10 w - - 0 1\t\
            b9a10b b9a10c b9a10e b9a10n b9a10q b9a10r b9b10b b9b10c b9b10e b9b10n b9b10q b9b10r \
            f2e1 f2e2 f2e3 f2f1 f2f3 f2g1 f2g2 f2g3\t-\tb9a10c\n\
        position\tC3k4c/10/10/10/10/10/10/10/5K4/10 b - - 0 1\t\
            e10d10 e10d9 e10e9 e10f10 e10f9 j10a10 j10f10 j10g10 j10h10 j10i10 j10j1 j10j2 \
            j10j3 j10j4 j10j5 j10j6 j10j7 j10j8 j10j9\t-\t-\n\
        game\t1\n\
        position\t10/5k4/3p6/10/4P5/10/10/10/5K4/10 b - - 0 1\t\
            d8d6 d8d7 f9e10 f9e8 f9e9 f9f10 f9f8 f9g10 f9g8 f9g9\t-\td8d6\n\
        position\t10/5k4/10/10/3pP5/10/10/10/5K4/10 w - d7 0 2\t\
            e6d7 e6e7 f2e1 f2e2 f2e3 f2f1 f2f3 f2g1 f2g2 f2g3\t-\t-\n\
        game\t2\n\
        position\t6c3/5k4/10/10/6P3/10/10/10/5K2R1/10 w K - 0 1\t\
            f2e1 f2e2 f2e3 f2f1 f2f3 g6g7 i2g2 i2h2 i2i1 i2i10 i2i3 i2i4 i2i5 i2i6 i2i7 i2i8 \
            i2i9 i2j2\t-\t-\n\
        game\t3\n\
        position\t10/5k4/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1\t\
            b2a2 b2b1 b2b10 b2b3 b2b4 b2b5 b2b6 b2b7 b2b8 b2b9 b2c2 b2d2 b2e2 f2d2 f2e1 f2e2 \
            f2e3 f2f1 f2f3 f2g1 f2g2 f2g3 f2h2 i2g2 i2h2 i2i1 i2i10 i2i3 i2i4 i2i5 i2i6 i2i7 \
            i2i8 i2i9 i2j2\t-\tf2d2\n\
        position\t10/5k4/10/10/10/10/10/10/3KR3R1/10 b - - 1 1\t\
            f9f10 f9f8 f9g10 f9g8 f9g9\t-\t-\n\
        game\t4\n\
        position\t5k4/10/10/10/10/10/10/10/10/E4K4 w - - 0 1\t\
            a1b2 a1c3 f1e1 f1e2 f1f2 f1g1 f1g2\t-\t-\n";
    let (found, compared) = check("shako", text);
    assert_eq!(compared, 8);
    assert!(found.is_empty(), "{found:#?}");
}

/// Seirawan's gating rulings that the seeded games need not meet, as pyffish answers them:
/// castling gates on the king's square (`e1g1e`) or on the rook's (`h1e1e`, written from the
/// rook's square to the king's), the castling field then keeps the other rook's square (`A`);
/// and a piece pinned on the first rank stays pinned, though the piece gated would block the
/// line (no move of the knight on c1).
#[test]
fn seirawan_gating_rulings_agree_with_fairy_stockfish() {
    let castles = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1";
    let castles_moves = "a1b1 a1b1e a1b1h a1c1 a1c1e a1c1h a1d1 a1d1e a1d1h a1e1e a1e1h a2a3 \
        a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e1c1 e1c1e e1c1h e1d1 e1d1e e1d1h e1f1 e1f1e e1f1h \
        e1g1 e1g1e e1g1h e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h1e1e h1e1h h1f1 h1f1e h1f1h h1g1 h1g1e \
        h1g1h h2h3 h2h4";
    let on_rook = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKE[Heh] b Akq - 1 1";
    let on_rook_moves = "a7a5 a7a6 a8b8 a8b8e a8b8h a8c8 a8c8e a8c8h a8d8 a8d8e a8d8h a8e8e \
        a8e8h b7b5 b7b6 c7c5 c7c6 d7d5 d7d6 e7e5 e7e6 e8c8 e8c8e e8c8h e8d8 e8d8e e8d8h e8f8 \
        e8f8e e8f8h e8g8 e8g8e e8g8h f7f5 f7f6 g7g5 g7g6 h7h5 h7h6 h8e8e h8e8h h8f8 h8f8e h8f8h \
        h8g8 h8g8e h8g8h";
    let queen_side = "2krh2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKE[He] w Ah - 2 2";
    let queen_side_moves = "a1b1 a1b1h a1c1 a1c1h a1d1 a1d1h a1e1 a1e1h a2a3 a2a4 b2b3 b2b4 \
        c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f1b1 f1c1 f1d1 f1e1 f2f3 f2f4 g2g3 g2g4 h1g3 h2h3 h2h4";
    let on_king = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3ERK1[Heh] b Akq - 1 1";
    let pinned = "4k3/8/8/8/8/8/8/r1N1K3[H] w C - 0 1";
    let text = format!(
        "variant\tseirawan\n\
         game\t0\n\
         position\t{castles}\t{castles_moves}\t-\th1e1e\n\
         position\t{on_rook}\t{on_rook_moves}\t-\te8c8h\n\
         position\t{queen_side}\t{queen_side_moves}\t-\t-\n\
         game\t1\n\
         position\t{castles}\t{castles_moves}\t-\te1g1e\n\
         position\t{on_king}\t{on_rook_moves}\t-\t-\n\
         game\t2\n\
         position\t{pinned}\te1d1 e1d2 e1e2 e1f1 e1f2\t-\t-\n"
    );
    let (found, compared) = check("seirawan", &text);
    assert_eq!(compared, 6);
    assert!(found.is_empty(), "{found:#?}");
}
