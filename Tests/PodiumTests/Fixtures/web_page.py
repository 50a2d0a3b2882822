#!/usr/bin/env python3
"""Drives Podium's stage page in a real headless Chromium (Debian's chromium and chromedriver,
through Selenium from PyPI), one step per argument, printing one line per step:

  web_page.py URL [--pages N] STEP...
    widgets                     "widgets N" and one "widget KIND CHANNEL" line per widget
    fader:CHANNEL:FRACTION      drag a fader (or knob) to FRACTION of its travel (page 1)
    click:CHANNEL               click a toggle, a step, or a momentary button (page 1)
    xy:CHANNEL:FX:FY            drag the XY pad whose first channel is CHANNEL to (FX, FY)
    pie:CHANNEL:FROM:TO         drag the border of the pie (first channel CHANNEL) that lies at FROM
                                (a fraction of a turn, clockwise from the top) round to TO
    hold:ID:SECONDS             press the push button ID (its map address), wait SECONDS, print
                                "held" and the "level" lines (as for levels) while it is down, let go
    levels                      "level PORT PEAK RMS" per output meter (what page 1 shows)
    rect:CHANNEL                "rect CHANNEL LEFT TOP WIDTH HEIGHT": its control's box on its canvas,
                                as fractions of the canvas
    size:WIDTH:HEIGHT           resize page 1's window (CSS pixels)
    motion:X:Y:Z                enable motion and dispatch a DeviceMotion event (m/s² incl. gravity)
    score:TEXT                  type TEXT in the score box and play it
    state:PAGE:CHANNEL          "state PAGE CHANNEL on|off|VALUE" as page PAGE (1-based) shows it
    wait:SECONDS                sleep
    shot:PATH                   save a screenshot of page 1
    page:PATH                   save a screenshot of the whole of page 1 (the window made as tall)
    errors                      "errors TEXT": the error line page 1 shows
    title                       "title TEXT": the HTTP body text (a refused page says why)
"""
import math, sys, time
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By


def browser(width=1280, height=1100):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"]:
        o.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def widget(d, channel, kind=None):
    return d.find_element(By.CSS_SELECTOR, (f'[data-widget="{kind}"]' if kind else "") + f'[data-channel="{channel}"]')


def drag_to(d, element, fx, fy):
    r = element.rect
    x, y = int(r["width"] * fx - r["width"] / 2), int(r["height"] * (1 - fy) - r["height"] / 2)
    ActionChains(d).move_to_element_with_offset(element, x, y).click_and_hold().move_by_offset(1, 0).move_by_offset(-1, 0).release().perform()


def state(d, channel):
    return d.execute_script("""
        const e = document.querySelector(`[data-channel="${arguments[0]}"]`);
        if (!e) return "missing";
        const w = e.dataset.widget;
        if (w === "grid" || w === "toggle") return e.classList.contains("on") ? "on" : "off";
        if (w === "pie") return e.parentElement.querySelector(".legend").textContent;
        const v = e.parentElement.querySelector(".value");
        return v ? v.textContent : "?";""", channel)


def levels(d):
    for port, peak, rms in d.execute_script("return [...document.querySelectorAll('[data-widget=level]')].map(e => [e.dataset.channel, e.dataset.peak || '0', e.dataset.rms || '0'])"):
        print(f"level {port} {peak} {rms}")


def main():
    url, args = sys.argv[1], sys.argv[2:]
    pages = 1
    if args and args[0] == "--pages":
        pages, args = int(args[1]), args[2:]
    drivers = [browser(390, 844) if i > 0 else browser() for i in range(pages)]
    try:
        for d in drivers:
            d.get(url)
        if not args or args[0] != "title":
            for d in drivers:
                for _ in range(100):
                    if d.execute_script("return document.querySelectorAll('[data-widget]').length") > 0: break
                    time.sleep(0.05)
        d = drivers[0]
        for step in args:
            kind, _, rest = step.partition(":")
            if kind == "widgets":
                found = d.execute_script("return [...document.querySelectorAll('[data-widget]')].map(e => e.dataset.widget + ' ' + e.dataset.channel)")
                print(f"widgets {len(found)}")
                for f in found: print(f"widget {f}")
            elif kind == "fader":
                channel, fraction = rest.rsplit(":", 1)
                drag_to(d, widget(d, channel), 0.5, float(fraction))
            elif kind == "click":
                e = widget(d, rest)
                if e.get_attribute("data-widget") == "momentary":
                    ActionChains(d).click_and_hold(e).pause(0.05).release().perform()
                else:
                    e.click()
            elif kind == "xy":
                channel, fx, fy = rest.split(":")
                drag_to(d, widget(d, channel, "xy"), float(fx), float(fy))
            elif kind == "pie":
                channel, a, b = rest.split(":")
                e = widget(d, channel, "pie")
                r = e.rect
                def at(fraction):
                    angle = 2 * math.pi * fraction
                    return int(math.sin(angle) * r["width"] * 0.35), int(-math.cos(angle) * r["height"] * 0.35)
                chain = ActionChains(d, duration=20)
                x0, y0 = at(float(a))
                chain.move_to_element_with_offset(e, x0, y0).click_and_hold()
                steps = 24
                for i in range(1, steps + 1):
                    x, y = at(float(a) + (float(b) - float(a)) * i / steps)
                    chain.move_to_element_with_offset(e, x, y)
                chain.release().perform()
            elif kind == "hold":
                ident, seconds = rest.rsplit(":", 1)
                ActionChains(d).click_and_hold(widget(d, ident, "push")).perform()
                time.sleep(float(seconds))
                print("held " + ident)
                levels(d)
                ActionChains(d).release().perform()
            elif kind == "levels":
                levels(d)
            elif kind == "rect":
                box = d.execute_script("""
                    const e = document.querySelector(`[data-channel="${arguments[0]}"]`).closest('.control');
                    const c = e.parentElement.getBoundingClientRect(), r = e.getBoundingClientRect();
                    return [(r.left - c.left) / c.width, (r.top - c.top) / c.height, r.width / c.width, r.height / c.height];""", rest)
                print("rect " + rest + " " + " ".join(f"{v:.3f}" for v in box))
            elif kind == "size":
                w, h = rest.split(":")
                d.set_window_size(int(w), int(h))
                time.sleep(0.3)
            elif kind == "motion":
                x, y, z = (float(v) for v in rest.split(":"))
                d.find_element(By.ID, "motionButton").click()
                for _ in range(10):
                    d.execute_script("window.dispatchEvent(new DeviceMotionEvent('devicemotion', {accelerationIncludingGravity: {x: arguments[0], y: arguments[1], z: arguments[2]}, rotationRate: {alpha: 0, beta: 0, gamma: 0}, interval: 16}))", x, y, z)
                    time.sleep(0.04)
            elif kind == "score":
                box = d.find_element(By.ID, "scoreInput")
                box.send_keys(rest)
                d.find_element(By.CSS_SELECTOR, "#scoreForm button").click()
            elif kind == "state":
                page, channel = rest.split(":", 1)
                print(f"state {page} {channel} {state(drivers[int(page) - 1], channel)}")
            elif kind == "wait":
                time.sleep(float(rest))
            elif kind == "shot":
                d.save_screenshot(rest)
            elif kind == "page":
                size = d.get_window_size()
                d.set_window_size(size["width"], d.execute_script("return document.documentElement.scrollHeight") + 20)
                time.sleep(0.4)
                d.save_screenshot(rest)
                d.set_window_size(size["width"], size["height"])
            elif kind == "errors":
                print("errors " + d.find_element(By.ID, "errors").text)
            elif kind == "title":
                print("title " + d.find_element(By.TAG_NAME, "body").text)
            sys.stdout.flush()
    finally:
        for d in drivers: d.quit()


if __name__ == "__main__":
    main()
