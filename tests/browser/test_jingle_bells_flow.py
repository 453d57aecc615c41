"""Jingle Bells in three browser contexts: two players and a spectator, from the lobby to the result.

``make test`` plays until both players have moved and someone has thrown, then Ben resigns;
``make test-full-games`` (``SNOWBALL_FULL_GAME_FLOWS``) plays on until a snowman loses its head.

Both players are driven only through what the page offers: pick buttons, clicks on the table to
set up and to move (the point is worked out from the board's own data, then clicked with the
mouse), the number inputs for the keyboard path, dice buttons for the re-roll and the
allocation, throw and reaction buttons. The spectator only watches, and must never see a
sealed allocation.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.browser.conftest import (
    FULL_GAME_FLOWS, as_guest, create_table, live_version, resign, script_errors_of, sit_down,
)

pytestmark = [pytest.mark.browser, pytest.mark.live]

# A destination inside the Move ring that the page itself accepts (the same check the board
# uses for its feedback, with a margin for whole-pixel clicks), best first: in range of the
# enemy snowman with a clear line to it, else as close to it as possible.
AIM_JS = """
() => {
  const m = JingleBells.state().move;
  if (!m) return null;
  const a = m.action, c = a.center;
  const pieces = JSON.parse(document.getElementById('jb-pieces').textContent);
  const seat = +document.getElementById('jb-board').dataset.seat;
  const target = 'snowman' + (1 - seat), snow = pieces[target].pos;
  const d = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);
  const ok = p => [[0, 0], [0.2, 0], [-0.2, 0], [0, 0.2], [0, -0.2]].every(
    e => !JingleBells.moveProblem(a, [p[0] + e[0], p[1] + e[1]]));
  const inside = (q, pts) => pts.every((v, i) => {
    const w = pts[(i + 1) % pts.length];
    return (w[0] - v[0]) * (q[1] - v[1]) - (w[1] - v[1]) * (q[0] - v[0]) >= 0;
  }) || pts.every((v, i) => {
    const w = pts[(i + 1) % pts.length];
    return (w[0] - v[0]) * (q[1] - v[1]) - (w[1] - v[1]) * (q[0] - v[0]) <= 0;
  });
  const clear = p => {
    const n = Math.ceil(d(p, snow) / 0.2);
    for (let i = 1; i < n; i++) {
      const q = [p[0] + (snow[0] - p[0]) * i / n, p[1] + (snow[1] - p[1]) * i / n];
      for (const s of a.must_avoid) {
        if (s.id === target) continue;
        if (s.kind === 'circle' ? d(q, s.center) < s.radius - a.piece_radius + 0.05 : inside(q, s.points)) return false;
      }
    }
    return true;
  };
  const base = Math.atan2(snow[1] - c[1], snow[0] - c[0]);
  let best = null;
  for (const r of [8.4, 7, 5.5, 4, 2.5, 1.2]) {
    for (let k = -12; k <= 12; k++) {
      const ang = base + k * Math.PI / 12;
      const p = [c[0] + r * Math.cos(ang), c[1] + r * Math.sin(ang)];
      if (!ok(p)) continue;
      const score = (d(p, snow) <= 17 && clear(p) ? 100 : 0) - d(p, snow);
      if (!best || score > best.score) best = {score: score, p: p};
    }
  }
  return best && {p: best.p, screen: JingleBells.toScreen(best.p[0], best.p[1])};
}
"""

# What a player can do now, read from the page: the kind of decision and the buttons.
STATE_JS = """
() => {
  const b = document.getElementById('jb-board');
  if (!b) return {phase: null};
  const q = s => document.querySelector(s);
  return {
    phase: b.dataset.phase, seat: b.dataset.seat, prompt: b.dataset.prompt,
    version: document.getElementById('live').dataset.version,
    reaction: !!q('.jb-reaction'), pick: !!q('.jb-pick'), deploy: !!q('[data-jb-deploy-panel]'),
    dice: (q('[data-jb-dice]') || {dataset: {}}).dataset.stage || null,
    turn: !!q('.jb-turn'), followup: b.dataset.followup, ret: !!q('[data-jb-return]'),
    result: !!q('.result'),
  };
}
"""




def _wait_new_version(page, old: str, timeout: float = 4000) -> bool:
    try:
        page.wait_for_function(f"document.getElementById('live').dataset.version !== '{old}'", timeout=timeout)
        return True
    except PlaywrightError:
        return False


def _click_table(page, x: float, y: float) -> None:
    point = page.evaluate(f"JingleBells.toScreen({x}, {y})")
    page.mouse.click(point["x"], point["y"])


class Driver:
    """Plays one seat by clicking; counts what it did for the assertions."""

    def __init__(self, page, name: str, *, keyboard: bool = False):
        # keyboard: set up and move by keyboard (typed positions, arrow keys) instead of the pointer
        self.page, self.name, self.keyboard = page, name, keyboard
        self.done: dict[str, int] = {}

    def count(self, what: str) -> None:
        self.done[what] = self.done.get(what, 0) + 1

    def send(self, target) -> None:
        """The click that sends the action: the version is noted just before it, to wait for the next."""
        self.before = live_version(self.page)
        if isinstance(target, str):
            self.page.click(target)
        else:
            target.click()

    def step(self) -> str | None:
        """Take one decision if the page asks for one; the kind of decision, or None."""
        page = self.page
        s = page.evaluate(STATE_JS)
        if s["result"] or not s["phase"]:
            return None
        self.before = s["version"]
        if s["reaction"]:
            what = self.react()
        elif s["pick"]:
            self.send(page.locator(".jb-pick").first)
            what = "pick"
        elif s["deploy"]:
            what = self.deploy(int(s["seat"]))
        elif s["dice"] == "reroll":
            page.locator("[data-jb-reroll-die]").nth(0).click()
            page.locator("[data-jb-reroll-die]").nth(1).click()
            expect(page.locator("[data-jb-reroll]")).to_have_text("Re-roll 2 dice")
            self.send("[data-jb-reroll]")
            what = "reroll"
        elif s["dice"] == "allocate":
            what = self.allocate()
        elif s["turn"]:
            what = self.turn(s)
        elif s["ret"]:
            what = self.come_back()
        else:
            return None
        if what:
            self.count(what)
            _wait_new_version(page, self.before)
        return what

    def react(self) -> str:
        """Dodge, or let Robert jump in, once each; after that take the hits (shorter games)."""
        page = self.page
        for kind, selector in (("dodge", ".jb-b-dodge"), ("intercept", ".jb-b-robert"), ("take", ".jb-b-take")):
            if page.locator(selector).count() and (kind == "take" or not self.done.get(kind)):
                self.send(page.locator(selector).first)
                return kind
        raise AssertionError("a reaction panel without an answer")

    def deploy(self, seat: int) -> str:
        page = self.page
        x = 5.0 if seat == 0 else 45.0
        if self.keyboard:  # the keyboard path: type the snowman's position, then Place
            page.fill("[data-jb-deploy-panel] [data-jb-x]", str(x))
            page.fill("[data-jb-deploy-panel] [data-jb-y]", "14")
            page.click("[data-jb-place-here]")
        else:  # the pointer path: click the snowman's spot, then move one character round it
            _click_table(page, x, 16.0)
            names = page.evaluate("[...document.querySelectorAll('[data-jb-place]')].map(b => b.dataset.jbPlace)")
            page.click(f"[data-jb-place={names[1]}]")
            _click_table(page, x + (-1 if seat == 0 else 1) * 0.5, 12.0)
        if page.locator("[data-jb-deploy-send]").is_disabled():
            page.click("[data-jb-example]")
        expect(page.locator("[data-jb-deploy-send]")).to_be_enabled()
        self.send("[data-jb-deploy-send]")
        return "deploy"

    def allocate(self) -> str:
        page = self.page
        rows = page.evaluate("[...document.querySelectorAll('[data-jb-arow]')].map(e => e.dataset.jbArow)")
        for name in rows:
            for _ in range(2 - page.locator(f"[data-jb-slots={name}] .jb-slot").count()):
                page.locator("[data-jb-pool-die]").first.click()
                page.click(f"[data-jb-put={name}]")
        expect(page.locator("[data-jb-lock]")).to_be_enabled()
        self.send("[data-jb-lock]")
        return "allocate"

    def turn(self, s: dict) -> str:
        page = self.page
        # throws and card Actions first, the snowman before anyone else
        throws = page.evaluate("""() => [...document.querySelectorAll('.jb-turn .jb-b-throw, .jb-turn .jb-b-ability')]
            .map((b, i) => ({i, los: b.dataset.los || '', snow: (b.dataset.los || '').includes('snowman'),
                             who: (b.closest('.jb-char') || {dataset: {}}).dataset.char || null}))""")
        if throws:
            best = sorted(throws, key=lambda t: not t["snow"])[0]
            if best["who"]:
                page.click(f".jb-char[data-char={best['who']}] .jb-char-head")
            button = page.locator(".jb-turn .jb-b-throw, .jb-turn .jb-b-ability").nth(best["i"])
            button.hover()  # pointing at a throw draws its line of sight
            expect(page.locator("#jb-over line.jb-los")).not_to_have_count(0)
            self.send(button)
            return "throw"
        moves = page.evaluate("[...document.querySelectorAll('.jb-turn [data-jb-move]')].map(b => (b.closest('.jb-char') || {dataset: {}}).dataset.char || null)")
        if moves:
            if moves[0]:
                page.click(f".jb-char[data-char={moves[0]}] .jb-char-head")
                page.locator(f".jb-char[data-char={moves[0]}] [data-jb-move]").first.click()
            aim = page.evaluate(AIM_JS)
            if aim:
                expect(page.locator("#jb-under .jb-ring-move.is-active")).to_have_count(1)
                self.before = live_version(page)
                if not self.keyboard:  # the pointer: aim, see the marker, click
                    page.mouse.move(aim["screen"]["x"], aim["screen"]["y"])
                    expect(page.locator("#jb-over .jb-ghost")).to_have_count(1)
                    page.mouse.click(aim["screen"]["x"], aim["screen"]["y"])
                    return "move"
                if not self.done.get("arrow-move"):  # the keyboard, once: arrow keys on the table, then Enter
                    self.count("arrow-move")
                    page.focus("#jb-table")
                    for _ in range(4):
                        page.keyboard.press("ArrowLeft" if page.evaluate("+document.getElementById('jb-board').dataset.seat") else "ArrowRight")
                    expect(page.locator("#jb-over .jb-ghost")).to_have_count(1)
                    page.keyboard.press("Enter")
                    if _wait_new_version(page, self.before, timeout=1500):
                        return "move"
                    if not page.locator("[data-jb-moveedit]:not([hidden])").count():
                        return None
                page.fill("[data-jb-moveedit] [data-jb-x]", f"{aim['p'][0]:.2f}")  # typed, then Enter
                page.fill("[data-jb-moveedit] [data-jb-y]", f"{aim['p'][1]:.2f}")
                page.press("[data-jb-moveedit] [data-jb-y]", "Enter")
                return "move"
        for selector in (".jb-turn button:has-text('skip')", ".jb-turn button:has-text('Stay where')",
                         ".jb-turn button:has-text('Pass')"):
            if page.locator(selector).count():
                self.send(selector)
                return "pass"
        return "stuck"

    def come_back(self) -> str:
        page = self.page
        spot = page.evaluate("""() => { const r = JSON.parse(document.getElementById('jb-legal').textContent)
                                 .find(a => a.type === 'return'); return [r.x, r.example_y]; }""")
        if spot[1] is not None:
            self.before = live_version(page)
            _click_table(page, spot[0], spot[1])
            if _wait_new_version(page, self.before, timeout=1500):
                return "return"
        self.send(page.locator("[data-jb-send*=return]").first)
        return "return"


def test_two_players_and_a_spectator_play_jingle_bells_to_the_result(browser, live_server_proc, shot):
    base = live_server_proc.url
    ana = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    ben = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    eve = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors = script_errors_of(ana, ben, eve, timeout_ms=5000)

    as_guest(ana, base + "/", "Ana")
    expect(ana.locator(".who")).to_contain_text("Ana")
    game_url = create_table(ana, "jingle-bells", opt_layout="random")
    game_id = re.search(r"/games/(\d+)/", game_url).group(1)

    ben.goto(base + "/")
    expect(ben.locator("#lobby-lists")).to_contain_text(f"#{game_id}")
    sit_down(ben, game_url, "Ben", host=ana)
    ben.click("#start-game")

    eve.goto(game_url)
    expect(eve.locator(".spectating")).to_be_visible()
    for page in (ana, ben, eve):
        expect(page.locator("#connection")).to_contain_text("Connected")
        expect(page.locator("#jb-board .jb-draft")).to_be_visible()
    expect(eve.locator(".jb-pick")).to_have_count(0)
    expect(ana.locator(".jb-card")).to_have_count(6)
    expect(ana.locator(".jb-card[data-card=Robert]")).to_contain_text("Dodge")
    shot(ana if ana.locator(".jb-pick").count() else ben, "jb-01-draft-player")
    shot(eve, "jb-01-draft-spectator")

    # Ben asks to dodge automatically; the setting is his alone
    ben.click(".jb-toggle")
    expect(ben.locator(".jb-toggle")).to_have_attribute("aria-checked", "true")
    expect(ana.locator(".jb-toggle")).to_have_attribute("aria-checked", "false")
    expect(eve.locator(".jb-toggle")).to_have_count(0)

    drivers = [Driver(ana, "Ana"), Driver(ben, "Ben", keyboard=True)]
    shots_taken: set[str] = set()
    sealed_checked = False
    to_the_end = FULL_GAME_FLOWS
    for _ in range(1500):
        if all(d.page.locator(".result").count() for d in drivers):
            break
        if not to_the_end and sealed_checked and all(d.done.get("move") for d in drivers) \
                and "throws a snowball at" in eve.locator("#log-lines").inner_text():
            break
        progressed = False
        for d in drivers:
            phase = d.page.locator("#jb-board").get_attribute("data-phase") if d.page.locator("#jb-board").count() else None
            if phase and phase not in shots_taken and phase != "draft":
                shots_taken.add(phase)
                shot(d.page, f"jb-02-{phase}-player")
                shot(eve, f"jb-02-{phase}-spectator")
            if d.page.locator(".jb-reaction").count() and "reaction" not in shots_taken:
                shots_taken.add("reaction")
                shot(d.page, "jb-03-reaction-player")
            try:
                what = d.step()
            except (PlaywrightError, AssertionError):
                what = None  # the board changed under the click; look again
            progressed = progressed or bool(what)
            if what == "allocate" and not sealed_checked:
                # one side has locked, the other has not: the allocation is still sealed
                other = drivers[1 - drivers.index(d)]
                if other.page.locator("[data-jb-dice][data-stage=allocate], [data-jb-dice][data-stage=reroll]").count():
                    sealed_checked = True
                    expect(eve.locator(".jb-team .jb-locked")).to_have_count(1)
                    for page in (eve, other.page):
                        assert "revealed" not in page.locator(".jb-teams").inner_text().lower()
                        pieces = json.loads(page.locator("#jb-pieces").text_content())
                        assert all(not p["dice"] for p in pieces.values())
                    shot(d.page, "jb-02-dice-locked-player")
                    shot(eve, "jb-02-dice-locked-spectator")
        if not progressed:
            ana.wait_for_timeout(120)

    if not to_the_end:
        resign(ben)
    for page in (ana, ben, eve):
        expect(page.locator(".result")).to_be_visible(timeout=10000)
    shot(ana, "jb-04-result-player")
    shot(eve, "jb-04-result-spectator")
    assert sealed_checked
    assert ("lost its head" if to_the_end else "Ben resigned") in ana.locator(".result").inner_text()
    totals = {k: sum(d.done.get(k, 0) for d in drivers) for k in ("pick", "deploy", "allocate", "throw", "move", "arrow-move")}
    assert totals["pick"] == 6 and totals["deploy"] == 2
    assert totals["allocate"] >= 2 and totals["throw"] >= 1 and totals["move"] >= 1, totals
    assert drivers[0].done.get("move") and drivers[1].done.get("move"), "both the pointer and the keyboard moved someone"
    log = eve.locator("#log-lines").inner_text()
    assert "throws a snowball at" in log and (not to_the_end or "cold tokens" in log), log
    assert not errors, errors

    ana.goto(base + "/me/games/")
    expect(ana.locator("table")).to_contain_text(f"#{game_id}")
    for page in (ana, ben, eve):
        page.context.close()
