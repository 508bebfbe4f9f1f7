//! The Clusters page's table of every machine (the seed papers', today's catalog machines and
//! the user's own): searched, filtered and sorted by `model::workspace::machines::select`; a
//! machine opens to show each figure with its source, and copies into an editable one.

use yew::prelude::*;

use crate::model::fmt_num;
use crate::model::workspace::catalog::{Cluster, FigureSource, Origin};
use crate::model::workspace::machines::{fastest_fabric, own_copy, price_per_core_hour, select, Query, SortKey, NO_CURRENCY};
use crate::ui::store::{use_store, Action};

const ORIGINS: [Origin; 4] = [Origin::Cloud, Origin::Centre, Origin::Paper, Origin::Own];

/// Where the site keeps today's machines (`data/machines.json`, copied beside the pages).
const MACHINES_FILE: &str = "machines.json";

/// Today's catalog machines as the page has them: how many are loaded, or why none could be.
#[derive(Clone, PartialEq)]
pub enum Machines {
    Loading,
    Loaded(usize),
    Failed(String),
}

async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen_futures::JsFuture;
    let fail = |_| format!("{url} could not be fetched");
    let window = web_sys::window().ok_or_else(|| "no window".to_string())?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url)).await.map_err(fail)?.into();
    if !response.ok() {
        return Err(format!("{url}: the server answered {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(fail)?).await.map_err(fail)?;
    text.as_string().ok_or_else(|| format!("{url} is not text"))
}

/// Loads today's machines once per page (the file is precached, so it loads offline too) and
/// re-renders the component when they arrive: a component that plans on machines calls it and
/// recomputes what it shows with its value.
#[hook]
pub fn use_machines() -> Machines {
    use crate::model::workspace::machines;
    let state = use_state(|| {
        let n = machines::machines().len();
        if n > 0 { Machines::Loaded(n) } else { Machines::Loading }
    });
    {
        let state = state.clone();
        use_effect_with((), move |_| {
            if *state == Machines::Loading {
                wasm_bindgen_futures::spawn_local(async move {
                    let got = fetch_text(MACHINES_FILE).await.and_then(|t| machines::load(&t));
                    state.set(match got {
                        Ok(n) => Machines::Loaded(n),
                        Err(e) => Machines::Failed(e),
                    });
                });
            }
        });
    }
    (*state).clone()
}

fn select_value(e: &Event) -> String {
    let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
    sel.value()
}

#[component(MachineTable)]
pub fn machine_table() -> Html {
    let store = use_store();
    let loaded = use_machines();
    let query = use_state(Query::default);
    let open = use_state(|| None::<String>);
    let catalog = store.ws.catalog.clone();
    let set = |f: fn(&mut Query, String)| {
        let query = query.clone();
        move |v: String| {
            let mut q = (*query).clone();
            f(&mut q, v);
            query.set(q);
        }
    };
    let on_text = {
        let s = set(|q, v| q.text = v);
        Callback::from(move |e: InputEvent| {
            let i: web_sys::HtmlInputElement = e.target_unchecked_into();
            s(i.value())
        })
    };
    let on_origin = {
        let s = set(|q, v| q.origin = ORIGINS.into_iter().find(|o| o.label() == v));
        Callback::from(move |e: Event| s(select_value(&e)))
    };
    let on_gpu = {
        let s = set(|q, v| {
            q.gpu = match v.as_str() {
                "gpu" => Some(true),
                "cpu" => Some(false),
                _ => None,
            }
        });
        Callback::from(move |e: Event| s(select_value(&e)))
    };
    let on_fabric = {
        let s = set(|q, v| q.fabric = v);
        Callback::from(move |e: Event| s(select_value(&e)))
    };
    let on_continent = {
        let s = set(|q, v| q.continent = v);
        Callback::from(move |e: Event| s(select_value(&e)))
    };
    let on_sort = {
        let s = set(|q, v| q.sort = SortKey::from_key(&v).unwrap_or_default());
        Callback::from(move |e: Event| s(select_value(&e)))
    };
    let all: Vec<&Cluster> = catalog.all_clusters().collect();
    let mut continents: Vec<String> = all.iter().map(|c| c.continent.clone()).filter(|c| !c.is_empty()).collect();
    continents.sort();
    continents.dedup();
    let families = ["InfiniBand", "Slingshot", "EFA", "Tofu", "Ethernet", "Myrinet"];
    let shown = select(all.iter().copied(), &query);
    let opened = (*open).as_ref().and_then(|id| catalog.cluster(id)).cloned();
    let copy = {
        let store = store.clone();
        let open = open.clone();
        Callback::from(move |id: String| {
            let mut cat = store.ws.catalog.clone();
            let Some(m) = cat.cluster(&id).cloned() else { return };
            let mine = own_copy(&m, &cat);
            let new_id = mine.id.clone();
            cat.clusters.push(mine);
            store.dispatch(Action::SetCatalog(cat));
            open.set(None);
            crate::ui::pages::clusters::reveal_cluster(&new_id);
        })
    };
    html! {
        <article class="card machines">
            <h2>{ "Machines" }</h2>
            <p class="hint">
                { format!("{} machines: today's cloud instances and centres' systems, each figure with its source and date; \
                   the seed papers' clusters; and yours. Open one to read its sources or copy it into one of your own to edit. \
                   Prices are in each machine's own currency and are not converted.", all.len()) }
            </p>
            <div class="filters">
                <label>{ "Search" }<input id="machine-search" type="search" value={query.text.clone()} oninput={on_text} placeholder="name, site, GPU, fabric…" /></label>
                <label>{ "Kind" }<select id="machine-origin" onchange={on_origin}>
                    <option value="" selected={query.origin.is_none()}>{ "any" }</option>
                    { for ORIGINS.iter().map(|o| html! { <option value={o.label()} selected={query.origin == Some(*o)}>{ o.label() }</option> }) }
                </select></label>
                <label>{ "CPU or GPU" }<select id="machine-gpu" onchange={on_gpu}>
                    <option value="" selected={query.gpu.is_none()}>{ "any" }</option>
                    <option value="cpu" selected={query.gpu == Some(false)}>{ "CPU" }</option>
                    <option value="gpu" selected={query.gpu == Some(true)}>{ "GPU" }</option>
                </select></label>
                <label>{ "Fabric" }<select id="machine-fabric" onchange={on_fabric}>
                    <option value="" selected={query.fabric.is_empty()}>{ "any" }</option>
                    { for families.iter().map(|f| html! { <option value={*f} selected={query.fabric == *f}>{ *f }</option> }) }
                </select></label>
                <label>{ "Region" }<select id="machine-continent" onchange={on_continent}>
                    <option value="" selected={query.continent.is_empty()}>{ "any" }</option>
                    { for continents.iter().map(|c| html! { <option value={c.clone()} selected={&query.continent == c}>{ c.clone() }</option> }) }
                </select></label>
                <label>{ "Sort by" }<select id="machine-sort" onchange={on_sort}>
                    { for SortKey::ALL.iter().map(|k| html! { <option value={k.key()} selected={query.sort == *k}>{ k.label() }</option> }) }
                </select></label>
            </div>
            <p class="muted" id="machine-count" aria-live="polite">{ format!("{} of {} shown", shown.len(), all.len()) }</p>
            { match &loaded {
                Machines::Loading => html! { <p class="hint" id="machines-loading">{ "Loading today's machines…" }</p> },
                Machines::Failed(e) => html! { <p class="field-error" role="alert">{ format!("Today's machines could not be loaded ({e}); the papers' and yours are here.") }</p> },
                Machines::Loaded(_) => html! {},
            } }
            <div class="table-scroll">
            <table class="machines-table">
                <thead><tr>
                    <th scope="col">{ "machine" }</th><th scope="col">{ "kind" }</th><th scope="col">{ "site" }</th>
                    <th scope="col">{ "nodes" }</th><th scope="col">{ "cores / node" }</th><th scope="col">{ "memory / core" }</th>
                    <th scope="col">{ "price" }</th><th scope="col">{ "per core-hour" }</th><th scope="col">{ "fastest fabric" }</th>
                    <th scope="col">{ "node power" }</th><th scope="col">{ "PUE" }</th><th scope="col">{ "g CO2e/kWh" }</th>
                </tr></thead>
                <tbody>{ for shown.iter().map(|c| machine_row(c, &open)) }</tbody>
            </table>
            </div>
            if let Some(m) = opened { { machine_details(&m, &open, &copy) } }
        </article>
    }
}

/// A fabric's latency, or a dash when its source published none.
fn latency_text(f: &crate::model::workspace::catalog::Fabric) -> String {
    if f.sources.is_empty() || f.sources.contains_key("latency_us") {
        format!("{} µs", fmt_num(f.latency_us, 3))
    } else {
        "latency —".to_string()
    }
}

fn or_dash(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "—".to_string(), |v| fmt_num(v, digits))
}

fn price_text(c: &Cluster) -> String {
    match c.price.as_ref() {
        None => "—".into(),
        Some(p) if p.currency == NO_CURRENCY => format!("billed in {}s (no money price)", p.unit),
        Some(p) => format!("{} {} per {}", fmt_num(p.amount, 4), p.currency, p.unit),
    }
}

fn machine_row(c: &Cluster, open: &UseStateHandle<Option<String>>) -> Html {
    let onclick = {
        let open = open.clone();
        let id = c.id.clone();
        Callback::from(move |_| open.set(Some(id.clone())))
    };
    let fabric = fastest_fabric(c).map_or_else(
        || "—".to_string(),
        |f| format!("{}: {}, {} MB/s", f.name, latency_text(f), fmt_num(f.bandwidth_mb_s * 1.048_576, 4)),
    );
    let mem = if c.memory_per_node_gb > 0.0 { format!("{} GB", fmt_num(c.memory_per_node_gb / f64::from(c.cores_per_node.max(1)), 3)) } else { "—".into() };
    let kind = if c.gpus_per_node > 0 { format!("{} · GPU", c.origin.label()) } else { c.origin.label().to_string() };
    html! {
        <tr id={format!("machine-{}", c.id)}>
            <th scope="row"><button class="link" {onclick}>{ c.name.clone() }</button></th>
            <td>{ kind }</td>
            <td>{ if c.site.is_empty() { c.country.clone() } else { c.site.clone() } }</td>
            <td>{ if c.on_demand { "on demand".to_string() } else { c.nodes.to_string() } }</td>
            <td>{ c.cores_per_node }</td>
            <td>{ mem }</td>
            <td>{ price_text(c) }</td>
            <td>{ price_per_core_hour(c).filter(|(_, cur)| *cur != NO_CURRENCY).map_or_else(|| "—".into(), |(x, cur)| format!("{} {cur}", fmt_num(x, 3))) }</td>
            <td>{ fabric }</td>
            <td>{ c.node_power_w.map_or_else(|| "—".into(), |w| format!("{} W", fmt_num(w, 4))) }</td>
            <td>{ or_dash(c.pue, 3) }</td>
            <td>{ or_dash(c.carbon_g_per_kwh, 3) }</td>
        </tr>
    }
}

fn source_cell(s: Option<&FigureSource>) -> Html {
    match s {
        None => html! { <td class="muted">{ "—" }</td> },
        Some(s) => html! {
            <td class="source">
                if s.address.is_empty() { { s.source.clone() } } else { <a href={s.address.clone()} rel="noopener">{ s.source.clone() }</a> }
                { format!(" ({}; {})", if s.date.is_empty() { "undated" } else { &s.date }, s.kind) }
                if !s.basis.is_empty() { <span class="basis">{ format!(" — {}", s.basis) }</span> }
            </td>
        },
    }
}

fn machine_details(c: &Cluster, open: &UseStateHandle<Option<String>>, copy: &Callback<String>) -> Html {
    let close = {
        let open = open.clone();
        Callback::from(move |_| open.set(None))
    };
    let on_copy = {
        let copy = copy.clone();
        let id = c.id.clone();
        Callback::from(move |_| copy.emit(id.clone()))
    };
    let src = |k: &str| c.sources.get(k);
    let figure = |label: &str, value: String, key: &str| {
        html! { <tr><th scope="row">{ label.to_string() }</th><td>{ value }</td>{ source_cell(src(key)) }</tr> }
    };
    let opt = |x: Option<f64>, unit: &str| x.map_or_else(|| "not known".to_string(), |v| format!("{} {unit}", fmt_num(v, 4)));
    html! {
        <section class="machine-details" id="machine-details" aria-label={format!("{}: figures and sources", c.name)}>
            <header class="card-head">
                <h3>{ c.name.clone() }</h3>
                <span class="muted">{ format!("{} · {}", c.origin.label(), c.operator) }</span>
                <button id="copy-machine" onclick={on_copy}>{ "Copy into my clusters" }</button>
                <button class="secondary" onclick={close}>{ "Close" }</button>
            </header>
            if !c.notes.is_empty() { <p class="notes">{ c.notes.clone() }</p> }
            <table class="sources">
                <thead><tr><th scope="col">{ "figure" }</th><th scope="col">{ "value" }</th><th scope="col">{ "source (date; kind)" }</th></tr></thead>
                <tbody>
                    { figure("nodes", if c.on_demand { "on demand".into() } else { c.nodes.to_string() }, "nodes") }
                    { figure("cores per node", c.cores_per_node.to_string(), "cores_per_node") }
                    { figure("memory per node", if c.memory_per_node_gb > 0.0 { format!("{} GB", fmt_num(c.memory_per_node_gb, 4)) } else { "not known".into() }, "memory_per_node_gb") }
                    { figure("core peak (FP64)", if c.core_gflops > 0.0 { format!("{} GFlop/s", fmt_num(c.core_gflops, 4)) } else { "not known".into() }, "core_gflops") }
                    { figure("memory bandwidth per node", opt(c.memory_bandwidth_gb_s, "GB/s"), "memory_bandwidth_gb_s") }
                    if c.gpus_per_node > 0 { { figure("GPUs per node", format!("{} × {}", c.gpus_per_node, c.gpu), "gpu_fp64_tflops") } }
                    { figure("price", price_text(c), "price") }
                    { figure("node power", opt(c.node_power_w, "W"), "node_power_w") }
                    { figure("PUE", c.pue.map_or_else(|| "not known".into(), |p| fmt_num(p, 3)), "pue") }
                    { figure("grid carbon intensity", opt(c.carbon_g_per_kwh, "g CO2e/kWh"), "carbon_g_per_kwh") }
                    { for c.fabrics.iter().flat_map(|f| {
                        let s = |k: &str| f.sources.get(k);
                        [
                            html! { <tr><th scope="row">{ format!("{}: latency", f.name) }</th><td>{ latency_text(f) }</td>
                                { if f.sources.is_empty() { html! { <td class="source">{ f.source.clone() }</td> } } else { source_cell(s("latency_us")) } }</tr> },
                            html! { <tr><th scope="row">{ format!("{}: bandwidth", f.name) }</th><td>{ format!("{} MB/s (10^6 bytes)", fmt_num(f.bandwidth_mb_s * 1.048_576, 5)) }</td>
                                { if f.sources.is_empty() { html! { <td class="source">{ f.source.clone() }</td> } } else { source_cell(s("bandwidth_mb_s")) } }</tr> },
                        ]
                    }) }
                </tbody>
            </table>
        </section>
    }
}

/// The `<option>`s of a select of clusters: the workspace's own (and the papers') first, then
/// today's catalog machines grouped by kind, `selected` marked.
pub fn cluster_options(catalog: &crate::model::workspace::catalog::Catalog, selected: &str) -> Html {
    let option = |c: &Cluster| html! { <option value={c.id.clone()} selected={c.id == selected}>{ c.name.clone() }</option> };
    let group = |label: &'static str, origin: Origin| {
        let of: Vec<&Cluster> =
            catalog.all_clusters().skip(catalog.clusters.len()).filter(|c| c.origin == origin).collect();
        if of.is_empty() {
            html! {}
        } else {
            html! { <optgroup {label}>{ for of.into_iter().map(option) }</optgroup> }
        }
    };
    html! {
        <>
            <optgroup label="your clusters and the papers'">{ for catalog.clusters.iter().map(option) }</optgroup>
            { group("cloud instances", Origin::Cloud) }
            { group("centres' systems", Origin::Centre) }
        </>
    }
}
