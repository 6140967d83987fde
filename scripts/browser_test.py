#!/usr/bin/env python3
"""Plays each of the five games on the `shishi serve` page in headless Chromium by clicking,
as a person would, and saves screenshots (scripts/browser_test.sh starts the server and
installs what this needs).

Usage: browser_test.py URL OUTDIR

For every game the script picks one of the legal moves the page lists and plays it with the
mouse: the piece, then (a Lion's double move) the middle square, then the target; a drop by
clicking the piece in hand and then the square; the promotion question and the buttons for
pass, card, roll and the Madness's promotion when they appear. Shogammon and the Central
Madness are played to a finished result; shogi to its end or 120 moves; Chu Shogi and Chu
Kagamigi for 30 moves, then the person resigns (a finished result as well). Each game
leaves an opening and an end screenshot. Then a Madness game set up through the API is won
by a card whose slide takes the king, and the board must show the gold on the king's square
(madness-king-taken.png). Exits non-zero on any failure.
"""

import random
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

GAMES = [
    # variant, side, moves before resigning (None: play to the end)
    ("shogi", "sente", 120),
    ("chushogi", "sente", 30),
    ("chukagamigi", "gote", 30),
    ("shogammon", "sente", None),
    ("madness", "sente", None),
]


def make_driver(profile):
    options = Options()
    for flag in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
    ]:
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def state(driver):
    return driver.execute_script("return game;")


def wait(driver, predicate, what, limit=60.0):
    start = time.time()
    while time.time() - start < limit:
        s = state(driver)
        if s is not None and predicate(s):
            return s
        time.sleep(0.02)
    raise RuntimeError(f"timed out waiting for {what}: {state(driver)}")


def my_turn_or_over(s):
    return s["your_turn"] or s["result"] is not None


def click(driver, selector):
    """Clicks the element `selector` finds, finding it again if the page redrew it."""
    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise RuntimeError(f"{selector} kept changing under the mouse")


def square(driver, name):
    return f'rect[data-square="{name}"]'


def parse(text):
    """(from, mid, to, promote) or ('drop', letter, to) or ('special', text)."""
    import re

    m = re.match(r"^(\d{1,2}[a-l])(\d{1,2}[a-l])(\d{1,2}[a-l])?(\+)?$", text)
    if m:
        if m.group(3):
            return ("move", m.group(1), m.group(2), m.group(3), bool(m.group(4)))
        return ("move", m.group(1), None, m.group(2), bool(m.group(4)))
    m = re.match(r"^([A-Z])\*(\d{1,2}[a-l])$", text)
    if m:
        return ("drop", m.group(1), m.group(2))
    return ("special", text)


def click_move(driver, text):
    """Plays `text` with the mouse; returns once the page has sent it."""
    before = state(driver)["version"]
    kind = parse(text)
    if kind[0] == "special":
        click(driver, f'#actions button[data-move="{text}"]')
    elif kind[0] == "drop":
        _, letter, to = kind
        click(driver, f'#hand-bottom .piece.can-drop[data-piece="{letter}"]')
        click(driver, square(driver, to))
    else:
        _, frm, mid, to, promote = kind
        click(driver, square(driver, frm))
        if mid:
            click(driver, square(driver, mid))
            click(driver, square(driver, to))
        else:
            click(driver, square(driver, to))
            # The target is also a Lion's first step: a second click there stops the move.
            if driver.execute_script("return selection && selection.mid;"):
                click(driver, square(driver, to))
        dialog = driver.find_element(By.ID, "promotion")
        if dialog.is_displayed():
            driver.find_element(By.ID, "promote-yes" if promote else "promote-no").click()
    s = wait(driver, lambda s: s["version"] != before, f"the page to play {text}", 10)
    error = driver.find_element(By.ID, "error")
    if error.is_displayed():
        raise RuntimeError(f"{text}: {error.text}")
    return s


def pick(rng, legal, variant):
    # Show the Chu Lion's two-click moves when there are any.
    doubles = [m for m in legal if parse(m)[0] == "move" and parse(m)[2]]
    if variant == "chushogi" and doubles and rng.random() < 0.5:
        return rng.choice(doubles)
    # Head for 5e in the Madness now and then, so cards are played.
    if variant == "madness":
        centre = [m for m in legal if m.endswith("5e")]
        if centre and rng.random() < 0.5:
            return rng.choice(centre)
    return rng.choice(legal)


def play(driver, url, outdir, variant, side, limit, rng):
    driver.get(url)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "mode")).select_by_value("play")
    Select(driver.find_element(By.ID, "side")).select_by_value(side)
    Select(driver.find_element(By.ID, "movetime")).select_by_value("200")
    driver.find_element(By.ID, "new-game").click()
    wait(driver, lambda s: s["variant"] == variant, "the new game")
    moves = 0
    doubles = 0
    while True:
        s = wait(driver, my_turn_or_over, "my turn", 120)
        if s["result"] is not None:
            break
        if limit is not None and moves >= limit:
            before = s["version"]
            driver.find_element(By.ID, "resign").click()
            s = wait(driver, lambda t: t["version"] != before and t["result"] is not None, "resignation")
            break
        text = pick(rng, s["legal"], variant)
        if parse(text)[0] == "move" and parse(text)[2]:
            doubles += 1
        click_move(driver, text)
        moves += 1
        if moves == 6:
            wait(driver, my_turn_or_over, "my turn", 120)
            driver.save_screenshot(f"{outdir}/{variant}-opening.png")
    time.sleep(0.3)
    driver.save_screenshot(f"{outdir}/{variant}-end.png")
    s = state(driver)
    status = driver.find_element(By.ID, "status").text
    print(f"{variant}: {moves} moves by clicking ({doubles} two-click Lion moves); {status}")
    if s["result"] is None:
        raise RuntimeError(f"{variant}: no result")
    if limit is None and s["result"]["reason"] == "resignation":
        raise RuntimeError(f"{variant}: should have ended by the rules")
    return s


# Where sente's piece on 5e slides with each card 1-8 (RULES.md section 5.2).
SLIDE_EDGE = ["9e", "9a", "5a", "1a", "1e", "1i", "5i", "9i"]


def api_create(url, body):
    import json
    import urllib.request

    request = urllib.request.Request(
        url.rstrip("/") + "/api/games", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def slide_sfen(king):
    """Sente's gold on 5e, sente's king on 3i (off every slide), gote's king on `king`."""
    rows = [["1"] * 9 for _ in range(9)]
    rows[ord(king[1]) - ord("a")][9 - int(king[0])] = "k"
    rows[4][4] = "G"
    rows[8][6] = "K"
    text = []
    for row in rows:
        line, empty = "", 0
        for ch in row:
            if ch == "1":
                empty += 1
            else:
                line += (str(empty) if empty else "") + ch
                empty = 0
        text.append(line + (str(empty) if empty else ""))
    return "/".join(text) + " b - 1"


# The label of the piece drawn at the centre of square `arguments[0]`, or null.
PIECE_DRAWN_ON = r"""
const rect = document.querySelector(`rect[data-square="${arguments[0]}"]`);
const cx = +rect.getAttribute("x") + +rect.getAttribute("width") / 2;
const cy = +rect.getAttribute("y") + +rect.getAttribute("height") / 2;
for (const g of document.querySelectorAll("#board g.piece")) {
  const m = g.getAttribute("transform").match(/translate\(([-\d.]+),([-\d.]+)\)/);
  if (Math.abs(m[1] - cx) < 1 && Math.abs(m[2] - cy) < 1) return g.textContent;
}
return null;
"""


def madness_king_taken_by_a_slide(driver, url, outdir):
    """A Madness game won by a card whose slide takes the king: the gold is drawn on the
    king's square and nothing on 5e."""
    for seed in range(1, 100):
        card = api_create(url, {"variant": "madness", "seed": seed,
                                "sfen": slide_sfen("9a")})["cards"]["own"]
        if 1 <= card <= 8:
            break
    king = SLIDE_EDGE[card - 1]
    game_id = api_create(url, {"variant": "madness", "seed": seed, "movetime_ms": 200,
                               "sfen": slide_sfen(king)})["id"]
    # A new page, not a new hash on the page open now (which would not load the game).
    driver.get("about:blank")
    driver.get(f"{url.rstrip('/')}/#{game_id}")
    wait(driver, lambda s: s["id"] == game_id and s["your_turn"], "the slide game")
    click_move(driver, f"c:{card}")
    s = wait(driver, lambda s: s["result"] is not None, "the king taken")
    time.sleep(0.3)
    driver.save_screenshot(f"{outdir}/madness-king-taken.png")
    on_king = driver.execute_script(PIECE_DRAWN_ON, king)
    on_centre = driver.execute_script(PIECE_DRAWN_ON, "5e")
    print(f"madness: card {card} slides onto the king on {king}: {on_king!r} drawn there, "
          f"{on_centre!r} on 5e; {s['result']}")
    if on_king not in ("金", "G") or on_centre is not None:
        raise RuntimeError(f"the taking gold is drawn on {king}: {on_king!r}, on 5e: {on_centre!r}")


def main():
    url, outdir = sys.argv[1], sys.argv[2]
    import tempfile

    rng = random.Random(17)
    with tempfile.TemporaryDirectory() as profile:
        driver = make_driver(profile)
        try:
            # Page load as Chromium measures it: navigation start to the load event.
            loads = []
            for _ in range(10):
                driver.get(url)
                wait(driver, lambda s: True, "the first game")
                loads.append(driver.execute_script(
                    "const n = performance.getEntriesByType('navigation')[0];"
                    "return n.loadEventEnd - n.startTime;"))
            loads.sort()
            print(f"page load in Chromium (navigation start to load event), 10 loads: "
                  f"min {loads[0]:.1f} median {(loads[4] + loads[5]) / 2:.1f} max {loads[-1]:.1f} ms")
            for variant, side, limit in GAMES:
                play(driver, url, outdir, variant, side, limit, rng)
            madness_king_taken_by_a_slide(driver, url, outdir)
            # Letters instead of kanji, on a Chu board.
            driver.get(url)
            Select(driver.find_element(By.ID, "variant")).select_by_value("chushogi")
            Select(driver.find_element(By.ID, "style")).select_by_value("letters")
            driver.find_element(By.ID, "new-game").click()
            wait(driver, lambda s: s["variant"] == "chushogi", "the Chu game")
            time.sleep(0.3)
            driver.save_screenshot(f"{outdir}/chushogi-letters.png")
        finally:
            driver.quit()
    print("browser test passed")


if __name__ == "__main__":
    main()
