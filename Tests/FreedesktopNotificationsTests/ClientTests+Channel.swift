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

    @Test("channel: a posted notification's signals go to the channel that posted it alone; others' to every channel")
    func signalsGoToThePoster() async throws {
        let server = try await FakeNotificationServer.start(on: testBus.bus, personality: .kde)
        let client = NotificationsClient(bus: testBus.bus)
        let first = ChannelLog()
        let second = ChannelLog()
        let firstChannel = client.openChannel { first.record($0) }
        let secondChannel = client.openChannel { second.record($0) }
        defer {
            firstChannel.close()
            secondChannel.close()
        }
        client.post(NotifyRequest(summary: "first's"), tag: 1, on: firstChannel)
        #expect(await eventually { first.summary == ["posted 1 id 1"] })
        client.post(NotifyRequest(summary: "second's"), tag: 2, on: secondChannel)
        #expect(await eventually { second.summary == ["posted 2 id 2"] })
        server.invokeAction(id: 1, key: "ok")
        server.invokeAction(id: 2, key: "no")
        #expect(await eventually { first.summary.count == 3 && second.summary.count == 3 })
        #expect(first.summary == ["posted 1 id 1", "action 1 ok", "closed 1"])
        #expect(second.summary == ["posted 2 id 2", "action 2 no", "closed 2"])
        // An id neither posted (another process's, on a broadcasting server) reaches both, and
        // so does a signal of a closed notification's id: its entry ended with the close.
        server.broadcastForeignAction(id: 99)
        server.broadcastForeignAction(id: 1)
        #expect(await eventually { first.summary.count == 5 && second.summary.count == 5 })
        #expect(first.summary.suffix(2) == ["action 99 default", "action 1 default"])
        #expect(second.summary.suffix(2) == ["action 99 default", "action 1 default"])
    }
}
