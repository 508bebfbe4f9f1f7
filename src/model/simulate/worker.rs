//! The messages between the simulation page and its Web Workers (`ui::simulate_worker`), one
//! definition for both sides, as JSON text.
//!
//! A job crosses as the page's texts ([`ToWorker::Start`]); each worker reads them through the
//! page's own [`super::page::prepare`], the same validators and limits, in about 0.3 ms
//! (`bench_worker_prepare`). The parsed [`super::job::Job`] does not cross: its skeleton is a
//! tree up to [`super::lang::MAX_EXPR_DEPTH`] deep, deeper than serde_json reads (128), and
//! its serialisation would be code in the page's wasm, whose budget has little room.
//!
//! The payload types are parameters so that each side instantiates only what it reads: the
//! page reads the view and passes the partial results on unread ([`serde::de::IgnoredAny`]).

use serde::{Deserialize, Serialize};

use super::job::Partial;
use super::page::ResultView;

/// What the page posts to a simulation worker: `{"start": {"inputs": …, "worker": w,
/// "workers": k}}`, or `"bench"` (the engine's benchmark, for the browser tests).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToWorker<I> {
    /// Worker `worker` of `workers` runs its share of the job of these texts.
    Start { inputs: I, worker: usize, workers: usize },
    /// Run `ui::bench::jacobi_study` and answer [`FromWorker::BenchMs`].
    Bench,
}

/// What a simulation worker posts: `{"progress": {"fraction": f, "messages": m}}` about every
/// 100 ms of its share (m: the messages it has simulated so far); a worker
/// other than 0 then `{"partials": […]}`, which the page's pool passes to worker 0
/// ([`crate::model::workers::PASS_ON`]); worker 0 `{"done": view}` once every share is in; any
/// worker `{"errors": [text]}` (the texts do not prepare) or `{"error": text}` (the run
/// stopped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWorker<V = ResultView, P = Vec<Partial>> {
    Progress { fraction: f64, messages: u64 },
    Partials(P),
    Done(V),
    Errors(Vec<String>),
    Error(String),
    BenchMs(f64),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::simulate::page::default_inputs;
    use crate::model::workers::PASS_ON;

    #[test]
    fn messages_read_back_and_keep_their_shapes() {
        let start = ToWorker::Start { inputs: default_inputs(), worker: 1, workers: 2 };
        let text = serde_json::to_string(&start).expect("writes");
        assert!(text.starts_with("{\"start\":{\"inputs\":{"), "{text}");
        assert_eq!(serde_json::from_str::<ToWorker<crate::model::workspace::PageInputs>>(&text).expect("reads"), start);
        // The browser tests post this and read `bench_ms`.
        assert_eq!(serde_json::to_string(&ToWorker::<()>::Bench).expect("writes"), "\"bench\"");
        assert_eq!(serde_json::to_string(&FromWorker::<(), ()>::BenchMs(2.5)).expect("writes"), "{\"bench_ms\":2.5}");
        let partials: FromWorker = FromWorker::Partials(vec![Partial::default()]);
        let text = serde_json::to_string(&partials).expect("writes");
        assert!(text.starts_with(PASS_ON), "{text}");
        assert_eq!(serde_json::from_str::<FromWorker>(&text).expect("reads"), partials);
        // The page reads the same text, the partial results unread.
        let seen: FromWorker<serde::de::IgnoredAny, serde::de::IgnoredAny> =
            serde_json::from_str(&text).expect("reads");
        assert!(matches!(seen, FromWorker::Partials(_)));
        let progress =
            serde_json::to_string(&FromWorker::<(), ()>::Progress { fraction: 0.25, messages: 1200 }).expect("writes");
        assert_eq!(progress, "{\"progress\":{\"fraction\":0.25,\"messages\":1200}}");
        let errors: FromWorker<(), ()> = serde_json::from_str("{\"errors\":[\"a\",\"b\"]}").expect("reads");
        assert_eq!(errors, FromWorker::Errors(vec!["a".into(), "b".into()]));
    }
}
