"""Discord adapters (cogs): thin layers that parse, call the match service, and post boards."""
