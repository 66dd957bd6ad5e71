#!/usr/bin/env bash
# Debian packages the test suite drives for real (PostgreSQL for the store tests, Chromium
# for the viewer's browser tests, docker-compose 1.29 to validate docker-compose.yml). `make test` calls this; it installs only what is missing,
# and only as root on a Debian-like machine.
# Without them the tests that need them skip with a message saying which package is missing.
set -u
missing=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system-packages: not root or no apt-get; tests needing ${missing[*]} will skip" >&2
  exit 0
fi
echo "system-packages: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || true
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
  || echo "system-packages: could not install ${missing[*]}; those tests will skip" >&2
exit 0
