import NotificationAgent

extension FuzzTarget {
    /// `DesktopEntry(parsing:)` and its Exec key: a desktop entry as anyone may install one,
    /// then the command line split by the quoting rules and expanded. An accepted command line
    /// must expand to a program that is not empty and holds no `=`.
    static let desktopEntry = FuzzTarget(
        name: "desktop-entry",
        seeds: [
            "[Desktop Entry]\nType=Application\nName=App\nExec=app\n",
            "# comment\n[Desktop Entry]\nType=Application\nName[de]=Programm\nName=Program\nIcon=org.example.App\nExec=/usr/bin/app --open %U\nDBusActivatable=true\nNoDisplay=false\nHidden=false\nX-Vendor-Key=1\nCategories=Utility;Office;\n\n[Desktop Action new]\nName=New\nExec=app --new\n",
            "[Desktop Entry]\nType=Application\nName=\\sSpaced\\tName\\n\nExec=sh -c \"echo \\\\\"a\\\\$b\\\\\\\\c\\\\`\" x %f %F %i %c %k %%\n",
            "[Desktop Entry]\r\nType=Application\r\nExec=\"/opt/My App/bin/app\" \"\" %u --name=%c %d %D %n %N %v %m\r\n",
            "[Desktop Entry]\nType=Link\nURL=https://example.org\nName=Link\n",
        ].map { Array($0.utf8) },
        tokens: [
            "[", "]", "=", "\n", "\r\n", "#", ";", "\\;", "\\s", "\\n", "\\t", "\\r", "\\\\", "\\", "\"", "\\\"", "'", "$", "`",
            "%", "%%", "%f", "%F", "%u", "%U", "%i", "%c", "%k", "%d", "%z", " ", "\t", "[Desktop Entry]\n", "Exec=",
            "Name=", "Name[de]=", "DBusActivatable=", "true", "false", "Hidden=", "Type=Application\n", "\u{0}", "\u{FF}",
        ].map { Array($0.utf8) } + [[0xC3], [0xFF, 0xFE], [0xED, 0xA0, 0x80]],
        nesting: ["[", "\"", "\\\\", "%%", "Exec=\""].map { Array($0.utf8) },
        run: { bytes throws(FuzzFinding) in
            let entry: DesktopEntry
            let commandLine: ExecCommandLine?
            do {
                entry = try DesktopEntry(parsing: bytes)
                commandLine = try entry.commandLine()
            } catch {
                return .refused
            }
            guard let commandLine else { return .accepted }
            let values = ExecCommandLine.FieldValues(
                files: ["/tmp/a b"], urls: ["https://x/y"], icon: entry.icon, name: entry.name, location: "/tmp/x.desktop")
            for arguments in [commandLine.expanded(with: values), commandLine.expanded(with: .init())] {
                guard let program = arguments.first, !program.isEmpty, !program.contains("=") else {
                    throw FuzzFinding(description: "accepted Exec \(String(describing: entry.exec)) expands to \(arguments)")
                }
            }
            return .accepted
        }
    )
}
