//! The Bottlenecks page's files: drop a folder of runs (Score-P, Caliper, TAU, HPCToolkit) on
//! the page, pick one with the folder picker, or select profiles or a saved Extra-P experiment
//! (`.extra-p`); the worker's detector decides what each file is. The files are read in a Web Worker of the page (`ui::bottlenecks_worker`), one at a time, with
//! progress and Cancel; the experiment they make becomes the page's text (with Undo), which
//! the page ranks as any pasted experiment. Nothing read leaves the browser. The files are
//! kept in the tab (not saved), so another metric, inclusive values or another aggregate can
//! be read from them again; a text file chosen here is read as text, as before.

use std::rc::Rc;

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, HtmlInputElement};
use yew::prelude::*;

use crate::model::bottlenecks::page::KEY_TEXT;
use crate::model::bottlenecks::runs::{Aggregate, RunOptions, RunsSummary, LIMITS};
use crate::model::bottlenecks::worker::{FromWorker, PageMessage, ToWorker};
use crate::model::fmt_num;
use crate::ui::bottlenecks_worker::LOADER as WORKER;
use crate::ui::store::Setter;
use crate::ui::worker_pool::{self, stop, Job, PoolSlot};

/// Files chosen or dropped: each with its path from the folder given, '/' between parts.
#[derive(Clone)]
pub struct Picked {
    paths: Vec<String>,
    files: Array,
}

impl Picked {
    /// Whether the worker reads these files: all but one experiment's text by its name
    /// (`.txt`, `.jsonl`), which the page reads itself. What each file is, the worker's
    /// detector (`model::bottlenecks::formats`) decides, and it gives an experiment's JSON text
    /// back as it is.
    fn is_runs(&self) -> bool {
        !matches!(&self.paths[..], [one] if one.ends_with(".txt") || one.ends_with(".jsonl"))
    }
}

/// Where the reading stands: the last files read stay shown (with their options) while
/// others are read, and after others are refused.
#[derive(Clone, PartialEq)]
enum Reading {
    Idle,
    Running(f64),
    Failed(String),
}

/// One reading on the worker: the files it reads become the ones kept once read.
struct Reader {
    job: u64,
    status: UseStateHandle<Reading>,
    read: UseStateHandle<Option<Rc<RunsSummary>>>,
    kept: Rc<std::cell::RefCell<Option<Picked>>>,
    picked: Picked,
    setter: Setter,
    label: String,
}

impl Job for Reader {
    fn on_message(&mut self, _i: usize, text: &str) -> Option<bool> {
        // The page's one reader of the worker's messages (a second instance of the enum's
        // reader would cost the page's wasm a few kilobytes).
        match serde_json::from_str::<PageMessage>(text) {
            Ok(FromWorker::Progress { fraction, job }) if job == self.job => {
                self.status.set(Reading::Running(fraction));
                None
            }
            Ok(FromWorker::Loaded { text, summary, job }) if job == self.job => {
                let text_only = summary.source == "text";
                let what = if summary.source != "saved" && !text_only {
                    format!("{} run{}", summary.runs, if summary.runs == 1 { "" } else { "s" })
                } else {
                    self.label.clone()
                };
                self.setter.fill(format!("Loaded {what}"), vec![(KEY_TEXT, text)]);
                *self.kept.borrow_mut() = Some(self.picked.clone());
                self.read.set((!text_only).then(|| Rc::new(*summary)));
                self.status.set(Reading::Idle);
                Some(true)
            }
            Ok(FromWorker::Unreadable { message, job }) if job == self.job => {
                self.status.set(Reading::Failed(message));
                Some(true)
            }
            Ok(FromWorker::Error(e)) => {
                self.status.set(Reading::Failed(e));
                Some(false)
            }
            Ok(_) => None,
            Err(e) => {
                self.status.set(Reading::Failed(format!("the worker's answer could not be read: {e}")));
                Some(false)
            }
        }
    }

    fn on_error(&mut self) {
        self.status.set(Reading::Failed("the worker that reads the files failed to load or stopped".into()));
    }
}

/// `method` of `target` called with (resolve, reject): the File and Directory Entries API's
/// callbacks as a promise.
fn callbacks(target: &JsValue, method: &str) -> Promise {
    let target = target.clone();
    let method = Reflect::get(&target, &JsValue::from_str(method)).ok().and_then(|f| f.dyn_into::<Function>().ok());
    Promise::new(&mut move |resolve, reject| match &method {
        Some(f) => {
            if f.call2(&target, &resolve, &reject).is_err() {
                let _ = reject.call0(&JsValue::NULL);
            }
        }
        None => {
            let _ = reject.call0(&JsValue::NULL);
        }
    })
}

fn field(v: &JsValue, name: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Most files a dropped folder is walked for (a run is one file; others are passed over).
const MOST_FILES: usize = 4 * LIMITS.runs + 1024;

/// The files under a dropped entry, two folders deep at most (runs are one level down).
async fn walk(entry: JsValue, depth: usize, out: &mut Vec<(String, JsValue)>) -> Result<(), String> {
    let mut stack = vec![(entry, depth)];
    while let Some((e, d)) = stack.pop() {
        if out.len() > MOST_FILES {
            return Err(format!(
                "the folder holds more files than a set of at most {} runs (the limit of runs)",
                LIMITS.runs
            ));
        }
        if field(&e, "isFile").as_bool() == Some(true) {
            let file = JsFuture::from(callbacks(&e, "file"))
                .await
                .map_err(|_| "the browser could not open a dropped file".to_string())?;
            out.push((field(&e, "fullPath").as_string().unwrap_or_default(), file));
        } else if field(&e, "isDirectory").as_bool() == Some(true) && d < 3 {
            let reader = Reflect::get(&e, &JsValue::from_str("createReader"))
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .and_then(|f| f.call0(&e).ok())
                .ok_or("the browser could not list a dropped folder")?;
            loop {
                let batch = JsFuture::from(callbacks(&reader, "readEntries"))
                    .await
                    .map_err(|_| "the browser could not list a dropped folder".to_string())?;
                let batch: Array = batch.dyn_into().unwrap_or_default();
                if batch.length() == 0 {
                    break;
                }
                stack.extend(batch.iter().map(|x| (x, d + 1)));
            }
        }
    }
    Ok(())
}

/// What was dropped: each file with its path from the folder dropped (a single folder is the
/// folder given; several items are taken as the contents of one).
async fn dropped(dt: web_sys::DataTransfer) -> Result<Picked, String> {
    let items = field(&dt, "items");
    let n = field(&items, "length").as_f64().unwrap_or(0.0) as u32;
    let mut entries = Vec::new();
    let mut loose: Vec<(String, JsValue)> = Vec::new();
    for i in 0..n {
        let item = Reflect::get_u32(&items, i).unwrap_or(JsValue::UNDEFINED);
        let get = |m: &str| {
            Reflect::get(&item, &JsValue::from_str(m))
                .ok()
                .and_then(|f| f.dyn_into::<Function>().ok())
                .and_then(|f| f.call0(&item).ok())
        };
        match get("webkitGetAsEntry").filter(|e| !e.is_null() && !e.is_undefined()) {
            Some(e) => entries.push(e),
            None => {
                if let Some(f) = get("getAsFile").and_then(|f| f.dyn_into::<File>().ok()) {
                    loose.push((f.name(), f.into()));
                }
            }
        }
    }
    let single_folder = entries.len() == 1 && field(&entries[0], "isDirectory").as_bool() == Some(true);
    let root = if single_folder { field(&entries[0], "name").as_string().unwrap_or_default() } else { String::new() };
    let mut found = Vec::new();
    for e in entries {
        walk(e, 0, &mut found).await?;
    }
    found.extend(loose);
    let mut picked: Vec<(String, JsValue)> = found
        .into_iter()
        .map(|(path, f)| {
            let path = path.trim_start_matches('/');
            let path = if single_folder { path.strip_prefix(&format!("{root}/")).unwrap_or(path) } else { path };
            (path.to_string(), f)
        })
        .collect();
    picked.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Picked { paths: picked.iter().map(|p| p.0.clone()).collect(), files: picked.into_iter().map(|p| p.1).collect() })
}

/// The files of a file input: with the folder picker, their paths from the folder chosen.
fn chosen(input: &HtmlInputElement) -> Option<Picked> {
    let list = input.files()?;
    let mut picked = Vec::new();
    for i in 0..list.length() {
        let Some(f) = list.get(i) else { continue };
        let relative = field(&f, "webkitRelativePath").as_string().unwrap_or_default();
        // "set/app.p64.r1/profile.cubex": the folder chosen is the set.
        let path = match relative.split_once('/') {
            Some((_, rest)) if !relative.is_empty() => rest.to_string(),
            _ => f.name(),
        };
        picked.push((path, JsValue::from(f)));
    }
    picked.sort_by(|a, b| a.0.cmp(&b.0));
    (!picked.is_empty()).then(|| Picked {
        paths: picked.iter().map(|p| p.0.clone()).collect(),
        files: picked.into_iter().map(|p| p.1).collect(),
    })
}

#[derive(Properties, PartialEq)]
pub struct FilesProps {
    pub setter: Setter,
    /// One text file chosen: read as the experiment's text.
    pub on_text: Callback<File>,
}

/// The drop zone, the file and folder pickers, and the runs' options once read.
/// What a drop on the zone does: its files and folders walked (in a task: the browser gives
/// them asynchronously), then taken as a choice would be.
fn drop_handler<T: Fn(Picked) + 'static>(take: Rc<T>, status: UseStateHandle<Reading>) -> Callback<DragEvent> {
    Callback::from(move |e: DragEvent| {
        e.prevent_default();
        let Some(dt) = e.data_transfer() else { return };
        let (take, status) = (take.clone(), status.clone());
        wasm_bindgen_futures::spawn_local(async move {
            match dropped(dt).await {
                Ok(p) if !p.paths.is_empty() => take(p),
                Ok(_) => status.set(Reading::Failed("nothing to read was dropped".into())),
                Err(m) => status.set(Reading::Failed(m)),
            }
        });
    })
}

#[component(RunsFiles)]
pub fn runs_files(props: &FilesProps) -> Html {
    let status = use_state(|| Reading::Idle);
    let read_summary = use_state(|| None::<Rc<RunsSummary>>);
    let options = use_state(RunOptions::default);
    let kept = use_mut_ref(|| None::<Picked>);
    let slot: PoolSlot = use_mut_ref(Default::default);
    let jobs = use_mut_ref(|| 0u64);
    {
        let slot = slot.clone();
        use_effect_with((), move |_| move || stop(&slot));
    }
    let read = {
        let (slot, status, jobs, setter, read_summary, kept) =
            (slot.clone(), status.clone(), jobs.clone(), props.setter.clone(), read_summary.clone(), kept.clone());
        Rc::new(move |p: &Picked, o: &RunOptions| {
            stop(&slot);
            *jobs.borrow_mut() += 1;
            let job = *jobs.borrow();
            let text = serde_json::to_string(&ToWorker::<()>::Read { options: o.clone(), paths: p.paths.clone(), job })
                .unwrap_or_default();
            let label = if p.paths.len() == 1 { p.paths[0].clone() } else { format!("{} files", p.paths.len()) };
            let reader = Reader {
                job,
                status: status.clone(),
                read: read_summary.clone(),
                kept: kept.clone(),
                picked: p.clone(),
                setter: setter.clone(),
                label,
            };
            if worker_pool::start_with_files(&slot, WORKER, &text, &p.files, Box::new(reader)) {
                status.set(Reading::Running(0.0));
            } else {
                status.set(Reading::Failed("this browser could not start a Web Worker, which reads the files".into()));
            }
        })
    };
    let take = {
        let (read, options, on_text, status) = (read.clone(), options.clone(), props.on_text.clone(), status.clone());
        Rc::new(move |p: Picked| {
            if p.is_runs() {
                // Other files may not have the metric chosen for the last ones.
                let o = RunOptions { metric: None, ..(*options).clone() };
                options.set(o.clone());
                read(&p, &o);
            } else if let Ok(f) = p.files.get(0).dyn_into::<File>() {
                status.set(Reading::Idle);
                on_text.emit(f);
            }
        })
    };
    let on_pick = {
        let take = take.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target().and_then(|t| t.dyn_into::<HtmlInputElement>().ok()) else { return };
            if let Some(p) = chosen(&input) {
                take(p);
            }
            input.set_value("");
        })
    };
    let on_drag = Callback::from(|e: DragEvent| e.prevent_default());
    let on_drop = drop_handler(take.clone(), status.clone());
    let cancel = {
        let (slot, status) = (slot.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            stop(&slot);
            status.set(Reading::Failed("Reading cancelled: the experiment shown is the one before.".into()));
        })
    };
    let choose = {
        let (read, kept, options) = (read.clone(), kept.clone(), options.clone());
        move |change: fn(&mut RunOptions, String)| {
            let (read, kept, options) = (read.clone(), kept.clone(), options.clone());
            Callback::from(move |e: Event| {
                let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                let mut o = (*options).clone();
                change(&mut o, sel.value());
                options.set(o.clone());
                if let Some(p) = kept.borrow().as_ref() {
                    read(p, &o);
                }
            })
        }
    };
    let state = match &*status {
        Reading::Idle => html! {},
        Reading::Running(f) => html! {
            <p id="runs-progress" class="hint" role="status">
                <progress max="1" value={f.to_string()} />{ format!(" Reading the files: {} % ", fmt_num(f * 100.0, 3)) }
                <button class="secondary" onclick={cancel}>{ "Cancel" }</button>
            </p>
        },
        Reading::Failed(m) => html! { <p id="runs-error" class="field-error" role="alert">{ m.clone() }</p> },
    };
    let read_panel = match &*read_summary {
        None => html! {},
        Some(s) => {
            let o = &*options;
            let metrics = s
                .metrics
                .iter()
                .map(|m| html! { <option value={m.clone()} selected={*m == s.metric}>{ m.clone() }</option> });
            let aggregates = Aggregate::ALL
                .iter()
                .map(|a| html! { <option value={a.key()} selected={*a == o.aggregate}>{ a.words() }</option> });
            let merged = (!s.merged.is_empty()).then(|| {
                let names: Vec<String> = s.merged.iter().map(|(p, into)| match into {
                    Some(t) if !s.options.inclusive => format!("{p} → {t}"),
                    _ => format!("{p} (left out)"),
                }).collect();
                html! { <li>{ format!("{} call path(s) missing at some points, merged into their nearest ancestor present everywhere: {}", names.len(), names.join("; ")) }</li> }
            });
            html! {
                <div id="runs-read">
                    <p class="hint" role="status">{ s.said.clone() }{ " Nothing was uploaded: the files were read in this browser." }</p>
                    if !s.merged.is_empty() { <ul class="warnings">{ merged }</ul> }
                    if s.source != "cali" && s.source != "saved" && kept.borrow().is_some() {
                        <div class="form-row">
                            <label>{ "metric to read " }<select id="runs-metric" onchange={choose(|o, v| o.metric = Some(v))}>{ for metrics }</select></label>
                            <label>{ "values " }<select id="runs-inclusive" onchange={choose(|o, v| o.inclusive = v == "inclusive")}>
                                <option value="exclusive" selected={!o.inclusive}>{ "exclusive (own time)" }</option>
                                <option value="inclusive" selected={o.inclusive}>{ "inclusive (with callees)" }</option>
                            </select></label>
                            <label>{ "per run " }<select id="runs-aggregate" onchange={choose(|o, v| o.aggregate = Aggregate::from_key(&v).unwrap_or_default())}>{ for aggregates }</select></label>
                        </div>
                    }
                </div>
            }
        }
    };
    html! {
        <div class="runs-files">
            <div id="runs-drop" class="drop-zone" ondragover={on_drag.clone()} ondragenter={on_drag} ondrop={on_drop}>
                { "Drop a folder of runs here (Score-P runs such as app.p64.r1/profile.cubex; Caliper, TAU or HPCToolkit profiles, p from their metadata), a saved .extra-p experiment, or an experiment as text." }
                <div class="form-row">
                    <label class="button secondary">{ "Choose files" }
                        <input id="extrap-file" type="file" multiple=true class="visually-hidden" aria-label="choose profiles, a saved .extra-p experiment or an experiment as text" onchange={on_pick.clone()} />
                    </label>
                    <label class="button secondary">{ "Choose a folder of runs" }
                        <input id="runs-folder" type="file" webkitdirectory=true multiple=true class="visually-hidden" aria-label="choose a folder of runs" onchange={on_pick} />
                    </label>
                </div>
            </div>
            { state }
            { read_panel }
        </div>
    }
}
