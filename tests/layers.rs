//! The crates' files import downward (issue 26): no import cycle among the files of `dsl/src`
//! or `interpreter/src`, and no import from the interpreter's core up to its rules or play
//! layer, nor from its rules up to play. `scripts/import-cycles.py` measures it; these tests run
//! it and fail when a cycle or an upward import returns.
//!
//! No cycle is allowed, not even between two files that belong together. (The one between the
//! compiled game and the plans it keeps went when the plans became data below the compiled game:
//! `rules/plan_data.rs`, `rules/plan_cache.rs`; the last, between the position and the routes
//! walked on it, when the position's attack questions moved to `core/attack.rs`, which reads
//! both.)

use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The script's output (stdout) on `src`, with `--layers`.
fn measure(src: &Path) -> String {
    let output = Command::new("python3")
        .arg(root().join("scripts/import-cycles.py"))
        .arg(src)
        .arg("--layers")
        .output()
        .expect("python3 runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The files of each cycle the script lists.
fn cycles(report: &str) -> Vec<Vec<String>> {
    report
        .lines()
        .filter_map(|line| line.strip_prefix("cycle of "))
        .map(|line| {
            let (_, files) = line.split_once(": ").expect("`N files: a, b`");
            files.split(", ").map(str::to_string).collect()
        })
        .collect()
}

fn upward(report: &str) -> Vec<&str> {
    report
        .lines()
        .filter(|line| line.starts_with("up: "))
        .collect()
}

#[test]
fn the_dsl_has_no_import_cycle() {
    let report = measure(&root().join("dsl/src"));
    assert_eq!(cycles(&report), Vec::<Vec<String>>::new(), "{report}");
    assert!(report.contains("largest import cycle: 1 file "), "{report}");
}

#[test]
fn the_interpreter_imports_downward_with_no_cycle() {
    let report = measure(&root().join("interpreter/src"));
    assert_eq!(upward(&report), Vec::<&str>::new(), "{report}");
    assert_eq!(cycles(&report), Vec::<Vec<String>>::new(), "{report}");
    assert!(report.contains("largest import cycle: 1 file "), "{report}");
}

/// The measure itself: a cycle and an upward import written on purpose are found.
#[test]
fn the_script_finds_a_cycle_and_an_upward_import() {
    let dir = std::env::temp_dir().join(format!("variant-layers-{}", std::process::id()));
    for folder in ["core", "rules"] {
        std::fs::create_dir_all(dir.join(folder)).expect("folder");
    }
    let files = [
        ("lib.rs", "pub mod core;\npub mod rules;\n"),
        ("core/mod.rs", "pub mod a;\npub mod b;\n"),
        ("core/a.rs", "use crate::core::b::B;\npub struct A;\n"),
        (
            "core/b.rs",
            "use crate::core::a::A;\nuse crate::rules::r::R;\npub struct B;\n",
        ),
        ("rules/mod.rs", "pub mod r;\n"),
        ("rules/r.rs", "pub struct R;\n"),
    ];
    for (path, text) in files {
        std::fs::write(dir.join(path), text).expect("write");
    }
    let report = measure(&dir);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        cycles(&report),
        vec![vec!["core/a.rs".to_string(), "core/b.rs".to_string()]],
        "{report}"
    );
    assert_eq!(upward(&report), vec!["up: core/b -> rules/r"], "{report}");
}
