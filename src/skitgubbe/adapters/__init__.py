"""Adapters that expose the engine to research frameworks (optional extras).

* :mod:`skitgubbe.adapters.encoding`: the fixed action space (integer ids) and the observation
  encoding (a flat list of floats) shared by every adapter.  Standard library only.
* :mod:`skitgubbe.adapters.openspiel`: the OpenSpiel game ``python_skitgubbe`` (needs the
  ``openspiel`` extra: ``open_spiel`` and ``numpy``).
* :mod:`skitgubbe.adapters.pettingzoo`, :mod:`skitgubbe.adapters.gymnasium`: PettingZoo and
  Gymnasium environments.

The core never imports this package; importing this package imports no framework.  Each
framework module imports its framework itself, so import only the one you use.
"""
