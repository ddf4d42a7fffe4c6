extension KeyFileGroup {
    /// The value of the plain `key` with the spec's escapes undone (`\s` space, `\n` newline,
    /// `\t` tab, `\r` carriage return, `\\` backslash), or `nil` when the group lacks it.
    ///
    /// Any other backslash sequence is kept as written: the Exec key's quoting rules give
    /// `\"`, `` \` `` and `\$` their meaning after this step, and keeping them is what lets
    /// them reach those rules.
    package func string(_ key: String) -> String? {
        entries[key].map { Self.unescape($0.value, splittingAt: nil)[0] }
    }

    /// The `;`-separated list of the plain `key` (`\;` is a semicolon inside an element; the
    /// last `;` is optional), each element unescaped as ``string(_:)`` does.
    package func strings(_ key: String) -> [String]? {
        guard let value = entries[key]?.value else { return nil }
        var elements = Self.unescape(value, splittingAt: ";")
        if elements.last == "" { elements.removeLast() }
        return elements
    }

    /// The boolean of the plain `key`, or `nil` when the group lacks it.
    ///
    /// - Throws: ``DesktopEntryError/invalidBoolean(key:value:line:)`` for anything other than
    ///   `true` or `false`.
    package func boolean(_ key: String) throws(DesktopEntryError) -> Bool? {
        guard let entry = entries[key] else { return nil }
        switch entry.value {
        case "true": return true
        case "false": return false
        default: throw .invalidBoolean(key: key, value: entry.value, line: entry.line)
        }
    }

    /// The line of the plain `key`, or `nil` when the group lacks it.
    package func line(of key: String) -> Int? {
        entries[key]?.line
    }

    /// The string type's escapes undone, scalar by scalar (a backslash followed by a combining
    /// mark is still a backslash), the value split at unescaped `separator`s when one is given.
    private static func unescape(_ raw: String, splittingAt separator: Character?) -> [String] {
        let separator = separator?.unicodeScalars.first
        var elements: [String] = []
        var current = String.UnicodeScalarView()
        var iterator = raw.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if scalar == separator {
                elements.append(String(current))
                current = String.UnicodeScalarView()
                continue
            }
            guard scalar == "\\", let next = iterator.next() else {
                current.append(scalar)
                continue
            }
            switch next {
            case "s": current.append(" ")
            case "n": current.append("\n")
            case "t": current.append("\t")
            case "r": current.append("\r")
            case "\\": current.append("\\")
            case separator: current.append(next)
            default: current.append("\\"); current.append(next)
            }
        }
        elements.append(String(current))
        return elements
    }
}
