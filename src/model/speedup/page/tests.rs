use super::*;
use crate::model::catalog::presets as catalog;

/// The page's view of some input texts.
fn evaluate(texts: &PageInputs) -> PageView {
    view(texts, &catalog())
}

/// The inputs of the preset with this key.
fn preset(key: &str) -> PageInputs {
    presets().into_iter().find(|p| p.key == key).map(|p| p.inputs).expect("preset")
}

fn with(key: &str, text: &str) -> PageInputs {
    let mut i = default_inputs();
    i.insert(key.to_string(), text.to_string());
    i
}

#[test]
fn the_lead_names_every_rival_of_downey_s_model() {
    let rivals: Vec<&str> = MODELS.iter().skip(1).map(|m| m.label().split(['/', ' ']).next().unwrap_or("")).collect();
    for r in rivals {
        assert!(LEAD.contains(r), "the lead does not name {r}");
    }
    assert!(LEAD.contains(&format!(" fitted next to {}, with their uncertainty", crate::model::fit::RIVALS)));
}

#[test]
fn example_5_1_on_the_page() {
    let v = evaluate(&default_inputs());
    assert!(v.points_error.is_none() && v.field_errors.is_empty(), "{:?} {:?}", v.points_error, v.field_errors);
    let d = v.models.iter().find(|r| r.model == Model::Downey).expect("downey row");
    assert!(d.sse.is_some_and(|s| s < 0.2940), "{:?}", d.sse);
    assert_eq!(d.params[0].name, "A");
    assert!(d.params[0].text.starts_with("24.87 ± "), "{}", d.params[0].text);
    assert!(
        d.params[1].text.starts_with("0.8055 ± ") || d.params[1].text.starts_with("0.8056 ± "),
        "{}",
        d.params[1].text
    );
    assert_eq!(v.models.len(), MODELS.len());
    assert_eq!(v.models.iter().filter(|r| r.is_best).count(), 1);
    assert!(!v.best_reason.is_empty());
    assert_eq!(v.targets, vec![128]);
    assert_eq!(v.best_predictions.len(), 1);
    let c = v.chart.as_ref().expect("a chart");
    assert_eq!(c.curves.len(), MODELS.len());
    let xs: Vec<f64> = c.curves[0].1.points.iter().map(|p| p.0).collect();
    assert_eq!(xs.len(), CHART_POINTS);
    assert!((xs[0] - 1.0).abs() < 1e-12 && (xs[CHART_POINTS - 1] - 128.0).abs() < 1e-9);
    assert_eq!(c.measured.points.iter().map(|p| p.0).collect::<Vec<_>>(), vec![2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
    assert!(c.band.is_some());
    assert!(v.points.iter().all(|p| p.karp_flatt.is_some() && p.efficiency.is_some()));
}

#[test]
fn every_preset_evaluates() {
    let all = presets();
    for p in &all {
        let v = evaluate(&p.inputs);
        assert!(v.points_error.is_none(), "{}: {:?}", p.key, v.points_error);
        assert!(v.best.is_some(), "{}: no best", p.key);
        assert!(!v.advice_text.is_empty(), "{}", p.key);
    }
    // Keys name presets in tests and links: one each.
    assert!(all.iter().enumerate().all(|(i, p)| all[..i].iter().all(|q| q.key != p.key)));
    assert_eq!(default_inputs(), preset("example-5-1"));
    // The no-1-process preset fits T1 near the 3600 s it was made with.
    let v = evaluate(&preset("linear-nonlinear"));
    assert_eq!(v.space, Some(Space::Time));
    let d = v.models.iter().find(|r| r.model == Model::Downey).expect("downey");
    let t1 = d.params.iter().find(|p| p.name == "T1").expect("T1 fitted").value;
    assert!((t1 - 3600.0).abs() < 100.0, "T1 = {t1}");
    // The decline preset flags the points after n = 48.
    let v = evaluate(&preset("decline"));
    let past: Vec<u32> = v.points.iter().filter(|p| p.past_peak).map(|p| p.n).collect();
    assert_eq!(past, vec![64, 96, 128]);
    assert_eq!(v.chart.as_ref().map(|c| c.excluded.points.len()), Some(3));
    let v = evaluate(&{
        let mut i = preset("decline");
        i.insert("include_past_peak".into(), "1".into());
        i
    });
    assert_eq!(v.models.iter().find(|r| r.model == Model::Downey).map(|r| r.points_used), Some(10));
}

#[test]
fn tables_in_several_forms() {
    // Headerless: the second column is what second_column says.
    let v = evaluate(&with("points", "2 2.00\n4 3.92\n8 7.25\n16 13.29\n32 20.23\n64 24.95"));
    assert_eq!(v.measure, Some(Measure::Speedup));
    let mut i = with("points", "1,100\n2,52\n4,27\n8,15");
    i.insert("second_column".into(), "time".into());
    let v = evaluate(&i);
    assert_eq!((v.measure, v.t1_measured), (Some(Measure::TimeS), Some(100.0)));
    // Times in milliseconds, columns in another order, a weight column.
    let v = evaluate(&with("points", "weight,time (ms),np\n1,100000,1\n2,52000,2\n1,27000,4\n1,15000,8"));
    assert_eq!(v.t1_measured, Some(100.0));
    assert_eq!(v.points[1].weight, 2.0);
    let mut i = with("points", "n time\n1 100\n2 50\n4 25\n8 13");
    i.insert("chart_y".into(), "time".into());
    let c = evaluate(&i).chart.expect("chart");
    assert!(c.y_is_time && c.measured.points.iter().map(|p| p.1).collect::<Vec<_>>() == vec![100.0, 50.0, 25.0, 13.0]);
}

#[test]
fn errors_name_field_line_and_column() {
    let v = evaluate(&with("points", "n\tspeedup\n2\t2\n4\tabc"));
    let e = v.points_error.expect("error");
    // Column 3: the character where "abc" starts (issue 45, item 21).
    assert_eq!((e.line, e.column), (Some(3), Some(3)));
    let v = evaluate(&with("points", "2 2\n0 1"));
    let e = v.points_error.expect("error");
    assert_eq!((e.line, e.column), (Some(2), Some(1)));
    assert!(e.message.contains("whole number"), "{e}");
    let v = evaluate(&with("points", "2 2\n2.5 1"));
    assert!(v.points_error.is_some_and(|e| e.line == Some(2) && e.message.contains("whole number")));
    let v = evaluate(&with("points", "n\tweight\n2\t1"));
    assert!(v.points_error.is_some_and(|e| e.message.contains("time or a speedup")));
    let mut i = with("target", "64, lots");
    i.insert("models".into(), "downey, nonsense".into());
    i.insert("chart_axes".into(), "cubic".into());
    let v = evaluate(&i);
    assert!(v.field_errors["target"].contains("\"lots\""));
    assert!(v.field_errors["models"].contains("nonsense"));
    assert!(v.field_errors.contains_key("chart_axes"));
    assert_eq!(v.models.len(), 1, "only Downey asked for");
    assert!(evaluate(&with("points", "")).points_error.is_some());
}

#[test]
fn fields_are_read_once_into_typed_inputs() {
    // The defaults hold every field, under the keys of saved workspaces and share links.
    let keys: Vec<&str> = Field::ALL.iter().map(|f| f.key()).collect();
    assert_eq!(default_inputs().keys().map(String::as_str).collect::<Vec<_>>(), {
        let mut k = keys.clone();
        k.sort_unstable();
        k
    });
    let (inputs, errors) = parse(&default_inputs());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        (inputs.targets.as_slice(), inputs.models.len(), inputs.log_axes, inputs.chart_time),
        (&[128][..], MODELS.len(), true, false)
    );
    let table = inputs.points.as_ref().expect("points");
    assert_eq!((table.raw.len(), table.measure, table.had_header), (6, Measure::Speedup, true));
    // A field with an error is read as its default, its error named by its key.
    let (inputs, errors) = parse(&with("chart_axes", "cubic"));
    assert!(inputs.log_axes);
    assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["chart_axes"]);
    // evaluate computes from the typed inputs alone.
    assert_eq!(evaluate(&default_inputs()), super::evaluate(&parse(&default_inputs()).0, &catalog()));
}

#[test]
fn toggles() {
    for (t, on) in
        [("1", true), ("true", true), (" on ", true), ("yes", true), ("", false), ("0", false), ("no", false)]
    {
        assert_eq!(is_on(t), on, "{t:?}");
    }
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    /// Every number the page would show.
    fn numbers(v: &PageView) -> Vec<f64> {
        let mut out = Vec::new();
        out.extend(v.t1_measured);
        for p in &v.points {
            out.extend([p.value, p.weight]);
            out.extend([p.speedup, p.time_s, p.efficiency, p.karp_flatt].into_iter().flatten());
        }
        let preds = |ps: &[Prediction], out: &mut Vec<f64>| {
            for p in ps {
                out.extend([p.speedup, p.speedup_low, p.speedup_high, p.efficiency]);
                if let Some((a, b, c)) = p.time_s {
                    out.extend([a, b, c]);
                }
            }
        };
        for r in &v.models {
            out.extend([r.sse, r.aicc, r.loo].into_iter().flatten());
            out.extend(r.params.iter().flat_map(|p| [Some(p.value), p.std_err]).flatten());
            out.extend(r.residuals.iter().map(|x| x.1));
            preds(&r.predictions, &mut out);
        }
        preds(&v.best_predictions, &mut out);
        if let Some(c) = &v.chart {
            for s in c.curves.iter().map(|c| &c.1).chain([&c.measured, &c.excluded]) {
                out.extend(s.points.iter().flat_map(|p| [p.0, p.1]));
            }
            if let Some(b) = &c.band {
                out.extend(b.points.iter().flat_map(|p| [p.0, p.1, p.2]));
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Whatever is typed into any field, the page evaluates without panicking and
        /// shows only finite numbers.
        #[test]
        fn any_text_in_any_field(
            key in prop::sample::select(Field::ALL.iter().map(|f| f.key()).collect::<Vec<_>>()),
            text in "[0-9eE.,;\\t \\n+-]{0,40}|[a-z_ ]{0,12}|[0-9]{1,12}|(n|time|speedup|weight|np)[ \\t,(ms)]{0,6}[0-9 .\\n]{0,30}",
            preset in prop::sample::select(vec!["example-5-1", "linear", "linear-nonlinear", "decline"]),
        ) {
            let mut inputs = super::preset(preset);
            inputs.insert("chart_y".into(), "time".into());
            inputs.insert(key.to_string(), text);
            let view = evaluate(&inputs);
            for x in numbers(&view) {
                prop_assert!(x.is_finite(), "{key}: {x}");
            }
        }
    }
}

#[test]
fn a_headerless_second_column_is_read_as_its_data_says_and_the_reading_is_said() {
    // Times pasted without a header (issue 33: read as speed-ups, "speed-up 100 at n = 1").
    let v = evaluate(&with("points", "1 100\n2 52.4\n4 28.9\n8 17.1\n16 11.8"));
    assert_eq!(v.measure, Some(Measure::TimeS));
    assert!(
        v.warnings.iter().any(|w| w.path == "points"
            && w.message.contains("read as times in seconds (a speed-up at n = 1 is 1, and it holds 100)")),
        "{:?}",
        v.warnings
    );
    // No run at n = 1: a value far above n is no speed-up either.
    let v = evaluate(&with("points", "2 1830\n4 931\n8 492\n16 267"));
    assert_eq!(v.measure, Some(Measure::TimeS));
    // Speed-ups stay speed-ups, and that is said too.
    let v = evaluate(&with("points", "2 2.00\n4 3.92\n8 7.25\n16 13.29"));
    assert_eq!(v.measure, Some(Measure::Speedup));
    assert!(
        v.warnings.iter().any(|w| w.path == "points" && w.message.contains("read as speed-ups")),
        "{:?}",
        v.warnings
    );
    // The user's choice is kept, and a table with a header is read by its header.
    let mut i = with("points", "1 100\n2 52.4");
    i.insert("second_column".into(), "speedup".into());
    assert_eq!(evaluate(&i).measure, Some(Measure::Speedup));
    let v = evaluate(&with("points", "n time (s)\n1 100\n2 52.4\n4 28.9"));
    assert_eq!((v.measure, v.points_error.is_none()), (Some(Measure::TimeS), true));
    assert!(!v.warnings.iter().any(|w| w.path == "points" && w.message.contains("No header")));
}

#[test]
fn weak_scaling_models_the_time_and_reports_efficiency() {
    let mut i = with(Field::Points.key(), "n time\n1 10\n2 10.5\n4 11\n8 11.5\n16 12\n");
    i.insert(Field::Scaling.key().into(), "weak".into());
    i.insert(Field::Target.key().into(), "64, 1024".into());
    let v = evaluate(&i);
    assert!(v.points_error.is_none(), "{:?}", v.points_error);
    let w = v.weak.as_ref().expect("weak results");
    assert_eq!(w.formula, "10 + 0.5·log₂ n");
    assert_eq!(v.targets, [64, 1024]);
    assert!((w.predictions[1].efficiency.0 - 10.0 / 15.0).abs() < 1e-9);
    // The strong results stay empty; strong is the default.
    assert!(v.models.is_empty() && v.forecast.is_empty());
    i.insert(Field::Scaling.key().into(), "strong".into());
    assert!(evaluate(&i).weak.is_none());
    // Speed-ups cannot be weak scaling: said under the table; a wrong word by its field.
    let mut s = with(Field::Points.key(), "n speedup\n1 1\n2 1.9\n4 3.5\n");
    s.insert(Field::Scaling.key().into(), "weak".into());
    assert!(evaluate(&s).points_error.unwrap().message.contains("weak scaling needs times"));
    s.insert(Field::Scaling.key().into(), "both".into());
    assert_eq!(
        evaluate(&s).field_errors.get("scaling").map(String::as_str),
        Some("expected strong or weak, found \"both\"")
    );
}

/// The page computes weak scaling apart (in its worker): the deferred view, with the worker's
/// answer put in, is the view computed at once, whether the analysis succeeds or not, and
/// through JSON (the worker's message) as well.
#[test]
fn a_deferred_weak_view_completed_by_the_worker_is_the_view() {
    let weak = |points: &str| {
        let mut i = with(Field::Points.key(), points);
        i.insert(Field::Scaling.key().into(), "weak".into());
        i
    };
    let cases = [
        weak("n time\n1 10\n2 10.5\n4 11\n8 11.5\n16 12\n"),
        weak("1 10\n2 10.5\n4 11\n8 11.5\n"),
        weak("n speedup\n1 1\n2 1.9\n4 3.5\n"),
        weak("n time\n1 10\n1 -2\n"),
        weak("n time\n4 10\n"),
    ];
    for texts in &cases {
        let mut deferred = view_deferred(texts);
        assert!(deferred.weak_pending && deferred.weak.is_none(), "{texts:?}");
        let answer = weak_of(texts).expect("weak scaling with points");
        // As the worker sends it and the page reads it.
        let flat: crate::model::speedup::weak::Flat =
            serde_json::from_str(&serde_json::to_string(&crate::model::speedup::weak::flatten(&answer)).unwrap())
                .unwrap();
        let through_json = crate::model::speedup::weak::unflatten(&flat).expect("read back");
        assert_eq!(through_json, answer);
        apply_weak(&mut deferred, through_json);
        assert_eq!(deferred, evaluate(texts), "{texts:?}");
    }
    // Strong scaling has nothing pending, and nothing for the worker.
    let strong = default_inputs();
    assert!(!view_deferred(&strong).weak_pending);
    assert!(weak_of(&strong).is_none());
    assert_eq!(view_deferred(&strong), evaluate(&strong));
}

#[test]
fn the_forecast_is_drawn_from_its_anchor_through_the_largest_measured_point() {
    // Example 5.1 (speed-ups, no n = 1 run): the curve starts at n = 64 on the measured 24.95
    // and runs to the chart's end; nothing is drawn below the data (issue 31).
    let v = evaluate(&default_inputs());
    let c = v.chart.as_ref().expect("chart");
    let f = c.forecast.as_ref().expect("forecast");
    let (x0, y0) = f.points[0];
    assert!((x0 - 64.0).abs() < 1e-9 && (y0 - 24.95).abs() < 1e-9, "{:?}", f.points.first());
    assert!(f.points.iter().all(|p| p.0 >= 64.0 - 1e-9) && (f.points[f.points.len() - 1].0 - 128.0).abs() < 1e-9);
    assert_eq!(f.label, "forecast beyond n = 64");
    let b = c.band.as_ref().expect("band");
    assert_eq!(b.points.iter().map(|p| p.0).collect::<Vec<_>>(), f.points.iter().map(|p| p.0).collect::<Vec<_>>());
    assert!(b.points.iter().zip(&f.points).all(|(&(_, lo, hi), &(_, y))| lo <= y && y <= hi));
}

#[test]
fn nodes_in_the_table_or_cores_per_node_flag_predictions_that_leave_the_node() {
    let mut i = with(Field::Points.key(), "n\ttime (s)\tnodes\n8\t100\t1\n16\t52\t1\n32\t28\t1\n");
    i.insert(Field::Target.key().into(), "16, 128".into());
    i.insert(Field::CoresPerNode.key().into(), "32".into());
    let v = evaluate(&i);
    assert!(v.points_error.is_none() && v.field_errors.is_empty(), "{:?} {:?}", v.points_error, v.field_errors);
    assert_eq!(v.points.iter().map(|p| p.nodes).collect::<Vec<_>>(), [Some(1); 3]);
    assert!(v.forecast[0].node_note.is_none());
    let note = v.forecast[1].node_note.as_deref().expect("128 needs 4 nodes");
    assert!(note.starts_with("needs 4 nodes, and every measured run was inside one"), "{note}");
    assert!(v.forecast[1].prediction.crosses_nodes);
    // The track record: the four horizon bands for three measured counts, then the node case.
    assert_eq!(v.track_record.len(), 5);
    assert_eq!(v.track_record[1].label, "2–4×");
    assert_eq!(
        (v.track_record[0].coverage, v.track_record[0].predictions),
        (calibration::HELD_OUT[0][0].0, calibration::HELD_OUT[0][0].1)
    );
    assert_eq!(v.track_record[4].predictions, calibration::NODE_HELD_OUT.1);
    assert!(v.track_record[4].width.is_none());
    // Without the node size nothing is claimed, and the page asks for it.
    i.insert(Field::CoresPerNode.key().into(), String::new());
    let v = evaluate(&i);
    assert!(v.forecast.iter().all(|f| f.node_note.is_none()));
    assert!(
        v.warnings.iter().any(|w| w.path == "cores_per_node" && w.message.contains("give the cores per node")),
        "{:?}",
        v.warnings
    );
    i.insert(Field::CoresPerNode.key().into(), "many".into());
    assert!(evaluate(&i).field_errors.get("cores_per_node").is_some_and(|e| e.contains("whole number")));
}

#[test]
fn a_header_whose_only_count_is_nodes_reads_it_as_n() {
    let v = evaluate(&with(Field::Points.key(), "nodes\ttime (s)\n1\t100\n2\t52\n4\t28\n"));
    assert!(v.points_error.is_none(), "{:?}", v.points_error);
    assert_eq!(v.points.iter().map(|p| (p.n, p.nodes)).collect::<Vec<_>>(), [(1, None), (2, None), (4, None)]);
    // With n as well, nodes are the runs' nodes; a node count above n is named at its cell.
    let v = evaluate(&with(Field::Points.key(), "n\ttime (s)\tnodes\n1\t100\t1\n2\t52\t3\n"));
    assert!(
        v.points_error
            .as_ref()
            .is_some_and(|e| e.line == Some(3) && e.message.contains("nodes must be a whole number")),
        "{:?}",
        v.points_error
    );
}
