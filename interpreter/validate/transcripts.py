"""A failing game as a transcript, and the failure seen again when it is replayed.

`rulecraft test` hands back the smallest failing game it found as an ordinary
transcript (the same YAML `run --log` writes) with one more key, `failure`:

    failure:
      property: invariant full_hands        # what broke
      message: it does not hold
      after: 3                              # decisions taken when it broke
      decision: {number: 4, player: 1, id: 17, label: play Blue 7}
                                            # only when taking this decision made the rules fail

The transcript's `decisions` are the ones taken before the failure, each checked
when replayed. `reproduce` repeats what can be repeated from the state alone
(the rules failing at a decision, invariants, every card in one place, someone
can move, the game ends within its bound); the other properties (views under a
reshuffle, copies, save and load, refusal) depend on the checks' own random
draws, so a replay reports them as recorded.
"""
from __future__ import annotations

from ..runtime.errors import RulesRuntimeError
from ..engine import machine, records
from ..engine.session import Session
from . import properties as P

REPEATABLE = ("no runtime error", "every card in one place", "someone can always move", "the game ends")


def failure_record(program, game_ref: str, failure, found_by: str = "", dest=None) -> dict:
    """The transcript (a dict for records.dump) of a Failure from explore: replays its decisions with a Session."""
    s = Session.start(program, game_ref, failure.players, failure.seed, failure.options, narrate=False)
    failing = None
    for i in failure.decisions:
        try:
            s.take(i)       # a failing decision leaves the session as it was before it
        except Exception:   # the rules failed (or rulecraft did): this is the failing decision
            failing = i
            break
    info = {"property": failure.prop, "message": failure.detail or failure.message, "after": len(s.history)}
    if failing is not None:
        info["decision"] = {"number": len(s.history) + 1, "player": s.to_move + 1, "id": failing,
                            "label": machine.label(s.state, failing)}
    if found_by:
        info["found_by"] = found_by
    return records.session_record(s, "transcript", {"failure": info}, dest=dest)


def recorded(data: dict) -> dict | None:
    """The `failure` of a transcript, if it records one (checked for shape)."""
    info = data.get("failure")
    if info is None:
        return None
    if not isinstance(info, dict) or not isinstance(info.get("property"), str):
        return {"property": "a failure", "message": "recorded in a damaged form", "after": None}
    return info


def describe(info: dict) -> str:
    """The recorded failure in one sentence."""
    d = info.get("decision")
    if isinstance(d, dict):
        return (f"decision {d.get('number')} (Player {d.get('player')}: {d.get('label')}) makes the rules fail: "
                f"{info.get('message')}")
    return f"{prop_text(info['property'])} after decision {info.get('after')}: {info.get('message')}"


def prop_text(prop: str) -> str:
    """A broken property as `rulecraft test` and `replay` both word it: "invariant 'x' breaks", "'y' breaks"."""
    return f"invariant '{prop[len('invariant '):]}' breaks" if prop.startswith("invariant ") else f"'{prop}' breaks"


def invariant_span(program, prop: str):
    """Where the invariant a property names ("invariant NAME") is written, or None for any other property."""
    if not prop.startswith("invariant "):
        return None
    name = prop[len("invariant "):]
    return next((span for inv_name, _fn, _size, span in program.invariants if inv_name == name), None)


def reproduce(session: Session, info: dict) -> tuple[bool, str]:
    """Look for the recorded failure where the replay stands (after the recorded decisions).

    Returns (seen again, sentence). The failing decision, if one is recorded, is tried
    (and the session left as it was: a failing decision changes nothing)."""
    d = info.get("decision")
    if isinstance(d, dict) and type(d.get("id")) is int:
        if session.over:
            return False, f"the game is over, so decision {d.get('number')} cannot be taken"
        legal = {o.id: o.label for o in session.legal()}
        option_id = records.matching_option(legal, d)       # by its label: the rules may have been fixed since
        if option_id is None:
            return False, f"decision {d.get('number')} ('{d.get('label')}') is not legal here"
        try:
            session.take(option_id)
        except RulesRuntimeError as e:
            return True, (f"decision {d.get('number')} ({session.state.names[session.to_move]}: {legal[option_id]}) "
                          f"makes the rules fail:\n{e}")
        return False, f"decision {d.get('number')} ('{legal[option_id]}') no longer makes the rules fail"
    step = len(session.history)
    try:
        P.check_state(session.state, step)
    except P.PropertyFailure as f:
        return True, f"{prop_text(f.prop)} after decision {step}: {_detail(session, f)}"
    prop = info.get("property", "")
    if prop in REPEATABLE or prop.startswith("invariant "):
        return False, f"the recorded failure ({describe(info)}) does not happen here"
    return True, (f"{describe(info)} (recorded by rulecraft test; this property depends on the test's own "
                  "random checks, so replaying the decisions does not repeat it)")


def _detail(session, f) -> str:
    span = invariant_span(session.program, f.prop)
    return f"it does not hold ({span})" if span is not None else f.detail
