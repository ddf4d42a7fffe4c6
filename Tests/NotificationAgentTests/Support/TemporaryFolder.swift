import Foundation
import UserNotificationsTesting

/// A folder under the temporary directory for one test, removed (with what is in it) when the
/// value goes away: a suite that keeps one in a stored property leaves nothing behind.
final class TemporaryFolder: Sendable {
    let path: String

    /// The folder's URL.
    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// A folder named `prefix` and a fresh UUID, made now, or left for the code under test to
    /// make when `create` is false (an agent's state root, whose making is part of what runs).
    init(prefix: String = "NotificationAgentTests", create: Bool = true) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        if create { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `relativePath`, making the folders on the way.
    @discardableResult
    func write(_ text: String, to relativePath: String) throws -> String {
        let file = "\(path)/\(relativePath)"
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Writes the program `text` to `relativePath` and makes it executable in a process of its
    /// own (``BuiltProduct/makeExecutable(atPath:)``): a program this process wrote and made
    /// executable itself can fail to start with `ETXTBSY` ("Text file busy") when a child that
    /// another test's thread spawns holds the written descriptor.
    @discardableResult
    func writeExecutable(_ text: String, to relativePath: String) async throws -> String {
        let file = try write(text, to: relativePath)
        try await BuiltProduct.makeExecutable(atPath: file)
        return file
    }
}
