//! The documentation: `README.md`, `docs/*.md`, `BENCHMARKS.md` and `CHANGELOG.md`.
//!
//! - `links`: every page is listed in the index, and every link between pages resolves;
//! - `coverage`: every command and option of the command line is documented;
//! - `paths`: every path the pages (and the shipped files' comments) name exists;
//! - `region_schema`: the generated region-file schema and reference are current and agree
//!   with loading;
//! - `examples`: every example in the pages runs, and the gallery's pictures are what its
//!   commands make;
//! - `init`: `warren init` starts a project where all of it works.

mod coverage;
mod examples;
mod init;
mod links;
mod pages;
mod paths;
mod region_schema;
