import Foundation
import UserNotifications

extension FuzzTarget {
    /// `LocalizedFormat` through `NSString.localizedUserNotificationString(forKey:arguments:)`:
    /// a key with no translation is the format itself, as a translation's text would be. The
    /// input is the format, then its arguments, split at NUL; an argument that reads as an
    /// integer is an `Int`, `u` and digits a `UInt`, one that reads as a number a `Double`,
    /// anything else a `String`.
    static let format = FuzzTarget(
        name: "format",
        seeds: [
            ["%@ sent you a message", "Ann"],
            ["%1$@ and %2$@ scored %3$d points", "Ann", "Bob", "42"],
            ["%2$@ before %1$@", "first", "second"],
            ["%d%% done, %.2f left, %x hex, %c", "50", "1.5", "255", "65"],
            ["%*d|%-8s|%+.3e|%#o|%lu|%lld|%hhd|%zd", "4", "7", "name", "3.14159", "8", "u18446744073709551615", "-9", "300", "12"],
            ["%S %n %p %a %G %i %X %C", "wide", "n", "1", "0.5", "2.5", "-3", "4096", "66"],
            ["no directives at all", "unused"],
            ["%5$@ only the fifth", "a"],
        ].map(\.joinedInput),
        tokens: [
            "%", "%@", "%d", "%ld", "%lld", "%qd", "%hhd", "%u", "%x", "%f", "%g", "%e", "%a", "%s", "%S", "%n", "%c", "%C",
            "%p", "%%", "%*d", "%.*f", "%1$@", "%2$d", "%0$@", "%$@", "%-1$@", "%2147483648$@", "%9223372036854775807$d",
            "%99999999999999999999$@", "%999999999d", "%.999999999f", "%'d", "%#x", "%-+ #0'10.5lf", "%*.*f", "\0",
        ].map { Array($0.utf8) },
        nesting: ["%", "%*", "%1$", "%%"].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            let words = bytes.words
            let arguments = words.dropFirst().map(formatArgument)
            _ = NSString.localizedUserNotificationString(forKey: words[0], arguments: arguments)
            return .accepted
        }
    )

    private static func formatArgument(_ word: String) -> Any {
        if let integer = Int(word) { return integer }
        if word.hasPrefix("u"), let unsigned = UInt(word.dropFirst()) { return unsigned }
        if let double = Double(word) { return double }
        return word
    }
}
