//! A file with very many mistakes is reported in time proportional to its size.
//!
//! 20,000 bad holes once took over a minute: every diagnostic was rendered from the whole
//! file. Now each diagnostic sees only its own lines, and only the first
//! [`variant_dsl::diagnostic::MAX_RENDERED`] are rendered. The time bound below is generous
//! (the work takes well under a second); the old quadratic cost would exceed it a hundredfold.

use std::time::{Duration, Instant};
use variant_dsl::diagnostic::MAX_RENDERED;

/// A game whose board lists `count` holes that are off the board, one line each or all on one.
fn bad_holes(count: usize, separator: &str) -> String {
    format!(
        "game \"x\"\nboard 8x8 {{ holes {}}}\nside white {{ forward up }}\npiece King {{ letter K; royal; moves \"K\" }}\nsetup \"8/8/8/8/8/8/8/4K3 w - - 0 1\"\n",
        format!("z9{separator}").repeat(count)
    )
}

fn render_timed(text: &str) -> (String, Duration) {
    let started = Instant::now();
    let failure = variant_dsl::load_source("holes.variant", text).expect_err("every hole is bad");
    let rendered = failure.render();
    (rendered, started.elapsed())
}

#[test]
fn a_hundred_thousand_errors_on_one_line_render_quickly_and_are_counted() {
    let (rendered, elapsed) = render_timed(&bad_holes(100_000, " "));
    assert!(elapsed < Duration::from_secs(30), "took {elapsed:?}");
    assert_eq!(rendered.matches("error[E0302]").count(), MAX_RENDERED);
    let not_shown = 100_000 - MAX_RENDERED;
    assert!(
        rendered.ends_with(&format!("\n\n... and {} more errors\n", group(not_shown))),
        "{}",
        &rendered[rendered.len().saturating_sub(200)..]
    );
}

#[test]
fn errors_on_many_lines_point_at_their_own_line() {
    let (rendered, elapsed) = render_timed(&bad_holes(50_000, " \\\n"));
    assert!(elapsed < Duration::from_secs(30), "took {elapsed:?}");
    assert!(rendered.contains(" --> holes.variant:2:19\n"), "{rendered}");
    assert!(rendered.contains(" --> holes.variant:51:1\n"), "{rendered}");
    assert!(!rendered.contains("holes.variant:52:"), "only 50 are shown");
    assert!(rendered.ends_with("... and 49,950 more errors\n"));
}

/// `49950` as `49,950`, written out here independently of the library.
fn group(number: usize) -> String {
    let digits = number.to_string();
    let (head, tail) = digits.split_at(digits.len() - 3);
    format!("{head},{tail}")
}
