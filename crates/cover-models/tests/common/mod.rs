//! What the variant integration tests share: the rules as the independent
//! checker takes them.

use cover_check::variant::VariantRules;
use cover_models::sudoku::variant::Rules;

/// The rules as the checker takes them, through the accessors only.
pub fn to_check(rules: &Rules) -> VariantRules {
    VariantRules {
        side: rules.side(),
        regions: rules.regions().to_vec(),
        cages: rules
            .cages()
            .iter()
            .map(|c| (c.cells.clone(), c.sum))
            .collect(),
        anti_knight: rules.anti_knight(),
        anti_king: rules.anti_king(),
        non_consecutive: rules.non_consecutive(),
        thermos: rules.thermos().to_vec(),
        holes: (0..rules.cells()).filter(|&c| !rules.is_cell(c)).collect(),
        digits: Some(rules.digits()),
    }
}
