import Testing

@testable import UserNotifications

@Suite("Who takes the items of a read that woke no waiting caller (ReceivedWakeUps)")
struct ReceivedWakeUpsTests {
    typealias Answer = EngineAnswer<Result<Void, any Error>>

    /// A caller suspended in `nextWake()`, as the caller of `add` waits for its reply.
    static func waitingCaller() async -> (Answer, Task<Void, Never>) {
        let answer = Answer()
        let task = Task { await answer.nextWake() }
        while !answer.isWaiting { await Task.yield() }
        return (answer, task)
    }

    @Test("a caller that waited for its reply is woken and drains after: the signals of its read need no task")
    func waitedForReply() async {
        let (answer, caller) = await Self.waitingCaller()
        let wakeUps = ReceivedWakeUps(waiters: [answer], drainWanted: true, scheduled: true)
        #expect(wakeUps.wake() == false)
        await caller.value
        #expect(!answer.isWaiting)
    }

    @Test("a caller that took its reply in its own drain and returned leaves the signals after it to a task")
    func tookReplyItself() {
        // The caller was draining as the read went on: it took its reply, found the inbox
        // empty and returned before the ActionInvoked that followed reached the inbox.
        let answer = Answer()
        answer.resolve(.success(()))
        let wakeUps = ReceivedWakeUps(waiters: [answer], drainWanted: true, scheduled: true)
        #expect(wakeUps.wake() == true)
    }

    @Test("a caller still draining gets its wake at its next wait; the signals get a task all the same")
    func stillDraining() async {
        let answer = Answer()
        let wakeUps = ReceivedWakeUps(waiters: [answer], drainWanted: true, scheduled: true)
        #expect(wakeUps.wake() == true)
        // Its next wait returns at once: it drains again for its reply.
        await answer.nextWake()
        #expect(!answer.isWaiting)
    }

    @Test("with no signal, only the replies' callers are woken; with neither, nothing drains")
    func repliesOnly() async {
        let (answer, caller) = await Self.waitingCaller()
        #expect(ReceivedWakeUps(waiters: [answer], drainWanted: false, scheduled: true).wake() == false)
        await caller.value
        #expect(ReceivedWakeUps(waiters: [Answer()], drainWanted: false, scheduled: true).wake() == false)
        #expect(ReceivedWakeUps(waiters: [], drainWanted: true, scheduled: true).wake() == true)
    }
}
