#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UserNotifications

/// The files an app needs to be launched for a notification response (`notify app-files`):
/// its desktop entry, `<id>.desktop` with `X-GNOME-UsesNotifications=true` (and
/// `DBusActivatable=true` when asked), and for a D-Bus activatable app the session bus's
/// service file, `<id>.service`, which starts its program when its name is called.
package struct ApplicationFiles: Sendable, Hashable {
    /// The app id.
    package let id: String
    /// The absolute path of the app's program.
    package let program: String
    /// The name shown for the app.
    package let name: String
    /// An icon name or path, or `nil`.
    package let icon: String?
    /// Whether the app is started by D-Bus activation.
    package let isDBusActivatable: Bool

    /// Checks and keeps the values.
    ///
    /// - Throws: ``ApplicationFilesError``: an id that `ApplicationIdentity.validate(id:)`
    ///   refuses, or that is not a well-known bus name for a D-Bus activatable app; a program
    ///   that is not an absolute path to an executable file; a control character in a value.
    package init(id: String, program: String, name: String?, icon: String?, isDBusActivatable: Bool) throws(ApplicationFilesError) {
        do {
            try ApplicationIdentity.validate(id: id)
        } catch {
            throw .invalidID(id, reason: error.reason)
        }
        if isDBusActivatable, ApplicationInterface.objectPath(for: id) == nil {
            throw .invalidID(id, reason: "a D-Bus activatable app's id must be a well-known bus name (two or more names, none starting with a digit)")
        }
        guard program.hasPrefix("/") else { throw .invalidExec(program, reason: "it is not an absolute path") }
        var status = stat()
        guard stat(program, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .invalidExec(program, reason: "it is not a file")
        }
        guard access(program, X_OK) == 0 else { throw .invalidExec(program, reason: "it is not executable") }
        for (key, value) in [("program", program), ("name", name ?? ""), ("icon", icon ?? "")]
        where value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidValue(key: key, value)
        }
        self.id = id
        self.program = program
        self.name = name ?? id
        self.icon = icon
        self.isDBusActivatable = isDBusActivatable
    }

    /// `<id>.desktop`'s text.
    package var desktopEntry: String {
        var lines = ["[Desktop Entry]", "Type=Application", "Name=" + Self.escaped(name), "Exec=" + Self.escaped(Self.execQuoted(program))]
        if let icon, !icon.isEmpty { lines.append("Icon=" + Self.escaped(icon)) }
        if isDBusActivatable { lines.append("DBusActivatable=true") }
        lines.append("X-GNOME-UsesNotifications=true")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `<id>.service`'s text, for a D-Bus activatable app; else `nil`.
    package var service: String? {
        guard isDBusActivatable else { return nil }
        return "[D-BUS Service]\nName=\(id)\nExec=\(Self.shellQuoted(program))\n"
    }

    /// A key file value: `\` doubled, a leading space as `\s`.
    static func escaped(_ value: String) -> String {
        let doubled = value.replacingOccurrences(of: "\\", with: "\\\\")
        return doubled.hasPrefix(" ") ? "\\s" + doubled.dropFirst() : doubled
    }

    /// `path` as one argument of an Exec key: as it is when it holds no reserved character,
    /// else double-quoted with `"`, `` ` ``, `$` and `\` escaped; `%` as `%%`.
    static func execQuoted(_ path: String) -> String {
        let reserved: Set<Character> = [" ", "\t", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`", "="]
        let percent = path.replacingOccurrences(of: "%", with: "%%")
        guard percent.contains(where: reserved.contains) else { return percent }
        var quoted = "\""
        for character in percent {
            if "\"`$\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// `path` as one argument of a D-Bus service file's Exec, which the bus splits as a shell
    /// does: single-quoted when it holds anything but letters, digits and `/._-+,:@`.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@".unicodeScalars.contains(scalar))
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
