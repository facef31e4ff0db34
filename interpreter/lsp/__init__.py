"""`rulecraft lsp`: a language server for rule files (pygls, the optional extra `rulecraft[lsp]`).

analysis.py answers the questions (diagnostics, hover, definition, completion,
symbols) without any protocol; server.py speaks LSP over stdio with pygls.
"""
