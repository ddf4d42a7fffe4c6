import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// One GeoClue2 client shared by every engine that watches regions: in an app's process, the
/// center's engine; in the per-user agent, the engines of all apps.
///
/// Each engine subscribes once and says, whenever its regions change, the smallest radius it
/// watches (``need(_:smallestRadius:)``, `nil` for none). The client runs while some engine
/// watches a region, with the accuracy level and distance threshold the smallest radius of all
/// of them calls for, and every position goes to every subscriber; it is stopped and deleted
/// when the last region goes.
///
/// **When GeoClue stops serving.** A client GeoClue refused or lost is kept while regions are
/// watched, and the next ``need(_:smallestRadius:)`` (an `add`, a fired request) asks GeoClue
/// again (``GeoClueClient/resume()``): a refusal lifted since, or a GeoClue that can be
/// activated again, is taken up at once, and the refusal or absence that remains is thrown.
/// GeoClue turning the client on again, or coming back on the bus, resumes it without a call.
/// When GeoClue leaves the bus (a crash of a D-Bus-activated GeoClue leaves no one to start
/// it), the hub also asks again by itself a few times, at ``recoveryDelays``, then waits for
/// the next need; nothing is scheduled while no region is watched. Each stop and resumption
/// is logged.
package final class LocationHub: Sendable {
    /// How long the hub waits, after GeoClue left the bus, before each of its attempts to make
    /// the client again (which activates an activatable GeoClue): bounded, and no faster than
    /// one attempt per five seconds.
    package static let recoveryDelays: [Duration] = [.seconds(5), .seconds(15), .seconds(60), .seconds(300)]

    /// A subscriber's handle.
    package struct Subscriber: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Member: Sendable {
        var handler: @Sendable (GeoClueClient.Event) async -> Void
        var smallestRadius: Double?
    }

    private struct State: Sendable {
        var members: [UInt64: Member] = [:]
        var nextID: UInt64 = 1
        var client: GeoClueClient?
        /// The client's number: events of a client replaced since are ignored.
        var generation: UInt64 = 0
        /// Whether the client stopped serving (refused, or lost with GeoClue): asked again at
        /// the next need.
        var clientDown = false
        /// The attempt to make the client again that waits its turn after GeoClue left.
        var recovery: Task<Void, Never>?
        /// The attempts made since GeoClue left.
        var recoveryAttempts = 0
        var status: LocationServiceStatus = .available
        /// Why the last start failed.
        var lastError: LocationServiceError?
        /// The start or stop under way; the next waits for it.
        var transition: Task<Void, Never>?
    }

    /// The desktop id GeoClue is told (`DesktopId`): the app's id, or the agent's.
    package let desktopID: String
    private let bus: DBusBus
    private let timeout: Duration
    private let state = Locked(State())

    /// A hub for `desktopID` on `bus` (the system bus, where GeoClue lives; tests point
    /// `DBUS_SYSTEM_BUS_ADDRESS` at a private one).
    package init(desktopID: String, bus: DBusBus = .system, timeout: Duration = .seconds(5)) {
        self.desktopID = desktopID
        self.bus = bus
        self.timeout = timeout
    }

    /// Adds a subscriber; its handler gets every event of the shared client, in order.
    package func subscribe(_ handler: @escaping @Sendable (GeoClueClient.Event) async -> Void) -> Subscriber {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.members[state.nextID] = Member(handler: handler, smallestRadius: nil)
            return Subscriber(id: state.nextID)
        }
    }

    /// Removes a subscriber (its regions with it).
    package func unsubscribe(_ subscriber: Subscriber) async {
        state.withLock { _ = $0.members.removeValue(forKey: subscriber.id) }
        await settle()
    }

    /// What GeoClue said last.
    package var status: LocationServiceStatus { state.withLock(\.status) }

    /// Records that `subscriber` watches regions down to `smallestRadius` metres (`nil`: none)
    /// and brings the client in line: started when it is needed, retuned, or stopped.
    ///
    /// - Throws: the ``LocationServiceError`` that kept the client from starting, when a
    ///   region is needed and it could not.
    package func need(_ subscriber: Subscriber, smallestRadius: Double?) async throws(LocationServiceError) {
        state.withLock { $0.members[subscriber.id]?.smallestRadius = smallestRadius }
        await settle()
        guard smallestRadius != nil else { return }
        let (serving, error) = state.withLock { ($0.client != nil && !$0.clientDown, $0.lastError) }
        if !serving { throw error ?? .serviceUnavailable("the location client stopped") }
    }

    /// Whether GeoClue could be used now, without starting a client: `.unavailable` when
    /// its name has no owner and cannot be activated, `.denied` when it refused last time.
    package func probe() async -> LocationServiceStatus {
        if state.withLock({ $0.client != nil && !$0.clientDown }) { return .available }
        if state.withLock(\.status) == .denied { return .denied }
        do {
            let connection = try await DBusConnection.connect(to: bus, timeout: timeout)
            defer { Task { await connection.close() } }
            if try await connection.nameOwner(of: GeoClueClient.busName) != nil { return .available }
            return try await connection.listActivatableNames().contains(GeoClueClient.busName) ? .available : .unavailable
        } catch {
            SubsystemLog.center.logger.info("the location service could not be probed", metadata: ["error": SubsystemLog.describe(error)])
            return .unavailable
        }
    }

    /// ``UNNotificationSettings/locationSetting`` for a center whose location triggers the
    /// agent watches: the app cannot see the agent's client, so this says only whether GeoClue
    /// runs or can be activated on `bus` (`.enabled`) or not (`.notSupported`); a refusal of
    /// the agent shows when `add` fails.
    package static func probeSetting(bus: DBusBus = .system) async -> UNNotificationSetting {
        await LocationHub(desktopID: "", bus: bus).probe() == .unavailable ? .notSupported : .enabled
    }

    // MARK: - The client

    private var smallestRadius: Double? {
        state.withLock { $0.members.values.compactMap(\.smallestRadius).min() }
    }

    /// Starts, retunes or stops the client to match what the members need, one change at a
    /// time, in call order.
    private func settle() async {
        let task = state.withLock { state -> Task<Void, Never> in
            let previous = state.transition
            let task = Task { [self] in
                await previous?.value
                await self.apply()
            }
            state.transition = task
            return task
        }
        await task.value
    }

    private func apply() async {
        let radius = smallestRadius
        let (client, down) = state.withLock { state in
            if radius == nil { Self.endRecovery(&state) }
            return (state.client, state.clientDown)
        }
        switch (radius, client) {
        case (nil, nil):
            return
        case (nil, let client?):
            state.withLock { state in
                state.client = nil
                state.clientDown = false
                state.generation += 1
            }
            await client.stop()
        case (let radius?, let client?):
            if down, !(await resume(client)) { return }
            await client.update(
                accuracy: .forSmallestRadius(radius), distanceThreshold: GeoClueAccuracyLevel.distanceThreshold(forSmallestRadius: radius))
        case (let radius?, nil):
            await start(radius: radius)
        }
    }

    private func start(radius: Double) async {
        let generation = state.withLock { state in
            state.generation += 1
            return state.generation
        }
        do {
            let client = try await GeoClueClient.start(
                bus: bus, desktopID: desktopID, accuracy: .forSmallestRadius(radius),
                distanceThreshold: GeoClueAccuracyLevel.distanceThreshold(forSmallestRadius: radius), timeout: timeout
            ) { [weak self] event in await self?.broadcast(event, from: generation) }
            state.withLock { state in
                state.client = client
                state.clientDown = false
                state.status = .available
                state.lastError = nil
            }
        } catch {
            record(error)
            SubsystemLog.center.logger.warning("the location service cannot be used", metadata: ["error": SubsystemLog.describe(error)])
        }
    }

    /// Asks GeoClue to serve a client that stopped being served; one whose connection closed
    /// is replaced. Returns whether it serves now.
    private func resume(_ client: GeoClueClient) async -> Bool {
        do {
            try await client.resume()
            return true
        } catch .serviceUnavailable(let detail) where detail == GeoClueClient.connectionClosed {
            SubsystemLog.center.logger.notice("the location client's bus connection closed; connecting again")
            state.withLock { state in
                state.client = nil
                state.clientDown = false
                state.generation += 1
            }
            await client.stop()
            guard let radius = smallestRadius else { return false }
            await start(radius: radius)
            return state.withLock { $0.client != nil }
        } catch {
            record(error)
            SubsystemLog.center.logger.warning("the location service still does not serve", metadata: ["error": SubsystemLog.describe(error)])
            return false
        }
    }

    private func record(_ error: LocationServiceError) {
        state.withLock { state in
            state.status = Self.status(for: error)
            state.lastError = error
        }
    }

    // MARK: - Recovery after GeoClue left

    /// Schedules the next attempt to make the client again, unless the attempts are spent or
    /// no region is watched.
    private func scheduleRecovery() {
        let scheduled = state.withLock { state -> Duration? in
            guard state.recovery == nil, state.client != nil, state.clientDown,
                  state.recoveryAttempts < Self.recoveryDelays.count else { return nil }
            let delay = Self.recoveryDelays[state.recoveryAttempts]
            state.recoveryAttempts += 1
            state.recovery = Task { [weak self] in
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    return
                }
                await self?.recover()
            }
            return delay
        }
        if let scheduled {
            SubsystemLog.center.logger.notice("the location service will be asked again", metadata: ["in": "\(scheduled)"])
        } else if state.withLock({ $0.clientDown && $0.recovery == nil && $0.recoveryAttempts >= Self.recoveryDelays.count }) {
            SubsystemLog.center.logger.warning("the location service did not come back; location triggers wait for it or for the next request")
        }
    }

    private func recover() async {
        state.withLock { $0.recovery = nil }
        await settle()
        if state.withLock(\.clientDown) { scheduleRecovery() }
    }

    private static func endRecovery(_ state: inout State) {
        state.recovery?.cancel()
        state.recovery = nil
        state.recoveryAttempts = 0
    }

    private static func status(for error: LocationServiceError) -> LocationServiceStatus {
        switch error {
        case .accessDenied: .denied
        case .serviceUnavailable, .serviceFailed: .unavailable
        }
    }

    private func broadcast(_ event: GeoClueClient.Event, from generation: UInt64) async {
        // A client stopped or replaced since may still be telling its last event.
        guard state.withLock({ $0.generation == generation }) else { return }
        switch event {
        case .failed(let error):
            state.withLock { state in
                state.clientDown = true
                state.status = Self.status(for: error)
                state.lastError = error
            }
            SubsystemLog.center.logger.warning("watching regions stopped: the location service does not serve", metadata: ["error": SubsystemLog.describe(error)])
        case .fix, .resumed:
            let wasDown = state.withLock { state in
                defer {
                    state.clientDown = false
                    state.status = .available
                    state.lastError = nil
                    Self.endRecovery(&state)
                }
                return state.clientDown
            }
            if wasDown { SubsystemLog.center.logger.notice("watching regions resumed: the location service serves again") }
        case .serviceLost:
            state.withLock { state in
                state.clientDown = true
                state.status = .unavailable
                state.lastError = .serviceUnavailable("\(GeoClueClient.busName) left the bus")
            }
            SubsystemLog.center.logger.warning("watching regions stopped: the location service left the bus")
            scheduleRecovery()
        }
        let handlers = state.withLock { $0.members.values.filter { $0.smallestRadius != nil }.map(\.handler) }
        for handler in handlers { await handler(event) }
    }
}
