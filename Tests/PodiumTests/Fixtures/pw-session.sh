#!/bin/sh
# A private, headless PipeWire session for tests.
#
#   pw-session.sh start DIR   # prints the client environment (sh syntax) on stdout
#   pw-session.sh env DIR     # prints it again
#   pw-session.sh stop DIR    # kills what `start DIR` started (DIR/*.pid), TERM then KILL
#   pw-session.sh kill-pw DIR [SIG]  # kills pipewire + wireplumber only (default SIGKILL)
#   pw-session.sh start-pw DIR       # (re)starts pipewire + wireplumber on the running bus
#   pw-session.sh start-pipewire DIR # pipewire alone: the server answers, the sink has no ports
#   pw-session.sh start-wireplumber DIR  # then the session manager: the sink's ports appear
#
# Everything lives in DIR: runtime dir (XDG_RUNTIME_DIR, 0700, holds pipewire-0),
# a private session bus (DIR/bus.conf, socket DIR/bus), config/state/data homes
# (XDG_CONFIG_HOME etc., so ~/.config and ~/.local are not read or written), logs
# (DIR/dbus.log, DIR/pipewire.log, DIR/wireplumber.log).
# A null sink "podium-null-sink" (stereo, 48 kHz, Audio/Sink) is made from a
# config drop-in DIR/config/pipewire/pipewire.conf.d/10-null-sink.conf.
# JACK clients:  eval "$(pw-session.sh env DIR)"; pw-jack jack_lsp
set -eu

cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|env|kill-pw|start-pw|start-pipewire|start-wireplumber DIR" >&2; exit 2; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

client_env() {
    cat <<EOF
export XDG_RUNTIME_DIR='$dir/runtime'
export PIPEWIRE_RUNTIME_DIR='$dir/runtime'
export DBUS_SESSION_BUS_ADDRESS='unix:path=$dir/bus'
export XDG_CONFIG_HOME='$dir/config'
export XDG_STATE_HOME='$dir/state'
export XDG_DATA_HOME='$dir/data'
export XDG_CACHE_HOME='$dir/cache'
EOF
}

# Like the Avahi fixture: close inherited descriptors, own session, output to a log.
spawn() { # LOG NAME CMD...   (pid in DIR/NAME.pid)
    log=$1; name=$2; shift 2
    setsid python3 -c 'import os, sys; os.closerange(3, 65536); os.execvp(sys.argv[1], sys.argv[1:])' \
        "$@" </dev/null >"$log" 2>&1 &
    echo $! >"$dir/$name.pid"
}

alive() { [ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

stop_pid() { # NAME SIG
    f="$dir/$1.pid"; [ -f "$f" ] || return 0
    p=$(cat "$f"); kill "-$2" "$p" 2>/dev/null || true
    # gone, or a zombie (this machine's init reaps orphans only every ~2 s)
    n=0; while alive "$p" && [ $n -lt 100 ]; do sleep 0.02; n=$((n + 1)); done
    kill -KILL "$p" 2>/dev/null || true
    rm -f "$f"
}

start_pipewire() {
    eval "$(client_env)"
    rm -f "$dir/runtime/pipewire-0"   # a killed pipewire leaves its socket behind
    spawn "$dir/pipewire.log" pipewire pipewire
    wait_for 5 test -S "$dir/runtime/pipewire-0" || { echo "pipewire did not start" >&2; cat "$dir/pipewire.log" >&2; exit 1; }
}

start_wireplumber() {
    eval "$(client_env)"
    spawn "$dir/wireplumber.log" wireplumber wireplumber
    # Ready when a JACK client sees the sink's ports (wireplumber has configured it).
    wait_for 10 sh -c 'pw-jack jack_lsp 2>/dev/null | grep -q "podium-null-sink:playback_FR"' \
        || { echo "sink not visible to JACK clients" >&2; tail "$dir/pipewire.log" >&2; tail "$dir/wireplumber.log" >&2; exit 1; }
}

start_pw() {
    t0=$(date +%s.%N)
    start_pipewire
    start_wireplumber
    t1=$(date +%s.%N)
    echo "# pipewire+wireplumber ready in $(echo "$t1 - $t0" | bc) s" >&2
}

wait_for() { # SECONDS TEST...
    t=$1; shift; n=0
    while ! "$@"; do
        n=$((n + 1)); [ $n -le $((t * 50)) ] || return 1
        sleep 0.02
    done
}

case $cmd in
env) client_env ;;
start)
    [ ! -e "$dir/dbus.pid" ] || { echo "$dir/dbus.pid exists: already started?" >&2; exit 1; }
    mkdir -p "$dir/runtime" "$dir/config/pipewire/pipewire.conf.d" "$dir/state" "$dir/data" "$dir/cache"
    chmod 700 "$dir/runtime"
    cat >"$dir/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$dir/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
EOF
    cat >"$dir/config/pipewire/pipewire.conf.d/10-null-sink.conf" <<'EOF'
context.properties = {
    default.clock.rate = 48000
    default.clock.allowed-rates = [ 48000 ]
}
context.objects = [
    { factory = adapter
        args = {
            factory.name     = support.null-audio-sink
            node.name        = "podium-null-sink"
            node.description = "podium-null-sink"
            media.class      = "Audio/Sink"
            audio.rate       = 48000
            audio.channels   = 2
            audio.position   = "FL,FR"
            monitor.channel-volumes = true
            object.linger    = true
        }
    }
]
EOF
    eval "$(client_env)"
    rm -f "$dir/bus"
    spawn "$dir/dbus.log" dbus dbus-daemon --config-file="$dir/bus.conf" --nofork --nopidfile
    wait_for 5 test -S "$dir/bus" || { echo "dbus-daemon did not start" >&2; cat "$dir/dbus.log" >&2; exit 1; }
    start_pw
    client_env
    ;;
stop)
    stop_pid wireplumber TERM; stop_pid pipewire TERM; stop_pid dbus TERM
    ;;
kill-pw)
    stop_pid wireplumber "${3:-KILL}" & stop_pid pipewire "${3:-KILL}"; wait
    ;;
start-pw) start_pw ;;
start-pipewire) start_pipewire ;;
start-wireplumber) start_wireplumber ;;
*) echo "usage: $0 start|stop|env|kill-pw|start-pw|start-pipewire|start-wireplumber DIR" >&2; exit 2 ;;
esac
