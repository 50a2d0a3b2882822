// Podium's collaborative editor: three CodeMirror 5 buffers, each bound to the Y.Text of its
// own Y.Doc, synchronised through a relay that knows no Yjs (PROTOCOL.md). Plain ES module:
// CodeMirror is the global from lib/codemirror.js; yjs, y-protocols and lib0 come through
// the page's import map.
import * as Y from 'yjs'
import * as syncProtocol from 'y-protocols/sync'
import * as awarenessProtocol from 'y-protocols/awareness'
import * as encoding from 'lib0/encoding'
import * as decoding from 'lib0/decoding'
import './modes.js'

const CodeMirror = window.CodeMirror
const params = new URLSearchParams(location.search)
const token = params.get('token') || ''
const readOnly = params.get('readonly') === '1'
const tracing = params.get('trace') === '1'
const myName = (params.get('name') || localStorage.getItem('podium.name') || 'guest-' + Math.floor(Math.random() * 1000)).slice(0, 32)
const PALETTE = ['#ff6b6b', '#4fd1a5', '#5aa9ff', '#ffb347', '#c792ea', '#f78fb3', '#7bdff2', '#e6d35a']
const colorFor = s => PALETTE[[...s].reduce((h, c) => (h * 31 + c.codePointAt(0)) >>> 0, 7) % PALETTE.length]
const myColor = /^#[0-9a-f]{6}$/i.test(params.get('color') || '') ? params.get('color') : colorFor(myName)
const REMOTE = 'yjs'            // CodeMirror origin of changes that come from Yjs
const COMPACTED = 100           // first byte of our answer to the relay's "compact"

const BUFFERS = [
  { id: 'orchestra', mode: 'csound', block: (cm, l) => enclosing(cm, l, /^\s*(instr|opcode)\b/, /^\s*(endin|endop)\b/) || paragraph(cm, l) },
  { id: 'patterns', mode: 'tidal', block: paragraph },
  { id: 'loops', mode: 'podium-loops', block: (cm, l) => enclosing(cm, l, /^\s*loop\b/, /^\s*end\b/) || paragraph(cm, l) }
]
const byId = {}
const evaluations = []          // what was evaluated, for the host and the tests
const messages = []             // every error and warning shown, newest last (the messages list)
const trace = []                // ?trace=1: keystroke and remote-change times (latency test)
const hooks = window.podiumHooks || {}   // the host may set evaluate(buffer, text, fromLine) / hush()

// ---------------------------------------------------------------------------------------
// One buffer's connection: a Y.Doc, its awareness, a binary WebSocket to /collab/<buffer>.
class Room {
  constructor (buffer, onChange) {
    this.buffer = buffer
    this.onChange = onChange
    this.doc = new Y.Doc()
    this.text = this.doc.getText('text')
    this.awareness = new awarenessProtocol.Awareness(this.doc)
    this.awareness.setLocalState({ user: { name: myName, color: myColor, readonly: readOnly }, cursor: null })
    this.state = 'connecting'
    this.backoff = 500
    // Every change not received from the relay goes out as an update (00 02 len update).
    this.doc.on('update', (update, origin) => {
      if (origin === this || readOnly) return
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.sendSync(syncProtocol.messageYjsUpdate, update)
      else this.unsent = true                         // goes out in our answer to the next step 1
    })
    this.awareness.on('update', ({ added, updated, removed }, origin) => {
      if (origin === 'local') this.sendAwareness(added.concat(updated, removed))
    })
    this.connect()
  }

  connect () {
    const q = new URLSearchParams({ token, name: myName })
    if (readOnly) q.set('readonly', '1')
    const ws = this.ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/collab/${this.buffer}?${q}`)
    ws.binaryType = 'arraybuffer'
    // A doc that already holds something (a reconnect) never takes the relay's seed text.
    this.hadState = Y.encodeStateVector(this.doc).length > 1
    this.replayed = []                                // the log frames replayed to us, until step 1
    ws.onopen = () => {
      this.backoff = 500
      this.setState('connected')
      // Re-announce with a new clock: the relay told the others we left with our last clock,
      // and an awareness entry with that same clock would be ignored by them.
      this.awareness.setLocalState(this.awareness.getLocalState())
    }
    ws.onmessage = ev => this.receive(ev.data)
    ws.onclose = () => {
      if (this.ws !== ws) return
      this.setState('offline')
      const others = [...this.awareness.getStates().keys()].filter(id => id !== this.doc.clientID)
      awarenessProtocol.removeAwarenessStates(this.awareness, others, this)
      setTimeout(() => this.connect(), this.backoff)
      this.backoff = Math.min(this.backoff * 2, 5000)
    }
  }

  setState (s) { this.state = s; this.onChange() }
  send (bytes) { if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(bytes) }

  sendSync (kind, payload) {
    const e = encoding.createEncoder()
    encoding.writeVarUint(e, 0)                       // messageSync
    encoding.writeVarUint(e, kind)                    // step 2 (1) or update (2)
    encoding.writeVarUint8Array(e, payload)
    this.send(encoding.toUint8Array(e))
  }

  sendAwareness (clients) {
    const e = encoding.createEncoder()
    encoding.writeVarUint(e, 1)                       // messageAwareness
    encoding.writeVarUint8Array(e, awarenessProtocol.encodeAwarenessUpdate(this.awareness, clients))
    this.send(encoding.toUint8Array(e))
  }

  receive (data) {
    if (typeof data === 'string') return this.control(JSON.parse(data))
    const decoder = decoding.createDecoder(new Uint8Array(data))
    const kind = decoding.readVarUint(decoder)
    if (kind === 0) {
      const sub = decoding.readVarUint(decoder)
      const payload = decoding.readVarUint8Array(decoder)
      if (sub === syncProtocol.messageYjsSyncStep1) {
        // The relay's step 1 comes right after its log and carries an empty state vector.
        // Answer with only what the relay lacks (this doc minus the frames just replayed),
        // and only when this doc may hold something it lacks: a reconnect, or edits made
        // while offline. A fresh page answers nothing, so the log does not grow per join.
        if (!readOnly && (this.hadState || this.unsent)) {
          const sv = this.replayed.length ? Y.encodeStateVectorFromUpdate(Y.mergeUpdates(this.replayed)) : undefined
          this.sendSync(syncProtocol.messageYjsSyncStep2, Y.encodeStateAsUpdate(this.doc, sv))
          this.unsent = false
        }
        this.replayed = null
        this.setState('synced')
      } else {                                        // step 2 or update: apply, origin this
        if (this.replayed) this.replayed.push(payload)
        try { Y.applyUpdate(this.doc, payload, this) } catch (err) { console.error('bad update', err) }
      }
    } else if (kind === 1) {
      awarenessProtocol.applyAwarenessUpdate(this.awareness, decoding.readVarUint8Array(decoder), this)
    }
  }

  control (m) {
    if (m.type === 'seed') {
      if (!this.hadState && m.text) this.doc.transact(() => this.text.insert(0, m.text), 'seed')
    } else if (m.type === 'compact') {
      const e = encoding.createEncoder()
      encoding.writeVarUint(e, COMPACTED)
      encoding.writeVarUint(e, 0)
      encoding.writeVarUint(e, syncProtocol.messageYjsSyncStep2)
      encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(this.doc))
      this.send(encoding.toUint8Array(e))
    } else if (m.type === 'saved') {
      this.lastNote = `saved by ${m.name} (${m.bytes} bytes)`
      this.onChange()
    } else if (m.type === 'error') {
      this.lastNote = m.message
      this.onChange()
    }
  }

  save () { if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({ type: 'save', text: this.text.toString() })) }
}

// ---------------------------------------------------------------------------------------
// The binding: CodeMirror <-> Y.Text, plus remote cursors from awareness.
function bind (cm, room) {
  const { doc, text: ytext, awareness } = room
  const local = { binding: room.buffer }          // origin of our own transactions
  const undo = new Y.UndoManager(ytext, { trackedOrigins: new Set([local]) })
  let mirror = ''                                  // the text CodeMirror had before each change
  let carets = []                                  // marks and bookmarks of remote cursors
  let caretLines = []
  let lastCursor = ''
  let pending = false

  // CM -> Y. 'changes' fires once per operation, after 'cursorActivity'; each change's
  // positions are those of the document just before it, so replay them on a string mirror.
  cm.on('changes', (_, changes) => {
    const edits = []
    for (const c of changes) {
      const at = indexIn(mirror, c.from)
      const removed = c.removed.join('\n').length
      const inserted = c.text.join('\n')
      mirror = mirror.slice(0, at) + inserted + mirror.slice(at + removed)
      if (c.origin !== REMOTE) edits.push([at, removed, inserted])
    }
    if (edits.length) {
      doc.transact(() => {
        for (const [at, removed, inserted] of edits) {
          if (removed) ytext.delete(at, removed)
          if (inserted) ytext.insert(at, inserted)
        }
      }, local)
    }
    soon()
  })

  // Y -> CM, for every transaction not made by this binding (relay, seed, undo manager).
  ytext.observe((event, tr) => {
    if (tr.origin === local) return
    const sels = cm.listSelections().map(r => [cm.indexFromPos(r.anchor), cm.indexFromPos(r.head)])
    let index = 0
    let last = null
    cm.operation(() => {
      for (const d of event.delta) {
        if (d.retain) index += d.retain
        else if (d.insert) {
          const s = typeof d.insert === 'string' ? d.insert : ''
          const p = cm.posFromIndex(index)
          cm.replaceRange(s, p, p, REMOTE)
          // our cursors stay put when the insert is exactly at them: two people typing at
          // one place each keep their own word together
          for (const sel of sels) for (let k = 0; k < 2; k++) if (sel[k] > index) sel[k] += s.length
          index += s.length
          last = index
        } else if (d.delete) {
          cm.replaceRange('', cm.posFromIndex(index), cm.posFromIndex(index + d.delete), REMOTE)
          for (const sel of sels) for (let k = 0; k < 2; k++) if (sel[k] > index) sel[k] = Math.max(index, sel[k] - d.delete)
          last = index
        }
      }
      if (tr.origin === undo && last !== null) cm.setCursor(cm.posFromIndex(last))
      else cm.setSelections(sels.map(([a, h]) => ({ anchor: cm.posFromIndex(a), head: cm.posFromIndex(h) })), undefined, { scroll: false, origin: REMOTE })
    })
    if (tracing) trace.push({ t: performance.timeOrigin + performance.now(), text: event.delta.map(d => typeof d.insert === 'string' ? d.insert : '').join('') })
    soon()
  })

  // Our cursor, as Yjs relative positions (left-associated, like our own cursor above).
  function publishCursor () {
    if (readOnly || !cm.hasFocus()) return          // only where the person actually is
    const rel = pos => Y.relativePositionToJSON(Y.createRelativePositionFromTypeIndex(ytext, cm.indexFromPos(pos), -1))
    const cursor = { anchor: rel(cm.getCursor('anchor')), head: rel(cm.getCursor('head')) }
    const json = JSON.stringify(cursor)
    if (json !== lastCursor) { lastCursor = json; awareness.setLocalStateField('cursor', cursor) }
  }

  function renderCarets () {
    for (const m of carets) m.clear()
    for (const h of caretLines) cm.removeLineClass(h, 'text', 'remote-caret-line')
    carets = []
    caretLines = []
    const toPos = json => {
      if (!json) return null
      const abs = Y.createAbsolutePositionFromRelativePosition(Y.createRelativePositionFromJSON(json), doc)
      return abs && abs.type === ytext ? cm.posFromIndex(abs.index) : null
    }
    awareness.getStates().forEach((state, id) => {
      if (id === doc.clientID || !state.user || !state.cursor) return
      const head = toPos(state.cursor.head)
      const anchor = toPos(state.cursor.anchor)
      if (!head) return
      const color = /^#[0-9a-f]{6}$/i.test(state.user.color) ? state.user.color : '#888888'
      if (anchor && CodeMirror.cmpPos(anchor, head) !== 0) {
        const [from, to] = CodeMirror.cmpPos(anchor, head) < 0 ? [anchor, head] : [head, anchor]
        carets.push(cm.markText(from, to, { className: 'remote-selection', css: `background-color: ${color}44` }))
      }
      const caret = document.createElement('span')
      // the name goes above the caret (below on the first line), leftwards near the right edge
      const flip = cm.charCoords(head, 'local').left > cm.getScrollInfo().clientWidth - 80
      caret.className = 'remote-caret' + (head.line === 0 ? ' first-line' : '') + (flip ? ' flip' : '')
      caret.style.borderColor = color
      caret.dataset.client = id
      const label = caret.appendChild(document.createElement('span'))
      label.className = 'remote-name'
      label.textContent = String(state.user.name).slice(0, 32)
      label.style.backgroundColor = color
      carets.push(cm.setBookmark(head, { widget: caret }))
      caretLines.push(cm.addLineClass(head.line, 'text', 'remote-caret-line'))  // label over the next line
    })
  }

  // cursorActivity runs before 'changes' (so before Y has the edit): work after the operation.
  function soon () {
    if (pending) return
    pending = true
    queueMicrotask(() => { pending = false; publishCursor(); renderCarets() })
  }
  cm.on('cursorActivity', soon)
  cm.on('focus', soon)
  // Y.UndoManager merges everything typed within 500 ms into one step, however far apart:
  // a click or a cursor key starts a new step, as an evaluation does (see run()).
  cm.on('mousedown', () => undo.stopCapturing())
  cm.on('keydown', (_, e) => { if (/^(Arrow|Home|End|Page)/.test(e.key)) undo.stopCapturing() })
  awareness.on('change', soon)
  return { undo }
}

// Offset of a {line, ch} position in a string.
function indexIn (s, pos) {
  let at = 0
  for (let l = 0; l < pos.line; l++) at = s.indexOf('\n', at) + 1
  return at + pos.ch
}

// ---------------------------------------------------------------------------------------
// Blocks to evaluate.
const blank = (cm, l) => /^\s*$/.test(cm.getLine(l))
function paragraph (cm, line) {                     // lines between blank lines
  if (blank(cm, line)) return null
  let from = line
  let to = line
  while (from > cm.firstLine() && !blank(cm, from - 1)) from--
  while (to < cm.lastLine() && !blank(cm, to + 1)) to++
  return { from, to }
}
function enclosing (cm, line, open, close) {        // instr … endin, loop … end around line
  let from = -1
  for (let l = line; l >= 0; l--) {
    if (open.test(cm.getLine(l))) { from = l; break }
    if (l !== line && close.test(cm.getLine(l))) return null
  }
  if (from < 0) return null
  for (let l = from + 1; l <= cm.lastLine(); l++) {
    if (open.test(cm.getLine(l))) return null          // a new block began: this one is open
    if (close.test(cm.getLine(l))) return l >= line ? { from, to: l } : null
  }
  return null
}

// The host's entry points. Podium replaces hooks.evaluate with a call to its server, which
// answers { ok, errors: [{ line, column, message }] } (lines and columns from 1).
export function evaluate (buffer, text, fromLine) {
  evaluations.push({ buffer, text, fromLine })
  console.log(`evaluate ${buffer} from line ${fromLine}:\n${text}`)
  return Promise.resolve(hooks.evaluate ? hooks.evaluate(buffer, text, fromLine) : { ok: true })
}
export function hush () {
  evaluations.push({ hush: true })
  console.log('hush')
  if (hooks.hush) hooks.hush()
  document.body.classList.add('hushed')
  setTimeout(() => document.body.classList.remove('hushed'), 300)
}

function run (b, from, to) {
  const cm = b.cm
  const text = cm.getRange({ line: from, ch: 0 }, { line: to, ch: cm.getLine(to).length })
  b.undo.stopCapturing()
  const handles = []
  for (let l = from; l <= to; l++) handles.push(cm.addLineClass(l, 'background', 'cm-flash'))
  setTimeout(() => handles.forEach(h => cm.removeLineClass(h, 'background', 'cm-flash')), 300)
  const first = cm.getLineHandle(from)
  const last = cm.getLineHandle(to)
  evaluate(b.id, text, from + 1).then(result => {
    const f = cm.getLineNumber(first)
    const t = cm.getLineNumber(last)
    if (f === null || t === null) return
    if (!result || result.ok !== false) clearErrors(b.id, f + 1, t + 1)
    for (const e of (result && result.errors) || []) showError(b.id, e.line, e.column, e.message)
    // Played, but not as asked: silent, a control nothing takes, a sample still loading, a refusal.
    if (result && result.ok !== false && WARNING.test(result.message || '')) showError(b.id, f + 1, 1, result.message, 'warning')
    const firstError = ((result && result.errors) || [])[0]
    if (firstError) cm.scrollIntoView({ line: firstError.line - 1, ch: 0 }, 60)   // the message, not hidden below
  })
}

// What the server's answer says when a statement plays but not as written.
const WARNING = /: silent|has no parameter|not loaded yet|still loading|refused|no instrument|no sample|too dense|limit/
// A marker at line/column (from 1): the word underlined, the message in a widget below; a
// warning (played, but not as written) in its own colour.
export function showError (buffer, line, column, message, kind = 'error') {
  const b = byId[buffer]
  const cm = b.cm
  const l = Math.min(Math.max(line - 1, 0), cm.lastLine())
  const s = cm.getLine(l)
  const ch = Math.min(Math.max(column - 1, 0), s.length)
  let end = ch
  while (end < s.length && /[\w.$#]/.test(s[end])) end++
  if (end === ch) end = Math.min(ch + 1, s.length)
  const warning = kind === 'warning'
  const mark = cm.markText({ line: l, ch }, { line: l, ch: end }, { className: warning ? 'cm-warning-mark' : 'cm-error-mark', title: message })
  const node = document.createElement('div')
  node.className = warning ? 'error-widget warning-widget' : 'error-widget'
  node.textContent = warning ? message : `${line}:${column} ${message}`
  const widget = cm.addLineWidget(l, node, { noHScroll: true })
  const handle = cm.addLineClass(l, 'background', warning ? 'warning-line' : 'error-line')
  note(buffer, line, kind, message)
  b.errors.push({ mark, widget, handle })
}
// A message for the list (the panel the performer opens): buffer and line when it has them.
export function note (buffer, line, kind, message) {
  messages.push({ buffer, line, kind, message, at: Date.now() })
  if (messages.length > 300) messages.splice(0, 100)
  if (hooks.messagesChanged) hooks.messagesChanged()
}
// The cursor to a buffer's line (a message clicked).
export function reveal (buffer, line) {
  if (!byId[buffer]) return
  show(buffer)
  const cm = byId[buffer].cm
  const l = Math.min(Math.max(line - 1, 0), cm.lastLine())
  cm.setCursor({ line: l, ch: 0 })
  cm.scrollIntoView({ line: l, ch: 0 }, 60)
}
// Errors whose line is now within [from, to] (from 1) go away; so do those whose line went.
export function clearErrors (buffer, from = 1, to = Infinity) {
  const b = byId[buffer]
  b.errors = b.errors.filter(e => {
    const l = b.cm.getLineNumber(e.handle)
    if (l !== null && (l + 1 < from || l + 1 > to)) return true
    e.mark.clear(); e.widget.clear(); b.cm.removeLineClass(e.handle, 'background', 'error-line'); b.cm.removeLineClass(e.handle, 'background', 'warning-line')
    return false
  })
}

// ---------------------------------------------------------------------------------------
// The page.
const $ = id => document.getElementById(id)
let current = null

// A name inserted at the cursor of the buffer shown (the sounds panel).
export function insert (text) {
  if (readOnly || !current) return
  current.cm.replaceSelection(text)
  current.cm.focus()
}

function show (id) {
  current = byId[id] || byId.orchestra
  for (const b of Object.values(byId)) {
    b.host.hidden = b !== current
    b.tab.classList.toggle('active', b === current)
  }
  current.cm.refresh()                          // a CodeMirror laid out while hidden needs this
  if (!readOnly && matchMedia('(pointer: fine)').matches) current.cm.focus()   // no keyboard pop-up on phones
  history.replaceState(null, '', '#' + current.id)
  status()
}

function status () {
  if (!current) return
  const states = Object.values(byId).map(b => b.room.state)
  const chip = $('status')
  chip.textContent = (readOnly ? 'read-only · ' : '') + (states.every(s => s === 'synced') ? 'live' : states.includes('offline') ? 'offline' : 'connecting…')
  chip.classList.toggle('off', !states.every(s => s === 'synced'))
  const peers = $('peers')
  peers.replaceChildren()
  current.room.awareness.getStates().forEach((st, id) => {
    if (!st.user) return
    const p = peers.appendChild(document.createElement('span'))
    p.className = 'peer' + (id === current.room.doc.clientID ? ' me' : '')
    p.style.setProperty('--c', st.user.color)
    p.textContent = st.user.name + (st.user.readonly ? ' 👁' : '')
  })
  $('note').textContent = current.room.lastNote || ''
}

function setup () {
  document.body.classList.toggle('readonly', readOnly)
  const narrow = matchMedia('(max-width: 600px)').matches
  for (const def of BUFFERS) {
    const b = { ...def, errors: [] }
    b.tab = $('tabs').appendChild(document.createElement('button'))
    b.tab.textContent = def.id
    b.tab.onclick = () => show(def.id)
    b.host = $('editors').appendChild(document.createElement('div'))
    b.host.className = 'editor'
    b.host.dataset.buffer = def.id
    const keys = readOnly ? {} : {
      'Ctrl-Enter': () => evalBlock(b), 'Cmd-Enter': () => evalBlock(b),
      'Shift-Enter': () => evalLine(b),
      'Ctrl-.': hush, 'Cmd-.': hush,
      'Ctrl-S': () => b.room.save(), 'Cmd-S': () => b.room.save(),
      'Ctrl-Z': () => b.undo.undo(), 'Cmd-Z': () => b.undo.undo(),
      'Shift-Ctrl-Z': () => b.undo.redo(), 'Ctrl-Y': () => b.undo.redo(), 'Shift-Cmd-Z': () => b.undo.redo(),
      'Ctrl-/': 'toggleComment', 'Cmd-/': 'toggleComment'
    }
    b.cm = CodeMirror(b.host, {
      mode: def.mode, theme: 'podium', lineNumbers: true, readOnly, matchBrackets: true,
      indentUnit: 2, tabSize: 2, indentWithTabs: false, lineWrapping: narrow,
      undoDepth: 0,                                   // undo is Yjs's: only our own edits
      extraKeys: keys
    })
    b.room = new Room(def.id, status)
    b.undo = bind(b.cm, b.room).undo
    b.room.awareness.on('change', status)
    byId[def.id] = b
  }
  $('runBlock').onclick = () => evalBlock(current)
  $('runLine').onclick = () => evalLine(current)
  $('hushButton').onclick = hush
  $('save').onclick = () => current.room.save()
  if (tracing) window.addEventListener('keydown', e => trace.push({ t: performance.timeOrigin + performance.now(), key: e.key }), true)
  show(location.hash.slice(1))
  window.addEventListener('beforeunload', () => Object.values(byId).forEach(b => b.room.awareness.setLocalState(null)))
}
function evalBlock (b) {
  if (readOnly) return
  const r = b.block(b.cm, b.cm.getCursor().line)
  if (r) run(b, r.from, r.to)
}
function evalLine (b) {
  if (readOnly) return
  const l = b.cm.getCursor().line
  if (!blank(b.cm, l)) run(b, l, l)
}

setup()
window.podiumEditor = { buffers: byId, hooks, evaluations, messages, trace, evaluate, hush, showError, clearErrors, show, insert, note, reveal,
  get current () { return current }, name: myName, color: myColor }
