import DBus

/// What the notification portal can take: its interface version and, from version 2, the
/// options its server advertises (`SupportedOptions`). Read from the portal's properties; a
/// portal that answers neither property is taken as version 1, which every portal accepts.
struct PortalFeatures: Sendable, Hashable {
    /// The interface version (1 or more).
    var version: UInt32
    /// The `category` values the server advertises (version 2).
    var categories: Set<String>
    /// The button `purpose` values the server advertises (version 2).
    var buttonPurposes: Set<String>

    /// Version 1: title, body, themed icon, priority, default action and buttons only.
    static let version1 = PortalFeatures(version: 1, categories: [], buttonPurposes: [])

    /// At most this many advertised values per option are kept (the list comes from a peer).
    static let maximumAdvertised = 64

    /// Whether the version 2 keys (`markup-body`, `category`, `display-hint`, `sound`, button
    /// `purpose`) may be sent: a version 1 frontend rejects none of them but passes none on,
    /// and its backend may reject the notification.
    var hasVersion2Keys: Bool { version >= 2 }

    /// The features described by the portal's `version` and `SupportedOptions` values; values
    /// of the wrong type count as absent.
    init(version: DBusValue?, supportedOptions: DBusValue?) {
        self.version = max(1, version?.uint32Value ?? 1)
        let options = supportedOptions?.variantDictionaryValue ?? [:]
        categories = Self.advertised(options["category"])
        buttonPurposes = Self.advertised(options["button-purpose"])
    }

    init(version: UInt32, categories: Set<String>, buttonPurposes: Set<String>) {
        self.version = version
        self.categories = categories
        self.buttonPurposes = buttonPurposes
    }

    private static func advertised(_ value: DBusValue?) -> Set<String> {
        Set((value?.stringArrayValue ?? []).prefix(maximumAdvertised).filter { $0.utf8.count <= 256 })
    }
}
