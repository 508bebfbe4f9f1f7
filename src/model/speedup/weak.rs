//! Weak scaling: the work grows with the process count n, so a perfect code keeps its time;
//! a real one's time stays flat or grows. The measured times are modelled by the Bottlenecks
//! page's search (`model::fit::search`: a constant, Extra-P's normal form with growing or
//! falling terms, a power law, …, chosen by leave-one-out), which predicts the time at larger
//! n with a 90 % range; the weak-scaling efficiency is T(n₀)/T(n), n₀ the smallest count
//! measured (1 when a one-process run is given), which an allocation request asks for.

use super::{Measure, PointView, RawPoint};
use crate::model::fit::prepare;
use crate::model::fit::region::{region_model, with_n, PointSummary};
use crate::model::fit::search::{search, RegionModel, LEVEL};
use crate::model::{fmt_num, InputError};

/// One measured count (repeated rows averaged, weighted).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(schemars::JsonSchema))]
pub struct WeakPoint {
    pub n: u32,
    pub time_s: f64,
    /// T(n₀)/T(n).
    pub efficiency: f64,
    pub merged_rows: usize,
}

/// A prediction at one n: (value, low, high) at [`LEVEL`].
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeakPrediction {
    pub n: u32,
    pub time_s: (f64, f64, f64),
    pub efficiency: (f64, f64, f64),
    /// n over the largest measured count.
    pub horizon: f64,
}

/// A weak-scaling series, modelled.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Weak {
    pub points: Vec<WeakPoint>,
    /// The model's relative error at a point left out (leave-one-out), where it has one.
    pub loo: Option<f64>,
    /// What the search says of the model (e.g. a point it could not follow).
    pub note: Option<String>,
    /// The model's family and the model written out in n.
    pub family: String,
    pub formula: String,
    /// The count the efficiency is relative to, and its time.
    pub base_n: u32,
    pub base_time_s: f64,
    pub predictions: Vec<WeakPrediction>,
    /// The model's (n, (time, low, high)) from the smallest count to the largest target, for a
    /// chart.
    pub curve: Vec<(f64, (f64, f64, f64))>,
    pub level: f64,
    pub warnings: Vec<String>,
}

/// Models a weak-scaling series of times (`measure` must be times) and predicts at `targets`
/// (none: 4× and 16× the largest count).
pub fn analyse_weak(field: &str, raw: &[RawPoint], measure: Measure, targets: &[u32]) -> Result<Weak, InputError> {
    analyse_sent(field, raw, measure, targets, None)
}

/// The page input in which the Bottlenecks page sends a region it opens here ([`region_text`]).
pub const REGION_KEY: &str = "bottlenecks_region";

/// A region of the Bottlenecks page, as it sends it ([`region_text`]): its points at every
/// value of every parameter, and where the other parameters are held.
#[derive(Debug, Clone, PartialEq)]
struct Sent {
    callpath: String,
    names: Vec<String>,
    process: usize,
    held: Vec<f64>,
    points: Vec<PointSummary>,
}

/// A region of a Bottlenecks ranking, for the speed-up page's [`REGION_KEY`]: a line "region",
/// its call path; "parameters", their names; "process", the process count's index among them;
/// "held", the point whose other values the page holds (its chart's); then a line "point" per measured
/// point: its value of each parameter, the median time and the repetitions' relative spread
/// (what the region's model is fitted to, [`region_model`]). Tab separated; numbers written
/// as Rust writes them, which reads them back exactly.
pub fn region_text(
    callpath: &str,
    parameters: &[String],
    process: usize,
    held: &[f64],
    points: &[PointSummary],
) -> String {
    let mut s = format!("region\t{callpath}\nparameters\t{}\nprocess\t{process}\nheld", parameters.join("\t"));
    for v in held {
        s.push_str(&format!("\t{v}"));
    }
    for p in points {
        s.push_str("\npoint");
        for v in p.coords.iter().chain([&p.median, &p.noise]) {
            s.push_str(&format!("\t{v}"));
        }
    }
    s
}

/// What is wrong with a region sent by the Bottlenecks page (it comes in a link).
#[derive(Debug, Clone, PartialEq, Eq)]
enum BadSent {
    /// A word on `line` that should be a number (its first 20 characters).
    NotANumber {
        line: usize,
        word: String,
    },
    NoProcessIndex {
        line: usize,
    },
    PointWithoutTime {
        line: usize,
    },
    NotARegionLine {
        line: usize,
    },
    /// Parameters, held point and points that do not fit together.
    Mismatch,
}

impl std::fmt::Display for BadSent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadSent::NotANumber { line, word } => write!(f, "line {line}: \"{word}\" is not a number"),
            BadSent::NoProcessIndex { line } => write!(f, "line {line}: no process index"),
            BadSent::PointWithoutTime { line } => write!(f, "line {line}: a point without its time"),
            BadSent::NotARegionLine { line } => write!(f, "line {line}: not a line of a region"),
            BadSent::Mismatch => f.write_str("its parameters, held point or points do not match"),
        }
    }
}

/// [`region_text`] read back; what is wrong with it otherwise.
fn read_sent(text: &str) -> Result<Sent, BadSent> {
    let mut sent =
        Sent { callpath: String::new(), names: Vec::new(), process: 0, held: Vec::new(), points: Vec::new() };
    for (k, line) in text.lines().enumerate() {
        let line_no = k + 1;
        let mut words = line.split('\t');
        let number = |w: &str| {
            w.parse::<f64>().map_err(|_| BadSent::NotANumber { line: line_no, word: w.chars().take(20).collect() })
        };
        let numbers = |words: std::str::Split<'_, char>| words.map(number).collect::<Result<Vec<f64>, BadSent>>();
        match words.next() {
            Some("region") => sent.callpath = words.collect::<Vec<_>>().join("\t"),
            Some("parameters") => sent.names = words.map(str::to_string).collect(),
            Some("process") => {
                sent.process =
                    words.next().and_then(|w| w.parse().ok()).ok_or(BadSent::NoProcessIndex { line: line_no })?
            }
            Some("held") => sent.held = numbers(words)?,
            Some("point") => {
                let mut v = numbers(words)?;
                let (Some(noise), Some(median)) = (v.pop(), v.pop()) else {
                    return Err(BadSent::PointWithoutTime { line: line_no });
                };
                let n = v.get(sent.process).copied().unwrap_or(0.0);
                sent.points.push(PointSummary { n, median, noise, repetitions: 1, coords: v });
            }
            _ => return Err(BadSent::NotARegionLine { line: line_no }),
        }
    }
    let d = sent.names.len();
    let whole = |x: &Vec<f64>| x.len() == d && x.iter().all(|v| v.is_finite() && *v > 0.0);
    if !(1..=4).contains(&d)
        || sent.process >= d
        || !whole(&sent.held)
        || sent.points.is_empty()
        || !sent.points.iter().all(|p| {
            whole(&p.coords) && p.noise.is_finite() && (p.median.is_nan() || (p.median.is_finite() && p.median >= 0.0))
        })
    {
        return Err(BadSent::Mismatch);
    }
    Ok(sent)
}

/// The time along the process count of a region's model, the other parameters held.
struct Along<'a> {
    model: &'a RegionModel,
    held: &'a [f64],
    process: usize,
}

impl Along<'_> {
    fn at(&self, n: f64) -> (f64, f64, f64) {
        self.model.at_point(&with_n(self.held, self.process, n))
    }
}

/// Whether the table's points (merged) are the region's at its held point: the same counts
/// and times. Edited ones are modelled alone.
fn same_points(sent: &Sent, pts: &[PointView]) -> bool {
    let held =
        |p: &&PointSummary| p.coords.iter().zip(&sent.held).enumerate().all(|(j, (a, b))| j == sent.process || a == b);
    let mut slice: Vec<&PointSummary> = sent.points.iter().filter(held).collect();
    slice.sort_by(|a, b| a.n.total_cmp(&b.n));
    slice.len() == pts.len()
        && slice
            .iter()
            .zip(pts)
            .all(|(a, b)| a.n == f64::from(b.n) && (a.median - b.value).abs() <= 1e-9 * b.value.abs())
}

/// [`analyse_weak`], or, given a region the Bottlenecks page sent ([`region_text`]) whose
/// points the table still holds, that region's model as the Bottlenecks page fits it, over
/// all its points ([`region_model`]), along the process count with the other parameters
/// held as there: the two pages then give the same times.
pub fn analyse_sent(
    field: &str,
    raw: &[RawPoint],
    measure: Measure,
    targets: &[u32],
    sent: Option<&str>,
) -> Result<Weak, InputError> {
    if measure != Measure::TimeS {
        return Err(InputError::new(
            field,
            "weak scaling needs times: a speed-up T(1)/T(n) means nothing when the work grows with n",
        ));
    }
    let mut warnings = Vec::new();
    let pts = prepare(field, raw, measure, &mut warnings)?;
    let (first, last) = match (pts.first(), pts.last()) {
        (Some(a), Some(b)) => (a.n, b.n),
        _ => return Err(InputError::new(field, "no points yet: give (n, time) pairs of a weak-scaling series")),
    };
    let targets: Vec<u32> =
        if targets.is_empty() { vec![last.saturating_mul(4), last.saturating_mul(16)] } else { targets.to_vec() };
    let top = targets.iter().copied().max().unwrap_or(last).max(last);
    let mut ns = Vec::new();
    let mut n = first;
    while n < top && ns.len() < 40 {
        ns.push(f64::from(n));
        n = n.saturating_mul(2);
    }
    ns.push(f64::from(top));
    let checks: Vec<f64> = targets.iter().map(|&t| f64::from(t)).chain(ns.iter().copied()).collect();
    let sent = match sent.map(read_sent) {
        Some(Ok(r)) if same_points(&r, &pts) => Some(r),
        Some(Ok(r)) => {
            warnings.push(format!(
                "the points are no longer those of {} on the Bottlenecks page: modelled from them alone",
                r.callpath
            ));
            None
        }
        Some(Err(e)) => {
            warnings.push(format!(
                "the region sent by the Bottlenecks page could not be read ({e}): the points are modelled alone"
            ));
            None
        }
        None => None,
    };
    let (model, held, process) = match &sent {
        Some(r) => {
            let checks: Vec<Vec<f64>> = checks.iter().map(|&n| with_n(&r.held, r.process, n)).collect();
            let (m, _) =
                region_model(&r.points, r.names.len(), &checks).map_err(|e| InputError::new(field, e.to_string()))?;
            (m, r.held.clone(), r.process)
        }
        None => {
            let series: Vec<(f64, f64, f64)> = pts.iter().map(|p| (f64::from(p.n), p.value, 0.0)).collect();
            (search(&series, &checks).map_err(|e| InputError::new(field, e.to_string()))?, vec![f64::from(last)], 0)
        }
    };
    let model = Along { model: &model, held: &held, process };
    let base_time_s = pts[0].value;
    if first != 1 {
        warnings
            .push(format!("no run at n = 1: the efficiency is relative to the smallest count measured, n = {first}"));
    }
    let efficiency = |t: f64| base_time_s / t;
    let predictions = targets
        .iter()
        .map(|&n| {
            let (t, lo, hi) = model.at(f64::from(n));
            WeakPrediction {
                n,
                time_s: (t, lo, hi),
                efficiency: (efficiency(t), efficiency(hi), efficiency(lo)),
                horizon: f64::from(n) / f64::from(last),
            }
        })
        .collect();
    if let Some(note) = &model.model.note {
        warnings.push(note.clone());
    }
    let (family, formula) = match &sent {
        Some(r) => {
            let names: Vec<&str> = r.names.iter().map(String::as_str).collect();
            let others: Vec<String> = names
                .iter()
                .zip(&r.held)
                .enumerate()
                .filter(|(j, _)| *j != process)
                .map(|(_, (name, v))| format!("{name} = {}", fmt_num(*v, 6)))
                .collect();
            let held = if others.is_empty() { String::new() } else { format!(", {} held", others.join(", ")) };
            warnings.insert(0, format!(
                "modelled as on the Bottlenecks page: the model of {} fitted to its {} points, read along {} (this page's n){held}",
                r.callpath, r.points.len(), names[process]));
            (format!("the Bottlenecks page's {}", model.model.form.family()), model.model.form.text_named(&names))
        }
        None => (model.model.form.family().to_string(), model.model.form.text_named(&["n"])),
    };
    let grows = model.model.grows_along(&held, process);
    if grows {
        warnings.push(format!(
            "the time grows with n: at n = {top} the efficiency is {}",
            fmt_num(efficiency(model.at(f64::from(top)).0), 3)
        ));
    }
    Ok(Weak {
        points: pts
            .iter()
            .map(|p| WeakPoint { n: p.n, time_s: p.value, efficiency: efficiency(p.value), merged_rows: p.merged_rows })
            .collect(),
        family,
        formula,
        curve: ns.iter().map(|&n| (n, model.at(n))).collect(),
        loo: model.model.loo,
        note: model.model.note.clone(),
        base_n: first,
        base_time_s,
        predictions,
        level: LEVEL,
        warnings,
    })
}

/// A weak-scaling analysis as two flat lists, numbers and texts: the form in which the speed-up
/// page's Web Worker sends it ([`flatten`], [`unflatten`]). The page reads two lists with code
/// it has anyway; a derived JSON reader of [`Weak`] and its parts would take 6 KB gzipped of
/// its 300 KB.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
pub struct Flat {
    pub nums: Vec<f64>,
    pub texts: Vec<String>,
}

/// `r` as [`Flat`]. The numbers: 1 (an analysis) or 0 (an error); for an error its line and
/// column (0: none) and the texts field and message; for an analysis base n, base time,
/// level, whether there is a leave-one-out error and its value, whether there is a note, then
/// the points (count, then n, time, efficiency, rows each), the predictions (count, then n,
/// time, low, high, efficiency, its low and high, horizon each) and the curve (count, then n,
/// time, low, high each); the texts family, formula, the note if any, then the warnings.
pub fn flatten(r: &Result<Weak, InputError>) -> Flat {
    let w = match r {
        Err(e) => {
            let at = |x: Option<usize>| x.map_or(0.0, |v| v as f64);
            return Flat { nums: vec![0.0, at(e.line), at(e.column)], texts: vec![e.field.clone(), e.message.clone()] };
        }
        Ok(w) => w,
    };
    let mut nums = vec![
        1.0,
        f64::from(w.base_n),
        w.base_time_s,
        w.level,
        f64::from(u8::from(w.loo.is_some())),
        w.loo.unwrap_or(0.0),
    ];
    nums.push(f64::from(u8::from(w.note.is_some())));
    nums.push(w.points.len() as f64);
    for p in &w.points {
        nums.extend([f64::from(p.n), p.time_s, p.efficiency, p.merged_rows as f64]);
    }
    nums.push(w.predictions.len() as f64);
    for p in &w.predictions {
        let (t, e) = (p.time_s, p.efficiency);
        nums.extend([f64::from(p.n), t.0, t.1, t.2, e.0, e.1, e.2, p.horizon]);
    }
    nums.push(w.curve.len() as f64);
    for (n, t) in &w.curve {
        nums.extend([*n, t.0, t.1, t.2]);
    }
    let texts = [&w.family, &w.formula].into_iter().chain(&w.note).chain(&w.warnings).cloned().collect();
    Flat { nums, texts }
}

/// [`flatten`]'s analysis or error again; None when `f` is not one [`flatten`] wrote.
pub fn unflatten(f: &Flat) -> Option<Result<Weak, InputError>> {
    let mut nums = f.nums.iter().copied();
    let mut next = || nums.next();
    let mut texts = f.texts.iter().cloned();
    let whole = |x: f64| (x >= 0.0 && x.fract() == 0.0 && x <= f64::from(u32::MAX)).then_some(x as u32);
    if next()? == 0.0 {
        let at = |x: f64| whole(x).filter(|&v| v > 0).map(|v| v as usize);
        let (line, column) = (at(next()?), at(next()?));
        return Some(Err(InputError { field: texts.next()?, line, column, message: texts.next()? }));
    }
    let (base_n, base_time_s, level) = (whole(next()?)?, next()?, next()?);
    let loo = (next()? == 1.0, next()?);
    let loo = loo.0.then_some(loo.1);
    let has_note = next()? == 1.0;
    // A count is at most what is left, so a wrong one cannot ask for much memory.
    let left = f.nums.len();
    let count = |x: f64| whole(x).map(|c| c as usize).filter(|&c| c <= left);
    let mut points = Vec::new();
    for _ in 0..count(next()?)? {
        let (n, time_s, efficiency, rows) = (whole(next()?)?, next()?, next()?, whole(next()?)?);
        points.push(WeakPoint { n, time_s, efficiency, merged_rows: rows as usize });
    }
    let mut predictions = Vec::new();
    for _ in 0..count(next()?)? {
        let n = whole(next()?)?;
        let time_s = (next()?, next()?, next()?);
        let efficiency = (next()?, next()?, next()?);
        predictions.push(WeakPrediction { n, time_s, efficiency, horizon: next()? });
    }
    let mut curve = Vec::new();
    for _ in 0..count(next()?)? {
        curve.push((next()?, (next()?, next()?, next()?)));
    }
    let (family, formula) = (texts.next()?, texts.next()?);
    let note = if has_note { Some(texts.next()?) } else { None };
    Some(Ok(Weak {
        points,
        loo,
        note,
        family,
        formula,
        base_n,
        base_time_s,
        predictions,
        curve,
        level,
        warnings: texts.collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(pts: &[(f64, f64)]) -> Vec<RawPoint> {
        pts.iter().map(|&(n, value)| RawPoint { n, value, weight: None, nodes: None, line: None }).collect()
    }

    #[test]
    fn a_damaged_sent_region_says_which_line_and_why() {
        let good = "region\tmain\nparameters\tp\nprocess\t0\nheld\t1\npoint\t2\t10\t0.1\npoint\t4\t6\t0.1";
        assert_eq!(read_sent(good).map(|s| s.points.len()), Ok(2));
        let cases = [
            (
                good.replace("\t6\t", "\tsix\t"),
                BadSent::NotANumber { line: 6, word: "six".into() },
                "line 6: \"six\" is not a number",
            ),
            (good.replace("process\t0", "process\tx"), BadSent::NoProcessIndex { line: 3 }, "line 3: no process index"),
            (
                good.replace("point\t4\t6\t0.1", "point"),
                BadSent::PointWithoutTime { line: 6 },
                "line 6: a point without its time",
            ),
            (format!("{good}\nwhat"), BadSent::NotARegionLine { line: 7 }, "line 7: not a line of a region"),
            (
                good.replace("held\t1", "held\t0"),
                BadSent::Mismatch,
                "its parameters, held point or points do not match",
            ),
        ];
        for (text, why, said) in cases {
            assert_eq!(read_sent(&text).err(), Some(why.clone()), "{text}");
            assert_eq!(why.to_string(), said);
        }
    }

    #[test]
    fn a_time_that_grows_as_log_n_is_predicted_with_its_efficiency() {
        // T(n) = 10 + 0.5·log2 n, to three decimals: a weak-scaling code with a tree reduction.
        let pts: Vec<(f64, f64)> = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]
            .iter()
            .map(|&n: &f64| (n, ((10.0 + 0.5 * n.log2()) * 1000.0).round() / 1000.0))
            .collect();
        let w = analyse_weak("points", &raw(&pts), Measure::TimeS, &[512, 4096]).unwrap();
        assert_eq!(w.base_n, 1);
        let truth = |n: f64| 10.0 + 0.5 * n.log2();
        for p in &w.predictions {
            let (t, lo, hi) = p.time_s;
            assert!((t / truth(f64::from(p.n)) - 1.0).abs() < 0.01, "{} at {}: {t}", w.formula, p.n);
            assert!(lo < t && t < hi);
            assert!((p.efficiency.0 - 10.0 / t).abs() < 1e-12);
            assert!(p.efficiency.1 < p.efficiency.0 && p.efficiency.0 < p.efficiency.2);
        }
        assert!(w.formula.contains("log₂ n"), "{}", w.formula);
        assert!(w.warnings.iter().any(|x| x.contains("the time grows with n")));
        assert!((w.points[5].efficiency - 10.0 / 12.5).abs() < 1e-9);
    }

    #[test]
    fn a_flat_series_stays_flat_and_speed_ups_are_refused() {
        let w =
            analyse_weak("points", &raw(&[(4.0, 20.0), (8.0, 20.1), (16.0, 19.9), (32.0, 20.0)]), Measure::TimeS, &[])
                .unwrap();
        assert_eq!(w.family, "constant");
        assert_eq!(w.predictions.iter().map(|p| p.n).collect::<Vec<_>>(), [128, 512]);
        assert!((w.predictions[1].efficiency.0 - 1.0).abs() < 0.01);
        assert!(w.warnings.iter().any(|x| x.contains("relative to the smallest count measured, n = 4")));
        let e = analyse_weak("points", &raw(&[(1.0, 1.0), (2.0, 1.9)]), Measure::Speedup, &[]).unwrap_err();
        assert!(e.message.contains("weak scaling needs times"));
        let e = analyse_weak("points", &raw(&[(1.0, -1.0), (2.0, 1.9)]), Measure::TimeS, &[]).unwrap_err();
        assert!(e.message.contains("greater than 0"), "{e}");
    }

    /// The worker's flat form gives back what it was given, through JSON as the page reads
    /// it; a list cut short or a count too large is refused, not read.
    #[test]
    fn the_flat_form_gives_back_the_analysis() {
        let pts: Vec<(f64, f64)> =
            [1.0, 2.0, 4.0, 8.0, 16.0].iter().map(|&n: &f64| (n, 10.0 + 0.3 * n.log2())).collect();
        let mut rows = raw(&pts);
        rows.push(RawPoint { n: 4.0, value: 10.7, weight: None, nodes: None, line: None });
        let w = analyse_weak("points", &rows, Measure::TimeS, &[64]).unwrap();
        assert!(w.points.iter().any(|p| p.merged_rows == 2) && !w.warnings.is_empty() && !w.curve.is_empty());
        let mut with_note = w.clone();
        with_note.note = Some("a note".into());
        with_note.loo = None;
        let error = InputError::new("points", "weak scaling needs times").at(3, Some(2));
        let cases = [Ok(w.clone()), Ok(with_note), Err(error), Err(InputError::new("points", "no points yet"))];
        for r in &cases {
            let f = flatten(r);
            let back: Flat = serde_json::from_str(&serde_json::to_string(&f).unwrap()).unwrap();
            assert_eq!(unflatten(&back).as_ref(), Some(r));
        }
        let f = flatten(&Ok(w));
        let cut = Flat { nums: f.nums[..f.nums.len() - 1].to_vec(), texts: f.texts.clone() };
        assert_eq!(unflatten(&cut), None);
        let mut huge = f.clone();
        huge.nums[7] = 1e9;
        assert_eq!(unflatten(&huge), None);
        assert_eq!(unflatten(&Flat { nums: f.nums.clone(), texts: vec!["constant".into()] }), None);
    }
}
