/// Text from outside (a bus peer, a state file, a payload) made safe to print on a terminal.
///
/// A terminal obeys the control characters it is sent: an escape sequence in a summary can
/// clear the screen, move the cursor over an earlier notification, hide text or set the
/// window title, and a bidirectional override can make `gpj.exe` read as `exe.jpg`. So every
/// such character is printed as something visible instead: C0 controls and DEL in caret
/// notation (`^[` for ESC, `^M` for a carriage return, `^?` for DEL), C1 controls
/// (U+0080 to U+009F) and the bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A to U+202E, U+2066 to U+2069) as `<U+XXXX>`.
public enum TerminalText {
    /// `text` with every control and bidirectional formatting character made visible, line
    /// breaks and tabs included (see ``lines(of:)`` and ``singleLine(_:)`` for text that has
    /// them).
    public static func neutralized(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20:
                output.append("^")
                output.append(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            case 0x7F:
                output.append(contentsOf: "^?".unicodeScalars)
            case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                output.append(contentsOf: "<U+\(hex(scalar.value))>".unicodeScalars)
            default:
                output.append(scalar)
            }
        }
        return String(output)
    }

    /// The lines of `text`, split at every line break (LF, CR, CRLF, VT, FF, NEL, U+2028,
    /// U+2029), tabs shown as spaces, each line ``neutralized(_:)``.
    public static func lines(of text: String) -> [String] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { line in
            neutralized(String(line.map { $0 == "\t" ? " " : $0 }))
        }
    }

    /// `text` on one line, for output whose fields are separated by tabs and records by
    /// newlines: line breaks and tabs become spaces, the rest is ``neutralized(_:)``.
    public static func singleLine(_ text: String) -> String {
        lines(of: text).joined(separator: " ")
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
