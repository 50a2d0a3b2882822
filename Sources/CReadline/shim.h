// GNU readline (apt: libreadline-dev). readline.h needs <stdio.h> first.
#ifndef PODIUM_CREADLINE_SHIM_H
#define PODIUM_CREADLINE_SHIM_H
#include <stdio.h>
#if !__has_include(<readline/readline.h>)
#error "readline/readline.h is missing: apt-get install libreadline-dev (or run scripts/setup)"
#endif
#include <readline/readline.h>
#include <readline/history.h>
#endif
