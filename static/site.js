// Runs in <head> of every page, before it paints and before the wasm loads. Three jobs:
// 1. Theme. <html data-theme> is always "light" or "dark": ?theme= in the address, else the
//    header's switch (remembered in localStorage), else the system's prefers-color-scheme.
//    Every change fires a "scalewise-theme" event on window (the charts redraw on it).
//    The switch is added to the header here (see tidy below).
// 2. Offline: registers sw.js, and offers to reload when a new build is ready (the open page
//    keeps the build it started with until then).
// 3. Embeds (?embed=1 in an iframe): posts the content height to the parent page whenever it
//    changes, for embed.js to size the iframe.
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
  //   able to scroll it too, so such a box takes the focus.
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
      if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) el.tabIndex = 0;
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
  // record per row, a cell's data-csv attribute where it has one, else its text. Here rather
  // than in each page's wasm, where the same walk cost about 2 KB gzipped per page.
  document.addEventListener("click", (e) => {
    const button = e.target instanceof Element ? e.target.closest("button[data-csv-file]") : null;
    const before = button?.previousElementSibling;
    const table = before && (before.tagName === "TABLE" ? before : before.querySelector("table"));
    if (!table) return;
    const field = (s) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    const csv = [...table.rows]
      .map((r) => [...r.cells].map((c) => field((c.getAttribute("data-csv") ?? c.textContent).trim())).join(",") + "\r\n")
      .join("");
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([csv], { type: "text/csv" }));
    a.download = button.dataset.csvFile;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  });
})();
