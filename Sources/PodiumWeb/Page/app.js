// podium's stage page: widgets from the layout the server sends, values both ways over one
// WebSocket. No framework, no build step: this file is served as it is.
"use strict";
const token = new URLSearchParams(location.search).get("token");
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
  el("div", "gridLabel", parent).textContent = c.label;
  const g = el("div", "grid", parent);
  g.style.gridTemplateColumns = `repeat(${c.columns}, 1fr)`;
  c.channels.forEach((name, i) => {
    const b = el("button", "", g);
    b.dataset.channel = name; b.dataset.widget = "grid"; b.title = name;
    if ((i % c.columns) % 4 === 0) b.classList.add("beat");
    b.addEventListener("click", () => { const on = !b.classList.contains("on"); b.classList.toggle("on", on); setChannel(name, on ? 1 : 0); });
    bind(name, v => b.classList.toggle("on", v >= 0.5));
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
    const panel = el("section", "panel", main);
    el("h2", "", panel).textContent = group.title;
    const row = el("div", group.title === "steps" ? "" : "row", panel);
    for (const c of group.controls) {
      if (c.widget === "fader" || c.widget === "knob") fader(c, row, c.widget === "knob");
      else if (c.widget === "toggle" || c.widget === "momentary") toggle(c, row, c.widget === "momentary");
      else if (c.widget === "xy") xy(c, row);
      else if (c.widget === "grid") grid(c, row);
    }
  }
  const meters = document.getElementById("meterRow"); meters.innerHTML = "";
  l.meters.forEach(c => meter(c, meters));
  document.getElementById("meters").classList.toggle("hidden", l.meters.length === 0);
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

function connect() {
  const chip = document.getElementById("link");
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws${token ? "?token=" + encodeURIComponent(token) : ""}`);
  socket.onopen = () => { chip.textContent = "live"; chip.classList.remove("off"); };
  socket.onclose = () => { chip.textContent = "reconnecting…"; chip.classList.add("off"); setTimeout(connect, 1000); };
  socket.onmessage = e => {
    const m = JSON.parse(e.data);
    if (m.type === "hello") { build(m.layout); apply(m.values); document.getElementById("console").textContent = ""; consoleLines(m.console); }
    else if (m.type === "values") apply(m.values);
    else if (m.type === "console") consoleLines(m.lines);
    else if (m.type === "status") {
      document.getElementById("clock").textContent = `${m.tempo.toFixed(m.tempo % 1 ? 1 : 0)} BPM · ${m.bar}.${m.beatInBar}`;
      document.getElementById("dsp").textContent = `DSP ${m.dsp.toFixed(1)}% · xruns ${m.xruns}`;
    }
    else if (m.type === "error") { const e2 = document.getElementById("errors"); e2.textContent = m.message; clearTimeout(e2._t); e2._t = setTimeout(() => e2.textContent = "", 4000); }
  };
}

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
