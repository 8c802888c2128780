"""Pigeon, the two-player card game: rules engine, worked-example replay, diagrams and kit."""
