use super::*;
use crate::model::catalog::presets as catalog;
use proptest::prelude::*;

/// The page's view of some input texts.
fn evaluate(texts: &PageInputs) -> PageView {
    view(texts, &catalog())
}

fn with(edits: &[(&str, &str)]) -> PageView {
    let mut m = default_inputs();
    for (k, v) in edits {
        m.insert(k.to_string(), v.to_string());
    }
    evaluate(&m)
}

fn close(name: &str, got: f64, want: f64, tol: f64) {
    assert!((got - want).abs() <= tol * want.abs().max(1.0), "{name}: got {got}, want {want}");
}

#[test]
fn default_page_is_linpack_on_bwgrid1() {
    let v = evaluate(&default_inputs());
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert!(v.warnings.is_empty(), "{:?}", v.warnings);
    let labels: Vec<&str> = v.cases.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["N = 10000", "N = 20000", "N = 30000", "N = 40000"]);
    let sys = System::preset("bwgrid1").expect("preset");
    let (direct, _) = Regions::from_application(&Application::linpack(), 40000.0, &sys).expect("valid");
    let c = &v.cases[3];
    close("x'", c.model.balance().x_prime, direct.balance().x_prime, 1e-15);
    close("z'", c.model.balance().z_prime, direct.balance().z_prime, 1e-15);
    assert_eq!(c.model.region_bandwidth_gb_s().map(|b| (b * 1e9).round() / 1e9), Some(1.0));
    assert_eq!(c.curve.len(), CURVE_POINTS);
    close("curve starts at 1", c.curve[0].n, 1.0, 1e-12);
    close("curve ends at n_max", c.curve[CURVE_POINTS - 1].n, 1120.0, 1e-9);
    close("Sp(1120), spec", c.curve[CURVE_POINTS - 1].one_region, 233.74, 1e-4);
    close("n*", c.optimum.n_star().expect("peak"), direct.optimum().n_star().expect("peak"), 1e-12);
    // The sweep: 1000 bandwidths from 0.1 to 100 GB/s, each the model at that B_E.
    assert_eq!(c.sweep.len(), 1000);
    close("sweep start", c.sweep[0].bandwidth_gb_s, 0.1, 1e-12);
    close("sweep end", c.sweep[999].bandwidth_gb_s, 100.0, 1e-9);
    let row = &c.sweep[500];
    let at = direct.at_bandwidth(row.bandwidth_gb_s).expect("valid");
    close("Sp2(256) in the sweep", row.sp2_at_n.expect("req_n"), at.speedup_two(256.0).expect("n"), 1e-12);
    close("n* in the sweep", row.n_star.expect("α > 0"), at.optimum().n_star().expect("peak"), 1e-12);
    assert!(c.sweep.windows(2).all(|w| w[0].sp2_best < w[1].sp2_best), "Sp2_max rises with B_E");
    // bwGRiD 1's 1 GB/s link is far from 90 % of one region at 256 cores per region.
    let verdict = c.verdict.as_ref().expect("req inputs").as_ref().expect("valid");
    assert!(!verdict.met_now);
    let Requirement::Bandwidth { bandwidth_gb_s: Some(need), .. } = verdict.required.requirement else {
        panic!("reachable: {verdict:?}")
    };
    assert!(need > 1.0, "{need}");
    assert!(verdict.text.starts_with(&format!("Needs at least {} for 90 %", gbs(need))), "{}", verdict.text);
    assert!(verdict.text.contains("The current 1 GB/s falls short"), "{}", verdict.text);
}

#[test]
fn fields_presets_and_typed_inputs() {
    // The defaults hold every field, under the keys of saved workspaces and share links.
    let mut keys: Vec<&str> = Field::ALL.iter().map(|f| f.key()).collect();
    keys.sort_unstable();
    assert_eq!(default_inputs().keys().map(String::as_str).collect::<Vec<_>>(), keys);
    // One preset per system of the seed, each the defaults with that system's fields.
    let presets = presets();
    let systems = system_presets();
    assert_eq!(presets.iter().map(|p| p.key).collect::<Vec<_>>(), ["bwgrid1", "bwgrid2-15", "bwgrid2-45"]);
    assert_eq!(presets[0].inputs, default_inputs());
    for (p, s) in presets.iter().zip(&systems) {
        assert_eq!(p.name, s.label);
        assert!(s.fields.iter().all(|(k, v)| p.inputs.get(*k) == Some(v)));
    }
    assert_eq!(
        systems[2].fields,
        [("peak", "10"), ("node_bw", "6"), ("ref_bw", "1"), ("region_bw", "45"), ("alpha", "0.05")]
            .map(|(k, v)| (k, v.to_string()))
    );
    // Only the chosen form's fields are read.
    let mut m = default_inputs();
    m.insert("x_prime".into(), "nonsense".into());
    let (inputs, errors) = parse(&m);
    assert!(errors.is_empty(), "{errors:?}");
    let Form::Application { sizes, .. } = &inputs.form else { panic!("application form") };
    assert_eq!(sizes.as_deref(), Some(&[10000.0, 20000.0, 30000.0, 40000.0][..]));
    m.insert("form".into(), "balance".into());
    let (inputs, errors) = parse(&m);
    assert!(matches!(inputs.form, Form::Balance { x_primes: None, .. }));
    assert_eq!(errors.iter().map(|e| e.field.as_str()).collect::<Vec<_>>(), ["x_prime"]);
    assert_eq!(inputs.sweep, Some(Sweep { min_gb_s: 0.1, max_gb_s: 100.0, points: 1000 }));
    assert_eq!((inputs.req_fraction, inputs.planned), (Some(0.9), Some((15.0, 45.0))));
}

#[test]
fn moving_the_bandwidth_changes_the_verdict() {
    let v = evaluate(&default_inputs());
    let need = match v.cases[3].verdict.as_ref().and_then(|r| r.as_ref().ok()).map(|v| &v.required.requirement) {
        Some(Requirement::Bandwidth { bandwidth_gb_s: Some(b), .. }) => *b,
        other => panic!("{other:?}"),
    };
    let above = with(&[("region_bw", &fmt_num(need * 1.01, 6))]);
    let v40 = above.cases[3].verdict.as_ref().and_then(|r| r.as_ref().ok()).expect("verdict");
    assert!(v40.met_now, "{}", v40.text);
    assert!(v40.reached_now >= 0.9, "{}", v40.reached_now);
    // The requirement itself does not depend on where the slider is.
    let Requirement::Bandwidth { bandwidth_gb_s: Some(b), .. } = v40.required.requirement else { panic!() };
    close("same requirement", b, need, 1e-9);
    // A planned link over the requirement meets it; one below does not.
    let lo = fmt_num(need * 0.5, 6);
    let hi = fmt_num(need * 2.0, 6);
    let v = with(&[("planned_min", lo.as_str()), ("planned_max", hi.as_str())]);
    let verdict = v.cases[3].verdict.as_ref().and_then(|r| r.as_ref().ok()).expect("verdict");
    assert_eq!(verdict.planned, Some((false, true)));
    assert!(verdict.text.ends_with("meets it only at its upper end."), "{}", verdict.text);
    let v = with(&[("planned_min", ""), ("planned_max", "")]);
    assert_eq!(v.planned, None);
}

#[test]
fn balance_form_is_the_cli_example() {
    let v = with(&[("form", "balance"), ("x_prime", "196.08"), ("z", "1.5"), ("z_prime", "10"), ("zp_bw", "1")]);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert_eq!(v.cases.len(), 1);
    close("n*", v.cases[0].optimum.n_star().expect("peak"), 171.5, 0.05 / 171.5);
    let v = with(&[("form", "balance"), ("z_prime", "10"), ("two_region_x", "slides")]);
    close("slides n*", v.cases[0].optimum.n_star().expect("peak"), 140.0, 0.05 / 140.0);
    // z' holds at zp_bw: at twice the bandwidth it doubles.
    let v = with(&[("form", "balance"), ("z_prime", "10"), ("zp_bw", "1"), ("region_bw", "2")]);
    close("z' at 2 GB/s", v.cases[0].model.balance().z_prime, 20.0, 1e-12);
    let v = with(&[("form", "balance"), ("x_prime", "50 100 200")]);
    assert_eq!(v.cases.len(), 3);
    assert_eq!(v.cases[1].label, "x' = 100");
}

#[test]
fn no_contention_has_no_optimum() {
    let v = with(&[("alpha", "0")]);
    assert!(v.errors.is_empty(), "{:?}", v.errors);
    assert!(matches!(v.cases[0].optimum, Optimum::NoOptimum { .. }));
    assert!(v.cases[0].sweep.iter().all(|r| r.n_star.is_none()));
    assert!(v.cases[0].optimum.text().starts_with("no optimum"));
}

#[test]
fn errors_name_field_and_column() {
    let v = with(&[("sizes", "10000 abc")]);
    let e = &v.errors["sizes"];
    assert_eq!((e.line, e.column), (Some(1), Some(7)));
    assert!(e.message.contains("expected a number, found \"abc\""), "{e}");
    assert!(v.broken());
    let v = with(&[("ops", "2/3*N^")]);
    assert_eq!(v.errors["ops"].column, Some(7));
    assert!(v.broken());
    let v = with(&[("region_bw", "0")]);
    assert!(v.errors["region_bw"].message.contains("greater than 0"));
    assert!(v.broken());
    // Errors in the required-bandwidth inputs leave the curves standing.
    let v = with(&[("req_n", "0.5"), ("req_fraction", "120")]);
    assert!(!v.broken());
    assert!(v.cases[0].verdict.is_none());
    assert!(v.errors.contains_key("req_n") && v.errors.contains_key("req_fraction"));
    let v = with(&[("sweep_min", "10"), ("sweep_max", "1")]);
    assert!(v.errors.contains_key("sweep_max"));
    assert!(v.cases[0].sweep.is_empty());
    let v = with(&[("sizes", "1 2 3 4 5 6 7 8 9")]);
    assert!(v.errors["sizes"].message.contains("at most 8"));
    let v = with(&[("two_region_x", "maybe")]);
    assert!(v.errors.contains_key("two_region_x"));
}

#[test]
fn unit_mistakes_are_warned() {
    let v = with(&[("node_bw", "1500")]);
    assert_eq!(v.warnings.len(), 1);
    assert_eq!(v.warnings[0].field, "node_bw");
    assert!(v.warnings[0].message.contains("MB/s"), "{:?}", v.warnings);
}

#[test]
fn catalog_links_become_systems() {
    let links = link_systems(&catalog());
    let ma_hd = links.iter().find(|l| l.label.starts_with("bwGRiD Mannheim – bwGRiD Heidelberg")).expect("link");
    let get = |k: &str| ma_hd.fields.iter().find(|(f, _)| *f == k).map(|(_, v)| v.as_str());
    assert_eq!(get("peak"), Some("8.5"));
    assert_eq!(get("node_bw"), Some("1.5"));
    // 930 MB/s of 2^20 bytes.
    assert_eq!(get("region_bw"), Some("0.9752"));
    // Grid'5000 sites have no known peak: no system.
    assert!(links.iter().all(|l| !l.label.contains("Grid'5000")));
}

#[test]
fn csv_has_a_row_per_point() {
    let v = evaluate(&default_inputs());
    let sweep = sweep_csv(&v);
    assert_eq!(sweep.lines().count(), 1 + 4 * 1000);
    assert!(sweep.starts_with("case,bandwidth_gb_s,z_prime,sp2_at_req_n,sp2_max,n_star\n\"N = 10000\",0.1,"));
    assert_eq!(curves_csv(&v).lines().count(), 1 + 4 * CURVE_POINTS);
}

#[test]
fn list_tokens_have_columns() {
    assert_eq!(list::tokens(" 10, 20;µ 3"), vec![(2, "10"), (6, "20"), (9, "µ"), (11, "3")]);
    assert!(list::tokens(" , ").is_empty());
}

/// Every number the page could show.
fn numbers(v: &PageView) -> Vec<f64> {
    let mut out: Vec<f64> = v.bandwidth_gb_s.into_iter().chain(v.req_n).collect();
    for c in &v.cases {
        for p in &c.curve {
            out.extend([p.n, p.one_region, p.one_region_overlapping, p.two_regions, p.two_regions_overlapping]);
        }
        out.extend([c.n_half.one_region, c.n_half.two_regions]);
        out.extend(c.n_half.two_regions_upper);
        out.extend(c.optimum.n_star());
        out.extend(c.optimum.sp2_max());
        for r in &c.sweep {
            out.extend([r.bandwidth_gb_s, r.z_prime, r.sp2_best]);
            out.extend(r.sp2_at_n);
            out.extend(r.n_star);
        }
        if let Some(Ok(vd)) = &c.verdict {
            out.extend([vd.reached_now, vd.required.one_region_speedup, vd.required.target_speedup]);
        }
    }
    out
}

/// Every field but `overlap` and `sweep_points`.
const KEYS: [Field; 22] = [
    Field::Form,
    Field::Ops,
    Field::Bytes,
    Field::Exchanged,
    Field::Sizes,
    Field::XPrime,
    Field::Z,
    Field::ZPrime,
    Field::ZpBw,
    Field::Peak,
    Field::NodeBw,
    Field::RefBw,
    Field::RegionBw,
    Field::Alpha,
    Field::NMax,
    Field::TwoRegionX,
    Field::SweepMin,
    Field::SweepMax,
    Field::ReqN,
    Field::ReqFraction,
    Field::PlannedMin,
    Field::PlannedMax,
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Any text in any field, in either form: no panic, and only finite numbers to show.
    #[test]
    fn any_text_any_field(k in 0..KEYS.len(), text in "\\PC{0,12}|[-0-9.eE]{1,8}|1e[0-9]{2,3}",
                          balance: bool) {
        let mut m = default_inputs();
        m.insert("sweep_points".into(), "50".into());
        if balance { m.insert("form".into(), "balance".into()); }
        m.insert(KEYS[k].key().into(), text);
        let v = evaluate(&m);
        for x in numbers(&v) {
            prop_assert!(x.is_finite());
        }
    }
}
