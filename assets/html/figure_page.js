// RoPE Explorer's figure page: draws a figure's display lists (written by app/export/html_page.cpp)
// on a canvas, one frame at a time. Everything it needs is in this page; it loads nothing.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("rope-figure").textContent);
  const canvas = document.getElementById("canvas");
  const slider = document.getElementById("frame");
  const play = document.getElementById("play");
  const label = document.getElementById("frame-label");
  const readout = document.getElementById("readout");
  const ctx = canvas.getContext("2d");
  const frames = data.frames.length;
  const images = data.images.map(function (src) {
    const i = new Image();
    i.onload = function () { redraw(); };  // a late image: draw the frame again with it
    i.src = src;
    return i;
  });
  let frame = 0, timer = null, ready = false;

  // The font the figure was laid out with, from the page itself.
  const fontBytes = Uint8Array.from(atob(data.font), function (c) { return c.charCodeAt(0); });
  const face = new FontFace("RoPE Explorer Sans", fontBytes);
  document.fonts.add(face);

  function path(p, closed) {
    ctx.beginPath();
    ctx.moveTo(p[0], p[1]);
    for (let i = 2; i < p.length; i += 2) ctx.lineTo(p[i], p[i + 1]);
    if (closed) ctx.closePath();
  }
  function fillStroke(fill, stroke, width) {
    if (fill) { ctx.fillStyle = fill; ctx.fill(); }
    if (stroke) { ctx.strokeStyle = stroke; ctx.lineWidth = width; ctx.stroke(); }
  }
  // One command: [kind, ...] as html_page.cpp writes it.
  function draw(c) {
    switch (c[0]) {
      case "l":  // polyline: colour, width, dash, closed, points
        path(c[5], c[4]);
        ctx.setLineDash(c[3] > 0 ? [c[3], c[3]] : []);
        ctx.strokeStyle = c[1]; ctx.lineWidth = c[2]; ctx.stroke();
        ctx.setLineDash([]);
        break;
      case "g":  // filled polygon: colour, points
        path(c[2], true); ctx.fillStyle = c[1]; ctx.fill();
        break;
      case "r":  // rectangle: x, y, w, h, fill, stroke, stroke width
        ctx.beginPath(); ctx.rect(c[1], c[2], c[3], c[4]); fillStroke(c[5], c[6], c[7]);
        break;
      case "c":  // circle: x, y, r, fill, stroke, stroke width
        ctx.beginPath(); ctx.arc(c[1], c[2], c[3], 0, 2 * Math.PI); fillStroke(c[4], c[5], c[6]);
        break;
      case "t": {  // text: x, y, pixel height, colour, halign, valign, vertical, text
        const size = c[3];
        ctx.font = (size / 1.164) + "px \"RoPE Explorer Sans\", \"DejaVu Sans\", Verdana, sans-serif";
        const w = ctx.measureText(c[8]).width;
        const dx = c[5] === 0 ? 0 : c[5] === 1 ? -w / 2 : -w;
        const dy = c[6] === 0 ? 0 : c[6] === 1 ? -size / 2 : -size;
        ctx.save();
        ctx.translate(c[1], c[2]);
        if (c[7]) ctx.rotate(-Math.PI / 2);
        ctx.fillStyle = c[4];
        ctx.textBaseline = "alphabetic";
        ctx.fillText(c[8], dx, dy + 0.928 * size / 1.164);
        ctx.restore();
        break;
      }
      case "i": {  // image of cells: x, y, w, h, image number
        // cells stay cells (no smoothing, as in the PNG) down to 3/4 of a pixel a cell; where the page
        // shows the figure smaller than that, smoothing averages the cells a pixel covers instead of
        // picking one of them
        const image = images[c[5]];
        if (!image.complete || image.naturalWidth === 0) break;  // not decoded (yet): drawn when it is
        ctx.save();
        ctx.imageSmoothingEnabled = c[3] * ctx.getTransform().a < 0.75 * image.naturalWidth || c[4] * ctx.getTransform().d < 0.75 * image.naturalHeight;
        ctx.drawImage(image, c[1], c[2], c[3], c[4]);
        ctx.restore();
        break;
      }
      case "p":  // clip to x, y, w, h until the matching "q"
        ctx.save(); ctx.beginPath(); ctx.rect(c[1], c[2], c[3], c[4]); ctx.clip();
        break;
      case "q":
        ctx.restore();
        break;
    }
  }
  // The canvas at the page's pixel density (browser zoom and a pinch's zoom included), so that lines
  // and text stay sharp at any zoom; at most 8192 pixels a side.
  function redraw() {
    const pinch = window.visualViewport ? window.visualViewport.scale : 1;
    const scale = Math.min((canvas.clientWidth || data.width) / data.width * (window.devicePixelRatio || 1) * pinch,
                           8192 / Math.max(data.width, data.height));
    const w = Math.round(data.width * scale), h = Math.round(data.height * scale);
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    ctx.setTransform(w / data.width, 0, 0, h / data.height, 0, 0);
    ctx.lineJoin = "round"; ctx.lineCap = "butt";
    ctx.fillStyle = data.background; ctx.fillRect(0, 0, data.width, data.height);
    if (!ready) return;
    const list = data.frames[frame];
    for (let i = 0; i < list.length; ++i) draw(data.commands[list[i]]);
    canvas.setAttribute("aria-label", data.alt[frame]);
  }
  function show(k) {
    frame = Math.max(0, Math.min(frames - 1, Math.trunc(k) || 0));
    if (slider) {
      slider.value = frame;
      slider.setAttribute("aria-valuetext", data.labels[frame]);  // read out as "position = 34", not "17"
    }
    if (label) label.textContent = data.labels[frame];
    redraw();
  }
  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    if (play) { play.textContent = "\u25B6 Play"; play.setAttribute("aria-label", "Play"); }
  }
  function start() {
    if (timer !== null || frames < 2) return;
    if (frame === frames - 1) show(0);
    timer = setInterval(function () { show((frame + 1) % frames); }, 1000 / data.fps);
    play.textContent = "\u275A\u275A Pause"; play.setAttribute("aria-label", "Pause");
  }
  function fromAddress() {
    const m = /^#frame=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  }
  if (slider) {
    slider.addEventListener("input", function () { pause(); show(parseInt(slider.value, 10)); });
    play.addEventListener("click", function () { if (timer === null) start(); else pause(); });
    // Arrow keys step frames wherever the page has the keyboard (the slider steps itself).
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === " " && e.target !== play) { if (timer === null) start(); else pause(); e.preventDefault(); return; }
      if (e.target === slider) return;  // the slider steps itself
      let k = null;
      if (e.key === "ArrowRight" || e.key === "ArrowUp") k = frame + 1;
      else if (e.key === "ArrowLeft" || e.key === "ArrowDown") k = frame - 1;
      else if (e.key === "Home") k = 0;
      else if (e.key === "End") k = frames - 1;
      if (k === null) return;
      e.preventDefault(); pause(); show(k);
    });
    window.addEventListener("hashchange", function () { pause(); show(fromAddress()); });
  }
  // Hover: the plot's coordinates under the pointer.
  function formatNumber(v, integer) {
    if (integer) return String(Math.round(v));
    const a = Math.abs(v);
    if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(3);
    return String(parseFloat(v.toPrecision(4)));
  }
  function axisValue(p, t, log) {
    return log ? Math.exp(Math.log(p[0]) + t * (Math.log(p[1]) - Math.log(p[0]))) : p[0] + t * (p[1] - p[0]);
  }
  canvas.addEventListener("mousemove", function (e) {
    const r = canvas.getBoundingClientRect();
    const x = (e.clientX - r.left) / r.width * data.width, y = (e.clientY - r.top) / r.height * data.height;
    const plots = data.plots[frame] || [];
    for (let i = 0; i < plots.length; ++i) {
      const p = plots[i];  // name, x0, y0, x1, y1, [xmin, xmax], [ymin, ymax], xlog, ylog, x name, y name, x whole, y whole
      if (x < p[1] || x > p[3] || y < p[2] || y > p[4]) continue;
      const xv = axisValue(p[5], (x - p[1]) / (p[3] - p[1]), p[7]);
      const yv = axisValue(p[6], (p[4] - y) / (p[4] - p[2]), p[8]);
      readout.textContent = p[0] + ": " + p[9] + " " + formatNumber(xv, p[11]) + ", " + p[10] + " " + formatNumber(yv, p[12]);
      readout.hidden = false;  // shown before it is measured
      readout.style.left = Math.min(e.pageX + 14, document.documentElement.clientWidth - readout.offsetWidth - 4) + "px";
      readout.style.top = (e.pageY + 16) + "px";
      return;
    }
    readout.hidden = true;
  });
  canvas.addEventListener("mouseleave", function () { readout.hidden = true; });
  window.addEventListener("resize", redraw);
  if (window.visualViewport) window.visualViewport.addEventListener("resize", redraw);
  // moved to a screen of another pixel density: draw again at the new one
  (function watchDensity() {
    const query = window.matchMedia("(resolution: " + (window.devicePixelRatio || 1) + "dppx)");
    const again = function () { query.removeEventListener("change", again); redraw(); watchDensity(); };
    query.addEventListener("change", again);
  })();
  show(fromAddress());
  Promise.allSettled([face.load()].concat(images.map(function (i) { return i.decode(); }))).then(function () {
    ready = true; redraw();
  });
})();
