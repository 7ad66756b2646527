//! xtask's command lines: the tables of commands (a chore, a workload of
//! `bench`) that help is printed from and dispatch goes by, and the one
//! reader of flags: `--name value`, `--name=value`, `--switch`, and
//! positional words, checked against the flags a command declares.
//!
//! It knows no chore: each passes the names of its flags (with or without
//! their `--`) and reads the values back by name.

use std::str::FromStr;

use anyhow::{bail, Context, Result};

/// One entry of a table of commands.
pub struct Command {
    pub name: &'static str,
    /// What follows the name: flags and positional words.
    pub usage: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    pub run: fn(&[String]) -> Result<()>,
}

/// Whether `word` asks for help.
pub fn is_help(word: &str) -> bool {
    matches!(word, "help" | "--help" | "-h")
}

/// The help of a table: `prefix name usage` and the summary under it.
pub fn help(prefix: &str, commands: &[Command]) -> String {
    let mut text = String::new();
    for command in commands {
        let usage = format!("{prefix} {} {}", command.name, command.usage);
        text += &format!("  {}\n      {}\n", usage.trim_end(), command.summary);
    }
    text
}

/// Runs the command of `commands` named by `args[0]` with the rest of
/// `args`; nothing or `help` prints the table's help, `NAME --help` the
/// command's own.
pub fn dispatch(prefix: &str, commands: &[Command], args: &[String]) -> Result<()> {
    let Some(name) = args.first().filter(|name| !is_help(name)) else {
        print!("usage:\n{}", help(prefix, commands));
        return Ok(());
    };
    let Some(command) = commands.iter().find(|c| c.name == name) else {
        bail!(
            "unknown command {name:?}; usage:\n{}",
            help(prefix, commands)
        );
    };
    match &args[1..] {
        [word] if word != "help" && is_help(word) => {
            print!("usage:\n{}", help(prefix, std::slice::from_ref(command)));
            Ok(())
        }
        rest => (command.run)(rest),
    }
}

/// A parsed command line.
#[derive(Debug, Default)]
pub struct Flags {
    /// Valued flags in the order given, names without `--`.
    values: Vec<(String, String)>,
    /// Switches given, names without `--`.
    switches: Vec<String>,
    positional: Vec<String>,
}

fn bare(name: &str) -> &str {
    name.trim_start_matches("--")
}

impl Flags {
    /// `valued`: flags that take a value (`--runs 3` or `--runs=3`);
    /// `switches`: flags without one; anything else starting with `--` is
    /// an error naming the chore's flags; the rest is positional (all of
    /// it after a lone `--`).
    pub fn parse(args: &[String], valued: &[&str], switches: &[&str]) -> Result<Flags> {
        let mut flags = Flags::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--" {
                flags.positional.extend(args.by_ref().cloned());
                break;
            }
            let Some(flag) = arg.strip_prefix("--") else {
                flags.positional.push(arg.clone());
                continue;
            };
            let (name, inline) = match flag.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (flag, None),
            };
            if valued.iter().any(|v| bare(v) == name) {
                let value = match inline {
                    Some(value) => value,
                    None => args
                        .next()
                        .cloned()
                        .with_context(|| format!("--{name} needs a value"))?,
                };
                flags.values.push((name.to_owned(), value));
            } else if switches.iter().any(|s| bare(s) == name) && inline.is_none() {
                flags.switches.push(name.to_owned());
            } else if switches.iter().any(|s| bare(s) == name) {
                bail!("--{name} takes no value");
            } else {
                let known: Vec<String> = valued
                    .iter()
                    .map(|v| format!("--{} VALUE", bare(v)))
                    .chain(switches.iter().map(|s| format!("--{}", bare(s))))
                    .collect();
                if known.is_empty() {
                    bail!("unknown flag --{name}; this command takes no flags");
                }
                bail!("unknown flag --{name}; flags: {}", known.join(", "));
            }
        }
        Ok(flags)
    }

    /// The value of the last `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values(name).pop()
    }

    /// The values of every `--name`, in order.
    pub fn values(&self, name: &str) -> Vec<&str> {
        let name = bare(name);
        self.values
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The last `--name` parsed as a `T`, or `default` when not given.
    pub fn parsed<T: FromStr>(&self, name: &str, default: T) -> Result<T> {
        match self.value(name) {
            None => Ok(default),
            Some(text) => text.parse().ok().with_context(|| {
                let kind = std::any::type_name::<T>()
                    .rsplit("::")
                    .next()
                    .unwrap_or("value");
                format!("--{} {text:?}: not a valid {kind}", bare(name))
            }),
        }
    }

    /// Whether `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == bare(name))
    }

    /// The words that are not flags, in order.
    pub fn positional(&self) -> &[String] {
        &self.positional
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    fn parse(line: &str) -> Result<Flags> {
        Flags::parse(&args(line), &["--runs", "set"], &["--quick"])
    }

    #[test]
    fn reads_values_in_both_spellings() {
        for line in ["--runs 7", "--runs=7"] {
            let flags = parse(line).unwrap();
            assert_eq!(flags.value("runs"), Some("7"), "{line}");
            assert_eq!(flags.value("--runs"), Some("7"), "{line}");
            assert_eq!(flags.parsed("--runs", 3usize).unwrap(), 7, "{line}");
        }
        let flags = parse("--runs=").unwrap();
        assert_eq!(flags.value("--runs"), Some(""));
    }

    #[test]
    fn defaults_when_absent_and_rejects_bad_numbers() {
        let flags = parse("").unwrap();
        assert_eq!(flags.value("--runs"), None);
        assert_eq!(flags.parsed("--runs", 3usize).unwrap(), 3);
        assert!(!flags.switch("--quick"));
        let error = parse("--runs many")
            .unwrap()
            .parsed("--runs", 3usize)
            .unwrap_err();
        assert_eq!(error.to_string(), "--runs \"many\": not a valid usize");
    }

    #[test]
    fn unknown_flags_are_errors_that_name_the_flags() {
        let error = parse("--runs 2 --fast").unwrap_err().to_string();
        assert_eq!(
            error,
            "unknown flag --fast; flags: --runs VALUE, --set VALUE, --quick"
        );
        let error = Flags::parse(&args("--x"), &[], &[])
            .unwrap_err()
            .to_string();
        assert_eq!(error, "unknown flag --x; this command takes no flags");
        let error = parse("--quick=yes").unwrap_err().to_string();
        assert_eq!(error, "--quick takes no value");
    }

    #[test]
    fn a_missing_value_is_an_error() {
        let error = parse("--quick --runs").unwrap_err().to_string();
        assert_eq!(error, "--runs needs a value");
    }

    #[test]
    fn repeated_flags_keep_every_value_and_the_last_wins() {
        let flags = parse("--set a --quick --set=b --runs 1 --runs 2 --quick").unwrap();
        assert_eq!(flags.values("--set"), ["a", "b"]);
        assert_eq!(flags.value("set"), Some("b"));
        assert_eq!(flags.parsed("runs", 0u32).unwrap(), 2);
        assert!(flags.switch("quick"));
    }

    #[test]
    fn dispatch_runs_the_named_command_with_the_rest() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static WORDS: AtomicUsize = AtomicUsize::new(0);
        fn count(args: &[String]) -> Result<()> {
            WORDS.store(args.len(), Ordering::Relaxed);
            Ok(())
        }
        let table = [Command {
            name: "count",
            usage: "[WORD ...]",
            summary: "counts its words",
            run: count,
        }];
        dispatch("x", &table, &args("count a b c")).unwrap();
        assert_eq!(WORDS.load(Ordering::Relaxed), 3);
        dispatch("x", &table, &args("count --help")).unwrap();
        assert_eq!(WORDS.load(Ordering::Relaxed), 3, "--help printed the usage");
        let error = dispatch("x", &table, &args("other"))
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("unknown command \"other\""), "{error}");
        assert_eq!(
            help("x", &table),
            "  x count [WORD ...]\n      counts its words\n"
        );
    }

    #[test]
    fn positional_words_keep_their_order() {
        let flags = parse("one --quick two --runs 3 - three -- --four").unwrap();
        assert_eq!(flags.positional(), ["one", "two", "-", "three", "--four"]);
        assert!(flags.switch("--quick"));
        // A value that looks like a flag is still the value.
        let flags = parse("--set --quick").unwrap();
        assert_eq!(flags.value("set"), Some("--quick"));
        assert!(!flags.switch("quick"));
    }
}
