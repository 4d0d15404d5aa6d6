#ifndef EARSHOT_CGIO_SHIM_H
#define EARSHOT_CGIO_SHIM_H
// GDBus from Debian's GLib (libglib2.0-dev): Earshot's MPRIS player on the session bus, as
// mpv-mpris does it. Only Sources/MPRIS/DBus*.swift import this module.
//
// GDBus over sd-bus: GLib is already loaded (gdk-pixbuf uses it), its D-Bus code parses the
// introspection XML, answers Introspect, Get, GetAll and Set from one vtable, and runs handlers
// on the main context of our own thread; sd-bus would need libsystemd and hand-written
// property plumbing, and its message API is variadic (Swift cannot call C variadic functions).
//
// The declarations below are copied from <gio/gio.h> and <glib.h> (GLib 2.x keeps its ABI), as
// CGdkPixbuf does: those headers need include folders that only pkg-config knows, and
// gio-2.0.pc also adds `-pthread`, a flag SwiftPM refuses. The libraries are linked by name.
#include <stddef.h>
#include <stdint.h>

typedef int gboolean;
typedef unsigned int guint;
typedef uint32_t GQuark;
typedef struct _GError { unsigned int domain; int code; char *message; } GError;
typedef struct _GMainContext GMainContext;
typedef struct _GMainLoop GMainLoop;
typedef struct _GVariant GVariant;
typedef struct _GVariantType GVariantType;
typedef struct _GDBusConnection GDBusConnection;
typedef struct _GDBusMethodInvocation GDBusMethodInvocation;
typedef struct _GDBusNodeInfo GDBusNodeInfo;
typedef struct _GDBusInterfaceInfo GDBusInterfaceInfo;
typedef struct _GCancellable GCancellable;
typedef struct _GDBusAuthObserver GDBusAuthObserver;
typedef void (*GDestroyNotify)(void *data);
typedef gboolean (*GSourceFunc)(void *user_data);

// GLib main loop: the D-Bus thread runs one of its own.
GMainContext *g_main_context_new(void);
void g_main_context_push_thread_default(GMainContext *context);
void g_main_context_pop_thread_default(GMainContext *context);
void g_main_context_unref(GMainContext *context);
void g_main_context_invoke(GMainContext *context, GSourceFunc function, void *data);
GMainLoop *g_main_loop_new(GMainContext *context, gboolean is_running);
void g_main_loop_run(GMainLoop *loop);
void g_main_loop_quit(GMainLoop *loop);
void g_main_loop_unref(GMainLoop *loop);

void g_error_free(GError *error);
void g_set_error_literal(GError **err, GQuark domain, int code, const char *message);
GQuark g_dbus_error_quark(void);
enum { EARSHOT_G_DBUS_ERROR_INVALID_ARGS = 16 };
void g_object_unref(void *object);

// GVariant: values built from their parts (the variadic g_variant_new is out of reach).
GVariant *g_variant_new_string(const char *string);
GVariant *g_variant_new_object_path(const char *object_path);
GVariant *g_variant_new_boolean(gboolean value);
GVariant *g_variant_new_int64(int64_t value);
GVariant *g_variant_new_uint32(uint32_t value);
GVariant *g_variant_new_double(double value);
GVariant *g_variant_new_variant(GVariant *value);
GVariant *g_variant_new_strv(const char *const *strv, ptrdiff_t length);
GVariant *g_variant_new_tuple(GVariant *const *children, size_t n_children);
GVariant *g_variant_new_array(const GVariantType *child_type, GVariant *const *children, size_t n_children);
GVariant *g_variant_new_dict_entry(GVariant *key, GVariant *value);
const char *g_variant_get_type_string(GVariant *value);
size_t g_variant_n_children(GVariant *value);
GVariant *g_variant_get_child_value(GVariant *value, size_t index_);
const char *g_variant_get_string(GVariant *value, size_t *length);
gboolean g_variant_get_boolean(GVariant *value);
int64_t g_variant_get_int64(GVariant *value);
uint32_t g_variant_get_uint32(GVariant *value);
double g_variant_get_double(GVariant *value);
GVariant *g_variant_get_variant(GVariant *value);
GVariant *g_variant_ref_sink(GVariant *value);
void g_variant_unref(GVariant *value);
/// G_VARIANT_TYPE(s) is a cast of the type string.
static inline const GVariantType *earshot_variant_type(const char *type_string) {
    return (const GVariantType *)type_string;
}

// GDBus.
typedef enum {
    EARSHOT_G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT = (1 << 0),
    EARSHOT_G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION = (1 << 3),
} EarshotDBusConnectionFlags;
GDBusConnection *g_dbus_connection_new_for_address_sync(const char *address, int flags, GDBusAuthObserver *observer,
                                                        GCancellable *cancellable, GError **error);
gboolean g_dbus_connection_close_sync(GDBusConnection *connection, GCancellable *cancellable, GError **error);
gboolean g_dbus_connection_flush_sync(GDBusConnection *connection, GCancellable *cancellable, GError **error);
GVariant *g_dbus_connection_call_sync(GDBusConnection *connection, const char *bus_name, const char *object_path,
                                      const char *interface_name, const char *method_name, GVariant *parameters,
                                      const GVariantType *reply_type, int flags, int timeout_msec,
                                      GCancellable *cancellable, GError **error);
gboolean g_dbus_connection_emit_signal(GDBusConnection *connection, const char *destination_bus_name,
                                       const char *object_path, const char *interface_name, const char *signal_name,
                                       GVariant *parameters, GError **error);

typedef void (*GDBusInterfaceMethodCallFunc)(GDBusConnection *connection, const char *sender, const char *object_path,
                                             const char *interface_name, const char *method_name, GVariant *parameters,
                                             GDBusMethodInvocation *invocation, void *user_data);
typedef GVariant *(*GDBusInterfaceGetPropertyFunc)(GDBusConnection *connection, const char *sender,
                                                  const char *object_path, const char *interface_name,
                                                  const char *property_name, GError **error, void *user_data);
typedef gboolean (*GDBusInterfaceSetPropertyFunc)(GDBusConnection *connection, const char *sender,
                                                  const char *object_path, const char *interface_name,
                                                  const char *property_name, GVariant *value, GError **error,
                                                  void *user_data);
typedef struct {
    GDBusInterfaceMethodCallFunc method_call;
    GDBusInterfaceGetPropertyFunc get_property;
    GDBusInterfaceSetPropertyFunc set_property;
    void *padding[8];
} GDBusInterfaceVTable;

GDBusNodeInfo *g_dbus_node_info_new_for_xml(const char *xml_data, GError **error);
GDBusInterfaceInfo *g_dbus_node_info_lookup_interface(GDBusNodeInfo *info, const char *name);
void g_dbus_node_info_unref(GDBusNodeInfo *info);
guint g_dbus_connection_register_object(GDBusConnection *connection, const char *object_path,
                                        GDBusInterfaceInfo *interface_info, const GDBusInterfaceVTable *vtable,
                                        void *user_data, GDestroyNotify user_data_free_func, GError **error);
gboolean g_dbus_connection_unregister_object(GDBusConnection *connection, guint registration_id);
void g_dbus_method_invocation_return_value(GDBusMethodInvocation *invocation, GVariant *parameters);
void g_dbus_method_invocation_return_dbus_error(GDBusMethodInvocation *invocation, const char *error_name,
                                                const char *error_message);

static inline const char *earshot_gio_error_message(GError *error) {
    return error && error->message ? error->message : "unknown error";
}
#endif
