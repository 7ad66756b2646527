//! The encoding itself (see the crate's docs): givens applied, then one
//! constraint per item, in clauses over DIMACS literals.

use std::io::{self, Write};

use dlx_core::{Bounds, Problem};

/// How "at most one" of a set of literals is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Amo {
    /// Pairwise up to [`Amo::PAIRWISE_UP_TO`] literals, else the
    /// sequential counter.
    Auto,
    /// A clause per pair: no auxiliary variable, n(n − 1)/2 clauses.
    Pairwise,
    /// Sinz's sequential counter (a ladder): n − 1 auxiliary variables,
    /// about 3n clauses.
    Sequential,
    /// Chen's product encoding: the literals on a grid of about √n × √n,
    /// at most one row and one column (recursively), about 2√n auxiliary
    /// variables.
    Product,
}

impl Amo {
    /// The largest set [`Amo::Auto`] writes pairwise.
    pub const PAIRWISE_UP_TO: usize = 32;
}

/// Options named that the problem does not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GivenError {
    /// An option number (given or excluded) past the problem's options.
    #[error("option {option} is named, but the problem has {options} options")]
    UnknownOption {
        /// The option given.
        option: usize,
        /// The problem's options.
        options: usize,
    },
}

/// A problem's CNF (see the crate's docs), with the map between its
/// variables and the options.
#[derive(Debug, Clone)]
pub struct Encoding {
    variables: u32,
    /// The clauses, each ended by a 0, as in DIMACS.
    literals: Vec<i32>,
    clauses: usize,
    /// The variable of each option (0: none, given or left out).
    variable_of: Vec<u32>,
    /// The option of each option variable `v`, at `v − 1`.
    option_of: Vec<u32>,
    given: Vec<usize>,
    /// Whether no solution is a strict superset of another (exact cover:
    /// no bounds, every option with a primary item), so that blocking a
    /// solution needs only its own options.
    supersets_fail: bool,
}

impl Encoding {
    /// The number of variables, auxiliary ones included.
    pub fn variables(&self) -> u32 {
        self.variables
    }

    /// The number of clauses.
    pub fn clause_count(&self) -> usize {
        self.clauses
    }

    /// The clauses, as DIMACS literals (a variable `v` true is `v`, false
    /// `−v`), without their ending 0.
    pub fn clauses(&self) -> impl Iterator<Item = &[i32]> + '_ {
        self.literals.split(|&l| l == 0).take(self.clauses)
    }

    /// The variable of `option`: `None` for a given option and for one the
    /// givens leave out.
    pub fn variable_of(&self, option: usize) -> Option<u32> {
        self.variable_of.get(option).copied().filter(|&v| v != 0)
    }

    /// The option of variable `variable`, if it is an option's.
    pub fn option_of(&self, variable: u32) -> Option<usize> {
        let index = (variable as usize).checked_sub(1)?;
        self.option_of.get(index).map(|&o| o as usize)
    }

    /// The variables that stand for options (`1..=n`).
    pub fn option_variables(&self) -> u32 {
        self.option_of.len() as u32
    }

    /// The solution of a model (`true_at(v)`: whether variable `v` is
    /// true): the given options, then the options whose variables are
    /// true, in option order.
    pub fn solution(&self, true_at: impl Fn(u32) -> bool) -> Vec<usize> {
        let mut options = self.given.clone();
        options.extend(
            self.option_of
                .iter()
                .enumerate()
                .filter(|&(v, _)| true_at(v as u32 + 1))
                .map(|(_, &o)| o as usize),
        );
        options
    }

    /// The clause that no later model may have the same options as
    /// `solution` (a solution of this encoding): for counting by blocking.
    /// In exact cover, not all of its options again (no superset of a
    /// solution is one); with bounds, also some option outside it. Empty
    /// when nothing can differ (no option variable at all).
    pub fn blocking_clause(&self, solution: &[usize]) -> Vec<i32> {
        let mut clause: Vec<i32> = solution
            .iter()
            .filter_map(|&o| self.variable_of(o))
            .map(|v| -(v as i32))
            .collect();
        if !self.supersets_fail || clause.is_empty() {
            let inside: Vec<u32> = clause.iter().map(|l| l.unsigned_abs()).collect();
            clause.extend(
                (1..=self.option_variables())
                    .filter(|v| !inside.contains(v))
                    .map(|v| v as i32),
            );
        }
        clause
    }

    /// Writes the CNF in DIMACS, after comments that map each option
    /// variable to its option (`c option VARIABLE OPTION: ITEMS`) and name
    /// the given options (`c given OPTION`).
    pub fn write_dimacs(&self, problem: &Problem, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "c exact cover by cover-sat: {} options, {} items ({} primary)",
            problem.option_count(),
            problem.item_count(),
            problem.primary_count()
        )?;
        self.write_dimacs_labelled(out, &|option| {
            let mut text = format!("{option}:");
            for &item in problem.option(option) {
                text.push(' ');
                text.push_str(&problem.item_label(item as usize));
            }
            text
        })
    }

    /// [`Encoding::write_dimacs`] with each option described by
    /// `label(option)` (`c option VARIABLE LABEL`, `c given LABEL`): for
    /// a puzzle, its cell and digit.
    pub fn write_dimacs_labelled(
        &self,
        out: &mut dyn Write,
        label: &dyn Fn(usize) -> String,
    ) -> io::Result<()> {
        for &option in &self.given {
            writeln!(out, "c given {}", label(option))?;
        }
        for (index, &option) in self.option_of.iter().enumerate() {
            writeln!(out, "c option {} {}", index + 1, label(option as usize))?;
        }
        writeln!(out, "p cnf {} {}", self.variables, self.clauses)?;
        for clause in self.clauses() {
            for literal in clause {
                write!(out, "{literal} ")?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }
}

/// The clauses under construction.
struct Writer {
    variables: u32,
    literals: Vec<i32>,
    clauses: usize,
}

impl Writer {
    fn fresh(&mut self) -> i32 {
        self.variables += 1;
        self.variables as i32
    }

    fn clause(&mut self, literals: &[i32]) {
        self.literals.extend_from_slice(literals);
        self.literals.push(0);
        self.clauses += 1;
    }

    /// At most one of `literals`.
    fn at_most_one(&mut self, literals: &[i32], amo: Amo) {
        let n = literals.len();
        if n < 2 {
            return;
        }
        let amo = match amo {
            Amo::Auto if n <= Amo::PAIRWISE_UP_TO => Amo::Pairwise,
            Amo::Auto => Amo::Sequential,
            // The product's grid only pays past a few literals.
            Amo::Product if n <= 6 => Amo::Pairwise,
            other => other,
        };
        match amo {
            Amo::Pairwise | Amo::Auto => {
                for (i, &a) in literals.iter().enumerate() {
                    for &b in &literals[i + 1..] {
                        self.clause(&[-a, -b]);
                    }
                }
            }
            Amo::Sequential => {
                // s_i: one of the first i + 1 literals is true.
                let mut previous = literals[0];
                for (i, &x) in literals.iter().enumerate().skip(1) {
                    if i + 1 == n {
                        self.clause(&[-previous, -x]);
                        break;
                    }
                    let s = self.fresh();
                    self.clause(&[-x, s]);
                    self.clause(&[-previous, s]);
                    self.clause(&[-previous, -x]);
                    previous = s;
                }
            }
            Amo::Product => {
                let columns = (n as f64).sqrt().ceil() as usize;
                let rows = n.div_ceil(columns);
                let row_vars: Vec<i32> = (0..rows).map(|_| self.fresh()).collect();
                let column_vars: Vec<i32> = (0..columns).map(|_| self.fresh()).collect();
                for (k, &x) in literals.iter().enumerate() {
                    self.clause(&[-x, row_vars[k / columns]]);
                    self.clause(&[-x, column_vars[k % columns]]);
                }
                self.at_most_one(&row_vars, Amo::Product);
                self.at_most_one(&column_vars, Amo::Product);
            }
        }
    }

    /// Outputs `o[0..]` of a totalizer of `literals`, `o[j]` true exactly
    /// when at least `j + 1` of them are, up to `limit` outputs (the last
    /// then meaning "at least `limit`").
    fn totalizer(&mut self, literals: &[i32], limit: usize) -> Vec<i32> {
        if literals.len() <= 1 {
            return literals.to_vec();
        }
        let (left, right) = literals.split_at(literals.len() / 2);
        let a = self.totalizer(left, limit);
        let b = self.totalizer(right, limit);
        let outputs = (a.len() + b.len()).min(limit);
        let r: Vec<i32> = (0..outputs).map(|_| self.fresh()).collect();
        // Up: i of a and j of b true make at least i + j.
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                if i + j == 0 {
                    continue;
                }
                let mut clause = Vec::with_capacity(3);
                if i > 0 {
                    clause.push(-a[i - 1]);
                }
                if j > 0 {
                    clause.push(-b[j - 1]);
                }
                clause.push(r[(i + j).min(outputs) - 1]);
                self.clause(&clause);
            }
        }
        // Down: fewer than i + 1 of a and j + 1 of b make fewer than
        // i + j + 1.
        for i in 0..=a.len() {
            for j in 0..=b.len() {
                if i + j + 1 > outputs {
                    continue;
                }
                let mut clause = Vec::with_capacity(3);
                if i < a.len() {
                    clause.push(a[i]);
                }
                if j < b.len() {
                    clause.push(b[j]);
                }
                clause.push(-r[i + j]);
                self.clause(&clause);
            }
        }
        r
    }
}

/// Encodes `problem` with the `given` options chosen (see the crate's
/// docs), at-most-one constraints written as `amo` says. Givens that
/// clash give a CNF with an empty clause (no model).
pub fn encode(problem: &Problem, given: &[usize], amo: Amo) -> Result<Encoding, GivenError> {
    encode_pruned(problem, given, &[], amo)
}

/// [`encode`], with the `excluded` options left out as well: options the
/// caller's own reasoning has shown to be in no solution with the givens
/// (a puzzle's candidates eliminated before encoding). Excluding an option
/// that is in a solution loses that solution.
pub fn encode_pruned(
    problem: &Problem,
    given: &[usize],
    excluded: &[usize],
    amo: Amo,
) -> Result<Encoding, GivenError> {
    let options = problem.option_count();
    if let Some(&option) = given.iter().chain(excluded).find(|&&o| o >= options) {
        return Err(GivenError::UnknownOption { option, options });
    }
    let items = problem.item_count();
    let mut conflict = false;
    // What the givens leave: of each primary item, its bounds; of each
    // secondary item, whether it is taken and by which colour (0: none).
    let mut bounds: Vec<Bounds> = (0..items)
        .map(|i| problem.bounds(i).unwrap_or(Bounds::ONCE))
        .collect();
    let mut taken: Vec<Option<u32>> = vec![None; items];
    let mut is_given = vec![false; options];
    for &option in given {
        if is_given[option] {
            conflict = true;
            continue;
        }
        is_given[option] = true;
        for (&item, colour) in problem
            .option(option)
            .iter()
            .zip(problem.option_colours(option))
        {
            let item = item as usize;
            if problem.is_primary(item) {
                let b = &mut bounds[item];
                if b.upper == 0 {
                    conflict = true;
                } else {
                    b.upper -= 1;
                    b.lower = b.lower.saturating_sub(1);
                }
            } else {
                let colour = colour.map_or(0, |c| c.number());
                match taken[item] {
                    Some(c) if c == 0 || c != colour => conflict = true,
                    _ => taken[item] = Some(colour),
                }
            }
        }
    }
    // The options left: none that clashes with a given.
    let fits = |option: usize| {
        problem
            .option(option)
            .iter()
            .zip(problem.option_colours(option))
            .all(|(&item, colour)| {
                let item = item as usize;
                if problem.is_primary(item) {
                    bounds[item].upper > 0
                } else {
                    let colour = colour.map_or(0, |c| c.number());
                    taken[item].is_none_or(|c| c != 0 && c == colour)
                }
            })
    };
    let mut is_excluded = vec![false; options];
    for &option in excluded {
        is_excluded[option] = true;
    }
    let mut variable_of = vec![0u32; options];
    let mut option_of = Vec::new();
    for option in 0..options {
        if !is_given[option] && !is_excluded[option] && fits(option) {
            option_of.push(option as u32);
            variable_of[option] = option_of.len() as u32;
        }
    }
    let mut writer = Writer {
        variables: option_of.len() as u32,
        literals: Vec::new(),
        clauses: 0,
    };
    if conflict {
        writer.clause(&[]);
    }
    // The live options of each item, with their colours.
    let mut of_item: Vec<Vec<(i32, u32)>> = vec![Vec::new(); items];
    for (index, &option) in option_of.iter().enumerate() {
        let option = option as usize;
        for (&item, colour) in problem
            .option(option)
            .iter()
            .zip(problem.option_colours(option))
        {
            of_item[item as usize].push((index as i32 + 1, colour.map_or(0, |c| c.number())));
        }
    }
    let mut literals: Vec<i32> = Vec::new();
    for (item, live) in of_item.iter().enumerate() {
        literals.clear();
        if problem.is_primary(item) {
            literals.extend(live.iter().map(|&(v, _)| v));
            let Bounds { lower, upper } = bounds[item];
            let (lower, upper) = (lower as usize, upper as usize);
            if lower > literals.len() {
                writer.clause(&[]);
            } else if (lower, upper) == (1, 1) {
                writer.clause(&literals);
                writer.at_most_one(&literals, amo);
            } else if upper == 1 {
                writer.at_most_one(&literals, amo);
            } else if lower == 1 && upper >= literals.len() {
                writer.clause(&literals);
            } else if lower > 0 || upper < literals.len() {
                let outputs = writer.totalizer(&literals, (upper + 1).min(literals.len()));
                if lower > 0 {
                    writer.clause(&[outputs[lower - 1]]);
                }
                if upper < outputs.len() {
                    writer.clause(&[-outputs[upper]]);
                }
            }
        } else if taken[item].is_none() {
            // Colours: one variable per colour its options give it (the
            // option itself when it alone gives that colour).
            let mut colours: Vec<(u32, Vec<i32>)> = Vec::new();
            for &(v, colour) in live {
                if colour == 0 {
                    literals.push(v);
                } else if let Some(entry) = colours.iter_mut().find(|(c, _)| *c == colour) {
                    entry.1.push(v);
                } else {
                    colours.push((colour, vec![v]));
                }
            }
            for (_, options) in colours {
                if let [single] = options[..] {
                    literals.push(single);
                    continue;
                }
                let colour = writer.fresh();
                for v in options {
                    writer.clause(&[-v, colour]);
                }
                literals.push(colour);
            }
            writer.at_most_one(&literals, amo);
        }
    }
    Ok(Encoding {
        variables: writer.variables,
        literals: writer.literals,
        clauses: writer.clauses,
        variable_of,
        option_of,
        given: given.to_vec(),
        supersets_fail: !problem.has_bounds()
            && (0..options).all(|o| {
                problem
                    .option(o)
                    .iter()
                    .any(|&i| problem.is_primary(i as usize))
            }),
    })
}
