//! TownMaze's parameters with its defaults and every sanity check of `getargs.c`.

use std::fmt;
use thiserror::Error;

/// The largest height or width accepted, checked before anything is allocated.
pub const MAX_SIDE: i64 = 4095;
/// The smallest height or width: five cells, so one interior row of buildings fits.
pub const MIN_SIDE: i64 = 11;
/// The largest straightness: a roll of 0..=999 must sometimes allow a bend.
pub const MAX_STRAIGHTNESS: i64 = 998;

/// The knobs of a town, in characters of the display grid (`-h`, `-w`, `-g`, `-l`, `-c`, `-u`,
/// `-s` of the original).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TownParams {
    /// Rows of the display grid; odd, at least 11.
    pub height: i64,
    /// Columns of the display grid; odd, at least 11.
    pub width: i64,
    /// Gates seeded on the town wall.
    pub gates: i64,
    /// Gates still open at the end.
    pub leftgates: i64,
    /// Courtyards (street origins) seeded in the interior.
    pub courts: i64,
    /// Solid interior cells that are neither rooms nor streets.
    pub unused: i64,
    /// Chance out of 1000 that a street refuses to bend.
    pub straightness: i64,
}

impl TownParams {
    /// TownMaze's defaults.
    pub const DEFAULT: TownParams = TownParams {
        height: 23,
        width: 77,
        gates: 4,
        leftgates: 2,
        courts: 0,
        unused: 0,
        straightness: 750,
    };
}

impl Default for TownParams {
    fn default() -> Self {
        TownParams::DEFAULT
    }
}

/// One broken rule. Each message names the parameter, the rule and the value given.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParamError {
    /// `height` or `width` below [`MIN_SIDE`].
    #[error("{param} must be at least {MIN_SIDE} (five cells, room for one interior row of buildings), got {got}")]
    SideTooSmall {
        /// `"height"` or `"width"`.
        param: &'static str,
        /// The value given.
        got: i64,
    },
    /// `height` or `width` above [`MAX_SIDE`].
    #[error("{param} must be at most {MAX_SIDE}, got {got}")]
    SideTooLarge {
        /// `"height"` or `"width"`.
        param: &'static str,
        /// The value given.
        got: i64,
    },
    /// `height` or `width` even.
    #[error("{param} must be odd (walls on even rows and columns, cells on odd ones), got {got}")]
    SideEven {
        /// `"height"` or `"width"`.
        param: &'static str,
        /// The value given.
        got: i64,
    },
    /// A count or chance below zero.
    #[error("{param} must be at least 0, got {got}")]
    Negative {
        /// The parameter.
        param: &'static str,
        /// The value given.
        got: i64,
    },
    /// More gates than fit one per three border cells between the corners.
    #[error("gates must be at most 2*((height-6)/7)+2*((width-6)/7) = {max} for a {height}×{width} town, got {got}")]
    TooManyGates {
        /// The value given.
        got: i64,
        /// The limit for this size.
        max: i64,
        /// Height of the town.
        height: i64,
        /// Width of the town.
        width: i64,
    },
    /// More gates left open than were made.
    #[error("leftgates must be at most gates = {gates}, got {got}")]
    LeftGatesAboveGates {
        /// The value given.
        got: i64,
        /// The `gates` parameter.
        gates: i64,
    },
    /// More courtyards than fit two cells apart.
    #[error("courts must be at most ((height-5)/6)*((width-5)/6) = {max} for a {height}×{width} town, got {got}")]
    TooManyCourts {
        /// The value given.
        got: i64,
        /// The limit for this size.
        max: i64,
        /// Height of the town.
        height: i64,
        /// Width of the town.
        width: i64,
    },
    /// Neither gates nor courtyards: no street could start.
    #[error(
        "courts + gates must be at least 1 so that some street exists, got {courts} + {gates}"
    )]
    NoStreet {
        /// The `courts` parameter.
        courts: i64,
        /// The `gates` parameter.
        gates: i64,
    },
    /// More unused cells than fit three cells apart.
    #[error("unused must be at most ((height-1)/14)*((width-1)/14) = {max} for a {height}×{width} town, got {got}")]
    TooManyUnused {
        /// The value given.
        got: i64,
        /// The limit for this size.
        max: i64,
        /// Height of the town.
        height: i64,
        /// Width of the town.
        width: i64,
    },
    /// Straightness that could refuse every bend.
    #[error("straightness must be at most {MAX_STRAIGHTNESS} so that a bend is always possible, got {got}")]
    StraightnessTooHigh {
        /// The value given.
        got: i64,
    },
}

/// Every rule a set of parameters breaks, in the order `getargs.c` checks them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamErrors(pub Vec<ParamError>);

impl fmt::Display for ParamErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParamErrors {}

impl TownParams {
    /// The most gates a `height`×`width` town accepts.
    pub fn max_gates(height: i64, width: i64) -> i64 {
        2 * ((height - 6) / 7) + 2 * ((width - 6) / 7)
    }

    /// The most courtyards a `height`×`width` town accepts.
    pub fn max_courts(height: i64, width: i64) -> i64 {
        ((height - 5) / 6) * ((width - 5) / 6)
    }

    /// The most unused cells a `height`×`width` town accepts.
    pub fn max_unused(height: i64, width: i64) -> i64 {
        ((height - 1) / 14) * ((width - 1) / 14)
    }

    /// Checks every rule and returns all that are broken.
    pub fn validate(&self) -> Result<(), ParamErrors> {
        let mut errors = Vec::new();
        for (param, got) in [("height", self.height), ("width", self.width)] {
            if got < MIN_SIDE {
                errors.push(ParamError::SideTooSmall { param, got });
            }
            if got > MAX_SIDE {
                errors.push(ParamError::SideTooLarge { param, got });
            }
            if got.rem_euclid(2) != 1 {
                errors.push(ParamError::SideEven { param, got });
            }
        }
        // The size-dependent limits mean nothing for an out-of-range size, so they wait for one.
        let sized = [self.height, self.width]
            .iter()
            .all(|s| (MIN_SIDE..=MAX_SIDE).contains(s));
        let (height, width) = (self.height, self.width);
        if self.gates < 0 {
            errors.push(ParamError::Negative {
                param: "gates",
                got: self.gates,
            });
        }
        let max = Self::max_gates(height, width);
        if sized && self.gates > max {
            errors.push(ParamError::TooManyGates {
                got: self.gates,
                max,
                height,
                width,
            });
        }
        if self.leftgates < 0 {
            errors.push(ParamError::Negative {
                param: "leftgates",
                got: self.leftgates,
            });
        }
        if self.leftgates > self.gates {
            errors.push(ParamError::LeftGatesAboveGates {
                got: self.leftgates,
                gates: self.gates,
            });
        }
        if self.courts < 0 {
            errors.push(ParamError::Negative {
                param: "courts",
                got: self.courts,
            });
        }
        let max = Self::max_courts(height, width);
        if sized && self.courts > max {
            errors.push(ParamError::TooManyCourts {
                got: self.courts,
                max,
                height,
                width,
            });
        }
        if self.courts.saturating_add(self.gates) < 1 {
            errors.push(ParamError::NoStreet {
                courts: self.courts,
                gates: self.gates,
            });
        }
        if self.unused < 0 {
            errors.push(ParamError::Negative {
                param: "unused",
                got: self.unused,
            });
        }
        let max = Self::max_unused(height, width);
        if sized && self.unused > max {
            errors.push(ParamError::TooManyUnused {
                got: self.unused,
                max,
                height,
                width,
            });
        }
        if self.straightness < 0 {
            errors.push(ParamError::Negative {
                param: "straightness",
                got: self.straightness,
            });
        }
        if self.straightness > MAX_STRAIGHTNESS {
            errors.push(ParamError::StraightnessTooHigh {
                got: self.straightness,
            });
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ParamErrors(errors))
        }
    }
}
