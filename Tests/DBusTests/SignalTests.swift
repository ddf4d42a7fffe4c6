import DBus
import Testing
import UserNotificationsTesting

private let interface = "org.example.Signals"

private func ping(_ number: Int32, to destination: String? = nil) throws -> DBusMessage {
    try .signal(path: DBusObjectPath("/org/example/Sender"), interface: interface, member: "Ping", body: [.int32(number)], destination: destination)
}

/// Collects the next `count` events of a subscription, or fewer when `timeout` passes.
func collect(_ events: AsyncStream<DBusSignalEvent>, count: Int, timeout: Duration = .seconds(5)) async -> [DBusSignalEvent] {
    await withTaskGroup(of: [DBusSignalEvent].self) { group in
        group.addTask {
            var received: [DBusSignalEvent] = []
            for await event in events {
                received.append(event)
                if received.count == count { break }
            }
            return received
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return []
        }
        var result: [DBusSignalEvent] = []
        for await partial in group {
            result = partial
            group.cancelAll()
            break
        }
        return result
    }
}

@Suite("Signals, owners and disconnects")
struct SignalTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    @Test("signals arrive in the order they were sent")
    func ordered() async throws {
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let sender = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await listener.subscribe(to: [DBusMatchRule(interface: interface)])
        for number in 0..<200 { try sender.send(ping(Int32(number))) }
        let events = Self.normalized(await collect(subscription.events, count: 200))
        #expect(events == (0..<200).map { .signal(Self.expected($0, from: sender.uniqueName)) })
    }

    /// The signal as received: the bus sets the sender, and the serial is the sender's own.
    static func expected(_ number: Int32, from sender: String) -> DBusMessage {
        var message = try! ping(number)
        message.sender = sender
        return message
    }

    static func normalized(_ events: [DBusSignalEvent]) -> [DBusSignalEvent] {
        events.map { event in
            guard case .signal(var message) = event else { return event }
            message.serial = 0
            return .signal(message)
        }
    }

    @Test("a spoofed signal sent straight to us is dropped; the owner's signal is delivered")
    func spoofing() async throws {
        let owner = try await DBusConnection.connect(to: testBus.bus)
        #expect(try await owner.requestName("org.example.Owner") == .primaryOwner)
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let rogue = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await listener.subscribe(to: [DBusMatchRule(interface: interface)], senderMustOwn: "org.example.Owner")
        #expect(subscription.initialOwner == owner.uniqueName)
        try rogue.send(ping(1, to: listener.uniqueName))
        try rogue.send(ping(2))
        try owner.send(ping(3))
        let events = await collect(subscription.events, count: 1)
        #expect(events.map { event -> Int32? in
            if case .signal(let message) = event { message.body.first?.int32Value } else { nil }
        } == [3])
    }

    @Test("with no owner of the name, no signal is delivered at all")
    func noOwner() async throws {
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let rogue = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await listener.subscribe(to: [DBusMatchRule(interface: interface)], senderMustOwn: "org.example.Absent")
        #expect(subscription.initialOwner == nil)
        try rogue.send(ping(1, to: listener.uniqueName))
        try rogue.send(ping(2))
        // The owner arrives: its change is reported, and only its signals pass.
        let owner = try await DBusConnection.connect(to: testBus.bus)
        _ = try await owner.requestName("org.example.Absent")
        try rogue.send(ping(4))
        try owner.send(ping(5))
        let events = Self.normalized(await collect(subscription.events, count: 2))
        #expect(events == [
            .ownerChanged(name: "org.example.Absent", oldOwner: nil, newOwner: owner.uniqueName),
            .signal(Self.expected(5, from: owner.uniqueName)),
        ])
    }

    @Test("owner changes are followed: the old owner's signals stop counting")
    func ownerChange() async throws {
        let first = try await DBusConnection.connect(to: testBus.bus)
        _ = try await first.requestName("org.example.Moving", flags: [.allowReplacement])
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await listener.subscribe(to: [DBusMatchRule(interface: interface)], senderMustOwn: "org.example.Moving")
        let second = try await DBusConnection.connect(to: testBus.bus)
        #expect(try await second.requestName("org.example.Moving", flags: [.replaceExisting]) == .primaryOwner)
        try first.send(ping(1))
        try second.send(ping(2))
        let events = Self.normalized(await collect(subscription.events, count: 2))
        #expect(events == [
            .ownerChanged(name: "org.example.Moving", oldOwner: first.uniqueName, newOwner: second.uniqueName),
            .signal(Self.expected(2, from: second.uniqueName)),
        ])
    }

    @Test("killing the bus fails pending calls and ends subscriptions; the process lives and reconnects")
    func busKilled() async throws {
        let server = try await DBusConnection.connect(to: testBus.bus)
        try exportEcho(on: server)
        let client = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await client.subscribe(to: [DBusMatchRule(interface: interface)])
        let pending = Task { try await client.call(echoCall(server.uniqueName, "Hang"), timeout: .seconds(30)) }
        try await Task.sleep(for: .milliseconds(50))
        await testBus.kill()
        await #expect(throws: DBusError.disconnected) { try await pending.value }
        #expect(await collect(subscription.events, count: 1) == [.disconnected])
        #expect(!client.isConnected)
        await #expect(throws: DBusError.disconnected) { try await client.callBus("GetId") }
        let replacement = try await TestBus()
        let again = try await DBusConnection.connect(to: replacement.bus)
        #expect(try await again.callBus("GetId").body.count == 1)
    }

    @Test("ending a subscription removes its match rules from the bus")
    func unsubscribe() async throws {
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let handle = try await listener.subscribe(to: [DBusMatchRule(interface: interface)]) { _ in }
        handle.cancel()
        // RemoveMatch of a rule that is gone fails: so the rule was removed once, by cancel().
        try await Task.sleep(for: .milliseconds(100))
        await #expect(throws: DBusError.self) {
            try await listener.callBus("RemoveMatch", [.string(DBusMatchRule(interface: interface).text)])
        }
    }
}
