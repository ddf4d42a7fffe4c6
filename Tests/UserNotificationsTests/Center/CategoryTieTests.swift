import Foundation
import Testing
@testable import UserNotifications

/// Categories sharing an identifier: every engine keeps the same one of them, the one the
/// agent's records keep, whatever order the app's set has.
@Suite("Center: one category of each identifier, the same on every engine")
struct CategoryTieTests {
    /// Twenty identifiers, each with two unequal categories: one with a `reply` action, one
    /// with a destructive `delete`; and one identifier of its own.
    static let tied: [UNNotificationCategory] = (0..<20).flatMap { index in
        [
            UNNotificationCategory(
                identifier: "c\(index)", actions: [UNNotificationAction(identifier: "reply\(index)", title: "Reply")], intentIdentifiers: []),
            UNNotificationCategory(
                identifier: "c\(index)", actions: [UNNotificationAction(identifier: "delete\(index)", title: "Delete", options: [.destructive])],
                intentIdentifiers: []),
        ]
    } + [UNNotificationCategory(identifier: "alone", actions: [], intentIdentifiers: [])]

    /// What the agent's records keep of ``tied``, by identifier.
    static func keptByRecords() throws -> [String: NotificationCategorySnapshot] {
        let kept = try NotificationCategorySnapshot.oneOfEachIdentifier(tied.map(NotificationCategorySnapshot.init))
        return Dictionary(uniqueKeysWithValues: kept.map { ($0.identifier, $0) })
    }

    static func byIdentifier(_ categories: Set<UNNotificationCategory>) -> [String: NotificationCategorySnapshot] {
        Dictionary(categories.map { ($0.identifier, NotificationCategorySnapshot($0)) }) { first, _ in first }
    }

    @Test("the choice keeps the records' one of each identifier, whatever the set's order")
    func choice() throws {
        let expected = try Self.keptByRecords()
        #expect(expected.count == 21)
        // Sets of the same categories whose order differs (their storage's size changes it).
        for capacity in [0, 41, 100, 1_000] {
            var categories = Set<UNNotificationCategory>(minimumCapacity: capacity)
            for category in capacity.isMultiple(of: 2) ? Self.tied : Self.tied.reversed() { categories.insert(category) }
            #expect(categories.count == 41)
            let kept = UNNotificationCategory.oneOfEachIdentifier(categories)
            #expect(kept.count == 21, "capacity \(capacity)")
            #expect(Self.byIdentifier(kept) == expected, "capacity \(capacity)")
            #expect(kept.isSubset(of: categories), "the categories kept are the app's own")
        }
    }

    @Test("a set whose identifiers differ is kept as it is")
    func noTies() {
        let categories = Set(Self.tied.enumerated().map { index, category in
            UNNotificationCategory(identifier: "\(index)", actions: category.actions, intentIdentifiers: [])
        })
        #expect(UNNotificationCategory.oneOfEachIdentifier(categories) == categories)
    }

    @Test("the in-process engine lists the records' one of each identifier")
    func inProcess() async throws {
        let fixture = try await CenterFixture()
        fixture.center.setNotificationCategories(Set(Self.tied))
        let listed = await fixture.center.notificationCategories()
        #expect(listed.count == 21)
        #expect(Self.byIdentifier(listed) == (try Self.keptByRecords()))
    }

    @Test("the GNOME service's engine lists the records' one of each identifier")
    func gnome() async throws {
        let fixture = try await GnomeFixture()
        fixture.center.setNotificationCategories(Set(Self.tied))
        let listed = await fixture.center.notificationCategories()
        #expect(listed.count == 21)
        #expect(Self.byIdentifier(listed) == (try Self.keptByRecords()))
    }
}
