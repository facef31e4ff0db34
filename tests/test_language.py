"""Constructs added to the language from real authoring (issue 11): each played, not only checked.

One small rule file per construct, run through the whole pipeline (parse, check, lower,
compile, engine); the misuses are in tests/diagnostics/ and docs/language.md.
"""
from __future__ import annotations

import pytest

from rulecraft.engine import machine, scenarios
from rulecraft.loader import load_file

PICK = '''game "Pick"
players 2
var total: Int
var last: Int
rule play:
    for p in players:
        p chooses k in 1..3 as "take {k}":
            total += k
            last = k
'''


def run(rules_file, text):
    program = load_file(rules_file(text))
    return {r.name: r for r in scenarios.run_all(program)}


def test_expect_deciding_and_checks_joined_by_and(rules_file):
    results = run(rules_file, PICK + '''
scenario good "checks joined by and":
    expect deciding player(1) and legal "take 1" and not legal "take 4"
    take "take 3"
    expect deciding player(2)
    take "take 2"
    expect over

scenario wrong_player "who decides":
    expect deciding player(2)

scenario second_check_fails "a later check of the line fails":
    expect legal "take 1" and legal "take 9"

scenario after_the_end "nobody decides once the game is over":
    take "take 1"
    take "take 1"
    expect deciding player(1)
''')
    assert results["good"].ok
    assert results["wrong_player"].message == "expected Player 2 to be deciding, but Player 1 is"
    assert results["second_check_fails"].message.startswith("'take 9' should be legal")
    assert results["after_the_end"].message == "expected Player 1 to be deciding, but the game is over"


def test_a_failed_and_shows_each_failing_side_with_its_values(rules_file):
    results = run(rules_file, PICK + '''
scenario bad "each failing side shown":
    take "take 3"
    expect total == 4 and last == 3 and size(players) == 3
''')
    message = results["bad"].message
    assert message.startswith("expectation not met: total == 4 does not hold (==): total is 3; 4 is 4; and ")
    assert "size(players) == 3 does not hold (==): size(players) is 2" in message
    assert "last == 3" not in message      # the side that holds is not blamed


BREAK = '''game "Break"
players 2
var found: Int
var asked: Int
var k: Int
rule play:
    for n in 1..10:
        if n * n > 30:
            found = n
            break
    while true:
        k += 1
        repeat 5:
            if k > 1:
                break
        if k == 3:
            break
    for p in players:
        while true:
            p chooses x in 1..3 as "say {x}":
                asked += 1
                if x == 3:
                    break
            if asked > 100:
                break

scenario stops "break leaves the innermost loop, in rules that wait and rules that do not":
    expect found == 6 and k == 3
    take "say 1"
    take "say 3"
    expect deciding player(2)
    expect asked == 2
    take "say 3"
    expect over
'''


def test_break_leaves_the_innermost_loop(rules_file):
    results = run(rules_file, BREAK)
    assert results["stops"].ok, results["stops"].message


def test_break_inside_a_loop_of_a_rule_that_waits_keeps_the_game_saveable(rules_file):
    """A break out of a waiting loop jumps in the rule's own code; the state stays plain data."""
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    program = load_file(rules_file(BREAK))
    s = Session.start(program, "break.rules", 2, seed=1)
    s.take_label("say 2")
    s.take_label("say 3")
    copy = s.state.copy()
    s.take_label("say 3")
    assert s.over and not copy.same_as(s.state)


def test_let_in_a_def_names_values_once(rules_file):
    results = run(rules_file, '''game "Let in defs"
players 2
card Chip(n: 1..6)
cards chips = [Chip(n) for n in 1..6]
zone hand of Chip per player

def best(p: Player): Int =
    let ns = [c.n for c in p.hand]
    let top = if size(ns) == 0 then 0 else max(ns)
    top * 10 + size(ns)

def spread(p: Player): Int =
    let hi = best(p) / 10
    let lo = if empty(p.hand) then 0 else min(c.n for c in p.hand)
    hi - lo

rule play:
    for c in chips:
        move c to players[c.n mod 2].hand

scenario values "lets name values once":
    expect best(player(1)) == 63 and spread(player(1)) == 4 and best(player(2)) == 53
''')
    assert results["values"].ok, results["values"].message


def test_a_const_is_computed_once_at_load_and_cannot_change(rules_file):
    from rulecraft.diagnostics import RulesError
    text = '''game "Consts"
players 2
card Chip(n: 1..6)
cards chips = [Chip(n) for n in 1..6]
const brews_to_win = 3
const odd_chips: List[Chip] = [c for c in chips if c.n mod 2 == 1]
const total = sum(c.n for c in chips)
rule play:
    pass

scenario consts "values":
    expect brews_to_win == 3 and size(odd_chips) == 3 and total == 21
'''
    assert run(rules_file, text)["consts"].ok
    with pytest.raises(RulesError) as info:
        load_file(rules_file(text.replace("    pass\n", "    total = 4\n")))
    assert "'total' cannot be changed" in str(info.value)


def test_first_finds_the_first_match_and_fails_clearly_on_none(rules_file):
    from rulecraft.runtime.errors import RulesRuntimeError
    text = '''game "First"
players 2
enum Suit: Cups, Coins
card Chip(suit: Suit, n: 1..4) named "{suit} {n}"
cards chips = [Chip(s, n) for s in Suit for n in 1..4]
zone hand of Chip per player
var square: Int

def first_coin(p: Player): Chip = first(c in p.hand where c.suit == Coins)

rule play:
    for c in chips:
        move c to players[c.n mod 2].hand
    square = first(n in 1..10 where n * n > 20)

scenario found "finds":
    expect first_coin(player(1)) == Chip("Coins 2") and square == 5 and first(player(2).hand) == Chip("Cups 1")
'''
    assert run(rules_file, text)["found"].ok
    with pytest.raises(RulesRuntimeError) as info:
        machine.new_game(load_file(rules_file(text.replace("n * n > 20", "n > 10"))), 2)
    assert "first(…): no element meets the condition" in str(info.value) and ":14:" in str(info.value)


ENUMS = '''
game "Ranks"
players 2
enum Suit: Clubs, Diamonds, Hearts, Spades
enum Rank(points: Int, face: Bool):
    Two(0, false) "2", Three(0, false) "3", Four(0, false) "4"
    Jack(2, true) "J", Queen(3, true) "Q", King(4, true) "K", Ace(11, false) "A"
enum Hand: HighCard "High Card", Pair, FullHouse "Full House"
card Playing(suit: Suit, rank: Rank) named "{rank}{suit}"
cards deck = [Playing(s, r) for s in Suit for r in Rank]
zone hand of Playing per player
var best: Hand

rule play:
    let top = max(c in deck by c.rank)
    let ranks = sort(r in Rank by -r.position)
    say "{top} {ranks} {max([Three, Jack, Two])} {Jack < Queen} {Ace.points} {sum(r.points for r in Rank)}"
    best = FullHouse
    say "{best} beats {HighCard}: {best > HighCard}"

scenario order "ordered enums":
    expect Two < Ace and Rank.King > Queen and max([Three, Jack, Two]) == Jack
    expect Ace.points == 11 and Jack.face and not Ace.face and Ace.position == 6
'''


def test_ordered_enums_with_display_names_and_data(rules_file, capsys):
    results = run(rules_file, ENUMS)
    assert results["order"].ok, results["order"].message
    from rulecraft.cli.main import main
    assert main(["run", str(rules_file(ENUMS)), "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "AClubs A, K, Q, J, 4, 3, 2 J yes 11 20" in out      # display names, in the enum's order
    assert "Full House beats High Card: yes" in out


OPTIONAL = '''
game "Champions"
players 3
enum Suit: Cups, Coins
var champion: Player?
var trump: Suit?
var best: Int? per player

def title: Str = if champion != none then "champion {champion} of seat {champion.seat}" else "no champion yet"

rule play:
    say "{title}; trump {trump}; {player(1).best}"
    for p in players:
        p chooses k in 1..3 as "score {k}":
            p.best = k
    let top = max(p in players by if p.best != none then p.best else 0)
    champion = top
    if champion != none and champion.seat == 1:
        say "the first seat wins"
    if trump == none:
        trump = Coins
    say "{title}; trump {trump}"

scenario crowned "a champion, once there is one":
    expect champion == none and trump == none and title == "no champion yet"
    take "score 1"
    take "score 3"
    take "score 2"
    expect champion == player(2) and trump == Coins
    expect title == "champion Player 2 of seat 2"
'''


def test_optional_values_start_as_none_and_survive_a_save(rules_file):
    results = run(rules_file, OPTIONAL)
    assert results["crowned"].ok, results["crowned"].message
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    from rulecraft.engine import views
    program = load_file(rules_file(OPTIONAL))
    s = Session.start(program, "game.rules", 3, seed=1)
    shown = views.view(s.state, 0)
    assert "none" in str(shown)                        # champion, trump: shown as none, not as a placeholder
    s.take_label("score 2")
    text = records.dump(records.session_record(s, "save"))
    back = records.restore(records.parse(text), lambda ref: program, check_digest=False)
    records.verify_state(records.parse(text), back, "the save")      # the stored state, None values included
    assert back.state.same_as(s.state) and "null" in text


OPTIONAL_CARD = '''
game "Best chip"
players 2
enum Suit: Cups, Coins
card Chip(suit: Suit, n: 1..4) named "{suit} {n}"
cards chips = [Chip(s, n) for s in Suit for n in 1..4]
zone hand of Chip per player, seen by owner
zone table of Chip
var best: Chip?
var kept: Chip? per player, seen by owner

def best_text: Str = if best != none then "{best}, a {best.suit}" else "no card yet"

rule setup:
    for c in chips:
        move c to players[c.n mod 2].hand

rule play:
    say "{best_text}"
    for p in players:
        p chooses c in p.hand as "play {c}":
            move c to table
            if best == none or c.n > best.n:
                best = c
        p.kept = first(p.hand)
        say "{p} keeps {p.kept}; the best is {best}"
    if best != none:
        move best to player(1).hand
    let gone = if empty(table) then none else top(table)
    say "{best}; {if best != none then best.n else 0}; {gone}"

scenario best "none until a card is played":
    expect best == none and best_text == "no card yet" and player(1).kept == none
    take "play Cups 2"
    expect best == Chip("Cups 2") and player(1).kept == Chip("Cups 4")
    take "play Coins 1"
    expect best == Chip("Cups 2") and best_text == "Cups 2, a Cups"
'''


def test_an_optional_card_is_none_or_a_card_everywhere(rules_file):
    """`Chip?`: none at the start, narrowed by `!= none`, shown as none, saved, copied, pickled and
    encoded (none as zeros); told to a seat that may not see the card as "a Chip"."""
    import pickle
    from rulecraft.engine import observe, records, views
    from rulecraft.engine.session import Session
    from rulecraft.tensors import Encoder
    results = run(rules_file, OPTIONAL_CARD)
    assert results["best"].ok, results["best"].message
    program = load_file(rules_file(OPTIONAL_CARD))
    s = Session.start(program, "game.rules", 2, seed=1)
    assert views.view(s.state, 0)["vars"]["best"] == "none"
    assert observe.narration(s.take_narration(), 1) == ["no card yet"]
    enc = Encoder(program, 2)
    (at, width), = [(a, w) for name, a, w in enc.layout if name == "var best"]
    assert width == 8 and enc.encode(s.state, 0)[at:at + width] == [0.0] * 8
    s.take_label("play Cups 2")
    assert observe.narration(s.take_narration(), 1) == ["Player 1 keeps (hidden); the best is Cups 2"]
    assert enc.encode(s.state, 1)[at:at + width] == [0.0, 1.0] + [0.0] * 6       # Cups 2, by name
    for twin in (s.state.copy(), pickle.loads(pickle.dumps(s.state))):
        assert twin.same_as(s.state)
    text = records.dump(records.session_record(s, "save"))
    back = records.restore(records.parse(text), lambda ref: program, check_digest=False)
    records.verify_state(records.parse(text), back, "the save")
    assert back.state.same_as(s.state)
    s.take_label("play Coins 1")
    said = s.take_narration()
    assert observe.narration(said, 0)[-1] == "Cups 2; 2; Coins 1"
    assert observe.narration(said, 1)[-1] == "a Chip; (hidden); Coins 1"     # Cups 2 went back to Player 1's hand


def test_a_handlers_where_vouches_for_its_block(rules_file):
    """`when e(…) where x != none:` is tested just before the handler's block runs: x is a value there."""
    results = run(rules_file, '''
game "Taken"
players 2
var taking: Int?
event grabbed(p: Player)
when grabbed(p) where taking != none:
    say "{p} grabs pile {taking + 1}"
rule play:
    signal grabbed(player(1))
    taking = 2
    signal grabbed(player(2))
    taking = none

scenario grab "only while a pile is being taken":
    expect said "Player 2 grabs pile 3"
    expect taking == none
''')
    assert results["grab"].ok, results["grab"].message


RANGES = '''
game "Bids"
players 2..4
option hand_size: 1..8 = 3
var bid: Int per player
var tricks_left: 0..13 = 5

rule play:
    for p in players:
        p chooses b in 0..hand_size as "bid {b}":
            p.bid = b
    let total = sum(p.bid for p in players)
    player(1) chooses k in 1..player_count + tricks_left as "take {k}":
        say "{k}"
    say "{[n * n for n in 1..total]}"

scenario bids "computed ends":
    option hand_size = 2
    expect legal "bid 2" and not legal "bid 3"
    take "bid 2"
    take "bid 1"
    expect legal "take 7" and not legal "take 8"
'''


def test_computed_range_bounds_in_choices_and_lists(rules_file):
    results = run(rules_file, RANGES)
    assert results["bids"].ok, results["bids"].message
    program = load_file(rules_file(RANGES))
    # the universe of `0..hand_size` is 0..8 whatever the option's value: ids do not depend on it
    from rulecraft.engine.session import Session
    ids = {}
    for size in (2, 8):
        s = Session.start(program, "game.rules", 2, seed=0, options={"hand_size": size})
        ids[size] = {o.label: o.id for o in s.legal()}
    assert ids[2]["bid 1"] == ids[8]["bid 1"] and "bid 8" in ids[8]


def test_a_computed_range_outside_its_declared_bounds_stops_the_rules(rules_file):
    from rulecraft.runtime.errors import RulesRuntimeError
    from rulecraft.engine.session import Session
    text = RANGES.replace("var tricks_left: 0..13 = 5", "var tricks_left: 0..13 = 20")
    s = Session.start(load_file(rules_file(text)), "game.rules", 2, seed=0)
    s.take_label("bid 1")
    with pytest.raises(RulesRuntimeError) as info:
        s.take_label("bid 1")
    assert "the range 1..22 goes outside 1..17" in str(info.value)


SOME = '''
game "Re-rolls"
players 2
card Die(n: 1..5) named "die {n}"
cards dice = [Die(n) for n in 1..5]
var face: Int by Die = 1
var total: Int per player

rule play:
    for p in players:
        for d in dice:
            face[d] = random(1..6)
        p chooses some d in dice where face[d] < 6 up to 3 as "re-roll {d} (a {face[d]})" or "keep the rest":
            for x in d:
                face[x] = random(1..6)
            say "{p} re-rolled {size(d)}: {d}"
        p.total = sum(face[x] for x in dice)
    player(1) chooses some k in 1..4 exactly 2 as "pick {k}":
        say "picked {k}"

score p = p.total

scenario reroll "pick several, then stop":
    next random is 1
    next random is 2
    next random is 3
    next random is 4
    next random is 6
    expect legal "re-roll die 1 (a 1)" and not legal "re-roll die 5 (a 6)" and legal "keep the rest"
    take "re-roll die 1 (a 1)"
    expect not legal "re-roll die 1 (a 1)" and deciding player(1)
    take "re-roll die 2 (a 2)"
    next random is 6
    next random is 5
    take "keep the rest"
    expect player(1).total == 6 + 5 + 3 + 4 + 6
'''


def test_choose_some_takes_several_one_decision_each(rules_file):
    results = run(rules_file, SOME)
    assert results["reroll"].ok, results["reroll"].message


def test_exactly_n_offers_no_way_to_stop_early_and_up_to_stops_at_n(rules_file):
    from rulecraft.engine.session import Session
    s = Session.start(load_file(rules_file(SOME)), "game.rules", 2, seed=5)
    for _ in range(3):                      # up to 3: after three re-rolls, nothing more is asked of player 1
        assert s.to_move == 0
        s.take_label(next(o.label for o in s.legal() if o.label.startswith("re-roll")))
    assert s.to_move == 1
    s.take_label("keep the rest")
    labels = [o.label for o in s.legal()]
    assert labels == ["pick 1", "pick 2", "pick 3", "pick 4"]      # exactly 2: no option to stop
    s.take_label("pick 3")
    assert [o.label for o in s.legal()] == ["pick 1", "pick 2", "pick 4"]
    s.take_label("pick 1")
    assert s.over


def test_a_person_picks_several_in_one_prompt(rules_file):
    from rulecraft.agents.human import HumanAgent
    from rulecraft.engine.session import Session
    s = Session.start(load_file(rules_file(SOME)), "game.rules", 2, seed=5)
    answers = iter(["1 2 5"])
    shown = []
    agent = HumanAgent(read=lambda prompt: next(answers), write=shown.append)
    labels = [o.label for o in s.legal()]
    wanted = [labels[0], labels[1], labels[4]]
    taken = []
    for _ in range(3):
        option = agent.choose(s)
        taken.append(s.label(option))
        s.take(option)
    assert taken == wanted and wanted[-1] == "keep the rest" and s.to_move == 1


PAIRS = '''
game "Grid"
players 2
enum Cell: A, B, C
var written: Int? per player by Cell

rule play:
    repeat 2:
        for p in players:
            let roll = random(1..6) + random(1..6)
            p may choose s in 2..12, c in Cell where s == roll and p.written[c] == none as "write {s} in {c}" or "skip":
                p.written[c] = s
                say "{p} writes {s} in {c}"

score p = sum(if p.written[c] != none then p.written[c] else 0 for c in Cell)

scenario write "a pair choice: the sum and the cell":
    next random is 3
    next random is 4
    expect legal "write 7 in A" and legal "write 7 in C" and not legal "write 8 in A"
    take "write 7 in B"
    expect player(1).written[B] == 7
'''


def test_a_pair_choice_offers_pairs_with_ids_from_the_product(rules_file):
    results = run(rules_file, PAIRS)
    assert results["write"].ok, results["write"].message
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    program = load_file(rules_file(PAIRS))
    s = Session.start(program, "game.rules", 2, seed=4)
    ids = {o.label: o.id for o in s.legal()}
    info = program.choices[s.state.pending[0]]
    for label, option in ids.items():
        if label != "skip":                       # (sum - 2) * 3 cells + the cell's place, from the block's start
            total, cell = label.removeprefix("write ").split(" in ")
            assert option == info.offset + (int(total) - 2) * 3 + "ABC".index(cell)
    s.take(next(i for label, i in ids.items() if label != "skip"))
    text = records.dump(records.session_record(s, "save"))
    back = records.restore(records.parse(text), lambda ref: program, check_digest=False)
    records.verify_state(records.parse(text), back, "the save")


def test_the_forms_settled_for_consistency(rules_file):
    """`else if` in statements, typed binders in `when`/`anytime`, the help text of an option before its `:`."""
    text = '''game "T"
players 2
option speed "how fast": slow | fast = slow
enum Fruit: Apple, Pear
event picked(p: Player, f: Fruit)
var n: Int
var said: Str
when picked(p: Player, f: Fruit) where f == Pear:
    n += 1
anytime nap(p: Player) where n > 5 as "nap":
    n = 0
rule play:
    for p in players:
        p chooses f in Fruit as "pick {f}":
            signal picked(p, f)
    if n == 0:
        said = "none"
    else if n == 1:
        said = "one"
    else:
        said = "two"

scenario pears "two pears make two":
    take "pick Pear"
    take "pick Pear"
    expect over
    expect n == 2 and said == "two"
'''
    program = load_file(rules_file(text))
    assert [(o.name, o.doc) for o in program.options] == [("speed", "how fast")]
    results = {r.name: r for r in scenarios.run_all(program)}
    assert results["pears"].ok, results["pears"].message


def test_a_card_is_looked_up_by_name_explicitly(rules_file):
    """`Type named "…"` finds a card even of a type whose one field is text (where `Type("…")` makes one)."""
    text = '''game "Named"
players 1
card Note(text: Str) named "{text}"
cards notes = [Note("do"), Note("re")]
zone pad of Note
rule play:
    move notes to pad
scenario lookup "looked up":
    expect top(pad) == Note named "re" and bottom(pad) == Note named "do"
    expect top(pad) != Note named "do"
'''
    assert run(rules_file, text)["lookup"].ok


def test_every_declaration_binder_may_carry_its_type(rules_file):
    """`score`, `tiebreak`, `heuristic` and a player's `sheet` take `p: Player` as a `def` writes it;
    the typed and untyped forms make the same program."""
    typed = '''game "T"
players 2
var n: Int per player
sheet p: Player:
    "n {p.n}"
rule play:
    for p in players:
        p chooses k in 1..3 as "take {k}":
            p.n = k
score p: Player = p.n
tiebreak q: Player = -q.seat
heuristic p: Player = p.n
'''
    untyped = (typed.replace("sheet p: Player:", "sheet p:").replace("p: Player =", "p =")
               .replace("q: Player =", "q ="))
    assert "Player =" not in untyped and "sheet p:\n" in untyped
    from rulecraft.engine.session import Session
    for text in (typed, untyped):
        program = load_file(rules_file(text))
        s = Session.start(program, "t", 2, seed=1)
        while not s.over:
            s.take(s.legal()[-1].id)
        assert s.scores()["scores"] == [3, 3] and s.scores()["winners"] == [0]   # the tiebreak: seat 1
    from rulecraft.format import shape
    from rulecraft.syntax import ast
    from rulecraft.syntax.parser import parse_module
    decls = parse_module(typed, "t.rules").decls
    assert [type(d.var_type).__name__ for d in decls if isinstance(d, ast.ScoreDecl)] == ["NamedType"] * 3
    assert [d.player_type.name for d in decls if isinstance(d, ast.SheetDecl)] == ["Player"]
    assert shape(parse_module(untyped, "t.rules")) != shape(parse_module(typed, "t.rules"))


VALUES = '''game "Challenges"
players 2
card Chip(n: 1..6) named "chip {n}"
cards chips = [Chip(n) for n in 1..6]
zone deck of Chip
zone hand of Chip per player, seen by owner
var wins: Int per player
var asked: Int

rule settle(p: Player, q: Player): Bool:
    asked += 1
    q may choose c in q.hand as "{q} answers with {c}" or "{q} concedes":
        return c.n < top(p.hand).n
    else:
        return true

rule twice(p: Player, q: Player): Bool:
    if settle(p, q):
        return settle(p, q)
    return false

rule bigger(a: Int, b: Int): Int:
    if a > b:
        return a
    return b

rule play:
    move chips to deck
    for p in players:
        move top(deck) to p.hand
    let held = twice(player(1), player(2))
    player(1).wins = bigger(2, 7)
    if held:
        player(1).wins += 10
    player(2).wins = bigger(asked, 1)
'''


def test_a_rule_gives_a_value_through_its_decisions_and_a_save(rules_file):
    """`return` from inside an option's block, a value rule calling another (`return settle(…)`, `if settle(…):`),
    and one that never waits; a state copied and written to data mid-rule resumes with the same values."""
    from rulecraft.engine import records
    from rulecraft.engine.session import Session
    program = load_file(rules_file(VALUES))
    s = Session.start(program, "values.rules", 2, seed=1)       # deck from chip 6 down: player 1 holds chip 6
    assert [o.label for o in s.legal()] == ["Player 2 answers with chip 5", "Player 2 concedes"]
    s.take_label("Player 2 answers with chip 5")                 # 5 < 6: player 1 holds, and is asked again
    from rulecraft.engine.views import view
    assert set(view(s.state, 0)["vars"]) == {"wins", "asked"}    # the values on their way are no part of the table
    data = records.state_to_data(s.state)
    again = records.state_from_data(program, data, 2, s.state.names)
    for state in (s.state, again):
        machine.decide(state, machine.option_labelled(state, "Player 2 concedes"))
        assert state.result is not None
        slot = next(v.slot for v in program.vars if v.name == "wins")
        assert list(state.vars[slot]) == [17, 2]


def test_a_rule_value_on_the_fast_path_matches_the_resumable_path(rules_file):
    from rulecraft.engine.playout import playout, reference_playout
    program = load_file(rules_file(VALUES))
    for seed in range(4):
        fast, slow = (machine.new_game(program, 2, None, seed) for _ in range(2))
        picks = [0, 1, 0, 0, 1, 1, 0, 1][seed:]
        seen_fast, seen_slow = [], []
        playout(fast, lambda m, who, ids: seen_fast.append(ids) or ids[picks[len(seen_fast) - 1] % len(ids)])
        reference_playout(slow, lambda m, who, ids: seen_slow.append(ids) or ids[picks[len(seen_slow) - 1] % len(ids)])
        assert seen_fast == seen_slow and fast.result == slow.result and fast.same_as(slow, frames=False)


def test_an_override_takes_the_value_of_the_rule_it_replaces(tmp_path):
    (tmp_path / "base.rules").write_text('game "B"\nplayers 2\nvar got: Int\nrule v: Int:\n    return 1\n'
                                         'rule play:\n    got = v()\n', encoding="utf-8")
    (tmp_path / "more.rules").write_text('extends "base.rules"\noverride rule v: Int:\n    let o = original()\n'
                                         '    return o + 5\n', encoding="utf-8")
    program = load_file(tmp_path / "more.rules")
    m = machine.new_game(program, 2, None, 0)
    machine.run(m)
    assert m.result is not None and m.vars[next(v.slot for v in program.vars if v.name == "got")] == 6


MIXED = '''game "Mixed"
players 2..3
enum Colour: Red, Blue
var got: Int per player
var told: Int
rule play:
    for p in players:
        p chooses one of:
            k in 1..3 where k != 2 as "take {k}":
                p.got += k
            q in players, c in Colour where q != p as "tell {q} about {c}":
                told += 1
                say "{p} tells {q}: {c}"
            b in Bool as "shout {b}":
                p.got += if b then 10 else 20
    player(1) may choose one of:
        k in 4..5 where k > told * 10 as "take {k} more":
            player(1).got += k
    else:
        player(1).got -= 1
'''


def test_one_choice_offers_options_of_several_shapes(rules_file):
    """Each alternative's options take fixed ids (its universe after the ones before: 3 numbers, then 3 seats
    by 2 colours, then 2 Bools), its names are bound in its `where`, label and block, and `may … else` holds."""
    import rulecraft
    game = rulecraft.load(str(rules_file(MIXED)), players=2)
    match = game.new(seed=1)
    offered = [(o.id, o.label) for o in match.legal()]
    assert offered == [(0, "take 1"), (2, "take 3"), (5, "tell Player 2 about Red"), (6, "tell Player 2 about Blue"),
                       (9, "shout yes"), (10, "shout no")]
    match.apply(6)
    assert [o.label for o in match.legal()][2:4] == ["tell Player 1 about Red", "tell Player 1 about Blue"]
    match.apply(10)                                          # player 2 shouts no: 20; told is 1, so no k > 10
    assert match.over                                        # is left: nobody is asked, the `else` runs
    assert match.told(1)[:2] == ["Player 1: tell Player 2 about Blue", "Player 1 tells Player 2: Blue"]
    slot = next(v.slot for v in game.program.vars if v.name == "got")
    assert list(match.session.state.vars[slot]) == [-1, 20]


def test_a_choice_of_several_shapes_on_the_fast_path(rules_file):
    from rulecraft.engine.playout import playout, reference_playout
    program = load_file(rules_file(MIXED))
    for players in (2, 3):
        for seed in range(3):
            fast, slow = (machine.new_game(program, players, None, seed) for _ in range(2))
            seen_fast, seen_slow = [], []
            playout(fast, lambda m, who, ids: seen_fast.append(ids) or ids[(seed + len(seen_fast)) % len(ids)])
            reference_playout(slow, lambda m, who, ids: seen_slow.append(ids) or ids[(seed + len(seen_slow)) % len(ids)])
            assert seen_fast == seen_slow and fast.result == slow.result and fast.same_as(slow, frames=False)


def test_a_rule_may_give_its_value_from_each_alternative(rules_file):
    program = load_file(rules_file('''game "Pick"
players 2
var got: Int
rule pick: Int:
    player(1) may choose one of:
        k in 1..2 as "low {k}":
            return k
        k in 8..9 as "high {k}":
            return k * 10
    else:
        return 0
rule play:
    got = pick()
'''))
    m = machine.new_game(program, 2, None, 0)
    machine.run(m)
    machine.decide(m, machine.option_labelled(m, "high 9"))
    assert m.result is not None and m.vars[next(v.slot for v in program.vars if v.name == "got")] == 90


def test_a_return_inside_a_loop_leaves_only_its_rule(rules_file):
    """`return` is an assignment and a `stop`: out of the loop and the rule, whether or not the call is inlined."""
    program = load_file(rules_file('''game "L"
players 2
var got: Int
var missing: Int
var after: Int
rule first_even(xs: List[Int]): Int:
    for x in xs:
        if x mod 2 == 0:
            return x
    return -1
rule play:
    got = first_even([3, 5, 8, 10])
    after = 1
    missing = first_even([1, 3])
'''))
    m = machine.new_game(program, 2, None, 0)
    machine.run(m)
    slot = {v.name: v.slot for v in program.vars}
    assert m.result is not None and [m.vars[slot[n]] for n in ("got", "after", "missing")] == [8, 1, -1]


def test_a_choice_may_still_name_its_value_one(rules_file):
    """`one` is a word of `chooses one of`, not a keyword: `p chooses one in 1..3` is the ordinary choice."""
    program = load_file(rules_file('game "One"\nplayers 2\nvar got: Int\nrule play:\n'
                                   '    player(1) chooses one in 1..3 as "take {one}":\n        got = one\n'))
    m = machine.new_game(program, 2, None, 0)
    machine.run(m)
    assert [machine.label(m, i) for i in machine.legal_ids(m)] == ["take 1", "take 2", "take 3"]
