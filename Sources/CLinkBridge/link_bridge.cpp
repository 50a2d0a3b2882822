// Podium's C interface to Ableton Link (see include/link_bridge.h). Written against Link 3.0.6's
// public API only: Link, SessionState, HostTimeFilter.
#include "link_bridge.h"

#include <ableton/Link.hpp>
#include <ableton/link/HostTimeFilter.hpp>
#include <atomic>
#include <chrono>

namespace {
// The host time Link's HostTimeFilter samples: not the clock at the callback's wake-up (which
// differs between JACK clients of one cycle and jitters with scheduling) but the cycle's start
// as JACK's DLL estimates it, in Link's clock — set by the audio thread just before each sample.
thread_local int64_t cycleStartMicros = 0;
struct CycleStartClock {
  std::chrono::microseconds micros() const { return std::chrono::microseconds(cycleStartMicros); }
};
}  // namespace

struct podium_link {
  explicit podium_link(double bpm) : link(bpm) {}
  ableton::Link link;
  // Written and read only by the audio thread (its constructor reserves the points).
  ableton::link::BasicHostTimeFilter<CycleStartClock, double> filter;
  std::atomic<bool> enabled{false};
  std::atomic<bool> startStopSync{false};
};

extern "C" {

// Thread: NRT (owner)
podium_link *podium_link_create(double bpm) {
  try {
    return new podium_link(bpm > 0 ? bpm : 120.0);
  } catch (...) {
    return nullptr;
  }
}

// Thread: NRT (owner)
void podium_link_destroy(podium_link *link) {
  if (!link) return;
  link->enabled.store(false);
  link->link.enable(false);
  delete link;
}

// Thread: NRT (app)
void podium_link_enable(podium_link *link, bool enable) {
  if (!link) return;
  if (!enable) link->enabled.store(false, std::memory_order_release);
  link->link.enable(enable);
  if (enable) link->enabled.store(true, std::memory_order_release);
}

// Thread: any
bool podium_link_is_enabled(const podium_link *link) {
  return link && link->enabled.load(std::memory_order_acquire);
}

// Thread: NRT (app)
void podium_link_enable_start_stop_sync(podium_link *link, bool enable) {
  if (!link) return;
  link->link.enableStartStopSync(enable);
  link->startStopSync.store(enable, std::memory_order_release);
}

// Thread: any
bool podium_link_start_stop_sync(const podium_link *link) {
  return link && link->startStopSync.load(std::memory_order_acquire);
}

// Thread: NRT (app)
bool podium_link_app_is_playing(const podium_link *link) {
  return link && link->link.captureAppSessionState().isPlaying();
}

// Thread: NRT (app)
size_t podium_link_num_peers(const podium_link *link) {
  return link ? link->link.numPeers() : 0;
}

// Thread: NRT (app)
double podium_link_app_tempo(const podium_link *link) {
  return link ? link->link.captureAppSessionState().tempo() : 0;
}

// Thread: NRT (app)
void podium_link_app_set_tempo(podium_link *link, double bpm) {
  if (!link || !(bpm > 0)) return;
  auto state = link->link.captureAppSessionState();
  state.setTempo(bpm, link->link.clock().micros());
  link->link.commitAppSessionState(state);
}

// Thread: any
int64_t podium_link_clock_micros(const podium_link *link) {
  return link ? static_cast<int64_t>(link->link.clock().micros().count()) : 0;
}

// Thread: RT
bool podium_link_audio_capture(podium_link *link, double sample_time, int64_t cycle_start_us,
                               bool restart_filter, double latency_us, double quantum,
                               podium_link_timing *out) {
  if (!link || !out || !link->enabled.load(std::memory_order_acquire)) return false;
  cycleStartMicros = cycle_start_us;
  if (restart_filter) link->filter.reset();  // keeps its reserved points: no allocation
  const auto periodStart = link->filter.sampleTimeToHostTime(sample_time);
  const auto heard = periodStart + std::chrono::microseconds(static_cast<int64_t>(latency_us));
  const auto state = link->link.captureAudioSessionState();
  const double q = quantum > 0 ? quantum : 4.0;
  out->beat = state.beatAtTime(heard, q);
  out->phase = state.phaseAtTime(heard, q);
  out->tempo = state.tempo();
  out->host_time_us = static_cast<int64_t>(heard.count());
  out->playing = state.isPlaying();
  out->start_beat = state.beatAtTime(state.timeForIsPlaying(), q);
  out->start_stop_sync = link->startStopSync.load(std::memory_order_acquire);
  return true;
}

// Thread: RT
void podium_link_audio_commit(podium_link *link, double bpm, bool request_beat, double beat,
                              double quantum, int64_t host_time_us) {
  if (!link || !(bpm > 0) || !link->enabled.load(std::memory_order_acquire)) return;
  const auto at = std::chrono::microseconds(host_time_us);
  auto state = link->link.captureAudioSessionState();
  state.setTempo(bpm, at);
  if (request_beat) state.requestBeatAtTime(beat, at, quantum > 0 ? quantum : 4.0);
  link->link.commitAudioSessionState(state);
}

// Thread: RT
void podium_link_audio_commit_playing(podium_link *link, bool playing, double quantum,
                                      int64_t host_time_us, podium_link_timing *out) {
  if (!link || !link->enabled.load(std::memory_order_acquire)) return;
  const auto at = std::chrono::microseconds(host_time_us);
  auto state = link->link.captureAudioSessionState();
  const double q = quantum > 0 ? quantum : 4.0;
  if (playing) {
    state.setIsPlayingAndRequestBeatAtTime(true, at, 0.0, q);
  } else {
    state.setIsPlaying(false, at);
  }
  link->link.commitAudioSessionState(state);
  if (out) {
    // The committed state at the same host time: the caller judges its start in this period
    // (alone in a session, beat 0 is `at` itself; with peers the next bar may fall in it).
    out->beat = state.beatAtTime(at, q);
    out->phase = state.phaseAtTime(at, q);
    out->tempo = state.tempo();
    out->host_time_us = host_time_us;
    out->playing = state.isPlaying();
    out->start_beat = state.beatAtTime(state.timeForIsPlaying(), q);
  }
}

}  // extern "C"
