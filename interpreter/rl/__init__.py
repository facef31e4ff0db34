"""Adapters to the frameworks researchers use: PettingZoo (`rulecraft.rl.pettingzoo`), Gymnasium
(`rulecraft.rl.gymnasium`) and OpenSpiel (`rulecraft.rl.openspiel`), each a thin layer over
rulecraft.api. They need the optional extras `rulecraft[rl]` and `rulecraft[openspiel]`; see docs/rl.md.
"""
