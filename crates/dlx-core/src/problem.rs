//! The problem: items and options, checked once and then shared read-only.
//!
//! A [`Problem`] is immutable after [`ProblemBuilder::build`]; any number of
//! solvers (one per thread) can be made from it. Items are numbered
//! `0..item_count()`, primary items first; options are numbered in the order
//! they were added.

use std::num::NonZeroU32;

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
    /// The problem would pass the builder's own node limit
    /// ([`ProblemBuilder::limit_nodes`]).
    #[error(
        "the problem is too large: more than {max} nodes (items, options and the items of \
         options), the most allowed, to bound memory"
    )]
    NodeLimit {
        /// The limit.
        max: usize,
    },
    /// An option without a primary item: no search could ever choose it.
    #[error("option {option} has no primary item, so it could never be chosen")]
    NoPrimaryItem {
        /// The option's number.
        option: usize,
    },
    /// A colour on a primary item: only secondary items may be shared.
    #[error("option {option}: item {item} is primary and cannot have a colour")]
    ColourOnPrimary {
        /// The option's number.
        option: usize,
        /// The item's display form.
        item: String,
    },
    /// A colour that this builder did not make.
    #[error("option {option}: colour {colour} is not one of this problem's")]
    UnknownColour {
        /// The option's number.
        option: usize,
        /// The colour's number.
        colour: u32,
    },
    /// Bounds on a secondary item: only primary items have multiplicities.
    #[error("item {item} is secondary and cannot have bounds")]
    BoundsOnSecondary {
        /// The item's display form.
        item: String,
    },
    /// Bounds that no count meets: a lower bound above the upper, or an
    /// upper bound of 0.
    #[error("item {item}: bounds {lower}:{upper} allow no count (they need lower <= upper and upper >= 1)")]
    BadBounds {
        /// The item's display form.
        item: String,
        /// The lower bound given.
        lower: u32,
        /// The upper bound given.
        upper: u32,
    },
}

/// A colour that options may give a secondary item: options that give an
/// item the same colour may be chosen together, an option that names the
/// item without a colour excludes every other. Colours are made (and
/// named) by [`ProblemBuilder::colour`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Colour(NonZeroU32);

impl Colour {
    /// The colour's number, from 1 in the order colours were made.
    pub fn number(self) -> u32 {
        self.0.get()
    }
}

/// The colour numbered `number` (from 1).
#[cfg(feature = "shard")]
pub(crate) fn colour_numbered(number: u32) -> Colour {
    Colour(NonZeroU32::new(number).expect("colours are numbered from 1"))
}

/// How many times a primary item must be covered: at least `lower`, at
/// most `upper` times. Without bounds, exactly once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The fewest times.
    pub lower: u32,
    /// The most times.
    pub upper: u32,
}

impl Bounds {
    /// Exactly once: the bounds of an exact-cover item.
    pub const ONCE: Bounds = Bounds { lower: 1, upper: 1 };
}

/// An exact-cover problem: primary items (each covered exactly once, or
/// within its [`Bounds`]), secondary items (each covered at most once, or
/// by options that all give it the same [`Colour`]) and options (sets of
/// items, each with at least one primary item).
///
/// A solution is a set of options that covers every primary item within
/// its bounds and every secondary item at most once or in one colour: an
/// exact cover (Knuth's DLX1), with colours (XCC, DLX2) and with
/// multiplicities (MCC, DLX3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    primary: u32,
    secondary: u32,
    names: Names,
    /// Option `k` covers `option_items[option_starts[k]..option_starts[k + 1]]`.
    option_starts: Vec<u32>,
    option_items: Vec<u32>,
    /// The colour of each entry of `option_items` (0 for none); empty when
    /// no option has a colour.
    option_colours: Vec<u32>,
    /// The colours' names, in the order they were made.
    colour_names: Names,
    /// Each primary item's bounds; empty when every item is covered once.
    bounds: Vec<Bounds>,
}

impl Problem {
    /// Starts a problem with `primary` primary and `secondary` secondary items,
    /// known by number only.
    pub fn builder(primary: usize, secondary: usize) -> ProblemBuilder {
        ProblemBuilder::new(primary, secondary)
    }

    /// A builder holding this problem, to add options, colours and bounds
    /// to it (its items stay as they are). A problem read from a file, or
    /// made by a model, can so be extended before it is searched. The
    /// builder has no node limit but [`MAX_NODES`]: call
    /// [`ProblemBuilder::limit_nodes`] again for untrusted additions.
    /// ```
    /// use dlx_core::{Problem, Solver};
    ///
    /// let mut builder = Problem::named(["a", "b"], Vec::<String>::new()).unwrap();
    /// builder.add_named_option(["a", "b"]).unwrap();
    /// let problem = builder.build();
    /// assert_eq!(Solver::new(&problem).count(), 1);
    ///
    /// let mut more = problem.into_builder();
    /// more.add_named_option(["a"]).unwrap();
    /// more.add_named_option(["b"]).unwrap();
    /// assert_eq!(Solver::new(&more.build()).count(), 2);
    /// ```
    pub fn into_builder(self) -> ProblemBuilder {
        let mut builder = ProblemBuilder::new(self.primary_count(), self.secondary_count());
        builder.names = table_of(&self.names);
        builder.colours = table_of(&self.colour_names);
        builder.problem = Problem {
            names: Names::default(),
            colour_names: Names::default(),
            ..self
        };
        builder
    }

    /// Starts a problem whose items have names (primary names first). A
    /// name given twice is refused as soon as it is met.
    pub fn named<P, S>(primary: P, secondary: S) -> Result<ProblemBuilder, ProblemError>
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

    /// Whether some option gives a secondary item a colour.
    pub fn has_colours(&self) -> bool {
        self.option_colours.iter().any(|&c| c != 0)
    }

    /// Whether some primary item has bounds other than exactly once.
    pub fn has_bounds(&self) -> bool {
        self.bounds.iter().any(|&b| b != Bounds::ONCE)
    }

    /// The bounds of `item`: how many times it must be covered. Secondary
    /// items have none.
    pub fn bounds(&self, item: usize) -> Option<Bounds> {
        if !self.is_primary(item) {
            return None;
        }
        Some(self.bounds.get(item).copied().unwrap_or(Bounds::ONCE))
    }

    /// The colours option `option` gives its items, in the order of
    /// [`Problem::option`]: `None` for an item without a colour.
    pub fn option_colours(
        &self,
        option: usize,
    ) -> impl ExactSizeIterator<Item = Option<Colour>> + '_ {
        let start = self.option_starts[option] as usize;
        let end = self.option_starts[option + 1] as usize;
        (start..end).map(move |k| {
            let colour = self.option_colours.get(k).copied().unwrap_or(0);
            NonZeroU32::new(colour).map(Colour)
        })
    }

    /// The raw colours of option `option`'s items (0 for none), for the
    /// engines.
    pub(crate) fn raw_colours(&self, option: usize) -> Option<&[u32]> {
        if self.option_colours.is_empty() {
            return None;
        }
        let start = self.option_starts[option] as usize;
        let end = self.option_starts[option + 1] as usize;
        Some(&self.option_colours[start..end])
    }

    /// The number of colours made.
    pub fn colour_count(&self) -> usize {
        self.colour_names.len()
    }

    /// The name of `colour`.
    pub fn colour_name(&self, colour: Colour) -> Option<&str> {
        self.colour_names.get(colour.number() as usize - 1)
    }

    /// The number of nodes the linked structure needs: one header per item,
    /// one node per incidence, one spacer per option plus a first spacer, and
    /// the root.
    pub fn node_count(&self) -> usize {
        self.item_count() + 1 + self.incidence_count() + self.option_count() + 1
    }
}

/// A table of `names`, which were unique when first declared.
fn table_of(names: &Names) -> NameTable {
    let mut table = NameTable::default();
    for index in 0..names.len() {
        let added = table.add(names.get(index).unwrap_or_default());
        debug_assert!(added.is_ok(), "names were unique when declared");
    }
    table
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
    /// The colours made so far, by name.
    colours: NameTable,
    /// The colours of the option being added (0 for none).
    pending_colours: Vec<u32>,
    /// Scratch marks for the duplicate check, one per item: the attempt (see
    /// `attempts`) that last used the item.
    seen: Vec<u64>,
    /// How many options were checked so far, failed ones included, so that
    /// each check has a mark of its own.
    attempts: u64,
    /// The most nodes the problem may have ([`ProblemBuilder::limit_nodes`]).
    max_nodes: usize,
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
            option_colours: Vec::new(),
            colour_names: Names::default(),
            bounds: Vec::new(),
        };
        ProblemBuilder {
            problem,
            names: NameTable::default(),
            colours: NameTable::default(),
            pending_colours: Vec::new(),
            seen: vec![0; primary + secondary],
            attempts: 0,
            max_nodes: MAX_NODES,
        }
    }

    /// Refuses any option that would give the problem more than `max`
    /// nodes ([`Problem::node_count`]) with [`ProblemError::NodeLimit`]:
    /// a reader of untrusted input bounds the memory a problem (and the
    /// links of its searches, 16 bytes a node) can take. [`MAX_NODES`]
    /// stands whatever `max` says.
    pub fn limit_nodes(&mut self, max: usize) {
        self.max_nodes = max.min(MAX_NODES);
    }

    /// The number of options added so far.
    pub fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// The number of the item called `name`, if any.
    pub fn item_by_name(&self, name: &str) -> Option<usize> {
        self.names.find(name).map(|i| i as usize)
    }

    /// The colour called `name`, made the first time it is asked for.
    pub fn colour(&mut self, name: &str) -> Result<Colour, ProblemError> {
        let number = match self.colours.find(name) {
            Some(index) => index,
            None => self.colours.add(name).map_err(|_| ProblemError::TooLarge)?,
        };
        Ok(Colour(
            NonZeroU32::new(number + 1).ok_or(ProblemError::TooLarge)?,
        ))
    }

    /// Lets primary item `item` be covered between `bounds.lower` and
    /// `bounds.upper` times (instead of exactly once).
    pub fn set_bounds(&mut self, item: usize, bounds: Bounds) -> Result<(), ProblemError> {
        let primary = self.problem.primary_count();
        if item >= self.problem.item_count() {
            return Err(ProblemError::UnknownItem {
                option: self.problem.option_count(),
                item,
                items: self.problem.item_count(),
            });
        }
        if item >= primary {
            return Err(ProblemError::BoundsOnSecondary {
                item: self.item_label(item as u32),
            });
        }
        if bounds.lower > bounds.upper || bounds.upper == 0 {
            return Err(ProblemError::BadBounds {
                item: self.item_label(item as u32),
                lower: bounds.lower,
                upper: bounds.upper,
            });
        }
        if self.problem.bounds.is_empty() {
            if bounds == Bounds::ONCE {
                return Ok(());
            }
            self.problem.bounds = vec![Bounds::ONCE; primary];
        }
        self.problem.bounds[item] = bounds;
        Ok(())
    }

    /// [`ProblemBuilder::set_bounds`] for the item called `name`.
    pub fn set_named_bounds(&mut self, name: &str, bounds: Bounds) -> Result<(), ProblemError> {
        let item = self
            .names
            .find(name)
            .ok_or_else(|| ProblemError::UnknownName {
                option: self.problem.option_count(),
                name: name.to_owned(),
            })?;
        self.set_bounds(item as usize, bounds)
    }

    /// Adds an option covering the given item numbers; returns its number.
    pub fn add_option<I>(&mut self, items: I) -> Result<usize, ProblemError>
    where
        I: IntoIterator<Item = usize>,
    {
        self.add_coloured_option(items.into_iter().map(|item| (item, None)))
    }

    /// Adds an option covering the given item numbers, each secondary one
    /// with a colour or none; returns its number.
    pub fn add_coloured_option<I>(&mut self, items: I) -> Result<usize, ProblemError>
    where
        I: IntoIterator<Item = (usize, Option<Colour>)>,
    {
        let option = self.problem.option_count();
        let item_count = self.problem.item_count();
        let start = self.problem.option_items.len();
        self.pending_colours.clear();
        for (item, colour) in items {
            if item >= item_count {
                self.problem.option_items.truncate(start);
                return Err(ProblemError::UnknownItem {
                    option,
                    item,
                    items: item_count,
                });
            }
            self.problem.option_items.push(item as u32);
            if let Err(e) = self.push_colour(option, item as u32, colour) {
                self.problem.option_items.truncate(start);
                return Err(e);
            }
        }
        self.finish_option(option, start)
    }

    /// Adds an option covering the items with the given names; returns its
    /// number.
    pub fn add_named_option<'a, I>(&mut self, names: I) -> Result<usize, ProblemError>
    where
        I: IntoIterator<Item = &'a str>,
    {
        self.add_named_coloured_option(names.into_iter().map(|name| (name, None)))
    }

    /// Adds an option covering the items with the given names, each
    /// secondary one with the colour of the given name or none (as Knuth's
    /// `x:red`); returns its number.
    pub fn add_named_coloured_option<'a, I>(&mut self, items: I) -> Result<usize, ProblemError>
    where
        I: IntoIterator<Item = (&'a str, Option<&'a str>)>,
    {
        let option = self.problem.option_count();
        let start = self.problem.option_items.len();
        self.pending_colours.clear();
        for (name, colour) in items {
            let Some(item) = self.names.find(name) else {
                self.problem.option_items.truncate(start);
                return Err(ProblemError::UnknownName {
                    option,
                    name: name.to_owned(),
                });
            };
            self.problem.option_items.push(item);
            let colour = match colour.map(|name| self.colour(name)).transpose() {
                Ok(colour) => colour,
                Err(e) => {
                    self.problem.option_items.truncate(start);
                    return Err(e);
                }
            };
            if let Err(e) = self.push_colour(option, item, colour) {
                self.problem.option_items.truncate(start);
                return Err(e);
            }
        }
        self.finish_option(option, start)
    }

    /// Notes the colour of the option's next item, checking it.
    fn push_colour(
        &mut self,
        option: usize,
        item: u32,
        colour: Option<Colour>,
    ) -> Result<(), ProblemError> {
        let number = match colour {
            None => 0,
            Some(colour) => {
                if self.problem.is_primary(item as usize) {
                    return Err(ProblemError::ColourOnPrimary {
                        option,
                        item: self.item_label(item),
                    });
                }
                if colour.number() as usize > self.colours.len() {
                    return Err(ProblemError::UnknownColour {
                        option,
                        colour: colour.number(),
                    });
                }
                colour.number()
            }
        };
        self.pending_colours.push(number);
        Ok(())
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
        let primary = self.problem.primary;
        if !items.iter().any(|&item| item < primary) {
            self.problem.option_items.truncate(start);
            return Err(ProblemError::NoPrimaryItem { option });
        }
        // The option's items are counted already; its spacer is not.
        let nodes_after = self.problem.node_count() + 1;
        if nodes_after > self.max_nodes {
            self.problem.option_items.truncate(start);
            return Err(match self.max_nodes {
                MAX_NODES => ProblemError::TooLarge,
                max => ProblemError::NodeLimit { max },
            });
        }
        // The colours, kept only once some option has one: then one for
        // every item of every option.
        let colours = &mut self.problem.option_colours;
        if !colours.is_empty() || self.pending_colours.iter().any(|&c| c != 0) {
            colours.resize(start, 0);
            colours.extend_from_slice(&self.pending_colours);
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
        problem.colour_names = self.colours.into_names();
        if !problem.has_bounds() {
            problem.bounds = Vec::new();
        }
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
    fn a_node_limit_refuses_the_option_that_passes_it() {
        // 3 items and the root, then each option of 2 items and its
        // spacer (the first spacer is counted from the start).
        let mut b = Problem::builder(3, 0);
        b.limit_nodes(4 + 1 + 3 + 3);
        b.add_option([0, 1]).unwrap();
        b.add_option([1, 2]).unwrap();
        assert_eq!(b.add_option([0]), Err(ProblemError::NodeLimit { max: 11 }));
        let p = b.build();
        assert_eq!((p.option_count(), p.node_count()), (2, 11));
        // No limit above the one links can address.
        let mut b = Problem::builder(1, 0);
        b.limit_nodes(usize::MAX);
        assert_eq!(b.max_nodes, MAX_NODES);
    }

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
    fn a_problem_extended_is_the_problem_built_at_once() {
        let mut once = Problem::named(["a", "b", "c"], ["x"]).unwrap();
        once.set_named_bounds("c", Bounds { lower: 1, upper: 2 })
            .unwrap();
        once.add_named_coloured_option([("a", None), ("x", Some("red"))])
            .unwrap();
        once.add_named_option(["b", "c"]).unwrap();
        let first = once.clone().build();
        once.add_named_coloured_option([("c", None), ("x", Some("blue"))])
            .unwrap();
        once.add_named_coloured_option([("b", None), ("x", Some("red"))])
            .unwrap();
        let whole = once.build();

        let mut more = first.clone().into_builder();
        // Names, colours and the duplicate check work as before.
        assert_eq!(more.item_by_name("x"), Some(3));
        assert_eq!(
            more.add_named_option(["a", "a"]),
            Err(ProblemError::DuplicateItem {
                option: 2,
                item: "a".into()
            })
        );
        more.add_named_coloured_option([("c", None), ("x", Some("blue"))])
            .unwrap();
        more.add_named_coloured_option([("b", None), ("x", Some("red"))])
            .unwrap();
        assert_eq!(more.build(), whole);
        // Nothing added: the same problem.
        assert_eq!(first.clone().into_builder().build(), first);
        // Numbered items, and bounds set after the fact.
        let mut numbered = Problem::builder(2, 0);
        numbered.add_option([0]).unwrap();
        let mut more = numbered.build().into_builder();
        more.set_bounds(1, Bounds { lower: 0, upper: 1 }).unwrap();
        more.add_option([0, 1]).unwrap();
        let p = more.build();
        assert_eq!(
            (p.option_count(), p.bounds(1)),
            (2, Some(Bounds { lower: 0, upper: 1 }))
        );
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
