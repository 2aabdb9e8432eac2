//! `riffle._riffle`: the Rust half of the `riffle` Python package (python/py/riffle). The
//! Python half wraps these in friendlier classes; everything here takes and gives plain
//! values (numbers, strings of JSON, lists), so the package needs no other Rust crate.

mod content;
mod simulate;
mod state;
mod vector;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _riffle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<content::Content>()?;
    m.add_class::<state::GameState>()?;
    m.add_class::<vector::VectorGames>()?;
    m.add_class::<simulate::Simulator>()?;
    m.add_function(wrap_pyfunction!(simulate::simulate, m)?)?;
    m.add("ACTIONS", riffle_agents::actions::ACTIONS)?;
    m.add("DONE", riffle_agents::actions::DONE)?;
    m.add("CARD_ROWS", riffle_agents::encoding::CARD_ROWS)?;
    m.add("TERMINAL", state::TERMINAL)?;
    m.add("OPTION_SLOTS", vector::OPTION_SLOTS)?;
    Ok(())
}

/// A Python `ValueError` from any message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    pyo3::exceptions::PyValueError::new_err(e.to_string())
}
