"""The English templates of By All Means' refusal messages, by code, and the phrases they embed: a
recorded message is read in another language through them (:mod:`referee.engine.messages`). Each
template is the message as the rules build it, its values as ``{fields}``; ``N_`` marks it for the
catalog. A message no template matches is shown as recorded (in English)."""

from __future__ import annotations

from referee.engine.messages import Messages

from .codes import Code


def N_(msgid: str) -> str:
    """Marks a template for the catalog (``python -m referee.i18n extract``)."""
    return msgid


MESSAGES = Messages({
    Code.AGENT_TURNED: (N_("{card} on {cell} is turned"),),
    Code.AGENT_REPEAT_ACTION: (N_("{card} on {cell} has already taken a {kind} action this turn"),
                               N_("{card} on {cell} has already used {ability} this turn")),
    Code.ARCHIVE_EMPTY: (N_("{seat}'s main archive is empty"), N_("{seat}'s extra archive is empty"),
                         N_("{archive} is empty")),
    Code.CARD_NOT_IN_ARCHIVE: (N_("{card} cannot be in {archive}: {why}"),
                               N_("{cards} is not the top of {archive}")),
    Code.CARD_NOT_IN_HAND: (N_("{card} is not in {seat}'s hand"),),
    Code.CELL_OCCUPIED: (N_("{cell} already holds a territory ({card})"), N_("{cell} already holds an agent ({card})"),
                         N_("{cell} already holds a graffiti")),
    Code.FIRST_TURN_DRAW_ONLY: (N_("the only main action left this first turn must be draw_main"),
                                N_("the only action left this first turn must be draw_main")),
    Code.INSUFFICIENT_REPUTATION: (N_("{card} costs {price} reputation from {where}; {seat} has {rep}"),),
    Code.NO_ACTION_LEFT: (N_("no extra or main action left for an agent action"),),
    Code.NO_DECISION_PENDING: (N_("there is no decision to answer"),),
    Code.NO_MAIN_ACTION_LEFT: (N_("no main action left this turn"),),
    Code.NO_SUCH_AGENT: (N_("{seat} has no agent on {cell}"),),
    Code.START_DRAW_REQUIRED: (N_("{seat}'s hand is empty: draw_start_cards first"),),
    Code.TERRITORY_NOT_ADJACENT: (N_("{cell} is not next to a territory (orthogonally)"),),
    Code.TARGET_NOT_REVEALED: (N_("the agent on {cell} is not revealed"),),
}, phrases=(
    N_("{seat}'s main archive"),
    N_("{seat}'s extra archive"),
    N_("{seat}'s deck has no {card}"),
    N_("nothing"),
))

#: the reasons a match ends (an outcome's ``reason``, its underscores read as spaces), for the catalog
REASONS = (N_("influence"), N_("trust"), N_("full field"), N_("draw simultaneous"), N_("draw full field"))
