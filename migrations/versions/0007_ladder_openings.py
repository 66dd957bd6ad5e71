"""ladder openings: the positions a game's ladder rounds start from

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06 21:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0007'
down_revision: str | None = '0006'
branch_labels: str | tuple[str, ...] | None = None
depends_on: str | tuple[str, ...] | None = None


def upgrade() -> None:
    with op.batch_alter_table('ladder_games') as batch:
        batch.add_column(sa.Column('openings', sa.JSON(), nullable=True))
    with op.batch_alter_table('ladder_pairings') as batch:
        batch.add_column(sa.Column('start', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('ladder_pairings') as batch:
        batch.drop_column('start')
    with op.batch_alter_table('ladder_games') as batch:
        batch.drop_column('openings')
