"""The load bench's memory figure is the bot's own: a bot spawned by a driver that has grown large
must not report the driver's peak as its own (Linux carries it across exec into `ru_maxrss`)."""

from __future__ import annotations

import subprocess
import sys

GROWN_MB = 200


def test_a_spawned_process_reports_its_own_peak_not_its_parents() -> None:
    grown = bytearray(GROWN_MB * 1024 * 1024)
    for i in range(0, len(grown), 4096):  # touch every page, so the parent's RSS really holds it
        grown[i] = 1
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tests.reliability.botproc import own_peak_rss_kib; print(own_peak_rss_kib())",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    child_mb = int(out) / 1024
    assert child_mb < GROWN_MB / 2, f"the child reported {child_mb:.0f} MB, its parent's {GROWN_MB} MB"
    del grown
