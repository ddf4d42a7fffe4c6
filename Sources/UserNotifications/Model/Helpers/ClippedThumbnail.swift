import FreedesktopNotifications

/// An image attachment's clipped thumbnail as raw pixels for the `image-data` hint: the file
/// decoded with gdk-pixbuf (``GdkPixbufLibrary``), turned upright by its EXIF orientation,
/// cut to the clipping rectangle and, when large, scaled down; and those pixels as a PNG file
/// for the portal (``png(of:)``).
enum ClippedThumbnail {
    /// The most pixel bytes sent: 4 MiB (1024 × 1024 with alpha), a quarter of the client's
    /// `image-data` cap (``NotificationLimits/imageBytes``) and far more than any server shows.
    static let maximumBytes = 4 << 20

    /// The clipped pixels of the image file at `path`, tightly packed (the row stride is the
    /// row's width), or `nil` when gdk-pixbuf is not installed or cannot decode the file.
    static func render(
        fileAt path: String, clippingTo rect: ThumbnailClippingRect, maximumBytes: Int = maximumBytes
    ) -> NotificationImage? {
        guard let library = GdkPixbufLibrary.shared, let loaded = library.newFromFile(path, nil) else { return nil }
        defer { library.unref(loaded) }
        guard let upright = library.applyEmbeddedOrientation(loaded) else { return nil }
        defer { library.unref(upright) }
        let region = rect.pixelRegion(imageWidth: Int(library.width(upright)), imageHeight: Int(library.height(upright)))
        guard let clipped = library.newSubpixbuf(
            upright, Int32(region.x), Int32(region.y), Int32(region.width), Int32(region.height)) else { return nil }
        defer { library.unref(clipped) }
        let size = fittedSize(
            width: region.width, height: region.height, channels: Int(library.channels(clipped)), maximumBytes: maximumBytes)
        guard size.width != region.width || size.height != region.height else { return pixels(of: clipped, library) }
        guard let scaled = library.scaleSimple(clipped, Int32(size.width), Int32(size.height), GdkPixbufLibrary.bilinear) else {
            return nil
        }
        defer { library.unref(scaled) }
        return pixels(of: scaled, library)
    }

    /// The largest size with the proportions of `width` × `height` whose pixels fit in
    /// `maximumBytes`; the size itself when it fits already.
    static func fittedSize(width: Int, height: Int, channels: Int, maximumBytes: Int) -> (width: Int, height: Int) {
        guard width * height * channels > maximumBytes else { return (width, height) }
        let scale = (Double(maximumBytes) / Double(width * height * channels)).squareRoot()
        var fitted = (width: max(1, Int(Double(width) * scale)), height: max(1, Int(Double(height) * scale)))
        if fitted.width * fitted.height * channels > maximumBytes { fitted.height = max(1, maximumBytes / (fitted.width * channels)) }
        if fitted.width * fitted.height * channels > maximumBytes { fitted.width = max(1, maximumBytes / (fitted.height * channels)) }
        return fitted
    }

    /// `image` encoded as a PNG file, for a service that takes image files, not pixels (the
    /// portal's `icon`); `nil` when gdk-pixbuf is not installed or cannot encode it.
    static func png(of image: NotificationImage) -> [UInt8]? {
        guard let library = GdkPixbufLibrary.shared, image.bitsPerSample == 8 else { return nil }
        return image.data.withUnsafeBufferPointer { pixels -> [UInt8]? in
            // The pixbuf borrows the pixels (no destroy function): it is released before they are.
            guard let pixbuf = library.newFromData(
                pixels.baseAddress, GdkPixbufLibrary.rgb, image.hasAlpha ? 1 : 0, image.bitsPerSample, image.width, image.height,
                image.rowStride, nil, nil) else { return nil }
            defer { library.unref(pixbuf) }
            var buffer: UnsafeMutablePointer<CChar>?
            var size = 0
            guard library.saveToBuffer(pixbuf, &buffer, &size, "png", nil, nil, nil) != 0, let buffer else { return nil }
            defer { library.free(buffer) }
            return buffer.withMemoryRebound(to: UInt8.self, capacity: size) { [UInt8](UnsafeBufferPointer(start: $0, count: size)) }
        }
    }

    /// Copies a pixbuf's rows without their padding (a sub-pixbuf's rows are its parent's).
    private static func pixels(of pixbuf: OpaquePointer, _ library: GdkPixbufLibrary) -> NotificationImage? {
        let width = Int(library.width(pixbuf)), height = Int(library.height(pixbuf))
        let channels = Int(library.channels(pixbuf)), stride = Int(library.rowStride(pixbuf))
        guard library.bitsPerSample(pixbuf) == 8, let source = library.pixels(pixbuf) else { return nil }
        let rowBytes = width * channels
        var data = [UInt8]()
        data.reserveCapacity(rowBytes * height)
        for row in 0..<height {
            data.append(contentsOf: UnsafeBufferPointer(start: source + row * stride, count: rowBytes))
        }
        return try? NotificationImage(
            width: Int32(width), height: Int32(height), rowStride: Int32(rowBytes), hasAlpha: library.hasAlpha(pixbuf) != 0,
            channels: Int32(channels), data: data)
    }
}
