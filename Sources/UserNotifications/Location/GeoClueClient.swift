import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
import Logging

/// One GeoClue2 client on the system bus: made with `Manager.GetClient`, given the app's
/// desktop id, a distance threshold and an accuracy level, started, and followed through its
/// `LocationUpdated` signals; stopped and deleted by ``stop()``.
///
/// Outside input is checked: signals count only from the current owner of
/// `org.freedesktop.GeoClue2` and for this client's own object; each new Location object is
/// read with `Properties.GetAll` and a position that is not finite or out of range is dropped
/// with a log line (``GeoClueLocationReading``). Signals are taken one at a time, in order,
/// by one task, so a flood makes one call at a time.
///
/// When GeoClue goes away the handler hears ``Event/serviceLost``; when it comes back (a new
/// owner of the name) the client is made again with the same settings and the handler hears
/// ``Event/resumed``. When GeoClue refuses the app (`Start` fails with `AccessDenied`, or the
/// client's `Active` turns false) the handler hears ``Event/failed(_:)``; when GeoClue turns
/// the client on again (`Active` true: its agent allowed the app again), ``Event/resumed``.
/// ``resume()`` asks GeoClue again without waiting for either: it starts a refused client
/// again, or makes a lost one again with `GetClient`, which activates an activatable GeoClue.
package final class GeoClueClient: Sendable {
    /// What the client reports, in order.
    package enum Event: Sendable, Hashable {
        /// A new position.
        case fix(LocationFix)
        /// GeoClue refused the app, or could not be used again after coming back.
        case failed(LocationServiceError)
        /// GeoClue left the bus; positions stop until it comes back.
        case serviceLost
        /// GeoClue serves the client again after ``failed(_:)`` or ``serviceLost``.
        case resumed
    }

    package static let busName = "org.freedesktop.GeoClue2"
    static let managerPath = try! DBusObjectPath("/org/freedesktop/GeoClue2/Manager")
    /// The detail of the ``LocationServiceError/serviceUnavailable(_:)`` of a client whose bus
    /// connection closed: it cannot be asked anything again, only replaced.
    static let connectionClosed = "the system bus connection closed"

    private struct Settings: Sendable, Hashable {
        var accuracy: GeoClueAccuracyLevel
        var distanceThreshold: UInt32
    }

    private struct State: Sendable {
        var clientPath: DBusObjectPath?
        /// The unique name of the GeoClue instance that made the client.
        var clientOwner: String?
        var settings: Settings
        /// Whether GeoClue serves the client now (started, and not turned off since).
        var active = false
        var stopped = false
        /// The connection closed: nothing can be asked any more.
        var disconnected = false
        var consumer: Task<Void, Never>?
        /// The last of the makings and restarts of the GeoClue client, which go one at a time.
        var serial: Task<Void, Never>?
    }

    private let connection: DBusConnection
    private let desktopID: String
    private let handler: @Sendable (Event) async -> Void
    private let state: Locked<State>

    private init(
        connection: DBusConnection, desktopID: String, settings: Settings, handler: @escaping @Sendable (Event) async -> Void
    ) {
        self.connection = connection
        self.desktopID = desktopID
        self.handler = handler
        self.state = Locked(State(settings: settings))
    }

    /// Connects to `bus`, makes and starts a GeoClue client for `desktopID`, and follows it.
    /// The position GeoClue already has, if any, reaches `handler` as the first event.
    ///
    /// - Throws: ``LocationServiceError/serviceUnavailable(_:)`` when the bus cannot be reached
    ///   or `org.freedesktop.GeoClue2` has no owner and cannot be activated;
    ///   ``LocationServiceError/accessDenied(_:)`` when GeoClue refuses the app;
    ///   ``LocationServiceError/serviceFailed(_:)`` for any other failure of its calls.
    package static func start(
        bus: DBusBus = .system, desktopID: String, accuracy: GeoClueAccuracyLevel, distanceThreshold: UInt32,
        timeout: Duration = .seconds(5), handler: @escaping @Sendable (Event) async -> Void
    ) async throws(LocationServiceError) -> GeoClueClient {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.connect(to: bus, timeout: timeout)
        } catch {
            throw .serviceUnavailable("the system bus cannot be reached (\(error))")
        }
        let client = GeoClueClient(
            connection: connection, desktopID: desktopID,
            settings: Settings(accuracy: accuracy, distanceThreshold: distanceThreshold), handler: handler)
        do {
            try await client.begin()
            return client
        } catch {
            await connection.close()
            throw error
        }
    }

    private func begin() async throws(LocationServiceError) {
        let subscription: DBusSignalSubscription
        do {
            subscription = try await connection.subscribe(to: [
                DBusMatchRule(
                    interface: GeoClueClientSpec.name, member: GeoClueClientSpec.Signal.locationUpdated.rawValue,
                    signature: GeoClueClientSpec.Signal.locationUpdated.signature),
                DBusMatchRule(
                    interface: PropertiesSpec.name, member: PropertiesSpec.Signal.propertiesChanged.rawValue,
                    arguments: [0: GeoClueClientSpec.name], signature: PropertiesSpec.Signal.propertiesChanged.signature),
            ], senderMustOwn: Self.busName)
        } catch {
            throw .serviceUnavailable("cannot follow \(Self.busName) (\(error))")
        }
        if subscription.initialOwner == nil {
            let activatable = (try? await connection.listActivatableNames()) ?? []
            guard activatable.contains(Self.busName) else {
                throw .serviceUnavailable("\(Self.busName) has no owner and cannot be activated")
            }
        }
        let first = try await makeClient()
        let consumer = Task { [self] in
            if let first { await handler(.fix(first)) }
            for await event in subscription.events {
                if Task.isCancelled { break }
                await take(event)
            }
        }
        state.withLock { $0.consumer = consumer }
    }

    /// Changes the accuracy level and distance threshold of the running client.
    package func update(accuracy: GeoClueAccuracyLevel, distanceThreshold: UInt32) async {
        let (path, changed) = state.withLock { state -> (DBusObjectPath?, Bool) in
            let settings = Settings(accuracy: accuracy, distanceThreshold: distanceThreshold)
            defer { state.settings = settings }
            return (state.clientPath, state.settings != settings)
        }
        guard changed, let path else { return }
        do {
            // GeoClue reads the accuracy level at Start: restart the client around the change.
            // `active` follows, so that the `Active` changes this makes GeoClue announce are
            // not taken for a refusal.
            state.withLock { $0.active = false }
            try await call(.stop, at: path)
            try await setProperties(path: path)
            try await call(.start, at: path)
            state.withLock { $0.active = $0.clientPath == path }
        } catch {
            SubsystemLog.center.logger.warning("the location client's settings could not be changed", metadata: ["error": SubsystemLog.describe(error)])
        }
    }

    /// Stops and deletes the GeoClue client and closes the connection; no event follows.
    package func stop() async {
        let (path, consumer) = state.withLock { state -> (DBusObjectPath?, Task<Void, Never>?) in
            state.stopped = true
            defer { state.clientPath = nil; state.consumer = nil }
            return (state.clientPath, state.consumer)
        }
        consumer?.cancel()
        if let path {
            do {
                try await call(.stop, at: path)
                try await call(.deleteClient(.init(client: path)))
            } catch {
                SubsystemLog.center.logger.info("the location client could not be stopped", metadata: ["error": SubsystemLog.describe(error)])
            }
        }
        await connection.close()
    }

    // MARK: - The client object

    /// Gets a client, sets it up and starts it; returns GeoClue's current position, if any.
    private func makeClient() async throws(LocationServiceError) -> LocationFix? {
        let reply = try await call(.getClient)
        guard let path = try? GeoClueManagerSpec.GetClientReply(reply.body).client else {
            throw .serviceFailed("GetClient answered \(reply.bodySignature), not an object path")
        }
        try await setProperties(path: path)
        try await call(.start, at: path)
        let stopped = state.withLock { state in
            if !state.stopped {
                state.clientPath = path
                state.clientOwner = reply.sender
                state.active = true
            }
            return state.stopped
        }
        guard !stopped else { return nil }
        return try await currentFix(of: path)
    }

    /// The position GeoClue has for the client now (its `Location`), if any.
    private func currentFix(of path: DBusObjectPath) async throws(LocationServiceError) -> LocationFix? {
        let location = try await call(
            .get(.init(interfaceName: GeoClueClientSpec.name, propertyName: GeoClueClientSpec.Property.location.rawValue)), at: path)
        guard case .objectPath(let current)? = try? PropertiesSpec.GetReply(location.body).value else {
            throw .serviceFailed("the client's Location is not an object path")
        }
        return current == .root ? nil : await readFix(at: current)
    }

    private func setProperties(path: DBusObjectPath) async throws(LocationServiceError) {
        let settings = state.withLock(\.settings)
        let values: [(GeoClueClientSpec.Property, DBusValue)] = [
            (.desktopId, .string(desktopID)),
            (.distanceThreshold, .uint32(settings.distanceThreshold)),
            (.requestedAccuracyLevel, .uint32(settings.accuracy.rawValue)),
        ]
        for (property, value) in values {
            try await call(.set(.init(interfaceName: GeoClueClientSpec.name, propertyName: property.rawValue, value: value)), at: path)
        }
    }

    /// Reads a Location object; a refused one is logged and gives `nil`.
    private func readFix(at path: DBusObjectPath) async -> LocationFix? {
        do {
            let reply = try await call(.getAll(.init(interfaceName: GeoClueLocationSpec.name)), at: path)
            switch GeoClueLocationReading.fix(fromReplyBody: reply.body) {
            case .success(let fix): return fix
            case .failure(let problem):
                SubsystemLog.center.logger.warning("a position from the location service was dropped", metadata: ["reason": "\(problem)"])
                return nil
            }
        } catch {
            SubsystemLog.center.logger.warning("a position could not be read from the location service", metadata: ["error": SubsystemLog.describe(error)])
            return nil
        }
    }

    @discardableResult
    private func call(_ call: GeoClueManagerSpec.Call) async throws(LocationServiceError) -> DBusMessage {
        try await send(call.method.rawValue) { () throws(DBusError) in try call.message(to: Self.busName, path: Self.managerPath) }
    }

    @discardableResult
    private func call(_ call: GeoClueClientSpec.Call, at path: DBusObjectPath) async throws(LocationServiceError) -> DBusMessage {
        try await send(call.method.rawValue) { () throws(DBusError) in try call.message(to: Self.busName, path: path) }
    }

    @discardableResult
    private func call(_ call: PropertiesSpec.Call, at path: DBusObjectPath) async throws(LocationServiceError) -> DBusMessage {
        try await send(call.method.rawValue) { () throws(DBusError) in try call.message(to: Self.busName, path: path) }
    }

    /// Sends the call `build` makes and waits for its reply; a failure is classified.
    private func send(_ member: String, _ build: () throws(DBusError) -> DBusMessage) async throws(LocationServiceError) -> DBusMessage {
        do {
            return try await connection.call(try build())
        } catch let error as DBusError {
            throw Self.classify(error, member: member)
        } catch {
            throw .serviceFailed("\(member): \(error)")
        }
    }

    /// The location error a failed call amounts to.
    static func classify(_ error: DBusError, member: String) -> LocationServiceError {
        guard case .remote(let name, let text) = error else {
            if case .disconnected = error { return .serviceUnavailable(connectionClosed) }
            return .serviceFailed("\(member): \(error)")
        }
        switch name {
        case "org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.AuthFailed":
            return .accessDenied("\(member): \(TerminalText.singleLine(text))")
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
             "org.freedesktop.DBus.Error.Spawn.ServiceNotFound", "org.freedesktop.DBus.Error.Spawn.ExecFailed",
             "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.NoReply":
            return .serviceUnavailable("\(member): \(name)")
        default:
            return .serviceFailed("\(member): \(name): \(TerminalText.singleLine(text))")
        }
    }

    // MARK: - Events

    private func take(_ event: DBusSignalEvent) async {
        switch event {
        case .signal(let message):
            let path = state.withLock(\.clientPath)
            guard let path, message.path == path else { return }
            if message.member == GeoClueClientSpec.Signal.locationUpdated.rawValue {
                guard let signal = try? GeoClueClientSpec.LocationUpdatedSignal(message.body), signal.new != .root else { return }
                if let fix = await readFix(at: signal.new) { await handler(.fix(fix)) }
            } else if message.member == PropertiesSpec.Signal.propertiesChanged.rawValue {
                guard let signal = try? PropertiesSpec.PropertiesChangedSignal(message.body),
                      case .boolean(let active)? = signal.changedProperties[GeoClueClientSpec.Property.active.rawValue] else { return }
                let was = state.withLock { state in
                    defer { state.active = active }
                    return state.active
                }
                guard active != was else { return }
                if active {
                    SubsystemLog.center.logger.notice("the location service turned the app's client on again")
                    await handler(.resumed)
                    // The position may have changed while the client was off.
                    do {
                        if let fix = try await currentFix(of: path) { await handler(.fix(fix)) }
                    } catch {
                        SubsystemLog.center.logger.warning("the position could not be read again", metadata: ["error": SubsystemLog.describe(error)])
                    }
                } else {
                    await handler(.failed(.accessDenied("GeoClue turned the app's location client off")))
                }
            }
        case .ownerChanged(_, _, let newOwner):
            let (stopped, current) = state.withLock { state -> (Bool, Bool) in
                // GeoClue started by activation for our GetClient: the client is its own.
                if newOwner != nil, newOwner == state.clientOwner { return (state.stopped, true) }
                state.clientPath = nil
                state.clientOwner = nil
                state.active = false
                return (state.stopped, false)
            }
            guard !stopped, !current else { return }
            guard let newOwner else {
                SubsystemLog.center.logger.notice("the location service left the bus")
                return await handler(.serviceLost)
            }
            SubsystemLog.center.logger.notice("the location service came back; making its client again")
            let outcome = await serially { [self] () async -> Result<LocationFix?, LocationServiceError>? in
                // A resume() that activated this owner has made the client already.
                if state.withLock({ $0.clientOwner == newOwner && $0.clientPath != nil }) { return nil }
                do throws(LocationServiceError) {
                    return .success(try await makeClient())
                } catch {
                    return .failure(error)
                }
            }
            await report(outcome)
        case .disconnected:
            let stopped = state.withLock { state in
                state.disconnected = true
                state.active = false
                return state.stopped
            }
            if !stopped { await handler(.serviceLost) }
        }
    }

    /// Asks GeoClue to serve the client again, now: a client it turned off is started again
    /// (GeoClue asks its agent again), a client lost with GeoClue is made again (`GetClient`
    /// activates an activatable GeoClue). Does nothing when the client is served. On success
    /// the handler hears ``Event/resumed``, then GeoClue's position if it has one.
    ///
    /// - Throws: the ``LocationServiceError`` GeoClue answered; `serviceUnavailable` when the
    ///   bus connection closed, as nothing can be asked on it any more.
    package func resume() async throws(LocationServiceError) {
        let outcome = await serially { [self] () async -> Result<LocationFix?, LocationServiceError>? in
            let (path, active, disconnected) = state.withLock { ($0.clientPath, $0.active, $0.disconnected || $0.stopped) }
            if disconnected { return .failure(.serviceUnavailable(Self.connectionClosed)) }
            if active { return nil }
            do throws(LocationServiceError) {
                guard let path else { return .success(try await makeClient()) }
                try await call(.start, at: path)
                state.withLock { $0.active = $0.clientPath == path }
                return .success(nil)
            } catch {
                return .failure(error)
            }
        }
        if case .failure(let error)? = outcome { throw error }
        await report(outcome)
    }

    /// Tells the handler how a making or restart of the client went (`nil`: none was needed).
    private func report(_ outcome: Result<LocationFix?, LocationServiceError>?) async {
        switch outcome {
        case nil:
            return
        case .success(let fix)?:
            guard state.withLock({ $0.active && !$0.stopped }) else { return }
            await handler(.resumed)
            if let fix { await handler(.fix(fix)) }
        case .failure(let error)?:
            await handler(.failed(error))
        }
    }

    /// Runs `body` after the makings and restarts asked for before it.
    private func serially<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        let task = state.withLock { state -> Task<T, Never> in
            let previous = state.serial
            let task = Task {
                await previous?.value
                return await body()
            }
            state.serial = Task { _ = await task.value }
            return task
        }
        return await task.value
    }
}
