/// Which app a D-Bus caller is, and how the agent knows.
///
/// The agent asks, in this order:
/// 1. ``flatpak(_:)``: the caller runs in a Flatpak sandbox (`/proc/PID/root/.flatpak-info`
///    exists) whose `[Application] name=` is the id. Authoritative: the sandbox wrote it and
///    the app cannot change it.
/// 2. ``systemdUnit(_:)``: the caller runs in a systemd unit that a desktop launched it in,
///    named by systemd's XDG convention (`app[-<launcher>]-<ID>[@<RANDOM>].service`,
///    `app[-<launcher>]-<ID>-<RANDOM>.scope`, dashes in the id escaped as `\x2d`), read from
///    `/proc/PID/cgroup`. The same reading xdg-desktop-portal makes for host apps.
/// 3. ``declared``: neither; the caller's own claim is taken. The caller runs as the same
///    user (the agent refuses other users), so it is in the agent's trust domain: it could
///    read the agent's state files or ptrace any app anyway. Declared ids keep apps apart by
///    mistake, not against malice.
///
/// A PID names a process only while it lives; a caller that exits and whose PID is reused
/// between the bus's answer and the reading of `/proc` could be mistaken for another. The
/// bus's `ProcessFD` credential (dbus-daemon 1.15+) would close that window.
package enum CallerIdentity: Sendable, Hashable, CustomStringConvertible {
    /// A Flatpak app with this id.
    case flatpak(String)
    /// A host app launched in a systemd unit naming this id.
    case systemdUnit(String)
    /// Nothing tells; the caller's claim stands.
    case declared

    /// The app id the caller acts as when it claims `appID`.
    ///
    /// - Throws: ``CallerIdentityError/claimContradicted(claimed:identity:)`` when the sandbox
    ///   or the unit names another app.
    package func verify(claimed appID: String) throws(CallerIdentityError) -> String {
        switch self {
        case .flatpak(let known), .systemdUnit(let known):
            guard known == appID else { throw .claimContradicted(claimed: appID, identity: self) }
            return known
        case .declared:
            return appID
        }
    }

    package var description: String {
        switch self {
        case .flatpak(let id): "the Flatpak app \(id)"
        case .systemdUnit(let id): "the app \(id) (by its systemd unit)"
        case .declared: "an app known only by its own claim"
        }
    }
}
