# tests/codegen/nim.rules: the Python its rules compile to
# m is the game's State; K… are constants, rt_… the runtime's helpers (rulecraft.runtime.helpers)

K0 = ((), (0,), (0, 1), (0, 1, 2), (0, 1, 2, 3))
K1 = <function Layout.formatter.<locals>.<lambda>>
K2 = 'take '
K3 = <function Layout.formatter.<locals>.<lambda>>
K4 = <function Layout.formatter.<locals>.<lambda>>
K5 = (1, 2, 3)
K6 = (1, 2, 3)
K7 = <function Layout.formatter.<locals>.<lambda>>
K8 = ' takes '
K9 = <function Layout.formatter.<locals>.<lambda>>
K10 = '; '
K11 = <function Layout.formatter.<locals>.<lambda>>
K12 = ' left.'
K13 = <function Layout.formatter.<locals>.<lambda>>
K14 = ' takes the last stone and wins.'


# rules var left: E1
def E1(m):
    return m.vars[0]


# rules rule play: L2
def L2(m, fr):
    v0 = fr[2]
    return "".join((K2, K3(m, v0),))


# rules rule play: S3
def S3(m, fr):
    v0 = fr[2]
    return (K2, K4(m, v0), )


# rules rule play: B4
def B4(m, fr, v0):
    pc = -1
    while True:
        if pc == -1:
            m.vars[1] -= v0
            if not -1000000000000000 <= m.vars[1] <= 1000000000000000: rt_too_big(m.vars[1])
            if m.sink is not None:
                try:
                    rt_said(m, None, (K7(m, m.vars[2]), K8, K9(m, v0), K10, K11(m, m.vars[1]), K12, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            if ((m.vars[1]) > (0)):
                m.vars[2] = ((m.vars[2]) + 1) % m.n
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((m.vars[1]) > (0)):
                _ids = []
                for v0 in K6:
                    if ((v0) <= (m.vars[1])): _ids.append(-1 + v0)
                if _ids:
                    _ids = tuple(_ids)
                    _who = m.vars[2]
                    m.pending = (0, _who, _ids)
                    return True
                pc = 4; continue
            else:
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K13(m, m.vars[2]), K14, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
                return False
        if pc == 1:
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((m.vars[1]) > (0)):
                pc = 2
            else:
                pc = 5
        if pc == 2:
            _ids = []
            for v0 in K6:
                if ((v0) <= (m.vars[1])): _ids.append(-1 + v0)
            if _ids:
                _ids = tuple(_ids)
                _who = m.vars[2]
                m.pending = (0, _who, _ids)
                fr[1] = 2
                return True
            pc = 4
        if pc == 4:
            if ((m.vars[1]) > (0)):
                m.vars[2] = ((m.vars[2]) + 1) % m.n
            pc = 1; continue
        if pc == 5:
            if m.sink is not None:
                try:
                    rt_said(m, None, (K13(m, m.vars[2]), K14, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            return False


# rules rule play: B5
def B5(m, fr):
    pc = -1
    while True:
        if pc == -1:
            m.vars[2] = rt_random(m, K0[m.n], K1)
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((m.vars[1]) > (0)):
                _ids = []
                for v0 in K6:
                    if ((v0) <= (m.vars[1])): _ids.append(-1 + v0)
                if _ids:
                    _ids = tuple(_ids)
                    _who = m.vars[2]
                    m.pending = (0, _who, _ids)
                    fr[1] = 2
                    return True
                if ((m.vars[1]) > (0)):
                    m.vars[2] = ((m.vars[2]) + 1) % m.n
                pc = 1; continue
            else:
                if m.sink is not None:
                    try:
                        rt_said(m, None, (K13(m, m.vars[2]), K14, ))
                    except RuleFailure as _e: rt_say_failed(m, None, _e)
                return False
        if pc == 1:
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((m.vars[1]) > (0)):
                pc = 2
            else:
                pc = 5
        if pc == 2:
            _ids = []
            for v0 in K6:
                if ((v0) <= (m.vars[1])): _ids.append(-1 + v0)
            if _ids:
                _ids = tuple(_ids)
                _who = m.vars[2]
                m.pending = (0, _who, _ids)
                fr[1] = 2
                return True
            pc = 4
        if pc == 4:
            if ((m.vars[1]) > (0)):
                m.vars[2] = ((m.vars[2]) + 1) % m.n
            pc = 1; continue
        if pc == 5:
            if m.sink is not None:
                try:
                    rt_said(m, None, (K13(m, m.vars[2]), K14, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            return False


# rules rule play: W0
def W0(m, fr):
    pc = fr[1]
    while True:
        if pc == 0:
            m.vars[2] = rt_random(m, K0[m.n], K1)
            pc = 1
        if pc == 1:
            m.ticks -= 1
            if m.ticks < 0: raise StepBudgetSpent()
            if ((m.vars[1]) > (0)):
                pc = 2
            else:
                pc = 5
        if pc == 2:
            _ids = []
            for v0 in K6:
                if ((v0) <= (m.vars[1])): _ids.append(-1 + v0)
            if _ids:
                _ids = tuple(_ids)
                _who = m.vars[2]
                m.pending = (0, _who, _ids)
                fr[1] = 2
                return True
            pc = 4
        if pc == 3:
            m.vars[1] -= v0
            if not -1000000000000000 <= m.vars[1] <= 1000000000000000: rt_too_big(m.vars[1])
            if m.sink is not None:
                try:
                    rt_said(m, None, (K7(m, m.vars[2]), K8, K9(m, v0), K10, K11(m, m.vars[1]), K12, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            pc = 4
        if pc == 4:
            if ((m.vars[1]) > (0)):
                m.vars[2] = ((m.vars[2]) + 1) % m.n
            pc = 1; continue
        if pc == 5:
            if m.sink is not None:
                try:
                    rt_said(m, None, (K13(m, m.vars[2]), K14, ))
                except RuleFailure as _e: rt_say_failed(m, None, _e)
            return False


# rules score: E6
def E6(m, v0):
    return ((1) if (((v0) == (m.vars[2]))) else (0))
