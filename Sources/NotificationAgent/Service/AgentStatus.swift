/// The answer of `Status`: one entry per app the agent holds, by app id.
public struct AgentStatus: Codable, Sendable, Hashable {
    /// One app's counts.
    public struct App: Codable, Sendable, Hashable {
        /// The app id.
        public var appID: String
        /// Its pending requests.
        public var pending: Int
        /// Its notifications shown now.
        public var delivered: Int
        /// Its responses waiting to be taken.
        public var queued: Int
        /// Whether a center of the app is connected.
        public var connected: Bool
    }

    /// The apps, by app id.
    public var apps: [App]
}
