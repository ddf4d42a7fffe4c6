public import Foundation

/// The application server's side of Web Push for tests: encrypts a message for a
/// subscription's keys (RFC 8291) with `Tests/Support/WebPush/webpush_encrypt.py`, an
/// implementation independent of the library's, on python3-cryptography.
public enum WebPushTestSender {
    /// The script, found from this file's place in the package.
    public static var script: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Support/WebPush/webpush_encrypt.py")
    }

    /// Encrypts `plaintext` for `p256dh` and `auth` (base64url); `options` are the script's
    /// (`--salt`, `--sender-private`, `--record-size`, `--records-of`, `--pad`).
    ///
    /// - Returns: the message as the push server receives it.
    /// - Throws: ``MissingToolError`` when python3 or python3-cryptography is missing; a
    ///   ``WebPushTestSenderError`` when the script fails.
    public static func encrypt(_ plaintext: Data, p256dh: String, auth: String, options: [String] = []) async throws -> Data {
        try await ToolRequirement.requirePythonModule("cryptography.hazmat.primitives.ciphers.aead", package: "python3-cryptography")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("webpush-\(UUID().uuidString)")
        try plaintext.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            // Options first, then `--`: a base64url key may begin with "-".
            arguments: ["-c", "exec /usr/bin/python3 \"$0\" \"$@\" < \"$INPUT\"", script.path] + options + ["--", p256dh, auth],
            environment: ProcessInfo.processInfo.environment.merging(["INPUT": input.path]) { $1 })
        let result = try await process.result(timeout: .seconds(60))
        guard result.succeeded else { throw WebPushTestSenderError.failed(result.standardError) }
        let text = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        guard let data = Data(base64Encoded: standard) else { throw WebPushTestSenderError.failed("not base64url: \(text)") }
        return data
    }
}
