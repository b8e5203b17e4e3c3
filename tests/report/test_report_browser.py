"""The report renders in a real browser: headless Chromium (Debian's) driven by Playwright.

Checks: no console errors and no page errors, every image decoded (``naturalWidth > 0``),
the contents links resolve, and a full-page screenshot is a non-empty PNG.  Without
chromium or playwright the test is skipped with the reason — except under CI (``CI=true``),
where that is a failure (as for PostgreSQL in tests/table/conftest.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"the browser test must run in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def find_chromium() -> str | None:
    """Debian's chromium: /usr/bin/chromium, else `chromium`/`chromium-browser` on PATH."""
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    chromium = find_chromium()
    if chromium is None:
        _unavailable("chromium not found; apt-get install chromium")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox"])
        except Exception as exc:  # a broken install, missing libraries...
            _unavailable(f"cannot start {chromium}: {exc}")
        try:
            yield b
        finally:
            b.close()


def test_report_renders_in_chromium(browser, report_file: Path, tmp_path: Path):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    messages: list[tuple[str, str]] = []
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: messages.append((m.type, m.text)))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(report_file.as_uri(), wait_until="load")

    assert errors == []
    assert [m for m in messages if m[0] in ("error", "assert")] == []
    # self-contained: the only request is the file itself (images are data: URIs)
    assert [u for u in requests if not u.startswith(("file:", "data:"))] == []

    images = page.eval_on_selector_all(
        "img",
        "els => els.map(e => ({complete: e.complete, w: e.naturalWidth, h: e.naturalHeight,"
        " src: e.src.slice(0, 22)}))",
    )
    html = report_file.read_text(encoding="utf-8")
    assert len(images) == html.count("<img ") >= 5
    for img in images:
        assert img["complete"] and img["w"] > 0 and img["h"] > 0, img
        assert img["src"] == "data:image/png;base64,"

    assert page.title() == "Demo <results> & more"
    assert page.locator("h1").inner_text() == "Demo <results> & more"
    anchors = page.eval_on_selector_all("nav a", "els => els.map(e => e.hash.slice(1))")
    assert len(anchors) == 3
    for a in anchors:
        assert page.locator(f"section#{a}").count() == 1

    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=True)
    data = shot.read_bytes()
    assert len(data) > 10_000
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    page.close()
