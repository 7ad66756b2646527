//! What a technique finds: a [`Step`] as data (the pattern to highlight,
//! the placements or eliminations, the chains) and as text at three
//! [`HintLevel`]s; the [`Technique`]s and their [`Rating`]s.

use std::fmt;

use crate::sudoku::logic::Geometry;

/// A value on Sudoku Explainer's scale in tenths: `Rating(23)` is SE 2.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Rating(pub u16);

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

impl Rating {
    /// The rating as a number: 2.3.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }
}

/// One candidate: `digit` in `cell` (row-major).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Candidate {
    /// The cell, row-major.
    pub cell: u16,
    /// The digit, `1..=side`.
    pub digit: u8,
}

impl Candidate {
    /// `digit` in `cell`.
    pub fn new(cell: usize, digit: u8) -> Candidate {
        Candidate {
            cell: cell as u16,
            digit,
        }
    }
}

/// One link of a chain: a candidate taken as true (`on`) or false.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Node {
    /// The candidate.
    pub candidate: Candidate,
    /// Whether the chain takes it as true at this point.
    pub on: bool,
}

/// The techniques, simplest first in the order Sudoku Explainer tries them
/// (those SE lacks sit where their value puts them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
/// Each is documented by its [`Technique::name`]; SudokuWiki and HoDoKu
/// describe them all.
#[non_exhaustive]
#[allow(missing_docs)]
pub enum Technique {
    NonConsecutive,
    FullHouse,
    HiddenSingle,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriple,
    CageCombination,
    Thermometer,
    Pointing,
    Claiming,
    Innies,
    Outies,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriple,
    Swordfish,
    HiddenTriple,
    Skyscraper,
    TwoStringKite,
    TurbotFish,
    EmptyRectangle,
    FinnedXWing,
    SashimiXWing,
    XYWing,
    XYZWing,
    WWing,
    UniqueRectangle,
    UniqueLoop,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    FinnedSwordfish,
    SashimiSwordfish,
    FinnedJellyfish,
    SashimiJellyfish,
    ThreeStrongLinks,
    WXYZWing,
    Bug,
    FourStrongLinks,
    VWXYZWing,
    AlignedPairExclusion,
    SimpleColouring,
    MultiColouring,
    AlsXz,
    AlsXyWing,
    UVWXYZWing,
    XCycle,
    XChain,
    XYChain,
    Cycle,
    Aic,
    TUVWXYZWing,
    AlignedTripleExclusion,
    Nishio,
    CellForcingChain,
    RegionForcingChain,
    ContradictionForcingChain,
    DoubleForcingChain,
    DynamicCellForcingChain,
    DynamicRegionForcingChain,
    DynamicContradictionForcingChain,
    DynamicDoubleForcingChain,
    DynamicPlusForcingChain,
    NestedForcingChain,
}

impl Technique {
    /// The name people know it by: "X-Wing".
    pub fn name(self) -> &'static str {
        use Technique::*;
        match self {
            FullHouse => "Full House",
            HiddenSingle => "Hidden Single",
            DirectPointing => "Direct Pointing",
            DirectClaiming => "Direct Claiming",
            DirectHiddenPair => "Direct Hidden Pair",
            NakedSingle => "Naked Single",
            DirectHiddenTriple => "Direct Hidden Triple",
            CageCombination => "Cage Combination",
            Thermometer => "Thermometer",
            NonConsecutive => "Non-Consecutive",
            Innies => "Innies",
            Outies => "Outies",
            Pointing => "Pointing",
            Claiming => "Claiming",
            NakedPair => "Naked Pair",
            XWing => "X-Wing",
            HiddenPair => "Hidden Pair",
            NakedTriple => "Naked Triple",
            Swordfish => "Swordfish",
            HiddenTriple => "Hidden Triple",
            Skyscraper => "Skyscraper",
            TwoStringKite => "Two-String Kite",
            TurbotFish => "Turbot Fish",
            EmptyRectangle => "Empty Rectangle",
            FinnedXWing => "Finned X-Wing",
            SashimiXWing => "Sashimi X-Wing",
            XYWing => "XY-Wing",
            XYZWing => "XYZ-Wing",
            WWing => "W-Wing",
            UniqueRectangle => "Unique Rectangle",
            UniqueLoop => "Unique Loop",
            NakedQuad => "Naked Quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "Hidden Quad",
            FinnedSwordfish => "Finned Swordfish",
            SashimiSwordfish => "Sashimi Swordfish",
            FinnedJellyfish => "Finned Jellyfish",
            SashimiJellyfish => "Sashimi Jellyfish",
            ThreeStrongLinks => "3 Strong-Linked Fish",
            WXYZWing => "WXYZ-Wing",
            Bug => "BUG",
            FourStrongLinks => "4 Strong-Linked Fish",
            VWXYZWing => "VWXYZ-Wing",
            AlignedPairExclusion => "Aligned Pair Exclusion",
            SimpleColouring => "Simple Colouring",
            MultiColouring => "Multi-Colouring",
            AlsXz => "ALS-XZ",
            AlsXyWing => "ALS-XY-Wing",
            UVWXYZWing => "UVWXYZ-Wing",
            XCycle => "X-Cycle",
            XChain => "X-Chain",
            XYChain => "XY-Chain",
            Cycle => "Bidirectional Cycle",
            Aic => "Forcing Chain",
            TUVWXYZWing => "TUVWXYZ-Wing",
            AlignedTripleExclusion => "Aligned Triple Exclusion",
            Nishio => "Nishio Forcing Chain",
            CellForcingChain => "Cell Forcing Chains",
            RegionForcingChain => "Region Forcing Chains",
            ContradictionForcingChain => "Contradiction Forcing Chains",
            DoubleForcingChain => "Double Forcing Chains",
            DynamicCellForcingChain => "Dynamic Cell Forcing Chains",
            DynamicRegionForcingChain => "Dynamic Region Forcing Chains",
            DynamicContradictionForcingChain => "Dynamic Contradiction Forcing Chains",
            DynamicDoubleForcingChain => "Dynamic Double Forcing Chains",
            DynamicPlusForcingChain => "Dynamic Forcing Chains (+)",
            NestedForcingChain => "Nested Forcing Chains",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What to show a player for a step: the cells, units and digits of the
/// pattern, its key candidates and, for chains, the chains themselves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pattern {
    /// The cells of the pattern (not those it changes), row-major.
    pub cells: Vec<u16>,
    /// The units it lives in, numbered as in [`Geometry::units`].
    pub units: Vec<u16>,
    /// The digits it is about, as a mask (digit `d` in bit `d - 1`).
    pub digits: u64,
    /// Its key candidates (a fish's base, a wing's pivot and pincers).
    pub candidates: Vec<Candidate>,
    /// For chains: each chain from its start to its conclusion.
    pub chains: Vec<Vec<Node>>,
}

/// How much of a step a hint gives away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HintLevel {
    /// Where to look: "Look at the 7s in box 5".
    Nudge,
    /// The technique and its pattern, not what it proves.
    Technique,
    /// The whole step: pattern and placements or eliminations.
    Full,
}

/// One step of a logical solution: a technique's finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// Its value on Sudoku Explainer's scale (a chain's grows with length).
    pub rating: Rating,
    /// Digits it places.
    pub placements: Vec<Candidate>,
    /// Candidates it removes.
    pub eliminations: Vec<Candidate>,
    /// What to highlight.
    pub pattern: Pattern,
}

impl Step {
    /// A step of `technique` worth `rating` tenths, nothing found yet.
    pub fn new(technique: Technique, rating: u16) -> Step {
        Step {
            technique,
            rating: Rating(rating),
            placements: Vec::new(),
            eliminations: Vec::new(),
            pattern: Pattern::default(),
        }
    }

    /// The whole step in one English line, digits as numbers.
    pub fn describe(&self, geometry: &Geometry) -> String {
        self.text(HintLevel::Full, geometry, &|d| d.to_string())
    }

    /// The step as a hint at `level`, each digit written by `symbol`.
    pub fn text(
        &self,
        level: HintLevel,
        geometry: &Geometry,
        symbol: &dyn Fn(u8) -> String,
    ) -> String {
        let p = &self.pattern;
        let digits: Vec<String> = mask_digits(p.digits).map(symbol).collect();
        let units: Vec<String> = p
            .units
            .iter()
            .map(|&u| geometry.unit_name(usize::from(u)))
            .collect();
        let cells: Vec<String> = p
            .cells
            .iter()
            .map(|&c| geometry.cell_name(usize::from(c)))
            .collect();
        if level == HintLevel::Nudge {
            return match (digits.as_slice(), units.first(), cells.first()) {
                ([d], Some(u), _) => format!("Look at the {d}s in {u}."),
                ([d], None, Some(_)) => format!("Look at the {d}s in {}.", join(&cells)),
                (_, Some(u), _) if cells.len() <= 1 => format!("Look at {u}."),
                (_, _, Some(_)) => format!("Look at {}.", join(&cells)),
                _ => "Look for the simplest step.".to_string(),
            };
        }
        let mut out = self.technique.name().to_string();
        if !digits.is_empty() {
            out += &format!(" on {}", join(&digits));
        }
        if !units.is_empty() {
            out += &format!(" in {}", join(&units));
        }
        if !cells.is_empty() {
            out += &format!(" ({})", join(&cells));
        }
        if level == HintLevel::Technique {
            return out + ".";
        }
        for chain in &p.chains {
            let links: Vec<String> = chain
                .iter()
                .map(|n| {
                    let sign = if n.on { "=" } else { "≠" };
                    format!(
                        "{}{sign}{}",
                        geometry.cell_name(usize::from(n.candidate.cell)),
                        symbol(n.candidate.digit)
                    )
                })
                .collect();
            out += &format!("; {}", links.join(" → "));
        }
        let name = |c: &Candidate| geometry.cell_name(usize::from(c.cell));
        let mut results: Vec<String> = self
            .placements
            .iter()
            .map(|c| format!("{} = {}", name(c), symbol(c.digit)))
            .collect();
        results.extend(
            self.eliminations
                .iter()
                .map(|c| format!("{} ≠ {}", name(c), symbol(c.digit))),
        );
        format!("{out}: {}", results.join(", "))
    }
}

/// The digits of a mask, lowest first.
pub(super) fn mask_digits(mask: u64) -> impl Iterator<Item = u8> {
    (0..64u8).filter(move |b| mask >> b & 1 == 1).map(|b| b + 1)
}

fn join(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
