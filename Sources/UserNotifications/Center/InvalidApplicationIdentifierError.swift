import Foundation

/// Why an ``ApplicationIdentity/id`` cannot name the app's state folder. A Linux addition.
public struct InvalidApplicationIdentifierError: Error, LocalizedError, Hashable, Sendable {
    /// The id as given.
    public let id: String
    /// What is wrong with it.
    public let reason: String

    /// Describes the id (quoted, its control characters escaped) and what is wrong with it.
    public var errorDescription: String? {
        "The application id \(id.debugDescription) cannot name a state folder: \(reason)."
    }
}
