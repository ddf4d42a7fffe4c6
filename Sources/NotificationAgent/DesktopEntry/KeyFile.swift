/// A file in the key-file format of the Desktop Entry Specification 1.5: `[Group]` headers,
/// `Key=Value` lines, `#` comments and blank lines. Desktop entries and Flatpak's
/// `.flatpak-info` share it.
///
/// The parser is bounded for files from anyone: at most ``maximumFileSize`` bytes,
/// ``maximumLineLength`` bytes a line and ``maximumKeyCount`` keys, each past its bound a
/// ``DesktopEntryError``. It never traps. Values are kept raw; ``KeyFileGroup`` decodes them.
///
/// Divergences from the spec, all towards reading files that exist in the wild: a line may
/// end in `\r\n`, and leading spaces before a key or header are ignored.
package struct KeyFile: Sendable, Hashable {
    /// The largest file read: 64 KiB.
    package static let maximumFileSize = 64 * 1024
    /// The longest line read: 4 KiB.
    package static let maximumLineLength = 4 * 1024
    /// The most keys in one file, all groups together.
    package static let maximumKeyCount = 1_000

    /// The groups in file order.
    package let groups: [KeyFileGroup]

    /// The group named `name`, if the file has one.
    package func group(_ name: String) -> KeyFileGroup? {
        groups.first { $0.name == name }
    }

    /// Parses `bytes`.
    ///
    /// - Throws: ``DesktopEntryError`` naming the first line that breaks the format or a bound.
    package init(parsing bytes: [UInt8]) throws(DesktopEntryError) {
        guard bytes.count <= Self.maximumFileSize else {
            throw .fileTooLarge(size: bytes.count, limit: Self.maximumFileSize)
        }
        var parser = KeyFileParser()
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            try parser.take(line, number: lineNumber)
        }
        groups = parser.finish()
    }
}

/// The state of one parse: the groups so far and the group being filled.
private struct KeyFileParser {
    private var groups: [KeyFileGroup] = []
    private var current: KeyFileGroup?
    private var keyCount = 0

    mutating func take(_ bytes: ArraySlice<UInt8>, number: Int) throws(DesktopEntryError) {
        guard bytes.count <= KeyFile.maximumLineLength else {
            throw .lineTooLong(line: number, length: bytes.count, limit: KeyFile.maximumLineLength)
        }
        guard !bytes.contains(0) else { throw .nulByte(line: number) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8(line: number) }
        var line = Substring(text)
        if line.hasSuffix("\r") { line = line.dropLast() }
        line = line.drop { $0 == " " || $0 == "\t" }
        if line.isEmpty || line.hasPrefix("#") { return }
        if line.hasPrefix("[") {
            try startGroup(line, number: number)
        } else {
            try addKey(line, number: number)
        }
    }

    mutating func finish() -> [KeyFileGroup] {
        if let current { groups.append(current) }
        return groups
    }

    private mutating func startGroup(_ line: Substring, number: Int) throws(DesktopEntryError) {
        guard line.hasSuffix("]"), line.count >= 3 else { throw .malformedGroupHeader(line: number) }
        let name = String(line.dropFirst().dropLast())
        guard name.unicodeScalars.allSatisfy({ $0 != "[" && $0 != "]" && $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw .malformedGroupHeader(line: number)
        }
        if let current { groups.append(current) }
        guard !groups.contains(where: { $0.name == name }) else { throw .duplicateGroup(name, line: number) }
        current = KeyFileGroup(name: name, line: number)
    }

    private mutating func addKey(_ line: Substring, number: Int) throws(DesktopEntryError) {
        guard current != nil else { throw .keyOutsideGroup(line: number) }
        guard let equals = line.firstIndex(of: "=") else { throw .missingEqualsSign(line: number) }
        var key = line[..<equals]
        while key.last == " " || key.last == "\t" { key = key.dropLast() }
        let value = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
        guard KeyFileGroup.isValidKey(key) else { throw .invalidKey(String(key), line: number) }
        keyCount += 1
        guard keyCount <= KeyFile.maximumKeyCount else { throw .tooManyKeys(line: number, limit: KeyFile.maximumKeyCount) }
        try current?.add(key: String(key), value: String(value), line: number)
    }
}
