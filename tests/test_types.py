"""The product type-checks: ``mypy --strict`` over referee, cli and schemas (configured in
pyproject.toml) finds nothing. Run with the suite, so CI runs it too."""

from __future__ import annotations

import os
import sys

import pytest

from conftest import ROOT

# the three mypy runs share one worker, one after another: the first checks the product (and fills
# .mypy_cache), the other two then read the cache instead of each checking the product again at once
pytestmark = pytest.mark.xdist_group("mypy")


@pytest.fixture(autouse=True)
def _keep_the_recursion_limit():
    """mypy raises the interpreter's recursion limit for good; the hostile-input tests that run later in
    the same worker rely on the default one (a file nested too deeply is refused when its parse runs out
    of it), so it is put back after each mypy run."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


def test_mypy_strict_is_clean():
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extras: pip install '.[test]'")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, code = api.run(["--config-file", os.path.join(ROOT, "pyproject.toml")])
    finally:
        os.chdir(cwd)
    assert code == 0, out + err


def test_the_local_service_and_the_server_client_both_implement_the_referee_api(tmp_path):
    """The CLI talks to a referee through ``referee.api.RefereeApi`` alone, whether it is the service
    over a local database or a server over HTTP: mypy --strict finds that both classes implement it,
    and (the control) that a class lacking one of its methods does not."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extras: pip install '.[test]'")
    snippet = tmp_path / "conforms.py"
    snippet.write_text(
        "from cli.client import RemoteReferee\n"
        "from referee.api import RefereeApi\n"
        "from referee.service import Referee\n"
        "from referee.store.memory import MemoryStore\n"
        "from schemas.http import StateAnswer\n"
        "\n"
        "local: RefereeApi = Referee(MemoryStore())\n"
        "remote: RefereeApi = RemoteReferee('http://127.0.0.1:9', 'token')\n"
        "\n"
        "\n"
        "class ShowsOnly:\n"
        "    def show(self, match_id: str, *, at: int | None = None, seat: str | None = None) -> StateAnswer:\n"
        "        raise NotImplementedError\n"
        "\n"
        "\n"
        "lacking: RefereeApi = ShowsOnly()\n",
        encoding="utf-8",
    )
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, _code = api.run(["--config-file", os.path.join(ROOT, "pyproject.toml"), str(snippet)])
    finally:
        os.chdir(cwd)
    errors = [line for line in out.splitlines() if ": error:" in line]
    # (the line is named by the file's name: a cached run may name the temporary folder of an earlier one)
    assert errors and all("conforms.py:16: error:" in line for line in errors), out + err
    assert '"ShowsOnly"' in errors[0] and '"RefereeApi"' in errors[0], errors



def test_each_game_s_rules_are_the_protocol_over_its_own_unions(tmp_path):
    """Every bundled game's rules class (and the template's) is a ``Rules[State, Intent, Event]`` over its
    own state and its own intent and event unions, and each small group of hooks is a protocol a
    function may ask for alone; the control: one game's rules are not another's."""
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extras: pip install '.[test]'")
    games = {"by_all_means": "ByAllMeansRules", "war_of_shadows": "WarOfShadowsRules", "android": "AndroidRules",
             "copycat": "CopycatRules", "xfiles_encounters": "XFilesRules", "_template": "TemplateRules"}
    lines = ["from schemas import MatchConfig",
             "from referee.engine.protocol import DecidingHooks, PresentationHooks, Rules, ViewHooks"]
    lines += [f"from referee.games.{g} import model as {g.strip('_')}_m\nfrom referee.games.{g}.rules import {c}"
              for g, c in games.items()]
    lines += ["", "", "def check(c: MatchConfig) -> None:"]
    lines += [f"    {g.strip('_')}: Rules[{g.strip('_')}_m.State, {g.strip('_')}_m.Intent, {g.strip('_')}_m.Event] = {c}(c)"
              for g, c in games.items()]
    lines += ["    deciding: DecidingHooks[template_m.State, template_m.Intent, template_m.Event] = template",
              "    viewing: ViewHooks[template_m.State, template_m.Intent, template_m.Event] = template",
              "    words: PresentationHooks[template_m.Event] = template",
              "    wrong: Rules[template_m.State, template_m.Intent, template_m.Event] = CopycatRules(c)", ""]
    text = "\n".join(lines)
    snippet = tmp_path / "game_rules.py"
    snippet.write_text(text, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        out, err, _code = api.run(["--config-file", os.path.join(ROOT, "pyproject.toml"), str(snippet)])
    finally:
        os.chdir(cwd)
    errors = [line for line in out.splitlines() if ": error:" in line]
    wrong = 1 + text.splitlines().index(lines[-2])  # the control's line
    assert errors and all(f"game_rules.py:{wrong}: error:" in line for line in errors), out + err
    assert '"CopycatRules"' in errors[0], errors
