//! The pages cover every user-facing feature of the command line: every subcommand is shown as
//! `warren NAME` and every option a user can pass is named, somewhere in the README or
//! `docs/`. A command or option added without documentation fails the build. (The Lua API and
//! the region-file keys are covered by their generated references, checked in
//! `crates/lua/src/stubs.rs` and `region_schema`.)

use super::pages::{self, read};
use clap::CommandFactory;
use std::path::Path;
use warren::cli::Cli;

/// The README and every page under `docs/`, as one text (not BENCHMARKS.md or CHANGELOG.md:
/// being named there is not being documented).
fn documentation() -> String {
    pages::all()
        .iter()
        .filter(|p| *p != Path::new("BENCHMARKS.md") && *p != Path::new("CHANGELOG.md"))
        .map(|p| read(p))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What a command line's documentation must name: `warren SUB` for every subcommand (nested
/// ones as `warren SUB SUBSUB`) and `--LONG` for every visible option, as `(what, command)`.
fn surface() -> Vec<(String, String)> {
    fn walk(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String)>) {
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                if long != "help" && long != "version" {
                    out.push((format!("--{long}"), path.to_string()));
                }
            }
        }
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            if sub.get_name() == "help" {
                continue;
            }
            let path = format!("{path} {}", sub.get_name());
            out.push((path.clone(), path.clone()));
            walk(sub, &path, out);
        }
    }
    // Built whole: each subcommand's arguments are made only when it runs (clap's `defer`).
    let mut cli = Cli::command();
    cli.build();
    let mut out = Vec::new();
    walk(&cli, "warren", &mut out);
    out
}

#[test]
fn every_command_and_option_is_documented() {
    let docs = documentation();
    let surface = surface();
    assert!(
        surface.iter().any(|(w, _)| w == "warren run")
            && surface.iter().any(|(w, _)| w == "--seed"),
        "the command line's surface was not read: {surface:?}"
    );
    let missing: Vec<String> = surface
        .iter()
        .filter(|(what, _)| {
            // An option is named as `--opt` followed by a space, `=`, a backtick or the end.
            !docs.match_indices(what.as_str()).any(|(i, _)| {
                let next = docs[i + what.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
            })
        })
        .map(|(what, cmd)| format!("{what} (of `{cmd}`)"))
        .collect();
    assert!(
        missing.is_empty(),
        "not named in the README or docs/: {missing:?}; document them on the command's page"
    );
}
