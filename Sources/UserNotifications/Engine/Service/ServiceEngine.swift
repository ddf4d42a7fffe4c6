import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The engine in front of a ``NotificationService`` (the portal, GNOME's `org.gtk.Notifications`),
/// which has no triggers and lists nothing: the engine keeps the pending requests and, while the
/// app runs, fires the dated ones with a ``PendingScheduler`` and the location ones when a
/// position from GeoClue2 crosses their regions (``RegionWatch``, as the in-process engine
/// watches them); it keeps its own delivered list (at most ``maximumDelivered``), and shows and
/// withdraws through the service by identifier, one delivery at a time per identifier
/// (``DeliveryLine``). Both lists, the categories and the authorization are kept across
/// launches in the app's state file (``EngineStateStore``, as the in-process engine keeps
/// its own), under the service's bus name. Where state is kept, a request's attachments are
/// copied into the app's attachment store when it comes in (``AttachmentStore``, the in-process
/// engine's), so the files the service is sent at delivery are the ones the app attached, even
/// when the app has removed its own since; a copy goes once no pending request, delivery or
/// listed notification holds it.
///
/// A notification leaves the delivered list when it is withdrawn, replaced or answered
/// (servers withdraw an activated notification). The services say nothing when a notification
/// is closed: there are no close reasons and no dismiss responses.
///
/// Every call takes effect on the caller's thread under the engine's one lock, so the calls
/// that return nothing are in order with every later call.
final class ServiceEngine: NotificationEngine {
    /// The most notifications the engine's own delivered list holds: no service says that one
    /// closed, so an app that never withdraws would grow it for ever; past this the oldest
    /// leaves the list (it stays on screen as the server decides).
    static let maximumDelivered = 1000

    let service: any NotificationService
    let identity: ApplicationIdentity
    let clock: any NotificationClock
    private let hostReference: EngineHostReference
    let state: Locked<ServiceEngineState>
    private let schedulerSlot = Locked<PendingScheduler<String>?>(nil)
    /// The regions of the pending location requests and the location service they are
    /// watched through.
    let regionWatch: RegionWatch
    /// Where the state is kept across launches.
    let stateStore: EngineStateStore
    /// Where the attachments of the pending and listed requests are kept; `nil` when no
    /// state is kept.
    let attachmentStore: AttachmentStore?
    /// One delivery at a time per identifier.
    let line = DeliveryLine()

    var host: (any EngineHost)? { hostReference.host }
    var scheduler: PendingScheduler<String>? { schedulerSlot.withLock { $0 } }

    /// Makes the engine in front of `service` (whose connection it closes with ``close()``):
    /// it reads the saved state from `stateDirectory` (none kept when `nil`; a folder that
    /// cannot be named is logged and none is kept), then starts hearing the service's clicks.
    /// Location triggers are watched through `locationHub` (by default a hub of its own for the
    /// app's id, on the system bus, which a sandbox may not let the app reach: `add` then fails
    /// with ``LocationServiceError``).
    static func start(
        service: any NotificationService, identity: ApplicationIdentity, clock: any NotificationClock, host: EngineHostReference,
        stateDirectory: Result<URL, InvalidApplicationIdentifierError>? = nil, locationHub: LocationHub? = nil
    ) async -> ServiceEngine {
        let engine = ServiceEngine(
            service: service, identity: identity, clock: clock, host: host, stateStore: EngineStateStore(stateDirectory: stateDirectory),
            attachmentStore: AttachmentStore(stateDirectory: stateDirectory), locationHub: locationHub ?? LocationHub(desktopID: identity.id))
        // The stored attachments nothing restored holds (a launch that ended before its save
        // left them) go, as the in-process engine prunes after its read. Only here, before any
        // request came in: a later first read could meet an add that has copied its files but
        // not yet taken the lock to hold them.
        if engine.restore() { engine.state.withLock { $0.ledger.prune() } }
        await service.start { [weak engine] click in _ = engine?.take(click) }
        return engine
    }

    private init(
        service: any NotificationService, identity: ApplicationIdentity, clock: any NotificationClock, host: EngineHostReference,
        stateStore: EngineStateStore, attachmentStore: AttachmentStore?, locationHub: LocationHub
    ) {
        self.service = service
        self.identity = identity
        self.stateStore = stateStore
        self.attachmentStore = attachmentStore
        self.state = Locked(ServiceEngineState(ledger: AttachmentLedger(store: attachmentStore)))
        self.clock = clock
        self.hostReference = host
        self.regionWatch = RegionWatch(hub: locationHub)
        let scheduler = PendingScheduler<String>(clock: clock) { [weak self] identifier, due in
            self?.fire(identifier, due: due)
        }
        schedulerSlot.withLock { $0 = scheduler }
        regionWatch.subscribe { [weak self] event in self?.takeLocation(event) }
    }

    // MARK: - NotificationEngine

    /// Adds `request`, its attachments copied into the store first: a location request is
    /// watched (once the location service runs), a request with another trigger is scheduled,
    /// any other is delivered now.
    ///
    /// - Throws: ``LocationServiceError`` for a location request when GeoClue is absent or
    ///   denies the app, as the in-process engine does; `UNError(.notificationInvalidNoDate)`
    ///   for a trigger that never fires; what validation, the attachment store
    ///   (``AttachmentStore/storing(_:files:)``) and delivery throw.
    func add(_ request: UNNotificationRequest) async throws {
        try request.validateForDelivery()
        let request = try attachmentStore?.storing(request) ?? request
        // The copies are held from here: by the pending entry, or by the delivery.
        state.withLock { $0.ledger.hold(request) }
        do {
            if let trigger = request.trigger as? UNLocationNotificationTrigger {
                return try await watch(request, trigger: trigger)
            }
            if let trigger = request.trigger, !(trigger is UNPushNotificationTrigger) {
                return try schedule(request, trigger: trigger)
            }
        } catch {
            state.withLock { $0.ledger.release(request) }
            throw error
        }
        removePendingRequests(withIdentifiers: [request.identifier])
        try await deliver(request, date: clock.now)
    }

    /// Puts `request` in the pending list, in place of one of its identifier, and schedules it.
    ///
    /// - Throws: `UNError(.notificationInvalidNoDate)` for a trigger that never fires.
    private func schedule(_ request: UNNotificationRequest, trigger: UNNotificationTrigger) throws {
        let entry = try PendingEntry(scheduling: request, trigger: trigger, at: clock.now)
        let replaced = state.withLock { state in
            let replaced = state.pending.insert(entry)
            if let replaced { state.ledger.release(replaced.request) }
            return replaced
        }
        if let replaced { regionWatch.unwatch([replaced.identifier]) }
        scheduler?.schedule(request.identifier, at: entry.nextFire)
        stateChanged()
    }

    func pendingRequests() async -> [UNNotificationRequest] {
        state.withLock { $0.pending.requests }
    }

    func removePendingRequests(withIdentifiers identifiers: [String]?) {
        let removed = state.withLock { state in
            let entries = identifiers.map { $0.compactMap { state.pending.remove($0) } } ?? state.pending.removeAll()
            for entry in entries { state.ledger.release(entry.request) }
            return entries.map(\.identifier)
        }
        for identifier in removed { scheduler?.cancel(identifier) }
        regionWatch.unwatch(removed)
        if !removed.isEmpty { stateChanged() }
    }

    func deliveredNotifications() async -> [UNNotification] {
        state.withLock { $0.delivered.all.map(\.notification).sorted { $0.date < $1.date } }
    }

    /// Withdraws the notifications named that the engine lists; `nil` withdraws all it lists.
    /// A service that ``NotificationService/withdrawsUnlisted`` is asked to withdraw every
    /// identifier named, also one an earlier launch posted and the engine no longer lists.
    func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        let withdrawsUnlisted = service.withdrawsUnlisted
        let (removed, withdrawn) = state.withLock { state -> ([String], [String]) in
            let chosen = identifiers ?? state.delivered.identifiers
            let removed = chosen.filter { identifier in
                guard let entry = state.delivered.remove(identifier) else { return false }
                state.ledger.release(entry.notification.request)
                return true
            }
            guard withdrawsUnlisted, let identifiers else { return (removed, removed) }
            var seen = Set<String>()
            return (removed, identifiers.filter { seen.insert($0).inserted })
        }
        for identifier in withdrawn { service.withdraw(identifier) }
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
        let granted = await service.reachable()
        state.withLock { state in
            state.authorizationStatus = granted ? .authorized : .denied
            state.authorizationOptions = options
        }
        stateChanged()
        return granted
    }

    /// The authorization recorded, with the service's capabilities when it can be reached, and
    /// whether location triggers can be watched (``RegionWatch/setting()``).
    func authorization() async -> EngineAuthorization {
        let (status, options) = state.withLock { ($0.authorizationStatus, $0.authorizationOptions) }
        let location = await regionWatch.setting()
        guard await service.reachable() else {
            return EngineAuthorization(status: status, options: options, capabilities: nil, location: location)
        }
        return EngineAuthorization(status: status, options: options, capabilities: await service.capabilities(), location: location)
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
            try service.connection.send(signal)
        } catch {
            throw NotificationDeliveryError.noNotificationServer(String(describing: error))
        }
    }

    /// The click an `org.freedesktop.Application.ActivateAction` of the app carried, from the
    /// unique name `sender`: the service reads `target` (``NotificationService/click(target:activationToken:sender:)``),
    /// from its own name's owner only, and the engine takes the click as it takes the service's
    /// own events (``take(_:)``). `false`, logged, when either refuses it.
    func takeActivatedResponse(_ target: String, activationToken: String?, sender: String) async -> Bool {
        guard let click = await service.click(target: target, activationToken: activationToken, sender: sender) else { return false }
        return take(click)
    }

    func kind() async -> NotificationEngineKind { service.kind }

    func applicationInterfaceServed() {
        service.applicationInterfaceServed()
    }

    /// Marks the engine closed, stops its scheduler, its region watch (which leaves the
    /// location service) and the service, writes a save that waits, and closes the connection.
    func close() {
        state.withLock { $0.closed = true }
        scheduler?.cancelAll()
        regionWatch.stop()
        service.close()
        flushSave()
        let connection = service.connection
        Task { await connection.close() }
    }

    // MARK: - Triggers

    /// A pending request fell due: a repeating one is scheduled again, the others leave the
    /// list (their hold on the attachments goes to the delivery); then it is delivered, and a
    /// failure is logged (nobody waits for it).
    func fire(_ identifier: String, due: Date) {
        let now = clock.now
        let fired = state.withLock { state -> (entry: PendingEntry, next: Date?)? in
            guard !state.closed, let fired = state.pending.takeFired(identifier, due: due, now: now) else { return nil }
            if fired.next != nil { state.ledger.hold(fired.entry.request) }
            return fired
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
}
