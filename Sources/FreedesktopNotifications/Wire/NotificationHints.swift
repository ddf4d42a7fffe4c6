public import DBus

/// The `hints` of a Notify call, with exact wire types for the spec's and KDE's hints.
///
/// Typed properties read a hint only when it has its exact type and write it with that type
/// (`urgency` a byte, `transient` a boolean, `x` an int32, ...), because strict servers reject
/// the whole call on a wrongly typed hint. Other hints go through ``setVendorHint(_:_:)`` and
/// ``subscript(raw:)``. Hints are sent sorted by name, so the same hints give the same bytes.
public struct NotificationHints: Sendable, Hashable {
    /// Every hint, by name, as it travels.
    public private(set) var raw: [String: DBusValue]

    /// No hints.
    public init() { raw = [:] }

    /// Hints as received (a server's view). Any types are kept; typed properties ignore
    /// values of the wrong type.
    public init(raw: [String: DBusValue]) { self.raw = raw }

    /// The hint `name` as received, whatever its type.
    public subscript(raw name: String) -> DBusValue? { raw[name] }

    /// Sets a hint outside the typed set (`x-kde-urls`, `x-dunst-stack-tag`, ...).
    ///
    /// - Throws: ``NotificationsError/invalidArgument(field:reason:)`` when `name` is one of
    ///   the typed hints and `value` has another type than the spec's, or `name` is empty.
    public mutating func setVendorHint(_ name: String, _ value: DBusValue?) throws(NotificationsError) {
        guard !name.isEmpty else { throw .invalidArgument(field: "hint name", reason: "is empty") }
        if let value, let expected = Self.knownTypes[name], value.type != expected {
            throw .invalidArgument(field: "hint \(name)", reason: "must be of type \(expected.signature), not \(value.type.signature)")
        }
        raw[name] = value
    }

    /// The types of the hints this struct knows.
    public static let knownTypes: [String: DBusType] = [
        "urgency": .byte, "category": .string, "desktop-entry": .string,
        "image-data": imageType, "image_data": imageType, "icon_data": imageType,
        "image-path": .string, "image_path": .string, "sound-file": .string, "sound-name": .string,
        "suppress-sound": .boolean, "transient": .boolean, "resident": .boolean, "action-icons": .boolean,
        "x": .int32, "y": .int32, "value": .int32,
        "x-kde-reply-placeholder-text": .string, "x-kde-reply-submit-button-text": .string,
    ]

    static let imageType = DBusType.structure([.int32, .int32, .int32, .boolean, .int32, .int32, .array(.byte)])

    /// The hints as `a{sv}`, sorted by name.
    public var encoded: DBusValue {
        let entries = raw.sorted { $0.key < $1.key }.map { DBusDictionaryEntry(.string($0.key), .variant($0.value)) }
        return .dictionary(key: .string, value: .variant, entries)
    }
}

// MARK: - Typed hints

extension NotificationHints {
    private func string(_ name: String) -> String? { raw[name]?.stringValue }
    private func flag(_ name: String) -> Bool? { raw[name]?.boolValue }
    private func number(_ name: String) -> Int32? { raw[name]?.int32Value }

    /// `urgency` (y).
    public var urgency: NotificationUrgency? {
        get { raw["urgency"]?.byteValue.flatMap(NotificationUrgency.init(rawValue:)) }
        set { raw["urgency"] = newValue.map { .byte($0.rawValue) } }
    }
    /// `category` (s), e.g. `im.received`; several types are comma-separated.
    public var category: String? {
        get { string("category") }
        set { raw["category"] = newValue.map(DBusValue.string) }
    }
    /// `desktop-entry` (s): the desktop file name without `.desktop`.
    public var desktopEntry: String? {
        get { string("desktop-entry") }
        set { raw["desktop-entry"] = newValue.map(DBusValue.string) }
    }
    /// `image-path` (s): a `file://` URI or an icon name.
    public var imagePath: String? {
        get { string("image-path") }
        set { raw["image-path"] = newValue.map(DBusValue.string) }
    }
    /// `sound-file` (s): an absolute path.
    public var soundFile: String? {
        get { string("sound-file") }
        set { raw["sound-file"] = newValue.map(DBusValue.string) }
    }
    /// `sound-name` (s): a freedesktop sound theme name such as `message-new-instant`.
    public var soundName: String? {
        get { string("sound-name") }
        set { raw["sound-name"] = newValue.map(DBusValue.string) }
    }
    /// `suppress-sound` (b).
    public var suppressSound: Bool? {
        get { flag("suppress-sound") }
        set { raw["suppress-sound"] = newValue.map(DBusValue.boolean) }
    }
    /// `transient` (b): shown, but not kept in the server's history.
    public var transient: Bool? {
        get { flag("transient") }
        set { raw["transient"] = newValue.map(DBusValue.boolean) }
    }
    /// `resident` (b): not removed when an action is invoked.
    public var resident: Bool? {
        get { flag("resident") }
        set { raw["resident"] = newValue.map(DBusValue.boolean) }
    }
    /// `action-icons` (b): action keys are icon names.
    public var actionIcons: Bool? {
        get { flag("action-icons") }
        set { raw["action-icons"] = newValue.map(DBusValue.boolean) }
    }
    /// `x` (i): the screen position the notification points to.
    public var x: Int32? {
        get { number("x") }
        set { raw["x"] = newValue.map(DBusValue.int32) }
    }
    /// `y` (i).
    public var y: Int32? {
        get { number("y") }
        set { raw["y"] = newValue.map(DBusValue.int32) }
    }
    /// `value` (i): a progress value from 0 to 100 (widely supported, not in the spec).
    public var value: Int32? {
        get { number("value") }
        set { raw["value"] = newValue.map(DBusValue.int32) }
    }
    /// `x-kde-reply-placeholder-text` (s): the reply field's placeholder.
    public var replyPlaceholderText: String? {
        get { string("x-kde-reply-placeholder-text") }
        set { raw["x-kde-reply-placeholder-text"] = newValue.map(DBusValue.string) }
    }
    /// `x-kde-reply-submit-button-text` (s): the reply field's send button.
    public var replySubmitButtonText: String? {
        get { string("x-kde-reply-submit-button-text") }
        set { raw["x-kde-reply-submit-button-text"] = newValue.map(DBusValue.string) }
    }
    /// `image-data` (iiibiiay).
    public var image: NotificationImage? {
        get {
            guard case .structure(let fields) = raw["image-data"], fields.count == 7,
                  case .int32(let width) = fields[0], case .int32(let height) = fields[1],
                  case .int32(let stride) = fields[2], case .boolean(let alpha) = fields[3],
                  case .int32(let bits) = fields[4], case .int32(let channels) = fields[5],
                  case .byteArray(let data) = fields[6] else { return nil }
            return try? NotificationImage(
                width: width, height: height, rowStride: stride, hasAlpha: alpha,
                bitsPerSample: bits, channels: channels, data: data)
        }
        set {
            raw["image-data"] = newValue.map { image in
                .structure([
                    .int32(image.width), .int32(image.height), .int32(image.rowStride), .boolean(image.hasAlpha),
                    .int32(image.bitsPerSample), .int32(image.channels), .byteArray(image.data),
                ])
            }
        }
    }
}
