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
package final class LocationHub: Sendable {
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
        let (running, status, error) = state.withLock { ($0.client != nil, $0.status, $0.lastError) }
        if !running || status == .denied { throw error ?? .accessDenied("GeoClue turned the location client off") }
    }

    /// Whether GeoClue could be used now, without starting a client: `.unavailable` when
    /// its name has no owner and cannot be activated, `.denied` when it refused last time.
    package func probe() async -> LocationServiceStatus {
        if state.withLock({ $0.client != nil }) { return .available }
        if state.withLock(\.status) == .denied { return .denied }
        do {
            let connection = try await DBusConnection.connect(to: bus, timeout: timeout)
            defer { Task { await connection.close() } }
            if try await connection.nameOwner(of: GeoClueClient.busName) != nil { return .available }
            return try await connection.listActivatableNames().contains(GeoClueClient.busName) ? .available : .unavailable
        } catch {
            CenterLog.logger.info("the location service could not be probed", metadata: ["error": CenterLog.describe(error)])
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
        let client = state.withLock(\.client)
        switch (radius, client) {
        case (nil, nil):
            return
        case (nil, let client?):
            state.withLock { $0.client = nil }
            await client.stop()
        case (let radius?, let client?):
            await client.update(
                accuracy: .forSmallestRadius(radius), distanceThreshold: GeoClueAccuracyLevel.distanceThreshold(forSmallestRadius: radius))
        case (let radius?, nil):
            do {
                let client = try await GeoClueClient.start(
                    bus: bus, desktopID: desktopID, accuracy: .forSmallestRadius(radius),
                    distanceThreshold: GeoClueAccuracyLevel.distanceThreshold(forSmallestRadius: radius), timeout: timeout
                ) { [weak self] event in await self?.broadcast(event) }
                state.withLock { state in
                    state.client = client
                    state.status = .available
                    state.lastError = nil
                }
            } catch {
                state.withLock { state in
                    state.status = Self.status(for: error)
                    state.lastError = error
                }
                CenterLog.logger.warning("the location service cannot be used", metadata: ["error": CenterLog.describe(error)])
            }
        }
    }

    private static func status(for error: LocationServiceError) -> LocationServiceStatus {
        switch error {
        case .accessDenied: .denied
        case .serviceUnavailable, .serviceFailed: .unavailable
        }
    }

    private func broadcast(_ event: GeoClueClient.Event) async {
        switch event {
        case .failed(let error):
            state.withLock { state in
                state.status = Self.status(for: error)
                state.lastError = error
            }
            CenterLog.logger.warning("the location service stopped serving", metadata: ["error": CenterLog.describe(error)])
        case .fix:
            state.withLock { state in
                state.status = .available
                state.lastError = nil
            }
        case .serviceLost:
            break
        }
        let handlers = state.withLock { $0.members.values.filter { $0.smallestRadius != nil }.map(\.handler) }
        for handler in handlers { await handler(event) }
    }
}
