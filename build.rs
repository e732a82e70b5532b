//! Builds the table of the shipped game files into the `variant` binary.
//!
//! Why: an installed binary must find `chess` wherever it runs, after the clone it was built
//! from moved or went away. Each `games/*.variant` becomes one `include_str!` entry of
//! `BUILTIN_GAMES` in `$OUT_DIR/builtin_games.rs`, which `src/catalog.rs` includes. Plain
//! `include_str!` needs no new dependency, and Cargo rebuilds when a game file changes.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let games =
        Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("set by Cargo")).join("games");
    println!("cargo:rerun-if-changed={}", games.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&games)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.extension().is_some_and(|ext| ext == "variant"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut table = String::from(
        "/// The shipped game files, built in: (file name, text), sorted by name.\n\
         pub static BUILTIN_GAMES: &[(&str, &str)] = &[\n",
    );
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let name = file.file_name().expect("a file").to_string_lossy();
        let _ = writeln!(
            table,
            "    ({name:?}, include_str!({:?})),",
            file.display().to_string()
        );
    }
    table.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("set by Cargo")).join("builtin_games.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
