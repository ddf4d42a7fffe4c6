@testable import DBus
import DesktopNotificationsSupport
import Logging
import Testing
import UserNotificationsTesting

private let interface = "org.example.Signals"
private let path = "/org/example/Sender"

/// A large message nobody here wants must cost nothing but the bytes libdbus reads: its sender
/// and its header are checked before its body is decoded into values.
@Suite("Incoming bodies are decoded only when wanted")
struct IncomingBodyTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    static let largeBody = DBusValue.byteArray([UInt8](repeating: 0x5A, count: 28 * 1024 * 1024))

    static func signal(_ member: String, _ body: [DBusValue], to destination: String? = nil) throws -> DBusMessage {
        try .signal(path: DBusObjectPath(path), interface: interface, member: member, body: body, destination: destination)
    }

    /// How many wire bytes `connection` has decoded so far.
    static func decodedBytes(_ connection: DBusConnection) -> Int {
        var count = 0
        connection.core.performNow { count = connection.core.decodedByteCount }
        return count
    }

    /// A `Peer.Ping` round trip from `sender` to `receiver`: when it returns, `receiver` has
    /// handled every message `sender` sent before it (one sender's messages keep their order).
    static func ping(_ receiver: DBusConnection, from sender: DBusConnection) async throws {
        _ = try await sender.call(.methodCall(
            destination: receiver.uniqueName, path: .root, interface: "org.freedesktop.DBus.Peer", member: "Ping"))
    }

    /// An owner of `org.example.Owner`, and a listener subscribed with `rule` to signals only
    /// that owner may send.
    func ownerAndListener(
        rule: DBusMatchRule = DBusMatchRule(interface: interface)
    ) async throws -> (owner: DBusConnection, listener: DBusConnection, events: AsyncStream<DBusSignalEvent>) {
        let owner = try await DBusConnection.connect(to: testBus.bus)
        #expect(try await owner.requestName("org.example.Owner") == .primaryOwner)
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await listener.subscribe(to: [rule], senderMustOwn: "org.example.Owner")
        return (owner, listener, subscription.events)
    }

    @Test("a large signal sent straight to us by a peer that does not own the name is never decoded")
    func rogueUnicastSignal() async throws {
        let (owner, listener, subscription) = try await ownerAndListener()
        let rogue = try await DBusConnection.connect(to: testBus.bus)
        let before = Self.decodedBytes(listener)

        try rogue.send(Self.signal("Ping", [Self.largeBody], to: listener.uniqueName))
        try await Self.ping(listener, from: rogue)
        try owner.send(Self.signal("Ping", [.int32(1)], to: listener.uniqueName))
        let events = await collect(subscription, count: 1)

        #expect(events.count == 1)
        #expect(Self.decodedBytes(listener) - before < 4096)
    }

    @Test("a large call to a path nothing is exported at is answered UnknownMethod without decoding it")
    func callToNothing() async throws {
        let listener = try await DBusConnection.connect(to: testBus.bus)
        // 28 MB crosses the bus twice: a deadline that load on the machine cannot reach.
        let caller = try await DBusConnection.connect(to: testBus.bus, timeout: .seconds(30))
        let before = Self.decodedBytes(listener)
        let call = try DBusMessage.methodCall(
            destination: listener.uniqueName, path: DBusObjectPath("/nothing/here"), interface: interface,
            member: "Take", body: [Self.largeBody])
        let error = await #expect(throws: DBusError.self) { try await caller.call(call) }
        #expect(error?.remoteName == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(Self.decodedBytes(listener) - before < 4096)
    }

    @Test("a large signal from the owner of the name arrives whole")
    func largeSignalFromTheOwner() async throws {
        let (owner, listener, subscription) = try await ownerAndListener()
        try owner.send(Self.signal("Ping", [Self.largeBody], to: listener.uniqueName))
        let events = await collect(subscription, count: 1)
        guard case .signal(let message) = events.first else {
            Issue.record("no signal arrived: \(events)")
            return
        }
        #expect(message.body == [Self.largeBody])
    }
}

extension IncomingBodyTests {
    @Test("a large signal from the owner whose signature no rule asks for is never decoded")
    func ownerSignalOfTheWrongShape() async throws {
        let (owner, listener, subscription) = try await ownerAndListener(
            rule: DBusMatchRule(interface: interface, member: "Ping", signature: "i"))
        let before = Self.decodedBytes(listener)
        try owner.send(Self.signal("Ping", [Self.largeBody], to: listener.uniqueName))
        try owner.send(Self.signal("Ping", [.int32(2)], to: listener.uniqueName))
        let events = await collect(subscription, count: 1)
        #expect(events.count == 1)
        #expect(Self.decodedBytes(listener) - before < 4096)
    }

    @Test("a reply that holds more values than a message may decode fails the call at once")
    func replyWithTooManyValues() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        let numbers = DBusValue.array(element: .int32, (0..<WireLimits.maxDecodedValues).map { .int32(Int32($0)) })
        let methods = try DBusExportedInterface(name: interface, introspectionXML: "") { $0.reply([numbers]) }
        let export = server.export(DBusExportedObject(path: try DBusObjectPath(path), interfaces: [methods]))
        defer { export.unexport() }
        let client = try await DBusConnection.connect(to: testBus.bus, timeout: .seconds(30))
        let call = try DBusMessage.methodCall(
            destination: server.uniqueName, path: DBusObjectPath(path), interface: interface, member: "Numbers")
        await #expect(throws: DBusError.tooManyValues(limit: WireLimits.maxDecodedValues)) {
            _ = try await client.call(call)
        }
    }
}


extension IncomingBodyTests {
    @Test("a signal from the owner that cannot be decoded is dropped and logged, and the next one still comes")
    func undecodableSignalIsLogged() async throws {
        let log = LogRecorder()
        SubsystemLog.dbus.use(log.logger(label: "org.desktopnotifications.dbus"))
        defer { SubsystemLog.dbus.use(Logger(label: "org.desktopnotifications.dbus")) }
        let (owner, listener, subscription) = try await ownerAndListener()
        let numbers = DBusValue.array(element: .int32, (0..<WireLimits.maxDecodedValues).map { .int32(Int32($0)) })
        try owner.send(Self.signal("TooMany", [numbers], to: listener.uniqueName))
        try owner.send(Self.signal("Ping", [.int32(1)], to: listener.uniqueName))
        let events = await collect(subscription, count: 1)
        #expect(events.count == 1)
        let dropped = log.lines.filter { $0.contains("could not be decoded") && $0.contains("member=TooMany") }
        #expect(dropped.count == 1, "logged: \(log.lines)")
        #expect(dropped.first?.hasPrefix("warning") == true)
    }
}
