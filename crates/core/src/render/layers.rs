//! Debug layers as views: the terrain (the default), a priority heat map, regions, connected
//! components, or a layer the recipe attached with `map:add_layer`. Every output format draws
//! whichever layer is chosen; JSON adds it beside the terrain rows.

use super::View;
use crate::gen::connectivity;
use crate::map::{Map, Rgb};
use std::collections::BTreeMap;

/// The letters labelled layers draw, in label order; beyond them the letters repeat.
const LABEL_GLYPHS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// The glyph of label `k` (0-based).
fn label_glyph(k: usize) -> char {
    LABEL_GLYPHS[k % LABEL_GLYPHS.len()] as char
}

/// Which picture of the map to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayerChoice {
    /// Terrain glyphs and colours (the map itself).
    Terrain,
    /// Cell priorities as a heat map: `0`–`9` from empty to [`crate::map::priority::MAX`];
    /// cells no prioritised write touched show the dimmed terrain.
    Priority,
    /// Region stamps: one letter and colour per region, unstamped cells dimmed.
    Region,
    /// Connected open areas: one letter and colour per component, solid cells dimmed.
    Components,
    /// A layer the recipe (or a Rust primitive) attached under this name.
    Custom(String),
}

impl LayerChoice {
    /// The built-in layers' names.
    pub const BUILT_IN: [&'static str; 4] = ["terrain", "priority", "region", "components"];

    /// A layer by name: a built-in one, or else a recipe-defined one.
    pub fn from_name(name: &str) -> LayerChoice {
        match name {
            "terrain" => LayerChoice::Terrain,
            "priority" => LayerChoice::Priority,
            "region" => LayerChoice::Region,
            "components" => LayerChoice::Components,
            other => LayerChoice::Custom(other.to_string()),
        }
    }

    /// The layer's name.
    pub fn name(&self) -> &str {
        match self {
            LayerChoice::Terrain => "terrain",
            LayerChoice::Priority => "priority",
            LayerChoice::Region => "region",
            LayerChoice::Components => "components",
            LayerChoice::Custom(n) => n,
        }
    }

    /// What the letters of this layer stand for: for `region`, each letter drawn on `map` and
    /// the region names it stands for (one name each, unless the map has more regions than
    /// there are letters). Empty for layers without a legend.
    pub fn legend(&self, map: &Map) -> BTreeMap<char, Vec<String>> {
        let mut legend: BTreeMap<char, Vec<String>> = BTreeMap::new();
        if *self != LayerChoice::Region {
            return legend;
        }
        let mut used = vec![false; map.region_names().len()];
        for &r in map.region_cells() {
            used[r as usize] = true;
        }
        for (id, _) in used.iter().enumerate().skip(1).filter(|(_, &u)| u) {
            legend
                .entry(label_glyph(id - 1))
                .or_default()
                .push(map.region_name(id as u16).to_string());
        }
        legend
    }

    /// The error for a recipe layer `name` that `map` does not carry.
    fn missing(name: &str, map: &Map) -> String {
        let mut known: Vec<&str> = Self::BUILT_IN.to_vec();
        known.extend(map.notes.layers.keys().map(String::as_str));
        format!(
            "--layer {name}: this map has no such layer (available: {})",
            known.join(", ")
        )
    }

    /// Whether `map` can be drawn as this layer: a recipe layer the map does not carry is an
    /// error listing the layers it has. Draws nothing (a big map's view is big).
    pub fn check(&self, map: &Map) -> Result<(), String> {
        match self {
            LayerChoice::Custom(name) if !map.notes.layers.contains_key(name) => {
                Err(Self::missing(name, map))
            }
            _ => Ok(()),
        }
    }

    /// Draws `map` as this layer. A recipe layer the map does not carry is an error listing
    /// the layers it has (see [`LayerChoice::check`]).
    pub fn view(&self, map: &Map) -> Result<View, String> {
        Ok(match self {
            LayerChoice::Terrain => View::terrain(map),
            LayerChoice::Priority => priority(map),
            LayerChoice::Region => labelled(map, map.region_cells().iter().map(|&r| r as u32)),
            LayerChoice::Components => {
                let comps = connectivity::components(map, connectivity::map_adjacency(map));
                labelled(map, comps.labels().iter().map(|&l| component_label(l)))
            }
            LayerChoice::Custom(name) => {
                let layer = map
                    .notes
                    .layers
                    .get(name)
                    .ok_or_else(|| Self::missing(name, map))?;
                let mut view = dimmed(map);
                for (i, mark) in layer.marks().iter().enumerate() {
                    if let Some((g, c)) = mark {
                        view.glyphs[i] = *g;
                        view.colors[i] = *c;
                    }
                }
                view
            }
        })
    }
}

/// A layer's glyphs and colours, worked out a row at a time from the map (what text, JSON, PNG
/// images and GIF frames draw), so that drawing it holds no [`View`]: only the `components`
/// layer finds the map's open areas first, keeping their runs (charged at
/// [`Painter::BYTES_PER_LABELLED_CELL`]: a label per cell is more than a map's runs take but in
/// the most broken-up maps). Each glyph and colour is the one its view holds.
#[derive(Debug)]
pub struct Painter<'a> {
    map: &'a Map,
    /// Each terrain's glyph and colour, the colour dimmed for every layer but the terrain (by
    /// terrain id).
    backdrop: Vec<(char, Rgb)>,
    paint: Paint<'a>,
    /// A row of component labels (the `components` layer's scratch).
    labels: std::cell::RefCell<Vec<u32>>,
}

/// What a [`Painter`] draws over its backdrop.
#[derive(Debug)]
enum Paint<'a> {
    /// Nothing: the terrain itself.
    Terrain,
    Priority,
    Region,
    /// The map's open areas (their runs, labelled a row at a time).
    Components(connectivity::Components),
    /// A recipe layer's marks.
    Custom(&'a [Option<(char, Rgb)>]),
}

impl<'a> Painter<'a> {
    /// Bytes a painter of the `components` layer is charged for each cell of its map.
    pub const BYTES_PER_LABELLED_CELL: usize = std::mem::size_of::<u32>();

    /// Bytes a painter of `layer` holds for a map of `cells` cells.
    pub fn bytes_for(layer: &LayerChoice, cells: usize) -> usize {
        match layer {
            LayerChoice::Components => cells.saturating_mul(Self::BYTES_PER_LABELLED_CELL),
            _ => 0,
        }
    }

    /// The glyph and colour of each cell of row `y` (from 0), written over `out`.
    pub fn row(&self, y: usize, out: &mut Vec<(char, Rgb)>) {
        let width = self.map.width() as usize;
        let cells = y * width..(y + 1) * width;
        let terrain = &self.map.terrain_cells()[cells.clone()];
        out.clear();
        out.extend(terrain.iter().map(|&t| self.backdrop[t as usize]));
        match &self.paint {
            Paint::Terrain => {}
            Paint::Priority => overlay(
                out,
                self.map.priority_cells()[cells]
                    .iter()
                    .map(|&p| priority_style(p)),
            ),
            Paint::Region => overlay(
                out,
                self.map.region_cells()[cells]
                    .iter()
                    .map(|&r| label_style(r as u32)),
            ),
            Paint::Components(comps) => {
                let mut labels = self.labels.borrow_mut();
                labels.resize(width, connectivity::NO_COMPONENT);
                comps.label_row(y, &mut labels);
                let styles = labels.iter().map(|&l| label_style(component_label(l)));
                overlay(out, styles);
            }
            Paint::Custom(layer) => overlay(out, layer[cells].iter().copied()),
        }
    }

    /// Width in cells.
    pub fn width(&self) -> usize {
        self.map.width() as usize
    }

    /// Height in cells.
    pub fn height(&self) -> usize {
        self.map.height() as usize
    }
}

impl LayerChoice {
    /// A painter of `map` as this layer: its glyphs and colours a row at a time (see
    /// [`Painter`]). A recipe layer the map does not carry is an error, as for
    /// [`LayerChoice::view`].
    pub fn painter<'a>(&self, map: &'a Map) -> Result<Painter<'a>, String> {
        let paint = match self {
            LayerChoice::Terrain => Paint::Terrain,
            LayerChoice::Priority => Paint::Priority,
            LayerChoice::Region => Paint::Region,
            LayerChoice::Components => Paint::Components(connectivity::components(
                map,
                connectivity::map_adjacency(map),
            )),
            LayerChoice::Custom(name) => Paint::Custom(
                map.notes
                    .layers
                    .get(name)
                    .ok_or_else(|| Self::missing(name, map))?
                    .marks(),
            ),
        };
        let dim = !matches!(paint, Paint::Terrain);
        let backdrop = map
            .terrains()
            .iter()
            .map(|t| (t.glyph, if dim { dimmed_color(t.color) } else { t.color }))
            .collect();
        Ok(Painter {
            map,
            backdrop,
            paint,
            labels: Default::default(),
        })
    }
}

/// Draws each cell of `row` that `styles` gives a style for (the others stay the backdrop).
fn overlay(row: &mut [(char, Rgb)], styles: impl Iterator<Item = Option<(char, Rgb)>>) {
    for (cell, style) in row.iter_mut().zip(styles) {
        if let Some(style) = style {
            *cell = style;
        }
    }
}

/// A component's label as the `components` layer numbers it: 0 for solid cells, else its
/// component's number from 1.
fn component_label(label: u32) -> u32 {
    match label {
        connectivity::NO_COMPONENT => 0,
        l => l + 1,
    }
}

/// A colour at a third of its brightness (the backdrop of every layer but the terrain).
fn dimmed_color(c: Rgb) -> Rgb {
    Rgb(c.0 / 3, c.1 / 3, c.2 / 3)
}

/// The terrain view at a third of its brightness: the backdrop of the other layers.
fn dimmed(map: &Map) -> View {
    let mut view = View::terrain(map);
    for c in &mut view.colors {
        *c = dimmed_color(*c);
    }
    view
}

/// How the `priority` layer draws a cell of priority `p`: a digit `0`–`9` from empty to
/// [`crate::map::priority::MAX`] and a blue-to-red ramp; `None` for 0 (no prioritised write
/// touched the cell: it shows the dimmed terrain).
pub fn priority_style(p: u8) -> Option<(char, Rgb)> {
    if p == 0 {
        return None;
    }
    let max = crate::map::priority::MAX as u32;
    let p = (p as u32).min(max);
    let digit = char::from_digit(p * 9 / max, 10).unwrap_or('9');
    let hot = (p * 255 / max) as u8;
    Some((digit, Rgb(hot, 64, 255 - hot)))
}

/// How the `region` and `components` layers draw label `label` (a region id, a component
/// number from 1): a letter and a colour of its own; `None` for 0 (no region: the dimmed
/// terrain).
pub fn label_style(label: u32) -> Option<(char, Rgb)> {
    let k = label.checked_sub(1)? as usize;
    Some((label_glyph(k), palette(k)))
}

/// Priority 0..=MAX as digits `0`–`9` and a blue-to-red ramp.
fn priority(map: &Map) -> View {
    let mut view = dimmed(map);
    for (i, &p) in map.priority_cells().iter().enumerate() {
        if let Some((glyph, color)) = priority_style(p) {
            view.glyphs[i] = glyph;
            view.colors[i] = color;
        }
    }
    view
}

/// Cells labelled 1.. drawn as a letter and colour per label; label 0 shows the dimmed terrain.
fn labelled(map: &Map, labels: impl Iterator<Item = u32>) -> View {
    let mut view = dimmed(map);
    for (i, label) in labels.enumerate() {
        if let Some((glyph, color)) = label_style(label) {
            view.glyphs[i] = glyph;
            view.colors[i] = color;
        }
    }
    view
}

/// A bright colour for label `k`, spread around the hue circle by the golden-angle step.
pub fn palette(k: usize) -> Rgb {
    let hue = (k * 137) % 360;
    let (sector, f) = (hue / 60, ((hue % 60) * 255 / 60) as u8);
    let (hi, lo) = (255u8, 70u8);
    let up = lo + ((hi - lo) as u32 * f as u32 / 255) as u8;
    let down = hi - ((hi - lo) as u32 * f as u32 / 255) as u8;
    match sector {
        0 => Rgb(hi, up, lo),
        1 => Rgb(down, hi, lo),
        2 => Rgb(lo, hi, up),
        3 => Rgb(lo, down, hi),
        4 => Rgb(up, lo, hi),
        _ => Rgb(hi, lo, down),
    }
}
