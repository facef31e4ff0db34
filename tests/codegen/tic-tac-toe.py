# tests/codegen/tic-tac-toe.rules: the Python its rules compile to
# m is the game's State; K… are constants, rt_… the runtime's helpers (rulecraft.runtime.helpers)

K0 = (0, 1, 2)
K1 = (3, 4, 5)
K2 = (6, 7, 8)
K3 = (0, 3, 6)
K4 = (1, 4, 7)
K5 = (2, 5, 8)
K6 = (0, 4, 8)
K7 = (2, 4, 6)
K8 = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
K9 = ((), (0,), (0, 1))
K10 = ((), (0,), (0, 1))
K11 = 'mark '
K12 = <function Layout.formatter.<locals>.<lambda>>
K13 = 'row '
K14 = <function Layout.formatter.<locals>.<lambda>>
K15 = ', column '
K16 = <function Layout.formatter.<locals>.<lambda>>
K17 = <function Layout.formatter.<locals>.<lambda>>
K18 = <function Layout.formatter.<locals>.<lambda>>
K19 = <function Layout.formatter.<locals>.<lambda>>
K20 = (0, 1, 2, 3, 4, 5, 6, 7, 8)
K21 = (0, 1, 2, 3, 4, 5, 6, 7, 8)
K22 = <function Layout.formatter.<locals>.<lambda>>
K23 = ' makes a line.'


# rules list: E1
def E1(m):
    return (0, 1, 2, )


# rules list: E2
def E2(m):
    return (3, 4, 5, )


# rules list: E3
def E3(m):
    return (6, 7, 8, )


# rules list: E4
def E4(m):
    return (0, 3, 6, )


# rules list: E5
def E5(m):
    return (1, 4, 7, )


# rules list: E6
def E6(m):
    return (2, 5, 8, )


# rules list: E7
def E7(m):
    return (0, 4, 8, )


# rules list: E8
def E8(m):
    return (2, 4, 6, )


# rules list: E9
def E9(m):
    return (K0, K1, K2, K3, K4, K5, K6, K7, )


# rules const lines: E10
def E10(m):
    return K8


# rules var cell: E11
def E11(m):
    return 0


# rules var winner: E12
def E12(m):
    return 0


# rules rule play: L13
def L13(m, fr):
    v0 = fr[2]
    v2 = fr[4]
    return "".join((K11, K12(m, ("".join((K13, K14(m, (((((v2)) // 3)) + (1))), K15, K16(m, (((((v2)) % 3)) + (1))),)))),))


# rules rule play: S14
def S14(m, fr):
    v0 = fr[2]
    v2 = fr[4]
    return (K11, K17(m, ("".join((K13, K18(m, (((((v2)) // 3)) + (1))), K15, K19(m, (((((v2)) % 3)) + (1))),)))), )


# rules rule play: B18
def B18(m, fr, v2):
    v0 = fr[2]
    v1 = fr[3]
    pc = -1
    while True:
        if pc == -1:
            m.vars[0][v2] = ((v0) + 1)
            v1 += 1
            _a16 = False
            _r17 = m.vars[0]
            for v3 in K8:
                if (((((((_r17[v3[0]]) == (((v0) + 1)))) and (((_r17[v3[1]]) == (((v0) + 1)))))) and (((_r17[v3[2]]) == (((v0) + 1)))))):
                    _a16 = True
                    break
            if _a16:
                m.vars[1] = ((v0) + 1)
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K22(m, v0), K23, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
            v0 = ((v0) + 1) % m.n
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((((m.vars[1]) == (0))) and (((v1) < (9)))):
                _ids = []
                _r15 = m.vars[0]
                for v2 in K21:
                    if ((_r15[v2]) == (0)): _ids.append(v2)
                if _ids:
                    _ids = tuple(_ids)
                    m.pending = (0, v0, _ids)
                    fr[2] = v0
                    fr[3] = v1
                    return True
                pc = 4; continue
            else:
                return False
        if pc == 1:
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((((m.vars[1]) == (0))) and (((v1) < (9)))):
                pc = 2
            else:
                pc = 5
        if pc == 2:
            _ids = []
            _r15 = m.vars[0]
            for v2 in K21:
                if ((_r15[v2]) == (0)): _ids.append(v2)
            if _ids:
                _ids = tuple(_ids)
                m.pending = (0, v0, _ids)
                fr[1] = 2
                fr[2] = v0
                fr[3] = v1
                return True
            pc = 4
        if pc == 4:
            v1 += 1
            _a16 = False
            _r17 = m.vars[0]
            for v3 in K8:
                if (((((((_r17[v3[0]]) == (((v0) + 1)))) and (((_r17[v3[1]]) == (((v0) + 1)))))) and (((_r17[v3[2]]) == (((v0) + 1)))))):
                    _a16 = True
                    break
            if _a16:
                m.vars[1] = ((v0) + 1)
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K22(m, v0), K23, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
            v0 = ((v0) + 1) % m.n
            pc = 1; continue
        if pc == 5:
            return False


# rules rule play: B19
def B19(m, fr):
    pc = -1
    while True:
        if pc == -1:
            v0 = (K10[m.n] or rt_index(K10[m.n], 0))[0]
            v1 = 0
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((((m.vars[1]) == (0))) and (((v1) < (9)))):
                _ids = []
                _r15 = m.vars[0]
                for v2 in K21:
                    if ((_r15[v2]) == (0)): _ids.append(v2)
                if _ids:
                    _ids = tuple(_ids)
                    m.pending = (0, v0, _ids)
                    fr[1] = 2
                    fr[2] = v0
                    fr[3] = v1
                    return True
                v1 += 1
                _a16 = False
                _r17 = m.vars[0]
                for v3 in K8:
                    if (((((((_r17[v3[0]]) == (((v0) + 1)))) and (((_r17[v3[1]]) == (((v0) + 1)))))) and (((_r17[v3[2]]) == (((v0) + 1)))))):
                        _a16 = True
                        break
                if _a16:
                    m.vars[1] = ((v0) + 1)
                    if m.sink is not None:
                        try:
                            rt_said(m, None, (K22(m, v0), K23, ))
                        except RuleFailure as _e: rt_say_failed(m, None, _e)
                v0 = ((v0) + 1) % m.n
                pc = 1; continue
            else:
                return False
        if pc == 1:
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((((m.vars[1]) == (0))) and (((v1) < (9)))):
                pc = 2
            else:
                pc = 5
        if pc == 2:
            _ids = []
            _r15 = m.vars[0]
            for v2 in K21:
                if ((_r15[v2]) == (0)): _ids.append(v2)
            if _ids:
                _ids = tuple(_ids)
                m.pending = (0, v0, _ids)
                fr[1] = 2
                fr[2] = v0
                fr[3] = v1
                return True
            pc = 4
        if pc == 4:
            v1 += 1
            _a16 = False
            _r17 = m.vars[0]
            for v3 in K8:
                if (((((((_r17[v3[0]]) == (((v0) + 1)))) and (((_r17[v3[1]]) == (((v0) + 1)))))) and (((_r17[v3[2]]) == (((v0) + 1)))))):
                    _a16 = True
                    break
            if _a16:
                m.vars[1] = ((v0) + 1)
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K22(m, v0), K23, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
            v0 = ((v0) + 1) % m.n
            pc = 1; continue
        if pc == 5:
            return False


# rules rule play: W0
def W0(m, fr):
    pc = fr[1]
    if pc == 2:
        v0 = fr[2]
        v1 = fr[3]
    while True:
        if pc == 0:
            v0 = (K10[m.n] or rt_index(K10[m.n], 0))[0]
            v1 = 0
            pc = 1
        if pc == 1:
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((((m.vars[1]) == (0))) and (((v1) < (9)))):
                pc = 2
            else:
                pc = 5
        if pc == 2:
            _ids = []
            _r15 = m.vars[0]
            for v2 in K21:
                if ((_r15[v2]) == (0)): _ids.append(v2)
            if _ids:
                _ids = tuple(_ids)
                m.pending = (0, v0, _ids)
                fr[1] = 2
                fr[2] = v0
                fr[3] = v1
                return True
            pc = 4
        if pc == 3:
            m.vars[0][v2] = ((v0) + 1)
            pc = 4
        if pc == 4:
            v1 += 1
            _a16 = False
            _r17 = m.vars[0]
            for v3 in K8:
                if (((((((_r17[v3[0]]) == (((v0) + 1)))) and (((_r17[v3[1]]) == (((v0) + 1)))))) and (((_r17[v3[2]]) == (((v0) + 1)))))):
                    _a16 = True
                    break
            if _a16:
                m.vars[1] = ((v0) + 1)
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K22(m, v0), K23, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
            v0 = ((v0) + 1) % m.n
            pc = 1; continue
        if pc == 5:
            return False


# rules score: E20
def E20(m, v0):
    return ((1) if (((((v0) + 1)) == (m.vars[1]))) else (0))
