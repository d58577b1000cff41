//! Substitutions, as Crawl's `SUBST` and `NSUBST` lines: a glyph of the map becomes one of
//! several glyphs (drawn once for the whole placement or for each cell), or exactly `n` of its
//! cells become one glyph and the rest another. They run in the order written, on every
//! placement, before the template is drawn; what they produce is not substituted again.

use super::Glyphs;
use crate::rng::Rng;

/// When a one-of substitution draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq, Eq)]
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

#[cfg(test)]
mod tests {
    use super::*;

    fn map(text: &str) -> Glyphs {
        Glyphs::parse(text).unwrap().0
    }

    #[test]
    fn one_of_and_n_of_honour_their_counts_over_many_seeds() {
        let one_of = |per| Subst {
            glyph: '?',
            kind: SubstKind::OneOf {
                choices: vec!['a', 'b'],
                per,
            },
        };
        let n_of = Subst {
            glyph: '$',
            kind: SubstKind::NOf {
                count: 3,
                becomes: 'T',
                rest: Some('.'),
            },
        };
        let (mut mixed, mut uniform) = (0, 0);
        for seed in 0..1000 {
            let mut rng = Rng::new(seed);
            let mut g = map("??????\n$$$$$$\n$$$$$$");
            substitute(&mut g, &[one_of(Per::Cell), n_of.clone()], &mut rng);
            assert_eq!(g.count('?'), 0);
            assert_eq!(g.count('a') + g.count('b'), 6);
            assert_eq!(g.count('T'), 3, "seed {seed}");
            assert_eq!(g.count('.'), 9);
            mixed += usize::from(g.count('a') != 0 && g.count('b') != 0);
            let mut g = map("??????");
            substitute(&mut g, &[one_of(Per::Placement)], &mut rng);
            assert!(g.count('a') == 6 || g.count('b') == 6, "{:?}", g.cells);
            uniform += usize::from(g.count('a') == 6);
        }
        assert!(mixed > 900, "per-cell draws mix: {mixed}");
        assert!(
            (400..600).contains(&uniform),
            "per-placement draws split: {uniform}"
        );
    }

    #[test]
    fn n_of_without_rest_keeps_the_other_cells() {
        let mut g = map("xxxx");
        let s = Subst {
            glyph: 'x',
            kind: SubstKind::NOf {
                count: 1,
                becomes: 'y',
                rest: None,
            },
        };
        substitute(&mut g, &[s], &mut Rng::new(1));
        assert_eq!((g.count('y'), g.count('x')), (1, 3));
    }
}
