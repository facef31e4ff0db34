"""What one player may see, derived from who sees each zone and value (State.seen) alone.

A hidden zone shows only how many cards it holds, so a player's view cannot
change when cards hidden from them are reshuffled. No game decides this; the
`seen by` of each zone does.
"""
from __future__ import annotations

from ..runtime.helpers import rt_value_seen, seal
from . import machine, observe


def _among(mask: int, n: int, viewer) -> bool:
    """Is `viewer` among the seats of `mask`? None (everything) always is; observe.PUBLIC (a spectator)
    only when every seat is."""
    if viewer is None:
        return True
    if viewer == observe.PUBLIC:
        return mask == (1 << n) - 1
    return bool(mask >> viewer & 1)


def can_see(m, instance: int, viewer) -> bool:
    """May `viewer` (a seat, None for everything, PUBLIC for what all see) see this zone instance's cards?"""
    return _among(m.seen[instance], m.n, viewer)


def sees_value(m, var, owner, viewer) -> bool:
    """May `viewer` see the value of `var` kept for `owner` (a seat, a team, or None for a shared one)?"""
    return viewer is None or _among(rt_value_seen(m, var.seen_base, owner), m.n, viewer)


def view(m, viewer=None) -> dict:
    """A plain dict: zones (cards or counts), variables, whose decision it is, and the options if theirs."""
    p = m.program
    zones = {}
    for zone in p.zones:
        if zone.owner == "player":
            owners = range(m.n)
        elif zone.owner == "team":
            owners = range(len(p.teams))
        else:
            owners = [None]
        entry = {}
        for k in owners:
            inst = zone.base + (k or 0)
            cards = m.zones[inst]
            shown = [p.card_names[c] for c in cards] if can_see(m, inst, viewer) else {"hidden": len(cards)}
            if zone.owner == "player":
                entry[m.names[k]] = shown
            elif zone.owner == "team":
                entry[p.teams[k]] = shown
            else:
                entry = shown
        zones[zone.name] = entry
    variables = {}
    for v in p.vars:
        if not v.name.isidentifier():     # a rule's value on its way to its caller (check/returns.py)
            continue
        value = m.vars[v.slot]

        def shown(x, owner, v=v):
            return v.format(m, x) if sees_value(m, v, owner, viewer) else "hidden"
        if v.owner == "player":
            variables[v.name] = {m.names[i]: shown(value[i], i) for i in range(m.n)}
        elif v.owner == "team":
            variables[v.name] = {p.teams[i]: shown(value[i], i) for i in range(len(p.teams))}
        else:
            variables[v.name] = shown(value, None)
    out = {"zones": zones, "vars": variables}
    if p.table_sheet or p.player_sheet:
        # the game says how it is shown: its sheets stand in for the raw variables
        out["vars"] = {}
        out["sheet"] = {"table": [observe.render(seal(m, line(m)), viewer) for line in p.table_sheet],
                        "players": {m.names[i]: [observe.render(seal(m, line(m, i)), viewer) for line in p.player_sheet]
                                    for i in range(m.n)}}
    if m.result is not None:
        scores, _ties, winners = m.result
        out["scores"] = {m.names[i]: scores[i] for i in range(m.n)}
        out["winners"] = [m.names[i] for i in winners]
    elif m.pending is not None:
        who = machine.chooser(m)
        out["to_decide"] = m.names[who]
        if viewer is None or viewer == who:
            out["options"] = [o.label for o in machine.legal_options(m)]
    return out
