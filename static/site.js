// Runs in <head> of every page, before it paints and before the wasm loads. Three jobs:
// 1. Theme. <html data-theme> is always "light" or "dark": ?theme= in the address, else the
//    header's switch (remembered in localStorage), else the system's prefers-color-scheme.
//    Every change fires a "scalewise-theme" event on window (the charts redraw on it).
//    data-theme-choice holds the switch's setting (auto, light or dark) for the header.
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
    html.dataset.themeChoice = choice;
    const select = document.getElementById("theme-switch");
    if (select) select.value = choice;
    if (html.dataset.theme !== theme) {
      html.dataset.theme = theme;
      dispatchEvent(new Event("scalewise-theme"));
    }
  };
  apply();
  system.addEventListener("change", apply);
  // The switch is drawn by the app; one listener on the document serves it whenever it appears.
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
})();
