//! Project chores, run as `cargo xtask <chore>`; `cargo xtask help` prints
//! the table below, and `cargo xtask bench help` the workloads of `bench`.
//!
//! This file owns the table of chores and nothing else; each chore lives
//! in its own module, reads its flags with [`flags::Flags`] and finds the
//! workspace's folders through [`paths`].

use anyhow::Result;

mod audit;
mod bench;
mod fixtures;
mod flags;
mod fuzz;
mod paths;
mod screenshots;
mod tidy;
mod verify;

use flags::Command;

/// Every chore, in the order of the help.
const CHORES: &[Command] = &[
    Command {
        name: "verify",
        usage: "[--bin PATH] [FAMILY ...] | --datasets [--quick] [--bin PATH] [--set NAME ...]",
        summary: "runs the `cover` binary on every fixture (or, with --datasets, every dataset) \
                  and checks its answers without trusting the solver",
        run: verify::run,
    },
    Command {
        name: "fixtures",
        usage: "",
        summary: "regenerates the generated files of fixtures/",
        run: fixtures::run,
    },
    Command {
        name: "bench",
        usage: "[WORKLOAD] [FLAGS]",
        summary: "times the engines; the workloads are listed below",
        run: bench::run,
    },
    Command {
        name: "fuzz",
        usage: fuzz::USAGE,
        summary: "feeds mutated fixtures and random bytes to every command of the `cover` \
                  binary; fails on crashes, hangs, memory past the cap",
        run: fuzz::run,
    },
    Command {
        name: "audit",
        usage: audit::USAGE,
        summary: "runs Lighthouse (tools/npm) on the game page in Chromium, desktop and mobile; \
                  fails below 95 in accessibility or best practices",
        run: audit::run,
    },
    Command {
        name: "screenshots",
        usage: screenshots::USAGE,
        summary:
            "plays a few moves in Chromium and writes docs/play/{desktop,phone}-{light,dark}.png",
        run: screenshots::run,
    },
];

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_none_or(|word| flags::is_help(word)) {
        print!(
            "usage: cargo xtask CHORE ...\n{}\nworkloads of bench:\n{}",
            flags::help("cargo xtask", CHORES),
            flags::help("cargo xtask bench", bench::WORKLOADS)
        );
        return Ok(());
    }
    flags::dispatch("cargo xtask", CHORES, &args)
}
