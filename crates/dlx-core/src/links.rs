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

    /// Node `index`. Every index stored in the links was made by
    /// [`Links::new`] as a position in `nodes` (or `items`), and the
    /// operations only ever copy stored indices, never compute new ones except
    /// `q + 1` / `q - 1` inside an option, which stops at the spacer that
    /// closes it; so every index is in bounds. Without the `bounds-checks`
    /// feature the check is skipped in release builds because it pays: see
    /// `cargo xtask bench` and ARCHITECTURE.md ("unsafe").
    #[inline(always)]
    fn node(&self, index: u32) -> &Node {
        debug_assert!((index as usize) < self.nodes.len());
        #[cfg(not(feature = "bounds-checks"))]
        // SAFETY: `index < nodes.len()`, as argued above.
        unsafe {
            self.nodes.get_unchecked(index as usize)
        }
        #[cfg(feature = "bounds-checks")]
        &self.nodes[index as usize]
    }

    #[inline(always)]
    fn node_mut(&mut self, index: u32) -> &mut Node {
        debug_assert!((index as usize) < self.nodes.len());
        #[cfg(not(feature = "bounds-checks"))]
        // SAFETY: as for `node`.
        unsafe {
            self.nodes.get_unchecked_mut(index as usize)
        }
        #[cfg(feature = "bounds-checks")]
        &mut self.nodes[index as usize]
    }

    #[inline(always)]
    fn item(&self, index: u32) -> &ItemLink {
        debug_assert!((index as usize) < self.items.len());
        #[cfg(not(feature = "bounds-checks"))]
        // SAFETY: item indices are `0..=item_count + 1`, the length of
        // `items`, by construction, and only stored indices are used.
        unsafe {
            self.items.get_unchecked(index as usize)
        }
        #[cfg(feature = "bounds-checks")]
        &self.items[index as usize]
    }

    #[inline(always)]
    fn item_mut(&mut self, index: u32) -> &mut ItemLink {
        debug_assert!((index as usize) < self.items.len());
        #[cfg(not(feature = "bounds-checks"))]
        // SAFETY: as for `item`.
        unsafe {
            self.items.get_unchecked_mut(index as usize)
        }
        #[cfg(feature = "bounds-checks")]
        &mut self.items[index as usize]
    }

    /// The length field of item header `item`.
    #[inline(always)]
    pub(crate) fn len(&self, item: u32) -> u32 {
        self.node(item).item
    }

    /// Whether `item` (a header index) is in its active list.
    pub(crate) fn is_active(&self, item: u32) -> bool {
        let prev = self.item(item).prev;
        self.item(prev).next == item
    }

    /// Takes `item` out of the active list and hides every option in its
    /// list from the other items' lists.
    #[inline(always)]
    pub(crate) fn cover(&mut self, item: u32) {
        let ItemLink { prev, next } = *self.item(item);
        self.item_mut(prev).next = next;
        self.item_mut(next).prev = prev;
        self.updates += 1;
        let mut row = self.node(item).down;
        while row != item {
            self.hide(row);
            row = self.node(row).down;
        }
    }

    /// Undoes [`Links::cover`]: the options come back bottom to top, so every
    /// link is restored in the reverse order it was changed.
    #[inline(always)]
    pub(crate) fn uncover(&mut self, item: u32) {
        let mut row = self.node(item).up;
        while row != item {
            self.unhide(row);
            row = self.node(row).up;
        }
        let ItemLink { prev, next } = *self.item(item);
        self.item_mut(prev).next = item;
        self.item_mut(next).prev = item;
    }

    /// Unlinks every node of `node`'s option except `node` itself from its
    /// item's list.
    #[inline(always)]
    fn hide(&mut self, node: u32) {
        let mut q = node + 1;
        while q != node {
            let Node { item, up, down } = *self.node(q);
            if item == 0 {
                // A spacer: wrap around to the option's first node.
                q = up;
                continue;
            }
            self.node_mut(up).down = down;
            self.node_mut(down).up = up;
            self.node_mut(item).item -= 1;
            self.updates += 1;
            q += 1;
        }
    }

    /// Undoes [`Links::hide`], walking the option right to left.
    #[inline(always)]
    fn unhide(&mut self, node: u32) {
        let mut q = node - 1;
        while q != node {
            let Node { item, up, down } = *self.node(q);
            if item == 0 {
                // A spacer: wrap around to the option's last node.
                q = down;
                continue;
            }
            self.node_mut(up).down = q;
            self.node_mut(down).up = q;
            self.node_mut(item).item += 1;
            q -= 1;
        }
    }

    /// Covers every item of `node`'s option except `node`'s own, left to
    /// right.
    #[inline(always)]
    pub(crate) fn commit(&mut self, node: u32) {
        let mut q = node + 1;
        while q != node {
            let Node { item, up, .. } = *self.node(q);
            if item == 0 {
                q = up;
                continue;
            }
            self.cover(item);
            q += 1;
        }
    }

    /// Undoes [`Links::commit`], right to left.
    #[inline(always)]
    pub(crate) fn uncommit(&mut self, node: u32) {
        let mut q = node - 1;
        while q != node {
            let Node { item, down, .. } = *self.node(q);
            if item == 0 {
                q = down;
                continue;
            }
            self.uncover(item);
            q -= 1;
        }
    }

    /// The first active primary item with the fewest options (ties go to the
    /// earliest in item order), or `None` when no primary item is active.
    #[inline(always)]
    pub(crate) fn choose_fewest(&self) -> Option<u32> {
        let mut k = self.item(ROOT).next;
        if k == ROOT {
            return None;
        }
        let mut best = k;
        let mut best_len = self.len(k);
        while best_len > 0 {
            k = self.item(k).next;
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
        self.item(ROOT).next == ROOT
    }

    /// The header of the item that `node` belongs to; a header is its own.
    #[inline(always)]
    pub(crate) fn item_of(&self, node: u32) -> u32 {
        if node <= self.item_count {
            node
        } else {
            self.node(node).item
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
