"""Sequential tests on the server (issue #26): `POST /api/tests` plays a candidate against
a baseline in pairs of games until a pentanomial SPRT decides, stored so that a killed
server resumes each test where it stopped.

- `server.sprt.tally`: a test's figures from its counted pairs (`Tally`), the one
  definition the runner decides with and the API reports;
- `server.sprt.runner`: `SprtRunner`, the task per running test that plays its pairs.

The statistics themselves are `stats`; `gauntlet sprt` runs the same test in a server of
its own, without a store.
"""

from server.sprt.runner import SprtRunner
from server.sprt.tally import Tally

__all__ = ["SprtRunner", "Tally"]
