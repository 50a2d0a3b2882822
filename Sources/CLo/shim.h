// liblo (apt: liblo-dev). Swift imports it directly; nothing to wrap yet.
#ifndef PODIUM_CLO_SHIM_H
#define PODIUM_CLO_SHIM_H
#include <lo/lo.h>
#endif
