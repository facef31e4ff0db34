# winning_card (D13) with the trump's colour, its number and the wheel option read once, not once a card
# (the trump only when the table is not empty, so a failure stays where it was).
# Hand-edited from `rulecraft show blackmore --python --fast` (benchmarks/fast_variants.py times it).
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
