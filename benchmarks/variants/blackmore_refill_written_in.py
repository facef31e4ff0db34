# end_of_round (R7) with refill (R1) written into its loop instead of called once a player.
# Hand-edited from `rulecraft show blackmore --python --fast` (benchmarks/fast_variants.py times it).
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
