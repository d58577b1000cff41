use warren_core::gen::wfc::patterns::{opposite, reflect, rotate, variants, Patterns};
use warren_core::gen::wfc::{Sample, Symmetry};

fn sample(rows: &[&str], periodic: bool) -> Sample {
    let mut palette = Vec::new();
    let mut cells = Vec::new();
    for r in rows {
        for c in r.chars() {
            let i = palette.iter().position(|&p| p == c).unwrap_or_else(|| {
                palette.push(c);
                palette.len() - 1
            });
            cells.push(i as u8);
        }
    }
    Sample {
        name: "test".into(),
        width: rows[0].len(),
        height: rows.len(),
        terrains: (0..palette.len() as u16).collect(),
        cells,
        periodic,
    }
}

#[test]
fn rotation_and_reflection_are_the_dihedral_group() {
    let p: Vec<u8> = (0..9).collect();
    let mut q = p.clone();
    for _ in 0..4 {
        q = rotate(&q, 3);
    }
    assert_eq!(q, p);
    assert_eq!(reflect(&reflect(&p, 3), 3), p);
    assert_eq!(rotate(&p, 3), [6, 3, 0, 7, 4, 1, 8, 5, 2]);
    let all = variants(p.clone(), 3, Symmetry::ALL);
    let distinct: std::collections::HashSet<_> = all.iter().collect();
    assert_eq!((all.len(), distinct.len()), (8, 8));
}

#[test]
fn windows_are_counted_and_fit_where_they_agree() {
    // Stripes: every 2×2 window of a non-tiling sample is one of two patterns.
    let s = sample(&["ab", "ab", "ab"], false);
    let p = Patterns::extract(&s, 2, Symmetry::NONE);
    assert_eq!(p.len(), 1);
    assert_eq!(p.weights, [2.0]);
    // Tiling, the window starting on `b` wraps round to `a`.
    let s = sample(&["ab", "ab"], true);
    let p = Patterns::extract(&s, 2, Symmetry::NONE);
    assert_eq!(p.len(), 2);
    // `ab/ab` has `ba/ba` east of it and west of it, never itself.
    assert_eq!(p.fits[2][0], [1]);
    assert_eq!(p.fits[0][0], [1]);
    assert_eq!(p.fits[1][0], [0]);
    // Fitting is symmetric: q east of p is p west of q.
    for d in 0..4 {
        for (a, list) in p.fits[d].iter().enumerate() {
            for &b in list {
                assert!(p.fits[opposite(d)][b as usize].contains(&(a as u32)));
            }
        }
    }
}
