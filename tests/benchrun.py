"""A bench of bench/ run from a test at its smallest, so that it cannot rot unseen."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def last_figures(script: str, *args: str) -> dict[str, Any]:
    """Run `bench/<script>` with `args` (as `python bench/<script>` runs it): its figures, the JSON
    object its last line prints."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures
