import DesktopNotificationsSupport
import Foundation
@testable import FreedesktopNotifications
import Testing
import UserNotificationsTesting

/// Collects a channel's items as the handler gets them.
private final class ChannelLog: Sendable {
    let items = Locked<[NotificationChannelItem]>([])

    func record(_ item: NotificationChannelItem) { items.withLock { $0.append(item) } }

    /// A short name per item, for comparing orders.
    var summary: [String] {
        items.withLock { items in
            items.map { item in
                switch item.kind {
                case .posted(let tag, .success(let posting)): "posted \(tag) id \(posting.id)"
                case .posted(let tag, .failure): "failed \(tag)"
                case .event(.actionInvoked(let id, let key, _)): "action \(id) \(key)"
                case .event(.closed(let id, _, _)): "closed \(id)"
                case .event(let other): "\(other)"
                }
            }
        }
    }
}

// The ordered channel (NotificationsClient.openChannel, post), on ClientTests' private bus.
extension ClientTests {
    @Test("channel: a reply and the signals keep the socket's order, numbered, with the owner as of each")
    func replyAndSignalsInSocketOrder() async throws {
        var script = FakeNotificationServer.Script()
        script.actionBeforeReply = "default"
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde, script: script)
        let client = NotificationsClient(bus: testBus.bus)
        let log = ChannelLog()
        let channel = client.openChannel { log.record($0) }
        defer { channel.close() }
        client.post(NotifyRequest(summary: "a"), tag: 7, on: channel)
        #expect(await eventually { log.summary.count == 2 })
        server.script = FakeNotificationServer.Script()
        server.invokeAction(id: 1, key: "ok")
        #expect(await eventually { log.summary.count == 4 })
        // The server clicked before it replied: the channel says so, rather than putting the
        // reply first.
        #expect(log.summary == ["action 1 default", "posted 7 id 1", "action 1 ok", "closed 1"])
        let items = log.items.withLock { $0 }
        #expect(items.map(\.sequence) == items.map(\.sequence).sorted())
        #expect(Set(items.map(\.sequence)).count == items.count)
        #expect(items.allSatisfy { $0.owner == server.uniqueName })
    }

    @Test("channel: a request that cannot be sent, or no server, is answered on the channel")
    func failuresComeOnTheChannel() async throws {
        let client = NotificationsClient(bus: testBus.bus)
        let log = ChannelLog()
        let channel = client.openChannel { log.record($0) }
        defer { channel.close() }
        client.post(NotifyRequest(summary: "no server"), tag: 1, on: channel)
        client.post(NotifyRequest(summary: String(repeating: "x", count: NotificationLimits().summaryBytes + 1)), tag: 2, on: channel)
        #expect(await eventually { log.summary.count == 2 })
        #expect(Set(log.summary) == ["failed 1", "failed 2"])
    }

    @Test("channel: a closed channel gets nothing more")
    func closedChannel() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let client = NotificationsClient(bus: testBus.bus)
        let log = ChannelLog()
        let channel = client.openChannel { log.record($0) }
        let events = EventRecorder(client.events())
        let posting = try await client.notify(NotifyRequest(summary: "a"))
        channel.close()
        server.invokeAction(id: posting.id)
        #expect(await events.next(2).count == 2, "the action and the close reached the client")
        #expect(log.summary.isEmpty)
    }
}
