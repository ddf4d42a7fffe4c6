/// Reads an app id out of a systemd unit name by systemd's XDG convention
/// ("Desktop Environments", systemd.io), the way xdg-desktop-portal reads it for host apps:
///
/// - `app[-<launcher>]-<ID>-<RANDOM>.scope` (and `.slice`), `<RANDOM>` alphanumeric;
/// - `app[-<launcher>]-<ID>[@<RANDOM>].service`, and the older `-autostart.service`;
///
/// then `\xNN` escapes undone (`\x2d` is a dash of the id). `<launcher>` is alphanumeric
/// (`gnome`, `KDE`, `flatpak`, ...). The result must look like an app id, a reverse-DNS name
/// with at least one dot: `app-glib-spice\x2dvdagent-1839.scope` names no app.
package enum SystemdUnitName {
    /// The app id in `unit`, or `nil` when the unit follows no form above.
    package static func applicationID(fromUnit unit: String) -> String? {
        guard unit.hasPrefix("app-") else { return nil }
        let body = unit.dropFirst(4)
        let core: Substring
        if let stem = stripping(".scope", from: body) ?? stripping(".slice", from: body) {
            guard let dash = stem.lastIndex(of: "-"), isAlphanumeric(stem[stem.index(after: dash)...]) else { return nil }
            core = stem[..<dash]
        } else if let stem = stripping(".service", from: body) {
            if let at = stem.lastIndex(of: "@"), isAlphanumeric(stem[stem.index(after: at)...]) {
                core = stem[..<at]
            } else {
                core = stripping("-autostart", from: stem) ?? stem
            }
        } else {
            return nil
        }
        guard let id = unescape(withoutLauncher(core)), ApplicationID.isValid(id) else { return nil }
        return id
    }

    /// `core` without a leading `<launcher>-`, when one is there and leaves an id.
    private static func withoutLauncher(_ core: Substring) -> Substring {
        guard let dash = core.firstIndex(of: "-"), dash > core.startIndex, isAlphanumeric(core[..<dash]) else { return core }
        let rest = core[core.index(after: dash)...]
        return rest.isEmpty ? core : rest
    }

    private static func stripping(_ suffix: String, from text: Substring) -> Substring? {
        text.hasSuffix(suffix) ? text.dropLast(suffix.count) : nil
    }

    private static func isAlphanumeric(_ text: Substring) -> Bool {
        text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// `text` with systemd's `\xNN` escapes undone; `nil` for a malformed escape or bytes
    /// that are not UTF-8.
    private static func unescape(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            guard utf8.popFirst() == UInt8(ascii: "x"), utf8.count >= 2,
                  let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            utf8 = utf8.dropFirst(2)
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
