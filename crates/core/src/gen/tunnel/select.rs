//! Choosing a tunnel's corridor style (MakeLev.cpp 3404–3423).

use super::config::TunnelConfig;
use super::steer::incursion_dist;
use super::TunnelLevel;
use crate::map::Point;
use crate::rng::Rng;

/// The style for a tunnel from `start` to `dest`: the level's default for short tunnels
/// (Incursion `dist` ≤ 5), otherwise a weighted choice among the styles not yet used on this
/// level; a non-staple style is marked used when chosen. When every style with weight has been
/// used, any of them may be chosen again.
// The original records a used style at `usedInThisLevel[i]` with `i` left over from an
// unrelated loop; the intent (no non-staple repeats while others remain) is kept instead.
pub fn choose_style(
    config: &TunnelConfig,
    level: &mut TunnelLevel,
    start: Point,
    dest: Point,
    rng: &mut Rng,
) -> usize {
    if incursion_dist(start, dest) <= 5 {
        return config.default_style;
    }
    let fresh: Vec<f64> = config
        .styles
        .iter()
        .map(|s| {
            if s.staple || !level.used_styles.contains(&s.name) {
                s.weight
            } else {
                0.0
            }
        })
        .collect();
    let chosen = rng.weighted_index(&fresh).or_else(|| {
        let all: Vec<f64> = config.styles.iter().map(|s| s.weight).collect();
        rng.weighted_index(&all)
    });
    match chosen {
        Some(i) => {
            let style = &config.styles[i];
            if !style.staple {
                level.used_styles.insert(style.name.clone());
            }
            i
        }
        None => config.default_style,
    }
}
