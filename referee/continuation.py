"""A match that continues a finished one (a series' next game): what ``Referee.new_match(continue_from=)``
and ``POST /matches`` with ``continue_from`` build the new match's configuration from. The game's
``carry_over`` hook reads the finished match's final state; its facts become options of the new match,
so the new match replays and audits on its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .engine.codes import MatchCode
from .engine.protocol import ConfigError, Game
from .engine.speech import again
from .errors import BadInput
from .i18n import N_

if TYPE_CHECKING:
    from .config import Loaded
    from .history import History


def continuation(history: History, loaded: Loaded, game: Game, game_name: str,
                 kwargs: dict[str, Any]) -> dict[str, Any]:
    """``new_match`` arguments for a match of ``game`` (typed as ``game_name``) that continues the finished
    match ``loaded`` (a series' next game): the game's ``carry_over`` facts of its final state become
    options of the new match (an option also given must agree), its card data is the previous match's
    unless other is given, and ``meta.continues`` names it. The new match's configuration then holds
    everything its replay needs."""
    if game.id != loaded.game.id:
        raise BadInput.said(MatchCode.BAD_CONTINUATION, N_("match {match} is a {game} match, not {asked}"),
                            match=loaded.match.id, game=loaded.game.id, asked=game_name)
    state = history.state_at(loaded)[1]
    if loaded.rules.outcome(state) is None:
        raise BadInput.said(MatchCode.BAD_CONTINUATION, N_("match {match} is not over: only a finished match is continued"),
                            match=loaded.match.id)
    if not loaded.game.capabilities.continuation:
        raise BadInput.said(MatchCode.BAD_CONTINUATION, N_("match {match}: a match of this game cannot be continued by "
                                                           "another"), match=loaded.match.id)
    try:
        carried = dict(loaded.rules.carry_over(state))
    except ConfigError as exc:
        raise BadInput.said(MatchCode.BAD_CONTINUATION, N_("match {match}: {problem}"), match=loaded.match.id,
                            problem=again(exc.message, exc.template)) from None  # the game's words, read with it
    given = dict(kwargs.get("options") or {})
    specs = loaded.game.options()
    for name, value in carried.items():
        if name in given and specs[name].parse(given[name]) != value:
            raise BadInput.said(MatchCode.BAD_CONTINUATION, N_("option {name} is carried over from match {match} "
                                                               "({value!r}); leave it out or give that value"),
                                name=name, match=loaded.match.id, value=value)
        given[name] = value
    meta = {**(kwargs.get("meta") or {}), "continues": loaded.match.id}
    if kwargs.get("cards") is None and kwargs.get("cards_text") is None:  # the same card data, unless given
        kwargs = {**kwargs, "cards": loaded.config.cards, "cards_text": loaded.config.cards_text}
    return {**kwargs, "options": given, "meta": meta}
