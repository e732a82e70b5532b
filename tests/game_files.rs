//! The placement-game files of `games/` validate into the definitions their rules need: drop
//! constraints with their sides and conditions, control, score and end rules; and mistakes in
//! the new statements are reported in source order.

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
    let expected = [
        (
            white,
            Requirement::Place(king),
            vec![Condition::AtPlacement(1)],
        ),
        (
            black,
            Requirement::NotPlace(king),
            vec![Condition::BeforePlacement(8)],
        ),
        (None, Requirement::TouchAny, vec![Condition::BoardOccupied]),
        (
            black,
            Requirement::TouchOpponentLast,
            vec![Condition::Placing(king)],
        ),
        (
            None,
            Requirement::DifferInColourFromOwn(bishop),
            vec![Condition::Placing(bishop)],
        ),
        (
            None,
            Requirement::Place(queen),
            vec![Condition::OpponentPlaced(queen), Condition::Holding(queen)],
        ),
        (
            black,
            Requirement::Place(queen),
            vec![Condition::AtPlacement(7), Condition::Holding(queen)],
        ),
    ]
    .map(|(side, requirement, conditions)| (side, requirement, conditions));
    let actual: Vec<_> = definition
        .drops
        .constraints
        .iter()
        .map(|c| (c.side, c.requirement.clone(), c.conditions.clone()))
        .collect();
    assert_eq!(actual, expected);
    let origins: Vec<String> = definition
        .drops
        .constraints
        .iter()
        .map(|c| c.origin.to_string())
        .collect();
    assert_eq!(
        origins,
        [
            "x.variant:29: white must place King at placement 1",
            "x.variant:32: black must not place King before placement 8",
            "x.variant:36: must touch any piece when board occupied",
            "x.variant:38: black must touch opponent last when placing King",
            "x.variant:40: must differ in colour from own Bishop when placing Bishop",
            "x.variant:45: must place Queen when opponent placed Queen and holding Queen",
            "x.variant:48: black must place Queen at placement 7 when holding Queen",
        ]
    );
    assert!(definition.drops.lookahead);
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
            measure: ScoreMeasure::Attackers,
            empty_only: true
        })
    );
    assert!(definition.end.hands_empty);
    assert!(definition.end.tiebreaks.is_empty());
    assert!(!definition.control.en_passant_standing);
}

#[test]
fn coverage_control_score_and_end() {
    let (definition, warnings) = check(COVERAGE).expect("coverage is valid");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        definition.drops,
        DropRules {
            constraints: vec![DropConstraint {
                side: None,
                requirement: Requirement::Uncontrolled,
                conditions: Vec::new(),
                origin: Origin {
                    file: "x.variant".to_string(),
                    line: 56,
                    text: "must be uncontrolled".to_string(),
                },
            }],
            lookahead: false,
        }
    );
    assert!(definition.control.en_passant_standing);
    assert_eq!(
        definition.score,
        Some(ScoreRule {
            measure: ScoreMeasure::ControlledAlone,
            empty_only: false
        })
    );
    let end = &definition.end;
    assert!(end.hands_empty && end.only_self_controlled_drops && end.no_legal_action);
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
fn drop_constraints_resolve_names_and_numbers() {
    let text = CHEVERSI
        .replace("white must place King", "whte must place Kign")
        .replace("before placement 8", "before placement 0")
        .replace("placing Bishop", "placing Bishops")
        .replace("    lookahead\n", "    lookahead\n    lookahead\n")
        .replace("actions drops", "actions drops drops");
    assert_eq!(
        messages(&text),
        [
            "`drops` is given twice",
            "unknown side `whte` in `drops`",
            "unknown piece `Kign` in `must place`",
            "`0` is too small: placements are counted from 1",
            "unknown piece `Bishops` in `placing`",
            "`lookahead` is given twice",
        ]
    );
}

#[test]
fn new_statements_are_given_once() {
    let text = format!("{COVERAGE}\nscore attackers\ncontrol {{ }}\n");
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
    assert_eq!(
        child.score,
        Some(ScoreRule {
            measure: ScoreMeasure::MajorityThenValue,
            empty_only: false
        })
    );
    assert_eq!(
        child.drops.constraints[0].requirement,
        Requirement::Uncontrolled
    );
    assert_eq!(
        child.drops.constraints[0].origin.to_string(),
        "coverage.variant:56: must be uncontrolled",
        "an inherited constraint keeps its own file's origin"
    );
    assert_eq!(
        (&child.actions, &child.drops, &child.control, &child.end),
        (&parent.actions, &parent.drops, &parent.control, &parent.end)
    );
    assert_ne!(child.score, parent.score);
}
