public import Foundation

/// A tool the tests need is not installed.
///
/// Tests never skip because of a missing tool: they fail with this error, whose message
/// names the tool, the Debian package that ships it and the command that installs it.
public struct MissingToolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The program (or module) that is missing, for example `dunst`.
    public let tool: String
    /// The Debian package that provides it, when known.
    public let package: String?
    /// Where the harness looked, for example the `PATH` it searched.
    public let searched: String

    /// Creates the error for `tool`, provided by `package`, after looking in `searched`.
    public init(tool: String, package: String?, searched: String) {
        self.tool = tool
        self.package = package
        self.searched = searched
    }

    /// For example: "required test tool `dunst` is missing (searched PATH=/usr/bin); it is in
    /// the Debian package `dunst`: run `make deps` to install the test dependencies".
    public var description: String {
        let source = package.map { "it is in the Debian package `\($0)`" }
            ?? "no Debian package is known for it"
        return "required test tool `\(tool)` is missing (searched \(searched)); \(source): "
            + "run `make deps` to install the test dependencies"
    }
}

/// Finds the external programs the tests drive, failing loudly when one is missing.
public enum ToolRequirement {
    /// The Debian package that ships each program the harness and the tests use.
    public static let debianPackages: [String: String] = [
        "busctl": "systemd",
        "bwrap": "bubblewrap",
        "dbus-daemon": "dbus-daemon",
        "dbus-monitor": "dbus-bin",
        "dbus-send": "dbus-bin",
        "dunst": "dunst",
        "dunstctl": "dunst",
        "gdbus": "libglib2.0-bin",
        "gjs": "gjs",
        "gnome-shell": "gnome-shell",
        "hyperfine": "hyperfine",
        "kactivitymanagerd": "kactivitymanagerd",
        "at-spi-bus-launcher": "at-spi2-core",
        "kwin_wayland": "kwin-wayland",
        "mako": "mako-notifier",
        "makoctl": "mako-notifier",
        "notify-send": "libnotify-bin",
        "pactl": "pulseaudio-utils",
        "paplay": "pulseaudio-utils",
        "plasmashell": "plasma-workspace",
        "pulseaudio": "pulseaudio",
        "python3": "python3",
        "setpriv": "util-linux",
        "stdbuf": "coreutils",
        "strace": "strace",
        "sway": "sway",
        "swaymsg": "sway",
        "valgrind": "valgrind",
        "xdg-desktop-portal": "xdg-desktop-portal",
        "xdotool": "xdotool",
        "xdpyinfo": "x11-utils",
        "xfce4-notifyd": "xfce4-notifyd",
        "xfconfd": "xfconf",
        "Xvfb": "xvfb",
    ]

    /// Returns the executable named `tool`: an absolute path as given, otherwise the first
    /// match on `searchPath` (by default the process's `PATH`).
    ///
    /// - Throws: ``MissingToolError`` naming the tool and its Debian package when it is
    ///   not there or not executable.
    public static func require(_ tool: String, searchPath: String? = nil) throws -> URL {
        let fileManager = FileManager.default
        if tool.hasPrefix("/") {
            guard fileManager.isExecutableFile(atPath: tool) else {
                throw MissingToolError(
                    tool: tool,
                    package: debianPackages[(tool as NSString).lastPathComponent],
                    searched: tool
                )
            }
            return URL(fileURLWithPath: tool)
        }
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(tool)
            if fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw MissingToolError(tool: tool, package: debianPackages[tool], searched: "PATH=\(path)")
    }

    /// Checks that `interpreter` exists and can import the Python module `module`.
    ///
    /// - Throws: ``MissingToolError`` naming `package` when the import fails.
    public static func requirePythonModule(
        _ module: String,
        package: String,
        interpreter: String = "/usr/bin/python3"
    ) async throws {
        let python = try require(interpreter)
        let check = try ChildProcess(executable: python, arguments: ["-c", "import \(module)"])
        let result = try await check.result(timeout: .seconds(30))
        guard result.succeeded else {
            throw MissingToolError(
                tool: "Python module \(module)",
                package: package,
                searched: "\(interpreter): \(result.standardError.trimmingCharacters(in: .whitespacesAndNewlines))"
            )
        }
    }
}

extension ToolRequirement {
    /// Returns a program that Debian installs outside `PATH`, under a multiarch library
    /// folder: `relativePath` (for example `xfce4/notifyd/xfce4-notifyd`) is looked for in
    /// each `/usr/lib/<triplet>/`, then in `/usr/lib/` and `/usr/libexec/`.
    ///
    /// - Throws: ``MissingToolError`` naming the program's Debian package when none is there.
    public static func requireLibraryProgram(_ relativePath: String) throws -> URL {
        let fileManager = FileManager.default
        let triplets = ((try? fileManager.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
            .filter { $0.contains("-linux-") }
            .sorted()
        let folders = triplets.map { "/usr/lib/\($0)" } + ["/usr/lib", "/usr/libexec"]
        let candidates = folders.map { "\($0)/\(relativePath)" }
        guard let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0) }) else {
            let program = (relativePath as NSString).lastPathComponent
            throw MissingToolError(tool: program, package: debianPackages[program], searched: candidates.joined(separator: ", "))
        }
        return URL(fileURLWithPath: found)
    }
}
