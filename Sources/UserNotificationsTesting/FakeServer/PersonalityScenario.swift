public import DBus
import DesktopNotificationsSupport
public import FreedesktopNotifications

/// What the person in front of the screen does in a ``PersonalityScenario``: on a real
/// server through its own tools (a click, `makoctl`), on the fake one through its methods.
public struct ScenarioPerson: Sendable {
    /// Invokes action `key` of notification `id`, which was sent with `actions`.
    public var invoke: @Sendable (_ id: UInt32, _ key: String, _ actions: [NotificationAction]) async throws -> Void
    /// Dismisses notification `id` (its close button, a click on its body).
    public var dismiss: @Sendable (_ id: UInt32) async throws -> Void

    /// Creates a person from the two gestures.
    public init(
        invoke: @escaping @Sendable (_ id: UInt32, _ key: String, _ actions: [NotificationAction]) async throws -> Void,
        dismiss: @escaping @Sendable (_ id: UInt32) async throws -> Void
    ) {
        self.invoke = invoke
        self.dismiss = dismiss
    }

    /// The person at a ``FakeNotificationServer``.
    public static func fake(_ server: FakeNotificationServer) -> ScenarioPerson {
        ScenarioPerson(
            invoke: { id, key, _ in server.invokeAction(id: id, key: key) },
            dismiss: { id in server.close(id: id, reason: .dismissed) })
    }
}

/// One scripted scenario run as a client against a notification server, real or fake,
/// recording what the client observes field by field: server information, capabilities, the
/// ids handed out on replacement, which signals reach the poster and a bystander connection,
/// and the close reasons. Two runs are compared with ``differences(_:_:)``: a fake server
/// personality is right when its run matches the real server's.
///
/// Every step has a deadline: a signal the step waits for and that never comes is recorded
/// as nothing, not waited for forever.
public enum PersonalityScenario {
    /// What one run observed: field name to a printable value.
    public typealias Observations = [String: String]

    /// The fields that differ between `real` and `fake`, each as
    /// `field: real <value>, fake <value>`, sorted by field name.
    public static func differences(_ real: Observations, _ fake: Observations) -> [String] {
        Set(real.keys).union(fake.keys).sorted().compactMap { field in
            let left = real[field] ?? "(none)"
            let right = fake[field] ?? "(none)"
            return left == right ? nil : "\(field): real \(left), fake \(right)"
        }
    }

    /// Runs the scenario on `bus` against whatever server owns the notification name there.
    ///
    /// - Parameters:
    ///   - bus: The bus the server is on.
    ///   - person: What the person does; without one (a server nothing can click) the
    ///     action and dismissal steps are left out.
    ///   - signalWait: How long a step waits for a signal it expects.
    ///   - quiet: How long without a new signal ends a step (a step that expects none waits
    ///     that long).
    public static func observe(
        bus: DBusBus, person: ScenarioPerson?, signalWait: Duration = .seconds(10), quiet: Duration = .seconds(1)
    ) async throws -> Observations {
        let run = Run(bus: bus, signalWait: signalWait, quiet: quiet)
        try await run.connect()
        try await run.facts()
        try await run.replacements()
        try await run.closes()
        try await run.expiry()
        if let person { try await run.gestures(person) }
        await run.finish()
        return run.observations.withLock { $0 }
    }

    /// The state of one run: a poster, a bystander that never posts, and what they saw.
    private final class Run: Sendable {
        let poster: NotificationsClient
        let bystander: NotificationsClient
        let posterEvents: EventRecorder<NotificationEvent>
        let bystanderEvents: EventRecorder<NotificationEvent>
        let signalWait: Duration
        let quiet: Duration
        let observations = Locked<Observations>([:])
        let live = Locked<Set<UInt32>>([])

        init(bus: DBusBus, signalWait: Duration, quiet: Duration) {
            poster = NotificationsClient(bus: bus)
            bystander = NotificationsClient(bus: bus)
            posterEvents = EventRecorder(poster.events())
            bystanderEvents = EventRecorder(bystander.events())
            self.signalWait = signalWait
            self.quiet = quiet
        }

        func record(_ field: String, _ value: String) {
            observations.withLock { $0[field] = value }
        }

        func connect() async throws {
            _ = try await poster.connect()
            _ = try await bystander.connect()
        }

        func post(_ summary: String, replacing: UInt32 = 0, actions: [NotificationAction] = [], expiry: NotificationExpiry = .never)
            async throws -> UInt32 {
            let posted = try await poster.notify(NotifyRequest(
                appName: "PersonalityScenario", replacesID: replacing, summary: summary, body: "scenario", actions: actions,
                expiry: expiry))
            live.withLock { _ = $0.insert(posted.id) }
            return posted.id
        }

        /// Server information and capabilities.
        func facts() async throws {
            let information = try await poster.serverInformation()
            record("information", "\(information.name) / \(information.vendor) / \(information.version) / \(information.specVersion)")
            record("capabilities", try await poster.capabilities().map(\.rawValue).sorted().joined(separator: " "))
        }

        /// Ids: the first two, a live replacement, an unknown one, and signals meanwhile.
        func replacements() async throws {
            let first = try await post("first")
            let second = try await post("second")
            record("ids.first", String(first))
            record("ids.second", second == first + 1 ? "first + 1" : String(second))
            let replaced = try await post("first, again", replacing: first)
            record("replace.live.id", replaced == first ? "same" : "new")
            try await observeSignals("replace.live", about: first, expecting: false)
            let unknown = first + 1000
            let adopted = try await post("unknown", replacing: unknown)
            record("replace.unknown.id", adopted == unknown ? "requested" : adopted == first || adopted == second ? "reused" : "new")
        }

        /// CloseNotification for a live id, an unknown id, then a replacement of the closed id.
        func closes() async throws {
            let target = try await post("close me")
            try await poster.closeNotification(id: target)
            live.withLock { _ = $0.remove(target) }
            try await observeSignals("close.live", about: target, expecting: true)
            do {
                try await poster.closeNotification(id: target + 5000)
                record("close.unknown", "empty reply")
            } catch {
                record("close.unknown", "error \(error)")
            }
            try await observeSignals("close.unknown", about: target + 5000, expecting: false)
            let again = try await post("closed, again", replacing: target)
            record("replace.closed.id", again == target ? "requested" : "new")
        }

        /// A notification that asks to expire after 300 ms.
        func expiry() async throws {
            let id = try await post("expiring", expiry: .milliseconds(300))
            try await observeSignals("expiry", about: id, expecting: true)
            live.withLock { _ = $0.remove(id) }
        }

        /// The person's action and dismissal, each on a notification alone on screen.
        func gestures(_ person: ScenarioPerson) async throws {
            try await closeAll()
            let actions = [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "ok", label: "OK")]
            let acted = try await post("act on me", actions: actions)
            try await person.invoke(acted, "ok", actions)
            try await observeSignals("action", about: acted, expecting: true)
            try await closeAll()
            let dismissed = try await post("dismiss me")
            try await person.dismiss(dismissed)
            live.withLock { _ = $0.remove(dismissed) }
            try await observeSignals("dismiss", about: dismissed, expecting: true)
        }

        /// Closes what this run left open and forgets the signals that follows.
        func closeAll() async throws {
            let ids = live.withLock { state in
                defer { state.removeAll() }
                return state
            }
            for id in ids.sorted() { try await poster.closeNotification(id: id) }
            try await Task.sleep(for: quiet)
            _ = posterEvents.drain()
            _ = bystanderEvents.drain()
        }

        /// Waits for the first signal (when `expecting`), then until none has come for
        /// `quiet`, and records what the poster and the bystander received, with `id` written
        /// as `it`.
        func observeSignals(_ field: String, about id: UInt32, expecting: Bool) async throws {
            let deadline = ContinuousClock.now + signalWait
            if expecting {
                while posterEvents.pending == 0 && bystanderEvents.pending == 0 && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            var seen = -1
            while posterEvents.pending + bystanderEvents.pending != seen, ContinuousClock.now < deadline + signalWait {
                seen = posterEvents.pending + bystanderEvents.pending
                try await Task.sleep(for: quiet)
            }
            record("\(field).poster", Self.describe(posterEvents.drain(), it: id))
            record("\(field).bystander", Self.describe(bystanderEvents.drain(), it: id))
        }

        static func describe(_ events: [NotificationEvent], it id: UInt32) -> String {
            let names = events.map { event -> String in
                func name(_ other: UInt32) -> String { other == id ? "it" : String(other) }
                switch event {
                case .closed(let other, let reason, _): return "closed(\(name(other)), \(reason.rawValue))"
                case .actionInvoked(let other, let key, _): return "action(\(name(other)), \(key))"
                case .activationToken(let other, _, _): return "token(\(name(other)))"
                case .replied(let other, let text, _): return "replied(\(name(other)), \(text))"
                case .serverChanged: return "server changed"
                case .disconnected: return "disconnected"
                }
            }
            return names.isEmpty ? "nothing" : names.joined(separator: ", ")
        }

        func finish() async {
            try? await closeAll()
            await poster.disconnect()
            await bystander.disconnect()
        }
    }
}
