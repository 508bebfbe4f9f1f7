//! Tests of the planner page: the worked example, errors in place, bytes per point from a run,
//! the White Rose preset, the Pareto front, the benchmark input, and any text in any field.

use super::view as page_view;
use super::*;
use crate::model::catalog::presets as catalog;

/// The White Rose preset's texts.
fn white_rose() -> PageInputs {
    presets().into_iter().find(|p| p.key == "white-rose").expect("the White Rose preset").inputs
}

fn feasible(o: &Result<Outcome, Vec<InputError>>) -> &mg::Plan {
    match o {
        Ok(Outcome::Feasible(p)) => p,
        other => panic!("expected a feasible plan, got {other:?}"),
    }
}

#[test]
fn worked_example_gives_1670_s() {
    let view = page_view(&default_inputs(), &catalog());
    let fit = view.calibrations[0].fit.as_ref().expect("the worked example fits");
    assert!((fit.alpha.d_s - 20.0).abs() < 1e-9 && fit.alpha.c_s.abs() < 1e-9);
    assert_eq!(view.target.len(), 1);
    let plan = feasible(&view.target[0].outcome);
    assert!((plan.time_s - 1670.0).abs() < 1e-6, "T(64) = {}", plan.time_s);
    assert!(view.field_errors.is_empty(), "{:?}", view.field_errors);
}

#[test]
fn errors_name_the_row_and_leave_other_calibrations_alone() {
    let mut inputs = white_rose();
    inputs.insert("cal2_par".into(), "np\twork (MB)\ttime (s)\n4\t1024\tabc\n".into());
    inputs.insert("cal3_seq".into(), "work (MB)\ttime (s)\n1024\t300\n".into());
    inputs.insert("grid_n".into(), "-5".into());
    let view = page_view(&inputs, &catalog());
    let e = &view.calibrations[1].parallel_errors;
    // Column 8: the character where "abc" starts (issue 45, item 21).
    assert_eq!((e[0].line, e[0].column), (Some(2), Some(8)), "{e:?}");
    assert!(
        view.calibrations[2].sequential_errors.iter().any(|e| e.message.contains("work size")),
        "{:?}",
        view.calibrations[2]
    );
    assert!(view.calibrations[0].fit.is_some() && view.calibrations[3].fit.is_some());
    assert!(view.field_errors["grid_n"].contains("whole number"));
    assert!(view.target.is_empty() && view.planner.is_none(), "no problem, no prediction");
}

#[test]
fn bytes_per_point_from_a_run() {
    let mut inputs = default_inputs();
    assert_eq!(page_view(&inputs, &catalog()).derived_bytes_per_point, None);
    // The paper: 1024 rows × 65536 columns in 2048 MB is 32 bytes per point.
    inputs.insert("derive_rows".into(), "1024".into());
    inputs.insert("derive_cols".into(), "65536".into());
    inputs.insert("derive_mb".into(), "2048".into());
    assert_eq!(page_view(&inputs, &catalog()).derived_bytes_per_point, Some(Ok(32.0)));
    inputs.insert("derive_cols".into(), "lots".into());
    assert!(
        matches!(page_view(&inputs, &catalog()).derived_bytes_per_point, Some(Err(m)) if m.to_string().contains("columns"))
    );
}

#[test]
fn white_rose_preset_ranks_and_splits() {
    let view = page_view(&white_rose(), &catalog());
    assert_eq!(view.pair_fabrics, vec!["Fast Ethernet".to_string()], "A and B join over Fast Ethernet only");
    let split = feasible(view.split.as_ref().expect("a split"));
    assert_eq!(split.parts.len(), 2);
    let report = match &view.planner {
        Some(Ok(r)) => r,
        other => panic!("planner: {other:?}"),
    };
    assert!(!report.ranking.is_empty());
    let times: Vec<f64> = report.ranking.iter().map(|p| p.time_s).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "ranked by time");
    // Switching A's Myrinet calibration off removes every A-over-Myrinet option.
    let mut inputs = white_rose();
    let myrinet_a = (1..=4)
        .find(|i| inputs[&format!("cal{i}_cluster")] == "wrg-a" && inputs[&format!("cal{i}_fabric")] == "Myrinet");
    let i = myrinet_a.expect("A over Myrinet is in the preset");
    inputs.insert(format!("cal{i}_fabric"), "Fast Ethernet".into());
    let view2 = page_view(&inputs, &catalog());
    let r2 = match &view2.planner {
        Some(Ok(r)) => r,
        other => panic!("planner: {other:?}"),
    };
    assert!(r2
        .ranking
        .iter()
        .all(|p| !(p.parts.len() == 1 && p.parts[0].cluster.contains("cluster A") && p.fabric == "Myrinet")));
}

/// The White Rose preset with prices, power and carbon in the costs table: A cheap and dirty,
/// B dear and clean (made-up figures, for the orders only).
fn white_rose_with_costs(rank_by: &str) -> PlannerReport {
    let mut inputs = white_rose();
    inputs.insert(
        "costs".into(),
        "wrg-a, 1, EUR, node-hour, , 300, 1.5, 800\nwrg-b, 4, EUR, node-hour, , 500, 1.1, 20".into(),
    );
    inputs.insert("rank_by".into(), rank_by.into());
    match page_view(&inputs, &catalog()).planner {
        Some(Ok(r)) => r,
        other => panic!("planner: {other:?}"),
    }
}

#[test]
fn the_ranking_orders_by_time_price_energy_or_carbon() {
    for (by, value) in [
        ("time", (|p: &mg::Plan| Some(p.time_s)) as fn(&mg::Plan) -> Option<f64>),
        ("price", |p| p.price.as_ref().map(|m| m.amount)),
        ("energy", |p| p.energy_kwh),
        ("carbon", |p| p.co2e_kg),
    ] {
        let r = white_rose_with_costs(by);
        let v: Vec<f64> =
            r.ranking.iter().map(|p| value(p).unwrap_or_else(|| panic!("{by}: every option has it"))).collect();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "{by}: lowest first: {v:?}");
        // Energy by hand for one option: node-hours × W × PUE / 1000.
        let first = &r.ranking[0];
        let w_pue = if first.parts.iter().all(|p| p.cluster.contains("cluster A")) {
            300.0 * 1.5
        } else if first.parts.len() == 1 {
            500.0 * 1.1
        } else {
            continue;
        };
        assert!((first.energy_kwh.unwrap() - first.node_hours * w_pue / 1000.0).abs() < 1e-9 * w_pue, "{by}");
    }
    // The orders differ: the least carbon is not the fastest option here.
    let (fastest, cleanest) =
        (white_rose_with_costs("time").ranking[0].clone(), white_rose_with_costs("carbon").ranking[0].clone());
    assert!(cleanest.time_s > fastest.time_s && cleanest.co2e_kg < fastest.co2e_kg, "{fastest:?} {cleanest:?}");
    let mut bad = white_rose();
    bad.insert("rank_by".into(), "speed".into());
    let (_, errors) = parse(&bad);
    assert!(
        errors.iter().any(|e| e.field == "rank_by" && e.message.contains("expected time, price, energy or carbon")),
        "{errors:?}"
    );
}

#[test]
fn the_lowest_carbon_option_of_the_front() {
    let r = white_rose_with_costs("time");
    let i = lowest_carbon_on_front(&r.ranking).expect("carbon is known");
    let pts: Vec<(f64, f64)> = r.ranking.iter().map(|p| (p.time_s, p.price.as_ref().unwrap().amount)).collect();
    let front = pareto_front(&pts);
    assert!(front.contains(&i));
    assert!(front.iter().all(|&j| r.ranking[j].co2e_kg.unwrap() >= r.ranking[i].co2e_kg.unwrap()));
    // Without carbon figures there is none to mark.
    assert_eq!(lowest_carbon_on_front(&page_view(&white_rose(), &catalog()).planner.unwrap().unwrap().ranking), None);
}

#[test]
fn front_by_hand() {
    // (time, cost): 0 fast and dear, 1 dominated by 2, 2 middle, 3 slow and cheap, 4 slower and dearer than 3.
    let opts = [(10.0, 9.0), (20.0, 8.0), (15.0, 5.0), (30.0, 1.0), (40.0, 2.0)];
    assert_eq!(pareto_front(&opts), vec![0, 2, 3]);
    assert_eq!(pareto_front(&[]), Vec::<usize>::new());
}

#[test]
fn benchmark_input_plans() {
    let input = benchmark_planner_input().expect("the preset builds a benchmark");
    assert_eq!(input.clusters.iter().map(|c| c.fabrics.len()).sum::<usize>(), 4);
    let report = mg::plan(&input).expect("plans");
    assert!(report.ranking.len() > 2000, "{} options", report.ranking.len());
}

mod robustness {
    use super::*;
    use proptest::prelude::*;

    /// Every number the page would show, collected from a view.
    fn numbers(v: &PageView) -> Vec<f64> {
        let mut out = Vec::new();
        for c in &v.calibrations {
            if let Some(f) = &c.fit {
                out.extend([f.alpha.c_s, f.alpha.d_s, f.gamma_s_per_mb, f.tcomp.intercept_s, f.tcomp.slope_s_per_mb]);
                out.extend(f.runs.iter().map(|r| r.tcomm_s));
            }
        }
        let mut plan = |p: &mg::Plan| out.extend([p.time_s, p.cost, p.cpu_hours]);
        for t in &v.target {
            if let Ok(Outcome::Feasible(p)) = &t.outcome {
                plan(p);
            }
        }
        if let Some(Ok(Outcome::Feasible(p))) = &v.split {
            plan(p);
        }
        if let Some(Ok(r)) = &v.planner {
            r.ranking.iter().for_each(&mut plan);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Whatever is typed into any field of the White Rose preset, the page evaluates
        /// without panicking and shows only finite numbers.
        #[test]
        fn any_text_in_any_field(
            key in prop::sample::select(vec!["cal1_seq", "cal2_par", "grid_n", "bytes_per_point", "np", "np_a", "np_b",
                                              "ppn_a", "free_b", "pair_a", "pair_fabric", "cal3_fabric", "cal_count", "derive_mb"]),
            text in "[0-9eE.,;\\t \\n+-]{0,30}|[a-z]{0,8}|[0-9]{1,12}",
        ) {
            let mut inputs = white_rose();
            inputs.insert(key.to_string(), text);
            let view = page_view(&inputs, &catalog());
            for x in numbers(&view) {
                prop_assert!(x.is_finite(), "{key}: {x}");
            }
        }
    }
}

#[test]
fn field_keys_are_the_saved_names() {
    let keys: Vec<&str> = Field::ALL.iter().map(|f| f.key()).collect();
    let mut unique = keys.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "every key once: {keys:?}");
    for f in Field::ALL {
        assert_eq!(Field::from_key(f.key()), Some(*f));
    }
    let cases = [
        (Field::CalCount, "cal_count"),
        (Field::Cal(1, CalPart::Cluster), "cal1_cluster"),
        (Field::Cal(3, CalPart::Fabric), "cal3_fabric"),
        (Field::Cal(8, CalPart::Sequential), "cal8_seq"),
        (Field::Cal(2, CalPart::Parallel), "cal2_par"),
        (Field::Cal(9, CalPart::Parallel), ""),
        (Field::BytesPerPoint, "bytes_per_point"),
        (Field::PpnB, "ppn_b"),
        (Field::DeriveMb, "derive_mb"),
    ];
    for (f, key) in cases {
        assert_eq!(f.key(), key, "{f:?}");
    }
    // Every field a preset fills is a field of the page.
    for p in presets() {
        assert!(p.inputs.keys().all(|k| Field::from_key(k).is_some()), "{}", p.key);
    }
}

#[test]
fn parse_names_each_bad_field_by_its_key() {
    let mut inputs = white_rose();
    inputs.insert("cal2_par".into(), "np\twork (MB)\ttime (s)\n4\t1024\tabc\n".into());
    inputs.insert("np_b".into(), "0".into());
    inputs.insert("ppn_a".into(), String::new());
    inputs.insert("derive_rows".into(), "x".into());
    let (typed, errors) = parse(&inputs);
    let keys: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(keys, vec!["cal2_par", "np_b", "derive_rows"]);
    assert!(typed.calibrations[1].runs.is_none() && typed.calibrations[0].runs.is_some());
    assert_eq!((typed.np_b, typed.ppn_a, typed.derive), (None, Some(None), None));
    // The view puts them where the page shows them.
    let v = page_view(&inputs, &catalog());
    assert_eq!(v.calibrations[1].parallel_errors[0].field, mg::PARALLEL_FIELD);
    assert!(v.field_errors["np_b"].contains("at least 1"));
    assert!(matches!(v.derived_bytes_per_point, Some(Err(m)) if m.to_string().contains("rows per process")));
    // A whole number too large is said to be too large, not to be not whole (issue 63).
    inputs.insert("free_a".into(), "99999999999".into());
    let v = page_view(&inputs, &catalog());
    assert_eq!(v.field_errors["free_a"], "free processes on A: 99999999999 is too large: at most 4294967295");
}

#[test]
fn adding_and_removing_calibrations() {
    let mut inputs = white_rose();
    add_calibration(4, "wrg-a", "Myrinet").apply(&mut inputs);
    assert_eq!((inputs["cal_count"].as_str(), inputs["cal5_cluster"].as_str()), ("5", "wrg-a"));
    assert_eq!(inputs["cal5_seq"], "work (MB)\ttime (s)\n");
    let third = inputs["cal3_seq"].clone();
    remove_calibration(5, 2).apply(&mut inputs);
    assert_eq!(inputs["cal_count"], "4");
    assert_eq!(inputs["cal2_seq"], third, "the later ones move down");
    assert_eq!(inputs["cal4_cluster"], "wrg-a");
    assert_eq!(inputs["cal5_cluster"], "", "the last one's fields are emptied");
    let mut one = default_inputs();
    remove_calibration(1, 1).apply(&mut one);
    assert_eq!(one["cal_count"], "1", "the page keeps one calibration");
    let mut full = white_rose();
    full.insert("cal_count".into(), MAX_CALIBRATIONS.to_string());
    add_calibration(MAX_CALIBRATIONS, "wrg-a", "Myrinet").apply(&mut full);
    assert_eq!(full["cal_count"], MAX_CALIBRATIONS.to_string(), "no more than the most");
}
