//! The propagation hook: a model's reasoning between choices.
//!
//! Plain Algorithm X only learns that a branch is dead when some item runs
//! out of options. A [`Propagator`] can know more: a sudoku's all-different
//! rule, say, sees that two cells of a row can only hold 3 and 8 between
//! them, so no other cell of the row may take 3 or 8. The engine calls it
//! at every search node where it would branch (every primary item has two
//! or more options left) and at every dead end (some item has none), with
//! a [`Domain`]: the options still live. Forced moves (an item with one
//! option) are taken without asking: reasoning there would only find what
//! the move itself does, and on a 25×25 sudoku a dive of 300 forced moves
//! each propagated cost a hundred times one propagation per choice.
//! The propagator may remove live options that no solution below can use,
//! or say the node is [`Verdict::Dead`]. Everything it removes is put back
//! when the search leaves the node, whatever ended the search.
//!
//! What the engine promises and what it asks:
//! - A chosen option is not live, nor is any option that conflicts with a
//!   chosen one. A model whose rules read the choices themselves (a killer
//!   cage's sum needs the digits placed, not only those still possible)
//!   asks for them with [`Domain::chosen`].
//! - A propagator must be sound: it removes only options that no solution
//!   containing the current partial solution uses, and says `Dead` only
//!   when there is no such solution. Then the set of solutions is the
//!   plain search's; only the nodes differ.
//! - Searches split or shared between threads with a propagator
//!   ([`crate::count_parallel_with`], the compact engine's
//!   [`first_compact_parallel`](crate::first_compact_parallel)) count the
//!   serial search's solutions, and a first solution they give is a
//!   solution; but it need not be the serial search's first: a part
//!   searched from its prefix has not seen the removals its ancestors
//!   made, so it may branch otherwise. (A model that wants the same
//!   first solution on any number of threads searches alone, as `cover
//!   sudoku` does.)
//! - Removals are counted in [`Stats::propagated`](crate::Stats), never in
//!   `updates`, so that Knuth's counts keep their meaning.
//!
//! A propagator may also choose the item to branch on
//! ([`Propagator::choose`]); by default the engine's own rule (an item
//! with the fewest options) decides. Items the engine must take anyway (one
//! option left, or none) are taken without asking.
//!
//! The hook is dynamic (`dyn Propagator`, `dyn Domain`) because it is
//! called once per node, where a model's reasoning costs far more than a
//! virtual call; a search without a propagator compiles the calls away.

use std::fmt;

/// The live options of a search node, as a propagator sees them.
pub trait Domain {
    /// The number of options of the problem (live or not).
    fn option_count(&self) -> usize;
    /// Whether `option` can still be chosen below this node.
    fn is_live(&self, option: usize) -> bool;
    /// Removes `option` from the search below this node (until the search
    /// leaves it). Does nothing when it is not live.
    fn remove(&mut self, option: usize);
    /// The live options of `item` at once, when the engine keeps them so:
    /// bit `b` set when the `b`-th option that contains `item` (in input
    /// order) is live. `None` when it cannot say cheaply (the linked
    /// engine), or the item has more than 64 options; then ask
    /// [`Domain::is_live`] option by option. A covered item has no live
    /// options.
    fn item_options(&self, item: usize) -> Option<u64> {
        let _ = item;
        None
    }

    /// The options chosen on the way to this node, given ones first: clears
    /// `out`, fills it and returns `true`; returns `false` with `out` empty
    /// when the engine cannot say (both of dlx-core's engines can).
    fn chosen(&self, out: &mut Vec<usize>) -> bool {
        out.clear();
        false
    }
}

/// What a propagator concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Verdict {
    /// The node may have solutions: search on.
    Live,
    /// The node has no solution: back up.
    Dead,
}

/// A model's reasoning, run by the engine at every search node (see the
/// module documentation of `propagate.rs` for the contract).
pub trait Propagator: Send + Sync {
    /// A search begins (called before its root node; not when a search
    /// stopped by its node budget resumes). A propagator that learns from
    /// the search (failure counts for its branching) should start afresh
    /// here, so that each search is the same whatever searches came
    /// before, unless its model restarts one search on purpose (the
    /// sudoku propagator keeps what it learnt across the restarts its
    /// solver asks for).
    fn begin(&mut self) {}

    /// Removes options no solution below can use, or declares the node
    /// dead.
    fn propagate(&mut self, domain: &mut dyn Domain) -> Verdict;

    /// The primary item to branch on, or `None` for the engine's rule (the
    /// first item with the fewest options). Asked only where every active
    /// primary item has at least two options; an item that is not active
    /// (or not primary) is ignored, and the engine's rule decides.
    fn choose(&mut self, domain: &dyn Domain) -> Option<usize> {
        let _ = domain;
        None
    }

    /// A fresh copy, for another thread's solver.
    fn box_clone(&self) -> Box<dyn Propagator>;
}

/// A solver's propagator, if it has one: cloned with the solver.
#[derive(Default)]
pub(crate) struct Slot(pub(crate) Option<Box<dyn Propagator>>);

impl Clone for Slot {
    fn clone(&self) -> Slot {
        Slot(self.0.as_ref().map(|p| p.box_clone()))
    }
}

impl fmt::Debug for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(_) => f.write_str("Slot(Some(..))"),
            None => f.write_str("Slot(None)"),
        }
    }
}
