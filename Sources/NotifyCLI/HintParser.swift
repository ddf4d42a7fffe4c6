import DBus
import DesktopNotificationsSupport
import Foundation

/// Reads `-h TYPE:NAME:VALUE` exactly as libnotify's `notify-send` does, with its messages.
///
/// The rules copied from libnotify's `notify-send.c`:
/// - the argument is split at the first two colons (the value may hold more colons);
/// - types are matched without regard to case: `string`, `int`, `double`, `byte`, `boolean`,
///   `variant`;
/// - `int` and `double` need a value starting with a digit; then the longest numeric prefix
///   counts (`12abc` is 12), and `int` wraps to 32 bits as C's cast does;
/// - `byte` takes the numeric prefix (none is 0), hexadecimal after `0x` (libnotify's main
///   branch after 0.8.7; 0.8.1 reads `0x11` as 0), and must be 0...255;
/// - `boolean` is true for `true` (any case) or a number other than 0, false otherwise;
/// - `variant` is GVariant text (`<int64 3>`, `[1, 2]`, `'text'`, `@ai []`, ...), parsed by
///   the `DBus` module's `GVariantText`, within D-Bus's nesting limits and its length limit.
package enum HintParser {
    /// A hint that cannot be used; `message` is notify-send's own wording.
    package struct Failure: Error, CustomStringConvertible {
        let message: String
        package var description: String { message }
    }

    /// Parses one `-h` argument into a hint name and its wire value.
    package static func parse(_ argument: String) throws(Failure) -> (name: String, value: DBusValue) {
        let parts = argument.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else {
            throw Failure(message: "Invalid hint syntax specified. Use TYPE:NAME:VALUE.")
        }
        let (type, name, value) = (parts[0], parts[1], parts[2])
        let unparsable = Failure(message: "Value \"\(value)\" of hint \"\(name)\" could not be parsed as type \"\(type)\".")
        let startsWithDigit = value.utf8.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
        switch type.lowercased() {
        case "string":
            return (name, .string(value))
        case "int":
            guard startsWithDigit else { throw unparsable }
            return (name, .int32(Int32(truncatingIfNeeded: unsignedPrefix(value))))
        case "double":
            guard startsWithDigit else { throw unparsable }
            return (name, .double(value.withCString { strtod($0, nil) }))
        case "byte":
            let number = Int32(truncatingIfNeeded: unsignedPrefix(value, base: value.hasPrefix("0x") ? 16 : 10))
            guard (0...255).contains(number) else { throw unparsable }
            return (name, .byte(UInt8(number)))
        case "boolean":
            if value.lowercased() == "true" { return (name, .boolean(true)) }
            return (name, .boolean(startsWithDigit && unsignedPrefix(value) != 0))
        case "variant":
            guard let parsed = try? GVariantText.parse(value) else { throw unparsable }
            return (name, parsed)
        default:
            throw Failure(message: "Invalid hint type \"\(type)\". Valid types are int, double, string and byte.")
        }
    }

    /// `g_ascii_strtoull(value, NULL, base)`: leading spaces and a sign allowed, saturating
    /// (base 16 also takes a `0x` before the digits).
    private static func unsignedPrefix(_ value: String, base: Int32 = 10) -> UInt64 {
        value.withCString { UInt64(strtoull($0, nil, base)) }
    }
}

/// `g_strcompress`: the C escapes notify-send expands in the body (`\n`, `\t`, `\\`, octal
/// `\101`, ...). A backslash before any other character is dropped; a trailing one ends
/// the text.
///
/// - Returns: the bytes, which the caller must check to be UTF-8 (an octal escape can make
///   any byte).
func compressEscapes(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        index += 1
        guard byte == UInt8(ascii: "\\") else {
            result.append(byte)
            continue
        }
        guard index < bytes.count else { break }
        let next = bytes[index]
        index += 1
        switch next {
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = Int(next - UInt8(ascii: "0"))
            var digits = 1
            while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
                value = value * 8 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                digits += 1
            }
            result.append(UInt8(truncatingIfNeeded: value))
        default: result.append(CEscape.byte(for: next) ?? next)
        }
    }
    return result
}
