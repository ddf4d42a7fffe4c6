import DBus
import Foundation
import FreedesktopNotifications
import NotificationAgent
import Testing
import UserNotifications
import UserNotificationsTesting

/// Content extensions of an app whose notifications the agent posts: the extension lives in the
/// app, and the agent reaches it through the connected center, as the in-process engine reaches
/// it in its own process.
@Suite("Content extensions through the agent")
struct AgentContentExtensionTests {
    static let appID = "org.example.AgentContentExtension"
    static let identity = ApplicationIdentity(id: appID, displayName: "Extension App")
    static let category = UNNotificationCategory(
        identifier: "card", actions: [UNNotificationAction(identifier: "flip", title: "Flip")], intentIdentifiers: [])

    let fixture: AgentServiceFixture

    init() async throws {
        fixture = try await AgentServiceFixture(prefix: "agent-content-extension")
    }

    /// A center on the agent with the "card" category, whose content extension answers
    /// `answer`, registered once the center is connected (so the agent learns of it from a
    /// later `Connect`), and a delegate that records responses.
    func connectedCenter(
        _ answer: UNNotificationContentExtensionResponseOption
    ) async throws -> (FakeNotificationServer, AgentService, UNUserNotificationCenter, RecordingContentExtension, ResponseRecorder) {
        let server = try await FakeNotificationServer.start(on: fixture.testBus.bus)
        let agent = try await fixture.startAgent()
        let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(fixture.testBus.address), engine: .agent)
        let recorder = ResponseRecorder()
        center.delegate = recorder
        center.setNotificationCategories([Self.category])
        #expect(await center.engineKind == .agent)
        let contentExtension = await RecordingContentExtension(answer)
        center.setContentExtension(contentExtension, forCategories: ["card"])
        return (server, agent, center, contentExtension, recorder)
    }

    /// Adds `identifier` in `category` and returns the server's id of its notification.
    func post(_ identifier: String, category: String, to center: UNUserNotificationCenter, on server: FakeNotificationServer) async throws -> UInt32 {
        let before = server.notifications.count
        try await center.add(AgentTestClient.request(identifier, category: category))
        _ = await server.waitForNotify(count: before + 1)
        return try #require(server.notifications.last(where: { $0.request.hints.desktopEntry == Self.appID && $0.request.summary == "Title of \(identifier)" })?.id)
    }

    @Test("a notification of the extension's category is posted resident by the agent and the extension is told it is shown; another category's is not")
    func shownResident() async throws {
        let (server, agent, center, contentExtension, _) = try await connectedCenter(.dismiss)
        _ = try await post("card-1", category: "card", to: center, on: server)
        _ = try await post("plain-1", category: "", to: center, on: server)
        let card = try #require(server.notifications.first { $0.request.summary == "Title of card-1" })
        let plain = try #require(server.notifications.first { $0.request.summary == "Title of plain-1" })
        #expect(card.request.hints.resident == true)
        #expect(plain.request.hints.resident != true)
        #expect(await eventually { await contentExtension.shown == ["card-1"] })
        await agent.stop()
    }

    @Test(".doNotDismiss: the extension sees each action, the notification stays shown and delivered, the delegate is told nothing")
    func doNotDismiss() async throws {
        let (server, agent, center, contentExtension, recorder) = try await connectedCenter(.doNotDismiss)
        let id = try await post("card-2", category: "card", to: center, on: server)
        server.invokeAction(id: id, key: "flip")
        #expect(await eventually { await contentExtension.seen == ["flip"] })
        // The agent takes a later action once the extension's answer is back from the app; one
        // that comes before is the same click told twice, and dropped. So the click is repeated
        // until it counts.
        #expect(await eventually {
            if await contentExtension.seen.count < 2 { server.invokeAction(id: id, key: "flip") }
            try? await Task.sleep(for: .milliseconds(50))
            return await contentExtension.seen.count >= 2
        })
        #expect(await contentExtension.seen.allSatisfy { $0 == "flip" })
        #expect(server.liveIDs.contains(id))
        #expect(await center.deliveredNotifications().map(\.request.identifier) == ["card-2"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.received.isEmpty)
        await agent.stop()
    }

    @Test(".dismiss closes the notification and tells the delegate nothing")
    func dismiss() async throws {
        let (server, agent, center, contentExtension, recorder) = try await connectedCenter(.dismiss)
        let id = try await post("card-3", category: "card", to: center, on: server)
        server.invokeAction(id: id, key: "flip")
        #expect(await eventually { !server.liveIDs.contains(id) })
        #expect(await contentExtension.seen == ["flip"])
        #expect(await eventually { await center.deliveredNotifications().isEmpty })
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.received.isEmpty)
        await agent.stop()
    }

    @Test(".dismissAndForwardAction closes it and the delegate gets the action")
    func forward() async throws {
        let (server, agent, center, contentExtension, recorder) = try await connectedCenter(.dismissAndForwardAction)
        let id = try await post("card-4", category: "card", to: center, on: server)
        server.invokeAction(id: id, key: "flip")
        #expect(await eventually { recorder.received == ["card-4 flip"] })
        #expect(await contentExtension.seen == ["flip"])
        #expect(await eventually { !server.liveIDs.contains(id) })
        await agent.stop()
    }

    @Test("the center connects again only when its extensions' categories change, and takes no responses for it")
    func connectsAgainOnChange() async throws {
        let agent = try await FakeAgent.start(on: fixture.testBus.bus)
        let center = UNUserNotificationCenter(identity: Self.identity, bus: .address(fixture.testBus.address), engine: .agent)
        let contentExtension = await RecordingContentExtension(.dismiss)
        // Registered as the engine is being chosen: its first Connect names the category, or,
        // when the choice was quicker than this line, names none and a second one follows.
        center.setContentExtension(contentExtension, forCategories: ["card"])
        #expect(await center.engineKind == .agent)
        #expect(await eventually { agent.connectCategories.last == ["card"] && agent.members.contains("TakeResponses") }, "\(agent.members)")
        let first = agent.members
        #expect(first.filter { $0 == "TakeResponses" }.count == 1 && first.filter { $0 == "Connect" }.count == agent.connectCategories.count, "\(first)")
        #expect(agent.connectCategories == [["card"]] || agent.connectCategories == [[], ["card"]], "\(agent.connectCategories)")
        // The same categories again: nothing to tell.
        center.setContentExtension(contentExtension, forCategories: ["card"])
        // Another category: Connect once more, and no TakeResponses with it.
        center.setContentExtension(contentExtension, forCategories: ["memo"])
        #expect(await eventually { agent.members == first + ["Connect"] }, "\(agent.members)")
        try await Task.sleep(for: .milliseconds(200))
        #expect(agent.members == first + ["Connect"])
        #expect(agent.connectCategories.last == ["card", "memo"])
        await agent.stop()
    }

    @Test("Connect refuses content extension categories that are not strings, too many, too long or with control characters")
    func boundedCategories() async throws {
        let agent = try await fixture.startAgent()
        let client = try await AgentTestClient.connect(fixture.testBus.bus)
        let option = AgentInterface.contentExtensionCategoriesOption
        let refused = [
            DBusValue.uint32(1),
            .stringArray((0...AgentInterface.maximumContentExtensionCategories).map { "c\($0)" }),
            .stringArray([String(repeating: "c", count: AgentInterface.maximumCategoryIdentifierBytes + 1)]),
            .stringArray(["tab\there"]),
        ]
        for value in refused {
            let name = await client.errorName(of: "Connect", [.string(Self.appID), .variantDictionary([(option, value)])])
            #expect(name == "org.desktopnotifications.Agent1.Error.InvalidArgument", "\(value)")
        }
        #expect(await client.errorName(of: "Connect", [.string(Self.appID), .variantDictionary([(option, .stringArray(["card"]))])]) == nil)
        await client.close()
        await agent.stop()
    }
}
