/// The encryption script failed.
public enum WebPushTestSenderError: Error, Sendable, Hashable {
    /// Its standard error.
    case failed(String)
}
