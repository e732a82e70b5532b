//! Board pictures through the real binary: `show --svg` and `replay --svg`. Every picture must
//! be well-formed XML with one `data-square` per square of the board (holes left out), and its
//! pieces must stand where the FEN puts them, with their letters and sides.

mod common;

use common::{games, stderr, variant};
use std::path::PathBuf;

/// A fresh folder for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-svg-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// `variant show ARGS... --svg FILE`, which must succeed; the picture's text.
fn picture(name: &str, args: &[&str]) -> String {
    let file = scratch(name).join("board.svg");
    let mut all = vec!["show"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--svg", file.to_str().expect("utf-8 path")]);
    let output = variant(&all);
    assert!(output.status.success(), "{}", stderr(&output));
    std::fs::read_to_string(&file).expect("the picture was written")
}

/// The squares of a picture, by name.
fn squares(document: &roxmltree::Document) -> Vec<String> {
    document
        .descendants()
        .filter_map(|node| node.attribute("data-square"))
        .map(String::from)
        .collect()
}

/// The pieces on the board: `(square, letter, side)`, each read from a piece element and the
/// square element that holds it.
fn pieces_on_board(document: &roxmltree::Document) -> Vec<(String, String, String)> {
    let mut found: Vec<(String, String, String)> = document
        .descendants()
        .filter_map(|node| {
            let letter = node.attribute("data-piece")?;
            let side = node.attribute("data-side")?;
            let square = node.ancestors().find_map(|a| a.attribute("data-square"))?;
            Some((square.to_string(), letter.to_string(), side.to_string()))
        })
        .collect();
    found.sort();
    found
}

#[test]
fn every_game_draws_well_formed_svg_with_a_square_element_per_square() {
    for game in games() {
        let text = picture(&format!("all-{game}"), &[&game]);
        let document = roxmltree::Document::parse(&text)
            .unwrap_or_else(|error| panic!("{game}: not XML: {error}"));
        assert_eq!(document.root_element().tag_name().name(), "svg", "{game}");
        let squares = squares(&document);
        // The board's squares, holes left out (41 on Takeover Chess's board, 80 on Gothic's).
        let board = variant_dsl::load_file(&common::games_dir().join(format!("{game}.variant")))
            .expect("loads")
            .definition
            .board;
        let expected = board.files as usize * board.ranks as usize - board.holes.len();
        assert_eq!(squares.len(), expected, "{game}");
        let mut unique = squares.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), squares.len(), "{game}: a square drawn twice");
    }
}

#[test]
fn takeover_chess_leaves_its_holes_out() {
    let text = picture("holes", &["takeover-chess"]);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let squares = squares(&document);
    for hole in ["a1", "a2", "g1", "g2", "a6", "a7", "g6", "g7"] {
        assert!(!squares.iter().any(|s| s == hole), "hole {hole} drawn");
    }
    assert!(squares.iter().any(|s| s == "d4"));
}

#[test]
fn pieces_stand_where_the_fen_puts_them() {
    let text = picture(
        "fen",
        &["chess", "--fen", "4k3/8/8/8/8/8/4P3/R3K3 w Q - 0 1"],
    );
    let document = roxmltree::Document::parse(&text).expect("XML");
    let expected: Vec<(String, String, String)> = [
        ("a1", "R", "white"),
        ("e1", "K", "white"),
        ("e2", "P", "white"),
        ("e8", "k", "black"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(pieces_on_board(&document), expected);
}

#[test]
fn three_sides_get_three_colours() {
    let text = picture("three", &["cooperative-chess"]);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let mut sides: Vec<String> = pieces_on_board(&document)
        .into_iter()
        .map(|(_, _, side)| side)
        .collect();
    sides.sort();
    sides.dedup();
    assert_eq!(sides, ["black", "red", "white"]);
    let fill_of = |side: &str| {
        document
            .descendants()
            .find(|n| n.attribute("data-side") == Some(side))
            .and_then(|n| n.descendants().find_map(|d| d.attribute("fill")))
            .map(String::from)
    };
    let fills = [fill_of("white"), fill_of("black"), fill_of("red")];
    assert!(fills.iter().all(Option::is_some), "{fills:?}");
    assert_ne!(fills[0], fills[1]);
    assert_ne!(fills[1], fills[2]);
    assert_ne!(fills[0], fills[2]);
}

#[test]
fn the_last_move_gets_an_arrow_and_hands_are_drawn_by_owner() {
    let text = picture("arrow", &["chess", "--play", "e4"]);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let arrows = document
        .descendants()
        .filter(|n| n.attribute("class") == Some("last-move"))
        .count();
    assert_eq!(arrows, 1);

    let text = picture("hands", &["kingdrops", "--play", "K@e1"]);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let owners: Vec<&str> = document
        .descendants()
        .filter(|n| n.attribute("data-pocket") == Some("hand"))
        .filter_map(|n| n.attribute("data-owner"))
        .collect();
    assert_eq!(owners, ["white", "black"]);
    // White placed its king: its hand holds no king any more, Black's still does.
    let kings_in_hand: Vec<&str> = document
        .descendants()
        .filter(|n| {
            n.attribute("data-piece")
                .is_some_and(|p| p.eq_ignore_ascii_case("k"))
        })
        .filter(|n| n.ancestors().any(|a| a.attribute("data-pocket").is_some()))
        .filter_map(|n| n.attribute("data-side"))
        .collect();
    assert_eq!(kings_in_hand, ["black"]);
}

#[test]
fn the_control_overlay_marks_each_sides_squares() {
    let text = picture("control", &["cheversi", "--play", "K@e4 Q@e5", "--control"]);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let marks = |side: &str| {
        document
            .descendants()
            .filter(|n| n.attribute("data-control") == Some(side))
            .count()
    };
    let json = common::show_json(&["cheversi", "--play", "K@e4 Q@e5"]);
    for side in ["white", "black"] {
        let controlled = json["control"][side]
            .as_array()
            .expect("control list")
            .len();
        assert!(controlled > 0);
        assert_eq!(marks(side), controlled, "{side}");
    }
    // Without --control, no marks.
    let plain = picture("no-control", &["cheversi", "--play", "K@e4 Q@e5"]);
    assert!(!plain.contains("data-control"));
}

#[test]
fn replay_writes_one_picture_per_position() {
    let dir = scratch("replay");
    let record = dir.join("game.pgn");
    let output = common::run_in(
        &dir,
        &[
            "play", "coverage", "--white", "random", "--black", "random", "--seed", "3",
            "--record", "game.pgn",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let pictures = dir.join("pictures");
    let output = common::run_in(
        &dir,
        &[
            "replay",
            record.to_str().expect("utf-8"),
            "--svg",
            pictures.to_str().expect("utf-8"),
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let json = variant(&["replay", record.to_str().expect("utf-8")]);
    let moves = common::stdout(&json)
        .lines()
        .filter(|line| {
            line.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .count();
    assert!(moves > 0);
    let mut written: Vec<String> = std::fs::read_dir(&pictures)
        .expect("pictures folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    written.sort();
    assert_eq!(written.len(), moves + 1, "{written:?}");
    assert_eq!(written[0], "000.svg");
    for name in &written {
        let text = std::fs::read_to_string(pictures.join(name)).expect("readable");
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert!(common::stdout(&output).contains(&format!("Pictures: {} SVG files", moves + 1)));
}

#[test]
fn an_unwritable_svg_file_is_a_clear_error() {
    let output = variant(&["show", "chess", "--svg", "/nonexistent-dir/board.svg"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("cannot write `/nonexistent-dir/board.svg`"));
}

/// The pictures in the README, with the arguments of `show` that draw each.
const DOC_PICTURES: [(&str, &[&str]); 5] = [
    ("chess.svg", &["chess", "--play", "e4 e5 Nf3"]),
    ("takeover-chess.svg", &["takeover-chess"]),
    (
        "cooperative-chess.svg",
        &["cooperative-chess", "--play", "a2a3"],
    ),
    (
        "kingdrops.svg",
        &["kingdrops", "--play", "K@e1 Q@d1 R@a1 G@d2"],
    ),
    (
        "cheversi.svg",
        &["cheversi", "--play", "K@e4 Q@e5 Q@d4 N@f6", "--control"],
    ),
];

/// The README's pictures are what the renderer draws now; `UPDATE_PICTURES=1` redraws them.
#[test]
fn the_readme_pictures_are_up_to_date() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/pictures");
    let update = std::env::var_os("UPDATE_PICTURES").is_some();
    for (file, args) in DOC_PICTURES {
        let fresh = picture(&format!("doc-{file}"), args);
        let path = folder.join(file);
        if update {
            std::fs::create_dir_all(&folder).expect("docs/pictures");
            std::fs::write(&path, &fresh).expect("written");
        }
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == fresh,
            "{file} is not what `variant show {}` draws: rerun with UPDATE_PICTURES=1",
            args.join(" ")
        );
    }
}

#[test]
fn a_16x16_board_has_256_squares_named_up_to_p16() {
    let dir = scratch("big");
    let game = dir.join("big.variant");
    std::fs::write(
        &game,
        r#"game "Big"
board 16x16
side white { forward up }
side black { forward down }
piece King { letter K; royal; moves "K" }
setup "k15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15K w - - 0 1"
end { check; checkmate loses; stalemate draws }
"#,
    )
    .expect("game written");
    let text = picture("big-picture", &[game.to_str().expect("utf-8")]);
    let document = roxmltree::Document::parse(&text).expect("XML");
    let squares = squares(&document);
    assert_eq!(squares.len(), 256);
    assert!(squares.iter().any(|s| s == "p16"));
    let expected = vec![
        ("a16".to_string(), "k".to_string(), "black".to_string()),
        ("p1".to_string(), "K".to_string(), "white".to_string()),
    ];
    assert_eq!(pieces_on_board(&document), expected);
}
