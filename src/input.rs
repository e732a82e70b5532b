//! Lines typed at a prompt (`play`, `replay --step`), read with a bound.
//!
//! Why: `read_line` keeps everything up to the next newline, so a 200 MB line (a file piped in
//! by mistake, `/dev/zero`) would be held in memory whole. A line longer than
//! [`MAX_LINE_BYTES`] is skipped to its end in buffer-sized pieces and reported as too long;
//! nothing typed at a prompt is anywhere near that long.

use std::io::{self, BufRead, Read};

/// The longest line read at a prompt: a move or a command is a few dozen bytes.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its end of line, decoded lossily, trimmed.
    Text(String),
    /// A line longer than [`MAX_LINE_BYTES`], skipped.
    TooLong,
    /// The input is over.
    End,
}

/// Reads the next line, holding at most [`MAX_LINE_BYTES`] + 1 bytes of it.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Line> {
    let mut bytes = Vec::new();
    let read = input
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(Line::End);
    }
    if bytes.len() > MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
        skip_line(input)?;
        return Ok(Line::TooLong);
    }
    Ok(Line::Text(
        String::from_utf8_lossy(&bytes).trim().to_string(),
    ))
}

/// Drops the rest of the current line, one buffer at a time.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let length = buffer.len();
                input.consume(length);
            }
        }
    }
}

/// What to say when a line was too long.
pub fn too_long_message() -> String {
    format!("that line is longer than {MAX_LINE_BYTES} bytes: it was skipped\n")
}

#[cfg(test)]
mod tests {
    use super::{read_line, Line, MAX_LINE_BYTES};

    #[test]
    fn a_line_too_long_is_skipped_and_the_next_one_read() {
        let mut text = vec![b'x'; MAX_LINE_BYTES * 3];
        text.extend_from_slice(b"\n e4 \nlast");
        let mut input = std::io::Cursor::new(text);
        assert_eq!(read_line(&mut input).unwrap(), Line::TooLong);
        assert_eq!(read_line(&mut input).unwrap(), Line::Text("e4".into()));
        assert_eq!(read_line(&mut input).unwrap(), Line::Text("last".into()));
        assert_eq!(read_line(&mut input).unwrap(), Line::End);
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_read() {
        let mut text = vec![b'y'; MAX_LINE_BYTES];
        text.push(b'\n');
        let mut input = std::io::Cursor::new(text);
        assert!(
            matches!(read_line(&mut input).unwrap(), Line::Text(line) if line.len() == MAX_LINE_BYTES)
        );
    }
}
