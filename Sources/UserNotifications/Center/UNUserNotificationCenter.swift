import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Logging

/// The central object for managing notification-related activities for an app: it schedules,
/// posts, updates and withdraws notifications, and tells its delegate what the person did.
///
/// On Linux it talks to the desktop's notification server (`org.freedesktop.Notifications`
/// on the session bus): GNOME Shell, KDE Plasma, dunst, mako, xfce4-notifyd, or any other.
///
/// Threading: the `async` methods are the implementation; the completion-handler forms call
/// them and run their handler on a private serial queue, never the main queue (a handler may
/// run while the main thread waits for it). The delegate's completion-handler methods run on
/// the main thread, so a program must let it run: an `async` main, `dispatchMain()`, or
/// `RunLoop.main.run()`.
///
/// Linux differences (the "Porting from Apple platforms" article lists them all):
/// - ``delegate`` is held weakly, as on Apple platforms. A Linux program often has no app
///   delegate to keep it alive: keep a strong reference yourself.
/// - Without a delegate, notifications are shown (Apple shows nothing while the app is in
///   the foreground, and a Linux app is always in the foreground while it runs).
/// - Notifications are posted whatever the authorization status: desktops ask nobody.
/// - Pending requests, the delivered list, categories and the authorization answer are kept
///   in `$XDG_STATE_HOME/<app-id>/notifications.json` and restored at the next launch.
/// - The class is `open`, as on Apple platforms, so that code declaring a subclass (a test
///   double, say) compiles. Its methods are not: they are declared in extensions, which Swift
///   without the Objective-C runtime cannot override, so a subclass adds methods of its own
///   instead of overriding Apple's. As on Apple platforms (where `init()` is unavailable) a
///   subclass cannot be made: the center's designated initialiser is not public.
open class UNUserNotificationCenter: NSObject, @unchecked Sendable {
    /// The presentation options used when no delegate decides.
    public static let defaultPresentationOptions: UNNotificationPresentationOptions = [.banner, .list, .sound, .badge]

    private struct Settings: Sendable {
        var identity: ApplicationIdentity?
        var bus: NotificationBus = .session
        var clock: any NotificationClock = SystemNotificationClock()
        var persistent = true
        var engine: NotificationEngineKind?
        var locationBus: DBusBus = .system
    }

    private static let settings = Locked(Settings())
    private static let shared = Locked<UNUserNotificationCenter?>(nil)

    private let delegateBox = Locked(DelegateReference())
    let serviceExtensionSlot = Locked<ServiceExtensionRegistration?>(nil)
    let contentExtensions = Locked<[String: ContentExtensionReference]>([:])
    /// Everything behind Apple's surface: the center forwards each call there, in call order.
    /// While the engine is being chosen, a ``ChoosingEngine``; once the calls made meanwhile
    /// have reached the chosen engine, that engine itself.
    var engine: any NotificationEngine { engineSlot.withLock { $0 } }
    private let engineSlot: Locked<any NotificationEngine>
    /// The engine as it was made (the ``ChoosingEngine`` when one chose): it knows the kind
    /// chosen and why an engine tried before was not used.
    let madeEngine: any NotificationEngine
    /// The responses waiting for the delegate.
    let responses: ResponseQueue
    /// Where completion handlers run.
    let callbackQueue = DispatchQueue(label: "UNUserNotificationCenter.callbacks")

    /// The app's identity on the desktop. A Linux addition.
    public let identity: ApplicationIdentity
    /// The bus the center uses.
    let bus: NotificationBus
    /// `org.freedesktop.Application`'s handlers and server.
    let applicationSide = Locked(ApplicationSide())
    /// The wall clock triggers and deadlines run on.
    let clock: any NotificationClock
    /// Remote notifications: the UnifiedPush connector, the keys, the change handler.
    let remotePush = Locked(RemotePushSide())
    /// Where `push.json` is kept (the state folder), or `nil` when nothing is kept.
    let remotePushFolder: URL?
    /// Updates that change only a notification's progress, held back (``ProgressUpdateThrottle``).
    let progressThrottle = ProgressUpdateThrottle()

    /// The center of the current app.
    public static func current() -> UNUserNotificationCenter {
        shared.withLock { center in
            if let center { return center }
            let chosen = settings.withLock { $0 }
            let created = UNUserNotificationCenter(
                identity: chosen.identity ?? .derived, bus: chosen.bus, clock: chosen.clock, persistent: chosen.persistent,
                stateDirectory: nil, engine: chosen.engine, locationBus: chosen.locationBus)
            center = created
            return created
        }
    }

    /// Sets how ``current()`` is made: the app's identity, the bus, the clock, whether
    /// state is kept across launches, and where notifications live. A Linux addition; call it
    /// before the first ``current()``.
    ///
    /// - Parameters:
    ///   - identity: the app's id, display name and icon on the desktop; `nil` derives it (see
    ///     ``ApplicationIdentity/derived``).
    ///   - bus: the bus the notification server is on; the session bus by default.
    ///   - clock: the wall clock that triggers and deadlines run on.
    ///   - persistent: whether state is kept across launches.
    ///   - engine: the ``NotificationEngineKind`` to use; `nil` (the default) takes
    ///     `DESKTOPNOTIFICATIONS_ENGINE`, else the portal in a sandbox, the agent when one is
    ///     reachable, GNOME's interface for a D-Bus activatable app on GNOME (see ``engineKind``).
    /// - Returns: `false` when ``current()`` already exists (its settings do not change).
    @discardableResult
    public static func configure(
        identity: ApplicationIdentity? = nil, bus: NotificationBus = .session,
        clock: any NotificationClock = SystemNotificationClock(), persistent: Bool = true,
        engine: NotificationEngineKind? = nil
    ) -> Bool {
        configure(identity: identity, bus: bus, clock: clock, persistent: persistent, engine: engine, locationBus: .system)
    }

    /// ``configure(identity:bus:clock:persistent:engine:)`` with the bus GeoClue2 is looked
    /// for on (the system bus in apps; a private bus in tests).
    @discardableResult
    package static func configure(
        identity: ApplicationIdentity? = nil, bus: NotificationBus = .session,
        clock: any NotificationClock = SystemNotificationClock(), persistent: Bool = true,
        engine: NotificationEngineKind? = nil, locationBus: DBusBus
    ) -> Bool {
        shared.withLock { center in
            guard center == nil else { return false }
            settings.withLock {
                $0 = Settings(identity: identity, bus: bus, clock: clock, persistent: persistent, engine: engine, locationBus: locationBus)
            }
            return true
        }
    }

    /// A center of its own, on its own bus connection: a Linux addition for tests and tools.
    /// Apps use ``current()``.
    ///
    /// - Parameters:
    ///   - identity: the app's id, display name and icon on the desktop.
    ///   - bus: the bus the notification server is on; the session bus by default.
    ///   - clock: the wall clock that triggers and deadlines run on.
    ///   - persistent: whether state is kept across launches.
    ///   - stateDirectory: where state is kept; by default
    ///     ``ApplicationIdentity/stateDirectory``. When the identity's id cannot name that
    ///     folder, nothing is kept, and the ``InvalidApplicationIdentifierError`` is logged
    ///     (label `org.desktopnotifications.center`).
    ///   - engineKind: where notifications live; `nil` (the default) takes
    ///     `DESKTOPNOTIFICATIONS_ENGINE`, else the portal in a sandbox, the agent when one is
    ///     reachable, GNOME's interface for a D-Bus activatable app on GNOME, except that a
    ///     center with `persistent` false or a `stateDirectory` of its own stays in process (see
    ///     ``engineKind``).
    public convenience init(
        identity: ApplicationIdentity, bus: NotificationBus = .session,
        clock: any NotificationClock = SystemNotificationClock(), persistent: Bool = true,
        stateDirectory: URL? = nil, engine engineKind: NotificationEngineKind? = nil
    ) {
        self.init(
            identity: identity, bus: bus, clock: clock, persistent: persistent, stateDirectory: stateDirectory,
            engine: engineKind, locationBus: .system)
    }

    /// ``init(identity:bus:clock:persistent:stateDirectory:engine:)`` with the bus GeoClue2 is
    /// looked for on (the system bus in apps; a private bus in tests) and the deadline for
    /// `didReceive` (``responseDeadline`` in apps).
    package init(
        identity: ApplicationIdentity, bus: NotificationBus = .session,
        clock: any NotificationClock = SystemNotificationClock(), persistent: Bool = true,
        stateDirectory: URL? = nil, engine engineKind: NotificationEngineKind? = nil, locationBus: DBusBus,
        responseDeadline: Duration = UNUserNotificationCenter.responseDeadline
    ) {
        self.identity = identity
        didReceiveDeadline = responseDeadline
        self.bus = bus
        self.clock = clock
        let host = EngineHostReference()
        responses = ResponseQueue { response, done in
            guard let center = host.host as? UNUserNotificationCenter else { return done() }
            center.tellDidReceive(response, done: done)
        }
        let folder = persistent ? Self.stateFolder(stateDirectory, of: identity) : nil
        remotePushFolder = try? folder?.get()
        var requested = EngineChoice.requested(engineKind, environment: ProcessInfo.processInfo.environment)
        if requested == nil, !persistent || stateDirectory != nil { requested = .inProcess }
        let locationHub = LocationHub(desktopID: identity.id, bus: locationBus)
        madeEngine = EngineChoice.engine(
            requested: requested, identity: identity, bus: bus, host: host, clock: clock, stateDirectory: folder,
            locationHub: locationHub
        ) {
            EngineCore.start(
                identity: identity, client: NotificationsClient(bus: bus.dbusBus), clock: clock, host: host, stateDirectory: folder,
                locationHub: locationHub)
        }
        let engineSlot = Locked(madeEngine)
        self.engineSlot = engineSlot
        (madeEngine as? ChoosingEngine)?.whenSettled { chosen in engineSlot.withLock { $0 = chosen } }
        super.init()
        host.host = self
    }

    deinit {
        let push = remotePush.withLock { $0 }
        push.connector?.stop()
        if let connection = push.ownConnection { Task { await connection.close() } }
        applicationSide.withLock { $0.server }?.close()
        engine.close()
    }

    /// The folder given, else the identity's own.
    private static func stateFolder(_ given: URL?, of identity: ApplicationIdentity) -> Result<URL, InvalidApplicationIdentifierError> {
        if let given { return .success(given) }
        return Result { () throws(InvalidApplicationIdentifierError) in try identity.stateDirectory }
    }

    /// The delegate, held weakly (keep your own strong reference).
    ///
    /// Responses that arrive before the first delegate is set wait for it (at most
    /// 1,024), as Apple hands the response that launched an app to the delegate set while it
    /// launches; once a delegate has been set, a response that arrives while there is none is
    /// not told to anyone.
    public var delegate: (any UNUserNotificationCenterDelegate)? {
        get { delegateBox.withLock { $0.object } }
        set {
            delegateBox.withLock { $0.object = newValue }
            if newValue != nil { responses.delegateSet() }
        }
    }

    /// How long the delegate has to answer `willPresent`; after that the notification is not
    /// shown, as Apple documents for a handler that is not called in a timely manner.
    public static let presentationDeadline: Duration = .seconds(5)

    /// How long the delegate has to finish `didReceive` (call its completion handler, or
    /// return from the `async` form) before the next response is handed over. A Linux
    /// addition: Apple documents no number, and a handler that is never called stalls nothing
    /// here; it is logged and the queue goes on.
    public static let responseDeadline: Duration = .seconds(30)

    /// This center's deadline for `didReceive`: ``responseDeadline``, unless the package's
    /// initializer was given another (tests shorten it, as a stalled delegate would otherwise
    /// hold a test for 30 s).
    let didReceiveDeadline: Duration

    /// Without a delegate the answer is known at once, with no hop to the main actor.
    package var presentationOptionsWithoutAsking: UNNotificationPresentationOptions? {
        delegate == nil ? Self.defaultPresentationOptions : nil
    }

    /// Hands `then` the delegate's answer, or `[]` when it does not come within
    /// ``presentationDeadline``: on the main actor, where the delegate answered, or on the
    /// deadline's queue.
    package func askPresentationOptions(for notification: UNNotification, then: @escaping @Sendable (UNNotificationPresentationOptions) -> Void) {
        guard delegate != nil else { return then(Self.defaultPresentationOptions) }
        AnswerDeadlines.shared.ask(within: Self.presentationDeadline) {
            await self.askWillPresent(notification)
        } answered: { options in
            then(options)
        } expired: {
            SubsystemLog.center.logger.warning(
                "the delegate did not answer willPresent in time; not shown",
                metadata: ["identifier": "\(notification.request.identifier)"])
            then([])
        }
    }

    @MainActor
    private func askWillPresent(_ notification: UNNotification) async -> UNNotificationPresentationOptions {
        guard let delegate else { return Self.defaultPresentationOptions }
        return await delegate.userNotificationCenter(self, willPresent: notification)
    }

    /// Tells the delegate, and calls `done` on the main actor when it has finished or the
    /// response deadline has passed, whichever comes first.
    @MainActor
    fileprivate func tellDidReceive(_ response: UNNotificationResponse, done: @escaping @MainActor @Sendable () -> Void) {
        guard delegate != nil else { return done() }
        AnswerDeadlines.shared.ask(within: didReceiveDeadline) {
            await self.delegate?.userNotificationCenter(self, didReceive: response)
        } answered: { _ in
            done()
        } expired: {
            SubsystemLog.center.logger.warning(
                "the delegate did not finish didReceive in time; going on with the next response",
                metadata: ["identifier": "\(response.notification.request.identifier)", "action": "\(response.actionIdentifier)"])
            Task { @MainActor in done() }
        }
    }

    /// Runs `work` and hands its outcome to `completion` on the callback queue.
    func complete<Value: Sendable>(
        _ completion: (@Sendable (Value) -> Void)?, _ work: @escaping @Sendable () async -> Value
    ) {
        let queue = callbackQueue
        Task {
            let value = await work()
            guard let completion else { return }
            queue.async { completion(value) }
        }
    }
}

/// The weak reference the center keeps to its delegate.
struct DelegateReference: @unchecked Sendable {
    weak var object: (any UNUserNotificationCenterDelegate)?
}

extension UNUserNotificationCenter: EngineHost {
    package func receive(_ response: UNNotificationResponse) {
        responses.enqueue(response)
    }
}
