import Testing
@testable import UserNotifications

/// When engines write their state after a change (``SaveCoalescing``), alone and in a group
/// that shares one ``SaveLoad`` (the agent's engines, one per app). Time is given, not
/// taken: each test moves its own instant.
@Suite("Save coalescing")
struct SaveCoalescingTests {
    let start = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    @Test("an engine alone writes its first change at once and gathers a change within the interval into one later write")
    func alone() {
        var timing = SaveCoalescing()
        var decisions = [timing.change(at: at(0))]
        timing.writeStarted(at: at(0))
        timing.writeEnded(after: .milliseconds(1))
        decisions += [timing.change(at: at(5)), timing.change(at: at(6))]
        let taken = [timing.takeWaitingWrite(at: at(25)), timing.takeWaitingWrite(at: at(26))]
        timing.writeEnded(after: .milliseconds(1))
        decisions.append(timing.change(at: at(60)))
        #expect(decisions == [.writeNow, .writeAfter(SaveCoalescing.interval), .waiting, .writeNow])
        #expect(taken == [true, false])
    }

    @Test("a write of another engine of the same load holds an engine's write back for four times its length from its start")
    func sharedLoad() {
        let load = SaveLoad()
        var first = SaveCoalescing(load: load)
        var second = SaveCoalescing(load: load)
        var apart = SaveCoalescing()
        let firstWrite = first.change(at: at(0))
        first.writeStarted(at: at(0))
        first.writeEnded(after: .milliseconds(10))
        // Within 4 × 10 ms of the group's write: the second engine's first change waits,
        // while an engine with a load of its own is not held back.
        let secondFirst = second.change(at: at(15))
        let waitingThen = load.waiting
        let apartFirst = apart.change(at: at(15))
        // The waiting write spaces the first engine's next one further: 4 × 10 ms × 2.
        let firstAgain = first.change(at: at(50))
        let secondTaken = second.takeWaitingWrite(at: at(35))
        second.writeEnded(after: .milliseconds(2))
        let firstTaken = first.takeWaitingWrite(at: at(130))
        first.writeEnded(after: .milliseconds(2))
        // 9 ms after the group's last write, of 2 ms: past 4 × 2 ms.
        let secondAgain = second.change(at: at(139))
        #expect(firstWrite == .writeNow)
        #expect(secondFirst == .writeAfter(.milliseconds(20)))
        #expect(waitingThen == 1)
        #expect(apartFirst == .writeNow)
        #expect(firstAgain == .writeAfter(.milliseconds(80)))
        #expect(secondTaken && firstTaken)
        #expect(load.waiting == 0)
        #expect(secondAgain == .writeNow)
    }

    /// Engines that each change in turn, one change every millisecond and each write taking
    /// `cost`, with the waiting writes carried out when due: the share of the time their
    /// writes took.
    static func shareOfTimeWriting(engines count: Int, changes: Int, write cost: Duration, sharing: Bool) -> Double {
        let start = ContinuousClock.now
        let load = SaveLoad()
        var engines = (0..<count).map { _ in sharing ? SaveCoalescing(load: load) : SaveCoalescing() }
        var due: [(engine: Int, at: ContinuousClock.Instant)] = []
        var now = start
        var writing = Duration.zero
        func write(_ engine: Int) {
            writing += cost
            now += cost
            engines[engine].writeEnded(after: cost)
        }
        for change in 0..<changes {
            now += .milliseconds(1)
            // Taken out before they run: each write moves `now` on.
            let ready = due.filter { $0.at <= now }
            due.removeAll { $0.at <= now }
            for flush in ready {
                if engines[flush.engine].takeWaitingWrite(at: now) { write(flush.engine) }
            }
            let engine = change % count
            switch engines[engine].change(at: now) {
            case .writeNow:
                engines[engine].writeStarted(at: now)
                write(engine)
            case .writeAfter(let spacing):
                due.append((engine, now + spacing))
            case .waiting:
                break
            }
        }
        return writing / (now - start)
    }

    @Test("100 engines changing in turn, as the agent's apps each adding in turn, spend about a quarter of the time writing, not three quarters")
    func interleaved() {
        // Each engine's own last write is long past at each of its changes (100 changes and
        // their writes ago): without the shared load, every change was written at once. With
        // it, each engine waits 4 × its write × the engines waiting, so the group's writes take
        // about a quarter of the time (0.28 here; 0.24-0.27 with 10 engines or 1 ms writes).
        let shared = Self.shareOfTimeWriting(engines: 100, changes: 5_000, write: .milliseconds(3), sharing: true)
        let apart = Self.shareOfTimeWriting(engines: 100, changes: 5_000, write: .milliseconds(3), sharing: false)
        #expect(shared < 0.3, "writes took \(shared) of the time")
        #expect(apart > 0.7, "the same engines with loads of their own wrote at every change: \(apart)")
    }
}
