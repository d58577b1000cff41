use warren_core::gen::prefab::Glyphs;
use warren_core::gen::prefab::{substitute, Per, Subst, SubstKind};
use warren_core::rng::Rng;

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
