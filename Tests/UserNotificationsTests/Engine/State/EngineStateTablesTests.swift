import Foundation
import FreedesktopNotifications
import Testing
@testable import UserNotifications
import UserNotificationsTesting

private func entry(_ identifier: String, server: String = ":1.5", id: UInt32, at seconds: Double = 0) -> DeliveredEntry {
    let request = UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil)
    return DeliveredEntry(
        notification: UNNotification(date: Date(timeIntervalSince1970: seconds), request: request),
        key: ServerKey(server: server, id: id))
}

@Suite("DeliveredTable")
struct DeliveredTableTests {
    @Test func anUpdateReplacesTheEntryAndItsIndex() {
        var table = DeliveredTable()
        let replaced = table.record(entry("a", id: 1))
        #expect(replaced == nil)
        #expect(table.replacementID(for: "a", on: ":1.5") == 1)
        #expect(table.replacementID(for: "a", on: ":1.9") == 0, "an id of another server instance is not replaced")
        let previous = table.record(entry("a", id: 2))
        #expect(previous?.key.id == 1)
        #expect(table.liveEntry(at: ServerKey(server: ":1.5", id: 1)) == nil, "the old id no longer names it")
        #expect(table.liveEntry(at: ServerKey(server: ":1.5", id: 2))?.identifier == "a")
        #expect(table.indexCount == 1)
    }

    @Test func aClosedEntryStillAbsorbsSignalsUntilItsGraceEnds() {
        var table = DeliveredTable()
        table.record(entry("a", id: 7))
        let key = ServerKey(server: ":1.5", id: 7)
        let closed = table.close("a") { $0.responded = true }
        #expect(closed?.responded == true)
        #expect(table["a"] == nil)
        #expect(table.knows(key))
        let found = table.update(key) { $0.activationToken = "t" }
        #expect(found)
        #expect(table.closing[key]?.activationToken == "t")
        let finished = table.finishClosing(key)
        #expect(finished?.identifier == "a")
        #expect(!table.knows(key))
        #expect(table.isEmpty)
    }

    @Test func droppingAServerRemovesItsLiveAndClosingEntriesOnly() {
        var table = DeliveredTable()
        table.record(entry("a", server: ":1.5", id: 1))
        table.record(entry("b", server: ":1.5", id: 2))
        table.record(entry("c", server: ":1.6", id: 1))
        table.close("b")
        #expect(table.servers == [":1.5", ":1.6"])
        let dropped = table.dropServer(":1.5")
        #expect(Set(dropped.map(\.identifier)) == ["a", "b"])
        #expect(table.notifications.map(\.request.identifier) == ["c"])
        #expect(table.closing.isEmpty)
        #expect(table.indexCount == 1)
    }

    @Test func notificationsComeOldestFirst() {
        var table = DeliveredTable()
        table.record(entry("late", id: 1, at: 20))
        table.record(entry("early", id: 2, at: 10))
        #expect(table.notifications.map(\.request.identifier) == ["early", "late"])
    }
}

@Suite("PendingTable")
struct PendingTableTests {
    private func pendingEntry(_ identifier: String, fire seconds: Double) -> PendingEntry {
        let request = UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil)
        return PendingEntry(request: request, anchor: .distantPast, nextFire: Date(timeIntervalSince1970: seconds))
    }

    @Test func requestsComeSoonestFirstWithTiesByIdentifier() {
        var table = PendingTable()
        table.insert(pendingEntry("c", fire: 5))
        table.insert(pendingEntry("b", fire: 1))
        table.insert(pendingEntry("a", fire: 5))
        #expect(table.requests.map(\.identifier) == ["b", "a", "c"])
        table.reschedule("b", to: Date(timeIntervalSince1970: 9))
        #expect(table.requests.map(\.identifier) == ["a", "c", "b"])
    }

    @Test func insertingAnIdentifierAgainReturnsTheEntryItReplaces() {
        var table = PendingTable()
        let first = table.insert(pendingEntry("a", fire: 1))
        let second = table.insert(pendingEntry("a", fire: 2))
        #expect(first == nil)
        #expect(second?.nextFire == Date(timeIntervalSince1970: 1))
        #expect(table.count == 1)
        let removed = table.removeAll()
        #expect(removed.count == 1)
        #expect(table.isEmpty)
    }
}

@Suite("AttachmentLedger")
struct AttachmentLedgerTests {
    @Test func aFolderIsUnusedOnlyWhenItsLastHolderLetsGo() {
        let folder = URL(fileURLWithPath: "/store/a")
        var ledger = AttachmentLedger()
        ledger.retain([folder])
        ledger.retain([folder, folder])
        #expect(ledger.counts[folder] == 2, "one holder counts a folder once")
        let afterFirst = ledger.release([folder])
        let afterSecond = ledger.release([folder])
        #expect(afterFirst.isEmpty)
        #expect(afterSecond == [folder])
        #expect(ledger.isEmpty)
    }

    @Test func randomHoldsMatchACountingModel() {
        var generator = SeededGenerator(seed: 11)
        let folders = (0..<8).map { URL(fileURLWithPath: "/store/\($0)") }
        var ledger = AttachmentLedger()
        var holders: [[URL]] = []
        var freed: [URL: Int] = [:]
        for _ in 0..<5_000 {
            if holders.isEmpty || Bool.random(using: &generator) {
                let held = (0..<Int.random(in: 1...3, using: &generator)).map { _ in folders.randomElement(using: &generator)! }
                holders.append(held)
                ledger.retain(held)
            } else {
                let released = holders.remove(at: Int.random(in: 0..<holders.count, using: &generator))
                for folder in ledger.release(released) { freed[folder, default: 0] += 1 }
                let stillHeld = Set(holders.flatMap { $0 })
                for folder in Set(released) {
                    #expect((ledger.counts[folder] != nil) == stillHeld.contains(folder))
                }
            }
        }
        #expect(freed.values.reduce(0, +) > 0)
    }
}

@Suite("DeliveryQueue")
struct DeliveryQueueTests {
    private func delivery(_ tag: UInt64, _ identifier: String) -> Delivery {
        let request = UNNotificationRequest(identifier: identifier, content: UNNotificationContent(), trigger: nil)
        return Delivery(tag: tag, notification: UNNotification(date: Date(), request: request), folders: [], waiter: nil)
    }

    @Test func deliveriesOfOneIdentifierGoOneAtATimeInOrder() {
        var queue = DeliveryQueue()
        let started = [delivery(1, "a"), delivery(2, "a"), delivery(3, "b")].map { queue.enqueue($0) }
        #expect(started == [true, false, true], "the second of \"a\" waits for the first; \"b\" does not")
        #expect(queue[2] == nil, "a waiting delivery is not under way")
        let first = queue.finish(1)
        #expect(first?.finished.tag == 1)
        #expect(first?.next?.tag == 2)
        let rest = [2, 3].map { queue.finish($0)?.next?.tag }
        #expect(rest == [nil, nil])
        #expect(queue.isEmpty)
    }

    @Test func aWithdrawalMarksEveryDeliveryOfTheIdentifier() {
        var queue = DeliveryQueue()
        _ = queue.enqueue(delivery(1, "a"))
        _ = queue.enqueue(delivery(2, "a"))
        let marked = ["a", "b"].map { queue.withdrawOnArrival($0) }
        #expect(marked == [true, false])
        #expect(queue[1]?.withdrawOnArrival == true)
        let next = queue.finish(1)?.next
        #expect(next?.withdrawOnArrival == true)
    }

    @Test func earlySignalsAreKeptOnlyWhileANotifyIsOnTheWire() {
        var queue = DeliveryQueue()
        let key = ServerKey(server: ":1.5", id: 4)
        let signal = EarlySignal(key: key, event: .actionInvoked(id: 4, actionKey: "default", server: ":1.5"))
        let keptWithoutPost = queue.holdEarly(signal)
        #expect(!keptWithoutPost, "no Notify on the wire: the signal is somebody else's")
        _ = queue.enqueue(delivery(1, "a"))
        queue.markPosted(1)
        queue.markPosted(1)
        #expect(queue.postsInFlight == 1, "a post counts once")
        let kept = queue.holdEarly(signal)
        #expect(kept)
        let otherKey = queue.takeEarly(for: ServerKey(server: ":1.5", id: 5))
        #expect(otherKey.isEmpty)
        let taken = queue.takeEarly(for: key)
        #expect(taken.count == 1)
        _ = queue.holdEarly(signal)
        _ = queue.finish(1)
        #expect(queue.postsInFlight == 0)
        #expect(queue.early.isEmpty, "the last reply leaves nothing kept")
    }

    @Test func earlySignalsAreBounded() {
        var queue = DeliveryQueue()
        _ = queue.enqueue(delivery(1, "a"))
        queue.markPosted(1)
        let kept = (0..<UInt32(DeliveryQueue.earlyLimit)).map {
            queue.holdEarly(EarlySignal(key: ServerKey(server: ":1.5", id: $0), event: .disconnected))
        }
        #expect(kept.allSatisfy { $0 })
        let keptPastLimit = queue.holdEarly(EarlySignal(key: ServerKey(server: ":1.5", id: 99_999), event: .disconnected))
        #expect(!keptPastLimit)
        #expect(queue.early.count == DeliveryQueue.earlyLimit)
        #expect(queue.early.first?.key.id == 1, "the oldest was dropped")
    }
}
