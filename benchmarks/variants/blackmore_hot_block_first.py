# B27 as generated, but the card's ask block (pc 3) tested first in the dispatch loop and the entry
# path (pc -1) last: what reordering the dispatch alone saves.
# Hand-edited from `rulecraft show blackmore --python --fast` (benchmarks/fast_variants.py times it).
def B27(m, fr, v6, choose):
    v2 = fr[2]
    v3 = fr[3]
    v4 = fr[4]
    v5 = fr[5]
    pc = -1
    while True:
        if pc == 3:
            _xs = tuple(m.zones[(2 + v5)])
            if not _xs:
                if v4 < len(v3):
                    v5 = v3[v4]
                    v4 += 1
                    pc = 3; continue
                else:
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
                    pc = 7; continue
            _ids = _xs
            _a = choose(m, v5, _ids)
            if _a is None:
                m.pending = (0, v5, _ids)
                fr[1] = 3
                fr[2] = v2
                fr[3] = v3
                fr[4] = v4
                fr[5] = v5
                return True
            m.decisions += 1
            m.ticks = 2000000
            v6 = _a
            _d = (8 + v5)
            m.zones[(2 + v5)].remove(v6)
            m.zones[_d].append(v6); m.where[v6] = _d
            if v4 < len(v3):
                v5 = v3[v4]
                v4 += 1
                pc = 3; continue
            else:
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
                pc = 7
        if pc <= 2:
            if pc == 0:
                m.ticks -= 1
                if m.ticks < 0: raise StepBudgetSpent()
                _a8 = False
                for v0 in K13[m.n]:
                    if ((m.zones[(2 + v0)])):
                        _a8 = True
                        break
                if _a8:
                    _t9 = []
                    for v1 in K14[m.n][m.vars[2]]:
                        if (m.zones[(2 + v1)]): _t9.append(v1)
                    v2 = tuple(_t9)
                    v3 = v2
                    m.ticks -= len(v3)
                    if m.ticks < 0: raise StepBudgetSpent()
                    v4 = 0
                    if v4 < len(v3):
                        v5 = v3[v4]
                        v4 += 1
                        pc = 3; continue
                    else:
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
                        pc = 7
                else:
                    R8(m)
                    return False
            if pc == 1:
                _t9 = []
                for v1 in K14[m.n][m.vars[2]]:
                    if (m.zones[(2 + v1)]): _t9.append(v1)
                v2 = tuple(_t9)
                v3 = v2
                m.ticks -= len(v3)
                if m.ticks < 0: raise StepBudgetSpent()
                v4 = 0
                if v4 < len(v3):
                    v5 = v3[v4]
                    v4 += 1
                    pc = 3; continue
                else:
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
                    pc = 7
            if pc == 2:
                if v4 < len(v3):
                    v5 = v3[v4]
                    v4 += 1
                    pc = 3; continue
                else:
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
                    pc = 7
        if pc <= 5:
            if pc == 4:
                _d = (8 + v5)
                m.zones[(2 + v5)].remove(v6)
                m.zones[_d].append(v6); m.where[v6] = _d
                if v4 < len(v3):
                    v5 = v3[v4]
                    v4 += 1
                    pc = 3; continue
                else:
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
                    pc = 7
            if pc == 5:
                if v4 < len(v3):
                    v5 = v3[v4]
                    v4 += 1
                    pc = 3; continue
                else:
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
                    pc = 7
        if pc <= 8:
            if pc == 6:
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
                pc = 7
            if pc == 7:
                _xs = v16
                if not _xs:
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
                    if _a8:
                        _t9 = []
                        for v1 in K14[m.n][m.vars[2]]:
                            if (m.zones[(2 + v1)]): _t9.append(v1)
                        v2 = tuple(_t9)
                        v3 = v2
                        m.ticks -= len(v3)
                        if m.ticks < 0: raise StepBudgetSpent()
                        v4 = 0
                        if v4 < len(v3):
                            v5 = v3[v4]
                            v4 += 1
                            pc = 3; continue
                        else:
                            pc = 6; continue
                    else:
                        R8(m)
                        return False
                _ids = []
                for x in _xs: _ids.append(54 + x)
                _ids = tuple(_ids) + (108,)
                _a = choose(m, v15, _ids)
                if _a is None:
                    m.pending = (1, v15, _ids)
                    fr[1] = 7
                    fr[2] = v2
                    fr[7] = v7
                    fr[8] = v9
                    fr[9] = v10
                    fr[10] = v11
                    fr[14] = v15
                    fr[15] = v16
                    return True
                m.decisions += 1
                m.ticks = 2000000
                if _a == 108:
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
                    if _a8:
                        _t9 = []
                        for v1 in K14[m.n][m.vars[2]]:
                            if (m.zones[(2 + v1)]): _t9.append(v1)
                        v2 = tuple(_t9)
                        v3 = v2
                        m.ticks -= len(v3)
                        if m.ticks < 0: raise StepBudgetSpent()
                        v4 = 0
                        if v4 < len(v3):
                            v5 = v3[v4]
                            v4 += 1
                            pc = 3; continue
                        else:
                            pc = 6; continue
                    else:
                        R8(m)
                        return False
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
                if _a8:
                    _t9 = []
                    for v1 in K14[m.n][m.vars[2]]:
                        if (m.zones[(2 + v1)]): _t9.append(v1)
                    v2 = tuple(_t9)
                    v3 = v2
                    m.ticks -= len(v3)
                    if m.ticks < 0: raise StepBudgetSpent()
                    v4 = 0
                    pc = 2; continue
                else:
                    R8(m)
                    return False
            if pc == 8:
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
                if _a8:
                    _t9 = []
                    for v1 in K14[m.n][m.vars[2]]:
                        if (m.zones[(2 + v1)]): _t9.append(v1)
                    v2 = tuple(_t9)
                    v3 = v2
                    m.ticks -= len(v3)
                    if m.ticks < 0: raise StepBudgetSpent()
                    v4 = 0
                    if v4 < len(v3):
                        v5 = v3[v4]
                        v4 += 1
                        pc = 3; continue
                    else:
                        pc = 6; continue
                else:
                    R8(m)
                    return False
        if pc == 9:
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
            if _a8:
                _t9 = []
                for v1 in K14[m.n][m.vars[2]]:
                    if (m.zones[(2 + v1)]): _t9.append(v1)
                v2 = tuple(_t9)
                v3 = v2
                m.ticks -= len(v3)
                if m.ticks < 0: raise StepBudgetSpent()
                v4 = 0
                if v4 < len(v3):
                    v5 = v3[v4]
                    v4 += 1
                    pc = 3; continue
                else:
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
                    pc = 7; continue
            else:
                R8(m)
                return False
        if pc == 10:
            R8(m)
            return False

        if pc == -1:
            _d = (8 + v5)
            m.zones[(2 + v5)].remove(v6)
            m.zones[_d].append(v6); m.where[v6] = _d
            if v4 < len(v3):
                v5 = v3[v4]
                v4 += 1
                pc = 3; continue
            else:
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
                pc = 7; continue
