"""Regenerate the viewer's screenshots in docs/ from the demo replays (headless Chromium).

    python docs/screenshots.py            # needs chromium and chromium-driver, and selenium

Each demo is imported into a fresh in-memory referee, exported as the HTML viewer for one seat, and
opened at a desktop's width and a phone's (390 px, as a phone reports it) at an entry worth seeing.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from referee.export import export  # noqa: E402
from referee.service import Referee  # noqa: E402
from referee.store.memory import MemoryStore  # noqa: E402
from referee.transcript import import_transcript  # noqa: E402

#: (game, transcript, seat, entry for the desktop, entry for the phone)
SHOTS = (
    ("by_all_means", "club-night.txt", "bob", "", "59"),
    ("war_of_shadows", "ember-coast.txt", "anna", "", "72"),
)


def main() -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--force-color-profile=srgb", "--window-size=1280,860"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=opts)
    r = Referee(MemoryStore())
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for game, name, seat, desktop, phone in SHOTS:
                path = os.path.join(ROOT, "replays", game, name)
                with open(path, encoding="utf-8") as fh:
                    mid = import_transcript(r, fh.read(), path, os.path.dirname(path)).match_id
                page = os.path.join(tmp, f"{game}.html")
                with open(page, "w", encoding="utf-8") as fh:
                    fh.write(export(r, mid, "html", seat))
                uri = "file://" + page
                for kind, entry, metrics in (
                    ("desktop", desktop, {"width": 1280, "height": 860, "deviceScaleFactor": 1, "mobile": False}),
                    ("phone", phone, {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}),
                ):
                    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
                    driver.get("about:blank")
                    driver.get(uri + (f"#{entry}" if entry else ""))
                    time.sleep(0.3)
                    out = os.path.join(HERE, f"viewer-{game.replace('_', '-')}-{kind}.png")
                    driver.save_screenshot(out)
                    print(f"wrote {os.path.relpath(out, ROOT)} ({os.path.getsize(out):,} bytes)")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
