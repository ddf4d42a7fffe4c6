import DBus
import DesktopNotificationsSupport
import Testing
import UserNotificationsTesting

private let interface = "org.example.Files"
private let path = "/org/example/Files"

/// An object whose `Reverse` reads the file of its `h` argument and answers with a new memory
/// file (named `name`) holding the bytes reversed; what it read goes into `seen`.
private func exportReverse(on connection: DBusConnection, name: String, seen: Locked<[[UInt8]]>) throws {
    let methods = try DBusExportedInterface(name: interface, introspectionXML: "") { invocation in
        do {
            guard let descriptor = try invocation.message.arguments("h").first?.fileDescriptorValue else { return }
            let bytes = try MemoryFile.contents(of: descriptor)
            seen.withLock { $0.append(bytes) }
            invocation.reply([.unixFileDescriptor(try MemoryFile.make(named: name, contents: bytes.reversed()))])
        } catch {
            invocation.fail(name: "org.example.Error.Failed", message: "\(error)")
        }
    }
    connection.export(DBusExportedObject(path: try DBusObjectPath(path), interfaces: [methods]))
}

/// Closes `connections`: each closes on its own queue after the work already there, so what
/// its handlers held (a received descriptor, a reply not yet written) is released by then.
func closeAll(_ connections: DBusConnection...) async {
    for connection in connections { await connection.close() }
}

private func filesCall(_ destination: String, _ member: String, _ body: [DBusValue]) throws -> DBusMessage {
    try .methodCall(destination: destination, path: DBusObjectPath(path), interface: interface, member: member, body: body)
}

@Suite("Unix file descriptors cross a private bus")
struct FileDescriptorTests {
    let testBus: TestBus

    init() async throws {
        testBus = try await TestBus()
    }

    @Test("a memory file goes to an exported object, which reads it and answers with one of its own")
    func roundTrip() async throws {
        let name = MemoryFile.uniqueName("round-trip")
        let seen = Locked<[[UInt8]]>([])
        do {
            let server = try await DBusConnection.connect(to: testBus.bus)
            try exportReverse(on: server, name: name, seen: seen)
            let client = try await DBusConnection.connect(to: testBus.bus)
            #expect(client.canSendFileDescriptors)
            let sent = try MemoryFile.make(named: name, contents: Array("hello".utf8))
            let reply = try await client.call(filesCall(server.uniqueName, "Reverse", [.unixFileDescriptor(sent)]))
            let received = try #require(try reply.arguments("h").first?.fileDescriptorValue)
            #expect(try MemoryFile.contents(of: received) == Array("olleh".utf8))
            #expect(seen.withLock { $0 } == [Array("hello".utf8)])
            // Sending does not consume: the value is still ours, and still open.
            #expect(sent.isOpen)
            #expect(try MemoryFile.contents(of: sent) == Array("hello".utf8))
            await closeAll(client, server)
        }
        #expect(MemoryFile.openCount(named: name) == 0)
    }

    @Test("a signal carries a descriptor to its subscriber")
    func signal() async throws {
        let name = MemoryFile.uniqueName("signal")
        do {
            let sender = try await DBusConnection.connect(to: testBus.bus)
            let listener = try await DBusConnection.connect(to: testBus.bus)
            let subscription = try await listener.subscribe(to: [DBusMatchRule(interface: interface)])
            let file = try MemoryFile.make(named: name, contents: [1, 2, 3])
            try sender.send(.signal(
                path: DBusObjectPath(path), interface: interface, member: "Shared",
                body: [.string("three bytes"), .unixFileDescriptor(file)], destination: listener.uniqueName))
            let events = await collect(subscription.events, count: 1)
            guard case .signal(let message) = events.first else {
                Issue.record("no signal arrived: \(events)")
                return
            }
            let received = try #require(try message.arguments("sh").last?.fileDescriptorValue)
            #expect(try MemoryFile.contents(of: received) == [1, 2, 3])
            await closeAll(sender, listener)
        }
        #expect(MemoryFile.openCount(named: name) == 0)
    }

    @Test("descriptors in a{sh} and (hh) come back in their places")
    func shapes() async throws {
        let name = MemoryFile.uniqueName("shapes")
        do {
            let server = try await DBusConnection.connect(to: testBus.bus)
            try exportEcho(on: server)
            let client = try await DBusConnection.connect(to: testBus.bus)
            let files = try (0..<4).map { try MemoryFile.make(named: name, contents: [UInt8($0)]) }
            let dictionary = DBusValue.dictionary(key: .string, value: .unixFileDescriptor, [
                DBusDictionaryEntry(.string("zero"), .unixFileDescriptor(files[0])),
                DBusDictionaryEntry(.string("one"), .unixFileDescriptor(files[1])),
            ])
            let pair = DBusValue.structure([.unixFileDescriptor(files[2]), .unixFileDescriptor(files[3])])
            let reply = try await client.call(echoCall(server.uniqueName, "Echo", [dictionary, pair, .variant(.unixFileDescriptor(files[0]))]))
            let body = try reply.arguments("a{sh}(hh)v")
            guard case .dictionary(_, _, let entries) = body[0], case .structure(let fields) = body[1] else {
                Issue.record("unexpected reply \(body)")
                return
            }
            #expect(entries.map(\.key) == [.string("zero"), .string("one")])
            #expect(try entries.map { try MemoryFile.contents(of: #require($0.value.fileDescriptorValue)) } == [[0], [1]])
            #expect(try fields.map { try MemoryFile.contents(of: #require($0.fileDescriptorValue)) } == [[2], [3]])
            #expect(try MemoryFile.contents(of: #require(body[2].variantValue?.fileDescriptorValue)) == [0])
            await closeAll(client, server)
        }
        #expect(MemoryFile.openCount(named: name) == 0)
    }

    @Test("1,000 memory files cross the bus both ways and none stays open")
    func thousandFiles() async throws {
        let name = MemoryFile.uniqueName("thousand")
        let before = MemoryFile.processDescriptorCount()
        do {
            let server = try await DBusConnection.connect(to: testBus.bus)
            try exportEcho(on: server)
            let client = try await DBusConnection.connect(to: testBus.bus)
            for batch in 0..<125 {
                let files = try (0..<8).map { try MemoryFile.make(named: name, contents: [UInt8(batch), UInt8($0)]) }
                let reply = try await client.call(echoCall(
                    server.uniqueName, "Echo", [.array(element: .unixFileDescriptor, files.map(DBusValue.unixFileDescriptor))]))
                guard case .array(_, let echoed) = try reply.arguments("ah")[0] else {
                    Issue.record("unexpected reply \(reply.body)")
                    return
                }
                let contents = try echoed.map { try MemoryFile.contents(of: #require($0.fileDescriptorValue)) }
                #expect(contents == (0..<8).map { [UInt8(batch), UInt8($0)] })
            }
            await closeAll(client, server)
        }
        let after = MemoryFile.processDescriptorCount()
        #expect(MemoryFile.openCount(named: name) == 0, "process descriptors: \(before) before, \(after) after")
    }

    @Test("a descriptor in a signal from a peer that does not own the name is never duplicated")
    func rogueSignalLeaksNothing() async throws {
        let name = MemoryFile.uniqueName("rogue")
        let owner = try await DBusConnection.connect(to: testBus.bus)
        #expect(try await owner.requestName("org.example.FileOwner") == .primaryOwner)
        let listener = try await DBusConnection.connect(to: testBus.bus)
        let subscription = try await listener.subscribe(to: [DBusMatchRule(interface: interface)], senderMustOwn: "org.example.FileOwner")
        let rogue = try await DBusConnection.connect(to: testBus.bus)
        do {
            let file = try MemoryFile.make(named: name, contents: [6, 6, 6])
            try rogue.send(.signal(
                path: DBusObjectPath(path), interface: interface, member: "Shared",
                body: [.unixFileDescriptor(file)], destination: listener.uniqueName))
            // A call to a path nothing is exported at is answered UnknownMethod, its descriptor not kept either.
            let error = await #expect(throws: DBusError.self) {
                try await rogue.call(filesCall(listener.uniqueName, "Take", [.unixFileDescriptor(file)]))
            }
            #expect(error?.remoteName == "org.freedesktop.DBus.Error.UnknownMethod")
        }
        try owner.send(.signal(path: DBusObjectPath(path), interface: interface, member: "Shared", body: [.int32(1)], destination: listener.uniqueName))
        let events = await collect(subscription.events, count: 1)
        #expect(events.count == 1)
        if case .signal(let message) = events.first { #expect(message.sender == owner.uniqueName) }
        await closeAll(rogue, listener, owner)
        #expect(MemoryFile.openCount(named: name) == 0)
    }
}
