#!/usr/bin/env python3
"""A first browser check of `variant serve`'s page, in headless Chromium over WebDriver.

Not yet run by CI (issue 30's browser tests are still to come): needs Debian's `chromium` and
`chromium-driver`, and `pip install selenium`. Usage: scripts/browser-smoke.py [BINARY]
(default target/debug/variant). It starts the server on a port the system picks, clicks e2 then
e4 in chess against `random` and checks the reply; drops Kingdrops' king from the pocket; and
saves screenshots in target/browser-smoke/.
"""
import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.by import By


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/variant"
    shots = "target/browser-smoke"
    os.makedirs(shots, exist_ok=True)
    server = subprocess.Popen([binary, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[-1]
        options = webdriver.ChromeOptions()
        for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,800"]:
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options)
        try:
            check(driver, url, shots)
        finally:
            driver.quit()
    finally:
        server.kill()
        server.wait()


def wait_for(driver, selector, count=1, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        found = driver.find_elements(By.CSS_SELECTOR, selector)
        if len(found) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {count} of {selector}")


def check(driver, url, shots):
    driver.get(f"{url}play/chess?black=random&seed=1")
    assert len(wait_for(driver, "#board [data-square]", 64)) == 64
    driver.find_element(By.CSS_SELECTOR, '#board [data-square="e2"]').click()
    targets = sorted(e.get_attribute("data-square") for e in wait_for(driver, "#board g.target", 2))
    assert targets == ["e3", "e4"], targets
    driver.find_element(By.CSS_SELECTOR, '#board [data-square="e4"]').click()
    items = wait_for(driver, "#moves li", 2)
    # The list shows SAN; each item's title is the move in the game's notation.
    moves = [e.get_attribute("title") for e in items]
    assert moves[0] == "e2e4" and len(moves) == 2, moves
    assert items[0].text == "e4", items[0].text
    driver.save_screenshot(f"{shots}/chess.png")

    driver.get(f"{url}play/takeover-chess")
    assert len(wait_for(driver, "#board [data-square]", 41)) == 41
    driver.save_screenshot(f"{shots}/takeover-chess.png")

    driver.get(f"{url}play/kingdrops")
    king = wait_for(driver, '#board [data-pocket][data-owner="white"] [data-piece="K"]')[0]
    king.click()
    wait_for(driver, "#board g.target", 1)
    driver.find_element(By.CSS_SELECTOR, '#board [data-square="e1"]').click()
    moves = [e.text for e in wait_for(driver, "#moves li", 1)]
    assert moves == ["K@e1"], moves
    driver.save_screenshot(f"{shots}/kingdrops.png")
    print("3 passed, 0 failed")


if __name__ == "__main__":
    main()
