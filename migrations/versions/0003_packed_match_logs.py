"""packed match logs, store probe

An ended match's events are packed into one compressed row of `match_logs`
(`server.store.packing`); the rows of `match_events` stored before stay readable as they are
(the server packs them bit by bit, `gauntlet db prune` at once). `store_probe` holds the
health probe's scratch row (`Store.probe`). The downgrade writes the packed events back into
`match_events`, so that nothing is lost either way (events dropped by the retention are gone).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02 07:42:22.556751
"""

from __future__ import annotations

import json
import zlib
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision: str = '0003'
down_revision: str | None = '0002'
branch_labels: str | tuple[str, ...] | None = None
depends_on: str | tuple[str, ...] | None = None


def upgrade() -> None:
    op.create_table('store_probe',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_store_probe'))
    )
    op.create_table('match_logs',
    sa.Column('match_id', sa.String(length=36), nullable=False),
    sa.Column('events', sa.Integer(), nullable=False),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('states', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=True),
    sa.Column('packed', sa.DateTime(timezone=True), nullable=False),
    sa.Column('dropped', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_match_logs_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', name=op.f('pk_match_logs'))
    )


def downgrade() -> None:
    # The packed logs back into rows, in format 1 as this revision wrote it (decoded here,
    # not by the application's code, which may have moved on by then).
    connection = op.get_bind()
    logs = sa.table('match_logs', sa.column('match_id', sa.String), sa.column('data', sa.LargeBinary))
    events = sa.table('match_events', sa.column('match_id', sa.String),
                      sa.column('seq', sa.Integer),
                      sa.column('time', sa.DateTime(timezone=True)),
                      sa.column('kind', sa.String), sa.column('payload', sa.JSON))
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    for match_id, data in connection.execute(sa.select(logs.c.match_id, logs.c.data)).all():
        if data is None:
            continue
        document = json.loads(zlib.decompress(data))
        micros = 0
        rows = []
        for seq, delta, kind, payload in document['events']:
            micros += delta
            rows.append({'match_id': match_id, 'seq': seq, 'kind': kind, 'payload': payload,
                         'time': epoch + timedelta(microseconds=micros)})
        connection.execute(sa.delete(events).where(events.c.match_id == match_id,
                                                   events.c.seq.in_([r['seq'] for r in rows])))
        if rows:
            connection.execute(sa.insert(events), rows)
    op.drop_table('match_logs')
    op.drop_table('store_probe')
