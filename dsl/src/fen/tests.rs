use super::*;
use crate::definition::{BoardDef, Definition, PieceId, SideId, Square};

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
            "white is to move, but the turn order (`turns black`) never gives white a turn".into(),
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

#[test]
fn an_en_passant_field_of_several_squares_is_read_as_fairy_stockfish_writes_it() {
    let def = chess();
    // Fairy-Stockfish's Berolina FEN after e2-c4: the square passed and the one landed on, in
    // square order; the target is the empty one.
    let setup = parse_fen(
        &def,
        "rnbqkbnr/pppppppp/8/8/2P5/8/PPPP1PPP/RNBQKBNR b KQkq d3c4 0 1",
    )
    .expect("Fairy-Stockfish's form");
    assert_eq!(setup.en_passant, Square::parse("d3"));
    assert_eq!(
        write_fen(&def, &setup),
        "rnbqkbnr/pppppppp/8/8/2P5/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1"
    );
    // Every listed square must be on the board, and one of them empty.
    for field in ["d3c9", "c4d2", "d3c", "d3-"] {
        let fen = format!("rnbqkbnr/pppppppp/8/8/2P5/8/PPPP1PPP/RNBQKBNR b KQkq {field} 0 1");
        assert!(parse_fen(&def, &fen).is_err(), "{field}");
    }
}

/// A castling that names its pieces (`king King e1-g1 rook Rook h1-f1`) needs those types on its
/// squares, royal or not; one that names none needs a royal king, and says how to name it when
/// the side's piece there is not royal.
#[test]
fn castling_rights_need_the_pieces_the_castling_names() {
    let mut def = chess();
    let piece = |def: &Definition, name: &str| {
        PieceId(
            def.pieces
                .iter()
                .position(|p| p.name == name)
                .expect("a piece") as u8,
        )
    };
    let (king, rook) = (piece(&def, "King"), piece(&def, "Rook"));
    def.pieces[king.0 as usize].royal = false;
    assert_eq!(
        fen_error(&def, "4k3/8/8/8/8/8/8/4K2R w K -").0,
        "castling right `K` needs a white royal piece on e1, but e1 holds a white King \
         (a castling whose king is not royal names it: `king King e1-g1`)"
    );
    def.castling[0].king_piece = Some(king);
    def.castling[0].rook_piece = Some(rook);
    let setup = parse_fen(&def, "4k3/8/8/8/8/8/8/4K2R w K - 0 1").expect("named pieces");
    assert_eq!(setup.castling, vec![0]);
    assert_eq!(
        fen_error(&def, "4k3/8/8/8/8/8/8/4K2Q w K -").0,
        "castling right `K` needs a white Rook on h1 to castle with, but h1 holds a white Queen"
    );
    assert_eq!(
        fen_error(&def, "4k3/8/8/8/8/8/8/4R2R w K -").0,
        "castling right `K` needs a white King on e1, but e1 holds a white Rook"
    );
}
