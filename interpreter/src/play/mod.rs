//! The play layer: a game in progress and who plays it.
//!
//! The session (one object-safe trait whatever the board width), players and their AI, the
//! compiled policies of games with dice or obligations, explanations of moves, notation (SAN,
//! the game's own), views for the CLI and the web page, and perft. It builds on
//! [`crate::rules`] and [`crate::core`]; nothing below calls up into it.

pub mod action;
pub mod ai;
pub mod describe;
pub mod explain;
pub mod perft;
pub mod policy;
pub mod san;
pub mod session;
pub mod view;
