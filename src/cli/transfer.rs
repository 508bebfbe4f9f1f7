//! `scalewise transfer`: the same job on another machine. From a strong-scaling series
//! measured on machine A and both machines' figures, the times on machine B, each labelled a
//! transfer with its 90 % range and how much wider that is than a same-machine range. The
//! model is `model::transfer`; this file reads the JSON and writes the answer.

use crate::model::transfer::request::TransferRequest;
use crate::model::transfer::{self, Bound, Transfer};
use crate::model::InputError;

use super::Subcommand;

pub const COMMAND: Subcommand = Subcommand {
    name: "transfer",
    summary: "the same job on another machine: times on B from runs on A, scaled by the two machines' figures",
    help: HELP,
    run: super::run_command::<TransferCommand>,
    reads_input: true,
    each: None,
    schema: super::schemas_of::<TransferCommand>(),
};

const HELP: &str = r#"scalewise transfer — the same job on another machine: predict a code's times on machine B
from a strong-scaling series measured on machine A

MODEL:
    The measured times are read as T_A(n) = s + p/n + c·log2 n (s, p, c ≥ 0, least squares
    on relative residuals). On B: T_B(n) = r·(s + p/n) + f·c·log2 n, with
      r  A's over B's FP64 peak per core (bound "compute"), or A's over B's memory bandwidth
         per core, memory_bandwidth_gb_s / cores_per_node (bound "memory"). "compute" is the
         default: its 90 % ranges held 92 % of the measurements on codes held out whole, the
         memory bound's 82 % (33 pairs of machines, VALIDATION.md "The same job on another
         machine"); "memory" has the smaller median error, 30 % against 37 %, and suits a
         code known to be bandwidth-bound;
      f  B's over A's time for a 64 KiB message, latency_us + bytes / bandwidth_mb_s (one of
         the two alone when only it is known on both; 1 when neither, which the answer says).
    Every prediction is a transfer: its 90 % range is the prediction times e^(q·u), u =
    1 + ln(max(h, 1)) (h = n over A's largest measured count), q the quantiles measured on
    the validation pairs (each code held out in turn, VALIDATION.md says how often they held);
    widening is that range's width in ln(high/low) over the range a same-machine prediction
    at the same horizon gets (same_machine_low_s, _high_s).

USAGE:
    scalewise transfer [FILE|-] [--compact]

INPUT (one JSON object):
    points        [{"n": 24, "time_s": 1647.4}, ...]: the runs on A, n ≥ 1, time_s > 0; at
                  least two different n
    from, to      machine A and machine B: {"cores_per_node", "core_gflops" (FP64 peak of one
                  core, GFLOP/s), "memory_bandwidth_gb_s" (one node), "latency_us",
                  "bandwidth_mb_s"}; each may be left out, and a ratio that needs it cannot
                  be formed (an error for the bound's, a note for the fabric's)
    bound         "compute" (default) or "memory"
    predict       process counts on B (default: the measured counts)

OUTPUT:
    transfer      true: these are predictions for another machine than the runs'
    bound, level (0.9)
    track_record  {coverage, predictions, pairs}: how often ranges of this bound held on the
                  validation pairs, each code held out in turn (a note says so when below
                  the level)
    fit           {serial_s, parallel_s, comm_s, rms_rel_residual}: s, p, c on A
    ratios        {compute, fabric, fabric_basis}: r, f and how f was formed
                  (latency_and_bandwidth, latency, bandwidth, not_formed)
    predictions   [{n, time_s, low_s, high_s, compute_s, comm_s, horizon,
                  same_machine_low_s, same_machine_high_s, widening}]
    notes         what could not be formed, as sentences

EXAMPLE:
    echo '{"points": [{"n": 24, "time_s": 100}, {"n": 48, "time_s": 52}, {"n": 96, "time_s": 28}],
           "from": {"cores_per_node": 24, "core_gflops": 21.6, "memory_bandwidth_gb_s": 119.4},
           "to": {"cores_per_node": 36, "core_gflops": 33.6, "memory_bandwidth_gb_s": 153.6},
           "predict": [36, 72, 144]}' | scalewise transfer
"#;

super::answered_command!(TransferCommand, TransferRequest, Transfer, run_transfer);

fn run_transfer(r: TransferRequest) -> Result<Transfer, InputError> {
    let bound = match r.bound.as_deref() {
        None => Bound::DEFAULT,
        Some(key) => Bound::from_key(key)
            .ok_or_else(|| InputError::new("bound", format!("expected {}, found \"{key}\"", Bound::keys())))?,
    };
    let points: Vec<(f64, f64)> = r.points.iter().map(|p| (p.n, p.time_s)).collect();
    let targets: Vec<f64> = match r.predict {
        Some(list) => list,
        None => {
            let mut ns: Vec<f64> = points.iter().map(|p| p.0).collect();
            ns.sort_by(f64::total_cmp);
            ns.dedup();
            ns
        }
    };
    transfer::transfer(&points, &r.from.into(), &r.to.into(), bound, &targets)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn machines() -> serde_json::Value {
        json!({
            "from": {"cores_per_node": 24, "core_gflops": 21.6, "memory_bandwidth_gb_s": 119.4},
            "to": {"cores_per_node": 36, "core_gflops": 33.6, "memory_bandwidth_gb_s": 153.6}
        })
    }

    fn with(extra: serde_json::Value) -> serde_json::Value {
        let mut v = machines();
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        v
    }

    #[test]
    fn an_answer_is_a_transfer_with_ranges_and_widening() {
        let v = with(
            json!({"points": [{"n": 24, "time_s": 100}, {"n": 48, "time_s": 52}, {"n": 96, "time_s": 28}], "predict": [36, 144]}),
        );
        let a = super::super::run_json(&COMMAND, v, &[]).expect("an answer");
        assert_eq!(a["transfer"], true);
        assert_eq!(a["bound"], "compute");
        assert_eq!(a["level"], 0.9);
        assert!(a["predictions"][1]["widening"].as_f64().is_some_and(|w| w > 1.0), "{a}");
        let p = &a["predictions"][0];
        assert_eq!(p["n"], 36);
        let (t, lo, hi) = (
            p["time_s"].as_f64().unwrap_or(0.0),
            p["low_s"].as_f64().unwrap_or(0.0),
            p["high_s"].as_f64().unwrap_or(0.0),
        );
        assert!(lo < t && t < hi, "{p}");
        assert_eq!(a["ratios"]["fabric_basis"], "not_formed");
        assert!(a["notes"].as_array().is_some_and(|n| !n.is_empty()));
    }

    #[test]
    fn bad_requests_name_their_key() {
        let cases = [
            (
                with(json!({"points": [{"n": 24, "time_s": 100}, {"n": 48, "time_s": 52}], "bound": "cache"})),
                "bound",
                "expected compute or memory",
            ),
            (with(json!({"points": [{"n": 0, "time_s": 100}, {"n": 48, "time_s": 52}]})), "points[0].n", "found 0"),
            (with(json!({"points": [{"n": 24, "time_s": "x"}]})), "points[0].time_s", "expected"),
            (
                json!({"points": [{"n": 24, "time_s": 100}, {"n": 48, "time_s": 52}], "from": {}, "to": {}, "bound": "compute"}),
                "from and to",
                "could not be formed",
            ),
        ];
        for (v, field, words) in cases {
            match super::super::run_json(&COMMAND, v.clone(), &[]) {
                Ok(a) => panic!("{v}: expected an error, got {a}"),
                Err(e) => {
                    assert_eq!(e.field, field, "{e}");
                    assert!(e.message.contains(words), "{e}");
                }
            }
        }
    }
}
