/// A D-Bus caller the agent has checked: same user, and its app identity.
package struct Caller: Sendable, Hashable {
    /// The caller's unique bus name.
    package let busName: String
    /// Its process, as the bus reports it.
    package let pid: Int32
    /// Which app it is.
    package let identity: CallerIdentity
}
