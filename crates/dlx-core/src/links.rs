//! The dancing links: two flat arrays of `u32` indices, laid out as in
//! Knuth's DLX1.
//!
//! `items` is the doubly linked list of active items. Index 0 is the root of
//! the primary items; items are `1..=n`; index `n + 1` heads the secondary
//! items, which are never chosen for branching but are covered when an option
//! that contains them is chosen.
//!
//! `nodes` holds, in this order: an unused slot 0, the item headers `1..=n`
//! (whose `item` field is aliased as the item's length, the number of options
//! still in its list), a first spacer, and then each option's nodes followed
//! by a spacer. A spacer has `item == 0`; its `up` is the first node of the
//! option before it and its `down` the last node of the option after it, so
//! walking an option row wraps around without a separate "left/right" array.
//!
//! The operations are Knuth's: [`Links::cover`] takes an item out of the
//! active list and hides every option in its list; [`Links::uncover`] undoes
//! exactly that, in reverse. Every search restores the arrays to their initial
//! state, node for node.

use crate::problem::Problem;

/// One node of the structure. For item headers `item` is the item's length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub(crate) struct Node {
    pub(crate) item: u32,
    pub(crate) up: u32,
    pub(crate) down: u32,
}

/// One entry of the active-item list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub(crate) struct ItemLink {
    pub(crate) prev: u32,
    pub(crate) next: u32,
}

/// The root of the list of active primary items.
pub(crate) const ROOT: u32 = 0;

/// The linked structure for one problem, owned by one solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Links {
    pub(crate) items: Vec<ItemLink>,
    pub(crate) nodes: Vec<Node>,
    /// For each node, the option it belongs to (unused for headers and
    /// spacers). Read only when a solution is reported.
    pub(crate) option_of: Vec<u32>,
    /// For each option, its first node.
    pub(crate) first_node: Vec<u32>,
    /// The number of items; headers are nodes `1..=item_count`.
    pub(crate) item_count: u32,
    /// One for each item taken out of the active list and for each node
    /// unlinked from its item's list (see `shared/xc/README.md`).
    pub(crate) updates: u64,
}

impl Links {
    /// Builds the structure for `problem`. Node numbers fit in `u32` because
    /// the builder refused any problem with more than `MAX_NODES` nodes.
    pub(crate) fn new(problem: &Problem) -> Links {
        let n = problem.item_count() as u32;
        let primary = problem.primary_count() as u32;
        let secondary_head = n + 1;

        let mut items = vec![ItemLink::default(); n as usize + 2];
        // Primary items form a circular list through ROOT.
        for i in 0..=primary {
            items[i as usize] = ItemLink {
                prev: if i == 0 { primary } else { i - 1 },
                next: if i == primary { ROOT } else { i + 1 },
            };
        }
        // Secondary items form a circular list through `secondary_head`.
        let mut prev = secondary_head;
        for i in primary + 1..=n {
            items[i as usize].prev = prev;
            items[prev as usize].next = i;
            prev = i;
        }
        items[prev as usize].next = secondary_head;
        items[secondary_head as usize].prev = prev;

        let total = problem.node_count();
        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node::default());
        for i in 1..=n {
            nodes.push(Node {
                item: 0,
                up: i,
                down: i,
            });
        }
        let mut option_of = vec![0u32; total];
        let mut first_node = Vec::with_capacity(problem.option_count());
        // The first spacer.
        let mut last_spacer = nodes.len();
        nodes.push(Node::default());
        for (option, option_items) in problem.options().enumerate() {
            let first = nodes.len() as u32;
            first_node.push(first);
            for &item in option_items {
                let header = item + 1;
                let p = nodes.len() as u32;
                let last = nodes[header as usize].up;
                nodes.push(Node {
                    item: header,
                    up: last,
                    down: header,
                });
                nodes[last as usize].down = p;
                nodes[header as usize].up = p;
                nodes[header as usize].item += 1;
                option_of[p as usize] = option as u32;
            }
            let last = nodes.len() as u32 - 1;
            nodes[last_spacer].down = last;
            last_spacer = nodes.len();
            nodes.push(Node {
                item: 0,
                up: first,
                down: 0,
            });
        }
        debug_assert_eq!(nodes.len(), total);
        Links {
            items,
            nodes,
            option_of,
            first_node,
            item_count: n,
            updates: 0,
        }
    }

    /// A view of the arrays for the hot loops; see [`Arrays`].
    #[inline(always)]
    fn arrays(&mut self) -> Arrays {
        Arrays {
            nodes: self.nodes.as_mut_ptr(),
            items: self.items.as_mut_ptr(),
            #[cfg(any(debug_assertions, feature = "bounds-checks"))]
            lens: (self.nodes.len(), self.items.len()),
        }
    }

    /// The length field of item header `item`.
    #[inline(always)]
    pub(crate) fn len(&self, item: u32) -> u32 {
        self.nodes[item as usize].item
    }

    /// Whether `item` (a header index) is in its active list.
    pub(crate) fn is_active(&self, item: u32) -> bool {
        let prev = self.items[item as usize].prev;
        self.items[prev as usize].next == item
    }

    /// Takes `item` out of the active list and hides every option in its
    /// list from the other items' lists.
    #[inline(always)]
    pub(crate) fn cover(&mut self, item: u32) {
        let a = self.arrays();
        // SAFETY: `item` is a header index, and see `Arrays`.
        self.updates += unsafe { a.cover(item) };
    }

    /// Undoes [`Links::cover`].
    #[inline(always)]
    pub(crate) fn uncover(&mut self, item: u32) {
        let a = self.arrays();
        // SAFETY: `item` is a header index, and see `Arrays`.
        unsafe { a.uncover(item) }
    }

    /// Covers every item of `node`'s option except `node`'s own, left to
    /// right.
    #[inline(always)]
    pub(crate) fn commit(&mut self, node: u32) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        self.updates += unsafe { a.commit(node) };
    }

    /// Undoes [`Links::commit`], right to left.
    #[inline(always)]
    pub(crate) fn uncommit(&mut self, node: u32) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        unsafe { a.uncommit(node) }
    }

    /// The first active primary item with the fewest options (ties go to the
    /// earliest in item order), or `None` when no primary item is active.
    #[inline(always)]
    pub(crate) fn choose_fewest(&self) -> Option<u32> {
        let mut k = self.items[ROOT as usize].next;
        if k == ROOT {
            return None;
        }
        let mut best = k;
        let mut best_len = self.len(k);
        while best_len > 0 {
            k = self.items[k as usize].next;
            if k == ROOT {
                break;
            }
            let len = self.len(k);
            if len < best_len {
                best = k;
                best_len = len;
            }
        }
        Some(best)
    }

    /// Whether no primary item is left to cover.
    #[inline(always)]
    pub(crate) fn all_primary_covered(&self) -> bool {
        self.items[ROOT as usize].next == ROOT
    }

    /// The header of the item that `node` belongs to; a header is its own.
    #[inline(always)]
    pub(crate) fn item_of(&self, node: u32) -> u32 {
        if node <= self.item_count {
            node
        } else {
            self.nodes[node as usize].item
        }
    }

    /// Checks every link against every other one (for tests and debugging):
    /// lists are circular and consistent, lengths match the lists.
    #[allow(dead_code)]
    pub(crate) fn sanity_check(&self) -> Result<(), String> {
        for item in 1..=self.item_count {
            let mut count = 0;
            let mut p = self.nodes[item as usize].down;
            let mut prev = item;
            while p != item {
                let node = self.nodes[p as usize];
                if node.up != prev {
                    return Err(format!("node {p}: up is {} not {prev}", node.up));
                }
                if node.item != item {
                    return Err(format!(
                        "node {p} in list of {item} says item {}",
                        node.item
                    ));
                }
                count += 1;
                if count > self.nodes.len() {
                    return Err(format!("item {item}: list does not close"));
                }
                prev = p;
                p = node.down;
            }
            if self.nodes[item as usize].up != prev {
                return Err(format!("item {item}: header up is wrong"));
            }
            if self.len(item) as usize != count {
                return Err(format!(
                    "item {item}: len {} but {count} nodes",
                    self.len(item)
                ));
            }
        }
        Ok(())
    }
}

/// Raw pointers to the two arrays, for the operations that run billions of
/// times.
///
/// Why raw pointers: through `&mut self`, the compiler must assume a store
/// into a node may change the vectors' own pointer fields and the update
/// counter, and reloads them on every step; with the base pointers and the
/// counter in locals it does not. And why no bounds checks: every index these
/// functions use is either passed in as a header or option node, or read
/// from the links themselves, and every stored link was written by
/// [`Links::new`] as a position inside the arrays (or copied from another
/// stored link); the only computed indices, `q + 1` and `q - 1` inside an
/// option, stop at the spacer that closes every option. So every access is
/// in bounds. Debug builds (and the `bounds-checks` feature) assert it.
/// The two arrays are separate allocations, so no node pointer aliases an
/// item pointer. `cargo xtask bench` measures what this gains; see
/// ARCHITECTURE.md ("unsafe").
#[derive(Clone, Copy)]
struct Arrays {
    nodes: *mut Node,
    items: *mut ItemLink,
    #[cfg(any(debug_assertions, feature = "bounds-checks"))]
    lens: (usize, usize),
}

impl Arrays {
    #[inline(always)]
    unsafe fn node(self, index: u32) -> *mut Node {
        #[cfg(any(debug_assertions, feature = "bounds-checks"))]
        assert!((index as usize) < self.lens.0, "node {index} out of bounds");
        self.nodes.add(index as usize)
    }

    #[inline(always)]
    unsafe fn item(self, index: u32) -> *mut ItemLink {
        #[cfg(any(debug_assertions, feature = "bounds-checks"))]
        assert!((index as usize) < self.lens.1, "item {index} out of bounds");
        self.items.add(index as usize)
    }

    /// Knuth's `cover`: unlinks `item` from the active list, then hides
    /// every option in its list. Returns the updates made.
    #[inline(always)]
    unsafe fn cover(self, item: u32) -> u64 {
        let ItemLink { prev, next } = *self.item(item);
        (*self.item(prev)).next = next;
        (*self.item(next)).prev = prev;
        let mut updates = 1;
        let mut row = (*self.node(item)).down;
        while row != item {
            updates += self.hide(row);
            row = (*self.node(row)).down;
        }
        updates
    }

    /// Undoes [`Arrays::cover`]: the options come back bottom to top, so
    /// every link is restored in the reverse order it was changed.
    #[inline(always)]
    unsafe fn uncover(self, item: u32) {
        let mut row = (*self.node(item)).up;
        while row != item {
            self.unhide(row);
            row = (*self.node(row)).up;
        }
        let ItemLink { prev, next } = *self.item(item);
        (*self.item(prev)).next = item;
        (*self.item(next)).prev = item;
    }

    /// Unlinks every node of `node`'s option except `node` itself from its
    /// item's list. Returns the updates made.
    ///
    /// The option is walked in two runs, from `node` right to the closing
    /// spacer and then from the option's first node up to `node`, so neither
    /// run needs a second test per node; the updates are the option's length
    /// less one, known from where the runs end.
    #[inline(always)]
    unsafe fn hide(self, node: u32) -> u64 {
        let mut q = node + 1;
        loop {
            let Node { item, up, down } = *self.node(q);
            if item == 0 {
                break;
            }
            (*self.node(up)).down = down;
            (*self.node(down)).up = up;
            (*self.node(item)).item -= 1;
            q += 1;
        }
        let spacer = q;
        let first = (*self.node(spacer)).up;
        q = first;
        while q != node {
            let Node { item, up, down } = *self.node(q);
            (*self.node(up)).down = down;
            (*self.node(down)).up = up;
            (*self.node(item)).item -= 1;
            q += 1;
        }
        u64::from(spacer - first - 1)
    }

    /// Undoes [`Arrays::hide`], walking the option right to left: from
    /// `node` left to the spacer before the option, then from the option's
    /// last node down to `node`.
    #[inline(always)]
    unsafe fn unhide(self, node: u32) {
        let mut q = node - 1;
        loop {
            let Node { item, up, down } = *self.node(q);
            if item == 0 {
                break;
            }
            (*self.node(up)).down = q;
            (*self.node(down)).up = q;
            (*self.node(item)).item += 1;
            q -= 1;
        }
        q = (*self.node(q)).down;
        while q != node {
            let Node { item, up, down } = *self.node(q);
            (*self.node(up)).down = q;
            (*self.node(down)).up = q;
            (*self.node(item)).item += 1;
            q -= 1;
        }
    }

    /// Covers the items of `node`'s option other than `node`'s, left to
    /// right (in two runs, as [`Arrays::hide`]). Returns the updates made.
    #[inline(always)]
    unsafe fn commit(self, node: u32) -> u64 {
        let mut updates = 0;
        let mut q = node + 1;
        loop {
            let item = (*self.node(q)).item;
            if item == 0 {
                break;
            }
            updates += self.cover(item);
            q += 1;
        }
        q = (*self.node(q)).up;
        while q != node {
            updates += self.cover((*self.node(q)).item);
            q += 1;
        }
        updates
    }

    /// Undoes [`Arrays::commit`], right to left.
    #[inline(always)]
    unsafe fn uncommit(self, node: u32) {
        let mut q = node - 1;
        loop {
            let item = (*self.node(q)).item;
            if item == 0 {
                break;
            }
            self.uncover(item);
            q -= 1;
        }
        q = (*self.node(q)).down;
        while q != node {
            self.uncover((*self.node(q)).item);
            q -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Problem {
        // Knuth's example from TAOCP 7.2.2.1 (a b c d e f g; all primary).
        let mut b =
            Problem::named(["a", "b", "c", "d", "e", "f", "g"], Vec::<String>::new()).unwrap();
        for option in [
            &["c", "e"][..],
            &["a", "d", "g"],
            &["b", "c", "f"],
            &["a", "d", "f"],
            &["b", "g"],
            &["d", "e", "g"],
        ] {
            b.add_named_option(option.iter().copied()).unwrap();
        }
        b.build()
    }

    #[test]
    fn layout_matches_knuth_table() {
        let links = Links::new(&small());
        // Headers: lengths of a..g are 2 2 2 3 2 2 3.
        let lens: Vec<u32> = (1..=7).map(|i| links.len(i)).collect();
        assert_eq!(lens, [2, 2, 2, 3, 2, 2, 3]);
        // Nodes 8 (first spacer), 9..10 option "c e", 11 spacer, ...
        assert_eq!(
            links.nodes[8],
            Node {
                item: 0,
                up: 0,
                down: 10
            }
        );
        assert_eq!(links.nodes[9].item, 3);
        assert_eq!(links.nodes[10].item, 5);
        assert_eq!(
            links.nodes[11],
            Node {
                item: 0,
                up: 9,
                down: 14
            }
        );
        // Item a's list: nodes 12 (a d g) and 20 (a d f).
        assert_eq!(links.nodes[1].down, 12);
        assert_eq!(links.nodes[12].down, 20);
        assert_eq!(links.nodes[20].down, 1);
        assert_eq!(links.nodes[1].up, 20);
        assert_eq!(links.option_of[20], 3);
        assert_eq!(links.first_node, [9, 12, 16, 20, 24, 27]);
        links.sanity_check().unwrap();
    }

    #[test]
    fn cover_and_uncover_restore_every_link() {
        let mut links = Links::new(&small());
        let fresh = links.clone();
        links.cover(1);
        links.commit(12);
        assert!(!links.is_active(1) && !links.is_active(4) && !links.is_active(7));
        links.sanity_check().unwrap();
        links.uncommit(12);
        links.uncover(1);
        links.updates = 0;
        assert_eq!(links, fresh);
    }
}
