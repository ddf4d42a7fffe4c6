import NotificationAgent

extension FuzzTarget {
    /// `notify app-files`'s Exec lines (words split at NUL, the program first): whatever
    /// ``ApplicationFiles`` accepts, the desktop entry it writes must parse, and its Exec read
    /// back by the agent's ``ExecCommandLine`` to exactly the words given; the service file's
    /// Exec must use no key-file escape but `\\`, the only one it writes (`dbus-daemon` ignores a
    /// file with an escape it does not know).
    static let appFilesExec = FuzzTarget(
        name: "app-files-exec",
        seeds: [
            ["/usr/bin/app"],
            ["/opt/My App/bin/app", "--relaunched", "", "it's", #"a\sb"#, "%u", "%%", "$HOME", "`x`", #""q""#, "a=b", "  lead", "é"],
            [#"/tmp/it's \s "odd" %f"#, "#", "~", "*?", "(x)", "<y>", "a|b&c;d"],
        ].map(\.joinedInput),
        tokens: [
            "/", " ", "\t", "\n", "\\", "\\s", "\\\\", "'", "\"", "`", "$", "%", "%%", "%f", "%U", "=", "#", ";", "~", "*", "?", "(", ")",
            "<", ">", "|", "&", "-", "--", "é", "\u{7F}", "\u{85}",
        ].map { Array($0.utf8) } + [[0], [0xFF]],
        nesting: [[0], Array("\\".utf8), Array("'".utf8), Array("\"".utf8)],
        run: { bytes throws(FuzzFinding) in
            let words = bytes.words
            let shown = String(String(describing: words).prefix(400))
            guard let program = words.first else { return .refused }
            let files: ApplicationFiles
            do {
                files = try ApplicationFiles(
                    checkingValuesOf: "org.example.Fuzz", program: program, arguments: Array(words.dropFirst()), name: nil, icon: nil,
                    isDBusActivatable: true, noDisplay: false)
            } catch {
                return .refused
            }
            let read: [String]?
            do {
                read = try DesktopEntry(parsing: Array(files.desktopEntry.utf8)).commandLine()?.expanded(with: .init(files: ["/f"], name: "n"))
            } catch {
                throw FuzzFinding(description: "the entry written for \(shown) does not parse: \(error)")
            }
            guard read == words else {
                throw FuzzFinding(description: "the entry written for \(shown) reads back as \(String(String(describing: read).prefix(400)))")
            }
            let service = ApplicationFiles.serviceExec(words)
            var scalars = service.unicodeScalars.makeIterator()
            var onlyDoubled = true
            while let scalar = scalars.next() {
                if scalar == "\\", scalars.next() != "\\" { onlyDoubled = false }
            }
            guard onlyDoubled else {
                throw FuzzFinding(description: "the service file's Exec for \(shown) has an escape other than \\\\: \(service.prefix(400))")
            }
            return .accepted
        }
    )
}
