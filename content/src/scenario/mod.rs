//! The scenario file format (`*.test.yaml`): its types, which `schema/scenario.schema.json`
//! is generated from, and the bounds on what a scenario may ask for. Running scenarios is
//! the `riffle` tool's (`riffle test`); the format lives here because content folders hold
//! scenario files and `riffle validate` checks them with the other content schemas.

pub mod format;
pub mod limits;
