import Foundation

/// Whether the app runs in a sandbox that lets it reach notifications only through the portal:
/// Flatpak (its `/.flatpak-info` file) or Snap (`$SNAP` set).
///
/// `DESKTOPNOTIFICATIONS_SANDBOX_INFO=PATH` points the Flatpak check at another file, so that a
/// test or an example can say "sandboxed" (the file exists) or "not sandboxed" (it does not)
/// without a real sandbox.
enum SandboxCheck {
    /// The environment variable that replaces `/.flatpak-info` in the check.
    static let infoFileVariable = "DESKTOPNOTIFICATIONS_SANDBOX_INFO"
    /// The file Flatpak puts at the root of every sandbox.
    static let flatpakInfoPath = "/.flatpak-info"

    static func isSandboxed(environment: [String: String]) -> Bool {
        if let snap = environment["SNAP"], !snap.isEmpty { return true }
        let path = environment[infoFileVariable].flatMap { $0.isEmpty ? nil : $0 } ?? flatpakInfoPath
        return FileManager.default.fileExists(atPath: path)
    }
}
