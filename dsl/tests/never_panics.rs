//! Loading never panics: not on arbitrary text, not on random damage to a real game file.
//!
//! Whatever the input, `load_source` returns a definition or diagnostics, and rendering the
//! diagnostics works too.

use proptest::prelude::*;

const CHESS: &str = include_str!("../../games/chess.variant");

/// Loads `text` and renders whatever comes out; panics are the only failure.
fn load_and_render(text: &str) {
    match variant_dsl::load_source("fuzz.variant", text) {
        Ok(loaded) => {
            let _ = loaded.render();
            let _ = loaded.definition.to_ron();
        }
        Err(failure) => {
            assert!(failure.diagnostics.has_errors());
            let _ = failure.render();
        }
    }
}

/// One edit of the bytes of a file.
#[derive(Clone, Debug)]
enum Damage {
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    Replace { at: usize, byte: u8 },
    Duplicate { at: usize, len: usize },
}

fn damage() -> impl Strategy<Value = Damage> {
    let at = 0..CHESS.len();
    prop_oneof![
        (at.clone(), 1..40usize).prop_map(|(at, len)| Damage::Delete { at, len }),
        (at.clone(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Damage::Insert { at, bytes }),
        (
            at.clone(),
            prop_oneof![any::<u8>(), Just(b'{'), Just(b'}'), Just(b'"'), Just(b'\n')]
        )
            .prop_map(|(at, byte)| Damage::Replace { at, byte }),
        (at, 1..200usize).prop_map(|(at, len)| Damage::Duplicate { at, len }),
    ]
}

fn apply(bytes: &mut Vec<u8>, damage: &Damage) {
    match damage {
        Damage::Delete { at, len } => {
            let at = (*at).min(bytes.len());
            let end = (at + len).min(bytes.len());
            bytes.drain(at..end);
        }
        Damage::Insert {
            at,
            bytes: inserted,
        } => {
            let at = (*at).min(bytes.len());
            bytes.splice(at..at, inserted.iter().copied());
        }
        Damage::Replace { at, byte } => {
            if let Some(target) = bytes.get_mut(*at) {
                *target = *byte;
            }
        }
        Damage::Duplicate { at, len } => {
            let at = (*at).min(bytes.len());
            let end = (at + len).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            bytes.splice(at..at, copy);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        load_and_render(&text);
    }

    #[test]
    fn language_like_text_never_panics(
        words in proptest::collection::vec(
            prop_oneof![
                Just("game"), Just("board"), Just("side"), Just("piece"), Just("setup"), Just("end"),
                Just("castling"), Just("turns"), Just("phase"), Just("{"), Just("}"), Just("\n"),
                Just(";"), Just("\"K\""), Just("\"mfW cfeF\""), Just("8x8"), Just("0x0"), Just("white"),
                Just("letter K"), Just("moves"), Just("promotes on last rank to"), Just("rank 2"),
                Just("\"8/8/8/8/8/8/8/8 w - - 0 1\""), Just("e1-g1"), Just("extends"), Just("//"),
            ],
            0..40,
        )
    ) {
        load_and_render(&words.join(" "));
    }

    #[test]
    fn damaged_chess_never_panics(damages in proptest::collection::vec(damage(), 1..6)) {
        let mut bytes = CHESS.as_bytes().to_vec();
        for damage in &damages {
            apply(&mut bytes, damage);
        }
        load_and_render(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn any_betza_string_never_panics(betza in "[a-zA-Z0-9 ]{0,20}|\\PC{0,10}") {
        let text = CHESS.replace("moves \"N\"", &format!("moves {betza:?}"));
        load_and_render(&text);
    }

    #[test]
    fn any_setup_never_panics(fen in "[rnbqkpRNBQKP1-9/* \\[\\]wb-]{0,80}") {
        let start = CHESS.find("setup \"").expect("chess has a setup");
        let end = start + CHESS[start..].find('\n').expect("one line");
        let text = format!("{}setup {fen:?}{}", &CHESS[..start], &CHESS[end..]);
        load_and_render(&text);
    }
}
