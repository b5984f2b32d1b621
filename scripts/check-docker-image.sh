#!/usr/bin/env bash
# Builds the Docker image and starts it the way `docker run` would (SQLite in the image's data folder), then
# waits for /health. Needs a Docker daemon; .ci/run calls it where one answers.
# Usage: bash scripts/check-docker-image.sh
set -euo pipefail
cd "$(dirname "$0")/.."

tag="storefront-check:$$"
name="storefront-check-$$"
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker rmi "$tag" >/dev/null 2>&1 || true
}
trap cleanup EXIT

docker build --quiet --tag "$tag" .
docker run --detach --name "$name" --publish 127.0.0.1::3000 \
  --env SESSION_SECRET="$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')" \
  --env CP_ADMIN_PASSWORD="image-check-password" \
  "$tag" >/dev/null
port=$(docker port "$name" 3000/tcp | head -n 1 | sed 's/.*://')

for _ in $(seq 1 120); do
  if [ "$(docker inspect --format '{{.State.Running}}' "$name")" != true ]; then
    echo "the image stopped at start:" >&2
    docker logs "$name" >&2
    exit 1
  fi
  if health=$(curl --silent --fail --max-time 2 "http://127.0.0.1:$port/health"); then
    echo "the image answers /health: $health"
    exit 0
  fi
  sleep 0.5
done
echo "the image did not answer /health within 60 s:" >&2
docker logs "$name" >&2
exit 1
