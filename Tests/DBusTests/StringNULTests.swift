import Foundation
import Testing
@testable import DBus

@Suite("Strings holding NUL, which D-Bus cannot carry")
struct StringNULTests {
    @Test("containsNUL finds a NUL anywhere, in native, bridged and non-ASCII strings, and nothing else")
    func finds() {
        let cases: [(String, Bool)] = [
            ("", false), ("plain", false), ("\u{0}", true), ("\u{0}start", true), ("end\u{0}", true), ("mid\u{0}dle", true),
            ("é😀\u{2028}", false), ("é\u{0}😀", true), (String(repeating: "a", count: 10_000) + "\u{0}", true),
            (String(repeating: "a", count: 10_000), false),
            (NSString(string: "bridged\u{0}") as String, true), (NSString(string: "bridged") as String, false),
            (String("sub\u{0}string".dropFirst(2)), true),
        ]
        for (text, expected) in cases {
            #expect(text.containsNUL == expected, "\(text.debugDescription)")
            #expect(text.containsNUL == text.utf8.contains(0))
        }
        #expect(throws: DBusError.self) { try DBusNames.validateString("a\u{0}") }
    }
}
