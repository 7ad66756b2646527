//! Reading `cover sudoku`'s inputs: on the reading thread alone, or, once
//! an input turns out to hold one puzzle per line and there are threads to
//! spare, on parsing threads, the reading thread only cutting the input
//! into blocks.
//!
//! Parsing a line is a large part of the work on easy puzzles (see
//! `docs/measurements.md`), and on one thread it bounds the speed-up of a
//! run. So [`SudokuReader`] reads the first puzzle itself (the input's
//! layout is learnt there), then cuts the rest at line ends into blocks of
//! at most about [`BLOCK_BYTES`] and [`BLOCK_LINES`], has parsing threads
//! (one per [`POOL_THREADS_PER_PARSER`] of rayon's global pool) read each
//! from the point where the reader stood ([`ResumePoint`]), and hands on
//! their puzzles in order. A block is read from a guess, the last point
//! known moved to its first line; if the block before it ended elsewhere
//! (an input of 16×16 puzzles whose symbol set changes), it is read again
//! here, from the right point. A block no parsing thread has started when
//! its turn comes is read here too, so the reading never waits on them.
//! What comes out is what one reader gives, line numbers and errors
//! included.
//!
//! Some lines are read by one reader, from where they are until the next
//! point where blocks may start again: a JSON document (it may span
//! lines), a line longer than [`LONGEST_CUT_LINE`]. An `end` line stops
//! the cutting. A source that has no more at hand (a terminal, a slow
//! pipe) gets the puzzles cut so far handed on before it is read again.
//!
//! Knows nothing of answering; the [batch](crate::batch) runner calls it on
//! its reading thread.

use std::collections::VecDeque;
use std::io::{self, BufRead, Cursor, Read};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex, OnceLock, PoisonError};
use std::thread;

use cover_models::sudoku::{
    begins_document, is_end_line, Entries, Entry, InputError, Layout, Puzzles, ResumePoint, Symbols,
};

/// An input, as the batch runner opens it.
pub type Input<'r> = Box<dyn BufRead + Send + 'r>;

/// What one reader reads: bytes already read from the input, then the
/// rest of it.
type Rest<'r> = io::Chain<Cursor<Vec<u8>>, Input<'r>>;

/// One puzzle read, or why it could not be.
type ReadEntry = Result<Entry, InputError>;

/// The most bytes of a block, about: it ends at the line end after.
pub const BLOCK_BYTES: usize = 64 << 10;

/// The most lines of a block: with [`BLOCKS_AHEAD`], the puzzles held
/// ahead are about four of the batch runner's chunks, however short the
/// lines.
pub const BLOCK_LINES: usize = 1024;

/// How many blocks are cut ahead of the one handed on: enough that they
/// are read while the pool answers (a chunk of 9×9 puzzles is about
/// five).
const BLOCKS_AHEAD: usize = 16;

/// A line longer than this is read by one reader (which also reports it
/// when it is too long for any): a block holds at most one such line.
pub const LONGEST_CUT_LINE: usize = 256 << 10;

/// A read shorter than this shows a source that had no more at hand.
const SHORT_READ: usize = 4 << 10;

/// How big the blocks of an input are, at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// About this many bytes: a block ends at the line end after.
    pub bytes: usize,
    /// This many lines.
    pub lines: usize,
}

impl Cut {
    /// [`BLOCK_BYTES`] and [`BLOCK_LINES`].
    pub const DEFAULT: Cut = Cut {
        bytes: BLOCK_BYTES,
        lines: BLOCK_LINES,
    };
}

/// The puzzles of one input; see the [module](self) docs.
pub struct SudokuReader<'r> {
    state: State<'r>,
    /// `None`: one reader reads everything.
    cut: Option<Cut>,
}

enum State<'r> {
    /// One reader, here.
    Alone(Entries<Rest<'r>>),
    /// Blocks read on the parsing threads.
    Blocks(Blocks<'r>),
    /// Only while one state is swapped for the next.
    Swapping,
}

impl<'r> SudokuReader<'r> {
    /// Reads `input`, with `symbols` for every puzzle when given; in
    /// blocks when rayon's global pool has more than one thread.
    pub fn new(input: Input<'r>, symbols: Option<Symbols>) -> Self {
        let cut = rayon::current_num_threads() > 1;
        SudokuReader::cutting(input, symbols, cut.then_some(Cut::DEFAULT))
    }

    /// Reads `input`, in blocks of at most `cut` when given.
    pub fn cutting(input: Input<'r>, symbols: Option<Symbols>, cut: Option<Cut>) -> Self {
        let rest = Cursor::new(Vec::new()).chain(input);
        SudokuReader {
            state: State::Alone(Puzzles::new(rest, symbols).entries()),
            cut,
        }
    }

    /// The layout of the input, once its first puzzle was read.
    pub fn layout(&self) -> Option<Layout> {
        match &self.state {
            State::Alone(entries) => entries.layout(),
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
                State::Alone(entries) => {
                    let read = entries.next()?;
                    let (Some(cut), Some(point)) = (self.cut, entries.resume_point()) else {
                        return Some(read);
                    };
                    let State::Alone(entries) = std::mem::replace(&mut self.state, State::Swapping)
                    else {
                        unreachable!("matched above");
                    };
                    let (read_ahead, input) = entries.into_inner().into_inner();
                    let at = usize::try_from(read_ahead.position()).expect("within memory");
                    let mut unread = read_ahead.into_inner();
                    unread.drain(..at.min(unread.len()));
                    self.state = State::Blocks(Blocks::new(input, unread, point, cut));
                    return Some(read);
                }
                State::Blocks(blocks) => {
                    if let Some(read) = blocks.current.next() {
                        return Some(read);
                    }
                    match blocks.next_block() {
                        Next::Block => {}
                        Next::End => return None,
                        Next::Alone(entries) => self.state = State::Alone(*entries),
                    }
                }
                State::Swapping => unreachable!("never left swapping"),
            }
        }
    }
}

/// The input cut into blocks, each read on a parsing thread.
struct Blocks<'r> {
    /// The rest of the input, not yet read; `None` once it ended (or an
    /// `end` line was cut).
    input: Option<Input<'r>>,
    /// Bytes read and not yet cut into a block: part of a line, or more
    /// when a block was full of lines.
    partial: Vec<u8>,
    /// The number of the last line cut.
    lines_cut: usize,
    /// Where the last block handed on ended: the guess for blocks cut from
    /// now on, and the check of the next one's.
    known: ResumePoint,
    /// Blocks cut and not yet handed on, oldest first.
    pending: VecDeque<Pending>,
    /// A block for one reader was cut: nothing more is.
    alone_next: bool,
    /// The last read was short: hand on what is pending before reading
    /// again.
    source_waits: bool,
    /// The puzzles of the block being handed on.
    current: std::vec::IntoIter<ReadEntry>,
    cut: Cut,
    /// Blocks handed on, and those of them whose guess was wrong.
    #[cfg(test)]
    counts: (usize, usize),
}

/// A block cut.
enum Pending {
    /// Handed to the parsing threads, read from `guess`: its bytes, until
    /// a thread takes them (a parsing thread, or this one when its turn
    /// comes first), and where a parsing thread's reading arrives.
    Reading {
        guess: ResumePoint,
        bytes: Arc<Mutex<Option<Vec<u8>>>>,
        read: mpsc::Receiver<ReadBlock>,
    },
    /// From these bytes on, one reader reads (the rest of the input
    /// after them).
    Alone(Vec<u8>),
}

/// A block as a parsing thread read it: its bytes (to read again from another
/// point), and its puzzles and where its reader ended, or its panic.
struct ReadBlock {
    bytes: Vec<u8>,
    read: thread::Result<(Vec<ReadEntry>, Option<ResumePoint>)>,
}

/// What [`Blocks::next_block`] came to.
enum Next<'r> {
    /// The next block's puzzles are in hand.
    Block,
    /// The input ended.
    End,
    /// One reader reads on.
    Alone(Box<Entries<Rest<'r>>>),
}

/// What a block holds that matters to cutting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    /// Puzzles, errors, comments.
    Lines,
    /// A line that ends the input.
    End,
    /// The first line of a JSON document, before any `end` line.
    Document,
}

impl<'r> Blocks<'r> {
    fn new(input: Input<'r>, unread: Vec<u8>, point: ResumePoint, cut: Cut) -> Self {
        Blocks {
            input: Some(input),
            partial: unread,
            lines_cut: point.line(),
            known: point,
            pending: VecDeque::with_capacity(BLOCKS_AHEAD),
            alone_next: false,
            source_waits: false,
            current: Vec::new().into_iter(),
            cut,
            #[cfg(test)]
            counts: (0, 0),
        }
    }

    /// Takes the next block's puzzles in hand, first cutting blocks ahead
    /// while the source keeps up.
    fn next_block(&mut self) -> Next<'r> {
        while self.pending.len() < BLOCKS_AHEAD && (self.pending.is_empty() || !self.source_waits) {
            let Some(block) = self.cut() else {
                break;
            };
            self.pending.push_back(block);
        }
        let (guess, bytes, read) = match self.pending.pop_front() {
            None => return Next::End,
            Some(Pending::Alone(bytes)) => {
                let rest = self.input.take().unwrap_or_else(|| Box::new(io::empty()));
                let rest = Cursor::new(bytes).chain(rest);
                return Next::Alone(Box::new(Entries::resume(rest, &self.known)));
            }
            Some(Pending::Reading { guess, bytes, read }) => (guess, bytes, read),
        };
        let right = guess == self.known;
        #[cfg(test)]
        {
            self.counts.0 += 1;
            self.counts.1 += usize::from(!right);
        }
        let taken = bytes.lock().unwrap_or_else(PoisonError::into_inner).take();
        let (puzzles, end) = match taken {
            // Not started elsewhere: read here, from the known point.
            Some(bytes) => read_block(&bytes, &self.known),
            None => {
                let block = read.recv().expect("a block's job sends its reading");
                match block.read {
                    Ok(read) if right => read,
                    Err(panic) if right => panic::resume_unwind(panic),
                    // Read from a wrong guess: read again.
                    Ok(_) | Err(_) => read_block(&block.bytes, &self.known),
                }
            }
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

    /// Cuts the next block and hands it to the parsing threads, or to one
    /// reader;
    /// `None` at the end of the input.
    fn cut(&mut self) -> Option<Pending> {
        if self.alone_next {
            return None;
        }
        let mut block = std::mem::take(&mut self.partial);
        block.reserve(self.cut.bytes.min(BLOCK_BYTES));
        // Line ends counted in `block[..looked]`; whole lines end at `end`,
        // and those in `block[..checked]` hold `held`.
        let (mut looked, mut lines, mut end) = (0, 0, 0);
        let (mut checked, mut held) = (0, Holds::Lines);
        let mut short = false;
        loop {
            if let Some(at) = line_ends(&block[looked..], &mut lines, self.cut.lines.max(1)) {
                end = looked + at;
            }
            looked = block.len();
            if held == Holds::Lines {
                held = holds(&block[checked..end]);
                checked = end;
            }
            // Not a byte more is read after `end`, as one reader reads
            // none; nor for a block that goes to one reader.
            if held != Holds::Lines {
                break;
            }
            let enough = block.len() >= self.cut.bytes || short;
            if lines >= self.cut.lines || (end > 0 && enough) {
                break;
            }
            if end == 0 && block.len() > LONGEST_CUT_LINE {
                return self.alone(block);
            }
            let Some(input) = self.input.as_mut() else {
                break;
            };
            let piece = match input.fill_buf() {
                Ok(piece) => piece,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // One reader meets the error where it would have.
                    self.input = Some(Box::new(Failing(Some(e))));
                    return self.alone(block);
                }
            };
            if piece.is_empty() {
                if end < block.len() {
                    // Like a line reader: the end of a line, and the input
                    // is read again after it (a terminal may say more).
                    end = block.len();
                    lines += 1;
                } else {
                    self.input = None;
                }
                break;
            }
            short = piece.len() < SHORT_READ;
            block.extend_from_slice(piece);
            let used = piece.len();
            input.consume(used);
        }
        self.source_waits = short;
        if held == Holds::Lines {
            held = holds(&block[checked..end]);
        }
        self.partial = block.split_off(end);
        if block.is_empty() {
            return None;
        }
        match held {
            Holds::Lines => {}
            Holds::End => {
                self.input = None;
                self.partial = Vec::new();
            }
            Holds::Document => return self.alone(block),
        }
        let guess = self.known.at_line(self.lines_cut);
        self.lines_cut += lines;
        let bytes = Arc::new(Mutex::new(Some(block)));
        let (send, read) = mpsc::sync_channel(1);
        let (job_bytes, from) = (Arc::clone(&bytes), guess.clone());
        // Without parsing threads, every block is read here.
        let Some(parsers) = parsers() else {
            return Some(Pending::Reading { guess, bytes, read });
        };
        parsers.spawn(move || {
            let taken = job_bytes
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            // Taken by the reading thread, whose turn came first.
            let Some(bytes) = taken else {
                return;
            };
            let read = panic::catch_unwind(AssertUnwindSafe(|| read_block(&bytes, &from)));
            // Nobody receives once the input ended before this block.
            let _ = send.send(ReadBlock { bytes, read });
        });
        Some(Pending::Reading { guess, bytes, read })
    }

    /// `block` and what follows, for one reader.
    fn alone(&mut self, mut block: Vec<u8>) -> Option<Pending> {
        block.append(&mut self.partial);
        self.alone_next = true;
        Some(Pending::Alone(block))
    }
}

/// One parsing thread per this many of the pool's.
pub const POOL_THREADS_PER_PARSER: usize = 8;

/// The threads that read blocks, made at the first block: their own, not
/// the pool's, for rayon runs work sent to its pool from outside only
/// once its threads have none left to steal, so blocks would wait while
/// the pool answers (at `-j 2`, the reading thread came to read about
/// half of them itself).
fn parsers() -> Option<&'static rayon::ThreadPool> {
    static PARSERS: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    PARSERS
        .get_or_init(|| {
            let threads = rayon::current_num_threads().div_ceil(POOL_THREADS_PER_PARSER);
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|k| format!("cover-parse-{k}"))
                .build()
                .ok()
        })
        .as_ref()
}

/// Counts the line ends of `bytes` into `lines`, up to `most` in all; the
/// place after the last one counted, if any.
fn line_ends(bytes: &[u8], lines: &mut usize, most: usize) -> Option<usize> {
    let count = bytes.iter().filter(|&&b| b == b'\n').count();
    if *lines + count <= most {
        *lines += count;
        return bytes.iter().rposition(|&b| b == b'\n').map(|at| at + 1);
    }
    let wanted = most - *lines;
    *lines = most;
    let mut ends = bytes.iter().enumerate().filter(|&(_, &b)| b == b'\n');
    ends.nth(wanted - 1).map(|(at, _)| at + 1)
}

/// What the lines of `block` hold that matters to cutting.
fn holds(block: &[u8]) -> Holds {
    // Most blocks hold neither `{` nor the letter `e`: one pass says so.
    if !block.iter().any(|&b| b == b'{' || b | 0x20 == b'e') {
        return Holds::Lines;
    }
    for line in block.split(|&b| b == b'\n') {
        // Past white space (ASCII's, as `str::trim` sees it), only `{`,
        // `e` or a character beyond ASCII may begin what matters.
        let first = line.iter().find(|&&b| !matches!(b, b'\t'..=b'\r' | b' '));
        match first {
            Some(b'{' | b'e' | b'E') => {}
            Some(b) if b.is_ascii() => continue,
            None => continue,
            Some(_) => {}
        }
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        if is_end_line(text) {
            return Holds::End;
        }
        if begins_document(text) {
            return Holds::Document;
        }
    }
    Holds::Lines
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
    use std::collections::VecDeque;

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
        /// The blocks handed on, and those whose guess was wrong, while in
        /// blocks.
        fn counts(&self) -> Option<(usize, usize)> {
            match &self.state {
                State::Blocks(blocks) => Some(blocks.counts),
                _ => None,
            }
        }
    }

    /// `input` read by one reader, and in blocks of at most `cut` from
    /// reads of at most `piece` bytes; with the second's counts.
    fn both(
        input: &[u8],
        symbols: Option<&str>,
        cut: Cut,
        piece: usize,
    ) -> (Readings, Readings, Option<(usize, usize)>) {
        let symbols = || symbols.map(|s| Symbols::new(s).unwrap());
        let alone = read_all(&mut SudokuReader::cutting(Box::new(input), symbols(), None));
        let pieces = io::BufReader::with_capacity(piece, input);
        let mut reader = SudokuReader::cutting(Box::new(pieces), symbols(), Some(cut));
        let cut = read_all(&mut reader);
        (alone, cut, reader.counts())
    }

    fn cut(bytes: usize, lines: usize) -> Cut {
        Cut { bytes, lines }
    }

    const NINE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    /// A 16×16 puzzle in 1-9A-G.
    const G16: &str = "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4.......\
                       .....29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";

    /// The 16×16 puzzle in 0-9A-F.
    fn f16() -> String {
        G16.replace('G', "0")
    }

    /// A 16×16 puzzle that fits both sets: read as the one the input
    /// settled on.
    fn either() -> String {
        G16.chars()
            .map(|c| if c.is_ascii_digit() { c } else { '.' })
            .collect()
    }

    /// Lines an input of line puzzles may hold, good and bad.
    fn lines() -> Vec<Vec<u8>> {
        let json = r#"{"size":4,"grid":[[{"value":1,"given":true},{},{},{}],
[{},{},{},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
        [
            NINE,
            NINE,
            "",
            "# a comment {",
            "+-------+",
            G16,
            &f16(),
            &either(),
            "not a puzzle",
            "123",
            &NINE.replace('4', "x"),
            &format!("{NINE}\r"),
            &format!("{NINE} trailing words"),
            "1234341221434321",
            " End ",
            json,
            "\u{3000}end",
            "\u{feff}",
        ]
        .iter()
        .map(|line| line.as_bytes().to_vec())
        .chain([b"\xFF\xFE".to_vec(), b"\x0Bend".to_vec()])
        .collect()
    }

    proptest::proptest! {
        /// Any input of such lines (from its first), cut into blocks of
        /// any size from reads of any size, with or without `--symbols`,
        /// reads as one reader reads it: the same puzzles and errors, in
        /// order.
        #[test]
        fn blocks_read_as_one_reader(
            picks in proptest::collection::vec(0..20usize, 1..40),
            bytes in 1..300usize,
            block_lines in 1..6usize,
            piece in 1..9000usize,
            bom in proptest::bool::ANY,
            sixteen in proptest::bool::ANY,
            last_line_ends in proptest::bool::ANY,
        ) {
            let lines = lines();
            let mut input = Vec::new();
            if bom {
                input.extend_from_slice("\u{feff}".as_bytes());
            }
            for (k, pick) in picks.iter().enumerate() {
                if k > 0 {
                    input.push(b'\n');
                }
                input.extend_from_slice(&lines[*pick]);
            }
            if last_line_ends {
                input.push(b'\n');
            }
            let symbols = sixteen.then_some("0123456789ABCDEF");
            let (alone, cut, _) = both(&input, symbols, cut(bytes, block_lines), piece);
            proptest::prop_assert_eq!(alone, cut);
        }
    }

    /// Many blocks, each read apart: the same puzzles, with their
    /// line numbers; every guess holds.
    #[test]
    fn a_long_input_reads_the_same_in_blocks() {
        let mut input = String::new();
        for k in 0..5000 {
            input.push_str(if k % 7 == 3 { "# comment\n" } else { "" });
            input.push_str(NINE);
            input.push('\n');
        }
        let (alone, cut, counts) = both(input.as_bytes(), None, Cut::DEFAULT, 1 << 16);
        assert_eq!(alone.len(), 5000);
        assert_eq!(alone, cut);
        let (blocks, wrong) = counts.unwrap();
        assert!(blocks > 5, "{blocks}");
        assert_eq!(wrong, 0, "line numbers counted right");
    }

    /// Short lines: a block holds at most [`BLOCK_LINES`] of them, so
    /// what is held ahead is bounded by lines as well as bytes.
    #[test]
    fn blocks_hold_a_bounded_number_of_lines() {
        let input = format!("{NINE}\n{}", "x\n".repeat(10 * BLOCK_LINES));
        let (alone, cut, counts) = both(input.as_bytes(), None, Cut::DEFAULT, 1 << 16);
        assert_eq!(alone.len(), 10 * BLOCK_LINES + 1);
        assert_eq!(alone, cut);
        assert_eq!(counts.unwrap().0, 10);
    }

    /// The 16×16 set settles otherwise in a block than the guess the
    /// blocks after it were cut with: they are read again, and give what
    /// one reader gives.
    #[test]
    fn a_wrong_guess_is_read_again() {
        // Comments, so that the reads are long and blocks are cut ahead.
        let comments = format!("# {}\n", "-".repeat(100)).repeat(50);
        let input = format!("{G16}\n{}\n{}\n{}\n{comments}", either(), f16(), either());
        let (alone, cut, counts) = both(input.as_bytes(), None, cut(1, 1), 1 << 16);
        assert_eq!(alone, cut);
        assert!(counts.unwrap().1 > 0, "{counts:?}");
        // The last reads as 0-9A-F, the one before as 1-9A-G.
        let set = |read: &Result<Entry, String>| match read {
            Ok(Entry::Classic(puzzle)) => format!("{:?}", puzzle.notation),
            other => panic!("{other:?}"),
        };
        assert_ne!(set(&cut[1]), set(&cut[3]));
    }

    /// A line over [`LONGEST_CUT_LINE`] goes to one reader, which reports
    /// it (it is too long for any reader); blocks go on after it.
    #[test]
    fn a_very_long_line_is_read_by_one_reader() {
        let long = "9".repeat(cover_models::text::MAX_LINE_BYTES + 10);
        let input = format!("{NINE}\n{NINE}\n{long}\n{NINE}\n{NINE}\n");
        let (alone, cut, counts) = both(input.as_bytes(), None, cut(100, 1), 100);
        assert_eq!(alone.len(), 5);
        assert!(
            alone[2].as_ref().unwrap_err().contains("TooLong"),
            "{:?}",
            alone[2]
        );
        assert_eq!(alone, cut);
        // The last puzzle came in blocks again.
        assert!(counts.is_some());
    }

    /// A JSON document spans lines: one reader reads it, blocks go on
    /// after it.
    #[test]
    fn a_document_is_read_by_one_reader() {
        let json =
            "{\"size\":4,\n\"grid\":[[{},{},{},{}],[{},{},{},{}],\n[{},{},{},{}],[{},{},{},{}]]}";
        let input = format!("{NINE}\n{NINE}\n{json}\n{NINE}\n{NINE}\n");
        let (alone, cut, counts) = both(input.as_bytes(), None, cut(1, 1), 1 << 16);
        assert_eq!(alone.len(), 5);
        assert!(matches!(alone[2], Ok(Entry::Variant(_))), "{:?}", alone[2]);
        assert_eq!(alone, cut);
        assert!(counts.is_some());
    }

    /// A source that hands out `pieces` one read at a time (an empty one
    /// is an end of input, and reading goes on after it, as a terminal's
    /// Ctrl-D), and fails the test if read past them.
    struct Script {
        pieces: VecDeque<Vec<u8>>,
        at: usize,
    }

    impl Script {
        fn new(pieces: &[&str]) -> Self {
            Script {
                pieces: pieces.iter().map(|p| p.as_bytes().to_vec()).collect(),
                at: 0,
            }
        }
    }

    impl Read for Script {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let piece = self.fill_buf()?;
            let n = piece.len().min(buf.len());
            buf[..n].copy_from_slice(&piece[..n]);
            self.consume(n);
            Ok(n)
        }
    }

    impl BufRead for Script {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            let front = self.pieces.front().expect("read past the script");
            if front.is_empty() {
                self.pieces.pop_front();
                return Ok(&[]);
            }
            Ok(&self.pieces[0][self.at..])
        }

        fn consume(&mut self, amount: usize) {
            self.at += amount;
            if self.at == self.pieces[0].len() {
                self.pieces.pop_front();
                self.at = 0;
            }
        }
    }

    /// `pieces` read in blocks, `take` puzzles of them, without reading
    /// past them.
    fn take_from_script(pieces: &[&str], take: usize) -> Readings {
        let mut reader =
            SudokuReader::cutting(Box::new(Script::new(pieces)), None, Some(Cut::DEFAULT));
        let got: Readings = reader
            .by_ref()
            .take(take)
            .map(|r| r.map_err(|e| format!("{e:?}")))
            .collect();
        assert_eq!(got.len(), take);
        got
    }

    /// `end` stops the reading at once, as it does for one reader; a
    /// source that has no more at hand gets the puzzles so far handed on
    /// before it is read again.
    #[test]
    fn end_and_a_waiting_source_are_not_read_past() {
        let line = format!("{NINE}\n");
        // A long read (more is at hand), with `end` in it.
        let ended = format!("{}end\n", line.repeat(60));
        let mut reader = SudokuReader::cutting(
            Box::new(Script::new(&[&line, &ended])),
            None,
            Some(Cut::DEFAULT),
        );
        assert_eq!(reader.by_ref().count(), 61, "nothing read after end");
        take_from_script(&[&line, &line, &line, &line], 4);
    }

    /// An end of input in the middle of a line ends the line, and reading
    /// goes on after it, as one reader does.
    #[test]
    fn an_end_of_input_mid_line_ends_the_line() {
        let (half, rest) = NINE.split_at(40);
        let pieces = [NINE, "\n", half, "", rest, "\n", NINE, "\n", ""];
        let script = || Box::new(Script::new(&pieces));
        let alone = read_all(&mut SudokuReader::cutting(script(), None, None));
        let cut = read_all(&mut SudokuReader::cutting(
            script(),
            None,
            Some(Cut::DEFAULT),
        ));
        assert_eq!(alone.len(), 4, "{alone:?}");
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
        let failing = |good: usize, cut: Option<Cut>| {
            let reader = io::BufReader::with_capacity(
                64,
                FailsAfter {
                    good: &input.as_bytes()[..good],
                },
            );
            read_all(&mut SudokuReader::cutting(Box::new(reader), None, cut))
        };
        for good in [90, 170, 200] {
            let alone = failing(good, None);
            let last = alone.last().unwrap().as_ref().unwrap_err();
            assert!(last.contains("the disk failed"), "{last}");
            assert_eq!(
                alone,
                failing(good, Some(cut(100, 1))),
                "failing after {good}"
            );
        }
    }
}
