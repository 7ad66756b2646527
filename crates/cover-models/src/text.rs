//! Reading text input line by line, the same way for every format: line
//! numbers from 1, a UTF-8 byte-order mark at the start dropped, CRLF and LF
//! both accepted, and a line that cannot be used reported as such
//! ([`LineFault`]) instead of stopping the whole input.
//!
//! Every line is bounded: a line longer than [`MAX_LINE_BYTES`] is not
//! stored but skipped to its end and reported as [`LineFault::TooLong`], so
//! memory stays within a small multiple of that cap whatever the input (a
//! file without a newline, a binary file, `/dev/zero`). Skipping is bounded
//! too: an over-long line that holds a NUL byte is binary data, and one
//! that runs on past [`MAX_SKIPPED_BYTES`] has no end worth waiting for;
//! either ends the input.

use std::io::{self, BufRead};

use thiserror::Error;

/// The most bytes a line may hold, its line ending not counted: 4 MiB. A
/// line puzzle of the largest sudoku (64×64, 4,096 cells) takes 4 KiB, or
/// about 12 KiB written as numbers; Knuth's own programs take lines of at
/// most a few thousand characters.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// How far an over-long line is skipped looking for its end: 256 MiB.
/// Beyond that the input is taken to have no more lines (a stream that never
/// sends a newline), and reading it stops.
pub const MAX_SKIPPED_BYTES: u64 = 256 << 20;

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

/// A format's bad line is its instance's parse error (`?` and `.into()`
/// lift it).
impl<K> From<LineError<K>> for InputError<LineError<K>> {
    fn from(error: LineError<K>) -> Self {
        InputError::Parse(error)
    }
}

/// Why a line could not be used as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum LineFault {
    /// The line holds bytes that are not UTF-8. Reading goes on.
    #[error("the line is not valid UTF-8 text")]
    NotUtf8,
    /// The line is longer than the limit; it was skipped to its end, and
    /// reading goes on with the next line.
    #[error("the line is longer than {}, the most a line may hold", size(*limit as u64))]
    TooLong {
        /// The limit, in bytes.
        limit: usize,
    },
    /// An over-long line holds a NUL byte: the input is binary data, not
    /// text. Nothing more of it is read.
    #[error("the input is binary data, not text (a NUL byte in a line longer than {}); the rest of it is not read", size(*limit as u64))]
    Binary {
        /// The line limit, in bytes.
        limit: usize,
    },
    /// An over-long line runs on without a line end past the skipping
    /// bound. Nothing more of the input is read.
    #[error("the line is longer than {} and no line end follows within {} more; the rest of the input is not read", size(*limit as u64), size(*skipped))]
    Endless {
        /// The line limit, in bytes.
        limit: usize,
        /// How far the line was skipped looking for its end, in bytes.
        skipped: u64,
    },
}

/// A size in bytes for people: `4 MiB` when it is whole mebibytes.
fn size(bytes: u64) -> String {
    const MIB: u64 = 1 << 20;
    if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

impl LineFault {
    /// Whether the reader stops after this line: nothing more of the input
    /// will be read.
    pub fn ends_input(self) -> bool {
        matches!(self, LineFault::Binary { .. } | LineFault::Endless { .. })
    }
}

/// One line of input, without its line ending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line's number, from 1.
    pub number: usize,
    /// The text, or why the line cannot be used.
    pub text: Result<String, LineFault>,
}

/// Reads lines from a [`BufRead`] without loading the whole input, each at
/// most [`MAX_LINE_BYTES`] long (see the [module](self) docs).
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    number: usize,
    buffer: Vec<u8>,
    max_line: usize,
    max_skipped: u64,
    /// Set after a fault that ends the input.
    finished: bool,
    /// A line's text handed back by [`LineReader::recycle`], whose memory
    /// the next line reuses.
    spare: Option<String>,
}

impl<R: BufRead> LineReader<R> {
    /// Wraps `reader`, with the default limits.
    pub fn new(reader: R) -> Self {
        LineReader::with_limits(reader, MAX_LINE_BYTES, MAX_SKIPPED_BYTES)
    }

    /// Wraps `reader`: lines of at most `max_line` bytes, over-long lines
    /// skipped for at most `max_skipped` bytes past that.
    pub fn with_limits(reader: R, max_line: usize, max_skipped: u64) -> Self {
        LineReader {
            reader,
            number: 0,
            buffer: Vec::new(),
            max_line,
            max_skipped,
            finished: false,
            spare: None,
        }
    }

    /// Hands back the text of a line that is done with, so that the next
    /// line is read into its memory rather than a new allocation (a
    /// reader of millions of short lines saves an allocation and a free
    /// per line).
    pub fn recycle(&mut self, text: String) {
        self.spare = Some(text);
    }

    /// The number of the last line returned (0 before the first).
    pub fn line_number(&self) -> usize {
        self.number
    }

    /// Numbers the lines as if `line` lines came before the first (a
    /// piece of a longer input); a byte-order mark is looked for only
    /// when `line` is 0.
    pub(crate) fn continue_after(&mut self, line: usize) {
        self.number = line;
    }

    /// Whether a fault ended the input: no more lines will be read.
    pub(crate) fn ended_by_fault(&self) -> bool {
        self.finished
    }

    /// The limits it was made with: the longest line, and how far an
    /// over-long one is skipped.
    pub(crate) fn limits(&self) -> (usize, u64) {
        (self.max_line, self.max_skipped)
    }

    /// The reader: at the start of the line after the last one returned,
    /// but after a fault that [ends](LineFault::ends_input) the input,
    /// somewhere in the line at fault.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The next line, or `None` at the end of the input (or after a fault
    /// that [ends](LineFault::ends_input) it).
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        if self.finished {
            return Ok(None);
        }
        self.buffer.clear();
        // Room for the longest line allowed and its "\r\n" (and, on the
        // first line, a byte-order mark, which is not the line's).
        let bom = if self.number == 0 { 3 } else { 0 };
        let room = self.max_line.saturating_add(2 + bom);
        let mut read_any = false;
        let mut over = false;
        let mut skipped: u64 = 0;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                break;
            }
            read_any = true;
            let (piece, ends_line) = match memchr::memchr(b'\n', available) {
                Some(at) => (&available[..=at], true),
                None => (available, false),
            };
            let used = piece.len();
            if over {
                skipped += used as u64;
            } else {
                let fits = piece.len().min(room - self.buffer.len());
                self.buffer.extend_from_slice(&piece[..fits]);
                if fits < piece.len() {
                    over = true;
                    skipped = (piece.len() - fits) as u64;
                    // Binary data (/dev/zero, an image) need not be
                    // skipped: it has no lines to go on with.
                    if memchr::memchr(0, &self.buffer).is_some() {
                        self.reader.consume(used);
                        return Ok(Some(self.fault(LineFault::Binary {
                            limit: self.max_line,
                        })));
                    }
                }
            }
            self.reader.consume(used);
            if ends_line {
                break;
            }
            if over && skipped > self.max_skipped {
                return Ok(Some(self.fault(LineFault::Endless {
                    limit: self.max_line,
                    skipped: self.max_skipped,
                })));
            }
        }
        if !read_any {
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
        let text = if over || bytes.len() > self.max_line {
            Err(LineFault::TooLong {
                limit: self.max_line,
            })
        } else {
            match std::str::from_utf8(bytes) {
                Ok(text) => {
                    let mut owned = self.spare.take().unwrap_or_default();
                    owned.clear();
                    owned.push_str(text);
                    Ok(owned)
                }
                Err(_) => Err(LineFault::NotUtf8),
            }
        };
        Ok(Some(Line {
            number: self.number,
            text,
        }))
    }

    /// The line in hand as a fault that ends the input.
    fn fault(&mut self, fault: LineFault) -> Line {
        self.finished = true;
        self.number += 1;
        self.buffer = Vec::new();
        Line {
            number: self.number,
            text: Err(fault),
        }
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = io::Result<Line>;

    fn next(&mut self) -> Option<io::Result<Line>> {
        self.next_line().transpose()
    }
}

/// The longest piece of input quoted in an error message, in characters.
pub const MAX_QUOTED_CHARS: usize = 40;

/// `text` for quoting in an error message: whole when short, else its
/// first [`MAX_QUOTED_CHARS`] characters and `…`, so that a message about
/// a 4 MiB token is not itself 4 MiB long (and a chunk of such errors does
/// not hold gigabytes).
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED_CHARS) {
        None => text.to_owned(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recycled_text_holds_only_the_next_line() {
        let mut reader = LineReader::new(&b"first line\nab\n\nlast"[..]);
        let (mut got, mut memory) = (Vec::new(), Vec::new());
        while let Some(line) = reader.next_line().unwrap() {
            let text = line.text.unwrap();
            got.push(text.clone());
            memory.push(text.as_ptr());
            reader.recycle(text);
        }
        assert_eq!(got, ["first line", "ab", "", "last"]);
        // Every line was read into the first one's memory.
        assert!(memory.iter().all(|&at| at == memory[0]), "{memory:?}");
    }

    fn lines(
        input: &[u8],
        max_line: usize,
        max_skipped: u64,
    ) -> Vec<(usize, Result<String, LineFault>)> {
        LineReader::with_limits(input, max_line, max_skipped)
            .map(|line| {
                let line = line.unwrap();
                (line.number, line.text)
            })
            .collect()
    }

    #[test]
    fn bom_crlf_and_bad_bytes() {
        let input: &[u8] = b"\xEF\xBB\xBFab\r\n\xFF\xFE\nlast";
        let lines: Vec<Line> = LineReader::new(input).map(Result::unwrap).collect();
        assert_eq!(
            lines,
            [
                Line {
                    number: 1,
                    text: Ok("ab".into())
                },
                Line {
                    number: 2,
                    text: Err(LineFault::NotUtf8)
                },
                Line {
                    number: 3,
                    text: Ok("last".into())
                },
            ]
        );
    }

    #[test]
    fn the_limit_is_on_the_text_not_the_line_ending() {
        let too_long: Result<String, LineFault> = Err(LineFault::TooLong { limit: 4 });
        assert_eq!(
            lines(b"abcd\nabcd\r\nabcde\nab\n", 4, 100),
            [
                (1, Ok("abcd".into())),
                (2, Ok("abcd".into())),
                (3, too_long.clone()),
                (4, Ok("ab".into())),
            ]
        );
        // The last line, without a line end.
        assert_eq!(lines(b"abcde", 4, 100), [(1, too_long)]);
        assert_eq!(lines(b"abcd", 4, 100), [(1, Ok("abcd".into()))]);
    }

    #[test]
    fn a_byte_order_mark_does_not_count_against_the_limit() {
        for ending in ["\n", "\r\n", ""] {
            let input = format!("\u{FEFF}abcd{ending}");
            let got = lines(input.as_bytes(), 4, 100);
            assert_eq!(got, [(1, Ok("abcd".into()))], "{ending:?}");
            let input = format!("\u{FEFF}abcde{ending}");
            let got = lines(input.as_bytes(), 4, 100);
            assert_eq!(
                got[0],
                (1, Err(LineFault::TooLong { limit: 4 })),
                "{ending:?}"
            );
        }
    }

    #[test]
    fn an_over_long_line_is_skipped_and_reading_goes_on() {
        let mut input = vec![b'1'; 10_000];
        input.extend_from_slice(b"\nnext\n");
        // Tiny buffers, so the line arrives in many pieces.
        let reader = io::BufReader::with_capacity(7, &input[..]);
        let got: Vec<Line> = LineReader::with_limits(reader, 16, 1 << 20)
            .map(Result::unwrap)
            .collect();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].text, Err(LineFault::TooLong { limit: 16 }));
        assert_eq!((got[1].number, got[1].text.as_deref()), (2, Ok("next")));
    }

    #[test]
    fn binary_data_ends_the_input_at_once() {
        let input = vec![0u8; 1000];
        let mut reader = LineReader::with_limits(&input[..], 16, 1 << 20);
        let line = reader.next_line().unwrap().unwrap();
        assert_eq!(line.text, Err(LineFault::Binary { limit: 16 }));
        assert!(line.text.unwrap_err().ends_input());
        assert!(reader.next_line().unwrap().is_none());
        // A NUL byte in a line of normal length is just text for the
        // format to reject.
        assert_eq!(lines(b"a\0b\nc\n", 16, 100)[0], (1, Ok("a\0b".into())));
    }

    #[test]
    fn a_line_without_end_stops_after_the_skipping_bound() {
        struct Endless;
        impl io::Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                buf.fill(b'7');
                Ok(buf.len())
            }
        }
        let mut reader = LineReader::with_limits(io::BufReader::new(Endless), 16, 100_000);
        let line = reader.next_line().unwrap().unwrap();
        assert_eq!(
            line.text,
            Err(LineFault::Endless {
                limit: 16,
                skipped: 100_000
            })
        );
        assert!(reader.next_line().unwrap().is_none());
    }

    #[test]
    fn excerpts_are_short() {
        assert_eq!(excerpt("abc"), "abc");
        let long = "é".repeat(100);
        let short = excerpt(&long);
        assert_eq!(short.chars().count(), MAX_QUOTED_CHARS + 1);
        assert!(short.ends_with('…'));
    }
}
