/// Raw pixels for the `image-data` hint, `(iiibiiay)`, checked the way strict servers check it.
public struct NotificationImage: Sendable, Hashable {
    public let width: Int32
    public let height: Int32
    public let rowStride: Int32
    public let hasAlpha: Bool
    public let bitsPerSample: Int32
    public let channels: Int32
    public let data: [UInt8]

    /// Creates an image from 8-bit RGB (3 channels) or RGBA (4 channels) rows.
    ///
    /// - Throws: ``NotificationsError/invalidImage(_:)`` unless: width and height are positive,
    ///   8 bits per sample, 3 channels without alpha or 4 with, a row stride of at least
    ///   `width * channels`, and exactly `(height - 1) * rowStride + width * channels` bytes.
    public init(
        width: Int32, height: Int32, rowStride: Int32, hasAlpha: Bool,
        bitsPerSample: Int32 = 8, channels: Int32, data: [UInt8]
    ) throws(NotificationsError) {
        guard width > 0, height > 0 else { throw .invalidImage("width and height must be positive") }
        guard bitsPerSample == 8 else { throw .invalidImage("bits per sample must be 8, not \(bitsPerSample)") }
        guard channels == (hasAlpha ? 4 : 3) else {
            throw .invalidImage("\(channels) channels with alpha \(hasAlpha); use 3 without alpha or 4 with")
        }
        let rowBytes = Int(width) * Int(channels)
        guard Int(rowStride) >= rowBytes else { throw .invalidImage("row stride \(rowStride) is shorter than a row (\(rowBytes))") }
        let expected = (Int(height) - 1) * Int(rowStride) + rowBytes
        guard data.count == expected else {
            throw .invalidImage("\(data.count) bytes of pixels where \(expected) are needed")
        }
        self.width = width
        self.height = height
        self.rowStride = rowStride
        self.hasAlpha = hasAlpha
        self.bitsPerSample = bitsPerSample
        self.channels = channels
        self.data = data
    }
}
