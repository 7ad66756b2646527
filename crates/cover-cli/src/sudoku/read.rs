//! Reading `cover sudoku`'s inputs: on the reading thread alone, or, once
//! an input turns out to hold one puzzle per line and there are threads to
//! spare, on the pool, the reading thread only cutting the input into
//! blocks.
//!
//! Reading an easy line puzzle costs about a tenth of solving it: on one
//! thread, it would bound a run's speed-up near ten. So [`SudokuReader`]
//! reads the first puzzles itself (the input's layout and symbols are
//! learnt there), then cuts the rest at line ends into blocks of about
//! [`BLOCK_BYTES`] and has the pool read each from the point the reader
//! stood at ([`ResumePoint`]), and hands on their puzzles in order. A block
//! is read from a guess, the last point known moved to its first line; if
//! the block before it ended elsewhere (an input of 16×16 puzzles whose
//! symbol set changes), it is read again here, from the right point. What
//! comes out is what one reader gives, line numbers and errors included.
//!
//! What one reader must read whole stays with one reader: grids, an input
//! from its first `{` on (an f-puzzles JSON document may span lines), and
//! from a line longer than [`LONGEST_CUT_LINE`] on. An `end` line, or a
//! fault that ends the input, ends it here too.
//!
//! Knows nothing of answering; the [batch](crate::batch) runner calls it on
//! its reading thread.

use std::collections::VecDeque;
use std::io::{self, BufRead, Cursor, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread;

use cover_models::sudoku::{Entries, Entry, InputError, Layout, Puzzles, ResumePoint, Symbols};

/// An input, as the batch runner opens it.
pub type Input<'r> = Box<dyn BufRead + Send + 'r>;

/// One puzzle read, or why it could not be.
type ReadEntry = Result<Entry, InputError>;

/// The bytes of a block, about: it ends at the first line end after.
pub const BLOCK_BYTES: usize = 64 << 10;

/// How many blocks are cut ahead of the one handed on: enough that the
/// pool reads while it answers (a chunk of easy puzzles is about five).
const BLOCKS_AHEAD: usize = 16;

/// A line this long is not cut around: from it on, one reader reads (and
/// reports it, if it is too long for any reader).
pub const LONGEST_CUT_LINE: usize = 1 << 20;

/// A piece read shorter than this, that ends a line, ends a block: the
/// source had no more at hand (a terminal, a slow pipe), so the puzzles so
/// far go on now.
const SHORT_READ: usize = 4 << 10;

/// The puzzles of one input; see the [module](self) docs.
pub struct SudokuReader<'r> {
    state: State<'r>,
}

enum State<'r> {
    /// One reader, here; blocks of about `cut` bytes follow once it
    /// stands where they may.
    Alone {
        entries: Entries<Input<'r>>,
        cut: Option<usize>,
    },
    /// Blocks read on the pool.
    Blocks(Blocks<'r>),
    /// Only while one state is swapped for the next.
    Swapping,
}

impl<'r> SudokuReader<'r> {
    /// Reads `input`, with `symbols` for every puzzle when given; on the
    /// pool when it has more than one thread.
    pub fn new(input: Input<'r>, symbols: Option<Symbols>) -> Self {
        let cut = rayon::current_num_threads() > 1;
        SudokuReader::cutting(input, symbols, cut.then_some(BLOCK_BYTES))
    }

    /// Reads `input`, in blocks of about `block_bytes` when given.
    pub fn cutting(input: Input<'r>, symbols: Option<Symbols>, block_bytes: Option<usize>) -> Self {
        let entries = Puzzles::new(input, symbols).entries();
        SudokuReader {
            state: State::Alone {
                entries,
                cut: block_bytes,
            },
        }
    }

    /// The layout of the input, once its first puzzle was read.
    pub fn layout(&self) -> Option<Layout> {
        match &self.state {
            State::Alone { entries, .. } => entries.layout(),
            State::Blocks(_) => Some(Layout::Line),
            State::Swapping => None,
        }
    }
}

impl Iterator for SudokuReader<'_> {
    type Item = ReadEntry;

    fn next(&mut self) -> Option<ReadEntry> {
        loop {
            match &mut self.state {
                State::Alone { entries, cut } => {
                    let read = entries.next();
                    let (Some(block_bytes), Some(_)) = (*cut, &read) else {
                        return read;
                    };
                    let Some(point) = entries.resume_point() else {
                        return read;
                    };
                    let State::Alone { entries, .. } =
                        std::mem::replace(&mut self.state, State::Swapping)
                    else {
                        unreachable!("matched above");
                    };
                    self.state =
                        State::Blocks(Blocks::new(entries.into_inner(), point, block_bytes));
                    return read;
                }
                State::Blocks(blocks) => {
                    if let Some(read) = blocks.current.next() {
                        return Some(read);
                    }
                    match blocks.next_block() {
                        Next::Block => {}
                        Next::End => return None,
                        Next::Alone(entries) => {
                            self.state = State::Alone {
                                entries: *entries,
                                cut: None,
                            };
                        }
                    }
                }
                State::Swapping => unreachable!("never left swapping"),
            }
        }
    }
}

/// The input cut into blocks, each read on the pool.
struct Blocks<'r> {
    /// The rest of the input, not yet cut; `None` once it is cut to its
    /// end, or handed to one reader.
    input: Option<Input<'r>>,
    /// Bytes read past the last line end cut at.
    partial: Vec<u8>,
    /// The number of the last line cut.
    lines_cut: usize,
    /// Where the last block handed on ended: the guess for blocks cut from
    /// now on, and the check of the next one's.
    known: ResumePoint,
    /// Blocks cut and not yet handed on, oldest first.
    pending: VecDeque<Pending<'r>>,
    /// The puzzles of the block being handed on.
    current: std::vec::IntoIter<ReadEntry>,
    block_bytes: usize,
    /// Blocks handed on, and those of them read again.
    #[cfg(test)]
    counts: (usize, usize),
}

/// A block cut.
enum Pending<'r> {
    /// Being read on the pool, from `guess`.
    Reading {
        guess: ResumePoint,
        read: mpsc::Receiver<thread::Result<ReadBlock>>,
    },
    /// From here on, one reader reads: these bytes, then `rest`.
    Alone { bytes: Vec<u8>, rest: Input<'r> },
}

/// A block as the pool read it.
struct ReadBlock {
    puzzles: Vec<ReadEntry>,
    /// Where its reader ended (`None`: the input ended in it).
    end: Option<ResumePoint>,
    /// The block, to read again from another point.
    bytes: Vec<u8>,
}

/// What [`Blocks::next_block`] came to.
enum Next<'r> {
    /// The next block's puzzles are in hand.
    Block,
    /// The input ended.
    End,
    /// One reader reads the rest.
    Alone(Box<Entries<Input<'r>>>),
}

impl<'r> Blocks<'r> {
    fn new(input: Input<'r>, point: ResumePoint, block_bytes: usize) -> Self {
        Blocks {
            input: Some(input),
            partial: Vec::new(),
            lines_cut: point.line(),
            known: point,
            pending: VecDeque::with_capacity(BLOCKS_AHEAD),
            current: Vec::new().into_iter(),
            block_bytes,
            #[cfg(test)]
            counts: (0, 0),
        }
    }

    /// Takes the next block's puzzles in hand, first cutting blocks ahead.
    fn next_block(&mut self) -> Next<'r> {
        while self.pending.len() < BLOCKS_AHEAD {
            let Some(block) = self.cut() else {
                break;
            };
            self.pending.push_back(block);
        }
        let (guess, read) = match self.pending.pop_front() {
            None => return Next::End,
            Some(Pending::Alone { bytes, rest }) => {
                let input: Input<'r> = Box::new(Cursor::new(bytes).chain(rest));
                return Next::Alone(Box::new(Entries::resume(input, &self.known)));
            }
            Some(Pending::Reading { guess, read }) => (guess, read),
        };
        let block = match read.recv() {
            Ok(Ok(block)) => block,
            Ok(Err(panic)) => panic::resume_unwind(panic),
            Err(mpsc::RecvError) => unreachable!("a block's job sends its outcome"),
        };
        #[cfg(test)]
        {
            self.counts.0 += 1;
            self.counts.1 += usize::from(guess != self.known);
        }
        let (puzzles, end) = if guess == self.known {
            (block.puzzles, block.end)
        } else {
            read_block(&block.bytes, &self.known)
        };
        self.current = puzzles.into_iter();
        match end {
            Some(end) => self.known = end,
            None => {
                // An `end` line, or a fault: nothing after it is read.
                self.pending.clear();
                self.input = None;
            }
        }
        Next::Block
    }

    /// Cuts the next block and hands it to the pool, or to one reader;
    /// `None` at the end of the input.
    fn cut(&mut self) -> Option<Pending<'r>> {
        let input = self.input.as_mut()?;
        let mut block = Vec::with_capacity(self.block_bytes + SHORT_READ);
        block.append(&mut self.partial);
        // Where the last line end read is (each piece is looked at once).
        let mut last_end = None;
        loop {
            let piece = match input.fill_buf() {
                Ok(piece) => piece,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // One reader meets the error where it would have.
                    self.input = None;
                    let rest: Input<'r> = Box::new(Failing(Some(e)));
                    return Some(Pending::Alone { bytes: block, rest });
                }
            };
            if piece.is_empty() {
                self.input = None;
                break;
            }
            let short = piece.len() < SHORT_READ;
            if let Some(end) = piece.iter().rposition(|&b| b == b'\n') {
                last_end = Some(block.len() + end);
            }
            block.extend_from_slice(piece);
            let used = piece.len();
            input.consume(used);
            if block.len() < self.block_bytes && !(short && block.ends_with(b"\n")) {
                continue;
            }
            match last_end {
                Some(end) => {
                    self.partial = block.split_off(end + 1);
                    break;
                }
                None if block.len() > LONGEST_CUT_LINE => return self.alone(block),
                None => {}
            }
        }
        if block.is_empty() {
            return None;
        }
        if block.contains(&b'{') {
            return self.alone(block);
        }
        let guess = self.known.at_line(self.lines_cut);
        self.lines_cut += block.iter().filter(|&&b| b == b'\n').count();
        let (send, read) = mpsc::sync_channel(1);
        let from = guess.clone();
        rayon::spawn(move || {
            let read = panic::catch_unwind(AssertUnwindSafe(|| {
                let (puzzles, end) = read_block(&block, &from);
                ReadBlock {
                    puzzles,
                    end,
                    bytes: block,
                }
            }));
            // Nobody receives once the input ended before this block.
            let _ = send.send(read);
        });
        Some(Pending::Reading { guess, read })
    }

    /// `block` and the rest of the input, for one reader.
    fn alone(&mut self, mut block: Vec<u8>) -> Option<Pending<'r>> {
        block.append(&mut self.partial);
        let rest = self.input.take().unwrap_or_else(|| Box::new(io::empty()));
        Some(Pending::Alone { bytes: block, rest })
    }
}

/// The puzzles of `block` read from `point`, and where the reading ended.
fn read_block(block: &[u8], point: &ResumePoint) -> (Vec<ReadEntry>, Option<ResumePoint>) {
    let mut entries = Entries::resume(block, point);
    let puzzles = entries.by_ref().collect();
    (puzzles, entries.resume_point())
}

/// A reader that fails with its error once, then ends.
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

impl BufRead for Failing {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.take().map_or(Ok(&[]), Err)
    }

    fn consume(&mut self, _: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each puzzle read, or its error as text: comparable.
    type Readings = Vec<Result<Entry, String>>;

    /// What `reader` gives.
    fn read_all(reader: &mut SudokuReader<'_>) -> Readings {
        reader
            .map(|read| read.map_err(|e| format!("{e:?}")))
            .collect()
    }

    impl SudokuReader<'_> {
        /// The blocks handed on and those read again, while in blocks.
        fn counts(&self) -> Option<(usize, usize)> {
            match &self.state {
                State::Blocks(blocks) => Some(blocks.counts),
                _ => None,
            }
        }
    }

    /// `input` read by one reader, and in blocks of about `block` bytes
    /// from reads of at most `piece` bytes.
    /// Also the blocks handed on and read again (`None`: the input was
    /// not in blocks at its end).
    fn both(
        input: &[u8],
        block: usize,
        piece: usize,
    ) -> (Readings, Readings, Option<(usize, usize)>) {
        let alone = read_all(&mut SudokuReader::cutting(Box::new(input), None, None));
        let pieces = io::BufReader::with_capacity(piece, input);
        let mut reader = SudokuReader::cutting(Box::new(pieces), None, Some(block));
        let cut = read_all(&mut reader);
        (alone, cut, reader.counts())
    }

    const NINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    /// A 16×16 puzzle in 1-9A-G.
    const G16: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4.......\
                       .....29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";

    /// Lines an input of line puzzles may hold, good and bad.
    fn lines() -> Vec<Vec<u8>> {
        let f16: String = G16
            .chars()
            .map(|c| match c {
                'G' => '0',
                c => c,
            })
            .collect();
        // Fits both 16×16 sets: read as the one the input settled on.
        let either: String = G16
            .chars()
            .map(|c| if c.is_ascii_digit() { c } else { '.' })
            .collect();
        let json = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],
[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
        [
            NINE,
            NINE,
            "",
            "# a comment",
            "+-------+",
            G16,
            &f16,
            &either,
            "not a puzzle",
            "123",
            &NINE.replace('4', "x"),
            &format!("{NINE}\r"),
            &format!("{NINE} trailing words"),
            "1234341221434321",
            "END",
            json,
        ]
        .iter()
        .map(|line| line.as_bytes().to_vec())
        .chain([b"\xFF\xFE".to_vec()])
        .collect()
    }

    proptest::proptest! {
        /// Any input of such lines, cut into blocks of any size, reads as
        /// one reader reads it: the same puzzles and errors, in order.
        #[test]
        fn blocks_read_as_one_reader(
            picks in proptest::collection::vec(0..17usize, 1..40),
            block in 1..300usize,
            piece in 1..300usize,
            last_line_ends in proptest::bool::ANY,
        ) {
            let lines = lines();
            let mut input = NINE.as_bytes().to_vec();
            for pick in picks {
                input.push(b'\n');
                input.extend_from_slice(&lines[pick]);
            }
            if last_line_ends {
                input.push(b'\n');
            }
            let (alone, cut, _) = both(&input, block, piece);
            proptest::prop_assert_eq!(alone, cut);
        }
    }

    /// Many blocks, each read on the pool: the same puzzles, with their
    /// line numbers.
    #[test]
    fn a_long_input_reads_the_same_in_blocks() {
        let mut input = String::new();
        for k in 0..5000 {
            input.push_str(if k % 7 == 3 { "# comment\n" } else { "" });
            input.push_str(NINE);
            input.push('\n');
        }
        let (alone, cut, counts) = both(input.as_bytes(), 1000, 4096);
        assert_eq!(alone.len(), 5000);
        assert_eq!(alone, cut);
        // Every guess held: line numbers counted right, nothing read twice.
        let (blocks, again) = counts.unwrap();
        assert!(blocks > 50, "{blocks}");
        assert_eq!(again, 0);
    }

    /// The 16×16 set settles differently in a later block than the guess
    /// it was read from: read again, it gives what one reader gives.
    #[test]
    fn a_wrong_guess_is_read_again() {
        let either: String = G16
            .chars()
            .map(|c| if c.is_ascii_digit() { c } else { '.' })
            .collect();
        let f16 = G16.replace('G', "0");
        let input = format!("{G16}\n{either}\n{f16}\n{either}\n");
        let (alone, cut, counts) = both(input.as_bytes(), 1, 1);
        assert_eq!(alone, cut);
        assert_eq!(counts, Some((3, 1)));
        // The last reads as 0-9A-F, the one before the other way.
        let set = |read: &Result<Entry, String>| match read {
            Ok(Entry::Classic(puzzle)) => format!("{:?}", puzzle.notation),
            other => panic!("{other:?}"),
        };
        assert_ne!(set(&cut[1]), set(&cut[3]));
    }

    /// A line over [`LONGEST_CUT_LINE`] and the input after it go to one
    /// reader, which reports the line (it is too long for any reader) and
    /// reads on.
    #[test]
    fn a_very_long_line_is_read_by_one_reader() {
        let long = "9".repeat(cover_models::text::MAX_LINE_BYTES + 10);
        let input = format!("{NINE}\n{NINE}\n{long}\n{NINE}\n");
        let (alone, cut, counts) = both(input.as_bytes(), 100, 100);
        assert_eq!(counts, None, "still in blocks");
        assert_eq!(alone.len(), 4);
        assert!(
            alone[2].as_ref().unwrap_err().contains("TooLong"),
            "{:?}",
            alone[2]
        );
        assert_eq!(alone, cut);
    }

    /// A reader that fails after its first `good` bytes.
    struct FailsAfter<'a> {
        good: &'a [u8],
    }

    impl Read for FailsAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.good.is_empty() {
                return Err(io::Error::other("the disk failed"));
            }
            let n = buf.len().min(self.good.len()).min(50);
            buf[..n].copy_from_slice(&self.good[..n]);
            self.good = &self.good[n..];
            Ok(n)
        }
    }

    /// An input that fails part way: the puzzles before, then the error,
    /// then nothing, as one reader gives them.
    #[test]
    fn an_input_error_comes_where_it_would() {
        let input = format!("{NINE}\n{NINE}\n{NINE}\n{NINE}\n");
        let failing = |good: usize, block: Option<usize>| {
            let reader = io::BufReader::with_capacity(
                64,
                FailsAfter {
                    good: &input.as_bytes()[..good],
                },
            );
            read_all(&mut SudokuReader::cutting(Box::new(reader), None, block))
        };
        for good in [90, 170, 200] {
            let alone = failing(good, None);
            assert!(alone
                .last()
                .unwrap()
                .as_ref()
                .unwrap_err()
                .contains("the disk failed"));
            assert_eq!(
                alone,
                failing(good, Some(100)),
                "failing after {good} bytes"
            );
        }
    }
}
