//! Shrinking a failing case while it still fails the same way: delta debugging over inputs, flags,
//! then lines and bytes of each input, bounded in time.

use std::time::{Duration, Instant};

use super::commands::Case;
use super::mutate::split_lines;

/// The smallest case found within `budget` for which `fails` holds, and the number of runs it took.
/// `fails(case)` is assumed true.
pub fn minimise(
    case: &Case,
    budget: Duration,
    mut fails: impl FnMut(&Case) -> bool,
) -> (Case, usize) {
    let deadline = Instant::now() + budget;
    let mut runs = 0;
    let mut test = |candidate: &Case| {
        runs += 1;
        fails(candidate)
    };
    let mut best = case.clone();

    // Whole inputs (of several) first: each one gone saves the most.
    let mut i = 0;
    while best.inputs.len() > 1 && i < best.inputs.len() && Instant::now() < deadline {
        let candidate = without_input(&best, i);
        if test(&candidate) {
            best = candidate;
        } else {
            i += 1;
        }
    }

    // Flags: the fewer, the clearer what the failure needs.
    let mut i = 0;
    while i < best.flags.len() && Instant::now() < deadline {
        let mut candidate = best.clone();
        candidate.flags.remove(i);
        if test(&candidate) {
            best = candidate;
        } else {
            i += 1;
        }
    }

    // Lines, then bytes, of each input.
    for i in 0..best.inputs.len() {
        let lines = split_lines(&best.inputs[i]);
        let kept = reduce(lines, deadline, |lines| {
            let mut candidate = best.clone();
            candidate.inputs[i] = lines.concat();
            test(&candidate)
        });
        best.inputs[i] = kept.concat();
        let bytes = best.inputs[i].clone();
        let kept = reduce(bytes, deadline, |bytes| {
            let mut candidate = best.clone();
            candidate.inputs[i] = bytes.to_vec();
            test(&candidate)
        });
        best.inputs[i] = kept;
    }
    (best, runs)
}

/// `case` without its input `i`, standard input following the inputs.
fn without_input(case: &Case, i: usize) -> Case {
    let mut candidate = case.clone();
    candidate.inputs.remove(i);
    candidate.stdin_slot = match case.stdin_slot {
        Some(s) if s == i => None,
        Some(s) if s > i => Some(s - 1),
        other => other,
    };
    candidate
}

/// Removes chunks of `items` while `keeps_failing` holds: chunks of half the items, then of a
/// quarter, ... down to single items, until a pass of single items removes nothing or the deadline
/// comes.
pub fn reduce<T: Clone>(
    mut items: Vec<T>,
    deadline: Instant,
    mut keeps_failing: impl FnMut(&[T]) -> bool,
) -> Vec<T> {
    let mut chunk = (items.len() / 2).max(1);
    while !items.is_empty() {
        let mut removed = false;
        let mut start = 0;
        while start < items.len() {
            if Instant::now() >= deadline {
                return items;
            }
            let end = (start + chunk).min(items.len());
            let candidate = [&items[..start], &items[end..]].concat();
            if keeps_failing(&candidate) {
                items = candidate;
                removed = true;
            } else {
                start = end;
            }
        }
        if !removed {
            if chunk == 1 {
                break;
            }
            chunk = (chunk / 2).max(1);
        } else {
            // Items went: the next pass may take chunks of the same size again, but never more than
            // half of what is left.
            chunk = chunk.min(items.len() / 2).max(1);
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_keeps_only_what_the_failure_needs() {
        let deadline = Instant::now() + Duration::from_secs(10);
        let input: Vec<u8> = b"lots of text around the BUG and more after it".to_vec();
        let kept = reduce(input, deadline, |b| b.windows(3).any(|w| w == b"BUG"));
        assert_eq!(kept, b"BUG");
        // Two bytes far apart both survive.
        let input: Vec<u8> = (0..200u8).collect();
        let kept = reduce(input, deadline, |b| b.contains(&7) && b.contains(&190));
        assert_eq!(kept, [7, 190]);
    }

    #[test]
    fn minimise_drops_inputs_flags_and_lines() {
        let case = Case {
            command: "exact",
            flags: vec![vec!["--count".into()], vec!["--jobs".into(), "1".into()]],
            inputs: vec![b"a\nb\n".to_vec(), b"1\n2\nboom\n3\n".to_vec()],
            stdin_slot: Some(1),
            valid: None,
        };
        let fails = |c: &Case| c.has_flag("--count") && c.stdin().windows(4).any(|w| w == b"boom");
        let (small, runs) = minimise(&case, Duration::from_secs(10), fails);
        assert!(runs > 0);
        assert_eq!(small.inputs, vec![b"boom".to_vec()]);
        assert_eq!(small.stdin_slot, Some(0));
        assert_eq!(small.flags, vec![vec!["--count".to_owned()]]);
    }
}
