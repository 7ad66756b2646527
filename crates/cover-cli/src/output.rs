//! Standard output and standard error.
//!
//! Answers go to a locked, buffered standard output ([`Out`]); when that is
//! a terminal it is flushed after every instance so answers show up as they
//! come. Diagnostics go to standard error as `cover: message` ([`error`]).
//! A closed pipe on standard output (`cover ... | head -1`) surfaces as an
//! I/O error of kind `BrokenPipe`, which `main` treats as a quiet end
//! ([`is_broken_pipe`]).

use std::fmt::Display;
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};

use serde::Serialize;

/// Buffered, locked standard output.
pub struct Out {
    inner: BufWriter<StdoutLock<'static>>,
    /// Flush after each instance (standard output is a terminal).
    interactive: bool,
}

impl Out {
    /// Locks standard output for the rest of the run.
    pub fn stdout() -> Out {
        let stdout = io::stdout();
        let interactive = stdout.is_terminal();
        Out {
            inner: BufWriter::with_capacity(1 << 16, stdout.lock()),
            interactive,
        }
    }

    /// Marks the end of one instance's answer: flushes when a person is
    /// watching.
    pub fn end_instance(&mut self) -> io::Result<()> {
        if self.interactive {
            self.inner.flush()?;
        }
        Ok(())
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Writes `value` as one line of JSON.
pub fn write_json_line<W: Write + ?Sized, T: Serialize + ?Sized>(
    w: &mut W,
    value: &T,
) -> io::Result<()> {
    // serde_json hands I/O errors back unchanged, so a broken pipe stays
    // recognisable.
    serde_json::to_writer(&mut *w, value)?;
    w.write_all(b"\n")
}

/// Appends `value` to `text` as one line of JSON.
pub fn push_json<T: Serialize + ?Sized>(text: &mut String, value: &T) {
    match serde_json::to_string(value) {
        Ok(json) => text.push_str(&json),
        // Unreachable for the records of this crate: plain strings and
        // numbers, which always serialise.
        Err(e) => text.push_str(&format!("{{\"error\":{:?}}}", e.to_string())),
    }
    text.push('\n');
}

/// Writes `cover: message` to standard error. A failure to write there has
/// nowhere to be reported, so it is ignored.
pub fn error(message: impl Display) {
    let _ = writeln!(io::stderr().lock(), "cover: {message}");
}

/// Whether `error` comes from writing into a closed pipe.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_end_in_a_newline() {
        let mut text = Vec::new();
        write_json_line(&mut text, &serde_json::json!({"a": 1})).unwrap();
        write_json_line(&mut text, &[1, 2]).unwrap();
        assert_eq!(text, b"{\"a\":1}\n[1,2]\n");
    }

    #[test]
    fn broken_pipes_are_recognised_through_context() {
        let error = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe))
            .context("writing an answer");
        assert!(is_broken_pipe(&error));
        let error = anyhow::Error::from(io::Error::from(io::ErrorKind::NotFound));
        assert!(!is_broken_pipe(&error));
    }
}
