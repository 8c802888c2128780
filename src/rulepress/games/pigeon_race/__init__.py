"""Pigeon Race (Panu Kinnari): a card-driven race of six pigeons for 2 to 6 players."""
