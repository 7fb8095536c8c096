"""The engine core: the game protocol, verdicts, chance, canonical encoding and the fold.

Pure: nothing here touches files, the clock, the environment or global randomness, and nothing here
imports a game (the registry lives beside the games, in ``referee.games``).
"""
