#!/usr/bin/env bash
# A local OpenBench instance, end to end, against brokkr (issue 41, item 5).
#
# Unpacks OpenBench (commit 9906bad, vendored in ../shared/tools/vendor; GPL-3.0, a
# testing tool: nothing of it goes into brokkr) into a work directory, installs its
# Python needs in a venv there, starts its server on 127.0.0.1 with a throw-away SQLite
# database and one enabled approver account, registers brokkr (docs/openbench/brokkr.json
# as Engines/brokkr.json, docs/openbench/config-entry.json merged into Config/config.json),
# serves `git archive` zips of the commits on 127.0.0.1 (the client downloads an engine's
# source from the URL in its Engine row), runs one worker client with 2 threads, and drives
#   - an SPRT between two brokkr commits (by default HEAD against HEAD with one search
#     feature switched off by default, a throwaway commit made here), capped in games;
#   - an SPSA tune of a few parameters (a throwaway commit of HEAD whose Makefile says
#     TUNE ?= 1, so that the parameters are listed UCI options), if `brokkr tune-params`
#     exists;
# waits for both, saves the server's result pages and JSON into the output directory, and
# stops everything it started.
#
# OpenBench's web form and /scripts/ endpoint accept only GitHub repositories (they call
# api.github.com), so the Engine, Test and SPSA rows are made with OpenBench's own models
# in `manage.py shell`, as OpenBench/workloads/create_workload.py and
# OpenBench/spsa_utils.create_spsa_run make them. OpenBench's code is not changed.
#
# Each SPRT engine is built once, before the worker starts, by the client's own
# utils.prepare_engine (the same download-unzip-`make -j EXE=...` the worker runs) into
# Client/Engines, and benched by the client's own bench.run_benchmark (parse_stream_output
# and the determinism check over several concurrent benches); the worker then finds the
# binaries there. The SPSA engine is left for the worker to build itself.
#
# The client ends engines with `pkill -f <name>`: the names are `fastchess-ob` and
# `brokkr-<first 8 hex digits of the commit, upper case>`. The script refuses to start
# the worker while any other process matches one of them.
#
# Usage: docs/scripts/openbench-local.sh [options]      (from anywhere; --help lists them)
# Needs: python3 (venv), git, make, cargo (>= 1.89), g++, pkill/pgrep, tar, xz; PyPI.
# The whole script is one { } block, read in full before it runs: editing this file while it
# runs cannot change what the running copy does.
{
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARED=${BROKKR_SHARED:-$REPO/../shared}
VENDOR=$SHARED/tools/vendor/openbench-9906bad.tar.xz

WORK=/tmp/openbench-local
OUT=
DEV=HEAD
SPRT=yes
BASE=
SWITCH=Singular
TC=2.0+0.02
OPTIONS="Threads=1 Hash=16"
BOUNDS="[0.00, 10.00]"
CONFIDENCE="[0.05, 0.05]"
SPRT_GAMES=400
WORKLOAD_SIZE=8
BOOK_FILE=$SHARED/data/openings/8moves_v3.epd
SPSA=auto
SPSA_REF=
SPSA_PARAMS=
SPSA_INPUT=
SPSA_GAMES=200
SPSA_PAIRS=4
SPSA_TC=
THREADS=2
SCALE_NPS=auto
BENCH_CHECK=4
SPRT_MINUTES=50
SPSA_MINUTES=35
BUILD_MINUTES=20
PORT=0
REUSE=0

usage() {
  cat <<EOF
Usage: $0 [options]
  --work DIR           work directory (default $WORK); OpenBench, venv, logs, zips go there
  --out DIR            where the result pages and JSON go (default WORK/results)
  --dev REF            the SPRT's dev commit and the SPSA's base (default HEAD)
  --sprt yes|no        run the SPRT (default $SPRT)
  --base REF           the SPRT's base commit (default: DEV with Feature_SWITCH off by default,
                       a throwaway commit made here with git commit-tree, on no branch)
  --switch NAME        the Feature_<NAME> switch turned off for the default base (default $SWITCH)
  --tc TC              SPRT time control, OpenBench form (default $TC)
  --options STR        engine options for both (default "$OPTIONS")
  --bounds STR         SPRT Elo bounds (default "$BOUNDS")
  --sprt-games N       stop the SPRT with OpenBench's Stop action once it has N games (default $SPRT_GAMES)
  --workload-size N    OpenBench workload size for the SPRT (default $WORKLOAD_SIZE)
  --book FILE          an OpenBench book (its sha256 must match Books/<name>.json) (default $BOOK_FILE)
  --spsa auto|yes|no   run the SPSA tune: auto = if \`brokkr tune-params\` exists (default $SPSA)
  --spsa-ref REF       the SPSA engine commit (default: DEV with TUNE ?= 1 in the Makefile, throwaway)
  --spsa-params A,B,C  parameters to tune, by name (default: the first three tune-params lists)
  --spsa-input FILE    SPSA input lines (name, int, value, min, max, c_end, r_end) to take
                       instead of the dev engine's \`brokkr tune-params\`
  --spsa-games N       games of the tune (default $SPSA_GAMES)
  --spsa-pairs N       SPSA pairs per iteration (default $SPSA_PAIRS)
  --spsa-tc TC         SPSA time control (default: the SPRT's)
  --threads N          the worker's threads (default $THREADS)
  --scale-nps N|auto|json  OpenBench's scale NPS: auto = the base engine's speed measured here with
                       THREADS concurrent benches (time control as given), json = brokkr.json's nps
                       (OpenBench's own scaling to its reference machine) (default $SCALE_NPS)
  --bench-check N      concurrent benches for the determinism check of the dev engine (default $BENCH_CHECK)
  --sprt-minutes N, --spsa-minutes N, --build-minutes N   time limits (defaults $SPRT_MINUTES, $SPSA_MINUTES, $BUILD_MINUTES)
  --port N             the OpenBench server's port on 127.0.0.1 (default: a free one)
  --reuse-builds       take the SPRT engines from WORK/built/ when an earlier run left them there
                       (for trying the script again; by default they are built afresh)
EOF
}

while [ $# -gt 0 ]; do
  case $1 in
    --work) WORK=$2; shift ;;
    --out) OUT=$2; shift ;;
    --dev) DEV=$2; shift ;;
    --sprt) SPRT=$2; shift ;;
    --base) BASE=$2; shift ;;
    --switch) SWITCH=$2; shift ;;
    --tc) TC=$2; shift ;;
    --options) OPTIONS=$2; shift ;;
    --bounds) BOUNDS=$2; shift ;;
    --sprt-games) SPRT_GAMES=$2; shift ;;
    --workload-size) WORKLOAD_SIZE=$2; shift ;;
    --book) BOOK_FILE=$2; shift ;;
    --spsa) SPSA=$2; shift ;;
    --spsa-ref) SPSA_REF=$2; shift ;;
    --spsa-params) SPSA_PARAMS=$2; shift ;;
    --spsa-input) SPSA_INPUT=$2; shift ;;
    --spsa-games) SPSA_GAMES=$2; shift ;;
    --spsa-pairs) SPSA_PAIRS=$2; shift ;;
    --spsa-tc) SPSA_TC=$2; shift ;;
    --threads) THREADS=$2; shift ;;
    --scale-nps) SCALE_NPS=$2; shift ;;
    --bench-check) BENCH_CHECK=$2; shift ;;
    --sprt-minutes) SPRT_MINUTES=$2; shift ;;
    --spsa-minutes) SPSA_MINUTES=$2; shift ;;
    --build-minutes) BUILD_MINUTES=$2; shift ;;
    --port) PORT=$2; shift ;;
    --reuse-builds) REUSE=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
SPSA_TC=${SPSA_TC:-$TC}

say() { printf '[openbench-local %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { say "FAILED: $*"; exit 1; }

for n in "$SPRT_GAMES" "$WORKLOAD_SIZE" "$SPSA_GAMES" "$SPSA_PAIRS" "$THREADS" "$BENCH_CHECK" \
         "$SPRT_MINUTES" "$SPSA_MINUTES" "$BUILD_MINUTES" "$PORT"; do
  [[ $n =~ ^[0-9]+$ ]] || die "not a whole number: $n"
done
case $SPSA in auto|yes|no) ;; *) die "--spsa takes auto, yes or no" ;; esac
case $SPRT in yes|no) ;; *) die "--sprt takes yes or no" ;; esac
[ "$SPRT" = yes ] || [ "$SPSA" != no ] || die "--sprt no and --spsa no: nothing to run"

# ---------------------------------------------------------------------------------------
# Tools, and a work directory that cannot collide with the client's pkill patterns
# ---------------------------------------------------------------------------------------
for tool in python3 git make cargo g++ pkill pgrep tar xz timeout sha256sum flock setsid; do
  command -v "$tool" >/dev/null || die "$tool not found on PATH"
done
[ -f "$VENDOR" ] || die "OpenBench archive not found: $VENDOR (set BROKKR_SHARED to the shared/ folder)"
[ -f "$BOOK_FILE" ] || die "opening book not found: $BOOK_FILE"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
OUT=${OUT:-$WORK/results}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
case $WORK in *fastchess-ob*|*brokkr-*) die "the work directory's path must not contain 'fastchess-ob' or 'brokkr-' (the client's pkill -f patterns)";; esac
exec 9>"$WORK/.lock"
flock -n 9 || die "another openbench-local.sh runs in $WORK"

OB=$WORK/OpenBench
CLIENT=$OB/Client
LOGS=$WORK/logs
ZIPS=$WORK/zips
VENV=$WORK/venv
PY=$VENV/bin/python
mkdir -p "$LOGS" "$ZIPS"

# Everything started here is remembered by pid and stopped on exit, nothing by name.
PIDS=()
WORKER_PID=
cleanup() {
  local rc=$?
  if [ -n "$WORKER_PID" ] && kill -0 "$WORKER_PID" 2>/dev/null; then
    say "stopping the worker (process group $WORKER_PID)"
    touch "$CLIENT/openbench.exit" 2>/dev/null || true
    kill -TERM -- "-$WORKER_PID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$WORKER_PID" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$WORKER_PID" 2>/dev/null || true
  fi
  for pid in "${PIDS[@]}"; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in 1 2 3 4 5; do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  [ $rc -eq 0 ] || say "exit $rc; logs in $LOGS"
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------
# 1. OpenBench and its Python needs
# ---------------------------------------------------------------------------------------
say "unpacking $(basename "$VENDOR") into $OB (a fresh copy: the SQLite database goes with it)"
rm -rf "$OB"
tar -xJf "$VENDOR" -C "$WORK"
[ -f "$OB/manage.py" ] || die "$VENDOR did not unpack to $OB"

if ! "$PY" -c 'import django, htmlmin, requests, scipy, psutil, cpuinfo' 2>/dev/null; then
  say "installing OpenBench's Python needs into $VENV (pip)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  timeout 900 "$PY" -m pip install -q --disable-pip-version-check \
      -r "$OB/requirements.txt" -r "$CLIENT/requirements.txt" >"$LOGS/pip.log" 2>&1 \
    || { tail -20 "$LOGS/pip.log" >&2; die "pip install failed (log: $LOGS/pip.log)"; }
fi
"$PY" -c 'import django; assert django.get_version() == "4.2.1", django.get_version()' \
  || die "Django 4.2.1 expected in $VENV"

# ---------------------------------------------------------------------------------------
# 2. brokkr registered as an OpenBench engine; the match runner and the book in place
# ---------------------------------------------------------------------------------------
cp "$REPO/docs/openbench/brokkr.json" "$OB/Engines/brokkr.json"
"$PY" - "$OB/Config/config.json" "$REPO/docs/openbench/config-entry.json" <<'EOF'
import json, sys
path, entry = sys.argv[1], json.load(open(sys.argv[2]))
config = json.load(open(path))
for key, values in entry.items():
    for value in values:
        if value not in config[key]:
            config[key].append(value)
json.dump(config, open(path, 'w'), indent=4)
EOF

FASTCHESS=${BROKKR_TOOLS:-$HOME/.cache/brokkr-tools}/bin/fastchess
if [ ! -x "$FASTCHESS" ]; then
  say "building the vendored fastchess once (../shared/tools/fastchess.sh, about 4 minutes)"
  "$SHARED/tools/fastchess.sh" --version >/dev/null || die "could not build fastchess"
fi
cp "$FASTCHESS" "$CLIENT/fastchess-ob"
say "match runner: $("$CLIENT/fastchess-ob" --version | head -1) (OpenBench wants >= 1.8.1)"

BOOK=$(basename "$BOOK_FILE")
[ -f "$OB/Books/$BOOK.json" ] || die "OpenBench knows no book named $BOOK (Books/$BOOK.json)"
want=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["sha"].lower())' "$OB/Books/$BOOK.json")
have=$(sha256sum "$BOOK_FILE" | cut -d' ' -f1)
[ "$want" = "$have" ] || die "$BOOK_FILE: sha256 $have, but OpenBench's Books/$BOOK.json says $want"
# The folders the worker's init_client() makes; the builds below need Engines/ already.
mkdir -p "$CLIENT/Books" "$CLIENT/Engines" "$CLIENT/Networks" "$CLIENT/PGNs"
cp "$BOOK_FILE" "$CLIENT/Books/$BOOK"

# ---------------------------------------------------------------------------------------
# 3. The commits: DEV, BASE (default: a feature off), the SPSA engine (TUNE ?= 1)
# ---------------------------------------------------------------------------------------
resolve() { git -C "$REPO" rev-parse --verify "$1^{commit}" 2>/dev/null || die "not a commit: $1"; }

# A throwaway commit: $1 parent, $2 path, $3 python edit of that file (stdin to stdout),
# $4 message. Made with git plumbing on a private index: no checkout, no branch moves.
throwaway_commit() {
  local parent=$1 path=$2 edit=$3 msg=$4 index blob mode tree date
  index=$(mktemp "$WORK/index.XXXXXX")
  mode=$(git -C "$REPO" ls-tree "$parent" -- "$path" | cut -d' ' -f1)
  [ -n "$mode" ] || die "$path not in $parent"
  blob=$(git -C "$REPO" show "$parent:$path" | "$PY" -c "$edit" | git -C "$REPO" hash-object -w --stdin) \
    || die "could not edit $path of $parent"
  GIT_INDEX_FILE=$index git -C "$REPO" read-tree "$parent"
  GIT_INDEX_FILE=$index git -C "$REPO" update-index --cacheinfo "$mode,$blob,$path"
  tree=$(GIT_INDEX_FILE=$index git -C "$REPO" write-tree)
  rm -f "$index"
  # The parent's date: the same edit of the same parent is the same commit on every run.
  date=$(git -C "$REPO" log -1 --format=%cI "$parent")
  GIT_AUTHOR_NAME=openbench-local GIT_AUTHOR_EMAIL=openbench-local@localhost GIT_AUTHOR_DATE=$date \
  GIT_COMMITTER_NAME=openbench-local GIT_COMMITTER_EMAIL=openbench-local@localhost GIT_COMMITTER_DATE=$date \
    git -C "$REPO" commit-tree "$tree" -p "$parent" -m "$msg"
}

DEV_SHA=$(resolve "$DEV")
BASE_SHA= BASE_NAME=
if [ "$SPRT" = no ]; then
  :
elif [ -n "$BASE" ]; then
  BASE_SHA=$(resolve "$BASE")
  BASE_NAME=$(git -C "$REPO" rev-parse --short "$BASE_SHA")
else
  # The switches are declared once in src/search/features.rs (`field: "Name" = true;`), or,
  # before a5b6725, by Features::switches and Default for Features in src/search/mod.rs.
  switch_file=src/search/mod.rs
  git -C "$REPO" cat-file -e "$DEV_SHA:src/search/features.rs" 2>/dev/null && switch_file=src/search/features.rs
  BASE_SHA=$(throwaway_commit "$DEV_SHA" "$switch_file" "
import re, sys
src = sys.stdin.read()
new, n = re.subn(r'(\b\w+:\s*\"$SWITCH\"\s*=\s*)true;', r'\1false;', src)
if n == 1:
    sys.stdout.write(new); sys.exit(0)
if re.search(r'\"$SWITCH\"\s*=\s*false;', src): sys.exit('Feature_$SWITCH is not on by default')
m = re.search(r'\(\"$SWITCH\",\s*&mut self\.(\w+)\)', src)
if not m: sys.exit('no switch named $SWITCH in Features::switches')
start = src.index('impl Default for Features')
at = src.find(m.group(1) + ': true,', start)
if at < 0: sys.exit('Feature_$SWITCH is not on by default')
sys.stdout.write(src[:at] + m.group(1) + ': false,' + src[at + len(m.group(1) + ': true,'):])
" "throwaway (openbench-local.sh): Feature_$SWITCH off by default, the SPRT's base") || exit 1
  BASE_NAME="no-$SWITCH"
fi
DEV_NAME=$(git -C "$REPO" rev-parse --short "$DEV_SHA")
[ "$DEV_SHA" != "$BASE_SHA" ] || die "dev and base are the same commit"

if [ -n "$SPSA_REF" ]; then
  SPSA_SHA=$(resolve "$SPSA_REF")
else
  SPSA_SHA=$(throwaway_commit "$DEV_SHA" Makefile "
import re, sys
src, n = re.subn(r'^TUNE(\s*)\?=.*$', r'TUNE\1?= 1', sys.stdin.read(), flags=re.M)
if n != 1: sys.exit('no TUNE ?= line in the Makefile')
sys.stdout.write(src)
" "throwaway (openbench-local.sh): TUNE ?= 1, the search parameters listed as UCI options for SPSA") || exit 1
fi
say "dev  $DEV_SHA ($DEV_NAME)"
[ "$SPRT" = no ] || say "base $BASE_SHA ($BASE_NAME)"
say "spsa $SPSA_SHA (tune build)"

zip_of() {
  local sha=$1 zip=$ZIPS/brokkr-$1.zip
  [ -s "$zip" ] || git -C "$REPO" archive --format=zip --prefix="brokkr-${sha:0:12}/" -o "$zip" "$sha"
}
zip_of "$DEV_SHA"; zip_of "$SPSA_SHA"
[ "$SPRT" = no ] || zip_of "$BASE_SHA"

# ---------------------------------------------------------------------------------------
# 4. The servers: the zips and OpenBench, both on 127.0.0.1
# ---------------------------------------------------------------------------------------
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ZIP_PORT=$(free_port)
"$PY" -m http.server --bind 127.0.0.1 --directory "$ZIPS" "$ZIP_PORT" >"$LOGS/zips.log" 2>&1 &
PIDS+=($!)
SRC_URL=http://127.0.0.1:$ZIP_PORT

[ "$PORT" != 0 ] || PORT=$(free_port)
SERVER=http://127.0.0.1:$PORT
(cd "$OB" && "$PY" manage.py migrate --noinput) >"$LOGS/migrate.log" 2>&1 \
  || { tail -20 "$LOGS/migrate.log" >&2; die "manage.py migrate failed"; }

# The helper that works through OpenBench's models, run inside `manage.py shell`.
cat >"$WORK/obtool.py" <<'EOF'
import json, math, os, types
from django.contrib.auth.models import User
from django.db import transaction
from OpenBench.config import OPENBENCH_CONFIG
from OpenBench.models import Engine, LogEvent, Profile, Result, Test
import OpenBench.spsa_utils, OpenBench.utils
from OpenBench.templatetags.mytags import longStatBlock, shortStatBlock

E = os.environ
cmd = E['OBTOOL']

def engine_row(prefix):
    return Engine.objects.create(name=E[prefix + '_NAME'], source=E[prefix + '_SOURCE'],
                                 sha=E[prefix + '_SHA'], bench=int(E[prefix + '_BENCH']))

def common(test, preset):
    # The fields create_workload.create_new_test/create_new_tune fill from the form
    test.author      = E['OB_USER']
    test.book_name   = E['OB_BOOK']
    test.upload_pgns = 'FALSE'
    test.info        = E['OB_INFO']
    test.priority    = int(E['OB_PRIORITY'])
    test.throughput  = 1000
    test.syzygy_wdl  = 'DISABLED'
    test.syzygy_adj  = 'DISABLED'
    test.win_adj     = preset.get('win_adj', 'movecount=3 score=400')
    test.draw_adj    = preset.get('draw_adj', 'movenumber=40 movecount=8 score=10')
    test.scale_method = 'BASE'
    test.scale_nps   = int(E['OB_SCALE_NPS'])

def created(test):
    # As create_workload() does after a successful creation
    profile = Profile.objects.get(user__username=E['OB_USER'])
    profile.tests += 1; profile.save()
    LogEvent.objects.create(author=E['OB_USER'], summary='CREATE P=%d TP=%d' % (test.priority, test.throughput),
                            log_file='', test_id=test.id)
    if not OPENBENCH_CONFIG['use_cross_approval'] and profile.approver:
        test.approved = True; test.save()
    print('OBTOOL ' + json.dumps({'id': test.id}))

if cmd == 'user':
    user = User.objects.create_user(E['OB_USER'], '', E['OB_PASS'])
    Profile.objects.create(user=user, enabled=True, approver=True)
    print('OBTOOL ' + json.dumps({'user': user.username}))

elif cmd == 'sprt':
    preset = OPENBENCH_CONFIG['engines']['brokkr']['test_presets']['default']
    test = Test()
    common(test, preset)
    test.dev               = engine_row('OB_DEV')
    test.dev_repo          = E['OB_REPO']
    test.dev_engine        = 'brokkr'
    test.dev_options       = E['OB_OPTIONS']
    test.dev_network       = ''
    test.dev_time_control  = OpenBench.utils.TimeControl.parse(E['OB_TC'])
    test.base              = engine_row('OB_BASE')
    test.base_repo         = E['OB_REPO']
    test.base_engine       = 'brokkr'
    test.base_options      = E['OB_OPTIONS']
    test.base_network      = ''
    test.base_time_control = OpenBench.utils.TimeControl.parse(E['OB_TC'])
    test.workload_size     = int(E['OB_WORKLOAD_SIZE'])
    test.test_mode         = 'SPRT'
    bounds, conf = E['OB_BOUNDS'], E['OB_CONFIDENCE']
    test.elolower = float(bounds.split(',')[0].lstrip('['))
    test.eloupper = float(bounds.split(',')[1].rstrip(']'))
    test.alpha    = float(conf.split(',')[1].rstrip(']'))
    test.beta     = float(conf.split(',')[0].lstrip('['))
    test.lowerllr = math.log(test.beta / (1.0 - test.alpha))
    test.upperllr = math.log((1.0 - test.beta) / test.alpha)
    test.save()
    created(test)

elif cmd == 'tune':
    preset = OPENBENCH_CONFIG['engines']['brokkr']['tune_presets']['default']
    test = Test()
    common(test, preset)
    test.dev              = test.base              = engine_row('OB_DEV')
    test.dev_repo         = test.base_repo         = E['OB_REPO']
    test.dev_engine       = test.base_engine       = 'brokkr'
    test.dev_options      = test.base_options      = E['OB_OPTIONS']
    test.dev_network      = test.base_network      = ''
    test.dev_time_control = test.base_time_control = OpenBench.utils.TimeControl.parse(E['OB_TC'])
    test.workload_size    = int(E['OB_PAIRS'])
    test.test_mode        = 'SPSA'
    form = types.SimpleNamespace(POST={
        'spsa_alpha': '0.602', 'spsa_gamma': '0.101', 'spsa_A_ratio': '0.1',
        'spsa_iterations': E['OB_ITERATIONS'], 'spsa_pairs_per': E['OB_PAIRS'],
        'spsa_reporting_type': 'BATCHED', 'spsa_distribution_type': 'SINGLE',
        'spsa_inputs': E['OB_SPSA_INPUTS'],
    })
    with transaction.atomic():
        test.save()
        OpenBench.spsa_utils.create_spsa_run(test, form).save()
    created(test)

elif cmd == 'status':
    test = Test.objects.get(id=int(E['OB_ID']))
    errors = [e.summary for e in LogEvent.objects.filter(test_id=test.id, machine_id__gt=0)]
    results = Result.objects.filter(test=test)
    out = {'games': test.games, 'wins': test.wins, 'losses': test.losses, 'draws': test.draws,
           'penta': list(test.as_penta()), 'llr': test.currentllr, 'finished': test.finished,
           'passed': test.passed, 'failed': test.failed, 'error': test.error, 'client_events': errors,
           'short': shortStatBlock(test), 'timeloss': sum(r.timeloss for r in results),
           'crashes': sum(r.crashes for r in results)}
    if test.test_mode == 'SPSA':
        out['digest'] = OpenBench.spsa_utils.spsa_param_digest(test)
        out['outputs'] = OpenBench.spsa_utils.spsa_optimal_values(test)
    else:
        out['long'] = longStatBlock(test)
    print('OBTOOL ' + json.dumps(out))
EOF

OB_USER=localtester
OB_PASS=$("$PY" -c 'import secrets; print(secrets.token_hex(16))')
export OB_USER OB_PASS

obtool() { # $1 command; the rest of its input in OB_* variables; prints the JSON it ends with
  local line
  line=$(cd "$OB" && OBTOOL=$1 timeout 120 "$PY" manage.py shell -c "exec(open('$WORK/obtool.py').read())" 2>>"$LOGS/obtool.log" \
         | grep '^OBTOOL ' | tail -1) || true
  [ -n "$line" ] || die "manage.py shell ($1) gave nothing (log: $LOGS/obtool.log)"
  printf '%s\n' "${line#OBTOOL }"
}
jget() { "$PY" -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$1" "$2"; }

obtool user >/dev/null || exit 1
say "OpenBench user $OB_USER (enabled, approver); database $OB/db.sqlite3"

(cd "$OB" && exec "$PY" manage.py runserver "127.0.0.1:$PORT" --noreload) >"$LOGS/server.log" 2>&1 &
PIDS+=($!)
for i in $(seq 60); do
  "$PY" -c 'import requests,sys; requests.get(sys.argv[1], timeout=5).raise_for_status()' "$SERVER/index/" 2>/dev/null && break
  kill -0 "${PIDS[-1]}" 2>/dev/null || { tail -20 "$LOGS/server.log" >&2; die "the OpenBench server exited"; }
  [ "$i" -lt 60 ] || die "the OpenBench server did not answer on $SERVER within 60 s"
  sleep 1
done
say "OpenBench serves $SERVER; sources served from $SRC_URL"

# ---------------------------------------------------------------------------------------
# 5. The SPRT engines, built and benched by the client's own code
# ---------------------------------------------------------------------------------------
binary_of() { "$PY" -c 'import sys; sys.path.insert(0, sys.argv[1]); import utils; print(utils.engine_binary_name("brokkr", sys.argv[2], None))' "$CLIENT" "$1"; }

build_with_client() { # $1 sha, $2 branch name -> Client/Engines/<binary>
  local sha=$1 name=$2 bin
  bin=$(binary_of "$sha")
  if [ "$REUSE" = 1 ] && [ -x "$WORK/built/$bin" ]; then
    say "reusing $WORK/built/$bin (--reuse-builds)"
    cp "$WORK/built/$bin" "$CLIENT/Engines/$bin"
    return
  fi
  say "building $name ($bin) with the client's utils.prepare_engine: $SRC_URL/brokkr-$sha.zip, make -j EXE=$bin"
  (cd "$CLIENT" && timeout $((BUILD_MINUTES * 60)) env -u CARGO_TARGET_DIR "$PY" -c '
import sys, utils
try:
    print(utils.prepare_engine("brokkr", None, sys.argv[1], sys.argv[2], "", "Engines/" + sys.argv[3], False, "cargo"))
except utils.OpenBenchBuildFailedException as e:
    print(e.logs); sys.exit(1)
' "$name" "$SRC_URL/brokkr-$sha.zip" "$bin") >"$LOGS/build-$bin.log" 2>&1 \
    || { tail -30 "$LOGS/build-$bin.log" >&2; die "building $name failed or took over $BUILD_MINUTES minutes (log: $LOGS/build-$bin.log)"; }
  [ -x "$CLIENT/Engines/$bin" ] || die "no Client/Engines/$bin after the build"
  mkdir -p "$WORK/built"
  cp "$CLIENT/Engines/$bin" "$WORK/built/$bin"
}

bench_with_client() { # $1 binary, $2 concurrent benches -> "nps bench"
  (cd "$CLIENT" && timeout 300 "$PY" -c '
import sys, bench
speed, nodes = bench.run_benchmark("Engines/" + sys.argv[1], int(sys.argv[2]), 1)
print(speed, nodes)
' "$1" "$2") 2>>"$LOGS/bench.log" || die "OpenBench's bench.run_benchmark refused $1 (log: $LOGS/bench.log)"
}

DEV_BIN=$(binary_of "$DEV_SHA"); SPSA_BIN=$(binary_of "$SPSA_SHA"); BASE_BIN=
[ "$SPRT" = no ] || BASE_BIN=$(binary_of "$BASE_SHA")
rm -f "$CLIENT/Engines/$DEV_BIN" "$CLIENT/Engines/$SPSA_BIN" ${BASE_BIN:+"$CLIENT/Engines/$BASE_BIN"}
build_with_client "$DEV_SHA" "$DEV_NAME"
[ "$SPRT" = no ] || build_with_client "$BASE_SHA" "$BASE_NAME"

# The determinism check with BENCH_CHECK benches at once; then the speed as the worker will
# measure it (THREADS benches at once), of the base, or of the dev when there is no SPRT.
result=$(bench_with_client "$DEV_BIN" "$BENCH_CHECK") || exit 1
read -r DEV_CHECK_NPS DEV_BENCH <<<"$result"
result=$(bench_with_client "${BASE_BIN:-$DEV_BIN}" "$THREADS") || exit 1
read -r BASE_NPS BASE_BENCH <<<"$result"
{
  echo "OpenBench's own client code (Client/bench.py run_benchmark: parse_stream_output on each"
  echo "bench's output, then one node count required of all the concurrent benches)"
  echo "dev  $DEV_BIN: $BENCH_CHECK concurrent benches agreed on $DEV_BENCH nodes, mean $DEV_CHECK_NPS nps"
  if [ -n "$BASE_BIN" ]; then label="base $BASE_BIN"; else label="dev  $DEV_BIN"; fi
  echo "$label: $THREADS concurrent benches agreed on $BASE_BENCH nodes, mean $BASE_NPS nps"
  echo "parse_stream_output on the dev engine's bench output, once more: $(cd "$CLIENT" && "$PY" -c '
import subprocess, sys, bench
print(bench.parse_stream_output(subprocess.run(["./Engines/" + sys.argv[1], "bench"], capture_output=True).stdout))
' "$DEV_BIN") (bench, nps)"
} >"$OUT/bench-check.txt"
say "bench: dev $DEV_BENCH nodes${BASE_BIN:+, base $BASE_BENCH nodes}; $BASE_NPS nps with $THREADS benches at once"

case $SCALE_NPS in
  auto) SCALE=$BASE_NPS ;;
  json) SCALE=$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["nps"])' "$OB/Engines/brokkr.json") ;;
  *) [[ $SCALE_NPS =~ ^[0-9]+$ ]] || die "--scale-nps takes a number, auto or json"; SCALE=$SCALE_NPS ;;
esac

# ---------------------------------------------------------------------------------------
# 6. The workloads: the SPRT first (priority 1), then the SPSA (priority 0)
# ---------------------------------------------------------------------------------------
export OB_BOOK="$BOOK" OB_OPTIONS="$OPTIONS" OB_REPO="$SRC_URL" OB_SCALE_NPS="$SCALE"
SPRT_ID=
if [ "$SPRT" = yes ]; then
SPRT_ID=$(OB_PRIORITY=1 OB_TC=$TC OB_WORKLOAD_SIZE=$WORKLOAD_SIZE OB_BOUNDS=$BOUNDS OB_CONFIDENCE=$CONFIDENCE \
  OB_INFO="brokkr $DEV_NAME against $BASE_NAME (local OpenBench, docs/scripts/openbench-local.sh)" \
  OB_DEV_NAME=$DEV_NAME OB_DEV_SOURCE=$SRC_URL/brokkr-$DEV_SHA.zip OB_DEV_SHA=$DEV_SHA OB_DEV_BENCH=$DEV_BENCH \
  OB_BASE_NAME=$BASE_NAME OB_BASE_SOURCE=$SRC_URL/brokkr-$BASE_SHA.zip OB_BASE_SHA=$BASE_SHA OB_BASE_BENCH=$BASE_BENCH \
  obtool sprt) || exit 1
SPRT_ID=$(jget "$SPRT_ID" id)
say "SPRT: $SERVER/test/$SPRT_ID/ ($TC, $OPTIONS, bounds $BOUNDS, stopped at $SPRT_GAMES games if undecided; scale NPS $SCALE)"
fi

SPSA_ID=
if [ "$SPSA" != no ]; then
  if [ -n "$SPSA_INPUT" ]; then
    cp "$SPSA_INPUT" "$WORK/tune-params.txt" || die "cannot read $SPSA_INPUT"
    : >"$LOGS/tune-params.log"
  else
    "$CLIENT/Engines/$DEV_BIN" tune-params >"$WORK/tune-params.txt" 2>"$LOGS/tune-params.log" || true
  fi
  if ! grep -Eq '^[A-Za-z_][A-Za-z0-9_]*, *(int|float),' "$WORK/tune-params.txt"; then
    [ "$SPSA" = yes ] && die "$DEV_NAME has no \`brokkr tune-params\` (its output: $(head -c 200 "$LOGS/tune-params.log"))"
    say "SPSA skipped: $DEV_NAME has no \`brokkr tune-params\` yet"
    SPSA=no
  fi
fi
if [ "$SPSA" != no ]; then
  SPSA_INPUTS=$("$PY" - "$WORK/tune-params.txt" "$SPSA_PARAMS" <<'EOF'
import sys
lines = [l.strip() for l in open(sys.argv[1]) if l.count(',') == 6]
by_name = {l.split(',')[0].strip(): l for l in lines}
wanted = [w.strip() for w in sys.argv[2].split(',') if w.strip()] or list(by_name)[:3]
missing = [w for w in wanted if w not in by_name]
if missing:
    sys.exit('no such tunable parameter: %s (tune-params lists: %s)' % (', '.join(missing), ', '.join(by_name)))
print('\n'.join(by_name[w] for w in wanted))
EOF
) || die "choosing the SPSA parameters failed"
  ITERATIONS=$(( (SPSA_GAMES + 2 * SPSA_PAIRS - 1) / (2 * SPSA_PAIRS) ))
  printf '%s\n' "$SPSA_INPUTS" >"$OUT/spsa-input.txt"
  SPSA_ID=$(OB_PRIORITY=0 OB_TC=$SPSA_TC OB_PAIRS=$SPSA_PAIRS OB_ITERATIONS=$ITERATIONS OB_SPSA_INPUTS=$SPSA_INPUTS \
    OB_INFO="SPSA wiring check: $(printf '%s' "$SPSA_INPUTS" | cut -d, -f1 | paste -sd' ') (local OpenBench, docs/scripts/openbench-local.sh)" \
    OB_DEV_NAME="$DEV_NAME-tune" OB_DEV_SOURCE=$SRC_URL/brokkr-$SPSA_SHA.zip OB_DEV_SHA=$SPSA_SHA OB_DEV_BENCH=$DEV_BENCH \
    obtool tune) || exit 1
  SPSA_ID=$(jget "$SPSA_ID" id)
  if [ "$SPSA_BIN" = "$DEV_BIN" ] || [ "$SPSA_BIN" = "$BASE_BIN" ]; then built="built above"; else built="the worker builds it itself"; fi
  say "SPSA: $SERVER/tune/$SPSA_ID/ ($ITERATIONS iterations of $SPSA_PAIRS pairs, $SPSA_TC; engine $SPSA_BIN, $built)"
  say "SPSA input:"; printf '%s\n' "$SPSA_INPUTS" | sed 's/^/    /' >&2
fi

[ -n "$SPRT_ID" ] || [ -n "$SPSA_ID" ] || die "no workload to run"

# ---------------------------------------------------------------------------------------
# 7. The worker
# ---------------------------------------------------------------------------------------
for pattern in fastchess-ob "$DEV_BIN" "$SPSA_BIN" ${BASE_BIN:+"$BASE_BIN"}; do
  if pgrep -f -a -- "$pattern" >&2; then
    die "processes above match the client's pkill -f pattern '$pattern': it would end them; stop them or run elsewhere"
  fi
done
rm -f "$CLIENT/openbench.exit"
say "starting the worker: client.py --no-client-downloads -T $THREADS -N 1 (log: $LOGS/worker.log)"
(cd "$CLIENT" && OPENBENCH_USERNAME=$OB_USER OPENBENCH_PASSWORD=$OB_PASS OPENBENCH_SERVER=$SERVER \
   exec setsid env -u CARGO_TARGET_DIR "$PY" -u client.py --no-client-downloads -T "$THREADS" -N 1 -I openbench-local) \
   >"$LOGS/worker.log" 2>&1 &
WORKER_PID=$!
# setsid makes the worker its own process group leader only if it is not one already:
# the subshell's exec keeps the pid, so the group id is the worker's pid.

web_stop() { # OpenBench's own Stop button, as the approver: GET /<type>/<id>/STOP/ while logged in
  "$PY" - "$SERVER" "$1" "$2" <<'EOF'
import os, re, requests, sys
server, kind, ident = sys.argv[1:]
user, password = os.environ['OB_USER'], os.environ['OB_PASS']
s = requests.Session()
page = s.get(server + '/login/', timeout=30)
token = s.cookies.get('csrftoken') or re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
s.post(server + '/login/', data={'username': user, 'password': password, 'csrfmiddlewaretoken': token},
       headers={'Referer': server + '/login/'}, timeout=30).raise_for_status()
s.get('%s/%s/%s/STOP/' % (server, kind, ident), timeout=30).raise_for_status()
EOF
}

wait_for() { # $1 test|tune, $2 id, $3 minutes, $4 game cap (0: none)
  local kind=$1 id=$2 minutes=$3 cap=$4 start status games events stopped=0 last=
  start=$(date +%s)
  while :; do
    sleep 30
    kill -0 "$WORKER_PID" 2>/dev/null || { tail -40 "$LOGS/worker.log" >&2; die "the worker exited (log: $LOGS/worker.log)"; }
    status=$(OB_ID=$id obtool status) || exit 1
    games=$(jget "$status" games)
    events=$(jget "$status" client_events)
    if [ "$events" != "[]" ] && [ "$events" != "$last" ]; then say "client events on $kind $id: $events"; last=$events; fi
    case $events in
      *"build failed"*|*"Bench"*|*"Benchmark"*) die "$kind $id: $events (worker log: $LOGS/worker.log)" ;;
    esac
    say "$kind $id: $(jget "$status" short | paste -sd'|' | sed 's/|/ | /g')"
    [ "$(jget "$status" finished)" = True ] && { printf '%s\n' "$status" >"$WORK/status-$kind-$id.json"; return 0; }
    if [ "$cap" -gt 0 ] && [ "$games" -ge "$cap" ] && [ $stopped = 0 ]; then
      say "$kind $id reached $games games (cap $cap) undecided: OpenBench's Stop"
      web_stop "$kind" "$id" || die "could not stop $kind $id through the web"
      stopped=1
    fi
    if [ $(( $(date +%s) - start )) -gt $((minutes * 60)) ]; then
      say "$kind $id: over $minutes minutes, stopped unfinished"
      [ $stopped = 1 ] || web_stop "$kind" "$id" || true
      stopped=2
      printf '%s\n' "$status" >"$WORK/status-$kind-$id.json"
      return 1
    fi
  done
}

save_pages() { # $1 test|tune, $2 id: the server's own pages and JSON into OUT
  "$PY" - "$SERVER" "$OUT" "$1" "$2" <<'EOF'
import os, requests, sys
server, out, kind, ident = sys.argv[1:]
pages = {
    '%s-%s.html' % (kind, ident): '/%s/%s/' % (kind, ident),
    '%s-%s-info.json' % (kind, ident): '/api/workload/%s/info/' % ident,
    '%s-%s-results.json' % (kind, ident): '/api/workload/%s/results/' % ident,
    '%s-%s-summary.json' % (kind, ident): '/api/workload/%s/summary/' % ident,
}
if kind == 'tune':
    for q in ('inputs', 'outputs', 'digest'):
        pages['tune-%s-spsa-%s.txt' % (ident, q)] = '/api/spsa/%s/%s/' % (ident, q)
for name, path in pages.items():
    r = requests.get(server + path, timeout=60)
    r.raise_for_status()
    open(os.path.join(out, name), 'wb').write(r.content)
EOF
}

RC=0
if [ -n "$SPRT_ID" ]; then
  wait_for test "$SPRT_ID" "$SPRT_MINUTES" "$SPRT_GAMES" || RC=1
  save_pages test "$SPRT_ID" || die "could not save the SPRT's pages"
fi
if [ -n "$SPSA_ID" ]; then
  wait_for tune "$SPSA_ID" "$SPSA_MINUTES" 0 || RC=1
  save_pages tune "$SPSA_ID" || die "could not save the SPSA's pages"
fi
"$PY" - "$SERVER" "$OUT" <<'EOF'
import os, requests, sys
server, out = sys.argv[1:]
for name, path in {'index.html': '/index/', 'events.html': '/events/', 'errors.html': '/errors/',
                   'machines.html': '/machines/'}.items():
    open(os.path.join(out, name), 'wb').write(requests.get(server + path, timeout=60).content)
EOF
# The worker's own words on setting up, building and benching, without the game lines.
grep -v -E '^\[#[0-9]+\] (Finished game|Started game|Score of|Elo|LOS|Ptnml|Games|Results of|-{5,}|={5,}|Draw|WW|  )' \
  "$LOGS/worker.log" | head -300 >"$OUT/worker-excerpt.log" || true

# ---------------------------------------------------------------------------------------
# 8. Summary
# ---------------------------------------------------------------------------------------
{
  echo "Local OpenBench (9906bad) run, $(date -u +%Y-%m-%dT%H:%MZ), docs/scripts/openbench-local.sh"
  echo "machine: $(nproc) cores; worker threads $THREADS; scale NPS $SCALE"
  if [ -n "$SPRT_ID" ]; then
    st=$(cat "$WORK/status-test-$SPRT_ID.json")
    echo
    echo "SPRT $SERVER/test/$SPRT_ID/: dev $DEV_SHA ($DEV_NAME, bench $DEV_BENCH)"
    echo "                   base $BASE_SHA ($BASE_NAME, bench $BASE_BENCH)"
    jget "$st" long
    echo "finished $(jget "$st" finished), passed $(jget "$st" passed), failed $(jget "$st" failed) (a Stop at the game cap leaves both false)"
    echo "time losses $(jget "$st" timeloss), crashes $(jget "$st" crashes); client events: $(jget "$st" client_events)"
  fi
  if [ -n "$SPSA_ID" ]; then
    echo
    st=$(cat "$WORK/status-tune-$SPSA_ID.json")
    echo "SPSA $SERVER/tune/$SPSA_ID/: engine $SPSA_SHA (dev with TUNE ?= 1, bench $DEV_BENCH)"
    jget "$st" short
    echo "time losses $(jget "$st" timeloss), crashes $(jget "$st" crashes); client events: $(jget "$st" client_events)"
    echo "digest:"; jget "$st" digest
    echo "values now:"; jget "$st" outputs
  fi
} | tee "$OUT/summary.txt" >&2
say "results in $OUT"
exit $RC
}
