use super::*;
use crate::model::catalog::presets as catalog;

#[test]
fn default_page_shows_everything() {
    let v = view(&default_inputs(), &catalog());
    assert_eq!(v.format, Format::OsuLatency);
    assert!(v.p2p_error.is_none() && v.field_errors.is_empty(), "{v:?}");
    let fit = v.fit.as_ref().expect("fits");
    assert_eq!(fit.models.len(), 4);
    assert_eq!(fit.knee.map(|k| k.size_bytes), Some(65536.0), "{:?}", fit.knee);
    assert!(fit.best.is_some());
    assert_eq!(v.chart.len(), 5);
    assert_eq!(v.broadcast.len(), 4 * 4);
    assert_eq!(v.broadcast_chart.len(), <Algorithm as strum::EnumCount>::COUNT, "a curve per algorithm");
    // Seed Table 4's pattern on 20 processes: binomial at 8 KB, pipeline at 512 KB.
    let best = |m: f64| v.adapt2.iter().find(|r| r.size_bytes == m && r.procs == 20).map(|r| r.algorithm);
    assert_eq!(best(8192.0), Some(Algorithm::Binomial));
    assert_eq!(best(524288.0), Some(Algorithm::Pipeline));
    let fabric = fitted_fabric(&v, ModelKind::Hockney, "GigE fitted").expect("fabric");
    assert!(fabric.latency_us > 0.0 && fabric.bandwidth_mb_s > 50.0, "{fabric:?}");
}

#[test]
fn measured_broadcasts_drive_poly_adapt() {
    let inputs = presets().into_iter().nth(1).expect("second preset").inputs;
    let v = view(&inputs, &catalog());
    assert_eq!(v.measured.len(), 4, "{:?}", v.measured_error);
    assert_eq!(
        v.measured[0],
        MeasuredBroadcast { size_bytes: 8192.0, procs: 20, algorithm: Algorithm::Binomial, time_us: 610.0 }
    );
    let binomial = v.adapt1.iter().find(|c| c.algorithm == Algorithm::Binomial).expect("binomial");
    assert_eq!((binomial.measurements, binomial.errors.len()), (2, 4));
    assert!(v.adapt1.iter().find(|c| c.algorithm == Algorithm::Binary).is_some_and(|c| c.measurements == 0));
}

#[test]
fn bad_fields_name_themselves() {
    let mut inputs = default_inputs();
    inputs.insert(Field::Procs.key().into(), "2.5".into());
    inputs.insert(Field::Sizes.key().into(), "8 furlongs".into());
    inputs.insert(Field::LatencyShare.key().into(), "2".into());
    inputs.insert(Field::Measured.key().into(), "size procs algorithm time\n8 4 scatter 10".into());
    let v = view(&inputs, &catalog());
    assert!(v.field_errors[Field::Procs.key()].contains("whole number"));
    assert!(v.field_errors[Field::Sizes.key()].contains("furlongs"), "{:?}", v.field_errors);
    assert!(v.field_errors[Field::LatencyShare.key()].contains("from 0 to 1"), "{:?}", v.field_errors);
    let e = v.measured_error.expect("measured error");
    // Column 5: the character where "scatter" starts (not the third cell).
    assert_eq!((e.line, e.column), (Some(2), Some(5)));
    assert!(e.message.contains("unknown algorithm \"scatter\""), "{e}");
}

#[test]
fn the_page_reads_the_point_to_point_fields() {
    let keys: Vec<&str> = Field::ALL.iter().map(|f| f.key()).collect();
    assert_eq!(keys, ["p2p", "p2p_format", "latency_share", "procs", "sizes", "bcast_model", "measured"]);
    // The presets and defaults hold this page's fields only.
    for p in presets() {
        assert!(p.inputs.keys().all(|k| keys.contains(&k.as_str())), "{}: {:?}", p.key, p.inputs.keys());
    }
}

#[test]
fn sizes_in_many_spellings() {
    assert_eq!(parse_sizes("8KB 512kb, 1 MB; 65536 2 k"), Ok(vec![8192.0, 524288.0, 1048576.0, 65536.0, 2048.0]));
    assert!(parse_sizes("KB").is_err());
    assert!(parse_sizes("1.5").is_err());
    assert_eq!(parse_sizes(""), Ok(vec![]));
}

/// Every number the page would show.
fn numbers(v: &PageView) -> Vec<f64> {
    let mut out = Vec::new();
    if let Some(f) = &v.fit {
        out.extend(f.sizes_bytes.iter().chain(&f.times_us));
        for m in &f.models {
            out.extend(m.model.params().iter().map(|p| p.1));
            out.extend(m.rel_errors.iter().copied().chain([m.mean_rel_error]).chain(m.loo_rel_error));
        }
        if let Some(k) = &f.knee {
            out.extend([k.size_bytes, k.last_eager_bytes, k.jump_us, k.residual_ratio]);
        }
    }
    for s in v.chart.iter().chain(&v.broadcast_chart) {
        out.extend(s.points.iter().flat_map(|p| [p.0, p.1]));
    }
    for r in &v.broadcast {
        out.extend(r.times.iter().map(|t| t.time_us).chain(r.times.iter().filter_map(|t| t.segment_bytes)));
    }
    for c in &v.adapt1 {
        out.extend(c.errors.iter().map(|e| e.1));
    }
    for r in &v.adapt2 {
        out.extend(r.candidates.iter().map(|c| c.1.time_us).chain([r.time_us]));
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// Whatever is typed into any field, the page evaluates without panicking and shows
    /// only finite numbers.
    #[test]
    fn any_text_in_any_field(
        field in proptest::sample::select(Field::ALL.to_vec()),
        text in "[0-9eE.,;\\t \\n+-]{0,40}|[a-z#()µ ]{0,12}|[0-9]{1,14}|[0-9 \\n]{0,30}",
    ) {
        let mut inputs = presets().into_iter().nth(1).map(|p| p.inputs).unwrap_or_default();
        inputs.insert(field.key().to_string(), text);
        let v = view(&inputs, &catalog());
        for x in numbers(&v) {
            proptest::prop_assert!(x.is_finite(), "{field:?}: {x}");
        }
    }
}

#[test]
fn raw_osu_bcast_output_is_a_measured_broadcast() {
    let mut inputs = default_inputs();
    let osu = "# algorithm binomial procs 20\n# OSU MPI Broadcast Latency Test v7.0\n\
               # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n\
               8192                  610.00            500.00            700.00        1000\n\
               524288               9000.00           8000.00           9900.00         100\n";
    inputs.insert(Field::Measured.key().to_string(), osu.to_string());
    let v = view(&inputs, &catalog());
    assert_eq!(v.measured_error, None);
    assert_eq!(v.measured.len(), 2);
    assert_eq!(
        v.measured[1],
        MeasuredBroadcast { size_bytes: 524288.0, procs: 20, algorithm: Algorithm::Binomial, time_us: 9000.0 }
    );
    let binomial = v.adapt1.iter().find(|c| c.algorithm == Algorithm::Binomial).expect("binomial");
    assert_eq!(binomial.measurements, 2);
    assert!(!binomial.errors.is_empty());
    // The measured cases join the Poly-adapt-2 table.
    assert!(v.adapt2.iter().any(|r| r.size_bytes == 524288.0 && r.procs == 20));
}

#[test]
fn the_broadcast_chart_is_drawn_in_the_chosen_model() {
    let mut inputs = default_inputs();
    let best = view(&inputs, &catalog()).fit.and_then(|f| f.best);
    assert_eq!(view(&inputs, &catalog()).broadcast_chart_model, best);
    inputs.insert(Field::BcastModel.key().into(), "hockney".into());
    let v = view(&inputs, &catalog());
    assert_eq!(v.broadcast_chart_model, Some(ModelKind::Hockney));
    let fit = v.fit.as_ref().expect("fits");
    let (procs, share) = broadcast_basis(&inputs);
    let split = Split::new(fit.model(ModelKind::Hockney).expect("hockney"), share);
    for s in &v.broadcast_chart {
        let a = Algorithm::from_key(&s.label).expect("named by its algorithm");
        for &(m, t) in &s.points {
            assert_eq!(t, crate::model::comm::collectives::broadcast(&split, a, procs.expect("procs"), m).time_us);
        }
    }
    // A model that is not fitted falls back to the best.
    inputs.insert(Field::BcastModel.key().into(), "nonsense".into());
    assert_eq!(view(&inputs, &catalog()).broadcast_chart_model, best);
}

/// The page reads every name of every algorithm the command reads (issue 46: a name with a
/// hyphen worked in the command and was refused here), in any case, and a number with an
/// exponent beside one is still a number.
#[test]
fn the_table_reads_every_name_the_command_reads() {
    for a in Algorithm::all() {
        for name in std::iter::once(&a.key()).chain(a.names()).flat_map(|n| [n.to_string(), n.to_uppercase()]) {
            let mut inputs = default_inputs();
            inputs
                .insert(Field::Measured.key().to_string(), format!("size procs algorithm time\n8 20 {name} 6.1e-1\n"));
            let v = view(&inputs, &catalog());
            assert_eq!(v.measured_error, None, "{name}");
            assert_eq!(v.measured.iter().map(|m| (m.algorithm, m.time_us)).collect::<Vec<_>>(), [(a, 0.61)], "{name}");
        }
    }
    assert!(Algorithm::Binary.names().contains(&"binary-tree"));
}
