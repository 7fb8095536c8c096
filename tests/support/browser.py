"""Headless Chromium for the page tests (marked slow): where it is, the mark that skips a test where it is
not, a driver started with the flags every page test uses, and the Chromium a test process shares.

Starting Chromium and its driver costs 1-2 s of wall on an idle machine of two cores and 5-10 s under load;
a new tab costs a tenth of that. So a test process (an xdist worker) starts Chromium once and keeps it:
every browser test module borrows it (a fresh tab, a clean window) instead of starting its own. Write a new
browser test like this::

    import pytest

    from support.browser import browser, needs_chromium  # noqa: F401  (browser: the shared fixture)

    pytestmark = [pytest.mark.slow, needs_chromium]

    def test_the_page_fits_a_phone(browser):
        browser.set_window_size(412, 915)     # resize between phone and desktop: no new browser
        browser.get(url)
        wait_until(browser, "return document.body.dataset.loads > 0")   # wait on the page, never sleep

``browser`` (module scope): this process's shared Chromium, in a fresh tab of a window 1280x800, for the
module's tests, which share it as they run one after another (a test that needs a clean page opens
``about:blank`` itself, or calls :func:`reset`). When the module is done its tab is left at ``about:blank``
(a page's event stream ends before the module's server stops) and the Chromium goes back to the pool.

``browsers`` (module scope): ``browsers(n)`` gives ``n`` shared Chromiums (separate processes: separate
cookies, storage and focus), each in a fresh tab, for pages that must run side by side (two seats of a
match following each other). The pool starts only as many as were ever wanted at once.

:func:`shared` is what both fixtures call: the same lease by hand (``with shared(2) as (a, b): ...``), for a
fixture of a module's own (say one that needs other command-line flags: a different set of flags is a
different Chromium, shared among those who ask for it). The pool quits its Chromiums when pytest ends
(``config.add_cleanup``; at exit for a process without pytest). A Chromium that died is started again.
:func:`wait_until` waits on page state (a script returning something true) instead of a fixed sleep, asking the
page over WebDriver every 20 ms; :func:`wait_on_page` waits inside the page, in one round trip, looking again at
each change of the document (what a page that draws as it hears the server waits on).
"""

from __future__ import annotations

import atexit
import contextlib
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

#: skips a test (or a module, in its ``pytestmark``) where Chromium or its driver is not installed
needs_chromium = pytest.mark.skipif(
    not (CHROMIUM and DRIVER), reason="headless Chromium not installed (apt-get install chromium chromium-driver)")

#: the flags of the shared Chromium: nothing in the background fetches anything or updates itself
QUIET = ("--disable-background-networking", "--disable-component-update", "--disable-sync")
#: the window a borrowed Chromium is given (width, height), whatever the last borrower left
WINDOW = (1280, 800)


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


def reset(driver: Any, window: tuple[int, int] = WINDOW) -> None:
    """The driver as a borrower expects it: one fresh tab (what a page injected or emulated in the last one
    is gone with it), at ``about:blank``, in a window of ``window``, no cookies, no waits set, no log."""
    old = driver.window_handles
    driver.switch_to.new_window("tab")
    fresh = driver.current_window_handle
    for handle in old:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(fresh)
    driver.set_window_size(*window)
    driver.implicitly_wait(0)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get_log("browser")  # what earlier pages logged is not this borrower's


def _alive(driver: Any) -> bool:
    try:
        driver.window_handles  # noqa: B018  (a round trip to the driver)
    except Exception:  # noqa: BLE001  (whatever a dead driver raises: it is replaced)
        return False
    return True


class Pool:
    """The Chromiums of one process, by their extra flags; each lent to one borrower at a time."""

    def __init__(self) -> None:
        self._idle: dict[tuple[str, ...], list[Any]] = {}
        self._lent: set[int] = set()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        self.started = 0  # how many Chromiums this process started (the pool's tests read it)

    def take(self, n: int = 1, flags: tuple[str, ...] = QUIET) -> list[Any]:
        """``n`` Chromiums started with ``flags``, none lent to anyone else, each reset (:func:`reset`)."""
        got: list[Any] = []
        try:
            while len(got) < n:
                with self._lock:
                    idle = self._idle.setdefault(flags, [])
                    driver = idle.pop() if idle else None
                if driver is not None and not _alive(driver):
                    self._forget(driver)
                    driver = None
                if driver is None:
                    driver = chromium(*flags)
                    with self._lock:
                        self._all.append(driver)
                        self.started += 1
                with self._lock:
                    self._lent.add(id(driver))
                got.append(driver)
                reset(driver)
        except BaseException:
            self.give(got, flags)
            raise
        return got

    def give(self, drivers: list[Any], flags: tuple[str, ...] = QUIET) -> None:
        """The drivers back to the pool, each left at ``about:blank`` (a dead one is dropped)."""
        for driver in drivers:
            try:
                driver.get("about:blank")
            except Exception:  # noqa: BLE001  (a driver that cannot even do that is not lent again)
                self._forget(driver)
                continue
            with self._lock:
                self._lent.discard(id(driver))
                self._idle.setdefault(flags, []).append(driver)

    def _forget(self, driver: Any) -> None:
        with self._lock:
            self._lent.discard(id(driver))
            if driver in self._all:
                self._all.remove(driver)
        with contextlib.suppress(Exception):
            driver.quit()

    def close(self) -> None:
        """Quit every Chromium the pool started."""
        with self._lock:
            drivers, self._all, self._idle, self._lent = self._all, [], {}, set()
        for driver in drivers:
            with contextlib.suppress(Exception):
                driver.quit()


POOL = Pool()
atexit.register(POOL.close)
_cleanup_registered: set[int] = set()


def _quit_with(config: Any) -> None:
    """The pool closed when this pytest run ends (once per run)."""
    if config is not None and id(config) not in _cleanup_registered:
        _cleanup_registered.add(id(config))
        config.add_cleanup(POOL.close)


@contextlib.contextmanager
def shared(n: int = 1, flags: tuple[str, ...] = QUIET, config: Any = None) -> Iterator[list[Any]]:
    """``n`` of this process's shared Chromiums (started with ``flags``), lent while the block runs."""
    _quit_with(config)
    drivers = POOL.take(n, flags)
    try:
        yield drivers
    finally:
        POOL.give(drivers, flags)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    """This process's shared Chromium, in a fresh tab of a 1280x800 window, for the module's tests."""
    with shared(config=request.config) as (driver,):
        yield driver


@pytest.fixture(scope="module")
def browsers(request: pytest.FixtureRequest) -> Iterator[Callable[[int], list[Any]]]:
    """``browsers(n)``: ``n`` shared Chromiums side by side (each call lends ``n`` more), for the module."""
    stack = contextlib.ExitStack()

    def lend(n: int) -> list[Any]:
        return stack.enter_context(shared(n, config=request.config))

    with stack:
        yield lend


def wait_until(driver: Any, script: str, timeout: float = 30.0, *args: Any) -> Any:
    """What ``script`` returns once it is something true (polled every 20 ms); after ``timeout`` s an
    AssertionError naming the script and what the page shows."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script, *args)
        if value:
            return value
        if time.monotonic() > deadline:
            shown = driver.execute_script("return document.body ? document.body.innerText.slice(0, 500) : ''")
            raise AssertionError(f"timed out after {timeout} s waiting for: {script}; the page shows: {shown!r}")
        time.sleep(0.02)


#: waits inside the page until the function body ``arguments[0]`` (called with the arguments ``arguments[2]``)
#: returns something true: looked at at once, again at each change of the document (a MutationObserver: the
#: moment a page draws what it heard) and every 50 ms besides (for a condition on something else); answers
#: ``{ok, value}`` when it holds or ``arguments[1]`` ms have passed
ON_PAGE = """
const [body, ms, args] = arguments, done = arguments[arguments.length - 1], test = new Function(body);
const end = performance.now() + ms;
let over = false, timer = null, seen = null;
function look() {
  if (over) return;
  let v = null;
  try { v = test.apply(null, args); } catch (e) { v = null; }
  clearTimeout(timer);
  if (v || performance.now() > end) {
    over = true;
    if (seen) seen.disconnect();
    done({ok: !!v, value: v});
    return;
  }
  timer = setTimeout(look, 50);
}
seen = new MutationObserver(look);
seen.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
look();"""


def wait_on_page(driver: Any, script: str, timeout: float = 30.0, *args: Any) -> Any:
    """What ``script`` (a function body, ``return ...``, given ``args`` as its arguments) returns once it is
    something true, waited for inside the page (:data:`ON_PAGE`: one round trip, however long it takes); after
    ``timeout`` s an AssertionError naming the script and what the page shows (its body's data attributes, its
    verdict and status lines where it has them)."""
    driver.set_script_timeout(timeout + 10)
    answer = driver.execute_async_script(ON_PAGE, script, int(timeout * 1000), list(args))
    if not answer["ok"]:
        seen = driver.execute_script("return [JSON.stringify(document.body ? document.body.dataset : {}), "
                                     "(document.getElementById('verdict') || {}).textContent, "
                                     "(document.getElementById('status') || {}).textContent, "
                                     "document.body ? document.body.innerText.slice(0, 300) : '']")
        raise AssertionError(f"timed out after {timeout} s waiting for: {script}; the page: {seen}")
    return answer["value"]
