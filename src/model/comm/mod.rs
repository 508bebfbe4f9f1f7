//! Communication (seed 002, Nasri–Steffenel–Trystram): point-to-point models fitted to
//! ping-pong measurements ([`p2p`]), broadcast times per algorithm ([`collectives`]), logical
//! clusters of a latency matrix and grid-aware broadcasts ([`gridcast`]), and the page
//! ([`page`]).

pub mod bcast_output;
pub mod collectives;
pub mod export;
pub mod gridcast;
pub mod p2p;
pub mod page;
pub mod request;

pub use p2p::*;
