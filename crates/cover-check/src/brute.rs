//! The exact-cover oracle: every solution of a small problem, by plain
//! enumeration of sets of options.
//!
//! A problem is plain data (no type of the engine's): items, primary or
//! secondary, and options, lists of `(item, colour)`. A set of options is
//! a solution when every primary item is covered between its bounds
//! `(lower, upper)` (exact cover: `(1, 1)`) and every secondary item is
//! used by at most one option, or by several that all give it the same
//! colour (an option naming it without a colour shares it with none).
//! Colours on primary items and bounds on secondary ones mean nothing.
//! Solutions are sets: each option at most once, listed in ascending order.
//!
//! An option that names an item out of range is in no solution. An option
//! without a primary item may be in a solution like any other (Knuth's
//! format refuses such options; callers that build problems for an engine
//! leave them out).
//!
//! It must not know any engine: it decides each option in turn, in then
//! out, and cuts a branch only where no completion can be a solution (an
//! item past its upper bound or used against its colours, or a primary
//! item that the options left cannot bring up to its lower bound).
#![forbid(unsafe_code)]

/// One item: primary (covered within `bounds`) or secondary (at most once,
/// or shared by options of one colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Whether the item must be covered (within `bounds`).
    pub primary: bool,
    /// `(lower, upper)`: how many chosen options may cover a primary item.
    /// Secondary items: `(0, 1)`, by convention; not read.
    pub bounds: (u32, u32),
}

impl Item {
    /// A primary item covered exactly once.
    pub const PRIMARY: Item = Item {
        primary: true,
        bounds: (1, 1),
    };
    /// A secondary item.
    pub const SECONDARY: Item = Item {
        primary: false,
        bounds: (0, 1),
    };
}

/// A problem as plain data.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Problem {
    /// The items, numbered by position.
    pub items: Vec<Item>,
    /// The options, numbered by position: each a list of `(item, colour)`,
    /// the colour `None` for none.
    pub options: Vec<Vec<(usize, Option<u32>)>>,
}

/// Every solution (options chosen, ascending indices), up to `limit`; for
/// small problems only. They come in the walk's order: each option is
/// tried in before out.
pub fn solutions(problem: &Problem, limit: usize) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    if limit > 0 {
        Walk::new(problem).run(&mut |chosen: &[usize]| {
            found.push(chosen.to_vec());
            found.len() < limit
        });
    }
    found
}

/// The number of solutions.
pub fn count(problem: &Problem) -> u64 {
    let mut count = 0u64;
    Walk::new(problem).run(&mut |_: &[usize]| {
        count += 1;
        true
    });
    count
}

/// Whether `chosen` is a solution of `problem`, checked from the
/// definition alone: `Err` says why not.
pub fn check(problem: &Problem, chosen: &[usize]) -> Result<(), String> {
    let mut seen = vec![false; problem.options.len()];
    let mut uses: Vec<Vec<Option<u32>>> = vec![Vec::new(); problem.items.len()];
    for &option in chosen {
        let items = problem
            .options
            .get(option)
            .ok_or_else(|| format!("option {option} does not exist"))?;
        if std::mem::replace(&mut seen[option], true) {
            return Err(format!("option {option} chosen twice"));
        }
        for &(item, colour) in items {
            uses.get_mut(item)
                .ok_or_else(|| format!("option {option} names item {item}, which does not exist"))?
                .push(colour);
        }
    }
    for (number, (item, uses)) in problem.items.iter().zip(&uses).enumerate() {
        if item.primary {
            let (lower, upper) = item.bounds;
            let times = uses.len();
            if times < lower as usize || times > upper as usize {
                return Err(format!(
                    "primary item {number} covered {times} times, not within {lower}..={upper}"
                ));
            }
        } else if let [first, rest @ ..] = uses.as_slice() {
            if !rest.is_empty() && (first.is_none() || rest.iter().any(|c| c != first)) {
                return Err(format!(
                    "secondary item {number} used {} times with colours {uses:?}",
                    uses.len()
                ));
            }
        }
    }
    Ok(())
}

/// The enumeration: option `next` is decided in, then out, after all
/// before it.
struct Walk<'p> {
    problem: &'p Problem,
    /// Options that name an item out of range (never chosen).
    broken: Vec<bool>,
    /// Per item: how many options not decided yet name it. A primary item
    /// whose uses and these together fall short of its lower bound makes
    /// the branch a dead end.
    left: Vec<u32>,
    /// Per item: the colours the chosen options give it, in order.
    uses: Vec<Vec<Option<u32>>>,
    chosen: Vec<usize>,
}

impl<'p> Walk<'p> {
    fn new(problem: &'p Problem) -> Walk<'p> {
        let items = problem.items.len();
        let broken: Vec<bool> = problem
            .options
            .iter()
            .map(|option| option.iter().any(|&(item, _)| item >= items))
            .collect();
        let mut left = vec![0u32; items];
        for (option, _) in problem.options.iter().zip(&broken).filter(|(_, &b)| !b) {
            for &(item, _) in option {
                left[item] += 1;
            }
        }
        Walk {
            problem,
            broken,
            left,
            uses: vec![Vec::new(); items],
            chosen: Vec::new(),
        }
    }

    /// Hands every solution to `found` until it returns `false`.
    fn run(&mut self, found: &mut dyn FnMut(&[usize]) -> bool) {
        let all = 0..self.problem.items.len();
        if all.into_iter().all(|item| self.reachable(item)) {
            self.go(0, found);
        }
    }

    /// Decides the options `next..`; `false` when `found` said stop. Every
    /// primary item is [`Walk::reachable`] on entry; the chosen options
    /// are within every item's limits.
    fn go(&mut self, next: usize, found: &mut dyn FnMut(&[usize]) -> bool) -> bool {
        if next == self.problem.options.len() {
            return found(&self.chosen);
        }
        if self.broken[next] {
            return self.go(next + 1, found);
        }
        let option = &self.problem.options[next];
        for &(item, _) in option {
            self.left[item] -= 1;
        }
        self.take(next);
        let mut go_on = !self.within_limits(next) || self.go(next + 1, found);
        self.untake(next);
        // Out: only the items of this option can have become unreachable.
        if go_on && option.iter().all(|&(item, _)| self.reachable(item)) {
            go_on = self.go(next + 1, found);
        }
        for &(item, _) in option {
            self.left[item] += 1;
        }
        go_on
    }

    /// Whether `item`, if primary, can still reach its lower bound with
    /// the options not decided yet.
    fn reachable(&self, item: usize) -> bool {
        let Item { primary, bounds } = self.problem.items[item];
        !primary || self.uses[item].len() as u64 + u64::from(self.left[item]) >= u64::from(bounds.0)
    }

    /// Whether the items of option `o`, just taken, are still within their
    /// limits: no primary item past its upper bound, no secondary item
    /// used twice but by options that all give it one colour.
    fn within_limits(&self, o: usize) -> bool {
        self.problem.options[o].iter().all(|&(item, _)| {
            let uses = &self.uses[item];
            if self.problem.items[item].primary {
                uses.len() as u64 <= u64::from(self.problem.items[item].bounds.1)
            } else {
                match uses.as_slice() {
                    [] | [_] => true,
                    [first, rest @ ..] => first.is_some() && rest.iter().all(|c| c == first),
                }
            }
        })
    }

    fn take(&mut self, o: usize) {
        for &(item, colour) in &self.problem.options[o] {
            self.uses[item].push(colour);
        }
        self.chosen.push(o);
    }

    fn untake(&mut self, o: usize) {
        for &(item, _) in &self.problem.options[o] {
            self.uses[item].pop();
        }
        self.chosen.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `primary` exact items, then `secondary` ones; options of plain items.
    fn exact(primary: usize, secondary: usize, options: &[&[usize]]) -> Problem {
        let mut items = vec![Item::PRIMARY; primary];
        items.extend(vec![Item::SECONDARY; secondary]);
        Problem {
            items,
            options: options
                .iter()
                .map(|o| o.iter().map(|&i| (i, None)).collect())
                .collect(),
        }
    }

    #[test]
    fn knuths_exact_cover_example() {
        // TAOCP 7.2.2.1 (6): items a..g; options 'c e', 'a d g', 'b c f',
        // 'a d f', 'b g', 'd e g'. One solution: 'a d f', 'b g', 'c e'.
        let (a, b, c, d, e, f, g) = (0, 1, 2, 3, 4, 5, 6);
        let p = exact(
            7,
            0,
            &[
                &[c, e],
                &[a, d, g],
                &[b, c, f],
                &[a, d, f],
                &[b, g],
                &[d, e, g],
            ],
        );
        assert_eq!(solutions(&p, usize::MAX), vec![vec![0, 3, 4]]);
        assert_eq!(count(&p), 1);
        assert_eq!(check(&p, &[0, 3, 4]), Ok(()));
        assert!(check(&p, &[0, 3]).is_err());
    }

    #[test]
    fn perfect_matchings_of_k6_and_the_limit() {
        // Pairs of 6 items: 5 * 3 * 1 = 15 perfect matchings.
        let pairs: Vec<Vec<usize>> = (0..6)
            .flat_map(|a| (a + 1..6).map(move |b| vec![a, b]))
            .collect();
        let refs: Vec<&[usize]> = pairs.iter().map(|p| p.as_slice()).collect();
        let p = exact(6, 0, &refs);
        assert_eq!(count(&p), 15);
        let all = solutions(&p, usize::MAX);
        assert_eq!(all.len(), 15);
        let mut distinct = all.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 15);
        assert!(all.iter().all(|s| check(&p, s).is_ok()));
        assert_eq!(solutions(&p, 4), all[..4].to_vec());
        assert!(solutions(&p, 0).is_empty());
    }

    #[test]
    fn secondary_items_at_most_once() {
        // Item 0 primary, item 1 secondary: {0 1} and {0} each alone; the
        // two together cover item 0 twice.
        let p = exact(1, 1, &[&[0, 1], &[0]]);
        assert_eq!(solutions(&p, 10), vec![vec![0], vec![1]]);
        // Two primaries sharing the secondary: only the options that
        // avoid it together.
        let p = exact(2, 1, &[&[0, 2], &[1, 2], &[0], &[1]]);
        assert_eq!(solutions(&p, 10), vec![vec![0, 3], vec![1, 2], vec![2, 3]]);
    }

    #[test]
    fn no_primary_items_and_empty_problems() {
        assert_eq!(solutions(&Problem::default(), 5), vec![Vec::<usize>::new()]);
        assert_eq!(count(&exact(0, 2, &[])), 1);
        // An item no option covers.
        assert_eq!(count(&exact(2, 0, &[&[0]])), 0);
        // An option naming an item out of range is never chosen.
        assert_eq!(count(&exact(1, 0, &[&[0, 5], &[0]])), 1);
        assert!(check(&exact(1, 0, &[&[0, 5]]), &[0]).is_err());
        assert!(check(&exact(1, 0, &[&[0]]), &[1]).is_err());
        assert!(check(&exact(1, 0, &[&[0]]), &[0, 0]).is_err());
    }

    #[test]
    fn knuths_small_colour_example() {
        // Items p q r primary, x y secondary (dlx-core's xcc test, after
        // DLX2's documentation): options 'p q x:A y:A', 'p r x:B y:A',
        // 'p x:A', 'q x:B', 'r y:A', 'q r y:B'. Three solutions.
        let (p, q, r, x, y) = (0, 1, 2, 3, 4);
        let (a, b) = (Some(1), Some(2));
        let problem = Problem {
            items: vec![
                Item::PRIMARY,
                Item::PRIMARY,
                Item::PRIMARY,
                Item::SECONDARY,
                Item::SECONDARY,
            ],
            options: vec![
                vec![(p, None), (q, None), (x, a), (y, a)],
                vec![(p, None), (r, None), (x, b), (y, a)],
                vec![(p, None), (x, a)],
                vec![(q, None), (x, b)],
                vec![(r, None), (y, a)],
                vec![(q, None), (r, None), (y, b)],
            ],
        };
        assert_eq!(
            solutions(&problem, usize::MAX),
            vec![vec![0, 4], vec![1, 3], vec![2, 5]]
        );
        assert_eq!(count(&problem), 3);
        // 'p x:A', 'q x:B', 'r y:A': x gets two colours.
        assert!(check(&problem, &[2, 3, 4]).is_err());
    }

    #[test]
    fn an_uncoloured_use_shares_with_nobody() {
        let coloured = |colours: [Option<u32>; 2]| Problem {
            items: vec![Item::PRIMARY, Item::PRIMARY, Item::SECONDARY],
            options: vec![
                vec![(0, None), (2, colours[0])],
                vec![(1, None), (2, colours[1])],
            ],
        };
        assert_eq!(count(&coloured([Some(7), Some(7)])), 1);
        assert_eq!(count(&coloured([Some(7), Some(8)])), 0);
        assert_eq!(count(&coloured([None, Some(7)])), 0);
        assert_eq!(count(&coloured([Some(7), None])), 0);
        assert_eq!(count(&coloured([None, None])), 0);
    }

    #[test]
    fn bounds_on_primary_items() {
        // dlx-core's doc example: `pair` exactly twice, `spare` at most
        // once; options 'pair', 'pair spare', 'pair': any two of three.
        let problem = Problem {
            items: vec![
                Item {
                    primary: true,
                    bounds: (2, 2),
                },
                Item {
                    primary: true,
                    bounds: (0, 1),
                },
            ],
            options: vec![vec![(0, None)], vec![(0, None), (1, None)], vec![(0, None)]],
        };
        assert_eq!(
            solutions(&problem, usize::MAX),
            vec![vec![0, 1], vec![0, 2], vec![1, 2]]
        );
        // 1..=3 covers of one item by four single options: every
        // non-empty set of at most three, 4 + 6 + 4 = 14.
        let problem = Problem {
            items: vec![Item {
                primary: true,
                bounds: (1, 3),
            }],
            options: vec![vec![(0, None)]; 4],
        };
        assert_eq!(count(&problem), 14);
        assert!(check(&problem, &[0, 1, 2, 3]).is_err());
        assert!(check(&problem, &[]).is_err());
        // Empty bounds: nothing.
        let problem = Problem {
            items: vec![Item {
                primary: true,
                bounds: (2, 1),
            }],
            options: vec![vec![(0, None)]; 3],
        };
        assert_eq!(count(&problem), 0);
    }

    #[test]
    fn an_item_twice_in_one_option_counts_twice() {
        let problem = Problem {
            items: vec![
                Item {
                    primary: true,
                    bounds: (2, 2),
                },
                Item::SECONDARY,
            ],
            options: vec![
                vec![(0, None), (0, None)],
                vec![(0, None), (1, None), (1, None)],
            ],
        };
        assert_eq!(solutions(&problem, 10), vec![vec![0]]);
    }

    /// The pruned walk finds what trying every subset with `check` finds.
    #[test]
    fn the_walk_agrees_with_every_subset_checked() {
        // A fixed little family of problems mixing bounds and colours.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for _ in 0..300 {
            let primary = 1 + next(3) as usize;
            let secondary = next(3) as usize;
            let mut items: Vec<Item> = (0..primary)
                .map(|_| {
                    let lower = next(3) as u32;
                    Item {
                        primary: true,
                        bounds: (lower, lower + next(2) as u32),
                    }
                })
                .collect();
            items.extend(vec![Item::SECONDARY; secondary]);
            let options: Vec<Vec<(usize, Option<u32>)>> = (0..next(9))
                .map(|_| {
                    (0..1 + next(3))
                        .map(|_| {
                            let item = next(items.len() as u64) as usize;
                            let colour = (item >= primary && next(2) == 0).then(|| next(2) as u32);
                            (item, colour)
                        })
                        .collect()
                })
                .collect();
            let problem = Problem { items, options };
            let n = problem.options.len();
            let every: Vec<Vec<usize>> = (0u32..1 << n)
                .map(|set| (0..n).filter(|&o| set >> o & 1 == 1).collect::<Vec<_>>())
                .filter(|chosen| check(&problem, chosen).is_ok())
                .collect();
            let mut walked = solutions(&problem, usize::MAX);
            walked.sort();
            let mut every = every;
            every.sort();
            assert_eq!(walked, every, "{problem:?}");
            assert_eq!(count(&problem), every.len() as u64);
        }
    }
}
