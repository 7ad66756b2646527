//! `cover completions SHELL` and `cover man [COMMAND]`: the shell
//! completions and the man pages, generated from the same clap definition
//! as `--help` (`clap_complete`, `clap_mangen`), so they never drift from
//! it. This module knows no command's flags.

use std::io::{self, Write};

use anyhow::Context;
use clap::{Args, Command};
use clap_complete::Shell;

const COMPLETIONS_ABOUT: &str = "\
Examples:
  cover completions bash > ~/.local/share/bash-completion/completions/cover
  cover completions zsh > ~/.zfunc/_cover      (with fpath+=~/.zfunc)
  cover completions fish > ~/.config/fish/completions/cover.fish";

/// Print the completion script of a shell.
#[derive(Args, Debug, Clone)]
#[command(after_help = COMPLETIONS_ABOUT)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: Shell,
}

const MAN_ABOUT: &str = "\
Examples:
  cover man | man -l -                 read it now
  cover man > ~/.local/share/man/man1/cover.1
  cover man sudoku > ~/.local/share/man/man1/cover-sudoku.1";

/// Print a man page (roff): of `cover`, or of one command.
#[derive(Args, Debug, Clone)]
#[command(after_help = MAN_ABOUT)]
pub struct ManArgs {
    /// The command (`sudoku`, `exact`, ...); `cover` itself when none.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

/// Writes the completion script of `args.shell` for `cli`.
pub fn completions(args: &CompletionsArgs, cli: &mut Command) -> anyhow::Result<()> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, cli, "cover", &mut out);
    write_out(&out)
}

/// Writes the man page of `cli`, or of its command `args.command`.
pub fn man(args: &ManArgs, cli: Command) -> anyhow::Result<()> {
    let page = match &args.command {
        None => cli,
        Some(name) => {
            let names: Vec<String> = cli
                .get_subcommands()
                .map(|c| c.get_name().to_owned())
                .collect();
            let command = cli
                .find_subcommand(name)
                .with_context(|| {
                    format!("no command {name:?}; the commands: {}", names.join(", "))
                })?
                .clone();
            // Named as man names a command's page: `cover-sudoku`.
            command.name(format!("cover-{name}"))
        }
    };
    let mut out = Vec::new();
    clap_mangen::Man::new(page).render(&mut out)?;
    write_out(&out)
}

fn write_out(bytes: &[u8]) -> anyhow::Result<()> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(bytes)?;
    stdout.flush()?;
    Ok(())
}
