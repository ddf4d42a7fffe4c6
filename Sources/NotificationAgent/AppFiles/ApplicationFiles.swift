#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import UserNotifications

/// The files an app needs to be launched for a notification response (`notify app-files`):
/// its desktop entry, `<id>.desktop` with `X-GNOME-UsesNotifications=true` (and
/// `DBusActivatable=true` and `NoDisplay=true` when asked), and for a D-Bus activatable app the
/// session bus's service file, `<id>.service`, which starts its program when its name is called.
///
/// The program and its arguments are written twice, each by its file's rules, so that each
/// reader gets back exactly the words given: in the desktop entry's `Exec` by the Desktop Entry
/// Specification's quoting (``desktopExec(_:)``), which the agent's ``ExecCommandLine`` reads;
/// in the service file's `Exec` by the quoting `dbus-daemon` reads (``serviceExec(_:)``).
package struct ApplicationFiles: Sendable, Hashable {
    /// The app id.
    package let id: String
    /// The absolute path of the app's program.
    package let program: String
    /// The words the program is started with after its path (not field codes: a `%` is a
    /// percent sign).
    package let arguments: [String]
    /// The name shown for the app.
    package let name: String
    /// An icon name or path, or `nil`.
    package let icon: String?
    /// Whether the app is started by D-Bus activation.
    package let isDBusActivatable: Bool
    /// Whether the entry says `NoDisplay=true`: the app stays out of the desktop's menus and
    /// app grids, and its entry still names it, relaunches it and carries its notification
    /// settings.
    package let noDisplay: Bool

    /// Checks and keeps the values.
    ///
    /// - Throws: ``ApplicationFilesError``: an id that `ApplicationIdentity.validate(id:)`
    ///   refuses, or that is not a well-known bus name for a D-Bus activatable app; a program
    ///   that is not an absolute path to an executable file, or that holds `=` (which the
    ///   Desktop Entry Specification does not allow in an Exec program, and the agent refuses
    ///   to launch); a control character in a value or an argument; a name or icon that starts
    ///   with a combining mark; a line longer than the
    ///   agent reads (``KeyFile/maximumLineLength``).
    package init(
        id: String, program: String, arguments: [String] = [], name: String?, icon: String?, isDBusActivatable: Bool,
        noDisplay: Bool = false
    ) throws(ApplicationFilesError) {
        try self.init(
            checkingValuesOf: id, program: program, arguments: arguments, name: name, icon: icon, isDBusActivatable: isDBusActivatable,
            noDisplay: noDisplay)
        var status = stat()
        guard stat(program, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw .invalidExec(program, reason: "it is not a file")
        }
        guard access(program, X_OK) == 0 else { throw .invalidExec(program, reason: "it is not executable") }
    }

    /// Checks and keeps the values as ``init(id:program:arguments:name:icon:isDBusActivatable:noDisplay:)``
    /// does, but does not look at the program's file (for text that names a program of
    /// another machine, as the README's sample does, and for the fuzz target).
    package init(
        checkingValuesOf id: String, program: String, arguments: [String], name: String?, icon: String?, isDBusActivatable: Bool,
        noDisplay: Bool
    ) throws(ApplicationFilesError) {
        do {
            try ApplicationIdentity.validate(id: id)
        } catch {
            throw .invalidID(id, reason: error.reason)
        }
        if isDBusActivatable, ApplicationInterface.objectPath(for: id) == nil {
            throw .invalidID(id, reason: "a D-Bus activatable app's id must be a well-known bus name (two or more names, none starting with a digit)")
        }
        guard program.hasPrefix("/") else { throw .invalidExec(program, reason: "it is not an absolute path") }
        guard !program.unicodeScalars.contains("=") else {
            throw .invalidExec(program, reason: "it holds \"=\", which the Desktop Entry Specification does not allow in an Exec program")
        }
        // Each line is at least as long as what it holds: a bound checked before the quoting.
        let lengths = [("Exec", ([program] + arguments).reduce(0) { $0 + $1.utf8.count + 1 }), ("Name", (name ?? id).utf8.count), ("Icon", icon?.utf8.count ?? 0)]
        for (key, length) in lengths where length > KeyFile.maximumLineLength {
            throw .lineTooLong(key: key, length: length, limit: KeyFile.maximumLineLength)
        }
        let values = [("program", program), ("name", name ?? ""), ("icon", icon ?? "")] + arguments.map { ("argument", $0) }
        for (key, value) in values where value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidValue(key: key, value)
        }
        for (key, value) in [("name", name ?? ""), ("icon", icon ?? "")] where !value.isEmpty && ("=" + value).first != "=" {
            throw .joinsEqualsSign(key: key, value)
        }
        self.id = id
        self.program = program
        self.arguments = arguments
        self.name = name ?? id
        self.icon = icon
        self.isDBusActivatable = isDBusActivatable
        self.noDisplay = noDisplay
        for line in (desktopEntry + (service ?? "")).split(separator: "\n") where line.utf8.count > KeyFile.maximumLineLength {
            throw .lineTooLong(key: String(line.prefix { $0 != "=" }), length: line.utf8.count, limit: KeyFile.maximumLineLength)
        }
    }

    /// `<id>.desktop`'s text.
    package var desktopEntry: String {
        var lines = ["[Desktop Entry]", "Type=Application", "Name=" + Self.escaped(name), "Exec=" + Self.desktopExec([program] + arguments)]
        if let icon, !icon.isEmpty { lines.append("Icon=" + Self.escaped(icon)) }
        if isDBusActivatable { lines.append("DBusActivatable=true") }
        if noDisplay { lines.append("NoDisplay=true") }
        lines.append("X-GNOME-UsesNotifications=true")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `<id>.service`'s text, for a D-Bus activatable app; else `nil`.
    package var service: String? {
        guard isDBusActivatable else { return nil }
        return "[D-BUS Service]\nName=\(id)\nExec=\(Self.serviceExec([program] + arguments))\n"
    }

    /// The value of a desktop entry's `Exec` key, as written in the file, that starts `words`
    /// (the program first): each word quoted by ``execQuoted(_:)``, joined by spaces, then
    /// escaped as a key file string (``escaped(_:)``). The words hold no control character.
    package static func desktopExec(_ words: [String]) -> String {
        escaped(words.map(execQuoted).joined(separator: " "))
    }

    /// The value of a D-Bus service file's `Exec` key, as written in the file, that starts
    /// `words` (the program first).
    ///
    /// `dbus-daemon` reads a service file as a desktop entry (its values' escapes undone: `\\`
    /// is a backslash, `\s` a space, and an escape it does not know, such as `\'`, makes it
    /// ignore the whole file), then splits `Exec` as a shell does, without expanding anything.
    /// So each word is shell-quoted (``shellQuoted(_:)``) and the line escaped as a key file
    /// string: a backslash is written `\\`, and a single quote `'\\''`. The words hold no
    /// control character.
    package static func serviceExec(_ words: [String]) -> String {
        escaped(words.map(shellQuoted).joined(separator: " "))
    }

    /// A key file value: `\` doubled, a leading space as `\s`. Scalar by scalar, as every
    /// step of the writing: a combining mark after a quote or backslash does not hide it.
    static func escaped(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        for (offset, scalar) in value.unicodeScalars.enumerated() {
            switch scalar {
            case "\\": result.append("\\"); result.append("\\")
            case " " where offset == 0: result.append("\\"); result.append("s")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `word` as one argument of an Exec key (before the key file's escapes): as it is when it
    /// holds no reserved character and is not empty, else double-quoted with `"`, `` ` ``, `$`
    /// and `\` escaped; `%` as `%%`.
    static func execQuoted(_ word: String) -> String {
        let reserved = Set(" \t\"'\\><~|&;$*?#()`=".unicodeScalars)
        let quoting = word.isEmpty || word.unicodeScalars.contains(where: reserved.contains)
        var result = String.UnicodeScalarView()
        if quoting { result.append("\"") }
        for scalar in word.unicodeScalars {
            if scalar == "%" { result.append("%") }
            if quoting, "\"`$\\".unicodeScalars.contains(scalar) { result.append("\\") }
            result.append(scalar)
        }
        if quoting { result.append("\"") }
        return String(result)
    }

    /// `word` as one word of a shell-like command line (before the key file's escapes): as it
    /// is when it is made of letters, digits and `/._-+,:@` only, else single-quoted, a single
    /// quote in it written `'\''` (the quote closed, an escaped quote, the quote opened again).
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@".unicodeScalars.contains(scalar))
        }
        guard !plain else { return word }
        var result = String.UnicodeScalarView(["'"])
        for scalar in word.unicodeScalars {
            if scalar == "'" { "'\\''".unicodeScalars.forEach { result.append($0) } } else { result.append(scalar) }
        }
        result.append("'")
        return String(result)
    }
}
