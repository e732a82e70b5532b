//! Gating (docs/language.md §2.9.1), on the real binary: Seirawan chess played at the prompt with
//! gating moves in both notations, its FENs written back as read, refused FENs, and the
//! diagnostics of a `gating` statement the FEN could not write. Agreement with Fairy-Stockfish
//! along random games is tests/library.rs's (tests/fsf/seirawan.txt).

mod common;

use common::{run_in, stderr, stdout, variant};
use std::path::PathBuf;

/// A fresh directory of this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-gating-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The FEN line of `variant show GAME --fen FEN`.
fn shown_fen(game: &str, fen: &str) -> String {
    let output = variant(&["show", game, "--fen", fen]);
    assert!(output.status.success(), "{fen}: {}", stderr(&output));
    stdout(&output)
        .lines()
        .find_map(|line| line.strip_prefix("FEN: "))
        .expect("a FEN line")
        .to_string()
}

#[test]
fn seirawan_fens_are_written_back_as_read() {
    for fen in [
        // After b1c3h b8c6e: the gating rights of b1 and b8 are gone.
        "rebqkbnr/pppppppp/2n5/8/8/2N5/PPPPPPPP/RHBQKBNR[Eh] w KQCDFGkqcdfg - 2 2",
        // White's hand is empty: it holds no gating right, castling rights only.
        "rebqkbnr/pppppppp/2n5/8/8/2N2N2/PPPPPPPP/RHBQKBER[h] b KQkqcdfg - 3 2",
        // The King moved: the Rooks' squares are written by their files.
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R[EHeh] b AHkq - 1 1",
        // Only the King's square is left.
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1[EHeh] w Ekq - 0 1",
    ] {
        assert_eq!(shown_fen("seirawan", fen), fen);
    }
}

#[test]
fn seirawan_refuses_gating_rights_it_cannot_hold() {
    // No white piece on b1.
    let output = variant(&[
        "show",
        "seirawan",
        "--fen",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQBkq - 0 1",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("gating right `B` needs a white piece on b1"),
        "{}",
        stderr(&output)
    );
    // An empty hand that never fills again holds no gating right.
    let output = variant(&[
        "show",
        "seirawan",
        "--fen",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/RN2K2R[eh] w KQBkq - 0 1",
    ]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("has no piece in hand to gate"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn seirawan_plays_gating_moves_at_the_prompt() {
    let dir = scratch("play");
    // A gating move in SAN, one in the game's notation, the moves listed, then castling that
    // gates on the rook's square, and the board.
    let script = "Nc3/H\ng8f6\ne2e3\ne7e6\ng1f3\nf8e7\nf1e2\nb8c6e\nmoves\nh1e1e\nboard\nquit\n";
    let output = run_in(
        &dir,
        &["play", "seirawan", "--white", "human", "--black", "human"],
        script,
    );
    let transcript = stdout(&output);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!transcript.contains("not legal"), "{transcript}");
    for listed in [
        "O-O/Eh1 (h1e1e)",
        "O-O/Ee1 (e1g1e)",
        "Rg1/E (h1g1e)",
        "Kf1/E (e1f1e)",
    ] {
        assert!(transcript.contains(listed), "{listed}: {transcript}");
    }
    // As pyffish gives it after b1c3h g8f6 e2e3 e7e6 g1f3 f8e7 f1e2 b8c6e h1e1e.
    assert!(
        transcript.contains("rebqk2r/ppppbppp/2n1pn2/8/8/2N1PN2/PPPPBPPP/RHBQ1RKE[h] b kqcd - 5 5"),
        "{transcript}"
    );
}

/// A game file with this `gating` line (and `castling` block) beside chess's.
fn gating_game(dir: &std::path::Path, gating: &str) -> String {
    let text = format!(
        "extends \"chess\"\ngame \"Gated\"\n{gating}\n\
         setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQBCDFGkqbcdfg - 0 1\"\n"
    );
    std::fs::write(dir.join("gated.variant"), text).expect("writes");
    "gated.variant".to_string()
}

#[test]
fn gating_statements_a_fen_cannot_write_are_refused() {
    let dir = scratch("diagnostics");
    let game = gating_game(&dir, "gating from ranks 1-2");
    let output = run_in(&dir, &["check", &game], "");
    assert!(!output.status.success());
    let text = stderr(&output);
    assert!(text.contains("E0604"), "{text}");
    assert!(text.contains("two squares of the file a"), "{text}");

    // On a 12-file board the file k would be written `K`, White's castling letter.
    let text = "extends \"chess\"\ngame \"Wide\"\nboard 12x8\n\
                gating from rank 1\n\
                setup \"rnbqkbnr4/pppppppp4/12/12/12/12/PPPPPPPP4/RNBQKBNR4[Qq] w KQkq - 0 1\"\n";
    std::fs::write(dir.join("wide.variant"), text).expect("writes");
    let output = run_in(&dir, &["check", "wide.variant"], "");
    assert!(!output.status.success());
    let text = stderr(&output);
    assert!(text.contains("E0604"), "{text}");
    assert!(text.contains("would be written `K`"), "{text}");

    // A valid one: a Queen in hand gates anywhere on the first rank.
    let game = gating_game(&dir, "gating from rank 1");
    let output = run_in(&dir, &["moves", &game], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).lines().any(|m| m == "g1f3q"));
}
