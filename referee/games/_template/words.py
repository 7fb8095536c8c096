"""The game's words that are not a rule's: the reason its outcome gives, marked for the catalog so that a
result reads in the reader's language wherever one is said (:func:`referee.outcome.words`). A bigger game
says its events in words here too (``describe_event``)."""

from __future__ import annotations

from referee.engine.speech import N_

#: the reasons its outcomes give that no other word names, as referee.outcome says them (through the catalog)
OUTCOME_REASONS = (N_("last stone"),)
