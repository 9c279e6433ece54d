"""The page opens in headless Chromium (Debian's ``chromium``, installed by scripts/setup.sh) with
no console error, and every figure renders: a box of non-zero size whose screenshot is not blank.

Driven with the ``playwright`` package (the dev extra) against the system browser, so no browser
download; the flags keep a closed network from stalling it on connections it would open."""

from __future__ import annotations

import io
import shutil

import pytest

from whileai_env.report import write_report

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _browser_or_fail():
    if shutil.which("chromium") is None:
        pytest.fail("chromium is not installed: run scripts/setup.sh with the dev extra")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: run scripts/setup.sh dev (the dev extra)")
    return sync_playwright


def _drawn(png: bytes) -> bool:
    """Whether a screenshot holds more than one colour (matplotlib decodes the PNG)."""
    import matplotlib.pyplot as plt

    pixels = plt.imread(io.BytesIO(png), format="png")
    return pixels.shape[0] > 0 and pixels.shape[1] > 0 and float(pixels.std()) > 0.0


@pytest.fixture(scope="module")
def opened(rows, before, tmp_path_factory):
    """The page's console errors, each figure's size and screenshot, and a full-page screenshot."""
    sync_playwright = _browser_or_fail()
    page_path = write_report(rows, tmp_path_factory.mktemp("report"), before=before)
    profile = tmp_path_factory.mktemp("chromium-profile")
    errors: list[str] = []
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=FLAGS, headless=True, timeout=60_000
        )
        try:
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(page_path.as_uri(), wait_until="load")
            figures = page.locator("figure.chart > svg")
            boxes = [figures.nth(i).bounding_box() for i in range(figures.count())]
            shots = [figures.nth(i).screenshot() for i in range(figures.count())]
            full = page.screenshot(full_page=True)
        finally:
            context.close()
    return {"errors": errors, "boxes": boxes, "shots": shots, "full": full}


def test_no_console_errors(opened):
    assert opened["errors"] == []


def test_every_figure_renders(opened):
    assert len(opened["boxes"]) == 8  # pass@k, 3 breakdowns, 2 coverage maps, hack scan, delta
    for box in opened["boxes"]:
        assert box is not None and box["width"] > 100 and box["height"] > 50
    assert all(_drawn(shot) for shot in opened["shots"])


def test_full_page_screenshot(opened):
    assert opened["full"].startswith(b"\x89PNG") and _drawn(opened["full"])
