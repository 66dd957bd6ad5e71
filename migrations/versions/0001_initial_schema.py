"""Initial schema: bots, matches, seats, match events, results.

Revision ID: 0001
Revises: 
Create Date: 2026-12-01 05:51:26.592460
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = '0001'
down_revision: str | None = None
branch_labels: str | tuple[str, ...] | None = None
depends_on: str | tuple[str, ...] | None = None


def upgrade() -> None:
    op.create_table('bots',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('command', sa.JSON(), nullable=False),
    sa.Column('workdir', sa.String(length=1024), nullable=True),
    sa.Column('env', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_bots')),
    sa.UniqueConstraint('name', name=op.f('uq_bots_name'))
    )
    op.create_index(op.f('ix_bots_game'), 'bots', ['game'], unique=False)
    op.create_table('matches',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=True),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('started', sa.DateTime(timezone=True), nullable=True),
    sa.Column('finished', sa.DateTime(timezone=True), nullable=True),
    sa.Column('attempt', sa.Integer(), nullable=False),
    sa.CheckConstraint("status IN ('waiting', 'running', 'paused', 'finished', 'aborted', 'cancelled')", name=op.f('ck_matches_status')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches'))
    )
    op.create_index(op.f('ix_matches_created'), 'matches', ['created'], unique=False)
    op.create_index(op.f('ix_matches_game_created'), 'matches', ['game', 'created'], unique=False)
    op.create_index(op.f('ix_matches_status'), 'matches', ['status'], unique=False)
    op.create_table('match_events',
    sa.Column('match_id', sa.String(length=36), nullable=False),
    sa.Column('seq', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('time', sa.DateTime(timezone=True), nullable=False),
    sa.Column('kind', sa.String(length=64), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_match_events_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'seq', name=op.f('pk_match_events'))
    )
    op.create_table('results',
    sa.Column('match_id', sa.String(length=36), nullable=False),
    sa.Column('winner', sa.Integer(), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('scores', sa.JSON(), nullable=False),
    sa.Column('committed', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_results_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', name=op.f('pk_results'))
    )
    op.create_table('seats',
    sa.Column('match_id', sa.String(length=36), nullable=False),
    sa.Column('index', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('display_name', sa.String(length=200), nullable=False),
    sa.Column('bot_id', sa.Integer(), nullable=True),
    sa.Column('reservation', sa.String(length=64), nullable=True),
    sa.Column('score_parts', sa.JSON(), nullable=True),
    sa.Column('outcome', sa.String(length=8), nullable=True),
    sa.Column('failure', sa.String(length=32), nullable=True),
    sa.Column('detail', sa.Text(), nullable=False),
    sa.CheckConstraint("failure IS NULL OR failure IN ('timeout', 'illegal_move', 'crash', 'protocol_error', 'disconnect', 'failed_to_start')", name=op.f('ck_seats_failure')),
    sa.CheckConstraint("outcome IS NULL OR outcome IN ('win', 'draw', 'loss')", name=op.f('ck_seats_outcome')),
    sa.ForeignKeyConstraint(['bot_id'], ['bots.id'], name=op.f('fk_seats_bot_id_bots'), ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_seats_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'index', name=op.f('pk_seats'))
    )
    op.create_index(op.f('ix_seats_bot_id'), 'seats', ['bot_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_seats_bot_id'), table_name='seats')
    op.drop_table('seats')
    op.drop_table('results')
    op.drop_table('match_events')
    op.drop_index(op.f('ix_matches_status'), table_name='matches')
    op.drop_index(op.f('ix_matches_game_created'), table_name='matches')
    op.drop_index(op.f('ix_matches_created'), table_name='matches')
    op.drop_table('matches')
    op.drop_index(op.f('ix_bots_game'), table_name='bots')
    op.drop_table('bots')
