"""rulepress: rule texts to proven rulebooks and print-and-play kits."""

__version__ = "0.1.0"
