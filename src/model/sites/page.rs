//! Everything the "Broadcast across sites" page shows: its input texts parsed once into
//! typed [`Inputs`] ([`parse`]), then computed ([`evaluate`]); [`view`] does both and attaches
//! the errors. The page only renders the [`PageView`]: the latency matrix, its logical
//! clusters and the grid broadcast.
//!
//! Reading and clustering a large matrix is the costly part, so the page computes its view in
//! stages ([`read_matrix`], [`cluster_stage`], [`grid_half`]): a keystroke in the broadcast's
//! fields does not re-read and re-cluster the matrix.
//!
//! Inputs (field names, also the keys of share links and workspace files), with defaults:
//! - `latency_share`: share of a small message's time that is wire latency L, 0 to 1 (0.5),
//!   read as the communication page reads it (`model::comm::page`); the rest is the sender's
//!   gap g (see `collectives`).
//! - `matrix`: a latency matrix in µs, one row per node (default: Grid'5000, Table 2).
//! - `symmetrise`: `yes` to replace each pair by its mean when the matrix is not symmetric.
//! - `rho` (0.2), `root` (node index, 0), `grid_size` ("512KB"), `bandwidth_mb_s` (119,
//!   MB = 2^20 B: the catalog's nominal 1 Gbit/s): the grid broadcast.
//!
//! Before workspace format 2 these were the communication page's second half
//! (`model::workspace::migrate`).

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::Serialize;

use crate::model::catalog::Catalog;
use crate::model::comm::collectives::{all_algorithms, Algorithm, Split};
use crate::model::comm::page::{latency_share, number_in, sizes_of};
use crate::model::comm::Model;
use crate::model::sites::gridcast::{self, binomial_all, ecef, ClusterProcs, Coordinators, LatencyMatrix, Schedule};
use crate::model::workspace::{text, FieldErrors, PageField, PageInputs, Preset};
use crate::model::InputError;

pub const PAGE: &str = crate::model::calculators::SITES.key;
/// Most logical clusters the grid broadcast schedules (ECEF is cubic in them).
pub const MAX_COORDINATORS: usize = 256;

/// The page's input fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    LatencyShare,
    Matrix,
    Symmetrise,
    Rho,
    Root,
    GridSize,
    BandwidthMbS,
}

impl PageField for Field {
    const ALL: &'static [Field] = &[
        Field::LatencyShare,
        Field::Matrix,
        Field::Symmetrise,
        Field::Rho,
        Field::Root,
        Field::GridSize,
        Field::BandwidthMbS,
    ];

    fn key(self) -> &'static str {
        match self {
            Field::LatencyShare => "latency_share",
            Field::Matrix => "matrix",
            Field::Symmetrise => "symmetrise",
            Field::Rho => "rho",
            Field::Root => "root",
            Field::GridSize => "grid_size",
            Field::BandwidthMbS => "bandwidth_mb_s",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ClustersView {
    /// Node indices (0-based) of each group, groups ordered by their smallest index.
    pub groups: Vec<Vec<usize>>,
    /// Nodes in heat-map order (the groups one after another); outline groups by their sizes.
    pub order: Vec<usize>,
    /// The matrix clustered (symmetrised when asked), row-major, n × n, original node order;
    /// shared with the page's stage, not copied for each ρ.
    pub n: usize,
    pub latency_us: Rc<Vec<f64>>,
    /// Mean latency inside each group (0 for one node), µs.
    pub group_latency_us: Vec<f64>,
}

impl ClustersView {
    /// The latency from node `i` to node `j`, µs (the matrix as clustered).
    pub fn latency(&self, i: usize, j: usize) -> f64 {
        self.latency_us.get(i * self.n + j).copied().unwrap_or(0.0)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridView {
    pub size_bytes: f64,
    /// Coordinator (node index) of each group: its smallest index.
    pub coordinators: Vec<usize>,
    /// Group of the root node.
    pub root_group: usize,
    /// Best local algorithm and its time per group, µs (Hockney from the group's mean
    /// latency and the bandwidth, split by `latency_share`).
    pub local: Vec<(Algorithm, f64)>,
    pub ecef: Schedule,
    pub ecef_lat: Schedule,
    /// Grid-unaware binomial tree over every node, µs.
    pub binomial_us: Option<f64>,
    /// The better of ECEF and ECEF-LAt, µs.
    pub hierarchical_us: f64,
    /// binomial_us / hierarchical_us.
    pub speedup: Option<f64>,
}

/// Everything on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageView {
    /// Errors of single-value fields (`rho`, `root`, `grid_size`, …), keyed by field name.
    pub field_errors: BTreeMap<String, String>,
    pub matrix_error: Option<InputError>,
    /// The matrix is square and complete but not symmetric: offer `symmetrise`.
    pub asymmetric: bool,
    pub clusters: Option<Rc<ClustersView>>,
    pub grid: Option<GridView>,
    pub warnings: Vec<String>,
}

/// The matrix and grid broadcast's inputs, parsed; `None` where a field is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct GridInputs {
    /// The matrix as read (square, complete, not negative; symmetry is checked when computing,
    /// where `symmetrise` decides).
    pub matrix: Result<LatencyMatrix, InputError>,
    pub symmetrise: bool,
    pub rho: Option<f64>,
    /// Root node; whether it is a node of the matrix is checked when computing.
    pub root: Option<f64>,
    pub size_bytes: Option<f64>,
    pub bandwidth_mb_s: Option<f64>,
}

/// Everything the page reads, parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Inputs {
    /// Share of a small message's time that is wire latency (its default when the field is
    /// wrong).
    pub latency_share: f64,
    pub grid: GridInputs,
}

impl GridInputs {
    fn parse(texts: &PageInputs, errors: &mut FieldErrors) -> GridInputs {
        let matrix = gridcast::parse_matrix(text(texts, Field::Matrix));
        let symmetrise = text(texts, Field::Symmetrise).trim() == "yes";
        let rho = number_in(texts, Field::Rho, "ρ", (0.0, 10.0), gridcast::DEFAULT_RHO, errors);
        let (root, size_bytes, bandwidth_mb_s) = Self::broadcast_fields(texts, errors);
        GridInputs { matrix, symmetrise, rho, root, size_bytes, bandwidth_mb_s }
    }

    /// The fields of the grid broadcast: root, message size, bandwidth.
    fn broadcast_fields(texts: &PageInputs, errors: &mut FieldErrors) -> (Option<f64>, Option<f64>, Option<f64>) {
        let root = number_in(texts, Field::Root, "root node", (0.0, gridcast::MAX_NODES as f64), 0.0, errors);
        let size_bytes = match sizes_of(texts, Field::GridSize, "512KB") {
            Ok(v) if v.len() == 1 => v.first().copied(),
            Ok(_) => {
                errors.push(InputError::new(Field::GridSize.key(), "message size: give one size"));
                None
            }
            Err(e) => {
                errors.push(InputError::new(Field::GridSize.key(), format!("message size: {}", e.local_text())));
                None
            }
        };
        let bandwidth_mb_s = number_in(texts, Field::BandwidthMbS, "bandwidth", (1e-3, 1e9), 119.0, errors);
        (root, size_bytes, bandwidth_mb_s)
    }
}

/// The latency matrix, ρ and symmetrise read and clustered: the costly part of the page
/// (a 1,000-node matrix takes tens of milliseconds to read and cluster), which a keystroke in
/// the broadcast's fields leaves as it was. [`cluster_stage`] makes it, [`grid_half`] finishes
/// the view from it; with [`read_matrix`] they are [`view`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterStage {
    clusters: Option<Rc<ClustersView>>,
    matrix_error: Option<InputError>,
    asymmetric: bool,
    warnings: Vec<String>,
    errors: FieldErrors,
}

/// The latency matrix and symmetrise of a page, read, checked for symmetry and its pairs sorted
/// by latency: the part of [`ClusterStage`] that a change of ρ leaves as it was (reading and
/// sorting 1,000 nodes takes longer than clustering them).
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixStage {
    /// The matrix as clustered (symmetrised when asked), its pairs by latency, and its values
    /// to share with each [`ClustersView`].
    matrix: Option<(LatencyMatrix, Vec<gridcast::Edge>, Rc<Vec<f64>>)>,
    matrix_error: Option<InputError>,
    asymmetric: bool,
    warnings: Vec<String>,
}

/// Reads the matrix and symmetrise of `texts`.
pub fn read_matrix(texts: &PageInputs) -> MatrixStage {
    matrix_stage(gridcast::parse_matrix(text(texts, Field::Matrix)), text(texts, Field::Symmetrise).trim() == "yes")
}

/// The matrix read (or its error), checked for symmetry, its pairs sorted.
fn matrix_stage(matrix: Result<LatencyMatrix, InputError>, symmetrise: bool) -> MatrixStage {
    let mut stage = MatrixStage { matrix: None, matrix_error: None, asymmetric: false, warnings: Vec::new() };
    let m = match matrix {
        Err(e) => {
            stage.matrix_error = Some(e);
            return stage;
        }
        Ok(m) => match m.symmetry_error() {
            Some(e) if !symmetrise => {
                stage.asymmetric = true;
                stage.matrix_error = Some(e);
                return stage;
            }
            Some(_) => {
                stage.warnings.push(
                    "The latency matrix was not symmetric: each pair uses the mean of its two directions.".into(),
                );
                m.symmetrise()
            }
            None => m,
        },
    };
    let edges = gridcast::sorted_edges(&m);
    let values = Rc::new(m.values.clone());
    stage.matrix = Some((m, edges, values));
    stage
}

/// Clusters the matrix read at the ρ of `texts`.
pub fn cluster_stage(m: &MatrixStage, texts: &PageInputs) -> ClusterStage {
    let mut errors = FieldErrors::new();
    let rho = number_in(texts, Field::Rho, "ρ", (0.0, 10.0), gridcast::DEFAULT_RHO, &mut errors);
    ClusterStage { errors, ..stage_of(m, rho) }
}

/// The page's view from its clusters and the other fields of `texts` (latency share,
/// root, message size, bandwidth).
pub fn grid_half(stage: &ClusterStage, texts: &PageInputs) -> PageView {
    let mut errors = stage.errors.clone();
    let share = latency_share(texts, Field::LatencyShare, &mut errors);
    let (root, size, bandwidth) = GridInputs::broadcast_fields(texts, &mut errors);
    let mut view = empty_view();
    finish_grid(stage, (root, size, bandwidth), share, &mut view);
    with_errors(view, errors)
}

/// Parses every field once.
pub fn parse(texts: &PageInputs) -> (Inputs, FieldErrors) {
    let mut errors = FieldErrors::new();
    let share = latency_share(texts, Field::LatencyShare, &mut errors);
    let grid = GridInputs::parse(texts, &mut errors);
    (Inputs { latency_share: share, grid }, errors)
}

/// The page for its input texts: parsed, computed, with each field's error.
pub fn view(texts: &PageInputs, catalog: &Catalog) -> PageView {
    let (inputs, errors) = parse(texts);
    with_errors(evaluate(&inputs, catalog), errors)
}

fn with_errors(mut view: PageView, errors: FieldErrors) -> PageView {
    view.field_errors.extend(errors.into_iter().map(|e| (e.field, e.message)));
    view
}

/// Computes the page from its parsed inputs: the matrix (symmetrised when asked), its logical
/// clusters and the grid broadcast.
pub fn evaluate(inputs: &Inputs, _catalog: &Catalog) -> PageView {
    let mut view = empty_view();
    let g = &inputs.grid;
    let stage = stage_of(&matrix_stage(g.matrix.clone(), g.symmetrise), g.rho);
    finish_grid(&stage, (g.root, g.size_bytes, g.bandwidth_mb_s), inputs.latency_share, &mut view);
    view
}

fn empty_view() -> PageView {
    PageView {
        field_errors: BTreeMap::new(),
        matrix_error: None,
        asymmetric: false,
        clusters: None,
        grid: None,
        warnings: Vec::new(),
    }
}

/// The matrix of `m` clustered at `rho`.
fn stage_of(m: &MatrixStage, rho: Option<f64>) -> ClusterStage {
    let mut stage = ClusterStage {
        clusters: None,
        matrix_error: m.matrix_error.clone(),
        asymmetric: m.asymmetric,
        warnings: m.warnings.clone(),
        errors: FieldErrors::new(),
    };
    let (Some((m, edges, values)), Some(rho)) = (&m.matrix, rho) else { return stage };
    let groups = gridcast::clusters_of_edges(m, edges, rho);
    stage.clusters = Some(Rc::new(ClustersView {
        order: groups.iter().flatten().copied().collect(),
        group_latency_us: gridcast::group_latency_us(m, &groups),
        groups,
        n: m.n,
        latency_us: values.clone(),
    }));
    stage
}

/// Puts the clusters of `stage` into `view`, with the grid broadcast from `root`, of a message
/// of `size` bytes at `bandwidth` MB/s, when those are right.
fn finish_grid(
    stage: &ClusterStage,
    (root, size, bandwidth): (Option<f64>, Option<f64>, Option<f64>),
    share: f64,
    view: &mut PageView,
) {
    view.matrix_error = stage.matrix_error.clone();
    view.asymmetric = stage.asymmetric;
    view.warnings.extend(stage.warnings.iter().cloned());
    let Some(cv) = &stage.clusters else { return };
    if let (Some(root), Some(size), Some(bw)) = (root, size, bandwidth) {
        if root.fract() != 0.0 || root as usize >= cv.n {
            view.field_errors
                .insert(Field::Root.key().into(), format!("root node: expected a node index from 0 to {}", cv.n - 1));
        } else if cv.groups.len() > MAX_COORDINATORS {
            view.warnings.push(format!(
                "{} logical clusters: the grid broadcast is scheduled for at most {MAX_COORDINATORS}.",
                cv.groups.len()
            ));
        } else {
            view.grid = Some(grid_view(cv, root as usize, size, bw, share));
        }
    }
    view.clusters = Some(cv.clone());
}

fn grid_view(cv: &ClustersView, root: usize, size: f64, bw_mb_s: f64, share: f64) -> GridView {
    let beta = 1.0 / (bw_mb_s * 1.048576); // µs per byte
    let coordinators: Vec<usize> = cv.groups.iter().map(|g| g.first().copied().unwrap_or(0)).collect();
    let root_group = cv.groups.iter().position(|g| g.contains(&root)).unwrap_or(0);
    let k = coordinators.len();
    let mut local = Vec::with_capacity(k);
    let mut intra_l = Vec::with_capacity(k);
    let mut intra_g = Vec::with_capacity(k);
    for (g, &lat) in cv.groups.iter().zip(&cv.group_latency_us) {
        let model = Model::Hockney { alpha_us: lat, beta_us_per_byte: beta };
        let split = Split::new(&model, share);
        let (times, best) = all_algorithms(&split, g.len() as u32, size);
        local.push((best, times.iter().find(|t| t.algorithm == best).map_or(0.0, |t| t.time_us)));
        intra_l.push(split.latency_us);
        intra_g.push(split.gap_us(size));
    }
    // Between clusters the wire latency is the coordinators' latency; the sender is busy
    // while it pushes the bytes.
    let latency_us: Vec<Vec<f64>> = coordinators
        .iter()
        .map(|&a| coordinators.iter().map(|&b| if a == b { 0.0 } else { cv.latency(a, b) }).collect())
        .collect();
    let gap_us = vec![vec![size * beta; k]; k];
    let c = Coordinators { latency_us, gap_us, local_us: local.iter().map(|l| l.1).collect() };
    let e = ecef(&c, root_group, false);
    let lat = ecef(&c, root_group, true);
    let procs = ClusterProcs {
        procs: cv.groups.iter().map(|g| g.len() as u32).collect(),
        latency_us: intra_l,
        gap_us: intra_g,
    };
    let binomial_us = binomial_all(&c, &procs, root_group);
    let hierarchical_us = e.completion_us.min(lat.completion_us);
    GridView {
        size_bytes: size,
        coordinators,
        root_group,
        local,
        speedup: binomial_us.filter(|_| hierarchical_us > 0.0).map(|b| b / hierarchical_us),
        ecef: e,
        ecef_lat: lat,
        binomial_us,
        hierarchical_us,
    }
}

/// The page's inputs before the user has touched it: Grid'5000's 78 machines (seed 002,
/// Table 2) and a 512 KB broadcast at the catalog's nominal 1 Gbit/s.
pub fn default_inputs() -> PageInputs {
    [
        (Field::LatencyShare, "0.5".to_string()),
        (Field::Matrix, gridcast::table2_text()),
        (Field::Symmetrise, String::new()),
        (Field::Rho, "0.2".to_string()),
        (Field::Root, "0".to_string()),
        (Field::GridSize, "512KB".to_string()),
        (Field::BandwidthMbS, "119".to_string()),
    ]
    .into_iter()
    .map(|(f, v)| (f.key().to_string(), v))
    .collect()
}

/// None: the defaults are the seed's matrix, which the page's own button loads again.
pub fn presets() -> Vec<Preset> {
    Vec::new()
}

crate::model::calculators::usual_contract!(
    /// The "Broadcast across sites" page's row in the table of calculators.
    SitesPage
);

#[cfg(test)]
mod tests;
