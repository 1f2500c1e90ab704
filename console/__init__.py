"""The local console: play the bot's games in a terminal through the same service the Discord bot uses."""

from console.app import Console, amain, main

__all__ = ["Console", "amain", "main"]
