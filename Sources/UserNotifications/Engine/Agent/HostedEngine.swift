import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications

/// The engine of one app, run by the per-user agent: the in-process engine itself
/// (``EngineCore``, the same code an app runs when it has no agent), with the app's
/// identity, so the server shows the app's name and icon and `desktop-entry` is its id, and
/// with its state in the folder the agent gives it.
package final class HostedEngine: Sendable {
    private let engine: EngineCore
    /// The group the engine's saves are spaced with.
    package let saves: SaveLoad

    /// Starts the app's engine.
    ///
    /// - Parameters:
    ///   - identity: The app's id, name and icon.
    ///   - client: The notification server's client: the agent's one, shared by every app
    ///     over its one bus connection (each engine opens its own channel on it and takes the
    ///     signals of the notifications it posted).
    ///   - clock: The clock of its triggers (the agent's shared, multiplexed one).
    ///   - host: The agent's side of the app: where presentation questions, responses and
    ///     content extension questions go. Held weakly: the caller keeps it. It has no service
    ///     extension of its own to run (the agent asks a connected app's center before it adds
    ///     a push).
    ///   - stateDirectory: The app's folder in the agent's state.
    ///   - locationHub: The GeoClue2 client the app's location triggers are watched through
    ///     (the agent's one, shared by every app); `nil` makes one for the app.
    ///   - undelivered: Told of an accepted immediate request whose delivery failed (by its
    ///     identifier); the request stays pending with no trigger and is delivered again when a
    ///     notification server gets the name, or at the engine's next start.
    ///   - taskExecutor: Where the engine's own drains run (after a reply or signal it read,
    ///     after a call that does not wait); `nil` runs them on the global executor.
    ///   - saves: The group whose saves the engine's are spaced with (``SaveLoad``): the
    ///     agent's, shared by every app; by default, one of its own.
    package init(
        identity: ApplicationIdentity, client: NotificationsClient, clock: any NotificationClock, host: any EngineHost,
        stateDirectory: URL, locationHub: LocationHub? = nil,
        undelivered: @escaping @Sendable (String, any Error) -> Void = HostedEngine.logUndelivered,
        taskExecutor: (any TaskExecutor)? = nil, saves: SaveLoad = SaveLoad()
    ) {
        self.saves = saves
        let reference = EngineHostReference()
        reference.host = host
        engine = EngineCore.start(
            identity: identity, client: client, clock: clock, host: reference,
            stateDirectory: .success(stateDirectory), locationHub: locationHub,
            undeliveredAfterAcceptance: { identifier, error in undelivered(identifier, error) }, taskExecutor: taskExecutor,
            saves: saves)
    }

    /// Logs an accepted request whose delivery failed (the default of `init`'s `undelivered`).
    package static let logUndelivered: @Sendable (String, any Error) -> Void = { identifier, error in
        SubsystemLog.center.logger.warning(
            "an accepted notification was not delivered; it is kept and delivered again when a notification server appears",
            metadata: ["identifier": "\(TerminalText.singleLine(identifier))", "error": SubsystemLog.describe(error)])
    }

    /// The app's identity.
    package var identity: ApplicationIdentity { engine.identity }

    /// Schedules or shows `request`; see `UNUserNotificationCenter.add(_:)`. An immediate
    /// request is accepted before it is shown: this returns once it is validated, its
    /// attachments taken and it is kept (pending with no trigger, saved as scheduled requests
    /// are) until the server took it.
    ///
    /// `accepted` is called at acceptance, on the engine's actor, before the delivery's
    /// `Notify` is built and written: the caller answers its app from there, and the app's
    /// wait does not include the post.
    ///
    /// `files`: one open descriptor per attachment, what its bytes are copied from (the
    /// agent's `AddFiles`); `nil` opens the paths the attachments name.
    package func add(_ request: UNNotificationRequest, files: [Int32]? = nil, accepted: (@Sendable () -> Void)? = nil) async throws {
        try await engine.add(request, presentation: nil, files: files, accepted: accepted)
    }

    /// Shows the immediate `request` with the presentation options its app's delegate gave
    /// before the app sent it (`AddPresented`): the host is not asked `WillPresent`. It returns
    /// at acceptance, as ``add(_:accepted:)`` does (and calls `accepted` as it does); a
    /// delivery tried again later asks the host.
    package func add(
        _ request: UNNotificationRequest, presentation: UNNotificationPresentationOptions, files: [Int32]? = nil,
        accepted: (@Sendable () -> Void)? = nil
    ) async throws {
        try await engine.add(request, presentation: presentation, files: files, accepted: accepted)
    }

    /// The pending requests, soonest first.
    package func pendingRequests() async -> [UNNotificationRequest] {
        await engine.pendingRequests()
    }

    /// Cancels pending requests (`nil`: all), in order with every other call.
    package func removePendingRequests(withIdentifiers identifiers: [String]?) {
        engine.removePendingRequests(withIdentifiers: identifiers)
    }

    /// The sizes of the pending and delivered lists and whether `identifier` is in each, in
    /// order with every other call, without copying either list.
    package func occupancy(of identifier: String) async -> EngineOccupancy {
        await engine.occupancy(of: identifier)
    }

    /// When the pending requests next need a running process, in order with every other call.
    package func pendingWake() async -> PendingWake {
        await engine.pendingWake()
    }

    /// The notifications shown now.
    package func deliveredNotifications() async -> [UNNotification] {
        await engine.deliveredNotifications()
    }

    /// Withdraws shown notifications (`nil`: all), in order with every other call.
    package func removeDeliveredNotifications(withIdentifiers identifiers: [String]?) {
        engine.removeDeliveredNotifications(withIdentifiers: identifiers)
    }

    /// Replaces the categories, in order with every other call.
    package func setCategories(_ categories: Set<UNNotificationCategory>) {
        engine.setCategories(categories)
    }

    /// The categories.
    package func categories() async -> Set<UNNotificationCategory> {
        await engine.categories()
    }

    /// Records an authorization answer; see `UNUserNotificationCenter.requestAuthorization`.
    package func requestAuthorization(options: UNAuthorizationOptions) async -> Bool {
        await engine.requestAuthorization(options: options)
    }

    /// The authorization recorded and the server's capabilities (`nil`: no server reachable).
    package func authorization() async -> (status: UNAuthorizationStatus, options: UNAuthorizationOptions, capabilities: [String]?) {
        let answer = await engine.authorization()
        return (answer.status, answer.options, answer.capabilities.map { $0.map(\.rawValue).sorted() })
    }

    /// Shows `count` on the app's launcher icon.
    package func setBadgeCount(_ count: Int) async throws {
        try await engine.setBadgeCount(count)
    }

    /// Writes every change of the state not written yet, after the calls made before: it
    /// waits for the save under way (which runs off the engine's actor, on a thread of its
    /// own) and writes what that save left.
    ///
    /// - Throws: ``StateStoreError`` when the state could not be read or written.
    package func writeStateNow() async throws {
        try await engine.writeStateNow()
    }

    /// Stops the engine; a waiting save is started, and the one under way goes on.
    package func close() {
        engine.close()
    }

    /// Stops the engine as ``close()`` does, and returns once its last save is written (or
    /// failed, which is logged): the engine writes nothing in its state folder after, which
    /// may then be removed.
    package func closeAfterSaving() async {
        await engine.closeAfterSaving()
    }
}
