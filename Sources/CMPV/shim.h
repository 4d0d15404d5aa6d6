#ifndef EARSHOT_CMPV_SHIM_H
#define EARSHOT_CMPV_SHIM_H
#include <mpv/client.h>
#include <locale.h>

/// mpv refuses to start unless LC_NUMERIC is "C" (it parses floats with strtod).
static inline void earshot_mpv_set_c_numeric(void) { setlocale(LC_NUMERIC, "C"); }
#endif
