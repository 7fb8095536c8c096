"""Headless Chromium for the page tests (marked slow): where it is, the mark that skips a test where it is
not, and a driver started with the flags every page test uses."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

#: skips a test (or a module, in its ``pytestmark``) where Chromium or its driver is not installed
needs_chromium = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="headless Chromium not installed (apt-get install chromium chromium-driver)")


def chromium(*extra: str) -> Any:
    """A headless Chromium driver (the caller quits it); ``extra``: more command-line flags."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 *extra):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=opts)
