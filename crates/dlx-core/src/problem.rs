//! The problem: items and options, checked once and then shared read-only.
//!
//! A [`Problem`] is immutable after [`ProblemBuilder::build`]; any number of
//! solvers (one per thread) can be made from it. Items are numbered
//! `0..item_count()`, primary items first; options are numbered in the order
//! they were added.

use crate::names::{NameTable, Names, Refused};

use thiserror::Error;

/// The largest number of nodes (item headers, option nodes and spacers) a
/// problem may have: every link is a `u32` byte offset into an array of
/// 16-byte nodes, so 2^28 - 1 (about 268 million nodes, 4 GiB of links).
pub const MAX_NODES: usize = (1 << 28) - 1;

/// Why a problem could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// An option names an item number that does not exist.
    #[error("option {option}: unknown item {item} (the problem has {items} items)")]
    UnknownItem {
        /// The option's number.
        option: usize,
        /// The item as given.
        item: usize,
        /// How many items the problem has.
        items: usize,
    },
    /// An option names an item by a name that was never declared.
    #[error("option {option}: unknown item name {name:?}")]
    UnknownName {
        /// The option's number.
        option: usize,
        /// The name as given.
        name: String,
    },
    /// An option lists the same item twice.
    #[error("option {option}: item {item} appears twice")]
    DuplicateItem {
        /// The option's number.
        option: usize,
        /// The item's display form (its name, or its number).
        item: String,
    },
    /// An option with no items.
    #[error("option {option} is empty")]
    EmptyOption {
        /// The option's number.
        option: usize,
    },
    /// Two items share one name.
    #[error("item name {name:?} is declared twice")]
    DuplicateName {
        /// The repeated name.
        name: String,
    },
    /// The problem would need more nodes than a `u32` index can address.
    #[error("the problem is too large: more than {max} nodes", max = MAX_NODES)]
    TooLarge,
}

/// An exact-cover problem: primary items (each covered exactly once),
/// secondary items (each covered at most once) and options (sets of items).
///
/// As in Knuth's DLX1, the search branches on primary items only, so an
/// option made only of secondary items is never chosen (unless it is
/// given): a solution is a set of options covering every primary item
/// exactly once and every secondary item at most once, each option of it
/// holding at least one primary item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    primary: u32,
    secondary: u32,
    names: Names,
    /// Option `k` covers `option_items[option_starts[k]..option_starts[k + 1]]`.
    option_starts: Vec<u32>,
    option_items: Vec<u32>,
}

impl Problem {
    /// Starts a problem with `primary` primary and `secondary` secondary items,
    /// known by number only.
    pub fn builder(primary: usize, secondary: usize) -> ProblemBuilder {
        ProblemBuilder::new(primary, secondary)
    }

    /// Starts a problem whose items have names (primary names first).
    pub fn named<P, S>(primary: P, secondary: S) -> Result<ProblemBuilder, ProblemError>
    where
        P: IntoIterator,
        P::Item: Into<String>,
        S: IntoIterator,
        S::Item: Into<String>,
    {
        ProblemBuilder::named(primary, secondary)
    }

    /// The number of primary items.
    pub fn primary_count(&self) -> usize {
        self.primary as usize
    }

    /// The number of secondary items.
    pub fn secondary_count(&self) -> usize {
        self.secondary as usize
    }

    /// The number of items, primary and secondary.
    pub fn item_count(&self) -> usize {
        (self.primary + self.secondary) as usize
    }

    /// Whether `item` is primary (covered exactly once).
    pub fn is_primary(&self, item: usize) -> bool {
        item < self.primary as usize
    }

    /// The number of options.
    pub fn option_count(&self) -> usize {
        self.option_starts.len() - 1
    }

    /// The items of option `option`, in the order they were given.
    pub fn option(&self, option: usize) -> &[u32] {
        let start = self.option_starts[option] as usize;
        let end = self.option_starts[option + 1] as usize;
        &self.option_items[start..end]
    }

    /// Iterates over all options' item lists, in order.
    pub fn options(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        (0..self.option_count()).map(move |k| self.option(k))
    }

    /// The total number of (option, item) incidences.
    pub fn incidence_count(&self) -> usize {
        self.option_items.len()
    }

    /// The name of `item`, when the problem was built with names.
    pub fn item_name(&self, item: usize) -> Option<&str> {
        self.names.get(item)
    }

    /// The name of `item`, or its number when the problem has no names.
    pub fn item_label(&self, item: usize) -> String {
        match self.item_name(item) {
            Some(name) => name.to_owned(),
            None => item.to_string(),
        }
    }

    /// The number of nodes the linked structure needs: one header per item,
    /// one node per incidence, one spacer per option plus a first spacer, and
    /// the root.
    pub fn node_count(&self) -> usize {
        self.item_count() + 1 + self.incidence_count() + self.option_count() + 1
    }
}

/// Declares `name` in `names`, unless it is there already.
fn declare(names: &mut NameTable, name: &str) -> Result<(), ProblemError> {
    if names.len() + 1 >= MAX_NODES {
        return Err(ProblemError::TooLarge);
    }
    match names.add(name) {
        Ok(_) => Ok(()),
        Err(Refused::Taken(_)) => Err(ProblemError::DuplicateName {
            name: name.to_owned(),
        }),
        Err(Refused::Full) => Err(ProblemError::TooLarge),
    }
}

/// Collects items and options, checking each option as it is added.
#[derive(Debug, Clone)]
pub struct ProblemBuilder {
    problem: Problem,
    names: NameTable,
    /// Scratch marks for the duplicate check, one per item: the attempt (see
    /// `attempts`) that last used the item.
    seen: Vec<u64>,
    /// How many options were checked so far, failed ones included, so that
    /// each check has a mark of its own.
    attempts: u64,
}

impl ProblemBuilder {
    /// Starts a problem with numbered items.
    pub fn new(primary: usize, secondary: usize) -> Self {
        let problem = Problem {
            primary: primary as u32,
            secondary: secondary as u32,
            names: Names::default(),
            option_starts: vec![0],
            option_items: Vec::new(),
        };
        ProblemBuilder {
            problem,
            names: NameTable::default(),
            seen: vec![0; primary + secondary],
            attempts: 0,
        }
    }

    /// Starts a problem with named items (primary names first). A name
    /// given twice is refused as soon as it is met.
    pub fn named<P, S>(primary: P, secondary: S) -> Result<Self, ProblemError>
    where
        P: IntoIterator,
        P::Item: Into<String>,
        S: IntoIterator,
        S::Item: Into<String>,
    {
        let mut names = NameTable::default();
        for name in primary {
            declare(&mut names, &name.into())?;
        }
        let primary = names.len();
        for name in secondary {
            declare(&mut names, &name.into())?;
        }
        let mut builder = ProblemBuilder::new(primary, names.len() - primary);
        builder.names = names;
        Ok(builder)
    }

    /// The number of options added so far.
    pub fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// The number of the item called `name`, if any.
    pub fn item_by_name(&self, name: &str) -> Option<usize> {
        self.names.find(name).map(|i| i as usize)
    }

    /// Adds an option covering the given item numbers; returns its number.
    pub fn add_option<I>(&mut self, items: I) -> Result<usize, ProblemError>
    where
        I: IntoIterator<Item = usize>,
    {
        let option = self.problem.option_count();
        let item_count = self.problem.item_count();
        let start = self.problem.option_items.len();
        for item in items {
            if item >= item_count {
                self.problem.option_items.truncate(start);
                return Err(ProblemError::UnknownItem {
                    option,
                    item,
                    items: item_count,
                });
            }
            self.problem.option_items.push(item as u32);
        }
        self.finish_option(option, start)
    }

    /// Adds an option covering the items with the given names; returns its
    /// number.
    pub fn add_named_option<'a, I>(&mut self, names: I) -> Result<usize, ProblemError>
    where
        I: IntoIterator<Item = &'a str>,
    {
        let option = self.problem.option_count();
        let start = self.problem.option_items.len();
        for name in names {
            match self.names.find(name) {
                Some(item) => self.problem.option_items.push(item),
                None => {
                    self.problem.option_items.truncate(start);
                    return Err(ProblemError::UnknownName {
                        option,
                        name: name.to_owned(),
                    });
                }
            }
        }
        self.finish_option(option, start)
    }

    fn finish_option(&mut self, option: usize, start: usize) -> Result<usize, ProblemError> {
        let items = &self.problem.option_items[start..];
        if items.is_empty() {
            return Err(ProblemError::EmptyOption { option });
        }
        self.attempts += 1;
        let mark = self.attempts;
        for &item in items {
            let seen = &mut self.seen[item as usize];
            if *seen == mark {
                let item = self.item_label(item);
                self.problem.option_items.truncate(start);
                return Err(ProblemError::DuplicateItem { option, item });
            }
            *seen = mark;
        }
        let nodes_after = self.problem.node_count() + items.len() + 1;
        if nodes_after > MAX_NODES {
            self.problem.option_items.truncate(start);
            return Err(ProblemError::TooLarge);
        }
        self.problem
            .option_starts
            .push(self.problem.option_items.len() as u32);
        Ok(option)
    }

    /// Finishes the problem.
    pub fn build(self) -> Problem {
        let mut problem = self.problem;
        problem.names = self.names.into_names();
        problem
    }

    /// The name of `item`, or its number when the problem has no names.
    fn item_label(&self, item: u32) -> String {
        match self.names.get(item as usize) {
            Some(name) => name.to_owned(),
            None => item.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_keep_their_items_in_order() {
        let mut b = Problem::builder(3, 1);
        b.add_option([2, 0]).unwrap();
        b.add_option([1, 3]).unwrap();
        let p = b.build();
        assert_eq!(p.option_count(), 2);
        assert_eq!(p.option(0), &[2, 0]);
        assert_eq!(p.option(1), &[1, 3]);
        assert!(p.is_primary(2) && !p.is_primary(3));
    }

    #[test]
    fn bad_options_are_rejected_and_leave_no_trace() {
        let mut b = Problem::builder(2, 0);
        assert_eq!(
            b.add_option([0, 5]),
            Err(ProblemError::UnknownItem {
                option: 0,
                item: 5,
                items: 2
            })
        );
        assert_eq!(
            b.add_option([]),
            Err(ProblemError::EmptyOption { option: 0 })
        );
        assert_eq!(
            b.add_option([1, 1]),
            Err(ProblemError::DuplicateItem {
                option: 0,
                item: "1".into()
            })
        );
        b.add_option([0, 1]).unwrap();
        let p = b.build();
        assert_eq!(p.option_count(), 1);
        assert_eq!(p.incidence_count(), 2);
    }

    #[test]
    fn names_resolve_and_must_be_unique() {
        let mut b = Problem::named(["a", "b"], ["x"]).unwrap();
        assert_eq!(b.add_named_option(["b", "x"]), Ok(0));
        assert_eq!(
            b.add_named_option(["a", "zz"]),
            Err(ProblemError::UnknownName {
                option: 1,
                name: "zz".into()
            })
        );
        assert_eq!(
            b.add_named_option(["a", "a"]),
            Err(ProblemError::DuplicateItem {
                option: 1,
                item: "a".into()
            })
        );
        let p = b.build();
        assert_eq!(p.item_name(2), Some("x"));
        assert_eq!(
            Problem::named(["a", "a"], Vec::<String>::new()).unwrap_err(),
            ProblemError::DuplicateName { name: "a".into() }
        );
    }
}
