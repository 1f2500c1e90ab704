"""Reliability tooling shared by `bench/load.py`, `bench/crash.py` and `tests/test_reliability.py`.

`botproc` runs the real bot in a process of its own (so its memory, event-loop stalls and a SIGKILL
are real); `loadkit` is the lean driver that plays many matches at once through the fake Discord and
checks the database afterwards.
"""
