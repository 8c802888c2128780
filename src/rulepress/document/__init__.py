"""Sources to an immutable document model."""
