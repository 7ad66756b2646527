//! The dancing links: two flat arrays of `u32` links, laid out as in
//! Knuth's DLX1.
//!
//! `nodes` holds, in this order: an unused slot 0, the item headers `1..=n`
//! (whose `item` field is aliased as the item's length, the number of options
//! still in its list), a first spacer, and then each option's nodes followed
//! by a spacer. A spacer has `item == 0`; its `up` is the first node of the
//! option before it and its `down` the last node of the option after it, so
//! walking an option row wraps around without a separate "left/right" array.
//!
//! `items` is the doubly linked list of active items. Entry 0 is the root of
//! the primary items; items are `1..=n`; entry `n + 1` heads the secondary
//! items, which are never chosen for branching but are covered when an option
//! that contains them is chosen.
//!
//! A link names a node by its byte offset in `nodes` (a [`NodeRef`], the
//! node's index times [`NODE_BYTES`]), not by its index: the hot loops then
//! address a node as `base + link` with no multiplication, which the
//! benchmarks showed pays (see ARCHITECTURE.md, "unsafe"). Item `i`'s
//! header is node `i`, so an item is named by the `NodeRef` of its header
//! too, and its entry in `items` is that offset shifted right.
//!
//! The operations are Knuth's: [`Links::cover`] takes an item out of the
//! active list and hides every option in its list; [`Links::uncover`] undoes
//! exactly that, in reverse. Every search restores the arrays to their initial
//! state, node for node.

use crate::problem::Problem;

/// A node's byte offset in `nodes`: its index times [`NODE_BYTES`].
pub(crate) type NodeRef = u32;

/// The size of a [`Node`]; a power of two, so a `NodeRef` is an index
/// shifted left by [`NODE_SHIFT`].
pub(crate) const NODE_BYTES: u32 = 16;
const NODE_SHIFT: u32 = 4;
const _: () = assert!(1 << NODE_SHIFT == NODE_BYTES);
const _: () = assert!(std::mem::size_of::<Node>() == NODE_BYTES as usize);
// Every node the builder allows is one a `NodeRef` can address.
const _: () = assert!(crate::problem::MAX_NODES <= (u32::MAX >> NODE_SHIFT) as usize);

/// One node of the structure, aligned so that no node straddles two cache
/// lines. For item headers `item` is the item's length; for spacers it is 0;
/// for option nodes it is the item's header. `colour` is the colour an
/// option gives a secondary item (0 for none, [`PURIFIED`] while the item
/// is purified to it); unused elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C, align(16))]
pub(crate) struct Node {
    pub(crate) item: u32,
    pub(crate) up: NodeRef,
    pub(crate) down: NodeRef,
    pub(crate) colour: u32,
}

/// The colour of a node whose item an earlier choice purified to this
/// node's own colour (Knuth's −1 in DLX2): the node agrees with the choice,
/// so hiding its option leaves it in its list, and committing it does
/// nothing.
pub(crate) const PURIFIED: u32 = u32::MAX;

/// One entry of the active-item list: the headers of the items before and
/// after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(C)]
pub(crate) struct ItemLink {
    pub(crate) prev: NodeRef,
    pub(crate) next: NodeRef,
}

/// The root of the list of active primary items.
pub(crate) const ROOT: NodeRef = 0;

/// The `NodeRef` of node `index`.
#[inline(always)]
pub(crate) const fn node_ref(index: usize) -> NodeRef {
    (index as u32) << NODE_SHIFT
}

/// The index of the node (or the item entry) that `node` names.
#[inline(always)]
pub(crate) const fn index(node: NodeRef) -> usize {
    (node >> NODE_SHIFT) as usize
}

/// The linked structure for one problem, owned by one solver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Links {
    pub(crate) items: Vec<ItemLink>,
    pub(crate) nodes: Vec<Node>,
    /// For each node index, the option it belongs to (unused for headers and
    /// spacers). Read only when a solution is reported.
    option_of: Vec<u32>,
    /// For each option, its first node.
    pub(crate) first_node: Vec<NodeRef>,
    /// The last item header; headers are the nodes up to it.
    last_header: NodeRef,
    /// The last primary item's header; secondary items' headers follow.
    last_primary: NodeRef,
    /// One for each item taken out of the active list and for each node
    /// unlinked from its item's list (see `shared/xc/README.md`).
    pub(crate) updates: u64,
    /// One for each colour constraint a purification satisfies: the
    /// purified item, and each node of its colour but the chosen one (as
    /// DLX2 counts them).
    pub(crate) cleansings: u64,
}

impl Links {
    /// Builds the structure for `problem`. Every link fits in a `NodeRef`
    /// because the builder refused any problem with more than `MAX_NODES`
    /// nodes, which a `NodeRef` addresses (checked at compile time).
    pub(crate) fn new(problem: &Problem) -> Links {
        let n = problem.item_count();
        let primary = problem.primary_count();
        let secondary_head = n + 1;

        let mut items = vec![ItemLink::default(); n + 2];
        // Primary items form a circular list through ROOT.
        for (i, link) in items.iter_mut().enumerate().take(primary + 1) {
            *link = ItemLink {
                prev: node_ref(if i == 0 { primary } else { i - 1 }),
                next: if i == primary { ROOT } else { node_ref(i + 1) },
            };
        }
        // Secondary items form a circular list through `secondary_head`.
        let mut prev = secondary_head;
        for i in primary + 1..=n {
            items[i].prev = node_ref(prev);
            items[prev].next = node_ref(i);
            prev = i;
        }
        items[prev].next = node_ref(secondary_head);
        items[secondary_head].prev = node_ref(prev);

        let total = problem.node_count();
        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node::default());
        for i in 1..=n {
            let header = node_ref(i);
            nodes.push(Node {
                up: header,
                down: header,
                ..Node::default()
            });
        }
        let mut option_of = vec![0u32; total];
        let mut first_node = Vec::with_capacity(problem.option_count());
        // The first spacer.
        let mut last_spacer = nodes.len();
        nodes.push(Node::default());
        for (option, option_items) in problem.options().enumerate() {
            let first = nodes.len();
            first_node.push(node_ref(first));
            let colours = problem.raw_colours(option);
            for (k, &item) in option_items.iter().enumerate() {
                let header = item as usize + 1;
                let p = nodes.len();
                let last = nodes[header].up;
                nodes.push(Node {
                    item: node_ref(header),
                    up: last,
                    down: node_ref(header),
                    colour: colours.map_or(0, |c| c[k]),
                });
                nodes[index(last)].down = node_ref(p);
                nodes[header].up = node_ref(p);
                nodes[header].item += 1;
                option_of[p] = option as u32;
            }
            nodes[last_spacer].down = node_ref(nodes.len() - 1);
            last_spacer = nodes.len();
            nodes.push(Node {
                up: node_ref(first),
                ..Node::default()
            });
        }
        debug_assert_eq!(nodes.len(), total);
        Links {
            items,
            nodes,
            option_of,
            first_node,
            last_header: node_ref(n),
            last_primary: node_ref(primary),
            updates: 0,
            cleansings: 0,
        }
    }

    /// A view of the arrays for the hot loops; see [`Arrays`].
    #[inline(always)]
    fn arrays(&mut self) -> Arrays {
        Arrays {
            nodes: self.nodes.as_mut_ptr().cast(),
            items: self.items.as_mut_ptr(),
            last_primary: self.last_primary,
            #[cfg(any(debug_assertions, feature = "bounds-checks"))]
            lens: (self.nodes.len(), self.items.len()),
        }
    }

    /// Node `node`.
    #[inline(always)]
    pub(crate) fn node(&self, node: NodeRef) -> &Node {
        &self.nodes[index(node)]
    }

    /// The length field of item header `item`.
    #[inline(always)]
    pub(crate) fn len(&self, item: NodeRef) -> u32 {
        self.node(item).item
    }

    /// The node below `node` in its item's list.
    #[inline(always)]
    pub(crate) fn down(&self, node: NodeRef) -> NodeRef {
        self.node(node).down
    }

    /// The option that option node `node` belongs to.
    pub(crate) fn option_of(&self, node: NodeRef) -> usize {
        self.option_of[index(node)] as usize
    }

    /// Whether `item` (a header) is in its active list.
    pub(crate) fn is_active(&self, item: NodeRef) -> bool {
        let prev = self.items[index(item)].prev;
        self.items[index(prev)].next == item
    }

    /// Whether the option starting at `first` may still be chosen: every
    /// item of it active and every node of it in its list (a node leaves
    /// its list when its option is hidden: by a covered item, a purified
    /// item of another colour, or a tweak).
    pub(crate) fn option_is_free(&self, first: NodeRef) -> bool {
        let mut q = first;
        loop {
            let node = self.node(q);
            if node.item == 0 {
                return true;
            }
            if !self.is_active(node.item) || self.node(node.up).down != q {
                return false;
            }
            q += NODE_BYTES;
        }
    }

    // The safe operations below are alike on purpose: each keeps its unsafe
    // call beside its own SAFETY line, which a shared macro would hide.

    /// Takes `item` out of the active list and hides every option in its
    /// list from the other items' lists. With `XCC`, nodes of purified
    /// items stay where they are (see [`PURIFIED`]).
    #[inline(always)]
    pub(crate) fn cover<const XCC: bool>(&mut self, item: NodeRef) {
        let a = self.arrays();
        // SAFETY: `item` is a header, and see `Arrays`.
        self.updates += unsafe { a.cover::<XCC>(item) };
    }

    /// Undoes [`Links::cover`].
    #[inline(always)]
    pub(crate) fn uncover<const XCC: bool>(&mut self, item: NodeRef) {
        let a = self.arrays();
        // SAFETY: `item` is a header, and see `Arrays`.
        unsafe { a.uncover::<XCC>(item) }
    }

    /// Commits every item of `node`'s option except `node`'s own, left to
    /// right: covers it, or, with `XCC`, purifies a secondary item that the
    /// option colours (see [`Arrays::commit_one`]).
    #[inline(always)]
    pub(crate) fn commit<const XCC: bool>(&mut self, node: NodeRef) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        let (updates, cleansings) = unsafe { a.commit::<XCC>(node) };
        self.updates += updates;
        self.cleansings += cleansings;
    }

    /// Undoes [`Links::commit`], right to left.
    #[inline(always)]
    pub(crate) fn uncommit<const XCC: bool>(&mut self, node: NodeRef) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        unsafe { a.uncommit::<XCC>(node) }
    }

    /// Commits the item of `node` alone (see [`Arrays::commit_one`]).
    #[inline(always)]
    pub(crate) fn commit_one<const XCC: bool>(&mut self, node: NodeRef) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        let (updates, cleansings) = unsafe { a.commit_one::<XCC>(node) };
        self.updates += updates;
        self.cleansings += cleansings;
    }

    /// Undoes [`Links::commit_one`].
    #[inline(always)]
    pub(crate) fn uncommit_one<const XCC: bool>(&mut self, node: NodeRef) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        unsafe { a.uncommit_one::<XCC>(node) }
    }

    /// Hides every node of `node`'s option but `node` from its list.
    #[inline(always)]
    pub(crate) fn hide<const XCC: bool>(&mut self, node: NodeRef) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        self.updates += unsafe { a.hide_any::<XCC>(node) };
    }

    /// Undoes [`Links::hide`].
    #[inline(always)]
    pub(crate) fn unhide<const XCC: bool>(&mut self, node: NodeRef) {
        let a = self.arrays();
        // SAFETY: `node` is an option node, and see `Arrays`.
        unsafe { a.unhide_any::<XCC>(node) }
    }

    /// Unlinks option node `node` alone from its item's list.
    pub(crate) fn remove_node(&mut self, node: NodeRef) {
        let Node { item, up, down, .. } = *self.node(node);
        self.nodes[index(up)].down = down;
        self.nodes[index(down)].up = up;
        self.nodes[index(item)].item -= 1;
        self.updates += 1;
    }

    /// Undoes [`Links::remove_node`].
    pub(crate) fn restore_node(&mut self, node: NodeRef) {
        let Node { item, up, down, .. } = *self.node(node);
        self.nodes[index(up)].down = node;
        self.nodes[index(down)].up = node;
        self.nodes[index(item)].item += 1;
    }

    /// The last primary item's header (its index is the number of primary
    /// items).
    pub(crate) fn last_primary(&self) -> NodeRef {
        self.last_primary
    }

    /// Whether the option whose first node is `first` may still be chosen,
    /// in constant time: its first node's item is active and the node is
    /// in that item's list. (An option hidden by a cover stays only in the
    /// covered item's list, which is inactive; a chosen option's items are
    /// all covered; a removed option is in no list. Since links are undone
    /// in reverse, no linked node points to an unlinked one, so
    /// `down(up(first)) == first` exactly when `first` is linked.)
    pub(crate) fn is_live(&self, first: NodeRef) -> bool {
        let node = self.node(first);
        self.is_active(node.item) && self.node(node.up).down == first
    }

    /// Unlinks every node of the live option starting at `first` from its
    /// item's list (a propagator's removal: not counted as updates, so the
    /// classic counts stay comparable).
    pub(crate) fn remove_option(&mut self, first: NodeRef) {
        let mut q = first;
        loop {
            let Node { item, up, down, .. } = *self.node(q);
            if item == 0 {
                return;
            }
            self.nodes[index(up)].down = down;
            self.nodes[index(down)].up = up;
            self.nodes[index(item)].item -= 1;
            q += NODE_BYTES;
        }
    }

    /// Undoes [`Links::remove_option`], last node first.
    pub(crate) fn restore_option(&mut self, first: NodeRef) {
        let mut last = first;
        while self.node(last + NODE_BYTES).item != 0 {
            last += NODE_BYTES;
        }
        let mut q = last;
        loop {
            let Node { item, up, down, .. } = *self.node(q);
            self.nodes[index(up)].down = q;
            self.nodes[index(down)].up = q;
            self.nodes[index(item)].item += 1;
            if q == first {
                return;
            }
            q -= NODE_BYTES;
        }
    }

    /// Takes `item` out of its active list without touching its options
    /// (an item that may take no more options, though it still has some).
    pub(crate) fn deactivate(&mut self, item: NodeRef) {
        let ItemLink { prev, next } = self.items[index(item)];
        self.items[index(prev)].next = next;
        self.items[index(next)].prev = prev;
        self.updates += 1;
    }

    /// Undoes [`Links::deactivate`].
    pub(crate) fn reactivate(&mut self, item: NodeRef) {
        let ItemLink { prev, next } = self.items[index(item)];
        self.items[index(prev)].next = item;
        self.items[index(next)].prev = item;
    }

    /// Tweaks `node`, the first option in its item's list (Knuth's
    /// `tweak`): unlinks it from that list, and, when `hide`, hides the
    /// rest of its option from the other lists, so that the option is gone
    /// for the rest of this branch point.
    pub(crate) fn tweak<const XCC: bool>(&mut self, node: NodeRef, hide: bool) {
        let item = self.node(node).item;
        debug_assert_eq!(
            self.down(item),
            node,
            "a tweaked option is first in its list"
        );
        if hide {
            self.hide::<XCC>(node);
        }
        let down = self.down(node);
        self.nodes[index(item)].down = down;
        self.nodes[index(down)].up = item;
        self.nodes[index(item)].item -= 1;
        self.updates += 1;
    }

    /// Undoes every tweak of `item` since its list began at `first` (Knuth's
    /// `untweak`): the tweaked nodes still link down to one another and to
    /// the list's present first node, so they are put back in one walk,
    /// and their options unhidden (when `unhide`) newest first.
    pub(crate) fn untweak<const XCC: bool>(&mut self, first: NodeRef, item: NodeRef, unhide: bool) {
        let rest = self.down(item);
        let mut x = first;
        let mut above = item;
        let mut count = 0;
        while x != rest {
            self.nodes[index(x)].up = above;
            count += 1;
            above = x;
            x = self.down(x);
        }
        self.nodes[index(item)].down = first;
        self.nodes[index(rest)].up = above;
        self.nodes[index(item)].item += count;
        if unhide {
            // Newest first: the reverse of the order they were hidden.
            let mut x = above;
            while x != item {
                self.unhide::<XCC>(x);
                x = self.node(x).up;
            }
        }
    }

    /// The node after `node` in its option, wrapping around past the
    /// closing spacer.
    #[inline(always)]
    pub(crate) fn next_in_option(&self, node: NodeRef) -> NodeRef {
        let next = node + NODE_BYTES;
        if self.node(next).item == 0 {
            self.node(next).up
        } else {
            next
        }
    }

    /// The node before `node` in its option, wrapping around past the
    /// spacer before it.
    #[inline(always)]
    pub(crate) fn prev_in_option(&self, node: NodeRef) -> NodeRef {
        let prev = node - NODE_BYTES;
        if self.node(prev).item == 0 {
            self.node(prev).down
        } else {
            prev
        }
    }

    /// Whether `item` (a header) is primary.
    #[inline(always)]
    pub(crate) fn is_primary(&self, item: NodeRef) -> bool {
        item <= self.last_primary
    }

    /// The first active primary item with the fewest options (ties go to the
    /// earliest in item order), or `None` when no primary item is active.
    #[inline(always)]
    pub(crate) fn choose_fewest(&mut self) -> Option<NodeRef> {
        let a = self.arrays();
        // SAFETY: see `Arrays`.
        unsafe { a.choose_fewest() }
    }

    /// The active primary items, in item order.
    pub(crate) fn active_primary(&self) -> impl Iterator<Item = NodeRef> + '_ {
        let mut item = ROOT;
        std::iter::from_fn(move || {
            item = self.items[index(item)].next;
            (item != ROOT).then_some(item)
        })
    }

    /// Whether no primary item is left to cover.
    #[inline(always)]
    pub(crate) fn all_primary_covered(&self) -> bool {
        self.items[index(ROOT)].next == ROOT
    }

    /// The header of the item that `node` belongs to; a header is its own.
    #[inline(always)]
    pub(crate) fn item_of(&self, node: NodeRef) -> NodeRef {
        if node <= self.last_header {
            node
        } else {
            self.node(node).item
        }
    }

    /// Checks every link against every other one (for tests and debugging):
    /// lists are circular and consistent, lengths match the lists.
    pub(crate) fn sanity_check(&self) -> Result<(), String> {
        for item in (NODE_BYTES..=self.last_header).step_by(NODE_BYTES as usize) {
            let mut count = 0;
            let mut p = self.down(item);
            let mut prev = item;
            while p != item {
                let node = self.node(p);
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
            if self.node(item).up != prev {
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
/// counter in locals it does not. And why no bounds checks: every link these
/// functions follow is either passed in as a header or option node, or read
/// from the links themselves, and every stored link was written by
/// [`Links::new`] as the offset of a node inside the array (or copied from
/// another stored link); the only computed links, `q ± NODE_BYTES` inside
/// an option, stop at the spacer that closes every option. Item entries are
/// reached only through headers, whose index is below `items.len()`. So
/// every access is in bounds and aligned. Debug builds (and the
/// `bounds-checks` feature) assert it. The two arrays are separate
/// allocations, so no node pointer aliases an item pointer.
#[derive(Clone, Copy)]
struct Arrays {
    /// The start of `nodes`, as bytes, so that a `NodeRef` is added as is.
    nodes: *mut u8,
    items: *mut ItemLink,
    /// The last primary item's header.
    last_primary: NodeRef,
    #[cfg(any(debug_assertions, feature = "bounds-checks"))]
    lens: (usize, usize),
}

impl Arrays {
    #[inline(always)]
    unsafe fn node(self, node: NodeRef) -> *mut Node {
        #[cfg(any(debug_assertions, feature = "bounds-checks"))]
        assert!(
            index(node) < self.lens.0 && node.is_multiple_of(NODE_BYTES),
            "node {node} out of bounds"
        );
        self.nodes.add(node as usize).cast()
    }

    #[inline(always)]
    unsafe fn item(self, item: NodeRef) -> *mut ItemLink {
        #[cfg(any(debug_assertions, feature = "bounds-checks"))]
        assert!(index(item) < self.lens.1, "item {item} out of bounds");
        self.items.add(index(item))
    }

    /// See [`Links::choose_fewest`]: the first active primary item with the
    /// fewest options. The scan stops early at an item with none, since
    /// nothing can beat it.
    #[inline(always)]
    unsafe fn choose_fewest(self) -> Option<NodeRef> {
        let mut k = (*self.item(ROOT)).next;
        if k == ROOT {
            return None;
        }
        let mut best = k;
        let mut best_len = (*self.node(k)).item;
        while best_len > 0 {
            k = (*self.item(k)).next;
            if k == ROOT {
                break;
            }
            let len = (*self.node(k)).item;
            if len < best_len {
                best = k;
                best_len = len;
            }
        }
        Some(best)
    }

    /// Knuth's `cover`: unlinks `item` from the active list, then hides
    /// every option in its list. Returns the updates made.
    #[inline(always)]
    unsafe fn cover<const XCC: bool>(self, item: NodeRef) -> u64 {
        let ItemLink { prev, next } = *self.item(item);
        (*self.item(prev)).next = next;
        (*self.item(next)).prev = prev;
        let mut updates = 1;
        let mut row = (*self.node(item)).down;
        while row != item {
            updates += self.hide_any::<XCC>(row);
            row = (*self.node(row)).down;
        }
        updates
    }

    /// Undoes [`Arrays::cover`]: the options come back bottom to top, so
    /// every link is restored in the reverse order it was changed.
    #[inline(always)]
    unsafe fn uncover<const XCC: bool>(self, item: NodeRef) {
        let mut row = (*self.node(item)).up;
        while row != item {
            self.unhide_any::<XCC>(row);
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
    unsafe fn hide(self, node: NodeRef) -> u64 {
        let mut q = node + NODE_BYTES;
        loop {
            let Node { item, up, down, .. } = *self.node(q);
            if item == 0 {
                break;
            }
            (*self.node(up)).down = down;
            (*self.node(down)).up = up;
            (*self.node(item)).item -= 1;
            q += NODE_BYTES;
        }
        let spacer = q;
        let first = (*self.node(spacer)).up;
        q = first;
        while q != node {
            let Node { item, up, down, .. } = *self.node(q);
            (*self.node(up)).down = down;
            (*self.node(down)).up = up;
            (*self.node(item)).item -= 1;
            q += NODE_BYTES;
        }
        u64::from((spacer - first) >> NODE_SHIFT) - 1
    }

    /// Undoes [`Arrays::hide`], walking the option right to left: from
    /// `node` left to the spacer before the option, then from the option's
    /// last node down to `node`.
    #[inline(always)]
    unsafe fn unhide(self, node: NodeRef) {
        let mut q = node - NODE_BYTES;
        loop {
            let Node { item, up, down, .. } = *self.node(q);
            if item == 0 {
                break;
            }
            (*self.node(up)).down = q;
            (*self.node(down)).up = q;
            (*self.node(item)).item += 1;
            q -= NODE_BYTES;
        }
        q = (*self.node(q)).down;
        while q != node {
            let Node { item, up, down, .. } = *self.node(q);
            (*self.node(up)).down = q;
            (*self.node(down)).up = q;
            (*self.node(item)).item += 1;
            q -= NODE_BYTES;
        }
    }

    /// [`Arrays::hide`], or with `XCC` [`Arrays::hide_coloured`].
    #[inline(always)]
    unsafe fn hide_any<const XCC: bool>(self, node: NodeRef) -> u64 {
        if XCC {
            self.hide_coloured(node)
        } else {
            self.hide(node)
        }
    }

    /// [`Arrays::unhide`], or with `XCC` [`Arrays::unhide_coloured`].
    #[inline(always)]
    unsafe fn unhide_any<const XCC: bool>(self, node: NodeRef) {
        if XCC {
            self.unhide_coloured(node)
        } else {
            self.unhide(node)
        }
    }

    /// DLX2's `hide`: as [`Arrays::hide`], but a node of a purified item
    /// (see [`PURIFIED`]) stays in its list. One run around the option,
    /// wrapping at its spacer, since the updates are no longer the
    /// option's length.
    #[inline(always)]
    unsafe fn hide_coloured(self, node: NodeRef) -> u64 {
        let mut updates = 0;
        let mut q = node + NODE_BYTES;
        while q != node {
            let Node {
                item,
                up,
                down,
                colour,
            } = *self.node(q);
            if item == 0 {
                q = up;
                continue;
            }
            if colour != PURIFIED {
                (*self.node(up)).down = down;
                (*self.node(down)).up = up;
                (*self.node(item)).item -= 1;
                updates += 1;
            }
            q += NODE_BYTES;
        }
        updates
    }

    /// Undoes [`Arrays::hide_coloured`], right to left.
    #[inline(always)]
    unsafe fn unhide_coloured(self, node: NodeRef) {
        let mut q = node - NODE_BYTES;
        while q != node {
            let Node {
                item,
                up,
                down,
                colour,
            } = *self.node(q);
            if item == 0 {
                q = down;
                continue;
            }
            if colour != PURIFIED {
                (*self.node(up)).down = q;
                (*self.node(down)).up = q;
                (*self.node(item)).item += 1;
            }
            q -= NODE_BYTES;
        }
    }

    /// Commits the item of option node `q`: covers a primary item; with
    /// `XCC`, a secondary item is covered when the option gives it no
    /// colour, purified when it gives it one, and left alone when an
    /// earlier choice purified it to this colour already. Returns the
    /// updates and cleansings made.
    #[inline(always)]
    unsafe fn commit_one<const XCC: bool>(self, q: NodeRef) -> (u64, u64) {
        let Node { item, colour, .. } = *self.node(q);
        if !XCC || item <= self.last_primary || colour == 0 {
            (self.cover::<XCC>(item), 0)
        } else if colour == PURIFIED {
            (0, 0)
        } else {
            self.purify(q)
        }
    }

    /// Undoes [`Arrays::commit_one`].
    #[inline(always)]
    unsafe fn uncommit_one<const XCC: bool>(self, q: NodeRef) {
        let Node { item, colour, .. } = *self.node(q);
        if !XCC || item <= self.last_primary || colour == 0 {
            self.uncover::<XCC>(item);
        } else if colour != PURIFIED {
            self.unpurify(q);
        }
    }

    /// DLX2's `purify`: node `p` gives its secondary item a colour, so every
    /// other option of the item with another colour (or none) is hidden, and
    /// every one with the same colour is marked [`PURIFIED`], as agreeing.
    /// Returns the updates and cleansings made.
    unsafe fn purify(self, p: NodeRef) -> (u64, u64) {
        let Node { item, colour, .. } = *self.node(p);
        let (mut updates, mut cleansings) = (0, 1);
        let mut row = (*self.node(item)).down;
        while row != item {
            let node = self.node(row);
            if (*node).colour != colour {
                updates += self.hide_coloured(row);
            } else if row != p {
                (*node).colour = PURIFIED;
                cleansings += 1;
            }
            row = (*node).down;
        }
        (updates, cleansings)
    }

    /// Undoes [`Arrays::purify`], bottom to top.
    unsafe fn unpurify(self, p: NodeRef) {
        let Node { item, colour, .. } = *self.node(p);
        let mut row = (*self.node(item)).up;
        while row != item {
            let node = self.node(row);
            if (*node).colour == PURIFIED {
                (*node).colour = colour;
            } else if row != p {
                self.unhide_coloured(row);
            }
            row = (*node).up;
        }
    }

    /// Commits the items of `node`'s option other than `node`'s, left to
    /// right (in two runs, as [`Arrays::hide`]). Returns the updates and
    /// cleansings made.
    #[inline(always)]
    unsafe fn commit<const XCC: bool>(self, node: NodeRef) -> (u64, u64) {
        let (mut updates, mut cleansings) = (0, 0);
        let mut q = node + NODE_BYTES;
        loop {
            if (*self.node(q)).item == 0 {
                break;
            }
            let (u, c) = self.commit_one::<XCC>(q);
            updates += u;
            cleansings += c;
            q += NODE_BYTES;
        }
        q = (*self.node(q)).up;
        while q != node {
            let (u, c) = self.commit_one::<XCC>(q);
            updates += u;
            cleansings += c;
            q += NODE_BYTES;
        }
        (updates, cleansings)
    }

    /// Undoes [`Arrays::commit`], right to left.
    #[inline(always)]
    unsafe fn uncommit<const XCC: bool>(self, node: NodeRef) {
        let mut q = node - NODE_BYTES;
        loop {
            if (*self.node(q)).item == 0 {
                break;
            }
            self.uncommit_one::<XCC>(q);
            q -= NODE_BYTES;
        }
        q = (*self.node(q)).down;
        while q != node {
            self.uncommit_one::<XCC>(q);
            q -= NODE_BYTES;
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

    /// Node `i` as (item, up, down), with links as indices, as in Knuth's
    /// table.
    fn row(links: &Links, i: usize) -> (usize, usize, usize) {
        let node = links.nodes[i];
        let item = if i <= 7 {
            node.item as usize
        } else {
            index(node.item)
        };
        (item, index(node.up), index(node.down))
    }

    #[test]
    fn layout_matches_knuth_table() {
        let links = Links::new(&small());
        // Headers: lengths of a..g are 2 2 2 3 2 2 3.
        let lens: Vec<u32> = (1..=7).map(|i| links.len(node_ref(i))).collect();
        assert_eq!(lens, [2, 2, 2, 3, 2, 2, 3]);
        // Nodes 8 (first spacer), 9..10 option "c e", 11 spacer, ...
        assert_eq!(row(&links, 8), (0, 0, 10));
        assert_eq!(row(&links, 9).0, 3);
        assert_eq!(row(&links, 10).0, 5);
        assert_eq!(row(&links, 11), (0, 9, 14));
        // Item a's list: nodes 12 (a d g) and 20 (a d f).
        assert_eq!(row(&links, 1), (2, 20, 12));
        assert_eq!(row(&links, 12), (1, 1, 20));
        assert_eq!(row(&links, 20), (1, 12, 1));
        assert_eq!(links.option_of(node_ref(20)), 3);
        let firsts: Vec<usize> = links.first_node.iter().map(|&f| index(f)).collect();
        assert_eq!(firsts, [9, 12, 16, 20, 24, 27]);
        links.sanity_check().unwrap();
    }

    #[test]
    fn cover_and_uncover_restore_every_link() {
        let mut links = Links::new(&small());
        let fresh = links.clone();
        links.cover::<false>(node_ref(1));
        links.commit::<false>(node_ref(12));
        assert!([1, 4, 7].iter().all(|&i| !links.is_active(node_ref(i))));
        links.sanity_check().unwrap();
        links.uncommit::<false>(node_ref(12));
        links.uncover::<false>(node_ref(1));
        links.updates = 0;
        assert_eq!(links, fresh);
    }
}
