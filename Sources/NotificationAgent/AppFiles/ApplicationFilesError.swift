/// Why `notify app-files` wrote nothing.
package enum ApplicationFilesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app id cannot name a desktop entry, or (D-Bus activatable) is not a well-known bus name.
    case invalidID(String, reason: String)
    /// The program is not an absolute path to an executable file.
    case invalidExec(String, reason: String)
    /// A value holds a control character, which a desktop entry line cannot carry.
    case invalidValue(key: String, String)
    /// A file with other content is there already, and overwriting was not asked for.
    case exists(path: String)
    /// A folder could not be made or a file written.
    case writeFailed(path: String, reason: String)

    package var description: String {
        switch self {
        case .invalidID(let id, let reason): "invalid app id \(id.debugDescription): \(reason)"
        case .invalidExec(let path, let reason): "invalid program \(path.debugDescription): \(reason)"
        case .invalidValue(let key, let value): "invalid \(key) \(value.debugDescription): it holds a control character"
        case .exists(let path): "\(path) exists with other content (--force replaces it)"
        case .writeFailed(let path, let reason): "could not write \(path): \(reason)"
        }
    }
}
