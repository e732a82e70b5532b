//! Chess along random games (proptest, seeded), checked against `naive`, a plain FIDE chess
//! move generator written in this file: an 8x8 array of pieces, moves generated square by
//! square, each one played on a copy of the array and kept if the mover's king is then not
//! attacked (its own attack detection, looking outwards from the king). It shares no code with
//! the engine: it reads the first FEN as text and from then on keeps its own board. Its perft
//! matches the published counts of four positions (`the_naive_generator_matches_published_perft`).
//!
//! Games start from the start position, the positions of `tests/perft/chess.perft` and a few
//! endgames (so that they end by mate, stalemate, repetition and the move limit); one move in
//! three is castling, en passant or a promotion when there is one. At every position:
//! - while the game goes on, the engine's legal moves are exactly the naive ones (no
//!   duplicates), `perft(1)` is their number and, every 8 plies and wherever there are at most
//!   24 moves, `perft(2)` the naive perft 2 (under the engine's convention: the tree stops at a
//!   repetition or at the move limit);
//! - the engine's FEN is the one the naive board writes (castling rights, en-passant square
//!   after every double step, clocks), and `in_check` agrees;
//! - the result agrees: no naive move means checkmate (the mover's king attacked, the other side
//!   wins) or stalemate (a draw); a repetition result needs a position (en-passant square
//!   aside) seen three times, a move-limit result the halfmove clock at 100; a position seen
//!   three times with the same en-passant square, or the clock at 100, ends the game; once
//!   the game is over, no move is listed and `perft(1)` is 0;
//! - the incremental Zobrist hash equals a fresh one, and the FEN round-trips.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use std::collections::HashMap;
use std::path::Path;
use variant_dsl::Definition;
use variant_interpreter::Reason;

fn definition(game: &str) -> Definition {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(format!("{game}.variant"));
    variant_dsl::load_file(&path)
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition
}

/// A naive FIDE chess board, independent of the engine.
mod naive {
    #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
    pub enum Colour {
        White,
        Black,
    }

    impl Colour {
        pub fn other(self) -> Colour {
            match self {
                Colour::White => Colour::Black,
                Colour::Black => Colour::White,
            }
        }

        /// The rank direction of this colour's pawns.
        fn forward(self) -> i32 {
            match self {
                Colour::White => 1,
                Colour::Black => -1,
            }
        }
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
    pub enum Kind {
        Pawn,
        Knight,
        Bishop,
        Rook,
        Queen,
        King,
    }

    pub type Cell = Option<(Colour, Kind)>;

    /// A square as (file, rank), both 0..8; a1 = (0, 0).
    pub type Sq = (i32, i32);

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Move {
        pub from: Sq,
        pub to: Sq,
        pub promotion: Option<Kind>,
    }

    fn square_name((f, r): Sq) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    impl Move {
        pub fn uci(&self) -> String {
            let mut text = square_name(self.from) + &square_name(self.to);
            if let Some(kind) = self.promotion {
                text.push(letter(kind).to_ascii_lowercase());
            }
            text
        }
    }

    fn letter(kind: Kind) -> char {
        match kind {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Bishop => 'B',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }

    const KNIGHT: [Sq; 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [Sq; 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    const ORTHOGONAL: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAGONAL: [Sq; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    fn on_board((f, r): Sq) -> bool {
        (0..8).contains(&f) && (0..8).contains(&r)
    }

    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct Board {
        /// `cells[rank][file]`.
        pub cells: [[Cell; 8]; 8],
        pub to_move: Colour,
        /// White king side, White queen side, Black king side, Black queen side.
        pub castling: [bool; 4],
        pub en_passant: Option<Sq>,
        pub halfmove: u32,
        pub fullmove: u32,
    }

    impl Board {
        pub fn at(&self, (f, r): Sq) -> Cell {
            self.cells[r as usize][f as usize]
        }

        fn set(&mut self, (f, r): Sq, cell: Cell) {
            self.cells[r as usize][f as usize] = cell;
        }

        /// Reads a standard six-field FEN.
        pub fn from_fen(fen: &str) -> Board {
            let fields: Vec<&str> = fen.split_whitespace().collect();
            assert_eq!(fields.len(), 6, "a chess FEN has six fields: {fen}");
            let mut cells = [[None; 8]; 8];
            let ranks: Vec<&str> = fields[0].split('/').collect();
            assert_eq!(ranks.len(), 8, "eight ranks: {fen}");
            for (row, text) in ranks.iter().enumerate() {
                let rank = 7 - row;
                let mut file = 0;
                for c in text.chars() {
                    if let Some(n) = c.to_digit(10) {
                        file += n as usize;
                        continue;
                    }
                    let colour = if c.is_ascii_uppercase() {
                        Colour::White
                    } else {
                        Colour::Black
                    };
                    let kind = match c.to_ascii_uppercase() {
                        'P' => Kind::Pawn,
                        'N' => Kind::Knight,
                        'B' => Kind::Bishop,
                        'R' => Kind::Rook,
                        'Q' => Kind::Queen,
                        'K' => Kind::King,
                        other => panic!("`{other}` in {fen}"),
                    };
                    cells[rank][file] = Some((colour, kind));
                    file += 1;
                }
                assert_eq!(file, 8, "rank {} of {fen}", rank + 1);
            }
            let to_move = match fields[1] {
                "w" => Colour::White,
                "b" => Colour::Black,
                other => panic!("side `{other}` in {fen}"),
            };
            let castling = [
                fields[2].contains('K'),
                fields[2].contains('Q'),
                fields[2].contains('k'),
                fields[2].contains('q'),
            ];
            let en_passant = match fields[3] {
                "-" => None,
                square => {
                    let b = square.as_bytes();
                    Some(((b[0] - b'a') as i32, (b[1] - b'1') as i32))
                }
            };
            Board {
                cells,
                to_move,
                castling,
                en_passant,
                halfmove: fields[4].parse().expect("halfmove clock"),
                fullmove: fields[5].parse().expect("move number"),
            }
        }

        /// Writes the standard FEN; the en-passant square follows every double step.
        pub fn fen(&self) -> String {
            let mut rows = Vec::new();
            for rank in (0..8).rev() {
                let mut row = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match self.cells[rank][file] {
                        None => empty += 1,
                        Some((colour, kind)) => {
                            if empty > 0 {
                                row.push_str(&empty.to_string());
                                empty = 0;
                            }
                            let l = letter(kind);
                            row.push(if colour == Colour::White {
                                l
                            } else {
                                l.to_ascii_lowercase()
                            });
                        }
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                rows.push(row);
            }
            let castling: String = "KQkq"
                .chars()
                .zip(self.castling)
                .filter(|(_, has)| *has)
                .map(|(c, _)| c)
                .collect();
            format!(
                "{} {} {} {} {} {}",
                rows.join("/"),
                if self.to_move == Colour::White {
                    "w"
                } else {
                    "b"
                },
                if castling.is_empty() { "-" } else { &castling },
                self.en_passant.map_or("-".to_string(), square_name),
                self.halfmove,
                self.fullmove
            )
        }

        /// Whether a piece of `by` attacks `target`, looking outwards from the target.
        pub fn attacked(&self, target: Sq, by: Colour) -> bool {
            let (f, r) = target;
            let holds = |sq: Sq, kinds: &[Kind]| {
                on_board(sq) && matches!(self.at(sq), Some((c, k)) if c == by && kinds.contains(&k))
            };
            if KNIGHT
                .iter()
                .any(|&(df, dr)| holds((f + df, r + dr), &[Kind::Knight]))
            {
                return true;
            }
            if KING
                .iter()
                .any(|&(df, dr)| holds((f + df, r + dr), &[Kind::King]))
            {
                return true;
            }
            // A pawn of `by` attacks diagonally forward, so it stands one rank behind.
            let behind = r - by.forward();
            if holds((f - 1, behind), &[Kind::Pawn]) || holds((f + 1, behind), &[Kind::Pawn]) {
                return true;
            }
            let ray_hits = |directions: &[Sq], kinds: &[Kind]| {
                directions.iter().any(|&(df, dr)| {
                    let mut sq = (f + df, r + dr);
                    while on_board(sq) {
                        if self.at(sq).is_some() {
                            return holds(sq, kinds);
                        }
                        sq = (sq.0 + df, sq.1 + dr);
                    }
                    false
                })
            };
            ray_hits(&ORTHOGONAL, &[Kind::Rook, Kind::Queen])
                || ray_hits(&DIAGONAL, &[Kind::Bishop, Kind::Queen])
        }

        fn king_of(&self, colour: Colour) -> Option<Sq> {
            (0..8)
                .flat_map(|r| (0..8).map(move |f| (f, r)))
                .find(|&sq| self.at(sq) == Some((colour, Kind::King)))
        }

        pub fn in_check(&self, colour: Colour) -> bool {
            self.king_of(colour)
                .is_some_and(|king| self.attacked(king, colour.other()))
        }

        fn pseudo_legal(&self) -> Vec<Move> {
            let us = self.to_move;
            let mut moves = Vec::new();
            let mut add = |from: Sq, to: Sq, promotion: Option<Kind>| {
                moves.push(Move {
                    from,
                    to,
                    promotion,
                })
            };
            for r in 0..8 {
                for f in 0..8 {
                    let from = (f, r);
                    let Some((colour, kind)) = self.at(from) else {
                        continue;
                    };
                    if colour != us {
                        continue;
                    }
                    let free_or_enemy =
                        |sq: Sq| on_board(sq) && self.at(sq).is_none_or(|(c, _)| c != us);
                    match kind {
                        Kind::Knight | Kind::King => {
                            let steps = if kind == Kind::Knight { KNIGHT } else { KING };
                            for (df, dr) in steps {
                                let to = (f + df, r + dr);
                                if free_or_enemy(to) {
                                    add(from, to, None);
                                }
                            }
                        }
                        Kind::Bishop | Kind::Rook | Kind::Queen => {
                            let mut directions = Vec::new();
                            if kind != Kind::Bishop {
                                directions.extend(ORTHOGONAL);
                            }
                            if kind != Kind::Rook {
                                directions.extend(DIAGONAL);
                            }
                            for (df, dr) in directions {
                                let mut to = (f + df, r + dr);
                                while on_board(to) {
                                    match self.at(to) {
                                        None => add(from, to, None),
                                        Some((c, _)) => {
                                            if c != us {
                                                add(from, to, None);
                                            }
                                            break;
                                        }
                                    }
                                    to = (to.0 + df, to.1 + dr);
                                }
                            }
                        }
                        Kind::Pawn => {
                            let dir = us.forward();
                            let start = if us == Colour::White { 1 } else { 6 };
                            let last = if us == Colour::White { 7 } else { 0 };
                            let mut pawn_to = |to: Sq| {
                                if to.1 == last {
                                    for p in [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight] {
                                        add(from, to, Some(p));
                                    }
                                } else {
                                    add(from, to, None);
                                }
                            };
                            let one = (f, r + dir);
                            if on_board(one) && self.at(one).is_none() {
                                pawn_to(one);
                                let two = (f, r + 2 * dir);
                                if r == start && self.at(two).is_none() {
                                    pawn_to(two);
                                }
                            }
                            for df in [-1, 1] {
                                let to = (f + df, r + dir);
                                if !on_board(to) {
                                    continue;
                                }
                                match self.at(to) {
                                    Some((c, _)) if c != us => pawn_to(to),
                                    None if self.en_passant == Some(to)
                                        && self.at((to.0, r)) == Some((us.other(), Kind::Pawn)) =>
                                    {
                                        pawn_to(to)
                                    }
                                    _ => {}
                                }
                            }
                        }
                    }
                }
            }
            // Castling: rights, king and rook at home, the squares between empty, and the
            // king's square, the one it crosses and the one it lands on not attacked.
            let (home, first) = if us == Colour::White { (0, 0) } else { (7, 2) };
            let them = us.other();
            let king = (4, home);
            if self.at(king) == Some((us, Kind::King)) {
                if self.castling[first]
                    && self.at((7, home)) == Some((us, Kind::Rook))
                    && [5, 6].iter().all(|&f| self.at((f, home)).is_none())
                    && [4, 5, 6].iter().all(|&f| !self.attacked((f, home), them))
                {
                    add(king, (6, home), None);
                }
                if self.castling[first + 1]
                    && self.at((0, home)) == Some((us, Kind::Rook))
                    && [1, 2, 3].iter().all(|&f| self.at((f, home)).is_none())
                    && [4, 3, 2].iter().all(|&f| !self.attacked((f, home), them))
                {
                    add(king, (2, home), None);
                }
            }
            moves
        }

        /// The board after `mv`, which must be pseudo-legal.
        pub fn make(&self, mv: Move) -> Board {
            let mut next = self.clone();
            let (colour, kind) = self.at(mv.from).expect("a piece to move");
            let mut captured = self.at(mv.to).is_some();
            if kind == Kind::Pawn && mv.from.0 != mv.to.0 && self.at(mv.to).is_none() {
                next.set((mv.to.0, mv.from.1), None);
                captured = true;
            }
            next.set(mv.from, None);
            next.set(mv.to, Some((colour, mv.promotion.unwrap_or(kind))));
            if kind == Kind::King && (mv.to.0 - mv.from.0).abs() == 2 {
                let (rook_from, rook_to) = if mv.to.0 == 6 { (7, 5) } else { (0, 3) };
                next.set((rook_from, mv.from.1), None);
                next.set((rook_to, mv.from.1), Some((colour, Kind::Rook)));
            }
            if kind == Kind::King {
                let first = if colour == Colour::White { 0 } else { 2 };
                next.castling[first] = false;
                next.castling[first + 1] = false;
            }
            for (index, corner) in [(7, 0), (0, 0), (7, 7), (0, 7)].into_iter().enumerate() {
                if mv.from == corner || mv.to == corner {
                    next.castling[index] = false;
                }
            }
            next.en_passant = (kind == Kind::Pawn && (mv.to.1 - mv.from.1).abs() == 2)
                .then_some((mv.from.0, (mv.from.1 + mv.to.1) / 2));
            next.halfmove = if kind == Kind::Pawn || captured {
                0
            } else {
                self.halfmove + 1
            };
            if colour == Colour::Black {
                next.fullmove += 1;
            }
            next.to_move = colour.other();
            next
        }

        /// Castling, en passant or a promotion.
        pub fn is_special(&self, mv: Move) -> bool {
            let kind = self.at(mv.from).map(|(_, k)| k);
            mv.promotion.is_some()
                || (kind == Some(Kind::King) && (mv.to.0 - mv.from.0).abs() == 2)
                || (kind == Some(Kind::Pawn) && mv.from.0 != mv.to.0 && self.at(mv.to).is_none())
        }

        /// The legal moves: the pseudo-legal ones that leave the mover's king not attacked.
        pub fn legal(&self) -> Vec<Move> {
            self.pseudo_legal()
                .into_iter()
                .filter(|&mv| !self.make(mv).in_check(self.to_move))
                .collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.legal()
                .into_iter()
                .map(|mv| self.make(mv).perft(depth - 1))
                .sum()
        }

        /// Perft under the engine's convention: the tree stops where the game does, so a
        /// position below the root that repeats one of `path` (the positions before it) for
        /// the third time, or has the halfmove clock at 100, has no moves (a leaf at depth 0
        /// still counts 1).
        pub fn perft_with_ends(&self, depth: u32, path: &mut Vec<String>) -> u64 {
            if depth == 0 {
                return 1;
            }
            let key = self.key(true);
            if path.iter().filter(|k| **k == key).count() + 1 >= 3
                || self.halfmove >= 100
                || self.dead_material()
            {
                return 0;
            }
            let moves = self.legal();
            if depth == 1 {
                return moves.len() as u64;
            }
            path.push(key);
            let total = moves
                .into_iter()
                .map(|mv| self.make(mv).perft_with_ends(depth - 1, path))
                .sum();
            path.pop();
            total
        }

        /// The position for repetition: pieces, side, castling rights and, when `with_ep`, the
        /// en-passant square.
        /// A dead position by material (FIDE 5.2.2, as python-chess's
        /// `is_insufficient_material`): bare kings; kings and one knight; kings and any number of
        /// bishops, all on squares of one colour.
        pub fn dead_material(&self) -> bool {
            let mut knights = 0;
            let mut bishop_colours = Vec::new();
            for rank in 0..8 {
                for file in 0..8 {
                    match self.cells[rank][file] {
                        None | Some((_, Kind::King)) => {}
                        Some((_, Kind::Knight)) => knights += 1,
                        Some((_, Kind::Bishop)) => bishop_colours.push((rank + file) % 2),
                        Some(_) => return false,
                    }
                }
            }
            match (knights, bishop_colours.as_slice()) {
                (0, []) | (1, []) => true,
                (0, [first, rest @ ..]) => rest.iter().all(|c| c == first),
                _ => false,
            }
        }

        pub fn key(&self, with_ep: bool) -> String {
            let fen = self.fen();
            let fields: Vec<&str> = fen.split(' ').collect();
            let ep = if with_ep { fields[3] } else { "-" };
            format!("{} {} {} {ep}", fields[0], fields[1], fields[2])
        }
    }
}

/// A known position, checked by hand: the naive generator itself must be right.
#[test]
fn the_naive_generator_matches_published_perft() {
    // chessprogramming.org: start position, Kiwipete, position 3 (en passant, pins) and
    // position 4 (castling, promotions).
    for (fen, depth, nodes) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            3,
            8902,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
            2039,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            9467,
        ),
    ] {
        assert_eq!(naive::Board::from_fen(fen).perft(depth), nodes, "{fen}");
    }
}

fn sorted(mut moves: Vec<String>) -> Vec<String> {
    moves.sort();
    moves
}

/// Plays the game chosen by `choices` (each picks among the legal moves) and checks every
/// position against the naive board.
fn check_random_game(
    chess: &Definition,
    start: Option<&str>,
    choices: &[usize],
) -> Result<(), TestCaseError> {
    let mut session = variant_interpreter::open(chess, start).expect("chess opens");
    let mut board = naive::Board::from_fen(&session.fen());
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut seen_loose: HashMap<String, u32> = HashMap::new();
    // The positions before the current one, as repetition keys.
    let mut history: Vec<String> = Vec::new();
    let mut previous_key = String::new();
    for (ply, &choice) in choices.iter().enumerate() {
        let fen = session.fen();
        prop_assert_eq!(&fen, &board.fen(), "after {:?}", session.history());
        prop_assert!(session.hash_is_consistent(), "hash drifted at {}", fen);
        let reopened = variant_interpreter::open(chess, Some(&fen)).expect("own FEN parses");
        prop_assert_eq!(reopened.fen(), fen.clone());
        *seen.entry(board.key(true)).or_default() += 1;
        if ply > 0 {
            history.push(previous_key.clone());
        }
        previous_key = board.key(true);
        *seen_loose.entry(board.key(false)).or_default() += 1;

        let expected = board.legal();
        let expected_uci = sorted(expected.iter().map(|m| m.uci()).collect());
        let in_check = board.in_check(board.to_move);
        prop_assert_eq!(session.in_check(), in_check, "check at {}", fen);
        let repeated = seen[&board.key(true)] >= 3;
        let fifty = board.halfmove >= 100;
        match session.outcome() {
            None => {
                prop_assert!(
                    !expected.is_empty(),
                    "no legal move but no result at {}",
                    fen
                );
                prop_assert!(
                    !repeated && !fifty && !board.dead_material(),
                    "the game should be over at {} (history {:?})",
                    fen,
                    session.history()
                );
                let ours = session.legal_moves();
                prop_assert_eq!(sorted(ours.clone()), expected_uci.clone(), "at {}", fen);
                let mut unique = sorted(ours.clone());
                unique.dedup();
                prop_assert_eq!(unique.len(), ours.len(), "duplicates at {}", fen);
                prop_assert_eq!(
                    session.perft(1),
                    expected.len() as u64,
                    "perft 1 at {}",
                    fen
                );
                // Every 8 plies, and wherever it is cheap (endgames, where repetitions and
                // the move limit cut the tree).
                if ply % 8 == 0 || expected.len() <= 24 {
                    let expected = board.perft_with_ends(2, &mut history.clone());
                    prop_assert_eq!(session.perft(2), expected, "perft 2 at {}", fen);
                }
            }
            Some(outcome) => {
                prop_assert_eq!(session.legal_moves(), Vec::<String>::new(), "at {}", fen);
                prop_assert_eq!(session.perft(1), 0, "at {}", fen);
                let mover = if board.to_move == naive::Colour::White {
                    "white"
                } else {
                    "black"
                };
                let other = if mover == "white" { "black" } else { "white" };
                match outcome.reason {
                    Reason::Checkmate => {
                        prop_assert!(expected.is_empty() && in_check, "not mate: {}", fen);
                        prop_assert_eq!(outcome.winners, vec![other.to_string()]);
                    }
                    Reason::Stalemate => {
                        prop_assert!(expected.is_empty() && !in_check, "not stalemate: {}", fen);
                        prop_assert!(outcome.winners.is_empty());
                    }
                    Reason::PerpetualCheck => {
                        prop_assert!(false, "chess has no perpetual-check rule: {}", fen);
                    }
                    Reason::PerpetualChase => {
                        prop_assert!(false, "chess has no perpetual-chase rule: {}", fen);
                    }
                    Reason::Repetition => {
                        prop_assert!(!expected.is_empty(), "{}", fen);
                        prop_assert!(
                            seen_loose[&board.key(false)] >= 3,
                            "no threefold repetition at {} (history {:?})",
                            fen,
                            session.history()
                        );
                        prop_assert!(outcome.winners.is_empty());
                    }
                    Reason::MoveLimit => {
                        prop_assert!(!expected.is_empty() && fifty, "{}", fen);
                        prop_assert!(outcome.winners.is_empty());
                    }
                    Reason::Material => {
                        prop_assert!(!expected.is_empty() && board.dead_material(), "{}", fen);
                        prop_assert!(outcome.winners.is_empty());
                    }
                    Reason::Score | Reason::Condition => {
                        prop_assert!(false, "chess has no end condition: {}", fen)
                    }
                    Reason::RoyalCaptured => {
                        prop_assert!(false, "a chess king is never captured: {}", fen)
                    }
                }
                return Ok(());
            }
        }
        // One move in three is a special one (castling, en passant, promotion) when there is
        // one, so that random games reach them often.
        let special: Vec<naive::Move> = expected
            .iter()
            .copied()
            .filter(|&m| board.is_special(m))
            .collect();
        let chosen = if choice % 3 == 0 && !special.is_empty() {
            special[(choice / 3) % special.len()]
        } else {
            let mv = &expected_uci[choice % expected_uci.len()];
            *expected
                .iter()
                .find(|m| &m.uci() == mv)
                .expect("chosen from the list")
        };
        session
            .play(&chosen.uci())
            .expect("a legal move can be played");
        board = board.make(chosen);
    }
    Ok(())
}

/// The FENs of `tests/perft/chess.perft`.
fn perft_fens() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft/chess.perft");
    let fens: Vec<String> = std::fs::read_to_string(path)
        .expect("the chess perft suite")
        .lines()
        .filter_map(|line| line.strip_prefix("fen "))
        .map(str::to_string)
        .collect();
    assert!(fens.len() >= 6, "the perft suite has its positions");
    fens
}

/// Few pieces, some clocks near the move limit: random games end by checkmate, stalemate,
/// repetition or the move limit.
fn endgame_fens() -> Vec<String> {
    [
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "4k3/8/8/8/8/8/8/4K2Q w - - 60 40",
        "7k/8/8/8/8/8/8/N6K w - - 80 100",
        "8/8/3k4/8/8/2K5/8/1R6 b - - 0 1",
        "k7/8/1QK5/8/8/8/8/8 w - - 0 1",
        "4k3/4p3/8/3P4/8/8/8/4K3 b - - 97 70",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ]
    .map(str::to_string)
    .to_vec()
}

/// Seeded unless `PROPTEST_RNG_SEED` is set; `PROPTEST_CASES` overrides the number of games.
fn config(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(cases),
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            default.rng_seed
        } else {
            RngSeed::Fixed(0x5eed_c4e55)
        },
        ..default
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn chess_agrees_with_a_naive_move_generator_along_random_games(choices in prop::collection::vec(any::<usize>(), 0..200)) {
        let chess = definition("chess");
        check_random_game(&chess, None, &choices)?;
    }

    /// From the perft suite's positions (castling through attacked squares, en passant, pins,
    /// promotions), shorter games.
    #[test]
    fn chess_agrees_with_a_naive_move_generator_from_the_perft_positions(start in prop::sample::select(perft_fens()), choices in prop::collection::vec(any::<usize>(), 0..60)) {
        let chess = definition("chess");
        check_random_game(&chess, Some(&start), &choices)?;
    }

    #[test]
    fn chess_agrees_with_a_naive_move_generator_to_the_end_of_endgames(start in prop::sample::select(endgame_fens()), choices in prop::collection::vec(any::<usize>(), 0..240)) {
        let chess = definition("chess");
        check_random_game(&chess, Some(&start), &choices)?;
    }
}

/// A game drawn by repetition or by the move limit has no legal moves left.
#[test]
fn no_legal_moves_once_the_game_is_over() {
    let chess = definition("chess");
    let mut session = variant_interpreter::open(&chess, None).expect("opens");
    for mv in "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split(' ') {
        session.play(mv).expect("legal");
    }
    let outcome = session.outcome().expect("threefold repetition");
    assert_eq!(outcome.reason, Reason::Repetition);
    assert_eq!(session.legal_moves(), Vec::<String>::new());
    assert_eq!(session.perft(1), 0);

    let limit = variant_interpreter::open(&chess, Some("4k3/8/8/8/8/8/8/R3K3 w - - 100 80"))
        .expect("opens");
    assert_eq!(limit.outcome().map(|o| o.reason), Some(Reason::MoveLimit));
    assert_eq!(limit.legal_moves(), Vec::<String>::new());
}
