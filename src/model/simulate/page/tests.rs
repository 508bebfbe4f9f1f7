use super::*;
use crate::model::catalog::presets as catalog;
use crate::model::simulate::job::{Progress, Simulation, Stepper};

fn run(inputs: &PageInputs) -> Report {
    let (job, _) = prepare(inputs, &catalog()).unwrap();
    Simulation::new(job).unwrap().run_to_end().unwrap()
}

#[test]
fn catalog_fabrics_become_machines() {
    let machines = catalog_machines(&catalog());
    let ma = machines.iter().find(|m| m.label == "bwGRiD Mannheim — InfiniBand 20 Gbit/s").expect("listed");
    let get = |k: &str| ma.fields.iter().find(|(f, _)| *f == k).map(|(_, v)| v.as_str());
    assert_eq!(get("machine"), Some("fitted"));
    assert_eq!(get("latency_us"), Some("2"));
    // 1430.5 MB/s of 2^20 bytes is 12000 Mbit/s (1.5 GB/s), to the catalog's rounding.
    let mbit: f64 = get("bandwidth_mbit_s").and_then(|v| v.parse().ok()).expect("a number");
    assert!((mbit - 12000.0).abs() < 0.1, "{mbit}");
    assert_eq!(get("procs_per_node"), Some("8"));
    // The fields prepare into a job on that line.
    let mut inputs = default_inputs();
    for (k, v) in &ma.fields {
        inputs.insert(k.to_string(), v.clone());
    }
    inputs.insert(Field::Numprocs.key().into(), "8 16".into());
    assert!(prepare(&inputs, &catalog()).is_ok());
}

#[test]
fn every_preset_prepares_and_runs_small() {
    for e in presets() {
        let mut inputs = e.inputs;
        inputs.insert(Field::Numprocs.key().into(), "2 4".into());
        inputs.insert(Field::Replications.key().into(), "3".into());
        inputs.insert(Field::Params.key().into(), "iterations = 20\ntransforms = 2\ntasks = 20".into());
        let v = view(&run(&inputs));
        assert_eq!(v.rows.len(), 2, "{}", e.key);
        assert!(v.rows.iter().all(|r| r.mean_s > 0.0 && r.speedup > 0.0), "{}", e.key);
        assert_eq!(v.curves.len(), 4, "{}", e.key);
        assert!(v.timeline.is_some());
        assert!(v.deadlock.is_none());
        assert_eq!(v.rows[0].histogram.iter().map(|b| b.2).sum::<u32>(), 3);
    }
}

#[test]
fn errors_name_fields() {
    let mut inputs = default_inputs();
    inputs.insert(Field::Numprocs.key().into(), "2 x".into());
    inputs.insert(Field::Mode.key().into(), "median".into());
    inputs.insert(Field::Replications.key().into(), "0".into());
    inputs.insert(Field::Params.key().into(), "xsize 3".into());
    let errs = prepare(&inputs, &catalog()).unwrap_err();
    let fields: Vec<&str> = errs.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, ["params", "numprocs", "mode", "replications"]);
    let mut inputs = default_inputs();
    inputs.insert(Field::Numprocs.key().into(), "3".into());
    let e = &prepare(&inputs, &catalog()).unwrap_err()[0];
    assert_eq!(e.field, "skeleton");
    assert!(e.message.contains("to = 3 is not a process"), "{e}");
    let mut inputs = default_inputs();
    inputs.insert(Field::Machine.key().into(), "histograms".into());
    inputs.insert(Field::Histograms.key().into(), "1024 2 1 10 20 5\n1024 2 1 15 30 5".into());
    let e = &prepare(&inputs, &catalog()).unwrap_err()[0];
    assert_eq!((e.field.as_str(), e.line), ("histograms", Some(2)));
}

#[test]
fn a_long_chain_through_a_share_link_or_a_workspace_is_an_error_not_a_crash() {
    // 17,000 terms deflate to a link of a few hundred characters.
    let mut inputs = default_inputs();
    inputs.insert(Field::Skeleton.key().into(), format!("Serial time = 1{}", "+0".repeat(17_000)));
    let link = crate::model::workspace::share::encode(PAGE, &inputs, &catalog());
    assert!(link.len() < 400, "{} characters", link.len());
    let shared = crate::model::workspace::share::decode(&link).expect("a valid link");
    let e = &prepare(&shared.inputs, &catalog()).unwrap_err()[0];
    assert_eq!((e.field.as_str(), e.line, e.column), ("skeleton", Some(1), Some(16 + 2 * 255)), "{e}");
    let mut ws = crate::model::workspace::Workspace::default();
    ws.pages.insert(PAGE.into(), inputs);
    let ws = crate::model::workspace::Workspace::from_json("imported file", &ws.to_json()).expect("a valid workspace");
    assert!(prepare(&ws.pages[PAGE], &catalog()).is_err());
}

#[test]
fn deadlock_shows_as_a_view() {
    let mut inputs = default_inputs();
    inputs.insert(Field::Skeleton.key().into(), "Message type = MPI_Recv, from = (procnum + 1) % numprocs".into());
    inputs.insert(Field::Numprocs.key().into(), "3".into());
    let v = view(&run(&inputs));
    let d = v.deadlock.unwrap();
    assert_eq!(d.blocked.len(), 3);
    assert!(v.summary.contains("Deadlock"));
}

#[test]
fn no_computing_says_there_is_no_speedup() {
    let mut inputs = default_inputs();
    inputs.insert(Field::Skeleton.key().into(), "Loop iterations = 10 {\n Message type = MPI_Send, size = 1024, to = 1 - procnum\n Message type = MPI_Recv, from = 1 - procnum\n}".into());
    inputs.insert(Field::Numprocs.key().into(), "2".into());
    inputs.insert(Field::Params.key().into(), String::new());
    inputs.insert(Field::Replications.key().into(), "3".into());
    let v = view(&run(&inputs));
    assert_eq!(v.sequential_s, 0.0);
    assert!(
        v.summary
            .starts_with("The skeleton computes nothing, so there is no speed-up to show; the fastest is 2 processes"),
        "{}",
        v.summary
    );
}

#[test]
fn histogram_counts_every_time() {
    let h = histogram(&[1.0, 2.0, 2.0, 3.0], 2);
    assert_eq!(h, vec![(1.0, 2.0, 1), (2.0, 3.0, 3)]);
    assert_eq!(histogram(&[5.0; 3], 4), vec![(5.0, 5.0, 3)]);
    assert!(histogram(&[], 4).is_empty());
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    fn numbers(v: &ResultView) -> Vec<f64> {
        let mut out = vec![v.sequential_s];
        for r in &v.rows {
            out.extend([r.mean_s, r.ci95_s[0], r.ci95_s[1], r.sd_s, r.speedup, r.messages_per_run]);
            out.extend(r.histogram.iter().flat_map(|b| [b.0, b.1]));
            out.extend(r.procs.iter().flatten());
        }
        out.extend(v.curves.iter().flat_map(|c| c.points.iter().flat_map(|p| [p.1, p.2])));
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

        /// Whatever is typed into any field, preparing never panics, and a run (bounded
        /// here to a slice of steps) shows only finite numbers.
        #[test]
        fn any_text_in_any_field(
            field in prop::sample::select(Field::ALL.to_vec()),
            text in "[0-9eE.,;\\t \\n+-]{0,30}|[a-z]{0,8}|[0-9]{1,12}|(Serial time = |Loop iterations = |procnum|numprocs|[-0-9.e]{1,6}|[{}()%*/ ]){0,12}",
        ) {
            let mut inputs = default_inputs();
            inputs.insert(Field::Params.key().into(), "iterations = 5".into());
            inputs.insert(Field::Numprocs.key().into(), "2 4".into());
            inputs.insert(Field::Replications.key().into(), "2".into());
            inputs.insert(Field::LatencyUs.key().into(), "50".into());
            inputs.insert(Field::Histograms.key().into(), "1024 2 1 100 200 3\n1024 2 1 200 300 1".into());
            inputs.insert(field.key().to_string(), text);
            if let Ok((job, _)) = prepare(&inputs, &catalog()) {
                if let Ok(sim) = Simulation::new(job) {
                    let mut sim = Stepper::new(sim);
                    if let Ok(Progress::Done) = sim.step(200_000) {
                        for x in numbers(&view(&sim.report())) {
                            prop_assert!(x.is_finite(), "{field:?}: {x}");
                        }
                    }
                }
            }
        }
    }
}
