#!/usr/bin/env python3
"""Drives Podium's editor page (/editor) in real headless Chromium (Debian's chromium and
chromedriver, Selenium), as performers use it. One scenario per run; one line per result.

  editor_page.py URL SCENARIO [ARG...]
    play TEXT SECONDS [SHOT]   patterns tab: the buffer set to TEXT (the Yjs path, as typing), the
                               cursor on line 1, Ctrl-Enter pressed; prints "evaluated ok|fail ERRORS",
                               "note TEXT" (the answer as the page shows it), then after SECONDS "lit N FRAME…" (the steps the page lit, with the
                               frames the audio thread started them on) and "marks N" (lit marks seen)
    orchestra TEXT LINE SHOT   orchestra tab: TEXT appended after the buffer, the cursor on its line
                               LINE (1-based in the buffer), Ctrl-Enter; prints "evaluated …", then
                               "widget TEXT" for each error shown in the editor; screenshot to SHOT
    together SHOT              two pages type into the patterns buffer at once (the same line, then
                               apart); prints "same yes|no", "holds yes|no" and each page's text length;
                               then a third page joins: "third yes|no" (it shows the same text)
    readonly URL2              URL2 is the audience's: prints "typed yes|no", "evaluated …" of a
                               Ctrl-Enter there, and whether the owner's text changed
    phone SHOT                 the editor at 390×844: prints "editor W H", "hush visible yes|no" and
                               "overflow yes|no"; screenshot to SHOT
    loop TEXT                  loops tab: the buffer set to TEXT, Ctrl-Enter on line 1; prints "evaluated …",
                               then, a second later, "roll NAME:EVENTS …" (the roll's rows)
    save TEXT                  patterns tab: the buffer set to TEXT, Ctrl-S; prints "saved yes|no"
    big BYTES                  a patterns file of BYTES loaded, edited at its end and middle, saved
                               ("loaded N in S s", "saved yes|no"); a page that joins later has the
                               same text ("second same|different in S s"); "status A B"
    truth SHOT PHONESHOT       what the page tells: a stack's layers as lanes ("lanes SLOT LABEL…"),
                               a silent slot's warning and greyed lane ("warning …", "silent …"), the
                               clip light after a loud note ("clip on|off", "meters N"), the sounds
                               panel ("sounds N", "has NAME", "inserted yes|no"), help for jux
                               ("help …"), the scope of a 440 Hz sine ("scope crossing HZ spectrum HZ
                               …", "scope drawn yes|no"), a slot's problem while it plays marked on
                               its line and listed ("message KIND BUFFER:LINE KIND | TEXT",
                               "revealed BUFFER LINE"); at 390×844: "phone lanes N min H", "header height PX",
                               "overflow yes|no"; screenshots to SHOT and PHONESHOT
"""
import json, sys, threading, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys


def browser(mobile=False):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,800"]:
        o.add_argument(a)
    if mobile:
        o.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2}})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def wait_for(fn, timeout=15.0, step=0.05):
    end = time.time() + timeout
    while True:
        v = fn()
        if v or time.time() > end:
            return v
        time.sleep(step)


class Page:
    def __init__(self, url, name, buffer="patterns", mobile=False):
        self.d = browser(mobile)
        sep = "&" if "?" in url else "?"
        self.d.get(f"{url}{sep}name={name}#{buffer}")
        ok = wait_for(lambda: self.js("return !!window.podiumEditor && Object.values(podiumEditor.buffers).every(b => b.room.state === 'synced')"))
        if not ok:
            print("error: the editor did not sync", flush=True)
            sys.exit(2)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def show(self, buffer):
        self.js("podiumEditor.show(arguments[0])", buffer)

    def set_text(self, buffer, text):
        self.js("podiumEditor.buffers[arguments[0]].cm.setValue(arguments[1])", buffer, text)

    def text(self, buffer="patterns"):
        return self.js("return podiumEditor.buffers[arguments[0]].cm.getValue()", buffer)

    def cursor(self, buffer, line, ch=0):
        self.js("podiumEditor.show(arguments[0]); const cm = podiumEditor.buffers[arguments[0]].cm; cm.focus(); cm.setCursor({line: arguments[1], ch: arguments[2]})",
                buffer, line, ch)

    def chord(self, mod, key):
        ActionChains(self.d).key_down(mod).send_keys(key).key_up(mod).perform()

    def keys(self, *keys):
        ActionChains(self.d).send_keys(*keys).perform()

    def evaluations(self):
        return self.js("return podiumEditor.evaluations.length")

    def last_result(self, before):
        """The answer of the evaluation after `before` (the page's own note of it)."""
        return wait_for(lambda: self.js("return window.__lastEval || null"), 20)


def hook_results(page):
    # Wrap the host's evaluate to keep its answers (the page itself shows them in the editor).
    page.js("""const h = window.podiumHooks, e = h.evaluate.bind(h);
               h.evaluate = (b, t, l) => e(b, t, l).then(r => { window.__lastEval = r; return r })""")


def describe(r):
    if not r:
        return "evaluated none"
    if r.get("ok"):
        return "evaluated ok " + (r.get("message") or "")
    return "evaluated fail " + json.dumps(r.get("errors"))


def main():
    url, scenario, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    if scenario == "play":
        text, seconds = args[0], float(args[1])
        p = Page(url, "ana")
        hook_results(p)
        p.set_text("patterns", text)
        p.cursor("patterns", 0)
        p.chord(Keys.CONTROL, Keys.ENTER)
        print(describe(p.last_result(0)), flush=True)
        # What the page itself shows of the answer (the note under the buffers).
        print("note", p.js("return document.getElementById('evalNote').textContent"), flush=True)
        # Count the lit marks the page draws while it plays.
        p.js("""window.__marks = 0; const cm = podiumEditor.buffers.patterns.cm;
                setInterval(() => { if (cm.getAllMarks().some(m => m.className === 'cm-lit')) window.__marks++ }, 20)""")
        time.sleep(seconds)
        if len(args) > 2:
            p.d.save_screenshot(args[2])
        lit = p.js("return podiumHost.lit.map(l => [l.frame, l.spans])")
        print("lit", len(lit), " ".join(str(l[0]) for l in lit), flush=True)
        print("spans", json.dumps(lit[0][1] if lit else []), flush=True)
        # The characters of the buffer the first span covers.
        if lit:
            l1, c1, l2, c2 = lit[0][1][0]
            print("spantext", p.js("return podiumEditor.buffers.patterns.cm.getRange({line: arguments[0], ch: arguments[1]}, {line: arguments[2], ch: arguments[3]})",
                                   l1 - 1, c1 - 1, l2 - 1, c2 - 1), flush=True)
        print("marks", p.js("return window.__marks"), flush=True)
        p.d.quit()
    elif scenario == "orchestra":
        text, line, shot = args[0], int(args[1]), args[2]
        p = Page(url, "ben", "orchestra")
        hook_results(p)
        cm_text = p.text("orchestra")
        p.set_text("orchestra", cm_text.rstrip("\n") + "\n\n" + text + "\n")
        p.cursor("orchestra", line - 1, 2)
        p.chord(Keys.CONTROL, Keys.ENTER)
        print(describe(p.last_result(0)), flush=True)
        wait_for(lambda: p.js("return document.querySelectorAll('.error-widget').length > 0"), 5)
        for w in p.js("return [...document.querySelectorAll('.error-widget')].map(e => e.textContent)"):
            print("widget", w, flush=True)
        p.d.save_screenshot(shot)
        p.d.quit()
    elif scenario == "together":
        shot = args[0]
        a, b = Page(url, "ana"), Page(url, "ben")
        a.set_text("patterns", "d1 $ s \"bd\"\n\n-- ben\n")
        wait_for(lambda: b.text() == a.text(), 5)
        a.cursor("patterns", 0, 0)
        b.cursor("patterns", 0, 0)
        words = {"a": "abcdefghijklmnopqrstuvwxyz", "b": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}

        def type_into(page, chars):
            for c in chars:
                page.keys(c)
                time.sleep(0.01)
        t = [threading.Thread(target=type_into, args=(a, words["a"])), threading.Thread(target=type_into, args=(b, words["b"]))]
        [x.start() for x in t]
        [x.join() for x in t]
        b.cursor("patterns", 2, 5)
        a.cursor("patterns", 0, 0)
        t = [threading.Thread(target=type_into, args=(a, "# speed 2 ")), threading.Thread(target=type_into, args=(b, " on the hats"))]
        [x.start() for x in t]
        [x.join() for x in t]
        same = wait_for(lambda: a.text() == b.text() and a.text().count("z") == 1, 10)
        ta, tb = a.text(), b.text()
        holds = all(c in ta for c in words["a"] + words["b"]) and "# speed 2 " in ta and " on the hats" in ta
        print("same", "yes" if same else "no", flush=True)
        print("holds", "yes" if holds else "no", flush=True)
        print("lengths", len(ta), len(tb), flush=True)
        print("peers", a.js("return document.querySelectorAll('#peers .peer').length"), flush=True)
        # A third page joins afterwards: it gets the whole text from the relay's log.
        c = Page(url, "cy")
        joined = wait_for(lambda: c.text() == a.text(), 10)
        print("third", "yes" if joined else "no", flush=True)
        print("peers after", a.js("return document.querySelectorAll('#peers .peer').length"), flush=True)
        a.d.save_screenshot(shot)
        c.d.quit()
        a.d.quit()
        b.d.quit()
    elif scenario == "readonly":
        owner = Page(url, "ana")
        viewer = Page(args[0], "audience")
        before = owner.text()
        viewer.cursor("patterns", 0, 0)
        viewer.keys("%%%%")
        time.sleep(1)
        print("typed", "yes" if "%%%%" in viewer.text() else "no", flush=True)
        print("owner changed", "yes" if owner.text() != before else "no", flush=True)
        # A page that forges an eval on the audience's socket is refused by the server.
        viewer.js("""window.__answer = null; const ws = new WebSocket(`ws://${location.host}/ws?token=` + new URLSearchParams(location.search).get('token'));
                     ws.onmessage = ev => { const m = JSON.parse(ev.data); if (m.type === 'error' || m.type === 'evaluated') window.__answer = m };
                     ws.onopen = () => ws.send(JSON.stringify({type: 'eval', id: 1, buffer: 'patterns', text: 'd1 $ s "bd"', line: 1}))""")
        answer = wait_for(lambda: viewer.js("return window.__answer"), 5)
        print("forged", json.dumps(answer), flush=True)
        owner.d.quit()
        viewer.d.quit()
    elif scenario == "phone":
        shot = args[0]
        p = Page(url, "phone", mobile=True)
        p.set_text("patterns", "d1 $ s \"bd*2 [~ sn]\" # n \"<0 3>\"\n\nd2 $ s \"hh*8\" # gain (range 0.6 1 sine)\n")
        time.sleep(0.5)
        w, h = p.js("const r = document.querySelector('.editor:not([hidden]) .CodeMirror').getBoundingClientRect(); return [r.width, r.height]")
        hush = p.js("const r = document.getElementById('hushButton').getBoundingClientRect(); return r.width > 0 && r.bottom <= innerHeight")
        overflow = p.js("return document.documentElement.scrollWidth > innerWidth")
        print("editor", round(w), round(h), flush=True)
        print("hush visible", "yes" if hush else "no", flush=True)
        print("overflow", "yes" if overflow else "no", flush=True)
        p.d.save_screenshot(shot)
        p.d.quit()
    elif scenario == "loop":
        p = Page(url, "cy", "loops")
        hook_results(p)
        p.set_text("loops", args[0])
        p.cursor("loops", 0)
        p.chord(Keys.CONTROL, Keys.ENTER)
        print(describe(p.last_result(0)), flush=True)
        time.sleep(1.2)
        rows = p.js("return podiumHost.roll ? podiumHost.roll.slots.map(r => r.slot + ':' + r.events.length) : []")
        print("roll", " ".join(r.replace(" ", "_") for r in rows), flush=True)
        p.d.quit()
    elif scenario == "truth":
        shot, phoneshot = args[0], args[1]
        p = Page(url, "dee")
        hook_results(p)
        # The scope: a 440 Hz sine alone, as the audio thread wrote it (its zero crossings and
        # its spectrum's peak, measured by the page from the server's samples).
        p.set_text("orchestra", p.text("orchestra").rstrip("\n") + "\n\ninstr 10\n  aSine oscili 0.3, 440\n  out aSine\nendin\nschedule 10, 0, 1.5\n")
        n = len(p.text("orchestra").split("\n"))
        p.js("window.__lastEval = null")
        p.cursor("orchestra", n - 5)
        p.chord(Keys.CONTROL, Keys.ENTER)
        print("sine instr", describe(p.last_result(0)), flush=True)
        p.js("window.__lastEval = null")
        p.cursor("orchestra", n - 2)
        p.chord(Keys.SHIFT, Keys.ENTER)
        print("sine note", describe(p.last_result(0)), flush=True)
        s = wait_for(lambda: p.js("const s = podiumHost.scope; return s && s.peak > 0.25 && performance.now() - s.at < 500 ? true : null"), 5)
        time.sleep(0.3)
        s = p.js("const s = podiumHost.scope; return s && {crossingHz: s.crossingHz, spectrumPeakHz: s.spectrumPeakHz, peak: s.peak, frames: s.frames}") if s else None
        print("scope", "crossing %.2f spectrum %.2f peak %.3f frames %d" % (s["crossingHz"], s["spectrumPeakHz"], s["peak"], s["frames"]) if s else "none", flush=True)
        p.js("document.getElementById('scope').click()")
        time.sleep(0.2)
        print("scope drawn", "yes" if p.js("const c = document.getElementById('scope'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false") else "no", flush=True)
        p.set_text("patterns", 'd3 $ s "[[~ cp]*2, hh*8]"\n\nd6 $ s "superpianox*2" # n "0 7"\n\nd1 $ jux rev $ s "bd*2"\n\nd7 $ ply 200 $ s "bd ~!99" # amp 0\n')
        for line in (0, 2):
            p.js("window.__lastEval = null")
            p.cursor("patterns", line)
            p.chord(Keys.CONTROL, Keys.ENTER)
            print(describe(p.last_result(0)), flush=True)
        wait_for(lambda: p.js("return podiumHost.lanes.filter(l => l.slot === 'd3').length >= 2"), 5)
        for slot in ("d3", "d6"):
            lanes = p.js("return podiumHost.lanes.filter(l => l.slot === arguments[0]).map(l => l.label)", slot)
            print("lanes", slot, " ".join(lanes), flush=True)
        print("silent d6", p.js("return podiumHost.lanes.filter(l => l.slot === 'd6').every(l => !!l.silent)") and "yes" or "no", flush=True)
        # A slot that meets a problem while it plays (200 notes in 20 ms, more than a tick
        # posts): marked on its line when the server says so, and in the messages panel.
        p.js("window.__lastEval = null")
        p.cursor("patterns", 6)
        p.chord(Keys.CONTROL, Keys.ENTER)
        print(describe(p.last_result(0)), flush=True)
        wait_for(lambda: p.js("return [...document.querySelectorAll('.warning-widget')].some(e => e.textContent.startsWith('d7:'))"), 8)
        for w in p.js("return [...document.querySelectorAll('.warning-widget')].map(e => e.textContent)"):
            print("warning", w, flush=True)
        p.js("document.getElementById('messagesButton').click()")
        time.sleep(0.2)
        for m in p.js("return [...document.querySelectorAll('#messageList .message')].map(e => e.className.split(' ')[1] + ' ' + e.querySelector('small').textContent.split(' · ').slice(1).join(' ') + ' | ' + e.querySelector('span').textContent)"):
            print("message", m.replace("\n", " "), flush=True)
        print("message count", p.js("return document.getElementById('messageCount').textContent"), flush=True)
        p.show("orchestra")
        p.js("[...document.querySelectorAll('#messageList .message')].find(e => e.textContent.includes('d7:')).click()")
        print("revealed", p.js("return podiumEditor.current.id + ' ' + (podiumEditor.current.cm.getCursor().line + 1)"), flush=True)
        p.js("document.getElementById('messagesButton').click()")
        # A loud note from the orchestra tab: the output limit clips it, the light comes on.
        p.js("window.__lastEval = null")
        p.set_text("orchestra", p.text("orchestra").rstrip("\n") + "\n\ninstr 9\n  aLoud linseg 1.6, p3, 1.6\n  out aLoud\nendin\nschedule 9, 0, 0.5\n")
        n = len(p.text("orchestra").split("\n"))
        p.cursor("orchestra", n - 4)
        p.chord(Keys.CONTROL, Keys.ENTER)
        print(describe(p.last_result(0)), flush=True)
        p.js("window.__lastEval = null")
        p.cursor("orchestra", n - 2)
        p.chord(Keys.SHIFT, Keys.ENTER)
        print(describe(p.last_result(0)), flush=True)
        on = wait_for(lambda: p.js("return document.getElementById('clip').classList.contains('on')"), 5)
        print("clip", "on" if on else "off", flush=True)
        print("meters", p.js("return document.querySelectorAll('#meters .meter').length"), flush=True)
        # The sounds panel: listed, searched, a click inserts the name.
        p.show("patterns")
        p.cursor("patterns", 5, 0)
        p.js("document.getElementById('soundsButton').click()")
        wait_for(lambda: p.js("return document.querySelectorAll('#soundList .sound').length > 0"), 5)
        print("sounds", p.js("return document.querySelectorAll('#soundList .sound').length"), flush=True)
        for name in p.js("return [...document.querySelectorAll('#soundList .sound')].map(b => b.dataset.name)"):
            print("has", name, flush=True)
        p.d.find_element("id", "soundSearch").send_keys("bd")
        time.sleep(0.2)
        p.js("document.querySelector('#soundList .sound[data-name=\"bd\"]').click()")
        print("inserted", "yes" if p.text().split("\n")[5].startswith("bd") else "no", flush=True)
        p.js("document.getElementById('soundsButton').click()")
        # Help in place: the cursor rests on jux.
        p.cursor("patterns", 4, 7)
        shown = wait_for(lambda: p.js("const h = document.getElementById('help'); return !h.hidden && h.textContent"), 5)
        print("help", (shown or "").split("\n")[0], flush=True)
        p.d.save_screenshot(shot)
        p.d.quit()
        q = Page(url, "phone", mobile=True)
        time.sleep(1.5)
        lanes = q.js("return podiumHost.lanes.length")
        height = q.js("return document.getElementById('roll').getBoundingClientRect().height")
        print("phone lanes", lanes, "min", round((height - 4) / max(lanes, 1), 1), flush=True)
        # Told by the server (a page that evaluated nothing still sees d6 greyed).
        print("phone silent d6", "yes" if q.js("return podiumHost.lanes.some(l => l.slot === 'd6') && podiumHost.lanes.filter(l => l.slot === 'd6').every(l => !!l.silent)") else "no", flush=True)
        # The marks of a page that evaluated nothing: on their slots' lines once the buffer synced.
        wait_for(lambda: q.js("return document.querySelectorAll('.warning-widget').length >= 2"), 5)
        for slot in ("d6", "d7"):
            print("phone mark", slot, "line", q.js("const cm = podiumEditor.buffers.patterns.cm; for (let l = 0; l <= cm.lastLine(); l++) if ((cm.lineInfo(l).widgets || []).some(w => w.node.textContent.startsWith(arguments[0] + ':'))) return l + 1; return 0", slot), flush=True)
        print("phone tabs visible", q.js("const t = document.getElementById('tabs').getBoundingClientRect(); return [...document.querySelectorAll('#tabs button')].filter(b => { const r = b.getBoundingClientRect(); return r.left >= t.left - 1 && r.right <= t.right + 1 }).length"), flush=True)
        print("header height", round(q.js("return document.querySelector('header').getBoundingClientRect().height")), flush=True)
        print("overflow", "yes" if q.js("return document.documentElement.scrollWidth > innerWidth") else "no", flush=True)
        q.d.save_screenshot(phoneshot)
        q.d.quit()
    elif scenario == "big":
        # A patterns file of BYTES bytes: loaded, edited at its end and in its middle, saved; a
        # page that joins afterwards gets the same text.
        expected = int(args[0])
        t0 = time.time()
        p = Page(url, "big")
        wait_for(lambda: p.js("return podiumEditor.buffers.patterns.cm.getValue().length") >= expected, 20)
        print("loaded", p.js("return podiumEditor.buffers.patterns.cm.getValue().length"), "in %.1f s" % (time.time() - t0), flush=True)
        p.js("const cm = podiumEditor.buffers.patterns.cm; cm.replaceRange('\\n-- edited at the end', {line: cm.lastLine()}); cm.replaceRange('-- edited in the middle\\n', {line: Math.floor(cm.lineCount() / 2), ch: 0})")
        time.sleep(0.5)
        p.cursor("patterns", 0)
        p.chord(Keys.CONTROL, "s")
        ok = wait_for(lambda: "saved by" in (p.js("return document.getElementById('note').textContent") or ""), 10)
        print("saved", "yes" if ok else "no", flush=True)
        t1 = time.time()
        q = Page(url, "late")
        same = wait_for(lambda: q.text() == p.text(), 10)
        print("second", "same" if same else "different", "in %.1f s" % (time.time() - t1), flush=True)
        print("status", p.js("return document.getElementById('status').textContent"), q.js("return document.getElementById('status').textContent"), flush=True)
        q.d.quit()
        p.d.quit()
    elif scenario == "save":
        p = Page(url, "ana")
        p.set_text("patterns", args[0])
        p.cursor("patterns", 0)
        p.chord(Keys.CONTROL, "s")
        ok = wait_for(lambda: "saved by" in (p.js("return document.getElementById('note').textContent") or ""), 5)
        print("saved", "yes" if ok else "no", flush=True)
        p.d.quit()
    else:
        print("error: unknown scenario", scenario)
        sys.exit(64)


if __name__ == "__main__":
    main()
