//! Project chores, run as `cargo xtask <chore>`:
//! - `bench [problem ...]`: times the engine on `../shared/xc/` problems.
use anyhow::{bail, Result};

mod bench;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => bench::run(&args[1..]),
        _ => bail!("usage: cargo xtask <bench>"),
    }
}
