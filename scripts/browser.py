#!/usr/bin/env python3
"""`variant serve`'s page in headless Chromium over WebDriver: the scenarios of issue 30.

Run by tests/browser.rs (and so by CI, whose .ci/run installs Debian's `chromium` and
`chromium-driver` and `pip install selenium`). Usage:
    scripts/browser.py --binary target/debug/variant --shots target/browser-screenshots
It starts the server on a port the system picks, plays each scenario in a fresh page, reads what
it sees through the `data-square`, `data-piece` and `data-side` attributes the board carries,
saves a screenshot of each (the folder is printed), and ends with `N passed, M failed`; it
exits non-zero if any failed.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

WAIT = 20
# Selenium finds chromedriver on the PATH and must not phone home (CI may be offline).
os.environ.setdefault("SE_AVOID_STATS", "true")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default="target/debug/variant")
    parser.add_argument("--shots", default="target/browser-screenshots")
    parser.add_argument("--only", help="run only the scenarios whose name contains this")
    args = parser.parse_args()
    os.makedirs(args.shots, exist_ok=True)
    server = subprocess.Popen([args.binary, "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        url = server.stdout.readline().split()[-1]
        driver = browser()
        try:
            failed = run_all(driver, url, args)
        finally:
            driver.quit()
    finally:
        server.kill()
        server.wait()
    print(f"screenshots in {os.path.abspath(args.shots)}")
    sys.exit(1 if failed else 0)


def browser():
    """Headless Chromium through the system's chromedriver (no download: CI is offline)."""
    options = webdriver.ChromeOptions()
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1200,900"]:
        options.add_argument(flag)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        options.binary_location = chromium
    driver_path = shutil.which("chromedriver")
    service = webdriver.ChromeService(executable_path=driver_path) if driver_path else None
    return webdriver.Chrome(options=options, service=service)


def run_all(driver, url, args):
    passed, failed = 0, 0
    for name, scenario in SCENARIOS:
        if args.only and args.only not in name:
            continue
        try:
            scenario(driver, url)
            print(f"ok {name}")
            passed += 1
        except Exception:  # noqa: BLE001 - every failure is reported, then the next runs
            print(f"FAILED {name}\n{traceback.format_exc()}")
            failed += 1
        driver.save_screenshot(os.path.join(args.shots, f"{name}.png"))
    print(f"{passed} passed, {failed} failed")
    return failed


def wait_until(condition, what, seconds=WAIT):
    deadline = time.time() + seconds
    while True:
        found = condition()
        if found:
            return found
        if time.time() > deadline:
            raise AssertionError(f"waited {seconds}s for {what}")
        time.sleep(0.1)


def wait_for(driver, selector, count=1, seconds=WAIT):
    return wait_until(lambda: (lambda found: found if len(found) >= count else None)(
        driver.find_elements(By.CSS_SELECTOR, selector)), f"{count} of {selector}", seconds)


def square(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f'#board [data-square="{name}"]')


def retried(action):
    """Runs `action`; the page redraws its board after each move, so an element found just
    before may be replaced: found again and tried again."""
    for attempt in range(20):
        try:
            return action()
        except StaleElementReferenceException:
            if attempt == 19:
                raise
            time.sleep(0.1)


def click_square(driver, name):
    retried(lambda: square(driver, name).click())


# The page's state read in one script, so that a redraw cannot come between two reads.
def piece_on(driver, name):
    """(letter, side) of the piece on a square, or None."""
    found = driver.execute_script(
        "const p = document.querySelector(`#board [data-square=\"${arguments[0]}\"] "
        "[data-piece]`); return p && [p.dataset.piece, p.dataset.side];", name)
    return tuple(found) if found else None


def moves(driver):
    """The move list: (SAN, the move in the game's notation) per item."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('#moves li')].map(e => [e.textContent, e.title]);")
    return [tuple(item) for item in found]


def text_of(driver, element_id):
    return driver.execute_script(
        "return document.getElementById(arguments[0]).textContent;", element_id)


def wait_moves(driver, count):
    return wait_until(lambda: (lambda m: m if len(m) >= count else None)(moves(driver)),
                      f"{count} moves in the list")


def chess_against_random(driver, url):
    driver.get(f"{url}play/chess?black=random&seed=1")
    assert len(wait_for(driver, "#board [data-square]", 64)) == 64
    click_square(driver, "e2")
    wait_for(driver, "#board g.target", 2)
    targets = sorted(driver.execute_script(
        "return [...document.querySelectorAll('#board g.target')].map(e => e.dataset.square);"))
    assert targets == ["e3", "e4"], targets
    click_square(driver, "e4")
    listed = wait_moves(driver, 2)
    assert listed[0] == ("e4", "e2e4"), listed
    assert piece_on(driver, "e4") == ("P", "white")
    assert piece_on(driver, "e2") is None
    # Black's reply is on the board where its move says.
    reply = listed[1][1]
    assert piece_on(driver, reply[2:4])[1] == "black", (reply, piece_on(driver, reply[2:4]))
    wait_until(lambda: "white to move" in text_of(driver, "status"),
               "white to move again")


def drag(driver, source, target):
    """Drags the element `source` finds onto the one `target` finds (both found afresh)."""
    retried(lambda: ActionChains(driver).click_and_hold(source()).pause(0.1)
            .move_to_element(target()).pause(0.1).release().perform())


def drag_to_move(driver, url):
    driver.get(f"{url}play/chess?black=random&seed=2")
    wait_for(driver, "#board [data-square]", 64)
    drag(driver, lambda: square(driver, "g1").find_element(By.CSS_SELECTOR, "[data-piece]"),
         lambda: square(driver, "f3"))
    listed = wait_moves(driver, 2)
    assert listed[0] == ("Nf3", "g1f3"), listed
    assert piece_on(driver, "f3") == ("N", "white")
    assert piece_on(driver, "g1") is None
    # A piece dropped where it cannot go goes back; click-click still works after a drag.
    wait_until(lambda: "white to move" in text_of(driver, "status"),
               "white to move again")
    drag(driver, lambda: square(driver, "a2").find_element(By.CSS_SELECTOR, "[data-piece]"),
         lambda: square(driver, "a6"))
    time.sleep(0.5)
    assert piece_on(driver, "a2") == ("P", "white") and len(moves(driver)) == 2, moves(driver)
    click_square(driver, "d2")
    click_square(driver, "d4")
    assert wait_moves(driver, 4)[2] == ("d4", "d2d4"), moves(driver)


def takeover_has_41_squares(driver, url):
    driver.get(f"{url}play/takeover-chess")
    assert len(wait_for(driver, "#board [data-square]", 41)) == 41
    time.sleep(0.3)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board [data-square]")) == 41


def kingdrops_setup_by_drops(driver, url):
    driver.get(f"{url}play/kingdrops")
    king = '#board [data-pocket][data-owner="white"] [data-piece="K"]'
    wait_for(driver, king)
    retried(lambda: driver.find_element(By.CSS_SELECTOR, king).click())
    wait_for(driver, "#board g.target", 1)
    click_square(driver, "e1")
    assert wait_moves(driver, 1)[0][0] == "K@e1", moves(driver)
    assert piece_on(driver, "e1") == ("K", "white")
    # The next piece is dragged from the pocket.
    queen = '#board [data-pocket][data-owner="white"] [data-piece="Q"]'
    wait_for(driver, queen)
    drag(driver, lambda: driver.find_element(By.CSS_SELECTOR, queen), lambda: square(driver, "d1"))
    assert wait_moves(driver, 2)[1][0] == "Q@d1", moves(driver)
    assert piece_on(driver, "d1") == ("Q", "white")


def cooperative_chess_three_colours_and_reds_policy(driver, url):
    driver.get(f"{url}play/cooperative-chess")
    wait_for(driver, "#board [data-square]", 64)
    # Each side's pieces and the fill they are drawn in.
    colours = driver.execute_script(
        "const found = {};"
        "for (const p of document.querySelectorAll('#board [data-square] [data-piece]'))"
        "  found[p.dataset.side] = p.querySelector('[fill]').getAttribute('fill');"
        "return found;")
    assert set(colours) == {"white", "black", "red"}, colours
    assert len(set(colours.values())) == 3, colours
    click_square(driver, "a2")
    click_square(driver, "a3")
    # Red's policy moves by itself; the page shows its rule and dice.
    policy = wait_until(lambda: text_of(driver, "policy"), "Red's policy")
    assert policy.startswith("red's policy: rule"), policy
    assert "dice" in policy, policy
    listed = wait_moves(driver, 2)
    assert listed[0][1] == "a2a3", listed


def cheversi_finished_shows_scores_and_result(driver, url):
    driver.get(f"{url}play/cheversi?white=random&black=random&seed=3")
    status = wait_until(
        lambda: (lambda t: t if t.startswith("Result:") else None)(
            text_of(driver, "status")), "the result", seconds=60)
    scores = {side: int(score) for side, score in driver.execute_script(
        "return [...document.querySelectorAll('#scores [data-side]')]"
        ".map(e => [e.dataset.side, e.dataset.score]);")}
    assert set(scores) == {"white", "black"}, scores
    assert sum(scores.values()) > 0, scores
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board [data-control]")) > 0
    print(f"  cheversi: {status}; scores {scores}")


def saved_record_loads_back(driver, url):
    driver.get(f"{url}play/chess?black=random&seed=4")
    wait_for(driver, "#board [data-square]", 64)
    click_square(driver, "d2")
    click_square(driver, "d4")
    before = wait_moves(driver, 2)
    saved = driver.find_element(By.ID, "save").get_attribute("href")
    record = urllib.request.urlopen(saved).read().decode()
    assert "[GameFile" in record, record
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as file:
        file.write(record)
    try:
        driver.get(f"{url}play/chess")
        wait_for(driver, "#board [data-square]", 64)
        assert moves(driver) == []
        driver.find_element(By.ID, "load").send_keys(file.name)
        wait_until(lambda: moves(driver) == before, f"the moves {before} loaded back")
    finally:
        os.unlink(file.name)
    assert piece_on(driver, "d4") == ("P", "white")
    assert "session=" in driver.current_url, driver.current_url


def thinking_shown_and_stopped(driver, url, player="search:10s", progress="depth"):
    """Black (`player`) shows its progress (the `data-PROGRESS` mark and the word) while it
    thinks, and the stop button makes it move at once."""
    driver.get(f"{url}play/chess?black={player}")
    wait_for(driver, "#board [data-square]", 64)
    click_square(driver, "e2")
    click_square(driver, "e4")
    wait_for(driver, f"#thinking[data-{progress}]")
    assert progress in text_of(driver, "thinking"), text_of(driver, "thinking")
    stop = driver.find_element(By.ID, "stop")
    assert stop.is_displayed()
    asked = time.time()
    stop.click()
    wait_moves(driver, 2)
    assert time.time() - asked < 4, f"{player} moved at once when stopped"
    assert "black played" in text_of(driver, "thinking")


def mcts_thinking_shown_and_stopped(driver, url):
    thinking_shown_and_stopped(driver, url, player="mcts:10s", progress="playouts")


def every_game_plays(driver, url):
    """Each game the server lists opens on its own page with all its squares and no error, and
    plays: every side `random`, the page shows the computers' first two moves."""
    import json
    games = json.loads(urllib.request.urlopen(f"{url}api/games").read())
    assert len(games) >= 14, [game["name"] for game in games]
    for game in games:
        players = "&".join(f"{side}=random" for side in game["sides"])
        driver.get(f"{url}play/{game['name']}?{players}&seed=1")
        squares = game["board"]["squares"]
        found = wait_for(driver, "#board [data-square]", squares)
        assert len(found) == squares, (game["name"], len(found), squares)
        wait_until(lambda: text_of(driver, "title") == game["title"],
                   f"{game['name']}'s title {game['title']!r}")
        wait_moves(driver, 2)
        assert text_of(driver, "error") == "", (game["name"], text_of(driver, "error"))


SCENARIOS = [
    ("chess-against-random", chess_against_random),
    ("drag-to-move", drag_to_move),
    ("takeover-41-squares", takeover_has_41_squares),
    ("kingdrops-drops", kingdrops_setup_by_drops),
    ("cooperative-chess", cooperative_chess_three_colours_and_reds_policy),
    ("cheversi-finished", cheversi_finished_shows_scores_and_result),
    ("record-loads-back", saved_record_loads_back),
    ("thinking-and-stop", thinking_shown_and_stopped),
    ("mcts-thinking-and-stop", mcts_thinking_shown_and_stopped),
    ("every-game-plays", every_game_plays),
]

if __name__ == "__main__":
    main()
