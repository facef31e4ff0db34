"""A syntax tree without its positions: what two layouts of one file must share."""
from __future__ import annotations

import attrs

from ..diagnostics import Span


def shape(node):
    """Nested lists of class names and field values, every Span left out (iterative: trees nest deeply)."""
    result: list = []
    stack: list = [(node, result)]
    while stack:
        value, out = stack.pop()
        if isinstance(value, Span):
            continue
        if attrs.has(type(value)):
            inner: list = [type(value).__name__]
            out.append(inner)
            for field in reversed(attrs.fields(type(value))):
                stack.append((getattr(value, field.name), inner))
        elif isinstance(value, (tuple, list)):
            inner = ["tuple"]
            out.append(inner)
            for item in reversed(value):
                stack.append((item, inner))
        else:
            out.append(value)
    return result[0] if result else None
