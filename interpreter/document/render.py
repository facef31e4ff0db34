"""The blocks of a game's document (see __init__.py) written as Markdown or as one HTML page."""
from __future__ import annotations

import html
import re

FENCE = "```"


def markdown(blocks: list[tuple]) -> str:
    out: list[str] = []
    for block in blocks:
        kind = block[0]
        if kind == "h":
            out.append("#" * block[1] + " " + block[2])
        elif kind == "p":
            if block[1]:
                out.append(block[1])
        elif kind in ("code", "pre"):
            fence = "~~~~" if FENCE in block[1] else FENCE       # notes may quote a fence
            out.append(f"{fence}{'rules' if kind == 'code' else 'text'}\n{block[1]}\n{fence}")
        elif kind == "table":
            headers, rows = block[1], block[2]
            lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
            lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _cell(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def html_page(blocks: list[tuple]) -> str:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    from ..highlight.pygments_lexer import RulecraftLexer
    lexer, formatter = RulecraftLexer(), HtmlFormatter(noclasses=True, nobackground=True)
    title = next((b[2] for b in blocks if b[0] == "h" and b[1] == 1), "rulecraft game")
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           f"<title>{html.escape(title)}</title>",
           "<style>body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em;line-height:1.45}"
           "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;"
           "vertical-align:top}pre{background:#f6f6f6;padding:.6em;overflow-x:auto}</style>",
           "</head>", "<body>"]
    for block in blocks:
        kind = block[0]
        if kind == "h":
            out.append(f"<h{block[1]}>{html.escape(block[2])}</h{block[1]}>")
        elif kind == "p":
            if block[1]:
                out.append("<p>" + _inline_code(html.escape(block[1])).replace("\n", "<br>\n") + "</p>")
        elif kind == "pre":
            out.append(f"<pre>{_inline_code(html.escape(block[1]))}</pre>")
        elif kind == "code":
            out.append(highlight(block[1], lexer, formatter).strip())
        elif kind == "table":
            out.append("<table>")
            out.append("<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in block[1]) + "</tr>")
            out.extend("<tr>" + "".join(f"<td>{_inline_code(html.escape(str(c)))}</td>" for c in row) + "</tr>"
                       for row in block[2])
            out.append("</table>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


_CODE = re.compile(r"`([^`\n]+)`")


def _inline_code(escaped: str) -> str:
    """Escaped text with its Markdown `code` spans (the rule files' comments use them) as <code>."""
    return _CODE.sub(r"<code>\1</code>", escaped)
