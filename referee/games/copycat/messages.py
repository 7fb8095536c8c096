"""The English templates of Copycat's refusal messages, by code, and the phrases they embed: a recorded
message is read in another language through them (:mod:`referee.engine.messages`). Each template is the
message as the rules build it (decide, effects, the chance checks of txn, manual effects), its values as
``{fields}`` (a field may be empty: ``card{s}`` reads both "1 card" and "2 cards"); ``N_`` marks it for
the catalog. A message no template matches is shown as recorded (in English)."""

from __future__ import annotations

from referee.engine.codes import TurnCode
from referee.engine.messages import Messages, N_

from .codes import Code


MESSAGES = Messages({
    Code.ALREADY_CHOSEN: (
        N_('{seat} has chosen an order card this round'),
    ),
    Code.ALREADY_DRAWN: (
        N_('{seat} has drawn this round'),
    ),
    Code.ALREADY_LAID_DOWN: (
        N_('{seat} has laid down this turn'),
        N_('cards to get rid of come from the hand, before lay-down'),
    ),
    Code.CANNOT_COPY_SELF: (
        N_('{target} is already in this copy chain'),
    ),
    Code.CARD_ALREADY_ACTIVATED: (
        N_('{card} has acted this round'),
    ),
    Code.CARD_NOT_AVAILABLE: (
        N_('street: {cards} is not a stage-I card still in a {n}-player game'),
        N_('street slot 11: {street} is not a stage-II card (the top of the supply)'),
        N_('doctorates: {n} distinct doctorates, not {given}'),
    ),
    Code.CARD_NOT_BUYABLE: (
        N_('{card} is a red card: it comes only with a purchase to its right'),
    ),
    Code.CARD_NOT_IN_DECK: (
        N_("{path}: a drawn card is in neither {seat}'s deck nor discard pile"),
    ),
    Code.CARD_NOT_IN_HAND: (
        N_("the order card is not in {seat}'s hand"),
        N_("{card} is not in {seat}'s hand"),
        N_("{card} (pay_cards) is not in {seat}'s hand"),
        N_("a card to keep is not in {seat}'s hand"),
        N_("{card} (choices) is not in {seat}'s hand"),
        N_("{card} (cards) is not in {seat}'s hand"),
    ),
    Code.CARD_NOT_IN_PLAY_AREA: (
        N_("{card} is not in {seat}'s play area"),
    ),
    Code.CARD_NOT_IN_SUPPLY: (
        N_('{path}: a refill card is not in the top band of the supply'),
    ),
    Code.CARD_REQUIRED: (
        N_('{seat} has cards in hand: choose one of them'),
    ),
    Code.CARD_USE_LIMIT: (
        N_('{target} has been used {limit} times this round'),
    ),
    Code.CARD_WRONG_PHASE: (
        N_('{card} ({color}, {kind}) cannot be played in the actions phase'),
    ),
    Code.CHANCE_MISMATCH: (
        N_('the office deck is empty: no office_drawn'),
        N_("setup {field}: the typed value differs from what the referee's generator drew (leave it out in a digital match)"),
        N_("{path}: the typed {what} differs from what the referee's generator drew (leave it out in a digital match)"),
        N_("{path}: the typed cards differ from what the referee's generator drew (leave them out in a digital match)"),
    ),
    Code.CHANCE_MISSING: (
        N_('setup needs {field}= (a recorded match types every setup fact)'),
        N_('{path}: name the {what} ({k} card{s})'),
        N_('{path}: name the {need} card{s} drawn from the supply'),
        N_('{path}: name the {need} card{s} {seat} drew'),
    ),
    Code.CHOICE_REQUIRED: (
        N_('choose coin or vp (args.choice=coin|vp)'),
    ),
    Code.DECLARATION_REQUIRED: (
        N_("this effect is not in the referee's vocabulary: declare its changes (args.declared=move:...,adjust:...)"),
    ),
    Code.DISCARD_BEFORE_DECK_EMPTY: (
        N_("{path}: a card of the discard pile was named while {seat}'s deck still held cards (the pile is shuffled in only when the deck is empty)"),
    ),
    Code.DOUBLING_CAP_REACHED: (
        N_('at most {cap} Garden parties double one payment'),
        N_('{seat} has doubled {cap} times this round'),
        N_('{seat} has doubled {what} {cap} times this round'),
    ),
    Code.INVALID_AMOUNT: (
        N_('spend must be at least {least}, not {spend}'),
        N_('count must be 0 to {n}, not {count}'),
    ),
    Code.INVALID_BUS: (
        N_('bus must order the seats {seats}, not {given}'),
    ),
    Code.INVALID_CHOICE: (
        N_('choices.{card}={choice}: a choice is coin or vp, for a laid-down coin-or-VP card'),
        N_('the choice is coin or vp, not {choice}'),
    ),
    Code.INVALID_SLOT: (
        N_('the street has slots 1 to 11, not {slot}'),
    ),
    Code.KEEP_NOT_ALLOWED: (
        N_('cards may be kept only when a Brainstorming card is laid down'),
    ),
    Code.LAY_DOWN_REQUIRED: (
        N_('{seat} lays down the hand before ending the turn'),
        N_('{seat} lays down the hand first'),
        N_('{seat} lays down the hand before buying'),
    ),
    Code.MANUAL_INCONSISTENT: (
        N_('op {i}: {path} is not a zone path'),
        N_('op {i}: unknown card {card}{hint}'),
        N_('op {i}: {card} is not in {zone}'),
        N_('op {i}: {zone} is occupied'),
        N_('op {i}: {counter} is not a counter path'),
        N_('op {i}: {counter} would go below 0 ({n})'),
        N_('op {i}: {counter} would exceed the doubling cap {cap}'),
        N_('op {i}: a seat has 4 spare workers at most'),
        N_('op {i}: {office} would hold more than {n} workers'),
    ),
    Code.NOTHING_SELECTED: (
        N_('name the hand cards the get-rid office takes (args.cards=...)'),
        N_('name the hand cards to exchange (args.cards=...)'),
        N_('name the hand cards to get rid of (args.cards=...)'),
    ),
    Code.NOT_A_COIN_SOURCE: (
        N_('{card} ({kind}) pays no coins'),
        N_('{office} ({kind}) pays no coins for Donations'),
    ),
    Code.NOT_DRAWN_YET: (
        N_('{seat} draws a hand first'),
    ),
    Code.NOT_ENOUGH_COINS: (
        N_('{card} in slot {slot} costs {price}{spend}; {seat} has {have} coins'),
        N_('{count} cards need {coins} coins; {seat} pays {paid}'),
    ),
    Code.NO_BUY_AVAILABLE: (
        N_('{seat} has no purchase left (a purchase permit office gives them)'),
    ),
    Code.NO_PLACEMENT_LEFT: (
        N_('{seat} has no placement left this turn'),
    ),
    Code.NO_USABLE_EFFECT: (
        N_('{card} ({kind}) has nothing to activate in the buying phase'),
        N_('{target} ({kind}) has no effect to repeat in this phase'),
        N_('Team Bonus gives a placement: it acts in the actions phase only'),
        N_('{kind} has no effect to use here'),
    ),
    Code.NO_WORKER_AVAILABLE: (
        N_('{seat} has no worker left to place'),
    ),
    Code.OFFICE_ALREADY_USED: (
        N_('{seat} has used {office} this round (a second use needs Team Bonus)'),
        N_('{seat} has used {office} this round'),
    ),
    Code.OFFICE_NOT_AVAILABLE_ROUND1: (
        N_('in round 1 only blue offices take workers'),
    ),
    Code.OFFICE_NOT_IN_PLAY: (
        N_('{office} is not in play yet'),
    ),
    Code.OFFICE_NOT_NEXT: (
        N_('the first office comes from department 1 ({offices}), not {office}'),
        N_('the next office card comes from department {department} ({offices}), not {office}'),
    ),
    Code.OFFICE_NOT_PLACED_THIS_TURN: (
        N_("{seat}'s worker came to {office} in an earlier turn; in the actions phase an office acts in the turn of its placement"),
    ),
    Code.OFFICE_NOT_YET_USED: (
        N_('{seat} has not used {office} yet this round'),
    ),
    Code.OFFICE_NOT_YOURS: (
        N_('{seat} has no worker on {office}'),
    ),
    Code.OFFICE_OCCUPIED: (
        N_('{office} holds a worker of {seats} (only Sharpen your Elbows lets a worker in)'),
    ),
    Code.OFFICE_USE_LIMIT: (
        N_("{seat}'s worker on {office} has acted twice this round"),
    ),
    Code.OFFICE_WRONG_PHASE: (
        N_('{office} ({kind}) does not act in the {phase} phase'),
        N_('{office} ({kind}) cannot act again in this phase'),
    ),
    Code.OWN_WORKER_IN_OFFICE: (
        N_('{seat} already has a worker on {office}'),
    ),
    Code.PASS_AFTER_ACTION: (
        N_('{seat} has acted this turn: finish it with end_turn'),
    ),
    Code.PLACEMENT_REQUIRED: (
        N_('{seat} must place a worker this turn (or pass at its start)'),
    ),
    Code.REASON_REQUIRED: (
        N_('a manual effect needs a reason (reason="...")'),
    ),
    Code.SLOT_EMPTY: (
        N_('street slot {slot} is empty'),
    ),
    Code.SLOT_MISMATCH: (
        N_('street slot {slot} holds {held}, not {card}'),
    ),
    Code.SPEND_NOT_ALLOWED: (
        N_('{card} is not a doctorate: no spend'),
    ),
    Code.SPEND_REQUIRED: (
        N_('{card} is a doctorate: say how many coins go to VP (spend=N)'),
    ),
    Code.TARGET_REQUIRED: (
        N_('name the card to use again (args.target_card=ID)'),
        N_('name the card to copy (args.target_card=ID)'),
        N_('name the office to use again (args.target_office=ID)'),
    ),
    Code.TOO_MANY_CARDS: (
        N_('the get-rid offices take at most {most} cards, not {n}'),
        N_('at most {most} cards are exchanged, not {n}'),
        N_('at most {most} cards, not {n}'),
    ),
    Code.TRASH_TARGET_REQUIRED: (
        N_('name exactly one hand card to remove (args.cards=ID)'),
    ),
    Code.UNKNOWN_CARD: (
        N_('the order card is not a card of this match'),
        N_('a card named in keep or choices is not a card of this match'),
        N_('unknown card id {card}{hint}'),
        N_('{path}: unknown card id {card}{hint}'),
    ),
    Code.UNKNOWN_OFFICE: (
        N_('unknown office id {office}{hint}'),
    ),
    Code.WORKER_CAP_REACHED: (
        N_('{seat} cannot recruit more workers this round ({extra} extra, {supply} in the supply)'),
        N_('{seat} cannot recruit more workers this round'),
    ),
    Code.WRONG_DRAW_COUNT: (
        N_('{seat} draws {need} card{s} here ({deck} in the deck, {discard} in the discard pile), not {n}'),
        N_('{path}: {need} card{s} come from the supply here ({empty} empty slot{s2}, {total} in the supply), not {n}'),
    ),
    Code.WRONG_PHASE: (
        N_('the game is laid out already (phase {phase})'),
        N_('hands are drawn in planning, not in {phase}'),
        N_('order cards are chosen in planning, not in {phase}'),
        N_('workers are placed in the actions phase, not in {phase}'),
        N_('a seat passes in the actions phase, not in {phase}'),
        N_('no turn to end in {phase}'),
        N_('clean-up follows the buying phase, not {phase}'),
        N_('cards are played in the actions phase, not in {phase} (in buying they are laid down)'),
        N_('offices are used in actions or buying, not in {phase}'),
        N_('cards are laid down in the buying phase, not in {phase}'),
        N_('laid-down cards are activated in buying, not in {phase}'),
        N_('cards are bought in the buying phase, not in {phase}'),
    ),
    Code.WRONG_STREET_SIZE: (
        N_('the street has 11 slots, not {n}'),
    ),
    TurnCode.NOT_YOUR_TURN: (
        N_("it is {player}'s turn, not {seat}'s"),
    ),
}, phrases=(
    N_(' (did you mean {names}?)'),
    N_(' + {spend}'),
))
