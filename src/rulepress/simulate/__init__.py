"""Playtest by simulation: thousands of games through a game's rules protocol, and what they say.

``rulepress simulate GAME`` plays games at one or more tables (player counts x variants) with
the agents named (uniform random play, or the heuristics the engine offers), on local worker
processes or a Dask cluster, and writes ``summary.json`` (every figure, with 95% intervals,
and the exact command) and SVG plots. The same seed gives the same bytes whatever runs it.

- :mod:`.spec`: the run's parameters and each game's seed;
- :mod:`.play`: playing games into tallies (what a worker runs);
- :mod:`.stats`: streaming counts and the figures computed from them;
- :mod:`.execute`: local processes or a Dask cluster;
- :mod:`.run`: the run from options to written files;
- :mod:`.plots`: the SVG plots;
- :mod:`.report`: the playtest report a rulebook takes from a committed summary.
"""
