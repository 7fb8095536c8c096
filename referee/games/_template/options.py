"""Match options: each a rule's variant or an ambiguity of the rules, with its default ruling first."""

from __future__ import annotations

from collections.abc import Mapping

from referee.engine.decision import by_name, option
from referee.engine.protocol import OptionSpec
from referee.engine.speech import N_


def option_specs() -> Mapping[str, OptionSpec]:
    return by_name([
        option("stones", 10, help=N_("stones in the pile at setup"), rule="R1"),
    ])
