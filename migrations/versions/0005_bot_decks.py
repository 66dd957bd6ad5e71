"""bots: a default deck

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03 18:50:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0005'
down_revision: str | None = '0004'
branch_labels: str | tuple[str, ...] | None = None
depends_on: str | tuple[str, ...] | None = None


def upgrade() -> None:
    with op.batch_alter_table('bots') as batch:
        batch.add_column(sa.Column('deck', sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('bots') as batch:
        batch.drop_column('deck')
