/// gdk-pixbuf (`libgdk_pixbuf-2.0.so.0`, Debian package `libgdk-pixbuf-2.0-0`), loaded at run
/// time to decode attachment images for their clipped thumbnails and to encode those as PNG
/// for the portal, with GObject's `g_object_unref` to release its pixbufs and GLib's `g_free`
/// for the bytes it encodes. `nil` when a library is not installed.
struct GdkPixbufLibrary: @unchecked Sendable {
    typealias NewFromFile = @convention(c) (UnsafePointer<CChar>, UnsafeMutableRawPointer?) -> OpaquePointer?
    typealias Transform = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias Subpixbuf = @convention(c) (OpaquePointer?, Int32, Int32, Int32, Int32) -> OpaquePointer?
    typealias Scale = @convention(c) (OpaquePointer?, Int32, Int32, Int32) -> OpaquePointer?
    typealias Number = @convention(c) (OpaquePointer?) -> Int32
    typealias Pixels = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<UInt8>?
    typealias Unref = @convention(c) (OpaquePointer?) -> Void
    /// `gdk_pixbuf_new_from_data(data, colorspace, has_alpha, bits_per_sample, width, height,
    /// rowstride, destroy_fn, destroy_fn_data)`: a pixbuf over pixels the caller keeps.
    typealias NewFromData = @convention(c) (
        UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?
    ) -> OpaquePointer?
    /// `gdk_pixbuf_save_to_bufferv(pixbuf, buffer, buffer_size, type, option_keys,
    /// option_values, error)`: the encoded file in a buffer that `g_free` releases.
    typealias SaveToBuffer = @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<Int>?, UnsafePointer<CChar>?,
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        UnsafeMutableRawPointer?
    ) -> Int32
    typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// `GDK_COLORSPACE_RGB`, the only one.
    static let rgb: Int32 = 0

    /// `GDK_INTERP_BILINEAR`: gdk-pixbuf's recommended balance of quality and speed.
    static let bilinear: Int32 = 2

    let newFromFile: NewFromFile
    let applyEmbeddedOrientation: Transform
    let newSubpixbuf: Subpixbuf
    let scaleSimple: Scale
    let width: Number
    let height: Number
    let rowStride: Number
    let hasAlpha: Number
    let bitsPerSample: Number
    let channels: Number
    let pixels: Pixels
    let unref: Unref
    let newFromData: NewFromData
    let saveToBuffer: SaveToBuffer
    let free: Free

    static let shared: GdkPixbufLibrary? = {
        guard let pixbuf = DynamicLibrary.open("libgdk_pixbuf-2.0.so.0"),
              let gobject = DynamicLibrary.open("libgobject-2.0.so.0"),
              let glib = DynamicLibrary.open("libglib-2.0.so.0"),
              let newFromFile = pixbuf.function("gdk_pixbuf_new_from_file", as: NewFromFile.self),
              let applyEmbeddedOrientation = pixbuf.function("gdk_pixbuf_apply_embedded_orientation", as: Transform.self),
              let newSubpixbuf = pixbuf.function("gdk_pixbuf_new_subpixbuf", as: Subpixbuf.self),
              let scaleSimple = pixbuf.function("gdk_pixbuf_scale_simple", as: Scale.self),
              let width = pixbuf.function("gdk_pixbuf_get_width", as: Number.self),
              let height = pixbuf.function("gdk_pixbuf_get_height", as: Number.self),
              let rowStride = pixbuf.function("gdk_pixbuf_get_rowstride", as: Number.self),
              let hasAlpha = pixbuf.function("gdk_pixbuf_get_has_alpha", as: Number.self),
              let bitsPerSample = pixbuf.function("gdk_pixbuf_get_bits_per_sample", as: Number.self),
              let channels = pixbuf.function("gdk_pixbuf_get_n_channels", as: Number.self),
              let pixels = pixbuf.function("gdk_pixbuf_get_pixels", as: Pixels.self),
              let unref = gobject.function("g_object_unref", as: Unref.self),
              let newFromData = pixbuf.function("gdk_pixbuf_new_from_data", as: NewFromData.self),
              let saveToBuffer = pixbuf.function("gdk_pixbuf_save_to_bufferv", as: SaveToBuffer.self),
              let free = glib.function("g_free", as: Free.self) else { return nil }
        return GdkPixbufLibrary(
            newFromFile: newFromFile, applyEmbeddedOrientation: applyEmbeddedOrientation, newSubpixbuf: newSubpixbuf,
            scaleSimple: scaleSimple, width: width, height: height, rowStride: rowStride, hasAlpha: hasAlpha,
            bitsPerSample: bitsPerSample, channels: channels, pixels: pixels, unref: unref, newFromData: newFromData,
            saveToBuffer: saveToBuffer, free: free)
    }()
}
