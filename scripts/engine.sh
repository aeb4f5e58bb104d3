#!/usr/bin/env bash
# Bring up a Docker Engine that fcv can use, without any container registry.
#
# Idempotent. If a daemon already answers (a user's machine, DOCKER_HOST pointing at a remote
# engine), nothing is installed and nothing is restarted. Otherwise, on Debian, the missing
# packages among docker.io, runsc, busybox-static and debootstrap are installed, gVisor is
# registered as runtime "runsc" (with --network=none, which it needs here), and dockerd is
# started with no bridge and no iptables, so no container can reach any network.
set -euo pipefail

FCV_DOCKERD_CONFIG=${FCV_DOCKERD_CONFIG:-/etc/fcv/dockerd.json}
FCV_DOCKERD_LOG=${FCV_DOCKERD_LOG:-/var/log/fcv-dockerd.log}
WAIT_SECONDS=${FCV_ENGINE_WAIT:-60}

log() { printf 'engine.sh: %s\n' "$*" >&2; }

engine_answers() {
  command -v docker >/dev/null 2>&1 && docker version --format '{{.Server.Version}}' >/dev/null 2>&1
}

# The packages fcv needs on the host itself: the daemon, gVisor, and the two tools that build
# the base images without a registry.
missing_packages() {
  local need=()
  command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
  command -v runsc >/dev/null 2>&1 || [ -x /usr/bin/runsc ] || need+=(runsc)
  [ -x /bin/busybox ] && /bin/busybox --list >/dev/null 2>&1 && file_is_static /bin/busybox || need+=(busybox-static)
  command -v debootstrap >/dev/null 2>&1 || need+=(debootstrap)
  printf '%s\n' "${need[@]}"
}

file_is_static() {
  # busybox-static ships a statically linked binary; the dynamic "busybox" package would not run
  # inside an image that has no libc.
  ! ldd "$1" >/dev/null 2>&1
}

install_packages() {
  mapfile -t need < <(missing_packages | sed '/^$/d')
  if [ "${#need[@]}" -eq 0 ]; then
    log "packages present"
    return
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    log "missing ${need[*]} and no apt-get here: install them by hand, then re-run"
    exit 1
  fi
  log "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# gVisor needs --network=none here; --oci-seccomp makes it load the engine's seccomp profile
# inside the sandbox too (without it, gVisor ignores the profile and relies on its own).
write_config() {
  local runsc target=${1:-$FCV_DOCKERD_CONFIG}
  runsc=$(command -v runsc || echo /usr/bin/runsc)
  mkdir -p "$(dirname "$target")"
  cat >"$target" <<JSON
{
  "runtimes": {"runsc": {"path": "$runsc", "runtimeArgs": ["--network=none", "--oci-seccomp"]}}
}
JSON
}

# A daemon this script started earlier, with an older config: rewrite the config and have
# dockerd reload it (SIGHUP reloads runtimes; running containers are not touched).
refresh_config() {
  local pid new
  pid=$(pgrep -f "dockerd --config-file $FCV_DOCKERD_CONFIG" | head -n 1) || return 0
  [ -n "$pid" ] || return 0
  new=$(mktemp)
  write_config "$new"
  if ! cmp -s "$new" "$FCV_DOCKERD_CONFIG"; then
    mv "$new" "$FCV_DOCKERD_CONFIG"
    kill -HUP "$pid"
    log "runtime config updated; dockerd reloaded it"
  else
    rm -f "$new"
  fi
}

start_daemon() {
  write_config
  log "starting dockerd (log: $FCV_DOCKERD_LOG)"
  # containerd is started by dockerd itself when none runs.
  nohup dockerd --config-file "$FCV_DOCKERD_CONFIG" --bridge=none --iptables=false \
    --ip6tables=false >"$FCV_DOCKERD_LOG" 2>&1 </dev/null &
  local waited=0
  until engine_answers; do
    if [ "$waited" -ge "$WAIT_SECONDS" ]; then
      log "dockerd did not answer within ${WAIT_SECONDS}s; last log lines:"
      tail -n 20 "$FCV_DOCKERD_LOG" >&2 || true
      exit 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
}

main() {
  if engine_answers; then
    log "engine already answers ($(docker version --format '{{.Server.Version}}')); leaving it as it is"
    refresh_config
    # The base-image tools are still needed to build fcv's images on a local engine.
    if [ -z "${DOCKER_HOST:-}" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
      install_packages
    fi
    return
  fi
  install_packages
  start_daemon
  log "engine ready: $(docker version --format '{{.Server.Version}}')"
}

main "$@"
