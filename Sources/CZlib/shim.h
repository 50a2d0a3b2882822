// zlib (apt: zlib1g-dev): the deflate stream a TouchOSC layout (.tosc) is stored in.
#ifndef PODIUM_CZLIB_SHIM_H
#define PODIUM_CZLIB_SHIM_H
#if !__has_include(<zlib.h>)
#error "zlib.h is missing: apt-get install zlib1g-dev (or run scripts/setup)"
#endif
#include <zlib.h>
#endif
