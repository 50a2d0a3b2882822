// GNU readline (apt: libreadline-dev). readline.h needs <stdio.h> first.
#ifndef PODIUM_CREADLINE_SHIM_H
#define PODIUM_CREADLINE_SHIM_H
#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>
#endif
