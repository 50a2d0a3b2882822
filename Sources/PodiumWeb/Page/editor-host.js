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
    const cycle = m.quantum ? Math.floor(m.beat / m.quantum) : 0
    document.getElementById('clock').textContent = `${m.tempo.toFixed(m.tempo % 1 ? 1 : 0)} BPM · ${m.bar}.${m.beatInBar} · cycle ${cycle}`
  } else if (m.type === 'roll') {
    roll = m
  } else if (m.type === 'done' || m.type === 'error') {
    note(m.message)
  }
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

// The roll: two cycles from the current one, a row per slot, a block per event, the line now.
function drawRoll () {
  requestAnimationFrame(drawRoll)
  const canvas = document.getElementById('roll')
  if (!canvas || !roll || !clock || canvas.offsetParent === null) return
  const w = canvas.clientWidth
  const h = canvas.clientHeight
  if (canvas.width !== w * devicePixelRatio) { canvas.width = w * devicePixelRatio; canvas.height = h * devicePixelRatio }
  const g = canvas.getContext('2d')
  g.setTransform(devicePixelRatio, 0, 0, devicePixelRatio, 0, 0)
  g.clearRect(0, 0, w, h)
  const beat = clock.beat + (performance.now() - clock.at) / 1000 * clock.tempo / 60
  const now = beat / (clock.quantum || 4)
  const from = Math.floor(now)
  const rows = roll.slots.length || 1
  const rowH = h / rows
  roll.slots.forEach((slot, r) => {
    g.fillStyle = '#8a93a6'
    g.font = '11px ui-monospace, monospace'
    g.fillText(slot.slot, 2, r * rowH + 11)
    for (const [start, stop, label] of slot.events) {
      if (stop <= from || start >= from + 2) continue
      const x = 40 + (start - from) / 2 * (w - 40)
      const x2 = 40 + (stop - from) / 2 * (w - 40)
      g.fillStyle = start <= now && now < stop ? '#ffd166' : '#3b82f6'
      g.fillRect(x, r * rowH + 3, Math.max(2, x2 - x - 1), rowH - 6)
      if (x2 - x > 24) { g.fillStyle = '#0b0f17'; g.fillText(String(label).slice(0, 8), x + 2, r * rowH + rowH / 2 + 4) }
    }
  })
  const x = 40 + (now - from) / 2 * (w - 40)
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
  hush () { send({ type: 'hush' }) }
}
window.podiumHost = { lit, get clock () { return clock }, get roll () { return roll } }

connect()
requestAnimationFrame(drawRoll)
