"""Wording shared by every layer that prints a long list in a sentence.

Messages name a few options and count the rest ("'a', 'b' and 4 more") so that
an error or a view stays one readable line however many options a game offers;
records, scenarios and the stepper all say it this way, so it is written once.
"""
from __future__ import annotations


def few(items, k: int, quote: bool = False) -> str:
    """The first `k` items, comma-separated (each in single quotes with `quote`), then "and N more"."""
    items = [f"'{x}'" if quote else str(x) for x in items]
    shown = ", ".join(items[:k])
    return shown + (f" and {len(items) - k} more" if len(items) > k else "")
