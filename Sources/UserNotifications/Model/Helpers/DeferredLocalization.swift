import Foundation

/// What `localizedUserNotificationString(forKey:arguments:)` was asked for: a key, its format
/// arguments and where to look, so the text can be looked up again when the notification is
/// delivered.
///
/// Stored (with a pending request) as the key, the arguments and the bundle's path; the main
/// bundle (and a test's own source) is stored as no path and found again as whatever
/// `Bundle.main` is then. A stored path is read back as a ``BundleAtPath``, opened only when
/// the text is looked up: reading a record or a state file opens no path it names.
struct DeferredLocalization: Hashable, Sendable {
    /// A format argument in a form that can be kept and stored.
    enum Argument: Codable, Hashable, Sendable {
        case string(String)
        case integer(Int)
        case unsignedInteger(UInt)
        case double(Double)

        /// Numbers stay numbers (for `%d`, `%f`), strings stay strings (for `%@`); anything
        /// else is used as its description.
        init(_ value: Any) {
            switch value {
            case let number as NSNumber where type(of: value) is NSNumber.Type:
                switch UInt8(bitPattern: number.objCType.pointee) {
                case UInt8(ascii: "f"), UInt8(ascii: "d"): self = .double(number.doubleValue)
                case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"): self = .unsignedInteger(number.uintValue)
                default: self = .integer(number.intValue)
                }
            case let string as String:
                self = .string(string)
            case let integer as any BinaryInteger:
                if let signed = Int(exactly: integer) {
                    self = .integer(signed)
                } else if let unsigned = UInt(exactly: integer) {
                    self = .unsignedInteger(unsigned)
                } else {
                    self = .string(String(describing: value))
                }
            case let floatingPoint as any BinaryFloatingPoint:
                self = .double(Double(floatingPoint))
            default:
                self = .string(String(describing: value))
            }
        }
    }

    let key: String
    /// `nil` or empty: the text is used as found, not as a format.
    let arguments: [Argument]?
    let source: any LocalizedStringSource

    init(key: String, arguments: [Any]?, source: any LocalizedStringSource) {
        self.init(key: key, storedArguments: arguments?.map(Argument.init), source: source)
    }

    init(key: String, storedArguments: [Argument]?, source: any LocalizedStringSource) {
        self.key = key
        self.arguments = storedArguments
        self.source = source
    }

    /// The path stored for the source: `nil` for the main bundle and for sources that are not
    /// bundles.
    var storedBundlePath: String? {
        if let stored = source as? BundleAtPath { return stored.path }
        guard let bundle = source as? Bundle, bundle != Bundle.main else { return nil }
        return bundle.bundlePath
    }

    /// The source a stored localization names: the bundle at `bundlePath`, opened when a text
    /// is looked up (``BundleAtPath``), or the main bundle when it names none.
    static func source(bundlePath: String?) -> any LocalizedStringSource {
        bundlePath.map(BundleAtPath.init(path:)) ?? Bundle.main
    }

    /// The path of the bundle the text is looked up in (the main bundle's too), or `nil` for a
    /// source that is not a bundle.
    private var sourcePath: String? {
        if let stored = source as? BundleAtPath { return stored.path }
        return (source as? Bundle)?.bundlePath
    }

    /// The text as the bundle has it now: translated when the bundle has the key, the key
    /// itself otherwise, filled in with the arguments (``LocalizedFormat``).
    func resolve() -> String {
        let format = source.localizedString(forKey: key, value: nil, table: nil)
        guard let arguments, !arguments.isEmpty else { return format }
        return LocalizedFormat.format(format, arguments: arguments)
    }

    /// The same key and arguments from the same source (bundles count as the same by path).
    static func == (lhs: DeferredLocalization, rhs: DeferredLocalization) -> Bool {
        guard lhs.key == rhs.key, lhs.arguments == rhs.arguments else { return false }
        if let left = lhs.sourcePath, let right = rhs.sourcePath { return left == right }
        return lhs.source === rhs.source
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(arguments)
    }
}

extension DeferredLocalization: Codable {
    private enum CodingKeys: String, CodingKey {
        case key, arguments, bundlePath
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let bundlePath = try container.decodeIfPresent(String.self, forKey: .bundlePath)
        self.init(
            key: try container.decode(String.self, forKey: .key),
            storedArguments: try container.decodeIfPresent([Argument].self, forKey: .arguments),
            source: Self.source(bundlePath: bundlePath))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encodeIfPresent(arguments, forKey: .arguments)
        try container.encodeIfPresent(storedBundlePath, forKey: .bundlePath)
    }
}
