/// Why the app's remote notification record (`push.json`) cannot be read or kept.
package enum RemotePushStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file exists but cannot be read.
    case unreadable(path: String, detail: String)
    /// The file is not a record: too large, not JSON, or keys that do not decode.
    case corrupt(path: String, detail: String)
    /// The file cannot be written.
    case unwritable(path: String, detail: String)

    package var description: String {
        switch self {
        case .unreadable(let path, let detail): "cannot read \(path): \(detail)"
        case .corrupt(let path, let detail): "\(path) is not a push record: \(detail)"
        case .unwritable(let path, let detail): "cannot write \(path): \(detail)"
        }
    }
}
