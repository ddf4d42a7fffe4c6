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
}
