//! The variant language.
#![warn(missing_docs)]

pub mod ast;
pub mod betza;
pub mod definition;
pub mod diagnostic;
pub mod parse;
pub mod span;
mod suggestion;
