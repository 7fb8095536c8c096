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
    Code.AGENT_LIMIT_CHOICE_REQUIRED: (N_("{seat} controls {count} agents: name the one to give up with replace=CELL"),),
    Code.AGENT_TURNED: (N_("{card} on {cell} is turned"),),
    Code.AGENT_REPEAT_ACTION: (N_("{card} on {cell} has already taken a {kind} action this turn"),
                               N_("{card} on {cell} has already used {ability} this turn")),
    Code.ALREADY_DONE: (N_("{seat} has already taken the mulligan"), N_("{seat} has already drawn the opening hand"),
                        N_("the lot is already recorded ({seat} won)")),
    Code.ARCHIVE_EMPTY: (N_("{seat}'s main archive is empty"), N_("{seat}'s extra archive is empty"),
                         N_("{archive} is empty (option {option})"), N_("{archive} is empty")),
    Code.BUFFER_FULL: (N_("{count} card(s) to buffer but {seat} has {free} free buffer slot(s)"),),
    Code.BUFFER_SLOT_EMPTY: (N_("{seat}'s {slot} is empty"), N_("{ref} is empty")),
    Code.CARD_MISMATCH: (N_("{seat}'s {slot} holds {card}, not {wanted}"),),
    Code.CARD_NOT_IN_ARCHIVE: (N_("{card} cannot be in {archive}: {why}"),
                               N_("{cards} is not the top of {archive}")),
    Code.CARD_NOT_IN_HAND: (N_("{card} is not in {seat}'s hand"),),
    Code.CELL_OCCUPIED: (N_("{cell} already holds a territory ({card})"), N_("{cell} already holds an agent ({card})"),
                         N_("{cell} already holds a graffiti")),
    Code.COMBO_REPEATED: (N_("{what} was already played with the same cards this turn"),),
    Code.DECISION_PENDING: (N_("{seat} must first answer the pending {kind} decision: {how}"),),
    Code.DIGIT_SUM_INVALID: (N_("the digits add up to {total} ({parts}); a digit combination makes 5, 7, 9, 11 or 13"),),
    Code.FIRST_TERRITORY_NOT_CENTRAL: (N_("the first territory on the field goes on a central cell ({cells}), not {cell}"),),
    Code.FIRST_TURN_DRAW_ONLY: (N_("the only main action left this first turn must be draw_main"),
                                N_("the only action left this first turn must be draw_main")),
    Code.GRAFFITI_NEEDS_TERRITORY: (N_("{cell} holds no territory"),),
    Code.INSUFFICIENT_REPUTATION: (N_("{card} costs {price} reputation from {where}; {seat} has {rep}"),),
    Code.LILAC_NOT_PLAYABLE: (N_("option neutral_lilac_pair=forbidden: the second symbol may not be lilac"),
                              N_("{symbol} cannot produce an effect")),
    Code.MULLIGAN_INVALID: (N_("return at most {most} cards and draw as many: returned {returned}, drew {drew}"),),
    Code.NO_ACTION_LEFT: (N_("no extra or main action left for an agent action"),),
    Code.NO_DECISION_PENDING: (N_("there is no decision to answer"),),
    Code.NO_LILAC_SYMBOL: (N_("{card} prints no {symbol} symbol"),),
    Code.NO_MAIN_ACTION_LEFT: (N_("no main action left this turn"),),
    Code.NO_START_DRAW_NEEDED: (N_("{seat}'s hand is not empty (or the main archive is): no start-of-turn draw"),),
    Code.NO_SUCH_ABILITY: (N_("{card} has no activated ability {ability}"),),
    Code.NO_SUCH_AGENT: (N_("{seat} has no agent on {cell}"),),
    Code.NOT_PLAYABLE_FROM_ZONE: (N_("{card} cannot be played from {where} (its price there is a dash)"),),
    Code.REACTION_LIMIT: (N_("{seat} has used {used} reaction(s) this opponent turn (limit {limit})"),),
    Code.REPLACE_INVALID: (N_("replace={cell}: no agent of {seat} there to give up"),),
    Code.SAME_OBJECT_SYMBOLS: (N_("the two symbols must come from two different cards or objects"),
                               N_("the second symbol must be on another card")),
    Code.START_DRAW_REQUIRED: (N_("{seat}'s hand is empty: draw_start_cards first"),),
    Code.SYMBOL_NOT_ON_CARD: (N_("{ref} does not print {symbol}"),),
    Code.TARGET_NOT_OPPONENT_AGENT: (N_("{cell} holds no agent of {seat}"),),
    Code.TARGET_NOT_REVEALED: (N_("the agent on {cell} is not revealed"),),
    Code.TERRITORY_NOT_ADJACENT: (N_("{cell} is not next to a territory (orthogonally)"),),
    Code.TOO_FEW_CARDS: (N_("a digit combination needs at least one card"),
                         N_("a digit combination of {total} needs at least {need} cards")),
    Code.WRONG_DRAW_COUNT: (N_("{seat}'s main archive is empty: omit drawn"),
                            N_("expected {need} card from {archive}, got {got}"),
                            N_("expected {need} cards from {archive}, got {got}")),
    Code.WRONG_STEP: (N_("{verb} does not belong to step {step} of the turn"), N_("{verb} does not belong to step {step}")),
}, phrases=(
    N_("{seat}'s main archive"),
    N_("{seat}'s extra archive"),
    N_("{seat}'s deck has no {card}"),
    N_("every copy of {card} named, but {seat}'s deck has {deck} and {out} already came out of the archives"),
    N_("{count} copies of {card} named, but {seat}'s deck has {deck} and {out} already came out of the archives"),
    N_("{card} of {seat}"),
    N_("{first} or {second}"),
    N_("choose {choices}"),
    N_("nothing"),
))

#: the reasons a match ends (an outcome's ``reason``, its underscores read as spaces), for the catalog
REASONS = (N_("influence"), N_("trust"), N_("full field"), N_("draw simultaneous"), N_("draw full field"))
