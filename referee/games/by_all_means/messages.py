"""The English templates of By All Means' refusal messages, by code, and the phrases they embed: a
recorded message is read in another language through them (:mod:`referee.engine.messages`). Each
template is the message as the rules build it, its values as ``{fields}``; ``N_`` marks it for the
catalog. A message no template matches is shown as recorded (in English)."""

from __future__ import annotations

from referee.engine.messages import Messages, N_

from .codes import Code
from .data import SYMBOL_EFFECTS

GAME = "by_all_means"


_CHECKS: dict[str, tuple[str, ...]] = {
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
}

_PHRASES = (
    N_("{seat}'s main archive"),
    N_("{seat}'s extra archive"),
    N_("{seat}'s deck has no {card}"),
    N_("every copy of {card} named, but {seat}'s deck has {deck} and {out} already came out of the archives"),
    N_("{count} copies of {card} named, but {seat}'s deck has {deck} and {out} already came out of the archives"),
    N_("{card} of {seat}"),
    N_("{first} or {second}"),
    N_("choose {choices}"),
    N_("nothing"),
)

#: the refusals of effects, declared changes, lilac choices, objects and steps (by code)
_MORE: dict[str, tuple[str, ...]] = {
    Code.AGENT_CELL_FORBIDDEN: (N_("{cell} holds {owner}'s territory: agents may stand only on their controller's territory or a free cell"), N_('{cell} is not empty (option agent_free_cell=fully_empty)'),),
    Code.BAD_EFFECT_TARGET: (N_('move_from={ref} is not a field object'), N_('move_to={ref} must be another field object'), N_('option machinations_move_scope=own_objects: both objects must be yours'), N_('{card} stays attached to a territory: name it with attach=CELL'), N_('{card} does not stay attached (omit attach)'), N_('archive={text} is empty'), N_('{param}={text} must be a territory of {seat}'), N_('archive={text}: this effect takes an extra archive (SEAT.extra)'), N_('archive={archive} holds {count} card(s); info leak needs 2'), N_("{card} is not in {seat}'s utility"), N_('there is no object at {ref}'), N_('foresight takes option=restore or option=remove'), N_('archive={archive} holds {count} card(s); download needs 3'), N_('power management takes option=gain or option=drain'), N_('{ref} is empty'), N_('there is no agent on {cell}'), N_('{owner} is not a seat'), N_('record_lot needs winner=SEAT'),),
    Code.BAD_TIMING: (N_('timing={timing} does not fit now (step {step}): {why}'),),
    Code.BUFFER_SLOT_EMPTY: (N_('{seat} has no buffer slot {zone}'),),
    Code.CELL_OCCUPIED: (N_("{cell} holds {seat}'s agent (option territory_on_enemy_agent=forbidden)"),),
    Code.CELL_REQUIRED: (N_('deploy_agent needs cell=CELL'),),
    Code.DISCARD_ZONE_FORBIDDEN: (N_('{card} can be discarded for its effect only from {zones}'),),
    Code.DUPLICATE_SOURCE: (N_('{slot} is named twice'),),
    Code.GRAFFITI_PLACEMENT_FORBIDDEN: (N_("{card} goes only on {owner}'s territory; {cell} is {seat}'s"),),
    Code.INVALID_CHOICE: (N_('{kind}: {why}'),),
    Code.LILAC_CHOICE_REQUIRED: (N_('{card} prints {n} lilac symbol(s): name the active symbol for each with lilac_as={card2}:SYMBOL'), N_('lilac_as {item}: {symbol} is not an active symbol ({symbols})'), N_('{card} prints a lilac symbol: name its active symbol with lilac_as={card2}:SYMBOL'),),
    Code.MANUAL_INCONSISTENT: (N_('the declared costs moved {card} itself'), N_('declared change {text}: {why}'),),
    Code.MISSING_EFFECT_PARAM: (N_('machinations (5) needs option=steal or option=move_symbol'), N_('move_symbol needs move_from=OBJECT symbol=SYMBOL move_to=OBJECT'), N_('name the archive with archive=SEAT.main or SEAT.extra'), N_('name the territory with {param}=CELL'), N_('name the card to restore with card=CARD'), N_('name the object with target=CELL[/agent|/graffiti] or SEAT.bufN'), N_('foresight needs option=restore or option=remove'), N_('power management needs option=gain or option=drain'), N_('name the buffer card with target=SEAT.bufN'), N_("name the agent's cell with target=CELL"),),
    Code.MIXED_SOURCES_NOT_ALLOWED: (N_("the neutral combination's second symbol comes from your hand or your buffer"), N_('{kind} + {kind2}: the two symbols come from hand+hand, hand+buffer, buffer+buffer or field+field'), N_("{ref} is not {seat}'s buffer"),),
    Code.MOVE_AGENT_INVALID: (N_("move_agent={move}: needs another cell with {seat}'s agent standing on {owner}'s territory"), N_('move_agent={move}: {cell} still holds an agent'),),
    Code.NEED_TWO_SYMBOLS: (N_('a symbol combination uses exactly two symbols, not {n}'),),
    Code.NOT_FROM_HAND: (N_('to_buffer may name only the lilac card {card}'), N_("to_buffer={card}: only this action's hand cards can be buffered"),),
    Code.NOT_YOUR_OBJECT: (N_("{card} at {ref} is not {seat}'s"), N_("{card} at {ref} is {seat}'s"), N_("{ref} is not {seat}'s buffer"), N_('{source} is not a card or object {seat} controls (field, buffer, hand or utility)'),),
    Code.NO_ACTIVE_SYMBOL: (N_('{card} at {ref} carries no {symbol} token'), N_('{card} at {ref} carries no {symbol}'), N_('{card} at {ref} carries no active {symbol} ({active})'),),
    Code.NO_COMBINATION: (N_('{symbol} + {symbol2} has no entry in the combination table'),),
    Code.NO_DEPLOY_CONDITION: (N_('{card} has no deploy condition'),),
    Code.NO_DIGIT: (N_('{card} has no digit'),),
    Code.NO_DISCARD_KEYWORD: (N_("{card} has no 'Discard this card' keyword"),),
    Code.NO_SUCH_OBJECT: (N_('buffer cards cannot use activated abilities (option buffer_abilities)'), N_('there is no object at {ref}'), N_('{card} is not at {ref}'),),
    Code.NO_UTILIZATION_KEYWORD: (N_('{card} has no Utilization keyword'),),
    Code.REPLACE_INVALID: (N_('a shadow replaces no agent (omit replace)'), N_('replace={cell}: the limit does not apply'),),
    Code.SHADOW_CELL_MISMATCH: (N_('a second {card} becomes the shadow of the one at {twin}; it cannot go to {cell}'),),
    Code.TOO_LATE: (N_('{seat} has drawn the opening hand: the archives can no longer be shuffled or dealt again'),),
    Code.WRONG_CARD_TYPE: (N_('{card} is a {type}, not {what}'),),
    Code.WRONG_DRAW_COUNT: (N_('utilize draws 1 card: name it with drawn=CARD'),),
    Code.WRONG_PHASE: (N_('{verb} belongs to phase {want}; the match is in phase {phase}'),),
    Code.WRONG_STEP: (N_('{verb} does not belong to step {step} (the opponent has acted in step end: its turn_end window is over)'), N_('{verb} does not belong to step {step} of the turn (reactions come after the status check in this match)'),),
    Code.CARD_NOT_IN_HAND: (N_("{seat}'s hand holds {have} {card}, not {n}"),),
}

#: why an effect cannot be played (every ``illegal_<effect>`` code: ``{effect} cannot be played: {why}``),
#: why a pending decision's answer is refused (``{kind}: {why}``) and why a declared change cannot be
#: applied (``declared change {text}: {why}``)
_WHY = (
    N_("a player's trust is 0"),
    N_("{seat}'s main archive has {count} card(s), fewer than 2"),
    N_("{seat}'s utility is empty"),
    N_("{seat}'s buffer has no free slot"),
    N_('there is no object on the field or in a buffer'),
    N_('both extra archives are empty'),
    N_('each player must control a territory'),
    N_("{seat}'s hand has {n} card(s), fewer than 2"),
    N_('every buffer is empty'),
    N_('there is no agent on the field'),
    N_('all four archives are empty'),
    N_('answer option=actor_gains or option=target_loses'),
    N_('{seat} controls no agent, so losing an extra action is not a choice'),
    N_('answer option=lose_reputation, lose_main_action or lose_extra_action'),
    N_("discard_agent needs target=CELL holding one of {seat}'s agents"),
    N_('answer option=lose_reputation or option=discard_agent target=CELL'),
    N_("name exactly two cards from {seat}'s hand with cards=C1,C2"),
    N_('give up one of the agents on {cells} with target=CELL'),
    N_('answer option=done once the on-leave effects are declared'),
    N_('unknown decision'),
    N_('no plot {card} is attached at {cell}'),
    N_('{card} is not at {zone} ({other} is)'),
    N_('{card} is not at {zone} (it is empty)'),
    N_("{card} is not in {seat}'s {zone}"),
    N_("{seat}'s {zone} is empty"),
    N_("{card} is not the top card of {seat}'s {zone}"),
    N_("{card} cannot be in {seat}'s archives (every copy is accounted for)"),
    N_('{cell} holds no territory to attach {card} to'),
    N_('only plots are attached; {card} is a {type}'),
    N_('{cell} is occupied'),
    N_('a {type} cannot go to a {slot} slot'),
    N_('a graffiti needs a territory; {cell} has none'),
    N_('{seat} already controls {count} agents (limit {limit})'),
    N_('{cell} holds no territory'),
    N_('no agent on {cell}'),
    N_('no object at {ref}'),
    N_('{card} at {ref} carries no {symbol} token'),
    N_('unknown change {text}'),
)

_ILLEGAL = (N_("{effect} cannot be played: {why}"),)


def _merged() -> dict[str, tuple[str, ...]]:
    table = {str(code): tuple(ts) for code, ts in _CHECKS.items()}
    for code, ts in _MORE.items():
        table[str(code)] = table.get(str(code), ()) + ts
    for effect in SYMBOL_EFFECTS:  # check 11's codes are made from the effect's id (illegal_<effect>)
        code = f"{GAME}/illegal_{effect}"
        table[code] = table.get(code, ()) + _ILLEGAL
    return table


MESSAGES = Messages(_merged(), phrases=_PHRASES + _WHY)

#: the reasons a match ends (an outcome's ``reason``, its underscores read as spaces), for the catalog
REASONS = (N_("influence"), N_("trust"), N_("full field"), N_("draw simultaneous"), N_("draw full field"))
