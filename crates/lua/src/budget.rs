//! Per-generation budgets: an instruction budget (deterministic: Lua VM instructions plus the
//! work Rust does for the script, in instruction-equivalents), a wall-clock backstop and a
//! memory limit. Once any of them runs out the budget stays exceeded until the next generation
//! begins, and the Lua state is in fatal mode, so nothing a script does afterwards (pcall,
//! coroutines, `<close>`) can resume it.
//!
//! The patched Lua (`crates/lua-src`, see its WARREN.md) counts VM instructions itself: a counter
//! charged at backward jumps, calls and C-library loops. When it runs out, [`on_counter`] brings
//! [`Budget::used`] up to date, looks at the clock, and hands out the next chunk or trips.

use crate::account;
use crate::ffi::{
    lua_warren_getcounter, lua_warren_setcounter, lua_warren_setfatal, CALL_COST, UNLIMITED,
};
use crate::shared_limit::{Share, SharedLimit};
use mlua::{ffi, Lua};
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Gives back the charge of one call, for a nested call a C function makes on a script's
/// behalf (the script's own call was charged already; the fast calls use it).
///
/// # Safety
/// `l` is a thread of a live warren state.
pub unsafe fn refund_call(l: *mut ffi::lua_State) {
    // SAFETY: see the function's contract; setting is ignored in fatal mode.
    unsafe { lua_warren_setcounter(l, lua_warren_getcounter(l).saturating_add(CALL_COST)) }
}

/// Runs `make` with the budget counter out of reach, then puts it back as it was: what `make`
/// runs (calls, Lua code) is charged to no one. In fatal mode the counter stays as it is
/// (`lua_warren_setcounter` is ignored), and a charge fails as it would anyway.
///
/// # Safety
/// `l` is a thread of a live warren state.
pub unsafe fn uncharged<R>(l: *mut ffi::lua_State, make: impl FnOnce() -> R) -> R {
    /// Puts the counter back, also when `make` unwinds.
    struct Restore(*mut ffi::lua_State, i64);
    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: the state is live for the whole of `uncharged`.
            unsafe { lua_warren_setcounter(self.0, self.1) };
        }
    }
    // SAFETY: the function's contract; the counter is plain global state.
    let _restore = unsafe {
        let restore = Restore(l, lua_warren_getcounter(l));
        lua_warren_setcounter(l, UNLIMITED);
        restore
    };
    make()
}

/// Instructions the Lua counter gets at a time: the clock is read once per chunk (a busy loop
/// runs one in well under a millisecond).
pub const CHUNK: u64 = 100_000;

/// What a script sees if it could catch a budget error (it cannot: fatal mode). The host reports
/// [`Budget::message`] instead.
const TRIPPED: &CStr = c"budget exceeded";

/// Resource limits for one generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Lua VM instructions (plus charged Rust work) a generation may execute.
    pub instructions: u64,
    /// Bytes one generation may hold in its one memory account: the Lua heap, the map and
    /// the levels kept above it, layers, snapshots, towns and status lists.
    pub memory: usize,
    /// Wall-clock time a generation may take.
    pub time: Duration,
}

impl Limits {
    /// Default instruction budget: two to three seconds of a runaway loop on a slow machine,
    /// and more than ten times what the shipped recipes need at their largest documented size.
    pub const DEFAULT_INSTRUCTIONS: u64 = 400_000_000;
    /// Default memory limit in MiB.
    pub const DEFAULT_MEMORY_MIB: u64 = 512;
    /// Default wall-clock limit in seconds.
    pub const DEFAULT_SECONDS: f64 = 4.0;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            instructions: Limits::DEFAULT_INSTRUCTIONS,
            memory: (Limits::DEFAULT_MEMORY_MIB as usize) << 20,
            time: Duration::from_secs_f64(Limits::DEFAULT_SECONDS),
        }
    }
}

/// What one generation used of its budgets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Instruction-equivalents: VM instructions (to within the hook's interval) plus the work
    /// Rust did for the script.
    pub instructions: u64,
    /// The most memory held at once (everything in the memory account), in bytes.
    pub peak_memory: usize,
    /// Wall-clock time.
    pub time: Duration,
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// The instruction budget.
    Instructions,
    /// The wall-clock budget.
    Time,
    /// The memory limit.
    Memory,
    /// A single string larger than [`MAX_STRING_BYTES`].
    String,
    /// The caller cancelled the generation (see [`Budget::set_cancel`]).
    Cancelled,
    /// The generation's own account was within the memory limit, but not beside what the
    /// generations sharing the limit with it held ([`Budget::set_shared_limit`]): the caller
    /// runs it again alone.
    Crowded,
}

/// The largest string a script may create. Some VM instructions scan whole strings (`==`, `<`,
/// converting a numeric string); capping their size bounds what one instruction can cost, and
/// so how far a script can overrun the clock between two checkpoints.
pub const MAX_STRING_BYTES: usize = 16 << 20;
/// Bytes Lua needs besides the characters of a long string (header and terminator), rounded up.
const STRING_OVERHEAD: usize = 64;

/// Most bytes of `print`/`ctx.log` output one generation may write; the rest is dropped.
pub const MAX_OUTPUT_BYTES: usize = 1 << 20;

/// How often (in bytes allocated) the allocator looks at the clock.
pub const CLOCK_EVERY_BYTES: usize = 256 << 10;

// [`Budget::grows_quickly`] skips the string check: a string over the limit is a grow past
// the clock's interval, which is never quick.
const _: () = assert!(MAX_STRING_BYTES >= CLOCK_EVERY_BYTES);

/// How often (in instruction-equivalents charged) [`Budget::charge`] looks at the clock. Reading
/// it costs about as much as a small binding call, and the many cheap charges of a small map
/// would otherwise each read it; every charge of a long-running primitive is at least this big.
pub const CLOCK_EVERY_INSTRUCTIONS: u64 = 10_000;

/// The least time per byte the collection gate expects a step of the collector to take
/// ([`Budget::may_collect`]), and what it expects until it has timed one: about twice the
/// worst measured, a major collection of a heap of small closures (0.11 ms per MiB on the
/// 2-core development machine).
pub const COLLECTION_SECONDS_PER_BYTE: f64 = 0.2e-3 / (1 << 20) as f64;

/// The most time per byte the collection gate expects, whatever it timed: a step timed while
/// the thread was descheduled must not keep every later step of the state waiting for the
/// memory limit (whose emergency collection is not gated).
pub const COLLECTION_MOST_SECONDS_PER_BYTE: f64 = 16.0 * COLLECTION_SECONDS_PER_BYTE;

/// How many times its expected time a step is given: the same heap took 7–15% longer from one
/// run to the next, and a step's page faults more.
pub const COLLECTION_MARGIN: f64 = 2.0;

/// The least work of a step the gate learns from: smaller steps are mostly the collector's
/// fixed costs, and take too little time for a clock tick lost to another thread to count
/// for little.
pub const COLLECTION_TIMED_BYTES: usize = 16 << 20;

/// What the allocator expects the first use of each byte of a block that grows by less than
/// [`TOUCHED_GROW_BYTES`] to take, at worst: Lua fills what it allocates at once, and growing a
/// table rehashes it, all in one call with no budget point. Measured on the 2-core development
/// machine: a runaway table's array growing from 256 to 512 MiB took 0.12 s to 0.6 s until the
/// script ran again (the memory's page faults, 0.5–2.3 ms per MiB grown). An allocation that
/// could not be used before the clock runs out is refused as over time.
pub const FIRST_TOUCH_SECONDS_PER_BYTE: f64 = 2.5e-3 / (1 << 20) as f64;

/// Grows of the Lua heap by at least this many bytes are not left to Lua's first use of the
/// new block: the allocator faults its new pages in itself, [`TOUCH_SLICE_BYTES`] at a time,
/// and looks at the clock between slices ([`Budget::may_go_on_touching`]), growing the block
/// where its pages are when the global allocator can take the grow back
/// ([`crate::account::Regrow`]: the `warren` binary's). A page fault's cost is
/// the machine's, not warren's: on a virtual machine whose host had taken its memory back, 3.5
/// ms per MiB, and a table's array growing from 128 to 256 MiB kept a runaway recipe going a
/// second past its 2 s clock.
pub const TOUCHED_GROW_BYTES: usize = 4 << 20;

/// Bytes the allocator faults in between two looks at the clock (see [`TOUCHED_GROW_BYTES`]).
pub const TOUCH_SLICE_BYTES: usize = 1 << 20;

/// What Lua's first use of each byte of a block whose pages are in already is expected to take,
/// at worst: filling what the old block did not hold (a table's array: its nils; a
/// rehash: every entry again).
pub const FILL_SECONDS_PER_BYTE: f64 = 0.5e-3 / (1 << 20) as f64;

/// The live budget of a Lua state. Shared by the instruction hook, the allocator and every Rust
/// function that charges work; all of them run on the state's thread. Limits apply between
/// [`Budget::begin`] and [`Budget::end`] (while a recipe's code runs); the host's own work
/// outside that (building `ctx.regions`, collecting garbage) is only counted.
#[derive(Debug)]
pub struct Budget {
    active: Cell<bool>,
    limits: Cell<Limits>,
    used: Cell<u64>,
    started: Cell<Instant>,
    exceeded: Cell<Option<Exceeded>>,
    /// Bytes the Lua allocator holds.
    lua_bytes: Cell<usize>,
    /// Bytes of Rust-side data the generation holds (its map, the levels kept above it,
    /// annotations, layers, snapshots), counted against the same limit. Forgotten when the
    /// generation ends: the host counts what it keeps again at the next [`Budget::begin`].
    rust_bytes: Cell<usize>,
    /// Bytes reserved by Rust objects the Lua state owns (towns, status lists): kept across
    /// generations, given back when the object is collected (see [`Reservation`]).
    held_bytes: Cell<usize>,
    /// Highest total of the account seen during the generation.
    peak_bytes: Cell<usize>,
    /// Whether the allocator keeps the account ([`account::is_counting`]): then the generation
    /// holds `base` plus what its thread took since `mark`, and the bindings' byte charges only
    /// check that what they are about to allocate fits.
    counting: bool,
    /// [`account::live`] when the generation began.
    mark: Cell<isize>,
    /// What the account held when the generation began, besides what its thread takes from then
    /// on: the Lua heap, the objects' reservations, the map and the levels kept above it.
    base: Cell<usize>,
    /// The thread's [`account::live`] up to which one of Lua's allocations fits the memory limit
    /// without further checks (`limit - base + mark`), or `isize::MIN` when every allocation is
    /// checked in full (no counting allocator, or a limit under [`CLOCK_EVERY_BYTES`]).
    fast_live_limit: Cell<isize>,
    /// What asked for the memory that ran out, and how much (for the message).
    memory_detail: RefCell<String>,
    /// Bytes allocated since the allocator last looked at the clock.
    since_clock: Cell<usize>,
    /// `used` at which [`Budget::charge`] next looks at the clock.
    clock_due: Cell<u64>,
    /// Bytes of output written during this generation.
    output: Cell<usize>,
    /// `file:line` of the last instruction checkpoint (for errors found between checkpoints).
    last_seen: RefCell<String>,
    /// `file:line` where the budget ran out, when known.
    location: RefCell<String>,
    /// The Lua state whose counter and fatal mode this budget drives (null before
    /// [`Budget::attach`]).
    state: Cell<*mut ffi::lua_State>,
    /// Instructions handed to the Lua counter and not yet added to `used`.
    given: Cell<u64>,
    /// Set by another thread to stop the generation at its next checkpoint.
    cancel: RefCell<Option<Arc<AtomicBool>>>,
    /// This budget's part of a memory limit shared with generations on other threads.
    share: RefCell<Option<Share>>,
    /// Whether [`Budget::share`] is set (read on the allocator's path without borrowing).
    sharing: Cell<bool>,
    /// When the collector's step under way started (set by [`Budget::may_collect`]).
    collection_started: Cell<Option<Instant>>,
    /// The time per byte of work the collection gate expects a step to take (see
    /// [`Budget::learn_collection`]).
    collection_rate: Cell<f64>,
}

impl Budget {
    /// An inactive budget with `limits`.
    pub fn new(limits: Limits) -> Self {
        Budget {
            active: Cell::new(false),
            limits: Cell::new(limits),
            used: Cell::new(0),
            started: Cell::new(Instant::now()),
            exceeded: Cell::new(None),
            lua_bytes: Cell::new(0),
            rust_bytes: Cell::new(0),
            held_bytes: Cell::new(0),
            peak_bytes: Cell::new(0),
            counting: account::is_counting(),
            mark: Cell::new(0),
            base: Cell::new(0),
            fast_live_limit: Cell::new(isize::MIN),
            memory_detail: RefCell::new(String::new()),
            since_clock: Cell::new(0),
            clock_due: Cell::new(0),
            output: Cell::new(0),
            last_seen: RefCell::new(String::new()),
            location: RefCell::new(String::new()),
            state: Cell::new(std::ptr::null_mut()),
            given: Cell::new(0),
            cancel: RefCell::new(None),
            share: RefCell::new(None),
            sharing: Cell::new(false),
            collection_started: Cell::new(None),
            collection_rate: Cell::new(COLLECTION_SECONDS_PER_BYTE),
        }
    }

    /// [`Budget::new`] as a program whose global allocator counts ([`account::Counting`]) makes
    /// it, whatever this program's allocator: the path [`Budget::grows_quickly`] takes there.
    #[doc(hidden)] // reached by the crate's tests (tests/lua/budget/), not API
    pub fn counted(limits: Limits) -> Self {
        Budget {
            counting: true,
            ..Budget::new(limits)
        }
    }

    /// Drives the counter and fatal mode of `state` from now on (the sandbox also registers
    /// [`on_counter`] with this budget).
    pub fn attach(&self, state: *mut ffi::lua_State) {
        self.state.set(state);
        self.refill();
    }

    /// Adds what the Lua counter used to `used` (the counter starts a new chunk).
    fn sync(&self) {
        let state = self.state.get();
        if state.is_null() {
            return;
        }
        // SAFETY: `state` is the attached, live state; this only reads a counter.
        let counter = unsafe { lua_warren_getcounter(state) };
        let spent = (self.given.get() as i64).saturating_sub(counter).max(0) as u64;
        self.used.set(self.used.get().saturating_add(spent));
        self.given.set(0);
    }

    /// Counts `cost` through the Lua counter while a state is attached, as the script's own
    /// instructions are counted, so the counter still runs out exactly at the limit: counted
    /// in `used` beside it, the script's instructions after a charge could run past the limit
    /// by what was charged since the counter's last chunk (up to a chunk).
    fn debit(&self, cost: u64) {
        let state = self.state.get();
        if state.is_null() {
            self.used.set(self.used.get().saturating_add(cost));
            return;
        }
        let cost = i64::try_from(cost).unwrap_or(i64::MAX);
        // SAFETY: as in `sync`; setting is ignored in fatal mode, where nothing more counts.
        unsafe { lua_warren_setcounter(state, lua_warren_getcounter(state).saturating_sub(cost)) };
    }

    /// Hands the Lua counter its next chunk: up to the limit while active (so the counter runs
    /// out exactly there), a full chunk otherwise.
    fn refill(&self) {
        let state = self.state.get();
        if state.is_null() {
            return;
        }
        let chunk = if self.active.get() {
            let left = self
                .limits
                .get()
                .instructions
                .saturating_sub(self.used.get());
            left.saturating_add(1).min(CHUNK)
        } else {
            CHUNK
        };
        self.given.set(chunk);
        // SAFETY: as in `sync`.
        unsafe { lua_warren_setcounter(state, chunk as i64) };
    }

    /// Turns the state's fatal mode on or off.
    fn set_fatal(&self, on: bool) {
        let state = self.state.get();
        if !state.is_null() {
            // SAFETY: as in `sync`; setting fatal mode only writes two fields of the state.
            unsafe { lua_warren_setfatal(state, c_int::from(on)) };
        }
    }

    /// Starts a fresh budget for a recipe's code (memory already held stays counted).
    pub fn begin(&self, limits: Limits) {
        self.begin_at(limits, Instant::now());
    }

    /// Leaves `took`, the host's own work inside a call (writing a streamed snapshot as a
    /// frame), out of the generation's wall-clock time: the time limit is the recipe's.
    pub fn exclude_time(&self, took: Duration) {
        self.started.set(self.started.get() + took);
    }

    /// [`Self::begin`], with the time limit counted from `started` (a clock reading the caller
    /// already has).
    pub fn begin_at(&self, limits: Limits, started: Instant) {
        self.active.set(true);
        self.limits.set(limits);
        self.used.set(0);
        self.started.set(started);
        self.exceeded.set(None);
        self.rust_bytes.set(0);
        self.peak_bytes.set(self.held());
        self.base.set(self.held());
        self.mark.set(account::begin());
        self.tell_share(Share::restart);
        self.memory_detail.borrow_mut().clear();
        self.since_clock.set(0);
        // `started` is a reading the caller took moments before (the checks and the map's
        // reset between are bounded): the first look is one interval on, as every later one is
        // after the last, not at the first charge, which read the clock again on every small
        // map. A run that begins cancelled is stopped at its first charge still.
        let first_look = if self.cancelled() {
            0
        } else {
            CLOCK_EVERY_INSTRUCTIONS
        };
        self.clock_due.set(first_look);
        self.output.set(0);
        self.last_seen.borrow_mut().clear();
        self.location.borrow_mut().clear();
        self.set_fatal(false);
        self.given.set(0);
        self.refill();
        self.refresh_fast_live_limit();
    }

    /// Sets [`Self::fast_live_limit`] from the limit, `base` and `mark`.
    fn refresh_fast_live_limit(&self) {
        let limit = self.limits.get().memory;
        let fast = if self.counting && limit >= CLOCK_EVERY_BYTES {
            let limit = isize::try_from(limit).unwrap_or(isize::MAX);
            let base = isize::try_from(self.base.get()).unwrap_or(isize::MAX);
            limit.saturating_sub(base).saturating_add(self.mark.get())
        } else {
            isize::MIN
        };
        self.fast_live_limit.set(fast);
    }

    /// Stops enforcing the limits (the recipe's code has returned), forgets what ran out and
    /// leaves fatal mode.
    pub fn end(&self) {
        self.sync();
        self.peak_bytes.set(self.peak_bytes());
        self.active.set(false);
        self.exceeded.set(None);
        self.rust_bytes.set(0);
        self.set_fatal(false);
        self.refill();
    }

    /// Instruction-equivalents used so far: VM instructions counted by Lua plus Rust's charges.
    pub fn used(&self) -> u64 {
        let state = self.state.get();
        let pending = if state.is_null() {
            0
        } else {
            // SAFETY: as in `sync`.
            let counter = unsafe { lua_warren_getcounter(state) };
            (self.given.get() as i64).saturating_sub(counter).max(0) as u64
        };
        self.used.get().saturating_add(pending)
    }

    /// Bytes held now by the Lua state.
    pub fn lua_bytes(&self) -> usize {
        self.lua_bytes.get()
    }

    /// Bytes reserved by Rust objects the Lua state owns (towns, status lists), alive or not
    /// yet collected.
    pub fn reserved(&self) -> usize {
        self.held_bytes.get()
    }

    /// Everything the memory account holds now: the Lua heap, the generation's Rust-side data
    /// and the reservations of objects the state owns.
    pub fn held(&self) -> usize {
        self.lua_bytes
            .get()
            .saturating_add(self.rust_bytes.get())
            .saturating_add(self.held_bytes.get())
    }

    /// The most memory (everything in the account) held during this generation.
    pub fn peak_bytes(&self) -> usize {
        let stored = self.peak_bytes.get();
        if self.counting && self.active.get() {
            stored.max(self.account().1)
        } else {
            stored
        }
    }

    /// What the account holds now and the most it held since the generation began. With a
    /// [`account::Counting`] allocator: the base plus the thread's bytes since the mark; else
    /// the Lua heap, the charged Rust-side data and the reservations.
    fn account(&self) -> (usize, usize) {
        if self.counting {
            let base = self.base.get() as isize;
            let since = |v: isize| base.saturating_add(v - self.mark.get()).max(0) as usize;
            (since(account::live()), since(account::peak()))
        } else {
            (self.held(), self.peak_bytes.get())
        }
    }

    /// Whether the thread held more than the limit at some point of an active generation (with
    /// a counting allocator; Rust code allocates between two checkpoints). Notes the detail for
    /// the message.
    fn over_memory(&self) -> bool {
        if !self.counting || !self.active.get() {
            return false;
        }
        let (_, peak) = self.account();
        if peak <= self.limits.get().memory {
            return false;
        }
        self.note_heap(peak, self.lua_bytes.get(), 0);
        true
    }

    /// Remembers, for the message, that the account held `total` bytes, `lua` of them the Lua
    /// heap's, when the Lua heap asked for `asked` more (0: the limit was found passed).
    fn note_heap(&self, total: usize, lua: usize, asked: usize) {
        if self.exceeded.get().is_some() {
            return;
        }
        let outside = if self.counting {
            total.saturating_sub(lua)
        } else {
            self.rust_bytes.get().saturating_add(self.held_bytes.get())
        };
        // Formatting allocates from Rust's allocator, never from Lua's.
        if let Ok(mut detail) = self.memory_detail.try_borrow_mut() {
            *detail = format!(
                "the Lua heap holds {} beside {} of maps, layers and objects",
                mib(lua),
                mib(outside)
            );
            if asked > 0 {
                *detail += &format!(", and asked for {} more", mib(asked));
            }
        }
    }

    /// Trips the memory limit if the generation's thread held more than the limit since it
    /// began (with a counting allocator): the host calls it when the recipe's code returns, so
    /// memory a last primitive took is not missed.
    pub fn check_memory_peak(&self) {
        if self.exceeded.get().is_none() {
            if self.over_memory() {
                self.trip(Exceeded::Memory, None);
            } else if self.over_shared() {
                self.trip(Exceeded::Crowded, None);
            }
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits.get()
    }

    /// Which budget ran out during this generation, if any.
    pub fn exceeded(&self) -> Option<Exceeded> {
        self.exceeded.get()
    }

    /// Starts counting the Lua state's memory from `held` bytes (when the allocator is wrapped).
    pub fn start_counting(&self, held: usize) {
        self.lua_bytes.set(held);
        self.peak_bytes.set(held);
    }

    /// Lets another thread stop generations: once `flag` is set, a running generation ends at
    /// its next checkpoint (within a chunk of instructions or a primitive's charge) with
    /// [`Exceeded::Cancelled`]. `None` removes it.
    pub fn set_cancel(&self, flag: Option<Arc<AtomicBool>>) {
        if let Ok(mut cancel) = self.cancel.try_borrow_mut() {
            *cancel = flag;
        }
    }

    /// Whether the generation was cancelled.
    fn cancelled(&self) -> bool {
        self.cancel
            .try_borrow()
            .is_ok_and(|c| c.as_ref().is_some_and(|f| f.load(Ordering::Relaxed)))
    }

    /// Shares the memory limit with the budgets of generations running on other threads
    /// (`warren batch`'s jobs, `warren serve`'s page and sweeps): from the next generation on, what this one holds must also fit
    /// beside what they hold, or it ends with [`Exceeded::Crowded`]. `None` takes this budget
    /// out of the shared limit (what it said it holds is taken back).
    pub fn set_shared_limit(&self, limit: Option<&Arc<SharedLimit>>) {
        let Ok(mut share) = self.share.try_borrow_mut() else {
            return;
        };
        match (&*share, limit) {
            (Some(s), Some(l)) if s.of(l) => {}
            (_, limit) => *share = limit.map(|l| Share::new(l.clone())),
        }
        self.sharing.set(share.is_some());
    }

    /// Tells the shared limit what this budget holds now (after the garbage of its last
    /// generation was collected, between generations).
    pub fn settle_shared(&self) {
        self.tell_share(Share::settle);
    }

    /// Hands what the account holds now to `tell` on this budget's share, if it has one.
    fn tell_share(&self, tell: fn(&mut Share, usize)) {
        if !self.sharing.get() {
            return;
        }
        let now = self.account().0;
        if let Ok(mut share) = self.share.try_borrow_mut() {
            if let Some(s) = share.as_mut() {
                tell(s, now);
            }
        }
    }

    /// Whether holding `now` bytes (at most `peak` since the generation began) and `more` about
    /// to be taken is over the shared limit beside what the other generations hold. With
    /// `more` 0 it looks only when the holdings moved by a step ([`Share::over`]).
    #[inline]
    fn crowded(&self, now: usize, peak: usize, more: usize) -> bool {
        if !self.sharing.get() || !self.active.get() {
            return false;
        }
        let Ok(mut share) = self.share.try_borrow_mut() else {
            return false;
        };
        match share.as_mut() {
            Some(s) if more == 0 => s.over(now, peak),
            Some(s) => s.check(now, peak, more),
            None => false,
        }
    }

    /// [`Self::crowded`] with what the account holds now.
    fn over_shared(&self) -> bool {
        if !self.sharing.get() {
            return false;
        }
        let (now, peak) = self.account();
        self.crowded(now, peak, 0)
    }

    /// Marks `what` as exceeded (the first cause wins) and remembers where, if known. Called
    /// from the allocator too, so it never panics: a busy `RefCell` only loses the location.
    fn trip(&self, what: Exceeded, location: Option<&str>) -> Exceeded {
        if let Some(first) = self.exceeded.get() {
            return first;
        }
        self.exceeded.set(Some(what));
        self.set_fatal(true);
        if let Ok(mut loc) = self.location.try_borrow_mut() {
            match (location, self.last_seen.try_borrow()) {
                (Some(l), _) => l.clone_into(&mut loc),
                (None, Ok(seen)) => seen.as_str().clone_into(&mut loc),
                (None, Err(_)) => loc.clear(),
            }
        }
        what
    }

    /// Counts `cost` instruction-equivalents and checks the instruction and time budgets (time
    /// once every 10 000 instruction-equivalents: bindings charge in proportion to their work).
    /// `location` is asked for only if this call exceeds a budget.
    pub fn charge(
        &self,
        cost: u64,
        location: impl FnOnce() -> Option<String>,
    ) -> Result<(), Exceeded> {
        if let Some(e) = self.exceeded.get() {
            return Err(e);
        }
        if !self.active.get() {
            return Ok(());
        }
        self.debit(cost);
        match self.exceeds(self.used()) {
            None => Ok(()),
            Some(what) => Err(self.trip(what, location().as_deref())),
        }
    }

    /// What having used `used` instruction-equivalents exceeds, if anything. When nothing, and
    /// the clock was due, it sets when the clock is next looked at.
    fn exceeds(&self, used: u64) -> Option<Exceeded> {
        if used > self.limits.get().instructions {
            Some(Exceeded::Instructions)
        } else if self.over_memory() {
            Some(Exceeded::Memory)
        } else if self.over_shared() {
            Some(Exceeded::Crowded)
        } else if used < self.clock_due.get() {
            None
        } else if self.started.get().elapsed() > self.limits.get().time {
            Some(Exceeded::Time)
        } else if self.cancelled() {
            Some(Exceeded::Cancelled)
        } else {
            self.clock_due
                .set(used.saturating_add(CLOCK_EVERY_INSTRUCTIONS));
            None
        }
    }

    /// Checks, before building it, that a string of `len` bytes may exist.
    pub fn check_string(
        &self,
        len: usize,
        location: impl FnOnce() -> Option<String>,
    ) -> Result<(), Exceeded> {
        if len.saturating_add(STRING_OVERHEAD) > MAX_STRING_BYTES {
            return Err(self.trip(Exceeded::String, location().as_deref()));
        }
        Ok(())
    }

    /// Counts `bytes` of Rust-side data created for the script against the memory limit.
    pub fn charge_bytes(
        &self,
        bytes: usize,
        location: impl FnOnce() -> Option<String>,
    ) -> Result<(), Exceeded> {
        self.charge_bytes_for(bytes, "", location)
    }

    /// Checks, before a binding allocates `bytes` of Rust-side data, that they could be put to
    /// use before the clock runs out: their first use (page faults included) is expected to
    /// take up to [`FIRST_TOUCH_SECONDS_PER_BYTE`], in Rust code with no budget point, as for
    /// the Lua heap's smaller blocks. Data under [`TOUCHED_GROW_BYTES`] pass unchecked (a few
    /// milliseconds at most), and so does everything between generations. Otherwise the time
    /// has run out.
    pub fn check_first_use(
        &self,
        bytes: usize,
        location: impl FnOnce() -> Option<String>,
    ) -> Result<(), Exceeded> {
        if let Some(e) = self.exceeded.get() {
            return Err(e);
        }
        if self.too_late_to_use(bytes) {
            return Err(self.trip(Exceeded::Time, location().as_deref()));
        }
        Ok(())
    }

    /// Whether [`Self::check_first_use`] refuses `bytes`.
    fn too_late_to_use(&self, bytes: usize) -> bool {
        bytes >= TOUCHED_GROW_BYTES
            && self.active.get()
            && self.time_left(Instant::now()).as_secs_f64()
                < bytes as f64 * FIRST_TOUCH_SECONDS_PER_BYTE
    }

    /// [`Self::charge_bytes`] for data that `what` (a binding, `"the map"`) is about to
    /// allocate: call it before allocating. A memory error then says who asked and how much;
    /// data too large to use in the time left are over time ([`Self::check_first_use`]).
    pub fn charge_bytes_for(
        &self,
        bytes: usize,
        what: &str,
        location: impl FnOnce() -> Option<String>,
    ) -> Result<(), Exceeded> {
        if let Some(e) = self.exceeded.get() {
            return Err(e);
        }
        if self.too_late_to_use(bytes) {
            return Err(self.trip(Exceeded::Time, location().as_deref()));
        }
        if self.counting {
            // The allocator counts the bytes once they are taken: here they only must fit.
            if !self.active.get() {
                return Ok(());
            }
            let (now, peak) = self.account();
            let limit = self.limits.get().memory;
            if now.saturating_add(bytes) <= limit && peak <= limit {
                if self.crowded(now, peak, bytes) {
                    return Err(self.trip(Exceeded::Crowded, location().as_deref()));
                }
                return Ok(());
            }
            if now.saturating_add(bytes) > limit {
                self.note_memory(what, bytes, now);
            } else {
                self.note_heap(peak, self.lua_bytes.get(), 0);
            }
            return Err(self.trip(Exceeded::Memory, location().as_deref()));
        }
        let before = self.held();
        self.rust_bytes
            .set(self.rust_bytes.get().saturating_add(bytes));
        let total = self.held();
        self.peak_bytes.set(self.peak_bytes.get().max(total));
        if total > self.limits.get().memory {
            self.note_memory(what, bytes, before);
            return Err(self.trip(Exceeded::Memory, location().as_deref()));
        }
        if self.crowded(before, self.peak_bytes.get(), bytes) {
            return Err(self.trip(Exceeded::Crowded, location().as_deref()));
        }
        Ok(())
    }

    /// Puts `bytes` of Rust-side data that exist already (the generation's map, the levels kept
    /// above it) in the account of the generation that just began, without a check: the caller
    /// checked that they fit before allocating them.
    pub fn hold_bytes(&self, bytes: usize) {
        self.rust_bytes
            .set(self.rust_bytes.get().saturating_add(bytes));
        self.base.set(self.base.get().saturating_add(bytes));
        self.peak_bytes.set(self.peak_bytes.get().max(self.held()));
        self.refresh_fast_live_limit();
    }

    /// Reserves `bytes` for a Rust object the Lua state will own (a town, status lists) until
    /// [`Self::unreserve`]; `false` (and nothing reserved) if the account cannot hold them. Unlike
    /// the other charges this does not trip the budget: the caller may collect garbage (which
    /// returns dropped objects' reservations) and try again, then [`Self::refuse`].
    pub fn reserve(&self, bytes: usize) -> bool {
        if self.exceeded.get().is_some() {
            return false;
        }
        let total = if self.counting && self.active.get() {
            // The object is in the thread's count once allocated; the reservation carries it
            // into the base of later generations.
            let (now, peak) = self.account();
            now.saturating_add(bytes).max(peak)
        } else {
            self.held().saturating_add(bytes)
        };
        if total > self.limits.get().memory {
            return false;
        }
        let now = self.account().0;
        if self.crowded(now, now, bytes) {
            // Not this object's fault: the generation runs again alone.
            self.trip(Exceeded::Crowded, None);
            return false;
        }
        self.held_bytes
            .set(self.held_bytes.get().saturating_add(bytes));
        self.peak_bytes.set(self.peak_bytes.get().max(total));
        true
    }

    /// Gives back bytes [`Self::reserve`] took.
    pub fn unreserve(&self, bytes: usize) {
        self.held_bytes
            .set(self.held_bytes.get().saturating_sub(bytes));
    }

    /// Trips the memory limit for `what`, which needed `bytes` the account could not hold.
    pub fn refuse(
        &self,
        bytes: usize,
        what: &str,
        location: impl FnOnce() -> Option<String>,
    ) -> Exceeded {
        if let Some(e) = self.exceeded.get() {
            return e;
        }
        self.note_memory(what, bytes, self.account().0);
        self.trip(Exceeded::Memory, location().as_deref())
    }

    /// What is left of the time limit at `now` (zero once it has run out).
    fn time_left(&self, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.started.get());
        self.limits.get().time.saturating_sub(elapsed)
    }

    /// Whether the collector may start a step that goes through `work` bytes: always between
    /// generations; during one, only if the step, at the time per byte the gate expects
    /// ([`COLLECTION_MARGIN`] times over), would end before the clock runs out. A step is
    /// atomic, so one that began just before the deadline kept a runaway recipe going up to a
    /// fifth of a second past it. A postponed step waits for the next run, or for the memory
    /// limit, whose emergency collection is not gated.
    pub fn may_collect(&self, work: usize) -> bool {
        let now = Instant::now();
        if self.active.get() {
            let expected = self.collection_rate.get() * work as f64 * COLLECTION_MARGIN;
            if self.time_left(now).as_secs_f64() < expected {
                self.collection_started.set(None);
                return false;
            }
        }
        self.collection_started.set(Some(now));
        true
    }

    /// A step of the collector that went through `work` bytes, let through by
    /// [`Self::may_collect`], has ended: the gate learns from its time.
    pub fn collected(&self, work: usize) {
        if let Some(started) = self.collection_started.take() {
            self.learn_collection(work, started.elapsed());
        }
    }

    /// Learns that a step of the collector went through `work` bytes in `took`: steps of
    /// [`COLLECTION_TIMED_BYTES`] or more move the expected time per byte a quarter of the way
    /// to theirs, kept between [`COLLECTION_SECONDS_PER_BYTE`] and
    /// [`COLLECTION_MOST_SECONDS_PER_BYTE`], so one step slowed by something else moves it
    /// little and never far.
    pub fn learn_collection(&self, work: usize, took: Duration) {
        if work < COLLECTION_TIMED_BYTES {
            return;
        }
        let rate = took.as_secs_f64() / work as f64;
        let old = self.collection_rate.get();
        let new = old + (rate - old) / 4.0;
        self.collection_rate.set(new.clamp(
            COLLECTION_SECONDS_PER_BYTE,
            COLLECTION_MOST_SECONDS_PER_BYTE,
        ));
    }

    /// Remembers, for the message, that `what` asked for `bytes` with `held` already held.
    fn note_memory(&self, what: &str, bytes: usize, held: usize) {
        if what.is_empty() || self.exceeded.get().is_some() {
            return;
        }
        if let Ok(mut detail) = self.memory_detail.try_borrow_mut() {
            *detail = format!(
                "{what} needs {} with {} already held",
                mib(bytes),
                mib(held)
            );
        }
    }

    /// Counts `bytes` of output; `Some(true)` if they may be written, `Some(false)` the first
    /// time the output quota is used up (write a note saying so), `None` after that.
    pub fn output(&self, bytes: usize) -> Option<bool> {
        let before = self.output.get();
        let after = before.saturating_add(bytes);
        self.output.set(after);
        if after <= MAX_OUTPUT_BYTES {
            Some(true)
        } else if before <= MAX_OUTPUT_BYTES {
            Some(false)
        } else {
            None
        }
    }

    /// Stops counting `bytes` of Rust-side data (a temporary buffer was freed).
    pub fn release_bytes(&self, bytes: usize) {
        if self.counting {
            // The allocator saw the free.
            return;
        }
        self.rust_bytes
            .set(self.rust_bytes.get().saturating_sub(bytes));
    }

    /// Remembers the `file:line` reached at an instruction checkpoint.
    pub fn note_location(&self, at: &str) {
        if let Ok(mut seen) = self.last_seen.try_borrow_mut() {
            at.clone_into(&mut seen);
        }
    }

    /// Decides whether the Lua allocator may grow its holdings from `old` to `new` bytes (for a
    /// new string object if `string`), and keeps the count. Shrinking and freeing always
    /// succeed. Growth fails once a budget has run out, past the memory limit, for a string
    /// over [`MAX_STRING_BYTES`], or when the clock (looked at every few hundred KiB) says the
    /// time is up, or would be before the new bytes are first used (see
    /// [`FIRST_TOUCH_SECONDS_PER_BYTE`]) — so C library functions that allocate cannot outrun
    /// the budget (a block of [`TOUCHED_GROW_BYTES`] or more only if Lua's fill after the
    /// allocator has faulted it in, [`Budget::may_go_on_touching`], can end in time). Lua's
    /// allocator asks [`Budget::grows_quickly`] first, and this only when
    /// that says no (or the allocator does not count).
    pub fn allocate(&self, old: usize, new: usize, string: bool) -> bool {
        if new <= old {
            self.give_back_lua_bytes(old - new);
            return true;
        }
        let grow = new - old;
        if !self.active.get() {
            self.lua_bytes
                .set(self.lua_bytes.get().saturating_add(grow));
            return true;
        }
        if self.exceeded.get().is_some() {
            return false;
        }
        if string && new > MAX_STRING_BYTES {
            self.trip(Exceeded::String, None);
            return false;
        }
        let since = self.since_clock.get().saturating_add(grow);
        let limits = self.limits.get();
        let total = self.lua_bytes.get().saturating_add(grow);
        // Only what is held now decides here: a peak Rust code reached between checkpoints and
        // gave back is found by the next checkpoint, which knows the script's line.
        let (now, peak) = self.account();
        if now.saturating_add(grow) > limits.memory {
            self.note_heap(now, self.lua_bytes.get(), grow);
            self.trip(Exceeded::Memory, None);
            return false;
        }
        if self.sharing.get() && self.crowded(now.saturating_add(grow), peak, 0) {
            self.trip(Exceeded::Crowded, None);
            return false;
        }
        if since >= CLOCK_EVERY_BYTES {
            self.since_clock.set(0);
            let left = self.time_left(Instant::now());
            // Lua goes through the whole block after the grow (a rehash, its copy of the old
            // bytes when the allocator copies): counted at the fill's rate, its pages faulted in
            // under the clock beforehand.
            let first_use = if grow >= TOUCHED_GROW_BYTES {
                new as f64 * FILL_SECONDS_PER_BYTE
            } else {
                new as f64 * FIRST_TOUCH_SECONDS_PER_BYTE
            };
            if left.as_secs_f64() < first_use {
                self.trip(Exceeded::Time, None);
                return false;
            }
            if self.cancelled() {
                self.trip(Exceeded::Cancelled, None);
                return false;
            }
        } else {
            self.since_clock.set(since);
        }
        self.lua_bytes.set(total);
        if !self.counting {
            let held = now.saturating_add(grow);
            if held > self.peak_bytes.get() {
                self.peak_bytes.set(held);
            }
        }
        true
    }

    /// Whether the allocator, faulting in a block of `block` bytes for a grow of the Lua heap
    /// (see [`TOUCHED_GROW_BYTES`]), may go on to its next slice: always between generations;
    /// during one, only if the clock leaves time for Lua to fill the whole block after (at
    /// [`FILL_SECONDS_PER_BYTE`]) and the generation was not cancelled. Otherwise the time (or
    /// the cancellation) has run out, and the allocation is to fail.
    pub fn may_go_on_touching(&self, block: usize) -> bool {
        if !self.active.get() {
            return true;
        }
        let left = self.time_left(Instant::now());
        if left.as_secs_f64() < block as f64 * FILL_SECONDS_PER_BYTE {
            self.trip(Exceeded::Time, None);
            return false;
        }
        if self.cancelled() {
            self.trip(Exceeded::Cancelled, None);
            return false;
        }
        true
    }

    /// Whether a grow of a Lua block from `old` to `new` bytes, which [`Budget::allocate`] let
    /// through, may be made as a fresh block of `new` bytes with the old one copied in (an
    /// allocator that cannot grow the block where it is): both blocks are held a moment, so the
    /// fresh one must fit beside everything held now, the old block included. Trips the memory
    /// limit when it does not, the message naming the Lua heap's request (not, as a peak found
    /// later would, counting the old block among the maps, layers and objects).
    pub fn may_copy_grow(&self, old: usize, new: usize) -> bool {
        if !self.active.get() {
            return true;
        }
        // `allocate` counted the grow already; nothing of it is made yet.
        let counted = new.saturating_sub(old);
        let lua = self.lua_bytes.get().saturating_sub(counted);
        let now = if self.counting {
            self.account().0
        } else {
            self.held().saturating_sub(counted)
        };
        let needed = now.saturating_add(new);
        if needed > self.limits.get().memory {
            self.note_heap(now, lua, new);
            self.trip(Exceeded::Memory, None);
            return false;
        }
        if !self.counting && needed > self.peak_bytes.get() {
            self.peak_bytes.set(needed);
        }
        true
    }

    /// Whether the Lua heap may grow by `grow` bytes without a look at anything else (most
    /// allocations: nothing has run out, no clock is due and there is room under the limit to
    /// spare), and if so counts them toward the next look at the clock. Every other check of
    /// [`Budget::allocate`] would pass: the limit's threshold is only set while the allocator
    /// counts, and a string over [`MAX_STRING_BYTES`] is a grow past [`CLOCK_EVERY_BYTES`].
    /// Under a shared limit, whether the holdings moved by a step since the budget last told
    /// the total ([`crate::shared_limit::Share::over`], which only then looks at the total) is
    /// asked by the next allocation that is not quick, so at least every [`CLOCK_EVERY_BYTES`]
    /// of growth: a step ([`crate::shared_limit::STEP`]) is told at most that late.
    #[inline(always)]
    pub fn grows_quickly(&self, grow: usize) -> bool {
        let since = self.since_clock.get().saturating_add(grow);
        let quick = since < CLOCK_EVERY_BYTES
            && self.exceeded.get().is_none()
            && account::live().saturating_add(grow as isize) <= self.fast_live_limit.get();
        if quick {
            self.since_clock.set(since);
        }
        quick
    }

    /// Counts `bytes` fewer in the Lua heap (a free or a shrink, which never fails): what
    /// [`Budget::allocate`] does for them.
    #[inline(always)]
    pub fn give_back_lua_bytes(&self, bytes: usize) {
        self.lua_bytes
            .set(self.lua_bytes.get().saturating_sub(bytes));
    }

    /// Whether the allocator keeps the account ([`account::is_counting`]).
    #[inline(always)]
    pub fn counting(&self) -> bool {
        self.counting
    }

    /// Counts `blocks` more bytes (fewer, when negative) of the Lua heap: what the counting
    /// allocator's count moved by for one of Lua's allocations made without
    /// [`Budget::allocate`] (a free, a shrink, or a grow [`Budget::grows_quickly`] let through).
    #[inline(always)]
    pub fn count_lua_blocks(&self, blocks: isize) {
        let held = self.lua_bytes.get() as isize + blocks;
        self.lua_bytes.set(held.max(0) as usize);
    }

    /// With a counting allocator, counts the Lua heap by the blocks the allocator took for one
    /// of Lua's allocations (`blocks` bytes more, which may be negative) instead of the `asked`
    /// bytes more [`Budget::allocate`] counted: the memory message then gives the Lua heap its
    /// own size-class rounding, not the maps.
    #[inline(always)]
    pub fn settle_lua_blocks(&self, asked: isize, blocks: isize) {
        if self.counting && blocks != asked {
            self.count_lua_blocks(blocks - asked);
        }
    }

    /// The error message for the exceeded budget: where, what, the limit and how to raise it.
    pub fn message(&self, recipe: &str) -> Option<String> {
        let what = self.exceeded.get()?;
        let limits = self.limits.get();
        let detail = match what {
            Exceeded::Instructions => format!(
                "instruction budget exceeded ({} instructions; raise it with --max-instructions)",
                limits.instructions
            ),
            Exceeded::Time => format!(
                "time budget exceeded ({} s; raise it with --max-seconds)",
                limits.time.as_secs_f64()
            ),
            Exceeded::Memory => {
                let detail = self.memory_detail.borrow();
                let why = if detail.is_empty() {
                    String::new()
                } else {
                    format!(": {detail}")
                };
                format!(
                    "memory limit exceeded ({} MiB; raise it with --max-memory){why}",
                    limits.memory >> 20
                )
            }
            Exceeded::String => format!(
                "string size limit exceeded (a single string may hold at most {} MiB)",
                MAX_STRING_BYTES >> 20
            ),
            Exceeded::Cancelled => "generation cancelled".into(),
            Exceeded::Crowded => format!(
                "memory limit exceeded ({} MiB, shared with the generations running beside \
                 this one; raise it with --max-memory)",
                limits.memory >> 20
            ),
        };
        let loc = self.location.borrow();
        Some(match (loc.is_empty(), loc.starts_with(recipe)) {
            (true, _) => format!("{recipe}: {detail}"),
            (false, true) => format!("{loc}: {detail}"),
            (false, false) => format!("{loc}: {detail} (recipe {recipe})"),
        })
    }
}

/// `bytes` for messages: whole MiB, rounded up, or KiB below one MiB.
pub fn mib(bytes: usize) -> String {
    if bytes < 1 << 20 {
        format!("{} KiB", bytes.div_ceil(1 << 10))
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// A share of the memory account kept by a Rust object the Lua state owns (a town, status
/// lists), given back when the object is dropped.
#[derive(Debug)]
pub struct Reservation {
    bytes: usize,
    budget: std::rc::Rc<Budget>,
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.budget.unreserve(self.bytes);
    }
}

impl Reservation {
    /// Reserves `bytes` in `budget`'s account (see [`Budget::reserve`]); `None` if they do not
    /// fit.
    pub fn try_new(budget: &std::rc::Rc<Budget>, bytes: usize) -> Option<Reservation> {
        budget.reserve(bytes).then(|| Reservation {
            bytes,
            budget: budget.clone(),
        })
    }
}

/// The Lua counter ran out (or a budget point came in fatal mode): brings the budget up to date,
/// looks at the clock, and hands out the next chunk, or trips and returns the error to raise.
///
/// # Safety
/// Registered with `lua_warren_setbudget` with `ud` the [`Budget`] of the state, which outlives
/// the registration. Lua calls it at a budget point, where reading the stack is safe.
pub unsafe extern "C" fn on_counter(l: *mut ffi::lua_State, ud: *mut c_void) -> *const c_char {
    // SAFETY: see the function's contract.
    let budget = unsafe { &*(ud as *const Budget) };
    budget.sync();
    if budget.exceeded.get().is_some() {
        return TRIPPED.as_ptr();
    }
    if budget.active.get() {
        let limits = budget.limits.get();
        let what = if budget.used.get() > limits.instructions {
            Some(Exceeded::Instructions)
        } else if budget.over_memory() {
            Some(Exceeded::Memory)
        } else if budget.over_shared() {
            Some(Exceeded::Crowded)
        } else if budget.started.get().elapsed() > limits.time {
            Some(Exceeded::Time)
        } else if budget.cancelled() {
            Some(Exceeded::Cancelled)
        } else {
            None
        };
        // SAFETY: `l` is the running state at a budget point.
        let at = unsafe { raw_script_location(l) };
        if let Some(what) = what {
            budget.trip(what, at.as_deref());
            return TRIPPED.as_ptr();
        }
        // Where the script is, for errors found where no line is known (memory).
        if let Some(at) = at {
            budget.note_location(&at);
        }
    }
    budget.refill();
    std::ptr::null()
}

/// The collection gate (`lua_WarrenGCGateF`): lets a step of the collector through unless the
/// clock would run out during it ([`Budget::may_collect`]), and times the steps it lets through.
///
/// # Safety
/// Registered with `lua_warren_setgcgate` with `ud` the [`Budget`] of the state, which outlives
/// the registration.
pub unsafe extern "C" fn on_collection(
    _l: *mut ffi::lua_State,
    ud: *mut c_void,
    work: usize,
    done: c_int,
) -> c_int {
    // SAFETY: see the function's contract.
    let budget = unsafe { &*(ud as *const Budget) };
    if done != 0 {
        budget.collected(work);
        1
    } else {
        c_int::from(budget.may_collect(work))
    }
}

/// [`script_location`] at level 0, on the raw state (the budget callback and the fast calls
/// have no [`Lua`]).
///
/// # Safety
/// `l` must be a live state that is not running inside the Lua core.
pub(crate) unsafe fn raw_script_location(l: *mut ffi::lua_State) -> Option<String> {
    for level in 0..64 {
        // SAFETY: lua_Debug is plain data; lua_getstack/getinfo only fill it.
        let mut ar: ffi::lua_Debug = unsafe { std::mem::zeroed() };
        if unsafe { ffi::lua_getstack(l, level, &mut ar) } == 0 {
            return None;
        }
        unsafe { ffi::lua_getinfo(l, c"Sl".as_ptr(), &mut ar) };
        // SAFETY: getinfo points these at NUL-terminated strings it keeps alive.
        let what = unsafe { CStr::from_ptr(ar.what) }.to_bytes();
        let source = unsafe { CStr::from_ptr(ar.source) }.to_string_lossy();
        if what == b"C" || HOST_CHUNKS.contains(&source.as_ref()) {
            continue;
        }
        let file = unsafe { CStr::from_ptr(ar.short_src.as_ptr()) }.to_string_lossy();
        return Some(if ar.currentline > 0 {
            format!("{file}:{}", ar.currentline)
        } else {
            file.into_owned()
        });
    }
    None
}

/// Names of the host's own chunks (the prelude): errors and budget reports point past them, at
/// the script.
const HOST_CHUNKS: [&str; 1] = ["=warren prelude"];

/// `file:line` of the innermost script function at or above stack `level` (0 is the running
/// function), skipping C functions and the host's chunks.
pub fn script_location(lua: &Lua, level: usize) -> Option<String> {
    (level..level + 64)
        .map_while(|l| {
            lua.inspect_stack(l, |d| {
                let src = d.source();
                let host =
                    src.what == "C" || HOST_CHUNKS.contains(&src.source.as_deref().unwrap_or(""));
                let file = src.short_src.as_deref().unwrap_or("?").to_string();
                (!host).then(|| match d.current_line() {
                    Some(line) => format!("{file}:{line}"),
                    None => file,
                })
            })
        })
        .flatten()
        .next()
}

/// `file:line` of the script code that called the running Rust function.
pub fn caller_location(lua: &Lua) -> Option<String> {
    script_location(lua, 1)
}
