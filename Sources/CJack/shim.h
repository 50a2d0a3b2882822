// What Swift cannot import from JACK directly (apt: libjack-jackd2-dev).
#ifndef PODIUM_CJACK_SHIM_H
#define PODIUM_CJACK_SHIM_H
#if !__has_include(<jack/jack.h>)
#error "jack/jack.h is missing: apt-get install libjack-jackd2-dev (or run scripts/setup)"
#endif
#include <jack/jack.h>
#include <jack/ringbuffer.h>
#include <jack/midiport.h>
#include <jack/statistics.h>
#include <jack/thread.h>

/// jack_client_open is variadic; this names the server explicitly
/// (NULL: the default server, JACK_DEFAULT_SERVER honoured).
static inline jack_client_t *podium_jack_client_open(const char *name,
                                                     jack_options_t options,
                                                     jack_status_t *status,
                                                     const char *server) {
  if (server) {
    return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
  }
  return jack_client_open(name, options, status);
}

#endif
