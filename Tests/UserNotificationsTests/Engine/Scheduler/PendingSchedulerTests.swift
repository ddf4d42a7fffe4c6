import Foundation
import Synchronization
import Testing
@testable import UserNotifications
import UserNotificationsTesting

@Suite("PendingScheduler on virtual time")
struct PendingSchedulerTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let clock: TestNotificationClock
    let log = FiringLog<String>()
    let scheduler: PendingScheduler<String>

    init() {
        clock = TestNotificationClock(now: start)
        scheduler = PendingScheduler(clock: clock) { [log] key, deadline in log.record(key, deadline) }
    }

    func at(_ seconds: TimeInterval) -> Date {
        start.addingTimeInterval(seconds)
    }

    // MARK: - Order

    @Test func entriesFireInDeadlineOrderWithTheirDeadlines() {
        scheduler.schedule("c", at: at(30))
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(20))

        clock.advance(by: 30)

        #expect(log.keys == ["a", "b", "c"])
        #expect(log.deadlines == [at(10), at(20), at(30)])
        #expect(scheduler.count == 0)
    }

    @Test func entriesWithTheSameDeadlineFireInTheOrderTheyWereScheduled() {
        for key in ["x", "y", "z", "w"] {
            scheduler.schedule(key, at: at(10))
        }

        clock.advance(by: 10)

        #expect(log.keys == ["x", "y", "z", "w"])
    }

    @Test func nothingFiresBeforeItsDeadline() {
        scheduler.schedule("a", at: at(10))

        clock.advance(by: 9.999)

        #expect(log.keys.isEmpty)
        #expect(scheduler.deadline(of: "a") == at(10))
    }

    @Test func aDeadlineAlreadyPassedFiresBeforeScheduleReturns() {
        scheduler.schedule("late", at: at(-5))

        #expect(log.keys == ["late"])
        #expect(log.deadlines == [at(-5)])
        #expect(clock.alarmDeadlines.isEmpty)
    }

    // MARK: - Replace and cancel

    @Test func schedulingAKeyAgainReplacesItsDeadline() {
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("a", at: at(20))

        #expect(scheduler.count == 1)
        #expect(scheduler.deadline(of: "a") == at(20))
        clock.advance(by: 10)
        #expect(log.keys.isEmpty)
        clock.advance(by: 10)
        #expect(log.keys == ["a"])
        #expect(log.deadlines == [at(20)])
    }

    @Test func aReplacedKeyTakesItsPlaceAfterEqualDeadlines() {
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(10))
        scheduler.schedule("a", at: at(10))

        clock.advance(by: 10)

        #expect(log.keys == ["b", "a"])
    }

    @Test func aCancelledEntryNeverFires() {
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(20))

        scheduler.cancel("b")
        clock.advance(by: 60)

        #expect(log.keys == ["a"])
        #expect(scheduler.deadline(of: "b") == nil)
    }

    @Test func cancellingAnUnknownKeyChangesNothing() {
        scheduler.schedule("a", at: at(10))

        scheduler.cancel("unknown")

        #expect(scheduler.count == 1)
        #expect(clock.alarmDeadlines == [at(10)])
    }

    @Test func cancelAllFiresNothingAndLeavesNoAlarm() {
        for index in 0..<10 {
            scheduler.schedule("entry \(index)", at: at(Double(index + 1)))
        }

        scheduler.cancelAll()
        clock.advance(by: 60)

        #expect(log.keys.isEmpty)
        #expect(scheduler.count == 0)
        #expect(clock.alarmDeadlines.isEmpty)
    }

    // MARK: - The one armed alarm

    @Test func anIdleSchedulerHasNoAlarm() {
        #expect(clock.alarmDeadlines.isEmpty)
        scheduler.schedule("a", at: at(10))
        clock.advance(by: 10)
        #expect(clock.alarmDeadlines.isEmpty)
    }

    @Test func exactlyOneAlarmIsSetForTheEarliestDeadline() {
        scheduler.schedule("b", at: at(20))
        scheduler.schedule("c", at: at(30))
        scheduler.schedule("a", at: at(10))

        #expect(clock.alarmDeadlines == [at(10)])
    }

    @Test func addingAnEarlierEntryRearmsTheAlarm() {
        scheduler.schedule("late", at: at(100))
        #expect(clock.alarmDeadlines == [at(100)])

        scheduler.schedule("early", at: at(10))

        #expect(clock.alarmDeadlines == [at(10)])
        clock.advance(by: 10)
        #expect(log.keys == ["early"])
        #expect(clock.alarmDeadlines == [at(100)])
    }

    @Test func cancellingTheEarliestEntryRearmsToTheNext() {
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(20))

        scheduler.cancel("a")

        #expect(clock.alarmDeadlines == [at(20)])
        scheduler.cancel("b")
        #expect(clock.alarmDeadlines.isEmpty)
    }

    @Test func movingTheEarliestEntryLaterRearmsToTheNewEarliest() {
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(20))

        scheduler.schedule("a", at: at(30))

        #expect(clock.alarmDeadlines == [at(20)])
    }

    // MARK: - Clock jumps

    @Test func aJumpForwardFiresEveryDueEntryOnceInOrder() {
        scheduler.schedule("c", at: at(30))
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(20))
        scheduler.schedule("later", at: at(100))

        clock.set(to: at(50))

        #expect(log.keys == ["a", "b", "c"])
        #expect(clock.alarmDeadlines == [at(100)])
        clock.advance(by: 10)
        #expect(log.keys == ["a", "b", "c"])
    }

    @Test func aRepeatingEntryFiresOnceForAJumpOverManyPeriods() {
        let repeating = RepeatingSchedule(clock: clock, anchor: start, period: 60)
        repeating.start(firstAt: at(60))

        clock.set(to: at(3_600 + 30))

        #expect(repeating.firedDeadlines == [at(60)])
        #expect(repeating.scheduler.deadline(of: "every minute") == at(3_660))
    }

    @Test func aJumpBackFiresNothingAgain() {
        scheduler.schedule("a", at: at(10))
        scheduler.schedule("b", at: at(30))
        clock.advance(by: 20)
        #expect(log.keys == ["a"])

        clock.set(to: at(0))

        #expect(log.keys == ["a"])
        #expect(clock.alarmDeadlines == [at(30)])
        clock.advance(by: 30)
        #expect(log.keys == ["a", "b"])
    }

    @Test func aRepeatingEntryDoesNotRefireAPeriodAfterAJumpBack() {
        let repeating = RepeatingSchedule(clock: clock, anchor: start, period: 60)
        repeating.start(firstAt: at(60))
        clock.advance(by: 90)
        #expect(repeating.firedDeadlines == [at(60)])

        clock.set(to: at(30))
        clock.advance(by: 45)

        #expect(repeating.firedDeadlines == [at(60)])
        clock.advance(by: 45)
        #expect(repeating.firedDeadlines == [at(60), at(120)])
    }

    // MARK: - Handlers that schedule

    @Test func aHandlerMayRescheduleItsRepeatAsTimeFlows() {
        let repeating = RepeatingSchedule(clock: clock, anchor: start, period: 60)
        repeating.start(firstAt: at(60))

        clock.advance(by: 600)

        #expect(repeating.firedDeadlines == (1...10).map { at(Double($0) * 60) })
    }

    @Test func schedulingFromManyThreadsLosesNothing() {
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<1_000 {
                scheduler.schedule("\(thread)-\(index)", at: at(Double(index + 1)))
            }
        }
        #expect(scheduler.count == 8_000)

        clock.set(to: at(2_000))

        #expect(log.keys.count == 8_000)
        #expect(Set(log.keys).count == 8_000)
        #expect(log.deadlines == log.deadlines.sorted())
    }

    @Test func aHandlerSchedulingAPassedDeadlineGetsItRightAfterwards() {
        let log = FiringLog<String>()
        let reference = WeakSchedulerReference()
        let scheduler = PendingScheduler<String>(clock: clock) { key, deadline in
            log.record(key, deadline)
            if key == "first" { reference.scheduler?.schedule("overdue", at: deadline.addingTimeInterval(-60)) }
        }
        reference.scheduler = scheduler
        scheduler.schedule("first", at: at(10))
        scheduler.schedule("second", at: at(10))

        clock.advance(by: 10)

        #expect(log.keys == ["first", "second", "overdue"])
    }

    @Test func handlerCallsNeverOverlapEvenWhenManyThreadsFindEntriesDue() {
        let running = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let calls = Atomic<Int>(0)
        let scheduler = PendingScheduler<Int>(clock: clock) { _, _ in
            if running.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            calls.add(1, ordering: .relaxed)
            running.subtract(1, ordering: .sequentiallyConsistent)
        }

        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<500 {
                scheduler.schedule(thread * 1_000 + index, at: at(-1))
            }
        }

        #expect(calls.load(ordering: .relaxed) == 4_000)
        #expect(overlaps.load(ordering: .relaxed) == 0)
    }

    // MARK: - Scale

    @Test func aHundredThousandEntriesFireInDeadlineOrder() {
        let log = FiringLog<Int>()
        let scheduler = PendingScheduler<Int>(clock: clock) { key, deadline in log.record(key, deadline) }
        var generator = SeededGenerator(seed: 2_026)
        let offsets = (0..<100_000).map { Double($0 / 2) }.shuffled(using: &generator)

        let elapsed = ContinuousClock().measure {
            for (key, offset) in offsets.enumerated() {
                scheduler.schedule(key, at: at(offset + 1))
            }
        }
        print("PendingScheduler: scheduled 100,000 entries in \(elapsed)")

        #expect(elapsed < .seconds(10))
        #expect(scheduler.count == 100_000)
        #expect(clock.alarmDeadlines == [at(1)])
        clock.advance(by: 50_000)
        #expect(log.all.count == 100_000)
        #expect(log.keys == offsets.indices.sorted { (offsets[$0], $0) < (offsets[$1], $1) })
        #expect(log.deadlines == offsets.sorted().map { at($0 + 1) })
    }
}

/// A scheduler whose one entry repeats every `period` seconds from `anchor`, rescheduled from
/// the handler the way the center reschedules repeating triggers: to the first period after now.
private final class RepeatingSchedule: Sendable {
    let scheduler: PendingScheduler<String>
    private let log = FiringLog<String>()

    init(clock: TestNotificationClock, anchor: Date, period: TimeInterval) {
        let log = log
        let reference = WeakSchedulerReference()
        scheduler = PendingScheduler(clock: clock) { key, deadline in
            log.record(key, deadline)
            let periods = (clock.now.timeIntervalSince(anchor) / period).rounded(.down) + 1
            reference.scheduler?.schedule(key, at: anchor.addingTimeInterval(periods * period))
        }
        reference.scheduler = scheduler
    }

    func start(firstAt deadline: Date) {
        scheduler.schedule("every minute", at: deadline)
    }

    var firedDeadlines: [Date] { log.deadlines }
}

/// Lets a scheduler's handler reach the scheduler without keeping it alive.
private final class WeakSchedulerReference: Sendable {
    private struct Weak {
        weak var scheduler: PendingScheduler<String>?
    }

    private let reference = Mutex(Weak())

    var scheduler: PendingScheduler<String>? {
        get { reference.withLock { $0.scheduler } }
        set { reference.withLock { $0.scheduler = newValue } }
    }
}
