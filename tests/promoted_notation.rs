//! Promoted forms (`letter +P`, docs/language.md §2.6.2) as a person sees and types them: the
//! text boards of `show` and `play` and the SVG picture write them as a FEN does (`+P`, `+p`),
//! not as the piece they promoted from; and `play` understands them in short algebraic
//! notation (`+Pc8`, `+Pab5`, `c7=+P`) as well as in the game's notation (`c6c7+`).

mod common;

use common::{run_in, temporary_dir, text, variant};

/// Shogi with a tokin on c7 for each side's view: sente's on c7, gote's on g3.
const TOKINS: &str = "4k4/9/2+P6/9/9/9/6+p2/9/4K4[] w - - 0 1";

#[test]
fn show_draws_a_promoted_form_with_its_plus_and_widens_every_column() {
    let output = variant(&["show", "shogi", "--fen", TOKINS]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains(" 7   .  . +P  .  .  .  .  .  .\n"), "{out}");
    assert!(out.contains(" 3   .  .  .  .  .  . +p  .  .\n"), "{out}");
    assert!(out.contains("\n     a  b  c  d  e  f  g  h  i\n"), "{out}");
    // A game without promoted forms keeps its narrow columns.
    let chess = text(&variant(&["show", "chess"]).stdout);
    assert!(chess.contains(" 1  R N B Q K B N R\n"), "{chess}");
}

#[test]
fn the_svg_picture_names_a_promoted_form_and_writes_its_plus() {
    let dir = temporary_dir("promoted-svg");
    let file = dir.join("board.svg");
    let output = variant(&[
        "show",
        "shogi",
        "--fen",
        TOKINS,
        "--svg",
        file.to_str().expect("utf-8"),
    ]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let svg = std::fs::read_to_string(&file).expect("written");
    assert!(
        svg.contains(r#"<g data-piece="+P" data-side="sente"><title>sente Tokin</title>"#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"<g data-piece="+p" data-side="gote"><title>gote Tokin</title>"#),
        "{svg}"
    );
    assert!(svg.contains(">+P</text>"), "{svg}");
}

/// `play` from `fen` with gote random, the lines typed, and the transcript.
fn play(name: &str, fen: &str, typed: &str) -> String {
    let dir = temporary_dir(name);
    let output = run_in(
        &dir,
        &[
            "play", "shogi", "--fen", fen, "--gote", "random", "--seed", "1",
        ],
        typed,
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    text(&output.stdout)
}

#[test]
fn a_promotion_is_typed_as_play_writes_it_or_in_the_games_notation() {
    let fen = "4k4/9/9/2P6/9/9/9/9/4K4[] w - - 0 1";
    for typed in ["Pc7=+P", "Pc7+P", "c6c7+"] {
        let out = play(
            &format!("promote-{}", typed.len()),
            fen,
            &format!("{typed}\n"),
        );
        assert!(
            out.contains(&format!("sente> {typed}\ngote plays")),
            "{typed}: {out}"
        );
        assert!(out.contains(" 7   .  . +P  .  ."), "{typed}: {out}");
    }
    // Without the promotion: the pawn stays a pawn.
    let out = play("promote-no", fen, "Pc7\n");
    assert!(out.contains(" 7   .  .  P  .  ."), "{out}");
}

#[test]
fn a_promoted_form_moves_by_its_plus_letter() {
    // Tokins on a4 and c4 both reach b5; the pawn on e4 is another piece.
    let fen = "4k4/9/9/9/9/+P1+P1P4/9/9/4K4[] w - - 0 1";
    let out = play("tokin-moves", fen, "moves\n+Pb5\n+Pa4b5\n");
    assert!(out.contains("+Pab5 (a4b5)"), "the SAN written: {out}");
    assert!(
        out.contains("`+Pb5` is ambiguous: it could be +Pab5 or +Pcb5"),
        "{out}"
    );
    assert!(out.contains("sente> +Pa4b5\ngote plays"), "{out}");
    assert!(out.contains(" 5   . +P  .  .  ."), "{out}");
    // `P` is the pawn, not the tokin: no pawn reaches b5.
    let pawn = play("tokin-pawn", fen, "Pb5\n");
    assert!(pawn.contains("`Pb5` is not legal"), "{pawn}");
}

/// Sittuyin's promotion in place (`promotes in place or by "mF" to Ferz`): listed by `moves`
/// with the square twice (`d5d5f`) or after the step (`d5e6f`), and played at the prompt in
/// either notation; the pawn becomes a general where it stands.
#[test]
fn a_promotion_in_place_is_listed_and_played() {
    let fen = "4k3/8/8/3P4/8/8/4P3/4K3[] w - - 0 1";
    let moves = text(&variant(&["moves", "sittuyin", "--fen", fen]).stdout);
    for listed in ["d5d5f", "d5e6f", "d5c4f", "d5d6"] {
        assert!(
            moves.lines().any(|line| line == listed),
            "{listed}: {moves}"
        );
    }
    for typed in ["d5d5f", "Pd5=F"] {
        let dir = temporary_dir(&format!("in-place-{}", typed.len()));
        let output = run_in(
            &dir,
            &[
                "play", "sittuyin", "--fen", fen, "--black", "random", "--seed", "1",
            ],
            &format!("{typed}\n"),
        );
        let out = text(&output.stdout);
        assert!(
            out.contains(&format!("white> {typed}\nblack plays")),
            "{out}"
        );
        assert!(out.contains(" 5  . . . F . . . .\n"), "{typed}: {out}");
    }
}
