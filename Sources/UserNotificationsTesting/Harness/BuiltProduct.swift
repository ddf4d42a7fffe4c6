import Foundation

/// The executables this package builds, found next to the running test bundle:
/// `swift build --build-tests` puts every product of a build in the same folder.
public enum BuiltProduct {
    /// The built executable called `name`.
    ///
    /// - Throws: ``HarnessError/fileNotFound(searched:)`` with the paths tried.
    public static func url(named name: String) throws -> URL {
        var folders: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            folders.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HarnessError.fileNotFound(searched: folders.map { $0.appendingPathComponent(name).path })
    }

    /// Copies the executable at `source` to `destination` through `cp`, so that the copy is
    /// written by a process of its own.
    ///
    /// A copy written by this process (`FileManager.copyItem`) can fail to start with
    /// `ETXTBSY` ("Text file busy"): a child that another thread spawns while the copy is open
    /// for writing holds the descriptor until its own exec, and the kernel refuses to execute a
    /// file that is open for writing.
    ///
    /// - Throws: ``HarnessError/launchFailed(command:reason:)`` when `cp` cannot start,
    ///   ``HarnessError/commandFailed(_:)`` when it fails, ``HarnessError/timedOut(operation:after:detail:)``
    ///   when it takes more than 60 seconds.
    public static func copyExecutable(_ source: URL, to destination: URL) async throws {
        let copy = try ChildProcess(executable: URL(fileURLWithPath: "/bin/cp"), arguments: ["--", source.path, destination.path])
        let result = try await copy.result(timeout: .seconds(60))
        guard result.succeeded else { throw HarnessError.commandFailed(result) }
    }

    /// Makes the file at `path`, written by this process, executable for everyone: `install`
    /// writes it again, with mode 755, in a process of its own (see
    /// ``copyExecutable(_:to:)`` for why a program this process wrote can fail to start).
    ///
    /// - Throws: what moving the file aside throws; ``HarnessError`` when `install` fails.
    public static func makeExecutable(atPath path: String) async throws {
        let source = path + ".source"
        try FileManager.default.moveItem(atPath: path, toPath: source)
        defer { try? FileManager.default.removeItem(atPath: source) }
        let install = try ChildProcess(executable: URL(fileURLWithPath: "/usr/bin/install"), arguments: ["-m", "755", "--", source, path])
        let result = try await install.result(timeout: .seconds(60))
        guard result.succeeded else { throw HarnessError.commandFailed(result) }
    }
}
