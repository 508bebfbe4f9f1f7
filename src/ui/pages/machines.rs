//! The Clusters page's table of machines in service (`data/machines.json`, through
//! `model::workspace::machines`): search, filter and sort; a machine opened shows every figure
//! with its source, and "Use in my clusters" copies it into the workspace (its price, power and
//! carbon into the planner's costs table).

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use crate::model::fmt_num;
use crate::model::workspace::machines::{self, Document, Figure, File, Machine, Query, SortKey};

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Copies the file's machine of this index into the workspace.
    pub on_use: Callback<(Rc<File>, usize)>,
}

/// The data file, fetched once a page (`machines.json` beside the page, precached for
/// offline use like every file of the site).
async fn fetch() -> Result<File, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let fail = |_| "the machines' file (machines.json) could not be loaded".to_string();
    let response: web_sys::Response =
        JsFuture::from(gloo::utils::window().fetch_with_str("machines.json")).await.map_err(fail)?.unchecked_into();
    if !response.ok() {
        return Err(format!("the machines' file (machines.json) answered {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(fail)?).await.map_err(fail)?;
    machines::parse(&text.as_string().unwrap_or_default())
}

/// One figure's row of an opened machine: its label, value with unit and source.
struct Row<'a> {
    label: &'static str,
    value: String,
    figure: &'a Figure,
}

fn figure_rows(m: &Machine) -> Vec<Row<'_>> {
    let figures: [(&'static str, &Option<Figure>, &str); 8] = [
        ("cores per node", &m.cores_per_node, ""),
        ("memory per node", &m.memory_per_node_gb, "GB"),
        ("core peak", &m.core_gflops, "GFlop/s"),
        ("memory bandwidth per node", &m.memory_bandwidth_gb_s, "GB/s"),
        ("GPU peak (FP64)", &m.gpu_fp64_tflops, "TFlop/s"),
        ("node power", &m.node_power_w, "W"),
        ("PUE", &m.pue, ""),
        ("grid carbon intensity", &m.carbon_g_per_kwh, "g CO2e/kWh"),
    ];
    let mut out: Vec<Row> = figures
        .into_iter()
        .filter_map(|(label, fig, unit)| {
            fig.as_ref().map(|x| Row { label, value: format!("{} {unit}", fmt_num(x.value, 6)), figure: x })
        })
        .collect();
    for f in &m.fabrics {
        if let Some(x) = &f.latency_us {
            out.push(Row {
                label: "fabric latency",
                value: format!("{} µs ({})", fmt_num(x.value, 4), f.name),
                figure: x,
            });
        }
        if let Some(x) = &f.bandwidth_mb_s {
            out.push(Row {
                label: "fabric bandwidth",
                value: format!("{} MB/s, 10⁶ B/s ({})", fmt_num(x.value, 5), f.name),
                figure: x,
            });
        }
    }
    out
}

fn source_cell(docs: &BTreeMap<&str, &Document>, id: &str, kind: &str, basis: &str) -> Html {
    let doc = docs.get(id);
    let title = doc.map_or_else(
        || id.to_string(),
        |d| if d.publisher.is_empty() { d.title.clone() } else { format!("{} ({})", d.title, d.publisher) },
    );
    let date = doc.map(|d| d.date.clone()).unwrap_or_default();
    let address = doc.map(|d| d.address.clone()).unwrap_or_default();
    html! { <>
        <td class={classes!("kind", kind.to_string())}>{ kind.to_string() }</td>
        <td>if address.is_empty() { { title } } else { <a href={address} target="_blank" rel="noopener">{ title }</a> }{ format!(", {date}") }
            if !basis.is_empty() { <div class="hint">{ basis.to_string() }</div> }</td>
    </> }
}

fn opened(m: &Machine, file: &Rc<File>, index: usize, on_use: &Callback<(Rc<File>, usize)>) -> Html {
    let docs = file.docs();
    let nodes = if m.nodes.on_demand {
        html! { <tr><th>{ "nodes" }</th><td>{ "on demand" }</td><td class="kind">{ "" }</td><td>{ "billed per instance-hour" }</td></tr> }
    } else if let Some(n) = m.nodes.value {
        html! { <tr><th>{ "nodes" }</th><td>{ fmt_num(n, 7) }</td>{ source_cell(&docs, &m.nodes.source, &m.nodes.kind, &m.nodes.basis) }</tr> }
    } else {
        html! {}
    };
    let price = m.price.as_ref().map(|p| {
        let what = if p.currency == machines::NO_CURRENCY {
            format!("{} {} (an allocation unit, no money price)", fmt_num(p.amount, 4), p.unit)
        } else {
            format!("{} {} per {}", fmt_num(p.amount, 5), p.currency, p.unit)
        };
        html! { <tr><th>{ "price" }</th><td>{ what }</td>{ source_cell(&docs, &p.source, &p.kind, &p.basis) }</tr> }
    });
    let missing = m.missing();
    let on_use = on_use.clone();
    let file = file.clone();
    let use_it = Callback::from(move |_| on_use.emit((file.clone(), index)));
    html! {
        <tr class="machine-open" id={format!("machine-{}-sources", m.id)}><td colspan="9">
            <p>{ m.notes.clone() }</p>
            <table class="sources">
                <thead><tr><th>{ "figure" }</th><th>{ "value" }</th><th>{ "kind" }</th><th>{ "source, date; how it follows" }</th></tr></thead>
                <tbody>
                    { nodes }
                    { for figure_rows(m).into_iter().map(|r| html! {
                        <tr><th>{ r.label }</th><td>{ r.value }</td>{ source_cell(&docs, &r.figure.source, &r.figure.kind, &r.figure.basis) }</tr>
                    }) }
                    { for price }
                </tbody>
            </table>
            if !missing.is_empty() { <p class="hint">{ format!("Not published, so left out: {}.", missing.join(", ")) }</p> }
            <button class="use-machine" onclick={use_it}>{ "Use in my clusters" }</button>
            <span class="hint">{ " An editable copy joins your clusters below; its price, power and carbon join the planner's costs table." }</span>
        </td></tr>
    }
}

/// A cell of the table: a figure's value, its kind marked, its source in the tooltip.
fn cell(fig: &Option<Figure>, digits: usize, docs: &BTreeMap<&str, &Document>) -> Html {
    match fig {
        Some(f) => {
            let title = docs
                .get(f.source.as_str())
                .map(|d| format!("{}, {} ({})", d.title, d.date, f.kind))
                .unwrap_or_default();
            let mark = if f.kind == "estimated" { "*" } else { "" };
            html! { <td class="num" {title}>{ fmt_num(f.value, digits) }{ mark }</td> }
        }
        None => html! { <td class="num missing" title="not published">{ "—" }</td> },
    }
}

/// A select's options (value, label), the one of value `current` selected; an empty label is
/// "any".
fn options(list: &[(&str, &str)], current: &str) -> Html {
    list.iter()
        .map(|(v, l)| html! { <option value={v.to_string()} selected={*v == current}>{ if l.is_empty() { "any" } else { l } }</option> })
        .collect()
}

#[component(MachinesTable)]
pub fn machines_table(p: &Props) -> Html {
    let loaded = use_state(|| None::<Result<Rc<File>, String>>);
    {
        let loaded = loaded.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move { loaded.set(Some(fetch().await.map(Rc::new))) });
        });
    }
    let query = use_state(Query::default);
    let open = use_state(|| None::<String>);
    let file = match &*loaded {
        Some(Ok(f)) => f.clone(),
        Some(Err(e)) => {
            return html! { <article class="card machines" id="machines"><p class="field-error" role="alert">{ e.clone() }</p></article> }
        }
        None => {
            return html! { <article class="card machines" id="machines"><p class="hint">{ "Loading the machines in service…" }</p></article> }
        }
    };
    let docs = file.docs();
    let shown = machines::select(file.machines.iter(), &query);
    let set = |f: fn(&mut Query, String)| {
        let query = query.clone();
        Callback::from(move |e: Event| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut q = (*query).clone();
            f(&mut q, el.value());
            query.set(q);
        })
    };
    let on_text = {
        let query = query.clone();
        Callback::from(move |e: InputEvent| {
            let el: web_sys::HtmlInputElement = e.target_unchecked_into();
            query.set(Query { text: el.value(), ..(*query).clone() });
        })
    };
    let continents: Vec<String> = std::iter::once(String::new())
        .chain(file.machines.iter().map(|m| m.continent.clone()).collect::<std::collections::BTreeSet<_>>())
        .collect();
    let fabric_words = [
        ("", "any"),
        ("InfiniBand", "InfiniBand"),
        ("Slingshot", "Slingshot"),
        ("EFA", "EFA"),
        ("Tofu", "Tofu"),
        ("RDMA", "RDMA"),
    ];
    let rows = shown.iter().map(|m| {
        let is_open = open.as_deref() == Some(m.id.as_str());
        let toggle = {
            let open = open.clone();
            let id = m.id.clone();
            Callback::from(move |_| open.set(if is_open { None } else { Some(id.clone()) }))
        };
        let fabric = m.fabrics.iter().filter_map(|f| Some((f, f.bandwidth_mb_s.as_ref()?.value))).max_by(|a, b| a.1.total_cmp(&b.1));
        let fabric_text = fabric.map(|(f, bw)| {
            let lat = f.latency_us.as_ref().map_or("latency —".into(), |l| format!("{} µs", fmt_num(l.value, 3)));
            format!("{}: {lat}, {} MB/s", f.name, fmt_num(bw, 4))
        });
        let price = m.price_per_core_hour().map(|(x, cur)| format!("{} {cur}", fmt_num(x, 3)));
        let where_ = format!("{} · {}", m.operator, m.site);
        let figures = format!("{}/{}", machines::FIGURES.len() + 1 - m.missing().len(), machines::FIGURES.len() + 1);
        html! { <>
            <tr class={classes!("machine", is_open.then_some("open"))} id={format!("machine-{}", m.id)}>
                <td><button class="link open-machine" aria-expanded={is_open.to_string()} onclick={toggle}>{ m.name.clone() }</button>
                    <div class="hint">{ where_ }</div></td>
                <td>{ format!("{}{}", if m.kind == "cloud" { "cloud" } else { "centre" }, if m.is_gpu() { ", GPU" } else { "" }) }</td>
                { cell(&m.cores_per_node, 5, &docs) }
                { cell(&m.memory_per_node_gb, 5, &docs) }
                <td>{ fabric_text.unwrap_or_default() }</td>
                <td class="num">{ price.unwrap_or_else(|| "—".into()) }</td>
                { cell(&m.node_power_w, 4, &docs) }
                { cell(&m.carbon_g_per_kwh, 3, &docs) }
                <td class="num" title="figures sourced of those a complete machine has">{ figures }</td>
            </tr>
            if is_open { { opened(m, &file, file.machines.iter().position(|x| std::ptr::eq(x, *m)).unwrap_or(0), &p.on_use) } }
        </> }
    });
    html! {
        <article class="card machines" id="machines">
            <h2>{ format!("Machines you can book today ({} of {})", shown.len(), file.machines.len()) }</h2>
            <p class="hint">{ "Cloud HPC instances and national and academic systems in service in 2026. Every figure comes from a \
                published document, named beside it (hover a value, or open the machine); * marks an estimate, worked out \
                from the parts or averages its source names. A figure nobody published is left out (—). Prices are in each \
                machine's own currency and are not converted." }</p>
            <div class="form-row">
                <div class="field"><label for="machine-search">{ "search" }</label>
                    <input id="machine-search" type="search" value={query.text.clone()} oninput={on_text} /></div>
                <div class="field"><label for="machine-kind">{ "kind" }</label>
                    <select id="machine-kind" onchange={set(|q, v| q.cloud = (!v.is_empty()).then(|| v == "cloud"))}>
                        { options(&[("", "any"), ("cloud", "cloud"), ("centre", "centre")], match query.cloud { None => "", Some(true) => "cloud", _ => "centre" }) }
                    </select></div>
                <div class="field"><label for="machine-accel">{ "processors" }</label>
                    <select id="machine-accel" onchange={set(|q, v| q.gpu = (!v.is_empty()).then(|| v == "gpu"))}>
                        { options(&[("", "any"), ("cpu", "CPU only"), ("gpu", "GPU")], match query.gpu { None => "", Some(true) => "gpu", _ => "cpu" }) }
                    </select></div>
                <div class="field"><label for="machine-fabric">{ "fabric" }</label>
                    <select id="machine-fabric" onchange={set(|q, v| q.fabric = v)}>
                        { options(&fabric_words, &query.fabric) }
                    </select></div>
                <div class="field"><label for="machine-region">{ "region" }</label>
                    <select id="machine-region" onchange={set(|q, v| q.continent = v)}>
                        { options(&continents.iter().map(|c| (c.as_str(), c.as_str())).collect::<Vec<_>>(), &query.continent) }
                    </select></div>
                <div class="field"><label for="machine-sort">{ "sort by" }</label>
                    <select id="machine-sort" onchange={set(|q, v| q.sort = SortKey::from_key(&v).unwrap_or_default())}>
                        { for SortKey::ALL.iter().map(|k| html! { <option value={k.key()} selected={*k == query.sort}>{ k.label() }</option> }) }
                    </select></div>
            </div>
            <div class="table-scroll">
            <table id="machines-table" class="results">
                <thead><tr><th>{ "machine" }</th><th>{ "kind" }</th><th class="num">{ "cores per node" }</th><th class="num">{ "memory per node (GB)" }</th>
                    <th>{ "fastest fabric (latency, bandwidth in 10⁶ B/s)" }</th><th class="num">{ "price per core-hour" }</th>
                    <th class="num">{ "node power (W)" }</th><th class="num">{ "grid g CO2e/kWh" }</th><th class="num">{ "figures" }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            </div>
            { crate::ui::components::table_csv::csv_button("machines.csv") }
        </article>
    }
}
