//! The generation tools outside tunnels, connectivity, towns and dungeons, a file per tool.

/// Areas: bounds, cell indices, scopes checked against the map.
mod area;
/// Binary space partitioning: rooms, corridors, doors.
mod bsp;
/// Cellular automata against a plain reference step.
mod cellular;
/// Diffusion-limited aggregation.
mod dla;
/// Door placement and door kinds.
mod doors;
/// Drunkard's walks.
mod drunkard;
/// Fields: the field type, distance maps, field of view, noise.
mod field;
/// Brogue's lakes.
mod lakes;
/// Brogue's loops.
mod loops;
/// Mazes: every algorithm, braiding.
mod maze;
/// The meter: tallies and batches.
mod meter;
/// Winding passages between two ends.
mod passage;
/// Shortest paths, culling unreachable areas, the far exit.
mod path;
/// Vault templates: the grid parser and substitutions.
mod prefab;
/// Rooms: scattering, overlap tests, nearest pairs.
mod rooms;
/// Voronoi regions.
mod voronoi;
/// Wave function collapse: patterns and the solver.
mod wfc;
