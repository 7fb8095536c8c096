"""Tournaments: rounds, pairings, results and standings derived from the match logs (issue 14).

A layer of its own over the match service. A tournament is an append-only log of records
(:mod:`.events`: registrations, drops, pairings, results copied from logs, an arbiter's results and
corrections, tie-break changes — each with who and why), folded deterministically (:mod:`.fold`).
:mod:`.scoring` turns a table's outcome into each player's game, :mod:`.tiebreaks` and
:mod:`.standings` rank and explain, :mod:`.pairing` pairs (Swiss by maximum-weight matching,
round-robin by Berger tables, pods), :mod:`.service` runs the commands, :mod:`.export` writes the
standings and pairings as Markdown, HTML, JSON or CSV.
"""
