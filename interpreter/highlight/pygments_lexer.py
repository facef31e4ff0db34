"""The Pygments lexer for rule files (`pygmentize -l rulecraft FILE`), registered as a Pygments plugin."""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, include, words as _words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace)

from . import words

NAME = r"[A-Za-z_][A-Za-z_0-9]*"


class RulecraftLexer(RegexLexer):
    """Rule files of rulecraft: board and card games written as text."""

    name = "rulecraft"
    aliases = ["rulecraft", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulecraft"]
    url = "https://pypi.org/project/rulecraft/"

    tokens = {
        "root": [
            (r"[ \t\f]+", Whitespace),
            (r"\n", Whitespace),
            (r"\\\n", Text),
            (r"#.*?$", Comment.Single),
            (r'"', String.Double, "string"),
            (r"(\.)(" + NAME + ")", bygroups(Punctuation, Name.Attribute)),
            (r"\b(" + words.alternation(words.declaring_keywords()) + r")([ \t]+)(" + NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\b(" + words.alternation(words.builtin_functions()) + r")(?=\s*\()", Name.Builtin),
            (_words(words.constants(), prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (_words(words.word_operators(), prefix=r"\b", suffix=r"\b"), Operator.Word),
            (_words(words.plain_keywords(), prefix=r"\b", suffix=r"\b"), Keyword),
            (r"[A-Z][A-Za-z_0-9]*", Name.Class),
            (NAME, Name),
            (r"[0-9]+", Number.Integer),
            (r"\.\.", Operator),
            (r"->|==|!=|<=|>=|\+=|-=|[-+*/%<>=|]", Operator),
            (r"[()\[\],:.?]", Punctuation),
        ],
        "string": [
            (r'\\.', String.Escape),
            (r"\{\{|\}\}", String.Escape),
            (r"\{", String.Interpol, "interpolation"),
            (r'[^"\\{}\n]+', String.Double),
            (r"\}", String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", String.Double, "#pop"),       # an unclosed string ends with its line
        ],
        "interpolation": [
            (r"\}", String.Interpol, "#pop"),
            (r'"[^"\n}]*"', String.Double),
            (r"\n", Text, "#pop:2"),
            include("root"),
        ],
    }
