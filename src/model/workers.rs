//! What every page's Web Workers agree on. Each worker's messages are one pair of enums in its
//! model (`simulate::worker`, `bottlenecks::worker`), written by one side and read by the other as
//! JSON text; `ui::worker_pool` passes some on unread.

/// How a worker's share of a job begins as JSON (`{"partials": …}`, an externally tagged
/// `Partials` variant): the pool passes such a message to worker 0, which collects, without
/// reading it.
pub const PASS_ON: &str = "{\"partials\"";
