/* QR codes drawn in the page (vendored qrcode-generator, no network): an SVG, dark modules on white,
   with the 4-module quiet zone that phone cameras need. Text is encoded as UTF-8 bytes. */
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";

  function svg(text, level) {
    qrcode.stringToBytes = qrcode.stringToBytesFuncs["UTF-8"];
    const qr = qrcode(0, level || "M");
    qr.addData(text, "Byte");
    qr.make();
    const n = qr.getModuleCount(), quiet = 4, size = n + 2 * quiet;
    let d = "";
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += "M" + (c + quiet) + " " + (r + quiet) + "h1v1h-1z";
    }
    const root = document.createElementNS(NS, "svg");
    root.setAttribute("viewBox", "0 0 " + size + " " + size);
    root.setAttribute("shape-rendering", "crispEdges");
    root.setAttribute("role", "img");
    const bg = document.createElementNS(NS, "rect");
    bg.setAttribute("width", String(size)); bg.setAttribute("height", String(size)); bg.setAttribute("fill", "#fff");
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", d); path.setAttribute("fill", "#000");
    root.append(bg, path);
    return root;
  }

  /* put the QR code of ``text`` in ``holder``, redrawing only when the text changes */
  function show(holder, text, label) {
    if (holder.dataset.qr === text) return;
    holder.dataset.qr = text;
    const code = svg(text);
    code.setAttribute("aria-label", label || "");
    holder.replaceChildren(code);
  }

  window.LotoQr = {svg, show};
})();
