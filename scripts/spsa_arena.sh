#!/usr/bin/env bash
# SPSA tuning of Shishi's hidden search parameters with ShogiArena (PyPI `shogiarena`),
# locally or across machines over SSH. The configuration is scripts/spsa-arena/spsa.yaml
# (the run) and scripts/spsa-arena/space.yaml (the parameters); docs/STRENGTH.md, "SPSA with
# ShogiArena", says how to run it on N machines.
#
#   scripts/spsa_arena.sh [--engine PATH] [--updates N] [--pairs N] [--nodes N]
#                         [--slots N] [--instances FILE] [--loopback-ssh]
#                         [--loopback-instances N] [--worker-python PATH] [--out DIR]
#
#   --engine        the shishi binary (default target/release/shishi)
#   --updates       SPSA updates (default 20); --pairs: game pairs per update (default 1)
#   --nodes         node limit per move (default 20000)
#   --slots         games at once on this machine when it plays alone (default 1; with SSH
#                   instances ShogiArena plays every game on them)
#   --instances     ShogiArena instance files of SSH machines, comma-separated (one file
#                   per machine, docs/STRENGTH.md); this machine then only coordinates
#   --loopback-ssh  exercise the SSH path on one machine: start an sshd on 127.0.0.1 (a high
#                   port, a key made for the run, a throwaway authorized_keys, nothing else
#                   reachable), add it as an SSH instance, stop it at the end
#   --loopback-instances N
#                   with --loopback-ssh (implied): N SSH instances reaching that sshd, each
#                   with its own worker directory and one game at a time, as N machines of
#                   one core pair each would be (default 1)
#   --worker-python the Python interpreter SSH workers run on (a path every machine has),
#                   instead of the CPython ShogiArena's worker bundle names and uv downloads
#                   from GitHub (3.12.10 for ShogiArena 1.3.2): for machines without that
#                   download
#   --out           the run directory (default /tmp/shishi-spsa-arena)
#
# Needs `shogiarena` on PATH (pip install shogiarena; SSH instances also need `uv` on the
# remote machine: pip install uv). The tuned values are printed at the end and are in
# OUT/run (ShogiArena's run directory; `shogiarena dashboard` shows it).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ENGINE="$ROOT/target/release/shishi"
UPDATES=20
PAIRS=1
NODES=20000
SLOTS=1
INSTANCES=""
LOOPBACK_SSH=0
LOOPBACK_INSTANCES=1
WORKER_PYTHON=""
OUT=/tmp/shishi-spsa-arena

while [ $# -gt 0 ]; do
    case "$1" in
        --engine) ENGINE="$2"; shift 2 ;;
        --updates) UPDATES="$2"; shift 2 ;;
        --pairs) PAIRS="$2"; shift 2 ;;
        --nodes) NODES="$2"; shift 2 ;;
        --slots) SLOTS="$2"; shift 2 ;;
        --instances) INSTANCES="$2"; shift 2 ;;
        --loopback-ssh) LOOPBACK_SSH=1; shift ;;
        --loopback-instances) LOOPBACK_SSH=1; LOOPBACK_INSTANCES="$2"; shift 2 ;;
        --worker-python) WORKER_PYTHON="$2"; shift 2 ;;
        --out) OUT="$2"; shift 2 ;;
        -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

case "$LOOPBACK_INSTANCES" in
    ''|*[!0-9]*|0) echo "--loopback-instances takes a count of 1 or more" >&2; exit 2 ;;
esac
command -v shogiarena >/dev/null || { echo "shogiarena not found: pip install shogiarena" >&2; exit 1; }
[ -x "$ENGINE" ] || { echo "no engine at $ENGINE (cargo build --release)" >&2; exit 1; }
ENGINE="$(cd "$(dirname "$ENGINE")" && pwd)/$(basename "$ENGINE")"
# Games in flight: this machine's when it plays alone, else the SSH instances' (see POLICY).
PARALLEL=$SLOTS
if [ "$LOOPBACK_SSH" = 1 ] || [ -n "$INSTANCES" ]; then
    PARALLEL=0
fi
[ "$LOOPBACK_SSH" = 1 ] && PARALLEL=$((PARALLEL + LOOPBACK_INSTANCES))
for file in ${INSTANCES//,/ }; do
    PARALLEL=$((PARALLEL + $(awk '$1 == "slots:" {print $2; exit}' "$file") / 2))
done
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# Every parameter's start value must be one the engine's setoption takes.
OPTIONS=$(grep -o 'option: Search_[A-Za-z]*' "$ROOT/scripts/spsa-arena/space.yaml" | cut -d' ' -f2)
CHECK="usi"
for name in $OPTIONS; do
    value=$(awk -v n="$name" '$0 ~ "option: "n"}" {getline; getline; print $2; exit}' \
        "$ROOT/scripts/spsa-arena/space.yaml")
    CHECK="$CHECK
setoption name $name value $value"
done
if printf '%s\nisready\nquit\n' "$CHECK" | "$ENGINE" | grep 'info string error'; then
    echo "the engine refused a parameter of space.yaml" >&2
    exit 1
fi

# Openings: the wide book's lines as `startpos moves …`.
grep -v '^#' "$ROOT/positions/openings/shogi-wide.txt" | grep . | sed 's/^/startpos moves /' \
    > "$OUT/openings.txt"

SSHD_PID=""
cleanup() {
    if [ -n "$SSHD_PID" ]; then
        kill "$SSHD_PID" 2>/dev/null || true
        wait "$SSHD_PID" 2>/dev/null || true
        echo "sshd on 127.0.0.1 stopped"
    fi
}
trap cleanup EXIT
trap "exit 143" INT TERM

POLICY=local
[ "$LOOPBACK_SSH" = 1 ] || [ -n "$INSTANCES" ] && POLICY=auto
# One instances file per machine (ShogiArena's single-file form): this one, the loopback
# SSH instances if asked for, and those given with --instances.
LIST="\"$OUT/local.yaml\""
# A slot is a core: a game of two one-thread engines takes two.
cat > "$OUT/local.yaml" <<EOF
name: local
type: local
slots: $((2 * SLOTS))
EOF
for file in ${INSTANCES//,/ }; do
    LIST="$LIST, \"$(cd "$(dirname "$file")" && pwd)/$(basename "$file")\""
done
if [ "$LOOPBACK_SSH" = 1 ]; then
    SSHD=$(command -v sshd || echo /usr/sbin/sshd)
    [ -x "$SSHD" ] || { echo "no sshd: apt-get install openssh-server" >&2; exit 1; }
    UV=$(command -v uv || true)
    [ -n "$UV" ] || { echo "no uv on PATH (pip install uv): the SSH worker needs it" >&2; exit 1; }
    SSHDIR="$OUT/sshd"
    rm -rf "$SSHDIR"
    mkdir -p "$SSHDIR" /run/sshd
    chmod 700 "$SSHDIR"
    ssh-keygen -q -t ed25519 -N '' -f "$SSHDIR/host_key"
    ssh-keygen -q -t ed25519 -N '' -f "$SSHDIR/client_key"
    cp "$SSHDIR/client_key.pub" "$SSHDIR/authorized_keys"
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat > "$SSHDIR/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $PORT
HostKey $SSHDIR/host_key
AuthorizedKeysFile $SSHDIR/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers $(whoami)
StrictModes no
UsePAM no
PidFile $SSHDIR/sshd.pid
Subsystem sftp internal-sftp
SetEnv PATH=$(dirname "$UV")${WORKER_PYTHON:+:$(dirname "$WORKER_PYTHON")}:/usr/local/bin:/usr/bin:/bin UV_NATIVE_TLS=1
EOF
    "$SSHD" -D -e -f "$SSHDIR/sshd_config" 2> "$SSHDIR/sshd.log" &
    SSHD_PID=$!
    for _ in $(seq 50); do
        ssh -q -p "$PORT" -i "$SSHDIR/client_key" -o StrictHostKeyChecking=no \
            -o UserKnownHostsFile="$SSHDIR/known_hosts" "$(whoami)@127.0.0.1" true && break
        sleep 0.2
    done
    echo "sshd on 127.0.0.1:$PORT (pid $SSHD_PID)"
    # The host key was made a moment ago for this run: no known_hosts entry to check. Each
    # instance has a worker directory of its own, as a machine of its own would. Two slots
    # are one game (ShogiArena counts a slot per one-thread engine and wants two for a game).
    for i in $(seq "$LOOPBACK_INSTANCES"); do
        cat > "$OUT/loopback-ssh-$i.yaml" <<EOF
name: loopback-ssh-$i
type: ssh
host: 127.0.0.1
port: $PORT
user: $(whoami)
identity_file: $SSHDIR/client_key
project_root: $OUT/remote-$i
slots: 2
is_strict_host_key_checking: false
EOF
        LIST="$LIST, \"$OUT/loopback-ssh-$i.yaml\""
    done
fi

# ShogiArena archives the engine's working directory: a directory of its own, with a copy
# of the binary (the run keeps the binary it started with).
mkdir -p "$OUT/engine"
cp "$ENGINE" "$OUT/engine/shishi"
sed -e "s|@ENGINE@|$OUT/engine/shishi|g" -e "s|@WORKDIR@|$OUT/engine|g" \
    "$ROOT/scripts/spsa-arena/engine.yaml" > "$OUT/engine.yaml"
sed -e "s|@ENGINE_CONFIG@|$OUT/engine.yaml|g" -e "s|@OPENINGS@|$OUT/openings.txt|g" \
    -e "s|@SPACE@|$ROOT/scripts/spsa-arena/space.yaml|g" -e "s|@UPDATES@|$UPDATES|g" \
    -e "s|@PAIRS@|$PAIRS|g" -e "s|@NODES@|$NODES|g" -e "s|@PARALLEL@|$PARALLEL|g" -e "s|@INSTANCES@|[$LIST]|g" -e "s|@POLICY@|$POLICY|g" \
    "$ROOT/scripts/spsa-arena/spsa.yaml" > "$OUT/spsa.yaml"

rm -rf "$OUT/run"
if [ -n "$WORKER_PYTHON" ]; then
    # ShogiArena's SSH worker runs on the CPython version its bundle names (3.12.10 in
    # 1.3.2), which uv downloads from GitHub when the machine lacks it. On machines without
    # that download, name a Python interpreter every machine has at the same path (its
    # directory must be on the PATH of SSH sessions there; the loopback sshd puts it there).
    VERSION=$("$WORKER_PYTHON" -c 'import platform; print(platform.python_version())')
    ARENA=(python3 -c "import sys
import shogiarena._core.contexts.game_session.ports.worker_deployment as w
w.WORKER_PYTHON_VERSION = sys.argv.pop(1)
from shogiarena.cli import main
sys.argv[0] = 'shogiarena'
sys.exit(main())" "$VERSION")
    ARENA[0]=$(dirname "$(command -v shogiarena)")/python
else
    ARENA=(shogiarena)
fi
"${ARENA[@]}" --output-dir "$OUT" run spsa "$OUT/spsa.yaml" --run-dir "$OUT/run" --no-resume ${SPSA_ARENA_EXTRA:-}
echo "run directory: $OUT/run"
# The tuned values, as the options that set them (for `shishi match --option1 …`).
python3 - "$OUT/run" <<'EOF'
import json, sys
run = sys.argv[1]
space = json.load(open(f"{run}/spsa/space.normalized.json"))
current = json.load(open(f"{run}/spsa/current.json"))
status = json.load(open(f"{run}/completion_status.json"))
print(f"status {status['status']}, updates committed {status.get('last_committed_update')}")
for p in space["parameters"]:
    value = current["theta"][p["id"]]
    print(f"{p['target']['option']}={round(value)}  (start {p['initial']:g}, theta {value:.2f})")
EOF
