// libsndfile (apt: libsndfile1-dev).
#ifndef PODIUM_CSNDFILE_SHIM_H
#define PODIUM_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
