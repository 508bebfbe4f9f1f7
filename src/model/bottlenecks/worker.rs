//! The messages between pages and the Extra-P Web Worker (`ui::bottlenecks_worker`), one definition
//! for both sides, as JSON text. The Bottlenecks page ranks experiments on it (every worker
//! fits a share of the regions; worker 0 collects and ranks), and the speed-up page runs its
//! weak-scaling analysis and its benchmark there.
//!
//! The payload types are parameters so that a page instantiates only what it reads (the rest
//! as [`serde::de::IgnoredAny`]). The weak-scaling answer is a struct of its own,
//! [`WeakAnswer`]: the speed-up page has no room for a reader of the whole enum (2.3 KB
//! gzipped, measured).

use serde::{Deserialize, Serialize};

use super::page::ExtrapView;
use super::runs::{RunOptions, RunsSummary};
use super::RegionFit;
use crate::model::speedup::weak::Flat;

/// What a page posts to an Extra-P worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToWorker<I> {
    /// Job `job`: worker `worker` of `workers` reads the section's texts and fits its share.
    Start { texts: I, job: u64, worker: usize, workers: usize },
    /// The speed-up page's weak-scaling analysis of its texts (`speedup::page::weak_of`).
    Weak { inputs: I, job: u64 },
    /// The speed-up benchmark (`ui::bench::speedup_fits`), answered by [`FromWorker::Bench`].
    Bench { full: bool, runs: u32 },
    /// Job `job`: read the files posted with this message (Score-P runs, or one saved Extra-P
    /// experiment), `paths` their paths from the folder given, in the same order; answered by
    /// `progress` per file and [`FromWorker::Loaded`].
    Read { options: RunOptions, paths: Vec<String>, job: u64 },
}

/// A worker's message as the Bottlenecks page reads it (its ranking and its files alike: one
/// reader of the enum in the page's wasm), the other workers' partial fits passed over.
pub type PageMessage = FromWorker<ExtrapView, serde::de::IgnoredAny>;

/// What an Extra-P worker posts: per job, `progress` (this worker's share: 0 once the texts
/// are read, about every 100 ms while it fits, 1 when fitted); from a worker other than 0,
/// `partials`, which the page's pool passes to worker 0 ([`crate::model::workers::PASS_ON`]);
/// from worker 0, `done` once every share is in (at once when the texts have an error: every
/// worker finds the same). `bench` answers the benchmark (fits per second), `error` a message
/// it could not read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWorker<V = ExtrapView, P = Vec<RegionFit>> {
    Progress {
        fraction: f64,
        job: u64,
    },
    Partials {
        fits: P,
        job: u64,
        worker: usize,
    },
    Done {
        view: V,
        job: u64,
    },
    Bench(f64),
    Error(String),
    /// The files of a [`ToWorker::Read`], read: the experiment as Extra-P's text format
    /// (which the page keeps as its input) and what was read.
    Loaded {
        text: String,
        /// Boxed: the summary is the largest payload, and the enum's other messages are small.
        summary: Box<RunsSummary>,
        job: u64,
    },
    /// The files of a [`ToWorker::Read`] could not be read: why.
    Unreadable {
        message: String,
        job: u64,
    },
}

/// The answer to [`ToWorker::Weak`]: `{"weak": flat, "job": j}`, the analysis flattened
/// (`speedup::weak::flatten`; empty when there is nothing to model).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeakAnswer {
    pub weak: Flat,
    pub job: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::workers::PASS_ON;
    use crate::model::workspace::PageInputs;
    use serde::de::IgnoredAny;

    #[test]
    fn messages_read_back_and_keep_their_shapes() {
        let texts: PageInputs = [("experiment".to_string(), "x".to_string())].into_iter().collect();
        for m in [
            ToWorker::Start { texts: texts.clone(), job: 3, worker: 1, workers: 2 },
            ToWorker::Weak { inputs: texts.clone(), job: 4 },
        ] {
            let text = serde_json::to_string(&m).expect("writes");
            assert_eq!(serde_json::from_str::<ToWorker<PageInputs>>(&text).expect("reads"), m);
        }
        // What the browser tests post and read.
        assert_eq!(
            serde_json::from_str::<ToWorker<PageInputs>>("{\"bench\":{\"full\":true,\"runs\":5}}").expect("reads"),
            ToWorker::Bench { full: true, runs: 5 }
        );
        assert_eq!(serde_json::to_string(&FromWorker::<(), ()>::Bench(12.5)).expect("writes"), "{\"bench\":12.5}");
        let partials: FromWorker = FromWorker::Partials { fits: Vec::new(), job: 7, worker: 1 };
        let text = serde_json::to_string(&partials).expect("writes");
        assert!(text.starts_with(PASS_ON), "{text}");
        assert_eq!(serde_json::from_str::<FromWorker>(&text).expect("reads"), partials);
        // The Bottlenecks page reads the view and passes the shares on unread.
        let done = serde_json::to_string(&FromWorker::<ExtrapView, ()>::Done { view: ExtrapView::default(), job: 2 })
            .expect("writes");
        let seen: FromWorker<ExtrapView, IgnoredAny> = serde_json::from_str(&done).expect("reads");
        assert!(matches!(seen, FromWorker::Done { job: 2, .. }));
        let weak = WeakAnswer { weak: Flat { nums: vec![1.0], texts: vec!["a".into()] }, job: 9 };
        let text = serde_json::to_string(&weak).expect("writes");
        assert_eq!(text, "{\"weak\":{\"nums\":[1.0],\"texts\":[\"a\"]},\"job\":9}");
        assert_eq!(serde_json::from_str::<WeakAnswer>(&text).expect("reads"), weak);
    }
}
