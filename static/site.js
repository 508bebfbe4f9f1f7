// Runs in <head> of every page, before it paints and before the wasm loads. Four jobs:
// 1. Theme. <html data-theme> is always "light" or "dark": ?theme= in the address, else the
//    header's switch (remembered in localStorage), else the system's prefers-color-scheme.
//    Every change fires a "scalewise-theme" event on window (the charts redraw on it).
//    The switch is added to the header here (see tidy below).
// 2. Offline: registers sw.js, and offers to reload when a new build is ready (the open page
//    keeps the build it started with until then).
// 3. Embeds (?embed=1 in an iframe): posts the content height to the parent page whenever it
//    changes, for embed.js to size the iframe.
// 4. Inputs: window.scalewiseStore keeps the workspace's records (model::workspace::records)
//    in IndexedDB and tells the other tabs of the site (see below; ui::storage uses it).

// The records: IndexedDB database "scalewise", object store "records", key → {v: text or null
// (removed), t: time stamp (ms), tab: the writing tab's id}. The last write wins for each
// record: a write goes in only if its stamp (t, tab) is above the stored one, and a tab
// applies another tab's write only if it is above the stamp it knows. A tab's stamp is above
// every stamp it has seen for that record, so an edit made after seeing another tab's always
// wins. Each write that goes in is posted on the BroadcastChannel "scalewise-records"; a write
// that finds a newer record stored takes that record instead. A write waiting for IndexedDB
// is also kept in localStorage ("scalewise.pending:" + key, for records up to 64 KB) until it
// is stored, so a keystroke just before a reload or a closed tab is not lost: the next load
// takes in what is pending and newer. Started here, before the wasm has loaded, so the
// records are read by the time it asks.
window.scalewiseStore = (() => {
  const tab = Math.random().toString(36).slice(2), known = new Map(), heard = [], PENDING = "scalewise.pending:";
  // The pending writes in localStorage: [key, {v, t, tab}].
  const pending = () => {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k.startsWith(PENDING)) try { out.push([k.slice(PENDING.length), JSON.parse(localStorage.getItem(k))]); } catch { /* damaged: skipped */ }
      }
    } catch { /* storage off */ }
    return out;
  };
  const unpend = (key, d) => {
    try {
      const cur = JSON.parse(localStorage.getItem(PENDING + key));
      if (cur && cur.t === d.t && cur.tab === d.tab) localStorage.removeItem(PENDING + key);
    } catch { /* nothing pending */ }
  };
  const above = (t, by, key) => { const k = known.get(key); return !k || t > k[0] || (t === k[0] && by > k[1]); };
  let listener = null;
  // An embed follows no tab (ui::storage): it does not listen.
  const embed = /^(1|true)$/.test(new URLSearchParams(location.search).get("embed"));
  const channel = self.BroadcastChannel ? new BroadcastChannel("scalewise-records") : null;
  if (channel && !embed) channel.onmessage = ({ data: d }) => {
    if (!above(d.t, d.tab, d.key)) return;
    known.set(d.key, [d.t, d.tab]);
    listener ? listener(d.key, d.v) : heard.push(d);
  };
  // The error's name (QuotaExceededError, SecurityError, …) is what ui::storage explains.
  const fail = (e) => (e && e.name) || "UnknownError";
  const db = new Promise((ok, no) => {
    try {
      const r = indexedDB.open("scalewise", 1);
      r.onupgradeneeded = () => r.result.createObjectStore("records");
      r.onsuccess = () => ok(r.result);
      r.onerror = () => no(fail(r.error));
    } catch (e) { no(fail(e)); }
  });
  db.catch(() => {});
  const tx = (mode, body) => db.then((d) => new Promise((ok, no) => {
    const t = d.transaction("records", mode);
    const result = body(t.objectStore("records"));
    t.oncomplete = () => ok(result.value);
    t.onabort = t.onerror = () => no(fail(t.error));
  }));
  const store = {
    // Every record as JSON text: [[key, text], …] (removed ones left out), with the writes
    // still pending from a page that went away taken in (and stored).
    load: () => tx("readonly", (s) => {
      const out = { value: new Map() };
      s.openCursor().onsuccess = (e) => {
        const c = e.target.result;
        if (!c) return;
        const r = c.value;
        if (above(r.t, r.tab, c.key)) known.set(c.key, [r.t, r.tab]);
        out.value.set(c.key, r.v);
        c.continue();
      };
      return out;
    }).then((rows) => {
      for (const [key, d] of pending()) {
        if (!above(d.t, d.tab, key)) { unpend(key, d); continue; }
        rows.set(key, d.v);
        store.put(key, d.v);
      }
      return JSON.stringify([...rows].filter((r) => typeof r[1] === "string"));
    }),
    // Writes one record (text, or null to remove it); rejects with the error's name.
    put: (key, v) => {
      const k = known.get(key), t = Math.max(Date.now(), k ? k[0] + 1 : 0);
      known.set(key, [t, tab]);
      const d = { v, t, tab };
      if (v == null || v.length <= 65536) try { localStorage.setItem(PENDING + key, JSON.stringify(d)); } catch { /* full or off: IndexedDB alone */ }
      return tx("readwrite", (s) => {
        const won = { value: null };
        s.get(key).onsuccess = (e) => {
          const r = e.target.result;
          if (!r || t > r.t || (t === r.t && tab > r.tab)) s.put(d, key);
          else won.value = r;
        };
        return won;
      }).then((r) => {
        unpend(key, d);
        if (!r) return channel?.postMessage({ key, v, t, tab });
        // Another tab's later write was there first: this tab shows it too.
        if (above(r.t, r.tab, key)) { known.set(key, [r.t, r.tab]); listener?.(key, r.v); }
      });
    },
    // f(key, text or null) for each newer record another tab writes, those heard so far first
    // (if still the newest).
    listen: (f) => {
      listener = f;
      for (const d of heard.splice(0)) { const k = known.get(d.key); if (k[0] === d.t && k[1] === d.tab) f(d.key, d.v); }
    },
  };
  return store;
})();

(() => {
  const html = document.documentElement, KEY = "scalewise-theme", CHOICES = /^(auto|light|dark)$/;
  const query = new URLSearchParams(location.search);
  const system = matchMedia("(prefers-color-scheme: dark)");
  let choice = query.get("theme");
  if (!CHOICES.test(choice)) {
    try { choice = localStorage.getItem(KEY); } catch { choice = null; }
  }
  if (!CHOICES.test(choice)) choice = "auto";

  const apply = () => {
    const theme = choice === "auto" ? (system.matches ? "dark" : "light") : choice;
    const select = document.getElementById("theme-switch");
    if (select) select.value = choice;
    if (html.dataset.theme !== theme) {
      html.dataset.theme = theme;
      dispatchEvent(new Event("scalewise-theme"));
    }
  };
  apply();
  system.addEventListener("change", apply);
  // One listener on the document serves the switch.
  addEventListener("change", (e) => {
    if (e.target.id !== "theme-switch" || !CHOICES.test(e.target.value)) return;
    choice = e.target.value;
    try { localStorage.setItem(KEY, choice); } catch { /* private mode: this page only */ }
    apply();
  });
  // Another tab changed the switch.
  addEventListener("storage", (e) => {
    if (e.key === KEY && !query.has("theme")) { choice = CHOICES.test(e.newValue) ? e.newValue : "auto"; apply(); }
  });

  // After the app's changes, at most once a frame:
  // - the header (drawn by the app) gets the Theme switch, written here rather than in Rust
  //   because every byte of wasm counts against the page budget, and the app never redraws
  //   the header's last child;
  // - a table or code wider than a small screen scrolls in its own box; the keyboard must be
  //   able to scroll it too, so such a box takes the focus (one that has a tabindex is not
  //   measured: measuring a long table lays it out at once).
  let pending = false;
  const tidy = () => {
    pending = false;
    const header = document.querySelector(".site-header");
    if (header && !document.getElementById("theme-switch")) {
      const label = document.createElement("label");
      label.className = "theme-switch";
      label.append("Theme ");
      const select = document.createElement("select");
      select.id = "theme-switch";
      for (const [value, text] of [["auto", "Auto"], ["light", "Light"], ["dark", "Dark"]]) select.add(new Option(text, value));
      select.value = choice;
      label.append(select);
      header.append(label);
    }
    for (const el of document.querySelectorAll("table, pre")) {
      if (!el.hasAttribute("tabindex") && el.scrollWidth > el.clientWidth) el.tabIndex = 0;
    }
  };
  const later = () => { if (!pending) { pending = true; requestAnimationFrame(tidy); } };
  addEventListener("DOMContentLoaded", () => new MutationObserver(later).observe(document.body, { childList: true, subtree: true }));
  addEventListener("resize", later);

  if (/^(1|true)$/.test(query.get("embed")) && parent !== window) {
    let last = 0;
    const post = () => {
      const height = Math.ceil(document.body.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        parent.postMessage({ type: "scalewise-height", height }, "*");
      }
    };
    addEventListener("DOMContentLoaded", () => new ResizeObserver(post).observe(document.body));
  }

  if ("serviceWorker" in navigator) {
    addEventListener("load", () => {
      navigator.serviceWorker.register("sw.js").then((reg) => {
        const offer = (worker) => {
          if (!navigator.serviceWorker.controller || document.getElementById("update-ready")) return;
          const bar = document.createElement("div");
          bar.id = "update-ready";
          bar.setAttribute("role", "status");
          bar.textContent = "A new version of scalewise is ready. ";
          const button = document.createElement("button");
          button.textContent = "Reload";
          button.onclick = () => {
            navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
            worker.postMessage("activate");
          };
          bar.append(button);
          document.body.append(bar);
        };
        if (reg.waiting) offer(reg.waiting);
        reg.addEventListener("updatefound", () => {
          const worker = reg.installing;
          worker?.addEventListener("statechange", () => { if (worker.state === "installed") offer(worker); });
        });
      }, () => { /* no service worker (private mode, insecure origin): the site still works online */ });
    });
  }

  // The "CSV" button every results table has (ui::components::table_csv): a click downloads
  // the table right before it (or the one inside the element before it) as RFC 4180 CSV, one
  // record per row, a cell's data-csv-fields or data-csv attribute where it has one, else its text. Here rather
  // than in each page's wasm, where the same walk cost about 2 KB gzipped per page.
  document.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest("button[data-csv-file]") : null;
    const before = button?.previousElementSibling;
    const table = before && (before.tagName === "TABLE" ? before : before.querySelector("table"));
    if (!table) return;
    const field = (s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    // A cell's data-csv-fields (a JSON list) gives several fields: a number and its range
    // each in a column of its own.
    const fields = (c) => {
      try { const f = JSON.parse(c.getAttribute("data-csv-fields")); if (Array.isArray(f)) return f.map(String); } catch { /* none */ }
      return [c.getAttribute("data-csv") ?? c.textContent];
    };
    const csv = [...table.rows]
      .map((r) => [...r.cells].flatMap(fields).map((s) => field(s.trim())).join(",") + "\r\n")
      .join("");
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    a.download = button.dataset.csvFile;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  });
})();
