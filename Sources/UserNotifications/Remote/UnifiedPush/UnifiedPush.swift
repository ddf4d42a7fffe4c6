import DBus

/// The names of UnifiedPush's D-Bus specification (DBUS_0.3.0): a distributor owns
/// `org.unifiedpush.Distributor.<name>` and serves `org.unifiedpush.Distributor2` at
/// `/org/unifiedpush/Distributor`; an app serves `org.unifiedpush.Connector2` at
/// `/org/unifiedpush/Connector`. Every method takes one `a{sv}`. `dbus/org.unifiedpush.Connector2.xml`
/// and `dbus/org.unifiedpush.Distributor2.xml` describe the two interfaces; the build generates
/// ``Connector2Spec`` and ``Distributor2Spec`` from them.
package enum UnifiedPush {
    /// The prefix of every distributor's bus name.
    package static let distributorNamePrefix = "org.unifiedpush.Distributor."
    /// The distributor's object path.
    package static let distributorPath = "/org/unifiedpush/Distributor"
    /// The connector's object path.
    package static let connectorPath = "/org/unifiedpush/Connector"
    /// The connector's interface (`Message` → `a{sv}`, `NewEndpoint`, `Unregistered`): ``Connector2Spec``.
    package static let connectorInterface = Connector2Spec.name
    /// `Register`'s answer when it worked (key `success`).
    package static let registrationSucceeded = "REGISTRATION_SUCCEEDED"
    /// `Register`'s answer when it did not; key `reason` says why.
    package static let registrationFailed = "REGISTRATION_FAILED"
    /// The longest connection token (100 bytes).
    package static let maximumTokenLength = 100
    /// The longest endpoint (1,000 bytes).
    package static let maximumEndpointLength = 1000

    /// The distributors on `connection`'s bus, running or activatable, sorted.
    package static func distributors(on connection: DBusConnection) async throws -> [String] {
        let running = try await connection.listNames()
        let activatable = try await connection.listActivatableNames()
        return Set((running + activatable).filter { $0.hasPrefix(distributorNamePrefix) && $0.count > distributorNamePrefix.count })
            .sorted()
    }

    /// The distributor to register with: `asked` (a full name or the part after the prefix),
    /// else `DESKTOPNOTIFICATIONS_UNIFIEDPUSH_DISTRIBUTOR` from `environment`, else `saved`
    /// when it is still there, else the first of `available` by name.
    ///
    /// - Throws: ``RemoteNotificationRegistrationError/distributorNotFound(_:)`` for a name
    ///   not among `available`; ``RemoteNotificationRegistrationError/noDistributor`` when
    ///   there is none.
    package static func choose(
        _ asked: String?, saved: String?, environment: [String: String], available: [String]
    ) throws(RemoteNotificationRegistrationError) -> String {
        func full(_ name: String) -> String { name.hasPrefix(distributorNamePrefix) ? name : distributorNamePrefix + name }
        if let wanted = asked ?? environment[UNUserNotificationCenter.unifiedPushDistributorVariable].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard available.contains(full(wanted)) else { throw .distributorNotFound(full(wanted)) }
            return full(wanted)
        }
        if let saved, available.contains(saved) { return saved }
        guard let first = available.first else { throw .noDistributor }
        return first
    }
}
