// libmpv through dlopen: see shim.h for why. Each earshot_mpv_* forwards to the libmpv function of the
// same name, found once by earshot_mpv_load (which every caller runs first: MPVPlayer.makeHandle).
#include "shim.h"
#include <dlfcn.h>
#include <locale.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    void *library;
    char error[512];
    __typeof__(mpv_create) *create;
    __typeof__(mpv_initialize) *initialize;
    __typeof__(mpv_terminate_destroy) *terminate_destroy;
    __typeof__(mpv_error_string) *error_string;
    __typeof__(mpv_free) *free;
    __typeof__(mpv_get_property_async) *get_property_async;
    __typeof__(mpv_get_property_string) *get_property_string;
    __typeof__(mpv_set_property_async) *set_property_async;
    __typeof__(mpv_set_option_string) *set_option_string;
    __typeof__(mpv_command_async) *command_async;
    __typeof__(mpv_command_node_async) *command_node_async;
    __typeof__(mpv_observe_property) *observe_property;
    __typeof__(mpv_request_log_messages) *request_log_messages;
    __typeof__(mpv_wait_event) *wait_event;
    __typeof__(mpv_wakeup) *wakeup;
} api;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

static int find(void **slot, const char *name) {
    *slot = dlsym(api.library, name);
    if (*slot) return 1;
    snprintf(api.error, sizeof api.error, "libmpv has no %s (an older libmpv than Debian 12's?)", name);
    return 0;
}

static void load(void) {
    // The soname Debian 12's libmpv2 ships, then the development link for other systems.
    api.library = dlopen("libmpv.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!api.library) api.library = dlopen("libmpv.so", RTLD_NOW | RTLD_LOCAL);
    if (!api.library) {
        const char *why = dlerror();
        snprintf(api.error, sizeof api.error, "cannot load libmpv (install libmpv2): %s", why ? why : "not found");
        return;
    }
    int ok = find((void **)&api.create, "mpv_create")
        && find((void **)&api.initialize, "mpv_initialize")
        && find((void **)&api.terminate_destroy, "mpv_terminate_destroy")
        && find((void **)&api.error_string, "mpv_error_string")
        && find((void **)&api.free, "mpv_free")
        && find((void **)&api.get_property_async, "mpv_get_property_async")
        && find((void **)&api.get_property_string, "mpv_get_property_string")
        && find((void **)&api.set_property_async, "mpv_set_property_async")
        && find((void **)&api.set_option_string, "mpv_set_option_string")
        && find((void **)&api.command_async, "mpv_command_async")
        && find((void **)&api.command_node_async, "mpv_command_node_async")
        && find((void **)&api.observe_property, "mpv_observe_property")
        && find((void **)&api.request_log_messages, "mpv_request_log_messages")
        && find((void **)&api.wait_event, "mpv_wait_event")
        && find((void **)&api.wakeup, "mpv_wakeup");
    if (!ok) {
        dlclose(api.library);
        api.library = NULL;
    }
}

const char *earshot_mpv_load(void) {
    pthread_once(&loaded, load);
    return api.library ? NULL : api.error;
}

void earshot_mpv_set_c_numeric(void) { setlocale(LC_NUMERIC, "C"); }

mpv_handle *earshot_mpv_create(void) { return api.create(); }
int earshot_mpv_initialize(mpv_handle *ctx) { return api.initialize(ctx); }
void earshot_mpv_terminate_destroy(mpv_handle *ctx) { api.terminate_destroy(ctx); }
const char *earshot_mpv_error_string(int error) { return api.error_string(error); }
void earshot_mpv_free(void *data) { api.free(data); }
int earshot_mpv_get_property_async(mpv_handle *ctx, uint64_t reply_userdata, const char *name, mpv_format format) {
    return api.get_property_async(ctx, reply_userdata, name, format);
}
char *earshot_mpv_get_property_string(mpv_handle *ctx, const char *name) { return api.get_property_string(ctx, name); }
int earshot_mpv_set_property_async(mpv_handle *ctx, uint64_t reply_userdata, const char *name, mpv_format format,
                                   void *data) {
    return api.set_property_async(ctx, reply_userdata, name, format, data);
}
int earshot_mpv_set_option_string(mpv_handle *ctx, const char *name, const char *data) {
    return api.set_option_string(ctx, name, data);
}
int earshot_mpv_command_async(mpv_handle *ctx, uint64_t reply_userdata, const char **args) {
    return api.command_async(ctx, reply_userdata, args);
}
int earshot_mpv_loadfile_async(mpv_handle *ctx, uint64_t reply_userdata, const char *url, const char *flags,
                                const char *start) {
    // Named arguments: `loadfile`'s positional ones moved (mpv 0.38 put `index` before `options`).
    mpv_node option = {.u.string = (char *)start, .format = MPV_FORMAT_STRING};
    char *option_key = "start";
    mpv_node_list options = {.num = 1, .values = &option, .keys = &option_key};
    mpv_node values[4] = {
        {.u.string = "loadfile", .format = MPV_FORMAT_STRING},
        {.u.string = (char *)url, .format = MPV_FORMAT_STRING},
        {.u.string = (char *)flags, .format = MPV_FORMAT_STRING},
        {.u.list = &options, .format = MPV_FORMAT_NODE_MAP},
    };
    char *keys[4] = {"name", "url", "flags", "options"};
    mpv_node_list map = {.num = 4, .values = values, .keys = keys};
    mpv_node command = {.u.list = &map, .format = MPV_FORMAT_NODE_MAP};
    return api.command_node_async(ctx, reply_userdata, &command);  // mpv copies the node before it returns
}
int earshot_mpv_observe_property(mpv_handle *ctx, uint64_t reply_userdata, const char *name, mpv_format format) {
    return api.observe_property(ctx, reply_userdata, name, format);
}
int earshot_mpv_request_log_messages(mpv_handle *ctx, const char *min_level) {
    return api.request_log_messages(ctx, min_level);
}
mpv_event *earshot_mpv_wait_event(mpv_handle *ctx, double timeout) { return api.wait_event(ctx, timeout); }
void earshot_mpv_wakeup(mpv_handle *ctx) { api.wakeup(ctx); }
