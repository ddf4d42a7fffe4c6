import DBus
import Foundation
import NotificationAgent
import UserNotifications
import UserNotificationsTesting

extension FuzzTarget {
    /// Whole method calls to the agent's interface (`org.desktopnotifications.Agent1`): each
    /// input is read as a D-Bus message (`DBusMessage(wire:)`, with four descriptors for its
    /// `h` values: a regular file, a pipe, a folder and `/dev/null`), and its member, signature
    /// and body are sent as a call to an agent running in this process on a private bus
    /// (``AgentService``, with the production caller resolver and a notification server), from
    /// a client that connected as an app. The agent must answer each call (a reply or a typed
    /// error) in time, and still answer `Version` after each batch of 64 cases; every batch
    /// also clears the app's lists, so that the cases do not fill its budgets.
    ///
    /// The seeds, marshalled by libdbus, are one valid call of each method; each is answered
    /// with a method return. A case is `accepted` when the agent answers with one too.
    static func agentCall() -> FuzzTarget {
        let harness = AgentCallHarness()
        let seeds = agentCallSeeds(attachment: harness.attachmentFile)
        // The seeds name the file; the agent reads the descriptor, open on the unlinked file.
        try? FileManager.default.removeItem(at: harness.attachmentFile)
        return FuzzTarget(
            name: "agent-call",
            seeds: seeds,
            tokens: [
                [0], [0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00, 0x01, 0x00], Array("ssah".utf8), Array("sa{sv}".utf8), Array("sas".utf8),
                Array("h".utf8), Array("v".utf8), Array("AddFiles".utf8), Array("Connect".utf8), Array("Status".utf8),
                Array("AddRequests".utf8), Array(AgentCallHarness.appID.utf8), Array("org.example.Other".utf8), Array("aa{sv}".utf8),
                Array("timeInterval".utf8), Array("interval".utf8), Array("attachments".utf8), Array("kind".utf8), Array("userInfo".utf8),
                [8, 0, 0, 0] + Array("calendar".utf8) + [0], [1, UInt8(ascii: "d"), 0], [1, UInt8(ascii: "s"), 0],
                [0, 0, 0, 0, 0, 0, 0xF0, 0x7F], Array("/etc/passwd".utf8), [0xC3, 0x28],
            ],
            nesting: [[1, UInt8(ascii: "v"), 0], Array("a".utf8), Array("(".utf8), Array("a{sv}".utf8)],
            run: { bytes throws(FuzzFinding) in
                guard let message = try? DBusMessage(wire: bytes, fileDescriptors: harness.descriptors), message.kind == .methodCall,
                      let member = message.member else { return .refused }
                return try harness.send(member: member, interface: message.interface, body: message.body)
            },
            prepare: { () throws(FuzzFinding) in try harness.start() },
            cleanUp: { harness.stop() })
    }

    private static func agentCallSeeds(attachment: URL) -> [[UInt8]] {
        let id = DBusValue.string(AgentCallHarness.appID)
        let content = UNMutableNotificationContent()
        content.title = "Standup"
        content.body = "In 5 minutes"
        let now = UNNotificationRequest(identifier: "now", content: content, trigger: nil)
        let later = UNNotificationRequest(
            identifier: "later", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false))
        var components = DateComponents()
        components.hour = 9
        components.minute = 30
        let daily = UNNotificationRequest(
            identifier: "daily", content: content, trigger: UNCalendarNotificationTrigger(dateMatching: components, repeats: true))
        let attached = content.mutableCopy() as! UNMutableNotificationContent
        attached.attachments = [try! UNNotificationAttachment(identifier: "picture", url: attachment)]
        let withFile = UNNotificationRequest(identifier: "with-file", content: attached, trigger: nil)
        let category = UNNotificationCategory(
            identifier: "meeting", actions: [UNNotificationAction(identifier: "join", title: "Join")], intentIdentifiers: [])
        func record(_ encode: () throws -> AgentPayload.Record) -> DBusValue { ((try? encode()) ?? [:]).dbusValue }
        func records(_ encode: () throws -> [AgentPayload.Record]) -> DBusValue { ((try? encode()) ?? []).dbusValue }
        let calls: [(String, [DBusValue])] = [
            ("Version", []),
            ("Connect", [id, .variantDictionary([("name", .string("Fuzz")), ("icon", .string("dialog-information"))])]),
            ("Status", []),
            ("Add", [id, record { try AgentPayload.encode(now) }]),
            ("Add", [id, record { try AgentPayload.encode(later) }]),
            ("AddPresented", [id, record { try AgentPayload.encode(now) }, .uint32(3)]),
            ("AddRequests", [id, records { [try AgentPayload.encode(later), try AgentPayload.encode(daily)] }]),
            ("AddFiles", [id, record { try AgentPayload.encode(withFile) }, .array(element: .unixFileDescriptor, [.unixFileDescriptor(harnessSeedDescriptor)])]),
            ("PendingRequests", [id]),
            ("RemovePendingRequests", [id, .stringArray(["later"]), .boolean(false)]),
            ("DeliveredNotifications", [id]),
            ("RemoveDeliveredNotifications", [id, .stringArray([]), .boolean(true)]),
            ("SetCategories", [id, records { try AgentPayload.encode(Set([category])) }]),
            ("Categories", [id]),
            ("Authorization", [id]),
            ("SetBadgeCount", [id, .int32(3)]),
            ("TakeResponses", [id]),
            ("AcknowledgeResponses", [id, .stringArray(["r-1"])]),
        ]
        return calls.enumerated().map { index, call in
            LibDBusMarshal.marshal(
                .call(destination: AgentInterface.busName, path: AgentInterface.path.rawValue, interface: AgentInterface.name, member: call.0),
                body: call.1, serial: UInt32(index + 1)) ?? []
        }
    }

    /// A descriptor for the seeds' `h` (libdbus marshals its index; each case reads the
    /// index against ``AgentCallHarness/descriptors``).
    private static let harnessSeedDescriptor = DBusFileDescriptor(taking: open("/dev/null", O_RDONLY | O_CLOEXEC))
}

/// The private bus, the agent and its client for ``FuzzTarget/agentCall()``: made before the
/// first case (``FuzzTarget/prepare``), so that no case pays for starting them.
final class AgentCallHarness: @unchecked Sendable {
    static let appID = "org.example.Fuzz"
    /// The longest the agent may take to answer one case; the case's own budget is 1 s.
    static let answerDeadline: Duration = .milliseconds(900)
    /// The cases between two `Version` checks (and clearings of the app's lists).
    static let batch = 64

    /// The agent's state folder, made at ``start()`` and removed at ``stop()``.
    let folder: URL
    /// The regular file the seeds' attachment names and the first descriptor reads (removed
    /// once the seeds are made; the descriptor stays open on it).
    let attachmentFile: URL
    /// The descriptors an input's `h` values index: a regular file, a pipe's read end, a
    /// folder and `/dev/null`.
    let descriptors: [DBusFileDescriptor]
    private let lock = NSLock()
    private var running: (bus: TestBus, server: FakeNotificationServer, agent: AgentService, client: DBusConnection)?
    private var cases = 0

    init() {
        let temporary = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        folder = temporary.appendingPathComponent("notify-fuzz-agent-\(getpid())", isDirectory: true)
        attachmentFile = temporary.appendingPathComponent("notify-fuzz-agent-\(getpid()).png")
        try? Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 512)).write(to: attachmentFile)
        var pipeEnds: [Int32] = [-1, -1]
        _ = pipe(&pipeEnds)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        descriptors = [
            DBusFileDescriptor(taking: open(attachmentFile.path, O_RDONLY | O_CLOEXEC)),
            DBusFileDescriptor(taking: pipeEnds[0]),
            DBusFileDescriptor(taking: open(temporary.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)),
            DBusFileDescriptor(taking: open("/dev/null", O_RDONLY | O_CLOEXEC)),
        ]
    }

    /// Starts the bus, a notification server, the agent and its client, connected as ``appID``.
    func start() throws(FuzzFinding) {
        let state = folder.appendingPathComponent("state", isDirectory: true)
        let started = Self.blocking(timeout: .seconds(60)) { () async throws -> (TestBus, FakeNotificationServer, AgentService, DBusConnection) in
            let bus = try await TestBus()
            let server = try await FakeNotificationServer.start(on: bus.bus)
            let agent = try await AgentService.start(
                bus: .address(bus.address), identifying: CallerIdentityResolver(), stateRoot: state)
            let client = try await DBusConnection.connect(to: bus.bus)
            // The app's center answers WillPresent as a center does (the connection keeps the export).
            let center = try DBusExportedInterface(name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML) {
                invocation in
                invocation.reply([.uint32(UInt32(UNNotificationPresentationOptions([.banner, .list]).rawValue))])
            }
            client.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [center]))
            return (bus, server, agent, client)
        }
        switch started {
        case .success(let parts):
            lock.withLock { running = parts }
        case .failure(let error):
            throw FuzzFinding(description: "the agent's bus could not be started (not the input's fault): \(error)")
        }
        try check(member: "Connect", [.string(Self.appID), .variantDictionary([("name", .string("Fuzz"))])])
    }

    /// Sends one call and waits for the agent's answer; every ``batch`` cases, checks that the
    /// agent answers `Version` and clears the app's lists.
    func send(member: String, interface: String?, body: [DBusValue]) throws(FuzzFinding) -> FuzzTarget.Outcome {
        guard let client = lock.withLock({ running?.client }) else { throw FuzzFinding(description: "the agent is not running") }
        let number = lock.withLock { () -> Int in
            cases += 1
            return cases
        }
        guard let message = try? DBusMessage.methodCall(
            destination: AgentInterface.busName, path: AgentInterface.path, interface: interface ?? AgentInterface.name, member: member,
            body: body) else { return .refused }
        let answer = Self.blocking(timeout: Self.answerDeadline + .seconds(1)) { () async throws -> DBusMessage in
            try await client.call(message, timeout: Self.answerDeadline)
        }
        let outcome: FuzzTarget.Outcome
        switch answer {
        case .success: outcome = .accepted
        case .failure(DBusError.remote(let name, _)) where name != "org.freedesktop.DBus.Error.NoReply": outcome = .refused
        case .failure(let error):
            throw FuzzFinding(description: "the agent did not answer \(member)(\(body.map(\.type.signature).joined())) in time: \(error)")
        }
        if number.isMultiple(of: Self.batch) {
            try check(member: "Version", [])
            try check(member: "Connect", [.string(Self.appID), .variantDictionary([])])
            try check(member: "RemovePendingRequests", [.string(Self.appID), .stringArray([]), .boolean(true)])
            try check(member: "RemoveDeliveredNotifications", [.string(Self.appID), .stringArray([]), .boolean(true)])
        }
        return outcome
    }

    /// Calls `member` and throws unless the agent answers with a method return in time.
    private func check(member: String, _ body: [DBusValue]) throws(FuzzFinding) {
        guard let client = lock.withLock({ running?.client }) else { throw FuzzFinding(description: "the agent is not running") }
        let answer = Self.blocking(timeout: .seconds(2)) { () async throws -> DBusMessage in
            let message = try DBusMessage.methodCall(
                destination: AgentInterface.busName, path: AgentInterface.path, interface: AgentInterface.name, member: member, body: body)
            return try await client.call(message, timeout: Self.answerDeadline)
        }
        if case .failure(let error) = answer {
            throw FuzzFinding(description: "after a batch, the agent did not answer \(member): \(error)")
        }
    }

    /// Stops the agent and the bus and removes the folder.
    func stop() {
        defer { try? FileManager.default.removeItem(at: folder) }
        guard let parts = lock.withLock({ running }) else { return }
        lock.withLock { running = nil }
        _ = Self.blocking(timeout: .seconds(10)) { () async throws -> Void in
            await parts.client.close()
            await parts.agent.stop()
            await parts.server.stop()
            await parts.bus.stop()
        }
    }

    /// Runs `work` in a task and waits for it here, at most `timeout`.
    static func blocking<Value: Sendable>(timeout: Duration, _ work: @escaping @Sendable () async throws -> Value) -> Result<Value, any Error> {
        let box = ResultBox<Value>()
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached {
            let result: Result<Value, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            box.set(result)
            done.signal()
        }
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        guard done.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else {
            task.cancel()
            return .failure(FuzzFinding(description: "no answer in \(timeout)"))
        }
        return box.get() ?? .failure(FuzzFinding(description: "no result"))
    }
}

/// A result handed from a task to the thread that waits for it.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<Value, any Error>?

    func set(_ result: Result<Value, any Error>) { lock.withLock { value = result } }
    func get() -> Result<Value, any Error>? { lock.withLock { value } }
}
