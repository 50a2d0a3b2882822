// Yjs itself (Debian's node-yjs) as the oracle for the relay's update check (YjsUpdateCheck):
// prints one JSON line per update: {"hex", "kind", "yjs": "ok" | "error"}.
//   kind "honest":  updates real documents send (text typed and deleted, formats, embeds, maps
//                   of every value type, arrays, XML, subdocuments, garbage-collected deletes,
//                   merged updates with skips, a 20 KB and a 500 KB text), each one Yjs applies;
//   kind "broken":  those cut short, with bytes flipped, with bytes added, and random bytes:
//                   "yjs" says whether Yjs decodes and applies it to a fresh document.
//   "typing N CLIENT": N updates of one page (client id CLIENT) typing into the patterns buffer,
//   a hex line each, then "state HEX" (its whole state): a page the relay tests drive without
//   a browser. "merge FILE...": "state HEX", the updates of the files merged (what a page that
//   received them all answers "compact" with). "apply FILE": the patterns text of a document given the updates in FILE (hex lines).
// "SEED merges": sets of those updates (with whole states among them, so items overlap) and Y.mergeUpdates of each.
// Usage: NODE_PATH=/usr/share/nodejs node yjs_updates.cjs SEED [merges] | typing N CLIENT | merge FILE... | apply FILE
const Y = require('yjs')
// Writes the text and exits once it is written (a pipe is written asynchronously: exiting at
// once would cut a long output).
const finish = text => process.stdout.write(text, () => process.exit(0))

if (process.argv[2] === 'typing') {
  const d = new Y.Doc()
  d.clientID = Number(process.argv[4] || 424242)
  const lines = []
  d.on('update', u => lines.push(Buffer.from(u).toString('hex')))
  const t = d.getText('patterns')
  const line = `d${d.clientID % 9} $ s "bd*2 [~ cp]" # speed 1.5\n`
  for (let i = 0; i < Number(process.argv[3]); i++) t.insert(t.length, line[i % line.length])
  lines.push('state ' + Buffer.from(Y.encodeStateAsUpdate(d)).toString('hex'))
  finish(lines.join('\n') + '\n')
  return
}
if (process.argv[2] === 'merge') {  // "state HEX": the updates of every FILE merged (a page that applied them all)
  const all = process.argv.slice(3).flatMap(f => require('fs').readFileSync(f, 'utf8').split('\n')).filter(l => l && !l.startsWith('state'))
  finish('state ' + Buffer.from(Y.mergeUpdates(all.map(l => Buffer.from(l, 'hex')))).toString('hex') + '\n')
  return
}
if (process.argv[2] === 'apply') {
  const d = new Y.Doc()
  for (const l of require('fs').readFileSync(process.argv[3], 'utf8').split('\n')) if (l && !l.startsWith('state')) Y.applyUpdate(d, Buffer.from(l, 'hex'))
  finish(d.getText('patterns').toString())
  return
}

let seed = Number(process.argv[2] || 1) >>> 0
const random = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 4294967296 }
const pick = a => a[Math.floor(random() * a.length)]
const out = []

function yjsVerdict (u) {
  try {
    Y.decodeUpdate(u)
    // A page applies it: a fresh document (Y.applyUpdate throws on what it cannot read).
    Y.applyUpdate(new Y.Doc(), u)
    return 'ok'
  } catch (e) { return 'error' }
}

function emit (u, kind) { out.push({ hex: Buffer.from(u).toString('hex'), kind, yjs: yjsVerdict(u) }) }

// Two documents edited in turn, every update each one emits kept.
const updates = []
const a = new Y.Doc(); const b = new Y.Doc()
a.clientID = 7; b.clientID = 1234567890123
for (const d of [a, b]) d.on('update', (u, origin) => { if (origin !== 'peer') updates.push(u) })
const relay = (from, to) => Y.applyUpdate(to, Y.encodeStateAsUpdate(from, Y.encodeStateVector(to)), 'peer')
const words = ['d1 $ s "bd*2 [~ cp]"', ' # vowel "a e"', '\n', 'instr 1\n  out oscili(0.1, 440)\nendin\n', 'ü∑😀', 'x']
let midA = null
for (let step = 0; step < 400; step++) {
  if (step === 200) midA = Y.encodeStateAsUpdate(a)
  const d = random() < 0.5 ? a : b
  const t = d.getText('patterns')
  const r = random()
  if (r < 0.45 || t.length === 0) t.insert(Math.floor(random() * (t.length + 1)), pick(words))
  else if (r < 0.7) { const at = Math.floor(random() * t.length); t.delete(at, Math.min(t.length - at, 1 + Math.floor(random() * 20))) }
  else if (r < 0.75) t.format(0, Math.min(t.length, 5), { bold: random() < 0.5 ? true : null })
  else if (r < 0.78) t.insertEmbed(Math.floor(random() * (t.length + 1)), { image: 'x.png', n: 3 })
  else if (r < 0.88) d.getMap('settings').set(pick(['tempo', 'name', 'blob', 'list', 'deep', 'big']), pick([
    120.5, -3, 2 ** 40, 0.1, 'fast', true, false, null, undefined, { a: [1, { b: 'c' }], e: 1.5 }, [1, 'two', null],
    new Uint8Array([0, 255, 7]), 'ü'.repeat(40)]))
  else if (r < 0.92) d.getArray('list').push([random(), 'v', { k: 1 }])
  else if (r < 0.94) { const x = d.getXmlFragment('xml'); const e = new Y.XmlElement('p'); e.insert(0, [new Y.XmlText('hi')]); x.insert(0, [e]) }
  else if (r < 0.95) d.getMap('docs').set('sub', new Y.Doc({ guid: 'sub-' + step }))
  else if (r < 0.97) d.getMap('settings').delete('tempo')
  else relay(d, d === a ? b : a)
}
relay(a, b); relay(b, a)
if (process.argv[3] === 'merges') {
  // Sets of updates and what Y.mergeUpdates makes of each: JSON lines {updates: [hex], merged: hex}.
  const typing = new Y.Doc(); typing.clientID = 99
  const keys = []
  typing.on('update', u => keys.push(u))
  for (let i = 0; i < 300; i++) typing.getText('patterns').insert(Math.floor(random() * (typing.getText('patterns').length + 1)), pick(['a', 'ü', '😀', 'd1 $ ']))
  for (let i = 0; i < 40; i++) { const t = typing.getText('patterns'); const at = Math.floor(random() * t.length); t.delete(at, Math.min(3, t.length - at)) }
  const sets = [
    updates,
    [Y.encodeStateAsUpdate(a), ...updates],  // a whole state, then the updates it holds: items sliced
    [midA, ...updates.filter((_, i) => i % 2 === 0), Y.encodeStateAsUpdate(b)],
    [Y.mergeUpdates(updates.filter((_, i) => i % 3 === 0)), ...updates.filter((_, i) => i % 3 !== 0)],  // skips
    keys,
    [keys.slice(0, 150).reduce((m, u) => Y.mergeUpdates([m, u])), Y.encodeStateAsUpdate(typing), ...keys.slice(100)],
    [updates[0]],
  ]
  // Keystrokes merged (one item each), then the typist's whole state (one item from clock 0):
  // the state's item starts before the last written one and is cut where that one ends.
  const seq = new Y.Doc(); seq.clientID = 5
  const typed = []
  seq.on('update', u => typed.push(u))
  for (const ch of 'abcdefg') seq.getText('patterns').insert(seq.getText('patterns').length, ch)
  sets.push([Y.mergeUpdates(typed.slice(0, 4)), Y.encodeStateAsUpdate(seq)])
  finish(sets.map(set => JSON.stringify({ updates: set.map(u => Buffer.from(u).toString('hex')), merged: Buffer.from(Y.mergeUpdates(set)).toString('hex') }) + '\n').join(''))
  return
}
for (const u of updates) emit(u, 'honest')
emit(Y.encodeStateAsUpdate(a), 'honest')
emit(Y.mergeUpdates(updates.filter((_, i) => i % 3 === 0)), 'honest')  // gaps: skips
const big = n => { const d = new Y.Doc(); d.getText('patterns').insert(0, 'd1 $ s "bd*4"\n'.repeat(Math.ceil(n / 14)).slice(0, n)); return Y.encodeStateAsUpdate(d) }
emit(big(20000), 'honest')
emit(big(500000), 'honest')
// gc off: deleted items keep their content, deletes are ContentDeleted
const keep = new Y.Doc({ gc: false }); keep.getText('t').insert(0, 'hello world'); keep.getText('t').delete(2, 5)
emit(Y.encodeStateAsUpdate(keep), 'honest')
const gcd = new Y.Doc(); gcd.getArray('a').insert(0, [1, 2, 3]); gcd.getArray('a').delete(0, 3)
emit(Y.encodeStateAsUpdate(gcd), 'honest')

// Broken: from the honest ones.
const honest = out.filter(o => o.kind === 'honest').map(o => Buffer.from(o.hex, 'hex'))
for (let i = 0; i < 3000; i++) {
  const u = Uint8Array.from(pick(honest.filter(h => h.length < 4000)))
  const r = random()
  let v
  if (r < 0.3) v = u.slice(0, Math.floor(random() * u.length))
  else if (r < 0.6) { v = Uint8Array.from(u); for (let k = 1 + Math.floor(random() * 3); k > 0; k--) v[Math.floor(random() * v.length)] = Math.floor(random() * 256) }
  else if (r < 0.7) v = Uint8Array.from([...u, ...Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * 256))])
  else v = Uint8Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256))
  emit(v, 'broken')
}
for (const o of out) process.stdout.write(JSON.stringify(o) + '\n')
