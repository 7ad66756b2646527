//! Sudoku of any size from the command line or standard input, in one
//! call each: `cover_models::sudoku::solve` reads a puzzle in any layout
//! `cover sudoku` reads and writes its first solution on one line.
//!
//! ```sh
//! cargo run --release -p cover-models --example solve -- \
//!     53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
//! ```

use std::io::Read as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    let text = match std::env::args().nth(1) {
        Some(puzzle) => puzzle,
        None => {
            let mut text = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut text) {
                eprintln!("solve: standard input: {e}");
                return ExitCode::from(2);
            }
            text
        }
    };
    match cover_models::sudoku::solve(&text) {
        Ok(Some(solution)) => {
            println!("{solution}");
            ExitCode::SUCCESS
        }
        Ok(None) => {
            println!("no solution");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("solve: line {}: {}", e.line, e.kind);
            ExitCode::from(2)
        }
    }
}
