extension UNNotificationAttachment {
    /// The bytes this image is sent as where a service takes the image itself rather than
    /// pixels (the portal's sealed `icon` file, GNOME's `bytes` icon): the clipped thumbnail
    /// the freedesktop mapping sends as pixels, encoded as PNG (``ClippedThumbnail``), when the
    /// attachment has a clipping rectangle and the image decodes here; else the file's bytes.
    ///
    /// - Throws: ``PortalSealedFile/Failure`` when the bytes are more than `limit` or the file
    ///   cannot be read.
    func iconBytes(limit: Int) throws(PortalSealedFile.Failure) -> [UInt8] {
        guard let clipped = clippedThumbnail.flatMap(ClippedThumbnail.png(of:)) else {
            return try PortalSealedFile.read(url, limit: limit)
        }
        guard clipped.count <= limit else { throw .tooLarge(path: "the clipped thumbnail of \(url.path)", limit: limit) }
        return clipped
    }
}
