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

    /// Flushes after every instance, terminal or not: for answers that
    /// must be on disk as soon as they are made (a killed job keeps them).
    pub fn flushing_each_instance(mut self) -> Out {
        self.interactive = true;
        self
    }

    /// Marks the end of one instance's answer: flushes when a person is
    /// watching (or when [`Out::flushing_each_instance`] asked).
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

/// One JSON object written into a string a field at a time, so that a
/// list in it (every solution of an instance) can be written out as it
/// grows rather than held whole. The caller writes each field once.
pub struct JsonObject {
    fields: usize,
}

impl JsonObject {
    /// Opens the object.
    pub fn begin(text: &mut String) -> JsonObject {
        text.push('{');
        JsonObject { fields: 0 }
    }

    /// Appends the field `name`, with `value`.
    pub fn field<T: Serialize + ?Sized>(&mut self, text: &mut String, name: &str, value: &T) {
        self.name(text, name);
        push_value(text, value);
    }

    /// Opens the list field `name`; its items follow, then [`JsonList::end`].
    pub fn list(&mut self, text: &mut String, name: &str) -> JsonList {
        self.name(text, name);
        text.push('[');
        JsonList { items: 0 }
    }

    /// Closes the object and its line.
    pub fn end(self, text: &mut String) {
        text.push_str("}\n");
    }

    fn name(&mut self, text: &mut String, name: &str) {
        if self.fields > 0 {
            text.push(',');
        }
        self.fields += 1;
        push_value(text, name);
        text.push(':');
    }
}

/// A list inside a [`JsonObject`].
pub struct JsonList {
    items: usize,
}

impl JsonList {
    /// Appends one item.
    pub fn item<T: Serialize + ?Sized>(&mut self, text: &mut String, value: &T) {
        if self.items > 0 {
            text.push(',');
        }
        self.items += 1;
        push_value(text, value);
    }

    /// Closes the list.
    pub fn end(self, text: &mut String) {
        text.push(']');
    }
}

/// Appends `value` as JSON.
fn push_value<T: Serialize + ?Sized>(text: &mut String, value: &T) {
    match serde_json::to_string(value) {
        Ok(json) => text.push_str(&json),
        // Unreachable for the values of this crate: plain strings,
        // numbers and lists of them.
        Err(e) => text.push_str(&format!("{:?}", e.to_string())),
    }
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
    fn objects_written_a_field_at_a_time_are_json() {
        let mut text = String::new();
        let mut object = JsonObject::begin(&mut text);
        object.field(&mut text, "a", &1);
        let mut list = object.list(&mut text, "b\"");
        list.item(&mut text, "x");
        list.item(&mut text, &[1, 2]);
        list.end(&mut text);
        object.field(&mut text, "c", &None::<u8>);
        object.end(&mut text);
        assert_eq!(text, "{\"a\":1,\"b\\\"\":[\"x\",[1,2]],\"c\":null}\n");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["b\""][1], serde_json::json!([1, 2]));
        let mut text = String::new();
        let mut object = JsonObject::begin(&mut text);
        object.list(&mut text, "empty").end(&mut text);
        object.end(&mut text);
        assert_eq!(text, "{\"empty\":[]}\n");
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
