//! Integration tests of the `riffle` tool, in one binary to save link time.

mod cli;
mod common;
mod content;
mod editor;
mod games;
mod gundam;
mod hidden;
mod hostile;
mod live;
mod properties;
mod reference;
mod rules;
mod scenarios;
mod schemas;
mod serve;
mod summoner_master;
