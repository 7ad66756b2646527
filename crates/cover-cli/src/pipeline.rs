//! The loop every batch command runs: read instances in chunks, answer each
//! chunk on rayon's pool, print the answers in input order.
//!
//! It is a pipeline of three stages: a thread of its own reads chunks,
//! the pool works on two chunks at once (so that its threads go on to the
//! next chunk while the last instances of one are still being answered),
//! and this thread prints the chunk before. Reading and printing so cost
//! no time of their own when there are cores to spare, and as each is
//! serial, each on its own thread bounds the speed-up less than both on
//! one. Memory holds four chunks at most, however long the input: one
//! read ahead (or being read), two answered, one printed (and what the
//! command's `read` holds ahead of them: from 8 threads on, `cover sudoku`
//! parses up to 16 blocks of lines ahead, each at most 64 KiB or 1,024
//! lines). Chunks start small and double up to a most ([`ChunkSizes`]),
//! so that the pool starts at once and a short input still spreads over
//! the threads.
//!
//! The pipeline knows nothing of what an instance or an answer is: the
//! command's `read`, `answer` and `print` do.

use std::collections::VecDeque;
use std::io;
use std::sync::mpsc;

/// How many instances a chunk holds: `first` for the first chunk, then
/// twice the last, up to `most`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSizes {
    /// The first chunk's size.
    pub first: usize,
    /// The largest chunk.
    pub most: usize,
}

impl ChunkSizes {
    /// Chunks of `size` from the first on.
    pub fn fixed(size: usize) -> ChunkSizes {
        ChunkSizes {
            first: size,
            most: size,
        }
    }
}

/// Runs the pipeline. `read(n)` reads a chunk of at most `n` instances and
/// says whether the input may have more (on a thread of its own); `answer`
/// answers a chunk (on the pool: it may use rayon inside); `print` prints
/// a chunk with its answers, and an error from it stops everything and is
/// returned, once the chunk being read is read. With a pool of one
/// thread, the steps run one after the other on this thread.
pub fn run<C, A>(
    sizes: ChunkSizes,
    mut read: impl FnMut(usize) -> (C, bool) + Send,
    answer: impl Fn(&C) -> A + Sync,
    mut print: impl FnMut(C, A) -> io::Result<()>,
) -> io::Result<()>
where
    C: Send,
    A: Send,
{
    let most = sizes.most.max(1);
    let mut size = sizes.first.clamp(1, most);
    let mut next_size = || {
        let this = size;
        size = (size * 2).min(most);
        this
    };
    if rayon::current_num_threads() == 1 {
        // One thread means one: no reading or printing alongside.
        loop {
            let (chunk, more) = read(next_size());
            let answers = answer(&chunk);
            print(chunk, answers)?;
            if !more {
                return Ok(());
            }
        }
    }
    let answer = &answer;
    std::thread::scope(|threads| {
        // A rendezvous: the reader holds the one chunk it read ahead until
        // the pool takes it, so that no more chunks wait in memory.
        let (send_read, read_chunks) = mpsc::sync_channel::<(C, bool)>(0);
        // Named, for profilers and debuggers.
        let reader = std::thread::Builder::new()
            .name("cover-read".into())
            .spawn_scoped(threads, move || loop {
                let (chunk, more) = read(next_size());
                // Nobody receives once printing failed: stop reading.
                if send_read.send((chunk, more)).is_err() || !more {
                    return;
                }
            })
            .expect("the system starts a thread");
        let printed = pool_and_print(read_chunks, answer, print);
        // A panic while reading is raised here, as itself (the scope would
        // raise a panic of its own).
        if let Err(panic) = reader.join() {
            std::panic::resume_unwind(panic);
        }
        printed
    })
}

/// The pool's and the printer's stages of [`run`], on this thread: chunks
/// from `read_chunks` answered on the pool, two at a time, and printed.
fn pool_and_print<C, A>(
    read_chunks: mpsc::Receiver<(C, bool)>,
    answer: &(impl Fn(&C) -> A + Sync),
    mut print: impl FnMut(C, A) -> io::Result<()>,
) -> io::Result<()>
where
    C: Send,
    A: Send,
{
    // The scope runs this closure on this thread, which is not one of the
    // pool's: it prints while the pool answers.
    rayon::in_place_scope(|scope| {
        // Chunks on the pool, oldest first, each with where its answers
        // (and the chunk itself, back) will arrive.
        let mut in_flight = VecDeque::with_capacity(IN_FLIGHT);
        let mut more = true;
        let mut fill = |in_flight: &mut VecDeque<_>| {
            while more && in_flight.len() < IN_FLIGHT {
                // The reader hung up: after its last chunk, or in a panic
                // that `run` raises once this returns.
                let Ok((chunk, may_have_more)) = read_chunks.recv() else {
                    more = false;
                    break;
                };
                more = may_have_more;
                let (send, receive) = mpsc::sync_channel(1);
                scope.spawn(move |_| {
                    let answers = answer(&chunk);
                    // Nobody receives when printing failed: fine.
                    let _ = send.send((chunk, answers));
                });
                in_flight.push_back(receive);
            }
        };
        fill(&mut in_flight);
        while let Some(receive) = in_flight.pop_front() {
            let Ok((chunk, answers)) = receive.recv() else {
                // The answering panicked; the scope raises that panic as
                // it ends.
                return Ok(());
            };
            // The next chunk goes to the pool before this one is printed,
            // so that the pool has two while this thread prints.
            fill(&mut in_flight);
            print(chunk, answers)?;
        }
        Ok(())
    })
}

/// How many chunks the pool works on at once: with one, threads would
/// idle while a chunk's last puzzles are answered.
const IN_FLIGHT: usize = 2;

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the pipeline over `0..total`, answering each number with its
    /// square; returns what was printed and the chunk sizes read.
    fn squares(total: usize, sizes: ChunkSizes, threads: usize) -> (Vec<u64>, Vec<usize>) {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut next = 0;
            let mut asked = Vec::new();
            let mut printed = Vec::new();
            run(
                sizes,
                |n| {
                    asked.push(n);
                    let chunk: Vec<u64> = (next..total.min(next + n)).map(|k| k as u64).collect();
                    next += chunk.len();
                    (chunk, next < total)
                },
                |chunk| chunk.iter().map(|k| k * k).collect::<Vec<u64>>(),
                |chunk, answers| {
                    assert_eq!(chunk.len(), answers.len());
                    printed.extend(answers);
                    Ok(())
                },
            )
            .unwrap();
            (printed, asked)
        })
    }

    #[test]
    fn answers_come_out_in_order_with_growing_chunks() {
        for threads in [1, 3] {
            let (printed, asked) = squares(100, ChunkSizes { first: 4, most: 32 }, threads);
            let want: Vec<u64> = (0..100u64).map(|k| k * k).collect();
            assert_eq!(printed, want, "{threads} threads");
            assert_eq!(asked, [4, 8, 16, 32, 32, 32], "{threads} threads");
        }
    }

    #[test]
    fn empty_and_exact_inputs() {
        let (printed, asked) = squares(0, ChunkSizes::fixed(8), 2);
        assert!(printed.is_empty());
        assert_eq!(asked, [8]);
        let (printed, _) = squares(16, ChunkSizes::fixed(8), 2);
        assert_eq!(printed.len(), 16);
    }

    /// The message of the panic that `work` raises on a pool of two
    /// threads (it must raise one).
    fn panic_on_two_threads(work: impl FnOnce() + Send) -> String {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.install(work)));
        let message = outcome.expect_err("the panic is raised");
        message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default()
    }

    #[test]
    fn a_panic_while_answering_reaches_the_caller() {
        let text = panic_on_two_threads(|| {
            let mut reads = 0;
            let _ = run(
                ChunkSizes::fixed(1),
                |_| {
                    reads += 1;
                    (reads, reads < 5)
                },
                |&chunk| {
                    assert_ne!(chunk, 3, "chunk 3 cannot be answered");
                    chunk
                },
                |_, _| Ok(()),
            );
        });
        assert!(text.contains("chunk 3 cannot be answered"), "{text}");
    }

    #[test]
    fn a_panic_while_reading_reaches_the_caller_as_itself() {
        let text = panic_on_two_threads(|| {
            let mut reads = 0;
            let _ = run(
                ChunkSizes::fixed(1),
                |_| {
                    reads += 1;
                    assert_ne!(reads, 3, "chunk 3 cannot be read");
                    (reads, true)
                },
                |&chunk| chunk,
                |_, _| Ok(()),
            );
        });
        assert!(text.contains("chunk 3 cannot be read"), "{text}");
    }

    #[test]
    fn a_print_error_stops_the_reading() {
        for (threads, read_ahead) in [(1, 0..=0), (2, 2..=4)] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            // The input never ends: that the run ends shows the reader
            // stopped.
            let reads = pool.install(print_fails_on_chunk_2);
            // One thread reads no further than the chunk it prints; with
            // more, two chunks are on the pool, one waits and one may be
            // being read when the print fails.
            assert!(
                read_ahead.contains(&(reads - 2)),
                "{threads} threads: {reads}"
            );
        }
    }

    /// Runs the pipeline with a print that fails on chunk 2; returns how
    /// many chunks were read.
    fn print_fails_on_chunk_2() -> usize {
        let mut reads = 0;
        let result = run(
            ChunkSizes::fixed(1),
            |_| {
                reads += 1;
                // A reader that did not stop would fail here, not hang.
                assert!(reads < 100, "the reading did not stop");
                (reads, true)
            },
            |&chunk| chunk,
            |chunk, _| {
                if chunk == 2 {
                    Err(io::Error::other("closed"))
                } else {
                    Ok(())
                }
            },
        );
        assert!(result.is_err());
        reads
    }
}
