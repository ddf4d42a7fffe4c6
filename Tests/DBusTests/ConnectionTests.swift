import DBus
import Testing
import UserNotificationsTesting

/// An object that answers `Echo` with its arguments, `Hang` never, `Fail` with an error.
func exportEcho(on connection: DBusConnection, at path: String = "/org/example/Echo") throws {
    let interface = try DBusExportedInterface(
        name: "org.example.Echo",
        introspectionXML: "  <interface name=\"org.example.Echo\"><method name=\"Echo\"/></interface>"
    ) { invocation in
        switch invocation.message.member {
        case "Echo": invocation.reply(invocation.message.body)
        case "Fail": invocation.fail(name: "org.example.Error.Failed", message: "as asked")
        case "Hang": break
        default: invocation.fail(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no")
        }
    }
    connection.export(DBusExportedObject(path: try DBusObjectPath(path), interfaces: [interface]))
}

func echoCall(_ destination: String, _ member: String = "Echo", _ body: [DBusValue] = []) throws -> DBusMessage {
    try .methodCall(destination: destination, path: DBusObjectPath("/org/example/Echo"), interface: "org.example.Echo", member: member, body: body)
}

@Suite("Connection on a private bus")
struct ConnectionTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    @Test("connects and gets a unique name")
    func connects() async throws {
        let connection = try await DBusConnection.connect(to: testBus.bus)
        #expect(connection.uniqueName.hasPrefix(":"))
        #expect(try await connection.listNames().contains(connection.uniqueName))
    }

    @Test("every kind of value crosses the bus and comes back equal", arguments: WireCodecTests.samples)
    func echo(_ value: DBusValue) async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        let reply = try await client.call(echoCall(server.uniqueName, "Echo", [value, .string("tail")]))
        #expect(reply.body == [value, .string("tail")])
        #expect(reply.sender == server.uniqueName)
    }

    @Test("an error reply is a typed remote error")
    func remoteError() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        await #expect(throws: DBusError.remote(name: "org.example.Error.Failed", message: "as asked")) {
            try await client.call(echoCall(server.uniqueName, "Fail"))
        }
    }

    @Test("a call nobody answers fails at its deadline, not libdbus's 25 s")
    func deadline() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        let start = ContinuousClock.now
        await #expect(throws: DBusError.timedOut(member: "Hang", after: .milliseconds(300))) {
            try await client.call(echoCall(server.uniqueName, "Hang"), timeout: .milliseconds(300))
        }
        // Far from libdbus's 25 s default; loose because the suite runs in parallel on 2 cores.
        #expect(ContinuousClock.now - start < .seconds(5))
        // The connection stays usable after a timeout.
        #expect(try await client.call(echoCall(server.uniqueName, "Echo", [.int32(1)])).body == [.int32(1)])
    }

    @Test("a name nobody owns fails at once with ServiceUnknown")
    func serviceUnknown() async throws {
        let client = try await DBusConnection.connect(to: testBus.bus)
        let start = ContinuousClock.now
        let error = await #expect(throws: DBusError.self) {
            try await client.call(echoCall("org.example.Nobody"))
        }
        #expect(error?.remoteName == "org.freedesktop.DBus.Error.ServiceUnknown")
        // ServiceUnknown (not a timeout) shows the bus answered at once; the bound is loose.
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test("a service whose program hangs at start-up fails at the call's deadline")
    func hangingActivation() async throws {
        let testBus = try await TestBus(withServiceDirectory: true)
        try testBus.writeService(name: "org.example.Hangs", exec: "/bin/sleep 4")
        let client = try await DBusConnection.connect(to: testBus.bus)
        _ = try await client.callBus("ReloadConfig")
        #expect(try await client.listActivatableNames().contains("org.example.Hangs"))
        let start = ContinuousClock.now
        await #expect(throws: DBusError.timedOut(member: "Echo", after: .milliseconds(500))) {
            try await client.call(echoCall("org.example.Hangs"), timeout: .milliseconds(500))
        }
        // The activated program exits after 4 s (then the bus would answer with an error).
        #expect(ContinuousClock.now - start < .seconds(4))
    }

    @Test("cancelling the waiting task ends the call with .cancelled")
    func cancellation() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        let call = Task { try await client.call(echoCall(server.uniqueName, "Hang"), timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(50))
        call.cancel()
        await #expect(throws: DBusError.cancelled) { try await call.value }
    }

    @Test("introspection describes exported objects and their children")
    func introspection() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        let reply = try await client.call(.methodCall(
            destination: server.uniqueName, path: DBusObjectPath("/org/example/Echo"),
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect"))
        let xml = try #require(reply.body.first?.stringValue)
        #expect(xml.contains("<interface name=\"org.example.Echo\">"))
        let parent = try await client.call(.methodCall(
            destination: server.uniqueName, path: DBusObjectPath("/org/example"),
            interface: "org.freedesktop.DBus.Introspectable", member: "Introspect"))
        #expect(parent.body.first?.stringValue?.contains("<node name=\"Echo\"/>") == true)
    }

    @Test("a closed connection lets go of its exported objects, which may hold the connection")
    func closingReleasesExports() async throws {
        final class Holder: Sendable {
            let connection: DBusConnection
            init(_ connection: DBusConnection) { self.connection = connection }
        }
        weak var released: Holder?
        do {
            let connection = try await DBusConnection.connect(to: testBus.bus)
            let holder = Holder(connection)
            released = holder
            let interface = try DBusExportedInterface(
                name: "org.example.Holder", introspectionXML: "  <interface name=\"org.example.Holder\"/>"
            ) { invocation in invocation.reply([.string(holder.connection.uniqueName)]) }
            connection.export(DBusExportedObject(path: try DBusObjectPath("/org/example/Holder"), interfaces: [interface]))
            await connection.close()
        }
        // The close finishes on the connection's queue; give it a moment.
        for _ in 0..<100 where released != nil { try await Task.sleep(for: .milliseconds(20)) }
        #expect(released == nil)
    }

    @Test("names can be requested, are seen as owned, and released")
    func names() async throws {
        let owner = try await DBusConnection.connect(to: testBus.bus)
        let other = try await DBusConnection.connect(to: testBus.bus)
        #expect(try await owner.requestName("org.example.Named") == .primaryOwner)
        #expect(try await other.requestName("org.example.Named") == .exists)
        #expect(try await other.nameOwner(of: "org.example.Named") == owner.uniqueName)
        try await owner.releaseName("org.example.Named")
        #expect(try await other.nameOwner(of: "org.example.Named") == nil)
    }

    @Test("invalid names are typed errors before anything is sent")
    func invalidNames() async throws {
        let client = try await DBusConnection.connect(to: testBus.bus)
        await #expect(throws: DBusError.invalidBusName("no")) { try await client.requestName("no") }
        #expect(throws: DBusError.invalidMemberName("Bad Member")) {
            try DBusMessage.methodCall(destination: nil, path: .root, interface: nil, member: "Bad Member")
        }
        #expect(throws: DBusError.invalidObjectPath("relative/path")) { try DBusObjectPath("relative/path") }
    }
}

@Suite("Many connections at once")
struct ConnectionStormTests {
    @Test("400 connections authenticating at once all get their Hello answered")
    func storm() async throws {
        let testBus = try await TestBus()
        let failures = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<400 {
                group.addTask {
                    do {
                        let connection = try await DBusConnection.connect(to: testBus.bus, timeout: .seconds(10))
                        return connection.uniqueName.hasPrefix(":") ? nil : "no unique name"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty)
    }
}
