//! Reading game files from disk: only regular files, `extends` chains of bounded depth, a
//! byte-order mark ignored, parents found in the search folders.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;
use variant_dsl::{load_file, load_file_with, LoadOptions, MAX_EXTENDS_DEPTH};

/// The shipped games, the folder the command line searches last.
fn games_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../games")
}

/// A fresh empty directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variant-loading-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Loads `path` on another thread, so that a load that blocks fails the test instead of
/// hanging it.
fn load_within_seconds(path: PathBuf, seconds: u64) -> String {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let rendered = match load_file(&path) {
            Ok(_) => "loaded".to_string(),
            Err(failure) => failure.render(),
        };
        let _ = sender.send(rendered);
    });
    receiver
        .recv_timeout(Duration::from_secs(seconds))
        .expect("loading must not block")
}

#[cfg(unix)]
fn make_fifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo failed");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = scratch("fifo");
    let fifo = dir.join("f.variant");
    make_fifo(&fifo);
    let rendered = load_within_seconds(fifo, 10);
    assert!(
        rendered.starts_with(&format!(
            "error[E0007]: cannot read `{}`: it is a named pipe (FIFO), not a regular file",
            dir.join("f.variant").display()
        )),
        "{rendered}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_named_by_extends_is_refused_at_the_extends() {
    let dir = scratch("fifo-parent");
    make_fifo(&dir.join("parent.variant"));
    fs::write(
        dir.join("child.variant"),
        "game \"x\"\nextends \"parent\"\n",
    )
    .unwrap();
    let rendered = load_within_seconds(dir.join("child.variant"), 10);
    assert!(
        rendered.contains("it is a named pipe (FIFO), not a regular file"),
        "{rendered}"
    );
    assert!(rendered.contains("child.variant:2:9"), "{rendered}");
}

#[test]
fn a_directory_is_refused() {
    let dir = scratch("directory");
    fs::create_dir(dir.join("d.variant")).unwrap();
    let rendered = load_within_seconds(dir.join("d.variant"), 10);
    assert!(rendered.contains(": it is a directory"), "{rendered}");
}

/// Writes `d0.variant` extending `d1` ... extending `d{depth}`, which is chess.
fn chain(dir: &Path, depth: usize) {
    for level in 0..depth {
        let text = format!("extends \"d{}\"\n", level + 1);
        fs::write(dir.join(format!("d{level}.variant")), text).unwrap();
    }
    let chess = fs::read_to_string(games_folder().join("chess.variant")).unwrap();
    fs::write(dir.join(format!("d{depth}.variant")), chess).unwrap();
}

#[test]
fn an_extends_chain_at_the_limit_loads() {
    let dir = scratch("deep-enough");
    chain(&dir, MAX_EXTENDS_DEPTH);
    let loaded = load_file(&dir.join("d0.variant")).unwrap_or_else(|f| panic!("{}", f.render()));
    assert_eq!(loaded.definition.name, "Chess");
    assert_eq!(loaded.sources.files().count(), MAX_EXTENDS_DEPTH + 1);
}

#[test]
fn an_extends_chain_beyond_the_limit_names_the_file() {
    let dir = scratch("too-deep");
    chain(&dir, 10_000);
    let failure = load_file(&dir.join("d0.variant")).unwrap_err();
    let rendered = failure.render();
    assert_eq!(failure.diagnostics.len(), 1, "{rendered}");
    let headline = format!(
        "error[E0009]: `extends` is nested more than 64 deep: `{}` extends `d65.variant`",
        dir.join("d64.variant").display()
    );
    assert!(rendered.starts_with(&headline), "{rendered}");
    assert!(rendered.contains("d64.variant:1:9"), "{rendered}");
    assert_eq!(
        failure.sources.files().count(),
        MAX_EXTENDS_DEPTH + 1,
        "no file beyond the limit is read"
    );
}

/// An error inside a grandparent points back along the chain: at the `extends` that read the
/// file, then at the one that read its child, up to the file loaded.
#[test]
fn an_error_in_an_extended_file_points_back_along_the_extends_chain() {
    let dir = scratch("error-up-the-chain");
    chain(&dir, 2);
    let grandparent = dir.join("d2.variant");
    let chess = fs::read_to_string(&grandparent).unwrap();
    fs::write(&grandparent, chess.replace("to Queen Rook", "to Queen Rok")).unwrap();
    let failure = load_file(&dir.join("d0.variant")).unwrap_err();
    let diagnostic = failure.diagnostics.iter().next().expect("an error");
    assert_eq!(failure.diagnostics.len(), 1, "{}", failure.render());
    let labels: Vec<(String, &str)> = diagnostic
        .secondary
        .iter()
        .map(|label| {
            let file = failure.sources.name(label.span.file);
            let name = Path::new(file).file_name().unwrap().to_string_lossy();
            (name.into_owned(), label.message.as_str())
        })
        .collect();
    let d1 = format!("`{}` is extended here", dir.join("d1.variant").display());
    assert_eq!(
        labels,
        [
            (
                "d1.variant".to_string(),
                "the problem is in the file extended here"
            ),
            ("d0.variant".to_string(), d1.as_str()),
        ]
    );
}

#[test]
fn a_byte_order_mark_is_ignored_and_columns_count_without_it() {
    let dir = scratch("bom");
    let chess = fs::read_to_string(games_folder().join("chess.variant")).unwrap();
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(chess.as_bytes());
    fs::write(dir.join("bom.variant"), &bytes).unwrap();
    let loaded = load_file(&dir.join("bom.variant")).unwrap_or_else(|f| panic!("{}", f.render()));
    assert_eq!(loaded.definition.name, "Chess");

    let broken = b"\xEF\xBB\xBFboard 8by8\n";
    fs::write(dir.join("broken.variant"), broken).unwrap();
    let rendered = load_file(&dir.join("broken.variant")).unwrap_err().render();
    assert!(rendered.contains("broken.variant:1:7\n"), "{rendered}");
    assert!(rendered.contains("1 | board 8by8\n"), "{rendered}");
}

#[test]
fn extends_finds_a_shipped_game_from_any_directory() {
    let dir = scratch("anywhere");
    let squire = "extends \"chess\"\ngame \"Squire Chess\"\npiece Knight { letter N; value 4; moves \"NW\" }\n";
    fs::write(dir.join("my.variant"), squire).unwrap();
    let options = LoadOptions::with_search_path([dir.join("no-such-folder"), games_folder()]);
    let loaded = load_file_with(&dir.join("my.variant"), &options)
        .unwrap_or_else(|f| panic!("{}", f.render()));
    assert_eq!(loaded.definition.name, "Squire Chess");
    assert_eq!(loaded.definition.pieces.len(), 6);

    let failure = load_file(&dir.join("my.variant")).expect_err("without the games folder");
    assert!(failure.render().contains("no such file"));
}

#[test]
fn a_parent_beside_the_file_comes_before_the_search_folders() {
    let dir = scratch("beside");
    let chess = fs::read_to_string(games_folder().join("chess.variant")).unwrap();
    fs::write(
        dir.join("chess.variant"),
        chess.replace("game \"Chess\"", "game \"Local chess\""),
    )
    .unwrap();
    fs::write(dir.join("my.variant"), "extends \"chess\"\n").unwrap();
    let options = LoadOptions::with_search_path([games_folder()]);
    let loaded = load_file_with(&dir.join("my.variant"), &options).unwrap();
    assert_eq!(loaded.definition.name, "Local chess");
}

#[test]
fn a_parent_found_nowhere_names_every_place_looked_at() {
    let dir = scratch("nowhere");
    fs::write(dir.join("my.variant"), "extends \"chesss\"\n").unwrap();
    let first = dir.join("first");
    let second = dir.join("second");
    let options = LoadOptions::with_search_path([first.clone(), second.clone()]);
    let failure = load_file_with(&dir.join("my.variant"), &options).unwrap_err();
    let rendered = failure.render();
    assert!(
        rendered.starts_with(
            "error[E0007]: cannot find `chesss.variant`: it is in none of the 3 places looked at"
        ),
        "{rendered}"
    );
    let places = [dir.clone(), first, second]
        .map(|folder| format!("`{}`", folder.join("chesss.variant").display()));
    let help = format!(
        "help: looked for {}, {} and {}\n",
        places[0], places[1], places[2]
    );
    assert!(rendered.ends_with(&help), "{rendered}");
}

#[test]
fn a_path_with_a_folder_is_not_searched_for() {
    let dir = scratch("with-folder");
    fs::write(dir.join("my.variant"), "extends \"sub/chess\"\n").unwrap();
    let options = LoadOptions::with_search_path([games_folder()]);
    let rendered = load_file_with(&dir.join("my.variant"), &options)
        .unwrap_err()
        .render();
    assert!(
        rendered.contains(&format!(
            "cannot read `{}`: no such file",
            dir.join("sub/chess.variant").display()
        )),
        "{rendered}"
    );
}
