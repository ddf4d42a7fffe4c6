import DBus

/// Why the agent refuses a caller.
package enum CallerIdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The caller runs as another user than the agent.
    case foreignUser(busName: String, userID: UInt32, agentUserID: UInt32)
    /// The caller claims an app id that its sandbox or systemd unit contradicts.
    case claimContradicted(claimed: String, identity: CallerIdentity)
    /// The caller is sandboxed but its `.flatpak-info` cannot be read or names no app.
    case unreadableSandboxInfo(pid: Int32, reason: String)
    /// The caller's process is gone from `/proc` (it exited).
    case processGone(pid: Int32)
    /// The bus could not tell the caller's user or process.
    case bus(busName: String, DBusError)

    package var description: String {
        switch self {
        case .foreignUser(let name, let uid, let agentUID):
            "\(name) runs as user \(uid); this agent serves user \(agentUID) alone"
        case .claimContradicted(let claimed, let identity):
            "the caller claims to be \(claimed) but is \(identity); call with that id"
        case .unreadableSandboxInfo(let pid, let reason):
            "process \(pid) is sandboxed but its .flatpak-info is unusable: \(reason)"
        case .processGone(let pid):
            "process \(pid) has exited; call again from a running process"
        case .bus(let name, let error):
            "the bus could not say who \(name) is: \(error)"
        }
    }
}
