import DBus
import DesktopNotificationsSupport
import Foundation
import FreedesktopNotifications
@testable import NotificationAgent
import Testing
@testable import UserNotifications
import UserNotificationsTesting
#if canImport(Glibc)
import Glibc
#endif

/// Tells the agent that the connections in `sandboxed` are sandboxed apps, and lets every
/// caller act by the first-binding rule: the confinement the agent's own rules read, without
/// a sandbox (the hostile-peer battery goes through the real identification).
private struct StubConfinement: CallerIdentifying {
    let sandboxed: Locked<Set<String>>
    let refused: Bool

    func authorize(
        sender: String, senderPID: UInt32?, appID: String, boundSender: String?, boundPID: UInt32?, on connection: DBusConnection
    ) async throws(NotificationAgentError) -> CallerConfinement {
        if refused { throw .notAllowed("refused by the test") }
        try DeclaredAppIdentity().authorizeDeclared(
            sender: sender, senderPID: senderPID, appID: appID, boundSender: boundSender, boundPID: boundPID)
        return sandboxed.withLock { $0.contains(sender) } ? .sandboxed : .host
    }

    func confinement(of sender: String, on connection: DBusConnection) async throws(NotificationAgentError) -> CallerConfinement {
        sandboxed.withLock { $0.contains(sender) } ? .sandboxed : .host
    }
}

@Suite("The agent as a trust boundary: callers checked first, every value bounded")
struct AgentTrustTests {
    static let appID = "org.example.Trusted"
    static let prefix = AgentErrorName.prefix
    let fixture: AgentServiceFixture
    let sandboxed = Locked<Set<String>>([])

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-trust")
    }

    func startAgent(refusing: Bool = false, caps: AgentLimits.AddCaps = .standard) async throws -> AgentService {
        try await AgentService.start(
            bus: .address(fixture.testBus.address), clock: SystemNotificationClock(), launcher: NoAppLauncher(),
            identifying: StubConfinement(sandboxed: sandboxed, refused: refusing), stateRoot: fixture.stateRoot, caps: caps)
    }

    func appFolders() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: fixture.stateRoot.path)) ?? []
    }

    func connectBody(_ appID: String, name: String = "App", icon: String = "dialog-information") -> [DBusValue] {
        [.string(appID), .variantDictionary([("name", .string(name)), ("icon", .string(icon))])]
    }

    @Test("a refused Connect makes nothing: no app, no folder, no engine")
    func refusedConnectLeavesNothing() async throws {
        let agent = try await startAgent(refusing: true)
        let peer = try await AgentTestClient.connect(fixture.testBus.bus)
        for index in 0..<20 {
            #expect(await peer.errorName(of: "Connect", connectBody("org.example.Junk\(index)")) == Self.prefix + "NotAllowed")
        }
        #expect(try await agent.statusJSON() == #"{"apps":[]}"#)
        #expect(appFolders().isEmpty)
        await peer.close()
        await agent.stop()
    }

    @Test("an app that leaves holding nothing is let go; one that holds a shown notification is kept")
    func emptyAppsLetGo() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let empty = try await AgentTestClient.connect(fixture.testBus.bus)
        try await empty.connectApp("org.example.Empty")
        let holding = try await AgentTestClient.connect(fixture.testBus.bus)
        try await holding.connectApp(Self.appID)
        try await holding.add(AgentTestClient.request("shown"), for: Self.appID)
        _ = try #require(await server.waitForNotify())
        await empty.close()
        await holding.close()
        #expect(await eventually { (try? await agent.statusJSON()) == #"{"apps":[{"appID":"org.example.Trusted","connected":false,"delivered":1,"pending":0,"queued":0}]}"# })
        #expect(await eventually { appFolders() == [Self.appID] })
        await agent.stop()
    }

    @Test("past the number of apps the agent holds, a new app's Connect is LimitReached; a known one still connects")
    func appBudget() async throws {
        let agent = try await startAgent(caps: AgentLimits.AddCaps(pendingRequests: 10, liveNotifications: 10, apps: 2))
        let peer = try await AgentTestClient.connect(fixture.testBus.bus)
        try await peer.connectApp("org.example.One")
        try await peer.connectApp("org.example.Two")
        #expect(await peer.errorName(of: "Connect", connectBody("org.example.Three")) == Self.prefix + "LimitReached")
        #expect(await peer.errorName(of: "Connect", connectBody("org.example.One")) == nil)
        #expect(!appFolders().contains("org.example.Three"))
        await peer.close()
        await agent.stop()
    }

    @Test("a name or icon too long or with control characters is refused; a sandboxed app's icon is a theme name")
    func identityBounds() async throws {
        let agent = try await startAgent()
        let peer = try await AgentTestClient.connect(fixture.testBus.bus)
        let long = String(repeating: "n", count: AgentLimits.displayNameBytes + 1)
        #expect(await peer.errorName(of: "Connect", connectBody(Self.appID, name: long)) == Self.prefix + "InvalidArgument")
        #expect(await peer.errorName(of: "Connect", connectBody(Self.appID, name: "a\u{1B}[2Jb")) == Self.prefix + "InvalidArgument")
        let longIcon = "/" + String(repeating: "i", count: AgentLimits.iconBytes)
        #expect(await peer.errorName(of: "Connect", connectBody(Self.appID, icon: longIcon)) == Self.prefix + "InvalidArgument")
        _ = sandboxed.withLock { $0.insert(peer.connection.uniqueName) }
        #expect(await peer.errorName(of: "Connect", connectBody(Self.appID, icon: "/home/someone/.ssh/id_rsa")) == Self.prefix + "NotAllowed")
        #expect(await peer.errorName(of: "Connect", connectBody(Self.appID, icon: "face-smile")) == nil)
        #expect(appFolders() == [Self.appID])
        await peer.close()
        await agent.stop()
    }

    @Test("Status tells a sandboxed caller about its own app alone, a host caller about every app")
    func statusScope() async throws {
        let agent = try await startAgent()
        let host = try await AgentTestClient.connect(fixture.testBus.bus)
        try await host.connectApp("org.example.Host")
        let boxed = try await AgentTestClient.connect(fixture.testBus.bus)
        _ = sandboxed.withLock { $0.insert(boxed.connection.uniqueName) }
        try await boxed.connectApp("org.example.Boxed")
        let everything = try await host.call("Status").first?.stringValue ?? ""
        #expect(everything.contains("org.example.Host") && everything.contains("org.example.Boxed"))
        let own = try await boxed.call("Status").first?.stringValue ?? ""
        #expect(own.contains("org.example.Boxed") && !own.contains("org.example.Host"))
        await host.close()
        await boxed.close()
        await agent.stop()
    }

    @Test("a request over 64 KiB is InvalidArgument; past the app's bytes, LimitReached; other apps go on")
    func byteBudgets() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let caps = AgentLimits.AddCaps(pendingRequests: 1000, liveNotifications: 1000, appStateBytes: 200_000)
        let agent = try await startAgent(caps: caps)
        let peer = try await AgentTestClient.connect(fixture.testBus.bus)
        try await peer.connectApp(Self.appID)
        func request(_ identifier: String, bodyBytes: Int) throws -> DBusValue {
            let content = UNMutableNotificationContent()
            content.title = identifier
            content.body = String(repeating: "b", count: bodyBytes)
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)
            return try AgentPayload.encode(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)).dbusValue
        }
        #expect(await peer.errorName(of: "Add", [.string(Self.appID), try request("big", bodyBytes: 70_000)]) == Self.prefix + "InvalidArgument")
        // A 50 000-byte body makes a record of 50 213 bytes as AgentPayload.size(of:) counts
        // it: three fit in 200 000, a fourth does not.
        let sample = try [String: DBusValue].reading(try request("r0", bodyBytes: 50_000))
        #expect(AgentPayload.size(of: sample) == 50_213)
        var refusedAt: Int?
        for index in 0..<10 where refusedAt == nil {
            if let name = await peer.errorName(of: "Add", [.string(Self.appID), try request("r\(index)", bodyBytes: 50_000)]) {
                #expect(name == Self.prefix + "LimitReached")
                refusedAt = index
            }
        }
        #expect(refusedAt == 3)
        let other = try await AgentTestClient.connect(fixture.testBus.bus)
        try await other.connectApp("org.example.Other")
        #expect(await other.errorName(of: "Add", [.string("org.example.Other"), try request("fine", bodyBytes: 100)]) == nil)
        // Room made by a removal is found again by a new measure (at most once a second).
        try await peer.call("RemovePendingRequests", [.string(Self.appID), .stringArray([]), .boolean(true)])
        try await Task.sleep(for: .milliseconds(1100))
        #expect(await peer.errorName(of: "Add", [.string(Self.appID), try request("again", bodyBytes: 50_000)]) == nil)
        await peer.close()
        await other.close()
        await agent.stop()
    }

    @Test("categories count against the app's bytes: past them SetCategories is LimitReached and the last set stays; a smaller set makes room")
    func categoryBytes() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let caps = AgentLimits.AddCaps(pendingRequests: 1000, liveNotifications: 1000, appStateBytes: 200_000)
        let agent = try await startAgent(caps: caps)
        let peer = try await AgentTestClient.connect(fixture.testBus.bus)
        try await peer.connectApp(Self.appID)
        /// `count` categories whose placeholder is 10,000 bytes each.
        func categories(_ count: Int, tag: String) -> Set<UNNotificationCategory> {
            Set((0..<count).map { index in
                UNNotificationCategory(
                    identifier: "\(tag)\(index)", actions: [], intentIdentifiers: [],
                    hiddenPreviewsBodyPlaceholder: String(repeating: "p", count: 10_000), options: [])
            })
        }
        func identifiers() async throws -> [String] {
            let reply = try await peer.call("Categories", [.string(Self.appID)])
            return try AgentTestClient.records(reply.first).compactMap { $0["identifier"]?.stringValue }.sorted()
        }
        // Fifteen such categories, about 150,000 bytes, fit in 200,000.
        let fifteen = try AgentPayload.encode(categories(15, tag: "a"))
        #expect(await peer.errorName(of: "SetCategories", [.string(Self.appID), fifteen.dbusValue]) == nil)
        #expect(try await identifiers().count == 15)
        // Replacing them by thirty (about 300,000) passes the budget: refused, the fifteen stay.
        let many = try AgentPayload.encode(categories(30, tag: "b"))
        #expect(await peer.errorName(of: "SetCategories", [.string(Self.appID), many.dbusValue]) == Self.prefix + "LimitReached")
        #expect(try await identifiers() == (0..<15).map { "a\($0)" }.sorted())
        // A request of about 60,000 bytes does not fit beside the fifteen either.
        let content = UNMutableNotificationContent()
        content.body = String(repeating: "b", count: 60_000)
        let request = try AgentPayload.encode(UNNotificationRequest(
            identifier: "r", content: content, trigger: UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)))
        #expect((55_000...AgentLimits.requestBytes).contains(AgentPayload.size(of: request)))
        #expect(await peer.errorName(of: "Add", [.string(Self.appID), request.dbusValue]) == Self.prefix + "LimitReached")
        // Two categories in their place give the room back at once, without a new measure.
        let two = try AgentPayload.encode(categories(2, tag: "c"))
        #expect(await peer.errorName(of: "SetCategories", [.string(Self.appID), two.dbusValue]) == nil)
        #expect(await peer.errorName(of: "Add", [.string(Self.appID), request.dbusValue]) == nil)
        await peer.close()
        await agent.stop()
    }

    @Test("past the agent's bytes for all apps, another app's Add is LimitReached; the first app's removal makes room")
    func agentByteBudget() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let caps = AgentLimits.AddCaps(pendingRequests: 1000, liveNotifications: 1000, appStateBytes: 1_000_000, agentStateBytes: 120_000)
        let agent = try await startAgent(caps: caps)
        func request(_ identifier: String) throws -> DBusValue {
            let content = UNMutableNotificationContent()
            content.title = identifier
            content.body = String(repeating: "b", count: 50_000)
            let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3600, repeats: false)
            return try AgentPayload.encode(UNNotificationRequest(identifier: identifier, content: content, trigger: trigger)).dbusValue
        }
        let first = try await AgentTestClient.connect(fixture.testBus.bus)
        try await first.connectApp("org.example.First")
        let second = try await AgentTestClient.connect(fixture.testBus.bus)
        try await second.connectApp("org.example.Second")
        #expect(await first.errorName(of: "Add", [.string("org.example.First"), try request("a")]) == nil)
        #expect(await first.errorName(of: "Add", [.string("org.example.First"), try request("b")]) == nil)
        #expect(await second.errorName(of: "Add", [.string("org.example.Second"), try request("c")]) == Self.prefix + "LimitReached")
        try await first.call("RemovePendingRequests", [.string("org.example.First"), .stringArray([]), .boolean(true)])
        try await Task.sleep(for: .milliseconds(1100))
        // The first app's estimate is measured again when its next Add would pass the budget;
        // the second app's request then fits.
        #expect(await first.errorName(of: "Add", [.string("org.example.First"), try AgentPayload.encode(AgentTestClient.request("small", after: 3600)).dbusValue]) == nil)
        #expect(await first.errorName(of: "Add", [.string("org.example.First"), try request("d")]) == nil)
        #expect(await second.errorName(of: "Add", [.string("org.example.Second"), try request("e")]) == nil)
        await first.close()
        await second.close()
        await agent.stop()
    }

    @Test("attachments past the app's budget are LimitReached by the size their descriptor reports, before a byte is copied")
    func attachmentBudget() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let files = try TemporaryFolder(prefix: "agent-trust-big")
        let big = "\(files.path)/big.png"
        // A sparse file: its size is over the budget, its blocks are few.
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(AgentLimits.appAttachmentBytes + 1)) == 0)
        let client = try await AgentTestClient.connect(fixture.testBus.bus)
        try await client.connectApp(Self.appID)
        let descriptor = DBusFileDescriptor(taking: open(big, O_RDONLY | O_CLOEXEC))
        #expect(await client.errorName(
            of: "AddFiles", [.string(Self.appID), try attached("big", path: "/x.png"), .array(element: .unixFileDescriptor, [.unixFileDescriptor(descriptor)])])
            == Self.prefix + "LimitReached")
        let store = fixture.stateRoot.appendingPathComponent(Self.appID).appendingPathComponent("attachments").path
        #expect(AttachmentStore.usedBytes(under: URL(fileURLWithPath: store)) == 0)
        await client.close()
        await agent.stop()
    }

    @Test("past the apps whose state the agent keeps on disk, a new app id is LimitReached; a kept one still connects")
    func keptAppBudget() async throws {
        for index in 0..<AgentLimits.keptApps {
            try FileManager.default.createDirectory(
                at: fixture.stateRoot.appendingPathComponent("org.example.Kept\(index)"), withIntermediateDirectories: true)
        }
        let agent = try await startAgent()
        let peer = try await AgentTestClient.connect(fixture.testBus.bus)
        #expect(await peer.errorName(of: "Connect", connectBody("org.example.New")) == Self.prefix + "LimitReached")
        #expect(await peer.errorName(of: "Connect", connectBody("org.example.Kept7")) == nil)
        await peer.close()
        await agent.stop()
    }

    /// A request with one attachment naming `path`.
    func attached(_ identifier: String, path: String) throws -> DBusValue {
        let content = UNMutableNotificationContent()
        content.title = identifier
        content.attachments = [UNNotificationAttachment(identifier: "img", url: URL(fileURLWithPath: path), type: "public.png")]
        return try AgentPayload.encode(UNNotificationRequest(identifier: identifier, content: content, trigger: nil)).dbusValue
    }

    @Test("attachments: a sandboxed app's paths are refused unopened; its descriptors are copied; a FIFO or a mismatch is refused")
    func attachmentsAsDescriptors() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let files = try TemporaryFolder(prefix: "agent-trust-files")
        let image = try files.write("not really a png, bytes all the same", to: "pic.png")
        let boxed = try await AgentTestClient.connect(fixture.testBus.bus)
        _ = sandboxed.withLock { $0.insert(boxed.connection.uniqueName) }
        try await boxed.connectApp(Self.appID)
        #expect(await boxed.errorName(of: "Add", [.string(Self.appID), try attached("path", path: image)]) == Self.prefix + "NotAllowed")
        #expect(await boxed.errorName(of: "Add", [.string(Self.appID), try attached("missing", path: "/nonexistent/secret")])
            == Self.prefix + "NotAllowed")
        let descriptor = DBusFileDescriptor(taking: open(image, O_RDONLY | O_CLOEXEC))
        try await boxed.call("AddFiles", [.string(Self.appID), try attached("handed", path: "/somewhere/pic.png"), .array(element: .unixFileDescriptor, [.unixFileDescriptor(descriptor)])])
        _ = try #require(await server.waitForNotify())
        let stored = try #require(server.notifications.last?.request.hints.imagePath.flatMap(URL.init(string:)))
        #expect(stored.path.hasPrefix(fixture.stateRoot.path))
        #expect(try String(contentsOf: stored, encoding: .utf8) == "not really a png, bytes all the same")
        #expect(await boxed.errorName(of: "AddFiles", [.string(Self.appID), try attached("none", path: "/x.png"), .array(element: .unixFileDescriptor, [])])
            == Self.prefix + "InvalidArgument")
        let fifo = "\(files.path)/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let pipe = DBusFileDescriptor(taking: open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC))
        #expect(await boxed.errorName(of: "AddFiles", [.string(Self.appID), try attached("fifo", path: "/x.png"), .array(element: .unixFileDescriptor, [.unixFileDescriptor(pipe)])])
            == Self.prefix + "UNError100")
        // Each accepted file is copied once, straight into the app's store: the one notification
        // shown holds the one copy, and nothing else of the app's folder holds the bytes.
        let appFolder = fixture.stateRoot.appendingPathComponent(Self.appID)
        let copies = (FileManager.default.enumerator(atPath: appFolder.path)?.allObjects as? [String] ?? []).filter { name in
            (try? String(contentsOfFile: appFolder.appendingPathComponent(name).path, encoding: .utf8)) == "not really a png, bytes all the same"
        }
        #expect(copies.count == 1 && copies.first?.hasPrefix("attachments/") == true, "\(copies)")
        await boxed.close()
        await agent.stop()
    }

    func sounding(_ identifier: String, sound: String) throws -> DBusValue {
        let content = UNMutableNotificationContent()
        content.title = identifier
        content.sound = UNNotificationSound(named: UNNotificationSoundName(rawValue: sound))
        return try AgentPayload.encode(UNNotificationRequest(identifier: identifier, content: content, trigger: nil)).dbusValue
    }

    @Test("a sandboxed app's sound is a theme name: a path is refused before anything checks it; a host app's is taken")
    func sandboxedSoundPaths() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let files = try TemporaryFolder(prefix: "agent-trust-sound")
        let sound = try files.write("RIFF", to: "ding.wav")
        let boxed = try await AgentTestClient.connect(fixture.testBus.bus)
        _ = sandboxed.withLock { $0.insert(boxed.connection.uniqueName) }
        try await boxed.connectApp("org.example.Boxed")
        #expect(await boxed.errorName(of: "Add", [.string("org.example.Boxed"), try sounding("path", sound: sound)]) == Self.prefix + "NotAllowed")
        #expect(await boxed.errorName(of: "Add", [.string("org.example.Boxed"), try sounding("missing", sound: "/nonexistent/secret")])
            == Self.prefix + "NotAllowed")
        #expect(await boxed.errorName(of: "Add", [.string("org.example.Boxed"), try sounding("themed", sound: "complete")]) == nil)
        _ = try #require(await server.waitForNotify())
        #expect(server.notifications.last?.request.hints.soundName == "complete")
        let host = try await AgentTestClient.connect(fixture.testBus.bus)
        try await host.connectApp(Self.appID)
        let options = UNNotificationPresentationOptions([.banner, .sound])
        #expect(await host.errorName(of: "AddPresented", [.string(Self.appID), try sounding("hosted", sound: sound), .uint32(UInt32(options.rawValue))]) == nil)
        #expect(await eventually { server.notifications.count == 2 })
        #expect(server.notifications.last?.request.hints.soundFile == sound)
        await boxed.close()
        await host.close()
        await agent.stop()
    }

    /// A request shown now whose title is the key "greeting" looked up at delivery in the
    /// bundle at `bundlePath`, as an app's record names it.
    func localized(_ identifier: String, bundlePath: String) throws -> AgentPayload.Record {
        var record = try AgentPayload.encode(UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil))
        let lookup: AgentPayload.Record = ["key": .string("greeting"), "bundlePath": .string(bundlePath)]
        let localizations: AgentPayload.Record = ["title": lookup.dbusValue]
        let content: AgentPayload.Record = ["title": .string("greeting"), "localizations": localizations.dbusValue]
        record["content"] = content.dbusValue
        return record
    }

    @Test("a sandboxed app's localized text names no bundle by path: NotAllowed, naming the field; a host app's is looked up there")
    func sandboxedBundlePaths() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let bundle = try TemporaryFolder(prefix: "agent-trust-bundle")
        _ = try bundle.write(#""greeting" = "Hello from the bundle";"#, to: "en.lproj/Localizable.strings")
        let boxed = try await AgentTestClient.connect(fixture.testBus.bus)
        _ = sandboxed.withLock { $0.insert(boxed.connection.uniqueName) }
        try await boxed.connectApp("org.example.Boxed")
        #expect(await boxed.errorName(of: "Add", [.string("org.example.Boxed"), try localized("boxed", bundlePath: bundle.path).dbusValue])
            == Self.prefix + "NotAllowed")
        let batch = [try localized("boxed-batch", bundlePath: "/nonexistent/secret.bundle")].dbusValue
        guard case .array(_, let results)? = try await boxed.call("AddRequests", [.string("org.example.Boxed"), batch]).first,
            case .structure(let pair)? = results.first
        else { Issue.record("AddRequests answered no pair"); return }
        #expect(pair.first?.stringValue == Self.prefix + "NotAllowed")
        #expect(pair.last?.stringValue?.contains("content.localizations.title.bundlePath") == true, "\(pair)")
        #expect(try await boxed.pending(of: "org.example.Boxed").isEmpty)

        let host = try await AgentTestClient.connect(fixture.testBus.bus)
        try await host.connectApp(Self.appID)
        #expect(await host.errorName(of: "Add", [.string(Self.appID), try localized("hosted", bundlePath: bundle.path).dbusValue]) == nil)
        _ = try #require(await server.waitForNotify())
        #expect(server.notifications.map(\.request.summary) == ["Hello from the bundle"])
        await boxed.close()
        await host.close()
        await agent.stop()
    }

    @Test("a sandboxed app's service extension names an attachment, a sound or a bundle by path: the push is refused, nothing opened")
    func sandboxedServiceExtensionPaths() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let files = try TemporaryFolder(prefix: "agent-trust-extension")
        let secret = try files.write("secret bytes of the host", to: "secret.png")
        let boxed = try await AgentTestClient.connect(fixture.testBus.bus)
        let answer = Locked<AgentPayload.Record>([:])
        let client = try DBusExportedInterface(name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML) {
            invocation in
            guard invocation.message.member == "ServiceExtension" else { return invocation.fail(name: "org.example.Error", message: "not here") }
            invocation.reply([answer.withLock { $0 }.dbusValue])
        }
        let export = boxed.connection.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [client]))
        defer { export.unexport() }
        _ = sandboxed.withLock { $0.insert(boxed.connection.uniqueName) }
        try await boxed.connectApp("org.example.Boxed")
        let app = try #require(agent.apps.withLock { $0["org.example.Boxed"] })
        let sent = UNMutableNotificationContent()
        sent.title = "Sent"
        let pushed = UNNotificationRequest(identifier: "pushed", content: sent, trigger: UNPushNotificationTrigger())
        let attachment: AgentPayload.Record = ["url": .string(URL(fileURLWithPath: secret).absoluteString), "type": .string("public.png")]
        let lookup: AgentPayload.Record = ["key": .string("greeting"), "bundlePath": .string(files.path)]
        let answers: [AgentPayload.Record] = [
            ["title": .string("Changed"), "attachments": [attachment].dbusValue],
            ["title": .string("Changed"), "sound": (["name": .string(secret)] as AgentPayload.Record).dbusValue],
            ["title": .string("Changed"), "localizations": (["title": lookup.dbusValue] as AgentPayload.Record).dbusValue],
        ]
        for content in answers {
            answer.withLock { $0 = content }
            // As the agent adds a mutable push: the extension's content, then the app's add.
            let shown = await app.host.serviceExtensionRequest(for: pushed)
            #expect(shown.content.title == "Changed")
            do {
                try await app.add(shown)
                Issue.record("the push with \(content) was added")
            } catch {
                guard case .notAllowed(let message)? = error as? NotificationAgentError else {
                    Issue.record("the push with \(content) was refused with \(error), not NotAllowed")
                    continue
                }
                #expect(!message.contains(files.path), "\(message)")
            }
        }
        #expect(server.notifications.isEmpty)
        let appFolder = fixture.stateRoot.appendingPathComponent("org.example.Boxed")
        let copies = (FileManager.default.enumerator(atPath: appFolder.path)?.allObjects as? [String] ?? []).filter { name in
            (try? String(contentsOfFile: appFolder.appendingPathComponent(name).path, encoding: .utf8)) == "secret bytes of the host"
        }
        #expect(copies.isEmpty, "\(copies)")
        await boxed.close()
        await agent.stop()
    }

    @Test("a push's content from the service extension is bounded as Add bounds a request: its bytes, its attachments")
    func pushedContentBounds() async throws {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let files = try TemporaryFolder(prefix: "agent-trust-push")
        let picture = try files.write("bytes of a picture", to: "pic.png")
        let host = try await AgentTestClient.connect(fixture.testBus.bus)
        let answer = Locked<AgentPayload.Record>([:])
        let client = try DBusExportedInterface(name: AgentInterface.clientName, introspectionXML: AgentInterface.clientIntrospectionXML) {
            invocation in
            guard invocation.message.member == "ServiceExtension" else { return invocation.fail(name: "org.example.Error", message: "not here") }
            invocation.reply([answer.withLock { $0 }.dbusValue])
        }
        let export = host.connection.export(DBusExportedObject(path: AgentInterface.clientPath, interfaces: [client]))
        defer { export.unexport() }
        try await host.connectApp(Self.appID)
        let app = try #require(agent.apps.withLock { $0[Self.appID] })
        let sent = UNMutableNotificationContent()
        sent.title = "Sent"
        let pushed = UNNotificationRequest(identifier: "pushed", content: sent, trigger: UNPushNotificationTrigger())
        let attachment: AgentPayload.Record = ["url": .string(URL(fileURLWithPath: picture).absoluteString), "type": .string("public.png")]
        let refused: [AgentPayload.Record] = [
            ["title": .string("Too long"), "body": .string(String(repeating: "b", count: AgentLimits.requestBytes))],
            ["title": .string("Too many"), "attachments": Array(repeating: attachment, count: AgentLimits.attachmentsPerRequest + 1).dbusValue],
        ]
        for content in refused {
            answer.withLock { $0 = content }
            // As the agent adds a mutable push: the extension's content, then the add.
            await agent.addPushed(await app.host.serviceExtensionRequest(for: pushed), to: app)
        }
        answer.withLock { $0 = ["title": .string("Fine"), "attachments": [attachment].dbusValue] }
        await agent.addPushed(await app.host.serviceExtensionRequest(for: pushed), to: app)
        _ = try #require(await server.waitForNotify())
        #expect(server.notifications.map(\.request.summary) == ["Fine"])
        let appFolder = fixture.stateRoot.appendingPathComponent(Self.appID)
        let copies = (FileManager.default.enumerator(atPath: appFolder.path)?.allObjects as? [String] ?? []).filter { name in
            (try? String(contentsOfFile: appFolder.appendingPathComponent(name).path, encoding: .utf8)) == "bytes of a picture"
        }
        #expect(copies.count == 1, "\(copies)")
        await host.close()
        await agent.stop()
    }

    @Test("a host app's attachment path is opened without following a link or waiting on a FIFO")
    func hostPaths() async throws {
        _ = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await startAgent()
        let files = try TemporaryFolder(prefix: "agent-trust-host")
        let target = try files.write("secret", to: "target")
        #expect(chmod(target, 0o644) == 0)
        let link = "\(files.path)/link.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let fifo = "\(files.path)/pipe.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        let host = try await AgentTestClient.connect(fixture.testBus.bus)
        try await host.connectApp(Self.appID)
        #expect(await host.errorName(of: "Add", [.string(Self.appID), try attached("link", path: link)]) == Self.prefix + "UNError100")
        #expect(try FileManager.default.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o644)
        #expect(await host.errorName(of: "Add", [.string(Self.appID), try attached("fifo", path: fifo)]) == Self.prefix + "UNError100")
        #expect(await host.errorName(of: "Add", [.string(Self.appID), try attached("dir", path: files.path)]) == Self.prefix + "UNError100")
        // The agent still answers.
        #expect(try await host.call("Version") == [.uint32(AgentInterface.version)])
        await host.close()
        await agent.stop()
    }
}
