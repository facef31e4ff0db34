"""Highlighting of rule files: a Pygments lexer and a TextMate grammar, both from words.py.

words.py reads the language's words from grammar/rulecraft.lark and the built-in
functions from the builtin registry, so neither highlighter keeps a list of its own.
"""
