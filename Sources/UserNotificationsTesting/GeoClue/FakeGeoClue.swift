public import DBus
import DesktopNotificationsSupport
import Foundation
import UserNotifications

/// A GeoClue2 service for tests: owns `org.freedesktop.GeoClue2` on a private bus (the
/// tests' "system" bus: point `DBUS_SYSTEM_BUS_ADDRESS` at it) and serves the Manager, Client
/// and Location objects of GeoClue's interface, scripted by the test.
///
/// - ``move(latitude:longitude:accuracy:timeout:)`` puts the device somewhere (``follow(_:timeout:)``
///   along a path, ``changeAccuracy(to:timeout:)`` in place): every started client
///   gets a new Location object and a `LocationUpdated(old, new)` signal, and the call waits
///   until each client's owner has read the new object (so a test knows the position arrived).
///   Values are sent as given, NaN and out-of-range ones included, to play a hostile service.
/// - ``deny(desktopID:)`` refuses an app: its next `Start` fails with `AccessDenied`, and its
///   running clients turn `Active` false (with `PropertiesChanged`), as GeoClue does when the
///   user turns location off for the app; ``allow(desktopID:)`` turns those clients on again
///   (`Active` true), as GeoClue does when its agent allows the app again.
/// - ``restart()`` drops the name and everything it served and comes back under a new unique
///   name, as a restarted GeoClue does; clients made before are gone.
/// - ``stop()`` leaves the bus; ``serveActivation(on:folder:)`` makes the name activatable,
///   so that a call to it brings the fake back, as the bus starts a system's GeoClue.
///
/// A client whose owner leaves the bus is dropped, as GeoClue drops it.
///
/// It does not apply `DistanceThreshold` or `TimeThreshold` (every move is sent), and records
/// what each client was told (``clients``) and every call (``calls``).
public final class FakeGeoClue: Sendable {
    /// A client as the fake sees it.
    public struct Client: Sendable, Hashable {
        /// The client's object path.
        public let path: String
        /// The unique name of the connection that asked for it.
        public let owner: String
        /// Its `DesktopId` property.
        public var desktopID: String = ""
        /// Its `DistanceThreshold` property, in metres.
        public var distanceThreshold: UInt32 = 0
        /// Its `RequestedAccuracyLevel` property (GClueAccuracyLevel).
        public var requestedAccuracyLevel: UInt32 = 0
        /// Whether it is started and allowed (its `Active` property).
        public var active = false
        /// Whether `DeleteClient` removed it.
        public var deleted = false
        /// The Location object last announced to it.
        public var location: String = "/"
    }

    private struct Position: Sendable {
        var latitude: Double
        var longitude: Double
        var accuracy: Double
    }

    private struct State: Sendable {
        var connection: DBusConnection?
        var clients: [String: Client] = [:]
        var clientOrder: [String] = []
        var locations: [String: Position] = [:]
        var nextClient = 1
        var nextLocation = 1
        var position: Position?
        var denied: Set<String> = []
        var calls: [String] = []
        /// Location objects announced and not read yet, by path.
        var unread: Set<String> = []
        /// The clients ``deny(desktopID:)`` turned off, which ``allow(desktopID:)`` turns on.
        var turnedOff: Set<String> = []
        var activations = 0
        /// Brings the fake back when the bus starts it (``serveActivation(on:folder:)``).
        var activationWatcher: Task<Void, Never>?
    }

    private let bus: DBusBus
    private let state = Locked(State())

    /// The name the fake owns.
    public static let busName = "org.freedesktop.GeoClue2"
    static let managerPath = "/org/freedesktop/GeoClue2/Manager"

    /// Starts the service on `bus`.
    public static func start(on bus: DBusBus) async throws -> FakeGeoClue {
        let fake = FakeGeoClue(bus: bus)
        try await fake.comeUp()
        return fake
    }

    private init(bus: DBusBus) {
        self.bus = bus
    }

    deinit {
        state.withLock(\.activationWatcher)?.cancel()
    }

    /// The clients made so far (deleted ones marked), in the order they were made.
    public var clients: [Client] {
        state.withLock { state in state.clientOrder.compactMap { state.clients[$0] } }
    }

    /// The calls so far, as `Interface.Member` (`Properties.Set` as `Set DesktopId`).
    public var calls: [String] { state.withLock(\.calls) }

    /// The unique name the service has now.
    public var uniqueName: String? { state.withLock(\.connection)?.uniqueName }

    /// How many times the bus started the fake (``serveActivation(on:folder:)``).
    public var activations: Int { state.withLock(\.activations) }

    /// Puts the device at a position; waits (up to `timeout`) until every started client's
    /// owner has read it. Returns how many clients were told.
    @discardableResult
    public func move(latitude: Double, longitude: Double, accuracy: Double, timeout: Duration = .seconds(5)) async throws -> Int {
        let (connection, announcements) = state.withLock { state -> (DBusConnection?, [(Client, String, String)]) in
            let position = Position(latitude: latitude, longitude: longitude, accuracy: accuracy)
            state.position = position
            var announcements: [(Client, String, String)] = []
            for path in state.clientOrder {
                guard let client = state.clients[path], client.active, !client.deleted else { continue }
                let location = "/org/freedesktop/GeoClue2/Location/\(state.nextLocation)"
                state.nextLocation += 1
                state.locations[location] = position
                state.unread.insert(location)
                state.clients[path]?.location = location
                announcements.append((client, client.location, location))
            }
            return (state.connection, announcements)
        }
        guard let connection else { return 0 }
        exportLocations(on: connection)
        for (client, old, new) in announcements {
            try connection.send(try GeoClueClientSpec.LocationUpdatedSignal(old: try DBusObjectPath(old), new: try DBusObjectPath(new))
                .message(path: try DBusObjectPath(client.path), destination: client.owner))
        }
        let paths = Set(announcements.map(\.2))
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ !$0.unread.isDisjoint(with: paths) }) {
            guard ContinuousClock.now < deadline else { throw FakeGeoClueError.notRead(Array(paths)) }
            try await Task.sleep(for: .milliseconds(5))
        }
        return announcements.count
    }

    /// One point of a path: where the device is and how sure GeoClue is of it, in metres.
    public struct Fix: Sendable, Hashable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// The radius of uncertainty, in metres.
        public var accuracy: Double

        /// A point of a path.
        public init(latitude: Double, longitude: Double, accuracy: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.accuracy = accuracy
        }
    }

    /// Moves the device along `path`, one ``move(latitude:longitude:accuracy:timeout:)`` per
    /// point, each read by the clients before the next is sent.
    public func follow(_ path: [Fix], timeout: Duration = .seconds(5)) async throws {
        for fix in path {
            try await move(latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy, timeout: timeout)
        }
    }

    /// Announces the current position again with another accuracy (a GPS fix lost to Wi-Fi,
    /// say); returns how many clients were told (none when there is no position yet).
    @discardableResult
    public func changeAccuracy(to accuracy: Double, timeout: Duration = .seconds(5)) async throws -> Int {
        guard let position = state.withLock(\.position) else { return 0 }
        return try await move(latitude: position.latitude, longitude: position.longitude, accuracy: accuracy, timeout: timeout)
    }

    /// Refuses `desktopID` from now on: `Start` fails with `AccessDenied` and its running
    /// clients turn inactive.
    public func deny(desktopID: String) throws {
        let (connection, turnedOff) = state.withLock { state -> (DBusConnection?, [Client]) in
            state.denied.insert(desktopID)
            var turnedOff: [Client] = []
            for (path, client) in state.clients where client.desktopID == desktopID && client.active {
                state.clients[path]?.active = false
                state.turnedOff.insert(path)
                turnedOff.append(client)
            }
            return (state.connection, turnedOff)
        }
        guard let connection else { return }
        for client in turnedOff {
            try sendActive(false, to: client, on: connection)
        }
    }

    /// Accepts `desktopID` again, and turns the clients ``deny(desktopID:)`` turned off on again
    /// (`Active` true, with `PropertiesChanged`), as GeoClue restarts the clients it stopped
    /// for its agent when the agent allows the app again.
    public func allow(desktopID: String) throws {
        let (connection, turnedOn) = state.withLock { state -> (DBusConnection?, [Client]) in
            state.denied.remove(desktopID)
            var turnedOn: [Client] = []
            for path in state.turnedOff {
                guard let client = state.clients[path], client.desktopID == desktopID, !client.deleted else { continue }
                state.turnedOff.remove(path)
                state.clients[path]?.active = true
                turnedOn.append(client)
            }
            return (state.connection, turnedOn)
        }
        guard let connection else { return }
        for client in turnedOn {
            try sendActive(true, to: client, on: connection)
        }
    }

    private func sendActive(_ active: Bool, to client: Client, on connection: DBusConnection) throws {
        try connection.send(try PropertiesSpec.PropertiesChangedSignal(
            interfaceName: GeoClueClientSpec.name, changedProperties: [GeoClueClientSpec.Property.active.rawValue: .boolean(active)],
            invalidatedProperties: []
        ).message(path: try DBusObjectPath(client.path), destination: client.owner))
    }

    /// Leaves the bus and comes back under a new unique name, forgetting every client and
    /// Location object (the position and the refusals stay).
    public func restart() async throws {
        await goDown()
        try await comeUp()
    }

    /// Leaves the bus.
    public func stop() async {
        await goDown()
    }

    /// Makes `org.freedesktop.GeoClue2` activatable on `testBus` (started with a service
    /// directory), as a system's GeoClue is: while the fake is off the bus, a call to the name
    /// makes the bus start a placeholder process, and the fake comes back in its place (under
    /// a new unique name, with no clients) and stops the placeholder, by its PID. Returns once
    /// the bus lists the name as activatable. The placeholder reports its PID in `folder`.
    public func serveActivation(on testBus: TestBus, folder: URL) async throws {
        let script = folder.appendingPathComponent("geoclue-activation.sh").path
        let pidFile = folder.appendingPathComponent("geoclue-activation.pid").path
        try """
            #!/bin/sh
            echo $$ > '\(pidFile).new' && mv '\(pidFile).new' '\(pidFile)'
            exec sleep 60

            """.write(toFile: script, atomically: true, encoding: .utf8)
        // Made executable by `install` in a process of its own: a script this process wrote
        // can fail to start with ETXTBSY (see BuiltProduct.makeExecutable(atPath:)).
        try await BuiltProduct.makeExecutable(atPath: script)
        try testBus.writeService(name: Self.busName, exec: script)
        let watcher = Task { [weak self] in
            while !Task.isCancelled, self != nil {
                guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
                      let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    try? await Task.sleep(for: .milliseconds(20))
                    continue
                }
                try? FileManager.default.removeItem(atPath: pidFile)
                await self?.takeActivation(placeholder: pid)
            }
        }
        state.withLock { state in
            state.activationWatcher?.cancel()
            state.activationWatcher = watcher
        }
        // The bus rereads its service folders for a name it does not know; ReloadConfig makes
        // ListActivatableNames see the new file now.
        let connection = try await DBusConnection.connect(to: bus)
        defer { Task { await connection.close() } }
        _ = try await connection.callBus("ReloadConfig")
        guard try await connection.listActivatableNames().contains(Self.busName) else {
            throw FakeGeoClueError.notActivatable
        }
    }

    private func takeActivation(placeholder pid: Int32) async {
        if state.withLock({ $0.connection == nil }) {
            do {
                try await comeUp()
                state.withLock { $0.activations += 1 }
            } catch {
                FileHandle.standardError.write(Data("FakeGeoClue: could not come back for an activation: \(error)\n".utf8))
            }
        }
        _ = kill(pid, SIGTERM)
    }

    // MARK: - Serving

    private func goDown() async {
        let connection = state.withLock { state -> DBusConnection? in
            defer {
                state.connection = nil
                state.clients = [:]
                state.clientOrder = []
                state.locations = [:]
                state.unread = []
            }
            return state.connection
        }
        await connection?.close()
    }

    private func comeUp() async throws {
        let connection = try await DBusConnection.connect(to: bus)
        let manager = DBusExportedObject(path: try DBusObjectPath(Self.managerPath), interfaces: [
            try DBusExportedInterface(name: GeoClueManagerSpec.name, introspectionXML: GeoClueManagerSpec.introspectionXML) { [self] in
                manage($0, on: connection)
            },
            try DBusExportedInterface(name: PropertiesSpec.name, introspectionXML: PropertiesSpec.introspectionXML) { invocation in
                switch invocation.propertiesCall {
                case .get(let arguments)? where arguments.propertyName == GeoClueManagerSpec.Property.inUse.rawValue:
                    invocation.reply(PropertiesSpec.GetReply(value: .boolean(true)).values)
                case .get(let arguments)? where arguments.propertyName == GeoClueManagerSpec.Property.availableAccuracyLevel.rawValue:
                    invocation.reply(PropertiesSpec.GetReply(value: .uint32(8)).values)
                default: invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no such property")
                }
            },
        ])
        connection.export(manager)
        // GeoClue drops the clients of a peer that left the bus.
        _ = try await connection.subscribe(to: [
            DBusMatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged", signature: "sss")
        ]) { [weak self] event in
            guard case .signal(let message) = event, let arguments = try? message.arguments("sss"),
                  let name = arguments[0].stringValue, name.hasPrefix(":"), arguments[2].stringValue == "" else { return }
            self?.forget(owner: name)
        }
        state.withLock { $0.connection = connection }
        guard try await connection.requestName(Self.busName) == .primaryOwner else {
            throw FakeGeoClueError.nameTaken
        }
    }

    private func forget(owner: String) {
        state.withLock { state in
            for (path, client) in state.clients where client.owner == owner && !client.deleted {
                state.clients[path]?.deleted = true
                state.clients[path]?.active = false
            }
        }
    }

    private func record(_ call: String) {
        state.withLock { $0.calls.append(call) }
    }

    private func manage(_ invocation: DBusMethodInvocation, on connection: DBusConnection) {
        let member = invocation.message.member ?? ""
        record("Manager.\(member)")
        let call = invocation.message.member.flatMap(GeoClueManagerSpec.Method.init(rawValue:)).flatMap {
            try? GeoClueManagerSpec.Call($0, invocation.message.body)
        }
        switch call {
        case .getClient?, .createClient?:
            let owner = invocation.message.sender ?? ""
            let path = state.withLock { state -> String in
                if case .getClient? = call, let existing = state.clientOrder.first(where: {
                    state.clients[$0]?.owner == owner && state.clients[$0]?.deleted == false
                }) {
                    return existing
                }
                let path = "/org/freedesktop/GeoClue2/Client/\(state.nextClient)"
                state.nextClient += 1
                state.clients[path] = Client(path: path, owner: owner)
                state.clientOrder.append(path)
                return path
            }
            do {
                let objectPath = try DBusObjectPath(path)
                connection.export(DBusExportedObject(path: objectPath, interfaces: [
                    try DBusExportedInterface(name: GeoClueClientSpec.name, introspectionXML: GeoClueClientSpec.introspectionXML) { [self] in
                        serveClient($0, path: path, on: connection)
                    },
                    try DBusExportedInterface(name: PropertiesSpec.name, introspectionXML: PropertiesSpec.introspectionXML) { [self] in
                        clientProperties($0, path: path)
                    },
                ]))
                invocation.reply(GeoClueManagerSpec.GetClientReply(client: objectPath).values)
            } catch {
                invocation.fail(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")
            }
        case .deleteClient(let arguments)?:
            let path = arguments.client
            state.withLock { state in
                state.clients[path.rawValue]?.deleted = true
                state.clients[path.rawValue]?.active = false
            }
            invocation.reply()
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
    }

    private func serveClient(_ invocation: DBusMethodInvocation, path: String, on connection: DBusConnection) {
        let member = invocation.message.member ?? ""
        record("Client.\(member)")
        switch member {
        case GeoClueClientSpec.Method.start.rawValue:
            let (refused, position) = state.withLock { state -> (Bool, Position?) in
                guard let client = state.clients[path], !client.deleted else { return (true, nil) }
                if state.denied.contains(client.desktopID) { return (true, nil) }
                state.clients[path]?.active = true
                return (false, state.position)
            }
            guard !refused else {
                return invocation.fail(name: "org.freedesktop.DBus.Error.AccessDenied", message: "'\(path)' disallowed, no agent for UID")
            }
            if let position {
                state.withLock { state in
                    let location = "/org/freedesktop/GeoClue2/Location/\(state.nextLocation)"
                    state.nextLocation += 1
                    state.locations[location] = position
                    state.clients[path]?.location = location
                }
            }
            invocation.reply()
        case GeoClueClientSpec.Method.stop.rawValue:
            state.withLock { $0.clients[path]?.active = false }
            invocation.reply()
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no such method")
        }
        exportLocations(on: connection)
    }

    /// Serves every Location object not served yet.
    private func exportLocations(on connection: DBusConnection) {
        let paths = state.withLock { Array($0.locations.keys) }
        for path in paths {
            guard let objectPath = try? DBusObjectPath(path),
                  let interface = try? DBusExportedInterface(name: PropertiesSpec.name, introspectionXML: PropertiesSpec.introspectionXML, handler: { [self] in
                      locationProperties($0, path: path)
                  }) else { continue }
            connection.export(DBusExportedObject(path: objectPath, interfaces: [interface]))
        }
    }

    private func clientProperties(_ invocation: DBusMethodInvocation, path: String) {
        switch invocation.propertiesCall {
        case .get(let arguments)?:
            let name = arguments.propertyName
            record("Get \(name)")
            guard let client = state.withLock({ $0.clients[path] }) else {
                return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no client")
            }
            let value: DBusValue? = switch name {
            case "Location": .objectPath((try? DBusObjectPath(client.location)) ?? .root)
            case "DesktopId": .string(client.desktopID)
            case "DistanceThreshold": .uint32(client.distanceThreshold)
            case "RequestedAccuracyLevel": .uint32(client.requestedAccuracyLevel)
            case "Active": .boolean(client.active)
            case "TimeThreshold": .uint32(0)
            default: nil
            }
            guard let value else { return invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no property \(name)") }
            if name == "Location" { markRead(client.location) }
            invocation.reply(PropertiesSpec.GetReply(value: value).values)
        case .set(let arguments)?:
            let (name, value) = (arguments.propertyName, arguments.value)
            record("Set \(name)")
            let accepted = state.withLock { state -> Bool in
                switch (name, value) {
                case ("DesktopId", .string(let id)): state.clients[path]?.desktopID = id
                case ("DistanceThreshold", .uint32(let metres)): state.clients[path]?.distanceThreshold = metres
                case ("RequestedAccuracyLevel", .uint32(let level)): state.clients[path]?.requestedAccuracyLevel = level
                case ("TimeThreshold", .uint32): break
                default: return false
                }
                return true
            }
            if accepted { invocation.reply() } else {
                invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "cannot set \(name) to \(value.type.signature)")
            }
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "only Get and Set")
        }
    }

    private func locationProperties(_ invocation: DBusMethodInvocation, path: String) {
        guard let position = state.withLock({ $0.locations[path] }) else {
            return invocation.fail(name: "org.freedesktop.DBus.Error.UnknownObject", message: "no location")
        }
        let properties: [(String, DBusValue)] = [
            ("Latitude", .double(position.latitude)), ("Longitude", .double(position.longitude)),
            ("Accuracy", .double(position.accuracy)), ("Altitude", .double(-Double.greatestFiniteMagnitude)),
            ("Speed", .double(-1)), ("Heading", .double(-1)), ("Description", .string("fake")),
            ("Timestamp", .structure([.uint64(UInt64(Date().timeIntervalSince1970)), .uint64(0)])),
        ]
        switch invocation.propertiesCall {
        case .getAll?:
            record("Location.GetAll")
            markRead(path)
            invocation.reply([.variantDictionary(properties)])
        case .get(let arguments)?:
            guard let value = properties.first(where: { $0.0 == arguments.propertyName })?.1 else {
                return invocation.fail(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "no such property")
            }
            markRead(path)
            invocation.reply(PropertiesSpec.GetReply(value: value).values)
        default:
            invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "only Get and GetAll")
        }
    }

    private func markRead(_ path: String) {
        state.withLock { _ = $0.unread.remove(path) }
    }
}

/// What went wrong in the fake GeoClue itself.
public enum FakeGeoClueError: Error, Hashable, Sendable {
    /// Another connection owns `org.freedesktop.GeoClue2`.
    case nameTaken
    /// No client read these Location objects in time.
    case notRead([String])
    /// The bus did not list the name as activatable after its service file was written.
    case notActivatable
}
