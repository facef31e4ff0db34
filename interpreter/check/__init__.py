"""Resolve modules, names and types; collect every diagnostic."""
