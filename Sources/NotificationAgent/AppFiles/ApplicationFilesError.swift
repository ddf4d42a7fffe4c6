/// Why `notify app-files` wrote nothing.
package enum ApplicationFilesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The app id cannot name a desktop entry, or (D-Bus activatable) is not a well-known bus name.
    case invalidID(String, reason: String)
    /// The program is not an absolute path to an executable file.
    case invalidExec(String, reason: String)
    /// A value holds a control character, which a desktop entry line cannot carry.
    case invalidValue(key: String, String)
    /// A value starts with a combining mark, which a reader of the file takes as part of the
    /// `=` before it.
    case joinsEqualsSign(key: String, String)
    /// A line of a file would be longer than the agent reads (``KeyFile/maximumLineLength`` bytes).
    case lineTooLong(key: String, length: Int, limit: Int)
    /// A file with other content is there already, and overwriting was not asked for.
    case exists(path: String)
    /// A folder could not be made or a file written.
    case writeFailed(path: String, reason: String)

    package var description: String {
        switch self {
        case .invalidID(let id, let reason): "invalid app id \(id.debugDescription): \(reason)"
        case .invalidExec(let path, let reason): "invalid program \(path.debugDescription): \(reason)"
        case .invalidValue(let key, let value): "invalid \(key) \(value.debugDescription): it holds a control character"
        case .joinsEqualsSign(let key, let value):
            "invalid \(key) \(value.debugDescription): it starts with a combining mark, which would join the = before it"
        case .lineTooLong(let key, let length, let limit):
            "the \(key) line would have at least \(length) bytes, more than the \(limit) a desktop entry's line may have"
        case .exists(let path): "\(path) exists with other content (--force replaces it)"
        case .writeFailed(let path, let reason): "could not write \(path): \(reason)"
        }
    }
}
