//! What the fuzz targets check, one function per place where text or JSON enters the model.
//! The nightly targets under `fuzz/` call these with libFuzzer's inputs (`make fuzz`); a
//! stable test (`tests/fuzz_replay.rs`) replays every committed corpus entry and regression
//! through the same functions, so a finding stays fixed without nightly.
//!
//! A function fails (panics) when the model panics, when anything it would show holds NaN or
//! infinity, and, under the fuzzer only (`cfg(fuzzing)`: timings are no test assertion), when
//! one evaluation of an input under 10 KB takes more than 100 ms. Stack overflows, more than 1 s
//! per input and more than 1 GB of memory are libFuzzer's own limits (`-timeout`,
//! `-rss_limit_mb`, set by `make fuzz`).

use crate::model::workspace::PageInputs;

/// A check of one target's input.
pub type Check = fn(&[u8]);

/// Every target, by name: what `fuzz/` builds and the replay test runs.
pub const TARGETS: &[(&str, Check)] = &[
    ("table", table),
    ("list", list),
    ("p2p", p2p),
    ("matrix", matrix),
    ("formula", formula),
    ("histograms", histograms),
    ("skeleton", skeleton),
    ("share", share),
    ("workspace", workspace),
    ("extrap", extrap),
    ("node_report", node_report),
    ("hpctoolkit", hpctoolkit),
    ("cali_json", cali_json),
    ("tau", tau),
    ("runs", runs),
    ("pages", pages),
    ("cli", cli),
];

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Fails on a NaN or infinity anywhere in `value`'s Debug text (see
/// `model::finite::debug_has_non_finite`).
pub fn assert_finite_debug(what: &str, value: &impl std::fmt::Debug) {
    assert!(
        !crate::model::finite::debug_has_non_finite(value),
        "{what}: a number that is not finite in {}",
        format!("{value:?}").chars().take(2000).collect::<String>()
    );
}

/// Runs `f`, and under the fuzzer fails when an input under 10 KB takes more than 100 ms.
fn timed<T>(what: &str, size: usize, f: impl FnOnce() -> T) -> T {
    #[cfg(fuzzing)]
    {
        let start = std::time::Instant::now();
        let out = f();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        assert!(size >= 10_240 || ms <= 100.0, "{what}: {ms:.0} ms for {size} bytes");
        out
    }
    #[cfg(not(fuzzing))]
    {
        let _ = (what, size);
        f()
    }
}

pub fn table(data: &[u8]) {
    use crate::model::input::table::parse_table;
    let t = text(data);
    for columns in [
        crate::model::speedup::page::POINT_COLUMNS,
        crate::model::comm::P2P_COLUMNS,
        crate::model::simulate::machine::HISTOGRAM_COLUMNS,
        crate::model::multigrid::page::PARALLEL_COLUMNS,
    ] {
        if let Ok(table) = parse_table("table", &t, columns) {
            assert!(table.rows.iter().flat_map(|r| r.values.iter().flatten()).all(|v| v.is_finite()));
        }
    }
}

pub fn list(data: &[u8]) {
    use crate::model::input::list::{numbers, sizes, whole_numbers, ListSpec};
    let t = text(data);
    let spec = ListSpec { max_items: 64, required: false };
    if let Ok(v) = numbers("list", &t, spec, Ok) {
        assert!(v.iter().all(|x| x.is_finite()));
    }
    let _ = whole_numbers("list", &t, spec, 1, 1_000_000_000);
    if let Ok(v) = sizes("list", &t, spec, 1e12) {
        assert!(v.iter().all(|x| x.is_finite()));
    }
}

pub fn p2p(data: &[u8]) {
    use crate::model::comm::{fit_all, parse_p2p};
    let parsed = parse_p2p(&text(data), None);
    if let Ok(fit) = timed("p2p", data.len(), || fit_all(&parsed.points)) {
        assert_finite_debug("p2p fits", &fit);
    }
}

pub fn matrix(data: &[u8]) {
    use crate::model::sites::gridcast::{clusters, parse_matrix};
    if let Ok(m) = parse_matrix(&text(data)) {
        let groups = timed("matrix", data.len(), || clusters(&m, 0.2));
        assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), m.n, "every node in one group");
    }
}

pub fn formula(data: &[u8]) {
    use crate::model::regions::Formula;
    if let Ok(f) = Formula::parse("formula", &text(data)) {
        for n in [1.0, 2.5, 1e4, 4e4] {
            if let Ok(v) = f.eval(n) {
                assert!(v.is_finite(), "{v}");
            }
        }
    }
}

pub fn histograms(data: &[u8]) {
    use crate::model::simulate::machine::Machine;
    if let Ok(m) = Machine::from_histograms("histograms", "fuzz", &text(data)) {
        assert_finite_debug("machine", &m);
    }
}

/// A skeleton parsed, compiled and run on a small machine, with a step limit.
pub fn skeleton(data: &[u8]) {
    use crate::model::simulate::job::{Job, Limits, Simulation};
    use crate::model::simulate::lang;
    use crate::model::simulate::machine::{Contention, Machine, Mode};
    let Ok(sk) = lang::parse(&text(data)) else { return };
    let Ok(machine) = Machine::fitted(1e-5, 1e8) else { return };
    let job = Job {
        skeleton: sk,
        params: Vec::new(),
        numprocs: vec![1, 2, 3, 5],
        procs_per_node: 1,
        machine,
        mode: Mode::Distribution,
        contention: Contention::Moment,
        replications: 2,
        seed: 1,
        compare: false,
        sequential_s: None,
        limits: Limits { max_steps_per_run: 20_000, max_steps_per_job: 1e6, ..Limits::default() },
    };
    if let Ok(sim) = Simulation::new(job) {
        if let Ok(report) = sim.run_to_end() {
            assert_finite_debug("simulation report", &report);
        }
    }
}

pub fn share(data: &[u8]) {
    let _ = crate::model::workspace::share::decode(&text(data));
}

pub fn workspace(data: &[u8]) {
    if let Ok(ws) = crate::model::workspace::Workspace::from_json("file", &text(data)) {
        // What was accepted writes back and reads again the same.
        let again = crate::model::workspace::Workspace::from_json("file", &ws.to_json());
        assert_eq!(again.as_ref().ok(), Some(&ws));
    }
}

/// A page's input texts from fuzz data: its defaults, then records separated by 0 bytes, each
/// a field (its first byte picks one of the page's fields) and the text it holds.
/// A page's texts from fuzz records: a field's index byte (into `fields`), its text, a 0
/// byte; each over `inputs`.
pub fn page_texts(fields: &[&str], data: &[u8], mut inputs: PageInputs) -> PageInputs {
    for record in data.split(|&b| b == 0) {
        let Some((&k, rest)) = record.split_first() else { continue };
        if let Some(field) = fields.get(k as usize % fields.len().max(1)) {
            inputs.insert(field.to_string(), text(rest));
        }
    }
    inputs
}

/// A calculator's page as the user types, for every row of the table of calculators: its key
/// and a 0 byte (any other first bytes pick a calculator by the first byte), then its texts
/// as [`page_texts`] records over its defaults. What the page shows is never NaN or infinity,
/// and a view computed on a keystroke takes at most 100 ms (under the fuzzer).
pub fn pages(data: &[u8]) {
    use crate::model::contracts::CONTRACTS;
    let (name, records) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let by_byte = || &CONTRACTS[name.first().map_or(0, |&b| usize::from(b)) % CONTRACTS.len()];
    let c = CONTRACTS.iter().find(|c| c.calculator.key.as_bytes() == name).unwrap_or_else(by_byte);
    let texts = page_texts(&(c.fields)(), records, (c.default_inputs)());
    let catalog = crate::model::catalog::presets();
    let key = c.calculator.key;
    let view =
        if c.on_keystroke { timed(key, data.len(), || (c.view)(&texts, &catalog)) } else { (c.view)(&texts, &catalog) };
    assert_finite_debug(key, &view);
}

/// An Extra-P experiment (text, JSON or JSON Lines): read, then its first 8 regions ranked at
/// two process counts (a file of many regions takes a few milliseconds per region by design;
/// the parsers see the whole input).
pub fn extrap(data: &[u8]) {
    use crate::model::bottlenecks::{parse, rank, RankOptions};
    let t = text(data);
    let Ok(mut e) = timed("extrap parse", data.len(), || parse(&t)) else { return };
    e.series.truncate(8);
    let opts = RankOptions { targets: vec![64, 4096], ..RankOptions::default() };
    if let Ok(r) = timed("extrap ranking", data.len(), || rank(&e, &opts)) {
        assert_finite_debug("extrap ranking", &r);
        for t in &r.tables {
            assert!(
                t.rows
                    .iter()
                    .all(|s| (0.0..=1.0).contains(&s.share) && s.low <= s.share + 1e-9 && s.share <= s.high + 1e-9),
                "shares out of order: {t:?}"
            );
        }
        // The speed-up page's workers pass the fits and the ranking as JSON: they read back.
        let fits = serde_json::to_string(&r.regions).expect("the fits write as JSON"); // ok: a fuzz check, its panic is the finding
        let back: Vec<crate::model::bottlenecks::RegionFit> = serde_json::from_str(&fits).expect("the fits read back"); // ok: a fuzz check, its panic is the finding
        assert_eq!(back.len(), r.regions.len());
        let ranking = serde_json::to_string(&r).expect("the ranking writes as JSON"); // ok: a fuzz check, its panic is the finding
        let reread: Result<crate::model::bottlenecks::Ranking, _> = serde_json::from_str(&ranking);
        reread.expect("the ranking reads back"); // ok: a fuzz check, its panic is the finding
    }
}

/// A pasted node report read as each format and as told by its content: a report read gives
/// catalog clusters that validate, of at least one node and one core each.
pub fn node_report(data: &[u8]) {
    use crate::model::catalog::Catalog;
    use crate::model::workspace::node_report::{read, read_sniffed, ReportFormat};
    let text = text(data);
    for format in ReportFormat::all() {
        let Ok(report) = timed("node_report", data.len(), || read(format, &text)) else { continue };
        assert_finite_debug("node report", &report);
        assert!(report.partitions.iter().all(|p| p.nodes >= 1 && p.cores_per_node >= 1), "{format:?}: an empty group");
        let catalog = Catalog { clusters: report.clusters(), links: Vec::new() };
        assert_eq!(catalog.validate(), Ok(()), "{format:?}: clusters the catalog refuses");
    }
    let _ = read_sniffed(&text);
}

/// A Caliper json-split file: sniffed, then read for its default metric exclusive and
/// inclusive (summed up the tree where the file has no inclusive column). A run read holds
/// finite figures, each path's largest rank at most its total, and at least one location.
pub fn cali_json(data: &[u8]) {
    use crate::model::cali::json::{read, sniff};
    use crate::model::profile::{Limits, Want};
    let _ = sniff(data);
    let limits = Limits { max_paths: 10_000, max_locations: 10_000 };
    for inclusive in [false, true] {
        let want = Want { metric: None, inclusive };
        let Ok(r) = timed("cali_json", data.len(), || read(data, &want, &limits)) else { continue };
        assert_finite_debug("cali_json", &r);
        assert!(r.locations >= 1 && !r.paths.is_empty(), "an empty run read: {r:?}");
        assert!(r.paths.iter().all(|p| p.max <= p.total * (1.0 + 1e-12)), "a rank above the total: {r:?}");
    }
}

/// A TAU profile folder: the first byte picks the value asked for (bit 0: inclusive; bit 1:
/// the metric PAPI_TOT_CYC, else the default), then files separated by 0 bytes, each a byte
/// that picks its path (of [`TAU_PATHS`], modulo 8: a 0 byte ends a file, so 8 picks the
/// first) and its text. A run read holds only finite numbers,
/// within its limits, and no path's largest location is more than its total.
pub fn tau(data: &[u8]) {
    use crate::model::profile::{Limits, Want};
    let Some((&ask, rest)) = data.split_first() else { return };
    let files: Vec<(&str, &[u8])> = rest
        .split(|&b| b == 0)
        .filter_map(|r| r.split_first())
        .map(|(&k, text)| (TAU_PATHS[k as usize % TAU_PATHS.len()], text))
        .collect();
    let want = Want { metric: (ask & 2 != 0).then(|| "PAPI_TOT_CYC".to_string()), inclusive: ask & 1 != 0 };
    let limits = Limits { max_paths: 64, max_locations: 6 };
    let Ok(run) = timed("tau", data.len(), || crate::model::tau::read(&files, &want, &limits)) else { return };
    assert_finite_debug("tau run", &run);
    assert!(run.paths.len() <= 64 && run.locations <= 6 && run.locations >= 1, "limits passed: {run:?}");
    assert!(
        run.paths.iter().all(|p| 0.0 <= p.max && p.max <= p.total * (1.0 + 1e-12)),
        "a max over its total: {run:?}"
    );
}

/// The paths the `tau` target's files take.
pub const TAU_PATHS: [&str; 8] = [
    "profile.0.0.0",
    "profile.1.0.0",
    "profile.0.0.1",
    "MULTI__TIME/profile.0.0.0",
    "MULTI__TIME/profile.1.0.0",
    "MULTI__PAPI_TOT_CYC/profile.0.0.0",
    "MULTI__PAPI_TOT_CYC/profile.1.0.0",
    "events.0.edf",
];

/// A set of files given to the Bottlenecks calculator (`bottlenecks::runs::read_set`, the
/// detector, the layout and every reader: Cube, `.cali`, Caliper JSON, TAU, HPCToolkit): the
/// first byte picks the options, then files separated by [`RUNS_PART`], each a byte that picks
/// its path (of [`RUNS_PATHS`]) and its bytes. An experiment read holds only finite numbers,
/// and its text for the page reads back.
pub fn runs(data: &[u8]) {
    let _ = runs_read(data);
}

/// [`runs`]'s reading: the format read and the number of runs, when the set is read.
pub fn runs_read(data: &[u8]) -> Option<(String, usize)> {
    use crate::model::bottlenecks::runs::{read_set, to_text, Aggregate, Limits, RunOptions, LIMITS};
    let (&ask, mut rest) = data.split_first()?;
    let mut parts: Vec<&[u8]> = Vec::new();
    while let Some(at) = rest.windows(RUNS_PART.len()).position(|w| w == RUNS_PART) {
        parts.push(&rest[..at]);
        rest = &rest[at + RUNS_PART.len()..];
    }
    parts.push(rest);
    let files: Vec<(String, &[u8])> = parts
        .into_iter()
        .filter_map(|r| r.split_first())
        .map(|(&k, bytes)| (RUNS_PATHS[k as usize % RUNS_PATHS.len()].to_string(), bytes))
        .collect();
    let paths: Vec<String> = files.iter().map(|f| f.0.clone()).collect();
    let options = RunOptions {
        inclusive: ask & 1 != 0,
        aggregate: Aggregate::ALL[(ask as usize >> 1) % 3],
        parameters: if ask & 8 != 0 { vec!["mpi.world.size".into()] } else { Vec::new() },
        metric: None,
    };
    let limits = Limits { runs: 16, callpaths: 256, locations: 64, ..LIMITS };
    let read = timed("runs", data.len(), || {
        read_set(&paths, &options, &limits, &mut |i| Ok(files[i].1.to_vec()), &mut |_, _| {})
    });
    let (e, summary) = read.ok()?;
    let values: Vec<f64> = e.series.iter().flat_map(|s| s.points.iter().flat_map(|m| m.values.clone())).collect();
    assert_finite_debug("runs experiment", &values);
    if summary.source != "saved" {
        let text = to_text(&e, &summary);
        assert!(crate::model::bottlenecks::parse(&text).is_ok(), "the text of runs read reads back: {text}");
    }
    Some((summary.source, summary.runs))
}

/// What separates the `runs` target's files.
pub const RUNS_PART: &[u8] = b"\n--file--\n";

/// The paths the `runs` target's files take: runs of every format the detector knows.
pub const RUNS_PATHS: [&str; 12] = [
    "a.p2/profile.cubex",
    "a.p4/profile.cubex",
    "p2.cali",
    "p4.cali",
    "p2.json",
    "t.p2/profile.0.0.0",
    "t.p2/profile.1.0.0",
    "t.p4/MULTI__TIME/profile.0.0.0",
    "db/experiment.xml",
    "db/1.x-000000-000-a-1-0.metric-db",
    "db/1.x-000001-000-a-2-0.metric-db",
    "notes.txt",
];

/// A subcommand's JSON handler: the first byte picks the subcommand, the rest is its input.
/// An answer is never a NaN or infinity (the command refuses those, naming the key, in
/// `to_json`), and nothing panics.
pub fn cli(data: &[u8]) {
    let Some((&k, rest)) = data.split_first() else { return };
    let cmds = crate::cli::SUBCOMMANDS;
    let cmd = &cmds[k as usize % cmds.len()];
    let Ok(mut input) = serde_json::from_slice::<serde_json::Value>(rest) else { return };
    // The command reads the text of a value serde_json reads (`cli::check_json`).
    // The simulator runs what it is given: keep its runs small (the skeleton target runs
    // skeletons; this one is for the JSON around them).
    if cmd.name == "simulate" {
        let Some(m) = input.as_object_mut() else { return };
        m.insert("max_steps".into(), serde_json::json!(20_000));
        if m.get("replications").and_then(serde_json::Value::as_u64).is_none_or(|r| r > 4) {
            m.insert("replications".into(), serde_json::json!(2));
        }
    }
    // A simulation's run takes what its job asks for (bounded here by its steps and by the
    // fuzzer's 1 s per input); the 100 ms bound is for page evaluations.
    // Its answer written as the command writes it (the finite check included), to nowhere.
    if let Ok(reply) = (cmd.run)(&input.to_string(), &[]) {
        let _ = crate::cli::emit(&mut std::io::sink(), &*reply, true);
    }
}

/// What separates the files of an HPCToolkit database in the `hpctoolkit` target's input.
pub const HPCTOOLKIT_PART: &[u8] = b"\n--metric-db--\n";

/// The files of an HPCToolkit database in one input: its parts between [`HPCTOOLKIT_PART`]s
/// are `experiment.xml`, then the metric-db files of rank 0, 1, ... (thread 0).
pub fn hpctoolkit_files(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut parts = Vec::new();
    let mut rest = data;
    while let Some(at) = rest.windows(HPCTOOLKIT_PART.len()).position(|w| w == HPCTOOLKIT_PART) {
        parts.push(&rest[..at]);
        rest = &rest[at + HPCTOOLKIT_PART.len()..];
    }
    parts.push(rest);
    let name = |k: usize| match k {
        0 => "experiment.xml".to_string(),
        _ => format!("1.fuzz-{:06}-000-a8c00270-1-0.metric-db", k - 1),
    };
    parts.iter().enumerate().map(|(k, p)| (name(k), p.to_vec())).collect()
}

/// An HPCToolkit database ([`hpctoolkit_files`]) read for inclusive and exclusive values: a
/// run read holds finite figures, none negative, no location's more than the total.
pub fn hpctoolkit(data: &[u8]) {
    use crate::model::profile::{Limits, Want};
    let files = hpctoolkit_files(data);
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    let limits = Limits { max_paths: 10_000, max_locations: 64 };
    for inclusive in [true, false] {
        let want = Want { metric: None, inclusive };
        let read = || crate::model::hpctoolkit::read(&files, &want, &limits);
        let Ok(run) = timed("hpctoolkit", data.len(), read) else { continue };
        assert_finite_debug("hpctoolkit run", &run);
        assert!(run.paths.iter().all(|p| 0.0 <= p.max && p.max <= p.total * (1.0 + 1e-12)), "{run:?}");
    }
}
