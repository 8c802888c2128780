"""Print for a press: PDF/X-1a and CMYK ink, shared by the books, the kits and the print-house
exports (each of which imports this; it imports none of them)."""
