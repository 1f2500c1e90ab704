"""`python -m console`: the terminal stand-in for a Discord channel."""

import sys

from console.app import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
