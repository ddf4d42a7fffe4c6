public import Foundation

/// A bubblewrap sandbox that shows a process what a Flatpak sandbox shows it: a `/.flatpak-info`
/// file at its root.
///
/// Everything else of the host stays where it is (each top-level folder bound read-write,
/// devices included, each top-level link made again), so the process sees the same files, bus
/// sockets and build products; only the info file is new. The library's engine choice,
/// `notify`'s portal mode and xdg-desktop-portal (which reads `/proc/PID/root/.flatpak-info` of
/// the caller) all take the process for the Flatpak app the file names, as they would in
/// Flatpak itself. The product has no switch that says "sandboxed": this is how the tests say it.
///
/// `bwrap` (Debian package `bubblewrap`) needs unprivileged user namespaces; a missing `bwrap`
/// is a ``MissingToolError``.
public struct FlatpakSandbox: Sendable {
    /// The host file that appears as `/.flatpak-info` in the sandbox.
    public let info: URL

    /// A sandbox whose `/.flatpak-info` is a copy of the key file `contents`, written to
    /// `folder`.
    public init(contents: String, in folder: URL) throws {
        info = folder.appendingPathComponent("flatpak-info")
        try Data(contents.utf8).write(to: info)
    }

    /// The program that runs `executable` with `arguments` in `sandbox`, and its arguments:
    /// `executable` itself when there is no sandbox.
    public static func command(
        _ executable: String, _ arguments: [String], in sandbox: FlatpakSandbox?
    ) throws -> (executable: URL, arguments: [String]) {
        try sandbox?.command(executable, arguments) ?? (URL(fileURLWithPath: executable), arguments)
    }

    /// The program that runs `executable` with `arguments` in the sandbox, and its arguments.
    public func command(_ executable: String, _ arguments: [String]) throws -> (executable: URL, arguments: [String]) {
        let bwrap = try ToolRequirement.require("bwrap")
        var options = ["--unshare-user"]
        let fileManager = FileManager.default
        for name in try fileManager.contentsOfDirectory(atPath: "/").sorted() {
            let path = "/" + name
            switch name {
            case "proc", "dev", ".flatpak-info": continue
            default: break
            }
            if let target = try? fileManager.destinationOfSymbolicLink(atPath: path) {
                options += ["--symlink", target, path]
            } else {
                options += ["--dev-bind", path, path]
            }
        }
        options += ["--proc", "/proc", "--dev-bind", "/dev", "/dev", "--ro-bind", info.path, "/.flatpak-info", "--", executable]
        return (bwrap, options + arguments)
    }
}
