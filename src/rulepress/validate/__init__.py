"""Examples replayed by their game's engine; verdicts with claimed-vs-computed diffs."""
