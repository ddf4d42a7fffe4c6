/// Why a notification's `userInfo` cannot be stored. **Linux addition, not Apple API.**
///
/// The center keeps pending and delivered notifications on disk, so `userInfo` must hold
/// property-list values only: strings, integers, finite floating-point numbers, booleans,
/// dates, data, and arrays or string-keyed dictionaries of them, nested at most 30 deep (the
/// `userInfo` dictionary itself the first level; Apple states no bound). Adding a request
/// whose `userInfo` holds anything else fails with this error.
public enum UserInfoStorageError: Error, LocalizedError, Hashable, Sendable {
    /// A dictionary key is not a string. `keyPath` says where, e.g. `userInfo.aps`.
    case keyNotString(keyPath: String, key: String)

    /// A value is not a property-list value. `keyPath` says where, e.g. `userInfo.items[2]`.
    case valueNotStorable(keyPath: String, typeName: String)

    public var errorDescription: String? {
        switch self {
        case .keyNotString(let keyPath, let key):
            "The key \(key) in \(keyPath) is not a string; only string keys can be stored."
        case .valueNotStorable(let keyPath, let typeName):
            "The value at \(keyPath) is a \(typeName), which cannot be stored; "
                + "use strings, numbers, booleans, dates, data, arrays or string-keyed dictionaries."
        }
    }
}
