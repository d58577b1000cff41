//! `map:blit` and `map:set_row` with lists of terrain names, which the host reads a run of
//! cells at a time (`lua_warren_items`): every cell lands where it should, `false` leaves a cell
//! alone, rows longer than a run read whole, and a bad cell is reported with its row and
//! column wherever it falls.

use crate::common::{host_for, level};
use warren_lua::Limits;

/// A 100×7 map of rock (the shipped regions' fill); rows 1..=4 from x = 1 get 98 cells each by `map:blit`, drawn from three
/// names and `false`; row 5 by `map:set_row`. Every cell is checked with `map:get`, and the
/// counts the calls return against the names given. `bad` puts a number or a misspelt name
/// far into a row (past the first run the host reads).
const RECIPE: &str = r#"
return {
  params = {
    width = { default = 100 }, height = { default = 7 },
    bad = { default = "none", choices = { "none", "number", "name", "row_number" } },
  },
  generate = function(map, ctx)
    local names = { "floor", "rock wall", "door" }
    local rows = {}
    for y = 1, 4 do
      local row = {}
      for x = 1, 98 do
        local k = (x * 7 + y * 3) % 4
        row[x] = k < 3 and names[k + 1] or false
      end
      row[98] = "floor"
      rows[y] = row
    end
    local bad = ctx.params.bad
    if bad == "number" then rows[3][70] = 5 elseif bad == "name" then rows[2][90] = "flor" end
    local row = {}
    for x = 1, 98 do row[x] = x % 3 == 0 and "door" or false end
    if bad == "row_number" then row[66] = {} end
    local given = 0
    local function check(y, cells)
      for x = 1, 98 do
        if cells[x] then given = given + 1 end
        local want = cells[x] or "rock"
        if map:get(x, y) ~= want then
          error(("(%d, %d) holds %s, not %s"):format(x, y, map:get(x, y), want))
        end
      end
    end
    local written = map:blit(1, 1, rows)
    for y = 1, 4 do check(y, rows[y]) end
    written = written + map:set_row(1, 5, row)
    check(5, row)
    map:tag("written", ("%d of %d"):format(written, given))
  end,
}
"#;

fn written_or_error(bad: &str) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    let h = host_for(dir.path(), "bulk", RECIPE, Limits::default());
    match level(&h, 1, &[("bad", bad)], None) {
        Ok(map) => Ok(format!("{:?}", map.notes.tags["written"])),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn long_rows_of_names_land_cell_by_cell_and_false_leaves_a_cell_alone() {
    // 4 rows of 98 with a quarter false, then 32 doors in row 5.
    let written = written_or_error("none").unwrap();
    let Some((done, given)) = written
        .trim_start_matches("Text(\"")
        .trim_end_matches("\")")
        .split_once(" of ")
    else {
        panic!("{written}");
    };
    assert_eq!(done, given, "every name given was written");
    let given: usize = given.parse().unwrap();
    assert!((300..=392).contains(&given), "{given}");
}

#[test]
fn a_bad_cell_past_the_first_run_is_reported_with_its_row_and_column() {
    let cases = [
        (
            "number",
            "rows[3][70] must be a terrain name, nil or false, got a number",
        ),
        ("name", "rows[2][90]: unknown terrain 'flor'"),
        (
            "row_number",
            "cells[66] must be a terrain name, nil or false, got a table",
        ),
    ];
    for (bad, wanted) in cases {
        let e = written_or_error(bad).unwrap_err();
        assert!(e.contains(wanted), "{bad}: expected '{wanted}' in: {e}");
        assert!(e.contains("bulk.lua:"), "{bad}: no recipe line in: {e}");
    }
}
