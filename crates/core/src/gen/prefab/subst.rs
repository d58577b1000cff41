//! Substitutions, as Crawl's `SUBST` and `NSUBST` lines: a glyph of the map becomes one of
//! several glyphs (drawn once for the whole placement or for each cell), or exactly `n` of its
//! cells become one glyph and the rest another. They run in the order written, on every
//! placement, before the template is drawn; what they produce is not substituted again.

use super::Glyphs;
use crate::rng::Rng;

/// When a one-of substitution draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Per {
    /// Every cell of the glyph draws its own choice.
    #[default]
    Cell,
    /// One choice for every cell of the glyph, per placement.
    Placement,
}

impl Per {
    /// The names region files spell.
    pub const NAMES: [&'static str; 2] = ["cell", "placement"];

    /// Parses a name of [`Per::NAMES`].
    pub fn from_name(name: &str) -> Option<Per> {
        match name {
            "cell" => Some(Per::Cell),
            "placement" => Some(Per::Placement),
            _ => None,
        }
    }
}

/// What a substitution does with the cells of its glyph.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SubstKind {
    /// Each becomes one of `choices` (equally likely; a glyph listed twice is twice as
    /// likely).
    OneOf {
        /// The glyphs to choose from (at least one).
        choices: Vec<char>,
        /// Whether each cell draws, or the placement once.
        per: Per,
    },
    /// Exactly `count` of them become `becomes`; the others become `rest`, or keep the glyph.
    NOf {
        /// How many (at most the glyph's cells).
        count: usize,
        /// What they become.
        becomes: char,
        /// What the other cells become (`None`: they keep the glyph).
        rest: Option<char>,
    },
}

/// One substitution.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Subst {
    /// The glyph whose cells change.
    pub glyph: char,
    /// How.
    pub kind: SubstKind,
}

/// Runs `subst` in order on `glyphs`, drawing from `rng`. An n-of asking for more cells than
/// the glyph has changes every one of them (loading rules that out for region files).
pub fn substitute(glyphs: &mut Glyphs, subst: &[Subst], rng: &mut Rng) {
    for s in subst {
        match &s.kind {
            SubstKind::OneOf { choices, per } => {
                let mut pick = || choices[rng.below(choices.len() as u64) as usize];
                let once = (*per == Per::Placement).then(&mut pick);
                for c in glyphs.cells.iter_mut().filter(|c| **c == s.glyph) {
                    *c = once.unwrap_or_else(&mut pick);
                }
            }
            SubstKind::NOf {
                count,
                becomes,
                rest,
            } => {
                let mut cells: Vec<usize> = (0..glyphs.cells.len())
                    .filter(|&i| glyphs.cells[i] == s.glyph)
                    .collect();
                rng.shuffle(&mut cells);
                for (k, &i) in cells.iter().enumerate() {
                    if k < *count {
                        glyphs.cells[i] = *becomes;
                    } else if let Some(r) = rest {
                        glyphs.cells[i] = *r;
                    }
                }
            }
        }
    }
}
