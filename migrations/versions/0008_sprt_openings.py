"""sprt openings: the positions a sequential test's pairs start from

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06 21:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0008'
down_revision: str | None = '0007'
branch_labels: str | tuple[str, ...] | None = None
depends_on: str | tuple[str, ...] | None = None


def upgrade() -> None:
    with op.batch_alter_table('sprt_tests') as batch:
        batch.add_column(sa.Column('openings', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('sprt_tests') as batch:
        batch.drop_column('openings')
