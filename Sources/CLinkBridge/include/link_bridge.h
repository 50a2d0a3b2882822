// Podium's C interface to Ableton Link (Debian ableton-link-dev: header-only C++, no C API).
// Two halves, as Link requires:
//   app thread(s) (NRT): create/destroy, enable, start-stop sync, peers, tempo;
//   audio thread (RT, the JACK process callback only): podium_link_audio_capture and
//   podium_link_audio_commit — real-time safe (no allocation, no locks).
#ifndef PODIUM_LINK_BRIDGE_H
#define PODIUM_LINK_BRIDGE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct podium_link podium_link;

/// The session as the audio thread saw it at one host time (Link's clock, microseconds).
typedef struct podium_link_timing {
  double beat;          ///< the session's beat at host_time_us (for the quantum given)
  double phase;         ///< 0 ≤ phase < quantum
  double tempo;         ///< BPM
  int64_t host_time_us; ///< the host time asked about (period start + output latency)
  bool playing;         ///< the session's start/stop state
  double start_beat;    ///< the session's beat when it last started or stopped (timeForIsPlaying)
  bool start_stop_sync; ///< start/stop sync is on (podium_link_enable_start_stop_sync)
} podium_link_timing;

// Thread: NRT (owner). Link starts disabled.
podium_link *podium_link_create(double bpm);
// Thread: NRT (owner), after the audio thread can no longer call in.
void podium_link_destroy(podium_link *link);
// Thread: NRT (app)
void podium_link_enable(podium_link *link, bool enable);
// Thread: any (an atomic flag the bridge keeps)
bool podium_link_is_enabled(const podium_link *link);
// Thread: NRT (app)
void podium_link_enable_start_stop_sync(podium_link *link, bool enable);
// Thread: any (an atomic flag the bridge keeps)
bool podium_link_start_stop_sync(const podium_link *link);
// Thread: NRT (app): the session's start/stop state now (app session state).
bool podium_link_app_is_playing(const podium_link *link);
// Thread: NRT (app)
size_t podium_link_num_peers(const podium_link *link);
// Thread: NRT (app): the session's tempo now (app session state).
double podium_link_app_tempo(const podium_link *link);
// Thread: NRT (app): proposes a tempo to the session now.
void podium_link_app_set_tempo(podium_link *link, double bpm);
// Thread: any: Link's clock (CLOCK_MONOTONIC_RAW), microseconds.
int64_t podium_link_clock_micros(const podium_link *link);

// Thread: RT (the JACK process callback only). Feeds Link's host-time filter with the
// period's first sample time (`sample_time`, JACK frames) and the host time of that frame
// (`cycle_start_us`, Link's clock: JACK's cycle start from jack_get_cycle_times, moved to Link's
// clock by the caller), adds `latency_us` (the output latency: when that frame is heard),
// captures the audio session state and answers for that host time. `restart_filter` forgets
// the filter's past points first (after an xrun, whose disturbed points would otherwise bend
// the regression for its whole window). Returns false (and fills nothing) while Link is disabled.
bool podium_link_audio_capture(podium_link *link, double sample_time, int64_t cycle_start_us,
                               bool restart_filter, double latency_us, double quantum,
                               podium_link_timing *out);
// Thread: RT: commits a tempo at host_time_us (the session's beat there stays where it is);
// with request_beat, also asks for `beat` at that time (Link's requestBeatAtTime: alone in
// the session it is granted; with peers, the session's phase in the quantum is kept).
void podium_link_audio_commit(podium_link *link, double bpm, bool request_beat, double beat,
                              double quantum, int64_t host_time_us);
// Thread: RT: starts (the session's beat 0 is asked for at host_time_us; with peers Link moves
// it to the next time the session's phase is 0: the next bar, Link's
// requestBeatAtStartPlayingTime) or stops the session at host_time_us. Shared with peers only
// while start/stop sync is on. With `out`, the committed session at host_time_us is written
// there (its other fields kept), so that the caller judges the start in the same period.
void podium_link_audio_commit_playing(podium_link *link, bool playing, double quantum,
                                      int64_t host_time_us, podium_link_timing *out);

#ifdef __cplusplus
}
#endif
#endif
