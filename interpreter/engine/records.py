"""Transcripts and saved games, in YAML.

Both record the rules (reference and SHA-256), options, seed, players and
every decision (id and label). A save also holds the state itself; a
transcript of a finished game holds the final scores. Reading one back replays
its decisions and checks each against the rules, so a corrupt or edited file is
refused with one sentence naming the decision and why.

A game given as a path is recorded relative to the record's own folder, so a
record replays from any folder (and older records, relative to where they were
made, still do from there). Rules edited since a record was made are not a
reason to refuse it — that is the author's loop: find a bug, fix the rules,
replay the failure. The record is replayed against the current rules (the
caller is told so), each decision found by its label, and refused only where a
recorded decision is no longer legal or a chance outcome differs.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer, ComposerError
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import AliasEvent

from ..runtime.errors import RulesRuntimeError
from ..diagnostics import RulesError, UserError
from ..regularfile import read_regular
from ..text import few
from . import machine
from .session import Session
from .state import State

FORMAT_VERSION = 1


MAX_PLAYERS = 64                  # the most players rules may state (check/declarations.py)
MAX_SEED_BITS = 256               # a seed's size (the seeds `run` writes fit in 64 bits)
MAX_LINES = 20_000                # lines of a record (one entry each), checked before YAML reads them
MAX_LINE = 64 * 1024              # characters of a line of a record
MAX_BYTES = 1024 * 1024          # a record larger than this is refused before it is read as YAML (the slow part)
MAX_DEPTH = 40                   # nesting of collections: a record needs four levels


class _PlainComposer(Composer):
    """Anchors and aliases are refused: rulecraft never writes them, and a few nested aliases (a
    "billion laughs") expand to more than any memory holds."""

    def compose_node(self, parent, index):
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent) or getattr(event, "anchor", None) is not None:
            raise ComposerError(None, None, "anchors and aliases (& and *) are not used in records", event.start_mark)
        return super().compose_node(parent, index)


def _yaml():
    y = YAML(typ="safe", pure=True)
    y.Composer = _PlainComposer
    y.max_depth = MAX_DEPTH
    y.default_flow_style = None
    y.sort_base_mapping_type_on_output = False
    y.width = 120
    return y


# -------------------------------------------------------------- state data
def state_to_data(m: State) -> dict:
    data = {
        "zones": [list(z) for z in m.zones],
        "vars": [_plain(v) for v in m.vars],
        "rng": m.rng,
        "stack": [_plain(f) for f in m.stack],
        "pending": _plain(m.pending),
        "decisions": m.decisions,
    }
    if m.program.tracks_came_from:     # the zone instance each card last left (-1: none), by card id
        data["came_from"] = m.where[len(m.program.card_names):]
    if m.seen != m.program.seen_masks[m.n]:     # `show`/`hide` changed who sees a zone or a value: State.seen
        data["seen"] = list(m.seen)
    return data


def _plain(v):
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _frozen(v):
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    return v


def state_from_data(program, data, players: int, names, sink=None, frames: bool = True) -> State:
    """Rebuild a State from saved data, checking its shape; raise UserError if it is not a game of these rules.

    With `frames=False` the saved rule stack is not read (see verify_state)."""
    def bad(why):
        return UserError(f"the saved state is damaged: {why}")
    if not isinstance(data, dict):
        raise bad("it is not a mapping")
    m = State()
    m.program = program
    m.n = players
    m.names = tuple(names)
    m.sink = sink
    zones = data.get("zones")
    if not isinstance(zones, list) or len(zones) != len(program.zone_instance_names):
        raise bad("its zones do not match the rules")
    n_cards = len(program.card_names)
    where = [-1] * n_cards
    for zi, z in enumerate(zones):
        if not isinstance(z, list) or not all(type(c) is int and 0 <= c < n_cards for c in z):
            raise bad(f"zone '{program.zone_instance_names[zi]}' holds something that is not a card")
        for c in z:
            if where[c] != -1:
                raise bad(f"{program.card_names[c]} is in two places")
            where[c] = zi
    m.zones = [list(z) for z in zones]
    if program.tracks_came_from:
        came = data.get("came_from")
        if not isinstance(came, list) or len(came) != n_cards or \
                not all(type(z) is int and -1 <= z < len(zones) for z in came):
            raise bad("the zone each card came from is missing or not a zone")
        where += came
    m.where = where
    seen = data.get("seen", program.seen_masks[players])
    if not isinstance(seen, (list, tuple)) or len(seen) != len(program.seen_masks[players]) or \
            not all(type(k) is int and 0 <= k < 1 << players for k in seen):
        raise bad("who sees each zone and value is not a mask of seats for every one")
    m.seen = tuple(seen)
    vars_ = data.get("vars")
    if not isinstance(vars_, list) or len(vars_) != program.var_count:
        raise bad("its variables do not match the rules")
    m.vars = []
    infos = {v.slot: v for v in program.vars}
    for slot, v in enumerate(vars_):
        info = infos.get(slot)
        owned = info is not None and info.owner
        table = info is not None and info.table_size
        if owned and not isinstance(v, list):
            raise bad("a per-player variable is not a list")
        if table and not (isinstance(v, list) and all(isinstance(x, list) for x in (v if owned else [v]))):
            raise bad("a table is not a list")
        if owned:
            m.vars.append([list(map(_frozen, x)) if table else _frozen(x) for x in v])
        elif table:
            m.vars.append(list(map(_frozen, v)))
        else:
            m.vars.append(_frozen(v))
    if type(data.get("rng")) is not int:
        raise bad("its random state is missing")
    m.rng = data["rng"]
    stack = data.get("stack")
    if not isinstance(stack, list):
        raise bad("its rule stack is missing")
    m.stack = []
    for f in stack if frames else ():
        if not isinstance(f, list) or len(f) < 2 or type(f[0]) is not int or not 0 <= f[0] < len(program.codes) \
                or type(f[1]) is not int or not 0 <= f[1] < len(program.codes[f[0]].spans) \
                or len(f) != program.codes[f[0]].frame_size + 2:
            raise bad("its rule stack does not match the rules")
        m.stack.append([f[0], f[1]] + [_frozen(x) for x in f[2:]])
    pending = data.get("pending")
    if pending is not None:
        if isinstance(pending, list) and len(pending) == 4:
            pending = pending[:2] + pending[3:]      # an earlier version kept the options' values too: the ids say them
        if not isinstance(pending, list) or len(pending) != 3 or type(pending[0]) is not int \
                or not 0 <= pending[0] < len(program.choices) or not isinstance(pending[2], list) \
                or not all(type(i) is int for i in pending[2]):
            raise bad("its pending decision does not match the rules")
        m.pending = (pending[0], pending[1], tuple(pending[2]))
    m.decisions = data.get("decisions", 0)
    if m.pending is None and not stack:
        machine.finish(m)
    return m


# ----------------------------------------------------------------- writing
def session_record(s: Session, kind: str, extra: dict | None = None, dest=None) -> dict:
    """The record of a session; `extra` adds plain keys (e.g. the agents at each seat) that readers may ignore.

    `dest`, the file it will be written to, makes a game given by its path recorded relative to that file."""
    p = s.program
    rec = {
        "rulecraft": kind,
        "version": FORMAT_VERSION,
        "game": game_ref_from(s.game_ref, dest),
        "title": p.title,
        "rules_sha256": p.digest,
        "seed": s.seed,
        "players": s.state.n,
        "names": list(s.state.names),
        "options": {o.name: o.shown(s.options[o.name]) for o in p.options},
        "decisions": [{"player": d.player + 1, "id": d.id, "label": d.label} for d in s.history],
        "chance": [chance_record(p, e) for e in s.chance],
    }
    if s.state.result is not None:
        rec["result"] = _result(s.state)
    for key, value in (extra or {}).items():
        rec.setdefault(key, value)
    if kind == "save":
        rec["state"] = state_to_data(s.state)
    return rec


def chance_record(program, event) -> dict:
    """A chance outcome as a record holds it, readable without rulecraft: after how many decisions it
    happened, and what it gave (a zone's cards in their new order, bottom first; the value drawn)."""
    if event[0] == "shuffle":
        _kind, after, zone, order = event
        return {"after": after, "shuffle": program.zone_instance_names[zone],
                "order": [program.card_names[c] for c in order]}
    _kind, after, count, k, shown = event
    return {"after": after, "random": shown, "position": k + 1, "of": count}


def _describe_chance(rec: dict) -> str:
    what = f"the shuffle of {rec.get('shuffle')}" if "shuffle" in rec else f"the random draw of {rec.get('random')!r}"
    return f"{what} after decision {rec.get('after')}"


def check_chance(data: dict, s: Session, name: str, done: int, left_out: int = 0) -> int:
    """Compare the chance outcomes the replay has given so far with those the record lists, from
    index `done` on; return how many are now checked. A record without them (older ones) is not checked.
    `left_out`: how many bare passes the record left out so far (each counts as a decision in the replay)."""
    recorded = data.get("chance")
    if recorded is None:
        return done
    if not isinstance(recorded, list):
        raise UserError(f"{name} is damaged: 'chance' is not a list")
    for j in range(done, len(s.chance)):
        got = chance_record(s.program, s.chance[j])
        if left_out:
            got["after"] -= left_out
        if j >= len(recorded):
            raise UserError(f"{name} lists {len(recorded)} chance outcomes, but the rules give more: "
                            f"{_describe_chance(got)}")
        if recorded[j] != got:
            shown = _describe_chance(recorded[j]) if isinstance(recorded[j], dict) else repr(recorded[j])
            raise UserError(f"chance outcome {j + 1} in {name} ({shown}) is not what the rules give: "
                            f"they give {_describe_outcome(got)}")
    return len(s.chance)


def _describe_outcome(rec: dict) -> str:
    if "shuffle" in rec:
        order = rec["order"]
        return f"{rec['shuffle']} in the order {few(order, 6)}" if order else f"{rec['shuffle']} empty"
    return f"{rec['random']!r}, number {rec['position']} of {rec['of']}"


def _result(m: State) -> dict:
    """A finished game's result as a record holds it: scores and winners by name."""
    scores, _ties, winners = m.result
    return {"scores": {m.names[i]: scores[i] for i in range(m.n)}, "winners": [m.names[i] for i in winners]}


def dump(rec: dict) -> str:
    buf = io.StringIO()
    _yaml().dump(rec, buf)
    return buf.getvalue()


def write(path, s: Session, kind: str, extra: dict | None = None) -> None:
    write_text(path, dump(session_record(s, kind, extra, dest=path)))


def write_text(path, text: str) -> None:
    """Write a record, making its folder if needed; a failure is one sentence."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UserError(f"cannot write {path}: {e.strerror or e}") from None


def _is_path(ref: str) -> bool:
    """A game reference that is a file's path, not a bundled game's name (which has no `/` or `.rules`)."""
    return ref.endswith(".rules") or "/" in ref or os.sep in ref


def game_ref_from(ref: str, dest) -> str:
    """The game as a record written to `dest` names it: a bundled game by its name, a file by its
    path from the record's folder (so the record replays from any folder)."""
    if dest is None or not _is_path(ref) or not Path(ref).is_file():
        return ref
    rel = os.path.relpath(os.path.abspath(ref), os.path.abspath(Path(dest).parent))
    return Path(rel).as_posix()


def game_ref_for(ref: str, record_path) -> str:
    """The game a record read from `record_path` names, as a reference that works from here. As imports
    are held to their roots, a record names only a bundled game, or a `.rules` file inside its own folder
    or the one above it (`rulecraft test` writes its failures to a folder beside the game) or the current
    one (older records named their game from there): a record from a stranger reads no other file. Another game is named on the command line (`play GAME --load FILE`)."""
    if not _is_path(ref):
        if (_bundled_games() / f"{ref}.rules").is_file():
            return ref
        raise UserError(f"{record_path} names the game '{_short(ref)}', which is no bundled game: name the game "
                        "on the command line (replay --game GAME, play GAME --load)")
    if not ref.endswith(".rules"):
        raise UserError(f"{record_path} names the game '{_short(ref)}', which is not a .rules file")
    # The folders are compared by their written paths, not their resolved ones: a folder the user linked
    # in (`examples -> ~/games/examples`) is theirs, while `..` out of the roots is still refused.
    here = Path(os.path.abspath(Path(record_path).parent))
    roots = (here, here.parent, Path(os.path.abspath(Path.cwd())))   # (rulecraft test writes failures one folder down)
    for folder in roots:                    # the path from the record's folder, or (older records) from here
        try:
            found = Path(os.path.normpath(folder / ref))
            if any(found.is_relative_to(root) for root in roots) and found.is_file():
                return os.path.normpath(os.path.relpath(found))
        except (OSError, ValueError):      # a name too long for the system, a NUL in it
            break
    raise UserError(f"{record_path} names the game file '{_short(ref)}', which is not in its folder, the one above it or this one: "
                    "name the game on the command line (replay --game GAME, play GAME --load)")


def _short(ref: str) -> str:
    return ref if len(ref) <= 60 else ref[:60] + "…"


def _bundled_games() -> Path:
    from .. import games        # (a package of rule files, not code)
    return Path(games.__path__[0])


# ----------------------------------------------------------------- reading
def read(path, game: str | None = None) -> dict:
    """The record at `path`; with `game`, the game the user named on the command line, used whatever the
    record names (its rules digest still tells when they differ)."""
    try:
        data = read_regular(path, MAX_BYTES)        # never more, never a wait: a FIFO or `/dev/zero` is refused
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    if len(data) > MAX_BYTES:
        raise UserError(f"{path} is larger than {MAX_BYTES // (1024 * 1024)} MB: too large to be a rulecraft transcript or save")
    data = parse(text, str(path))
    data["game"] = game_ref_for(data["game"], path) if game is None else game
    return data


def parse(text: str, name: str = "the file") -> dict:
    _refuse_by_shape(text, name)
    try:
        data = _yaml().load(text)
    except (YAMLError, ValueError, RecursionError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else "unreadable"
        if "maximum depth" in first or isinstance(e, RecursionError):
            first = f"it nests lists and mappings deeper than a record does ({MAX_DEPTH} levels)"
        raise UserError(f"{name} is not a valid transcript or save (YAML error: {first})") from None
    if not isinstance(data, dict) or data.get("rulecraft") not in ("transcript", "save"):
        raise UserError(f"{name} is not a rulecraft transcript or save")
    if data.get("version") != FORMAT_VERSION:
        raise UserError(f"{name} was written by another version of rulecraft (format {data.get('version')!r})")
    for key, typ in (("game", str), ("seed", int), ("players", int), ("decisions", list)):
        if not isinstance(data.get(key), typ) or isinstance(data.get(key), bool):
            raise UserError(f"{name} is damaged: '{key}' is missing or wrong")
    if not 1 <= data["players"] <= MAX_PLAYERS:              # before anything is made for each player
        raise UserError(f"{name} is damaged: it says {data['players']} players, but a game has 1 to {MAX_PLAYERS}")
    if data["seed"].bit_length() > MAX_SEED_BITS:         # (Python cannot even print one of 4,301 digits)
        raise UserError(f"{name} is damaged: its 'seed' is larger than a seed can be ({MAX_SEED_BITS} bits)")
    return data


def _refuse_by_shape(text: str, name: str) -> None:
    """A record too long or too wide to be one rulecraft wrote is refused before it is read as YAML, which
    takes about 250 us a line (900 KB took 10 s to refuse). rulecraft writes one entry a line: Weird
    Sisters' longest game (its limit, 8000 decisions) takes about 8,500 lines of a few hundred characters."""
    lines = text.count("\n")
    if lines > MAX_LINES:
        raise UserError(f"{name} has {lines:,} lines, more than a rulecraft transcript or save holds "
                        f"({MAX_LINES:,}): too long to be one")
    widest = max(map(len, text.split("\n")), default=0)
    if widest > MAX_LINE:
        raise UserError(f"{name} has a line of {widest:,} characters, more than a rulecraft transcript or save "
                        f"writes ({MAX_LINE:,}): too wide to be one")


RULES_CHANGED = "the rules changed since {name} was recorded; replaying it against the current rules"


def rules_changed(data: dict, program) -> bool:
    """Were these the rules the record was made with? (Its SHA-256 against theirs.)"""
    return data.get("rules_sha256") != program.digest


def restore(data: dict, load_program, name: str = "the file", check_digest: bool = True,
            narrate: bool = True, upto: int | None = None, on_start=None, on_decision=None,
            warn=None) -> Session:
    """Rebuild the session a record describes by replaying its decisions (each one checked).

    `load_program(ref)` gives the Program for the record's game reference.
    `on_start(session)`, if given, is called once the game is set up, before any decision
    (the CLI prints its header there); `on_decision(session, index, option_id)` just before
    each checked decision is taken (the CLI prints its account and replays agents' chance there).
    `warn(sentence)` is told when the rules changed since the record was made: the decisions are
    then found by their labels, and only one that is no longer legal is refused.
    """
    try:
        program = load_program(data["game"])
    except RulesError as e:
        raise UserError(f"{name} names rules that cannot be loaded ({data['game']}): "
                        f"{e.diagnostics[0].message if e.diagnostics else 'error'}") from None
    if check_digest and not data.get("rules_sha256"):
        raise UserError(f"{name} does not say which rules it was made with (its rules_sha256 is missing)")
    changed = check_digest and rules_changed(data, program)
    if changed and warn is not None:
        warn(RULES_CHANGED.format(name=name))
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise UserError(f"{name} is damaged: 'options' is not a mapping")
    if not program.min_players <= data["players"] <= program.max_players:
        raise UserError(f"{name} is damaged: it says {data['players']} players, but {program.title} is for "
                        f"{machine.seats_text(program)}")
    settings = [f"{k}={v}" for k, v in options.items()]
    values = Session.parse_options(program, settings)
    names = data.get("names")
    if names is not None and (not isinstance(names, list) or len(names) != data["players"]
                              or not all(isinstance(x, str) for x in names)):
        raise UserError(f"{name} is damaged: 'names' does not match the players")
    try:
        s = Session.start(program, data["game"], data["players"], data["seed"], values, names, narrate)
    except RulesRuntimeError as e:
        raise UserError(f"the rules failed while setting up: {e}") from None
    if on_start is not None:
        on_start(s)
    checked = check_chance(data, s, name, 0)
    left_out = 0
    decisions = data["decisions"][:upto] if upto is not None else data["decisions"]
    for i, d in enumerate(decisions + ([None] if upto is None else []), 1):
        if d is None:           # after the last: bare passes that end the game, if the record left them out
            while not s.over and machine.only_pass(s.state) and data.get("result") is not None:
                try:
                    s.take(s.legal_ids()[0])
                except RulesRuntimeError as e:
                    raise UserError(f"the rules failed after the last decision: {e}") from None
                left_out += 1
                checked = check_chance(data, s, name, checked, left_out)
            break
        if not isinstance(d, dict) or type(d.get("id")) is not int:
            raise UserError(f"decision {i} in {name} is damaged")
        while _left_out(s, d):
            # a decision with nothing to choose but the pass, which the record leaves out (it was made
            # before such decisions were asked): it is taken for the player
            only = s.legal_ids()[0]
            try:
                s.take(only)
            except RulesRuntimeError as e:
                raise UserError(f"the rules failed before decision {i}: {e}") from None
            left_out += 1
            checked = check_chance(data, s, name, checked, left_out)
        if s.over:
            raise UserError(f"decision {i} in {name} comes after the end of the game"
                            + (" under the current rules" if changed else ""))
        option_id = _recorded_option(s, d, i, name, changed, warn)
        if on_decision is not None:
            on_decision(s, i, option_id)
        try:
            s.take(option_id)
        except RulesRuntimeError as e:
            raise UserError(f"the rules failed at decision {i}: {e}") from None
        checked = check_chance(data, s, name, checked, left_out)
    if upto is None and isinstance(data.get("chance"), list) and checked < len(data["chance"]):
        raise UserError(f"{name} lists chance outcomes the rules never give, from number {checked + 1} on")
    return s


def matching_option(legal: dict, d: dict, renamed: bool = False):
    """The legal option (id → label) a recorded decision names when the rules may have changed:
    the one with its label (its own id first, as several options may share a label), else its
    id when it records no label; None if there is none. With `renamed`, an option whose label
    changed is found by its id (the caller says so: it may be another option)."""
    label, recorded_id = d.get("label"), d.get("id")
    if not isinstance(label, str):
        return recorded_id if recorded_id in legal else None
    if legal.get(recorded_id) == label:
        return recorded_id
    found = next((k for k, text in legal.items() if text == label), None)
    if found is None and renamed and recorded_id in legal:
        return recorded_id
    return found


def _recorded_option(s: Session, d: dict, i: int, name: str, changed: bool, warn=None) -> int:
    """The option id decision `i` takes, checked: with the record's own rules its id, label and
    player must all match; with changed rules its label must be a legal option's or, when no
    legal option has it, its id (a relabelled option, which `warn` is told of)."""
    legal = {o.id: o.label for o in s.legal()}
    who = s.state.names[s.to_move]
    if changed:
        option_id = matching_option(legal, d, renamed=True)
        if option_id is not None and isinstance(d.get("label"), str) and legal[option_id] != d["label"] \
                and warn is not None:
            warn(f"decision {i} in {name} ('{d['label']}') is taken as '{legal[option_id]}', the option with "
                 "its id: no option has its label under the current rules")
        if option_id is None:
            raise UserError(f"decision {i} in {name} ('{d.get('label', d['id'])}') is no longer legal under the "
                            f"current rules: {who} could only choose {few(legal.values(), 6, quote=True)}")
        if "player" in d and d["player"] != s.to_move + 1:
            raise UserError(f"decision {i} in {name} is by player {d['player']}, but under the current rules "
                            f"it is player {s.to_move + 1}'s to take")
        return option_id
    if d["id"] not in legal:
        shown = d.get("label", d["id"])
        if shown in legal.values():
            raise UserError(f"decision {i} in {name} is damaged: its label '{shown}' is legal at that point, "
                            f"but its id {d['id']} is not (the option's id is {matching_option(legal, d)})")
        raise UserError(f"decision {i} in {name} ('{shown}') is not legal at that point: "
                        f"{who} could only choose {few(legal.values(), 6, quote=True)}")
    if "label" in d and d["label"] != legal[d["id"]]:
        raise UserError(f"decision {i} in {name} says '{d['label']}' but that option is '{legal[d['id']]}' "
                        "in these rules")
    if "player" in d and d["player"] != s.to_move + 1:
        raise UserError(f"decision {i} in {name} is by player {d['player']}, but it was player {s.to_move + 1}'s to take")
    return d["id"]


def _left_out(s: Session, d: dict) -> bool:
    """Is the pending decision a bare pass that the recorded decision `d` does not take?"""
    if s.over or not machine.only_pass(s.state):
        return False
    return d.get("player", s.to_move + 1) != s.to_move + 1 or d["id"] not in s.legal_ids()


def verify_result(data: dict, s: Session, name: str = "the transcript") -> str | None:
    """A finished transcript's recorded result must be the one the replay gives.

    Against changed rules a different end is no error — it may be the fix — and is returned
    as a sentence to show instead."""
    rec = data.get("result")
    if rec is None:
        return None
    changed = rules_changed(data, s.program)
    if not s.over:
        if changed:
            return f"{name} records a result, but under the current rules its decisions do not finish the game"
        raise UserError(f"{name} records a result, but its decisions do not finish the game")
    got = _result(s.state)
    if rec != got:
        if changed:
            return f"{name} records the result {rec}; under the current rules it is {got}"
        raise UserError(f"{name} records the result {rec}, but replaying it gives {got}")
    return None


def verify_state(data: dict, s: Session, name: str = "the save") -> None:
    """A save's stored state must be the game its decisions lead to.

    The game is checked — cards, variables, chance, the pending decision — not the frames of the
    compiled rules: those are derived from the decisions and laid out by the version of rulecraft
    that wrote the save, so a save stays loadable from one version to the next. Against changed
    rules the decisions say where the game is, and the stored state is not compared."""
    if "state" not in data or rules_changed(data, s.program):
        return
    stored = state_from_data(s.program, data["state"], s.state.n, s.state.names, frames=False)
    if not stored.same_as(s.state, frames=False):
        raise UserError(f"{name} is damaged: its stored state is not where its decisions lead")
