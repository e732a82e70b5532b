use super::*;
use crate::diagnostic::code;
use crate::parse;

const CHESS: &str = include_str!("../../../games/chess.variant");

fn check(text: &str) -> Result<(Definition, Diagnostics), Diagnostics> {
    let mut sources = SourceMap::new();
    let file = sources.add("x.variant", text);
    let game = parse::parse(file, text).expect("parses");
    validate(&game, &sources)
}

fn messages(text: &str) -> Vec<String> {
    let diagnostics = check(text).expect_err("should fail");
    diagnostics.iter().map(|d| d.message.clone()).collect()
}

fn squares(names: &[&str]) -> Vec<Square> {
    names
        .iter()
        .map(|name| Square::parse(name).unwrap())
        .collect()
}

#[test]
fn chess_validates() {
    let (definition, warnings) = check(CHESS).expect("chess is valid");
    assert!(warnings.is_empty());
    assert_eq!(definition.turn_order, [SideId(0), SideId(1)]);
    assert_eq!(definition.castling.len(), 4);
    assert_eq!(definition.setup.castling, [0, 1, 2, 3]);
    let pawn = &definition.pieces[5];
    assert_eq!(
        pawn.initial_zone[0],
        squares(&["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"])
    );
    assert_eq!(
        pawn.initial_zone[1],
        squares(&["a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7"])
    );
    let promotion = pawn.promotion.as_ref().expect("pawns promote");
    assert_eq!(promotion.zone[0][0], Square::parse("a8").unwrap());
    assert_eq!(promotion.zone[1][0], Square::parse("a1").unwrap());
    assert_eq!(
        promotion.choices,
        [PieceId(1), PieceId(2), PieceId(3), PieceId(4)]
    );
    assert_eq!(definition.pieces[4].initial_zone[0], squares(&["b1", "g1"]));
    assert_eq!(
        definition.end.repetition,
        Some(Repetition {
            count: 3,
            verdict: Verdict::Draw,
            perpetual_check: None,
            perpetual_chase: None,
            for_side: None,
            by_score: false,
        })
    );
}

#[test]
fn ron_round_trips() {
    let (definition, _) = check(CHESS).unwrap();
    assert_eq!(
        Definition::from_ron(&definition.to_ron()).unwrap(),
        definition
    );
}

const SMALL: &str = "game \"g\"\nboard 5x6 { holes a1 e6 }\nside north { forward down; fen-letter n }\nside south { forward up; fen-letter s }\npiece King { royal; moves \"K\" }\npiece Pawn { moves \"mfW\"; initial ranks 1-2; promotes on squares c3 to King }\nsetup \"1k2*/5/5/5/5/*K2P[p] s - - 4 9\"\nend { check }\n";

#[test]
fn zones_count_from_each_side() {
    let (definition, warnings) = check(SMALL).expect("valid");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(definition.board.holes, squares(&["a1", "e6"]));
    assert_eq!(definition.sides[0].fen_letter, 'n');
    let pawn = &definition.pieces[1];
    assert_eq!(pawn.letter, 'P');
    assert_eq!(
        pawn.initial_zone[0],
        squares(&["a5", "b5", "c5", "d5", "e5", "a6", "b6", "c6", "d6"])
    );
    assert_eq!(
        pawn.initial_zone[1],
        squares(&["b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"])
    );
    assert_eq!(
        pawn.promotion.as_ref().unwrap().zone,
        [squares(&["c3"]), squares(&["c3"])]
    );
    assert_eq!(definition.setup.side_to_move, SideId(1));
    assert_eq!(definition.setup.hands, [(SideId(1), PieceId(1), 1)]);
    assert_eq!(definition.setup.fullmove_number, 9);
}

#[test]
fn defaults() {
    let text = "game \"g\"\nboard 3x3\nside white {}\nside black {}\npiece King { moves \"K\" }\nsetup \"k2/3/2K w - -\"";
    let (definition, _) = check(text).expect("valid");
    assert_eq!(definition.sides[0].forward, Forward::Up);
    assert_eq!(definition.sides[1].forward, Forward::Down);
    assert_eq!(definition.sides[1].fen_letter, 'b');
    assert_eq!(definition.turn_order, [SideId(0), SideId(1)]);
    assert_eq!(definition.pieces[0].letter, 'K');
    assert_eq!(definition.pieces[0].value, 0);
    assert_eq!(definition.end, EndRules::default());
}

#[test]
fn every_problem_is_reported_in_source_order() {
    let text = CHESS
        .replace("moves \"N\"", "moves \"Y\"")
        .replace("to Queen Rook", "to Quen Rook")
        .replace("turns white black", "turns white blak")
        .replace("rook h8-f8", "rook h9-f8");
    assert_eq!(
        messages(&text),
        [
            "unknown side `blak` in `turns`",
            "`Y` is not a Betza atom",
            "unknown piece `Quen` in `promotes`",
            "`h9` is off the 8x8 board",
        ]
    );
}

#[test]
fn future_statements_are_rejected_everywhere() {
    let text = CHESS
        .replace("board 8x8", "board 8x8 { constraint centre d4 e4 d5 e5 }")
        .replace(
            "side white { forward up }",
            "side white { forward up; controller human }",
        )
        .replace("    royal\n", "    royal\n    prison keeps\n")
        .replace("    check  ", "    draw agreed\n    check  ")
        + "effect red { }\n";
    assert_eq!(
        messages(&text),
        [
            "`constraint` is not supported yet",
            "`controller` is not supported yet",
            "`prison` is not supported yet",
            "`draw` is not supported yet",
            "`effect` is not supported yet",
        ]
    );
}

#[test]
fn duplicates_inside_blocks() {
    let text = CHESS
        .replace("    value 9\n", "    value 9\n    value 8\n")
        .replace(
            "    checkmate loses\n",
            "    checkmate loses\n    checkmate wins\n",
        );
    assert_eq!(
        messages(&text),
        ["`value` is given twice", "`checkmate` is given twice"]
    );
}

#[test]
fn ranks_backwards_and_repetition_once() {
    let text = CHESS
        .replace("initial rank 2", "initial ranks 3-2")
        .replace("repetition 3", "repetition 1");
    assert_eq!(
        messages(&text),
        [
            "the ranks `3-2` are backwards",
            "`1` is too small: a position repeats at least twice"
        ]
    );
}

/// Chess with `count` castling rights, all the king-side move of White or Black.
fn chess_with_rights(count: usize) -> String {
    let letters = ('A'..='Z').chain('a'..='z');
    let lines: Vec<String> = letters
        .take(count)
        .map(|letter| match letter.is_ascii_uppercase() {
            true => format!("    white {letter} king e1-g1 rook h1-f1"),
            false => format!("    black {letter} king e8-g8 rook h8-f8"),
        })
        .collect();
    let start = CHESS.find("castling {").unwrap();
    let end = start + CHESS[start..].find('}').unwrap() + 1;
    format!(
        "{}castling {{\n{}\n}}{}",
        &CHESS[..start],
        lines.join("\n"),
        &CHESS[end..]
    )
    .replace(" KQkq ", " - ")
}

#[test]
fn thirty_two_castling_rights_and_no_more() {
    let (definition, _) = check(&chess_with_rights(32)).expect("32 rights fit");
    assert_eq!(definition.castling.len(), 32);
    assert_eq!(
        messages(&chess_with_rights(33)),
        ["a game has at most 32 castling rights, this is number 33"]
    );
}

#[test]
fn castling_names_its_pieces() {
    // `king King e1-g1 rook Rook h1-f1`: the types are kept; `king e1-g1` names none.
    let text = CHESS.replace(
        "white K king e1-g1 rook h1-f1",
        "white K king King e1-g1 rook Rook h1-f1",
    );
    let (definition, _) = check(&text).expect("named pieces");
    let named = &definition.castling[0];
    let name = |piece: Option<PieceId>| piece.map(|p| definition.pieces[p.0 as usize].name.clone());
    assert_eq!(name(named.king_piece).as_deref(), Some("King"));
    assert_eq!(name(named.rook_piece).as_deref(), Some("Rook"));
    assert_eq!(named.king_from, Square::parse("e1").unwrap());
    assert_eq!(named.rook_to, Square::parse("f1").unwrap());
    let unnamed = &definition.castling[1];
    assert_eq!((unnamed.king_piece, unnamed.rook_piece), (None, None));
    assert!(!named.when_placed);
    // `when placed` at the end: the right is gained by drops.
    let placed = text.replace("rook Rook h1-f1", "rook Rook h1-f1 when placed");
    let (definition, _) = check(&placed).expect("when placed");
    assert!(definition.castling[0].when_placed);
    assert!(!definition.castling[1].when_placed);
    // An unknown name is reported where it is written, with a suggestion.
    let misspelt = text.replace("rook Rook h1-f1", "rook Rok h1-f1");
    let diagnostics = check(&misspelt).expect_err("unknown piece");
    let error = diagnostics.iter().next().unwrap();
    assert_eq!(error.code, code::UNKNOWN_PIECE);
    assert_eq!(
        &misspelt[error.primary.span.start..error.primary.span.end],
        "Rok"
    );
    assert_eq!(error.help.as_deref(), Some("did you mean `Rook`?"));
}

#[test]
fn the_setup_side_must_be_in_the_turn_order() {
    let text = CHESS.replace("turns white black", "turns black");
    let diagnostics = check(&text).expect_err("white never moves");
    let error = diagnostics.iter().next().unwrap();
    assert_eq!(error.code, code::TURN_ORDER);
    let fen_span = error.secondary[0].span;
    assert_eq!(&text[fen_span.start..fen_span.end], "w");
    let turns_span = error.primary.span;
    assert_eq!(&text[turns_span.start..turns_span.end], "turns black");
    let black_to_move = text.replace(" w KQkq ", " b KQkq ");
    assert!(check(&black_to_move).is_ok());
}

#[test]
fn a_piece_left_out_for_its_letter_is_not_unknown_elsewhere() {
    let text = CHESS
        .replace(
            "piece Pawn {",
            "piece Rhino { letter R; moves \"N\" }\npiece Pawn {",
        )
        .replace("to Queen Rook", "to Queen Rhino Rook")
        + "drops { must place Rhino when hand Rhino > 0 }\n";
    assert_eq!(
        messages(&text),
        ["the pieces `Rook` and `Rhino` have the same letter `R`"]
    );
    let misspelt = text.replace("must place Rhino", "must place Rhno");
    assert_eq!(
        messages(&misspelt).len(),
        2,
        "a real unknown piece is still reported"
    );
}

#[test]
fn a_definition_written_before_material_rules_reads_back() {
    let (definition, _) = check(CHESS).unwrap();
    let ron = definition.to_ron();
    let start = ron.find("        material: [").expect("a material field");
    let end = start + ron[start..].find("\n        ],\n").unwrap() + "\n        ],\n".len();
    let older = format!("{}{}", &ron[..start], &ron[end..]);
    let read = Definition::from_ron(&older).expect("the field defaults");
    assert!(read.end.material.is_empty());
    assert_eq!(read.end.check, definition.end.check);
}

#[test]
fn chess_material_rules_are_the_dead_positions() {
    let (definition, _) = check(CHESS).unwrap();
    let [king, bishop, knight] = [PieceId(0), PieceId(3), PieceId(4)];
    let exactly = |piece, n| PieceCount {
        piece,
        min: n,
        max: Some(n),
    };
    assert_eq!(
        definition.end.material,
        [
            MaterialRule {
                counts: vec![exactly(king, 2), exactly(knight, 1)],
                one_colour: false,
                verdict: Verdict::Draw,
            },
            MaterialRule {
                counts: vec![
                    exactly(king, 2),
                    PieceCount {
                        piece: bishop,
                        min: 0,
                        max: None
                    }
                ],
                one_colour: true,
                verdict: Verdict::Draw,
            },
        ]
    );
}

#[test]
fn material_terms_add_up_per_piece() {
    let text = CHESS.replace(
        "material King King Knight draws",
        "material Pawn+ King Pawn* King Pawn loses",
    );
    let (definition, _) = check(&text).expect("valid");
    assert_eq!(
        definition.end.material[0].counts,
        [
            PieceCount {
                piece: PieceId(0),
                min: 2,
                max: Some(2)
            },
            PieceCount {
                piece: PieceId(5),
                min: 2,
                max: None
            },
        ]
    );
    assert_eq!(definition.end.material[0].verdict, Verdict::Loss);
}

#[test]
fn material_rules_are_checked() {
    let misspelt = CHESS.replace("King King Knight", "King King Knigt");
    let diagnostics = check(&misspelt).expect_err("unknown piece");
    let error = diagnostics.iter().next().unwrap();
    assert_eq!(error.message, "unknown piece `Knigt` in `material`");
    assert_eq!(error.help.as_deref(), Some("did you mean `Knight`?"));
    let twice = CHESS.replace(
        "material King King Knight draws",
        "material King Knight King draws\n    material King King Knight wins",
    );
    assert_eq!(
        messages(&twice),
        ["two `material` rules list the same pieces"]
    );
}

#[test]
fn drop_constraints_carry_their_origin() {
    let text = CHESS.replace(
        "setup ",
        "drops {\n    black   must touch /* CH1 */ any piece \\\n        when some occupied  // CH2\n}\nsetup ",
    );
    let (definition, _) = check(&text).expect("valid");
    let origin = &definition.drops.constraints[0].origin;
    let line = text[..text.find("black   must").unwrap()]
        .matches('\n')
        .count()
        + 1;
    assert_eq!(
        origin,
        &Origin {
            file: "x.variant".to_string(),
            line: line as u32,
            text: "black must touch any piece when some occupied".to_string(),
        }
    );
    assert_eq!(
        origin.to_string(),
        format!("x.variant:{line}: black must touch any piece when some occupied")
    );
    // A definition dumped before constraints had origins still reads.
    let ron = definition.to_ron();
    let start = ron.find("origin: (").expect("an origin");
    let end = start + ron[start..].find("),").unwrap() + 2;
    let older = format!("{}{}", &ron[..start], &ron[end..]);
    let read = Definition::from_ron(&older).expect("the origin defaults");
    assert_eq!(read.drops.constraints[0].origin, Origin::default());
}

#[test]
fn checkmate_without_check_is_a_warning() {
    let text = CHESS.replace("    check                   //", "    //");
    let (definition, warnings) = check(&text).expect("warnings do not block");
    assert!(!definition.end.check);
    let codes: Vec<&str> = warnings.iter().map(|w| w.code).collect();
    assert_eq!(
        codes,
        [code::CAPTURABLE_ROYAL, code::CHECKMATE_WITHOUT_CHECK],
        "{warnings:?}"
    );
    let checkmate = warnings.iter().nth(1).unwrap().primary.span;
    assert_eq!(&text[checkmate.start..checkmate.end], "checkmate loses");
}

#[test]
fn a_capturable_royal_needs_an_end_rule_that_notices() {
    let without_check = CHESS.replace("    check                   //", "    //");
    let royal_warnings = |text: &str| {
        let (_, warnings) = check(text).expect("valid");
        warnings
            .iter()
            .filter(|w| w.code == code::CAPTURABLE_ROYAL)
            .count()
    };
    assert_eq!(royal_warnings(&without_check), 1);
    for noticing in [
        "royal captured loses",
        "loses when no own King",
        "loses when count (own pieces) < 2",
    ] {
        let text = without_check.replace("end {", &format!("end {{\n    {noticing}"));
        assert_eq!(royal_warnings(&text), 0, "{noticing}");
    }
    let uncapturable = without_check.replace("    royal\n", "    royal\n    uncapturable\n");
    assert_eq!(royal_warnings(&uncapturable), 0);
    let unrelated = without_check.replace("end {", "end {\n    loses when no own Queen");
    assert_eq!(royal_warnings(&unrelated), 1);
}

#[test]
fn unused_piece_is_a_warning_only() {
    let text = CHESS.replace(
        "piece Pawn {",
        "piece Camel { letter C; moves \"C\" }\npiece Pawn {",
    );
    let (_, warnings) = check(&text).expect("warnings do not block");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings.iter().next().unwrap().code, code::UNUSED_PIECE);
}
