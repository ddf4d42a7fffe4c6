import DesktopNotificationsSupport
import Foundation

/// The part of an engine that watches its location triggers: the regions of its pending
/// location requests (a ``RegionMonitor``, by request identifier) and its place in the
/// ``LocationHub`` (GeoClue2) the positions come from. Each engine (``EngineCore``, in
/// front of any service) owns one; the engine keeps the pending
/// entries (dated ``pendingDate``) and delivers, this keeps the regions and the hub in step.
///
/// Each change of the regions watched tells the hub the smallest radius watched now, in a
/// task of its own: the changes are told in order, and a burst of them as one (the hub is
/// told what is watched when the task gets to it). A failure there is logged; `add` learns it
/// from ``need(adding:)``, which it awaits first.
final class RegionWatch: Sendable {
    /// The date of a pending location request's entry: it sorts after every dated one.
    static let pendingDate = Date.distantFuture

    private struct State: Sendable {
        var monitor = RegionMonitor<String>()
        /// `nil` before ``subscribe(_:)`` and after ``stop()``.
        var subscriber: LocationHub.Subscriber?
        /// A change the hub has not been told yet.
        var changeWaiting = false
        /// Whether the task that tells the hub runs.
        var telling = false

        /// The smallest radius watched now (`nil`: none is).
        var smallestRadius: Double? { monitor.regions.values.map(\.radius).min() }
    }

    /// The location service the regions are watched through (shared by the agent's engines).
    let hub: LocationHub
    private let state = Locked(State())

    /// A watch through `hub`; it hears nothing before ``subscribe(_:)``.
    init(hub: LocationHub) {
        self.hub = hub
    }

    /// Subscribes to the hub, once: `handler` gets each of its events, in order, and passes
    /// them to ``crossings(_:)``.
    func subscribe(_ handler: @escaping @Sendable (GeoClueClient.Event) async -> Void) {
        let subscriber = hub.subscribe(handler)
        state.withLock { $0.subscriber = subscriber }
    }

    /// Makes sure the location service runs before a request watching `region` is taken in:
    /// the hub is told the smallest radius with `region` among those watched.
    ///
    /// - Throws: ``LocationServiceError`` when GeoClue is absent or denies the app, or
    ///   ``LocationServiceError/serviceUnavailable(_:)`` when the engine has not subscribed
    ///   or has stopped.
    func need(adding region: LocationTriggerRegion) async throws(LocationServiceError) {
        let (subscriber, current) = state.withLock { ($0.subscriber, $0.smallestRadius) }
        guard let subscriber else { throw .serviceUnavailable("the engine has stopped") }
        try await hub.need(subscriber, smallestRadius: min(current ?? region.radius, region.radius))
    }

    /// Starts watching `region` for the request `identifier` (replacing what it watched).
    func watch(_ identifier: String, region: LocationTriggerRegion) {
        state.withLock { $0.monitor.watch(identifier, region: region) }
        regionsChanged()
    }

    /// Stops watching the regions of `identifiers`; the hub is told when one was watched.
    func unwatch(_ identifiers: some Sequence<String>) {
        let changed = state.withLock { state in
            var changed = false
            for identifier in identifiers where state.monitor.presence(of: identifier) != nil {
                state.monitor.unwatch(identifier)
                changed = true
            }
            return changed
        }
        if changed { regionsChanged() }
    }

    /// Stops watching every region; the hub is told when one was watched.
    func unwatchAll() {
        let changed = state.withLock { state in
            defer { state.monitor.unwatchAll() }
            return !state.monitor.isEmpty
        }
        if changed { regionsChanged() }
    }

    /// The identifiers of the requests whose regions `event` (a position) crosses as they ask,
    /// in a stable order; none for any other event. Removing a non-repeating one is the
    /// engine's job (``unwatch(_:)``).
    func crossings(_ event: GeoClueClient.Event) -> [String] {
        guard case .fix(let fix) = event else { return [] }
        return state.withLock { $0.monitor.take(fix) }.map(\.key)
    }

    /// Tells the hub the smallest radius watched now (none: the client may stop), after the
    /// changes told before.
    func regionsChanged() {
        let subscriber = state.withLock { state -> LocationHub.Subscriber? in
            guard let subscriber = state.subscriber else { return nil }
            state.changeWaiting = true
            guard !state.telling else { return nil }
            state.telling = true
            return subscriber
        }
        guard let subscriber else { return }
        Task { await self.tell(subscriber) }
    }

    /// Tells the hub what is watched until no change waits.
    private func tell(_ subscriber: LocationHub.Subscriber) async {
        while true {
            let next = state.withLock { state -> Double?? in
                guard state.changeWaiting, state.subscriber != nil else {
                    state.telling = false
                    return .none
                }
                state.changeWaiting = false
                return .some(state.smallestRadius)
            }
            guard case .some(let radius) = next else { return }
            do {
                try await hub.need(subscriber, smallestRadius: radius)
            } catch {
                SubsystemLog.center.logger.warning(
                    "the location service cannot watch the pending location requests", metadata: ["error": SubsystemLog.describe(error)])
            }
        }
    }

    /// Stops watching and leaves the hub, whose client stops when no other engine needs it.
    func stop() {
        let subscriber = state.withLock { state in
            defer {
                state.monitor.unwatchAll()
                state.subscriber = nil
            }
            return state.subscriber
        }
        guard let subscriber else { return }
        let hub = self.hub
        Task { await hub.unsubscribe(subscriber) }
    }

    /// ``UNNotificationSettings/locationSetting``: enabled when GeoClue can be used, disabled
    /// when it refused the app last, not supported when it is absent.
    func setting() async -> UNNotificationSetting {
        switch await hub.probe() {
        case .available: .enabled
        case .denied: .disabled
        case .unavailable: .notSupported
        }
    }
}
