/// The spec's naming rules, checked in Swift so that no input can reach a libdbus assertion.
public enum DBusNames {
    /// Whether `path` is a valid object path.
    public static func isValidObjectPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        guard bytes.last != UInt8(ascii: "/") else { return false }
        var previousWasSlash = true
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
            } else {
                guard isNameCharacter(byte) else { return false }
                previousWasSlash = false
            }
        }
        return true
    }

    /// Whether `name` is a valid interface name (also the rule for error names).
    public static func isValidInterfaceName(_ name: String) -> Bool {
        dottedName(name, allowDigitFirst: false, allowHyphen: false)
    }

    /// Whether `name` is a valid unique (`:1.42`) or well-known (`org.example.App`) bus name.
    public static func isValidBusName(_ name: String) -> Bool {
        if name.utf8.first == UInt8(ascii: ":") {
            return dottedName(String(name.dropFirst()), allowDigitFirst: true, allowHyphen: true, maxLength: 254)
        }
        return dottedName(name, allowDigitFirst: false, allowHyphen: true)
    }

    /// Whether `name` is a valid member (method or signal) name.
    public static func isValidMemberName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 255, !isDigit(bytes[0]) else { return false }
        return bytes.allSatisfy(isNameCharacter)
    }

    /// Throws unless `text` can travel as a D-Bus string: no NUL character.
    ///
    /// A Swift `String` is always well-formed Unicode, so invalid UTF-8 cannot reach this point;
    /// bytes from outside (command-line arguments, files) must be decoded with validation first.
    public static func validateString(_ text: String) throws(DBusError) {
        if text.containsNUL {
            throw .invalidString(text, reason: "contains a NUL character")
        }
    }

    private static func dottedName(
        _ name: String, allowDigitFirst: Bool, allowHyphen: Bool, maxLength: Int = 255
    ) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        var elements = 0
        var elementStart = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if elementStart { return false }
                elementStart = true
                continue
            }
            let hyphenOK = allowHyphen && byte == UInt8(ascii: "-")
            guard isNameCharacter(byte) || hyphenOK else { return false }
            if elementStart {
                if isDigit(byte) && !allowDigitFirst { return false }
                elements += 1
                elementStart = false
            }
        }
        return !elementStart && elements >= 2
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isNameCharacter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || isDigit(byte) || byte == UInt8(ascii: "_")
    }
}
