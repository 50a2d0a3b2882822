// GNU readline (apt: libreadline-dev). readline.h needs <stdio.h> first.
#ifndef PODIUM_CREADLINE_SHIM_H
#define PODIUM_CREADLINE_SHIM_H
#include <stdio.h>
#if !__has_include(<readline/readline.h>)
#error "readline/readline.h is missing: apt-get install libreadline-dev (or run scripts/setup)"
#endif
#include <readline/readline.h>
#include <readline/history.h>

/* readline's state lives in global variables; Swift 6 cannot touch mutable C globals
   directly, so the REPL (one thread) goes through these. */
static inline int podium_rl_point(void) { return rl_point; }
static inline void podium_rl_set_point(int p) { rl_point = p; }
static inline int podium_rl_end(void) { return rl_end; }
static inline void podium_rl_set_completer(rl_completion_func_t *f) { rl_attempted_completion_function = f; }
static inline void podium_rl_completion_over(void) { rl_attempted_completion_over = 1; }
static inline const char *podium_rl_line(void) { return rl_line_buffer; }
static inline void podium_print(const char *s) { fputs(s, stdout); fflush(stdout); }
#endif
