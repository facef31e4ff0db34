"""`rulecraft lsp`: run the language server over standard input and output (needs the extra rulecraft[lsp])."""
from __future__ import annotations

from ..diagnostics import UserError


def add_arguments(p) -> None:
    p.description = (
        "Run rulecraft's language server, speaking the Language Server Protocol over standard input and "
        "output: errors as you type, hover, go to definition, completion, document symbols and formatting "
        "for .rules files. Point your editor's LSP client at the command 'rulecraft lsp' (see docs/editors.md). "
        "Needs the optional extra: pip install 'rulecraft[lsp]'.")


def cmd_lsp(args) -> int:
    try:
        from ..lsp.server import main
    except ImportError as e:
        raise UserError(f"the language server needs pygls ({e.name or e} is missing): "
                        "pip install 'rulecraft[lsp]'") from None
    return main()
