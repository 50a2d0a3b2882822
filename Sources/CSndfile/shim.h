// libsndfile (apt: libsndfile1-dev).
#ifndef PODIUM_CSNDFILE_SHIM_H
#define PODIUM_CSNDFILE_SHIM_H
#if !__has_include(<sndfile.h>)
#error "sndfile.h is missing: apt-get install libsndfile1-dev (or run scripts/setup)"
#endif
#include <sndfile.h>
#endif
