import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// An engine in front of a notification service that has no triggers and lists nothing (the
/// portal, GNOME's `org.gtk.Notifications`): it keeps the pending requests and, while the app
/// runs, fires the dated ones with a ``PendingScheduler`` and the location ones when a
/// position from GeoClue2 crosses their regions (``RegionWatch``, as the in-process engine
/// watches them); it keeps its own delivered list, and shows and withdraws through the
/// service by identifier. The list handling is shared here, and so is keeping the lists, the
/// categories and the authorization across launches in the app's state file
/// (``SelfKeptStore``, saved as the in-process engine saves); each engine delivers, withdraws
/// and reaches its service its own way.
///
/// Every call takes effect on the caller's thread under the engine's one lock, so the calls
/// that return nothing are in order with every later call.
protocol SelfKeptEngine: NotificationEngine {
    associatedtype State: SelfKeptState
    var identity: ApplicationIdentity { get }
    var connection: DBusConnection { get }
    var clock: any NotificationClock { get }
    var state: Locked<State> { get }
    var host: (any EngineHost)? { get }
    var scheduler: PendingScheduler<String>? { get }
    /// The regions of the pending location requests and the location service they are
    /// watched through; the engine subscribes it to ``takeLocation(_:)`` before ``restore()``.
    var regionWatch: RegionWatch { get }
    /// Shows `request` now, as the host's options say, and records it as delivered.
    func deliver(_ request: UNNotificationRequest, date: Date) async throws
    /// Asks the service to withdraw `identifier` (the entry has left the list already).
    func withdraw(_ identifier: String)
    /// Whether the service can be reached.
    func reachable() async -> Bool
    /// Where the state is kept across launches.
    var keeper: SelfKeptStore { get }
    /// The `server` under which the engine's delivered notifications are saved: its service's
    /// bus name, which no notification server's unique name can equal, so the in-process
    /// engine, reading the same file, keeps none of them as its own, and each of these engines
    /// keeps only its own.
    static var savedServer: String { get }
}

extension SelfKeptEngine {
    /// Adds `request`: a location request is watched (once the location service runs), a
    /// request with another trigger is scheduled, any other is delivered now.
    ///
    /// - Throws: ``LocationServiceError`` for a location request when GeoClue is absent or
    ///   denies the app, as the in-process engine does; `UNError(.notificationInvalidNoDate)`
    ///   for a trigger that never fires; what validation and delivery throw.
    func add(_ request: UNNotificationRequest) async throws {
        try InProcessEngine.validate(request)
        if let trigger = request.trigger as? UNLocationNotificationTrigger {
            try await watch(request, trigger: trigger)
            return
        }
        if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
            let entry = try PendingEntry(scheduling: request, trigger: trigger, at: clock.now)
            let replaced = state.withLock { $0.pending.insert(entry) }
            if let replaced { regionWatch.unwatch([replaced.identifier]) }
            scheduler?.schedule(request.identifier, at: entry.nextFire)
            stateChanged()
            return
        }
        removePendingRequests(withIdentifiers: [request.identifier])
        try await deliver(request, date: clock.now)
    }

    func pendingRequests() async -> [UNNotificationRequest] {
        state.withLock { $0.pending.requests }
    }

    func removePendingRequests(withIdentifiers identifiers: [String]?) {
        let removed = state.withLock { state in
            identifiers.map { $0.compactMap { state.pending.remove($0)?.identifier } } ?? state.pending.removeAll().map(\.identifier)
        }
        for identifier in removed { scheduler?.cancel(identifier) }
        regionWatch.unwatch(removed)
        if !removed.isEmpty { stateChanged() }
    }

    func deliveredNotifications() async -> [UNNotification] {
        state.withLock { $0.delivered.values.map(\.notification).sorted { $0.date < $1.date } }
    }

    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        let removed = state.withLock { state in
            let chosen = identifiers ?? Array(state.delivered.keys)
            return chosen.filter { state.delivered.removeValue(forKey: $0) != nil }
        }
        for identifier in removed { withdraw(identifier) }
        if !removed.isEmpty { stateChanged() }
    }

    func setCategories(_ categories: Set<UNNotificationCategory>) {
        state.withLock { $0.categories = Dictionary(categories.map { ($0.identifier, $0) }) { first, _ in first } }
        stateChanged()
    }

    func categories() async -> Set<UNNotificationCategory> {
        state.withLock { Set($0.categories.values) }
    }

    /// Granted when the service can be reached.
    func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        let granted = await reachable()
        state.withLock { state in
            state.authorizationStatus = granted ? .authorized : .denied
            state.authorizationOptions = options
        }
        stateChanged()
        return granted
    }

    /// The authorization recorded, with `capabilities` when the service can be reached, and
    /// whether location triggers can be watched (``RegionWatch/setting()``).
    func authorization(capabilities: @Sendable () async -> Set<NotificationCapability>) async -> EngineAuthorization {
        let (status, options) = state.withLock { ($0.authorizationStatus, $0.authorizationOptions) }
        let location = await regionWatch.setting()
        guard await reachable() else { return EngineAuthorization(status: status, options: options, capabilities: nil, location: location) }
        return EngineAuthorization(status: status, options: options, capabilities: await capabilities(), location: location)
    }

    /// Sends the launcher's badge (`com.canonical.Unity.LauncherEntry`), as the in-process
    /// engine does; a sandbox lets an app emit it on the session bus.
    func setBadgeCount(_ count: Int) async throws {
        let signal: DBusMessage
        do {
            signal = try LauncherEntry.update(appID: identity.id, count: count)
        } catch {
            throw NotificationDeliveryError(error)
        }
        do {
            try connection.send(signal)
        } catch {
            throw NotificationDeliveryError.noNotificationServer(String(describing: error))
        }
    }

    /// The options the host gives `notification`, after setting the badge they ask for (a
    /// failure there is logged).
    func presentation(of notification: UNNotification) async -> UNNotificationPresentationOptions {
        let options = await host?.presentationOptions(for: notification) ?? UNUserNotificationCenter.defaultPresentationOptions
        if options.contains(.badge), let badge = notification.request.content.badge {
            do {
                try await setBadgeCount(badge.intValue)
            } catch {
                SubsystemLog.center.logger.warning(
                    "the badge of a notification was not set",
                    metadata: ["identifier": "\(notification.request.identifier)", "error": SubsystemLog.describe(error)])
            }
        }
        return options
    }

    /// A pending request fell due: a repeating one is scheduled again, the others leave the
    /// list; then it is delivered, and a failure is logged (nobody waits for it).
    func fire(_ identifier: String, due: Date) {
        let now = clock.now
        let fired = state.withLock { state in
            state.closed ? nil : state.pending.takeFired(identifier, due: due, now: now)
        }
        guard let fired else { return }
        if let next = fired.next { scheduler?.schedule(identifier, at: next) }
        stateChanged()
        Task {
            do {
                try await self.deliver(fired.entry.request, date: due)
            } catch {
                SubsystemLog.center.logger.error(
                    "a notification whose trigger fired was not delivered",
                    metadata: ["identifier": "\(identifier)", "error": SubsystemLog.describe(error)])
            }
        }
    }

    /// Marks the engine closed, stops its scheduler and its region watch (which leaves the
    /// location service) and writes a save that waits; the caller closes the rest.
    func closeLists() {
        state.withLock { $0.closed = true }
        scheduler?.cancelAll()
        regionWatch.stop()
        flushSave()
        let connection = self.connection
        Task { await connection.close() }
    }
}
