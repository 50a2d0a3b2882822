#!/usr/bin/env bash
# run-examples.sh — runs the documentation's examples (a reference for the Swift test).
#
#   docs/tutorial/run-examples.sh [FILE.md …]      (default: docs/tutorial/*.md)
#   PODIUM=/path/to/podium docs/tutorial/run-examples.sh
#
# The fences it runs (see docs/tutorial/README.md, "Examples are tests"):
#   ```podium [orc=FILE] [seconds=N]   lines typed at Podium's REPL. They are piped to
#       `podium play ORC` (stdin, not a terminal: every REPL command works, and a line
#       starting with `@SECONDS ` waits for its time; the others follow the line before them
#       at once, so lines before the first `@` are typed at 0). ORC is FILE (default
#       tutorial.csd), looked up in the chapter's working directory (where `csound file=`
#       blocks are written), then in docs/tutorial/. It plays on a dummy JACK server of its
#       own for N seconds (default 4), recorded; the block fails on an error line in the
#       output, a non-zero exit, or a silent recording.
#   ```csound file=NAME [render]   written into the chapter's working directory before the
#       chapter's other blocks run; with `render`, `podium render NAME` must also exit 0 and
#       be non-silent.
#   ```shell run [output]   each `$ ` line is run in the chapter's working directory (only
#       `podium pattern|render|check|samples`) and must exit 0; with `output`, the lines
#       after each `$ ` line up to the next one must equal what it printed.
# Every other fence is illustrative.
set -u
PODIUM=${PODIUM:-podium}
PODIUM=$(command -v "$PODIUM") || { echo "no podium binary (set PODIUM=/path/to/podium)" >&2; exit 2; }
command -v sox >/dev/null || { echo "sox is needed (the peak of each recording)" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
FILES=("$@")
[ ${#FILES[@]} -eq 0 ] && FILES=("$HERE"/[0-9]*.md)

WORK=$(mktemp -d /tmp/podium-docs.XXXXXX)
# The chapters run side by side on JOBS workers (default 4: a dummy server and a 4-second play
# mostly wait), each worker on a dummy JACK server of its own, taking every JOBS-th chapter; a
# chapter's blocks run in order. The servers are all started before any example and stopped
# after the last: JACK2's shared registry makes a client open fail now and then while another
# server starts or stops (scripts/test).
JOBS=${JOBS:-4}
SERVERS=()
cleanup() {
    local pid
    for pid in "${WORKERS[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
    rm -rf "$WORK"
}
WORKERS=()
trap cleanup EXIT
for w in $(seq "$JOBS"); do
    jackd -n "podium-docs-$$-$w" -d dummy -r 48000 -p 256 >"$WORK/jackd-$w.log" 2>&1 &
    SERVERS+=($!)
    for _ in $(seq 100); do jack_lsp -s "podium-docs-$$-$w" >/dev/null 2>&1 && break; sleep 0.1; done
done

PASS=0; FAIL=0; FAILED=()
pass() { PASS=$((PASS + 1)); echo "PASS $1"; }
fail() { FAIL=$((FAIL + 1)); FAILED+=("$1"); echo "FAIL $1: $2"; [ -n "${3:-}" ] && sed 's/^/    | /' "$3" | tail -25; }

# An error line: Podium's refusals and Csound's errors. Not the statistics at the stop, nor
# the DSP load guard's notice: whether a callback ran long depends on the machine (the other
# test processes beside this one), not on the example.
ERRORS='error|unknown |not supported|has no parameter|usage:|refused|is not a number|not declared|failed|cannot|^ *\^ '
STATS='^podium: (stopped\.|osc:|web:|editor:|dirt:|session kept|recorded |listen to|midi|DSP load over)'

errors() { grep -Ev "$STATS" "$1" | sed -E 's/(^|[ (,])0 refused//g'; }   # ":samples": "0 refused"
peak() { sox "$1" -n stat 2>&1 | awk '/Maximum amplitude/ { print $3 }'; }
loud() { awk -v p="$1" 'BEGIN { exit !(p + 0 > 0.001) }'; }

run_podium() { # label, block file, attributes, chapter dir
    local label=$1 block=$2 attrs=$3 dir=$4 orc=tutorial.csd seconds=4 a
    for a in $attrs; do
        case $a in orc=*) orc=${a#orc=} ;; seconds=*) seconds=${a#seconds=} ;; esac
    done
    [ -f "$dir/$orc" ] || cp "$HERE/$orc" "$dir/$orc" 2>/dev/null || { fail "$label" "no orchestra $orc"; return; }
    local sessions="$dir/sessions-$RANDOM$RANDOM" out="$dir/out.txt"
    ( cd "$dir" && timeout $((seconds + 60)) "$PODIUM" play "$orc" --server "$SERVER" --jack-server none \
        --sessions "$sessions" --record --no-web --no-advertise --osc-port 0 --duration "$seconds" \
        <"$block" >"$out" 2>&1 )
    local rc=$?
    if [ $rc -ne 0 ]; then fail "$label" "exit $rc" "$out"; return; fi
    if errors "$out" | grep -Eiq "$ERRORS"; then
        fail "$label" "an error line" <(errors "$out" | grep -Ei -B2 "$ERRORS"); return
    fi
    local wav; wav=$(ls "$sessions"/*/audio.wav 2>/dev/null | head -1)
    [ -n "$wav" ] || { fail "$label" "no recording" "$out"; return; }
    local p; p=$(peak "$wav")
    loud "$p" || { fail "$label" "silent (peak $p)" "$out"; return; }
    pass "$label (peak $p)"
}

run_shell() { # label, block file, attributes, chapter dir
    local label=$1 block=$2 attrs=$3 dir=$4 check=no n=0 ok=1 cmd expected got
    [[ " $attrs " == *" output "* ]] && check=yes
    podium() { "$PODIUM" "$@"; }
    flush() {
        [ -z "${cmd:-}" ] && return
        case $cmd in
            podium\ pattern*|podium\ render*|podium\ check*|podium\ samples*) ;;
            *) ok=0; echo "    | not allowed: $cmd"; cmd=; return ;;
        esac
        got=$(cd "$dir" && eval "$cmd" 2>&1); local rc=$?
        if [ $rc -ne 0 ]; then ok=0; echo "    | \$ $cmd: exit $rc"; echo "$got" | sed 's/^/    | /' | tail -10
        elif [ $check = yes ] && [ "$got" != "$expected" ]; then
            ok=0; echo "    | \$ $cmd: output differs"; diff <(echo "$expected") <(echo "$got") | sed 's/^/    | /'
        fi
        cmd=; expected=
    }
    cmd=; expected=
    while IFS= read -r line || [ -n "$line" ]; do
        if [[ $line == '$ '* ]]; then flush; cmd=${line#\$ }; n=$((n + 1)); expected=
        elif [ -n "$cmd" ]; then expected=${expected:+$expected$'\n'}$line; fi
    done <"$block"
    flush
    unset -f podium
    if [ $ok = 1 ]; then pass "$label ($n commands)"; else fail "$label" "see above"; fi
}

run_render() { # label, file name, chapter dir
    local label=$1 name=$2 dir=$3 out="$3/render.txt"
    ( cd "$dir" && "$PODIUM" render "$name" -o "${name%.*}.wav" >"$out" 2>&1 ) || { fail "$label" "render failed" "$out"; return; }
    local p; p=$(peak "$dir/${name%.*}.wav")
    loud "$p" && pass "$label (render, peak $p)" || fail "$label" "silent render (peak $p)" "$out"
}

run_chapter() { # the chapter's file, its working directory, its server
    local md=$1 dir=$2 SERVER=$3 rel f kind line attrs label name
    rel=${md#"$PWD"/}
    mkdir -p "$dir"
    # Pass 1: the blocks, in order, each into a file (kind, attributes, start line).
    awk -v dir="$dir" '
        BEGIN { n = 0; inside = 0 }
        !inside && /^```[a-z]/ {
            split(substr($0, 4), w, " "); kind = w[1]; attrs = substr($0, 4 + length(kind)); sub(/^ +/, "", attrs)
            if (kind == "podium" || kind == "csound" || (kind == "shell" && attrs ~ /(^| )run( |$)/)) {
                n++; f = sprintf("%s/block-%03d", dir, n); inside = 1
                printf "%s\t%s\t%d\t%s\n", f, kind, NR, attrs > (dir "/index"); printf "" > f; next
            }
        }
        inside && /^```/ { inside = 0; close(f); next }
        inside { print > f }
    ' "$md"
    [ -f "$dir/index" ] || return 0
    # Pass 2: the chapter's files first, then the blocks in order.
    while IFS=$'\t' read -r f kind line attrs; do
        [ "$kind" = csound ] || continue
        name=$(sed -n 's/.*file=\([^ ]*\).*/\1/p' <<<"$attrs")
        [ -n "$name" ] && cp "$f" "$dir/$name"
    done <"$dir/index"
    while IFS=$'\t' read -r f kind line attrs; do
        label="$rel:$line"
        case $kind in
            podium) run_podium "$label" "$f" "$attrs" "$dir" ;;
            shell) run_shell "$label" "$f" "$attrs" "$dir" ;;
            csound)
                name=$(sed -n 's/.*file=\([^ ]*\).*/\1/p' <<<"$attrs")
                if [ -z "$name" ]; then fail "$label" "a csound fence without file="
                elif [[ " $attrs " == *" render "* ]]; then run_render "$label" "$name" "$dir"
                fi ;;
        esac
    done <"$dir/index"
}

# Worker w runs chapters w, w + JOBS, …, each chapter's report into a file of its own.
for w in $(seq "$JOBS"); do
    (
        n=0
        for md in "${FILES[@]}"; do
            n=$((n + 1))
            [ $(((n - 1) % JOBS + 1)) -eq "$w" ] || continue
            run_chapter "$md" "$WORK/chapter-$n" "podium-docs-$$-$w" >"$WORK/report-$n" 2>&1
        done
    ) &
    WORKERS+=($!)
done
for pid in "${WORKERS[@]}"; do wait "$pid"; done
WORKERS=()
for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
SERVERS=()
i=${#FILES[@]}
for n in $(seq "$i"); do
    [ -f "$WORK/report-$n" ] || continue
    cat "$WORK/report-$n"
    PASS=$((PASS + $(grep -c '^PASS ' "$WORK/report-$n")))
    FAIL=$((FAIL + $(grep -c '^FAIL ' "$WORK/report-$n")))
    while IFS= read -r l; do FAILED+=("${l#FAIL }"); done < <(grep '^FAIL ' "$WORK/report-$n" | cut -d: -f1-2)
done

echo "examples: $PASS passed, $FAIL failed"
for f in "${FAILED[@]}"; do echo "  failed: $f"; done
[ $FAIL -eq 0 ]
