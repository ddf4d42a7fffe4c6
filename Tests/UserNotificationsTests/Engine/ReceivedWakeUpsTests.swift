import DesktopNotificationsSupport
import Testing
import UserNotificationsTesting

@testable import UserNotifications

@Suite("Who takes the items of a read that woke no waiting caller (ReceivedWakeUps)")
struct ReceivedWakeUpsTests {
    typealias Answer = EngineAnswer<Result<Void, any Error>>

    /// A caller of `add` between two drains: it waits in `nextWake()` and, once woken, would
    /// drain; `woken` says that it got past the wait.
    final class Caller: Sendable {
        let answer = Answer()
        private let passed = Locked(false)
        var woken: Bool { passed.withLock { $0 } }

        /// Starts waiting; returns once the caller waits, or once it got past the wait at
        /// once (a wake came before it).
        func startWaiting() async {
            Task { [self] in
                await answer.nextWake()
                passed.withLock { $0 = true }
            }
            while !answer.isWaiting && !woken { await Task.yield() }
        }
    }

    @Test("a caller that waited for its reply is woken and drains after: the signals of its read need no task")
    func waitedForReply() async {
        let caller = Caller()
        await caller.startWaiting()
        #expect(!caller.woken)
        #expect(ReceivedWakeUps(waiters: [caller.answer], drainWanted: true, scheduled: true).wake() == false)
        #expect(await eventually(timeout: .seconds(5)) { caller.woken })
    }

    @Test("a caller that took its reply in its own drain and returned leaves the signals after it to a task")
    func tookReplyItself() {
        // The caller was draining as the read went on: it took its reply, found the inbox
        // empty and returned before the ActionInvoked that followed reached the inbox.
        let answer = Answer()
        answer.resolve(.success(()))
        #expect(ReceivedWakeUps(waiters: [answer], drainWanted: true, scheduled: true).wake() == true)
    }

    @Test("a caller still draining gets its wake at its next wait; the signals get a task all the same")
    func stillDraining() async {
        let caller = Caller()
        #expect(ReceivedWakeUps(waiters: [caller.answer], drainWanted: true, scheduled: true).wake() == true)
        // Its next wait returns without a wake of its own: it drains again for its reply.
        await caller.startWaiting()
        #expect(await eventually(timeout: .seconds(5)) { caller.woken })
    }

    @Test("with no signal, only the replies' callers are woken; with neither, nothing drains")
    func repliesOnly() async {
        let caller = Caller()
        await caller.startWaiting()
        #expect(ReceivedWakeUps(waiters: [caller.answer], drainWanted: false, scheduled: true).wake() == false)
        #expect(await eventually(timeout: .seconds(5)) { caller.woken })
        #expect(ReceivedWakeUps(waiters: [Answer()], drainWanted: false, scheduled: true).wake() == false)
        #expect(ReceivedWakeUps(waiters: [], drainWanted: true, scheduled: true).wake() == true)
    }
}
