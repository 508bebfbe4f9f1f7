use super::*;
use crate::model::catalog::presets as catalog;

#[test]
fn default_page_shows_clusters_and_the_grid_broadcast() {
    let v = view(&default_inputs(), &catalog());
    assert!(v.field_errors.is_empty() && v.matrix_error.is_none() && v.warnings.is_empty(), "{v:?}");
    let c = v.clusters.as_ref().expect("clusters");
    assert_eq!(c.groups.iter().map(Vec::len).collect::<Vec<_>>(), vec![20, 11, 7, 1, 20, 19]);
    assert_eq!(c.order.len(), 78);
    let g = v.grid.as_ref().expect("grid");
    assert_eq!(g.ecef.transfers.len(), 5);
    assert_eq!(g.coordinators, vec![0, 20, 31, 38, 39, 59]);
    // The seed measured the hierarchical broadcast at least twice as fast as the binomial
    // tree; with Table 2's latencies and a nominal 1 Gbit/s everywhere the model gives 1.78×
    // at 512 KB (sizes from 8 KB to 4 MB: see `grid_speedup_across_sizes`).
    assert!(g.speedup.is_some_and(|s| s > 1.5), "{g:?}");
}

#[test]
fn bad_fields_name_themselves() {
    let mut inputs = default_inputs();
    inputs.insert(Field::Rho.key().into(), "-1".into());
    inputs.insert(Field::Matrix.key().into(), "0 1 2\n1 0 3\n2 4 0".into());
    let v = view(&inputs, &catalog());
    assert!(v.field_errors[Field::Rho.key()].contains("from 0 to 10"));
    assert!(v.asymmetric && v.matrix_error.is_some() && v.clusters.is_none());
    inputs.insert(Field::Symmetrise.key().into(), "yes".into());
    inputs.insert(Field::Rho.key().into(), "0.2".into());
    let v = view(&inputs, &catalog());
    assert!(!v.asymmetric && v.clusters.is_some() && v.warnings.iter().any(|w| w.contains("symmetric")));
    // A root that is no node of the matrix: the clusters are shown, the broadcast is not.
    inputs.insert(Field::Root.key().into(), "1000".into());
    let v = view(&inputs, &catalog());
    assert!(v.field_errors[Field::Root.key()].contains("from 0 to 2"), "{:?}", v.field_errors);
    assert!(v.clusters.is_some() && v.grid.is_none());
}

/// The page's fields are the keys the communication page's second half had (share links and
/// workspaces name them), in its order; its defaults are that half's defaults.
#[test]
fn the_fields_and_defaults_are_the_former_grid_half() {
    let keys: Vec<&str> = Field::ALL.iter().map(|f| f.key()).collect();
    assert_eq!(keys, ["latency_share", "matrix", "symmetrise", "rho", "root", "grid_size", "bandwidth_mb_s"]);
    let defaults = default_inputs();
    assert_eq!(defaults.keys().map(String::as_str).collect::<Vec<_>>(), {
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted
    });
    assert_eq!(defaults["matrix"], gridcast::table2_text());
    assert!(presets().is_empty());
}

/// The page in two stages (the matrix clustered once, the broadcast for each keystroke in its
/// fields) is the page in one, whichever fields are wrong; a stage serves every value of the
/// broadcast's fields.
#[test]
fn the_grid_half_in_stages_is_the_grid_half() {
    let base = default_inputs();
    let cases: [&[(Field, &str)]; 5] = [
        &[],
        &[(Field::Root, "1000")],
        &[(Field::Rho, "x"), (Field::GridSize, "1 2")],
        &[(Field::Matrix, "0 1 2\n1 0 3\n2 4 0")],
        &[(Field::Matrix, "0 1 2\n1 0 3\n2 4 0"), (Field::Symmetrise, "yes"), (Field::BandwidthMbS, "0")],
    ];
    for case in cases {
        let mut inputs = base.clone();
        for (f, t) in case {
            inputs.insert(f.key().into(), t.to_string());
        }
        let stage = cluster_stage(&read_matrix(&inputs), &inputs);
        assert_eq!(grid_half(&stage, &inputs), view(&inputs, &catalog()), "{case:?}");
        for root in ["0", "3", "x"] {
            inputs.insert(Field::Root.key().into(), root.into());
            assert_eq!(grid_half(&stage, &inputs), view(&inputs, &catalog()), "{case:?}, root {root}");
        }
    }
}

#[test]
fn grid_speedup_across_sizes() {
    let mut inputs = default_inputs();
    for (size, low) in [("8KB", 1.5), ("64KB", 1.5), ("512KB", 1.5), ("4MB", 1.5)] {
        inputs.insert(Field::GridSize.key().into(), size.into());
        let g = view(&inputs, &catalog()).grid.expect("grid");
        let s = g.speedup.expect("speed-up");
        assert!(s > low, "{size}: {s}");
    }
}

/// Every number the page would show.
fn numbers(v: &PageView) -> Vec<f64> {
    let mut out = Vec::new();
    if let Some(c) = &v.clusters {
        out.extend(c.group_latency_us.iter().chain(c.latency_us.iter()));
    }
    if let Some(g) = &v.grid {
        out.extend(g.local.iter().map(|l| l.1).chain([g.hierarchical_us]).chain(g.binomial_us).chain(g.speedup));
        for s in [&g.ecef, &g.ecef_lat] {
            out.extend([s.inter_us, s.completion_us]);
            out.extend(s.transfers.iter().flat_map(|t| [t.start_us, t.arrival_us, t.local_end_us]));
        }
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
        let mut inputs = default_inputs();
        inputs.insert(Field::Matrix.key().into(), "0 5 9\n5 0 9\n9 9 0".into());
        inputs.insert(field.key().to_string(), text);
        let v = view(&inputs, &catalog());
        for x in numbers(&v) {
            proptest::prop_assert!(x.is_finite(), "{field:?}: {x}");
        }
    }
}

/// The workspace's format-2 upgrade names the two pages' fields as they were (below the pages,
/// it cannot take them from here): the keys it moves to this page are this page's and not the
/// communication page's, the one it copies is read by both, and the pages it names are these.
#[test]
fn the_format_2_upgrade_names_these_fields() {
    use crate::model::comm::page::Field as CommField;
    use crate::model::workspace::migrate;
    let on_comm = |k: &str| CommField::ALL.iter().any(|f| f.key() == k);
    let keys = || Field::ALL.iter().map(|f| f.key());
    assert_eq!(keys().filter(|k| !on_comm(k)).collect::<Vec<_>>(), migrate::FORMAT1_GRID_KEYS);
    assert_eq!(keys().filter(|k| on_comm(k)).collect::<Vec<_>>(), [migrate::FORMAT1_SHARED_KEY]);
    assert_eq!(
        (PAGE, crate::model::bottlenecks::page::PAGE),
        (migrate::FORMAT2_SITES_PAGE, migrate::FORMAT2_EXTRAP_PAGE)
    );
}
