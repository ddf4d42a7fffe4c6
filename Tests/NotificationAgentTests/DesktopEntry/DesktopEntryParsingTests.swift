import Testing
@testable import NotificationAgent

private func parse(_ text: String) throws(DesktopEntryError) -> DesktopEntry {
    try DesktopEntry(parsing: Array(text.utf8))
}

@Suite("DesktopEntry: the keys the agent reads, by the Desktop Entry Specification 1.5")
struct DesktopEntryParsingTests {
    @Test("reads Type, Name, Icon, Exec, DBusActivatable, Hidden and NoDisplay; ignores localized, X- and other keys")
    func readsTheAgentsKeys() throws {
        let entry = try parse("""
            # A comment before the group
            [Desktop Entry]
            Type=Application
            Name[de]=Erinnerungen
            Name = Reminders
            Icon=org.example.Reminders
            Exec=reminders --open %U
            DBusActivatable=true
            NoDisplay=false
            X-GNOME-UsesNotifications=true
            Categories=Utility;

            [Desktop Action new]
            Name=New reminder
            Exec=reminders --new
            """)
        #expect(entry.type == "Application")
        #expect(entry.name == "Reminders")
        #expect(entry.icon == "org.example.Reminders")
        #expect(entry.exec == "reminders --open %U")
        #expect(entry.execLine == 7)
        #expect(entry.isDBusActivatable)
        #expect(!entry.isHidden)
        #expect(!entry.isNoDisplay)
    }

    @Test("booleans default to false and accept only true and false")
    func booleans() throws {
        let plain = try parse("[Desktop Entry]\nType=Application\nHidden=true\n")
        #expect(plain.isHidden && !plain.isDBusActivatable && !plain.isNoDisplay)
        #expect(throws: DesktopEntryError.invalidBoolean(key: "NoDisplay", value: "1", line: 3)) {
            try parse("[Desktop Entry]\nType=Application\nNoDisplay=1\n")
        }
    }

    @Test("string escapes: \\s \\n \\t \\r \\\\; other backslash sequences are kept for the Exec rules")
    func escapes() throws {
        let entry = try parse(#"""
            [Desktop Entry]
            Name=\sa\nb\tc\rd\\e\$f\"g\
            """#)
        #expect(entry.name == " a\nb\tc\rd\\e\\$f\\\"g\\")
    }

    @Test("lists split at ; with \\; inside an element and the last ; optional")
    func lists() throws {
        let file = try KeyFile(parsing: Array(#"[G]\#nA=one;two\;three;;four;\#nB=x\#nC=\#n"#.utf8))
        let group = try #require(file.group("G"))
        #expect(group.strings("A") == ["one", "two;three", "", "four"])
        #expect(group.strings("B") == ["x"])
        #expect(group.strings("C") == [])
        #expect(group.strings("D") == nil)
    }

    @Test("CRLF line ends and leading blanks are tolerated")
    func lenientLineEnds() throws {
        let entry = try parse("[Desktop Entry]\r\n  Name=App\r\n")
        #expect(entry.name == "App")
    }

    @Test("format errors are typed and name their line", arguments: [
        ("Name=x\n[Desktop Entry]\n", DesktopEntryError.keyOutsideGroup(line: 1)),
        ("[Desktop Entry\n", .malformedGroupHeader(line: 1)),
        ("[]\n", .malformedGroupHeader(line: 1)),
        ("[A]\n[A]\n", .duplicateGroup("A", line: 2)),
        ("[Desktop Entry]\nName\n", .missingEqualsSign(line: 2)),
        ("[Desktop Entry]\nNa_me=x\n", .invalidKey("Na_me", line: 2)),
        ("[Desktop Entry]\nName[=x\n", .invalidKey("Name[", line: 2)),
        ("[Desktop Entry]\nName=a\nName=b\n", .duplicateKey("Name", group: "Desktop Entry", line: 3)),
        ("[Other]\nName=a\n", .missingDesktopEntryGroup),
    ])
    func formatErrors(text: String, error: DesktopEntryError) {
        #expect(throws: error) { try parse(text) }
    }

    @Test("hostile bytes: NUL, invalid UTF-8, a huge line, a huge file, too many keys; typed errors, no trap")
    func hostileInput() {
        #expect(throws: DesktopEntryError.nulByte(line: 2)) {
            try DesktopEntry(parsing: Array("[Desktop Entry]\nName=a".utf8) + [0] + Array("b\n".utf8))
        }
        #expect(throws: DesktopEntryError.invalidUTF8(line: 2)) {
            try DesktopEntry(parsing: Array("[Desktop Entry]\nName=".utf8) + [0xC3, 0x28, 0xFF])
        }
        let longLine = "[Desktop Entry]\nName=" + String(repeating: "x", count: 5000)
        #expect(throws: DesktopEntryError.lineTooLong(line: 2, length: 5005, limit: 4096)) { try parse(longLine) }
        let huge = [UInt8](repeating: UInt8(ascii: "#"), count: 70_000)
        #expect(throws: DesktopEntryError.fileTooLarge(size: 70_000, limit: 65_536)) { try DesktopEntry(parsing: huge) }
        let manyKeys = "[Desktop Entry]\n" + (0...1000).map { "K\($0)=v\n" }.joined()
        #expect(throws: DesktopEntryError.tooManyKeys(line: 1002, limit: 1000)) { try parse(manyKeys) }
    }

    @Test("every error says what to fix")
    func errorDescriptions() {
        let error = DesktopEntryError.invalidBoolean(key: "Hidden", value: "yes", line: 4)
        #expect(error.description == "line 4: Hidden is \"yes\"; a boolean is true or false")
    }
}
