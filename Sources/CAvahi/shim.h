// Avahi's client library (apt: libavahi-client-dev): DNS-SD publishing through the Avahi daemon
// over D-Bus. Swift imports it directly; nothing to wrap.
#ifndef PODIUM_CAVAHI_SHIM_H
#define PODIUM_CAVAHI_SHIM_H
#if !__has_include(<avahi-client/publish.h>)
#error "avahi-client/publish.h is missing: apt-get install libavahi-client-dev (or run scripts/setup)"
#endif
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/simple-watch.h>
#include <avahi-common/thread-watch.h>
#endif
