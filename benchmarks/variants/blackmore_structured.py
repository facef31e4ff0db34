# The body of Blackmore's first choice (B27) written by hand as structured Python: the card loop a
# `while`, the trick one pass of a `while True`, no pc and no dispatch tests; statements as generated.
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
