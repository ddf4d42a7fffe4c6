/// One `[Group]` of a ``KeyFile``: its keys with their raw values and line numbers.
///
/// Keys with a locale suffix (`Name[de]=...`) are kept under their whole name; the accessors
/// that take a plain key never see them, so a localized value is ignored and the plain one read.
package struct KeyFileGroup: Sendable, Hashable {
    /// One key's raw value (escapes not yet undone) and the line it was on.
    package struct Entry: Sendable, Hashable {
        package let value: String
        package let line: Int
    }

    /// The name between the brackets.
    package let name: String
    /// The line of the header.
    package let line: Int
    /// The entries by key, locale suffix included.
    package private(set) var entries: [String: Entry] = [:]

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }

    mutating func add(key: String, value: String, line: Int) throws(DesktopEntryError) {
        guard entries[key] == nil else { throw .duplicateKey(key, group: name, line: line) }
        entries[key] = Entry(value: value, line: line)
    }

    /// Whether `key` is `[A-Za-z0-9-]+`, optionally followed by `[locale]` with a locale of
    /// printable ASCII other than brackets.
    static func isValidKey(_ key: Substring) -> Bool {
        var name = key
        if key.hasSuffix("]") {
            guard let open = key.firstIndex(of: "[") else { return false }
            let locale = key[key.index(after: open)..<key.index(before: key.endIndex)]
            guard !locale.isEmpty, locale.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) && $0 != "[" && $0 != "]" }) else {
                return false
            }
            name = key[..<open]
        }
        return !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
    }
}
