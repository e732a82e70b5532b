//! The placement-game files of `games/` validate into the definitions their rules need: drop
//! constraints with their sides and conditions, control, score and end rules; and mistakes in
//! the new statements are reported in source order.

use variant_dsl::expression::Condition;
use variant_dsl::parse::parse;
use variant_dsl::validate::validate;
use variant_dsl::*;

const CHESS: &str = include_str!("../games/chess.variant");

fn check(text: &str) -> Result<(Definition, Diagnostics), Diagnostics> {
    let mut sources = SourceMap::new();
    let file = sources.add("x.variant", text);
    let game = parse(file, text).expect("parses");
    validate(&game, &sources)
}

fn messages(text: &str) -> Vec<String> {
    let diagnostics = check(text).expect_err("should fail");
    diagnostics.iter().map(|d| d.message.clone()).collect()
}

const COVERAGE: &str = include_str!("../games/coverage.variant");
const CHEVERSI: &str = include_str!("../games/cheversi.variant");

#[test]
fn cheversi_drop_constraints() {
    let (definition, warnings) = check(CHEVERSI).expect("cheversi is valid");
    assert!(warnings.is_empty(), "{warnings:?}");
    let (white, black) = (Some(SideId(0)), Some(SideId(1)));
    let (king, queen, bishop) = (PieceId(0), PieceId(1), PieceId(3));
    let number = Number::Constant;
    let placement_is = |op, n| Condition::Compare(Number::Placement, op, number(n));
    let holding_queen = Condition::Compare(
        Number::Hand(SideRef::Own, Some(queen)),
        Comparison::Greater,
        number(0),
    );
    let and = |a, b| Condition::And(Box::new(a), Box::new(b));
    let occupied = Squares::Constant(SquareConstant::Occupied);
    let expected = [
        (
            white,
            Condition::Place(king),
            placement_is(Comparison::Equal, 1),
        ),
        (
            black,
            Condition::Not(Box::new(Condition::Place(king))),
            placement_is(Comparison::Less, 8),
        ),
        (
            None,
            Condition::PlaceOn(Squares::Adjacent(Box::new(occupied.clone()))),
            Condition::Some(occupied),
        ),
        (
            black,
            Condition::PlaceOn(Squares::Adjacent(Box::new(Squares::LastDrop(
                SideRef::Opponents,
            )))),
            Condition::Place(king),
        ),
        (
            None,
            Condition::PlaceOn(Squares::Not(Box::new(Squares::ColourOf(Box::new(
                Squares::Pieces(SideRef::Own, Some(bishop)),
            ))))),
            Condition::Place(bishop),
        ),
        (
            None,
            Condition::Place(queen),
            and(
                Condition::Placed(SideRef::Opponents, queen),
                holding_queen.clone(),
            ),
        ),
        (
            black,
            Condition::Place(queen),
            and(placement_is(Comparison::Equal, 7), holding_queen),
        ),
        (
            None,
            Condition::LeaveAction,
            Condition::Compare(
                Number::Hand(SideRef::Next, None),
                Comparison::Greater,
                number(0),
            ),
        ),
    ];
    let actual: Vec<_> = definition
        .drops
        .constraints
        .iter()
        .map(|c| (c.side, c.requirement.clone(), c.condition.clone()))
        .collect();
    assert_eq!(actual, expected);
    let origins: Vec<String> = definition
        .drops
        .constraints
        .iter()
        .map(|c| c.origin.text.clone())
        .collect();
    assert_eq!(
        origins,
        [
            "white must place King when placement = 1",
            "black must not place King when placement < 8",
            "must touch occupied when some occupied",
            "black must touch last drop of opponent when placing King",
            "must place on not colour of own Bishop when placing Bishop",
            "must place Queen when opponent placed Queen and hand Queen > 0",
            "black must place Queen when placement = 7 and hand Queen > 0",
            "must leave an action when next hand > 0",
        ]
    );
    assert_eq!(
        definition.actions,
        Actions {
            moves: false,
            drops: true
        }
    );
    assert_eq!(
        definition.score,
        Some(ScoreRule {
            expression: Number::Sum(
                Field::Controllers(SideRef::Own),
                Box::new(Squares::Constant(SquareConstant::Empty))
            )
        })
    );
    let conditions: Vec<_> = definition
        .end
        .conditions
        .iter()
        .map(|c| (c.verdict, c.condition.clone()))
        .collect();
    assert_eq!(conditions, [(None, Condition::HandsEmpty)]);
    assert!(definition.end.tiebreaks.is_empty());
    assert!(!definition.control.en_passant_standing);
}

fn controlled_alone() -> Squares {
    Squares::Except(
        Box::new(Squares::ControlledBy(SideRef::Own)),
        Box::new(Squares::ControlledBy(SideRef::Opponents)),
    )
}

#[test]
fn coverage_control_score_and_end() {
    let (definition, warnings) = check(COVERAGE).expect("coverage is valid");
    assert!(warnings.is_empty(), "{warnings:?}");
    let uncontrolled = Condition::PlaceOn(Squares::Not(Box::new(Squares::ControlledBy(
        SideRef::Opponents,
    ))));
    assert_eq!(definition.drops.constraints.len(), 1);
    let rule = &definition.drops.constraints[0];
    assert_eq!(
        (rule.side, &rule.requirement, &rule.condition),
        (None, &uncontrolled, &Condition::True)
    );
    assert_eq!(
        rule.origin.text,
        "must place on not controlled by opponent".to_string()
    );
    assert!(definition.control.en_passant_standing);
    assert_eq!(
        definition.score,
        Some(ScoreRule {
            expression: Number::Count(Box::new(controlled_alone()))
        })
    );
    let end = &definition.end;
    let conditions: Vec<_> = end
        .conditions
        .iter()
        .map(|c| (c.verdict, c.condition.clone()))
        .collect();
    let self_controlled_only = Condition::Not(Box::new(Condition::Some(Squares::Except(
        Box::new(Squares::LegalDrops),
        Box::new(Squares::ControlledBy(SideRef::Own)),
    ))));
    assert_eq!(
        conditions,
        [(None, Condition::HandsEmpty), (None, self_controlled_only)]
    );
    assert_eq!(end.tiebreaks, [Tiebreak::FewestInHand]);
    assert!(definition.setup.board.is_empty());
    let in_hand: u32 = definition.setup.hands.iter().map(|(_, _, n)| n).sum();
    assert_eq!(in_hand, 32);
    assert_eq!(
        Definition::from_ron(&definition.to_ron()).unwrap(),
        definition
    );
}

#[test]
fn actions_default_to_moves_and_drops() {
    let (definition, _) = check(CHESS).unwrap();
    assert_eq!(definition.actions, Actions::default());
    assert_eq!(definition.drops, DropRules::default());
    assert_eq!(definition.score, None);
    let text = CHESS.replace("setup ", "actions moves\nsetup ");
    let (definition, _) = check(&text).unwrap();
    assert_eq!(
        definition.actions,
        Actions {
            moves: true,
            drops: false
        }
    );
}

#[test]
fn drop_constraints_resolve_names_and_types() {
    let text = CHEVERSI
        .replace("white must place King", "whte must place Kign")
        .replace("placing Bishop", "placing Bishops")
        .replace(
            "must touch occupied when some occupied",
            "must touch occupied when occupied",
        )
        .replace("placement < 8", "placement < own King")
        .replace("actions drops", "actions drops drops");
    assert_eq!(
        messages(&text),
        [
            "`drops` is given twice",
            "unknown side `whte` in `drops`",
            "unknown piece `Kign` in `place`",
            "expected a number, found a set of squares",
            "expected a condition, found a set of squares",
            "unknown piece `Bishops` in `place`",
        ]
    );
}

#[test]
fn expression_terms_are_refused_where_they_mean_nothing() {
    let text = format!("{COVERAGE}\nscore count legal drops + placement\n")
        .replace(
            "score count (controlled by own except controlled by opponent)\n",
            "",
        )
        .replace("by score when hands empty", "by score when place King")
        .replace(
            "must place on not controlled by opponent",
            "must place on not controlled by opponent and leave an action",
        );
    assert_eq!(
        messages(&text),
        [
            "`leave an action` cannot be used in a drop rule",
            "`place` cannot be used in an end condition",
            "`legal drops` cannot be used in a score",
            "`placement` cannot be used in a score",
        ]
    );
}

#[test]
fn new_statements_are_given_once() {
    let text = format!("{COVERAGE}\nscore count empty\ncontrol {{ }}\n");
    assert_eq!(
        messages(&text),
        ["`score` is given twice", "`control` is given twice"]
    );
}

#[test]
fn a_sub_variant_replaces_only_what_it_restates() {
    // games/coverage-weighted.variant extends games/coverage.variant and restates only its name
    // and score.
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let load = |name: &str| {
        load_file(&games.join(name))
            .unwrap_or_else(|failure| panic!("{}", failure.render()))
            .definition
    };
    let parent = load("coverage.variant");
    let child = load("coverage-weighted.variant");
    assert_eq!(child.name, "Coverage (weighted scoring)");
    assert!(matches!(
        child.score,
        Some(ScoreRule {
            expression: Number::Count(_)
        })
    ));
    assert_eq!(
        child.drops.constraints[0].origin.to_string(),
        "coverage.variant:56: must place on not controlled by opponent",
        "an inherited constraint keeps its own file's origin"
    );
    assert_eq!(
        (&child.actions, &child.drops, &child.control, &child.end),
        (&parent.actions, &parent.drops, &parent.control, &parent.end)
    );
    assert_ne!(child.score, parent.score);
}
