// Syntax colouring for Podium's three buffers, as CodeMirror 5 simple modes
// (addon/mode/simple.js). Token names become CSS classes: "var-k" -> .cm-var-k.
const CodeMirror = window.CodeMirror

// A typed Csound variable's class from its prefix: gk… -> var-g, k… -> var-k, S… -> var-s.
const varToken = m => {
  const c = m[0][0]
  return c === 'g' ? 'var-g' : c === 'i' || c === 'k' || c === 'a' ? 'var-' + c : 'var-s'
}
const TYPED = '[gikaSfw]\\w*(?:\\[\\])*'
// Opcodes that start with a variable's letter and are used without outputs.
const BARE_TYPED_OPCODES = /(?:fout|fouti|foutir|foutk|fprints|fprintks|ftfree|ftsave|ftsavek|ftload|ftloadk|ftprint|ihold|initc7|initc14|initc21|ficlose)\b/

CodeMirror.defineSimpleMode('csound', {
  start: [
    { regex: /;.*/, token: 'comment' },
    { regex: /\/\/.*/, token: 'comment' },
    { regex: /\/\*/, token: 'comment', next: 'comment' },
    { regex: /"(?:[^\\"]|\\.)*"?/, token: 'string' },
    { regex: /\{\{/, token: 'string', next: 'long' },
    { regex: /<\/?Cs\w+>/, token: 'meta' },
    { regex: /(?:instr|opcode)\b/, token: 'keyword', next: 'names' },
    { regex: /(?:endin|endop|if|then|else|elseif|endif|while|do|od|until|enduntil|goto|igoto|kgoto|tigoto|return|rireturn)\b/, token: 'keyword' },
    { regex: /(?:sr|kr|ksmps|nchnls_i|nchnls|0dbfs|A4)\b/, token: 'atom' },
    { regex: /p\d+\b/, token: 'pfield' },
    { regex: BARE_TYPED_OPCODES, token: 'builtin' },
    // Outputs of a statement: typed names, comma separated, then the opcode. The last
    // output switches to the 'opcode' state so the next word is coloured as an opcode.
    { regex: new RegExp(TYPED + `(?=\\s*,\\s*(?:${TYPED}\\s*,\\s*)*${TYPED}\\s+[A-Za-z_])`), token: varToken },
    { regex: new RegExp(TYPED + '(?=\\s+[A-Za-z_]\\w*(?::\\w+)?(?:\\s|$))'), token: varToken, next: 'opcode' },
    { regex: /[A-Za-z_]\w*(?::\w+)?(?=\()/, token: 'builtin' },            // ampdb(…), int(…)
    { regex: /\s*(?![gikaSfw])[A-Za-z_]\w*(?::\w+)?(?=\s|$)/, sol: true, token: 'builtin' }, // outs a1, a2
    { regex: /[gikaSfw]\w*/, token: varToken },
    { regex: /[A-Za-z_]\w*:/, sol: true, token: 'tag' },                  // labels
    { regex: /0x[0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/, token: 'number' },
    { regex: /[-+*\/%^=<>!&|?:]+/, token: 'operator' },
    { regex: /[A-Za-z_]\w*/, token: null }
  ],
  opcode: [
    { regex: /\s+/, token: null },
    { regex: /(?:then|goto|kgoto|igoto)\b/, token: 'keyword', next: 'start' },
    { regex: /[A-Za-z_]\w*(?::\w+)?/, token: 'builtin', next: 'start' },
    { regex: /(?:)/, next: 'start' }
  ],
  names: [                                                                 // instr 1, bass
    { regex: /[ \t]+|,/, token: null },
    { regex: /[\w.+]+/, token: 'def' },
    { regex: /(?:)/, next: 'start' }
  ],
  comment: [{ regex: /.*?\*\//, token: 'comment', next: 'start' }, { regex: /.*/, token: 'comment' }],
  long: [{ regex: /.*?\}\}/, token: 'string', next: 'start' }, { regex: /.*/, token: 'string' }],
  meta: { lineComment: ';', blockCommentStart: '/*', blockCommentEnd: '*/', dontIndentStates: ['comment', 'long'] }
})

// Tidal-style patterns: d1 … d16, $, #, operators, controls, strings in mini-notation.
CodeMirror.defineSimpleMode('tidal', {
  start: [
    { regex: /--.*/, token: 'comment' },
    { regex: /\{-/, token: 'comment', next: 'comment' },
    { regex: /"/, token: 'string mini-quote', next: 'mini' },
    { regex: /d(?:1[0-6]|[1-9])\b/, token: 'keyword slot' },
    { regex: /(?:hush|once|solo|unsolo|setcps|silence|xfade|p)\b/, token: 'keyword' },
    { regex: /\$/, token: 'operator dollar' },
    { regex: /#/, token: 'operator hash' },
    { regex: /\|[-+*\/<>%]+\||\|[-+*\/<>%]+|[-+*\/<>%]+\||<~|~>|\.\.|[.+\-*\/<>]/, token: 'operator' },
    { regex: /-?(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?/, token: 'number' },
    { regex: /(?:s|sound|n|note|speed|gain|pan|legato|sustain|room|size|orbit|cutoff|resonance|shape|crush|coarse|delay|delaytime|delayfeedback|vowel|begin|end|accelerate|cps|octave|lpf|hpf|amp|up|squiz|nudge|midinote|freq|velocity)\b/, token: 'def' },
    { regex: /[a-z_][\w']*/, token: 'variable' },
    { regex: /[()\[\]]/, token: 'bracket' }
  ],
  mini: [                                                      // inside "…": mini-notation
    { regex: /"/, token: 'string mini-quote', next: 'start' },
    { regex: /~/, token: 'mini-rest' },
    { regex: /[\[\]<>{}()]/, token: 'mini-bracket' },
    { regex: /[*\/!?@:,|.%_]/, token: 'mini-op' },
    { regex: /-?(?:\d+\.?\d*|\.\d+)/, token: 'mini-number' },
    { regex: /[A-Za-z][\w'#]*/, token: 'mini-word' },
    { regex: /\s+/, token: null },
    { regex: /./, token: 'string' }
  ],
  comment: [{ regex: /.*?-\}/, token: 'comment', next: 'start' }, { regex: /.*/, token: 'comment' }],
  meta: { lineComment: '--', blockCommentStart: '{-', blockCommentEnd: '-}' }
})

// Podium's loops file: loop NAME BEATS … end around score lines, chord lines, ; comments.
CodeMirror.defineSimpleMode('podium-loops', {
  start: [
    { regex: /;.*|\/\/.*/, token: 'comment' },
    { regex: /(\s*)(loop)(\s+)([\w.-]+)/, sol: true, token: [null, 'keyword', null, 'def'] },
    { regex: /\s*end\b/, sol: true, token: 'keyword' },
    { regex: /\s*[ifeqt](?=[\s\d"])/, sol: true, token: 'builtin' },
    { regex: /(?:chord|arp)\b/, token: 'builtin' },
    { regex: /[@:][A-Za-z]\w*/, token: 'meta' },
    { regex: /"(?:[^\\"]|\\.)*"?/, token: 'string' },
    { regex: /[A-G][#b]?-?\d\b/, token: 'atom' },
    { regex: /-?(?:\d+\.?\d*|\.\d+)/, token: 'number' },
    { regex: /[+\-*\/]/, token: 'operator' },
    { regex: /[A-Za-z_]\w*/, token: null }
  ],
  meta: { lineComment: ';' }
})
