//! The handlers, one module per kind of message; `server.rs` owns the state they share.

pub(super) mod commands;
pub(super) mod documents;
pub(super) mod lifecycle;
pub(super) mod requests;
