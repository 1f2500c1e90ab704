"""Print the dependencies pyproject.toml lists, one per line, for pip (`--dev`: the dev extras too).

The list lives once, in pyproject.toml; the Makefile and the Dockerfile install what this prints,
pinned by constraints.txt, so neither repeats it.
"""

import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
extras = project["optional-dependencies"]["dev"] if "--dev" in sys.argv else []
print("\n".join(project["dependencies"] + extras))
