#!/usr/bin/env python3
"""Drives Podium's stage page in a real headless Chromium (Debian's chromium and chromedriver,
through Selenium from PyPI), one step per argument, printing one line per step:

  web_page.py URL [--pages N] STEP...
    widgets                     "widgets N" and one "widget KIND CHANNEL" line per widget
    fader:CHANNEL:FRACTION      drag a fader (or knob) to FRACTION of its travel (page 1)
    click:CHANNEL               click a toggle, a step, or a momentary button (page 1)
    xy:CHANNEL:FX:FY            drag the XY pad whose first channel is CHANNEL to (FX, FY)
    motion:X:Y:Z                enable motion and dispatch a DeviceMotion event (m/s² incl. gravity)
    score:TEXT                  type TEXT in the score box and play it
    state:PAGE:CHANNEL          "state PAGE CHANNEL on|off|VALUE" as page PAGE (1-based) shows it
    wait:SECONDS                sleep
    shot:PATH                   save a screenshot of page 1
    errors                      "errors TEXT": the error line page 1 shows
    title                       "title TEXT": the HTTP body text (a refused page says why)
"""
import sys, time
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
        const v = e.parentElement.querySelector(".value");
        return v ? v.textContent : "?";""", channel)


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
            elif kind == "errors":
                print("errors " + d.find_element(By.ID, "errors").text)
            elif kind == "title":
                print("title " + d.find_element(By.TAG_NAME, "body").text)
            sys.stdout.flush()
    finally:
        for d in drivers: d.quit()


if __name__ == "__main__":
    main()
