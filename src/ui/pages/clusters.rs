//! The Clusters page: the catalog of clusters, fabrics, links and prices that every
//! calculator draws on. Every edit is validated before it reaches the catalog, so the
//! autosaved workspace is always one that loads again.

use std::rc::Rc;

use yew::prelude::*;

use crate::model::calculators;
use crate::model::catalog::{free_id, Catalog, Cluster, Fabric, Link};
use crate::model::fmt_num;
use crate::model::multigrid::page::{self as planner, Field};
use crate::model::workspace::node_report::Pasted;
use crate::model::workspace::{self as ws, machines, text};
use crate::ui::cluster_worker::LOADER;
use crate::ui::components::number_field::{Bounds, NameCell, NumberCell};
use crate::ui::store::{use_store, Action, Page};
use crate::ui::worker_pool::{self, stop, Job, Pool, PoolSlot};

/// The planner's page, whose costs table a used machine's price, power and carbon join.
const PLANNER: Page = Page { calculator: &calculators::MULTIGRID, defaults: planner::default_inputs };

/// A catalog edit: a function applied to a copy of the catalog.
type Edit = Rc<dyn Fn(&mut Catalog)>;
/// Writes one number into the catalog.
type SetNumber = Rc<dyn Fn(&mut Catalog, f64)>;

#[component(Clusters)]
pub fn clusters() -> Html {
    let store = use_store();
    let catalog = store.ws.catalog.clone();
    let edit = {
        let store = store.clone();
        Callback::from(move |f: Edit| {
            let mut c = store.ws.catalog.clone();
            f(&mut c);
            store.dispatch(Action::SetCatalog(c));
        })
    };
    // The card to bring into view and focus after the next render: (a count, so the same id
    // twice scrolls twice; the id).
    let focus = use_state(|| (0u32, String::new()));
    {
        let (_, id) = (*focus).clone();
        use_effect_with((*focus).clone(), move |_| {
            if let Some(card) =
                (!id.is_empty()).then(gloo::utils::document).and_then(|d| d.get_element_by_id(&format!("cluster-{id}")))
            {
                card.scroll_into_view();
                if let Some(input) = card.query_selector("input").ok().flatten() {
                    let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(input).focus();
                }
            }
        });
    }
    let focus_on = {
        let focus = focus.clone();
        move |id: String| focus.set((focus.0.wrapping_add(1), id))
    };
    let on_use = {
        let store = store.clone();
        let focus_on = focus_on.clone();
        Callback::from(move |(file, index): (Rc<machines::File>, usize)| {
            let Some(m) = file.machines.get(index) else { return };
            let mut c = store.ws.catalog.clone();
            let Some((cluster, line)) = machines::own_copy(m, &file, &c) else { return };
            let id = cluster.id.clone();
            c.clusters.push(cluster);
            store.dispatch(Action::SetCatalog(c));
            // Its price, power and carbon: a line of the planner's costs table.
            let costs = store.inputs_or(PLANNER.key(), PLANNER.defaults);
            let mut lines: Vec<String> = text(&costs, Field::Costs).lines().map(str::to_string).collect();
            lines.push(line.text());
            store.dispatch(Action::EditPage {
                page: PLANNER,
                edit: ws::Edit::set(ws::PageField::key(Field::Costs), lines.join("\n")),
            });
            focus_on(id);
        })
    };
    let add_cluster = {
        let edit = edit.clone();
        let catalog = store.ws.catalog.clone();
        let focus_on = focus_on.clone();
        Callback::from(move |_| {
            let id = (1..).map(|i| format!("custom-{i}")).find(|id| catalog.cluster(id).is_none()).unwrap_or_default();
            focus_on(id.clone());
            edit.emit(Rc::new(move |c: &mut Catalog| {
                let id = id.clone();
                c.clusters.push(Cluster {
                    name: format!("My cluster {}", id.trim_start_matches("custom-")),
                    id,
                    nodes: 16,
                    cores_per_node: 8,
                    memory_per_node_gb: 32.0,
                    core_gflops: 0.0,
                    price_per_cpu_hour: 1.0,
                    fabrics: vec![Fabric {
                        name: "InfiniBand".into(),
                        latency_us: 2.0,
                        bandwidth_mb_s: 3000.0,
                        source: "your numbers".into(),
                    }],
                    notes: String::new(),
                    message_histograms: String::new(),
                    preset: false,
                });
            }))
        })
    };
    let reset = {
        let store = store.clone();
        Callback::from(move |_| store.dispatch(Action::ResetCatalog))
    };
    // A pasted node report's clusters join the catalog, each id made unique in it.
    let on_report = {
        let store = store.clone();
        Callback::from(move |clusters: Vec<Cluster>| {
            let mut c = store.ws.catalog.clone();
            let mut first = None;
            for mut cluster in clusters {
                cluster.id = free_id(&cluster.id, |id| c.clusters.iter().any(|k| k.id == id));
                first.get_or_insert_with(|| cluster.id.clone());
                c.clusters.push(cluster);
            }
            store.dispatch(Action::SetCatalog(c));
            if let Some(id) = first {
                focus_on(id);
            }
        })
    };
    html! {
        <section class="clusters">
            <h1>{ "Clusters" }</h1>
            <p class="lead">
                { "The clusters, switching fabrics, links and prices per CPU-hour every calculator draws on. \
                   Presets come from the papers; edit any of them or add your own. Changes are saved as you type." }
            </p>
            <super::machines::MachinesTable {on_use} />
            <h2>{ "Your clusters" }</h2>
            <p class="hint">{ "The clusters every calculator offers: the source papers' machines (their worked examples use them), \
                the machines you use from the table above, and your own." }</p>
            <div class="toolbar">
                <button id="add-cluster" onclick={add_cluster}>{ "Add a cluster" }</button>
                <button id="reset-catalog" class="secondary" onclick={reset}>{ "Reset to the presets" }</button>
            </div>
            <PasteReport {on_report} />
            // In an element of their own, so the section's children stay as many when a
            // cluster is added: before, adding one made the components above the cards again
            // (the table's search and the pasted report were emptied).
            <div class="cluster-cards">
                { for catalog.clusters.iter().enumerate().map(|(i, c)| cluster_card(i, c, &edit)) }
            </div>
            { links_table(&catalog, &edit) }
            <super::calibration::MeasuredTimes />
        </section>
    }
}

fn number(id: String, label: &str, value: f64, bounds: Bounds, edit: &Callback<Edit>, set: SetNumber) -> Html {
    let edit = edit.clone();
    let on_commit = Callback::from(move |x: f64| {
        let set = set.clone();
        edit.emit(Rc::new(move |c: &mut Catalog| set(c, x)));
    });
    html! { <NumberCell id={id} label={label.to_string()} {value} {bounds} {on_commit} /> }
}

fn cluster_card(i: usize, c: &Cluster, edit: &Callback<Edit>) -> Html {
    let id = c.id.clone();
    let with_cluster = move |f: fn(&mut Cluster, f64)| -> SetNumber {
        let id = id.clone();
        Rc::new(move |cat: &mut Catalog, x: f64| {
            if let Some(cl) = cat.cluster_mut(&id) {
                f(cl, x);
            }
        })
    };
    let taken_names: Vec<String> = Vec::new();
    let rename = {
        let edit = edit.clone();
        let id = c.id.clone();
        Callback::from(move |name: String| {
            let id = id.clone();
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                if let Some(cl) = cat.cluster_mut(&id) {
                    cl.name = name.clone();
                }
            }))
        })
    };
    let remove = {
        let edit = edit.clone();
        let id = c.id.clone();
        Callback::from(move |_| {
            let id = id.clone();
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                cat.clusters.retain(|cl| cl.id != id);
                cat.links.retain(|l| l.a != id && l.b != id);
            }))
        })
    };
    let add_fabric = {
        let edit = edit.clone();
        let id = c.id.clone();
        Callback::from(move |_| {
            let id = id.clone();
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                if let Some(cl) = cat.cluster_mut(&id) {
                    let name =
                        (1..).map(|k| format!("Fabric {k}")).find(|n| cl.fabric(n).is_none()).unwrap_or_default();
                    cl.fabrics.push(Fabric {
                        name,
                        latency_us: 10.0,
                        bandwidth_mb_s: 1000.0,
                        source: "your numbers".into(),
                    });
                }
            }))
        })
    };
    let p = format!("cluster-{i}");
    let mem_per_core = if c.memory_per_node_gb > 0.0 {
        format!("{} MB per core", fmt_num(c.memory_per_core_mb(), 4))
    } else {
        "memory unknown".into()
    };
    html! {
        <article class="card cluster" id={format!("cluster-{}", c.id)}>
            <header class="card-head">
                <NameCell id={format!("{p}-name")} label="cluster name" value={c.name.clone()} taken={taken_names} on_commit={rename} />
                <span class="muted">{ format!("id {}", c.id) }{ if c.preset { " · preset" } else { "" } }</span>
                <button class="link danger" onclick={remove}>{ "Remove" }</button>
            </header>
            <table class="props">
                <thead><tr>
                    <th>{ "nodes" }</th><th>{ "cores per node" }</th><th>{ "memory per node (GB)" }</th>
                    <th>{ "core peak (GFlop/s)" }</th><th>{ "price per CPU-hour" }</th><th>{ "total" }</th>
                </tr></thead>
                <tbody><tr>
                    <td>{ number(format!("{p}-nodes"), "nodes", f64::from(c.nodes), Bounds::COUNT, edit, with_cluster(|cl, x| cl.nodes = x as u32)) }</td>
                    <td>{ number(format!("{p}-cores"), "cores per node", f64::from(c.cores_per_node), Bounds::COUNT, edit, with_cluster(|cl, x| cl.cores_per_node = x as u32)) }</td>
                    <td>{ number(format!("{p}-memory"), "memory per node (GB)", c.memory_per_node_gb, Bounds::NON_NEGATIVE, edit, with_cluster(|cl, x| cl.memory_per_node_gb = x)) }</td>
                    <td>{ number(format!("{p}-gflops"), "core peak (GFlop/s)", c.core_gflops, Bounds::NON_NEGATIVE, edit, with_cluster(|cl, x| cl.core_gflops = x)) }</td>
                    <td>{ number(format!("{p}-price"), "price per CPU-hour", c.price_per_cpu_hour, Bounds::NON_NEGATIVE, edit, with_cluster(|cl, x| cl.price_per_cpu_hour = x)) }</td>
                    <td class="derived">{ format!("{} cores · {mem_per_core}", c.cores()) }</td>
                </tr></tbody>
            </table>
            <table class="fabrics">
                <thead><tr><th>{ "fabric" }</th><th>{ "latency (µs)" }</th><th>{ "bandwidth (MiB/s)" }</th><th>{ "source" }</th><th></th></tr></thead>
                <tbody>
                    { for c.fabrics.iter().enumerate().map(|(k, f)| fabric_row(&format!("{p}-fabric-{k}"), c, k, f, edit)) }
                </tbody>
            </table>
            <button class="secondary small" onclick={add_fabric}>{ "Add a fabric" }</button>
            if !c.notes.is_empty() { <p class="notes">{ c.notes.clone() }</p> }
        </article>
    }
}

fn fabric_row(p: &str, c: &Cluster, k: usize, f: &Fabric, edit: &Callback<Edit>) -> Html {
    let id = c.id.clone();
    let set = move |g: fn(&mut Fabric, f64)| -> SetNumber {
        let id = id.clone();
        Rc::new(move |cat: &mut Catalog, x: f64| {
            if let Some(fab) = cat.cluster_mut(&id).and_then(|cl| cl.fabrics.get_mut(k)) {
                g(fab, x);
            }
        })
    };
    let taken: Vec<String> =
        c.fabrics.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, f)| f.name.clone()).collect();
    let rename = {
        let edit = edit.clone();
        let id = c.id.clone();
        Callback::from(move |name: String| {
            let id = id.clone();
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                if let Some(fab) = cat.cluster_mut(&id).and_then(|cl| cl.fabrics.get_mut(k)) {
                    fab.name = name.clone();
                }
            }))
        })
    };
    let remove = {
        let edit = edit.clone();
        let id = c.id.clone();
        Callback::from(move |_| {
            let id = id.clone();
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                if let Some(cl) = cat.cluster_mut(&id) {
                    if k < cl.fabrics.len() {
                        cl.fabrics.remove(k);
                    }
                }
            }))
        })
    };
    html! {
        <tr>
            <td><NameCell id={format!("{p}-name")} label="fabric name" value={f.name.clone()} {taken} on_commit={rename} /></td>
            <td>{ number(format!("{p}-latency"), "latency (µs)", f.latency_us, Bounds::NON_NEGATIVE, edit, set(|f, x| f.latency_us = x)) }</td>
            <td>{ number(format!("{p}-bandwidth"), "bandwidth (MiB/s)", f.bandwidth_mb_s, Bounds::POSITIVE, edit, set(|f, x| f.bandwidth_mb_s = x)) }</td>
            <td class="source">{ f.source.clone() }</td>
            <td><button class="link danger" onclick={remove}>{ "Remove" }</button></td>
        </tr>
    }
}

fn links_table(catalog: &Catalog, edit: &Callback<Edit>) -> Html {
    let name = |id: &str| catalog.cluster(id).map(|c| c.name.clone()).unwrap_or_else(|| id.to_string());
    let options: Vec<(String, String)> = catalog.clusters.iter().map(|c| (c.id.clone(), name(&c.id))).collect();
    let rows = catalog.links.iter().enumerate().map(|(k, l)| link_row(k, l, &options, edit));
    let add = {
        let edit = edit.clone();
        let first_two: Option<(String, String)> = match catalog.clusters.as_slice() {
            [a, b, ..] => Some((a.id.clone(), b.id.clone())),
            _ => None,
        };
        Callback::from(move |_| {
            let Some((a, b)) = first_two.clone() else { return };
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                cat.links.push(Link {
                    a: a.clone(),
                    b: b.clone(),
                    fabric: Fabric {
                        name: "Link".into(),
                        latency_us: 100.0,
                        bandwidth_mb_s: 100.0,
                        source: "your numbers".into(),
                    },
                })
            }))
        })
    };
    html! {
        <article class="card links">
            <h2>{ "Links between clusters" }</h2>
            <p class="hint">{ "A job may span two clusters only over a fabric that joins them." }</p>
            <table>
                <thead><tr><th>{ "between" }</th><th>{ "fabric" }</th><th>{ "latency (µs)" }</th><th>{ "bandwidth (MiB/s)" }</th><th>{ "source" }</th><th></th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <button class="secondary small" onclick={add}>{ "Add a link" }</button>
        </article>
    }
}

/// One end of link `k`: which end, and the clusters at both ends.
struct LinkEnd<'a> {
    k: usize,
    end_a: bool,
    current: &'a str,
    other: &'a str,
}

/// A select of clusters for one end of a link; choosing the other end's cluster is refused.
fn end_select(end: LinkEnd, options: &[(String, String)], edit: &Callback<Edit>) -> Html {
    let LinkEnd { k, end_a, current, other } = end;
    let id = format!("link-{k}-{}", if end_a { "a" } else { "b" });
    let label = if end_a { "first cluster" } else { "second cluster" };
    let edit = edit.clone();
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        let v = sel.value();
        edit.emit(Rc::new(move |cat: &mut Catalog| {
            if let Some(link) = cat.links.get_mut(k) {
                let (this, that) = if end_a { (&mut link.a, &link.b) } else { (&mut link.b, &link.a) };
                if *that != v {
                    *this = v.clone();
                }
            }
        }))
    });
    html! {
        <select {id} aria-label={label.to_string()} {onchange}>
            { for options.iter().filter(|(o, _)| o != other).map(|(o, n)| html! {
                <option value={o.clone()} selected={o == current}>{ n.clone() }</option>
            }) }
        </select>
    }
}

fn link_row(k: usize, l: &Link, options: &[(String, String)], edit: &Callback<Edit>) -> Html {
    let p = format!("link-{k}");
    let set = |g: fn(&mut Fabric, f64)| -> SetNumber {
        Rc::new(move |cat: &mut Catalog, x: f64| {
            if let Some(link) = cat.links.get_mut(k) {
                g(&mut link.fabric, x);
            }
        })
    };
    let rename = {
        let edit = edit.clone();
        Callback::from(move |name: String| {
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                if let Some(link) = cat.links.get_mut(k) {
                    link.fabric.name = name.clone();
                }
            }))
        })
    };
    let remove = {
        let edit = edit.clone();
        Callback::from(move |_| {
            edit.emit(Rc::new(move |cat: &mut Catalog| {
                if k < cat.links.len() {
                    cat.links.remove(k);
                }
            }))
        })
    };
    html! {
        <tr>
            <td class="ends">
                { end_select(LinkEnd { k, end_a: true, current: &l.a, other: &l.b }, options, edit) }
                { " – " }
                { end_select(LinkEnd { k, end_a: false, current: &l.b, other: &l.a }, options, edit) }
            </td>
            <td><NameCell id={format!("{p}-name")} label="link fabric name" value={l.fabric.name.clone()} on_commit={rename} /></td>
            <td>{ number(format!("{p}-latency"), "latency (µs)", l.fabric.latency_us, Bounds::NON_NEGATIVE, edit, set(|f, x| f.latency_us = x)) }</td>
            <td>{ number(format!("{p}-bandwidth"), "bandwidth (MiB/s)", l.fabric.bandwidth_mb_s, Bounds::POSITIVE, edit, set(|f, x| f.bandwidth_mb_s = x)) }</td>
            <td class="source">{ l.fabric.source.clone() }</td>
            <td><button class="link danger" onclick={remove}>{ "Remove" }</button></td>
        </tr>
    }
}

#[derive(Properties, PartialEq)]
struct PasteProps {
    on_report: Callback<Vec<Cluster>>,
}

/// Where a pasted report stands.
#[derive(Clone, PartialEq)]
enum Reading {
    Idle,
    Busy,
    Read(String),
    Failed(String),
}

/// The worker's answer for one report, handed to the page.
struct ReportJob {
    status: UseStateHandle<Reading>,
    on_report: Callback<Vec<Cluster>>,
}

impl Job for ReportJob {
    fn on_message(&mut self, _: usize, text: &str) -> Option<bool> {
        match serde_json::from_str::<Pasted>(text) {
            Ok(Pasted::Read { format, clusters }) => {
                let names: Vec<String> = clusters
                    .iter()
                    .map(|c| {
                        format!(
                            "{}: {} node{} of {} cores",
                            c.name,
                            c.nodes,
                            if c.nodes == 1 { "" } else { "s" },
                            c.cores_per_node
                        )
                    })
                    .collect();
                self.status.set(Reading::Read(format!(
                    "Read as {format} output: added to your clusters {}. Give each its fabric, peak and price below.",
                    names.join("; ")
                )));
                self.on_report.emit(clusters);
            }
            Ok(Pasted::Failed(why)) => self.status.set(Reading::Failed(why)),
            Err(e) => self.status.set(Reading::Failed(format!("the reader's answer could not be read: {e}"))),
        }
        Some(true)
    }

    fn on_error(&mut self) {
        self.status.set(Reading::Failed("the reader of node reports could not start in this browser".into()));
    }
}

/// "Your own cluster in one paste": `scontrol show node`, `sinfo -N -l` or `lscpu` output read
/// in the page's worker (`ui::cluster_worker`) into clusters. The text stays in the box.
#[component(PasteReport)]
fn paste_report(props: &PasteProps) -> Html {
    let text = use_state(String::new);
    let status = use_state(|| Reading::Idle);
    let pool: PoolSlot = use_mut_ref(Pool::default);
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            text.set(area.value());
        })
    };
    let onclick = {
        let (text, status, on_report) = ((*text).clone(), status.clone(), props.on_report.clone());
        Callback::from(move |_| {
            if pool.borrow().busy() {
                stop(&pool);
            }
            status.set(Reading::Busy);
            let job = ReportJob { status: status.clone(), on_report: on_report.clone() };
            let text = text.clone();
            if !worker_pool::start_on(&pool, LOADER, 1, &|_, _| text.clone(), Box::new(job)) {
                status.set(Reading::Failed("this browser could not start a Web Worker, which reads the report".into()));
            }
        })
    };
    let said = match &*status {
        Reading::Idle => html! {},
        Reading::Busy => html! { <p id="node-report-status" class="hint" role="status">{ "Reading the report…" }</p> },
        Reading::Read(s) => html! { <p id="node-report-status" class="notice" role="status">{ s.clone() }</p> },
        Reading::Failed(s) => {
            html! { <p id="node-report-error" class="notice error" role="alert">{ format!("The report was not read: {s}") }</p> }
        }
    };
    html! {
        <details class="node-report">
            <summary>{ "Add your own cluster from a node report" }</summary>
            <p class="hint">{ "Paste the output of scontrol show node (one or many nodes, several partitions), sinfo -N -l or lscpu: \
                each partition's kind of node becomes a cluster with its node count, cores and memory per node. It is read \
                in this browser; nothing is uploaded." }</p>
            <label for="node-report">{ "Node report" }</label>
            <textarea id="node-report" rows="8" spellcheck="false" value={(*text).clone()} {oninput} />
            <div class="toolbar">
                <button id="node-report-read" {onclick} disabled={text.trim().is_empty()}>{ "Read the report" }</button>
            </div>
            { said }
        </details>
    }
}
