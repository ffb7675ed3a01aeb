"""The command line and the terminal: ``skitgubbe`` and its subcommands (:mod:`.cli`), the
terminal game (:mod:`.terminal`), the guided lesson (:mod:`.learn`) and move hints
(:mod:`.hint`).  The top layer: it may use every other subpackage.
"""
