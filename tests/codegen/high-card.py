# tests/codegen/high-card.rules: the Python its rules compile to
# m is the game's State; K… are constants, rt_… the runtime's helpers (rulecraft.runtime.helpers)

K0 = (0, 1)
K1 = (1, 2, 3, 4, 5, 6, 7, 8)
K2 = 'Rune'
K3 = <function Layout.formatter.<locals>.<lambda>>
K4 = ' of '
K5 = <function Layout.formatter.<locals>.<lambda>>
K6 = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
K7 = ((), (0,), (0, 1), (0, 1, 2), (0, 1, 2, 3))
K8 = ((), (0,), (0, 1), (0, 1, 2), (0, 1, 2, 3))
K9 = 'show '
K10 = <function Layout.formatter.<locals>.<lambda>>
K11 = 'a Rune'
K12 = ((), (0,), (0, 1), (0, 1, 2), (0, 1, 2, 3))
K13 = (1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8)
K14 = (2, 4, 6, 8, 10, 12, 14, 16, 2, 4, 6, 8, 10, 12, 14, 16)
K15 = (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1)
K16 = (False, False, False, False, False, False, False, False, True, True, True, True, True, True, Tru …
K17 = (2, 4, 6, 8, 10, 12, 14, 16, 3, 5, 7, 9, 11, 13, 15, 17)
K18 = <function Layout.formatter.<locals>.<lambda>>
K19 = ' takes the round with the '
K20 = '.'
K21 = ((), (0,), (0, 1), (0, 1, 2), (0, 1, 2, 3))


# rules cards: E1
def E1(m):
    return tuple([rt_make_card(m, K2, (v0, v1,)) for v0 in rt_spend(m, K0) for v1 in rt_spend(m, K1)])


# rules card Rune: E2
def E2(m, v0, v1):
    return "".join((K3(m, v1), K4, K5(m, v0),))


# rules rule deal: R0
def R0(m, v0, v1, v2):
    _n3 = v0; m.ticks -= _n3 if _n3 > 0 else 0
    if m.ticks < 0: raise StepBudgetSpent()
    for _ in range(_n3):
        if (m.zones[v1]):
            _c = (m.zones[v1] or rt_top(m, v1)).pop(); m.zones[v2].append(_c); m.where[_c] = v2


# rules rule deal: F0
def F0(m, fr):
    R0(m, fr[2], fr[3], fr[4])
    return False


# rules rule refill: R1
def R1(m, v0, v1, v2):
    while ((((len(m.zones[v0])) < (v1))) and ((m.zones[v2]))):
        m.ticks -= 1
        if m.ticks < 0: raise StepBudgetSpent()
        _c = (m.zones[v2] or rt_top(m, v2)).pop(); m.zones[v0].append(_c); m.where[_c] = v0


# rules rule refill: F1
def F1(m, fr):
    R1(m, fr[2], fr[3], fr[4])
    return False


# rules rule deal_round: R2
def R2(m, v0, v1, v2):
    _n4 = v0; m.ticks -= _n4 if _n4 > 0 else 0
    if m.ticks < 0: raise StepBudgetSpent()
    for _ in range(_n4):
        _l5 = v2; m.ticks -= len(_l5)
        if m.ticks < 0: raise StepBudgetSpent()
        for v6 in _l5:
            if (m.zones[v1]):
                _c = (m.zones[v1] or rt_top(m, v1)).pop(); m.zones[v6].append(_c); m.where[_c] = v6


# rules rule deal_round: F2
def F2(m, fr):
    R2(m, fr[2], fr[3], fr[4])
    return False


# rules rule setup: R3
def R3(m):
    rt_move_list(m, K6, 0, False)
    rt_shuffle(m, 0)
    _l6 = K7[m.n]; m.ticks -= len(_l6)
    if m.ticks < 0: raise StepBudgetSpent()
    for v2 in _l6:
        R0(m, m.vars[0], 0, (1 + v2))


# rules rule setup: F3
def F3(m, fr):
    R3(m)
    return False


# rules rule play: L7
def L7(m, fr):
    v3 = fr[5]
    v4 = fr[6]
    return "".join((K9, K10(m, v4),))


# rules rule play: S8
def S8(m, fr):
    v3 = fr[5]
    v4 = fr[6]
    return (K9, rt_seg_card(m, v4, K11), )


# rules table: E15
def E15(m, v0):
    return ((K13[v0]) * (2))


# rules table: E16
def E16(m, v0):
    return ((K15[v0]) == (1))


# rules table: E17
def E17(m, v0):
    return ((K14[v0]) + (((1) if (K16[v0]) else (0))))


# rules def rank: D14
def D14(m, v0):
    return K17[v0]


# rules rule play: B19
def B19(m, fr, v4):
    v0 = fr[2]
    v1 = fr[3]
    v2 = fr[4]
    v3 = fr[5]
    pc = -1
    while True:
        if pc == -1:
            _d = (5 + v3)
            m.zones[(1 + v3)].remove(v4)
            m.zones[_d].append(v4); m.where[v4] = _d
            if v2 < len(v1):
                v3 = v1[v2]
                v2 += 1
                _xs = tuple(m.zones[(1 + v3)])
                if _xs:
                    _ids = _xs
                    m.pending = (0, v3, _ids)
                    fr[4] = v2
                    fr[5] = v3
                    return True
                pc = 6; continue
            else:
                pc = 7; continue
        if pc == 1:
            if v0 > 0:
                v0 -= 1
                pc = 2
            else:
                pc = 8
        if pc == 2:
            v1 = K8[m.n]
            m.ticks -= len(v1)
            if m.ticks < 0: raise StepBudgetSpent()
            v2 = 0
            pc = 3
        if pc == 3:
            if v2 < len(v1):
                v3 = v1[v2]
                v2 += 1
                pc = 4
            else:
                pc = 7
        if pc == 4:
            _xs = tuple(m.zones[(1 + v3)])
            if _xs:
                _ids = _xs
                m.pending = (0, v3, _ids)
                fr[1] = 4
                fr[2] = v0
                fr[3] = v1
                fr[4] = v2
                fr[5] = v3
                return True
            pc = 6
        if pc == 6:
            pc = 3; continue
        if pc == 7:
            _q9 = K12[m.n]
            if not _q9: rt_nothing('max')
            _f13 = True
            for v5 in _q9:
                _k11 = D14(m, (m.zones[(5 + v5)] or rt_top(m, (5 + v5)))[-1])
                if _f13 or _k11 > _m12: _f13 = False; _m12 = _k11; _b10 = v5
            v6 = _b10
            if m.sink is not None:
                try:
                    rt_said(m, None, (K18(m, v6), K19, rt_seg_card(m, (m.zones[(5 + v6)] or rt_top(m, (5 + v6)))[-1], K11), K20, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            _l18 = K21[m.n]; m.ticks -= len(_l18)
            if m.ticks < 0: raise StepBudgetSpent()
            for v9 in _l18:
                _z = (5 + v9)
                _d = (9 + v6)
                _m = m.zones[_z]
                if _m:
                    m.zones[_z] = []
                    for _c in _m: m.where[_c] = _d
                    if m.sink is not None: rt_seen_leaving(m, _m, _z)
                    m.zones[_d].extend(_m)
            pc = 1; continue
        if pc == 8:
            return False


# rules rule play: B20
def B20(m, fr):
    pc = -1
    while True:
        if pc == -1:
            v0 = m.vars[0]
            m.ticks -= v0 if v0 > 0 else 0
            if m.ticks < 0: raise StepBudgetSpent()
            if v0 > 0:
                v0 -= 1
                v1 = K8[m.n]
                m.ticks -= len(v1)
                if m.ticks < 0: raise StepBudgetSpent()
                v2 = 0
                if v2 < len(v1):
                    v3 = v1[v2]
                    v2 += 1
                    _xs = tuple(m.zones[(1 + v3)])
                    if _xs:
                        _ids = _xs
                        m.pending = (0, v3, _ids)
                        fr[1] = 4
                        fr[2] = v0
                        fr[3] = v1
                        fr[4] = v2
                        fr[5] = v3
                        return True
                    pc = 6; continue
                else:
                    pc = 7; continue
            else:
                return False
        if pc == 1:
            if v0 > 0:
                v0 -= 1
                pc = 2
            else:
                pc = 8
        if pc == 2:
            v1 = K8[m.n]
            m.ticks -= len(v1)
            if m.ticks < 0: raise StepBudgetSpent()
            v2 = 0
            pc = 3
        if pc == 3:
            if v2 < len(v1):
                v3 = v1[v2]
                v2 += 1
                pc = 4
            else:
                pc = 7
        if pc == 4:
            _xs = tuple(m.zones[(1 + v3)])
            if _xs:
                _ids = _xs
                m.pending = (0, v3, _ids)
                fr[1] = 4
                fr[2] = v0
                fr[3] = v1
                fr[4] = v2
                fr[5] = v3
                return True
            pc = 6
        if pc == 6:
            pc = 3; continue
        if pc == 7:
            _q9 = K12[m.n]
            if not _q9: rt_nothing('max')
            _f13 = True
            for v5 in _q9:
                _k11 = D14(m, (m.zones[(5 + v5)] or rt_top(m, (5 + v5)))[-1])
                if _f13 or _k11 > _m12: _f13 = False; _m12 = _k11; _b10 = v5
            v6 = _b10
            if m.sink is not None:
                try:
                    rt_said(m, None, (K18(m, v6), K19, rt_seg_card(m, (m.zones[(5 + v6)] or rt_top(m, (5 + v6)))[-1], K11), K20, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            _l18 = K21[m.n]; m.ticks -= len(_l18)
            if m.ticks < 0: raise StepBudgetSpent()
            for v9 in _l18:
                _z = (5 + v9)
                _d = (9 + v6)
                _m = m.zones[_z]
                if _m:
                    m.zones[_z] = []
                    for _c in _m: m.where[_c] = _d
                    if m.sink is not None: rt_seen_leaving(m, _m, _z)
                    m.zones[_d].extend(_m)
            pc = 1; continue
        if pc == 8:
            return False


# rules rule play: W4
def W4(m, fr):
    pc = fr[1]
    if pc == 4:
        v0 = fr[2]
        v1 = fr[3]
        v2 = fr[4]
        v3 = fr[5]
    while True:
        if pc <= 2:
            if pc == 0:
                v0 = m.vars[0]
                m.ticks -= v0 if v0 > 0 else 0
                if m.ticks < 0: raise StepBudgetSpent()
                pc = 1
            if pc == 1:
                if v0 > 0:
                    v0 -= 1
                    pc = 2
                else:
                    pc = 8
            if pc == 2:
                v1 = K8[m.n]
                m.ticks -= len(v1)
                if m.ticks < 0: raise StepBudgetSpent()
                v2 = 0
                pc = 3
        if pc <= 5:
            if pc == 3:
                if v2 < len(v1):
                    v3 = v1[v2]
                    v2 += 1
                    pc = 4
                else:
                    pc = 7
            if pc == 4:
                _xs = tuple(m.zones[(1 + v3)])
                if _xs:
                    _ids = _xs
                    m.pending = (0, v3, _ids)
                    fr[1] = 4
                    fr[2] = v0
                    fr[3] = v1
                    fr[4] = v2
                    fr[5] = v3
                    return True
                pc = 6
            if pc == 5:
                _d = (5 + v3)
                m.zones[(1 + v3)].remove(v4)
                m.zones[_d].append(v4); m.where[v4] = _d
                pc = 6
        if pc == 6:
            pc = 3; continue
        if pc == 7:
            _q9 = K12[m.n]
            if not _q9: rt_nothing('max')
            _f13 = True
            for v5 in _q9:
                _k11 = D14(m, (m.zones[(5 + v5)] or rt_top(m, (5 + v5)))[-1])
                if _f13 or _k11 > _m12: _f13 = False; _m12 = _k11; _b10 = v5
            v6 = _b10
            if m.sink is not None:
                try:
                    rt_said(m, None, (K18(m, v6), K19, rt_seg_card(m, (m.zones[(5 + v6)] or rt_top(m, (5 + v6)))[-1], K11), K20, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            _l18 = K21[m.n]; m.ticks -= len(_l18)
            if m.ticks < 0: raise StepBudgetSpent()
            for v9 in _l18:
                _z = (5 + v9)
                _d = (9 + v6)
                _m = m.zones[_z]
                if _m:
                    m.zones[_z] = []
                    for _c in _m: m.where[_c] = _d
                    if m.sink is not None: rt_seen_leaving(m, _m, _z)
                    m.zones[_d].extend(_m)
            pc = 1; continue
        if pc == 8:
            return False


# rules score: E21
def E21(m, v0):
    _n22 = 0
    for v1 in m.zones[(9 + v0)]:
        _n22 += K13[v1]
    return _n22


# rules tiebreak: E23
def E23(m, v0):
    return len(m.zones[(9 + v0)])


# rules a part of the score: E24
def E24(m, v0, v1):
    return K13[v1]


# rules the parts of the score: E25
def E25(m, v0):
    return tuple([v1 for v1 in rt_spend(m, m.zones[(9 + v0)])])
