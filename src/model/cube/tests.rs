//! Tests on pycubexr's and Extra-P's sample profiles, written sets, bad input and limits.

use super::*;

const TIME_P4: &[u8] = include_bytes!("../../../tests/data/pycubexr/time.p4.n2000.x1.r0/profile.cubex");
const TIME_P4_EXCL: &str = include_str!("../../../tests/data/pycubexr/time.p4.n2000.x1.r0/excl.csv");
const TIME_P4_INCL: &str = include_str!("../../../tests/data/pycubexr/time.p4.n2000.x1.r0/incl.csv");
const CALL_TREE: &[u8] = include_bytes!("../../../tests/data/pycubexr/call_tree_test/call_tree_test.cubex");
const CALL_TREE_EXCL: &str = include_str!("../../../tests/data/pycubexr/call_tree_test/excl.csv");
const CALL_TREE_INCL: &str = include_str!("../../../tests/data/pycubexr/call_tree_test/incl.csv");
const BLAST: &[u8] = include_bytes!("../../../tests/data/pycubexr/blast.p64.r1/profile.cubex");
const BLAST_EXCL: &str = include_str!("../../../tests/data/pycubexr/blast.p64.r1/excl.csv");
const BLAST_INCL: &str = include_str!("../../../tests/data/pycubexr/blast.p64.r1/incl.csv");
const CHECKSUM_BUG: &[u8] =
    include_bytes!("../../../tests/data/pycubexr/bt-mz_sum.p2.r1/cube4.8_with_checksum_bug.cubex");
const VALUES_EXAMPLE: &[u8] = include_bytes!("../../../tests/data/pycubexr/test_only_files/cube-values_example.cubex");
const MM_X10: &[u8] =
    include_bytes!("../../../tests/data/extrap-upstream/cubeset/single_parameter/mm.x10y1z1.r1/profile.cubex");
const MM_X10Y10Z10: &[u8] =
    include_bytes!("../../../tests/data/extrap-upstream/cubeset/multi_parameter/mm.x10y10z10.r1/profile.cubex");
const THREADED: &[u8] =
    include_bytes!("../../../tests/data/extrap-upstream/cubeset/simple_threaded/example.f2/cube-example2.cubex");

fn rd(bytes: &[u8]) -> Cube {
    match read(bytes, &Limits::DEFAULT) {
        Ok(c) => c,
        Err(e) => panic!("read failed: {e}"),
    }
}

fn vals(c: &Cube, name: &str, want: Kind) -> Values {
    let m = c.metric(name).unwrap_or_else(|| panic!("no metric {name}"));
    c.values(m, want).unwrap_or_else(|e| panic!("{e}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300)
}

/// Checks every value of a cube_dump CSV ("Cnode ID, Thread ID, metric...") the way pycubexr's test does: to as
/// many decimal places as the CSV prints. Metrics without data must be all zero in the CSV.
fn check_csv(c: &Cube, csv: &str, want: Kind) -> usize {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').map(str::trim).collect();
    let rows: Vec<Vec<&str>> =
        lines.filter(|l| !l.trim().is_empty()).map(|l| l.split(',').map(str::trim).collect()).collect();
    let by_id: std::collections::HashMap<u32, usize> = c.cnodes.iter().enumerate().map(|(i, n)| (n.id, i)).collect();
    let mut checked = 0;
    for (col, name) in header.iter().enumerate().skip(2) {
        let m = c.metric(name).unwrap_or_else(|| panic!("no metric {name}"));
        if !c.metrics[m].has_data {
            assert!(
                rows.iter().all(|r| r[col].parse::<f64>().unwrap() == 0.0),
                "{name} has no data but the CSV has values"
            );
            continue;
        }
        let v = c.values(m, want).unwrap();
        for r in &rows {
            let cn = by_id[&r[0].parse::<u32>().unwrap()];
            let loc: usize = r[1].parse().unwrap();
            let text = r[col];
            let expected: f64 = text.parse().unwrap();
            let got = v.row(cn)[loc];
            let pos_dot = text.rfind('.').map(|p| p as i64).unwrap_or(-1);
            let places = match text.find('e') {
                Some(pe) => pe as i64 - pos_dot - 1,
                None => text.len() as i64 - 1 - pos_dot - 1,
            };
            let tol = 0.5 * 10f64.powi(-(places as i32));
            assert!(
                (got - expected).abs() <= tol * 1.000001 || close(got, expected),
                "{name} {want:?} cnode {} loc {loc}: expected {text}, got {got}",
                r[0]
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn time_p4_csv() {
    let c = rd(TIME_P4);
    assert!(check_csv(&c, TIME_P4_EXCL, Kind::Exclusive) > 1000);
    assert!(check_csv(&c, TIME_P4_INCL, Kind::Inclusive) > 1000);
}

#[test]
fn call_tree_csv_and_paths() {
    let c = rd(CALL_TREE);
    assert!(check_csv(&c, CALL_TREE_EXCL, Kind::Exclusive) > 0);
    assert!(check_csv(&c, CALL_TREE_INCL, Kind::Inclusive) > 0);
    let paths: Vec<String> = (0..c.cnodes.len()).map(|i| c.callpath(i)).collect();
    assert_eq!(paths[0], "test.x");
    // Extra-P joins region <name>s; in this file region "a" is named "signed char" (its mangled name is "a",
    // which pycubexr's own test joins instead).
    assert_eq!(paths[2], "test.x->main->signed char");
    assert_eq!(paths[1], "test.x->main");
    assert!(paths[3].starts_with("test.x->main->signed char->"));
    assert_eq!(c.cnodes.len(), 18);
}

#[test]
fn blast_big_endian_csv() {
    let c = rd(BLAST);
    assert_eq!(c.locations.len(), 64);
    assert!(check_csv(&c, BLAST_EXCL, Kind::Exclusive) > 10000);
    assert!(check_csv(&c, BLAST_INCL, Kind::Inclusive) > 10000);
    // pycubexr's test_blast: time, summed over locations, per cnode in document order.
    let t = vals(&c, "time", Kind::Exclusive);
    let sum0: f64 = t.row(0).iter().sum();
    assert!((sum0 - 62.34447098062492).abs() < 1e-7);
    let ti = vals(&c, "time", Kind::Inclusive);
    assert!((ti.row(0).iter().sum::<f64>() - 2869.1061315206257).abs() < 1e-7);
    let vi = vals(&c, "visits", Kind::Inclusive);
    assert_eq!(vi.row(0).iter().sum::<f64>(), 6278914.0);
}

#[test]
fn inclusive_tree_index_order() {
    // pycubexr: in time.p4.n2000.x1.r0, tree index 6 of the INCLUSIVE metric `time` is cnode 43.
    let c = rd(TIME_P4);
    let wide = values::wide_order(&c);
    assert_eq!(c.cnodes[wide[6]].id, 43);
    assert_eq!(c.metrics[c.metric("time").unwrap()].kind, Kind::Inclusive);
}

#[test]
fn checksum_bug_reads() {
    let c = rd(CHECKSUM_BUG);
    assert!(!c.metrics.is_empty());
    for m in 0..c.metrics.len() {
        if c.metrics[m].has_data {
            c.values(m, Kind::Exclusive).unwrap();
            c.values(m, Kind::Inclusive).unwrap();
        }
    }
}

#[test]
fn every_dtype() {
    let c = rd(VALUES_EXAMPLE);
    assert_eq!(c.locations.len(), 4);
    assert_eq!(c.cnodes.len(), 3);
    let ints = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]];
    for name in ["INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32", "INT64", "UINT64"] {
        let m = c.metric(name).unwrap();
        assert_eq!(c.metrics[m].dtype.name(), name);
        let v = c.values(m, c.metrics[m].kind).unwrap();
        for (k, row) in ints.iter().enumerate() {
            assert_eq!(v.row(k), row, "{name}");
        }
    }
    let dbl = [[1.1, 2.2, 3.3, 4.4], [5.5, 6.6, 7.7, 8.8], [9.9, 10.1, 11.11, 12.12]];
    for name in ["DOUBLE", "MINDOUBLE", "MAXDOUBLE"] {
        let m = c.metric(name).unwrap();
        let v = c.values(m, c.metrics[m].kind).unwrap();
        for (k, row) in dbl.iter().enumerate() {
            assert_eq!(v.row(k), row, "{name}");
        }
    }
    let cx = vals(&c, "COMPLEX", Kind::Inclusive);
    assert!(close(cx.row(0)[0], 2f64.sqrt()) && close(cx.row(2)[3], 12.070211265756702));
    let tau = vals(&c, "TAU_ATOMIC", Kind::Exclusive);
    assert_eq!(tau.row(0), &[1.0, 2.0, 3.0, 5.4]);
    assert_eq!(tau.row(1)[0], 0.0);
    assert!(close(tau.row(2)[3], 196.0 / 12.0));
    let rate = vals(&c, "RATE", Kind::Inclusive);
    assert!(close(rate.row(0)[1], 0.5) && close(rate.row(2)[1], 10.0 / 1.1));
    for (name, want) in [
        ("TAU_ATOMIC", Kind::Inclusive),
        ("RATE", Kind::Exclusive),
        ("HISTOGRAM5", Kind::Exclusive),
        ("NDOUBLES10", Kind::Inclusive),
        ("SCALE_FUNC3", Kind::Exclusive),
    ] {
        let e = c.values(c.metric(name).unwrap(), want).unwrap_err();
        assert!(e.message.contains(name), "{e}");
    }
    assert_eq!(c.metrics[c.metric("HISTOGRAM5").unwrap()].dtype, DType::Histogram(5));
    assert_eq!(c.metrics[c.metric("NDOUBLES10").unwrap()].dtype, DType::NDoubles(10));
    // Unsigned rule: inclusive rows 1,2,3,4 / 5.. / 9.. under root 0 → exclusive of the root clamps at 0.
    let u = vals(&c, "UINT64", Kind::Exclusive);
    let i = vals(&c, "INT64", Kind::Exclusive);
    let kids: Vec<usize> = c.cnodes[0].children.clone();
    if !kids.is_empty() {
        assert!(u.row(0).iter().all(|&x| x >= 0.0));
        assert!(i.row(0).iter().any(|&x| x < 0.0));
    }
}

/// Expected numbers from pycubexr 2.x (pip), run once: see check_pycubexr.py / the module report.
#[test]
fn extrap_profiles() {
    for (bytes, time_ex, time_in, fp_ops) in
        [(MM_X10, 1.1667e-05, 1.7147e-05, 54.0), (MM_X10Y10Z10, 1.4679e-05, 2.4861e-05, 2406.0)]
    {
        let c = rd(bytes);
        let names: Vec<&str> = c.metrics.iter().map(|m| m.uniq_name.as_str()).collect();
        assert_eq!(
            names,
            [
                "visits",
                "time",
                "min_time",
                "max_time",
                "bytes_put",
                "bytes_get",
                "PAPI_FP_OPS",
                "PAPI_L3_TCM",
                "PAPI_L2_TCM"
            ]
        );
        assert_eq!(c.cnodes.len(), 4);
        assert_eq!(c.locations.len(), 1);
        assert_eq!(c.locations[0].name, "Master thread");
        assert!(
            close(vals(&c, "time", Kind::Exclusive).row(0)[0], time_ex)
                || (vals(&c, "time", Kind::Exclusive).row(0)[0] - time_ex).abs() < 1e-15
        );
        assert_eq!(vals(&c, "time", Kind::Inclusive).row(0)[0], time_in);
        assert_eq!(vals(&c, "PAPI_FP_OPS", Kind::Inclusive).row(0)[0], fp_ops);
        assert_eq!(vals(&c, "visits", Kind::Inclusive).row(0)[0], 5.0);
        assert!(!c.metrics[c.metric("bytes_put").unwrap()].has_data);
        assert!(c.values(c.metric("bytes_put").unwrap(), Kind::Exclusive).unwrap_err().message.contains("bytes_put"));
    }
    let c = rd(MM_X10);
    assert_eq!(vals(&c, "min_time", Kind::Inclusive).row(0)[0], 1.006e-06);
    assert_eq!(vals(&c, "min_time", Kind::Exclusive).row(0)[0], 1.7147e-05);
    assert_eq!(vals(&c, "PAPI_L2_TCM", Kind::Exclusive).row(0)[0], 206.0);

    let c = rd(THREADED);
    let names: Vec<&str> = c.metrics.iter().map(|m| m.uniq_name.as_str()).collect();
    assert_eq!(names, ["time", "visits"]);
    assert_eq!(c.metrics[0].dtype, DType::Float);
    assert_eq!(c.cnodes.len(), 5);
    assert_eq!(c.locations.len(), 4);
    assert_eq!((c.locations[2].rank, c.locations[2].thread, c.locations[2].name.as_str()), (1, 0, "Thread 0"));
    assert_eq!(c.callpath(0), "main");
    let ti = vals(&c, "time", Kind::Inclusive);
    assert_eq!(ti.row(0), &[28.0, 6.4, 27.8, 6.2]);
    let te = vals(&c, "time", Kind::Exclusive);
    assert!(close(te.row(0)[0], 2.5999999999999996) && close(te.row(0)[2], 3.000000000000001));
    assert_eq!(te.row(1), &[10.0, 0.0, 9.8, 0.0]);
    assert_eq!(vals(&c, "visits", Kind::Inclusive).row(0), &[36.0, 12.0, 36.0, 12.0]);
}

pub(crate) fn sample_spec(ranks: usize, threads: usize) -> Spec {
    // main -> {a & b, <c>, a & b (again)} ; <c> -> d
    let regions = vec!["main".to_string(), "a & b".to_string(), "<c>".to_string(), "d\"'>".to_string()];
    let cnodes = vec![
        SpecCnode { region: 0, parent: None },
        SpecCnode { region: 1, parent: Some(0) },
        SpecCnode { region: 2, parent: Some(0) },
        SpecCnode { region: 3, parent: Some(2) },
        SpecCnode { region: 1, parent: Some(0) },
    ];
    let nloc = ranks * threads;
    let table = |f: &dyn Fn(usize, usize) -> f64| -> Vec<Vec<f64>> {
        (0..cnodes.len()).map(|c| (0..nloc).map(|l| f(c, l)).collect()).collect()
    };
    let time_incl = {
        // exclusive e(c,l) then inclusive sums
        let e = |c: usize, l: usize| 0.25 * (c as f64 + 1.0) + 0.001 * l as f64;
        let mut t = table(&e);
        for c in (0..cnodes.len()).rev() {
            if let Some(p) = cnodes[c].parent {
                let child = t[c].clone();
                for (sum, v) in t[p].iter_mut().zip(child) {
                    *sum += v;
                }
            }
        }
        t
    };
    let metrics = vec![
        SpecMetric {
            uniq_name: "time".into(),
            disp_name: "Time".into(),
            units: "sec".into(),
            kind: Kind::Inclusive,
            dtype: DType::Double,
            values: time_incl,
        },
        SpecMetric {
            uniq_name: "visits".into(),
            disp_name: "Visits".into(),
            units: "occ".into(),
            kind: Kind::Exclusive,
            dtype: DType::Uint64,
            values: table(&|c, l| if c == 3 { 0.0 } else { (c * 10 + l + 1) as f64 }),
        },
        SpecMetric {
            uniq_name: "bytes & <stuff>".into(),
            disp_name: "B".into(),
            units: "bytes".into(),
            kind: Kind::Exclusive,
            dtype: DType::Int64,
            values: table(&|c, l| (c as f64 - 2.0) * 1000.0 + l as f64),
        },
    ];
    Spec { metrics, regions, cnodes, ranks, threads }
}

fn all_options() -> Vec<WriteOptions> {
    let mut v = Vec::new();
    for bits in 0..16u8 {
        v.push(WriteOptions {
            big_endian: bits & 1 != 0,
            zlib: bits & 2 != 0,
            gzip_anchor: bits & 4 != 0,
            gzip_archive: bits & 8 != 0,
        });
    }
    v
}

#[test]
fn write_read_round_trip() {
    for (ranks, threads) in [(1, 1), (2, 3), (4, 2)] {
        let spec = sample_spec(ranks, threads);
        for opts in all_options() {
            let bytes = write(&spec, &opts);
            let c = read(&bytes, &Limits::DEFAULT).unwrap_or_else(|e| panic!("{opts:?}: {e}"));
            assert_eq!(c.regions, spec.regions);
            assert_eq!(c.cnodes.len(), 5);
            assert_eq!(c.locations.len(), ranks * threads);
            for (k, l) in c.locations.iter().enumerate() {
                assert_eq!((l.rank, l.thread), ((k / threads) as i64, (k % threads) as i64));
            }
            assert_eq!(c.callpath(3), "main-><c>->d\"'>");
            assert_eq!(c.callpath(1), c.callpath(4), "repeated sibling names give the same call path (as Extra-P)");
            for (mi, sm) in spec.metrics.iter().enumerate() {
                assert_eq!(c.metrics[mi].uniq_name, sm.uniq_name);
                assert_eq!(c.metrics[mi].kind, sm.kind);
                assert_eq!(c.metrics[mi].dtype, sm.dtype);
                let v = c.values(mi, sm.kind).unwrap();
                for cn in 0..5 {
                    assert_eq!(v.row(cn), sm.values[cn].as_slice(), "{opts:?} {} cnode {cn}", sm.uniq_name);
                }
            }
            // Conversions: time exclusive == the generator's exclusive values (up to rounding).
            let te = c.values(0, Kind::Exclusive).unwrap();
            for cn in 0..5 {
                for l in 0..ranks * threads {
                    assert!((te.row(cn)[l] - (0.25 * (cn as f64 + 1.0) + 0.001 * l as f64)).abs() < 1e-12);
                }
            }
            let vi = c.values(1, Kind::Inclusive).unwrap();
            for l in 0..ranks * threads {
                let want: f64 = (0..5).map(|cn| spec.metrics[1].values[cn][l]).sum();
                assert_eq!(vi.row(0)[l], want);
            }
        }
    }
}

fn xorshift(state: &mut u64) -> u64 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    x
}

fn exercise(bytes: &[u8], limits: &Limits) {
    if let Ok(c) = read(bytes, limits) {
        for m in 0..c.metrics.len() {
            for k in [Kind::Exclusive, Kind::Inclusive] {
                let _ = c.values(m, k);
            }
        }
        for i in 0..c.cnodes.len() {
            let _ = c.callpath(i);
        }
    }
}

#[test]
fn truncated_and_corrupted_never_panic() {
    let small = Limits { max_bytes: 64 << 20, ..Limits::DEFAULT };
    let mut inputs: Vec<Vec<u8>> = vec![THREADED.to_vec(), VALUES_EXAMPLE.to_vec()];
    let spec = sample_spec(2, 2);
    for opts in [
        WriteOptions::default(),
        WriteOptions { big_endian: true, zlib: true, gzip_anchor: true, gzip_archive: false },
        WriteOptions { gzip_archive: true, zlib: true, ..WriteOptions::default() },
    ] {
        inputs.push(write(&spec, &opts));
    }
    for input in &inputs {
        let mut n = 0;
        while n < input.len() {
            exercise(&input[..n], &small);
            n += 7;
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..300 {
            let mut b = input.clone();
            let flips = 1 + (xorshift(&mut state) % 8) as usize;
            for _ in 0..flips {
                let at = (xorshift(&mut state) % b.len() as u64) as usize;
                b[at] = xorshift(&mut state) as u8;
            }
            exercise(&b, &small);
        }
    }
    // Not a tar at all.
    let e = read(b"hello", &Limits::DEFAULT).unwrap_err();
    assert!(
        e.message.starts_with("not a Cube file: expected a tar archive (optionally gzipped) holding anchor.xml"),
        "{e}"
    );
    let e = read(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3], &Limits::DEFAULT).unwrap_err();
    assert!(e.message.starts_with("archive: "), "{e}");
}

#[test]
fn error_messages_name_member() {
    let spec = sample_spec(1, 2);
    let mut bytes = write(&spec, &WriteOptions::default());
    // Corrupt the first index member's magic: find "CUBEX.INDEX".
    let at = bytes.windows(11).position(|w| w == b"CUBEX.INDEX").unwrap();
    bytes[at] = b'X';
    let c = read(&bytes, &Limits::DEFAULT).unwrap();
    let e = c.values(0, Kind::Inclusive).unwrap_err();
    assert!(e.message.starts_with("0.index: expected \"CUBEX.INDEX\", found"), "{e}");
    // A cnode without calleeId.
    let xml =
        "<?xml version=\"1.0\"?>\n<cube version=\"4.4\">\n<program>\n<region id=\"0\"><name>m</name></region>\n<cnode id=\"0\">\n</cnode></program></cube>\n";
    let mut tar = Vec::new();
    super::write::tests_tar(&mut tar, "anchor.xml", xml.as_bytes());
    let e = read(&tar, &Limits::DEFAULT).unwrap_err();
    assert_eq!(e.message, "anchor.xml: line 5: <cnode> without calleeId");
}

#[test]
fn limits() {
    let spec = sample_spec(2, 3);
    let bytes = write(&spec, &WriteOptions { gzip_archive: true, ..WriteOptions::default() });
    let e = read(&bytes, &Limits { max_cnodes: 4, ..Limits::DEFAULT }).unwrap_err();
    assert!(e.message.contains("more than 4 call paths (the limit)"), "{e}");
    let e = read(&bytes, &Limits { max_locations: 5, ..Limits::DEFAULT }).unwrap_err();
    assert!(e.message.contains("more than 5 locations (the limit)"), "{e}");
    let e = read(&bytes, &Limits { max_metrics: 2, ..Limits::DEFAULT }).unwrap_err();
    assert!(e.message.contains("more than 2 metrics (the limit)"), "{e}");
    let e = read(&bytes, &Limits { max_bytes: 1000, ..Limits::DEFAULT }).unwrap_err();
    assert!(e.message.contains("more than 1,000 bytes (the limit)"), "{e}");
    let c = read(&bytes, &Limits { max_cnodes: 5, max_locations: 6, max_metrics: 3, ..Limits::DEFAULT }).unwrap();
    assert_eq!(c.cnodes.len(), 5);
    // A value table larger than max_bytes: 5 cnodes × 6 locations × 8 = 240 bytes.
    let mut c2 = c.clone();
    c2.limits.max_bytes = 200;
    assert!(c2.values(0, Kind::Exclusive).unwrap_err().message.contains("(the limit)"));
    assert_eq!(format!("{}", Limits::default().max_bytes), "536870912");
}
