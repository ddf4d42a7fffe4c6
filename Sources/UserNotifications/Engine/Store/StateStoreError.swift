import Foundation

/// Why the state store could not read or write its files.
///
/// Each case names the file and, for a failed system call, the `errno` code and its text, so
/// that a person can find and fix the cause (permissions, a full disk, a read-only home).
package enum StateStoreError: Error, LocalizedError, Hashable, Sendable {
    /// A system call on one of the store's files failed.
    case fileSystem(operation: Operation, path: String, code: Int32, message: String)

    /// The value could not be encoded as JSON; nothing was written.
    case encodingFailed(path: String, reason: String)

    /// Another holder, in this process or another, has claimed the state for its lifetime.
    case claimedElsewhere(lockPath: String)

    /// The folder belongs to another user, who could read or replace what is kept there; it
    /// is not used (``PrivateStorage``).
    case ownedByAnotherUser(path: String, owner: UInt32)

    /// A removal met folders nested deeper than ``PrivateStorage/maximumRemovalDepth`` and
    /// left them.
    case nestedTooDeep(path: String)

    /// What the store was doing when a system call failed.
    package enum Operation: String, Hashable, Sendable {
        case createFolder = "create the folder"
        case inspectFolder = "inspect the folder"
        case restrictFolder = "make private (mode 0700) the folder"
        case remove = "remove"
        case listFolder = "list the folder"
        case openLock = "open the lock file"
        case lock = "lock"
        case read = "read"
        case createTemporary = "create a temporary file"
        case writeTemporary = "write the temporary file"
        case syncTemporary = "flush to disk the temporary file"
        case rename = "move into place"
        case syncFolder = "flush to disk the folder"
        case setAside = "set aside the unusable file"
        case removeTemporary = "remove the leftover temporary file"
    }

    package var errorDescription: String? {
        switch self {
        case let .fileSystem(operation, path, code, message):
            "Could not \(operation.rawValue) \(path): \(message) (errno \(code))."
        case let .encodingFailed(path, reason):
            "Could not encode the state for \(path): \(reason)."
        case let .claimedElsewhere(lockPath):
            "The state is in use: \(lockPath) is locked by another notification center, in this "
                + "process or another one. Only one center per application may run at a time."
        case let .ownedByAnotherUser(path, owner):
            "Not using \(path): it belongs to another user (uid \(owner)), who could read or change what is kept there."
        case let .nestedTooDeep(path):
            "Could not remove \(path): it holds folders nested more than \(PrivateStorage.maximumRemovalDepth) deep."
        }
    }
}
