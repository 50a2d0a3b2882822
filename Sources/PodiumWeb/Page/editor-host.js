// The editor's link to Podium (the page's JSON WebSocket, /ws): evaluations go to the server
// and come back with their errors at their lines; hush; the steps the audio thread started
// light up in the patterns buffer; the clock; the next cycles of every pattern (the roll).
// Loaded before editor.js, which reads window.podiumHooks when it starts.
const params = new URLSearchParams(location.search)
const token = params.get('token') || ''
const name = (params.get('name') || localStorage.getItem('podium.name') || '').slice(0, 32)
const waiting = new Map()
let socket = null
let nextId = 1
let clock = null        // the last status: tempo, beat, quantum, when it came
let roll = null         // the last roll: slots and their events in cycles
const lit = []          // steps lit (for tests): { buffer, spans, frame, at }
let lanes = []          // the roll's lanes as last drawn (for tests): { slot, label, events, silent }
let sounds = null       // the sounds panel's list, asked for once
let helpTopic = ''      // the word whose reference shows
const peaks = new Map() // output port → { peak, rms, clipUntil } (the audio thread's own levels)

document.getElementById('stageLink')?.setAttribute('href', '/?token=' + encodeURIComponent(token))

function connect () {
  socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws?token=${encodeURIComponent(token)}`)
  socket.onmessage = ev => receive(JSON.parse(ev.data))
  socket.onclose = () => setTimeout(connect, 1000)
}

function receive (m) {
  if (m.type === 'evaluated') {
    const done = waiting.get(m.id)
    if (done) { waiting.delete(m.id); done(m) }
    note(m.ok ? m.message : (m.errors || []).map(e => `${e.line}:${e.column} ${e.message}`).join('; '))
  } else if (m.type === 'lit') {
    light(m)
  } else if (m.type === 'status') {
    clock = { ...m, at: performance.now() }
    // One numbering everywhere (the REPL's, the journal's): cycles from 0; a cycle is a bar.
    const cycle = m.quantum ? Math.floor(m.beat / m.quantum) : 0
    const bpm = m.tempo.toFixed(m.tempo % 1 ? 1 : 0)
    const chip = document.getElementById('clock')
    chip.textContent = innerWidth < 600 ? `${bpm} · ${cycle}.${m.beatInBar}` : `${bpm} BPM · cycle ${cycle} · beat ${m.beatInBar}`
    chip.title = `${bpm} BPM, cycle ${cycle} (from 0), beat ${m.beatInBar} of the cycle`
  } else if (m.type === 'roll') {
    roll = m
    markWarnings(m)
  } else if (m.type === 'console' || m.type === 'hello') {
    consoleWarnings(m.type === 'console' ? m.lines : (m.console || []))
  } else if (m.type === 'levels') {
    const now = performance.now()
    for (const l of m.levels) {
      const p = peaks.get(l.port) || { peak: 0, rms: 0, hold: 0, holdAt: 0, clipUntil: 0, clips: 0 }
      p.peak = l.peak; p.rms = l.rms
      if (l.peak >= p.hold || now - p.holdAt > 1500) { p.hold = l.peak; p.holdAt = now }
      if (l.peak >= 0.999) { if (now > p.clipUntil) p.clips++; p.clipUntil = now + 2000 }
      peaks.set(l.port, p)
    }
    drawMeters()
  } else if (m.type === 'help') {
    const box = document.getElementById('help')
    if (box && m.topic === helpTopic) { box.textContent = m.found ? m.text : ''; box.hidden = !m.found }
  } else if (m.type === 'scope') {
    scopeAnswer(m)
  } else if (m.type === 'sounds') {
    sounds = m
    listSounds()
  } else if (m.type === 'done' || m.type === 'error') {
    note(m.message)
  }
}

// Why a slot is silent and what went wrong while it played (the server's, with the roll): marked
// once on the slot's line in the patterns buffer, in warning style, and listed, on every page (one
// that evaluated nothing too). Only once the buffer is synced: a mark made on an empty buffer
// would move with the text when it arrives. A new message for the slot marks again.
const warned = new Map()           // slot and kind → the message last marked
function markWarnings (m) {
  const ed = window.podiumEditor
  const b = ed && ed.buffers.patterns
  if (!b || b.room.state !== 'synced') return
  for (const s of m.slots) {
    if (!s.line || s.line - 1 > b.cm.lastLine()) continue
    for (const [kind, text] of [['silent', s.silent && `${s.slot}: silent — ${s.silent}`], ['warning', s.warning && `${s.slot}: ${s.warning}`]]) {
      if (!text || (kind === 'warning' && s.silent === s.warning)) continue
      const key = s.slot + ' ' + kind
      if (warned.get(key) === text) continue
      warned.set(key, text)
      // the page that evaluated it has this mark already (the evaluation's answer)
      if (ed.messages.some(x => x.buffer === 'patterns' && x.line === s.line && x.message === text)) continue
      ed.showError('patterns', s.line, 1, text, 'warning')
    }
  }
}

// The terminal's warnings (refusals, clipping, the load guard, samples late …) in the list too:
// what the performer would otherwise only see at the terminal.
const CONSOLE_WARNING = /refus|clip|limit|late|dropped|overflow|xrun|silent|no instrument|no sample|stopped|error|too dense|not loaded|still loading|failed/i
function consoleWarnings (lines) {
  const ed = window.podiumEditor
  if (!ed) { setTimeout(() => consoleWarnings(lines), 50); return }
  for (const line of lines) if (CONSOLE_WARNING.test(line)) ed.note(null, null, 'console', String(line).slice(0, 500))
}

// The messages panel: newest first; a click on one with a line goes there.
function listMessages () {
  const ed = window.podiumEditor
  const list = document.getElementById('messageList')
  if (!ed || !list) return
  const count = document.getElementById('messageCount')
  count.textContent = ed.messages.length ? String(ed.messages.length) : ''
  document.getElementById('messagesButton').classList.toggle('errors', ed.messages.some(x => x.kind === 'error'))
  if (document.getElementById('messages').hidden) return
  list.replaceChildren(...ed.messages.slice().reverse().map(x => {
    const b = document.createElement('button')
    b.className = 'message ' + x.kind
    b.innerHTML = '<small></small><br><span></span>'
    const when = new Date(x.at).toLocaleTimeString()
    b.firstChild.textContent = x.buffer ? `${when} · ${x.buffer}:${x.line} · ${x.kind}` : `${when} · terminal`
    b.lastChild.textContent = x.message
    if (x.buffer) b.onclick = () => ed.reveal(x.buffer, x.line)
    return b
  }))
}
function toggleMessages () {
  const panel = document.getElementById('messages')
  panel.hidden = !panel.hidden
  if (!panel.hidden) document.getElementById('sounds').hidden = true
  listMessages()
}

// The scope: the output's newest 2048 frames as the audio thread wrote them (asked at the page's
// frame rate, one question at a time), drawn as a wave from a rising zero crossing, or (a click)
// as a spectrum. What it measured is kept for tests: the frequency from the zero crossings and
// the spectrum's peak.
let scope = null                   // { rate, frames, peak, crossingHz, spectrumPeakHz }
let scopeMode = 'wave'
let scopeAsked = 0
function askScope () {
  requestAnimationFrame(askScope)
  const canvas = document.getElementById('scope')
  if (!canvas || canvas.offsetParent === null || document.hidden) return
  const now = performance.now()
  if (now - scopeAsked < 66 || (scopeWaiting && now - scopeAsked < 1000)) return   // 15 a second, one at a time
  scopeWaiting = send({ type: 'scope' })
  scopeAsked = now
}
let scopeWaiting = false
function scopeAnswer (m) {
  scopeWaiting = false
  if (!m.frames) return
  const bytes = Uint8Array.from(atob(m.samples), c => c.charCodeAt(0))
  const view = new DataView(bytes.buffer)
  const x = new Float32Array(m.frames)
  for (let i = 0; i < m.frames; i++) x[i] = view.getInt16(2 * i, true) / 32767
  // The spectrum only when it is drawn (or asked for): a page's CPU is the performer's too.
  let spectrum = null
  const spectrumOf = () => spectrum || (spectrum = magnitudes(x))
  scope = { rate: m.rate, frames: m.frames, at: performance.now(),
    get peak () { return x.reduce((p, v) => Math.max(p, Math.abs(v)), 0) },
    get crossingHz () { return crossings(x, m.rate) },
    get spectrumPeakHz () {
      const s = spectrumOf()
      let best = 1
      for (let k = 2; k < s.length - 1; k++) if (s[k] > s[best]) best = k
      // parabolic interpolation of the peak bin (on dB)
      const [a, b, c] = [s[best - 1], s[best], s[best + 1]].map(v => 20 * Math.log10(v + 1e-12))
      const shift = (a - 2 * b + c) !== 0 ? 0.5 * (a - c) / (a - 2 * b + c) : 0
      return (best + shift) * m.rate / m.frames
    } }
  drawScope(x, scopeMode === 'spectrum' ? spectrumOf() : null, m.rate)
}
// Rising zero crossings, interpolated: their rate over the span between the first and last.
function crossings (x, rate) {
  const at = []
  for (let i = 1; i < x.length; i++) if (x[i - 1] < 0 && x[i] >= 0) at.push(i - 1 + x[i - 1] / (x[i - 1] - x[i]))
  return at.length > 1 ? (at.length - 1) * rate / (at[at.length - 1] - at[0]) : 0
}
// Magnitudes of a Hann-windowed radix-2 FFT (bins 0 … n/2).
function magnitudes (x) {
  const n = x.length
  const re = new Float64Array(n); const im = new Float64Array(n)
  for (let i = 0; i < n; i++) re[i] = x[i] * (0.5 - 0.5 * Math.cos(2 * Math.PI * i / n))
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1
    for (; j & bit; bit >>= 1) j ^= bit
    j ^= bit
    if (i < j) { [re[i], re[j]] = [re[j], re[i]]; [im[i], im[j]] = [im[j], im[i]] }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = -2 * Math.PI / len
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k); const wi = Math.sin(ang * k)
        const ur = re[i + k]; const ui = im[i + k]
        const vr = re[i + k + len / 2] * wr - im[i + k + len / 2] * wi
        const vi = re[i + k + len / 2] * wi + im[i + k + len / 2] * wr
        re[i + k] = ur + vr; im[i + k] = ui + vi
        re[i + k + len / 2] = ur - vr; im[i + k + len / 2] = ui - vi
      }
    }
  }
  const out = new Float64Array(n / 2 + 1)
  for (let k = 0; k <= n / 2; k++) out[k] = Math.hypot(re[k], im[k]) * 4 / n
  return out
}
function drawScope (x, spectrum, rate) {
  const canvas = document.getElementById('scope')
  const w = canvas.clientWidth; const h = canvas.clientHeight
  if (canvas.width !== Math.round(w * devicePixelRatio)) { canvas.width = Math.round(w * devicePixelRatio); canvas.height = Math.round(h * devicePixelRatio) }
  const g = canvas.getContext('2d')
  g.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0)
  g.clearRect(0, 0, w, h)
  g.strokeStyle = '#4fd1a5'; g.lineWidth = 1
  g.beginPath()
  if (scopeMode === 'wave') {
    // from the first rising zero crossing, 1024 frames (21 ms at 48 kHz) across
    let start = 0
    for (let i = 1; i < x.length / 2; i++) if (x[i - 1] < 0 && x[i] >= 0) { start = i; break }
    const span = Math.min(1024, x.length - start)
    for (let i = 0; i < span; i++) {
      const px = i / (span - 1) * w; const py = h / 2 - x[start + i] * (h / 2 - 1)
      i ? g.lineTo(px, py) : g.moveTo(px, py)
    }
  } else {
    // 30 Hz … Nyquist on a log axis, −90 … 0 dB
    const lo = Math.log(30); const hi = Math.log(rate / 2)
    for (let px = 0; px < w; px++) {
      const k = Math.min(spectrum.length - 1, Math.max(1, Math.round(Math.exp(lo + (hi - lo) * px / w) * x.length / rate)))
      const db = 20 * Math.log10(spectrum[k] + 1e-9)
      const py = h - Math.max(0, Math.min(1, (db + 90) / 90)) * h
      px ? g.lineTo(px, py) : g.moveTo(px, py)
    }
  }
  g.stroke()
}
document.getElementById('scope')?.addEventListener('click', () => { scopeMode = scopeMode === 'wave' ? 'spectrum' : 'wave' })

// Output meters in the header: RMS as the bar, the peak held 1.5 s as a line, a clip light held
// 2 s after a peak at 0 dBFS (the levels the audio thread measured, ~30 a second).
function drawMeters () {
  const box = document.getElementById('meters')
  if (!box) return
  for (const [port, p] of peaks) {
    let m = box.querySelector(`[data-port="${CSS.escape(port)}"]`)
    if (!m) {
      m = document.createElement('span'); m.className = 'meter'; m.dataset.port = port; m.title = port
      m.innerHTML = '<i class="rms"></i><i class="hold"></i>'
      box.appendChild(m)
    }
    const db = x => Math.max(0, Math.min(1, (20 * Math.log10(Math.max(x, 1e-6)) + 60) / 60))
    m.firstChild.style.width = (db(p.rms) * 100).toFixed(1) + '%'
    m.lastChild.style.left = (db(p.hold) * 100).toFixed(1) + '%'
  }
  const clipping = [...peaks.values()].some(p => performance.now() < p.clipUntil)
  const light = document.getElementById('clip')
  light.classList.toggle('on', clipping)
  light.title = `clipped ${[...peaks.values()].reduce((n, p) => n + p.clips, 0)} times (0 dBFS: the output limit)`
}

// The sounds panel: every instrument and sample name, searchable; a click inserts it.
function listSounds () {
  const list = document.getElementById('soundList')
  if (!list || !sounds) return
  const q = (document.getElementById('soundSearch').value || '').trim().toLowerCase()
  const rows = [
    ...sounds.instruments.map(i => ({ name: i.name, what: i.kind })),
    ...sounds.samples.map(x => ({ name: x.name, what: `${x.bank} · ${x.files} file${x.files === 1 ? '' : 's'}${x.also.length ? ' · also ' + x.also.join(', ') : ''}` }))
  ].filter(r => !q || r.name.toLowerCase().includes(q) || r.what.toLowerCase().includes(q))
  list.replaceChildren(...rows.slice(0, 400).map(r => {
    const b = document.createElement('button')
    b.className = 'sound'; b.dataset.name = r.name
    b.innerHTML = '<b></b> <small></small>'
    b.firstChild.textContent = r.name; b.lastChild.textContent = r.what
    b.onclick = () => window.podiumEditor && window.podiumEditor.insert(r.name)
    return b
  }))
}
function toggleSounds () {
  const panel = document.getElementById('sounds')
  panel.hidden = !panel.hidden
  if (!panel.hidden) document.getElementById('messages').hidden = true
  if (!panel.hidden) { send({ type: 'sounds' }); document.getElementById('soundSearch').focus() }
}

// Help in place: the reference of the word under the cursor once the cursor rests there.
let helpTimer = null
function askHelp (cm) {
  clearTimeout(helpTimer)
  helpTimer = setTimeout(() => {
    const pos = cm.getCursor()
    const line = cm.getLine(pos.line) || ''
    let a = pos.ch; let b = pos.ch
    while (a > 0 && /[\w']/.test(line[a - 1])) a--
    while (b < line.length && /[\w']/.test(line[b])) b++
    const word = line.slice(a, b)
    const box = document.getElementById('help')
    if (!/^[A-Za-z][\w']*$/.test(word)) { helpTopic = ''; if (box) box.hidden = true; return }
    if (word === helpTopic) return
    helpTopic = word
    send({ type: 'help', topic: word })
  }, 350)
}

function note (text) {
  const n = document.getElementById('evalNote')
  if (!n) return
  n.textContent = text || ''
  clearTimeout(n._t)
  n._t = setTimeout(() => { n.textContent = '' }, 5000)
}

function send (object) {
  if (socket && socket.readyState === WebSocket.OPEN) { socket.send(JSON.stringify(object)); return true }
  return false
}

// A step sounded: its characters flash in the buffer (CodeMirror marks, cleared after 180 ms).
function light (m) {
  lit.push({ buffer: m.buffer, spans: m.spans, frame: m.frame, at: performance.now() })
  if (lit.length > 1000) lit.splice(0, 500)
  const b = window.podiumEditor && window.podiumEditor.buffers[m.buffer]
  if (!b || b.host.hidden) return
  for (const [l1, c1, l2, c2] of m.spans) {
    const mark = b.cm.markText({ line: l1 - 1, ch: c1 - 1 }, { line: l2 - 1, ch: Math.max(c2 - 1, c1) }, { className: 'cm-lit' })
    setTimeout(() => mark.clear(), 180)
  }
}

// The roll: two cycles from the current one, a lane per layer of each slot (events that overlap
// in time go to separate lanes: `[a, b]` and `stack` show each layer), labelled, the line now.
// A slot that plays nothing (the server says why, with the roll) is greyed.
function layLanes () {
  const out = []
  for (const slot of roll.slots) {
    const slotLanes = []
    for (const e of [...slot.events].sort((x, y) => x[0] - y[0] || x[1] - y[1])) {
      let lane = slotLanes.find(l => l.end <= e[0] + 1e-9)
      if (!lane) { lane = { end: -Infinity, events: [], labels: new Map() }; slotLanes.push(lane) }
      lane.events.push(e); lane.end = e[1]
      lane.labels.set(String(e[2]), (lane.labels.get(String(e[2])) || 0) + 1)
    }
    if (!slotLanes.length) slotLanes.push({ events: [], labels: new Map() })
    slotLanes.forEach((l, i) => {
      const label = [...l.labels].sort((a, b) => b[1] - a[1])[0]
      out.push({ slot: slot.slot, first: i === 0, label: label ? label[0] : '', events: l.events, silent: slot.silent || null })
    })
  }
  return out
}

let rolledAt = 0
let lanesOf = null
function drawRoll () {
  requestAnimationFrame(drawRoll)
  // 30 frames a second are enough for the roll's line (and half the page's drawing work).
  const t = performance.now()
  if (t - rolledAt < 32) return
  rolledAt = t
  const canvas = document.getElementById('roll')
  if (!canvas || !roll || !clock || canvas.offsetParent === null || document.hidden) return
  // The lanes change with the roll (four times a second), not with the frame.
  if (lanesOf !== roll) { lanes = layLanes(); lanesOf = roll }
  // Each lane at least 12 px (14 on a laptop); the roll grows with its lanes up to 40 % of the
  // window, and scrolls beyond (its box, #rollBox).
  const laneH = matchMedia('(max-width: 600px)').matches ? 12 : 14
  const want = Math.max(48, lanes.length * laneH + 4)
  if (canvas.style.height !== want + 'px') canvas.style.height = want + 'px'
  const w = canvas.clientWidth
  const h = want
  if (canvas.width !== Math.round(w * devicePixelRatio) || canvas.height !== Math.round(h * devicePixelRatio)) {
    canvas.width = Math.round(w * devicePixelRatio); canvas.height = Math.round(h * devicePixelRatio)
  }
  const g = canvas.getContext('2d')
  g.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0)
  g.clearRect(0, 0, w, h)
  const beat = clock.beat + (performance.now() - clock.at) / 1000 * clock.tempo / 60
  const now = beat / (clock.quantum || 4)
  const from = Math.floor(now)
  const left = w < 500 ? 56 : 96
  const rowH = (h - 4) / Math.max(lanes.length, 1)
  g.font = (rowH < 13 ? '10px' : '11px') + ' ui-monospace, monospace'
  lanes.forEach((lane, r) => {
    const y = 2 + r * rowH
    if (lane.first && r > 0) { g.fillStyle = '#222a38'; g.fillRect(0, y - 1, w, 1) }
    g.fillStyle = lane.silent ? '#4b5262' : '#8a93a6'
    const name = (lane.first ? lane.slot + ' ' : '  ') + lane.label
    g.fillText(name.length > (left / 7 | 0) ? name.slice(0, (left / 7 | 0) - 1) + '…' : name, 2, y + rowH / 2 + 4)
    for (const [start, stop, label] of lane.events) {
      if (stop <= from || start >= from + 2) continue
      const x = left + (Math.max(start, from) - from) / 2 * (w - left)
      const x2 = left + (Math.min(stop, from + 2) - from) / 2 * (w - left)
      g.fillStyle = lane.silent ? '#3a3f4a' : start <= now && now < stop ? '#ffd166' : '#3b82f6'
      g.fillRect(x, y + 1, Math.max(2, x2 - x - 1), Math.max(2, rowH - 2))
      if (x2 - x > 28 && rowH >= 11 && !lane.silent) { g.fillStyle = '#0b0f17'; g.fillText(String(label).slice(0, Math.floor((x2 - x) / 7)), x + 2, y + rowH / 2 + 4) }
    }
    if (lane.silent && lane.first) { g.fillStyle = '#ff9f7a'; g.fillText('silent — ' + lane.silent, left + 4, y + rowH / 2 + 4) }
  })
  const x = left + (now - from) / 2 * (w - left)
  g.fillStyle = '#ff6b6b'
  g.fillRect(x, 0, 2, h)
}

window.podiumHooks = {
  evaluate (buffer, text, fromLine) {
    return new Promise(resolve => {
      const id = nextId++
      waiting.set(id, resolve)
      if (!send({ type: 'eval', id, buffer, text, line: fromLine, name: (window.podiumEditor && window.podiumEditor.name) || name })) {
        waiting.delete(id)
        resolve({ ok: false, errors: [{ line: fromLine, column: 1, message: 'not connected to podium' }] })
        return
      }
      setTimeout(() => { if (waiting.delete(id)) resolve({ ok: false, errors: [{ line: fromLine, column: 1, message: 'no answer from podium within 30 s' }] }) }, 30000)
    })
  },
  hush () { send({ type: 'hush' }) },
  messagesChanged () { listMessages() }
}
window.podiumHost = { lit, get clock () { return clock }, get roll () { return roll }, get lanes () { return lanes },
  get levels () { return Object.fromEntries(peaks) }, get sounds () { return sounds }, get scope () { return scope }, toggleSounds, toggleMessages }

document.getElementById('soundsButton')?.addEventListener('click', toggleSounds)
document.getElementById('messagesButton')?.addEventListener('click', toggleMessages)
document.getElementById('clearMessages')?.addEventListener('click', () => { window.podiumEditor.messages.length = 0; listMessages() })
document.getElementById('soundSearch')?.addEventListener('input', listSounds)
// Help follows the cursor in every buffer (once editor.js, loaded after this, made them).
function followCursors () {
  if (!window.podiumEditor) { setTimeout(followCursors, 50); return }
  for (const b of Object.values(window.podiumEditor.buffers)) b.cm.on('cursorActivity', askHelp)
}
followCursors()

connect()
requestAnimationFrame(drawRoll)
requestAnimationFrame(askScope)
