import Foundation

/// The part of an image to show as an attachment's thumbnail
/// (``UNNotificationAttachmentOptionsThumbnailClippingRectKey``), in the image's unit
/// coordinates: `0...1` across and down, the origin at the image's top-left corner.
struct ThumbnailClippingRect: Codable, Hashable, Sendable {
    let x: Double
    let y: Double
    let width: Double
    let height: Double

    /// How far past 1 the far edge may reach, for sums such as `0.1 + 0.9` that round up.
    private static let tolerance = 1e-9

    /// Reads the option's value: a `CGRect`, an `NSValue` holding one, or a dictionary with
    /// the keys of `CGRect.dictionaryRepresentation` (`X`, `Y`, `Width`, `Height`).
    ///
    /// - Throws: ``UNError`` `.attachmentCorrupt` for any other value, and for a rectangle that
    ///   is not finite, has no area, or reaches outside the unit square.
    init(optionValue: Any) throws(UNError) {
        guard let rect = Self.rect(from: optionValue) else {
            throw UNError(
                .attachmentCorrupt,
                description: "The thumbnail clipping rectangle \(optionValue) is not a CGRect or its dictionary representation.")
        }
        let checked = ThumbnailClippingRect(x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.size.width), height: Double(rect.size.height))
        guard checked.isValid else {
            throw UNError(
                .attachmentCorrupt,
                description: "The thumbnail clipping rectangle \(rect) must lie within the unit square (0...1) and have a positive size.")
        }
        self = checked
    }

    /// Whether the rectangle is one the option takes: finite, of positive size, within the
    /// unit square. ``pixelRegion(imageWidth:imageHeight:)`` converts its edges to integers,
    /// which traps for any other.
    var isValid: Bool {
        [x, y, width, height].allSatisfy(\.isFinite) && x >= 0 && y >= 0 && width > 0 && height > 0
            && x + width <= 1 + Self.tolerance && y + height <= 1 + Self.tolerance
    }

    private enum CodingKeys: String, CodingKey {
        case x, y, width, height
    }

    /// Reads a stored rectangle (a state file), refusing one ``isValid`` refuses: a file is
    /// outside input too, and a rectangle that is not finite traps in
    /// ``pixelRegion(imageWidth:imageHeight:)``.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            x: try container.decode(Double.self, forKey: .x), y: try container.decode(Double.self, forKey: .y),
            width: try container.decode(Double.self, forKey: .width), height: try container.decode(Double.self, forKey: .height))
        guard isValid else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "a thumbnail clipping rectangle outside the unit square or of no size"))
        }
    }

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Whether the rectangle is the whole image (Apple's default), so nothing is clipped.
    var isWholeImage: Bool {
        x <= Self.tolerance && y <= Self.tolerance && x + width >= 1 - Self.tolerance && y + height >= 1 - Self.tolerance
    }

    /// The pixels the rectangle covers in an image of `imageWidth` × `imageHeight`: every pixel
    /// it touches, and at least one.
    func pixelRegion(imageWidth: Int, imageHeight: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        func span(_ start: Double, _ length: Double, _ size: Int) -> (Int, Int) {
            let first = min(max(Int((start * Double(size) + Self.tolerance).rounded(.down)), 0), size - 1)
            let end = min(max(Int(((start + length) * Double(size) - Self.tolerance).rounded(.up)), first + 1), size)
            return (first, end - first)
        }
        let (left, columns) = span(x, width, imageWidth)
        let (top, rows) = span(y, height, imageHeight)
        return (left, top, columns, rows)
    }

    private static func rect(from value: Any) -> CGRect? {
        switch value {
        case let rect as CGRect:
            return rect
        case let value as NSValue where String(cString: value.objCType) == rectEncoding:
            return value.rectValue
        case let dictionary as [AnyHashable: Any]:
            guard let x = number(dictionary["X"]), let y = number(dictionary["Y"]),
                  let width = number(dictionary["Width"]), let height = number(dictionary["Height"]) else { return nil }
            return CGRect(x: x, y: y, width: width, height: height)
        default:
            return nil
        }
    }

    private static let rectEncoding = String(cString: NSValue(rect: .zero).objCType)

    private static func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: number.doubleValue
        case let double as Double: double
        case let float as CGFloat: Double(float)
        case let integer as Int: Double(integer)
        default: nil
        }
    }
}
