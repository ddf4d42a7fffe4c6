import DBus
import DesktopNotificationsSupport
import Foundation
@testable import UserNotifications
import Testing
import UserNotificationsTesting

/// A center with state, a fake distributor on the same private bus, and the changes the
/// center's registration handler saw.
struct PushFixture {
    let fixture: CenterFixture
    let distributor: FakeUnifiedPushDistributor
    let changes = Locked<[RemoteNotificationRegistration.Change]>([])

    var center: UNUserNotificationCenter { fixture.center }

    init(distributorName: String = "fake") async throws {
        fixture = try await CenterFixture(persistent: true)
        distributor = try await FakeUnifiedPushDistributor.start(on: fixture.testBus.bus, name: distributorName)
        let changes = self.changes
        fixture.center.remoteNotificationRegistrationHandler = { change in changes.withLock { $0.append(change) } }
    }

    /// The token the center registered with (the only registration).
    func token() throws -> String {
        try #require(distributor.registrations.keys.first)
    }

    /// Encrypts `json` for `registration` with the Python peer and sends it through the distributor.
    @discardableResult
    func push(_ json: String, to registration: RemoteNotificationRegistration, id: String? = nil) async throws -> [String: DBusValue] {
        let message = try await WebPushTestSender.encrypt(Data(json.utf8), p256dh: registration.p256dh, auth: registration.auth)
        return try await distributor.send(message, to: try token(), id: id)
    }
}

@Suite("Remote notifications through UnifiedPush")
struct UnifiedPushRegistrationTests {
    @Test("registering returns the distributor's endpoint and keys that are kept in push.json (0600), under the app id")
    func register() async throws {
        let push = try await PushFixture()
        let registration = try await push.center.registerForRemoteNotifications(description: "tests")
        let kept = try #require(push.distributor.registrations.values.first)
        #expect(registration.endpoint.absoluteString == kept.endpoint)
        #expect(registration.deviceToken == Data(kept.endpoint.utf8))
        #expect(registration.distributor == "org.unifiedpush.Distributor.fake")
        #expect(kept.service == CenterFixture.identity.id)
        #expect(kept.description == "tests")
        #expect(Base64URL.decode(registration.p256dh)?.count == 65)
        #expect(Base64URL.decode(registration.auth)?.count == 16)

        let file = push.fixture.stateHome.appendingPathComponent("push.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let record = try #require(try RemotePushRecord.load(path: file.path))
        #expect(record.endpoint == kept.endpoint)
        #expect(try record.keys(path: file.path).p256dh == registration.p256dh)

        // A second center on the same folder (the next launch) has the same keys and token,
        // and the distributor hands back the same endpoint.
        let next = UNUserNotificationCenter(
            identity: ApplicationIdentity(id: "org.example.CenterTests.Next", displayName: "Next"),
            bus: .address(push.fixture.testBus.address), persistent: true, stateDirectory: push.fixture.stateHome)
        let again = try await next.registerForRemoteNotifications()
        #expect(again.p256dh == registration.p256dh && again.auth == registration.auth)
        #expect(push.distributor.registrations.count == 1)
    }

    /// The `<interface>` element of the file `name` in dbus/, cut from its text: from the start of
    /// the line of `<interface` to the end of `</interface>`.
    static func interfaceElement(_ name: String) throws -> String {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("dbus/\(name)")
        let text = try String(contentsOf: file, encoding: .utf8)
        let start = try #require(text.range(of: "<interface "))
        let end = try #require(text.range(of: "</interface>"))
        let lineStart = text[..<start.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
        return String(text[lineStart..<end.upperBound])
    }

    @Test("the registered center serves exactly the interface element of dbus/ for org.unifiedpush.Connector2")
    func connectorServesTheFile() async throws {
        let push = try await PushFixture()
        _ = try await push.center.registerForRemoteNotifications()
        let connection = try await DBusConnection.connect(to: push.fixture.testBus.bus)
        let reply = try await connection.call(.methodCall(
            destination: CenterFixture.identity.id, path: try DBusObjectPath(UnifiedPush.connectorPath),
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect"))
        await connection.close()
        let served = try #require(reply.body.first?.stringValue)
        let element = try Self.interfaceElement("org.unifiedpush.Connector2.xml")
        #expect(served.components(separatedBy: element + "\n").count == 2, "the file is not served as written:\n\(served)")
    }

    @Test("a pushed message, encrypted by the Python peer, reaches the delegate as a push-triggered request and is shown")
    func messageToDelegate() async throws {
        let push = try await PushFixture()
        let registration = try await push.center.registerForRemoteNotifications()
        let answer = try await push.push(
            #"{"aps":{"alert":{"title":"Pushed","body":"through UnifiedPush"},"thread-id":"t1"},"extra":"x"}"#, to: registration, id: "m-1")
        #expect(answer["id"]?.stringValue == "m-1")
        #expect(await eventually { await push.fixture.delegate.presented.count == 1 })
        let notification = try #require(await push.fixture.delegate.presented.first)
        #expect(notification.request.trigger is UNPushNotificationTrigger)
        #expect(notification.request.content.title == "Pushed")
        #expect(notification.request.content.threadIdentifier == "t1")
        #expect(notification.request.content.userInfo["extra"] as? String == "x")
        #expect(await eventually { push.fixture.server.notifications.map(\.request.summary) == ["Pushed"] })
    }

    @Test("a mutable payload goes through the service extension before it is shown")
    func mutableThroughExtension() async throws {
        let push = try await PushFixture()
        push.center.setServiceExtension(AppendingExtension(.answerAtOnce))
        let registration = try await push.center.registerForRemoteNotifications()
        try await push.push(ServiceExtensionTests.mutable, to: registration)
        #expect(await eventually { push.fixture.server.notifications.first?.request.body == "Long time no see, Andrew" })
    }

    @Test("a new endpoint reaches the handler and push.json")
    func newEndpoint() async throws {
        let push = try await PushFixture()
        let registration = try await push.center.registerForRemoteNotifications()
        let endpoint = try await push.distributor.changeEndpoint(of: try push.token())
        #expect(endpoint != registration.endpoint.absoluteString)
        #expect(await eventually {
            push.changes.withLock { $0.last } == .newEndpoint(RemoteNotificationRegistration(
                endpoint: URL(string: endpoint)!, p256dh: registration.p256dh, auth: registration.auth, distributor: registration.distributor))
        })
        let record = try RemotePushRecord.load(path: push.fixture.stateHome.appendingPathComponent("push.json").path)
        #expect(record?.endpoint == endpoint)
    }

    @Test("unregistering tells the distributor; a registration the distributor drops reaches the handler")
    func unregister() async throws {
        let push = try await PushFixture()
        _ = try await push.center.registerForRemoteNotifications()
        try await push.center.unregisterForRemoteNotifications()
        #expect(await eventually { push.distributor.registrations.isEmpty })
        #expect(push.distributor.receivedCalls == ["Register", "Unregister"])
        var record = try RemotePushRecord.load(path: push.fixture.stateHome.appendingPathComponent("push.json").path)
        #expect(record?.endpoint == nil && record?.distributor == nil)

        // The app asked, so the confirmation is not news to it; a drop by the distributor is.
        _ = try await push.center.registerForRemoteNotifications()
        try await push.distributor.dropRegistration(try push.token())
        #expect(await eventually { push.changes.withLock { $0.last } == .unregistered })
        #expect(push.changes.withLock { $0.filter { $0 == .unregistered }.count } == 1)
        record = try RemotePushRecord.load(path: push.fixture.stateHome.appendingPathComponent("push.json").path)
        #expect(record?.endpoint == nil && record?.distributor == nil)
    }

    @Test("after the distributor restarts, registering again finds it, keeps the endpoint, and messages flow")
    func distributorRestart() async throws {
        let push = try await PushFixture()
        let first = try await push.center.registerForRemoteNotifications()
        try await push.distributor.restart()
        let second = try await push.center.registerForRemoteNotifications()
        #expect(second == first)
        try await push.push(#"{"aps":{"alert":"after restart"}}"#, to: second)
        #expect(await eventually { push.fixture.server.notifications.map(\.request.body) == ["after restart"] })
    }

    @Test("a refusal, a missing distributor and an unknown one are typed errors")
    func failures() async throws {
        let push = try await PushFixture()
        push.distributor.refuseRegistrations(reason: "ACTION_REQUIRED")
        await #expect(throws: RemoteNotificationRegistrationError.refused(reason: "ACTION_REQUIRED")) {
            try await push.center.registerForRemoteNotifications()
        }
        await #expect(throws: RemoteNotificationRegistrationError.distributorNotFound("org.unifiedpush.Distributor.other")) {
            try await push.center.registerForRemoteNotifications(distributor: "other")
        }
        await push.distributor.stop()
        await #expect(throws: RemoteNotificationRegistrationError.noDistributor) {
            try await push.center.registerForRemoteNotifications()
        }
    }

    @Test("hostile connector calls, and calls from a peer that is not the distributor, are ignored; the connector goes on working")
    func hostileCalls() async throws {
        let push = try await PushFixture()
        let registration = try await push.center.registerForRemoteNotifications()
        let token = try push.token()
        let peer = try await DBusConnection.connect(to: push.fixture.testBus.bus)
        defer { Task { await peer.close() } }
        func call(_ member: String, _ body: [DBusValue]) async throws -> DBusMessage {
            try await peer.call(try DBusMessage.methodCall(
                destination: CenterFixture.identity.id, path: try DBusObjectPath("/org/unifiedpush/Connector"),
                interface: "org.unifiedpush.Connector2", member: member, body: body))
        }
        await #expect(throws: (any Error).self) { try await call("Message", [.string("not a dictionary")]) }
        _ = try await call("Message", [.variantDictionary([("token", .string("someone-else")), ("message", .byteArray([1, 2, 3]))])])
        _ = try await call("Message", [.variantDictionary([("token", .string(token)), ("message", .byteArray([UInt8](repeating: 9, count: 5000)))])])
        _ = try await call("Message", [.variantDictionary([("token", .string(token)), ("message", .byteArray([UInt8](repeating: 9, count: 300)))])])
        _ = try await call("Message", [.variantDictionary([("token", .string(String(repeating: "t", count: 101))), ("message", .byteArray([1]))])])
        _ = try await call("NewEndpoint", [.variantDictionary([("token", .string(token)), ("endpoint", .string("not a url"))])])
        _ = try await call("Message", [.variantDictionary([("token", .string(token)), ("message", .uint32(7))])])
        // A peer that knows the token but is not the distributor: a well-formed, well-encrypted
        // message, an endpoint and a drop, all ignored.
        let forged = try await WebPushTestSender.encrypt(Data(#"{"aps":{"alert":"forged"}}"#.utf8), p256dh: registration.p256dh, auth: registration.auth)
        _ = try await call("Message", [.variantDictionary([("token", .string(token)), ("message", .byteArray([UInt8](forged)))])])
        _ = try await call("NewEndpoint", [.variantDictionary([("token", .string(token)), ("endpoint", .string("https://evil.example/x"))])])
        _ = try await call("Unregistered", [.variantDictionary([("token", .string(token))])])
        let notJSON = try await WebPushTestSender.encrypt(Data("not json".utf8), p256dh: registration.p256dh, auth: registration.auth)
        try await push.distributor.send(notJSON, to: token)
        try await push.push(#"{"aps":{"alert":"still here"}}"#, to: registration)
        #expect(await eventually { push.fixture.server.notifications.map(\.request.body) == ["still here"] })
        // Only the registration's own endpoint reached the handler: no bad endpoint did.
        #expect(push.changes.withLock { $0 }.count == 1)
    }
}
