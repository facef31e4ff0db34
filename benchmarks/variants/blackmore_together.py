# The three above at once: the structured B27, winning_card hoisted, refill written into end_of_round.
# Hand-edited from `rulecraft show blackmore --python --fast` (benchmarks/fast_variants.py times it).
def B27(m, fr, v6, choose):
    v2 = fr[2]
    v3 = fr[3]
    v4 = fr[4]
    v5 = fr[5]
    _d = (8 + v5)
    m.zones[(2 + v5)].remove(v6)
    m.zones[_d].append(v6); m.where[v6] = _d
    while True:
        while v4 < len(v3):
            v5 = v3[v4]
            v4 += 1
            _xs = tuple(m.zones[(2 + v5)])
            if not _xs:
                continue
            _ids = _xs
            _a = choose(m, v5, _ids)
            if _a is None:
                raise NotImplementedError
            m.decisions += 1
            m.ticks = 2000000
            v6 = _a
            _d = (8 + v5)
            m.zones[(2 + v5)].remove(v6)
            m.zones[_d].append(v6); m.where[v6] = _d
        v7 = K17[(m.zones[(8 + (v2 or rt_index(v2, 0))[0])] or rt_top(m, (8 + (v2 or rt_index(v2, 0))[0])))[-1]]
        _t12 = []
        for v8 in v2:
            _t12.append((m.zones[(8 + v8)] or rt_top(m, (8 + v8)))[-1])
        v9 = tuple(_t12)
        v10 = D13(m, v9, v7)
        v11 = rt_owner(m, v10)
        if m.sink is not None:
            try:
                rt_said(m, None, (K19(m, v11), K20, rt_seg_card(m, v10, K9), K10, ))
            except RuleFailure as _e: rt_say_failed(m, None, _e)
        v15 = v11
        v16 = v9
        _xs = v16
        if _xs:
            _ids = []
            for x in _xs: _ids.append(54 + x)
            _ids = tuple(_ids) + (108,)
            _a = choose(m, v15, _ids)
            if _a is None:
                raise NotImplementedError
            m.decisions += 1
            m.ticks = 2000000
            if _a != 108:
                v17 = _a - 54
                _s = m.where[v17]
                if _s >= 0:
                    _o = m.zones[_s]; _o.pop() if _o[-1] == v17 else _o.remove(v17)
                m.zones[1].append(v17); m.where[v17] = 1
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K27(m, v15), K28, rt_seg_card(m, v17, K9), K29, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
        _l26 = v2; m.ticks -= len(_l26)
        if m.ticks < 0: raise StepBudgetSpent()
        for v14 in _l26:
            _z = (8 + v14)
            _d = (14 + v11)
            _m = m.zones[_z]
            if _m:
                m.zones[_z] = []
                for _c in _m: m.where[_c] = _d
                if m.sink is not None: rt_seen_leaving(m, _m, _z)
                m.zones[_d].extend(_m)
        m.vars[2] = v11
        R7(m, v11)
        m.ticks -= 1
        if m.ticks < 0: raise StepBudgetSpent()
        _a8 = False
        for v0 in K13[m.n]:
            if ((m.zones[(2 + v0)])):
                _a8 = True
                break
        if not _a8:
            R8(m)
            return False
        _t9 = []
        for v1 in K14[m.n][m.vars[2]]:
            if (m.zones[(2 + v1)]): _t9.append(v1)
        v2 = tuple(_t9)
        v3 = v2
        m.ticks -= len(v3)
        if m.ticks < 0: raise StepBudgetSpent()
        v4 = 0

def D13(m, v0, v1):
    m.ticks -= 1
    if m.ticks < 0: raise StepBudgetSpent()
    _t14 = []
    if v0:
        _h = K17[((m.zones[1] or rt_top(m, 1))[-1])]
        for v2 in v0:
            if ((K17[v2]) == _h): _t14.append(v2)
    v3 = tuple(_t14)
    if (not v3):
        _t16 = []
        for v4 in v0:
            if ((K17[v4]) == (v1)): _t16.append(v4)
        _v15 = tuple(_t16)
    else:
        _v15 = v3
    v5 = _v15
    if not v5: rt_nothing('max')
    _f21 = True
    _h1 = K18[((m.zones[1] or rt_top(m, 1))[-1])]
    _h2 = m.vars[0] == 0
    for v6 in v5:
        _k19 = ((((((9) - (((((_h1) - ((K18[(v6)])))) % 9)))) if _h2 else (((9) - ((((((K18[(v6)])) - _h1)) % 9)))))))
        if _f21 or _k19 > _m20: _f21 = False; _m20 = _k19; _b18 = v6
    return _b18

def R7(m, v0):
    if m.vars[3]:
        return
    _l31 = K30[m.n][v0]; m.ticks -= len(_l31)
    if m.ticks < 0: raise StepBudgetSpent()
    for v3 in _l31:
        v0_ = (2 + v3); v1_ = m.vars[1]
        while ((((len(m.zones[v0_])) < (v1_))) and ((m.zones[0]))):
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            _c = (m.zones[0] or rt_top(m, 0)).pop(); m.zones[v0_].append(_c); m.where[_c] = v0_
    if (not m.zones[0]):
        m.vars[3] = True
        if m.sink is not None:
            try:
                rt_said(m, None, (K31, ))
            except RuleFailure as _e: rt_say_failed(m, None, _e)
        while True:
            _v32 = ((len(m.zones[1])) > (1))
            if _v32:
                _a33 = False
                for v4 in K32[m.n]:
                    if (((len(m.zones[(2 + v4)])) < (m.vars[1]))):
                        _a33 = True
                        break
                _v32 = _a33
            if not _v32: break
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            _l34 = K33[m.n][v0]; m.ticks -= len(_l34)
            if m.ticks < 0: raise StepBudgetSpent()
            for v7 in _l34:
                if ((((len(m.zones[(2 + v7)])) < (m.vars[1]))) and (((len(m.zones[1])) > (1)))):
                    _d = (2 + v7)
                    _c = (m.zones[1] or rt_top(m, 1)).pop(); m.zones[_d].append(_c); m.where[_c] = _d
                    if m.sink is not None:
                        try:
                            rt_said(m, None, (K34(m, v7), K35, rt_seg_card(m, ((m.zones[1] or rt_top(m, 1))[-1]), K9), K10, ))
                        except RuleFailure as _e: rt_say_failed(m, None, _e)
