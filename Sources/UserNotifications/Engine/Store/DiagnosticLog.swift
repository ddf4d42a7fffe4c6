import Foundation

/// Where failures that no caller can be told of are reported: standard error, one line each,
/// prefixed `UserNotifications:`. A save that runs after the operation that asked for it has
/// returned, a removal of stored attachments, a state file set aside: each is reported here.
package enum DiagnosticLog {
    /// Writes `message` as one line, its control characters (from paths, ids, file content)
    /// shown as `?`, so that nothing reaches the terminal as a command.
    package static func report(_ message: String) {
        let printable = String(String.UnicodeScalarView(message.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? "?" : scalar
        }))
        FileHandle.standardError.write(Data("UserNotifications: \(printable)\n".utf8))
    }
}
