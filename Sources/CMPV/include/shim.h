#ifndef EARSHOT_CMPV_SHIM_H
#define EARSHOT_CMPV_SHIM_H
// libmpv, loaded when the player first starts (`earshot_mpv_load`), not when Earshot does: it brings
// 228 of the 254 libraries the binary would otherwise load at start-up (FFmpeg, PipeWire, X11…), whose
// relocations took 0.1 s of every `earshot` command, `earshot parse` and `--version` included.
// The types come from libmpv's header; the calls go through the `earshot_mpv_*` functions below, each
// the libmpv function of the same name (calling an `mpv_*` function directly fails to link: nothing
// links libmpv).
#include <mpv/client.h>

/// Loads libmpv (libmpv.so.2) once; NULL when it is there, else why not (dlerror's words).
const char *earshot_mpv_load(void);

/// mpv refuses to start unless LC_NUMERIC is "C" (it parses floats with strtod).
void earshot_mpv_set_c_numeric(void);

mpv_handle *earshot_mpv_create(void);
int earshot_mpv_initialize(mpv_handle *ctx);
void earshot_mpv_terminate_destroy(mpv_handle *ctx);
const char *earshot_mpv_error_string(int error);
void earshot_mpv_free(void *data);
int earshot_mpv_get_property_async(mpv_handle *ctx, uint64_t reply_userdata, const char *name, mpv_format format);
char *earshot_mpv_get_property_string(mpv_handle *ctx, const char *name);
int earshot_mpv_set_property_async(mpv_handle *ctx, uint64_t reply_userdata, const char *name, mpv_format format, void *data);
int earshot_mpv_set_option_string(mpv_handle *ctx, const char *name, const char *data);
int earshot_mpv_command_async(mpv_handle *ctx, uint64_t reply_userdata, const char **args);
/// `loadfile URL FLAGS` with the per-file option `start=START`, as one asynchronous command (named
/// arguments, so it reads the same to every mpv since Debian 12's 0.35).
int earshot_mpv_loadfile_async(mpv_handle *ctx, uint64_t reply_userdata, const char *url, const char *flags,
                                const char *start);
int earshot_mpv_observe_property(mpv_handle *ctx, uint64_t reply_userdata, const char *name, mpv_format format);
int earshot_mpv_request_log_messages(mpv_handle *ctx, const char *min_level);
mpv_event *earshot_mpv_wait_event(mpv_handle *ctx, double timeout);
void earshot_mpv_wakeup(mpv_handle *ctx);
#endif
