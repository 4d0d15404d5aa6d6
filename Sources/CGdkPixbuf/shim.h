#ifndef EARSHOT_CGDKPIXBUF_SHIM_H
#define EARSHOT_CGDKPIXBUF_SHIM_H
// Debian's gdk-pixbuf 2 (libgdk-pixbuf-2.0-dev): decodes artwork and writes the resized JPEGs.
// Only Sources/Artwork/ImageResizer.swift imports this module.
//
// The few functions used are declared here, exactly as in <gdk-pixbuf/gdk-pixbuf.h> (2.x: a
// stable ABI), instead of including it: that header needs glib's include folders, which only
// gdk-pixbuf-2.0.pc knows, and that file also adds `-pthread`, a flag SwiftPM refuses with a
// warning (the reason CMPV links by name too). The library itself is linked by name.

typedef struct _GdkPixbuf GdkPixbuf;
typedef struct _GdkPixbufFormat GdkPixbufFormat;
typedef struct _GError { unsigned int domain; int code; char *message; } GError;
typedef enum { GDK_INTERP_NEAREST, GDK_INTERP_TILES, GDK_INTERP_BILINEAR, GDK_INTERP_HYPER } GdkInterpType;

GdkPixbufFormat *gdk_pixbuf_get_file_info(const char *filename, int *width, int *height);
char *gdk_pixbuf_format_get_name(GdkPixbufFormat *format);
GdkPixbuf *gdk_pixbuf_new_from_file_at_scale(const char *filename, int width, int height,
                                             int preserve_aspect_ratio, GError **error);
int gdk_pixbuf_get_has_alpha(const GdkPixbuf *pixbuf);
GdkPixbuf *gdk_pixbuf_composite_color_simple(const GdkPixbuf *src, int dest_width, int dest_height,
                                             GdkInterpType interp_type, int overall_alpha, int check_size,
                                             unsigned int color1, unsigned int color2);
GdkPixbuf *gdk_pixbuf_scale_simple(const GdkPixbuf *src, int dest_width, int dest_height, GdkInterpType interp_type);
int gdk_pixbuf_savev(GdkPixbuf *pixbuf, const char *filename, const char *type,
                     char **option_keys, char **option_values, GError **error);
void g_object_unref(void *object);
void g_error_free(GError *error);
void g_free(void *memory);

static inline const char *earshot_gerror_message(GError *error) {
    return error && error->message ? error->message : "unknown error";
}
#endif
