"""The fixed shape of a game, decided at load: components, zone instances, variable slots, universes.

Cards are made once, by evaluating the `cards` declarations against a stand-in
state that refuses any use of the game; each card is then an integer id with a
per-field table and a display name. A zone becomes one instance (shared), one
per seat up to the most players (`per player`) or one per team (`per team`).
A choice's options come from a universe fixed here, which is what makes every
game's action space bounded.
"""
from __future__ import annotations

from ..ir import types as T
from ..runtime.errors import RuleFailure

SHARED = -1


def team_owner(team: int) -> int:
    """How a zone instance owned by a team is recorded in `zone_instance_owner`."""
    return -(team + 2)


def owner_team(owner: int) -> int | None:
    """The team owning a zone instance, or None (a seat's or a shared instance)."""
    return -owner - 2 if owner <= -2 else None


class NeedsGame(Exception):
    """A load-time expression used the game (options, players, state)."""


class ConstantState:
    """Stands in for a game while cards are made at load: any use of the game fails."""

    def __init__(self, layout):
        self._layout = layout
        self.names = ()
        self.ticks = 2_000_000      # making cards may loop too (nested comprehensions spend this)

    @property
    def program(self):
        return self._layout

    def __getattr__(self, name):
        raise NeedsGame()


class Layout:
    def __init__(self, prog):
        self.prog = prog
        self.max_players = prog.max_players
        self.team_count = max(1, len(prog.teams))
        self.teams = prog.teams
        self.card_types: list[str] = []     # card id -> type name
        self.card_values: list[tuple] = []  # card id -> field values
        self.card_sets: dict = {}           # name -> tuple of ids, once evaluated
        self.field_tables: dict = {}        # (type, field) -> tuple, card id -> value
        self.cards_by_type: dict = {}
        self.card_names: tuple = ()
        self.positions: dict = {}
        self.zone_base: dict = {}
        self.cards_done = False

    # ------------------------------------------------------------ cards
    def make_card(self, m, type_name, values):
        if not isinstance(m, ConstantState):
            raise RuleFailure("cards can only be made when the game loads")
        self.card_types.append(type_name)
        self.card_values.append(tuple(values))
        return len(self.card_types) - 1

    def finish_cards(self):
        """Field tables and ids by type, once every card set is made."""
        n = len(self.card_types)
        for ct in self.prog.cards:
            for pos, (fname, _t) in enumerate(ct.fields):
                table = [None] * n
                for i, (tname, values) in enumerate(zip(self.card_types, self.card_values)):
                    if tname == ct.name:
                        table[i] = values[pos]
                self.field_tables[(ct.name, fname)] = tuple(table)
        self.cards_by_type = {ct.name: tuple(i for i, t in enumerate(self.card_types) if t == ct.name)
                              for ct in self.prog.cards}
        self.cards_done = True

    def card_positions(self, type_name):
        """card id -> its position among the cards of its type (the slot in a table keyed by that type)."""
        if type_name not in self.positions:
            table = [None] * len(self.card_types)
            for i, c in enumerate(self.cards_by_type.get(type_name, ())):
                table[c] = i
            self.positions[type_name] = tuple(table)
        return self.positions[type_name]

    # ------------------------------------------------------------ zones
    def zone_instances(self):
        """(ZoneInfo-like rows, instance names, instance owners): per-player zones get max_players instances."""
        rows, names, owners = [], [], []
        for z in self.prog.zones:
            count = self.max_players if z.owner == "player" else (self.team_count if z.owner == "team" else 1)
            base = len(names)
            self.zone_base[z.name] = base
            rows.append((z, base, count))
            for k in range(count):
                if z.owner == "player":
                    names.append(f"{z.name} of player {k + 1}")
                    owners.append(k)
                elif z.owner == "team":
                    names.append(f"{z.name} of team {self.teams[k]}")
                    owners.append(team_owner(k))
                else:
                    names.append(z.name)
                    owners.append(SHARED)
        self.zone_instance_names = tuple(names)
        return rows, tuple(names), tuple(owners)

    def value_instances(self, first: int):
        """Rows like zone_instances' for the values of the variables (one per seat, per team, or one),
        numbered on from `first` (after the zone instances), and their owners; `value_base` maps a
        variable's slot to its first number. Who sees a value is kept beside who sees a zone (State.seen)."""
        rows, owners = [], []
        self.value_base = {}
        for v in self.prog.vars:
            count = self.max_players if v.owner == "player" else (self.team_count if v.owner == "team" else 1)
            self.value_base[v.slot] = first + len(owners)
            rows.append((v, first + len(owners), count))
            for k in range(count):
                owners.append(k if v.owner == "player" else (team_owner(k) if v.owner == "team" else SHARED))
        return rows, tuple(owners)

    def seen_masks(self, rows, owners) -> tuple:
        """For each player count n and zone instance (then each variable's value: value_instances): the
        seats that see it, as a bit mask (bit k: seat k). Who sees what at the start of a game; views,
        narration and labels read State.seen, which starts as this and changes by `show`/`hide`."""
        out = []
        for n in range(self.max_players + 1):
            everyone = (1 << n) - 1
            masks = []
            for z, base, count in rows:
                for k in range(count):
                    owner = owners[base + k]
                    if z.seen == "all":
                        mask = everyone
                    elif z.seen == "owner" and owner >= 0:
                        mask = (1 << owner) & everyone
                    elif z.seen == "others" and owner >= 0:
                        mask = everyone & ~(1 << owner)
                    elif z.seen in ("team", "owner", "others"):     # a per-team zone's owner is its team
                        team = owner_team(owner) if owner <= -2 else (owner % self.team_count if owner >= 0 else None)
                        mask = sum(1 << p for p in range(n) if team is not None and p % self.team_count == team)
                        if z.seen == "others":
                            mask = everyone & ~mask
                    else:
                        mask = 0
                    masks.append(mask)
            out.append(tuple(masks))
        return tuple(out)

    # ------------------------------------------------------------ keys and universes
    def key_count(self, key) -> int:
        if isinstance(key, T.EnumT):
            return len(key.values)
        if isinstance(key, T.CardT):
            return len(self.cards_by_type.get(key.name, ()))
        if key is T.PLAYER:
            return self.max_players
        return key[2] - key[1] + 1

    def universe(self, elem, domain):
        """(size, value -> position, the values by position: a sequence) of a choice's fixed universe of
        options; the machine finds an option's value by its id there (machine.decide)."""
        if isinstance(elem, T.PairT):     # a pair choice: the product of both universes, first-major
            n1, pos1, val1 = self.universe(elem.first, domain.first)
            n2, pos2, val2 = self.universe(elem.second, domain.second)
            return n1 * n2, (lambda v: pos1(v[0]) * n2 + pos2(v[1])), _Product(val1, val2)
        if isinstance(elem, T.CardT):
            ids = self.cards_by_type.get(elem.name, ())
            pos = {c: i for i, c in enumerate(ids)}
            return len(ids), pos.__getitem__, tuple(ids)
        if isinstance(elem, T.EnumT):
            return len(elem.values), int, range(len(elem.values))
        if isinstance(elem, T.ZoneT):
            return len(self.zone_instance_names), int, range(len(self.zone_instance_names))
        if elem is T.PLAYER:
            return self.max_players, int, range(self.max_players)
        if elem is T.TEAM:
            return self.team_count, int, range(self.team_count)
        if elem is T.BOOL:
            return 2, int, (False, True)
        if elem is T.INT and getattr(domain, "kind", None) == "range":
            lo = domain.lo
            return domain.hi - lo + 1, (lambda v: v - lo), range(lo, domain.hi + 1)
        return len(self.card_types), int, range(len(self.card_types))

    # ------------------------------------------------------------ text for people
    def formatter(self, typ):
        """value -> text for people, by static type."""
        if typ is T.PLAYER:
            return lambda m, v: m.names[v] if 0 <= v < len(m.names) else f"Player {v + 1}"
        if isinstance(typ, T.CardT) or typ is T.ANYCARD:
            return lambda m, v: m.program.card_names[v] if v is not None else "no card"
        if isinstance(typ, T.PairT):
            first, second = self.formatter(typ.first), self.formatter(typ.second)
            return lambda m, v: f"{first(m, v[0])} and {second(m, v[1])}"
        if isinstance(typ, T.OptionalT):
            inner = self.formatter(typ.inner)
            return lambda m, v: "none" if v is None else inner(m, v)
        if typ is T.NONE:
            return lambda m, v: "none"
        if isinstance(typ, T.EnumT):
            values = typ.shown or typ.values      # display names, where the enum gives them
            return lambda m, v: values[v]
        if typ is T.TEAM:
            teams = self.teams
            return lambda m, v: teams[v]
        if typ is T.BOOL:
            return lambda m, v: "yes" if v else "no"
        if isinstance(typ, T.ListT):
            inner = self.formatter(typ.elem)
            return lambda m, v: ", ".join(inner(m, x) for x in v) if v else "nothing"
        if isinstance(typ, T.TableT):
            return self._table_formatter(typ)
        if isinstance(typ, T.ZoneT):
            inner = self.formatter(typ.elem)
            return lambda m, v: ", ".join(inner(m, x) for x in m.zones[v]) if m.zones[v] else "nothing"
        return lambda m, v: str(v)

    def _table_formatter(self, typ):
        inner = self.formatter(typ.value)
        key = typ.key
        if key is T.PLAYER:
            return lambda m, v: ", ".join(f"{m.names[i]}: {inner(m, x)}" for i, x in enumerate(v[:m.n]))
        if isinstance(key, T.EnumT):
            keys = key.values
        elif isinstance(key, T.CardT):
            keys = [self.card_names[c] for c in self.cards_by_type.get(key.name, ())]
        else:
            keys = [str(k) for k in range(key[1], key[2] + 1)]
        return lambda m, v: ", ".join(f"{k}: {inner(m, x)}" for k, x in zip(keys, v))


def default_of(typ):
    """A variable's value before anything is assigned."""
    if typ is T.INT:
        return 0
    if typ is T.BOOL:
        return False
    if typ is T.PLAYER or typ is T.TEAM or isinstance(typ, T.EnumT):
        return 0
    if isinstance(typ, T.ListT):
        return ()
    return None


def domain_of(typ, team_count: int):
    """Every value a variable of this type can hold, as a function of the player count, or None when
    there is no bound (a number): what a search agent draws a value it may not see from."""
    if typ is T.BOOL:
        return lambda n: (False, True)
    if isinstance(typ, T.EnumT):
        values = tuple(range(len(typ.values)))
        return lambda n: values
    if typ is T.PLAYER:
        return lambda n: tuple(range(n))
    if typ is T.TEAM:
        values = tuple(range(max(1, team_count)))
        return lambda n: values
    return None


class _Product:
    """The values of a pair choice's universe by position, first-major, made as they are asked for
    (the product of two universes may be large)."""

    __slots__ = ("first", "second")

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __len__(self):
        return len(self.first) * len(self.second)

    def __getitem__(self, p: int):
        n2 = len(self.second)
        if not 0 <= p < len(self):
            raise IndexError(p)
        return self.first[p // n2], self.second[p % n2]
