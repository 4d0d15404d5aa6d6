#ifndef EARSHOT_CWEBSOCKETS_SHIM_H
#define EARSHOT_CWEBSOCKETS_SHIM_H
#include <libwebsockets.h>

/// LWS_PRE is a macro: the headroom lws needs before every buffer handed to lws_write.
static inline size_t earshot_lws_pre(void) { return LWS_PRE; }
#endif
