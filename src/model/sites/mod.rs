//! Broadcast across sites (seed 002, Nasri–Steffenel–Trystram, its grid half): logical
//! clusters of a measured latency matrix and the grid-aware broadcasts ECEF and ECEF-LAt
//! ([`gridcast`]), the page ([`page`]) and the command's requests ([`request`]). The
//! broadcast algorithms inside a cluster and the latency share are `model::comm`'s.

pub mod gridcast;
pub mod page;
pub mod request;
