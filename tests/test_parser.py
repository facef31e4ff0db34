"""Parser tests as a table: source → compact AST dump (in the manner of starlark-go).

The dump writes a node as `(Type field ...)` with its fields in order, leaving
out spans; a name is written bare, a number as itself, a tuple as `[...]`;
an absent optional part (None) is left out, and flags (`override`, `may`,
`bottom`, `is_path`) appear by name when set.
Expressions are parsed as the body of `def x = ...`, statements as the body of
`rule r:`.
"""
from __future__ import annotations

import attrs
import pytest

from rulecraft.diagnostics import RulesError, Span
from rulecraft.syntax import ast
from rulecraft.syntax.parser import parse_module

FLAGS = {"override", "may", "bottom", "is_path", "const"}


def dump(node) -> str:
    if node is None:
        return "_"
    if isinstance(node, bool):
        return "true" if node else "false"
    if isinstance(node, (int, str)):
        return str(node)
    if isinstance(node, tuple):
        return "[" + " ".join(dump(x) for x in node) + "]"
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.IntLit):
        return str(node.value)
    if isinstance(node, ast.BoolLit):
        return "true" if node.value else "false"
    if isinstance(node, ast.NamedType):
        return node.name
    if isinstance(node, ast.Template):
        return "(Template " + " ".join(repr(p) if isinstance(p, str) else dump(p) for p in node.parts) + ")"
    parts = [type(node).__name__]
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if isinstance(value, Span) or f.name == "spans":
            continue
        if f.name in FLAGS:
            if value:
                parts.append(f.name)
            continue
        if value is None or (f.name == "type_params" and not value):
            continue
        parts.append(dump(value))
    return "(" + " ".join(parts) + ")"


def parse(text: str):
    return parse_module(text, "test.rules").decls


def parse_expr(text: str) -> str:
    (decl,) = parse(f"def x = {text}\n")
    return dump(decl.body)


def parse_stmts(text: str) -> str:
    body = "".join("    " + line + "\n" for line in text.splitlines())
    (decl,) = parse("rule r:\n" + body)
    return dump(decl.body)


EXPRESSIONS = [
    ("42", "42"),
    ("true", "true"),
    ("hand_size", "hand_size"),
    ("-x", "(Neg x)"),
    ("1 + 2 * 3", "(BinOp + 1 (BinOp * 2 3))"),
    ("(1 + 2) * 3", "(BinOp * (BinOp + 1 2) 3)"),
    ("a - b - c", "(BinOp - (BinOp - a b) c)"),
    ("a mod 9", "(BinOp % a 9)"),
    ("a % 9", "(BinOp % a 9)"),
    ("9 - (t - n) mod 9", "(BinOp - 9 (BinOp % (BinOp - t n) 9))"),
    ("a / b", "(BinOp / a b)"),
    ("a == b", "(Compare == a b)"),
    ("a != b", "(Compare != a b)"),
    ("a <= b + 1", "(Compare <= a (BinOp + b 1))"),
    ("c in hand", "(Compare in c hand)"),
    ("c not in hand", "(Compare not in c hand)"),
    ("c not   in hand", "(Compare not in c hand)"),
    ("not a and b or c", "(BoolOp or (BoolOp and (Not a) b) c)"),
    ("a or b and c", "(BoolOp or a (BoolOp and b c))"),
    ("not not a", "(Not (Not a))"),
    ("if a then 1 else 2", "(Cond a 1 2)"),
    ("if a then 1 else if b then 2 else 3", "(Cond a 1 (Cond b 2 3))"),
    ("c.colour", "(Attr c colour)"),
    ("top(p.hand).number", "(Attr (Call top [(Attr p hand)]) number)"),
    ("size(deck)", "(Call size [deck])"),
    ("f()", "(Call f [])"),
    ("f(a, b + 1)", "(Call f [a (BinOp + b 1)])"),
    ("order[0]", "(Index order 0)"),
    ("order[0].played", "(Attr (Index order 0) played)"),
    ("[]", "(ListLit [])"),
    ("[1, 2, 3]", "(ListLit [1 2 3])"),
    ("1..9", "(RangeLit 1 9)"),
    ("[c for c in table if c.colour == lead]",
     "(ListLit [(Comprehension c [(CompFor c table (Compare == (Attr c colour) lead))])])"),
    ("[Witch(c, n) for c in Colour for n in 1..9]",
     "(ListLit [(Comprehension (Call Witch [c n]) [(CompFor c Colour) (CompFor n (RangeLit 1 9))])])"),
    ("sum(c.number for c in p.won)",
     "(Call sum [(Comprehension (Attr c number) [(CompFor c (Attr p won))])])"),
    ("max(c in trumps by strength(c))", "(Call max [(BestBy c trumps (Call strength [c]))])"),
    ("first(c in hand where c.n > 2)", "(Call first [(FindWhere c hand (Compare > (Attr c n) 2))])"),
    ('"play {c}"', "(Template 'play ' c)"),
    ('"{a}{b}"', "(Template a b)"),
    ('"{{literal}}"', "(Template '{literal}')"),
    ('"say \\"hi\\""', "(Template 'say \"hi\"')"),
    ('"{p} has {size(p.hand)} cards"', "(Template p ' has ' (Call size [(Attr p hand)]) ' cards')"),
    ("Colour.Red", "(Attr Colour Red)"),
    ("x  # a comment", "x"),
]


@pytest.mark.parametrize("source,expected", EXPRESSIONS, ids=[s for s, _ in EXPRESSIONS])
def test_expression(source, expected):
    assert parse_expr(source) == expected


STATEMENTS = [
    ("let x = 1", "[(Let x 1)]"),
    ("first = winner", "[(Assign first = winner)]"),
    ("p.points += 2", "[(Assign (Attr p points) += 2)]"),
    ("total -= 1", "[(Assign total -= 1)]"),
    ("move c to p.played", "[(Move c (Attr p played))]"),
    ("move top(deck) to deck bottom", "[(Move (Call top [deck]) deck bottom)]"),
    ("shuffle deck", "[(Shuffle deck)]"),
    ('say "The trump is {trump}."', "[(Say (Template 'The trump is ' trump '.'))]"),
    ("contest()", "[(ExprStmt (Call contest []))]"),
    ("deal(6, deck, p.hand)", "[(ExprStmt (Call deal [6 deck (Attr p hand)]))]"),
    ("pass", "[(Pass)]"),
    ("stop", "[(Stop)]"),
    ("break", "[(Break)]"),
    ("if a:\n    pass", "[(If [[a [(Pass)]]])]"),
    ("if a:\n    pass\nelif b:\n    stop\nelse:\n    x = 1",
     "[(If [[a [(Pass)]] [b [(Stop)]]] [(Assign x = 1)])]"),
    ("for p in players:\n    pass", "[(For p players [(Pass)])]"),
    ("while size(deck) > 0:\n    pass", "[(While (Compare > (Call size [deck]) 0) [(Pass)])]"),
    ("repeat 3:\n    pass", "[(Repeat 3 [(Pass)])]"),
    ('p chooses c in p.hand as "play {c}":\n    move c to p.played',
     "[(Choose p c (Attr p hand) (Template 'play ' c) [(Move c (Attr p played))])]"),
    ('p chooses c in p.hand where c.number > 3:\n    pass',
     "[(Choose p c (Attr p hand) (Compare > (Attr c number) 3) [(Pass)])]"),
    ('w may choose c in table as "put {c}" or "keep":\n    pass',
     "[(Choose w may c table (Template 'put ' c) (Template 'keep') [(Pass)])]"),
    ('w may choose n in 1..3:\n    pass\nelse:\n    stop',
     "[(Choose w may n (RangeLit 1 3) [(Pass)] [(Stop)])]"),
    ("let a = 1\n\n# comment\nlet b = 2", "[(Let a 1) (Let b 2)]"),
    ("let total = (1 +\n    2)", "[(Let total (BinOp + 1 2))]"),
    ("let xs = [1,\n  2]", "[(Let xs (ListLit [1 2]))]"),
    ("let total = 1 + \\\n    2", "[(Let total (BinOp + 1 2))]"),
]


@pytest.mark.parametrize("source,expected", STATEMENTS, ids=[s.splitlines()[0] for s, _ in STATEMENTS])
def test_statement(source, expected):
    assert parse_stmts(source) == expected


DECLARATIONS = [
    ('game "The Witches"', '(GameDecl The Witches)'),
    ("players 2..6", "(PlayersDecl 2 6)"),
    ("players 4", "(PlayersDecl 4 4)"),
    ("teams Red, Blue", "(TeamsDecl [Red Blue])"),
    ("import cards", "(ImportDecl cards)"),
    ('import "lib/extra.rules"', "(ImportDecl lib/extra.rules is_path)"),
    ("extends blackmore", "(ExtendsDecl blackmore)"),
    ('option wheel: descending | ascending = descending "the side"',
     "(OptionDecl wheel (ChoiceDomain [descending ascending]) descending the side)"),
    ("option hand_size: 1..9 = 6", "(OptionDecl hand_size (RangeDomain 1 9) 6 )"),
    ("option solo: Bool = false", "(OptionDecl solo (BoolDomain) false )"),
    ("enum Colour: Yellow, Blue", "(EnumDecl Colour [Yellow Blue] [_ _] [] [_ _])"),
    ("enum Rank(points: Int):\n    Ten(10) \"10\", Ace(11) \"A\",\n    Two(0)",
     "(EnumDecl Rank [Ten Ace Two] [10 A _] [(Field points Int)] [[10] [11] [0]])"),
    ('card Witch(colour: Colour, number: 1..9) named "{colour} {number}"',
     "(CardDecl Witch [(Field colour Colour) (Field number (RangeType 1 9))] (Template colour ' ' number))"),
    ("card Token(value: Int)", "(CardDecl Token [(Field value Int)])"),
    ("cards witches = [Witch(c, 1) for c in Colour]",
     "(CardsDecl witches (ListLit [(Comprehension (Call Witch [c 1]) [(CompFor c Colour)])]))"),
    ("zone deck of Witch, seen by nobody", "(ZoneDecl deck Witch nobody)"),
    ("zone trump_stack of Witch", "(ZoneDecl trump_stack Witch all)"),
    ("zone hand of Witch per player, seen by owner", "(ZoneDecl hand Witch player owner)"),
    ("var first: Player", "(VarDecl first Player)"),
    ("var points: Int per player = 0", "(VarDecl points Int player 0)"),
    ("var stage: Bool = false", "(VarDecl stage Bool false)"),
    ("def trump: Witch = top(trump_stack)", "(DefDecl trump [] Witch (Call top [trump_stack]))"),
    ("const goal: Int = 3", "(DefDecl goal [] Int 3 const)"),
    ("def f(n: Int): Int =\n    let a = n * 2\n    let b = a + 1\n    a * b",
     "(DefDecl f [(Param n Int)] Int (LetIn a (BinOp * n 2) (LetIn b (BinOp + a 1) (BinOp * a b))))"),
    ("def s(c: Witch, k: Int): Int = k", "(DefDecl s [(Param c Witch) (Param k Int)] Int k)"),
    ("def w = (\n    1 + 2)", "(DefDecl w [] (BinOp + 1 2))"),
    ("def w: Int =\n    1 + 2", "(DefDecl w [] Int (BinOp + 1 2))"),
    ("def xs(l: List[Witch]): Int = size(l)",
     "(DefDecl xs [(Param l (GenericType List Witch))] Int (Call size [l]))"),
    ("rule play:\n    pass", "(RuleDecl play [] [(Pass)])"),
    ("rule deal(n: Int, z: Zone):\n    pass", "(RuleDecl deal [(Param n Int) (Param z Zone)] [(Pass)])"),
    ("override rule play:\n    pass", "(RuleDecl override play [] [(Pass)])"),
    ("override def trump: Witch = top(deck)", "(DefDecl override trump [] Witch (Call top [deck]))"),
    ("def led[C](t: Zone[C]) = bottom(t).suit",
     "(DefDecl led [(Param t (GenericType Zone C))] (Attr (Call bottom [t]) suit) [(TypeParam C)])"),
    ("def f[C, S](c: C, s: S?): Bool = true",
     "(DefDecl f [(Param c C) (Param s (OptionalType S))] Bool true [(TypeParam C) (TypeParam S)])"),
    ("rule put[C](xs: List[C], z: Zone[C]):\n    move xs to z",
     "(RuleDecl put [(Param xs (GenericType List C)) (Param z (GenericType Zone C))] [(Move xs z)] [(TypeParam C)])"),
    ("score p = sum(c.number for c in p.won)",
     "(ScoreDecl score p (Call sum [(Comprehension (Attr c number) [(CompFor c (Attr p won))])]))"),
    ("tiebreak p = size(p.won)", "(ScoreDecl tiebreak p (Call size [(Attr p won)]))"),
    ("invariant small: size(deck) <= 54", "(InvariantDecl small (Compare <= (Call size [deck]) 54))"),
]


@pytest.mark.parametrize("source,expected", DECLARATIONS, ids=[s.splitlines()[0] for s, _ in DECLARATIONS])
def test_declaration(source, expected):
    (decl,) = parse(source + "\n")
    assert dump(decl) == expected


def test_a_whole_file_keeps_declarations_in_order():
    text = 'game "G"\nplayers 2\n\n# a comment\nrule play:\n    pass\n\n\nscore p = 0'  # no final newline
    decls = parse(text)
    assert [type(d).__name__ for d in decls] == ["GameDecl", "PlayersDecl", "RuleDecl", "ScoreDecl"]


def test_positions_are_one_based_lines_and_columns():
    (decl,) = parse("rule r:\n    let x = size(deck)\n")
    (let,) = decl.body
    assert (let.span.line, let.span.col) == (2, 5)
    call = let.value
    assert (call.span.line, call.span.col, call.span.end_col) == (2, 13, 23)
    assert (call.func_span.col, call.func_span.end_col) == (13, 17)
    assert (call.args[0].span.col, call.args[0].span.end_col) == (18, 22)


def test_positions_inside_text_interpolation():
    (decl,) = parse('rule r:\n    say "trump {trump}"\n')
    (say,) = decl.body
    expr = say.text.parts[1]
    assert isinstance(expr, ast.Name) and expr.id == "trump"
    assert (expr.span.line, expr.span.col) == (2, 17)


def test_bundled_game_parses(blackmore_path):
    decls = parse_module(blackmore_path.read_text(encoding="utf-8"), "blackmore.rules").decls
    names = [getattr(d, "name", None) for d in decls]
    for expected in ("wheel", "hand_size", "Colour", "Witch", "witches", "deck", "hand", "strength", "setup",
                     "play", "contest", "change_trump", "end_of_round"):
        assert expected in names


@pytest.mark.parametrize("source", [
    "rule r:\n    p choose c in hand:\n        pass\n",            # `choose` without `may`
    "rule r:\n    p may chooses c in hand:\n        pass\n",        # `may chooses`
    'rule r:\n    p chooses c in hand as "a" or "b":\n        pass\n',  # pass label without `may`
    "rule r:\n    1 + 2\n",
    "rule r:\n    f(x)(y)\n",
    "rule r:\n    top(deck) = 3\n",
    'rule r:\n    say "{"\n',
    'rule r:\n    say "{}"\n',
    "def x = 10000000000000\n",
    "def x = max(a + 1 by b)\n",
])
def test_parser_refuses_with_a_diagnostic(source):
    with pytest.raises(RulesError) as info:
        parse(source)
    (d,) = info.value.diagnostics
    assert d.span.file == "test.rules" and d.span.line >= 1 and d.message
