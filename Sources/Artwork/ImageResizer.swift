import CGdkPixbuf
import Foundation

/// The one owner of gdk-pixbuf: decodes a downloaded image and writes it as JPEGs of the kept
/// sizes. Synchronous and CPU-bound: callers run it off Swift's cooperative pool.
enum ImageResizer {
    /// gdk-pixbuf's loaders that may read artwork from the web. Not SVG (librsvg: a whole
    /// document renderer), TIFF, ICO, ANI, TGA, QTIF or ICNS: no feed needs them, and each is more
    /// parser facing hostile bytes.
    static let acceptedFormats: Set<String> = ["jpeg", "png", "gif", "webp", "bmp"]
    /// Refused before decoding: a small file can claim a huge canvas (a decompression bomb).
    static let maximumPixels = 40_000_000

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Decodes `source` and writes one JPEG per `(size, path)`, each fitting in size × size
    /// (aspect kept, never enlarged), transparency flattened onto white. Each file appears whole
    /// or not at all (written beside, then renamed).
    static func resize(source: String, outputs: [(size: Int, path: String)]) throws {
        var width: Int32 = 0, height: Int32 = 0
        guard let format = gdk_pixbuf_get_file_info(source, &width, &height) else {
            throw Failure(description: "not an image gdk-pixbuf can read")
        }
        let name = gdk_pixbuf_format_get_name(format).map { pointer -> String in
            defer { g_free(pointer) }
            return String(cString: pointer)
        } ?? "?"
        guard acceptedFormats.contains(name) else { throw Failure(description: "\(name) images are not accepted") }
        guard width > 0, height > 0, Int(width) * Int(height) <= maximumPixels else {
            throw Failure(description: "the image is \(width)×\(height): too large")
        }
        let largest = outputs.map(\.size).max() ?? 0
        let (w, h) = fit(width: Int(width), height: Int(height), in: largest)
        var error: UnsafeMutablePointer<GError>?
        // Decoded straight at the largest size: JPEG decodes scaled, so a 3000 px cover never
        // sits in memory at full size.
        guard let decoded = gdk_pixbuf_new_from_file_at_scale(source, Int32(w), Int32(h), 1, &error) else {
            defer { g_error_free(error) }
            throw Failure(description: String(cString: earshot_gerror_message(error)))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(decoded)) }
        var base = decoded
        if gdk_pixbuf_get_has_alpha(decoded) != 0 {
            // JPEG has no alpha: composite onto one solid colour (both checks white).
            guard let flat = gdk_pixbuf_composite_color_simple(decoded, Int32(w), Int32(h), GDK_INTERP_BILINEAR, 255, 64,
                                                               0xffffff, 0xffffff) else {
                throw Failure(description: "out of memory flattening the image")
            }
            base = flat
        }
        defer { if base != decoded { g_object_unref(UnsafeMutableRawPointer(base)) } }
        for output in outputs {
            let (ow, oh) = fit(width: w, height: h, in: output.size)
            let scaled = (ow == w && oh == h) ? base : gdk_pixbuf_scale_simple(base, Int32(ow), Int32(oh), GDK_INTERP_HYPER)
            guard let scaled else { throw Failure(description: "out of memory scaling the image") }
            defer { if scaled != base { g_object_unref(UnsafeMutableRawPointer(scaled)) } }
            try save(scaled, to: output.path)
        }
    }

    /// `width` × `height` scaled to fit in `size` × `size`, never enlarged.
    static func fit(width: Int, height: Int, in size: Int) -> (Int, Int) {
        let longest = max(width, height)
        guard longest > size else { return (width, height) }
        let scale = Double(size) / Double(longest)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    private static func save(_ pixbuf: OpaquePointer, to path: String) throws {
        let temporary = path + ".part"
        var keys: [UnsafeMutablePointer<CChar>?] = [strdup("quality"), nil]
        var values: [UnsafeMutablePointer<CChar>?] = [strdup("85"), nil]
        defer { free(keys[0]); free(values[0]) }
        var error: UnsafeMutablePointer<GError>?
        let saved = keys.withUnsafeMutableBufferPointer { k in
            values.withUnsafeMutableBufferPointer { v in
                gdk_pixbuf_savev(pixbuf, temporary, "jpeg", k.baseAddress, v.baseAddress, &error)
            }
        }
        guard saved != 0 else {
            defer { g_error_free(error) }
            unlink(temporary)
            throw Failure(description: "could not write \(path): \(String(cString: earshot_gerror_message(error)))")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Failure(description: "could not move \(temporary) into place (errno \(errno))")
        }
    }
}
