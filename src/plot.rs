//! The picture of `variant analyze --plot`: an SVG with the distribution of game lengths and the
//! first mover's running score over the games.
//!
//! Why by hand: two charts of bars and one line are a few dozen SVG elements; a plotting crate
//! (plotters) would add a dependency tree and font handling to the build of every developer for
//! that. The SVG is plain text, so tests can read it.

/// Width and height of each chart, in pixels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 240.0;
const MARGIN: f64 = 48.0;
/// At most this many bars in the length histogram.
const MAX_BINS: usize = 40;

/// The SVG document: `plies` per game and the first mover's half points per game, in game order.
pub fn svg(title: &str, plies: &[usize], first_points: &[u8]) -> String {
    let total_height = 2.0 * (HEIGHT + MARGIN) + MARGIN;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{total_height}\" viewBox=\"0 0 {w} {total_height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{MARGIN}\" y=\"20\" font-size=\"14\">{}</text>\n",
        escape(title),
        w = WIDTH + 2.0 * MARGIN,
    );
    out.push_str(&histogram(plies, MARGIN + 8.0));
    out.push_str(&running_score(first_points, 2.0 * MARGIN + HEIGHT + 8.0));
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Axes with a caption, the chart's top at `top`.
fn frame(top: f64, caption: &str, x_label: &str, y_label: &str) -> String {
    let bottom = top + HEIGHT;
    format!(
        "<g class=\"chart\">\n<text x=\"{MARGIN}\" y=\"{}\">{}</text>\n\
         <line x1=\"{MARGIN}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{bottom}\" stroke=\"black\"/>\n\
         <line x1=\"{MARGIN}\" y1=\"{top}\" x2=\"{MARGIN}\" y2=\"{bottom}\" stroke=\"black\"/>\n\
         <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n\
         <text x=\"12\" y=\"{}\" transform=\"rotate(-90 12 {})\" text-anchor=\"middle\">{}</text>\n",
        top - 4.0,
        escape(caption),
        MARGIN + WIDTH,
        MARGIN + WIDTH / 2.0,
        bottom + 30.0,
        escape(x_label),
        top + HEIGHT / 2.0,
        top + HEIGHT / 2.0,
        escape(y_label),
    )
}

/// The histogram of game lengths in plies.
fn histogram(plies: &[usize], top: f64) -> String {
    let mut out = frame(top, "Game length", "plies", "games");
    let bottom = top + HEIGHT;
    if let (Some(&min), Some(&max)) = (plies.iter().min(), plies.iter().max()) {
        let span = max - min + 1;
        let width = span.div_ceil(MAX_BINS).max(1);
        let bins = span.div_ceil(width);
        let mut counts = vec![0usize; bins];
        for &p in plies {
            counts[(p - min) / width] += 1;
        }
        let highest = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let bar = WIDTH / bins as f64;
        for (bin, &count) in counts.iter().enumerate() {
            let height = count as f64 / highest * (HEIGHT - 10.0);
            let low = min + bin * width;
            let high = low + width - 1;
            let label = if width == 1 {
                format!("{low}")
            } else {
                format!("{low}-{high}")
            };
            out.push_str(&format!(
                "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"steelblue\"><title>{label} plies: {count} games</title></rect>\n",
                MARGIN + bin as f64 * bar + 1.0,
                bottom - height,
                (bar - 2.0).max(1.0),
                height
            ));
        }
        out.push_str(&format!(
            "<text x=\"{MARGIN}\" y=\"{}\">{min}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{max}</text>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            bottom + 14.0,
            MARGIN + WIDTH,
            bottom + 14.0,
            MARGIN - 4.0,
            top + 10.0,
            highest
        ));
    }
    out.push_str("</g>\n");
    out
}

/// The first mover's mean score after each game, with the even line at 50%.
fn running_score(first_points: &[u8], top: f64) -> String {
    let mut out = frame(
        top,
        "First mover's score over games (a draw half)",
        "games",
        "score",
    );
    let bottom = top + HEIGHT;
    let y = |score: f64| bottom - score * HEIGHT;
    out.push_str(&format!(
        "<line x1=\"{MARGIN}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"gray\" stroke-dasharray=\"4 4\"/>\n\
         <text x=\"{2}\" y=\"{3}\" text-anchor=\"end\">100%</text><text x=\"{2}\" y=\"{4}\" text-anchor=\"end\">50%</text><text x=\"{2}\" y=\"{bottom}\" text-anchor=\"end\">0%</text>\n",
        y(0.5),
        MARGIN + WIDTH,
        MARGIN - 4.0,
        top + 10.0,
        y(0.5) + 4.0,
    ));
    let n = first_points.len();
    if n > 0 {
        let mut sum = 0usize;
        let points: Vec<String> = first_points
            .iter()
            .enumerate()
            .map(|(game, &p)| {
                sum += p as usize;
                let score = sum as f64 / 2.0 / (game + 1) as f64;
                let x = MARGIN
                    + if n == 1 {
                        WIDTH
                    } else {
                        game as f64 / (n - 1) as f64 * WIDTH
                    };
                format!("{x:.1},{:.1}", y(score))
            })
            .collect();
        out.push_str(&format!(
            "<polyline class=\"score\" fill=\"none\" stroke=\"darkred\" stroke-width=\"2\" points=\"{}\"/>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"end\">{n}</text>\n",
            points.join(" "),
            MARGIN + WIDTH,
            bottom + 14.0
        ));
    }
    out.push_str("</g>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::svg;

    #[test]
    fn one_bar_per_length_and_one_line() {
        let picture = svg("a <game>", &[16, 16, 18], &[2, 0, 1]);
        assert!(picture.starts_with("<svg"));
        assert!(picture.contains("a &lt;game&gt;"));
        assert_eq!(picture.matches("class=\"bar\"").count(), 3, "16, 17, 18");
        assert_eq!(picture.matches("<polyline").count(), 1);
    }
}
