// podium's stage page: widgets from the layout the server sends, values both ways over one
// WebSocket. No framework, no build step: this file is served as it is.
"use strict";
const token = new URLSearchParams(location.search).get("token");
// The editor, with this page's token (and read-only with the audience's).
{ const q = new URLSearchParams(location.search); q.delete("name"); document.getElementById("editorLink")?.setAttribute("href", "/editor?" + q); }
const widgets = new Map();       // channel → [update(value)]
const dragging = new Set();      // channels being moved here: incoming values wait
let socket = null, layout = null;

function send(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }
function setChannel(channel, value) { send({ type: "set", channel, value }); }
function el(tag, cls, parent) { const e = document.createElement(tag); if (cls) e.className = cls; if (parent) parent.appendChild(e); return e; }
function bind(channel, update) { if (!widgets.has(channel)) widgets.set(channel, []); widgets.get(channel).push(update); }
function fmt(v) { return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2); }

// A control's value ↔ its 0…1 position, by its curve (exp: a frequency or a time).
function toUnit(c, v) {
  if (c.curve === "exp" && c.min > 0) return Math.log(v / c.min) / Math.log(c.max / c.min);
  return (v - c.min) / ((c.max - c.min) || 1);
}
function fromUnit(c, u) {
  u = Math.min(1, Math.max(0, u));
  let v = c.curve === "exp" && c.min > 0 ? c.min * Math.pow(c.max / c.min, u) : c.min + u * (c.max - c.min);
  return c.curve === "int" ? Math.round(v) : v;
}

function drag(target, channel, onMove) {
  target.addEventListener("pointerdown", e => {
    target.setPointerCapture(e.pointerId); dragging.add(channel); onMove(e);
    const move = ev => onMove(ev);
    const up = () => { dragging.delete(channel); target.removeEventListener("pointermove", move); target.removeEventListener("pointerup", up); target.removeEventListener("pointercancel", up); };
    target.addEventListener("pointermove", move); target.addEventListener("pointerup", up); target.addEventListener("pointercancel", up);
  });
}

function fader(c, parent, knob) {
  const box = el("div", "control", parent);
  const body = el("div", knob ? "knob" : "fader", box);
  const fill = knob ? null : el("div", "fill", body);
  const value = el("div", "value", box);
  el("div", "label", box).textContent = c.label;
  const name = c.channels[0];
  body.dataset.channel = name; body.dataset.widget = c.widget;
  const show = v => {
    const u = Math.min(1, Math.max(0, toUnit(c, v)));
    if (knob) body.style.setProperty("--turn", (u * 360) + "deg"); else fill.style.height = (u * 100) + "%";
    value.textContent = fmt(v);
  };
  let startY = 0, startU = 0;
  drag(body, name, e => {
    const r = body.getBoundingClientRect();
    let u;
    if (knob) { if (e.type === "pointerdown") { startY = e.clientY; startU = toUnit(c, body._v ?? c.defaultValue); } u = startU + (startY - e.clientY) / 150; }
    else u = 1 - (e.clientY - r.top) / r.height;
    const v = fromUnit(c, u); body._v = v; show(v); setChannel(name, v);
  });
  bind(name, v => { body._v = v; show(v); });
  show(c.defaultValue);
}

function toggle(c, parent, momentary) {
  const box = el("div", "control", parent);
  const b = el("button", momentary ? "momentary" : "toggle", box);
  const name = c.channels[0];
  b.dataset.channel = name; b.dataset.widget = c.widget;
  b.textContent = momentary ? "●" : "off";
  el("div", "label", box).textContent = c.label;
  if (momentary) b.addEventListener("pointerdown", () => send({ type: "momentary", channel: name }));
  else {
    b.addEventListener("click", () => { const on = !b.classList.contains("on"); show(on ? 1 : 0); setChannel(name, on ? 1 : 0); });
    bind(name, v => show(v));
  }
  function show(v) { b.classList.toggle("on", v >= 0.5); b.textContent = v >= 0.5 ? "on" : "off"; }
}

function xy(c, parent) {
  const box = el("div", "control", parent);
  const pad = el("div", "xy", box);
  const dot = el("div", "dot", pad);
  el("div", "label", box).textContent = c.label;
  const [cx, cy] = c.channels;
  pad.dataset.channel = cx; pad.dataset.widget = "xy";
  let x = 0.5, y = 0.5;
  const show = () => { dot.style.left = (x * 100) + "%"; dot.style.top = ((1 - y) * 100) + "%"; };
  drag(pad, cx, e => {
    const r = pad.getBoundingClientRect();
    x = Math.min(1, Math.max(0, (e.clientX - r.left) / r.width)); y = Math.min(1, Math.max(0, 1 - (e.clientY - r.top) / r.height));
    show(); setChannel(cx, fromUnit(c, x)); setChannel(cy, fromUnit(c, y));
  });
  bind(cx, v => { if (!dragging.has(cx)) { x = toUnit(c, v); show(); } });
  bind(cy, v => { if (!dragging.has(cx)) { y = toUnit(c, v); show(); } });
  show();
}

function grid(c, parent) {
  const title = parent.closest(".panel").querySelector("h2").textContent;
  if (c.label !== title) el("div", "gridLabel", parent).textContent = c.label;
  const g = el("div", "grid", parent);
  // Several rows (kick / snare / hat): each row's name at its start.
  const names = c.label.split(" / "), named = c.rows > 1 && names.length === c.rows;
  g.style.gridTemplateColumns = (named ? "minmax(36px, auto) " : "") + `repeat(${c.columns}, 1fr)`;
  c.channels.forEach((name, i) => {
    if (named && i % c.columns === 0) el("div", "rowName", g).textContent = names[i / c.columns];
    const b = el("button", "", g);
    b.dataset.channel = name; b.dataset.widget = "grid"; b.title = name;
    if ((i % c.columns) % 4 === 0) b.classList.add("beat");
    b.addEventListener("click", () => { const on = !b.classList.contains("on"); b.classList.toggle("on", on); setChannel(name, on ? 1 : 0); });
    bind(name, v => b.classList.toggle("on", v >= 0.5));
  });
}

// A push button: down while pressed (a held note, or its channel at 1), up when let go.
function push(c, parent) {
  const box = el("div", "control", parent);
  const b = el("button", "push", box);
  b.dataset.channel = c.id; b.dataset.widget = "push";
  const key = c.note !== undefined && c.note !== null;
  b.textContent = key ? c.label : "hold";
  if (key) { b.classList.add("key"); b.classList.toggle("sharp", c.label.includes("♯")); }
  else el("div", "label", box).textContent = c.label;
  let down = false;
  const set = d => { if (d === down) return; down = d; b.classList.toggle("down", d); send({ type: "push", id: c.id, down: d }); };
  b.addEventListener("pointerdown", e => { b.setPointerCapture(e.pointerId); set(true); });
  for (const ev of ["pointerup", "pointercancel", "lostpointercapture"]) b.addEventListener(ev, () => set(false));
  b.addEventListener("contextmenu", e => e.preventDefault());
}

// A pie: its slices are the channels' shares of a total; drag a border between two slices.
const pieColours = ["#ffb347", "#4fd1a5", "#6ea8ff", "#ff7ab6", "#c59bff", "#f5e663"];
function pie(c, parent) {
  const box = el("div", "control pieBox", parent);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "-1.1 -1.1 2.2 2.2"); svg.classList.add("pie");
  svg.dataset.channel = c.channels[0]; svg.dataset.widget = "pie";
  box.appendChild(svg);
  const legend = el("div", "legend", box);
  const n = c.channels.length;
  let f = c.channels.map(() => 1 / n);
  const slices = c.channels.map((_, i) => { const p = document.createElementNS(svg.namespaceURI, "path"); p.setAttribute("fill", pieColours[i % pieColours.length]); svg.appendChild(p); return p; });
  const handles = c.channels.slice(1).map(() => { const h = document.createElementNS(svg.namespaceURI, "circle"); h.setAttribute("r", "0.09"); h.classList.add("handle"); svg.appendChild(h); return h; });
  const items = c.channels.map((name, i) => { const it = el("span", "", legend); it.style.setProperty("--c", pieColours[i % pieColours.length]); it.dataset.channel = name; return it; });
  const pt = a => [Math.sin(a), -Math.cos(a)];
  const bounds = () => { const b = [0]; let s = 0; for (let i = 0; i < n - 1; i++) { s += f[i]; b.push(s * 2 * Math.PI); } b.push(2 * Math.PI); return b; };
  function show() {
    const b = bounds();
    slices.forEach((p, i) => {
      const a0 = b[i], a1 = b[i + 1], [x0, y0] = pt(a0), [x1, y1] = pt(a1);
      if (a1 - a0 >= 2 * Math.PI - 1e-6) p.setAttribute("d", "M0,-1 A1,1 0 1,1 0,1 A1,1 0 1,1 0,-1 Z");
      else p.setAttribute("d", a1 - a0 < 1e-6 ? "" : `M0,0 L${x0},${y0} A1,1 0 ${a1 - a0 > Math.PI ? 1 : 0},1 ${x1},${y1} Z`);
    });
    handles.forEach((h, i) => { const [x, y] = pt(b[i + 1]); h.setAttribute("cx", x * 0.82); h.setAttribute("cy", y * 0.82); });
    items.forEach((it, i) => it.textContent = `${c.channels[i]} ${Math.round(f[i] * 100)}%`);
  }
  const angle = e => { const r = svg.getBoundingClientRect(); const a = Math.atan2(e.clientX - r.left - r.width / 2, -(e.clientY - r.top - r.height / 2)); return a < 0 ? a + 2 * Math.PI : a; };
  const wrap = d => d > Math.PI ? d - 2 * Math.PI : d < -Math.PI ? d + 2 * Math.PI : d;
  let last = 0, tied = [], which = -1;
  drag(svg, c.channels[0], e => {
    const a = angle(e), b = bounds();
    if (e.type === "pointerdown") {
      // The border nearest the finger (borders that lie together: the drag's direction picks one).
      let best = Infinity;
      for (let k = 1; k < n; k++) { const d = Math.abs(wrap(a - b[k])); if (d < best - 1e-9) { best = d; tied = [k]; } else if (Math.abs(d - best) < 1e-9) tied.push(k); }
      which = tied.length === 1 ? tied[0] : -1; last = a; return;
    }
    const d = wrap(a - last); last = a;
    if (which < 0) { if (Math.abs(d) < 1e-4) return; which = d > 0 ? tied[tied.length - 1] : tied[0]; }
    b[which] = Math.min(b[which + 1], Math.max(b[which - 1], b[which] + d));
    f = b.slice(1).map((x, i) => (x - b[i]) / (2 * Math.PI));
    show();
    send({ type: "pie", id: c.id, values: f });
  });
  const values = c.channels.map(() => 0);
  c.channels.forEach((name, i) => bind(name, v => {
    values[i] = v; const s = values.reduce((x, y) => x + y, 0);
    if (s > 0 && !dragging.has(c.channels[0])) { f = values.map(x => x / s); show(); }
  }));
  show();
}

// Level meters for every output port: RMS as the bar, the peak as a line (dBFS, −60…0).
function levels(list) {
  const row = document.getElementById("levelRow");
  if (row.children.length !== list.length) {
    row.innerHTML = "";
    for (const l of list) {
      const box = el("div", "control", row);
      const m = el("div", "level", box); el("div", "fill", m); el("div", "peak", m);
      m.dataset.channel = l.port; m.dataset.widget = "level";
      el("div", "label", box).textContent = l.port;
    }
  }
  const db = x => x > 0 ? Math.max(0, Math.min(1, (20 * Math.log10(x) + 60) / 60)) : 0;
  list.forEach((l, i) => {
    const m = row.children[i].firstChild;
    m.dataset.peak = l.peak.toFixed(4); m.dataset.rms = l.rms.toFixed(4);
    m.firstChild.style.height = (db(l.rms) * 100) + "%";
    m.lastChild.style.bottom = (db(l.peak) * 100) + "%";
    m.classList.toggle("hot", l.peak >= 0.99);
  });
}

function meter(c, parent) {
  const box = el("div", "control", parent);
  const m = el("div", "meter", box);
  const fill = el("div", "fill", m);
  const value = el("div", "value", box);
  el("div", "label", box).textContent = c.label;
  m.dataset.channel = c.channels[0]; m.dataset.widget = "meter";
  bind(c.channels[0], v => { fill.style.height = Math.min(100, Math.max(0, toUnit(c, Math.abs(v)) * 100)) + "%"; value.textContent = fmt(v); });
}

function build(l) {
  layout = l; widgets.clear();
  document.getElementById("orchestra").textContent = l.orchestra;
  const main = document.getElementById("groups"); main.innerHTML = "";
  for (const group of l.groups) {
    const panel = el("section", "panel " + group.title, main);
    if (group.controls.some(c => c.widget === "grid")) panel.classList.add("wide");
    el("h2", "", panel).textContent = group.title;
    const row = el("div", group.placed ? "canvas" : group.title === "steps" ? "" : "row", panel);
    let w = 1, h = 1;
    if (group.placed) {
      for (const c of group.controls) { w = Math.max(w, c.place.x + c.place.width); h = Math.max(h, c.place.y + c.place.height); }
      row.style.aspectRatio = `${w} / ${h}`; row.style.maxWidth = (w * 1.5) + "px";
    }
    for (const c of group.controls) {
      const before = row.children.length;
      if (c.widget === "fader" || c.widget === "knob") fader(c, row, c.widget === "knob");
      else if (c.widget === "toggle" || c.widget === "momentary") toggle(c, row, c.widget === "momentary");
      else if (c.widget === "push") push(c, row);
      else if (c.widget === "pie") pie(c, row);
      else if (c.widget === "xy") xy(c, row);
      else if (c.widget === "grid") grid(c, row);
      // On the canvas: where chn_k put it, in proportion (the canvas scales to the screen).
      const box = row.children[before];
      if (group.placed && box) {
        const p = c.place;
        Object.assign(box.style, { left: (p.x / w * 100) + "%", top: (p.y / h * 100) + "%", width: (p.width / w * 100) + "%", height: (p.height / h * 100) + "%" });
      }
    }
  }
  const meters = document.getElementById("meterRow"); meters.innerHTML = "";
  l.meters.forEach(c => meter(c, meters));
  document.getElementById("meterRow").classList.toggle("hidden", l.meters.length === 0);
  document.getElementById("motionPanel").classList.toggle("hidden", l.motion.length === 0);
}

function apply(values) {
  for (const [name, v] of Object.entries(values)) {
    if (dragging.has(name)) continue;
    (widgets.get(name) || []).forEach(update => update(v));
  }
}

function consoleLines(lines) {
  const pre = document.getElementById("console");
  pre.textContent = (pre.textContent + lines.join("\n") + "\n").split("\n").slice(-200).join("\n");
  pre.scrollTop = pre.scrollHeight;
}

// The sample banks' names, as a pattern types them (s "bd:3"): a line per bank.
function samples(banks) {
  const box = document.getElementById("samples");
  box.textContent = "";
  for (const b of banks) {
    const line = document.createElement("div");
    const name = document.createElement("b");
    name.textContent = b.bank + " ";
    line.append(name, b.names.join(" · "));
    box.append(line);
  }
  document.getElementById("samplesPanel").classList.toggle("hidden", banks.length === 0);
}

function connect() {
  const chip = document.getElementById("link");
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${token ? "?token=" + encodeURIComponent(token) : ""}`);
  socket.onopen = () => { chip.textContent = "live"; chip.classList.remove("off"); };
  socket.onclose = () => { chip.textContent = "reconnecting…"; chip.classList.add("off"); setTimeout(connect, 1000); };
  socket.onmessage = e => {
    const m = JSON.parse(e.data);
    if (m.type === "hello") { build(m.layout); apply(m.values); document.getElementById("console").textContent = ""; consoleLines(m.console); samples(m.samples || []); }
    else if (m.type === "values") apply(m.values);
    else if (m.type === "console") consoleLines(m.lines);
    else if (m.type === "levels") levels(m.levels);
    else if (m.type === "status") {
      document.getElementById("clock").textContent = `${m.tempo.toFixed(m.tempo % 1 ? 1 : 0)} BPM · cycle ${m.cycle} · beat ${m.beatInBar}`;
      document.getElementById("dsp").textContent = `DSP ${m.dsp.toFixed(1)}% · xruns ${m.xruns}`;
    }
    else if (m.type === "done") { const e2 = document.getElementById("errors"); e2.textContent = m.message; clearTimeout(e2._t); e2._t = setTimeout(() => e2.textContent = "", 4000); }
    else if (m.type === "error") { const e2 = document.getElementById("errors"); e2.textContent = m.message; clearTimeout(e2._t); e2._t = setTimeout(() => e2.textContent = "", 4000); }
  };
}

document.getElementById("hush").addEventListener("click", () => send({ type: "hush" }));

document.getElementById("scoreForm").addEventListener("submit", e => {
  e.preventDefault();
  const input = document.getElementById("scoreInput"), text = input.value.trim();
  if (!text) return;
  const tempo = text.match(/^:tempo\s+([\d.]+)$/);
  send(tempo ? { type: "tempo", value: parseFloat(tempo[1]) } : { type: "score", text });
  input.value = "";
});

// Phone motion: CsoundMotion's channels, about 30 times a second.
let motion = {}, motionTimer = null;
function startMotion() {
  addEventListener("devicemotion", e => {
    const a = e.accelerationIncludingGravity || {}, r = e.rotationRate || {};
    Object.assign(motion, { accelerometerX: (a.x || 0) / 9.81, accelerometerY: (a.y || 0) / 9.81, accelerometerZ: (a.z || 0) / 9.81,
                            gyroX: (r.alpha || 0) * Math.PI / 180, gyroY: (r.beta || 0) * Math.PI / 180, gyroZ: (r.gamma || 0) * Math.PI / 180 });
  });
  addEventListener("deviceorientation", e => {
    Object.assign(motion, { attitudeRoll: (e.gamma || 0) * Math.PI / 180, attitudePitch: (e.beta || 0) * Math.PI / 180, attitudeYaw: (e.alpha || 0) * Math.PI / 180 });
  });
  if (!motionTimer) motionTimer = setInterval(() => {
    const wanted = {};
    for (const name of (layout ? layout.motion : [])) if (name in motion) wanted[name] = motion[name];
    if (Object.keys(wanted).length) { send({ type: "motion", values: wanted }); document.getElementById("motionValues").textContent = Object.entries(wanted).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(" · "); }
  }, 33);
}
document.getElementById("motionButton").addEventListener("click", async () => {
  if (typeof DeviceMotionEvent !== "undefined" && DeviceMotionEvent.requestPermission) { try { await DeviceMotionEvent.requestPermission(); } catch (e) {} }
  startMotion();
});
connect();
