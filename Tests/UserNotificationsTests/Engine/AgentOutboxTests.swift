import DesktopNotificationsSupport
import Testing

@testable import UserNotifications

@Suite("The order in which a center's calls leave for the agent")
struct AgentOutboxTests {
    @Test("a call with nothing waiting before it leaves at once, on the caller's thread")
    func leavesAtOnce() {
        let outbox = AgentOutbox()
        let sent = Locked<[String]>([])
        outbox.enqueue { sent.withLock { $0.append("a") } }
        #expect(sent.withLock { $0 } == ["a"])
        outbox.enqueue { sent.withLock { $0.append("b") } }
        #expect(sent.withLock { $0 } == ["a", "b"])
    }

    @Test("calls after a reserved place wait for it, then leave in call order")
    func reservedPlaceHolds() {
        let outbox = AgentOutbox()
        let sent = Locked<[String]>([])
        let add = outbox.reserve()
        outbox.enqueue { sent.withLock { $0.append("remove") } }
        let second = outbox.reserve()
        outbox.enqueue { sent.withLock { $0.append("pending") } }
        #expect(sent.withLock { $0 }.isEmpty)
        // The second place filled first still waits for the first.
        outbox.fill(second) { sent.withLock { $0.append("add 2") } }
        #expect(sent.withLock { $0 }.isEmpty)
        outbox.fill(add) { sent.withLock { $0.append("add 1") } }
        #expect(sent.withLock { $0 } == ["add 1", "remove", "add 2", "pending"])
        outbox.enqueue { sent.withLock { $0.append("later") } }
        #expect(sent.withLock { $0 }.last == "later")
    }

    @Test("a send may enqueue another call; it leaves after the send, in order")
    func reentrantSend() {
        let outbox = AgentOutbox()
        let sent = Locked<[String]>([])
        outbox.enqueue {
            sent.withLock { $0.append("first") }
            outbox.enqueue { sent.withLock { $0.append("from first") } }
            sent.withLock { $0.append("first done") }
        }
        #expect(sent.withLock { $0 } == ["first", "first done", "from first"])
    }

    @Test("calls from many threads all leave, each once")
    func concurrentCalls() async {
        let outbox = AgentOutbox()
        let sent = Locked<[Int]>([])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    if index.isMultiple(of: 3) {
                        let place = outbox.reserve()
                        await Task.yield()
                        outbox.fill(place) { sent.withLock { $0.append(index) } }
                    } else {
                        outbox.enqueue { sent.withLock { $0.append(index) } }
                    }
                }
            }
        }
        #expect(sent.withLock { $0 }.sorted() == Array(0..<200))
    }
}
