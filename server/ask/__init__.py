"""Asking a bot again (issue #29): a stored match played once more up to one seat's
decision, with a fresh bot process in that seat, fed exactly what the seat was sent then;
its answer and think time beside the stored answer. See `replay` for how, `stored` for the
decision numbering and the checks; `POST /api/matches/{id}/seats/{n}/ask` and
`gauntlet ask` use it."""

from server.ask.replay import Asked, Said, ask, ask_stored, normalized, stored_clocks
from server.ask.stored import AskError, StoredMatch

__all__ = ["AskError", "Asked", "Said", "StoredMatch", "ask", "ask_stored", "normalized",
           "stored_clocks"]
