"""Referee: an event-sourced referee for tabletop games."""

__version__ = "0.1.0"
