//! The Lua state's allocator, wrapped so that every allocation is counted against the
//! generation's memory limit and, every few hundred KiB, checked against its clock. This is the
//! watchdog for C library functions that do a lot of work between two instruction checkpoints
//! (`s:upper()` on a large string, `..` in a loop): they all allocate, and an allocation that
//! fails raises a Lua error at once.

use super::account;
use super::budget::{Budget, TOUCHED_GROW_BYTES, TOUCH_SLICE_BYTES};
use mlua::{ffi, Lua};
use std::alloc::Layout;
use std::ffi::c_void;
use std::ptr;
use std::rc::Rc;

/// What the wrapper needs: the allocator it replaces (put back by [`AllocGuard::uninstall`]) and
/// the budget it reports to.
struct Watch {
    inner: ffi::lua_Alloc,
    inner_ud: *mut c_void,
    budget: Rc<Budget>,
}

/// The installed wrapper. Dropping it does not uninstall it; call [`AllocGuard::uninstall`]
/// first (the sandbox does so before the state goes away).
pub struct AllocGuard {
    watch: Box<Watch>,
}

/// The wrapped `lua_Alloc`. Never unwinds: it only touches `Cell`s and the clock.
unsafe extern "C" fn watched(
    ud: *mut c_void,
    ptr: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: `ud` is the `Watch` boxed in the `AllocGuard`, which outlives the installation.
    let watch = unsafe { &*(ud as *const Watch) };
    // With a null pointer, Lua passes the type of the new object in `osize`, not a size.
    let old = if ptr.is_null() { 0 } else { osize };
    let budget = &*watch.budget;
    // Most of Lua's allocations: a free, a shrink, or a grow with room to spare, counted by
    // what the counting allocator's count moved (its block sizes) and nothing else.
    if budget.counting() && (nsize <= old || budget.grows_quickly(nsize - old)) {
        let before = account::live();
        // SAFETY: Lua's own arguments: `ptr` is null or a block of `osize` bytes it holds.
        let out = unsafe { forward(ptr, osize, nsize) };
        budget.count_lua_blocks(account::live() - before);
        return out;
    }
    // Without a counting allocator (a game that embeds warren with its own), a free or a
    // shrink is never refused and counted by the bytes given back: half of a small map's
    // allocations, which otherwise took the checks below.
    if nsize <= old {
        budget.give_back_lua_bytes(old - nsize);
        // SAFETY: as above.
        return unsafe { forward(ptr, osize, nsize) };
    }
    checked(watch, ptr, osize, nsize, old)
}

/// [`watched`] for an allocation that needs [`Budget::allocate`]'s checks (or a budget whose
/// allocator does not count): refused when a budget runs out, else made and counted.
#[cold]
#[inline(never)]
fn checked(watch: &Watch, ptr: *mut c_void, osize: usize, nsize: usize, old: usize) -> *mut c_void {
    let string = ptr.is_null() && osize == ffi::LUA_TSTRING as usize;
    if !watch.budget.allocate(old, nsize, string) {
        return ptr::null_mut();
    }
    let before = account::live();
    // SAFETY (both): Lua's own arguments: `ptr` is null or a block of `osize` bytes it holds,
    // and then `old` is `osize`.
    let out = if nsize.saturating_sub(old) >= TOUCHED_GROW_BYTES {
        unsafe { grow_touched(&watch.budget, ptr, old, nsize) }
    } else {
        unsafe { forward(ptr, osize, nsize) }
    };
    if out.is_null() && nsize > old {
        watch.budget.allocate(nsize, old, false);
    } else {
        let blocks = account::live() - before;
        watch
            .budget
            .settle_lua_blocks(nsize as isize - old as isize, blocks);
    }
    out
}

/// A grow of `ptr` (null, or a block of `old` bytes Lua holds) to `nsize` bytes, too large to
/// leave its page faults to Lua's first use of the block, which no budget point interrupts
/// (see [`TOUCHED_GROW_BYTES`]): the block grown, its new pages written to a slice at a time with
/// a look at the clock between slices ([`touch`]). Null when there is no memory, or when the
/// clock runs out meanwhile: the old block is then as it was.
///
/// A global allocator that is a [`account::Regrow`] (the `warren` binary's, for blocks of 8 MiB
/// and more) grows the block where its pages are and takes the grow back if need be. Otherwise
/// the grow is a fresh block, written whole, the old bytes copied in and the old block freed:
/// both blocks are held a moment, and the fresh one is made only if it fits beside the old one
/// ([`Budget::may_copy_grow`]).
///
/// # Safety
/// As [`forward`]'s, with `old` the size of the block at `ptr` (0 when it is null).
unsafe fn grow_touched(budget: &Budget, ptr: *mut c_void, old: usize, nsize: usize) -> *mut c_void {
    if let (false, Some(regrow)) = (ptr.is_null(), account::regrow()) {
        // SAFETY: the layout `forward` allocated the block with.
        let layout = unsafe { Layout::from_size_align_unchecked(old, ffi::SYS_MIN_ALIGN) };
        // SAFETY: a live block of `layout` from the global allocator, grown.
        let grown = unsafe { regrow.grow(ptr.cast(), layout, nsize) };
        if !grown.is_null() {
            // SAFETY (all three): the grow just made, of `nsize` bytes, kept or taken back once.
            unsafe {
                if !touch(budget, grown, old, nsize)
                    && regrow.undo(grown, ptr.cast(), layout, nsize)
                {
                    return ptr::null_mut();
                }
                // Touched whole, or the allocator could not take the grow back (the binary's
                // never says so): then Lua writes the rest of its pages unwatched.
                regrow.keep(ptr.cast(), layout);
            }
            return grown.cast();
        }
    }
    if !ptr.is_null() && !budget.may_copy_grow(old, nsize) {
        return ptr::null_mut();
    }
    // SAFETY: a fresh allocation of `nsize` bytes.
    let block = unsafe { forward(ptr::null_mut(), 0, nsize) }.cast::<u8>();
    if block.is_null() {
        return ptr::null_mut();
    }
    // SAFETY: the block just allocated, of `nsize` bytes, unread.
    if !unsafe { touch(budget, block, 0, nsize) } {
        // SAFETY: the same block, freed unused.
        unsafe { forward(block.cast(), nsize, 0) };
        return ptr::null_mut();
    }
    if !ptr.is_null() {
        // SAFETY: two distinct blocks, the old one of `old` bytes, the new one larger.
        unsafe {
            ptr::copy_nonoverlapping(ptr.cast::<u8>(), block, old);
            forward(ptr, old, 0);
        }
    }
    block.cast()
}

/// Writes a byte in each page of `block` from byte `from` to byte `to`, [`TOUCH_SLICE_BYTES`]
/// at a time, with [`Budget::may_go_on_touching`] asked before each slice: false, the rest left
/// unwritten, when it says no.
///
/// # Safety
/// `block` is a block of `to` bytes whose bytes from `from` on nobody reads before setting.
unsafe fn touch(budget: &Budget, block: *mut u8, from: usize, to: usize) -> bool {
    /// The stride of the writes that fault pages in: the smallest page size.
    const PAGE_BYTES: usize = 4096;
    for slice in (from..to).step_by(TOUCH_SLICE_BYTES) {
        if !budget.may_go_on_touching(to) {
            return false;
        }
        for page in (slice..to.min(slice + TOUCH_SLICE_BYTES)).step_by(PAGE_BYTES) {
            // SAFETY: within the block, past the bytes anyone reads unset.
            unsafe { block.add(page).write_volatile(0) };
        }
    }
    true
}

/// What `lua_Alloc` asks for, done with the program's global allocator exactly as mlua's
/// allocator (the one every `Lua` is created with) does it, in the same layout, so that either
/// frees or resizes the other's blocks: null for a free, else the new or resized block, or null
/// when there is no memory (Lua then raises its memory error; mlua's would abort).
///
/// Called directly rather than through mlua's allocator: that adds a layer and a count of its
/// own (`Lua::used_memory`, which nothing reads while this wrapper is installed: mlua then asks
/// Lua's collector instead), 18 instructions on each of Lua's allocations — 2% of a
/// metatable-heavy workload (BENCHMARKS.md).
///
/// # Safety
/// `ptr` is null or a block of `osize` bytes from this allocator or mlua's.
#[inline(always)]
unsafe fn forward(ptr: *mut c_void, osize: usize, nsize: usize) -> *mut c_void {
    use std::alloc::{alloc, dealloc, realloc};
    const ALIGN: usize = ffi::SYS_MIN_ALIGN;
    if nsize == 0 {
        if !ptr.is_null() {
            // SAFETY: a block of `osize` bytes allocated with this layout (the caller's promise).
            unsafe { dealloc(ptr.cast(), Layout::from_size_align_unchecked(osize, ALIGN)) };
        }
        return ptr::null_mut();
    }
    if nsize > isize::MAX as usize - (ALIGN - 1) {
        return ptr::null_mut();
    }
    if ptr.is_null() {
        // SAFETY: a non-zero size that rounds up to its power-of-two alignment within isize.
        return unsafe { alloc(Layout::from_size_align_unchecked(nsize, ALIGN)) }.cast();
    }
    // SAFETY: as for `dealloc`; the new size is non-zero and rounds up within isize.
    unsafe {
        realloc(
            ptr.cast(),
            Layout::from_size_align_unchecked(osize, ALIGN),
            nsize,
        )
    }
    .cast()
}

/// The allocator and its userdata currently installed in `lua`.
fn current(lua: &Lua) -> mlua::Result<(ffi::lua_Alloc, *mut c_void)> {
    let mut found = None;
    // SAFETY: only reads the allocator of a valid state.
    unsafe {
        lua.exec_raw::<()>((), |state| {
            let mut ud = ptr::null_mut();
            let f = ffi::lua_getallocf(state, &mut ud);
            found = Some((f, ud));
        })?;
    }
    found.ok_or_else(|| mlua::Error::RuntimeError("no allocator".into()))
}

/// Installs `f` with `ud` as the allocator of `lua`.
fn set(lua: &Lua, f: ffi::lua_Alloc, ud: *mut c_void) -> mlua::Result<()> {
    // SAFETY: `f` accepts `ud`; the caller keeps `ud` alive while `f` is installed.
    unsafe { lua.exec_raw::<()>((), |state| ffi::lua_setallocf(state, f, ud)) }
}

impl AllocGuard {
    /// Wraps the allocator of `lua` so that `budget` sees every allocation. Memory the state
    /// already holds is counted from now on. `lua` must have mlua's own allocator, as every
    /// `Lua` mlua creates does: the wrapper takes and frees blocks as it does ([`forward`]).
    pub fn install(lua: &Lua, budget: Rc<Budget>) -> mlua::Result<AllocGuard> {
        let (inner, inner_ud) = current(lua)?;
        budget.start_counting(lua.used_memory());
        let watch = Box::new(Watch {
            inner,
            inner_ud,
            budget,
        });
        // A build that measures what the account costs (the `uncounted-bench` feature) leaves
        // mlua's allocator in place; putting it back is then a no-op.
        if !cfg!(feature = "uncounted-bench") {
            set(lua, watched, &*watch as *const Watch as *mut c_void)?;
        }
        Ok(AllocGuard { watch })
    }

    /// Puts the original allocator back.
    pub fn uninstall(&self, lua: &Lua) -> mlua::Result<()> {
        set(lua, self.watch.inner, self.watch.inner_ud)
    }
}
