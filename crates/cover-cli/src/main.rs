//! `cover`: exact-cover puzzles and problems from the command line.
//!
//! One module per command (`exact`, ...), each with its clap arguments, its
//! pure solving step and its printing; `common` holds the flags, inputs,
//! exit status and stats summary every command shares; `output` holds
//! standard output and standard error. This file parses the command line,
//! runs the command and turns what it met into the exit status:
//! 0 every instance solved, 1 some instance without solution, 2 bad input,
//! bad usage or an I/O error.
#![forbid(unsafe_code)]

mod batch;
mod common;
mod exact;
mod generate;
mod help;
mod output;
mod pipeline;
mod play;
mod progress;
mod queens;
mod radar;
mod shard;
mod sudoku;
mod target;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use crate::common::{Common, Session, Status};

const AFTER_HELP: &str = "\
Every command reads the files named (standard input when none, or for `-`),
writes answers to standard output in input order and diagnostics to standard
error as `cover: FILE:LINE: message`. A bad instance is reported and the
others are still answered.

A line may hold at most 4 MiB: a longer one is reported at its line and
skipped, and reading goes on after it; binary data (a NUL byte in such a
line), or a line without end for 256 MiB, ends that input.

Every command that searches (exact, sudoku, queens, radar, target, shard run)
takes --max-nodes N and --time-limit SECONDS: a search stopped by either
prints `gave up` in place of its answer (JSON status \"gave_up\"); a count
(--count) prints `gave up after N solutions`, N those found by then.
--jobs starts at most 4 threads per core, whatever it asks for.

Exit status: 0 every instance has a solution; 1 all input was valid but some
instance has no solution (or its search gave up at --max-nodes or
--time-limit); 2 bad input, bad usage or an I/O error.

Examples:
  cover exact matrix.txt                first solution of each 0/1 matrix
  cover exact --count queens8.dlx       count the solutions of a Knuth file
  cover exact --all --limit 10 -        up to 10 solutions, from standard input
  cover exact --json --stats *.txt      JSON lines, and a summary on stderr
  cover shard split --queens 18 > s.jsonl
                                        one count cut for many machines
  cover play                            the sudoku game, in the browser

Run `cover help <COMMAND>` or `cover <COMMAND> --help` for a command's
formats and options; `cover man [COMMAND]` prints them as a man page, and
`cover completions SHELL` a completion script.";

/// The version and the commit it was built from (`build.rs`).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("COVER_COMMIT"),
    ")"
);

/// Exact cover with Dancing Links: generic problems and the puzzles built
/// on them.
#[derive(Parser, Debug)]
#[command(name = "cover", version = VERSION, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    Completions(help::CompletionsArgs),
    Exact(exact::ExactArgs),
    Generate(generate::GenerateArgs),
    Man(help::ManArgs),
    Play(play::PlayArgs),
    Queens(queens::QueensArgs),
    Radar(radar::RadarArgs),
    Shard(shard::ShardArgs),
    Sudoku(sudoku::SudokuArgs),
    Target(target::TargetArgs),
}

impl Command {
    /// The flags every command shares (`play` has none of them).
    fn common(&self) -> Common {
        let common = match self {
            Command::Play(_) | Command::Completions(_) | Command::Man(_) => {
                return Common::default()
            }
            Command::Exact(args) => &args.common,
            Command::Generate(args) => &args.common,
            Command::Queens(args) => &args.common,
            Command::Radar(args) => &args.common,
            Command::Shard(args) => args.common(),
            Command::Sudoku(args) => &args.common,
            Command::Target(args) => &args.common,
        };
        common.clone()
    }
}

fn main() -> ExitCode {
    // Usage errors exit with 2 (clap's default); --help and --version
    // with 0.
    let cli = Cli::parse();
    let common = cli.command.common();
    let mut session = Session::new();
    let result = common.init_threads().and_then(|()| match &cli.command {
        Command::Completions(args) => help::completions(args, &mut Cli::command()),
        Command::Exact(args) => exact::run(args, &mut session),
        Command::Generate(args) => generate::run(args, &mut session),
        Command::Man(args) => help::man(args, Cli::command()),
        Command::Play(args) => play::run(args, &mut session),
        Command::Queens(args) => queens::run(args, &mut session),
        Command::Radar(args) => radar::run(args, &mut session),
        Command::Shard(args) => shard::run(args, &mut session),
        Command::Sudoku(args) => sudoku::run(args, &mut session),
        Command::Target(args) => target::run(args, &mut session),
    });
    match result {
        Ok(()) => {}
        // The reader of our output has gone (`cover ... | head`): a normal,
        // quiet end; the status is what the answered instances made it.
        Err(error) if output::is_broken_pipe(&error) => {}
        Err(error) => {
            output::error(format_args!("{error:#}"));
            session.fail(Status::Failed);
        }
    }
    if common.stats {
        let _ = session.write_summary(io::stderr().lock());
    }
    session.status.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn limit_alone_and_conflicts() {
        let cli = Cli::try_parse_from(["cover", "exact", "--limit", "3", "a.txt"]).unwrap();
        let Command::Exact(args) = cli.command else {
            panic!("parsed as another command");
        };
        assert_eq!(args.mode(), exact::Mode::All { limit: Some(3) });
        assert_eq!(args.inputs.files, [std::path::PathBuf::from("a.txt")]);
        assert!(Cli::try_parse_from(["cover", "exact", "--count", "--all"]).is_err());
        assert!(Cli::try_parse_from(["cover", "exact", "--limit", "0"]).is_err());
        assert!(Cli::try_parse_from(["cover", "exact", "--jobs", "0"]).is_err());
    }
}
