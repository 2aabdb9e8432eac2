//! Giving freed memory back to the system while content loads.
//!
//! Loading content makes much short-lived garbage (YAML trees, JSON values checked against
//! the schemas, each card script run once to check it), and mimalloc keeps a freed page a
//! while (10 ms) before it gives it back, for reuse: with 10,000 cards, that garbage stacked
//! on what the engine holds made the load's peak about 10 MiB higher. While a [`Loading`]
//! guard lives, freed pages go back at once; playouts, which free and reuse small objects
//! at a high rate, keep the delay (giving pages back at once cost them 8% of their time).

/// `mi_option_purge_delay` in mimalloc's `mimalloc.h` (2 and 3) (the crate's bindings do not name
/// it): milliseconds before a freed page is given back; 0 is at once.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory goes back to the system at once until this is dropped.
pub struct Loading {
    delay: std::ffi::c_long,
}

impl Loading {
    /// Starts giving freed pages back at once.
    pub fn start() -> Loading {
        // SAFETY: reading and setting a mimalloc option is allowed at any time; the option
        // only changes when freed pages are given back. (If the program's allocator is not
        // mimalloc, mimalloc holds nothing and the option changes nothing.)
        let delay = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
        Loading { delay }
    }
}

impl Drop for Loading {
    fn drop(&mut self) {
        // SAFETY: as in `start`.
        unsafe {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, self.delay);
            // What the load freed in its last moments goes back too.
            libmimalloc_sys::mi_collect(true);
        }
    }
}
