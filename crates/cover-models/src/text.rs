//! Reading text input line by line, the same way for every format: line
//! numbers from 1, a UTF-8 byte-order mark at the start dropped, CRLF and LF
//! both accepted, and a line that is not UTF-8 reported as such instead of
//! stopping the whole input.

use std::io::{self, BufRead};

use thiserror::Error;

/// A bad line of input: its number and what is wrong with it, in the
/// terms of the format (`K`, each format's own kinds).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct LineError<K> {
    /// The line number, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: K,
}

/// Why one instance (a problem, a puzzle, a case) could not be read.
#[derive(Debug, Error)]
pub enum InputError<E> {
    /// The input itself failed; nothing more can be read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The instance is malformed (`E` says where and how); the reader goes
    /// on with the next one where it can.
    #[error("{0}")]
    Parse(E),
}

/// One line of input, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line's number, from 1.
    pub number: usize,
    /// The text, or `None` when the line is not valid UTF-8.
    pub text: Option<String>,
}

/// Reads lines from a [`BufRead`] without loading the whole input.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    number: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// Wraps `reader`.
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            number: 0,
            buffer: Vec::new(),
        }
    }

    /// The number of the last line returned (0 before the first).
    pub fn line_number(&self) -> usize {
        self.number
    }

    /// The next line, or `None` at the end of the input.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        self.buffer.clear();
        if self.reader.read_until(b'\n', &mut self.buffer)? == 0 {
            return Ok(None);
        }
        self.number += 1;
        let mut bytes = &self.buffer[..];
        if let Some(rest) = bytes.strip_suffix(b"\n") {
            bytes = rest;
        }
        if let Some(rest) = bytes.strip_suffix(b"\r") {
            bytes = rest;
        }
        if self.number == 1 {
            if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
                bytes = rest;
            }
        }
        let text = std::str::from_utf8(bytes).ok().map(str::to_owned);
        Ok(Some(Line {
            number: self.number,
            text,
        }))
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<io::Result<Line>> {
        self.next_line().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_crlf_and_bad_bytes() {
        let input: &[u8] = b"\xEF\xBB\xBFab\r\n\xFF\xFE\nlast";
        let lines: Vec<Line> = LineReader::new(input).map(Result::unwrap).collect();
        assert_eq!(
            lines,
            [
                Line {
                    number: 1,
                    text: Some("ab".into())
                },
                Line {
                    number: 2,
                    text: None
                },
                Line {
                    number: 3,
                    text: Some("last".into())
                },
            ]
        );
    }
}
