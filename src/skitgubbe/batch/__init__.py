"""Many deals at once: the deal runner and game protocol, simulation, tournaments, the speed
benchmark and the statistics they report.  Built on :mod:`skitgubbe.engine` and
:mod:`skitgubbe.bots`; no terminal or server code.
"""
