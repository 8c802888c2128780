"""``python -m rulepress``: the same command line as ``rulepress``, for a Python without the
script on its PATH (a checkout run through PYTHONPATH, an environment not activated)."""

from rulepress.cli import main

if __name__ == "__main__":
    main(prog_name="rulepress")
