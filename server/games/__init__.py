"""Games as plugins: the registry (filled from the `gauntlet.games` entry points) and the
adapters that fit each engine to the room contract in `server.rooms.game`."""
