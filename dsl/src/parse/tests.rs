use super::*;
use crate::ast::*;
use crate::definition::Verdict;
use crate::expression::Comparison;
use crate::span::SourceMap;

fn error_of(text: &str) -> String {
    let mut sources = SourceMap::new();
    let file = sources.add("x.variant", text);
    parse(file, text)
        .expect_err("should not parse")
        .render(&sources)
}

fn message_of(text: &str) -> String {
    let mut sources = SourceMap::new();
    let file = sources.add("x.variant", text);
    let diagnostics = parse(file, text).expect_err("should not parse");
    diagnostics
        .iter()
        .next()
        .map(|d| d.message.clone())
        .unwrap_or_default()
}

#[test]
fn syntax_errors_speak_plainly() {
    let cases = [
        ("peice Knight { letter N }", "expected a statement such as `piece` or `board`, found `peice`"),
        (
            "piece Knight { leter N }",
            "expected `}` or a piece property such as `letter`, `moves`, `path` or `promotes`, found `leter`",
        ),
        ("board 8by8", "expected a board size such as `8x8`, found `8by8`"),
        ("board 8x8 extra", "expected the end of the line or `{`, found `extra`"),
        ("side white { forward up", "expected `}`, found the end of the file"),
        ("piece Knight { value three }", "expected a number such as `3` or `-1`, found `three`"),
        ("board 8x8 {\n  holes z\n}", "expected a square such as `e4`, found `z`"),
        ("castling { white K king e1 rook h1-f1 }", "expected two squares such as `e1-g1`, found `e1`"),
        ("end { checkmate lose }", "expected `loses`, `wins` or `draws`, found `lose`"),
        ("piece X { promotes on last to Queen }", "expected `rank`, found `to`"),
        (
            "piece X { promotes on rnk 8 to Queen }",
            "expected a zone such as `rank 2`, `ranks 1-3`, `last rank`, `squares e4 d5`, `files d-f` or `zone palace` or `or`, found `rnk`",
        ),
        ("turns", "expected a name, found the end of the file"),
        ("setup rnbqk", "expected a string in double quotes, found `rnbqk`"),
        ("game \"x\" @", "expected the end of the line, found `@`"),
        (
            "drops { must touch }",
            "expected an expression such as `place King`, `touch occupied`, `count own pieces` or `placement = 1`, found `}`",
        ),
        ("drops { black must touch last drop opponent }", "expected `of`, found `opponent`"),
        (
            "drops { must place King when placement = }",
            "expected an expression such as `place King`, `touch occupied`, `count own pieces` or `placement = 1`, found `}`",
        ),
        (
            "drops { must place on not controlled by }",
            "expected a side such as `own`, `opponent`, `any`, `next` or a side's name, found `}`",
        ),
        (
            "score count (empty",
            "expected a comparison such as `=`, `<` or `>=`, `except`, `or` or `and`, found the end of the file",
        ),
        ("actions jumps", "expected an action such as `moves` or `drops`, found `jumps`"),
        ("end { tiebreak most in hand }", "expected a tiebreak such as `fewest in hand`, found `most`"),
        ("end { material draws }", "expected a piece name such as `Knight` or `Bishop*`, found `draws`"),
        (
            "end { material King King }",
            "expected a piece name such as `Knight` or `Bishop*`, `on one colour` or a verdict such as `draws`, found `}`",
        ),
        (
            "end { material King Bishop *on one colour draws }",
            "expected a piece name such as `Knight` or `Bishop*`, `on one colour` or a verdict such as `draws`, found `*`",
        ),
        ("end { material King on one color draws }", "expected `colour`, found `color`"),
    ];
    for (text, message) in cases {
        assert_eq!(message_of(text), message, "{text}");
    }
}

#[test]
fn syntax_errors_suggest_keywords() {
    let rendered = error_of("piece Knight { leter N }");
    assert!(
        rendered.contains("help: did you mean `letter`?"),
        "{rendered}"
    );
    assert!(rendered.contains("x.variant:1:16"), "{rendered}");
}

#[test]
fn drop_syntax_errors_suggest_keywords() {
    // A misspelt word of an expression reads as a side's name; validation then reports
    // the unknown side (see `typing`).
    let rendered = error_of("score cuont");
    assert!(
        rendered.contains("expected a name, `passed`, `piece`"),
        "{rendered}"
    );
}

#[test]
fn drop_constraints_parse() {
    let text = "drops {\n  black must place Queen when placement = 7 and hand Queen > 0\n  must leave an action\n}";
    let game = parse(FileId(0), text).expect("parses");
    let Statement::Drops(drops) = &game.statements[0].node else {
        panic!("a drops block")
    };
    assert_eq!(drops.items.len(), 2);
    let DropsItem::Must(must) = &drops.items[0].node else {
        panic!("a must statement")
    };
    let side = must.side.as_ref().expect("a side");
    assert_eq!(&text[side.span.start..side.span.end], "black");
    let Expression::Place(queen) = &must.requirement.node else {
        panic!("place Queen")
    };
    assert_eq!(&text[queen.span.start..queen.span.end], "Queen");
    let condition = must.condition.as_ref().expect("a condition");
    assert_eq!(
        &text[condition.span.start..condition.span.end],
        "placement = 7 and hand Queen > 0"
    );
    let Expression::And(left, right) = &condition.node else {
        panic!("a conjunction")
    };
    let Expression::Compare(_, operator, seven) = &left.node else {
        panic!("a comparison")
    };
    assert_eq!(operator.node, Comparison::Equal);
    assert_eq!(seven.node, Expression::Number("7".to_string()));
    assert_eq!(&text[right.span.start..right.span.end], "hand Queen > 0");
    let DropsItem::Must(lookahead) = &drops.items[1].node else {
        panic!("a must statement")
    };
    assert_eq!(lookahead.requirement.node, Expression::LeaveAction);
}

#[test]
fn expression_precedence_and_operands() {
    let text = "score count (controlled by own except controlled by opponent) + 1";
    let game = parse(FileId(0), text).expect("parses");
    let Statement::Score(score) = &game.statements[0].node else {
        panic!("a score")
    };
    let Expression::Plus(count, one) = &score.expression.node else {
        panic!("a sum, found {:?}", score.expression.node)
    };
    assert!(matches!(count.node, Expression::Count(_)));
    assert_eq!(one.node, Expression::Number("1".to_string()));
    let text = "drops { must not place King or touch own King and place on not light }";
    let game = parse(FileId(0), text).expect("parses");
    let Statement::Drops(drops) = &game.statements[0].node else {
        panic!("drops")
    };
    let DropsItem::Must(must) = &drops.items[0].node else {
        panic!("must")
    };
    // `or` binds loosest, `not` tighter than `and`.
    let Expression::Or(left, right) = &must.requirement.node else {
        panic!("or at the top")
    };
    assert!(matches!(left.node, Expression::Not(_)));
    assert!(matches!(right.node, Expression::And(..)));
}

#[test]
fn material_rules_parse_with_spans() {
    let text = "end {\n  material King King Knight draws\n  material King King Bishop* Pawn+ on one colour loses\n}";
    let game = parse(FileId(0), text).expect("parses");
    let Statement::End(end) = &game.statements[0].node else {
        panic!("an end block")
    };
    let rules: Vec<&MaterialStatement> = end
        .rules
        .iter()
        .map(|rule| match &rule.node {
            EndRule::Material(material) => material,
            other => panic!("not a material rule: {other:?}"),
        })
        .collect();
    assert_eq!(rules.len(), 2);
    assert_eq!(rules[0].pieces.len(), 3);
    assert!(rules[0].one_colour.is_none());
    assert_eq!(rules[0].verdict.node, Verdict::Draw);
    let quantifiers: Vec<Quantifier> = rules[1]
        .pieces
        .iter()
        .map(|term| term.node.quantifier)
        .collect();
    assert_eq!(
        quantifiers,
        [
            Quantifier::One,
            Quantifier::One,
            Quantifier::AnyNumber,
            Quantifier::OneOrMore
        ]
    );
    let bishop = &rules[1].pieces[2];
    assert_eq!(&text[bishop.span.start..bishop.span.end], "Bishop*");
    let name = bishop.node.piece.span;
    assert_eq!(&text[name.start..name.end], "Bishop");
    let colour = rules[1].one_colour.expect("on one colour");
    assert_eq!(&text[colour.start..colour.end], "on one colour");
    assert_eq!(rules[1].verdict.node, Verdict::Loss);
}

#[test]
fn a_misspelt_keyword_before_the_error_is_pointed_at() {
    let text = "score count (controled by opponent)\n";
    let errors = parse(FileId(0), text).expect_err("misspelt");
    let error = errors.iter().next().expect("one error");
    let span = error.primary.span;
    assert_eq!(&text[span.start..span.end], "controled");
    assert_eq!(error.help.as_deref(), Some("did you mean `controlled`?"));
    let unexpected = error.secondary[0].span;
    assert_eq!(&text[unexpected.start..unexpected.end], "opponent");
    // Names (capitalised) and keywords spelt right are not suspected.
    let text = "score count (own Kign opponent)\n";
    let errors = parse(FileId(0), text).expect_err("no operator");
    let span = errors.iter().next().expect("one error").primary.span;
    assert_eq!(&text[span.start..span.end], "opponent");
}

#[test]
fn an_unclosed_brace_is_pointed_at() {
    let rendered = error_of("piece King {\n  letter K\n\npiece Rook { letter R }\n");
    assert!(rendered.contains("this `{` is not closed"), "{rendered}");
}

#[test]
fn lexical_guards() {
    assert!(message_of("game \"x").contains("no closing `\"`"));
    assert!(message_of("/* x").contains("no closing `*/`"));
    let deep = format!("effect x {}{}", "{".repeat(10_000), "}".repeat(10_000));
    assert_eq!(message_of(&deep), "braces are nested more than 64 deep");
    let just_deep_enough = format!(
        "effect x {}{}",
        "{".repeat(MAX_NESTING),
        "}".repeat(MAX_NESTING)
    );
    assert!(parse(FileId(0), &just_deep_enough).is_ok());
}

#[test]
fn decode_guards_bytes() {
    let (text, problem) = decode(FileId(0), b"game \"x\"\nboard \xff");
    assert_eq!(problem.expect("not UTF-8").primary.span.start, 15);
    assert!(text.ends_with('\u{FFFD}'));
    let (text, problem) = decode(FileId(0), &vec![b' '; MAX_FILE_BYTES + 1]);
    assert!(text.is_empty());
    assert_eq!(problem.expect("too large").code, code::FILE_TOO_LARGE);
    assert!(decode(FileId(0), b"game \"x\"").1.is_none());
}

#[test]
fn a_byte_order_mark_is_not_text() {
    let (text, problem) = decode(FileId(0), b"\xEF\xBB\xBFgame \"x\"\nboard 8by8");
    assert!(problem.is_none());
    assert_eq!(text, "game \"x\"\nboard 8by8");
    let error = parse(FileId(0), &text).expect_err("8by8 is not a size");
    let span = error.iter().next().expect("one error").primary.span;
    assert_eq!(&text[span.start..span.end], "8by8");
    // Only a leading mark is dropped; bad bytes after it are still found where they are.
    let (_, problem) = decode(FileId(0), b"\xEF\xBB\xBFgame \xff");
    assert_eq!(problem.expect("not UTF-8").primary.span.start, 5);
}

#[test]
fn chess_parses_with_spans() {
    let text = include_str!("../../../games/chess.variant");
    let game = parse(FileId(0), text).expect("chess parses");
    assert_eq!(game.statements.len(), 16);
    let Statement::Piece(king) = &game.statements[7].node else {
        panic!("the King")
    };
    assert_eq!(&text[king.name.span.start..king.name.span.end], "King");
    let moves = game
        .statements
        .iter()
        .find_map(|statement| match &statement.node {
            Statement::Piece(piece) if piece.name.node == "Pawn" => {
                piece.items.iter().find_map(|item| match &item.node {
                    PieceItem::Moves(moves) => Some(moves.clone()),
                    _ => None,
                })
            }
            _ => None,
        })
        .expect("the pawn's moves");
    assert_eq!(moves.node.value, "mfW cfeF imfnD");
    let span = moves.span_of(4..8);
    assert_eq!(&text[span.start..span.end], "cfeF");
}
