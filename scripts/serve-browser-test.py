#!/usr/bin/env python3
"""The page of `cardscan serve` in a real browser: Debian's headless Chromium driven through
chromium-driver by Selenium (no browser download). Run by ServeBrowserTests inside the lab:
it starts the lab's virtual cards itself (scripts/lab.sh card) while the page is open.

    /usr/bin/python3 scripts/serve-browser-test.py URL ARTIFACTS_DIR

Checks, printing one line each and exiting 1 on the first failure:
- the page shows the reader waiting, then the balance within 2 s of the card being presented
  (the read itself included, so within 2 s of the read's end too);
- after three taps of one card whose log moves, its chart has one point per read (3);
- the kiosk view shows the name and balance large, then clears after a few seconds;
- a second card on the other reader shows beside the first.
Screenshots of the page and the kiosk view go to ARTIFACTS_DIR.
"""
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

URL, ARTIFACTS = sys.argv[1], sys.argv[2]
ROOT = os.path.join(os.path.dirname(__file__), "..")
os.makedirs(ARTIFACTS, exist_ok=True)


def card(path, port=35963):
    subprocess.run([os.path.join(ROOT, "scripts", "lab.sh"), "card", os.path.join(ROOT, path), str(port)],
                   check=True, capture_output=True)


def stop_cards():
    subprocess.run([os.path.join(ROOT, "scripts", "lab.sh"), "stop-cards"], check=True, capture_output=True)


def browser():
    o = Options()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--lang=en-US",
              "--window-size=1100,1400"]:
        o.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)


def text(d, element_id):
    return d.find_element(By.ID, element_id).text


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        sys.exit(1)


page, kiosk = browser(), browser()
try:
    page.get(URL)
    kiosk.get(URL.rstrip("/") + "/kiosk")
    check(WebDriverWait(page, 10).until(lambda d: "hold a card" in text(d, "readers") or "Virtual PCD" in text(d, "readers")),
          "the readers are shown live")
    check(text(kiosk, "kiosk-prompt") == "Hold your card here", "the kiosk view asks for a card")
    balances = ["¥57.10", "¥52.10", "¥68.10"]
    for n in (1, 2, 3):
        card(f"Tests/LabCards/shanghai-tap-{n}.apdu")
        presented = time.monotonic()  # the card is on the reader: the read runs from here
        WebDriverWait(page, 10).until(lambda d: balances[n - 1] in text(d, "last-report"))
        shown = time.monotonic() - presented
        check(shown <= 2, f"tap {n}: {balances[n - 1]} shown {shown:.2f} s after the card was presented (the read included)")
        check("Virtual PCD 00 00: read" in text(page, "readers"), f"tap {n}: the reader says the read ended")
        if n == 1:
            WebDriverWait(kiosk, 5).until(lambda d: balances[0] in text(d, "kiosk-balance"))
            check("Shanghai Public Transportation Card" in text(kiosk, "kiosk-name"), "the kiosk shows the card's name and balance")
            kiosk.save_screenshot(os.path.join(ARTIFACTS, "serve-kiosk.png"))
            WebDriverWait(kiosk, 10).until(lambda d: text(d, "kiosk-prompt") == "Hold your card here" and text(d, "kiosk-balance") == "")
            check(True, "the kiosk view clears after a few seconds")
        stop_cards()
        WebDriverWait(page, 10).until(lambda d: "hold a card" in text(d, "readers"))
    page.find_element(By.CSS_SELECTOR, "#cards button").click()
    WebDriverWait(page, 5).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#chart circle")) == 3)
    amounts = [c.get_attribute("data-amount") for c in page.find_elements(By.CSS_SELECTOR, "#chart circle")]
    check(amounts == ["5710", "5210", "6810"], f"the chart has one point per read: {amounts}")
    rows = page.find_elements(By.CSS_SELECTOR, "#trips tr")
    check(len(rows) == 15, f"the card's trips, each once: {len(rows) - 1}")
    card("Tests/LabCards/t-money-image.json", 35964)
    WebDriverWait(page, 15).until(lambda d: "T-money" in text(d, "cards") and "Shanghai" in text(d, "cards"))
    check(True, "a second card on the other reader shows beside the first")
    page.save_screenshot(os.path.join(ARTIFACTS, "serve-page.png"))
    stop_cards()
finally:
    page.quit()
    kiosk.quit()
