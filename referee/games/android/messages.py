"""The English templates of Android's refusal messages, by code, and the phrases they embed: a recorded
message is read in another language through them (:mod:`referee.engine.messages`). Each template is the
message as the rules build it, its values as ``{fields}`` (a field may be empty: a did-you-mean hint left
out); ``N_`` marks it for the catalog. A message no template matches is shown as recorded (in English)."""

from __future__ import annotations

from referee.engine.codes import TurnCode
from referee.engine.messages import Messages, N_

from .codes import Code


MESSAGES = Messages({
    Code.ABILITY_ALREADY_USED_THIS_ROUND: (
        N_('{seat} already used an ability this round ({used})'),
        N_("{seat} already used {location}'s ability this round"),
    ),
    Code.ABILITY_INVALID_CHOICE: (
        N_("{location}'s effect is given ({effect}); it takes no {fields}"),
        N_('favor_type= one of {types}'),
        N_('{seat} has no plot to put baggage on'),
        N_("{event}'s ability places an alibi on a suspect; it takes no {fields}"),
    ),
    Code.ABILITY_NOT_HERE: (
        N_('{seat} is at {location}, not {location2}'),
    ),
    Code.ABILITY_NOT_MAJOR_LOCATION: (
        N_('{location} is a minor location: no ability'),
    ),
    Code.ALIBI_SUSPECT_DEAD: (
        N_('{suspect} has been killed'),
    ),
    Code.ALIBI_SUSPECT_NOT_IN_GAME: (
        N_('suspect= must be a suspect in this game ({suspects}), not {suspect}'),
    ),
    Code.BAGGAGE_NO_PLOT: (
        N_('{target} has no current plot'),
    ),
    Code.BANK_EMPTY: (
        N_('the {type} favor bank is empty'),
        N_('the baggage bank is empty'),
        N_('the alibi bank is empty'),
    ),
    Code.BEANSTALK_NOT_ADJACENT: (
        N_('from {here} the Beanstalk goes only to {locations}'),
    ),
    Code.BEANSTALK_NOT_ON_BEANSTALK: (
        N_('{seat} is at {here}, not on the Beanstalk ({locations})'),
    ),
    Code.BENEFIT_NONE_PENDING: (
        N_('{seat} has no piece benefit to take'),
    ),
    Code.BENEFIT_NOT_OPTIONAL: (
        N_("a favor piece's benefit must be taken"),
    ),
    Code.BENEFIT_WRONG_BENEFIT: (
        N_('{piece} is a {type} piece: its benefit is take_{type2}_benefit'),
    ),
    Code.CONSPIRACY_ALREADY_MOST_VALUABLE: (
        N_('no pile more valuable than {at} holds pieces'),
    ),
    Code.CONSPIRACY_CLOSED: (
        N_('the conspiracy is closed: nobody may reveal information any more'),
    ),
    Code.CONSPIRACY_PIECE_NOT_IN_PILE: (
        N_("{piece} is not in the {pile} pile next to {seat}'s hero marker"),
    ),
    Code.DECK_CARD_NOT_IN_DECK: (
        N_('{card} is not face down in its deck'),
        N_('{card} is not a card of {src}'),
        N_('{card} is not face down in {deck} (a face-up discard at the bottom cannot be drawn)'),
        N_('{card} is not face down in {deck}'),
    ),
    Code.DECK_EMPTY: (
        N_('{deck} has no card to draw'),
    ),
    Code.DRAW_NOT_YOUR_LIGHT_DECK: (
        N_("{deck} is another detective's light deck"),
    ),
    Code.DRAW_NO_FREE_DRAW_WINDOW: (
        N_('{seat} has not just entered a ritzy or seedy location'),
    ),
    Code.DRAW_OWN_DARK_DECK: (
        N_("{deck} is {seat}'s own dark deck"),
        N_("{deck} is {seat}'s own dark deck: draw from your light deck or another player's dark deck"),
    ),
    Code.DRAW_WRONG_DECK_FOR_LOCATION: (
        N_('a ritzy location gives a card of your own light deck ({own}), not {deck}'),
        N_("a seedy location gives a card of another player's dark deck, not {deck}"),
    ),
    Code.DROPSHIP_NO_PASS: (
        N_('{seat} has no dropship pass'),
    ),
    Code.EVENT_ALREADY_REVEALED: (
        N_('the murder-specific event is already revealed'),
    ),
    Code.EVENT_CARD_NOT_IN_DECK: (
        N_('{card} is not in the general event deck'),
    ),
    Code.EVENT_NOT_ACTIVE: (
        N_('{event} has no ability on the map'),
    ),
    Code.EVENT_NOT_HERE: (
        N_("{event}'s ability is at {location}; {seat} is at {here}"),
    ),
    Code.EVENT_NOT_PENDING: (
        N_('the next end-of-day item is {head}, not {item}'),
    ),
    Code.EVENT_NOT_THIS_MURDERS_EVENT: (
        N_('the sealed card must be named: one of {cards}'),
    ),
    Code.EVENT_SPECIFIC_MISMATCH: (
        N_('{card} is not the card set aside at setup'),
    ),
    Code.EVIDENCE_NO_LIVING_SUSPECT: (
        N_('no suspect in this game is alive'),
    ),
    Code.EVIDENCE_NO_TOKEN_DRAWN: (
        N_('{seat} has drawn no evidence token'),
    ),
    Code.EVIDENCE_PILE_EMPTY: (
        N_('the evidence pile is empty'),
    ),
    Code.EVIDENCE_SUSPECT_DEAD: (
        N_('{suspect} has been killed'),
    ),
    Code.EVIDENCE_SUSPECT_NOT_IN_GAME: (
        N_('{suspect} is not a suspect in this game ({suspects})'),
    ),
    Code.EVIDENCE_TOKEN_NOT_IN_PILE: (
        N_('no {token} token is left in the evidence pile'),
    ),
    Code.EVIDENCE_WRONG_FILE: (
        N_("a {file} lead's evidence goes in the {file2} file, not {given}"),
    ),
    Code.FAVOR_INSUFFICIENT: (
        N_('needs {n} {type} favor(s), {seat} has {have}'),
    ),
    Code.HAND_CARD_NOT_IN_HAND: (
        N_("{card} is not in {seat}'s hand"),
    ),
    Code.HAND_FULL: (
        N_('{seat} holds {n} cards (limit {limit})'),
    ),
    Code.HAND_MEMORY_CARD_NOT_DISCARDABLE: (
        N_('{card} is a memory card: it cannot be discarded'),
    ),
    Code.LEAD_LEAD_MOVE_PENDING: (
        N_('{seat} must move {lead} first'),
    ),
    Code.LEAD_LOCATION_HAS_LEAD: (
        N_('{location} already holds {leads}'),
    ),
    Code.LEAD_MUST_MOVE: (
        N_('{lead} must leave {origin}'),
    ),
    Code.LEAD_NOT_HERE: (
        N_('{lead} is at {where}, {seat} at {here}'),
    ),
    Code.LEAD_NOT_ON_MAP: (
        N_('{lead} is not on the map (in the box)'),
    ),
    Code.LEAD_NOT_YOUR_LEAD_TO_MOVE: (
        N_("{seat} moves {lead} (the follower's right-hand neighbour), not {seat2}"),
    ),
    Code.LEAD_NO_LEAD_TO_MOVE: (
        N_('no lead is waiting to be moved'),
    ),
    Code.LEAD_NO_LEAD_TO_USE: (
        N_('{seat} has no lead to use'),
    ),
    Code.LEAD_TOO_CLOSE: (
        N_("{location} is in {seat}'s own district {home}; legal elsewhere: {locations}"),
    ),
    Code.LEAD_USE_AVAILABLE: (
        N_('a use is possible: draw_evidence or reveal_conspiracy'),
    ),
    Code.LEAD_WRONG_LEAD: (
        N_('the lead to move is {lead}, not {lead2}'),
    ),
    Code.LEAD_WRONG_LOCATION_TYPE: (
        N_('{lead} is a {type} lead; {location} is {type2}'),
    ),
    Code.MANUAL_INCONSISTENT: (
        N_('{where}: the active seat has no action to cancel (only before its next accepted intent)'),
        N_('{where}: {verb} is not an action cancel_last_action undoes ({verbs})'),
        N_('{where}: the card drawn is no longer in the hand'),
        N_('{where}: {lead} has already been moved or used'),
        N_('{where}: {verb} killed {suspect} (three hits), and a killed suspect does not come back: declare what happens instead'),
        N_('{what}delta {i} ({tag}): {why}'),
    ),
    Code.MANUAL_NO_WINDOW: (
        N_('{source} is pending but {step} comes first'),
    ),
    Code.MOVE_BEANSTALK_SEQUENTIAL: (
        N_('{to} is inside the Beanstalk: enter it at root or starport_kaguya and ride step by step'),
    ),
    Code.MOVE_MUST_EXIT_BEANSTALK_AT_END: (
        N_('{here} is inside the Beanstalk: ride it to root or starport_kaguya to leave it'),
    ),
    Code.MOVE_NO_SPACE_TRAVEL: (
        N_('{here} is on the {body} and {to} on the {body2}: no vehicle crosses between Earth and Moon'),
    ),
    Code.MOVE_OUT_OF_REACH: (
        N_("{to} is beyond {seat}'s ruler from {here} (distance² {d2} > {length}²)"),
        N_("{to} is not on the map's reach list of {here} for {seat}'s ruler ({locations})"),
    ),
    Code.MOVE_SAME_LOCATION: (
        N_('{seat} is already at {location}'),
    ),
    Code.PHASE_WRONG_PHASE: (
        N_('{verb} is played in the {want} phase; the game is in {phase}'),
    ),
    Code.PUZZLE_CELL_OCCUPIED: (
        N_('{at} already holds {piece}'),
    ),
    Code.PUZZLE_NOT_CONNECTED: (
        N_('{at} touches no placed piece'),
    ),
    Code.PUZZLE_NO_LINE_EXTENDED: (
        N_('{piece} at {at} (rotation {rotation}) extends no line of a neighbouring piece'),
    ),
    Code.PUZZLE_NO_PIECE_PENDING: (
        N_('{seat} has no puzzle piece to place'),
        N_('{seat} has no puzzle piece to discard'),
    ),
    Code.PUZZLE_OUTSIDE_AREA: (
        N_('{at} is outside the puzzle area (r0c0..r{rows}c{cols})'),
    ),
    Code.PUZZLE_ROTATION_NOT_ALLOWED: (
        N_('rotation is 0, 90, 180 or 270{only}, not {rotation}'),
    ),
    Code.REF_MALFORMED: (
        N_('{card} has no cost in the data: give cost=<n>'),
        N_('at= is a cell r<row>c<col> (r0c0..r{rows}c{cols}), not {at}'),
    ),
    Code.REF_UNKNOWN_DECK: (
        N_('no deck {deck} in this game (decks: {decks})'),
    ),
    Code.REF_UNKNOWN_DETECTIVE: (
        N_('no detective {detective} ({detectives})'),
    ),
    Code.REF_UNKNOWN_EVENT: (
        N_('no event card {card}'),
    ),
    Code.REF_UNKNOWN_FAVOR: (
        N_('{type} is not a favor type ({types})'),
    ),
    Code.REF_UNKNOWN_LEAD: (
        N_('no lead {lead} (leads are testimony.<suspect>, physical.<detective>, document.<detective>)'),
    ),
    Code.REF_UNKNOWN_LOCATION: (
        N_('no location {location}{hint}'),
        N_('no location {location}{hint} on map {map}'),
    ),
    Code.REF_UNKNOWN_MURDER: (
        N_('no murder {murder} in the data set ({murders})'),
    ),
    Code.REF_UNKNOWN_PLOT: (
        N_('no plot {plot} in the data set'),
    ),
    Code.REF_UNKNOWN_SEAT: (
        N_('{seat} is not a seat{hint}'),
        N_('seat {seat} is not a seat of this match ({seats})'),
    ),
    Code.REF_UNKNOWN_SUSPECT: (
        N_('no suspect {suspect}'),
    ),
    Code.SCENE_ALREADY_YOURS: (
        N_("{seat}'s hero marker is already on the scene"),
    ),
    Code.SCENE_NOT_AT_SCENE: (
        N_('{seat} is at {location}, the scene is {location2}'),
    ),
    Code.SCENE_NO_HERO_MARKER: (
        N_('{seat} has no free hero marker'),
    ),
    Code.SETUP_ALREADY_ASSIGNED: (
        N_('{seat} already plays {detective}'),
    ),
    Code.SETUP_ALREADY_DEALT: (
        N_('{seat} already holds hunches'),
    ),
    Code.SETUP_ALREADY_DONE: (
        N_('the murder is already chosen ({murder})'),
        N_('the murder-specific event is already set aside'),
        N_('the first player is already {player}'),
        N_('Rachel already drew her extra cards'),
        N_('the memory cards are already dealt'),
    ),
    Code.SETUP_ALREADY_DRAWN: (
        N_('{seat} already drew its starting cards'),
    ),
    Code.SETUP_ALREADY_SELECTED: (
        N_('{seat} already has a plot ({plot})'),
    ),
    Code.SETUP_DETECTIVE_TAKEN: (
        N_('{detective} is already played by {seat}'),
    ),
    Code.SETUP_HUNCH_ALREADY_DEALT: (
        N_('the {word} hunch of {suspect} is already dealt'),
    ),
    Code.SETUP_HUNCH_NOT_IN_GAME: (
        N_('the {word} hunch must be of a suspect in this game ({suspects}), not {suspect}'),
    ),
    Code.SETUP_INVALID_EXTRA_DRAW: (
        N_("sources= must be two of rachel.light and the other detectives' dark decks ({decks}), not {given}"),
        N_('cards= must name two cards'),
    ),
    Code.SETUP_INVALID_MEMORY_DEAL: (
        N_('deal one distinct Raymond memory card ({cards}) to each seat other than {raymond} ({seats})'),
    ),
    Code.SETUP_INVALID_STARTING_DRAW: (
        N_("light= must name two different cards of {detective}'s light deck, not {given}"),
    ),
    Code.SETUP_NOT_APPLICABLE: (
        N_('Rachel is not in this game'),
        N_('Raymond is not in this game: nobody deals memory cards'),
    ),
    Code.SETUP_NOT_THIS_MURDERS_EVENT: (
        N_("card= must be one of {murder}'s three specific events (or sealed)"),
    ),
    Code.SETUP_OUT_OF_ORDER: (
        N_('{what} is setup step {step}; step {now} is not complete yet'),
        N_('starting plots are step 9: not every seat has its hunches yet'),
        N_('starting cards are step 10: not every seat has its plot yet'),
        N_('the murder-specific event is step 11: not every seat drew its starting cards yet'),
        N_('the first player is step 12: the murder-specific event is not set aside yet'),
        N_("Rachel's extra cards are step 13: no first player yet"),
        N_('memory cards are step 13: no first player yet'),
    ),
    Code.SETUP_PLOT_NOT_ELIGIBLE: (
        N_('{plot} may not be a starting plot'),
    ),
    Code.SETUP_PLOT_NOT_YOURS: (
        N_('{plot} is not a plot of {detective} (plots: {plots})'),
    ),
    Code.SETUP_SEALED_NOT_ALLOWED: (
        N_('a digital match draws the event itself: card=sealed is for a physical match'),
    ),
    Code.SETUP_WRONG_DARK_DECK: (
        N_("dark= must be a card of {deck} (the deck of {left}, on {seat}'s left), not {dark}"),
    ),
    Code.TIME_INSUFFICIENT: (
        N_('needs {cost} TIME, {seat} has {have}'),
    ),
    Code.TURN_STEP_PENDING: (
        N_('{seat} must finish {step} first'),
        N_('{seat} must first finish {step} ({lead})'),
        N_('{seat} must first finish {step}'),
    ),
    Code.TWILIGHT_CANNOT_PAY: (
        N_("a dark shift of {cost} would take {seat}'s marker past the dark end ({twilight} + {cost2} > {end})"),
        N_("a light shift of {cost} would take {seat}'s marker past the light end ({twilight} - {cost2} < {end})"),
    ),
    Code.TWILIGHT_DARK_CARD_TIMING: (
        N_("dark cards are played in another player's turn, not in your own"),
        N_("{card} comes from {detective}'s dark deck: it is played in {detective2}'s turn"),
    ),
    Code.TWILIGHT_NOT_DARK_CARD: (
        N_('{card} is a light card'),
    ),
    Code.TWILIGHT_NOT_LIGHT_CARD: (
        N_('{card} is a dark card'),
    ),
    Code.TWILIGHT_TRACK_END: (
        N_("{target}'s twilight marker is at the {direction} end ({twilight})"),
    ),
    Code.TWILIGHT_WRONG_COST: (
        N_('{card} costs {cost}, not {given}'),
    ),
    TurnCode.NOT_YOUR_TURN: (
        N_('{seat} holds no cards'),
        N_("it is {player}'s turn, not {seat}'s"),
        N_('the first player ({player}) resolves the end-of-day items'),
        N_('{seat} may declare an effect only in its own turn (or when a declaration is pending for it)'),
        N_('{seat} may not do this for {other}: only {other2} or the arbiter'),
    ),
}, phrases=(
    N_(' (did you mean {names}?)'),
    N_(' (only 0 in this match)'),
    N_('nothing'),
    N_('banks.{bank} holds {have}, not {take}'),
    N_('{seat} is not a seat'),
    N_('{location} is not a location'),
    N_('{seat} has no warrant left to place'),
    N_('{seat} has no warrant on {location}'),
    N_('time_left would be {n}'),
    N_("{seat}'s twilight would be {n}, outside {lo}..{hi}"),
    N_('{type} is not a favor type ({types})'),
    N_('{seat} has {have} {type} favor(s), not {n}'),
    N_("{npc} is not one of {seat}'s NPCs"),
    N_("{seat}'s {npc} favors would leave 0..3"),
    N_('{seat} has no plot'),
    N_("{seat}'s plot has {have} {side} baggage, not {n}"),
    N_('{seat} has {have} {bank}, not {n}'),
    N_('{seat} has {have} {type} tokens'),
    N_('{suspect} is not a suspect in this game'),
    N_('{suspect} has {have} {bank}s, not {n}'),
    N_('no file {file} of a suspect {suspect} in this game'),
    N_("{suspect}'s {file} file has no token {i}"),
    N_('{lead} is not a lead'),
    N_('{card} is not a twilight card'),
    N_('{card} is not in the game'),
    N_('zone {zone}: expected <seat>.hand, <seat>.in_play, face_down, bottom or box'),
    N_('{seat} has no {track} track'),
    N_('{plot} is not a plot of {detective}'),
    N_("{seat}'s free hero markers would be {n}"),
    N_('no event {event} or location {location}'),
    N_('{event} has no ability on the map'),
))
