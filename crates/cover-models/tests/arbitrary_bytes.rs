//! Every parser, fed arbitrary bytes, returns instances or errors and never
//! panics; every instance and error names a line of the input; and the
//! line reader never hands out a line longer than its limit.

use cover_models::text::{InputError, LineError, LineReader};
use cover_models::{exact, radar, sudoku, target};
use proptest::prelude::*;

/// Bytes that look a little like our formats: digits, separators, the
/// formats' special characters, line ends, and anything else now and then.
fn texty() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => prop::sample::select(b"0123456789 .\n".to_vec()),
        3 => prop::sample::select(b"-|:#ABCDEFGPxyz,\r\t+_".to_vec()),
        1 => any::<u8>(),
    ];
    prop::collection::vec(byte, 0..600)
}

/// Arbitrary bytes or texty ones.
fn input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![prop::collection::vec(any::<u8>(), 0..300), texty()]
}

/// The number of lines of `bytes`, as the line reader counts them.
fn line_count(bytes: &[u8]) -> usize {
    LineReader::new(bytes).count()
}

/// Whether `line` is a line of an input of `lines` lines (an empty input
/// is reported at line 1).
fn is_a_line(line: usize, lines: usize) -> bool {
    line >= 1 && line <= lines.max(1)
}

/// The line an instance or an error names; an I/O error cannot come
/// from a slice.
fn line_of<T, E>(
    result: Result<T, InputError<E>>,
    instance_line: impl Fn(&T) -> usize,
    error_line: impl Fn(&E) -> usize,
) -> usize {
    match result {
        Ok(instance) => instance_line(&instance),
        Err(InputError::Parse(e)) => error_line(&e),
        Err(InputError::Io(e)) => panic!("no I/O error from a slice: {e}"),
    }
}

fn error_line<K>(error: &LineError<K>) -> usize {
    error.line
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn exact_never_panics(bytes in input(), format in 0..3u8) {
        let format = match format {
            0 => None,
            1 => Some(exact::Format::Matrix),
            _ => Some(exact::Format::Knuth),
        };
        let lines = line_count(&bytes);
        let mut read = 0;
        for result in exact::Instances::new(&bytes[..], format).take(1000) {
            read += 1;
            let line = line_of(result, |instance| instance.line, error_line);
            prop_assert!(is_a_line(line, lines), "line {} of {}", line, lines);
        }
        // Something is always said: an input without a problem is an error.
        prop_assert!(read >= 1);
    }

    #[test]
    fn sudoku_never_panics(bytes in input(), custom in any::<bool>()) {
        let symbols = custom.then(|| sudoku::Symbols::new("123456789ABCDEFG").unwrap());
        let lines = line_count(&bytes);
        for result in sudoku::Puzzles::new(&bytes[..], symbols).take(1000) {
            let line = line_of(result, |puzzle| puzzle.line, error_line);
            prop_assert!(is_a_line(line, lines), "line {} of {}", line, lines);
        }
    }

    #[test]
    fn target_never_panics(bytes in input()) {
        let lines = line_count(&bytes);
        for result in target::Puzzles::new(&bytes[..]).take(1000) {
            let line = line_of(result, |puzzle| puzzle.line, error_line);
            prop_assert!(is_a_line(line, lines), "line {} of {}", line, lines);
        }
    }

    #[test]
    fn radar_never_panics(bytes in input()) {
        let lines = line_count(&bytes);
        for result in radar::Cases::new(&bytes[..]).take(1000) {
            let line = line_of(result, |case| case.line, |e| e.line);
            prop_assert!(is_a_line(line, lines), "line {} of {}", line, lines);
        }
    }

    #[test]
    fn lines_never_exceed_the_limit(bytes in input(), limit in 1usize..40) {
        let mut total = 0;
        for line in LineReader::with_limits(&bytes[..], limit, 200) {
            let line = line.unwrap();
            total += 1;
            prop_assert_eq!(line.number, total);
            if let Ok(text) = &line.text {
                prop_assert!(text.len() <= limit);
            }
        }
        prop_assert!(total <= bytes.len());
    }
}
