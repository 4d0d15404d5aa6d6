"""Screenshots compared with committed baselines (`Tests/e2e/baselines/<name>.png`).

`match_baseline(driver, name)` makes the page still (no animations, transitions or caret; fonts
and images loaded; two frames painted), takes the screenshot, paints the masked regions (MASKS,
TEXT_MASKS) a flat colour, saves it as TEST_OUTPUT/screenshots/<name>.png and compares it with the baseline
pixel by pixel. On a mismatch it writes <name>.diff.png beside it (differing pixels red on a
faded copy of the screenshot, masks blue) and fails naming both files and the share that differs.

Updating the baselines (after a deliberate visual change; review the new images before committing):

    make baselines                       # every browser test, EARSHOT_UPDATE_BASELINES=1
    EARSHOT_UPDATE_BASELINES=1 .venv/bin/python -m pytest Tests/e2e/test_layout.py   # one file

With EARSHOT_UPDATE_BASELINES=1 a baseline is written when it is missing or no longer matches
(one that still matches is left alone, so an update touches only what changed). Without it a
missing baseline fails the test and says how to make one.
"""

import io
import math
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from conftest import REPO, SCREENSHOTS, command, wait_until

BASELINES = REPO / "Tests" / "e2e" / "baselines"
UPDATE = os.environ.get("EARSHOT_UPDATE_BASELINES", "") not in ("", "0")

# Tolerances. Headless Chromium on one machine draws the same still page the same way run after
# run: over repeated runs of every test here (on 2 cores, also under a parallel Swift build) the
# masked screenshots differed from their baselines by at most 2 pixels (the bottom edge of the
# mini-player's 48 px artwork, resampled), by at most 16 pixels counting any change at all.
# The numbers leave room for what another Chromium build or rasteriser does to anti-aliased
# edges, and still catch a changed colour, a missing icon, a new line of text, a box that moved:
# - CHANNEL_TOLERANCE: a pixel differs when one of its channels (R, G, B) differs by more than
#   24 of 255 (about 10 %): anti-aliased edges of text and icons move by a few levels; a real
#   change of a colour (the accent, a background, a border) moves it by much more.
# - MAX_DIFF_RATIO: the screenshot fails when more than 0.1 % of its pixels differ — 1024 pixels
#   of a 1280×800 screenshot, 329 of a 390×844 one: over a hundred times the noise measured,
#   and less than one button of another colour (a 44×44 px target is 1936 pixels).
# - A different size (the viewport, a page that scrolls where it did not) always fails.
CHANNEL_TOLERANCE = 24
MAX_DIFF_RATIO = 0.001

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_NOW = datetime.now(timezone.utc)


def _day(moment):
    """A date as Public/js/core/format.js's dateText writes it: "1 Dec 2026"."""
    return f"{moment.day} {_MONTHS[moment.month - 1]} {moment.year}"


# Regions that change from run to run by nature, painted MASK_COLOUR in the screenshot and the
# baseline alike. MASKS: CSS selectors (every visible match is masked); TEXT_MASKS: JavaScript
# regular expressions (every match in the page's text is masked, nothing around it).
MASKS = {
    # The playing position: the mini-player's "0:04 / 1:06", its progress line, the full player's
    # scrubber (elapsed, remaining, the bar's fill) — they move every half second while playing.
    "playback-clock": ".mini-time, .mini-progress, .scrubber",
    # The transcript of the loaded episode (episode page, full player): its marked cue and its scroll
    # follow the playing time, cue by cue (the demo's are 1 to 7 s long).
    "transcript-follow": ".transcript.is-live .transcript-box",
    # The sleep timer's countdown (mini-player, the player's button): counts down while playing.
    "sleep-countdown": ".mini-sleep-time, .sleep-button.is-set .sleep-button-label",
    # A download under way: how far it got when the screenshot was taken (the header's aggregate
    # and ring, a row's ring, the Downloads view's summary, status line and bar).
    "download-progress": ".header-downloads.is-running .header-downloads-ring, .header-downloads-progress, "
                         ".downloads-summary, .download-button[data-state=downloading] .download-ring, "
                         ".download-row:not([data-state=done]):not([data-state=failed]) .download-status, "
                         ".download-row .download-progress",
    # Pairing: a random code, its QR code, the address it names (the test network's and the
    # server's random port) and its countdown.
    "pairing-code": ".devices-qr, .devices-code, .devices-url, .devices-countdown",
    # Refresh all under way: how many feeds are done ("Refreshing 3 of 6…") and its bar.
    "refresh-progress": ".refresh-text, .refresh-progress",
}
TEXT_MASKS = {
    # A port in a URL: the test servers listen on random ports ("127.0.0.1:33657").
    "port": r"(?<=(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|\]):)\d{2,5}\b",
    # "Checked just now", "5 min ago": how long ago, relative to the clock.
    "ago": r"\b(?:just now|\d+ min ago|\d+ h ago|yesterday|\d+ days ago)\b",
    # Today's date as the page writes dates ("1 Dec 2026", UTC; the day before and after too, for
    # a run across midnight): when something finished downloading, when a device was paired.
    "today": r"\b(?:%s)\b" % "|".join(_day(_NOW + timedelta(days=n)) for n in (-1, 0, 1)),
}
MASK_COLOUR = (255, 0, 255)

# Still: no animation (spinners, the equalizer, toasts sliding in), no transition (a ring or a
# bar easing to its value), no blinking caret; where scrollbars are overlays (a phone), none at all:
# they take no room, and they flash in after a scroll and fade out on their own clock. A
# constructed stylesheet: the page's CSP (style-src 'self') refuses a <style> element, not this.
_STILL = """
    const done = arguments[arguments.length - 1];
    if (!document.__earshotStill) {
      const still = new CSSStyleSheet();
      still.replaceSync('*, *::before, *::after { animation: none !important; transition: none !important;'
        + ' caret-color: transparent !important; }');
      const scrollbars = new CSSStyleSheet();
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, still, scrollbars];
      document.__earshotStill = scrollbars;
    }
    // Overlay scrollbars or not: the viewport may have changed since the last screenshot.
    const probe = document.createElement('div');
    Object.assign(probe.style, {position: 'absolute', top: '-200px', width: '100px', height: '100px', overflow: 'scroll'});
    document.body.append(probe);
    const overlay = probe.offsetWidth === probe.clientWidth;
    probe.remove();
    document.__earshotStill.replaceSync(overlay ? '* { scrollbar-width: none !important; }' : '');
    const images = [...document.images].filter((img) => !img.complete && img.getClientRects().length);
    Promise.race([
      Promise.all([document.fonts.ready,
                   ...images.map((img) => new Promise((resolve) => {
                     img.addEventListener('load', resolve, {once: true});
                     img.addEventListener('error', resolve, {once: true});
                   }))]),
      new Promise((resolve) => setTimeout(resolve, 5000)),
    ]).then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
"""

_MASK_RECTS = """
    const [masks, textMasks] = arguments;
    const rects = [];
    const add = (name, list) => {
      for (const r of list) if (r.width > 0 && r.height > 0) rects.push([name, r.left, r.top, r.right, r.bottom]);
    };
    for (const [name, selector] of Object.entries(masks)) {
      for (const el of document.querySelectorAll(selector)) add(name, el.getClientRects());
    }
    const patterns = Object.entries(textMasks).map(([name, source]) => [name, new RegExp(source, 'g')]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const [name, pattern] of patterns) {
        for (const match of node.data.matchAll(pattern)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          add(name, range.getClientRects());
        }
      }
    }
    return [rects, window.devicePixelRatio || 1];
"""


def rewind(driver, server, to=1):
    """While an episode plays: back to `to` seconds (still playing) before a page load or a
    screenshot, so that for the next few seconds the chapter shown (the mini-player's line, the
    chapter list's current row), the stored position (a seek stores it; rows draw their progress
    from it) and what the queue shows are the same in every run, however slow the run was until
    then. The clock itself is masked (MASKS["playback-clock"]). `driver` must be on one of the
    server's pages."""
    reply = command(driver, "seek", to=to)
    assert reply["type"] == "ack", reply
    wait_until(lambda: server.state()["position"] < to + 3, message=f"the position back at {to} s")
    # The page follows the server's state push (its clock, masked in the screenshot, says where it is).
    wait_until(lambda: driver.execute_script("""
        const time = document.querySelector('#mini-player .mini-time')?.textContent ?? '';
        const [m, s] = time.split(' ')[0].split(':').map(Number);
        return m * 60 + s < arguments[0];""", to + 3), message="the page to show the rewound position")


def stabilize(driver):
    """Makes the page still (see _STILL); returns when fonts and images are in and painted."""
    driver.execute_async_script(_STILL)


MASK_MARGIN = 2  # pixels around each masked box: what overflows it (a slider thumb's shadow, anti-aliasing)


def mask_rects(driver):
    """[(mask name, (left, top, right, bottom) in screenshot pixels)] of every visible masked element."""
    rects, scale = driver.execute_script(_MASK_RECTS, MASKS, TEXT_MASKS)
    return [(name, (math.floor(left * scale) - MASK_MARGIN, math.floor(top * scale) - MASK_MARGIN,
                    math.ceil(right * scale) + MASK_MARGIN, math.ceil(bottom * scale) + MASK_MARGIN))
            for name, left, top, right, bottom in rects]


def paint_masks(image, rects):
    draw = ImageDraw.Draw(image)
    for _, (left, top, right, bottom) in rects:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=MASK_COLOUR)
    return image


def difference(actual, expected):
    """(pixels that differ, their share, a mask image of them) for two RGB images of one size."""
    delta = ImageChops.difference(actual, expected)
    # A pixel differs when its largest channel difference is over the tolerance.
    channels = delta.split()
    largest = channels[0]
    for channel in channels[1:]:
        largest = ImageChops.lighter(largest, channel)
    differing = largest.point(lambda v: 255 if v > CHANNEL_TOLERANCE else 0)
    count = differing.histogram()[255]
    return count, count / (actual.width * actual.height), differing


def diff_image(actual, differing, rects):
    """The screenshot faded to grey, differing pixels red, masked regions blue."""
    faded = Image.blend(actual.convert("L").convert("RGB"), Image.new("RGB", actual.size, (255, 255, 255)), 0.6)
    faded.paste((0, 90, 255), mask=_mask_layer(actual.size, rects))
    faded.paste((255, 0, 0), mask=differing)
    return faded


def _mask_layer(size, rects):
    layer = Image.new("L", size, 0)
    draw = ImageDraw.Draw(layer)
    for _, (left, top, right, bottom) in rects:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=255)
    return layer


def match_baseline(driver, name):
    """Screenshot of `driver`'s viewport as `name` (".png" optional), compared with its baseline."""
    name = name[:-4] if name.endswith(".png") else name
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot_path, diff_path = SCREENSHOTS / f"{name}.png", SCREENSHOTS / f"{name}.diff.png"
    baseline_path = BASELINES / f"{name}.png"
    diff_path.unlink(missing_ok=True)

    stabilize(driver)
    rects = mask_rects(driver)
    actual = paint_masks(Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB"), rects)
    actual.save(shot_path)

    if not baseline_path.exists():
        if UPDATE:
            return _write_baseline(actual, baseline_path, "new")
        raise AssertionError(
            f"no baseline for screenshot {name!r}: {_show(baseline_path)} is missing (this run's screenshot: "
            f"{shot_path}). Look at the screenshot, then create the baseline with `make baselines` or "
            f"EARSHOT_UPDATE_BASELINES=1 .venv/bin/python -m pytest <this test file>, and commit it.")
    with Image.open(baseline_path) as stored:
        expected = stored.convert("RGB")
    if expected.size != actual.size:
        if UPDATE:
            return _write_baseline(actual, baseline_path, f"size {expected.size} → {actual.size}")
        raise AssertionError(
            f"screenshot {name!r} is {actual.size[0]}×{actual.size[1]} px, its baseline "
            f"{expected.size[0]}×{expected.size[1]}: {shot_path} vs {_show(baseline_path)}. "
            f"If the change is intended, update the baselines (EARSHOT_UPDATE_BASELINES=1 or `make baselines`).")
    count, ratio, differing = difference(actual, expected)
    if ratio <= MAX_DIFF_RATIO:
        return ratio
    if UPDATE:
        return _write_baseline(actual, baseline_path, f"{ratio:.3%} differed")
    diff_image(actual, differing, rects).save(diff_path)
    raise AssertionError(
        f"screenshot {name!r} differs from its baseline in {count} of {actual.width * actual.height} pixels "
        f"({ratio:.3%}; at most {MAX_DIFF_RATIO:.1%} may differ by more than {CHANNEL_TOLERANCE}/255): "
        f"this run {shot_path}, baseline {_show(baseline_path)}, differences in red: {diff_path}. "
        f"If the change is intended, update the baselines (EARSHOT_UPDATE_BASELINES=1 or `make baselines`).")


def _write_baseline(image, path, why):
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
    print(f"baseline written: {_show(path)} ({why})")
    return 0.0


def _show(path):
    try:
        return str(Path(path).relative_to(REPO))
    except ValueError:
        return str(path)
