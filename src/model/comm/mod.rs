//! Communication (seed 002, Nasri–Steffenel–Trystram): point-to-point models fitted to
//! ping-pong measurements ([`p2p`]), broadcast times per algorithm ([`collectives`]), and the
//! page ([`page`]). The seed's logical clusters and grid-aware broadcasts are the "Broadcast
//! across sites" calculator's, `model::sites`.

pub mod bcast_output;
pub mod collectives;
pub mod export;
pub mod p2p;
pub mod page;
pub mod request;

pub use p2p::*;
