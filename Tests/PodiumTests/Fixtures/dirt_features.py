#!/usr/bin/env python3
"""Compares renders of Podium's SuperDirt synths with the features of scsynth's renders.

  dirt_features.py RENDER.f32 CHANNELS REFERENCE.json START_S NAME...

RENDER.f32: raw float32 interleaved frames at 48 kHz; the render called NAME (`supersaw_n0`, in
REFERENCE.json) starts at START_S × its place in the list and lasts 2 s. Features as the
reference's README defines them, on the mono mix (L + R) / 2: the median of a YIN pitch track
(10 ms hop, 1024-sample window, lags 12-1200), the RMS up to the last non-zero sample, 10 ms
RMS frames, the median spectral centroid and 85 % roll-off of 20 ms Hann frames zero-padded to
4096 (frames above -60 dB). Prints one line per render and feature:
  NAME FEATURE REFERENCE PODIUM pass|fail
and exits 0.
"""
import json, sys
import numpy as np

SR = 48000
TOLERANCES = "pitch within 1 %, total RMS within 1.5 dB, centroid within 15 %, roll-off within 20 %, " \
             "90 % of the 10 ms frames above -40 dB within 3 dB"


def db(v):
    return 20 * np.log10(max(v, 1e-6))


def pitch_median(x):
    w, tmin, tmax = 1024, 12, 1200
    xp = np.concatenate([x, np.zeros(w + tmax + 10)])
    found = []
    for k in range(len(x) // 480):
        seg = xp[480 * k: 480 * k + w + tmax + 1]
        if np.sqrt(np.mean(seg[:w] ** 2)) <= 1e-3:
            continue
        a = seg[:w]
        n = 1
        while n < 2 * w + tmax + 1:
            n *= 2
        corr = np.fft.irfft(np.conj(np.fft.rfft(a, n)) * np.fft.rfft(seg, n), n)[:tmax + 1]
        c2 = np.cumsum(np.concatenate([[0], seg * seg]))
        tau = np.arange(tmax + 1)
        d = np.maximum(np.sum(a * a) + (c2[tau + w] - c2[tau]) - 2 * corr, 0)
        cm = np.ones_like(d)
        cs = np.cumsum(d[1:])
        with np.errstate(divide="ignore", invalid="ignore"):
            cm[1:] = np.where(cs > 0, d[1:] * tau[1:] / cs, 1)
        t = None
        for tt in range(tmin, tmax + 1):
            if cm[tt] < 0.15:
                while tt + 1 <= tmax and cm[tt + 1] < cm[tt]:
                    tt += 1
                t = tt
                break
        if t is None:
            t = tmin + int(np.argmin(cm[tmin:tmax + 1]))
        if cm[t] > 0.35:
            continue
        tf = float(t)
        if tmin < t < tmax:
            den = cm[t - 1] - 2 * cm[t] + cm[t + 1]
            if den != 0:
                tf = t + 0.5 * (cm[t - 1] - cm[t + 1]) / den
        found.append(SR / tf)
    return float(np.median(found)) if found else None


def spectral_medians(x):
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(960) / 960)
    freqs = np.arange(2049) * SR / 4096
    centroids, rolloffs = [], []
    for frame in x[: len(x) // 960 * 960].reshape(-1, 960):
        if np.sqrt(np.mean(frame ** 2)) <= 1e-3:
            continue
        mag = np.abs(np.fft.rfft(frame * window, 4096))
        centroids.append(float((freqs * mag).sum() / mag.sum()))
        cumulative = np.cumsum(mag)
        rolloffs.append(float(freqs[np.nonzero(cumulative >= 0.85 * cumulative[-1])[0][0]]))
    return (float(np.median(centroids)) if centroids else None, float(np.median(rolloffs)) if rolloffs else None)


def main():
    path, channels, reference, start = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
    names = sys.argv[5:]
    frames = np.fromfile(path, dtype=np.float32).astype(np.float64).reshape(-1, channels)
    mono = frames.mean(axis=1)
    ref = json.load(open(reference))["renders"]
    for i, name in enumerate(names):
        r = ref[name]
        x = np.zeros(2 * SR)
        part = mono[int(round(i * start * SR)): int(round(i * start * SR)) + 2 * SR]
        x[: len(part)] = part
        nz = np.nonzero(x)[0]
        last = nz[-1] + 1 if len(nz) else 1
        rms_total = db(np.sqrt(np.mean(x[:last] ** 2)))
        frames10 = [db(np.sqrt(np.mean(f ** 2))) for f in x[: 100 * 480].reshape(100, 480)]
        loud = [k for k, v in enumerate(r["rms_db_10ms"]) if v > -40]
        within = sum(1 for k in loud if abs(frames10[k] - r["rms_db_10ms"][k]) <= 3) / max(len(loud), 1)
        pitch = pitch_median(x)
        centroid, rolloff = spectral_medians(x)

        def line(feature, expected, got, ok):
            print(f"{name} {feature} {expected} {got} {'pass' if ok else 'fail'}")

        # (noise has no pitch: no line for a reference without one, nor for one whose pitch
        # track found a pitch in fewer than half its frames, as imp's few voiced frames)
        if r.get("pitch_median_hz") is not None and r.get("pitch_voiced_fraction", 1) >= 0.5:
            line("pitch_median_hz", r["pitch_median_hz"], pitch,
                 pitch is not None and abs(pitch / r["pitch_median_hz"] - 1) <= 0.01)
        line("rms_total_db", r["rms_total_db"], round(rms_total, 2), abs(rms_total - r["rms_total_db"]) <= 1.5)
        line("rms_envelope_within_3db", 0.9, round(within, 3), within >= 0.9)
        line("centroid_median_hz", r["centroid_median_hz"], centroid,
             centroid is not None and abs(centroid / r["centroid_median_hz"] - 1) <= 0.15)
        line("rolloff85_median_hz", r["rolloff85_median_hz"], rolloff,
             rolloff is not None and abs(rolloff / r["rolloff85_median_hz"] - 1) <= 0.20)


if __name__ == "__main__":
    main()
