import Testing
@testable import NotificationAgent

/// Parses an Exec value as written in a file (string escapes first, then quoting) and expands it.
private func arguments(_ fileValue: String, _ values: ExecCommandLine.FieldValues = .init()) throws -> [String] {
    let entry = try DesktopEntry(parsing: Array("[Desktop Entry]\nExec=\(fileValue)\n".utf8))
    return try #require(try entry.commandLine()).expanded(with: values)
}

@Suite("ExecCommandLine: the Exec key's quoting rules and field codes")
struct ExecCommandLineTests {
    @Test("quoting, as written in the file", arguments: [
        ("app", ["app"]),
        ("/usr/bin/app  --flag   value", ["/usr/bin/app", "--flag", "value"]),
        (#"app "two words""#, ["app", "two words"]),
        (#"app """#, ["app", ""]),
        (#"app "a\\"b""#, ["app", "a\"b"]),
        (#"app "back\\`tick""#, ["app", "back`tick"]),
        // The spec's examples: a literal backslash in a quoted argument is four backslashes in
        // the file, a literal dollar sign is \\$.
        (#"app "a\\\\b""#, ["app", #"a\b"#]),
        (#"app "\\$HOME""#, ["app", "$HOME"]),
        // String escapes come before quoting: \s is a space that separates arguments.
        (#"app a\sb"#, ["app", "a", "b"]),
        (#"app "a\sb""#, ["app", "a b"]),
        (#"app "<>~|&;*?#()'""#, ["app", "<>~|&;*?#()'"]),
        (#"sh -c "echo $HOME""#, ["sh", "-c", "echo $HOME"]),
        ("app 100%%", ["app", "100%"]),
        (#"app "%%f""#, ["app", "%f"]),
        ("env A=b app", ["env", "A=b", "app"]),
    ])
    func quoting(fileValue: String, expected: [String]) throws {
        #expect(try arguments(fileValue) == expected)
    }

    @Test("every field code, with files, URLs, icon, name and location")
    func fieldCodes() throws {
        let values = ExecCommandLine.FieldValues(
            files: ["/tmp/a b", "/tmp/c"], urls: ["https://x/1", "https://x/2"], icon: "org.example.App",
            name: "My App", location: "/usr/share/applications/org.example.App.desktop")
        #expect(try arguments("app %f", values) == ["app", "/tmp/a b"])
        #expect(try arguments("app %F", values) == ["app", "/tmp/a b", "/tmp/c"])
        #expect(try arguments("app %u", values) == ["app", "https://x/1"])
        #expect(try arguments("app %U", values) == ["app", "https://x/1", "https://x/2"])
        #expect(try arguments("app %i", values) == ["app", "--icon", "org.example.App"])
        #expect(try arguments("app %c", values) == ["app", "My App"])
        #expect(try arguments("app --name=%c", values) == ["app", "--name=My App"])
        #expect(try arguments(#"app "%k""#, values) == ["app", "/usr/share/applications/org.example.App.desktop"])
        #expect(try arguments("app %d %D %n %N %v %m x", values) == ["app", "x"])
        #expect(try arguments("app --file=%f%%", values) == ["app", "--file=/tmp/a b%"])
    }

    @Test("with nothing to open: %f %F %u %U and an empty %i vanish, text around a code stays")
    func nothingToOpen() throws {
        #expect(try arguments("app %f %F %u %U %i --x=%u") == ["app", "--x="])
        #expect(try arguments("app %i", .init(icon: "")) == ["app"])
        #expect(try arguments("app %c %k") == ["app"])
    }

    @Test("broken command lines are typed errors with the line", arguments: [
        ("", DesktopEntryError.emptyExec(line: 2)),
        ("   ", .emptyExec(line: 2)),
        (#"app "open"#, .unterminatedQuote(line: 2)),
        (#"app "a"b"#, .textAfterClosingQuote(line: 2)),
        ("app a'b", .reservedCharacterUnquoted("'", line: 2)),
        ("app $HOME", .reservedCharacterUnquoted("$", line: 2)),
        ("app a;b", .reservedCharacterUnquoted(";", line: 2)),
        (#"app a"b""#, .reservedCharacterUnquoted("\"", line: 2)),
        ("app \\\\x", .reservedCharacterUnquoted("\\", line: 2)),
        ("app\\tx", .reservedCharacterUnquoted("\t", line: 2)),
        ("app %x", .invalidFieldCode("%x", line: 2)),
        ("app %", .invalidFieldCode("%", line: 2)),
        ("app 50%", .invalidFieldCode("%", line: 2)),
        ("app %%%", .invalidFieldCode("%", line: 2)),
        ("app --files=%F", .fieldCodeNotAlone("%F", line: 2)),
        ("app x%U", .fieldCodeNotAlone("%U", line: 2)),
        ("app -%i", .fieldCodeNotAlone("%i", line: 2)),
        ("%f", .invalidProgram("%f", line: 2)),
        ("A=b app", .invalidProgram("A=b", line: 2)),
        (#""""#, .invalidProgram("", line: 2)),
    ])
    func brokenCommandLines(fileValue: String, error: DesktopEntryError) {
        #expect(throws: error) { try arguments(fileValue) }
    }
}
