//! The latency matrix (pasted or uploaded), its logical clusters with the reordered heat map,
//! and the grid broadcast: coordinators, the ECEF and ECEF-LAt timelines, against a
//! grid-unaware binomial tree.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::file::callbacks::FileReader;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::set_matrix;
use crate::charts::comm::{size_text, time_text};
use crate::charts::sites::{HeatMap, Timeline};
use crate::model::sites::page::{self as page, ClustersView, Field, GridView, PageView};
use crate::model::workspace::{self, PageField, MAX_FIELD_BYTES};
use crate::model::{fmt_num, InputError};
use crate::ui::components::chart::{drawing, Chart};
use crate::ui::components::table_input::TableInput;
use crate::ui::pages::comm::{stale_note, table, Ctx, Shown, View};

/// Most blocks per side of the heat map: larger matrices are averaged into blocks.
const HEAT_MAP_SIDE: usize = 160;

/// Node indices as ranges: "0–19, 25, 30–31".
fn ranges(nodes: &[usize]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut k = 0;
    while let Some(&a) = nodes.get(k) {
        let mut b = a;
        while nodes.get(k + 1) == Some(&(b + 1)) {
            b += 1;
            k += 1;
        }
        out.push(if a == b { a.to_string() } else { format!("{a}–{b}") });
        k += 1;
    }
    out.join(", ")
}

/// Clusters compared as the heat map sees them: the same `Rc`, or the same groups of the same
/// matrix (a new ρ that splits the nodes as before draws nothing new).
struct SameClusters(Option<Rc<ClustersView>>);

impl PartialEq for SameClusters {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => {
                Rc::ptr_eq(a, b) || (Rc::ptr_eq(&a.latency_us, &b.latency_us) && a.groups == b.groups)
            }
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct ClustersProps {
    pub ctx: Ctx,
    pub current: View<PageView>,
    pub shown: Shown<View<PageView>>,
    pub big: UseStateHandle<Option<Rc<String>>>,
}

#[component(Clusters)]
pub fn clusters(p: &ClustersProps) -> Html {
    let Ctx { setter, .. } = &p.ctx;
    let reader: Rc<RefCell<Option<FileReader>>> = use_mut_ref(|| None);
    let file_error = use_state(|| None::<String>);
    let on_input = {
        let (setter, big) = (setter.clone(), p.big.clone());
        Callback::from(move |t: String| set_matrix(&setter, &big, t))
    };
    let on_file = {
        let (setter, big, file_error) = (setter.clone(), p.big.clone(), file_error.clone());
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            let (name, setter, big, file_error) = (file.name(), setter.clone(), big.clone(), file_error.clone());
            let task = gloo::file::callbacks::read_as_text(&file.into(), move |result| match result {
                Ok(t) => {
                    file_error.set(None);
                    if t.len() > MAX_FIELD_BYTES {
                        set_matrix(&setter, &big, t);
                    } else {
                        big.set(None);
                        setter.fill(format!("Loaded {name}"), vec![(Field::Matrix.key(), t)]);
                    }
                }
                Err(e) => file_error.set(Some(format!("cannot read {name}: {e}"))),
            });
            *reader.borrow_mut() = Some(task);
            input.set_value("");
        })
    };
    let grid5000 = {
        let (setter, big) = (setter.clone(), p.big.clone());
        Callback::from(move |_| {
            big.set(None);
            // The default preset's matrix fields: Grid'5000's Table 2.
            let defaults = page::default_inputs();
            let fields = [Field::Matrix, Field::Rho, Field::Symmetrise, Field::Root]
                .map(|f| (f.key(), workspace::text(&defaults, f).to_string()));
            setter.fill("Loaded Grid'5000's latency matrix".into(), fields.to_vec());
        })
    };
    let symmetrise = p.ctx.text(Field::Symmetrise).as_str() == "yes";
    let on_symmetrise = {
        let setter = setter.clone();
        Callback::from(move |_| {
            setter.set(Field::Symmetrise.key(), if symmetrise { String::new() } else { "yes".into() })
        })
    };
    // Drawn again only for other clusters (a keystroke in the broadcast's fields keeps them).
    let heat = use_memo(SameClusters(p.shown.value.clusters.clone()), |c| {
        c.0.as_ref().map(|c| Rc::new(HeatMap::new(c, HEAT_MAP_SIDE)))
    });
    let errors: Vec<_> = p.current.matrix_error.iter().cloned().collect();
    html! {
        <>
            <h2>{ "Logical clusters of a latency matrix" }</h2>
            <div class="toolbar">
                <button id="preset-grid5000" class="secondary" onclick={grid5000}>{ "Grid'5000, 78 machines (Nasri et al., Table 2)" }</button>
                <label class="button secondary">{ "Upload a CSV…" }
                    <input id="matrix-file" type="file" accept=".csv,.tsv,.txt,text/csv,text/plain" onchange={on_file} hidden=true />
                </label>
            </div>
            if let Some(b) = p.big.as_ref() {
                { big_preview(b, &p.big, &errors) }
            } else {
                <TableInput id={Field::Matrix.key()} label="Latency matrix (µs): one row per node" columns={&[][..]} value={p.ctx.text(Field::Matrix)} {on_input} {errors} rows={8}
                    hint={AttrValue::from("Tabs, commas, semicolons or spaces between values; header lines and row labels are skipped.")} />
            }
            if let Some(e) = &*file_error { <div class="field-error" role="alert">{ e.clone() }</div> }
            <div class="form-row">
                { p.ctx.field(Field::Rho, "bound ρ: a group's latencies within (1 + ρ) of its smallest", None) }
                if p.current.asymmetric || symmetrise {
                    <div class="field check">
                        <label><input id="symmetrise" type="checkbox" checked={symmetrise} onclick={on_symmetrise} />{ " symmetrise: use the mean of each pair" }</label>
                    </div>
                }
            </div>
            { stale_note(p.shown.stale) }
            if let Some(c) = &p.shown.value.clusters {
                <div class="grid-2">
                    { groups_table(c) }
                    if let Some(h) = (*heat).clone() { <Chart id="chart-heatmap" chart={drawing(h)} height={600} /> }
                </div>
            }
        </>
    }
}

/// An uploaded matrix too large for a saved input: its first lines, and a way back.
fn big_preview(text: &str, big: &UseStateHandle<Option<Rc<String>>>, errors: &[InputError]) -> Html {
    let head: Vec<String> = text.lines().take(4).map(|l| l.chars().take(90).collect()).collect();
    let discard = {
        let big = big.clone();
        Callback::from(move |_| big.set(None))
    };
    html! {
        <div class="table-input">
            <label>{ "Latency matrix (µs): uploaded" }</label>
            <pre class="preview">{ head.join("\n") }{ " …" }</pre>
            <p class="hint" id="matrix-not-saved">
                { format!("{} KB: larger than a saved input may be ({} KB), so it is used in this tab but not saved. ",
                    text.len() / 1024, MAX_FIELD_BYTES / 1024) }
                <button id="matrix-discard" class="link" onclick={discard}>{ "Back to the saved matrix" }</button>
            </p>
            <ul id="matrix-error" class="field-errors" role="alert">{ for errors.iter().map(|e| html! { <li>{ e.local_text() }</li> }) }</ul>
        </div>
    }
}

fn groups_table(c: &ClustersView) -> Html {
    let rows = c.groups.iter().zip(&c.group_latency_us).enumerate().map(|(k, (g, lat))| {
        html! {
            <tr>
                <td>{ format!("G{}", k + 1) }</td>
                <td class="num">{ g.len() }</td>
                <td class="num">{ if g.len() > 1 { time_text(*lat) } else { "—".into() } }</td>
                <td class="nodes">{ ranges(g) }</td>
            </tr>
        }
    });
    html! {
        <div>
            <p id="groups-summary"><b>{ format!("{} logical clusters", c.groups.len()) }</b>{ format!(" of {} nodes.", c.n) }</p>
            { table("groups", &["group", "nodes", "mean latency inside", "node indices (from 0)"], rows) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct GridProps {
    pub ctx: Ctx,
    pub shown: Shown<View<PageView>>,
}

#[component(GridCast)]
pub fn grid_cast(p: &GridProps) -> Html {
    let ctx = &p.ctx;
    let charts = use_memo(p.shown.value.clone(), |v| {
        let sizes: Vec<usize> =
            v.clusters.as_ref().map(|c| c.groups.iter().map(Vec::len).collect()).unwrap_or_default();
        v.grid.as_ref().map(|g| (Rc::new(Timeline::new(g, &sizes, false)), Rc::new(Timeline::new(g, &sizes, true))))
    });
    html! {
        <>
            <h2>{ "Broadcast across the grid" }</h2>
            <p class="hint">{ "The root's coordinator sends to one coordinator per logical cluster (ECEF: earliest completing edge first; \
                ECEF-LAt also looks ahead at each cluster's onward sends and local broadcast); each cluster then broadcasts inside \
                with its best algorithm (Hockney: its mean latency, the bandwidth below)." }</p>
            <div class="form-row">
                { ctx.field(Field::Root, "root node", Some("index from 0")) }
                { ctx.field(Field::GridSize, "message size", None) }
                { ctx.field(Field::BandwidthMbS, "bandwidth", Some("MiB/s")) }
            </div>
            { stale_note(p.shown.stale) }
            if let (Some(g), Some((e, l))) = (&p.shown.value.grid, (*charts).clone()) {
                { summary(g) }
                <div class="grid-2">
                    <Chart id="chart-ecef" chart={drawing(e)} height={360} />
                    <Chart id="chart-ecef-lat" chart={drawing(l)} height={360} />
                </div>
                { coordinators(g, p.shown.value.clusters.as_deref()) }
            }
        </>
    }
}

fn summary(g: &GridView) -> Html {
    let speedup =
        g.speedup.map(|s| format!(" The hierarchical broadcast is {}× as fast.", fmt_num(s, 3))).unwrap_or_default();
    html! {
        <p id="grid-times" class="verdict">
            { format!(
                "{} from node {}: ECEF {}, ECEF-LAt {}, a binomial tree over every node {}.{speedup}",
                size_text(g.size_bytes),
                g.coordinators.get(g.root_group).copied().unwrap_or(0),
                time_text(g.ecef.completion_us),
                time_text(g.ecef_lat.completion_us),
                g.binomial_us.map_or_else(|| "—".into(), time_text),
            ) }
        </p>
    }
}

fn coordinators(g: &GridView, c: Option<&ClustersView>) -> Html {
    let arrival = |k: usize| g.ecef_lat.transfers.iter().find(|t| t.to == k).map_or(0.0, |t| t.arrival_us);
    let rows = g.coordinators.iter().zip(&g.local).enumerate().map(|(k, (node, (alg, t)))| {
        let n = c.and_then(|c| c.groups.get(k)).map_or(0, Vec::len);
        html! {
            <tr class={classes!((k == g.root_group).then_some("best"))}>
                <td>{ format!("G{}{}", k + 1, if k == g.root_group { " (root)" } else { "" }) }</td>
                <td class="num">{ node }</td>
                <td class="num">{ n }</td>
                <td class="num">{ alg.key() }</td>
                <td class="num">{ time_text(*t) }</td>
                <td class="num">{ time_text(arrival(k)) }</td>
            </tr>
        }
    });
    table(
        "coordinators",
        &["cluster", "coordinator node", "processes", "local algorithm", "local broadcast", "arrival (ECEF-LAt)"],
        rows,
    )
}
