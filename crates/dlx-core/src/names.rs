//! Item names, stored compactly: all names in one string, each item's end
//! in a `u32`, and a hash table of item numbers for finding an item by its
//! name.
//!
//! A `String` and a hash-map entry per name cost about 100 bytes a name
//! beyond its text; a problem of a million items (a 4 MiB item line in
//! Knuth's format) then took 142 MB. Here a name costs its text and about
//! 10 bytes.

use std::hash::BuildHasher;

use hashbrown::hash_table::{Entry, HashTable};
use std::collections::hash_map::RandomState;

/// The names of a problem's items, in item order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// Every name, one after another.
    text: String,
    /// Item `i`'s name is `text[ends[i - 1]..ends[i]]` (from 0 for item 0).
    ends: Vec<u32>,
}

impl Names {
    /// The number of names.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The name of item `item`.
    pub fn get(&self, item: usize) -> Option<&str> {
        let end = *self.ends.get(item)? as usize;
        let start = match item {
            0 => 0,
            _ => self.ends[item - 1] as usize,
        };
        Some(&self.text[start..end])
    }
}

/// Why a name could not be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The name is taken, by this item.
    Taken(u32),
    /// The names together would pass 4 GiB, more than a `u32` addresses.
    Full,
}

/// Names being collected, and found by name.
#[derive(Debug, Clone, Default)]
pub struct NameTable {
    names: Names,
    /// Item numbers, hashed by their names.
    by_name: HashTable<u32>,
    hasher: RandomState,
}

impl NameTable {
    /// The number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Gives `name` the next item number.
    pub fn add(&mut self, name: &str) -> Result<u32, Refused> {
        let item = self.names.len() as u32;
        let end = u32::try_from(self.names.text.len() + name.len()).map_err(|_| Refused::Full)?;
        let hash = self.hasher.hash_one(name);
        let Names { text, ends } = &self.names;
        let entry = self.by_name.entry(
            hash,
            |&other| name_of(text, ends, other) == name,
            |&other| self.hasher.hash_one(name_of(text, ends, other)),
        );
        match entry {
            Entry::Occupied(taken) => Err(Refused::Taken(*taken.get())),
            Entry::Vacant(free) => {
                free.insert(item);
                self.names.text.push_str(name);
                self.names.ends.push(end);
                Ok(item)
            }
        }
    }

    /// The item called `name`.
    pub fn find(&self, name: &str) -> Option<u32> {
        let Names { text, ends } = &self.names;
        self.by_name
            .find(self.hasher.hash_one(name), |&item| {
                name_of(text, ends, item) == name
            })
            .copied()
    }

    /// The name of `item`.
    pub fn get(&self, item: usize) -> Option<&str> {
        self.names.get(item)
    }

    /// The names, without the table for finding them.
    pub fn into_names(self) -> Names {
        self.names
    }
}

/// The name of `item` in `text` cut at `ends`.
fn name_of<'t>(text: &'t str, ends: &[u32], item: u32) -> &'t str {
    let item = item as usize;
    let start = match item {
        0 => 0,
        _ => ends[item - 1] as usize,
    };
    &text[start..ends[item] as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_numbered_found_and_unique() {
        let mut table = NameTable::default();
        assert_eq!(table.add("a"), Ok(0));
        assert_eq!(table.add("bc"), Ok(1));
        assert_eq!(table.add(""), Ok(2));
        assert_eq!(table.add("bc"), Err(Refused::Taken(1)));
        assert_eq!(table.add("abc"), Ok(3));
        assert_eq!(table.find("bc"), Some(1));
        assert_eq!(table.find("abc"), Some(3));
        assert_eq!(table.find("b"), None);
        assert_eq!(table.len(), 4);
        let names = table.into_names();
        let all: Vec<_> = (0..5).map(|i| names.get(i)).collect();
        assert_eq!(all, [Some("a"), Some("bc"), Some(""), Some("abc"), None]);
    }

    #[test]
    fn many_names_survive_the_table_growing() {
        let mut table = NameTable::default();
        for k in 0..10_000u32 {
            assert_eq!(table.add(&format!("n{k}")), Ok(k));
        }
        for k in (0..10_000u32).step_by(7) {
            assert_eq!(table.find(&format!("n{k}")), Some(k));
        }
    }
}
