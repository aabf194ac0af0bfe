#!/usr/bin/env bash
# Makes a streaming hot standby of the loopback PostgreSQL that ../shared/scripts/start-postgres.sh starts, on another
# loopback port: a copy made with pg_basebackup (-R writes standby.signal and primary_conninfo), streaming the primary's
# WAL through a physical replication slot of its own, so a standby stopped for a while catches up when it starts again.
# For the read-replica tests and benchmarks (EVIDENT_DATABASE_READ_URLS).
# Usage (as root): scripts/start-postgres-replica.sh [PORT] [PRIMARY_PORT]   -> prints the standby's postgres:// URL last
#                  (defaults 55433 and 55432; a second standby: scripts/start-postgres-replica.sh 55434)
# Stop:            scripts/start-postgres-replica.sh --stop [PORT]     (keeps its data and slot: the next start resumes)
# Remove:          scripts/start-postgres-replica.sh --remove [PORT] [PRIMARY_PORT]  (stops it, deletes its data, drops its slot)
set -euo pipefail
PGVER=15
PGBIN=/usr/lib/postgresql/$PGVER/bin
as_postgres() { runuser -u postgres -- "$@"; }
fail() { echo "start-postgres-replica: $*" >&2; exit 1; }
sql() { psql -h 127.0.0.1 -p "$1" -U postgres -v ON_ERROR_STOP=1 -qtA -c "$2"; }

if [[ ${1:-} == --stop || ${1:-} == --remove ]]; then
  PORT=${2:-55433}; PRIMARY_PORT=${3:-55432}; ROOT=/tmp/evident-pg-replica-$PORT
  as_postgres "$PGBIN/pg_ctl" -D "$ROOT/data" -m fast stop >/dev/null 2>&1 || true
  if [[ $1 == --remove ]]; then
    rm -rf "$ROOT"
    sql "$PRIMARY_PORT" "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = 'evident_replica_$PORT'" >/dev/null 2>&1 || true
  fi
  exit 0
fi

PORT=${1:-55433}
PRIMARY_PORT=${2:-55432}
[[ $PORT != "$PRIMARY_PORT" ]] || fail "the standby needs a port of its own (both are $PORT)"
ROOT=/tmp/evident-pg-replica-$PORT
DATA=$ROOT/data
SLOT=evident_replica_$PORT
PRIMARY_DATA=/tmp/evident-pg-$PRIMARY_PORT/data

sql "$PRIMARY_PORT" "SELECT 1" >/dev/null 2>&1 ||
  fail "no PostgreSQL answers on 127.0.0.1:$PRIMARY_PORT; start the primary first: ../shared/scripts/start-postgres.sh $PRIMARY_PORT"
[[ $(sql "$PRIMARY_PORT" "SELECT pg_is_in_recovery()") == f ]] || fail "127.0.0.1:$PRIMARY_PORT is itself a standby; give the primary's port"

# Streaming needs wal_level replica (PostgreSQL 15's default) and WAL senders; both only change with a restart.
wal_level=$(sql "$PRIMARY_PORT" "SHOW wal_level")
senders=$(sql "$PRIMARY_PORT" "SHOW max_wal_senders")
if [[ $wal_level == minimal || $senders == 0 ]]; then
  fail "the primary has wal_level=$wal_level, max_wal_senders=$senders; run: psql -h 127.0.0.1 -p $PRIMARY_PORT -U postgres -c \"ALTER SYSTEM SET wal_level = replica\" -c \"ALTER SYSTEM SET max_wal_senders = 10\", then restart it"
fi
# initdb's pg_hba.conf lets loopback replicate; add the line (and reload) when a primary's file lacks it.
if [[ -f $PRIMARY_DATA/pg_hba.conf ]] && ! grep -Eq '^host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32' "$PRIMARY_DATA/pg_hba.conf"; then
  echo "host    replication     all             127.0.0.1/32            trust" >>"$PRIMARY_DATA/pg_hba.conf"
  sql "$PRIMARY_PORT" "SELECT pg_reload_conf()" >/dev/null
fi

mkdir -p "$ROOT" && chown postgres:postgres "$ROOT"
# A copy of an earlier primary (re-created since) cannot stream from this one: stop it and copy afresh.
if [[ -f $DATA/standby.signal ]]; then
  copy_id=$("$PGBIN/pg_controldata" -D "$DATA" 2>/dev/null | sed -n 's/^Database system identifier: *//p')
  if [[ $copy_id != "$(sql "$PRIMARY_PORT" "SELECT system_identifier FROM pg_control_system()")" ]]; then
    as_postgres "$PGBIN/pg_ctl" -D "$DATA" -m fast stop >/dev/null 2>&1 || true
    rm -f "$DATA/standby.signal"
  fi
fi
if [[ ! -f $DATA/standby.signal ]]; then
  rm -rf "$DATA"
  # A slot left by a removed copy would hold WAL for nobody; the new copy creates its own (-C -S).
  sql "$PRIMARY_PORT" "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '$SLOT' AND NOT active" >/dev/null
  as_postgres "$PGBIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -D "$DATA" -R -X stream -C -S "$SLOT" --no-sync -c fast >/dev/null
fi
if ! as_postgres "$PGBIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
  # max_connections must be at least the primary's for a hot standby to accept queries.
  max_connections=$(sql "$PRIMARY_PORT" "SHOW max_connections")
  as_postgres "$PGBIN/pg_ctl" -D "$DATA" -l "$ROOT/server.log" -w \
    -o "-p $PORT -k $ROOT -c listen_addresses=127.0.0.1 -c max_connections=$max_connections -c hot_standby=on" start >/dev/null ||
    fail "the standby did not start; see $ROOT/server.log"
fi
# Ready once it is in recovery and its WAL receiver streams from the primary.
for _ in $(seq 1 60); do
  state=$(sql "$PORT" "SELECT pg_is_in_recovery()::text || ',' || coalesce((SELECT status FROM pg_stat_wal_receiver), 'none')" 2>/dev/null || true)
  [[ $state == true,streaming ]] && break
  sleep 0.5
done
[[ ${state:-} == true,streaming ]] || fail "127.0.0.1:$PORT is up but not streaming from 127.0.0.1:$PRIMARY_PORT (state: ${state:-no answer}); see $ROOT/server.log"
echo "postgres://postgres@127.0.0.1:$PORT/postgres"
