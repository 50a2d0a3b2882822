// libsamplerate (apt: libsamplerate0-dev): samples resampled to JACK's rate off the audio thread.
#ifndef PODIUM_CSAMPLERATE_SHIM_H
#define PODIUM_CSAMPLERATE_SHIM_H
#if !__has_include(<samplerate.h>)
#error "samplerate.h is missing: apt-get install libsamplerate0-dev (or run scripts/setup)"
#endif
#include <samplerate.h>
#endif
