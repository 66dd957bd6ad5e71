# Gauntlet: the match server, its HTTP API and viewer, the ladder and the bundled bots.
# `docker compose up` (docker-compose.yml) is the usual way to run it.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The source stays in /app: the install is editable because the store's migrations live in
# the top-level migrations/ folder, next to the packages (server/store/migrate.py).
WORKDIR /app
COPY pyproject.toml constraints.txt README.md ./
COPY games ./games
COPY protocols ./protocols
COPY server ./server
COPY bots ./bots
COPY stats ./stats
COPY migrations ./migrations
COPY web ./web
RUN pip install -c constraints.txt -e . \
    && useradd --create-home --uid 1000 gauntlet \
    && mkdir -p /srv/gauntlet/data /srv/gauntlet/extra-bots \
    && chown -R gauntlet /srv/gauntlet

USER gauntlet
# The data folder (database, admin token, seat logs) is ./data under this directory.
WORKDIR /srv/gauntlet
EXPOSE 8000 13050
CMD ["gauntlet", "serve", "--host", "0.0.0.0"]
