//! The exact-cover brute force used as an oracle: decides each option in
//! or out, in input order, and keeps the sets that are solutions by the
//! rules of Knuth's DLX1-3 (every primary item within its bounds, every
//! secondary item named once or by options that all give it one colour;
//! options without a primary item are never chosen). It prunes only what
//! cannot end in a solution, so it is slow but plainly right: small
//! problems only.
//!
//! It must not know the engine: the problem comes as plain data.

/// An item: primary (covered within `bounds`) or secondary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// Whether the item is primary.
    pub primary: bool,
    /// (min, max) coverings of a primary item; secondary: (0, 1).
    pub bounds: (u32, u32),
}

/// A problem as plain data: its items, and each option's (item, colour).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The items, indexed by the options' entries.
    pub items: Vec<Item>,
    /// Each option: (item index, colour of a secondary item).
    pub options: Vec<Vec<(usize, Option<u32>)>>,
}

/// Every solution (options chosen, ascending indices), up to `limit`; for
/// small problems only.
pub fn solutions(problem: &Problem, limit: usize) -> Vec<Vec<usize>> {
    let mut search = Search::new(problem, limit);
    search.decide(0);
    search.found
}

/// The number of solutions; for small problems only.
pub fn count(problem: &Problem) -> u64 {
    let mut search = Search::new(problem, usize::MAX);
    search.keep = false;
    search.decide(0);
    search.count
}

/// The state of the brute force: options decided so far and their effect.
struct Search<'a> {
    problem: &'a Problem,
    /// The options that may be chosen: those with a valid primary item.
    options: Vec<usize>,
    /// `later[k][i]`: how many of `options[k..]` name item `i`.
    later: Vec<Vec<u32>>,
    /// How many chosen options name each item.
    uses: Vec<u32>,
    /// The colour the first chosen option gives each secondary item.
    colour: Vec<Option<u32>>,
    chosen: Vec<usize>,
    keep: bool,
    limit: usize,
    found: Vec<Vec<usize>>,
    count: u64,
}

impl<'a> Search<'a> {
    fn new(problem: &'a Problem, limit: usize) -> Search<'a> {
        let n = problem.items.len();
        let known = |&(i, _): &(usize, Option<u32>)| i < n;
        let options: Vec<usize> = (0..problem.options.len())
            .filter(|&o| {
                let entries = &problem.options[o];
                entries.iter().all(known) && entries.iter().any(|&(i, _)| problem.items[i].primary)
            })
            .collect();
        let mut later = vec![vec![0; n]; options.len() + 1];
        for k in (0..options.len()).rev() {
            later[k] = later[k + 1].clone();
            for &(item, _) in &problem.options[options[k]] {
                later[k][item] += 1;
            }
        }
        Search {
            problem,
            options,
            later,
            uses: vec![0; n],
            colour: vec![None; n],
            chosen: Vec::new(),
            keep: true,
            limit,
            found: Vec::new(),
            count: 0,
        }
    }

    fn done(&self) -> bool {
        self.keep && self.found.len() >= self.limit
    }

    /// Finds the solutions that extend the choices made for `options[..k]`.
    fn decide(&mut self, k: usize) {
        if self.done() {
            return;
        }
        let problem = self.problem;
        let Some(&option) = self.options.get(k) else {
            let reached = problem
                .items
                .iter()
                .enumerate()
                .all(|(i, item)| !item.primary || self.uses[i] >= item.bounds.0);
            if reached {
                self.count += 1;
                if self.keep {
                    self.found.push(self.chosen.clone());
                }
            }
            return;
        };
        let entries = &problem.options[option];
        // Leave the option out, unless one of its primary items could then
        // never reach its lower bound.
        let can_skip = entries.iter().all(|&(i, _)| {
            let item = problem.items[i];
            !item.primary || self.uses[i] + self.later[k + 1][i] >= item.bounds.0
        });
        if can_skip {
            self.decide(k + 1);
        }
        if self.fits(option) {
            for &(i, colour) in entries {
                if self.uses[i] == 0 {
                    self.colour[i] = colour;
                }
                self.uses[i] += 1;
            }
            self.chosen.push(option);
            self.decide(k + 1);
            self.chosen.pop();
            for &(i, _) in entries {
                self.uses[i] -= 1;
            }
        }
    }

    /// Whether `option` can join the chosen options: no primary item past
    /// its upper bound, no secondary item named twice unless both give it
    /// the same colour.
    fn fits(&self, option: usize) -> bool {
        self.problem.options[option].iter().all(|&(i, colour)| {
            let item = self.problem.items[i];
            if item.primary {
                self.uses[i] < item.bounds.1
            } else {
                self.uses[i] == 0 || (colour.is_some() && self.colour[i] == colour)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(primary: usize, options: &[&[usize]]) -> Problem {
        Problem {
            items: vec![
                Item {
                    primary: true,
                    bounds: (1, 1)
                };
                primary
            ],
            options: options
                .iter()
                .map(|o| o.iter().map(|&i| (i, None)).collect())
                .collect(),
        }
    }

    #[test]
    fn knuths_example_has_one_solution() {
        // Knuth's 6×7 matrix, columns a..g as 0..6: rows 1, 4, 5 solve it.
        let problem = plain(
            7,
            &[
                &[2, 4, 5],
                &[0, 3, 6],
                &[1, 2, 5],
                &[0, 3],
                &[1, 6],
                &[3, 4, 6],
            ],
        );
        assert_eq!(count(&problem), 1);
        assert_eq!(solutions(&problem, 10), [vec![0, 3, 4]]);
    }

    #[test]
    fn colours_and_bounds() {
        let secondary = Item {
            primary: false,
            bounds: (0, 1),
        };
        let problem = Problem {
            items: vec![
                Item {
                    primary: true,
                    bounds: (1, 2),
                },
                secondary,
            ],
            options: vec![
                vec![(0, None), (1, Some(0))],
                vec![(0, None), (1, Some(0))],
                vec![(0, None), (1, Some(1))],
            ],
        };
        // {0}, {1}, {2}, {0, 1}: 0 and 2 or 1 and 2 clash in colour.
        assert_eq!(count(&problem), 4);
        assert_eq!(solutions(&problem, 2).len(), 2, "the limit");
    }
}
