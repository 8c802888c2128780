"""``rulepress serve``: a local preview of the rulebooks that rebuilds what changed and reloads
the page in the browser (server.py), serving only the project's files (site.py)."""
