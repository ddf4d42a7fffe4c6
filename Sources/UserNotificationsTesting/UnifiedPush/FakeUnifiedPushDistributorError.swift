/// Why ``FakeUnifiedPushDistributor`` cannot do what a test asked.
public enum FakeUnifiedPushDistributorError: Error, Sendable, Hashable {
    /// Another connection owns the distributor's name.
    case nameTaken(String)
    /// No registration has this token.
    case unknownToken(String)
    /// The distributor is stopped.
    case stopped
}
