//! What a variant inherits through `extends`: pieces it leaves out of play are not warned
//! about, and `remove piece` deletes one.

use std::fs;
use std::path::{Path, PathBuf};
use variant_dsl::{load_file_with, Failure, LoadOptions, Loaded};

/// Loads `text` as `name` in a fresh directory, with the shipped games as the search path.
fn load(name: &str, text: &str) -> Result<Loaded, Failure> {
    let dir = std::env::temp_dir().join(format!(
        "variant-inheritance-{}-{}",
        std::process::id(),
        name.trim_end_matches(".variant")
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), text).unwrap();
    let games: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    load_file_with(&dir.join(name), &LoadOptions::with_search_path([games]))
}

/// Los Alamos chess: 6x6, no bishops; `removal` is inserted after the board. The pawn's
/// promotions and the end rules name no bishop.
fn los_alamos(removal: &str) -> String {
    format!(
        "extends \"chess\"\ngame \"Los Alamos Chess\"\nboard 6x6\n{removal}\npiece Pawn {{\n    letter P\n    value 1\n    moves \"mfW cfF\"\n    promotes on last rank to Queen Rook Knight\n    irreversible\n}}\ncastling {{ }}\nsetup \"rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\"\nend {{ check; checkmate loses; stalemate draws; material King King draws }}\n"
    )
}

#[test]
fn an_inherited_piece_out_of_play_is_not_warned_about() {
    let loaded = load("los-alamos.variant", &los_alamos(""))
        .unwrap_or_else(|failure| panic!("{}", failure.render()));
    assert!(loaded.warnings.is_empty(), "{}", loaded.render());
    let names: Vec<&str> = loaded
        .definition
        .pieces
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"]);
}

#[test]
fn a_piece_declared_in_the_file_and_never_used_is_still_warned_about() {
    let text = los_alamos("piece Camel { letter C; moves \"C\" }");
    let loaded = load("camel.variant", &text).unwrap_or_else(|f| panic!("{}", f.render()));
    let rendered = loaded.render();
    assert_eq!(loaded.warnings.len(), 1, "{rendered}");
    assert!(
        rendered.starts_with("warning[W0001]: the piece `Camel` never appears"),
        "{rendered}"
    );
}

#[test]
fn remove_piece_deletes_an_inherited_piece() {
    let loaded = load("removed.variant", &los_alamos("remove piece Bishop"))
        .unwrap_or_else(|failure| panic!("{}", failure.render()));
    assert!(loaded.warnings.is_empty(), "{}", loaded.render());
    let names: Vec<&str> = loaded
        .definition
        .pieces
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["King", "Queen", "Rook", "Knight", "Pawn"]);
    let promotion = loaded.definition.pieces[4].promotion.as_ref().unwrap();
    assert_eq!(promotion.choices.len(), 3);
}

#[test]
fn a_misspelt_removal_is_an_error_with_a_suggestion() {
    let failure = load("misspelt.variant", &los_alamos("remove piece Bishp")).unwrap_err();
    let rendered = failure.render();
    assert_eq!(failure.diagnostics.len(), 1, "{rendered}");
    assert!(
        rendered.starts_with("error[E0101]: there is no inherited piece `Bishp` to remove"),
        "{rendered}"
    );
    assert!(rendered.contains("misspelt.variant:4:14"), "{rendered}");
    assert!(
        rendered.contains("help: did you mean `Bishop`?"),
        "{rendered}"
    );
}

#[test]
fn removing_in_a_file_without_parent_is_an_error() {
    let text = "game \"x\"\nboard 3x3\nside white {}\npiece King { royal; moves \"K\" }\nremove piece King\nsetup \"3/3/2K w - -\"\n";
    let rendered = load("orphan.variant", text).unwrap_err().render();
    assert!(
        rendered.contains("there is no inherited piece `King` to remove"),
        "{rendered}"
    );
    assert!(
        rendered.contains(
            "help: `remove piece` takes out a piece declared by the game named by `extends`"
        ),
        "{rendered}"
    );
}

#[test]
fn an_inherited_statement_naming_a_removed_piece_is_reported_where_it_is_written() {
    let failure = load("half.variant", "extends \"chess\"\nremove piece Bishop\n").unwrap_err();
    let messages: Vec<String> = failure
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect();
    assert_eq!(
        messages,
        [
            "unknown piece `Bishop` in `promotes`",
            "invalid setup: unknown piece letter `b`",
            "unknown piece `Bishop` in `material`",
        ]
    );
    let rendered = failure.render();
    assert!(rendered.contains("chess.variant:52:"), "{rendered}");
}
