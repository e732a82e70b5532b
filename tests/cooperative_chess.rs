//! Cooperative Chess (`games/cooperative-chess.variant`) in hand-built positions, through the
//! real `variant` binary:
//!
//! - Red's priority list (`variant policy --json`): one position per rule and sub-rule, each
//!   snapshotted (FEN, dice, the engine's decision) and its rule, dice and candidates asserted;
//!   every position was checked against `scripts/coop_oracle.py` (an independent implementation
//!   written from the rules text and rulings CC1-CC28) when it was chosen, and
//!   `the_oracle_agrees_on_every_policy_case` keeps checking it;
//! - too few dice: a clear error naming the rule;
//! - legality with two allied Kings (`variant moves`), and the results: both team Kings attacked,
//!   the team checkmating Red, Red checkmating the team (`variant show --json`);
//! - allies never capture each other;
//! - FENs with `turn:` and `numbers:` round trip; a Red-to-move FEN without `turn:` is an error.
//!
//! FEN letters: White `KQRBNP`, Black `kqrbnp`, Red `x` King, `z` Queen, `t` Rook, `s` Bishop,
//! `m` Knight, `o` Pawn. Red's numbers (CC1): a7=1 ... h7=8, a8=9 ... h8=16, by default the
//! number of the start square a Red piece stands on, else from `numbers:`. With Red to move,
//! `turn:2` means Black moves next, `turn:4` White (CC5: "attacked" means by the partner who
//! moves next).

mod common;

use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

const GAME: &str = "cooperative-chess";

// ---------------------------------------------------------------------------------------------
// Red's priority list
// ---------------------------------------------------------------------------------------------

/// One decision of Red's policy: the position, the dice given, what must come out.
struct Case {
    /// The snapshot's name.
    name: &'static str,
    /// Why this position shows the rule (written into the snapshot).
    why: &'static str,
    fen: &'static str,
    /// `--dice`, empty for none.
    dice: &'static str,
    rule: &'static str,
    /// Sorted.
    candidates: &'static [&'static str],
}

/// The 7b position: Red pieces 1 (a7), 4 (d7), 6 (f7), 9 (a8), 11 (c8), 13 (e8); 5 and 10 are
/// gone. A Black knight on f3, the White King on d2, the Black King on h1; Red cannot capture
/// anything, so every roll of rule 6 that names a missing piece goes to rule 7.
const SEVEN: &str = "t1s1x3/o2o1o2/8/8/8/5n2/3K4/7k r - - 0 1 turn:4";

/// Every case below was run through `scripts/coop_oracle.py policy --position ... --dice ...`
/// when it was written: the oracle agreed on the rule, the dice and the candidates of each one
/// (and `the_oracle_agrees_on_every_policy_case` re-checks it).
const CASES: &[Case] = &[
    // Oracle agreed.
    Case {
        name: "rule1_captures_the_checker",
        why: "White's rook e5 checks the Red King e8. The knight g6 (15) can take it, the King \
              can step to d7/f7/f8 and the Queen can block on e7: the capture comes first (CC12).",
        fen: "3zx3/8/6m1/4R3/8/8/8/K6k r - - 0 1 turn:4 numbers:g6=15",
        dice: "",
        rule: "1",
        candidates: &["g6e5"],
    },
    // Oracle agreed.
    Case {
        name: "rule1_king_steps_before_blocking",
        why: "The same check with no capture of the checker: the King's moves d7/f7/f8 come \
              before the Queen's block d8e7; e7 stays attacked (CC12).",
        fen: "3zx3/8/8/4R3/8/8/8/K6k r - - 0 1 turn:4",
        dice: "",
        rule: "1",
        candidates: &["e8d7", "e8f7", "e8f8"],
    },
    // Oracle agreed.
    Case {
        name: "rule2_safe_capture_white_next",
        why: "White moves next. Threatened by White: the rook d5 (9, by the bishop b3) and the \
              knight g4 (10, by the knight h2). The rook has the higher value, so only its moves \
              count; it has safe captures (a5 knight; d4 pawn is only a pawn): the highest \
              victim, d5a5. The knight's safe capture of a rook (g4f2) is not considered, and the \
              Queen h6, attacked only by Black's pawn g5, is not threatened (CC5, CC13).",
        fen: "4x3/8/7z/N2t2p1/3p2m1/1B6/5r1N/3Kk3 r - - 0 1 turn:4 numbers:d5=9,g4=10,h6=12",
        dice: "",
        rule: "2",
        candidates: &["d5a5"],
    },
    // Oracle agreed.
    Case {
        name: "rule2_safe_capture_black_next",
        why: "The same board with Black to move next: now only the Queen h6 is threatened (by \
              Black's pawn g5), and it takes that pawn, which no Black piece then attacks.",
        fen: "4x3/8/7z/N2t2p1/3p2m1/1B6/5r1N/3Kk3 r - - 0 1 turn:2 numbers:d5=9,g4=10,h6=12",
        dice: "",
        rule: "2",
        candidates: &["h6g5"],
    },
    // Oracle agreed.
    Case {
        name: "rule2_fewest_squares",
        why: "White next. The rook d5 (9) is attacked by the knight e3 and the bishop b3, the \
              knight g4 (10) by the knight e3; the rook has the higher value and no capture. \
              Of its squares one step away, c5 and d6 are covered by the knight e4: the \
              fewest squares to safety are d4 and e5. The knight's safe capture g4e3 does not \
              count (CC6, CC13).",
        fen: "4x3/8/8/3t4/4N1m1/1B2N3/8/K6k r - - 0 1 turn:4 numbers:d5=9,g4=10",
        dice: "",
        rule: "2",
        candidates: &["d5d4", "d5e5"],
    },
    // Oracle agreed.
    Case {
        name: "rule3_safe_capture_of_highest_value",
        why: "Black next, nothing threatened. The knight f6 (15) can take the White rook h5 \
              (defended by Black's knight g3: unsafe), the Black bishop d5 (safe) and the White \
              pawn e4 (attacked by Black's bishop and knight: unsafe): the safe capture d5.",
        fen: "4x3/8/5m2/3b3R/4P3/6n1/8/K6k r - - 0 1 turn:2 numbers:f6=15",
        dice: "",
        rule: "3",
        candidates: &["f6d5"],
    },
    // Oracle agreed.
    Case {
        name: "rule4_die_2_captures",
        why: "White next. Red's only capture, h7xg6 (a Black pawn), ends attacked by White's \
              pawn f5: rule 4 rolls one die, 2 takes it. (The Black pawn g6 attacks h7, but \
              Black does not move next, so rule 2 does not fire.)",
        fen: "7x/7o/4B1pP/5P2/8/8/8/K6k r - - 0 1 turn:4 numbers:h8=13",
        dice: "2",
        rule: "4",
        candidates: &["h7g6"],
    },
    // Oracle agreed.
    Case {
        name: "rule4_die_5_falls_through_to_rule5",
        why: "The same position, die 5: no capture by rule 4; the King's squares g8 and g7 are \
              attacked (bishop e6, pawn h6), so h7xg6 is Red's only legal move and rule 5 takes \
              it anyway (\"even if it is a move that was ignored during Priority 3\").",
        fen: "7x/7o/4B1pP/5P2/8/8/8/K6k r - - 0 1 turn:4 numbers:h8=13",
        dice: "5",
        rule: "5",
        candidates: &["h7g6"],
    },
    // Oracle agreed.
    Case {
        name: "rule4_die_3_highest_victim",
        why: "White next. The knight f6 (15) can take the bishop d5 and the pawn e4, both \
              defended by the knight c3: every capture is unsafe, die 3 captures, the highest \
              victim (CC14).",
        fen: "4x3/8/5m2/3B4/4P3/2N5/8/K6k r - - 0 1 turn:4 numbers:f6=15",
        dice: "3",
        rule: "4",
        candidates: &["f6d5"],
    },
    // Oracle agreed.
    Case {
        name: "rule4_die_4_falls_through_to_rule6b",
        why: "The same position, die 4: no capture by rule 4; 3d6 = 6+6+5, 17 - 2 = 15, the \
              knight f6. 6b: after f6xd5 or f6xe4 it attacks the knight c3; both squares have \
              two White attackers (CC17).",
        fen: "4x3/8/5m2/3B4/4P3/2N5/8/K6k r - - 0 1 turn:4 numbers:f6=15",
        dice: "4,6,6,5",
        rule: "6b",
        candidates: &["f6d5", "f6e4"],
    },
    // Oracle agreed.
    Case {
        name: "rule4_die_6_falls_through_to_rule6c_king",
        why: "The same position, die 6, then 5+5+5 - 2 = 13, the King: no 6b move for it, so \
              6c: its safe moves, each the farthest of its direction (f7 is attacked by the \
              bishop d5) (CC18).",
        fen: "4x3/8/5m2/3B4/4P3/2N5/8/K6k r - - 0 1 turn:4 numbers:f6=15",
        dice: "6,5,5,5",
        rule: "6c",
        candidates: &["e8d7", "e8d8", "e8e7", "e8f8"],
    },
    // Oracle agreed.
    Case {
        name: "rule5_single_legal_move",
        why: "The rook g1 covers g7 and g8: the King's one legal move h8h7 (no die read).",
        fen: "7x/8/8/8/8/8/8/K5Rk r - - 0 1 turn:4 numbers:h8=13",
        dice: "",
        rule: "5",
        candidates: &["h8h7"],
    },
    // Oracle agreed.
    Case {
        name: "rule6a_pawn_promotes",
        why: "Black next. 1+1+3 - 2 = 3, the pawn c2 (3): c1 is not attacked by Black, so it \
              promotes to a Queen (CC16).",
        fen: "4x3/8/8/8/K6k/8/2o2o1n/8 r - - 0 1 turn:2 numbers:c2=3,f2=6",
        dice: "1,1,3",
        rule: "6a",
        candidates: &["c2c1q"],
    },
    // Oracle agreed.
    Case {
        name: "rule6_rolled_piece_has_no_move_goes_to_rule7",
        why: "The same position, 1+2+5 - 2 = 6, the pawn f2 (6): f1 is attacked by Black's \
              knight h2 (no 6a, no 6c) and the new Queen would attack no team piece (no 6b). \
              CC19: rule 7 without 6, the nearest other number is 3 (c2); it cannot capture, so \
              7b: row die 3 (rank 4), column die 4 (e): c2~e4.",
        fen: "4x3/8/8/8/K6k/8/2o2o1n/8 r - - 0 1 turn:2 numbers:c2=3,f2=6",
        dice: "1,2,5,3,4",
        rule: "7b",
        candidates: &["c2~e4"],
    },
    // Oracle agreed.
    Case {
        name: "rule6b_fewest_attackers",
        why: "White next. 3+4+4 - 2 = 9, the rook a8. Moves after which it attacks a team piece \
              (not a King): a5 and h8 (the knight h5, each square attacked by the bishop c3), \
              a3 and c8 (the bishop c3, neither square attacked): the fewest attackers (CC17). \
              b8 would only check the White King b1, which does not count.",
        fen: "t7/4x3/8/7N/8/2B5/8/1K5k r - - 0 1 turn:4 numbers:e7=13",
        dice: "3,4,4",
        rule: "6b",
        candidates: &["a8a3", "a8c8"],
    },
    // Oracle agreed.
    Case {
        name: "rule6c_farthest_safe_move_per_direction",
        why: "The rook a8 with nothing to attack: down the a-file the farthest safe square is a3 \
              (a2 and a1 are attacked by the White King b1), along rank 8 it is h8 (CC18).",
        fen: "t7/4x3/8/8/8/8/8/1K5k r - - 0 1 turn:4 numbers:e7=13",
        dice: "3,4,4",
        rule: "6c",
        candidates: &["a8a3", "a8h8"],
    },
    // Oracle agreed.
    Case {
        name: "rule7_odd_tie_goes_lower",
        why: "2+2+3 - 2 = 5, gone. 4 (d7) and 6 (f7) are equally near; 5 is odd: the lower, 4 \
              (CC20). The pawn d7 cannot capture: 7b, row die 3 (rank 4), column die 4 (e).",
        fen: SEVEN,
        dice: "2,2,3,3,4",
        rule: "7b",
        candidates: &["d7~e4"],
    },
    // Oracle agreed.
    Case {
        name: "rule7_even_tie_goes_higher_7b_empty_square",
        why: "4+4+4 - 2 = 10, gone. 9 (a8) and 11 (c8) are equally near; 10 is even: the \
              higher, 11, the bishop c8 (CC20). 7b onto the empty e4: c8~e4.",
        fen: SEVEN,
        dice: "4,4,4,3,4",
        rule: "7b",
        candidates: &["c8~e4"],
    },
    // Oracle agreed.
    Case {
        name: "rule7b_captures_a_team_piece",
        why: "The bishop c8 (11) again, row die 2 (rank 3), column die 5 (f): it takes Black's \
              knight f3 (CC22).",
        fen: SEVEN,
        dice: "4,4,4,2,5",
        rule: "7b",
        candidates: &["c8~f3"],
    },
    // Oracle agreed.
    Case {
        name: "rule7b_onto_a_team_king_removes_the_jumper",
        why: "The bishop c8 (11), row die 1 (rank 2), column die 3 (d): the White King d2 is \
              there, so the bishop is removed: c8~d2x (CC22).",
        fen: SEVEN,
        dice: "4,4,4,1,3",
        rule: "7b",
        candidates: &["c8~d2x"],
    },
    // Oracle agreed.
    Case {
        name: "rule7b_own_square_nothing_happens",
        why: "The pawn d7 (4, as in rule7_odd_tie_goes_lower), row die 6 (rank 7), column die 3 \
              (d): its own square, nothing happens: d7~d7- (CC8, CC22).",
        fen: SEVEN,
        dice: "2,2,3,6,3",
        rule: "7b",
        candidates: &["d7~d7-"],
    },
    // Oracle agreed.
    Case {
        name: "rule7b_equal_red_contest",
        why: "The pawn d7 (4) onto the Red pawn f7 (row die 6, column die 5): equal values, \
              either may keep the square: two candidates, d7~f7 (f7 removed) and d7~f7x (the \
              jumper removed) (CC22).",
        fen: SEVEN,
        dice: "2,2,3,6,5",
        rule: "7b",
        candidates: &["d7~f7", "d7~f7x"],
    },
    // Oracle agreed.
    Case {
        name: "rule7b_higher_red_value_keeps_the_square",
        why: "The bishop c8 (11) onto the Red pawn f7: the bishop (3) beats the pawn (1), which \
              is removed: c8~f7 only (CC22).",
        fen: SEVEN,
        dice: "4,4,4,6,5",
        rule: "7b",
        candidates: &["c8~f7"],
    },
    // Oracle agreed.
    Case {
        name: "rule7b_red_king_onto_a_team_king",
        why: "A lone Red King: 2+2+3 - 2 = 5, gone, the nearest is the King (13); it cannot \
              capture; row die 1, column die 3: the White King d2. A Red King is not removed: \
              nothing happens, e8~d2- (CC22).",
        fen: "4x3/8/8/8/8/8/3K4/7k r - - 0 1 turn:4",
        dice: "2,2,3,1,3",
        rule: "7b",
        candidates: &["e8~d2-"],
    },
    // Oracle agreed.
    Case {
        name: "rule7a_capture_without_king_slide",
        why: "White next. The knight e4 (10) can take the rook c3 (defended by the pawn b2) and \
              the pawn g3 (defended by the bishop h2): both unsafe, rule 4's die 5 declines. \
              3+4+4 - 2 = 9, gone: the nearest is 10, the knight. 7a: its captures, the \
              highest victim, e4xc3; the Red King is not exposed (CC21).",
        fen: "4x3/8/8/8/4m3/2R3p1/1P5B/K6k r - - 0 1 turn:4 numbers:e4=10",
        dice: "5,3,4,4",
        rule: "7a",
        candidates: &["e4c3"],
    },
    // Oracle agreed.
    Case {
        name: "rule7a_capture_with_king_slide",
        why: "The bishop e7 (14) is pinned by the rook e3, so Red has no legal capture (rules \
              2-4 give nothing). 5+6+6 - 2 = 15, gone: the nearest is 14. 7a: e7xg5 exposes \
              the King e8, which slides to the first unattacked square of a direction: d8, f8, \
              d7, f7; down the e-file it would reach the rook e3, which the pawn d2 defends: \
              nothing; up: the edge (CC21).",
        fen: "4x3/4s3/8/6n1/8/4R3/3P4/K6k r - - 0 1 turn:4 numbers:e7=14",
        dice: "5,6,6",
        rule: "7a",
        candidates: &["e7g5&e8d7", "e7g5&e8d8", "e7g5&e8f7", "e7g5&e8f8"],
    },
    // Oracle agreed.
    Case {
        name: "rule7a_king_slide_captures_an_undefended_piece",
        why: "The same without the pawn d2: sliding down the e-file the King is attacked on \
              e7-e4 and first safe on e3, where it takes the undefended rook: e7g5&e8e3 (CC21).",
        fen: "4x3/4s3/8/6n1/8/4R3/8/K6k r - - 0 1 turn:4 numbers:e7=14",
        dice: "5,6,6",
        rule: "7a",
        candidates: &[
            "e7g5&e8d7",
            "e7g5&e8d8",
            "e7g5&e8e3",
            "e7g5&e8f7",
            "e7g5&e8f8",
        ],
    },
];

/// `variant ARGS...`, which must succeed: its standard output.
fn run(args: &[&str]) -> String {
    let output = common::variant(args);
    assert!(
        output.status.success(),
        "variant {args:?} failed: {}",
        common::stderr(&output)
    );
    common::stdout(&output)
}

/// `variant policy cooperative-chess --fen FEN [--dice DICE] --json`: the raw line and parsed.
fn policy(fen: &str, dice: &str) -> (String, Value) {
    let mut args = vec!["policy", GAME, "--fen", fen, "--json"];
    if !dice.is_empty() {
        args.extend(["--dice", dice]);
    }
    let text = run(&args);
    let value = serde_json::from_str(text.trim())
        .unwrap_or_else(|e| panic!("policy --json gave no JSON ({e}): {text}"));
    (text.trim().to_string(), value)
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {value}"))
        .iter()
        .map(|v| v.as_str().expect("a string").to_string())
        .collect()
}

fn dice_list(dice: &str) -> Vec<u64> {
    if dice.is_empty() {
        return Vec::new();
    }
    dice.split(',').map(|d| d.parse().expect("a die")).collect()
}

fn sorted(mut list: Vec<String>) -> Vec<String> {
    list.sort();
    list
}

/// The rule, dice and candidates of a decision (engine's or oracle's) against the case.
fn check_decision(case: &Case, decision: &Value, who: &str) {
    assert_eq!(
        decision["side"].as_str(),
        Some("red"),
        "{}: {who}: {decision}",
        case.name
    );
    assert_eq!(
        decision["rule"].as_str(),
        Some(case.rule),
        "{}: {who} fired another rule: {decision}",
        case.name
    );
    let dice: Vec<u64> = decision["dice"]
        .as_array()
        .expect("dice")
        .iter()
        .map(|d| d.as_u64().expect("a die"))
        .collect();
    assert_eq!(
        dice,
        dice_list(case.dice),
        "{}: {who} read other dice: {decision}",
        case.name
    );
    let expected: Vec<String> = case.candidates.iter().map(|c| c.to_string()).collect();
    assert_eq!(
        sorted(strings(&decision["candidates"])),
        expected,
        "{}: {who}'s candidates: {decision}",
        case.name
    );
    // A single candidate is chosen even without a seed.
    if case.candidates.len() == 1 {
        assert_eq!(
            decision["chosen"].as_str(),
            Some(case.candidates[0]),
            "{}",
            case.name
        );
    }
}

#[test]
fn every_priority_rule_snapshots() {
    for case in CASES {
        let (text, decision) = policy(case.fen, case.dice);
        check_decision(case, &decision, "the engine");
        let dice = if case.dice.is_empty() {
            "(none)"
        } else {
            case.dice
        };
        insta::assert_snapshot!(
            case.name,
            format!("{}\n\nfen:  {}\ndice: {dice}\n{text}\n", case.why, case.fen)
        );
    }
    // Every rule and sub-rule has a case.
    for rule in ["1", "2", "3", "4", "5", "6a", "6b", "6c", "7a", "7b"] {
        assert!(
            CASES.iter().any(|c| c.rule == rule),
            "no case for rule {rule}"
        );
    }
}

#[test]
fn a_seed_picks_among_the_candidates() {
    // Several candidates: without a seed nothing is chosen; with one, one of them, the same one
    // on every run (CC7).
    let case = CASES
        .iter()
        .find(|c| c.name == "rule7a_capture_with_king_slide")
        .expect("the case");
    let (_, unseeded) = policy(case.fen, case.dice);
    assert!(unseeded["chosen"].is_null(), "{unseeded}");
    let seeded = |seed: &str| {
        let text = run(&[
            "policy", GAME, "--fen", case.fen, "--dice", case.dice, "--seed", seed, "--json",
        ]);
        serde_json::from_str::<Value>(text.trim()).expect("JSON")
    };
    let first = seeded("7");
    check_decision(case, &first, "the engine, seeded");
    let chosen = first["chosen"].as_str().expect("chosen").to_string();
    assert!(case.candidates.contains(&chosen.as_str()), "{first}");
    assert_eq!(seeded("7")["chosen"].as_str(), Some(chosen.as_str()));
}

// ---------------------------------------------------------------------------------------------
// The oracle on the same positions
// ---------------------------------------------------------------------------------------------

fn skip_without_python(test: &str) -> bool {
    if let Some(reason) = common::python_missing() {
        eprintln!(
            "SKIPPED {test}: {reason}; the comparison with scripts/coop_oracle.py did NOT run"
        );
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs python3: {reason}"
        );
        return true;
    }
    false
}

/// The pieces of a FEN's board: square name to letter.
fn board(fen: &str) -> BTreeMap<String, char> {
    let placement = fen.split(' ').next().expect("a placement");
    let mut squares = BTreeMap::new();
    for (row, text) in placement.split('/').enumerate() {
        let rank = 8 - row;
        let mut file = 0u8;
        for letter in text.chars() {
            if let Some(skip) = letter.to_digit(10) {
                file += skip as u8;
            } else {
                squares.insert(format!("{}{rank}", (b'a' + file) as char), letter);
                file += 1;
            }
        }
    }
    squares
}

/// The side owning a FEN letter of this game.
fn owner(letter: char) -> &'static str {
    match letter {
        'x' | 'z' | 't' | 's' | 'm' | 'o' => "red",
        _ if letter.is_ascii_uppercase() => "white",
        _ => "black",
    }
}

/// A FEN of this game as the oracle's position file (see the docstring of coop_oracle.py).
/// Every Red piece must carry a number (the oracle requires one): its start square's, or one
/// given in `numbers:`.
fn oracle_position(fen: &str) -> Value {
    let fields: Vec<&str> = fen.split(' ').collect();
    let extension = |key: &str| {
        fields[6..]
            .iter()
            .find_map(|f| f.strip_prefix(key).map(str::to_string))
    };
    let mut numbers = BTreeMap::new();
    if let Some(list) = extension("numbers:") {
        for pair in list.split(',') {
            let (square, number) = pair.split_once('=').expect("square=number");
            numbers.insert(square.to_string(), number.parse::<u64>().expect("a number"));
        }
    }
    let mut pieces = Vec::new();
    for (square, letter) in board(fen) {
        let side = owner(letter);
        let kind = match letter {
            'x' => 'K',
            'z' => 'Q',
            't' => 'R',
            's' => 'B',
            'm' => 'N',
            'o' => 'P',
            other => other.to_ascii_uppercase(),
        };
        let mut piece =
            serde_json::json!({"side": side, "type": kind.to_string(), "square": square});
        if side == "red" {
            let file = u64::from(square.as_bytes()[0] - b'a');
            let number = numbers.get(&square).copied().or(match &square[1..] {
                "7" => Some(file + 1),
                "8" => Some(file + 9),
                _ => None,
            });
            piece["number"] =
                Value::from(number.unwrap_or_else(|| panic!("{fen}: {square} has no number")));
        }
        pieces.push(piece);
    }
    let slot = match (fields[1], extension("turn:").as_deref()) {
        ("w", _) => 0,
        ("r", Some("2")) => 1,
        ("b", _) => 2,
        ("r", Some("4")) => 3,
        other => panic!("{fen}: no slot for {other:?}"),
    };
    let castling: Vec<&str> = [
        ('Q', "white"),
        ('k', "black"),
        ('x', "red_kingside"),
        ('z', "red_queenside"),
    ]
    .into_iter()
    .filter(|(letter, _)| fields[2].contains(*letter))
    .map(|(_, name)| name)
    .collect();
    let en_passant = if fields[3] == "-" {
        Value::Null
    } else {
        Value::from(fields[3])
    };
    serde_json::json!({
        "pieces": pieces,
        "slot": slot,
        "castling": castling,
        "en_passant": en_passant,
        "halfmove": fields[4].parse::<u64>().expect("halfmove clock"),
    })
}

#[test]
fn the_oracle_agrees_on_every_policy_case() {
    if skip_without_python("the_oracle_agrees_on_every_policy_case") {
        return;
    }
    let dir = common::temporary_dir("cooperative-chess-policy");
    for case in CASES {
        let file = dir.join(format!("{}.json", case.name));
        std::fs::write(&file, oracle_position(case.fen).to_string()).expect("write");
        let mut command = Command::new("python3");
        command
            .arg("scripts/coop_oracle.py")
            .args(["policy", "--position"])
            .arg(&file)
            .current_dir(env!("CARGO_MANIFEST_DIR"));
        if !case.dice.is_empty() {
            command.args(["--dice", case.dice]);
        }
        let output = command.output().expect("python3 runs");
        assert!(
            output.status.success(),
            "{}: coop_oracle.py failed: {}",
            case.name,
            common::stderr(&output)
        );
        let decision: Value =
            serde_json::from_slice(&output.stdout).expect("the oracle prints JSON");
        check_decision(case, &decision, "the oracle");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Dice
// ---------------------------------------------------------------------------------------------

/// `variant policy` with too few dice: it fails, and says which rule wanted another die.
fn too_few(fen: &str, dice: &str) -> String {
    let mut args = vec!["policy", GAME, "--fen", fen, "--json"];
    if !dice.is_empty() {
        args.extend(["--dice", dice]);
    }
    let output = common::variant(&args);
    assert!(
        !output.status.success(),
        "policy with dice {dice:?} succeeded: {}",
        common::stdout(&output)
    );
    assert!(
        output.stdout.is_empty(),
        "no decision is printed: {}",
        common::stdout(&output)
    );
    common::stderr(&output)
}

#[test]
fn too_few_dice_is_a_clear_error() {
    // Rule 4's die (an unsafe capture exists), none given.
    let rule4 = "4x3/8/5m2/3B4/4P3/2N5/8/K6k r - - 0 1 turn:4 numbers:f6=15";
    let message = too_few(rule4, "");
    assert!(message.contains("rule 4"), "{message}");
    assert!(message.contains("die"), "{message}");
    // Rule 7b's column die missing (its row die given).
    let message = too_few(SEVEN, "4,4,4,3");
    assert!(message.contains("rule 7b"), "{message}");
    assert!(message.contains("die"), "{message}");
    // Rule 7b's row die missing.
    let message = too_few(SEVEN, "4,4,4");
    assert!(message.contains("rule 7b"), "{message}");
    // Enough dice: the same positions decide.
    assert_eq!(policy(rule4, "3").1["rule"], "4");
    assert_eq!(policy(SEVEN, "4,4,4,3,4").1["rule"], "7b");
}

/// Rule 6's three dice, too few of them: the message names rule 6 (the roll says `for rule 6`
/// in the game file), as the oracle does.
#[test]
fn too_few_dice_for_rule_6_names_rule_6() {
    let rule4 = "4x3/8/5m2/3B4/4P3/2N5/8/K6k r - - 0 1 turn:4 numbers:f6=15";
    for dice in ["4", "4,6", "4,6,6"] {
        let message = too_few(rule4, dice);
        assert!(message.contains("rule 6"), "dice {dice}: {message}");
    }
    let message = too_few(SEVEN, "4,4");
    assert!(message.contains("rule 6"), "{message}");
}

// ---------------------------------------------------------------------------------------------
// Legality with two allied Kings, and results
// ---------------------------------------------------------------------------------------------

/// `variant moves cooperative-chess --fen FEN`, sorted.
fn moves(fen: &str) -> Vec<String> {
    sorted(
        run(&["moves", GAME, "--fen", fen])
            .lines()
            .map(str::to_string)
            .collect(),
    )
}

fn list(moves: &[&str]) -> Vec<String> {
    sorted(moves.iter().map(|m| m.to_string()).collect())
}

#[test]
fn a_team_move_may_not_expose_the_partners_king() {
    // White's knight e2 stands between the Red rook e6 and Black's King e1: it may not move,
    // though its own King a1 is not concerned (CC2).
    let pinned = "7x/8/4t3/8/8/8/4N3/K3k3 w - - 0 1 numbers:e6=9";
    assert_eq!(moves(pinned), list(&["a1a2", "a1b1", "a1b2"]));
    // The Red rook moved aside: the same knight moves freely.
    let free = "7x/8/3t4/8/8/8/4N3/K3k3 w - - 0 1 numbers:d6=9";
    let free_moves = moves(free);
    for knight in ["e2c1", "e2c3", "e2d4", "e2f4", "e2g3", "e2g1"] {
        assert!(free_moves.contains(&knight.to_string()), "{free_moves:?}");
    }
    // Black's King may not step onto a square the Red rook covers either (f1, f2 on the f-file).
    let crowded = "4x3/8/8/5t2/R2nB2r/3p4/1NP5/3Kk3 b - - 0 1 numbers:f5=9";
    let black = moves(crowded);
    assert!(black.contains(&"e1e2".to_string()), "{black:?}");
    assert!(!black.contains(&"e1f1".to_string()), "{black:?}");
    assert!(!black.contains(&"e1f2".to_string()), "{black:?}");
}

#[test]
fn a_check_to_either_king_must_be_met_by_the_partner_to_move() {
    // White to move, Black's King e1 checked by the Red rook e7: White must block on e4 (rook)
    // or e5 (knight), or take the rook (knight); his own King's moves do not answer it.
    let black_checked = "7x/4t3/2N5/8/R7/8/8/K3k3 w - - 0 1 numbers:e7=9";
    assert_eq!(moves(black_checked), list(&["a4e4", "c6e5", "c6e7"]));
    // Black to move, White's King d1 checked by the Red bishop a4: Black's rook blocks on c2;
    // Black's King's moves do not answer it.
    let white_checked = "4x3/8/8/8/s7/7k/7r/3K4 b - - 0 1 numbers:a4=11";
    assert_eq!(moves(white_checked), list(&["h2c2"]));
    let shown = common::show_json(&["cooperative-chess", "--fen", white_checked]);
    assert_eq!(shown["in_check"], true, "{shown}");
    assert!(shown["result"].is_null(), "{shown}");
}

/// `variant show cooperative-chess --fen FEN --play MOVES --json`.
fn show_after(fen: &str, play: &str) -> Value {
    common::show_json(&[GAME, "--fen", fen, "--play", play])
}

fn winners(shown: &Value) -> Vec<String> {
    sorted(strings(&shown["result"]["winners"]))
}

#[test]
fn both_kings_in_check_is_a_red_win() {
    // The Red knight d4 jumps to e2, attacking the White King c1 and the Black King g1 at
    // once. Black could take the knight with his rook e5 and answer both checks, but both
    // Kings attacked ends the game first: Red wins (CC2, CC24).
    let fork = "x7/8/8/4r3/3m4/8/8/2K3k1 r - - 0 1 turn:2 numbers:a8=13,d4=10";
    let shown = show_after(fork, "d4e2");
    assert_eq!(winners(&shown), ["red"], "{shown}");
    assert_eq!(shown["result"]["draw"], false, "{shown}");
    assert_eq!(
        sorted(strings(&shown["result"]["losers"])),
        ["black", "white"]
    );
    assert_eq!(shown["result"]["reason"], "condition", "{shown}");
    assert_eq!(shown["legal_moves"], serde_json::json!([]), "{shown}");
    // The position reached, given as a FEN, is over as well.
    let fen = shown["fen"].as_str().expect("fen");
    let again = common::show_json(&[GAME, "--fen", fen]);
    assert_eq!(winners(&again), ["red"], "{again}");
    // One King attacked is not the end: on f3 the knight attacks the Black King g1 alone, and
    // Black answers the check.
    let one = show_after(fork, "d4f3");
    assert!(one["result"].is_null(), "{one}");
    assert_eq!(one["in_check"], true, "{one}");
}

#[test]
fn checkmates_either_way() {
    // The team mates Red: White's rook a1-a8, the Red King h8 walled in by its pawns.
    let team = show_after("7x/6oo/8/8/8/8/8/R2K2k1 w - - 0 1 numbers:h8=13", "a1a8");
    assert_eq!(winners(&team), ["black", "white"], "{team}");
    assert_eq!(team["result"]["reason"], "checkmate", "{team}");
    // Red mates the team: the Red rook d8-d1 checks the White King a1 (a2, b2 his own pawns,
    // b1 covered); Black moves next and cannot block or capture: Red wins (CC2).
    let red = show_after(
        "3tx3/8/8/8/8/7k/PP6/K7 r - - 0 1 turn:2 numbers:d8=9",
        "d8d1",
    );
    assert_eq!(red["side_to_move"], "black", "{red}");
    assert_eq!(winners(&red), ["red"], "{red}");
    assert_eq!(red["result"]["reason"], "checkmate", "{red}");
}

// ---------------------------------------------------------------------------------------------
// Allies
// ---------------------------------------------------------------------------------------------

#[test]
fn allies_never_capture_each_other() {
    // White and Black pieces within each other's reach: the White rook a4 and the Black knight
    // d4, the White pawn c2 and the Black pawn d3, the White bishop e4 and the Black rook h4,
    // the two Kings side by side. A Red rook f5 that both may take.
    let crowded = "4x3/8/8/5t2/R2nB2r/3p4/1NP5/3Kk3";
    let positions = [
        format!("{crowded} w - - 0 1 numbers:f5=9"),
        format!("{crowded} b - - 0 1 numbers:f5=9"),
        "tmszxsmt/oooooooo/8/8/8/8/PPPPpppp/RNBKkbnr w Qkxz - 0 1".to_string(),
        "tmszxsmt/oooooooo/8/8/8/8/PPPPpppp/RNBKkbnr b Qkxz - 0 1".to_string(),
    ];
    for fen in &positions {
        let squares = board(fen);
        let mover = if fen.contains(" w ") {
            "white"
        } else {
            "black"
        };
        let legal = moves(fen);
        assert!(!legal.is_empty(), "{fen}");
        for action in &legal {
            let from = &action[0..2];
            let to = &action[2..4];
            assert_eq!(
                squares.get(from).map(|&l| owner(l)),
                Some(mover),
                "{fen}: {action} moves another side's piece"
            );
            if let Some(&target) = squares.get(to) {
                assert_eq!(
                    owner(target),
                    "red",
                    "{fen}: {action} lands on a {} piece",
                    owner(target)
                );
            }
        }
    }
    let white = moves(&positions[0]);
    let black = moves(&positions[1]);
    // Each side takes the Red rook; none of the moves onto a partner's piece exists.
    let cases: [(&Vec<String>, &str, &[&str]); 2] = [
        (&white, "e4f5", &["a4d4", "c2d3", "e4d3", "b2d3", "d1e1"]),
        (&black, "d4f5", &["d4c2", "h4e4", "d3e4", "e1d1"]),
    ];
    for (legal, taken, refused) in cases {
        assert!(legal.contains(&taken.to_string()), "{legal:?}");
        for action in refused {
            assert!(!legal.contains(&action.to_string()), "{action}: {legal:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// FEN
// ---------------------------------------------------------------------------------------------

#[test]
fn fens_with_turn_and_numbers_round_trip() {
    let mut fens: Vec<String> = CASES.iter().map(|c| c.fen.to_string()).collect();
    fens.extend(
        [
            // An unnumbered Red knight off its start square.
            "4x3/8/8/8/3m4/8/8/2K3k1 r - - 0 1 turn:2",
            // Black to move with numbers.
            "x7/8/8/4r3/8/8/4m3/2K3k1 b - - 1 1 numbers:e2=10,a8=13",
            // A Red piece on another piece's start square with its own number.
            "4x3/4s3/8/8/8/8/8/K6k w - - 0 1 numbers:e7=14",
            "tmszxsmt/oooooooo/8/8/8/8/PPPPpppp/RNBKkbnr w Qkxz - 0 1",
        ]
        .map(str::to_string),
    );
    // Positions reached by play, one of each Red turn.
    for play in ["c2c4", "c2c4 d7d5 e2e3", "c2c4 d7d5 e2e3 d5c4 b1c3"] {
        fens.push(
            common::show_json(&[GAME, "--play", play])["fen"]
                .as_str()
                .expect("fen")
                .to_string(),
        );
    }
    assert!(fens
        .iter()
        .any(|f| f.contains("turn:2") && f.contains("numbers:")));
    assert!(fens
        .iter()
        .any(|f| f.contains("turn:4") && f.contains("numbers:")));
    for fen in &fens {
        let shown = common::show_json(&[GAME, "--fen", fen]);
        assert_eq!(shown["fen"].as_str(), Some(fen.as_str()), "{shown}");
    }
    // The moves of a position reached by play and of its FEN are the same.
    let play = "c2c4 d7d5 e2e3";
    let by_play = run(&["moves", GAME, "--play", play]);
    let fen = common::show_json(&[GAME, "--play", play])["fen"]
        .as_str()
        .expect("fen")
        .to_string();
    assert!(fen.contains(" r ") && fen.contains("turn:4") && fen.contains("numbers:d5=4"));
    assert_eq!(
        sorted(by_play.lines().map(str::to_string).collect()),
        moves(&fen)
    );
    // `numbers:` in another order reads the same; it is written square by square from a1.
    let shown = common::show_json(&[
        GAME,
        "--fen",
        "x7/8/8/4r3/8/8/4m3/2K3k1 b - - 1 1 numbers:a8=13,e2=10",
    ]);
    assert_eq!(
        shown["fen"],
        "x7/8/8/4r3/8/8/4m3/2K3k1 b - - 1 1 numbers:e2=10,a8=13"
    );
}

#[test]
fn a_red_fen_without_its_turn_is_an_error() {
    for fen in [
        "4x3/8/8/8/3m4/8/8/2K3k1 r - - 0 1",
        "tmszxsmt/oooooooo/8/8/8/2P5/PP1Ppppp/RNBKkbnr r Qkxz - 0 1",
    ] {
        let output = common::variant(&["show", GAME, "--fen", fen, "--json"]);
        assert!(!output.status.success(), "{fen} was accepted");
        let message = common::stderr(&output);
        assert!(
            message.contains("turn:2") && message.contains("turn:4"),
            "{message}"
        );
        let output = common::variant(&["policy", GAME, "--fen", fen, "--json"]);
        assert!(!output.status.success(), "policy accepted {fen}");
    }
    // A turn that is not Red's.
    let output = common::variant(&[
        "show",
        GAME,
        "--fen",
        "4x3/8/8/8/3m4/8/8/2K3k1 r - - 0 1 turn:3",
    ]);
    assert!(!output.status.success());
    assert!(common::stderr(&output).contains("turn:3"));
}
