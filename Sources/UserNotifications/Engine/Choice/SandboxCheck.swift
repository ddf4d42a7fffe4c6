import Foundation

/// Whether the app runs in a sandbox that lets it reach notifications only through the portal:
/// Flatpak (its `/.flatpak-info` file) or Snap (`$SNAP` set).
///
/// The Flatpak check reads `/.flatpak-info` and nothing else: no variable points it at another
/// file. The tests run the processes they mean to be sandboxed in a bubblewrap sandbox that
/// carries the file (the test kit's `FlatpakSandbox`), as Flatpak does.
enum SandboxCheck {
    /// The file Flatpak puts at the root of every sandbox.
    static let flatpakInfoPath = "/.flatpak-info"

    /// - Parameter flatpakInfo: where the Flatpak check looks; another path only in unit tests.
    static func isSandboxed(environment: [String: String], flatpakInfo: String = flatpakInfoPath) -> Bool {
        if let snap = environment["SNAP"], !snap.isEmpty { return true }
        return FileManager.default.fileExists(atPath: flatpakInfo)
    }
}
