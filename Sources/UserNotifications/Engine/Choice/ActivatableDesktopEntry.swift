import DesktopNotificationsSupport
import Foundation

/// Whether an app is D-Bus activatable, as the Desktop Entry Specification says it: its desktop
/// entry `<app id>.desktop`, the first found in `applications/` under `XDG_DATA_HOME` (default
/// `~/.local/share`) then each of `XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`),
/// has `DBusActivatable=true` in its `[Desktop Entry]` group. The engine choice asks it before
/// choosing the GNOME engine, whose clicks reach an app only through D-Bus activation.
///
/// Desktop entries are files anyone may install: a file over ``maximumBytes`` counts as not
/// activatable, and ``isActivatable(_:)`` reads any bytes without trapping. Entries in
/// subfolders of `applications/` (ids with `-` for `/`) are not looked at.
package enum ActivatableDesktopEntry {
    /// The longest desktop entry read, in bytes.
    package static let maximumBytes = 256 * 1024

    /// The path of the first `<appID>.desktop` found under the data folders of `environment`,
    /// or `nil`.
    static func path(forAppID appID: String, environment: [String: String]) -> String? {
        guard !appID.isEmpty, !appID.contains("/") else { return nil }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        for folder in [dataHome] + dataDirs {
            let candidate = folder + "/applications/" + appID + ".desktop"
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether the app `appID` has an activatable desktop entry where `environment` says to look.
    static func isActivatable(appID: String, environment: [String: String]) -> Bool {
        guard let path = path(forAppID: appID, environment: environment) else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maximumBytes + 1), data.count <= maximumBytes else {
            SubsystemLog.center.logger.info("a desktop entry over the size read was taken as not D-Bus activatable", metadata: ["path": "\(path)"])
            return false
        }
        return isActivatable(Array(data))
    }

    /// Whether the desktop entry `bytes` says `DBusActivatable=true` in its `[Desktop Entry]`
    /// group (the last such key of the group wins, as in GLib's key file); `false` for bytes
    /// over ``maximumBytes``, and for anything that is not a desktop entry.
    package static func isActivatable(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= maximumBytes else { return false }
        var inMainGroup = false
        var activatable = false
        for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            var line = rawLine[...]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            if first == UInt8(ascii: "[") {
                inMainGroup = line.elementsEqual("[Desktop Entry]".utf8)
                continue
            }
            guard inMainGroup, let equals = line.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let key = line[..<equals].trimmingBlanks()
            guard key.elementsEqual("DBusActivatable".utf8) else { continue }
            activatable = line[line.index(after: equals)...].trimmingBlanks().elementsEqual("true".utf8)
        }
        return activatable
    }
}

extension ArraySlice<UInt8> {
    /// The slice without spaces and tabs at either end.
    fileprivate func trimmingBlanks() -> ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let start = firstIndex(where: { !blank($0) }), let end = lastIndex(where: { !blank($0) }) else { return [] }
        return self[start...end]
    }
}
