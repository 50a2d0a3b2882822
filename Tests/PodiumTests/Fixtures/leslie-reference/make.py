#!/usr/bin/env python3
"""Makes leslie.json: SuperDirt's dirt_leslie2 (its orbit leslie) rendered by scsynth 3.13, as
numbers only. sclang builds the SynthDef from a SuperDirt checkout (argument 1: its
synths/core-synths-global.scd, read with `~dirt.numChannels` as 2; nothing of it is kept here),
with two of this script's own: a sine at 0.354 on both channels of the orbit's dry bus (what
OrbitLeslieTests' tone instrument gives SDdirtout) and a mix of the dry and effect buses to the
output (dirt_monitor without its limiter). scsynth renders each case in non-real-time mode, the
leslie created with SuperDirt's defaults and its controls set 10 ms later (as live SuperDirt
sets a global effect made long before); `ms10` is the left channel's RMS in 10 ms windows.

    python3 make.py ~/SuperDirt > leslie.json
Needs Debian's supercollider-language, supercollider-server, sc3-plugins-server.
"""
import json, os, struct, subprocess, sys, tempfile

# An NRT score's messages and bundles: bench/synth_cpu.py's
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "bench"))
from synth_cpu import bundle, message  # noqa: E402

CASES = [  # name, tone Hz, seconds, controls
    ("leslie1_100hz", 100, 2, {"leslie": 1}),
    ("leslie0.5_100hz", 100, 2, {"leslie": 0.5}),
    ("leslie1_8000hz", 8000, 2, {"leslie": 1}),
    ("leslie1_lrate3_lsize0.6_100hz", 100, 6, {"leslie": 1, "lrate": 3, "lsize": 0.6}),
]
SCD = """
var root = "%s", out = "%s/";
File.readAllString(root +/+ "synths/core-synths-global.scd").replace("~dirt.numChannels", "2").interpret;
SynthDef(\\podium_tone, { |bus = 10, freq = 100, amp = 0.3535533905932738| Out.ar(bus, [1, 1] * SinOsc.ar(freq) * amp) }).writeDefFile(out);
SynthDef(\\podium_mix, { Out.ar(0, In.ar(10, 2) + In.ar(12, 2)) }).writeDefFile(out);
SynthDescLib.global.at(\\dirt_leslie2).def.writeDefFile(out);
"PODIUM-DEFS-DONE".postln;
0.exit;
"""


def main():
    superdirt = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="leslie-ref-")
    defs = os.path.join(work, "defs")
    os.makedirs(defs)
    with open(os.path.join(work, "defs.scd"), "w") as f:
        f.write(SCD % (superdirt, defs))
    with open(os.path.join(work, "conf.yaml"), "w") as f:
        f.write(f"includePaths:\n    - {superdirt}/classes\n")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QTWEBENGINE_DISABLE_SANDBOX="1")
    r = subprocess.run(["sclang", "-l", "conf.yaml", "defs.scd"], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert "PODIUM-DEFS-DONE" in r.stdout, r.stdout[-2000:]
    out = {"made_by": "scsynth 3.13 (Debian 1:3.13.0+repack-1), SuperDirt's dirt_leslie2; make.py beside this file",
           "window_seconds": 0.01, "cases": {}}
    for name, hz, seconds, controls in CASES:
        start = [message("/d_loadDir", defs), message("/s_new", "podium_tone", 1000, 0, 0, "bus", 10, "freq", float(hz)),
                 message("/s_new", "dirt_leslie2", 1001, 3, 1000, "dryBus", 10, "effectBus", 12),
                 message("/s_new", "podium_mix", 1002, 1, 0)]
        sets = [message("/n_set", 1001, *[x for k, v in controls.items() for x in (k, float(v))])]
        score = bundle(0, start) + bundle(0.01, sets) + bundle(seconds, [message("/c_set", 0, 0)])
        with open(os.path.join(work, "score.osc"), "wb") as f:
            f.write(score)
        wav = os.path.join(work, "out.wav")
        subprocess.run(["scsynth", "-N", os.path.join(work, "score.osc"), "_", wav, "48000", "WAV", "float", "-o", "2", "-i", "0"],
                       check=True, capture_output=True)
        data = open(wav, "rb").read()
        i = data.find(b"data")
        n = int.from_bytes(data[i + 4:i + 8], "little") // 4
        samples = struct.unpack(f"<{n}f", data[i + 8:i + 8 + 4 * n])
        left = samples[0::2]
        w = 480
        ms10 = [round((sum(x * x for x in left[k:k + w]) / w) ** 0.5, 6) for k in range(0, len(left) - w + 1, w)]
        out["cases"][name] = {"hz": hz, "seconds": seconds, "controls": controls, "ms10": ms10}
    json.dump(out, sys.stdout, indent=0)


if __name__ == "__main__":
    main()
