"""seat_moves: a launched bot's stderr and usage per decision

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0006'
down_revision: str | None = '0005'
branch_labels: str | tuple[str, ...] | None = None
depends_on: str | tuple[str, ...] | None = None


def upgrade() -> None:
    op.create_table('seat_moves',
    sa.Column('match_id', sa.String(length=36), nullable=False),
    sa.Column('seat', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('turn', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('seq', sa.Integer(), nullable=True),
    sa.Column('think_ms', sa.Integer(), nullable=True),
    sa.Column('cpu_ms', sa.Integer(), nullable=True),
    sa.Column('peak_rss_kb', sa.Integer(), nullable=True),
    sa.Column('lines', sa.JSON(), nullable=False),
    sa.Column('dropped_lines', sa.Integer(), nullable=False),
    sa.Column('dropped_bytes', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_seat_moves_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seat', 'turn', name=op.f('pk_seat_moves'))
    )


def downgrade() -> None:
    op.drop_table('seat_moves')
