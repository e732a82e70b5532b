//! A FEN as whitespace-separated fields, each with its byte offset, so that an error can point
//! into the text.

/// A whitespace-separated field of the FEN, with its byte offset.
#[derive(Clone, Copy)]
pub(super) struct Field<'a> {
    pub(super) text: &'a str,
    pub(super) offset: usize,
}

pub(super) fn fields(text: &str) -> Vec<Field<'_>> {
    let mut fields = Vec::new();
    let mut start = None;
    for (index, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (true, Some(begin)) => {
                fields.push(Field {
                    text: &text[begin..index],
                    offset: begin,
                });
                start = None;
            }
            (false, None) => start = Some(index),
            _ => {}
        }
    }
    fields
}
