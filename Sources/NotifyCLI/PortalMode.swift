import Foundation

/// Whether `notify` sends through the notification portal (`org.freedesktop.portal.Notification`)
/// instead of `org.freedesktop.Notifications`, decided as libnotify decides it, and the app part
/// of the ids libnotify gives the portal.
///
/// libnotify uses the portal when `NOTIFY_FORCE_PORTAL` is set, or in a sandbox: Flatpak (the
/// `name` in `/.flatpak-info`) or Snap (a `snap.NAME.APP…` control group); never when
/// `NOTIFY_IGNORE_PORTAL` is set, and only when the portal answers its `version` property (see
/// ``PortalDelivery``). Only the sandbox's own `/.flatpak-info` counts, as for the library's
/// sandbox check (the tests run `notify` in a bubblewrap sandbox that carries one).
struct PortalMode: Sendable, Equatable {
    /// The middle of libnotify's portal ids: `flatpak.APP` (`flatpak.(null)` when forced outside
    /// a sandbox, as libnotify prints it) or `snap.NAME_APP`.
    let appPart: String

    /// The mode for `environment`, or `nil` when notifications go to the notification server.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> PortalMode? {
        if environment["NOTIFY_IGNORE_PORTAL"] != nil { return nil }
        let snap = snapNames()
        let flatpak = flatpakApp()
        guard environment["NOTIFY_FORCE_PORTAL"] != nil || flatpak != nil || snap != nil else { return nil }
        if let snap {
            return PortalMode(appPart: "snap.\(snap.name)_\(snap.app)")
        }
        return PortalMode(appPart: "flatpak.\(flatpak ?? "(null)")")
    }

    /// The portal id of the notification numbered `number` of the app registered as `appName`:
    /// `libnotify-flatpak.org.example.App-notify-send-1`.
    func notificationID(appName: String, number: UInt32) -> String {
        "libnotify-\(appPart)-\(appName)-\(number)"
    }

    /// The Flatpak app's name: `name` in the `[Runtime]` group of the sandbox's info file when
    /// it has one, else in `[Application]` (libnotify's order).
    static func flatpakApp() -> String? {
        guard let data = FileManager.default.contents(atPath: "/.flatpak-info"), data.count <= 1 << 20 else { return nil }
        let groups = keyFileGroups(String(decoding: data, as: UTF8.self))
        let group = groups["Runtime"] != nil ? "Runtime" : "Application"
        return groups[group]?["name"]
    }

    /// The groups of a GLib key file and their keys (comments and blank lines skipped).
    static func keyFileGroups(_ text: String) -> [String: [String: String]] {
        var groups: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = String(line.dropFirst().dropLast())
                current = name
                groups[name, default: [:]] = groups[name, default: [:]]
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            groups[current, default: [:]][key] = value
        }
        return groups
    }

    /// The snap's name and app from this process's control groups (`…/snap.NAME.APP.UUID.scope`),
    /// as libnotify reads them; `nil` outside a snap.
    static func snapNames(cgroup: String? = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) -> (name: String, app: String)? {
        guard let cgroup else { return nil }
        var name: String?
        var app: String?
        for line in cgroup.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let base = parts[2].split(separator: "/").last else { continue }
            let spaces = base.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard spaces.count >= 2, spaces[0] == "snap" else { continue }
            if name == nil { name = spaces[1] }
            guard spaces.count >= 3 else { continue }
            if spaces[1] == name {
                // The last part is the control group's kind (scope, service).
                app = spaces[2..<(spaces.count - 1)].joined(separator: ".")
                break
            }
        }
        guard let name else { return nil }
        var found = app.flatMap { $0.isEmpty ? nil : $0 } ?? name
        // snapd appends a UUID to the app's name: libnotify drops it.
        if found.utf8.count > 37, let dash = found.index(found.endIndex, offsetBy: -37, limitedBy: found.startIndex),
            found[dash] == "-", UUID(uuidString: String(found[found.index(after: dash)...])) != nil
        {
            found = String(found[..<dash])
        }
        return (name, found)
    }
}
