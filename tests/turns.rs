//! Turns of several actions and the expression terms that speak of them, on a small test
//! variant (`tests/variants/two-actions.variant`): up to two actions a turn, not maximal (a side
//! may end its turn early with `pass`), drops beside the own King (`adjacent to own King`), at
//! most one drop per turn (`drops this turn`), a piece that acted may not act again (`acted this
//! turn`), a King attacked at the start of the turn may move only first (`at turn start`), and
//! `pass` when nothing else is legal. Each position here is checked by hand.

use variant_interpreter::Session;

fn open(fen: Option<&str>) -> Box<dyn Session> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/variants/two-actions.variant");
    let definition = variant_dsl::load_file(&path)
        .unwrap_or_else(|f| panic!("{}", f.render()))
        .definition;
    variant_interpreter::open(&definition, fen).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(session: &dyn Session) -> Vec<String> {
    let mut moves = session.legal_moves();
    moves.sort();
    moves
}

fn play(session: &mut dyn Session, line: &str) {
    for action in line.split_whitespace() {
        session
            .play(action)
            .unwrap_or_else(|e| panic!("{action}: {e}"));
    }
}

#[test]
fn drops_go_beside_the_own_king_one_per_turn() {
    let mut session = open(None);
    // White's King on e1: its neighbours d1, d2, e2.
    assert_eq!(
        legal(session.as_ref()),
        ["P@d1", "P@d2", "P@e2", "R@d1", "R@d2", "R@e2", "e1d1", "e1d2", "e1e2"]
    );
    play(session.as_mut(), "R@d2");
    // Second action: no second drop; the dropped Rook may not move; `pass` ends the turn.
    assert_eq!(legal(session.as_ref()), ["e1d1", "e1e2", "pass"]);
    assert!(session
        .explain("P@d1")
        .reason()
        .contains("must drops this turn = 0"));
    assert!(session
        .explain("d2d4")
        .reason()
        .contains("must not move from acted this turn"));
    play(session.as_mut(), "e1e2");
    // Two actions: Black's turn. Its King on a5 drops beside itself.
    assert_eq!(session.side_to_move(), "black");
    assert!(legal(session.as_ref()).contains(&"R@b5".to_string()));
    assert!(!legal(session.as_ref()).contains(&"R@e4".to_string()));
}

#[test]
fn a_turn_may_end_early_with_a_pass() {
    let mut session = open(None);
    play(session.as_mut(), "e1d1 pass");
    assert_eq!(session.side_to_move(), "black");
    assert!(session
        .explain("pass")
        .reason()
        .contains("after its first action"));
    assert!(!legal(session.as_ref()).contains(&"pass".to_string()));
}

#[test]
fn an_attacked_king_moves_first_or_not_at_all() {
    // Black's Rook on e5 attacks White's King on e1 at the start of White's turn.
    let fen = "4k/4r/5/R4/4K[R] w - - 0 1";
    let mut session = open(Some(fen));
    assert!(legal(session.as_ref()).contains(&"e1d1".to_string()));
    play(session.as_mut(), "a2a3");
    let second = legal(session.as_ref());
    assert_eq!(second, ["R@d1", "R@d2", "R@e2", "pass"]);
    assert!(session
        .explain("e1d1")
        .reason()
        .contains("at turn start (some (own King and attacked by opponent))"));
    // Not attacked at the start of the turn: the King may move second.
    let mut quiet = open(Some("4k/3r1/5/R4/4K[R] w - - 0 1"));
    play(quiet.as_mut(), "a2a3");
    assert!(legal(quiet.as_ref()).contains(&"e1d1".to_string()));
}

#[test]
fn a_side_without_an_action_passes_and_passes_repeat() {
    // White's King is boxed in by its own blocked Pawns; Black's Pawns are blocked too.
    let fen = "4k/5/pp3/PP3/KP3[] w - - 0 1";
    let mut session = open(Some(fen));
    assert_eq!(legal(session.as_ref()), ["pass"]);
    play(session.as_mut(), "pass");
    assert_eq!(legal(session.as_ref()), ["e5d4", "e5d5", "e5e4"]);
    // After Black's King steps and has nothing more to do, the turn ends by itself.
    play(session.as_mut(), "e5e4");
    assert_eq!(session.side_to_move(), "white");
    play(session.as_mut(), "pass e4e5 pass e5e4 pass");
    assert_eq!(session.outcome(), None);
    play(session.as_mut(), "e4e5");
    let outcome = session
        .outcome()
        .expect("the third occurrence ends the game");
    assert_eq!(outcome.description(), "draw by repetition");
}

#[test]
fn the_turn_state_is_in_the_fen() {
    let mut session = open(Some("4k/4r/5/R4/4K[Rr] w - - 0 1"));
    play(session.as_mut(), "R@d2");
    let fen = session.fen();
    assert_eq!(
        fen,
        "4k/4r/5/R2R1/4K[r] w - - 1 1 actions:1 drops:1 acted:d2 start:1"
    );
    let reopened = open(Some(&fen));
    assert_eq!(reopened.fen(), fen);
    assert_eq!(legal(reopened.as_ref()), legal(session.as_ref()));
    // The start of a turn needs no turn fields; the middle of one cannot do without them.
    assert!(variant_interpreter::open(
        reopened.definition(),
        Some("4k/4r/5/R2R1/4K[r] w - - 1 1 actions:1")
    )
    .is_ok());
}
