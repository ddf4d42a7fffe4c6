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
                description: "The thumbnail clipping rectangle \\(optionValue) is not a CGRect or its dictionary representation.")
        }
        let values = [rect.origin.x, rect.origin.y, rect.size.width, rect.size.height].map { Double($0) }
        guard values.allSatisfy(\.isFinite), values[0] >= 0, values[1] >= 0, values[2] > 0, values[3] > 0,
              values[0] + values[2] <= 1 + Self.tolerance, values[1] + values[3] <= 1 + Self.tolerance else {
            throw UNError(
                .attachmentCorrupt,
                description: "The thumbnail clipping rectangle \\(rect) must lie within the unit square (0...1) and have a positive size.")
        }
        self.init(x: values[0], y: values[1], width: values[2], height: values[3])
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
