// For pages that embed a scalewise calculator (the share panel's snippet includes this file):
// sizes each scalewise iframe to the height its page reports, so it neither leaves a gap nor
// cuts the calculator off. Only messages from the iframe's own window count.
addEventListener("message", (e) => {
  const d = e.data;
  if (!d || d.type !== "scalewise-height" || !(d.height > 0)) return;
  for (const frame of document.querySelectorAll("iframe")) {
    if (frame.contentWindow === e.source) frame.style.height = Math.ceil(Math.min(d.height, 100000)) + "px";
  }
});
