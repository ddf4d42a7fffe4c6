import DesktopNotificationsSupport
import Dispatch
import Testing

@Suite("DeadlineSet: the bookkeeping of one timer for many deadlines")
struct DeadlineSetTests {
    private func at(_ milliseconds: UInt64) -> DispatchTime {
        DispatchTime(uptimeNanoseconds: 1_000_000_000 + milliseconds * 1_000_000)
    }

    @Test("the timer moves only for an earlier deadline")
    func armsOnlyEarlier() {
        var set = DeadlineSet<Int, String>()
        #expect(set.armedAt == nil)
        #expect(set.insert("b", for: 2, at: at(200)) == at(200))
        #expect(set.insert("c", for: 3, at: at(300)) == nil)
        #expect(set.insert("a", for: 1, at: at(100)) == at(100))
        #expect(set.armedAt == at(100))
        #expect(set.count == 3)
    }

    @Test("a removed entry leaves the timer where it is and is never due")
    func removalKeepsTimer() {
        var set = DeadlineSet<Int, String>()
        _ = set.insert("a", for: 1, at: at(100))
        _ = set.insert("b", for: 2, at: at(200))
        #expect(set.remove(1) == "a")
        #expect(set.remove(1) == nil)
        #expect(set.armedAt == at(100))
        // The timer rings at 100 ms: nothing is due, and it moves to the next deadline.
        let (due, next) = set.takeDue(at: at(100))
        #expect(due.isEmpty)
        #expect(next == at(200))
        #expect(set[2] == "b")
    }

    @Test("what is due comes out in deadline order; the rest waits; nothing left lets the timer rest")
    func takesDueInOrder() {
        var set = DeadlineSet<Int, String>()
        _ = set.insert("late", for: 3, at: at(300))
        _ = set.insert("second", for: 2, at: at(150))
        _ = set.insert("first", for: 1, at: at(100))
        let (due, next) = set.takeDue(at: at(200))
        #expect(due == ["first", "second"])
        #expect(next == at(300))
        #expect(set.armedAt == at(300))
        #expect(set.count == 1)
        let (rest, after) = set.takeDue(at: at(300))
        #expect(rest == ["late"])
        #expect(after == nil)
        #expect(set.armedAt == nil)
        #expect(set.count == 0)
    }

    @Test("an entry added again under its key replaces the first; removeAll empties the set and the timer")
    func replaceAndRemoveAll() {
        var set = DeadlineSet<Int, String>()
        _ = set.insert("old", for: 1, at: at(100))
        _ = set.insert("new", for: 1, at: at(500))
        _ = set.insert("other", for: 2, at: at(200))
        #expect(set.count == 2)
        #expect(set.takeDue(at: at(300)).due == ["other"])
        #expect(set.removeAll() == ["new"])
        #expect(set.count == 0)
        #expect(set.armedAt == nil)
    }

    @Test("of equal deadlines the first added comes out first; a thousand entries come out in deadline order")
    func ordersTiesAndMany() {
        var set = DeadlineSet<Int, Int>()
        for key in [5, 3, 9, 1] { _ = set.insert(key, for: key, at: at(100)) }
        #expect(set.takeDue(at: at(100)).due == [5, 3, 9, 1])
        var generator = SystemRandomNumberGenerator()
        let deadlines = (0..<1_000).map { _ in UInt64.random(in: 0..<500, using: &generator) }
        for (key, deadline) in deadlines.enumerated() { _ = set.insert(key, for: key, at: at(deadline)) }
        for key in stride(from: 0, to: 1_000, by: 3) { set.remove(key) }
        let expected = deadlines.enumerated().filter { !$0.offset.isMultiple(of: 3) }
            .sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map(\.offset)
        let (early, next) = set.takeDue(at: at(250))
        #expect(early == expected.filter { deadlines[$0] <= 250 })
        #expect(next == expected.first { deadlines[$0] > 250 }.map { at(deadlines[$0]) })
        #expect(set.removeAll() == expected.filter { deadlines[$0] > 250 })
        #expect(set.count == 0 && set.armedAt == nil)
    }
}
