/// What the agent reads of an application's desktop entry (`<app-id>.desktop`): how to show
/// the app (``name``, ``icon``) and how to start it (``isDBusActivatable``, ``exec``).
///
/// Read from the `[Desktop Entry]` group by the Desktop Entry Specification 1.5. Localized
/// values (`Name[de]`) are ignored for the plain key, and so are `X-` keys and every key the
/// agent does not use. `Exec` is kept as written; ``commandLine()`` applies its quoting rules.
package struct DesktopEntry: Sendable, Hashable {
    /// `Type`: `Application`, `Link` or `Directory` (only an application can be launched).
    package var type: String?
    /// `Name`: the application's name, as people see it.
    package var name: String?
    /// `Icon`: a themed icon name or an absolute path.
    package var icon: String?
    /// `Exec`: the command line, escapes of the string type undone, quoting kept.
    package var exec: String?
    /// The line of `Exec`, for errors about it.
    package var execLine: Int?
    /// `DBusActivatable`: the app is started by D-Bus activation of its app id and takes
    /// `org.freedesktop.Application` calls.
    package var isDBusActivatable: Bool
    /// `Hidden`: the entry counts as deleted, and hides entries of the same id further down
    /// the search path.
    package var isHidden: Bool
    /// `NoDisplay`: the app exists but is not shown in menus.
    package var isNoDisplay: Bool

    /// Parses a desktop entry file.
    ///
    /// - Throws: ``DesktopEntryError``: a format error or bound of ``KeyFile``, a boolean key
    ///   that is not `true` or `false`, or ``DesktopEntryError/missingDesktopEntryGroup``.
    package init(parsing bytes: [UInt8]) throws(DesktopEntryError) {
        let file = try KeyFile(parsing: bytes)
        guard let group = file.group("Desktop Entry") else { throw .missingDesktopEntryGroup }
        type = group.string("Type")
        name = group.string("Name")
        icon = group.string("Icon")
        exec = group.string("Exec")
        execLine = group.line(of: "Exec")
        isDBusActivatable = try group.boolean("DBusActivatable") ?? false
        isHidden = try group.boolean("Hidden") ?? false
        isNoDisplay = try group.boolean("NoDisplay") ?? false
    }

    /// ``exec`` split into the program and its arguments by the spec's quoting rules, field
    /// codes not yet expanded; `nil` when the entry has no `Exec`.
    ///
    /// - Throws: ``DesktopEntryError`` for a command line that breaks the rules.
    package func commandLine() throws(DesktopEntryError) -> ExecCommandLine? {
        guard let exec else { return nil }
        return try ExecCommandLine(parsing: exec, line: execLine ?? 0)
    }
}
