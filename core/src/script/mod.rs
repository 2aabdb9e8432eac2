//! The script API: the `Card` userdata (`card.rs`), the kernel functions scripts reach
//! through `ctx` (`api.rs`) and the prelude that builds `ctx` (`prelude.lua`). The sandbox
//! they run in is `crate::sandbox`.

pub mod api;
pub mod card;
