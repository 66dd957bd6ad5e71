"""Playwright on Debian's chromium (`apt-get install chromium`; no browser download)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).with_name("artifacts")


@pytest.fixture
async def page() -> AsyncIterator[Any]:
    playwright_api = pytest.importorskip("playwright.async_api",
                                         reason="PyPI playwright is not installed")
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is missing (tools/system-packages.sh installs it as "
                    "root)")
    ARTIFACTS.mkdir(exist_ok=True)
    async with playwright_api.async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 900})
            yield await context.new_page()
        finally:
            await browser.close()
