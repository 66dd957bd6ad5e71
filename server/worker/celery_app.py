"""The Celery application of the cluster: one task, `gauntlet.play_match(match_id)`.

A worker plays one match at a time (`--concurrency 1`, prefetch 1) and acknowledges a job
only once it is played (`acks_late`); a job whose worker died is never acknowledged: the
pool reports a lost child (`reject_on_worker_lost` requeues it), and a worker killed as a
whole leaves it unacknowledged in Redis, which hands it out again once the visibility
timeout (`GAUNTLET_VISIBILITY_TIMEOUT`, longer than the longest match) has passed. The next
attempt supersedes the lost one (`server.worker.attempts`). Jobs carry plain JSON.

A database that cannot be reached is retried (the job stays with the broker meanwhile);
any other error is logged and the job is done (the match is left to the API node's ladder,
which replays a match that did not finish).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Celery  # type: ignore[import-untyped]

from server.settings import Settings
from server.worker.channels import QUEUE, TASK

log = logging.getLogger(__name__)

DB_RETRY_SECONDS = 5


def celery_config(settings: Settings) -> dict[str, Any]:
    """The settings both sides use (producer and worker must agree on the transport's)."""
    return {
        "broker_url": settings.broker_url,
        "broker_transport_options": {
            "visibility_timeout": settings.visibility_timeout,
            # Look for unacknowledged jobs past their timeout often enough that a short
            # timeout (the tests') is honoured: about every min(timeout, 10) seconds.
            "unacked_restore_interval": max(1, min(10, settings.visibility_timeout // 2)),
            "unacked_restore_throttle": 1,
        },
        "broker_connection_retry_on_startup": True,
        "task_default_queue": QUEUE,
        "task_serializer": "json",
        "accept_content": ["json"],
        "task_ignore_result": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "worker_prefetch_multiplier": 1,
        "worker_hijack_root_logger": False,
        "worker_send_task_events": False,
        "broker_heartbeat": 0,
    }


def create_app(settings: Settings) -> Celery:
    """The application with `play_match` registered (the worker's and the producer's)."""
    if not settings.broker_url:
        raise ValueError("GAUNTLET_BROKER_URL is not set: no broker, no workers")
    app = Celery("gauntlet", set_as_current=False)
    app.conf.update(celery_config(settings))

    @app.task(name=TASK, bind=True, max_retries=None)
    def play_match(self: Any, match_id: str) -> dict[str, Any]:
        from sqlalchemy.exc import OperationalError

        from server.worker.job import play

        try:
            played = play(match_id, settings)
        except OperationalError as exc:
            log.warning("match %s: the database cannot be reached (%s); retrying in %d s",
                        match_id, exc, DB_RETRY_SECONDS)
            raise self.retry(exc=exc, countdown=DB_RETRY_SECONDS) from exc
        log.info("match %s: attempt %s, %s", match_id, played.attempt, played.status)
        return {"match": match_id, "attempt": played.attempt, "status": played.status}

    return app
