import Foundation
import Testing
import DesktopNotificationsSupport
@testable import UserNotifications
import UserNotificationsTesting

@Suite("DeadlineHeap")
struct DeadlineHeapTests {
    /// What the heap must behave like: a plain list, searched and sorted on every question.
    struct Model {
        var entries: [(key: Int, deadline: Double, sequence: Int)] = []
        var nextSequence = 0

        mutating func insert(_ key: Int, at deadline: Double) {
            entries.removeAll { $0.key == key }
            entries.append((key, deadline, nextSequence))
            nextSequence += 1
        }

        var ordered: [Int] {
            entries.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }.map(\.key)
        }

        var first: Int? {
            entries.min { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }?.key
        }
    }

    @Test func randomInsertsReplacementsAndRemovalsKeepDeadlineOrder() {
        var generator = SeededGenerator(seed: 7)
        var heap = DeadlineHeap<Int, Date>()
        var model = Model()

        for _ in 0..<10_000 {
            let key = Int.random(in: 0..<500, using: &generator)
            if Int.random(in: 0..<4, using: &generator) == 0 {
                heap.remove(key)
                model.entries.removeAll { $0.key == key }
            } else {
                let deadline = Double(Int.random(in: 0..<100, using: &generator))
                heap.insert(key, at: Date(timeIntervalSince1970: deadline))
                model.insert(key, at: deadline)
            }
            guard heap.count == model.entries.count, heap.first?.key == model.first else {
                Issue.record("heap and model disagree: \(heap.count) vs \(model.entries.count) entries")
                return
            }
        }

        var drained: [Int] = []
        while let entry = heap.first {
            drained.append(entry.key)
            heap.remove(entry.key)
        }
        #expect(drained == model.ordered)
    }

    @Test func popAllTakesExactlyTheDueEntriesEarliestFirst() {
        var heap = DeadlineHeap<String, Date>()
        heap.insert("c", at: Date(timeIntervalSince1970: 30))
        heap.insert("a", at: Date(timeIntervalSince1970: 10))
        heap.insert("b", at: Date(timeIntervalSince1970: 20))

        let due = heap.popAll(dueBy: Date(timeIntervalSince1970: 20))

        #expect(due.map(\.key) == ["a", "b"])
        #expect(heap.count == 1)
        #expect(heap.deadline(of: "c") == Date(timeIntervalSince1970: 30))
        #expect(heap.deadline(of: "a") == nil)
    }
}
