//! Every parser, fed arbitrary bytes, returns instances or errors and never
//! panics; every instance and error names a line of the input; and the
//! line reader never hands out a line longer than its limit, nor refuses
//! one within it. Each parser also runs on line readers with tiny limits,
//! so that over-long, binary and endless lines reach every one of them.

use cover_models::text::{InputError, LineError, LineFault, LineReader};
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

/// The lines of `bytes`: with the default limits when `limit` is `None`,
/// else at most `limit` bytes a line, over-long ones skipped for at most
/// 64 more bytes.
fn reader(bytes: &[u8], limit: Option<usize>) -> LineReader<&[u8]> {
    match limit {
        None => LineReader::new(bytes),
        Some(limit) => LineReader::with_limits(bytes, limit, 64),
    }
}

/// No limit, or a tiny one.
fn line_limit() -> impl Strategy<Value = Option<usize>> {
    prop_oneof![Just(None), (1usize..48).prop_map(Some)]
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

/// Reads at most 1000 of the `results` of a parser fed `bytes`, each of
/// which must name a line of `bytes`; returns how many it read.
fn every_line_named<T, E>(
    bytes: &[u8],
    results: impl Iterator<Item = Result<T, InputError<E>>>,
    instance_line: impl Fn(&T) -> usize,
    error_line: impl Fn(&E) -> usize,
) -> Result<usize, TestCaseError> {
    let lines = line_count(bytes);
    let mut read = 0;
    for result in results.take(1000) {
        read += 1;
        let line = line_of(result, &instance_line, &error_line);
        prop_assert!(is_a_line(line, lines), "line {} of {}", line, lines);
    }
    Ok(read)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn exact_never_panics(bytes in input(), format in 0..3u8, limit in line_limit()) {
        let format = match format {
            0 => None,
            1 => Some(exact::Format::Matrix),
            _ => Some(exact::Format::Knuth),
        };
        let results = exact::Instances::from_lines(reader(&bytes, limit), format);
        let read = every_line_named(&bytes, results, |instance| instance.line, error_line)?;
        // Something is always said: an input without a problem is an error.
        prop_assert!(read >= 1);
    }

    #[test]
    fn sudoku_never_panics(bytes in input(), custom in any::<bool>(), limit in line_limit()) {
        let symbols = custom.then(|| sudoku::Symbols::new("123456789ABCDEFG").unwrap());
        let results = sudoku::Puzzles::from_lines(reader(&bytes, limit), symbols);
        every_line_named(&bytes, results, |puzzle| puzzle.line, error_line)?;
    }

    #[test]
    fn target_never_panics(bytes in input(), limit in line_limit()) {
        let results = target::Puzzles::from_lines(reader(&bytes, limit));
        every_line_named(&bytes, results, |puzzle| puzzle.line, error_line)?;
    }

    #[test]
    fn radar_never_panics(bytes in input(), limit in line_limit()) {
        let results = radar::Cases::from_lines(reader(&bytes, limit));
        every_line_named(&bytes, results, |case| case.line, |e| e.line)?;
    }

    #[test]
    fn lines_are_refused_exactly_when_over_the_limit(
        bytes in input(),
        limit in 1usize..40,
        bom in any::<bool>(),
    ) {
        let mut input = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        input.extend_from_slice(&bytes);
        // What each line holds, by a plain split on "\n" (the reader's
        // limits are far away: no line of this input reaches 1 MiB).
        let mut expected: Vec<Vec<u8>> = input.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        if input.ends_with(b"\n") || input.is_empty() {
            expected.pop();
        }
        if bom {
            expected[0].drain(..3);
        }
        for line in &mut expected {
            if line.ends_with(b"\r") {
                line.pop();
            }
        }
        let mut total = 0;
        for line in LineReader::with_limits(&input[..], limit, 1 << 20) {
            let line = line.unwrap();
            let want = &expected[total];
            total += 1;
            prop_assert_eq!(line.number, total);
            match &line.text {
                Ok(text) => prop_assert_eq!(text.as_bytes(), &want[..]),
                Err(LineFault::TooLong { .. }) => prop_assert!(want.len() > limit),
                Err(LineFault::NotUtf8) => {
                    prop_assert!(want.len() <= limit && std::str::from_utf8(want).is_err())
                }
                // An over-long line with a NUL byte ends the input.
                Err(LineFault::Binary { .. }) => {
                    prop_assert!(want.len() > limit && want.contains(&0));
                    break;
                }
                Err(fault) => prop_assert!(false, "{} from a short input", fault),
            }
        }
        let binary = total > 0 && total < expected.len();
        prop_assert!(total == expected.len() || binary);
    }
}
