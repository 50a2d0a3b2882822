// liblo (apt: liblo-dev). Swift imports it directly; nothing to wrap yet.
#ifndef PODIUM_CLO_SHIM_H
#define PODIUM_CLO_SHIM_H
#if !__has_include(<lo/lo.h>)
#error "lo/lo.h is missing: apt-get install liblo-dev (or run scripts/setup)"
#endif
#include <lo/lo.h>
#endif
