//! Which forecast? The candidates tried for the speed-up forecast (issue 31), each a way of
//! predicting the larger counts' times from the K smallest, and the choice among them by
//! leave-one-source-out: a candidate is judged by the pooled median error plus the 80th
//! percentile of the sources' median errors (`Headline::score`), so that a few large sources
//! cannot carry it and the worse sources count.
//!
//! `select` scores every candidate on every source and, in turn for each source, chooses on
//! the others alone and predicts the held-out source with that choice (nested): the nested
//! figures are what the choice itself is worth on sources it never saw.
//!
//! The laws (times t at counts n, k the largest measured, T(k) its time):
//! - ideal scaling T(k)·k/n; Amdahl by least squares; Amdahl anchored at k (`forecast`);
//! - power laws T(k)·(k/n)^α, α the log–log slope of every point or of the last two (0 ≤ α ≤ 1);
//! - the five fitted models and the calculator's best one (`speedup::analyse`);
//! - geometric blends, medians, the forecast's rules (`forecast::Rule`), node-aware variants
//!   that, where every measured run is inside one node and n needs more, carry the forecast
//!   to the node's size r and scale it from there as (r/n)^γ, and laws slowed by h^β with
//!   the horizon h (far series mostly run slower than any law predicts).

use super::{headline, Cut, Headline, Outcome, Predicted, Predictor};
use crate::model::fit::forecast::{self, Rule};
use crate::model::speedup::{Model, MODELS};

/// A way of predicting.
#[derive(Debug, Clone, PartialEq)]
pub enum Law {
    Ideal,
    LeastSquaresAmdahl,
    AnchoredAmdahl,
    PowerAll,
    PowerLastTwo,
    Fitted(Model),
    BestFit,
    /// e^(w·ln x + (1 − w)·ln y).
    Geometric(Box<Law>, Box<Law>, f64),
    /// The median of the laws' predictions (the geometric mean of the middle two).
    Median(Vec<Law>),
    Forecast(Rule),
    /// The forecast's rule; beyond the one node of the runs, (r/n)^γ from the node's size r.
    NodeAware(Rule, f64),
    /// A law times h^β (h the horizon): slower the further out, as most far series are.
    Penalized(Box<Law>, f64),
}

fn pct(x: f64) -> String {
    crate::model::fmt_num(x, 3)
}

impl Law {
    pub fn name(&self) -> String {
        match self {
            Law::Ideal => "ideal scaling".into(),
            Law::LeastSquaresAmdahl => "Amdahl, least squares".into(),
            Law::AnchoredAmdahl => "Amdahl anchored at the largest count (round 1's forecast)".into(),
            Law::PowerAll => "power law through every point".into(),
            Law::PowerLastTwo => "power law through the last two points".into(),
            Law::Fitted(m) => format!("fitted {}", m.name()),
            Law::BestFit => "best-fitting model".into(),
            Law::Geometric(a, b, w) => format!("blend {}·{} + {}·{}", pct(*w), a.short(), pct(1.0 - w), b.short()),
            Law::Median(ls) => format!("median of {}", ls.iter().map(Law::short).collect::<Vec<_>>().join(", ")),
            Law::Forecast(r) => rule_name(*r),
            Law::NodeAware(r, g) => format!("{}, across nodes (r/n)^{}", rule_name(*r), pct(*g)),
            Law::Penalized(l, b) => format!("{} × h^{}", l.name(), pct(*b)),
        }
    }

    fn short(&self) -> String {
        match self {
            Law::Ideal => "ideal".into(),
            Law::LeastSquaresAmdahl => "LS Amdahl".into(),
            Law::AnchoredAmdahl => "anchored Amdahl".into(),
            Law::PowerAll => "power (all)".into(),
            Law::PowerLastTwo => "power (last two)".into(),
            Law::Fitted(m) => m.name().into(),
            other => other.name(),
        }
    }

    /// Time-like predictions at the cut's counts, in order.
    fn values(&self, cut: &Cut) -> Option<Vec<f64>> {
        let basis = cut.basis();
        let &(k, tk, _) = basis.last()?;
        let at: Vec<f64> = cut.rest.iter().map(|p| f64::from(p.0)).collect();
        let out: Vec<f64> = match self {
            Law::Ideal => at.iter().map(|n| tk * k / n).collect(),
            Law::LeastSquaresAmdahl => {
                let pts: Vec<(f64, f64)> = basis.iter().map(|b| (1.0 / b.0, b.1)).collect();
                let l = crate::model::fit::line::fit_unweighted(&pts)?;
                at.iter().map(|n| (l.intercept + l.slope / n).max(1e-12)).collect()
            }
            Law::AnchoredAmdahl => {
                let (a, b) = forecast::anchored_amdahl(&basis)?;
                at.iter().map(|n| a + b / n).collect()
            }
            Law::PowerAll => {
                let pts: Vec<(f64, f64)> = basis.iter().map(|b| (b.0.ln(), b.1.ln())).collect();
                let alpha = (-crate::model::fit::line::fit_unweighted(&pts)?.slope).clamp(0.0, 1.0);
                at.iter().map(|n| tk * (k / n).powf(alpha)).collect()
            }
            Law::PowerLastTwo => {
                let alpha = forecast::slopes(&basis)?.1.clamp(0.0, 1.0);
                at.iter().map(|n| tk * (k / n).powf(alpha)).collect()
            }
            Law::Fitted(m) => times(&cut.analysis.as_ref()?.fit(*m)?.predictions, cut)?,
            Law::BestFit => times(&cut.analysis.as_ref()?.best_fit()?.predictions, cut)?,
            Law::Geometric(a, b, w) => {
                let (x, y) = (a.values(cut)?, b.values(cut)?);
                x.iter().zip(&y).map(|(x, y)| (w * x.ln() + (1.0 - w) * y.ln()).exp()).collect()
            }
            Law::Median(ls) => {
                let all: Vec<Vec<f64>> = ls.iter().filter_map(|l| l.values(cut)).collect();
                if all.is_empty() {
                    return None;
                }
                (0..at.len())
                    .map(|i| {
                        let mut v: Vec<f64> = all.iter().map(|x| x[i]).collect();
                        v.sort_by(f64::total_cmp);
                        let m = v.len();
                        if m % 2 == 1 {
                            v[m / 2]
                        } else {
                            (v[m / 2 - 1] * v[m / 2]).sqrt()
                        }
                    })
                    .collect()
            }
            Law::Forecast(rule) => {
                let law = forecast::Law::new(&basis, *rule)?;
                at.iter().map(|&n| law.at(n)).collect()
            }
            Law::NodeAware(rule, gamma) => {
                let law = forecast::Law::new(&basis, *rule)?;
                let nodes = cut.analysis.as_ref().map(|a| a.nodes).unwrap_or_default();
                at.iter()
                    .map(|&n| match nodes.per_node {
                        Some(r) if nodes.crosses(n) => law.at(r) * (r / n).powf(*gamma),
                        _ => law.at(n),
                    })
                    .collect()
            }
            Law::Penalized(l, beta) => {
                l.values(cut)?.iter().zip(&at).map(|(v, n)| v * (n / k).max(1.0).powf(*beta)).collect()
            }
        };
        out.iter().all(|v| v.is_finite() && *v > 0.0).then_some(out)
    }
}

fn rule_name(r: Rule) -> String {
    match r {
        Rule::Blend { w0, c } => {
            format!("blend of anchored Amdahl (weight {} − {}·rise) and the last two's trend", pct(w0), pct(c))
        }
        Rule::Switch { rise } => format!(
            "half anchored Amdahl, half the last two's trend; the trend alone if the slope rose by > {}",
            pct(rise)
        ),
    }
}

fn times(ps: &[crate::model::speedup::Prediction], cut: &Cut) -> Option<Vec<f64>> {
    cut.rest.iter().map(|&(n, _)| ps.iter().find(|p| p.n == n)?.time_s.map(|t| t.0)).collect()
}

/// The candidate the calculator's forecast is (`forecast::RULE` and `forecast::ACROSS_NODES`).
pub fn calculators() -> Law {
    match forecast::ACROSS_NODES {
        Some(gamma) => Law::NodeAware(forecast::RULE, gamma),
        None => Law::Forecast(forecast::RULE),
    }
}

/// A candidate as a predictor of points (no ranges).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate(pub Law);

impl Predictor for Candidate {
    fn name(&self) -> String {
        self.0.name()
    }
    fn predict(&self, cut: &Cut) -> Option<Vec<Predicted>> {
        Some(self.0.values(cut)?.into_iter().map(Predicted::point).collect())
    }
}

/// Every candidate tried, in the order they are listed (the first of equal scores wins).
pub fn grid() -> Vec<Law> {
    use Law::*;
    let b = Box::new;
    let mut g = vec![Ideal, LeastSquaresAmdahl, AnchoredAmdahl, PowerAll, PowerLastTwo];
    g.extend(MODELS.iter().map(|&m| Fitted(m)));
    g.push(BestFit);
    for w in [0.25, 0.5, 0.75] {
        g.push(Geometric(b(AnchoredAmdahl), b(Ideal), w));
        g.push(Geometric(b(AnchoredAmdahl), b(PowerLastTwo), w));
    }
    g.push(Median(vec![Ideal, AnchoredAmdahl, PowerLastTwo]));
    g.push(Median(MODELS.iter().map(|&m| Fitted(m)).collect()));
    for rise in [0.15, 0.3, 0.5] {
        g.push(Forecast(Rule::Switch { rise }));
    }
    for w0 in [0.5, 0.6, 0.7] {
        for c in [0.5, 1.0, 2.0] {
            g.push(Forecast(Rule::Blend { w0, c }));
        }
    }
    for rule in [Rule::Switch { rise: 0.3 }, Rule::Blend { w0: 0.6, c: 1.0 }] {
        for gamma in [0.7, 1.0] {
            g.push(NodeAware(rule, gamma));
        }
    }
    for beta in [0.05, 0.1] {
        g.push(Penalized(b(AnchoredAmdahl), beta));
        g.push(Penalized(b(Forecast(Rule::Blend { w0: 0.6, c: 1.0 })), beta));
    }
    g
}

/// One candidate's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Scored {
    pub law: Law,
    pub name: String,
    pub headline: Headline,
    /// Cuts it could not predict.
    pub missed: usize,
    /// How many held-out sources' folds chose it.
    pub folds_won: usize,
}

/// The choice: every candidate's figures, the winner on every source, and the nested
/// leave-one-source-out figures with each fold's choice.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub scored: Vec<Scored>,
    /// Index into `scored`.
    pub winner: usize,
    pub nested: Headline,
    /// (held-out source, index of the candidate its fold chose).
    pub folds: Vec<(String, usize)>,
}

fn best(outcomes: &[Vec<Outcome>], keep: &dyn Fn(&Outcome) -> bool) -> usize {
    let mut best = (f64::INFINITY, 0);
    for (i, o) in outcomes.iter().enumerate() {
        let mine: Vec<Outcome> = o.iter().filter(|x| keep(x)).cloned().collect();
        let s = headline(&mine).score;
        if s < best.0 {
            best = (s, i);
        }
    }
    best.1
}

/// Scores every law of `grid` on `cuts` and chooses, on all sources and on each held-out one.
pub fn select(cuts: &[Cut], grid: Vec<Law>) -> Selection {
    let runs: Vec<(Vec<Outcome>, usize)> = grid.iter().map(|l| super::run(cuts, &Candidate(l.clone()))).collect();
    let outcomes: Vec<Vec<Outcome>> = runs.iter().map(|r| r.0.clone()).collect();
    let winner = best(&outcomes, &|_| true);
    let sources = super::sources(&outcomes.concat());
    let mut folds = Vec::new();
    let mut held = Vec::new();
    for src in sources {
        let i = best(&outcomes, &|o| o.source != src);
        held.extend(outcomes[i].iter().filter(|o| o.source == src).cloned());
        folds.push((src, i));
    }
    let scored = grid
        .into_iter()
        .zip(&runs)
        .enumerate()
        .map(|(i, (law, (o, missed)))| Scored {
            name: law.name(),
            law,
            headline: headline(o),
            missed: *missed,
            folds_won: folds.iter().filter(|f| f.1 == i).count(),
        })
        .collect();
    Selection { scored, winner, nested: headline(&held), folds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::validation::corpus::Series;
    use crate::model::validation::cuts;

    fn series(id: &str, source: &str, f: &dyn Fn(f64) -> f64) -> Series {
        let ns = [1u32, 2, 4, 8, 16, 32];
        Series {
            id: id.into(),
            source: source.into(),
            application: String::new(),
            machine: String::new(),
            points: ns.iter().map(|&n| (n, f(f64::from(n)))).collect(),
            nodes: vec![None; ns.len()],
        }
    }

    #[test]
    fn every_law_predicts_every_count_and_the_forecast_rule_is_the_calculators() {
        let s = series("a", "x", &|n| 10.0 + 90.0 / n);
        let c = cuts(&[s], 3, 0);
        for law in grid() {
            let v = law.values(&c[0]).unwrap_or_else(|| panic!("{} predicts", law.name()));
            assert_eq!(v.len(), 3, "{}", law.name());
        }
        // Amdahl data: least squares and the anchored law are exact, ideal scaling is not.
        let at8 = |l: Law| l.values(&c[0]).unwrap()[0];
        assert!((at8(Law::LeastSquaresAmdahl) - 21.25).abs() < 1e-9 && (at8(Law::AnchoredAmdahl) - 21.25).abs() < 1e-9);
        assert!((at8(Law::Ideal) - 16.25).abs() < 1e-9);
        // The calculator's candidate gives the calculator's forecast.
        let calc = c[0].analysis.as_ref().unwrap().forecast[0].time_s.unwrap().0;
        assert!((at8(calculators()) - calc).abs() < 1e-9 * calc);
        // A median of three is the middle one.
        let m = at8(Law::Median(vec![Law::Ideal, Law::AnchoredAmdahl, Law::PowerLastTwo]));
        let mut three = [at8(Law::Ideal), at8(Law::AnchoredAmdahl), at8(Law::PowerLastTwo)];
        three.sort_by(f64::total_cmp);
        assert_eq!(m, three[1]);
    }

    #[test]
    fn the_choice_is_made_on_the_other_sources_and_the_held_out_figures_show_its_misses() {
        // Nine sources of Amdahl runs, one whose first step is slow and which then scales
        // perfectly (1.2× from 1 to 2). Anchored Amdahl is exact on nine sources and wins
        // every fold, the tenth's too: held out, that source gets Amdahl's serial part and
        // misses, and the nested figures say so.
        let mut all: Vec<Series> = (0..9)
            .map(|i| {
                let s = f64::from(i + 1);
                series(&format!("amdahl{i}"), &format!("src{i}"), &|n| s + 90.0 / n)
            })
            .collect();
        all.push(series("slow start", "odd", &|n| if n < 2.0 { 120.0 } else { 200.0 / n }));
        let c = cuts(&all, 3, 0);
        let sel = select(&c, vec![Law::Ideal, Law::AnchoredAmdahl]);
        assert_eq!(sel.scored[sel.winner].law, Law::AnchoredAmdahl);
        assert_eq!(sel.folds.len(), 10);
        assert!(sel.folds.iter().all(|f| f.1 == 1), "{:?}", sel.folds);
        assert_eq!((sel.scored[0].folds_won, sel.scored[1].folds_won), (0, 10));
        assert!(sel.scored[1].headline.median_rel_error < 1e-9);
        assert!(sel.nested.worst_source > 0.5, "{:?}", sel.nested);
    }
}
