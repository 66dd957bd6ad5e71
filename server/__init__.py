"""Everything that does I/O: sockets, rooms, storage, HTTP."""
