"""The typed IR as text to read (`rulecraft show GAME --ir`): one node a line, its children indented.

What the checker hands the compiler, written so that two versions diff well: a node is its class
name, its plain fields (`name=…`, `slot=3`), `: type` for an expression and `@line` for where the
rules say it (`@file:line` in another file than the game's own, a module it imports); a field holding nodes follows on lines of its own (`field:` and the node, or one `- `
item a line). Nothing in it depends on the process (no addresses, no ids): the same rules give the
same text. tests/codegen holds it for a small corpus beside the generated Python.
"""
from __future__ import annotations

from .. import slotclasses
from . import nodes as ir

_QUIET = ("type", "span")       # said in the node's own line, not as fields


def dump(program: ir.Program, main_file: str | None = None) -> str:
    """The whole checked game: its plain fields one a line, then each field holding nodes. A place in
    another file than `main_file` (as spans name it) is said with its file."""
    writer = _Writer({v.slot: v.name for v in program.vars + program.options}, main_file)
    out = [type(program).__name__]
    fields = [f.name for f in type(program).__record_fields__]
    out += [f"  {name}: {_plain(getattr(program, name))}" for name in fields
            if not _holds_nodes(getattr(program, name))]
    for name in fields:
        value = getattr(program, name)
        if _holds_nodes(value):
            out += writer.field(name, value, 1)
    return "\n".join(out) + "\n"


class _Writer:
    def __init__(self, var_names: dict, main_file: str | None):
        self.var_names = var_names      # a variable's slot -> its name, said beside `slot=`
        self.main_file = main_file

    def render(self, node, indent: int = 0) -> list[str]:
        """The lines of one node (or of a value that holds nodes), indented by `indent` steps."""
        pad = "  " * indent
        if not _holds_nodes(node):
            return [pad + _plain(node)]
        if isinstance(node, (tuple, list)):
            return [line for item in node for line in self.item(item, indent)]
        if isinstance(node, dict):
            return [line for key, value in node.items() for line in self.field(str(key), value, indent)]
        declared = [f.name for f in type(node).__record_fields__]
        fields = [name for name in declared if name not in _QUIET]
        plain = [f"{name}={_plain(getattr(node, name))}" for name in fields if not _holds_nodes(getattr(node, name))]
        if type(node) in (ir.Var, ir.OwnedVar) and node.slot in self.var_names:
            plain.append(f"({self.var_names[node.slot]})")
        head = " ".join([type(node).__name__] + plain)
        if "type" in declared:
            head += f" : {_plain(node.type)}"
        span = getattr(node, "span", None)
        if hasattr(span, "line"):
            head += f" @{span.line}" if span.file == self.main_file or self.main_file is None \
                else f" @{span.file}:{span.line}"
        out = [pad + head]
        for name in fields:
            value = getattr(node, name)
            if _holds_nodes(value):
                out += self.field(name, value, indent + 1)
        return out

    def field(self, name: str, value, indent: int) -> list[str]:
        pad = "  " * indent
        if isinstance(value, (tuple, list, dict)):
            return [f"{pad}{name}:"] + self.render(value, indent + 1)
        lines = self.render(value, indent)
        return [f"{pad}{name}: {lines[0].lstrip()}"] + lines[1:]

    def item(self, item, indent: int) -> list[str]:
        lines = self.render(item, indent + 1)
        return ["  " * indent + "- " + lines[0].lstrip()] + lines[1:]


def _holds_nodes(value) -> bool:
    if isinstance(value, (tuple, list)):
        return any(_holds_nodes(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_nodes(v) for v in value.values())
    return slotclasses.has(type(value)) and type(value).__module__ == ir.__name__


def _plain(value) -> str:
    """A value that holds no node, the same in every process: a type by its name, a span by its place."""
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_plain(v) for v in value)
        return f"({inner}{',' if len(value) == 1 else ''})" if isinstance(value, tuple) else f"[{inner}]"
    if isinstance(value, (frozenset, set)):
        return "{" + ", ".join(sorted(_plain(v) for v in value)) + "}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_plain(k)}: {_plain(v)}" for k, v in value.items()) + "}"
    if hasattr(value, "line") and hasattr(value, "col"):
        return f"@{value.line}:{value.col}"
    text = str(value)
    return text if " at 0x" not in text else type(value).__name__
