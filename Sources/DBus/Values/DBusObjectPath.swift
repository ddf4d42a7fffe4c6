/// A validated D-Bus object path such as `/org/freedesktop/Notifications`.
public struct DBusObjectPath: Sendable, Hashable, CustomStringConvertible {
    /// The path text.
    public let rawValue: String

    /// Validates `rawValue` by the spec's rules: starts with `/`, elements of `[A-Za-z0-9_]`,
    /// no empty element, no trailing `/` except for the root path.
    public init(_ rawValue: String) throws(DBusError) {
        guard DBusNames.isValidObjectPath(rawValue) else { throw .invalidObjectPath(rawValue) }
        self.rawValue = rawValue
    }

    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// The root path, `/`.
    public static let root = DBusObjectPath(unchecked: "/")

    public var description: String { rawValue }
}

/// A validated signature: zero or more complete types.
public struct DBusSignature: Sendable, Hashable, CustomStringConvertible {
    /// The signature text.
    public let rawValue: String

    /// Validates `rawValue` as a list of complete types.
    public init(_ rawValue: String) throws(DBusError) {
        _ = try DBusType.parseList(rawValue)
        self.rawValue = rawValue
    }

    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
