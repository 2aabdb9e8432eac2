//! Reading a transport's messages one line at a time without holding more than the limit:
//! a line longer than the limit is skipped to its end, not read into memory.

use std::io::BufRead;

/// One line read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (without its end), within the limit.
    Text(String),
    /// A line longer than the limit: its length in bytes (at least the limit plus one).
    TooLong(usize),
    /// A line that is not UTF-8.
    NotUtf8,
}

/// The next line of `input` (None at its end), at most `max` bytes kept.
pub fn read_line(input: &mut impl BufRead, max: usize) -> std::io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|b| *b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if kept.len() <= max {
            let room = (max + 1 - kept.len()).min(chunk.len());
            kept.extend_from_slice(&chunk[..room]);
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if kept.last() == Some(&b'\r') && total <= max + 1 {
        kept.pop();
        total -= 1;
    }
    if total > max {
        return Ok(Some(Line::TooLong(total)));
    }
    Ok(Some(match String::from_utf8(kept) {
        Ok(s) => Line::Text(s),
        Err(_) => Line::NotUtf8,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str, max: usize) -> Vec<Line> {
        let mut input = text.as_bytes();
        std::iter::from_fn(|| read_line(&mut input, max).unwrap()).collect()
    }

    #[test]
    fn long_lines_are_measured_not_kept() {
        assert_eq!(
            lines("ab\r\nabcdef\nxyz", 4),
            vec![
                Line::Text("ab".into()),
                Line::TooLong(6),
                Line::Text("xyz".into())
            ]
        );
        assert_eq!(lines("", 4), vec![]);
        assert_eq!(lines("\n", 4), vec![Line::Text(String::new())]);
        assert_eq!(lines("abcd\n", 4), vec![Line::Text("abcd".into())]);
    }
}
