"""Scale-out: Celery workers that each play one match at a time (docs/scale.md).

Nothing here is imported on the single-process path: the API node reaches this package
only when `GAUNTLET_BROKER_URL` is set, and Celery itself is imported only inside the
functions that need it.

- `attempts`: the store guarded by (match id, attempt): a restarted match supersedes the
  failed attempt, whose late writes are refused.
- `job`: what a worker does with a `play_match` job (a GauntletServer without HTTP on an
  ephemeral loopback port, the bots launched locally, events and result to the store,
  frames to Redis).
- `celery_app`: the Celery application and its one task.
- `dispatch`: the API node's side: create the match row, enqueue with backpressure, wait.
- `channels` and `remote`: the Redis pub/sub the spectators of other API nodes follow.
"""
